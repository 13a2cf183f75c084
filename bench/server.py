"""One gunicorn server (Companion or the echo baseline) on a free loopback port,
with its own temporary database, and a sampler of its memory and CPU."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psutil

from tests.server import ServerProcess

# What gunicorn loads for each kind of server; both run with our gunicorn.conf.py.
APPS = {"companion": "app:app", "echo": "bench.echo_app:app"}


class GunicornServer(ServerProcess):
    """The production server (gunicorn, our config) of one kind, quiet in its log."""

    def __init__(self, kind: str, workdir: Path):
        super().__init__(workdir, command="gunicorn", app=APPS[kind], name=f"{kind}-{time.monotonic_ns()}",
                         extra_env={"COMPANION_LOG_LEVEL": "warning"})
        self.kind = kind

    def start(self, timeout: float = 30) -> "GunicornServer":
        super().start(timeout)
        return self

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
