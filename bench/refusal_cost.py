"""What one refusal of a flooding seat costs the server: ``.venv/bin/python bench/refusal_cost.py``.

A production server (gunicorn, one gevent worker, loopback) and a dice table whose two phones are in
its pool. One phone's roll is committed and waits for a round that neither phone answers; that phone
then sends ``--actions`` rolls, one after another over its Socket.IO connection, each refused "Your
draw waits" (the seat's rate and its refusals' budget are lifted for the measurement, so each reaches
the code that decides it). The report gives the worker's CPU time per refusal and the time from a roll
sent to its answer: what each of a flooder's refusals costs the event loop that every table shares.
CPU time is what a machine shared with other work distorts least; ``--checkout DIR`` runs another
commit's server, for a before and after in turns.

``--in-process``: the store's part alone, without the server or the network: `Tables.act` called in
this process (another commit's with ``--checkout``) for a seat of a closed table, each call refused
("This table is closed", decided by the same path as "Your draw waits"), CPU time per call.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from bench.run import make_server  # noqa: E402
from tests.phones import ChainPhone, answer_rounds  # noqa: E402
from tests.screen import Screen  # noqa: E402

DRAW_WAITS = "Your draw waits"
LIFTED = "1000000"  # the seat's rate, and so its refusals' budget (companion.limits.refusal_rules)


def measure(arguments: argparse.Namespace, workdir: Path) -> list[tuple[float, float]]:
    """(worker CPU ms, wall ms) per refusal, for each batch, on one fresh server."""
    server = make_server("companion", workdir)
    server.env.update({"COMPANION_RATE_BURST": LIFTED, "COMPANION_RATE_PER_SECOND": LIFTED,
                       "COMPANION_ROUND_SECONDS": "3600"})  # the waiting draw's round never times out here
    if arguments.checkout:
        server.root = arguments.checkout.resolve()
    server.start()
    screens = []
    try:
        code = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": {}}, timeout=30).json()["code"]
        phones = [ChainPhone(server.url, code, name) for name in ("Ana", "Mallory")]
        screens = [Screen(server.url, code, phone.token) for phone in phones]
        for screen in screens:
            screen.wait_for(lambda view: True)  # connected: its phone is asked in the rounds
        answer_rounds(*phones)
        first = screens[1].act({"type": "roll"})
        assert first["ok"] and first["events"][0]["type"] == "draw_waits", first
        worker = server.processes()[-1]
        batches = []
        for _ in range(arguments.batches + 1):  # the first batch warms up, and is left out
            cpu, wall = worker.cpu_times(), time.perf_counter()
            for _ in range(arguments.actions):
                answer = screens[1].client.call("act", {"type": "roll"}, timeout=30)
                assert answer.get("status") == 409 and answer["error"].startswith(DRAW_WAITS), answer
            wall, after = time.perf_counter() - wall, worker.cpu_times()
            spent = (after.user + after.system) - (cpu.user + cpu.system)
            batches.append((spent * 1000 / arguments.actions, wall * 1000 / arguments.actions))
        return batches[1:]
    finally:
        for screen in screens:
            screen.close()
        server.stop()


# Run in the checkout's own directory, so that its `companion` is the one measured.
IN_PROCESS = """
import sys, tempfile, time
from companion.store import Store
from companion.tables import Tables
actions, batches = int(sys.argv[1]), int(sys.argv[2])
with tempfile.TemporaryDirectory() as directory:
    tables = Tables(Store(directory + "/refusals.sqlite3"), rate_capacity=1e9, rate_per_second=1e9)
    table = tables.create("dice", {})
    seat = tables.join(table["code"], "Mallory", entropy="5a" * 32)
    tables.act(table["code"], table["host_token"], {"type": "table.close"})
    for batch in range(batches + 1):  # the first warms up, and is left out
        started = time.process_time()
        for _ in range(actions):
            try:
                tables.act(table["code"], seat["token"], {"type": "roll"})
                raise AssertionError("a roll at a closed table was accepted")
            except Exception as error:
                assert getattr(error, "status", None) == 410, error
        if batch:
            print((time.process_time() - started) * 1000 / actions)
"""


def in_process(arguments: argparse.Namespace) -> list[float]:
    """CPU ms per refused `Tables.act`, for each batch."""
    root = (arguments.checkout or ROOT).resolve()
    done = subprocess.run([sys.executable, "-c", IN_PROCESS, str(arguments.actions), str(arguments.batches)],
                          cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, capture_output=True,
                          text=True, check=True)
    return [float(line) for line in done.stdout.split()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500, help="refused rolls per batch (500)")
    parser.add_argument("--batches", type=int, default=5, help="batches measured, after one to warm up (5)")
    parser.add_argument("--checkout", type=Path, metavar="DIR", help="the server runs the code in DIR")
    parser.add_argument("--in-process", action="store_true", help="`Tables.act` alone, in this process")
    arguments = parser.parse_args(argv)
    if arguments.in_process:
        cpu = in_process(arguments)
        print(f"code: {arguments.checkout or ROOT}; {len(cpu)} x {arguments.actions} refused Tables.act")
        print(f"CPU per refusal, ms: median {statistics.median(cpu):.4f} (batches: "
              + ", ".join(f"{c:.4f}" for c in cpu) + ")")
        return 0
    with tempfile.TemporaryDirectory(prefix="companion-refusal-") as temporary:
        batches = measure(arguments, Path(temporary))
    cpu, wall = [c for c, _ in batches], [w for _, w in batches]
    print(f"server: {arguments.checkout or ROOT}; {len(batches)} x {arguments.actions} refusals")
    print(f"worker CPU per refusal, ms: median {statistics.median(cpu):.3f} (batches: "
          + ", ".join(f"{c:.3f}" for c in cpu) + ")")
    print(f"roll sent to its answer, ms: median {statistics.median(wall):.3f} (batches: "
          + ", ".join(f"{w:.3f}" for w in wall) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
