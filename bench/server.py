"""One gunicorn server (Companion or the echo baseline) on a free loopback port,
with its own temporary database, and a sampler of its memory and CPU."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parent.parent

# What gunicorn loads for each kind of server; both run with our gunicorn.conf.py.
APPS = {"companion": "app:app", "echo": "bench.echo_app:app"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class GunicornServer:
    def __init__(self, kind: str, workdir: Path):
        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / f"{kind}-{self.port}.log"
        self.env = {**os.environ, "COMPANION_HOST": "127.0.0.1", "COMPANION_PORT": str(self.port),
                    "COMPANION_DATABASE": str(workdir / f"{kind}-{self.port}.sqlite3"),
                    "COMPANION_INSTANCE": str(workdir), "COMPANION_PUBLIC_URL": self.url,
                    "COMPANION_READER": "none", "COMPANION_LOG_LEVEL": "warning"}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "GunicornServer":
        argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", APPS[self.kind]]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=log, stderr=log,
                                            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} server exited: {self.log_tail()}")
            try:
                if requests.get(self.url + "/api/games", timeout=1).ok:
                    return self
            except requests.ConnectionError:
                time.sleep(0.1)  # the port is not open yet
        raise RuntimeError(f"{self.kind} server did not start in {timeout} s: {self.log_tail()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except FileNotFoundError:
            return ""

    def processes(self) -> list[psutil.Process]:
        """The gunicorn master and its worker(s)."""
        master = psutil.Process(self.process.pid)
        return [master, *master.children(recursive=True)]


class ResourceSampler:
    """Samples the server's RSS in a thread and keeps the peaks: of the master and
    worker(s) together (the target) and of the worker alone. The CPU time is read
    by the caller at the edges of the load window."""

    def __init__(self, server: GunicornServer, interval: float = 0.1):
        self.server = server
        self.interval = interval
        self.peak_rss = 0
        self.peak_worker_rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "ResourceSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            master, *workers = self._rss_of_each()
            self.peak_rss = max(self.peak_rss, master + sum(workers))
            self.peak_worker_rss = max(self.peak_worker_rss, sum(workers))
            self._stop.wait(self.interval)

    def _rss_of_each(self) -> list[int]:
        sizes = []
        for process in self.server.processes():
            try:
                sizes.append(process.memory_info().rss)
            except psutil.NoSuchProcess:
                sizes.append(0)  # a worker that exited between listing and reading
        return sizes

    def cpu_seconds(self) -> float:
        total = 0.0
        for process in self.server.processes():
            try:
                times = process.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return total
