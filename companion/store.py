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
loses anything a phone was told. If that fsync fails, the transaction is already
committed and every reader sees it: it stands and its caller is told it happened
(never "failed" about a roll that is kept and shown), and the next writes are
refused before they begin until the disk syncs again. Elsewhere each commit syncs
(``FULL``), and a failed sync fails the COMMIT itself: nothing of it is kept.
``BEGIN IMMEDIATE`` takes SQLite's write lock at once, which also makes the
transaction the table's lock when several processes share the file.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import sys
import threading
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from companion import clock as steady, jsontext
from companion.event_loop import gevent_is_running, off_the_loop
from companion.games.base import plain_copy

SCHEMA_VERSION = 4
SYNC_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")
# WAL frames (pages) a checkpoint may leave for its last pass, on the event loop: a few actions' worth.
CHECKPOINT_ON_LOOP = 64
# Beyond this (64 MB of 4 KB pages), the WAL is made to start over even if the actions must wait.
WAL_FRAMES_AT_MOST = 16384

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
    return jsontext.dumps(value) if column in JSON_COLUMNS else value


def _decode_column(column: str, value: Any) -> Any:
    """A column's value as `Transaction.table` gives it, from what is stored."""
    if column in JSON_COLUMNS:
        return jsontext.loads(value) if value is not None else None
    return bool(value) if column == "joining_open" else value


def _decode_table(row: sqlite3.Row | None) -> dict | None:
    if row is None:
        return None
    return {column: _decode_column(column, value) for column, value in dict(row).items()}


# A statement that writes one of the tables the cache reflects (the sweeper deletes tables).
CACHED_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b.*\b(tables|seats|log|games|actions)\b",
                          re.IGNORECASE | re.DOTALL)


class TableCache:
    """This process's copy of the tables it used lately, as committed, each under its *stamp*:
    the row's ``(version, updated_at)``.

    Every transaction that changes a table's row, seats, log, finished games or actions
    also moves its ``updated_at`` forward (`Transaction.finish`), in every process, so a
    stamp names one content of all of them. A transaction reads the table's row as before
    (under the row's lock on PostgreSQL) and, when the stamp is the cached one, takes the
    decoded row, seats, finished games and next log and action numbers from here instead
    of reading and decoding them again. Only committed content enters the cache, and an
    entry belongs to one transaction at a time (`take`)."""

    def __init__(self, size: int = 1024):  # a Rayman table's state is tens of KB: bounded memory
        self.size = size
        self._entries: OrderedDict[str, dict] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, code: str, stamp: tuple | None) -> dict | None:
        """The entry, if it has this stamp, handed over to one transaction: it leaves the cache
        (no copy of the state to make), and comes back only with that transaction's commit
        (`put`). A transaction that fails drops it: the next one decodes the row again.
        ``stamp`` None: whatever its stamp (PostgreSQL's one-trip action checks it at its commit)."""
        with self._lock:
            entry = self._entries.get(code)
            if entry is None or (stamp is not None and entry["stamp"] != stamp):
                return None
            del self._entries[code]
        return entry

    def peek(self, code: str) -> dict | None:
        """The entry, left in the cache: for reading only, with the store locked (`Store.on_committed_copy`)."""
        with self._lock:
            return self._entries.get(code)

    def put(self, entries: dict[str, dict]) -> None:
        with self._lock:
            for code, entry in entries.items():
                self._entries[code] = entry
                self._entries.move_to_end(code)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def actor_of(self, code: str, token_hash: str) -> str | None:
        """Whom a token named at this table when it was last cached (a guess: the transaction
        checks it again against the table as it is)."""
        with self._lock:
            entry = self._entries.get(code)
            if entry is None:
                return None
            if entry["table"]["host_token_hash"] == token_hash:
                return "host"
            seat = next((s for s in entry["seats"] or () if s["token_hash"] == token_hash), None)
        return f"seat:{seat['seat']}" if seat is not None else None


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


def repair_commands(path: str) -> list[str]:
    """Shell commands that copy what SQLite can still read of ``path`` into a new file and put it in
    its place. ``.dump`` rather than ``.recover``: Debian 12's sqlite3 (3.40) fails ``.recover`` even on
    a healthy file. A dump that met damage ends in ROLLBACK, which would throw away every row it
    saved: it is turned into COMMIT. The dump leaves out the schema version, which is copied over; the
    old -wal and -shm files go, or SQLite would lay the damaged file's last writes over the new one."""
    file, recovered = shlex.quote(path), shlex.quote(path + ".recovered")
    return [f"rm -f {recovered}",
            f"sqlite3 {file} .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' | sqlite3 {recovered}",
            f"sqlite3 {recovered} \"PRAGMA user_version = $(sqlite3 {file} 'PRAGMA user_version')\"",
            f"rm -f {shlex.quote(path + '-wal')} {shlex.quote(path + '-shm')} && mv {recovered} {file}"]


def repair_advice(path: str, found: str) -> str:
    steps = "".join(f"   {command}\n" for command in repair_commands(path))
    return (f"The database {path} is damaged ({found}). Companion will not use it, so that nothing more is lost.\n"
            f"1. Stop the server and copy {path} (and {path}-wal if it exists) somewhere safe.\n"
            f"2. Either put your last backup in its place, or recover what can be read (Debian's sqlite3 package):\n"
            f"{steps}"
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


class GroupSync:
    """Makes commits durable in batches: one fsync of the WAL file for all the transactions
    that committed since the last one began.

    The fsync runs in a native thread of its own, never on the event loop: a roll's screens go
    on being served while the disk works (an fsync on the loop held it for 22.7 % of its samples
    at 100 tables, issue 29). The loop hands a batch over at the end of a turn of the loop, after
    every greenlet that turn ran (`_start`: one put on a native queue), and hears that it is done from an
    async watcher (`_synced`: one wake-up of the loop per batch, not per commit); commits made
    while the disk works form the next batch. The gevent thread pool cost a hand-off per batch
    twice as dear (issue 20), hence a thread of its own that does nothing else.

    It also checkpoints the WAL into the database file (``checkpoint``, in a native thread,
    after every ``checkpoint_after`` transactions: about SQLite's 1000 pages for a roll):
    SQLite's own automatic checkpoint runs inside a COMMIT, on the event loop, and syncs the
    WAL and the database file there, which stalled every screen of the server for as long."""

    def __init__(self, wal_path: str, checkpoint: Callable[[], None] | None = None,
                 checkpoint_after: int = 250):
        import _queue

        import gevent
        from gevent.hub import Waiter, get_hub
        from gevent.monkey import get_original

        self._spawn, self._new_waiter = gevent.spawn, Waiter
        self._hub = get_hub()
        self._fd = os.open(wal_path, os.O_RDONLY)
        self._waiting: list = []  # commits that wait for the next fsync
        self._syncing: list = []  # commits whose fsync the thread is running
        self._busy = False  # a batch is scheduled or syncing: new waiters join the next one
        self._failure: BaseException | None = None  # the last fsync's error, read once it is done
        self.fsyncs = 0
        # Native, never patched: the thread blocks in it without the GIL.
        self._jobs = _queue.SimpleQueue()
        self._done = self._hub.loop.async_()
        self._done.start(self._synced)
        self._done.ref = False  # an idle store keeps no loop alive; a batch in the thread does
        get_original("_thread", "start_new_thread")(self._run, ())
        self._checkpoint = checkpoint
        self._checkpoint_after = checkpoint_after
        self._since_checkpoint = 0  # transactions made durable since the last checkpoint began
        self._checkpointing = False
        self.checkpoints = 0

    def sync_now(self) -> None:
        """One fsync of the WAL, off the event loop; raises the disk's error."""
        off_the_loop(os.fsync, self._fd)

    def wait_durable(self) -> None:
        """Returns once the WAL is on disk; `StorageError` when the fsync failed."""
        waiter = self._new_waiter()
        self._waiting.append(waiter)
        if not self._busy:
            self._busy = True
            self._hub.loop.run_callback(self._start)
        failure = waiter.get()
        if failure is not None:
            raise StorageError(DISK_FAILED) from failure

    def _start(self) -> None:
        """In the hub: the commits waiting now go to the thread's next fsync."""
        self._syncing, self._waiting = self._waiting, []
        self._done.ref = True
        self._jobs.put(True)

    def _run(self) -> None:
        """The native thread: one fsync per batch handed over, then the loop is woken."""
        while self._jobs.get():
            try:
                os.fsync(self._fd)
                self._failure = None
            except Exception as error:  # OSError from the disk; the waiters must hear of anything else too
                self._failure = error
            self._done.send()
        os.close(self._fd)

    def _synced(self) -> None:
        """In the hub: the batch is durable (or failed); each waiter resumes from here."""
        batch, failure, self._syncing = self._syncing, self._failure, []
        self.fsyncs += 1
        self._since_checkpoint += len(batch)
        for waiter in batch:
            waiter.switch(failure)
        self._checkpoint_when_due()
        if self._waiting:  # committed meanwhile (a resumed waiter may have committed again)
            self._start()
        else:
            self._busy = False
            self._done.ref = False

    def _checkpoint_when_due(self) -> None:
        if self._checkpoint is None or self._checkpointing or self._since_checkpoint < self._checkpoint_after:
            return
        self._checkpointing, self._since_checkpoint = True, 0
        self._spawn(self._run_checkpoint)

    def _run_checkpoint(self) -> None:
        try:
            self._checkpoint()
            self.checkpoints += 1
        except Exception as error:  # the next one tries again; the data is safe in the WAL meanwhile
            print(f"WAL checkpoint failed: {error}", file=sys.stderr, flush=True)
        finally:
            self._checkpointing = False

    def close(self) -> None:
        """The thread closes the file once the fsync it may be running is done."""
        self._jobs.put(False)
        self._done.stop()


def open_store(database: str, sync: str = "FULL"):
    """The store a ``COMPANION_DATABASE`` names: a ``postgresql://`` URL for several processes
    (`companion.store_postgres`), anything else a SQLite file (the embedded default)."""
    if database.startswith(("postgresql://", "postgres://")):
        from companion.store_postgres import PostgresStore

        return PostgresStore(database, sync=sync)
    return Store(database, sync=sync)


class Store:
    def __init__(self, path: str, sync: str = "FULL", clock: Callable[[], float] | None = None):
        sync = sync.upper()
        if sync not in SYNC_LEVELS:
            raise ValueError(f"COMPANION_DB_SYNC must be one of {', '.join(SYNC_LEVELS)}, not {sync!r}")
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.path = path
        self.clock = clock or steady.now  # the time of updated_at and the log's entries (companion.clock)
        # Set once a running transaction finds the file damaged: from then on nothing is
        # read or written, every caller hears why (and the log says what to do).
        self.damaged: str | None = None
        self.cache = TableCache()
        self._current: Transaction | None = None  # the open transaction (nested ones are part of it)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.row_factory = sqlite3.Row
        try:
            self._check_integrity()
            self._db.execute("PRAGMA journal_mode=WAL")
            group = sync == "FULL" and path != ":memory:" and gevent_is_running()
            self._db.execute(f"PRAGMA synchronous={'NORMAL' if group else sync}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            self._db.close()
            if _is_corruption(error):
                raise DamagedDatabase(repair_advice(path, str(error))) from error
            raise
        self.group_sync = None
        self.unsynced = False  # a group commit's fsync failed: no write until one succeeds
        if group:
            # Checkpoints leave the COMMIT (and the event loop): GroupSync runs them in a thread.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
            self._checkpointer.execute("PRAGMA synchronous=NORMAL")
            self.group_sync = GroupSync(path + "-wal", checkpoint=self._checkpoint_wal)

    def _checkpoint_wal(self) -> None:
        """Copies the WAL into the database file. The bulk is copied in a native thread while
        actions go on (a passive checkpoint blocks no writer), again while they wrote more than
        a few pages meanwhile. What is left, a few pages, is copied on the event loop with the
        store locked, so that the checkpoint takes every frame and the next write starts the WAL
        again from its beginning. When writes kept ahead of the copy (an overloaded server),
        the WAL is left to grow until the next checkpoint, unless it is already large: then the
        rest is copied in the thread with the store locked, as every checkpoint used to be.
        (That held every action for the copy, its syncs and the loop's way back to the greenlet:
        2-50 ms per checkpoint at 20-50 tables, seconds when overloaded; bench/, issue 20.)"""
        frames = copied = 0
        for _ in range(3):
            _, frames, copied = off_the_loop(self._checkpoint_once)
            if frames - copied <= CHECKPOINT_ON_LOOP:
                with self._lock:
                    self._checkpoint_once()
                return
        if frames > WAL_FRAMES_AT_MOST:
            with self._lock:
                off_the_loop(self._checkpoint_once)

    def _checkpoint_once(self) -> tuple[int, int, int]:
        """(busy, frames in the WAL, frames copied): SQLite's answer."""
        return tuple(self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())

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
            self._checkpointer.close()

    def act(self, body: Callable[["Transaction"], Any]) -> Any:
        """``body(tx)`` in a write transaction; its value. A player's action goes this way: on PostgreSQL
        (`companion.store_postgres.PostgresStore.act`) it may run again on a newer copy of the table, so
        it only reads and writes through ``tx``, and the players are told once it returned."""
        with self.transaction() as tx:
            return body(tx)

    @contextmanager
    def transaction(self) -> Iterator["Transaction"]:
        """A write transaction: everything inside commits together or not at
        all, and is on disk when the ``with`` block is left. Opened inside another
        one (the catalogue remembering a name during an action), it is part of it."""
        with self._lock:
            if self._current is not None:
                yield self._current
                return
            self._refuse_if_damaged()
            self._refuse_until_synced()
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._failed(error) from error
            tx = self._current = Transaction(self._db, self.cache, self.clock)
            try:
                yield tx
                tx.finish()
            except BaseException as error:
                self._current = None
                self._rollback()
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
            self._current = None
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                # Never left open: the next transaction would silently become part of this one.
                self._rollback()
                raise self._failed(error) from error
            tx.committed()
        if self.group_sync:
            self._wait_durable()

    def _wait_durable(self) -> None:
        """After a group commit: once its fsync is done. When the fsync failed, the transaction is
        committed all the same (SQLite shows it to every reader from the COMMIT on), so it stands: its
        caller is told it happened, as everyone else will see, never "failed" about a roll that is
        kept and shown. Nothing more is written until an fsync succeeds (`_refuse_until_synced`)."""
        try:
            self.group_sync.wait_durable()
        except StorageError as failure:
            self.unsynced = True
            print(f"An fsync of {self.path}-wal failed ({failure.__cause__}): what was just committed stands but "
                  "may not be on disk; nothing more is written until the disk syncs again.",
                  file=sys.stderr, flush=True)

    def _refuse_until_synced(self) -> None:
        """Before a write, after a failed fsync: the disk must sync what is already committed first,
        or the write is refused before it begins (`StorageError`: nothing of it is written)."""
        if not self.unsynced:
            return
        try:
            self.group_sync.sync_now()
        except Exception as error:  # OSError from the disk
            raise StorageError(DISK_FAILED) from error
        self.unsynced = False

    STAMP = "SELECT version, updated_at FROM tables WHERE code = ?"

    def on_committed_copy(self, code: str, decide: Callable[["CommittedCopy"], Any]) -> Any:
        """``decide(copy)`` on this process's cached copy of the table, with no transaction opened, and its
        answer only if that copy is the table as committed now; None otherwise (no copy, or an older one).

        For what can be decided without writing (a refusal): it never waits for the database's write
        lock (a read in WAL mode does not), nor decodes the table. The copy is current when the row's
        stamp, read after ``decide``, is still the copy's: every commit that touches a table, in any
        process, moves its stamp (`Transaction.finish`), so nothing was committed at that table since
        the copy was, nor while ``decide`` read. The store's lock keeps this process's transactions
        (which take the entry and change it in place) out meanwhile."""
        with self._lock:
            if self._current is not None or self.damaged:
                return None
            entry = self.cache.peek(code)
            if entry is None or entry["seats"] is None:
                return None
            try:
                answer = decide(CommittedCopy(self._db, entry))
                if answer is None:
                    return None
                row = self._db.execute(self.STAMP, (code,)).fetchone()
            except sqlite3.Error:  # the store decides, and says what failed
                return None
            return answer if row is not None and (row["version"], row["updated_at"]) == entry["stamp"] else None

    @contextmanager
    def reading(self) -> Iterator["Transaction"]:
        """A consistent read of several rows; inside a transaction already open
        (a game rule reading the catalogue), it simply reads within it."""
        with self._lock:
            if self._current is not None:
                yield self._current
                return
            self._refuse_if_damaged()
            self._db.execute("BEGIN")
            tx = self._current = Transaction(self._db, self.cache, self.clock)
            try:
                yield tx
            except BaseException as error:
                self._current = None
                self._rollback()
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
            self._current = None
            self._db.execute("COMMIT")
            tx.committed()


class CommittedCopy:
    """A table as this process cached it (``table``, its seats), read without a transaction
    (`Store.on_committed_copy`): the reads a refusal needs, nothing that writes."""

    def __init__(self, db: sqlite3.Connection, entry: dict):
        self.table = entry["table"]  # the cache's own: read, never changed
        self._reads = Transaction(db)
        self._reads._work[self.table["code"]] = entry

    def seats(self, code: str, include_removed: bool = False) -> list[dict]:
        return self._reads.seats(code, include_removed)

    def seat_by_token_hash(self, token_hash: str, code: str | None = None) -> dict | None:
        return self._reads.seat_by_token_hash(token_hash, code)

    def find_action(self, code: str, actor: str, key: str) -> dict | None:
        return self._reads.find_action(code, actor, key)


class Transaction:
    """The queries of the store, run inside one transaction.

    It keeps what it read or wrote of each table (``_work``: the decoded row, and when
    asked for, its seats, finished games and next log and action numbers), so a second
    read in the same transaction costs nothing, and hands it to the `TableCache` once
    committed. Reads and writes of a table go through these methods, which keep that copy
    exact; a write by `execute` to one of these tables empties the cache."""

    def __init__(self, db: sqlite3.Connection, cache: TableCache | None = None,
                 clock: Callable[[], float] | None = None):
        self._db = db
        self.clock = clock or steady.now
        self._cache = cache
        self._work: dict[str, dict] = {}
        self._changed: set[str] = set()  # tables whose seats, log, games or actions were written
        self._stamped: set[str] = set()  # tables whose row was written (its stamp moved)
        self._unknown_writes = False
        self._expected: tuple[str, str, str] | None = None  # (code, actor, key) of a coming action
        self._found: dict[tuple[str, str, str], Any] = {}  # its lookup, made with the row's stamp

    def execute(self, sql: str, params: tuple | dict = ()) -> sqlite3.Cursor:
        """For the tables other parts of the app own (see `Store.ensure_schema`)."""
        self._note_raw(sql)
        return self._db.execute(sql, params)

    def executemany(self, sql: str, rows) -> sqlite3.Cursor:
        self._note_raw(sql)
        return self._db.executemany(sql, rows)

    def _write(self, sql: str, params: tuple | list | dict = ()) -> None:
        """A statement whose answer nobody reads: PostgreSQL sends it with the next one
        (`companion.store_postgres.Connection.defer`)."""
        self._db.execute(sql, params)

    def _write_many(self, sql: str, rows: list) -> None:
        self._db.executemany(sql, rows)

    def _note_raw(self, sql: str) -> None:
        if CACHED_WRITE.match(sql):
            self._unknown_writes = True
            self._work.clear()

    # The table's copy ------------------------------------------------------
    def _row_query(self, code: str) -> str:
        """The row's stamp only: the rest is read when the cache has not got it (`_whole_row`)."""
        return "SELECT version, updated_at FROM tables WHERE code = ?"

    def _whole_row(self, code: str, row):
        """The row whose stamp `_fetch_row` read (decoding a table's row was a tenth of a roll's store)."""
        return self._db.execute("SELECT * FROM tables WHERE code = ?", (code,)).fetchone()

    def _load(self, code: str) -> dict | None:
        """The table's working copy, read once per transaction: the cached one when the row's
        stamp is still the cached one's, else decoded from the row."""
        work = self._work.get(code)
        if work is not None:
            return work
        row = self._fetch_row(code)
        if row is None:
            return None
        stamp = (row["version"], row["updated_at"])
        work = self._cache.take(code, stamp) if self._cache is not None and not self._unknown_writes else None
        if work is None:
            work = {"stamp": stamp, "table": _decode_table(self._whole_row(code, row)), "seats": None, "games": None,
                    "next_log": None, "next_action": None}
        self._work[code] = work
        return work

    STAMP_AND_ACTION = ("SELECT version, updated_at, (SELECT result FROM actions WHERE table_code = ? AND actor = ? "
                        "AND action_key = ?) AS found FROM tables WHERE code = ?")

    def _fetch_row(self, code: str):
        expected, self._expected = self._expected, None
        if expected is None or expected[0] != code:
            return self._db.execute(self._row_query(code), (code,)).fetchone()
        row = self._db.execute(self.STAMP_AND_ACTION, (*expected, code)).fetchone()
        if row is not None:
            self._found[expected] = row["found"]
        return row

    def expect_action(self, code: str | None, token_hash: str, key: str) -> None:
        """A hint before the table is read: an action with this id is coming, by this token. Its id
        is looked up in the same statement as the table's stamp, for the actor the cached table
        names; `find_action` answers from it when the actor is confirmed."""
        actor = self._cache.actor_of(code, token_hash) if code and self._cache is not None else None
        if actor is not None:
            self._expected = (code, actor, key)

    def finish(self) -> None:
        """Before the commit: a table whose seats, log, games or actions changed without its row
        gets a new stamp too, so that no process takes its old cached copy for the new content."""
        for code in self._changed - self._stamped:
            if code in self._work:
                self.update_table(code)

    def committed(self) -> None:
        """After the commit: what this transaction read or wrote is the tables' content now."""
        if self._cache is None:
            return
        if self._unknown_writes:
            self._cache.clear()
        else:
            self._cache.put(self._work)

    # Tables --------------------------------------------------------------
    def insert_table(self, table: dict) -> None:
        placeholders = ", ".join("?" for _ in TABLE_COLUMNS)
        values = [_encode(column, table[column]) for column in TABLE_COLUMNS]
        self._write(f"INSERT INTO tables ({', '.join(TABLE_COLUMNS)}) VALUES ({placeholders})", values)

    def table(self, code: str) -> dict | None:
        work = self._load(code)
        return plain_copy(work["table"]) if work is not None else None

    def table_code_exists(self, code: str) -> bool:
        return self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def update_table(self, code: str, **fields: Any) -> None:
        work = self._load(code)
        # The stamp only moves forward, even between machines whose clocks differ a little.
        now = self.clock()
        fields["updated_at"] = max(now, work["stamp"][1] + 1e-6) if work else now
        # Each column's text, and the working copy's value as a read of that text would give it.
        both = {column: jsontext.round_trip(value) if column in JSON_COLUMNS else (value, _decode_column(column, value))
                for column, value in fields.items()}
        assignments = ", ".join(f"{column} = ?" for column in both)
        self._write(f"UPDATE tables SET {assignments} WHERE code = ?", [text for text, _ in both.values()] + [code])
        if work is not None:
            table = work["table"]
            table.update({column: decoded for column, (_, decoded) in both.items()})
            work["stamp"] = (table["version"], table["updated_at"])
            self._stamped.add(code)

    def _changing(self, code: str) -> dict | None:
        """The working copy of a table whose seats, log, games or actions this transaction writes."""
        self._changed.add(code)
        return self._load(code)

    # Seats ---------------------------------------------------------------
    def _all_seats(self, code: str) -> list[dict]:
        work = self._load(code)
        if work is not None and work["seats"] is not None:
            return work["seats"]
        seats = [dict(row) for row in self._db.execute("SELECT * FROM seats WHERE table_code = ? ORDER BY seat",
                                                      (code,))]
        if work is not None:
            work["seats"] = seats
        return seats

    def seats(self, code: str, include_removed: bool = False) -> list[dict]:
        return [dict(seat) for seat in self._all_seats(code) if include_removed or not seat["removed"]]

    def seat_by_token_hash(self, token_hash: str, code: str | None = None) -> dict | None:
        """The seat a token opens, looked up first among ``code``'s seats (a token of another
        table, or of none, is looked up in the whole store)."""
        if code is not None:
            seat = next((seat for seat in self._all_seats(code) if seat["token_hash"] == token_hash), None)
            if seat is not None:
                return dict(seat)
        row = self._db.execute("SELECT * FROM seats WHERE token_hash = ?", (token_hash,)).fetchone()
        return dict(row) if row else None

    def _seats_changed(self, code: str) -> None:
        work = self._changing(code)
        if work is not None:
            work["seats"] = None

    def insert_seat(self, code: str, name: str, colour: str, token_hash: str) -> int:
        self._seats_changed(code)
        row = self._db.execute("SELECT COALESCE(MAX(seat), 0) + 1 FROM seats WHERE table_code = ?",
                               (code,)).fetchone()
        seat = row[0]
        self._write("INSERT INTO seats (table_code, seat, name, colour, token_hash, joined_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (code, seat, name, colour, token_hash, self.clock()))
        return seat

    def update_seat(self, code: str, seat: int, **fields: Any) -> None:
        self._seats_changed(code)
        assignments = ", ".join(f"{column} = ?" for column in fields)
        self._write(f"UPDATE seats SET {assignments} WHERE table_code = ? AND seat = ?",
                    [*fields.values(), code, seat])

    # The public log ------------------------------------------------------
    def append_log(self, code: str, entries: list[dict], game: int | None = None) -> int:
        """Appends entries to the log of the table's game number ``game`` (by default the table's
        current game); returns the index of the first."""
        work = self._changing(code)
        if game is None:
            game = work["table"]["game_no"] if work is not None else 1
        first = self.next_log_index(code)
        now = self.clock()
        self._write_many(
            "INSERT INTO log (table_code, idx, kind, data, at, game) VALUES (?, ?, ?, ?, ?, ?)",
            [(code, first + offset, entry["kind"], jsontext.dumps(entry), now, game)
             for offset, entry in enumerate(entries)])
        if work is not None:
            work["next_log"] = first + len(entries)
        return first

    def next_log_index(self, code: str) -> int:
        work = self._load(code)
        if work is not None and work["next_log"] is not None:
            return work["next_log"]
        following = self._db.execute("SELECT COALESCE(MAX(idx), -1) + 1 FROM log WHERE table_code = ?",
                                     (code,)).fetchone()[0]
        if work is not None:
            work["next_log"] = following
        return following

    def log(self, code: str, game: int | None = None) -> list[dict]:
        """The whole log of a table, or the part of one of its games."""
        query = "SELECT idx, data, at FROM log WHERE table_code = ?" + ("" if game is None else " AND game = ?")
        rows = self._db.execute(query + " ORDER BY idx", (code,) if game is None else (code, game))
        return [{"i": row["idx"], **jsontext.loads(row["data"]), "at": row["at"]} for row in rows]

    # Finished games --------------------------------------------------------
    def insert_game(self, code: str, record: dict) -> None:
        work = self._changing(code)
        if work is not None:
            work["games"] = None
        self._write("INSERT INTO games (table_code, number, game, commitment, seed, outcome, ended_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_code, number) DO UPDATE SET "
                    "game = excluded.game, commitment = excluded.commitment, seed = excluded.seed, "
                    "outcome = excluded.outcome, ended_at = excluded.ended_at",
                    (code, record["number"], record["game"], record["commitment"], record["seed"],
                          json.dumps(record["outcome"]), record["ended_at"]))

    def games(self, code: str) -> list[dict]:
        work = self._load(code)
        if work is not None and work["games"] is not None:
            return plain_copy(work["games"])
        rows = self._db.execute("SELECT * FROM games WHERE table_code = ? ORDER BY number", (code,))
        games = [{**dict(row), "outcome": jsontext.loads(row["outcome"]) if row["outcome"] else None} for row in rows]
        if work is not None:
            work["games"] = plain_copy(games)
        return games

    def due_tables(self, now: float) -> list[str]:
        """Tables with a timed wait past its deadline."""
        rows = self._db.execute("SELECT code FROM tables WHERE next_deadline IS NOT NULL AND next_deadline <= ?",
                                (now,))
        return [row["code"] for row in rows]

    # The private action log ----------------------------------------------
    FIND_ACTION = "SELECT result FROM actions WHERE table_code = ? AND actor = ? AND action_key = ?"

    def find_action(self, code: str, actor: str, key: str) -> dict | None:
        if (code, actor, key) in self._found:
            result = self._found.pop((code, actor, key))
        else:
            row = self._db.execute(self.FIND_ACTION, (code, actor, key)).fetchone()
            result = row["result"] if row else None
        return jsontext.loads(result) if result is not None else None

    def insert_action(self, code: str, actor: str, key: str | None, action: dict, result: dict) -> None:
        work = self._changing(code)
        seq = work["next_action"] if work is not None else None
        if seq is None:
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_code = ?",
                                   (code,)).fetchone()[0]
        self._write("INSERT INTO actions (table_code, seq, actor, action_key, action, result, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (code, seq, actor, key, jsontext.dumps(action), jsontext.dumps(result), self.clock()))
        if work is not None:
            work["next_action"] = seq + 1
