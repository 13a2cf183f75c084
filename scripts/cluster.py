"""Companion on several processes, on one machine, in a temporary directory.

``./manage.sh serve --processes 4`` (or ``python -m scripts.cluster --processes 4``) starts
PostgreSQL (a fresh cluster, on a loopback port), Redis (the Socket.IO message queue and the
shared presence), N gunicorn processes (one gevent worker each, on loopback ports) and nginx
in front of them (deploy/nginx.conf, sticky by cookie) on ``--port``. Ctrl-C stops them all and
the directory is removed. No root is needed; as root, PostgreSQL (which refuses to run as
root) runs as the unprivileged user ``nobody``.

The tests (tests/test_scale.py) and the benchmark (bench/) start the same `Cluster`.
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"


def free_port() -> int:
    """A loopback port free now. Under pytest-xdist each worker probes only a range of its own, below
    the kernel's ephemeral ports, so that two workers never pick the same port between its probe and
    its server's bind (the kernel's choice for port 0 cannot be split between workers: it favours even
    ports)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1]
    low = 20000 + 1000 * int(worker.removeprefix("gw"))
    for port in random.sample(range(low, low + 1000), 1000):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free loopback port in {low}-{low + 999}")


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)  # a port that is not open yet: nothing to await
    raise RuntimeError(f"nothing listens on {port} after {timeout} s: {log.read_text(errors='replace')[-2000:]}")


def postgres_bin(name: str) -> str:
    """Debian keeps the server's programs out of PATH (one folder per major version): the newest."""
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(path.split("/")[4]))
    found = versions[-1] if versions else shutil.which(name)
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is missing: ./manage.sh installs it (apt package postgresql)")
    return found


class Cluster:
    """PostgreSQL, Redis, N Companion processes and nginx, in ``workdir``, on loopback ports."""

    def __init__(self, workdir: Path, processes: int = 2, port: int | None = None, extra_env: dict | None = None,
                 host: str = "127.0.0.1"):
        self.workdir = Path(workdir)
        self.host = host
        self.count = processes
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra_env = extra_env or {}
        self.pg_port, self.redis_port = free_port(), free_port()
        self.node_ports = [free_port() for _ in range(processes)]
        self.database = f"postgresql://companion@127.0.0.1:{self.pg_port}/companion"
        self.queue = f"redis://127.0.0.1:{self.redis_port}/0"
        self.services: dict[str, subprocess.Popen] = {}
        # Unprivileged services run as ``nobody`` when we are root (PostgreSQL insists).
        self.as_user = "nobody" if os.geteuid() == 0 else None
        self.pg_dir: Path | None = None  # what the unprivileged services own (the workdir unless root)

    # Start ---------------------------------------------------------------------
    def start(self) -> "Cluster":
        try:
            self.start_database()
            self._start_redis()
            for index in range(self.count):
                self.start_node(index)
            self._start_nginx()
        except BaseException:
            self.stop()
            raise
        return self

    def start_database(self) -> str:
        """PostgreSQL alone (the store's tests use it); returns its URL."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.as_user:  # nobody must reach its folders: not below a private one (pytest's are 0700)
            self.pg_dir = Path(tempfile.mkdtemp(prefix="companion-cluster-"))
            os.chmod(self.pg_dir, 0o755)
        else:
            self.pg_dir = self.workdir
        self._start_postgres()
        return self.database

    def new_database(self, name: str) -> str:
        """An empty database beside the first one; returns its URL."""
        import psycopg

        with psycopg.connect(self.database, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.database.rsplit("/", 1)[0] + "/" + name

    def _spawn(self, name: str, argv: list[str], env: dict | None = None, user: str | None = None,
               cwd: Path | None = None) -> subprocess.Popen:
        log = self.workdir / f"{name}.log"
        with open(log, "ab") as out:
            kwargs = {"user": user} if user else {}
            process = subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL, env=env,
                                       cwd=cwd or self.workdir, start_new_session=True, **kwargs)
        self.services[name] = process
        return process

    def _owned(self, path: Path) -> Path:
        path.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            entry = pwd.getpwnam(self.as_user)
            os.chown(path, entry.pw_uid, entry.pw_gid)
        return path

    def _start_postgres(self) -> None:
        data, sockets = self.pg_dir / "pgdata", self._owned(self.pg_dir / "pgsocket")
        if not (data / "PG_VERSION").exists():
            self._owned(data)
            subprocess.run([postgres_bin("initdb"), "-D", str(data), "-U", "companion", "--auth=trust",
                            "-E", "UTF8", "--locale=C.UTF-8"], check=True, capture_output=True,
                           user=self.as_user, cwd="/")
        process = self._spawn("postgres", [postgres_bin("postgres"), "-D", str(data), "-p", str(self.pg_port),
                                           "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={sockets}",
                                           "-c", "max_connections=200", "-c", "fsync=on",
                                           "-c", "synchronous_commit=on"], user=self.as_user, cwd=Path("/"))
        wait_for_port(self.pg_port, process, self.workdir / "postgres.log")
        deadline = time.monotonic() + 30
        while True:  # the port opens before the server accepts logins
            ready = subprocess.run([postgres_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.pg_port)],
                                   capture_output=True)
            if ready.returncode == 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not accept connections")
            time.sleep(0.1)
        exists = subprocess.run([postgres_bin("psql"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "companion",
                                 "-d", "postgres", "-tAc", "SELECT 1 FROM pg_database WHERE datname = 'companion'"],
                                capture_output=True, text=True, check=True).stdout.strip()
        if exists != "1":
            subprocess.run([postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "companion",
                            "companion"], check=True, capture_output=True)

    def _start_redis(self) -> None:
        redis = shutil.which("redis-server") or "/usr/bin/redis-server"
        process = self._spawn("redis", [redis, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                        "--save", "", "--appendonly", "no", "--dir", str(self.workdir)])
        wait_for_port(self.redis_port, process, self.workdir / "redis.log")

    def node_env(self, index: int) -> dict:
        return {**os.environ, "COMPANION_HOST": "127.0.0.1", "COMPANION_PORT": str(self.node_ports[index]),
                "COMPANION_DATABASE": self.database, "COMPANION_MESSAGE_QUEUE": self.queue,
                "COMPANION_INSTANCE": str(self.workdir), "COMPANION_READER": "none", "COMPANION_PROXIES": "1",
                "COMPANION_PUBLIC_URL": os.environ.get("COMPANION_PUBLIC_URL", self.url),
                **self.extra_env}

    def start_node(self, index: int) -> subprocess.Popen:
        """Companion process ``index`` (gunicorn, one gevent worker); started again after a kill."""
        process = self._spawn(f"node{index}", [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"],
                              env=self.node_env(index), cwd=ROOT)
        wait_for_port(self.node_ports[index], process, self.workdir / f"node{index}.log", timeout=60)
        return process

    def nginx_config(self) -> str:
        nodes = list(enumerate(self.node_ports))
        servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=3s;" for _, port in nodes)
        upstreams = [f"    upstream companion_any {{\n        least_conn;\n{servers}\n    }}"]
        for index, port in nodes:
            backups = "\n".join(f"        server 127.0.0.1:{other} backup;" for i, other in nodes if i != index)
            upstreams.append(f"    upstream companion_n{index} {{\n        server 127.0.0.1:{port} max_fails=1 "
                             f"fail_timeout=3s;\n{backups}\n    }}")
        replacements = {
            "@@PREFIX@@": str(self.pg_dir / "nginx"),
            "@@USER@@": f"user {self.as_user} nogroup;" if self.as_user else "",
            "@@LISTEN@@": f"{self.host}:{self.port}",
            "@@UPSTREAMS@@": "\n".join(upstreams),
            "@@COOKIE_ROUTES@@": "\n".join(f"        n{index} companion_n{index};" for index, _ in nodes),
            "@@NODE_NAMES@@": "\n".join(f'        "127.0.0.1:{port}" n{index};' for index, port in nodes),
        }
        text = NGINX_TEMPLATE.read_text()
        for placeholder, value in replacements.items():
            text = text.replace(placeholder, value)
        return text

    def _start_nginx(self) -> None:
        prefix = self.pg_dir / "nginx"
        for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            self._owned(prefix / folder)
        config = prefix / "nginx.conf"
        config.write_text(self.nginx_config())
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        process = self._spawn("nginx", [nginx, "-p", str(prefix), "-c", str(config), "-e", str(prefix / "nginx-error.log"),
                                        "-g", "daemon off;"])
        wait_for_port(self.port, process, prefix / "nginx-error.log")

    # Stop ----------------------------------------------------------------------
    def kill_node(self, index: int) -> None:
        """SIGKILL: no shutdown handler runs, like a power cut of that process."""
        process = self.services.get(f"node{index}")
        if process and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop(self) -> None:
        order = ["nginx", *(f"node{i}" for i in range(self.count)), "redis", "postgres"]
        for name in order:
            process = self.services.pop(name, None)
            if process is None or process.poll() is not None:
                continue
            try:
                os.killpg(process.pid, signal.SIGINT if name == "postgres" else signal.SIGTERM)  # postgres: fast stop
                process.wait(timeout=15)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
        if self.pg_dir is not None and self.pg_dir != self.workdir:
            shutil.rmtree(self.pg_dir, ignore_errors=True)
            self.pg_dir = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=int(os.environ.get("COMPANION_PORT", "5000")))
    parser.add_argument("--host", default=os.environ.get("COMPANION_HOST", "127.0.0.1"),
                        help="nginx listens here (0.0.0.0 for the phones of the room)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="companion-cluster-"))
    cluster = Cluster(workdir, processes=args.processes, port=args.port, host=args.host)
    stop = lambda *_: (_ for _ in ()).throw(KeyboardInterrupt)  # noqa: E731
    signal.signal(signal.SIGTERM, stop)
    try:
        cluster.start()
        print(f"Companion is running on {args.processes} processes behind nginx: open {cluster.url}/ "
              f"on the host screen.\n(PostgreSQL, Redis, nginx and the processes log to {workdir}; Ctrl-C stops them.)",
              flush=True)
        while all(process.poll() is None for process in cluster.services.values()):
            time.sleep(1)
        print("A service stopped; see the logs in", workdir, file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
