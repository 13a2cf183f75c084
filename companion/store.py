"""Persistence: tables, seats, the table log and the action log, in SQLite.

Every accepted action is written in one transaction (the new state, the draws
it consumed, its public events and the action itself), so a `kill -9` or a
power cut loses nothing that a phone was told about: the server only emits
after the commit. WAL mode with ``synchronous=FULL`` makes a commit durable.

One connection is shared by the process and guarded by a lock: SQLite
serialises writers anyway, and a game action is a few small statements.

Under gevent (the production server) a commit is made durable by *group
commit*: SQLite commits without waiting for the disk (``synchronous=NORMAL``
in WAL mode still keeps the file consistent), then the transaction waits,
outside the lock, for one fsync of the WAL that covers every transaction
committed meanwhile; that fsync runs in a native thread so no websocket
stalls. The caller only tells the phones once it returns, so a power cut never
loses anything a phone was told. Elsewhere each commit syncs (``FULL``).
``BEGIN IMMEDIATE`` takes SQLite's write lock at once, which also makes the
transaction the table's lock when several processes share the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

SCHEMA_VERSION = 4
SYNC_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code            TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,
    state           TEXT,
    status          TEXT NOT NULL,
    joining_open    INTEGER NOT NULL,
    host_token_hash TEXT NOT NULL UNIQUE,
    seed            TEXT NOT NULL,
    commitment      TEXT NOT NULL,
    pool            TEXT NOT NULL,
    next_draw       INTEGER NOT NULL,
    version         INTEGER NOT NULL,
    created_at      REAL NOT NULL,
    updated_at      REAL NOT NULL,
    figures         TEXT NOT NULL DEFAULT '{}',
    settings        TEXT NOT NULL DEFAULT '{}',
    game_no         INTEGER NOT NULL DEFAULT 1,
    waits           TEXT NOT NULL DEFAULT '[]',
    next_deadline   REAL,
    host_seat       INTEGER,
    undo            TEXT NOT NULL DEFAULT '[]',
    handoffs        TEXT NOT NULL DEFAULT '{}',
    entropy         TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS tables_next_deadline ON tables(next_deadline) WHERE next_deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS seats (
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    colour      TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    removed     INTEGER NOT NULL DEFAULT 0,
    joined_at   REAL NOT NULL,
    PRIMARY KEY (table_code, seat)
);
CREATE TABLE IF NOT EXISTS log (
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    data        TEXT NOT NULL,
    at          REAL NOT NULL,
    game        INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (table_code, idx)
);
CREATE TABLE IF NOT EXISTS games (
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    game        TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    outcome     TEXT,
    ended_at    REAL NOT NULL,
    PRIMARY KEY (table_code, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    actor       TEXT NOT NULL,
    action_key  TEXT,
    action      TEXT NOT NULL,
    result      TEXT NOT NULL,
    at          REAL NOT NULL,
    PRIMARY KEY (table_code, seq),
    UNIQUE (table_code, actor, action_key)
);
"""

# Steps from one schema version to the next, for files made by older versions.
MIGRATIONS = {
    2: "ALTER TABLE tables ADD COLUMN figures TEXT NOT NULL DEFAULT '{}';",
    # A table outlives its games: history, timed waits, host rights on a seat, undo, seat hand-offs.
    3: """
ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tables ADD COLUMN game_no INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tables ADD COLUMN waits TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tables ADD COLUMN next_deadline REAL;
ALTER TABLE tables ADD COLUMN host_seat INTEGER;
ALTER TABLE tables ADD COLUMN undo TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tables ADD COLUMN handoffs TEXT NOT NULL DEFAULT '{}';
CREATE INDEX IF NOT EXISTS tables_next_deadline ON tables(next_deadline) WHERE next_deadline IS NOT NULL;
ALTER TABLE log ADD COLUMN game INTEGER NOT NULL DEFAULT 1;
CREATE TABLE IF NOT EXISTS games (
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    game        TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    outcome     TEXT,
    ended_at    REAL NOT NULL,
    PRIMARY KEY (table_code, number)
);
""",
    # The phones' anchors, chain heads, rounds and pools (companion.fairness.Entropy).
    4: "ALTER TABLE tables ADD COLUMN entropy TEXT NOT NULL DEFAULT '{}';",
}

TABLE_COLUMNS = ("code", "game", "options", "state", "status", "joining_open", "host_token_hash", "seed",
                 "commitment", "pool", "next_draw", "version", "created_at", "updated_at", "figures",
                 "settings", "game_no", "waits", "next_deadline", "host_seat", "undo", "handoffs",
                 "entropy")
JSON_COLUMNS = {"options", "state", "figures", "settings", "waits", "undo", "handoffs", "entropy"}


def _encode(column: str, value: Any) -> Any:
    return json.dumps(value, separators=(",", ":")) if column in JSON_COLUMNS else value


def _decode_table(row: sqlite3.Row | None) -> dict | None:
    if row is None:
        return None
    table = dict(row)
    for column in JSON_COLUMNS:
        table[column] = json.loads(table[column]) if table[column] is not None else None
    table["joining_open"] = bool(table["joining_open"])
    return table


def N_(message: str) -> str:  # marks a message for translation (the web shell translates it)
    return message


# SQLite's primary result codes (the low byte of an extended code).
SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26

DISK_FAILED = N_("The server could not save this: its disk is full or failing. Try again in a moment; "
                 "the host should free some disk space.")
DATABASE_DAMAGED = N_("The server's database is damaged, so this table accepts no more actions. The host must "
                      "stop the server and repair the database (the server's log says how).")


class StorageError(Exception):
    """The disk or the database failed: a 503 with a message a player understands
    (the attributes of `companion.tables.TableError`). Nothing of the failed
    transaction was written."""

    status = 503

    def __init__(self, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.message, self.params = message, params


class DamagedDatabase(RuntimeError):
    """The database file fails SQLite's check: the server must not start on it."""


def repair_advice(path: str, found: str) -> str:
    return (f"The database {path} is damaged ({found}). Companion will not use it, so that nothing more is lost.\n"
            f"1. Stop the server and copy {path} (and {path}-wal if it exists) somewhere safe.\n"
            f"2. Either put your last backup in its place, or recover what can be read:\n"
            f"   sqlite3 {path} .recover | sqlite3 {path}.recovered && mv {path}.recovered {path}\n"
            f"   (after moving the damaged file and its -wal file aside).\n"
            f"3. Start the server again: it checks the file at every start.")


def _is_corruption(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    return "malformed" in str(error) or "not a database" in str(error)


def _is_storage_failure(error: BaseException) -> bool:
    """A failure of the disk or the file, not of our own SQL."""
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, (sqlite3.IntegrityError, sqlite3.ProgrammingError))


def _gevent_is_running() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


class GroupSync:
    """Makes commits durable in batches: one fsync of the WAL file for all the
    transactions that committed while the previous fsync was running."""

    def __init__(self, wal_path: str):
        import gevent
        from gevent.event import Event

        self._spawn, self._new_event = gevent.spawn, Event
        self._threadpool = gevent.get_hub().threadpool
        self._fd = os.open(wal_path, os.O_RDONLY)
        self._waiting: list = []
        self._flushing = False
        self.fsyncs = 0

    def wait_durable(self) -> None:
        """Returns once the WAL is on disk; `StorageError` when the fsync failed."""
        waiter = [self._new_event(), None]  # the event, then the fsync's error if it failed
        self._waiting.append(waiter)
        if not self._flushing:
            self._flushing = True
            self._spawn(self._flush)
        waiter[0].wait()
        if waiter[1] is not None:
            raise StorageError(DISK_FAILED) from waiter[1]

    def _flush(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                failure = None
                try:
                    self._threadpool.apply(os.fsync, (self._fd,))
                except OSError as error:  # the waiters must hear of it, not wait forever
                    failure = error
                self.fsyncs += 1
                for waiter in batch:
                    waiter[1] = failure
                    waiter[0].set()
        finally:
            self._flushing = False

    def close(self) -> None:
        os.close(self._fd)


def open_store(database: str, sync: str = "FULL"):
    """The store a ``COMPANION_DATABASE`` names: a ``postgresql://`` URL for several processes
    (`companion.store_postgres`), anything else a SQLite file (the embedded default)."""
    if database.startswith(("postgresql://", "postgres://")):
        from companion.store_postgres import PostgresStore

        return PostgresStore(database, sync=sync)
    return Store(database, sync=sync)


class Store:
    def __init__(self, path: str, sync: str = "FULL"):
        sync = sync.upper()
        if sync not in SYNC_LEVELS:
            raise ValueError(f"COMPANION_DB_SYNC must be one of {', '.join(SYNC_LEVELS)}, not {sync!r}")
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.path = path
        # Set once a running transaction finds the file damaged: from then on nothing is
        # read or written, every caller hears why (and the log says what to do).
        self.damaged: str | None = None
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.row_factory = sqlite3.Row
        try:
            self._check_integrity()
            self._db.execute("PRAGMA journal_mode=WAL")
            group = sync == "FULL" and path != ":memory:" and _gevent_is_running()
            self._db.execute(f"PRAGMA synchronous={'NORMAL' if group else sync}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            self._db.close()
            if _is_corruption(error):
                raise DamagedDatabase(repair_advice(path, str(error))) from error
            raise
        self.group_sync = GroupSync(path + "-wal") if group else None

    def _check_integrity(self) -> None:
        """``PRAGMA quick_check`` at start: a damaged file is refused before anything is written to it."""
        problems = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            self._db.close()
            raise DamagedDatabase(repair_advice(self.path, "quick_check: " + "; ".join(problems[:3])))

    def _refuse_if_damaged(self) -> None:
        if self.damaged:
            raise StorageError(DATABASE_DAMAGED)

    def _failed(self, error: BaseException) -> BaseException:
        """What to raise for an error met inside a transaction: a storage failure becomes a
        `StorageError` (and a damaged file stops the store), anything else stays itself."""
        if not _is_storage_failure(error):
            return error
        if _is_corruption(error):
            if not self.damaged:
                self.damaged = repair_advice(self.path, str(error))
                print(self.damaged, file=sys.stderr, flush=True)
            return StorageError(DATABASE_DAMAGED)
        return StorageError(DISK_FAILED)

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite already rolled back (a full disk at COMMIT may do so)

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:  # a new file gets the current schema at once
            self._db.executescript(SCHEMA)
            version = SCHEMA_VERSION
        for step in range(version + 1, SCHEMA_VERSION + 1):
            self._db.executescript(MIGRATIONS[step])
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def ensure_schema(self, sql: str) -> None:
        """Creates the tables of another part of the app (``CREATE TABLE IF NOT EXISTS …``)."""
        with self._lock:
            self._db.executescript(sql)

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self.group_sync:
            self.group_sync.close()

    @contextmanager
    def transaction(self) -> Iterator["Transaction"]:
        """A write transaction: everything inside commits together or not at
        all, and is on disk when the ``with`` block is left. Opened inside another
        one (the catalogue remembering a name during an action), it is part of it."""
        with self._lock:
            if self._db.in_transaction:
                yield Transaction(self._db)
                return
            self._refuse_if_damaged()
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._failed(error) from error
            try:
                yield Transaction(self._db)
            except BaseException as error:
                self._rollback()
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                # Never left open: the next transaction would silently become part of this one.
                self._rollback()
                raise self._failed(error) from error
        if self.group_sync:
            self.group_sync.wait_durable()

    @contextmanager
    def reading(self) -> Iterator["Transaction"]:
        """A consistent read of several rows; inside a transaction already open
        (a game rule reading the catalogue), it simply reads within it."""
        with self._lock:
            if self._db.in_transaction:
                yield Transaction(self._db)
                return
            self._refuse_if_damaged()
            self._db.execute("BEGIN")
            try:
                yield Transaction(self._db)
            except BaseException as error:
                self._rollback()
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
            self._db.execute("COMMIT")


class Transaction:
    """The queries of the store, run inside one transaction."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def execute(self, sql: str, params: tuple | dict = ()) -> sqlite3.Cursor:
        """For the tables other parts of the app own (see `Store.ensure_schema`)."""
        return self._db.execute(sql, params)

    def executemany(self, sql: str, rows) -> sqlite3.Cursor:
        return self._db.executemany(sql, rows)

    # Tables --------------------------------------------------------------
    def insert_table(self, table: dict) -> None:
        placeholders = ", ".join("?" for _ in TABLE_COLUMNS)
        values = [_encode(column, table[column]) for column in TABLE_COLUMNS]
        self._db.execute(f"INSERT INTO tables ({', '.join(TABLE_COLUMNS)}) VALUES ({placeholders})", values)

    def table(self, code: str) -> dict | None:
        return _decode_table(self._db.execute("SELECT * FROM tables WHERE code = ?", (code,)).fetchone())

    def table_code_exists(self, code: str) -> bool:
        return self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def update_table(self, code: str, **fields: Any) -> None:
        fields["updated_at"] = time.time()
        assignments = ", ".join(f"{column} = ?" for column in fields)
        values = [_encode(column, value) for column, value in fields.items()]
        self._db.execute(f"UPDATE tables SET {assignments} WHERE code = ?", [*values, code])

    # Seats ---------------------------------------------------------------
    def seats(self, code: str, include_removed: bool = False) -> list[dict]:
        query = "SELECT * FROM seats WHERE table_code = ?" + ("" if include_removed else " AND removed = 0")
        return [dict(row) for row in self._db.execute(query + " ORDER BY seat", (code,))]

    def seat_by_token_hash(self, token_hash: str) -> dict | None:
        row = self._db.execute("SELECT * FROM seats WHERE token_hash = ?", (token_hash,)).fetchone()
        return dict(row) if row else None

    def insert_seat(self, code: str, name: str, colour: str, token_hash: str) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seat), 0) + 1 FROM seats WHERE table_code = ?",
                               (code,)).fetchone()
        seat = row[0]
        self._db.execute("INSERT INTO seats (table_code, seat, name, colour, token_hash, joined_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (code, seat, name, colour, token_hash, time.time()))
        return seat

    def update_seat(self, code: str, seat: int, **fields: Any) -> None:
        assignments = ", ".join(f"{column} = ?" for column in fields)
        self._db.execute(f"UPDATE seats SET {assignments} WHERE table_code = ? AND seat = ?",
                         [*fields.values(), code, seat])

    # The public log ------------------------------------------------------
    def append_log(self, code: str, entries: list[dict], game: int | None = None) -> int:
        """Appends entries to the log of the table's game number ``game`` (by default the table's
        current game); returns the index of the first."""
        if game is None:
            current = self._db.execute("SELECT game_no FROM tables WHERE code = ?", (code,)).fetchone()
            game = current[0] if current else 1
        row = self._db.execute("SELECT COALESCE(MAX(idx), -1) + 1 FROM log WHERE table_code = ?",
                               (code,)).fetchone()
        now = time.time()
        self._db.executemany(
            "INSERT INTO log (table_code, idx, kind, data, at, game) VALUES (?, ?, ?, ?, ?, ?)",
            [(code, row[0] + offset, entry["kind"], json.dumps(entry, separators=(",", ":")), now, game)
             for offset, entry in enumerate(entries)])
        return row[0]

    def next_log_index(self, code: str) -> int:
        return self._db.execute("SELECT COALESCE(MAX(idx), -1) + 1 FROM log WHERE table_code = ?",
                                (code,)).fetchone()[0]

    def log(self, code: str, game: int | None = None) -> list[dict]:
        """The whole log of a table, or the part of one of its games."""
        query = "SELECT idx, data, at FROM log WHERE table_code = ?" + ("" if game is None else " AND game = ?")
        rows = self._db.execute(query + " ORDER BY idx", (code,) if game is None else (code, game))
        return [{"i": row["idx"], **json.loads(row["data"]), "at": row["at"]} for row in rows]

    # Finished games --------------------------------------------------------
    def insert_game(self, code: str, record: dict) -> None:
        self._db.execute("INSERT INTO games (table_code, number, game, commitment, seed, outcome, ended_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_code, number) DO UPDATE SET "
                         "game = excluded.game, commitment = excluded.commitment, seed = excluded.seed, "
                         "outcome = excluded.outcome, ended_at = excluded.ended_at",
                         (code, record["number"], record["game"], record["commitment"], record["seed"],
                          json.dumps(record["outcome"]), record["ended_at"]))

    def games(self, code: str) -> list[dict]:
        rows = self._db.execute("SELECT * FROM games WHERE table_code = ? ORDER BY number", (code,))
        return [{**dict(row), "outcome": json.loads(row["outcome"]) if row["outcome"] else None} for row in rows]

    def due_tables(self, now: float) -> list[str]:
        """Tables with a timed wait past its deadline."""
        rows = self._db.execute("SELECT code FROM tables WHERE next_deadline IS NOT NULL AND next_deadline <= ?",
                                (now,))
        return [row["code"] for row in rows]

    # The private action log ----------------------------------------------
    def find_action(self, code: str, actor: str, key: str) -> dict | None:
        row = self._db.execute("SELECT result FROM actions WHERE table_code = ? AND actor = ? AND action_key = ?",
                               (code, actor, key)).fetchone()
        return json.loads(row["result"]) if row else None

    def insert_action(self, code: str, actor: str, key: str | None, action: dict, result: dict) -> None:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_code = ?",
                               (code,)).fetchone()
        self._db.execute("INSERT INTO actions (table_code, seq, actor, action_key, action, result, at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (code, row[0], actor, key, json.dumps(action), json.dumps(result), time.time()))
