"""Fixtures: an app per test (Flask's tutorial style) and the real server process."""

from __future__ import annotations

import pytest

from companion import create_app
from tests.server import TEST_LIMITS, ServerProcess


@pytest.fixture
def app_config():
    """Extra settings of the test app: a module overrides it (an empty catalogue, for one)."""
    return {}


@pytest.fixture
def app(tmp_path, app_config):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3"), "ASYNC_MODE": "threading",
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


@pytest.fixture
def live_server(tmp_path):
    server = ServerProcess(tmp_path).start()
    yield server
    server.stop()
