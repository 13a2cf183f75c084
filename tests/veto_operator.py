"""The operator's veto, as a changed server (issue 24, 3): a roll whose draws would show a 6 is refused
with the server's own "disk full" (a 503, nothing saved), and the phone taps again with its next value.

Loaded into the real server process through ``COMPANION_GAME_MODULES`` (as ``tests.tally_game``
is): importing it changes the server's code, as an operator would. It looks at the draws the server
computed from the store's seed and pool and the phone's value, which is what the operator reads. Each
veto is written, one line each, to the file ``COMPANION_TEST_VETO_LOG`` names, for the test to count."""

from __future__ import annotations

import os

from companion.store import DISK_FAILED, StorageError
from companion.tables import Tables

_honest = Tables._game_action


def _vetoing(self, tx, table, principal, action):
    events, private = _honest(self, tx, table, principal, action)
    if action.get("reveal") and any(6 in event.get("values", []) for event in events if event.get("type") == "rolled"):
        with open(os.environ["COMPANION_TEST_VETO_LOG"], "a", encoding="utf-8") as vetoes:
            vetoes.write(f"{principal.seat} {action['reveal']}\n")
        raise StorageError(DISK_FAILED)  # the transaction is rolled back: the 6 was never rolled
    return events, private


Tables._game_action = _vetoing
