"""Runs the whole benchmark: ``.venv/bin/python bench/run.py [--quick]``.

For each load ((a) 1 table x 8 phones, (b) 100 tables x 6 phones) and each
server (Companion, then the bare echo server), it starts a fresh gunicorn on a
free loopback port, seats the tables over HTTP, starts the client processes
(bench/phones.py), lets every phone roll once a second, samples the server's
memory and CPU, then prints the figures and writes them as markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import selectors
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # so that `python bench/run.py` finds the bench package

from bench import spy  # noqa: E402
from companion import fairness  # noqa: E402
from bench.report import Load, Outcome, markdown, merge_tallies  # noqa: E402
from bench.server import BGIO, BgioServer, ClusterServer, GunicornServer, ResourceSampler, node_env  # noqa: E402

PHONES_SCRIPT = ROOT / "bench" / "phones.py"
START_DELAY = 1.0  # seconds between "go" and the first roll, for every process to get the line
CONNECT_TIMEOUT = 30.0  # for all of a process's screens to connect; keeps a whole run bounded
SEATING_AT_ONCE = 8  # tables seated at once over HTTP
IN_POOL_TIMEOUT = 30.0  # then for their rounds of random numbers to seal (bench/phones.py waits as long)
LOG_PROBLEMS = ("Traceback", "[ERROR]", "[CRITICAL]")


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=30, help="seconds of rolling per run (30)")
    parser.add_argument("--period", type=float, default=1.0, help="seconds between two rolls of a phone (1)")
    parser.add_argument("--tables", type=int, default=100, help="tables of load (b) (100)")
    parser.add_argument("--phones", type=int, default=6, help="phones per table of load (b) (6)")
    parser.add_argument("--small-phones", type=int, default=8, help="phones of load (a)'s one table (8)")
    parser.add_argument("--client-processes", type=int, default=4, help="client processes at most (4)")
    parser.add_argument("--drain", type=float, default=10, help="seconds to wait for late acks and views (10)")
    parser.add_argument("--settle", type=float, default=20,
                        help="seconds more for views still missing after the drain: those that come are counted "
                             "late, the others lost (20; only waited while a connected screen misses one)")
    parser.add_argument("--servers", default="companion,echo,bgio",
                        help="which servers, in order (companion,echo,bgio): companion (one process, SQLite), echo "
                             "(the bare Flask-SocketIO stack), bgio (boardgame.io's own server, installed from the npm "
                             "registry into a temporary folder), clusterN (Companion on N processes behind nginx, "
                             "PostgreSQL and Redis: scripts/cluster.py)")
    parser.add_argument("--loads", default="a,b",
                        help="which loads (a,b): a, b, or tN for N tables of --phones phones (t10,t100,t300)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of every server under every load (1); the servers take turns, in another "
                             "order each time, and the report gives each figure's median and range")
    parser.add_argument("--quick", action="store_true", help="smoke run: 5 s, 10 tables")
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "results" / "last-run.md",
                        help="where the markdown goes (bench/results/last-run.md, not versioned)")
    parser.add_argument("--raw", type=Path, help="also write every run's merged tally (all latencies) as JSON")
    parser.add_argument("--py-spy", type=Path, metavar="DIR",
                        help="record each gunicorn worker with py-spy during the rolling window into DIR and print "
                             "where its CPU went, per part of the roll's path (bench/spy.py; needs ptrace rights)")
    arguments = parser.parse_args(argv)
    if arguments.quick:
        arguments.duration, arguments.tables = 5, 10
    return arguments


def loads_of(arguments: argparse.Namespace) -> list[Load]:
    loads = {"a": Load("a", f"(a) 1 table x {arguments.small_phones} phones", 1, arguments.small_phones, 20),
             "b": Load("b", f"(b) {arguments.tables} tables x {arguments.phones} phones", arguments.tables,
                       arguments.phones, 100)}
    for key in arguments.loads.split(","):
        if key.startswith("t") and key[1:].isdigit():
            loads[key] = Load(key, f"{key[1:]} tables x {arguments.phones} phones", int(key[1:]), arguments.phones, 100)
    return [loads[key] for key in arguments.loads.split(",")]


def make_server(kind: str, workdir: Path):
    if kind.startswith("cluster") and kind[7:].isdigit():
        return ClusterServer(kind, workdir, int(kind[7:]))
    if kind == "bgio":
        return BgioServer(kind, workdir)
    return GunicornServer(kind, workdir)


# Setting up ----------------------------------------------------------------

def seat_tables(url: str, load: Load) -> list[dict]:
    """Creates the tables and takes their seats over the JSON API, as phones do (static/js/phone.js):
    each phone reads the table (its commitment), draws the secret of its hash chain and joins with
    the chain's anchor. The client process that plays the seat gets the secret."""
    def seat_one(_) -> dict:
        session = requests.Session()  # one per table: sessions are not shared between threads
        table = _post(session, f"{url}/api/tables", {"game": "dice", "options": {}})
        return {"code": table["code"], "host_token": table["host_token"],
                "seats": [_join(session, url, table["code"], f"Phone {n}") for n in range(1, load.phones + 1)]}

    # Tables are seated side by side (their phones in turn): on a loaded machine one by one took minutes.
    with ThreadPoolExecutor(SEATING_AT_ONCE) as pool:
        return list(pool.map(seat_one, range(load.tables)))


def _join(session: requests.Session, url: str, code: str, name: str) -> dict:
    response = session.get(f"{url}/api/tables/{code}", timeout=30)
    if not response.ok:
        raise RuntimeError(f"GET {url}/api/tables/{code}: {response.status_code} {response.text[:200]}")
    secret = secrets.token_hex(32)
    seat = _post(session, f"{url}/api/tables/{code}/seats", {"name": name, "commitment": fairness.chain(secret)[0]})
    return {"seat": seat["seat"], "token": seat["token"], "secret": secret}


def seat_bgio_tables(url: str, load: Load) -> list[dict]:
    """boardgame.io's lobby API: a match per table, a player (and its credentials) per phone."""
    session = requests.Session()
    tables = []
    for _ in range(load.tables):
        match = _post(session, f"{url}/games/dice/create", {"numPlayers": load.phones}, expected=200)
        seats = []
        for player in range(load.phones):
            joined = _post(session, f"{url}/games/dice/{match['matchID']}/join",
                           {"playerID": str(player), "playerName": f"Phone {player + 1}"}, expected=200)
            seats.append({"seat": player, "token": joined["playerCredentials"]})
        tables.append({"code": match["matchID"], "host_token": None, "seats": seats})
    return tables


def _post(session: requests.Session, url: str, body: dict, expected: int = 201) -> dict:
    response = session.post(url, json=body, timeout=30)
    session.cookies.clear()  # every seat sets its cookie: hundreds would overflow the request's headers
    if response.status_code != expected:
        raise RuntimeError(f"POST {url}: {response.status_code} {response.text[:200]}")
    return response.json()


def split(tables: list[dict], parts: int) -> list[list[dict]]:
    """Round-robin: every process gets whole tables (a roller and its receivers
    must share a clock) and about as many as the others."""
    parts = max(1, min(parts, len(tables)))
    return [tables[index::parts] for index in range(parts)]


# Client processes ------------------------------------------------------------

class ClientProcess:
    def __init__(self, workdir: Path, index: int, url: str, tables: list[dict], arguments: argparse.Namespace,
                 server=None):
        self.plan_path = workdir / f"plan-{index}.json"
        self.result_path = workdir / f"result-{index}.json"
        self.result_path.unlink(missing_ok=True)
        plan = {"url": url, "tables": tables, "duration": arguments.duration, "period": arguments.period,
                "drain": arguments.drain, "settle": arguments.settle}
        self.plan_path.write_text(json.dumps(plan))
        # boardgame.io is driven by its own client (Node), Companion and the echo by python-socketio.
        argv, env = [sys.executable, str(PHONES_SCRIPT)], None
        if isinstance(server, BgioServer):
            argv, env = ["node", str(BGIO / "phones.cjs")], node_env(server.modules)
        self.process = subprocess.Popen([*argv, str(self.plan_path), str(self.result_path)], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def wait_ready(self, deadline: float) -> None:
        """``deadline``: a few seconds per hundred screens (see `drive`)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(max(0.0, deadline - time.monotonic())):
                raise RuntimeError("a client process did not connect its screens in time")
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"a client process failed while connecting (exit {self.process.poll()})")

    def start_at(self, wall_time: float) -> None:
        self.process.stdin.write(f"{wall_time}\n")
        self.process.stdin.flush()

    def result(self, timeout: float) -> dict:
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if not self.result_path.exists():
            raise RuntimeError(f"a client process left no result (exit {self.process.returncode})")
        return json.loads(self.result_path.read_text())

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def drive(clients: list[ClientProcess], sampler: ResourceSampler, arguments: argparse.Namespace,
          at_start: Callable[[], Any] = lambda: None) -> tuple[float, float, dict | None]:
    """Starts every client at once; returns the server's CPU share (of one core) over the rolling
    window, and its CPU seconds and time in fsync so far when the window opened (to count until
    the run's end). ``at_start`` runs when the window opens (a profiler)."""
    screens = sum(len(json.loads(client.plan_path.read_text())["tables"]) for client in clients) * 8
    deadline = time.monotonic() + max(CONNECT_TIMEOUT, screens / 20) + IN_POOL_TIMEOUT
    for client in clients:
        client.wait_ready(deadline)
    start = time.time() + START_DELAY
    for client in clients:
        client.start_at(start)
    time.sleep(max(0.0, start - time.time()))
    at_start()
    cpu_before, fsync_before = sampler.cpu_seconds(), _fsync_totals(sampler.server)
    time.sleep(arguments.duration)
    return (sampler.cpu_seconds() - cpu_before) / arguments.duration, cpu_before, fsync_before


def _fsync_totals(server) -> dict | None:
    return server.fsync_totals() if hasattr(server, "fsync_totals") else None


def _fsync_since(server, before: dict | None) -> dict | None:
    after = _fsync_totals(server)
    return {name: after[name] - before[name] for name in after} if before and after else None


# One run -------------------------------------------------------------------

def run_one(kind: str, load: Load, workdir: Path, arguments: argparse.Namespace, run: int = 1,
            server=None) -> Outcome:
    """One server (``server``, or a fresh one of ``kind``) under one load."""
    server = (server or make_server(kind, workdir)).start()
    clients: list[ClientProcess] = []
    try:
        with ResourceSampler(server) as sampler:
            tables = seat_bgio_tables(server.api_url, load) if kind == "bgio" else seat_tables(server.url, load)
            clients = [ClientProcess(workdir, index, server.url, group, arguments, server)
                       for index, group in enumerate(split(tables, arguments.client_processes))]
            spies: list = []
            services_before: dict = {}

            def at_start() -> None:
                spies.extend(_start_spies(server, arguments))
                services_before.update(_cpu_by_service(server))
            server_cpu, cpu_before, fsync_before = drive(clients, sampler, arguments, at_start)
            results = [client.result(timeout=arguments.drain + arguments.settle + 20) for client in clients]
            cpu_seconds, fsync = sampler.cpu_seconds() - cpu_before, _fsync_since(server, fsync_before)
            services = {name: seconds - services_before.get(name, 0.0)
                        for name, seconds in _cpu_by_service(server).items()}
    finally:
        for client in clients:
            client.kill()
        server.stop()
    outcome = Outcome(load=load, kind=kind, tally=merge_tallies(results),
                      client_cpu_shares=[r["cpu_seconds"] / r["wall_seconds"] for r in results],
                      server_cpu_share=server_cpu, peak_rss=sampler.peak_rss,
                      peak_worker_rss=sampler.peak_worker_rss, server_log_problems=_log_problems(server),
                      server_log_sample=_log_sample(server),
                      duration=arguments.duration, run=run, fsync=fsync, server_cpu_seconds=cpu_seconds)
    _report_spies(spies, outcome, arguments)
    if services and outcome.rolls_answered:
        print(f"{load.label:<28} {kind:<9} run {run}  CPU ms/roll by service: "
              + ", ".join(f"{name} {1000 * seconds / outcome.rolls_answered:.2f}"
                          for name, seconds in sorted(services.items())), flush=True)
    return outcome


def _cpu_by_service(server) -> dict[str, float]:
    """A cluster's CPU seconds so far, per service (PostgreSQL, Redis, nginx, each process)."""
    return server.cpu_by_service() if hasattr(server, "cpu_by_service") else {}


def _start_spies(server, arguments: argparse.Namespace) -> list:
    """py-spy on each gunicorn worker (Companion, the echo, or a cluster's processes) for the rolling window."""
    if not arguments.py_spy or not isinstance(server, (GunicornServer, ClusterServer)):
        return []
    arguments.py_spy.mkdir(parents=True, exist_ok=True)
    spies = []
    for worker in server.workers() if isinstance(server, ClusterServer) else server.processes()[1:]:
        path = arguments.py_spy / f"{server.kind}-{worker.pid}.txt"
        spies.append((spy.record(worker.pid, arguments.duration, path), path))
    return spies


def _report_spies(spies: list, outcome: Outcome, arguments: argparse.Namespace) -> None:
    for process, path in spies:
        _, problem = process.communicate(timeout=arguments.duration + 30)
        if not path.exists():
            print(f"py-spy recorded nothing: {problem.strip()[-300:]}", flush=True)
            continue
        text = (f"{outcome.load.label}, {outcome.kind} (worker's samples, CPU per roll "
                f"{outcome.server_cpu_ms_per_roll or 0:.2f} ms):\n\n"
                + spy.table(spy.breakdown(path.read_text()), outcome.server_cpu_ms_per_roll))
        path.with_suffix(".md").write_text(text + "\n")
        print(text, flush=True)


def _log_sample(server, count: int = 3) -> list[str]:
    """The first error lines, each with what failed (a traceback's exception line)."""
    lines = server.log_tail(chars=10_000_000).splitlines()
    picked = [index for index, line in enumerate(lines) if any(marker in line for marker in LOG_PROBLEMS)][:count]
    sample = []
    for index in picked:
        cause = next((line for line in lines[index + 1:index + 80] if line and not line[0].isspace()), "")
        sample += [lines[index], cause]
    return sample


def _log_problems(server: GunicornServer) -> int:
    return sum(1 for line in server.log_tail(chars=10_000_000).splitlines()
               if any(marker in line for marker in LOG_PROBLEMS))


# Context and main -------------------------------------------------------------

def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def code_version() -> str:
    """The commit measured, with "+changes" when the work tree differs from it."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+changes" if dirty else "")


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def summary_line(outcome: Outcome) -> str:
    p50, p99 = outcome.latency(50), outcome.latency(99)
    return (f"{outcome.load.label:<28} {outcome.kind:<9} run {outcome.run}  p50 {p50 or 0:7.1f} ms  "
            f"p99 {p99 or 0:7.1f} ms  CPU {outcome.server_cpu_ms_per_roll or 0:.2f} ms/roll  "
            f"fsync {outcome.fsync_ms_per_roll or 0:.3f} ms/roll  "
            f"accepted {outcome.tally['rolls_accepted']:6d}  dropped {outcome.rolls_dropped}  "
            f"resent {outcome.tally.get('rolls_resent', 0)}  errors {outcome.errors}  "
            f"lost {outcome.tally['views_lost']}  late {outcome.tally.get('views_late', 0)}  "
            f"to dropped screens {outcome.tally.get('views_to_dropped', 0)}  "
            f"versions skipped {outcome.tally.get('versions_skipped', 0)}  RSS {outcome.peak_rss / 2**20:.0f} MB")


def write_report(outcomes: list[Outcome], context: dict, arguments: argparse.Namespace) -> str:
    context["load_after"] = load_average()
    text = markdown(outcomes, context)
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(text)
    return text


def schedule(kinds: list[str], loads: list[Load], repeat: int) -> list[tuple[int, Load, str]]:
    """(run, load, server) in the order they run: each round runs every load on every server, the
    servers side by side under each load, starting one server later each round, so that no server
    always follows the same one and a stall of the machine hits one run of a server, not all."""
    order = []
    for run in range(1, repeat + 1):
        turn = (run - 1) % len(kinds)
        for load in loads:
            order += [(run, load, kind) for kind in kinds[turn:] + kinds[:turn]]
    return order


def main(argv: list[str]) -> int:
    arguments = parse_arguments(argv)
    context = {"command": " ".join(["python bench/run.py", shlex.join(argv)]).strip(),
               "nproc": os.cpu_count(), "cpu": cpu_model(), "commit": code_version(),
               "python": platform.python_version(), "load_before": load_average(),
               "when": time.strftime("%Y-%m-%d %H:%M %Z"), "duration": arguments.duration,
               "period": arguments.period}
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as workdir:
        for run, load, kind in schedule(arguments.servers.split(","), loads_of(arguments), arguments.repeat):
            try:
                outcome = run_one(kind, load, Path(workdir), arguments, run)
            except RuntimeError as error:  # one load too heavy for the machine: the others still count
                context.setdefault("failed", []).append(f"{load.label} / {kind} / run {run}: {str(error)[:300]}")
                print(f"{load.label:<28} {kind:<9} run {run}  FAILED: {error}", flush=True)
                continue
            print(summary_line(outcome), flush=True)
            outcomes.append(outcome)
            write_report(outcomes, context, arguments)  # so far: a long run stopped midway still reports
    text = write_report(outcomes, context, arguments)
    if arguments.raw:
        arguments.raw.write_text(json.dumps([{"load": o.load.key, "server": o.kind, **o.tally} for o in outcomes]))
    print("\n" + text + f"\n(written to {arguments.output})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
