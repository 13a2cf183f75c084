"""The thin web shell: pages, the JSON API and Socket.IO handlers."""

from flask import current_app

from companion.tables import Tables


def tables() -> Tables:
    return current_app.extensions["companion.tables"]
