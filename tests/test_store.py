"""The store: durable commits, batched under gevent; a bad sync level is refused. The tests that
take the ``store`` fixture run on SQLite and on a real PostgreSQL (companion/store_postgres.py)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import textwrap
import threading

import pytest

from companion.store import DISK_FAILED, Store, open_store
from companion.tables import TableError, Tables
from tests.helpers import ENTROPY
from scripts.cluster import Cluster
from tests.server import ROOT

DATABASE_NUMBERS = itertools.count()


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    """A real PostgreSQL server for this module's tests (each takes a database of its own)."""
    server = Cluster(tmp_path_factory.mktemp("postgres"), processes=0)
    server.start_database()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where a store's data goes: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "db.sqlite3")
    return request.getfixturevalue("postgres").new_database(f"test{next(DATABASE_NUMBERS)}")


@pytest.fixture
def store(database):
    opened = open_store(database)
    yield opened
    opened.close()


def test_an_unknown_sync_level_is_refused(database):
    with pytest.raises(ValueError, match="COMPANION_DB_SYNC"):
        open_store(database, sync="FUL")


def test_a_failed_transaction_leaves_nothing(store):
    code = Tables(store).create("dice", {})["code"]
    with store.reading() as tx:
        before = tx.log(code)
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.append_log(code, [{"kind": "table"}])
            raise RuntimeError("rule violation")
    with store.reading() as tx:
        assert tx.log(code) == before
    assert store.group_sync is None  # plain threads: every commit syncs by itself (FULL)


def test_a_write_refused_by_the_database_fails_its_transaction_even_when_sent_with_the_commit(store):
    """On PostgreSQL writes travel with the next statement or the COMMIT (one round trip): a
    refused one (a token already used: UNIQUE) still fails the whole transaction, as itself."""
    import sqlite3

    import psycopg

    tables = Tables(store)
    code = tables.create("dice", {})["code"]
    tables.join(code, "Ana", ENTROPY)
    with store.reading() as tx:
        before = tx.table(code), tx.seats(code, include_removed=True), tx.log(code)
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):
        with store.transaction() as tx:
            tx.insert_seat(code, "Bo", "#4dabf7", "the same token")
            tx.append_log(code, [{"kind": "table", "type": "joined", "seat": 2, "name": "Bo"}])
            tx.insert_seat(code, "Cy", "#51cf66", "the same token")
    with store.reading() as tx:
        assert (tx.table(code), tx.seats(code, include_removed=True), tx.log(code)) == before


def test_a_table_a_seat_a_retried_action_and_a_finished_game_read_back_alike(store):
    """The store's whole interface: the same answers on both engines."""
    tables = Tables(store)
    code = tables.create("dice", {})["code"]
    seat = tables.join(code, "Ana", ENTROPY)
    first = tables.act(code, seat["token"], {"type": "roll", "id": "once"})
    again = tables.act(code, seat["token"], {"type": "roll", "id": "once"})
    assert again == {**first, "duplicate": True}
    with store.transaction() as tx:
        tx.insert_game(code, {"number": 1, "game": "dice", "commitment": "c", "seed": "s",
                              "outcome": {"winners": [1]}, "ended_at": 1.5})
        tx.insert_game(code, {"number": 1, "game": "dice", "commitment": "c", "seed": "s2",
                              "outcome": None, "ended_at": 2.25})  # the same game written again: replaced
    with store.reading() as tx:
        table, seats, log = tx.table(code), tx.seats(code), tx.log(code)
        assert tx.games(code) == [{"table_code": code, "number": 1, "game": "dice", "commitment": "c",
                                   "seed": "s2", "outcome": None, "ended_at": 2.25}]
        assert tx.find_action(code, "seat:1", "once") == {k: v for k, v in first.items()}
    assert table["joining_open"] is True and table["options"]["die"] == "d6" and table["status"] == "playing"
    assert isinstance(table["updated_at"], float) and table["updated_at"] > 1e9  # a timestamp to the second
    assert [s["name"] for s in seats] == ["Ana"]
    assert [entry["type"] for entry in log if entry["kind"] == "table"] == ["created", "joined"]


def test_actions_on_one_table_from_many_threads_are_applied_one_at_a_time(store):
    tables = Tables(store, rate_capacity=1000, rate_per_second=1000)
    code = tables.create("dice", {})["code"]
    tokens = [tables.join(code, name, ENTROPY)["token"] for name in ("Ana", "Bo", "Cy", "Di")]
    numbers: list[int] = []

    def roll(token: str) -> None:
        for _ in range(10):
            numbers.append(tables.act(code, token, {"type": "roll"})["events"][0]["number"])
    threads = [threading.Thread(target=roll, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with store.reading() as tx:
        draws = [entry["n"] for entry in tx.log(code) if entry["kind"] == "draw"]
    assert sorted(numbers) == list(range(1, 41))  # none lost, none twice
    assert draws == list(range(len(draws)))  # every draw in sequence: no two actions read the same state


def test_two_processes_on_one_database_each_see_what_the_other_wrote_despite_their_caches(database):
    """Each process caches the tables it used (companion.store.TableCache); a roll, a join and a
    seat removed through the other process are seen, never the cached copy of before."""
    first, second = open_store(database), open_store(database)
    try:
        here, there = Tables(first, rate_capacity=100, rate_per_second=100), Tables(second, rate_capacity=100,
                                                                                   rate_per_second=100)
        created = here.create("dice", {})
        code = created["code"]
        ana = here.join(code, "Ana", ENTROPY)
        assert here.act(code, ana["token"], {"type": "roll"})["events"][0]["number"] == 1  # cached here now
        assert there.act(code, ana["token"], {"type": "roll"})["events"][0]["number"] == 2
        assert here.act(code, ana["token"], {"type": "roll"})["events"][0]["number"] == 3
        bo = there.join(code, "Bo", ENTROPY)  # a seat this process's cache never saw: its token opens it here
        assert here.act(code, bo["token"], {"type": "roll"})["events"][0]["number"] == 4
        with second.transaction() as tx:  # the log alone grows there: the next entry here follows it
            tx.append_log(code, [{"kind": "test"}])
        assert here.act(code, ana["token"], {"type": "roll"})["events"][0]["number"] == 5
        there.act(code, created["host_token"], {"type": "table.remove", "seat": bo["seat"]})
        with pytest.raises(TableError, match="removed"):
            here.act(code, bo["token"], {"type": "roll"})
        with first.reading() as tx:
            rolls = [entry["event"]["number"] for entry in tx.log(code) if entry["kind"] == "event"]
            assert [seat["name"] for seat in tx.seats(code)] == ["Ana"]
        assert rolls == [1, 2, 3, 4, 5]  # one log, numbered without a gap or a repeat across both processes
    finally:
        first.close()
        second.close()


def test_a_transaction_that_fails_leaves_the_cached_table_as_it_was_committed(store):
    tables = Tables(store)
    code = tables.create("dice", {})["code"]
    token = tables.join(code, "Ana", ENTROPY)["token"]
    tables.act(code, token, {"type": "roll"})
    with store.reading() as tx:
        before = tx.table(code), tx.seats(code), tx.log(code)
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.update_table(code, status="closed", state={"spoilt": True})
            tx.update_seat(code, 1, name="Mallory")
            tx.append_log(code, [{"kind": "table", "type": "spoilt"}])
            raise RuntimeError("rule violation")
    with store.reading() as tx:
        assert (tx.table(code), tx.seats(code), tx.log(code)) == before
    assert tables.act(code, token, {"type": "roll"})["events"][0]["number"] == 2


GEVENT_SCRIPT = textwrap.dedent("""
    from gevent import monkey; monkey.patch_all()
    import sys, gevent
    from companion.store import Store
    from companion.tables import Tables
    store = Store(sys.argv[1])
    assert store.group_sync is not None
    code = Tables(store).create("dice", {})["code"]
    def write(i):
        with store.transaction() as tx:
            tx.append_log(code, [{"kind": "test", "i": i}])
        return i
    jobs = [gevent.spawn(write, i) for i in range(200)]
    gevent.joinall(jobs, raise_error=True)
    with store.reading() as tx:
        print(code, sum(e["kind"] == "test" for e in tx.log(code)), store.group_sync.fsyncs)
""")


def test_group_commit_makes_every_transaction_durable_with_fewer_fsyncs(tmp_path):
    result = subprocess.run([sys.executable, "-c", GEVENT_SCRIPT, str(tmp_path / "db.sqlite3")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    code, rows, fsyncs = result.stdout.split()
    assert int(rows) == 200
    assert 1 <= int(fsyncs) < 200  # transactions that commit during an fsync share the next one
    reopened = Store(str(tmp_path / "db.sqlite3"))
    with reopened.reading() as tx:
        assert sum(entry["kind"] == "test" for entry in tx.log(code)) == 200


SYNC_MODES_SCRIPT = textwrap.dedent("""
    from gevent import monkey; monkey.patch_all()
    import json, os, sys, gevent
    from companion.store import Store, StorageError
    from companion.tables import Tables
    from gevent.monkey import get_original
    native_ident = get_original("_thread", "get_ident")  # threading's own names greenlets once patched
    main, real_fsync = native_ident(), os.fsync
    gate = get_original("_thread", "allocate_lock")()
    disk = {"fails": False, "held": False}
    where = []
    def fsync(fd):  # the disk as this test plays it: held until the loop lets it go, or failing
        where.append("loop" if native_ident() == main else "thread")
        if disk["held"]:
            where.append("loop went on" if gate.acquire(timeout=20) else "loop held")
        if disk["fails"]:
            raise OSError(5, "Input/output error")
        real_fsync(fd)
    os.fsync = fsync
    store = Store(sys.argv[1])
    code = Tables(store).create("dice", {})["code"]
    def write(i):
        try:
            with store.transaction() as tx:
                tx.append_log(code, [{"kind": "test", "i": i}])
            return "ok"
        except StorageError as error:
            return str(error)
    def burst(first, count=20):
        del where[:]
        jobs = [gevent.spawn(write, first + i) for i in range(count)]
        gevent.joinall(jobs, raise_error=True)
        return {"answers": sorted(set(job.value for job in jobs)), "fsyncs": list(where)}
    report = {"fast": burst(0)}
    gate.acquire()
    disk["held"] = True  # a slow disk: the fsync waits for a greenlet, which runs only if the loop does
    gevent.spawn(gate.release)
    report["held"] = burst(20, 1)
    disk["held"] = False
    disk["fails"] = True
    report["failing"] = burst(21, 5)
    report["refused while failing"] = burst(1000, 5)
    disk["fails"] = False
    report["synced again"] = burst(26, 1)
    report["later"] = burst(27)
    with store.reading() as tx:
        report["rows"] = sorted(e["i"] for e in tx.log(code) if e["kind"] == "test")
    print(json.dumps(report))
""")


def test_the_group_commits_fsync_runs_in_a_native_thread_while_the_loop_goes_on(tmp_path):
    """The group commit's fsync, on a disk this test plays (os.fsync wrapped): one fsync in a native
    thread for a burst of commits, never on the event loop, which goes on serving greenlets while the
    disk works (here the fsync waits for one). A failing fsync answers each waiting commit (none waits
    forever): committed, and shown to every reader, it stands, so its caller is told it happened; the
    next writes are refused before they begin (nothing written) until an fsync succeeds."""
    result = subprocess.run([sys.executable, "-c", SYNC_MODES_SCRIPT, str(tmp_path / "db.sqlite3")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["fast"]["answers"] == ["ok"]
    assert set(report["fast"]["fsyncs"]) == {"thread"} and len(report["fast"]["fsyncs"]) < 20
    assert report["held"] == {"answers": ["ok"], "fsyncs": ["thread", "loop went on"]}
    assert report["failing"]["answers"] == ["ok"] and set(report["failing"]["fsyncs"]) == {"thread"}
    assert report["refused while failing"]["answers"] == [DISK_FAILED]
    assert set(report["refused while failing"]["fsyncs"]) == {"thread"}  # the retry, off the loop
    assert report["synced again"]["answers"] == ["ok"]
    assert report["later"]["answers"] == ["ok"] and set(report["later"]["fsyncs"]) == {"thread"}
    assert report["rows"] == list(range(47))  # every commit told it happened is in the file; no refused one


CHECKPOINT_SCRIPT = textwrap.dedent("""
    from gevent import monkey; monkey.patch_all()
    import os, sys, gevent
    from companion import store as store_module
    from companion.store import Store
    from companion.tables import Tables
    path = sys.argv[1]
    if sys.argv[2] == "overloaded":  # as if writes always outran the copy and the WAL were large
        store_module.CHECKPOINT_ON_LOOP, store_module.WAL_FRAMES_AT_MOST = -1, 0
    store = Store(path)
    store.group_sync._checkpoint_after = 1  # at every fsync that finds none running
    automatic = store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
    code = Tables(store).create("dice", {})["code"]
    before = os.path.getsize(path)
    def write(i):
        with store.transaction() as tx:
            tx.append_log(code, [{"kind": "test", "i": i, "padding": "x" * 2000}])
    for wave in range(20):
        gevent.joinall([gevent.spawn(write, wave * 20 + i) for i in range(20)], raise_error=True)
        gevent.sleep(0.01)
    while store.group_sync._checkpointing:
        gevent.sleep(0.01)
    write(400)  # starts the WAL again if the last checkpoint took every frame
    with open(path + "-wal", "rb") as wal:
        restarts = int.from_bytes(wal.read(16)[12:16], "big")  # the header's checkpoint sequence number
    print(code, automatic, store.group_sync.checkpoints, os.path.getsize(path) - before, restarts)
    os._exit(0)  # as a kill would: no checkpoint at close
""")


@pytest.mark.parametrize("server", ["keeping up", "overloaded"])
def test_under_gevent_the_wal_is_copied_into_the_database_by_a_thread_not_by_a_commit(tmp_path, server):
    """SQLite's automatic checkpoint, run inside a COMMIT on the event loop, is off; the group
    commit's own checkpoints, mostly in a native thread, move the WAL into the database file,
    each one whole (so that the WAL starts again from its beginning rather than growing with
    every write), and nothing committed is lost by a process that stops without closing.
    Overloaded (writes outran the copy, the WAL is large), the last pass runs in the thread with
    the store locked: nothing is lost either."""
    path = str(tmp_path / "db.sqlite3")
    result = subprocess.run([sys.executable, "-c", CHECKPOINT_SCRIPT, path, server], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    code, automatic, checkpoints, grown, restarts = result.stdout.split()
    assert (automatic, int(checkpoints) > 0) == ("0", True)
    assert int(grown) > 400 * 2000  # the log's pages were written into the database file itself
    assert int(restarts) > 0  # the WAL was started over from its beginning, not grown by every write
    with Store(path).reading() as tx:
        assert sorted(entry["i"] for entry in tx.log(code) if entry["kind"] == "test") == list(range(401))


def test_a_database_from_version_1_is_migrated_and_keeps_its_tables(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA_V1)
    old.execute("INSERT INTO tables VALUES ('ABCD', 'dice', '{}', NULL, 'lobby', 1, 'h', 's', 'c', 'p', 0, 1, 0, 0)")
    old.execute("INSERT INTO log VALUES ('ABCD', 0, 'table', '{\"kind\":\"table\",\"type\":\"created\"}', 0)")
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    store = Store(str(path))
    with store.reading() as tx:
        table = tx.table("ABCD")
        # Version 3: the table's first game, its waits and undo record, and an empty history.
        assert [entry["type"] for entry in tx.log("ABCD", game=1)] == ["created"] and tx.games("ABCD") == []
    assert table["game"] == "dice" and table["figures"] == {}
    assert (table["game_no"], table["waits"], table["undo"], table["host_seat"], table["settings"]) == (1, [], [], None, {})


SCHEMA_V1 = """
CREATE TABLE tables (code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, state TEXT,
    status TEXT NOT NULL, joining_open INTEGER NOT NULL, host_token_hash TEXT NOT NULL UNIQUE,
    seed TEXT NOT NULL, commitment TEXT NOT NULL, pool TEXT NOT NULL, next_draw INTEGER NOT NULL,
    version INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE seats (table_code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, colour TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE, removed INTEGER NOT NULL DEFAULT 0, joined_at REAL NOT NULL,
    PRIMARY KEY (table_code, seat));
CREATE TABLE log (table_code TEXT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (table_code, idx));
CREATE TABLE actions (table_code TEXT NOT NULL, seq INTEGER NOT NULL, actor TEXT NOT NULL, action_key TEXT,
    action TEXT NOT NULL, result TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_code, seq),
    UNIQUE (table_code, actor, action_key));
"""


def test_a_tv_code_names_its_table_then_pairs_is_kept_from_others_and_expires(store):
    """companion/displays.py keeps its codes and the tables asking in the store, so that two processes
    share them; the TV names the table that asked for its wait, then shows it."""
    from companion.displays import PAIR_SECONDS, Displays

    now = [1_000_000.0]
    tables = Tables(store)
    displays = Displays(store, tables, clock=lambda: now[0], wait=10)
    created, other = tables.create("dice", {}), tables.create("dice", {})
    first, second = displays.new_pairing(), displays.new_pairing()
    assert displays.pair(created["code"], created["host_token"], first["code"].lower()) == {
        "ok": True, "table": created["code"], "state": "asked", "contested": False}
    assert displays.status(first["key"]) == {"state": "asked", "contested": False, "asks": [
        {"table": created["code"], "host": None, "until": now[0] + 10, "in": 10}]}
    now[0] += 10  # the wait is over and nobody else asked: the TV shows the table
    assert displays.status(first["key"]) == {"state": "paired", "table": created["code"], "host": None}
    assert displays.pair(created["code"], created["host_token"], first["code"])["state"] == "paired"
    with pytest.raises(TableError) as taken:  # another table's host, without the shown table's key
        displays.pair(other["code"], other["host_token"], first["code"])
    assert taken.value.status == 409 and displays.status(first["key"])["table"] == created["code"]
    now[0] += PAIR_SECONDS + 1
    with pytest.raises(TableError) as expired:
        displays.pair(created["code"], created["host_token"], second["code"])
    assert expired.value.status == 410 and displays.status(second["key"]) == {"state": "expired"}
