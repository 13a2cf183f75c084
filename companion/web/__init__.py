"""The thin web shell: pages, the JSON API and Socket.IO handlers."""

from flask import current_app

from companion.games.base import N_
from companion.tables import Tables, TableError

MAX_GAME_NUMBER_DIGITS = 6


def tables() -> Tables:
    return current_app.extensions["companion.tables"]


def game_number(raw: str | None) -> int | None:
    """A ``?game=`` number of the log and the verify page; None when there is none. ASCII digits
    only: "²" is a digit to Python's ``isdigit`` but not to ``int``."""
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_GAME_NUMBER_DIGITS):
        raise TableError(400, N_("The game number is a whole number, such as 1 or 2."))
    return int(raw)
