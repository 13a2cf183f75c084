"""What the table shell refuses with, and how it keeps tokens (hashed, never in clear)."""

from __future__ import annotations

import hashlib
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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
