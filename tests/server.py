"""The real server in a child process, on a free loopback port."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
import requests

from scripts.cluster import free_port  # noqa: F401 (tests and bench/ import it from here)

ROOT = Path(__file__).resolve().parent.parent


# Every test client comes from 127.0.0.1: the per-client limits (companion/limits.py) would
# take a whole test run for one flood. tests/test_abuse_limits.py sets them back to the defaults.
TEST_LIMITS = {"LIMIT_CREATE": "100000/1", "LIMIT_JOIN": "100000/1", "LIMIT_LOOKUP": "100000/1",
               "LIMIT_WATCH": "100000/1", "LIMIT_HANDOFF": "100000/1", "LIMIT_CONNECTIONS": 100000,
               # A round a draw waits for leaves out a silent phone after this long: a test's phones answer
               # between its other steps, on a busy machine (a test of the timeout sets its own).
               "ROUND_SECONDS": 60}


def stop_process(process: subprocess.Popen | None) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class ServerProcess:
    """``python app.py`` (or gunicorn with our config, serving ``app``) with its own
    database, bound to 127.0.0.1. ``name`` names its database and log in ``workdir``. ``root`` is the
    checkout it runs (another commit's, for a before-and-after bench)."""

    def __init__(self, workdir: Path, command: str = "app", extra_env: dict | None = None,
                 app: str = "app:app", name: str = "companion", root: Path = ROOT):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.database = workdir / f"{name}.sqlite3"
        self.command = command
        self.app = app
        self.root = root
        self.env = {**os.environ, "COMPANION_HOST": "127.0.0.1", "COMPANION_PORT": str(self.port),
                    "COMPANION_DATABASE": str(self.database), "COMPANION_INSTANCE": str(workdir),
                    "COMPANION_PUBLIC_URL": self.url, "COMPANION_READER": "none",
                    **{f"COMPANION_{name}": str(value) for name, value in TEST_LIMITS.items()}, **(extra_env or {})}
        self.process: subprocess.Popen | None = None
        self.log_path = workdir / f"{name}.log"

    def _argv(self) -> list[str]:
        if self.command == "gunicorn":
            return [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", self.app]
        return [sys.executable, "app.py"]

    def start(self, timeout: float = 20) -> "ServerProcess":
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen(self._argv(), cwd=self.root, env=self.env, stdout=log, stderr=log,
                                            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_tail()}")
            try:
                if requests.get(self.url + "/api/games", timeout=1).ok:
                    return self
            except (requests.ConnectionError, requests.Timeout):  # a loaded machine may answer late
                time.sleep(0.05)  # polling a port that is not open yet: nothing to await
        raise RuntimeError(f"server did not start in {timeout} s: {self.log_tail()}")

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except FileNotFoundError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, like a power cut of the process."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        stop_process(self.process)


def server_fixture(directory: str, extra_env: dict | None = None, *, scope: str = "module",
                   prepare: Callable[[Path], None] | None = None, timeout: float = 20):
    """A pytest fixture that runs one real server for its tests, with ``extra_env`` on top of the test
    environment, in a fresh folder named after ``directory``; the server stops when the fixture's scope (the
    module, unless ``scope`` says otherwise) ends.

    Use it for a test module's plain server, a line instead of a fixture body:
    ``server = server_fixture("arkade", {"COMPANION_AWAY_SECONDS": "0"})``. ``prepare`` is handed the
    database's path before the first start (a catalogue imported, say); ``timeout`` is the start's.
    A server that needs more around its start (an emulated reader, a second address, files of its own)
    keeps a fixture of its own that calls ServerProcess, so that what is special about it stays in view."""
    @pytest.fixture(scope=scope)
    def server(tmp_path_factory):
        process = ServerProcess(tmp_path_factory.mktemp(directory), extra_env=extra_env)
        if prepare:
            prepare(process.database)
        yield process.start(timeout=timeout)
        process.stop()

    return server
