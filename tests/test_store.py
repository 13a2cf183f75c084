"""The store: durable commits, batched under gevent; a bad sync level is refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from companion.store import Store
from companion.tables import Tables
from tests.server import ROOT


def test_an_unknown_sync_level_is_refused(tmp_path):
    with pytest.raises(ValueError, match="COMPANION_DB_SYNC"):
        Store(str(tmp_path / "db.sqlite3"), sync="FUL")


def test_a_failed_transaction_leaves_nothing(tmp_path):
    store = Store(str(tmp_path / "db.sqlite3"))
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
