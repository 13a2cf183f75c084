"""What the table shell refuses with, and how it keeps tokens (hashed, never in clear)."""

from __future__ import annotations

import hashlib
from typing import Any


class TableError(Exception):
    """A refusal with an HTTP status and a translatable English message."""

    def __init__(self, status: int, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.status = status
        self.message = message
        self.params = params


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
