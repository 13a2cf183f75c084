"""The store on PostgreSQL, for several processes (and machines) serving one set of tables.

Chosen by ``COMPANION_DATABASE=postgresql://…`` (see `companion.store.open_store`); SQLite
stays the default. The schema and the queries are the SQLite ones: the few spellings that
differ are translated once per statement (placeholders, ``INSERT OR IGNORE``, ``REAL``, the
``AUTOINCREMENT`` key, ``instr``), so every part of the app keeps one interface.

Guarantees, the same as SQLite's:

- **Durable before told.** PostgreSQL's commit returns once the WAL is flushed
  (``synchronous_commit`` on, its default); the app emits only after the commit returns, so
  an action a phone was told about survives a kill of any process.
- **One action at a time per table.** A write transaction locks the table's row
  (``SELECT … FOR UPDATE``) before it reads or writes anything of the table, whichever process
  runs it; a second process acting on the same table waits for the first to commit, then reads
  what it wrote (READ COMMITTED re-reads the locked row). Tables never wait on each other, unlike
  SQLite's single writer. The idempotency key (``UNIQUE (table_code, actor, action_key)``)
  is read under that lock, so a retried action is answered from the log, never applied twice.

Each transaction takes a connection from a small pool, so greenlets (gevent) or threads run
transactions concurrently; PostgreSQL groups their WAL flushes itself.

**One round trip per action.** A player's action (`PostgresStore.act`) runs on this process's
copy of its table and sends BEGIN, a guard, its writes and COMMIT in one pipeline. The guard takes
the row's lock and fails the transaction unless the copy is still the table and the action's id
is still unanswered. So the guarantees above hold without reading the row first. A refused action
runs again, on the table as the refusal brought it back.
"""

from __future__ import annotations

import json
import logging
import re
import select
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import psycopg
from psycopg.waiting import Ready, Wait

from companion import jsontext
from companion.event_loop import gevent_is_running
from companion.store import (DISK_FAILED, SCHEMA, SCHEMA_VERSION, SYNC_LEVELS, TABLE_COLUMNS, StorageError, TableCache,
                             Transaction, _decode_column)

IDLE = psycopg.pq.TransactionStatus.IDLE
# One key for the advisory lock that serialises schema changes of processes starting together.
SCHEMA_LOCK = 0x636F6D70
# The guard's refusal (its SQLSTATE): the table moved on since the copy an action ran on, or the action's id
# was answered meanwhile.
MOVED_ON = "CP001"
# Actions run on this process's copy of their table at most this many times before one waits for the row's lock.
OPTIMISTIC_ATTEMPTS = 3

# Made at every start (processes of one version agree on it). Under the row's lock, which every write of a
# table takes (each moves its stamp), it checks that the table still has the stamp of the copy an action ran
# on and that the action's id is still unanswered; else it fails the transaction, which then writes nothing.
GUARD = """
CREATE OR REPLACE FUNCTION companion_guard(wanted_code TEXT, wanted_version BIGINT, wanted_updated DOUBLE PRECISION,
                                           wanted_actor TEXT, wanted_key TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM tables WHERE code = wanted_code AND version = wanted_version AND updated_at = wanted_updated
        FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'companion: the table moved on' USING ERRCODE = 'CP001';
    END IF;
    IF wanted_key IS NOT NULL AND EXISTS (SELECT 1 FROM actions WHERE table_code = wanted_code
                                          AND actor = wanted_actor AND action_key = wanted_key) THEN
        RAISE EXCEPTION 'companion: the action was answered meanwhile' USING ERRCODE = 'CP001';
    END IF;
END
$$
"""
# A table as the action path needs it, in one statement: its row, seats, finished games, next log and action
# numbers, and the earlier answer of an action id (for an actor and key, or NULLs).
FRESH = ("SELECT t.*, (SELECT result FROM actions WHERE table_code = t.code AND actor = ? AND action_key = ?) AS found, "
         "(SELECT json_agg(s ORDER BY s.seat) FROM seats s WHERE s.table_code = t.code) AS seat_rows, "
         "(SELECT json_agg(g ORDER BY g.number) FROM games g WHERE g.table_code = t.code) AS game_rows, "
         "(SELECT COALESCE(MAX(idx), -1) + 1 FROM log WHERE table_code = t.code) AS following_log, "
         "(SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_code = t.code) AS following_action "
         "FROM tables t WHERE t.code = ?")
# The same, only if the copy of stamp (version, updated_at) is not the table's any more or the id was answered.
MOVED = FRESH + (" AND (t.version <> ? OR t.updated_at <> ? OR EXISTS (SELECT 1 FROM actions WHERE table_code = t.code "
                 "AND actor = ? AND action_key = ?))")


class Row(dict):
    """A row read by name (``row["code"]``, ``dict(row)``) or by position (``row[0]``), like sqlite3.Row."""

    __slots__ = ("_values",)

    def __init__(self, names, values):
        super().__init__(zip(names, values))
        self._values = values

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._values[key]
        return super().__getitem__(key)


def _row_factory(cursor):
    names = [column.name for column in cursor.description or ()]
    return lambda values: Row(names, values)


_TRANSLATED: dict[str, str] = {}


def translate(sql: str) -> str:
    """SQLite's spelling of a statement, in PostgreSQL's (cached: the app has a few dozen)."""
    done = _TRANSLATED.get(sql)
    if done is not None:
        return done
    text = sql.replace("%", "%%").replace("?", "%s")
    if re.search(r"\bINSERT OR IGNORE\b", text):
        text = text.replace("INSERT OR IGNORE", "INSERT").rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    text = re.sub(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                  text)
    # SQLite's REAL is 8 bytes; PostgreSQL's is 4, far too coarse for a timestamp.
    text = re.sub(r"\bREAL\b", "DOUBLE PRECISION", text)
    _TRANSLATED[sql] = text
    return text


def _params(params):
    """Booleans as SQLite stores them (the schema's flags are INTEGER columns)."""
    if isinstance(params, dict):
        return {name: int(value) if isinstance(value, bool) else value for name, value in params.items()}
    return [int(value) if isinstance(value, bool) else value for value in params]


class Connection:
    """The part of sqlite3.Connection that `Transaction` uses, on a psycopg connection.

    Writes whose answer nobody reads are deferred (`defer`) and sent with the next statement,
    or with the COMMIT, in one pipeline: an action's row update, log entries and action row
    cost one round trip with the commit, and a transaction's BEGIN rides with its first
    statement. A deferred write that fails raises there, before the commit, as it would have
    by itself."""

    def __init__(self, raw: psycopg.Connection, pipelines: bool = True):
        self.raw = raw
        self.pipelines = pipelines
        self._deferred: list[tuple[str, Any, bool]] = []
        # Checks that go before anything else sent, each on its cursor (an optimistic transaction's guard).
        self.checks_first: Callable[[], list[tuple[psycopg.Cursor, str, Any]]] = list

    def execute(self, sql: str, params=()):
        cursor = self.raw.cursor()
        with self._batch():
            cursor.execute(translate(sql), _params(params) if params else None)
        return cursor

    def executemany(self, sql: str, rows):
        cursor = self.raw.cursor()
        rows = [_params(row) for row in rows]
        with self._batch():
            if rows:
                cursor.executemany(translate(sql), rows)
        return cursor

    def defer(self, sql: str, params=()) -> None:
        self._deferred.append((translate(sql), _params(params) if params else None, False))

    def defer_many(self, sql: str, rows) -> None:
        rows = [_params(row) for row in rows]
        if rows:
            self._deferred.append((translate(sql), rows, True))

    def execute_together(self, first: tuple[str, tuple], second: tuple[str, tuple]):
        """Two statements in one round trip, run in this order; their cursors."""
        cursors = [self.raw.cursor(), self.raw.cursor()]
        with self._batch(together=True):
            for cursor, (sql, params) in zip(cursors, (first, second)):
                cursor.execute(translate(sql), _params(params))
        return cursors

    def commit(self) -> None:
        """Sends the checks, what was deferred and the COMMIT together; returns once the WAL is flushed.
        A check that fails fails the COMMIT: nothing deferred is written."""
        self._end("COMMIT")

    def check_and_roll_back(self) -> None:
        """Sends the checks and a ROLLBACK together (nothing deferred is written): a failed check raises."""
        self._deferred.clear()
        self._end("ROLLBACK")

    def _end(self, command: str) -> None:
        """In a pipeline, the command is one of its statements: psycopg's own commit() would wait for its
        result, then the pipeline's end for nothing more, a second round trip."""
        checks = self.checks_first()
        if not (checks or self._deferred) and self._status() == IDLE:
            return  # nothing was sent: nothing to end
        with self._batch(checks) as pipelined:
            if pipelined:
                self.raw.cursor().execute(command)
            elif command == "COMMIT":
                self.raw.commit()
            else:
                self.raw.rollback()

    def _status(self):
        return self.raw.info.transaction_status

    @contextmanager
    def _batch(self, checks: list | None = None, together: bool = False) -> Iterator[bool]:
        """The BEGIN of a transaction not begun yet, the checks, what was deferred, then the caller's
        statements, in one round trip (a pipeline) when there is more than one statement to send; its
        results are read when it ends. The connection is in autocommit mode and the BEGIN is one of the
        pipeline's statements: psycopg's own BEGIN would wait for its answer, a round trip of its own."""
        checks = self.checks_first() if checks is None else checks
        opening = self._status() == IDLE
        if not self.pipelines:  # libpq before 14: one statement at a time
            if opening:
                self.raw.execute("BEGIN")
            self._send_deferred()
            yield False
            return
        if not (checks or self._deferred or opening or together):
            yield False
            return
        with self.raw.pipeline():
            if opening:
                self.raw.cursor().execute("BEGIN")
            for cursor, sql, params in checks:  # before the writes: these move the stamp that they check
                cursor.execute(translate(sql), _params(params))
            self._send_deferred()
            yield True

    def _send_deferred(self) -> None:
        deferred, self._deferred = self._deferred, []
        cursor = self.raw.cursor()
        for sql, params, many in deferred:
            if many:
                cursor.executemany(sql, params)
            else:
                cursor.execute(sql, params)


class MovedOn(Exception):
    """An action ran on a copy of its table older than the table (another process wrote it), or its id
    was answered meanwhile: nothing of it was written. ``entry``: the table as it is now (for the cache);
    ``found``: the id's earlier answer, if any."""

    def __init__(self, code: str, entry: dict | None, found: dict):
        super().__init__(code)
        self.code, self.entry, self.found = code, entry, found


def _entry(row) -> dict:
    """A `TableCache` entry from a `FRESH` row."""
    return {"stamp": (row["version"], row["updated_at"]),
            "table": {column: _decode_column(column, row[column]) for column in TABLE_COLUMNS},
            "seats": row["seat_rows"] or [], "next_log": row["following_log"],
            "games": [{**game, "outcome": jsontext.loads(game["outcome"]) if game["outcome"] else None}
                      for game in row["game_rows"] or ()],
            "next_action": row["following_action"]}


class PostgresTransaction(Transaction):
    """The store's queries, with the table's row locked before anything of the table is touched
    in a write transaction (once per table and transaction: every write goes through the
    table's working copy, whose first read takes the lock).

    An *optimistic* transaction (`PostgresStore.act`) instead runs on this process's copy of the
    table (`TableCache`), read from nowhere, and sends its writes with two checks and the COMMIT in
    one round trip: the guard (`GUARD`) takes the row's lock and fails the whole transaction unless the
    table still has the copy's stamp and the action's id is still unanswered; the statement before it
    (`MOVED`) then brings the table as it is, for the next attempt."""

    def __init__(self, db: Connection, writing: bool, cache=None, optimistic: bool = False,
                 found: dict | None = None):
        super().__init__(db, cache)
        self._writing = writing
        self._optimistic = optimistic and writing and db.pipelines and cache is not None
        self._assumed: tuple[str, tuple] | None = None  # (code, stamp) of the copy the action ran on
        self._claim: tuple[str | None, str | None] = (None, None)  # (actor, key) unanswered, as far as the copy knows
        self._found.update(found or {})
        self._checks: list = []  # the guard and what it brings, once sent
        db.checks_first = self._guards

    def expect_action(self, code: str | None, token_hash: str, key: str) -> None:
        """The action's id is looked up in the same round trip as the table's row, right after
        its lock (so a retry that another process applied is seen), for the actor the cached
        table names; `find_action` answers from it when the actor is confirmed."""
        actor = self._cache.actor_of(code, token_hash) if code and self._cache is not None else None
        if actor is not None and self._writing and self._db.pipelines:
            self._expected = (code, actor, key)

    def _load(self, code: str) -> dict | None:
        if not self._optimistic or self._assumed is not None or code in self._work or self._unknown_writes:
            return super()._load(code)
        work = self._cache.take(code, None) or self._read_fresh(code)
        if work is None:
            return None
        self._assumed = (code, work["stamp"])
        self._work[code] = work
        return work

    def _read_fresh(self, code: str) -> dict | None:
        """A table this process has no copy of, with the id of the coming action if it is known."""
        expected, self._expected = self._expected, None
        actor, key = expected[1:] if expected is not None and expected[0] == code else (None, None)
        row = self._db.execute(FRESH, (actor, key, code)).fetchone()
        if row is None:
            return None
        if key is not None:
            self._found[(code, actor, key)] = row["found"]
        return _entry(row)

    def _fetch_row(self, code: str):
        expected, self._expected = self._expected, None
        if expected is None or expected[0] != code:
            return super()._fetch_row(code)
        row, found = self._db.execute_together((self._row_query(code), (code,)), (self.FIND_ACTION, expected))
        answer = found.fetchone()
        self._found[expected] = answer["result"] if answer else None
        return row.fetchone()

    def find_action(self, code: str, actor: str, key: str) -> dict | None:
        if ((code, actor, key) not in self._found and self.guard_pending() and self._assumed[0] == code
                and self._claim == (None, None)):
            self._claim = (actor, key)  # unanswered as far as the copy tells: the guard makes sure
            return None
        return super().find_action(code, actor, key)

    def guard_pending(self) -> bool:
        """An optimistic transaction whose guard was not sent yet."""
        return self._assumed is not None and not self._checks

    def _guards(self) -> list[tuple[psycopg.Cursor, str, tuple]]:
        """The checks an optimistic transaction sends with its first statement after it took its copy of the
        table, its commit at the latest (then none: the guard holds the row's lock from there on)."""
        if not self.guard_pending():
            return []
        (code, (version, updated)), (actor, key) = self._assumed, self._claim
        self._checks = [(self._db.raw.cursor(), MOVED, (actor, key, code, version, updated, actor, key)),
                        (self._db.raw.cursor(), "SELECT companion_guard(?, ?, ?, ?, ?)",
                         (code, version, updated, actor, key))]
        return self._checks

    def moved_on(self) -> MovedOn:
        """What the checks brought when the guard refused."""
        code, (actor, key) = self._assumed[0], self._claim
        cursor = self._checks[0][0]
        try:
            row = cursor.fetchone()
        except psycopg.Error:
            row = None
        found = {}
        if row is not None and key is not None and row["found"] is not None:
            found[(code, actor, key)] = row["found"]
        return MovedOn(code, _entry(row) if row is not None else None, found)

    def _row_query(self, code: str) -> str:
        return "SELECT * FROM tables WHERE code = ?" + (" FOR UPDATE" if self._writing else "")

    def _whole_row(self, code: str, row):
        return row  # read whole with its lock: one round trip

    def _write(self, sql: str, params=()) -> None:
        self._db.defer(sql, params)

    def _write_many(self, sql: str, rows: list) -> None:
        self._db.defer_many(sql, rows)


class GeventConnection(psycopg.Connection):
    """psycopg's connection, waiting on its socket in a way that is cheap under gevent.

    psycopg's pipeline sends one statement per wait for the socket, and its wait through gevent's
    poll() is a trip through the hub each time, even when the socket is writable at once (as it
    nearly always is): the hub was a third of a cluster worker's samples (issue 29). Here the
    kernel is asked first, without blocking; only a socket not ready parks the greenlet."""

    def wait(self, gen, interval: float = 0.1, timeout: float | None = None):
        if timeout is not None:
            return super().wait(gen, interval=interval, timeout=timeout)
        from gevent.socket import wait_read, wait_readwrite, wait_write

        parkers = {Wait.R: wait_read, Wait.W: wait_write, Wait.RW: wait_readwrite}
        fileno = self.pgconn.socket
        try:
            wanted = next(gen)
            while True:
                ready = _ready_now(fileno, wanted)
                if not ready:
                    try:
                        parkers[wanted](fileno, timeout=interval)
                    except TimeoutError:  # gevent's socket.timeout: nothing yet, psycopg is told so
                        pass
                    ready = _ready_now(fileno, wanted)
                wanted = gen.send(ready)
        except StopIteration as done:
            return done.value


class _RefusedGuardIsNoNews(logging.Filter):
    """psycopg warns of the error that ended a pipeline; a guard's refusal (`MOVED_ON`) is expected:
    the action runs again."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith("error ignored terminating")
                    and "pipeline aborted" in record.getMessage())


logging.getLogger("psycopg").addFilter(_RefusedGuardIsNoNews())

_POLL_EVENTS = {Wait.R: select.POLLIN, Wait.W: select.POLLOUT, Wait.RW: select.POLLIN | select.POLLOUT}


def _ready_now(fileno: int, wanted) -> Ready:
    """What the socket is ready for now, asked of the kernel itself (not gevent's poll)."""
    from gevent.monkey import get_original

    poller = get_original("select", "poll")()
    poller.register(fileno, _POLL_EVENTS[wanted])
    events = poller.poll(0)
    flags = events[0][1] if events else 0
    ready = Ready.NONE
    if flags & (select.POLLIN | select.POLLERR | select.POLLHUP):
        ready |= Ready.R
    if flags & (select.POLLOUT | select.POLLERR | select.POLLHUP):
        ready |= Ready.W
    return Ready(ready) & Ready(wanted)


def _is_storage_failure(error: BaseException) -> bool:
    """The server or the link to it failed, not our own SQL."""
    return isinstance(error, (psycopg.OperationalError, psycopg.errors.DiskFull, psycopg.InterfaceError))


class PostgresStore:
    """`companion.store.Store`'s interface on PostgreSQL."""

    damaged = None  # PostgreSQL checks its own files
    group_sync = None  # PostgreSQL groups WAL flushes itself

    def __init__(self, url: str, sync: str = "FULL", pool_size: int = 8):
        if sync.upper() not in SYNC_LEVELS:
            raise ValueError(f"COMPANION_DB_SYNC must be one of {', '.join(SYNC_LEVELS)}, not {sync!r}")
        self.path = url
        # OFF trades the last commits of a crash for speed, as SQLite's synchronous=OFF does.
        self._session = "SET synchronous_commit = off" if sync.upper() == "OFF" else None
        self._idle: list[psycopg.Connection] = []
        self._slots = threading.BoundedSemaphore(pool_size)
        self._pool_lock = threading.Lock()
        self._current = threading.local()  # greenlet-local under gevent: the open transaction
        self.cache = TableCache()
        self._pipelines = psycopg.Pipeline.is_supported()  # libpq 14 or later
        self._closed = False
        with self.transaction() as tx:
            tx.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
            tx.execute("CREATE TABLE IF NOT EXISTS companion_schema (version INTEGER NOT NULL)")
            row = tx.execute("SELECT version FROM companion_schema").fetchone()
            if row is None:
                self._script(tx, SCHEMA)
                # SQLite's instr(), which the catalogue's search uses.
                tx.execute("CREATE OR REPLACE FUNCTION instr(text, text) RETURNS integer "
                           "LANGUAGE sql IMMUTABLE AS 'SELECT strpos($1, $2)'")
                tx.execute("INSERT INTO companion_schema (version) VALUES (?)", (SCHEMA_VERSION,))
            elif row[0] != SCHEMA_VERSION:
                raise RuntimeError(f"The PostgreSQL schema is version {row[0]}; this server needs {SCHEMA_VERSION}.")
            tx.execute(GUARD)

    @staticmethod
    def _script(tx: Transaction, sql: str) -> None:
        for statement in sql.split(";"):
            if statement.strip():
                tx.execute(statement)

    def _connect(self) -> psycopg.Connection:
        self._slots.acquire()
        with self._pool_lock:
            if self._idle:
                return self._idle.pop()
        try:
            # Transactions begin explicitly (`Connection._batch`).
            connection = GeventConnection if gevent_is_running() else psycopg.Connection
            raw = connection.connect(self.path, row_factory=_row_factory, autocommit=True)
            if self._session:
                raw.execute(self._session)
                raw.commit()
            return raw
        except BaseException:
            self._slots.release()
            raise

    def _release(self, raw: psycopg.Connection) -> None:
        with self._pool_lock:
            if raw.closed or raw.broken or self._closed:
                raw.close()
            else:
                self._idle.append(raw)
        self._slots.release()

    def ensure_schema(self, sql: str) -> None:
        with self.transaction() as tx:
            tx.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
            self._script(tx, sql)

    def close(self) -> None:
        with self._pool_lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for raw in idle:
            raw.close()

    def act(self, body: Callable[[Transaction], Any]) -> Any:
        """``body(tx)`` in a write transaction; its value (see `companion.store.Store.act`). The body runs on
        this process's copy of the table and the whole transaction costs one round trip to the server
        (`PostgresTransaction`); when another process wrote the table meanwhile, nothing is written and
        the body runs again on the table as the refusal brought it. The last attempt takes the row's lock
        first, as every other transaction does."""
        found: dict = {}
        for attempt in range(OPTIMISTIC_ATTEMPTS + 1):
            try:
                with self._open(writing=True, optimistic=attempt < OPTIMISTIC_ATTEMPTS, found=found) as tx:
                    return body(tx)
            except MovedOn as moved:
                if moved.entry is not None:
                    self.cache.put({moved.code: moved.entry})
                found = moved.found
        raise AssertionError("the last attempt is not optimistic")

    @contextmanager
    def _open(self, writing: bool, optimistic: bool = False, found: dict | None = None) -> Iterator[Transaction]:
        current = getattr(self._current, "tx", None)
        if current is not None:  # inside another transaction: part of it
            yield current
            return
        try:
            raw = self._connect()
        except psycopg.Error as error:
            raise StorageError(DISK_FAILED) from error
        link = Connection(raw, self._pipelines)
        tx = PostgresTransaction(link, writing, self.cache, optimistic, found)
        self._current.tx = tx
        try:
            try:
                yield tx
                tx.finish()
            except BaseException as error:
                if isinstance(error, psycopg.Error) and error.sqlstate == MOVED_ON:  # the guard, sent with a read
                    self._rollback(raw)
                    raise tx.moved_on() from None
                if isinstance(error, Exception) and not _is_storage_failure(error) and tx.guard_pending():
                    self._confirm_refusal(link, tx)
                self._rollback(raw)
                if _is_storage_failure(error):
                    raise StorageError(DISK_FAILED) from error
                raise
            try:
                link.commit()  # returns once the WAL is flushed: only then are the phones told
            except psycopg.Error as error:
                self._rollback(raw)
                if error.sqlstate == MOVED_ON:
                    raise tx.moved_on() from None
                if isinstance(error, (psycopg.IntegrityError, psycopg.ProgrammingError)):
                    raise  # a deferred write's own error, as it would have raised by itself
                raise StorageError(DISK_FAILED) from error
            tx.committed()
        finally:
            self._current.tx = None
            self._release(raw)

    def _confirm_refusal(self, link: Connection, tx: PostgresTransaction) -> None:
        """An optimistic action refused (a `TableError`...) on its copy of the table: the refusal stands only if
        the copy was the table as it is (one round trip, which writes nothing); else `MovedOn`, to run again."""
        try:
            link.check_and_roll_back()
        except psycopg.Error as error:
            if error.sqlstate != MOVED_ON:
                raise StorageError(DISK_FAILED) from error
            raise tx.moved_on() from None
        finally:
            self._rollback(link.raw)

    @staticmethod
    def _rollback(raw: psycopg.Connection) -> None:
        try:
            raw.rollback()
        except psycopg.Error:
            raw.close()  # a broken link: the pool drops it

    @staticmethod
    def on_committed_copy(code: str, decide) -> None:
        """Nothing is decided outside a transaction here (see `companion.store.Store.on_committed_copy`): an
        action refused on this process's copy already costs one round trip that writes nothing
        (`_confirm_refusal`), and a copy read between two round trips could change under the reader."""
        return None

    def transaction(self):
        """A write transaction (see `companion.store.Store.transaction`)."""
        return self._open(writing=True)

    def reading(self):
        return self._open(writing=False)
