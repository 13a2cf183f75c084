"""One gunicorn server (Companion or the echo baseline) on a free loopback port,
with its own temporary database, and a sampler of its memory and CPU."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import psutil

from tests.server import ServerProcess, stop_process

# What gunicorn loads for each kind of server; both run with our gunicorn.conf.py.
APPS = {"companion": "app:app", "echo": "bench.echo_app:app"}
FSYNC_TIMER = Path(__file__).resolve().parent / "fsync_timer"  # its sitecustomize times os.fsync


class GunicornServer(ServerProcess):
    """The production server (gunicorn, our config) of one kind, quiet in its log."""

    def __init__(self, kind: str, workdir: Path):
        name = f"{kind}-{time.monotonic_ns()}"
        self.fsync_path = workdir / f"{name}.fsync"
        python_path = os.pathsep.join(filter(None, [str(FSYNC_TIMER), os.environ.get("PYTHONPATH")]))
        super().__init__(workdir, command="gunicorn", app=APPS[kind], name=name,
                         extra_env={"COMPANION_LOG_LEVEL": "warning", "PYTHONPATH": python_path,
                                    "BENCH_FSYNC_TIMES": str(self.fsync_path)})
        self.kind = kind

    def fsync_totals(self) -> dict | None:
        """Time in os.fsync so far, on the event loop and in threads (bench/fsync_timer)."""
        from bench.fsync_timer.sitecustomize import read_totals

        try:
            return read_totals(self.fsync_path)
        except (OSError, ValueError):
            return None

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


class ClusterServer:
    """Companion on N processes behind nginx, with PostgreSQL and Redis (scripts/cluster.py):
    the same start/stop/processes interface as `GunicornServer`. Its CPU and memory are those of
    every service (the processes, PostgreSQL, Redis, nginx), the whole cost of a roll."""

    def __init__(self, kind: str, workdir: Path, processes: int):
        from scripts.cluster import Cluster

        self.kind = kind
        self.cluster = Cluster(workdir / f"{kind}-{time.monotonic_ns()}", processes=processes,
                               extra_env={"COMPANION_LOG_LEVEL": "warning", **BENCH_LIMITS})
        self.url = self.cluster.url

    def start(self) -> "ClusterServer":
        self.cluster.start()
        return self

    def stop(self) -> None:
        self.cluster.stop()

    def processes(self) -> list[psutil.Process]:
        found = []
        for process in self.cluster.services.values():
            try:
                parent = psutil.Process(process.pid)
                found += [parent, *parent.children(recursive=True)]
            except psutil.NoSuchProcess:
                pass
        return found

    def workers(self) -> list[psutil.Process]:
        """Each Companion process's gunicorn worker (py-spy records them)."""
        found = []
        for name, process in self.cluster.services.items():
            if name.startswith("node"):
                try:
                    found += psutil.Process(process.pid).children()
                except psutil.NoSuchProcess:
                    pass
        return found

    def cpu_by_service(self) -> dict[str, float]:
        """CPU seconds so far of each service (with its children: PostgreSQL's backends)."""
        seconds = {}
        for name, process in self.cluster.services.items():
            try:
                parent = psutil.Process(process.pid)
                members = [parent, *parent.children(recursive=True)]
            except psutil.NoSuchProcess:
                continue
            total = 0.0
            for member in members:
                try:
                    times = member.cpu_times()
                    total += times.user + times.system
                except psutil.NoSuchProcess:
                    pass
            seconds[name] = total
        return seconds

    def log_tail(self, chars: int = 10_000) -> str:
        logs = sorted(self.cluster.workdir.glob("node*.log"))
        return "".join(log.read_text(errors="replace")[-chars:] for log in logs)


class BgioServer:
    """boardgame.io's own server (Node, in-memory storage) with the same dice game, installed
    from the npm registry into a temporary folder at bench time (`install_boardgame_io`)."""

    def __init__(self, kind: str, workdir: Path):
        from tests.server import free_port

        self.kind = kind
        self.port, self.api_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api_url = f"http://127.0.0.1:{self.api_port}"  # the lobby: matches are created and joined there
        self.modules = install_boardgame_io(workdir)
        self.log_path = workdir / f"bgio-{time.monotonic_ns()}.log"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "BgioServer":
        import requests

        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(["node", str(BGIO / "server.cjs"), str(self.port), str(self.api_port)], env=node_env(self.modules),
                                            stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"boardgame.io exited: {self.log_tail()}")
            try:
                if requests.get(f"{self.api_url}/games", timeout=1).ok:
                    return self
            except requests.RequestException:
                time.sleep(0.05)  # not listening yet: nothing to await
        raise RuntimeError(f"boardgame.io did not start: {self.log_tail()}")

    def stop(self) -> None:
        stop_process(self.process)

    def processes(self) -> list[psutil.Process]:
        return [psutil.Process(self.process.pid)]

    def log_tail(self, chars: int = 10_000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except FileNotFoundError:
            return ""


BGIO = Path(__file__).resolve().parent / "bgio"
BGIO_VERSION = "0.50.2"
# The per-phone flood limit (10 at once, then 5/s) would refuse nothing at 1 roll/s, but the
# per-address limits count every bench client as one address (127.0.0.1).
BENCH_LIMITS = {"COMPANION_LIMIT_CREATE": "100000/1", "COMPANION_LIMIT_JOIN": "100000/1",
                "COMPANION_LIMIT_LOOKUP": "100000/1", "COMPANION_LIMIT_CONNECTIONS": "100000"}


def install_boardgame_io(workdir: Path) -> Path:
    """``npm install boardgame.io`` into the run's temporary folder (never into the repository);
    returns its node_modules."""
    folder = workdir / "boardgame.io"
    modules = folder / "node_modules"
    if not (modules / "boardgame.io").exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text('{"private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", f"boardgame.io@{BGIO_VERSION}"],
                       cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return modules


def node_env(modules: Path) -> dict:
    return {**os.environ, "NODE_PATH": str(modules)}
