"""An operator's changed server (issue 24, 4): it serves one static file of its own, the phone's record
script with a line added. Loaded into the real server process through ``COMPANION_GAME_MODULES``, as
``tests.veto_operator`` is; every other file and page is the checkout's."""

from __future__ import annotations

from flask import Flask

CHANGED = "js/record.js"
ADDED = b"\n// the operator's own line\n"
_honest = Flask.send_static_file


def _changed(self, filename):
    response = _honest(self, filename)
    if filename == CHANGED:
        response.direct_passthrough = False
        response.set_data(response.get_data() + ADDED)
    return response


Flask.send_static_file = _changed
