"""Pairing a TV with a table: the TV shows a short one-time code, the host's phone types or scans it.

A TV cannot scan a QR code, and typing ``/t/<code>/screen`` with a remote is slow. So the TV opens
``/screen``, which asks for a *pairing*: a 6-character code (shown big, with a QR code of the
address that pairs it) and a private key that only the TV holds. The phone holding the table's host
rights sends the code; the TV, asking with its key, learns the table and becomes its display
(``/t/<code>/screen``: the public state, never the host's rights).

A code is good once and for ``PAIR_SECONDS``; it is kept hashed, in the store (so a TV and a phone
served by two processes pair as well as by one). 31^6 ≈ 887 million codes, of which a room has one
or two live at a time, and the web shell limits how many codes one address may miss: guessing one
is hopeless. A code that names nothing, one already used and one past its time are refused with
what to do, and change nothing.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable

from companion import clock as steady
from companion.errors import TableError, hash_token
from companion.games.base import N_
from companion.tables import CODE_ALPHABET, Principal, Tables

PAIR_LENGTH = 6
PAIR_SECONDS = 600
KEPT_SECONDS = 3600  # a used or expired code is still told apart from a wrong one this long
SCHEMA = """
CREATE TABLE IF NOT EXISTS displays (
    code_hash   TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    expires_at  REAL NOT NULL,
    table_code  TEXT
);
"""

UNKNOWN = N_("No screen shows the code %(code)s: check the code on the TV and type it again.")
USED = N_("The code %(code)s was already used: the TV shows a new one when it is opened again.")
EXPIRED = N_("The code %(code)s has expired: reload the page on the TV for a new one.")


def clean_pairing(raw: Any) -> str:
    """The code as typed (any case, spaces and dashes ignored), or a 400 that says what a code looks like."""
    code = "".join(raw.split()).replace("-", "").upper() if isinstance(raw, str) and len(raw) <= 20 else ""
    if len(code) != PAIR_LENGTH or any(char not in CODE_ALPHABET for char in code):
        raise TableError(400, N_("A TV's code has %(count)s letters and digits, as the TV shows it."),
                         count=PAIR_LENGTH)
    return code


class Displays:
    def __init__(self, store, tables: Tables, clock: Callable[[], float] = steady.now):
        self.store, self.tables, self.clock = store, tables, clock
        store.ensure_schema(SCHEMA)

    def new_pairing(self) -> dict:
        """A fresh code for a TV, and the key with which it asks whether it was paired."""
        key = secrets.token_urlsafe(24)
        now = self.clock()
        with self.store.transaction() as tx:
            tx.execute("DELETE FROM displays WHERE expires_at < ?", (now - KEPT_SECONDS,))
            for _ in range(5):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(PAIR_LENGTH))
                if tx.execute("SELECT 1 FROM displays WHERE code_hash = ?", (hash_token(code),)).fetchone() is None:
                    break
            else:
                raise TableError(503, N_("No TV code is free right now; try again."))
            tx.execute("INSERT INTO displays (code_hash, key_hash, expires_at, table_code) VALUES (?, ?, ?, NULL)",
                       (hash_token(code), hash_token(key), now + PAIR_SECONDS))
        return {"code": code, "key": key, "expires": round(now + PAIR_SECONDS, 3)}

    def status(self, key: Any) -> dict:
        """What the TV holding ``key`` should show: its code still waiting, or the table it now displays."""
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            raise TableError(401, N_("This TV's key is not valid: reload the page."))
        with self.store.reading() as tx:
            row = tx.execute("SELECT expires_at, table_code FROM displays WHERE key_hash = ?",
                             (hash_token(key),)).fetchone()
        if row is None:
            raise TableError(401, N_("This TV's key is not valid: reload the page."))
        if row["table_code"]:
            return {"state": "paired", "table": row["table_code"]}
        if row["expires_at"] < self.clock():
            return {"state": "expired"}
        return {"state": "waiting", "expires": row["expires_at"]}

    def pair(self, raw_table: Any, token: Any, raw_code: Any) -> dict:
        """The host (host key or a seat holding the host's rights) sends the TV's code: that TV now
        shows the table. Nothing changes when the code or the token is refused."""
        principal: Principal = self.tables.authenticate(raw_table, token)
        if principal.role == "spectator":
            raise TableError(401, N_("A seat or host token is needed to act."))
        if not principal.is_host:
            raise TableError(403, N_("Only the host can do that."))
        if self.tables.summary(principal.code)["status"] == "closed":
            raise TableError(410, N_("This table is closed."))
        code = clean_pairing(raw_code)
        with self.store.transaction() as tx:
            row = tx.execute("SELECT expires_at, table_code FROM displays WHERE code_hash = ?",
                             (hash_token(code),)).fetchone()
            self.tables.code_lookup(row is not None)  # a guessed code spends one of the address's misses
            if row is None:
                raise TableError(404, UNKNOWN, code=code)
            if row["table_code"]:
                raise TableError(409, USED, code=code)
            if row["expires_at"] < self.clock():
                raise TableError(410, EXPIRED, code=code)
            tx.execute("UPDATE displays SET table_code = ? WHERE code_hash = ? AND table_code IS NULL",
                       (principal.code, hash_token(code)))
        return {"ok": True, "table": principal.code}
