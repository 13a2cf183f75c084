"""Fixtures: an app per test (Flask's tutorial style) and the real server process."""

from __future__ import annotations

import os
import uuid

import pytest

from companion import create_app
from companion.catalogues import compile_catalogues
from tests.server import TEST_LIMITS, server_fixture


def pytest_sessionstart(session):
    """A fresh clone needs no compile step before its tests: stale .mo files are made here."""
    compile_catalogues()


@pytest.fixture
def app_config():
    """Extra settings of the test app: a module overrides it (an empty catalogue, for one)."""
    return {}


def database_for(tmp_path) -> str:
    """SQLite; or, with COMPANION_TEST_POSTGRES=postgresql://user@host:port (a server you started, e.g.
    with scripts/cluster.py), a fresh PostgreSQL database per test: the same tests on the other backend."""
    server = os.environ.get("COMPANION_TEST_POSTGRES")
    if not server:
        return str(tmp_path / "test.sqlite3")
    import psycopg

    name = f"t{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


@pytest.fixture
def app(tmp_path, app_config):
    app = create_app({"TESTING": True, "DATABASE": database_for(tmp_path), "ASYNC_MODE": "threading",
                      "PUBLIC_URL": "http://127.0.0.1:5000", "SECRET_KEY": "test", "READER": "none",
                      **TEST_LIMITS, **app_config})
    yield app
    app.extensions["companion.tables"].store.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def tables(app):
    return app.extensions["companion.tables"]


@pytest.fixture
def socket_client(app):
    """Opens Flask-SocketIO test clients, authenticated like phones."""
    socketio = app.extensions["companion.socketio"]
    opened = []

    def connect(code, token=None, **headers):
        auth = {"table": code}
        if token is not None:
            auth["token"] = token
        connection = socketio.test_client(app, auth=auth, headers=headers or None)
        opened.append(connection)
        return connection

    yield connect
    for connection in opened:
        if connection.is_connected():
            connection.disconnect()


@pytest.fixture
def emulator():
    """The NFC emulator (hardware/emulate.py) on a free loopback port, serving."""
    from hardware.emulate import Emulator

    with Emulator(port=0) as emulator:
        yield emulator


live_server = server_fixture("live", scope="function")


# --- Test kinds -------------------------------------------------------------------------------
# Every test is marked by what it starts, read from its fixtures (and, for the few tests that
# start a server process in their own body, from the module's names): `pure` needs nothing but
# the code (the games' rules, the catalogue, the verifier), `app` builds the Flask app in the
# test's process, `server` starts the real server process, `browser` drives Chromium. The fast
# loop is `.venv/bin/python -m pytest -m pure`.
KIND_OF_FIXTURE = {"browser": "browser", "live_server": "server", "server": "server",
                   "app": "app", "client": "app", "tables": "app", "socket_client": "app"}
# (A layout module, tests/test_layout_*.py, has its browser from tests/layout_cases.py: its ``layout_test``.)
KIND_OF_MODULE_NAME = {"sync_playwright": "browser", "layout_test": "browser", "ServerProcess": "server",
                       "server_fixture": "server", "Cluster": "server", "create_app": "app"}
KINDS = ("browser", "server", "app")  # heaviest first: a test is of the heaviest kind it needs


def kind_of(item) -> str:
    needed = {KIND_OF_FIXTURE[name] for name in getattr(item, "fixturenames", ()) if name in KIND_OF_FIXTURE}
    module = vars(item.module) if getattr(item, "module", None) else {}
    needed |= {kind for name, kind in KIND_OF_MODULE_NAME.items() if name in module}
    if "postgresql" in getattr(getattr(item, "callspec", None), "params", {}).values():
        needed.add("server")  # the store's tests run a second time on a real PostgreSQL server
    return next((kind for kind in KINDS if kind in needed), "pure")


# --- The order of the test files ----------------------------------------------------------------------------
# `./manage.sh test` hands each of its two workers a whole file at a time (--dist loadfile), the next file to the
# first worker free, in the order collected (--no-loadscope-reorder). The costliest files go first, so the last
# ones handed out are short and both workers end together: xdist's own order, by number of tests, handed out
# last the browser files of a few long tests, and one worker ran on alone. A file's cost is estimated from what
# its tests start (their kinds), in seconds of a quiet two-core machine; within a file the order stays.
SECONDS_BY_KIND = {"browser": 3.0, "server": 0.5, "app": 0.05, "pure": 0.005}


def pytest_collection_modifyitems(config, items):
    cost: dict[str, float] = {}
    for item in items:
        kind = kind_of(item)
        item.add_marker(kind)
        module = item.nodeid.split("::")[0]
        cost[module] = cost.get(module, 0.0) + SECONDS_BY_KIND[kind]
    items.sort(key=lambda item: -cost[item.nodeid.split("::")[0]])  # stable: a file's own order is kept


# A real server whose rounds of random numbers wait three seconds on a silent phone: long enough for an
# answering phone on a loaded machine, short enough to wait for a round's timeout in a test.
quick_rounds = server_fixture("rounds", {"COMPANION_ROUND_SECONDS": "3"})
