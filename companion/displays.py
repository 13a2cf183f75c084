"""Pairing a TV with a table: the TV shows a short one-time code, the host's phone types or scans it.

A TV cannot scan a QR code, and typing ``/t/<code>/screen`` with a remote is slow. So the TV opens
``/screen``, which asks for a *pairing*: a 6-character code (shown big, with a QR code of the
address that pairs it) and a private key that only the TV holds. The phone holding the table's host
rights sends the code; the TV, asking with its key, learns the table and becomes its display
(``/t/<code>/screen``: the public state, never the host's rights).

Anyone in the room sees the TV's code, so the first to type it must not simply take the TV (a
stranger with a table of their own, racing the host). The TV shows which table asks for it (its
code and its host's name) for ``wait`` seconds before it shows that table; a second table asking
meanwhile stops the countdown and the TV itself chooses (or refuses them all). Once paired, the TV
changes table only from the host of the table it shows (``current``: that table's host token, sent
with the new table's pairing) or from the TV itself (it opens ``/screen`` again for a new code).

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
KEPT_SECONDS = 3600  # an expired code is still told apart from a wrong one this long
PAIRED_SECONDS = 86400  # a paired TV keeps its code (and follows its table's host) this long
SCHEMA = """
CREATE TABLE IF NOT EXISTS displays (
    code_hash   TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    expires_at  REAL NOT NULL,
    table_code  TEXT
);
CREATE TABLE IF NOT EXISTS display_asks (
    code_hash   TEXT NOT NULL,
    table_code  TEXT NOT NULL,
    host_name   TEXT,
    asked_at    REAL NOT NULL,
    PRIMARY KEY (code_hash, table_code)
);
"""

UNKNOWN = N_("No screen shows the code %(code)s: check the code on the TV and type it again.")
EXPIRED = N_("The code %(code)s has expired: reload the page on the TV for a new one.")
SHOWN = N_("This TV shows table %(table)s: only that table's host, or the TV itself, can change it.")
NOT_ASKED = N_("Table %(table)s did not ask for this TV.")


def clean_pairing(raw: Any) -> str:
    """The code as typed (any case, spaces and dashes ignored), or a 400 that says what a code looks like."""
    code = "".join(raw.split()).replace("-", "").upper() if isinstance(raw, str) and len(raw) <= 20 else ""
    if len(code) != PAIR_LENGTH or any(char not in CODE_ALPHABET for char in code):
        raise TableError(400, N_("A TV's code has %(count)s letters and digits, as the TV shows it."),
                         count=PAIR_LENGTH)
    return code


class Displays:
    def __init__(self, store, tables: Tables, clock: Callable[[], float] = steady.now, wait: float = 10):
        self.store, self.tables, self.clock = store, tables, clock
        self.wait = wait  # seconds a TV names the table that asked before showing it
        store.ensure_schema(SCHEMA)

    def new_pairing(self) -> dict:
        """A fresh code for a TV, and the key with which it asks whether it was paired."""
        key = secrets.token_urlsafe(24)
        now = self.clock()
        with self.store.transaction() as tx:
            tx.execute("DELETE FROM displays WHERE expires_at < ? AND (table_code IS NULL OR expires_at < ?)",
                       (now - KEPT_SECONDS, now - PAIRED_SECONDS))
            tx.execute("DELETE FROM display_asks WHERE code_hash NOT IN (SELECT code_hash FROM displays)")
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
        """What the TV holding ``key`` should show: its code still waiting, the tables asking for it
        (each with its host's name and, when it is the only one, when the TV shows it), or the table it
        now displays. A lone ask whose wait is over pairs the TV here."""
        with self.store.reading() as tx:  # a TV asks every few seconds: a write only when it pairs
            row = self._own_row(tx, key)
            asks = self._asks(tx, row["code_hash"])
        if row["table_code"]:
            return {"state": "paired", "table": row["table_code"],
                    "host": next((ask["host"] for ask in asks if ask["table"] == row["table_code"]), None)}
        if row["expires_at"] < self.clock():
            return {"state": "expired"}
        if len(asks) == 1 and asks[0]["until"] <= self.clock():
            with self.store.transaction() as tx:
                # Read again: another table may have asked since, and the TV then chooses.
                now_asking = self._asks(tx, row["code_hash"])
                if now_asking == asks and self._own_row(tx, key)["table_code"] is None:
                    return self._show(tx, row["code_hash"], asks[0])
            return self.status(key)
        if asks:  # "in": the seconds left, by the server's clock (a TV's own clock may be off)
            return {"state": "asked", "contested": len(asks) > 1,
                    "asks": [{**ask, "in": max(0, round(ask["until"] - self.clock()))} for ask in asks]}
        return {"state": "waiting", "expires": row["expires_at"]}

    def choose(self, key: Any, raw_table: Any) -> dict:
        """The TV itself: shows one of the tables that asked for it (``raw_table``), or refuses them
        all (None) and keeps waiting for its code."""
        with self.store.transaction() as tx:
            row = self._own_row(tx, key)
            if row["table_code"]:
                raise TableError(409, SHOWN, table=row["table_code"])
            asks = self._asks(tx, row["code_hash"])
            if raw_table is None:
                tx.execute("DELETE FROM display_asks WHERE code_hash = ?", (row["code_hash"],))
                return {"state": "waiting", "expires": row["expires_at"]}
            chosen = next((ask for ask in asks if ask["table"] == raw_table), None)
            if chosen is None:
                raise TableError(404, NOT_ASKED, table=str(raw_table)[:8])
            return self._show(tx, row["code_hash"], chosen)

    @staticmethod
    def _own_row(tx, key: Any):
        row = tx.execute("SELECT code_hash, expires_at, table_code FROM displays WHERE key_hash = ?",
                         (hash_token(key),)).fetchone() if isinstance(key, str) and 0 < len(key) <= 200 else None
        if row is None:
            raise TableError(401, N_("This TV's key is not valid: reload the page."))
        return row

    def _asks(self, tx, code_hash: str) -> list[dict]:
        rows = tx.execute("SELECT table_code, host_name, asked_at FROM display_asks WHERE code_hash = ? "
                          "ORDER BY asked_at", (code_hash,)).fetchall()
        return [{"table": row["table_code"], "host": row["host_name"], "until": round(row["asked_at"] + self.wait, 3)}
                for row in rows]

    @staticmethod
    def _show(tx, code_hash: str, ask: dict) -> dict:
        """The TV shows this table from now on; the other asks are dropped."""
        tx.execute("UPDATE displays SET table_code = ? WHERE code_hash = ?", (ask["table"], code_hash))
        tx.execute("DELETE FROM display_asks WHERE code_hash = ? AND table_code <> ?", (code_hash, ask["table"]))
        return {"state": "paired", "table": ask["table"], "host": ask["host"]}

    def _hosts(self, table_code: str, token: Any) -> bool:
        """Whether ``token`` holds the host's rights of ``table_code``."""
        try:
            return self.tables.authenticate(table_code, token).is_host
        except TableError:
            return False

    def _host_name(self, principal: Principal) -> str | None:
        """The name the TV shows for the table that asks: its seat holding the host's rights (a host
        phone), whichever of the host's keys sent the code; a table hosted by a screen alone has none
        (the TV then names the table only)."""
        table = self.tables.view_for(Principal(principal.code, "spectator"))["table"]
        host_seat = principal.seat if principal.role == "seat" else table["host_seat"]
        return next((seat["name"] for seat in table["seats"] if seat["id"] == host_seat), None)

    def pair(self, raw_table: Any, token: Any, raw_code: Any, current: Any = None) -> dict:
        """The host (host key or a seat holding the host's rights) sends the TV's code: the TV names the
        table and shows it after its wait, unless another table asks meanwhile (the TV then chooses).
        A TV that shows a table already moves only when ``current`` is that table's host token.
        Nothing changes when the code or a token is refused."""
        principal: Principal = self.tables.authenticate(raw_table, token)
        if principal.role == "spectator":
            raise TableError(401, N_("A seat or host token is needed to act."))
        if not principal.is_host:
            raise TableError(403, N_("Only the host can do that."))
        if self.tables.summary(principal.code)["status"] == "closed":
            raise TableError(410, N_("This table is closed."))
        code = clean_pairing(raw_code)
        ask = {"table": principal.code, "host": self._host_name(principal)}  # read before the write
        with self.store.transaction() as tx:
            row = tx.execute("SELECT expires_at, table_code FROM displays WHERE code_hash = ?",
                             (hash_token(code),)).fetchone()
            self.tables.code_lookup(row is not None)  # a guessed code spends one of the address's misses
            if row is None:
                raise TableError(404, UNKNOWN, code=code)
            if row["table_code"] == principal.code:
                return {"ok": True, "table": principal.code, "state": "paired"}
            if row["table_code"]:  # the TV moves only at the word of the host of the table it shows
                if not self._hosts(row["table_code"], current):
                    raise TableError(409, SHOWN, table=row["table_code"])
                self._remember_ask(tx, hash_token(code), ask)
                self._show(tx, hash_token(code), ask)
                return {"ok": True, "table": principal.code, "state": "paired"}
            if row["expires_at"] < self.clock():
                raise TableError(410, EXPIRED, code=code)
            self._remember_ask(tx, hash_token(code), ask)
            asks = self._asks(tx, hash_token(code))
            if len(asks) == 1 and self.wait <= 0:
                self._show(tx, hash_token(code), asks[0])
                return {"ok": True, "table": principal.code, "state": "paired"}
        return {"ok": True, "table": principal.code, "state": "asked", "contested": len(asks) > 1}

    def _remember_ask(self, tx, code_hash: str, ask: dict) -> None:
        """A table's ask for the TV (asking again keeps its place in the queue)."""
        tx.execute("INSERT OR IGNORE INTO display_asks (code_hash, table_code, host_name, asked_at) "
                   "VALUES (?, ?, ?, ?)", (code_hash, ask["table"], ask["host"], self.clock()))
