"""What the table shell refuses with, and how it keeps tokens (hashed, never in clear)."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from companion.games.base import N_


class TableError(Exception):
    """A refusal with an HTTP status and a translatable English message."""

    def __init__(self, status: int, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.status = status
        self.message = message
        self.params = params


# A bug on the server's side (not a refusal): the action changed nothing, and what failed is in the server's log.
SERVER_FAILED = N_("The server failed to do this (an error on its side, written in its log): nothing changed. "
                   "Try again; if it fails again, tell the host.")


def fault_answer(error_text: str, status: int | None = None) -> dict:
    """The answer to an action that failed on the server's side (a bug, a full disk), not refused:
    ``fault`` lets a phone tell one from the other (it still counts a value it showed and the server
    did not spend: a fault is what a veto would claim to be, docs/fairness.md). Over Socket.IO the
    answer carries the ``status`` HTTP gives in its status line."""
    return {"ok": False, "error": error_text, **({"status": status} if status else {}), "fault": True}


def log_unspent_value(logger: logging.Logger, code: Any, seat: Any, action: Any) -> None:
    """The server's log says when a fault cost a phone a value it showed: the phone will not send it
    again, and counts it as seen and not spent."""
    if isinstance(action, dict) and action.get("reveal") is not None:
        logger.warning("table %s, seat %s: the action %r failed on the server's side after the phone showed its "
                       "random value %s; the value is not spent and the phone counts it as unspent",
                       code, seat, action.get("type"), action.get("reveal"))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
