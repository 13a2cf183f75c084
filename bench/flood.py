"""Honest tables under a flood: ``.venv/bin/python bench/flood.py``.

The same load runs twice on a fresh production server (gunicorn, one gevent worker, loopback):
first alone, then while flooders send ``act`` as fast as their sockets let them. The phones of
the honest tables roll once per period (bench/phones.py, as in bench/run.py) and the report gives
their p99 (roll sent to the view on every phone) in both runs and the ratio, with the flooders'
tally: how many actions they sent and how each was answered.

A flooder is one Socket.IO connection from 127.0.0.2 (its own address: the honest phones are all
127.0.0.1, so a per-address limit on the flooder is not one on them), speaking the protocol by hand
(Engine.IO 4 over a websocket): ``--flood spectator`` connects with no token (issue 24: one such
socket took honest p99 from 62 ms to 1,405 ms), ``--flood seat`` with the token of a seat of a
table of its own whose other seat a second connection of the flooder holds. Both phones answer the
rounds of their joins (each is then in its table's pool) and fall silent: the flooder's first roll
is committed and waits for a round of both phones (``draw_waits``) that neither answers, and every
roll after it is refused ("A draw waits for the phones' random contributions"), as a hostile
phone's would be with today's protocol. ``--flood seat-alone``: the flooder is alone at its table
and never answers a round, so each of its rolls is refused ("Your phone's random numbers are not in
the pool yet"). Every loop is bounded: each flooder stops at the end of the rolling window or after
``--flood-max`` actions. The flooders' answers are counted by status and by the first words of
their message.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench import spy  # noqa: E402
from bench.report import Load, percentile  # noqa: E402
from bench.run import (START_DELAY, ClientProcess, code_version, cpu_model, load_average, make_server,  # noqa: E402
                       merge_tallies, seat_tables, split)
from bench.server import ResourceSampler  # noqa: E402

FLOODER_ADDRESS = "127.0.0.2"
BLOCK = 64  # flood frames per system call
JOIN_SECONDS = 60  # for the flooder's phones to join their table's pool


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="honest tables (20)")
    parser.add_argument("--phones", type=int, default=6, help="phones per honest table (6)")
    parser.add_argument("--duration", type=float, default=15, help="seconds of rolling per run (15)")
    parser.add_argument("--period", type=float, default=1.0, help="seconds between two rolls of a phone (1)")
    parser.add_argument("--drain", type=float, default=5, help="seconds to wait for late acks and views (5)")
    parser.add_argument("--settle", type=float, default=5, help="seconds more for views still missing (5)")
    parser.add_argument("--client-processes", type=int, default=2, help="honest client processes (2)")
    parser.add_argument("--flood", choices=("spectator", "seat", "seat-alone"), default="spectator",
                        help="who floods: a screen with no token, a seat of its own table with a silent second "
                             "phone, or a seat alone at its table (spectator)")
    parser.add_argument("--flooders", type=int, default=1, help="flooding sockets (1)")
    parser.add_argument("--rolled-before", action="store_true",
                        help="with --flood seat: each flooder makes its first roll (accepted, its draw then waits) "
                             "before the window opens, so that the window holds its refusals only; not the default "
                             "figure (a real flooder's first roll comes with its flood): report it beside it")
    parser.add_argument("--flood-max", type=int, default=200_000, help="actions per flooder at most (200000)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="pairs of runs (alone, then flooded), each on a fresh server: on a shared machine one "
                             "pair is mostly noise, the median ratio of several is the figure (3)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="work in DIR and keep it: each run's server log (companion-*.log), the honest phones' "
                             "tally (run-N-alone.json, run-N-flooded.json, with their timeline) and the flooders' plans")
    parser.add_argument("--py-spy", type=Path, metavar="DIR",
                        help="record the server's worker with py-spy during each rolling window into DIR "
                             "(run-N-alone.txt, run-N-flooded.txt; needs ptrace rights)")
    parser.add_argument("--blocking", type=float, metavar="SECONDS",
                        help="gevent's monitor thread logs (in the server's log) every time the event loop was "
                             "blocked longer than SECONDS, with the stack that blocked it")
    parser.add_argument("--checkout", type=Path, metavar="DIR",
                        help="the server runs the code in DIR (another commit's, from git archive): a before and "
                             "after, run in turns on the same machine")
    parser.add_argument("--flooder", nargs=2, metavar=("PLAN", "RESULT"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


# The flooder process -------------------------------------------------------------------------

def flood(plan: dict) -> dict:
    """One flooding connection: sends ``act`` until the window closes; counts the answers by status.

    The frames are encoded (and masked, as a client's must be) once, in blocks of ``BLOCK`` that go
    out in one system call each: the flooder costs the machine it shares with the server and the
    honest phones almost no CPU, as a phone flooding over the Wi-Fi would, and it sends as fast as
    the server's socket takes them (blocked, not spinning, while the server reads no more)."""
    import websocket

    raw, ws = connect(plan, plan.get("token"))
    if plan.get("silent"):  # the table's other phone: both join the pool, then never answer a round
        silent = connect(plan, plan["silent"]["token"])
        joiners = [threading.Thread(target=join_the_pool, args=(connection, seat), daemon=True)
                   for connection, seat in ((ws, plan), (silent[1], plan["silent"]))]
        for joiner in joiners:
            joiner.start()
        for joiner in joiners:
            joiner.join(JOIN_SECONDS)
        threading.Thread(target=stay_silent, args=silent, daemon=True).start()
    first_roll = roll_once(ws) if plan.get("rolled_before") else None

    def frame(text: str) -> bytes:
        return websocket.ABNF.create_frame(text, websocket.ABNF.OPCODE_TEXT).format()

    block = b"".join(frame(f'42{n}["act",{{"type":"roll"}}]') for n in range(1, BLOCK + 1))
    pong = frame("3")
    answers: dict[str, int] = {}
    pings = [0]
    lock = threading.Lock()
    sending = {"blocks": 0, "pongs": 0, "started": False}

    def read() -> None:
        while True:
            try:
                message = ws.recv()
            except Exception:  # closed by the server
                answers["closed"] = answers.get("closed", 0) + 1
                return
            if message == "2" and not sending["started"]:  # the server's ping, before the window
                ws.send("3")
            elif message == "2":  # during the window the sender answers it between two blocks
                pings[0] += 1
            elif message.startswith("43"):
                body = json.loads(message[message.index("["):])[0]
                key = "ok" if body.get("ok") else f"{body.get('status')} {' '.join(str(body.get('error')).split()[:4])}"
                with lock:
                    answers[key] = answers.get(key, 0) + 1

    def send(end: float) -> None:
        sending["started"] = True
        while time.time() < end and sending["blocks"] * BLOCK < plan["max"]:
            while sending["pongs"] < pings[0]:
                raw.sendall(pong)
                sending["pongs"] += 1
            raw.sendall(block)
            sending["blocks"] += 1

    threading.Thread(target=read, daemon=True).start()
    print("ready", flush=True)  # connected: the runner sends the window's start (wall clock) on stdin
    start = float(sys.stdin.readline())
    time.sleep(max(0.0, start - time.time()))
    end = start + plan["duration"]
    sender = threading.Thread(target=send, args=(end,), daemon=True)  # may stay blocked: the process ends
    sender.start()
    time.sleep(max(0.0, end - time.time()) + plan["drain"])
    with lock:
        return {"sent": sending["blocks"] * BLOCK, "still_sending": sender.is_alive(), "answers": dict(answers),
                "first_roll": first_roll}


def roll_once(ws) -> str:
    """One roll, before the window (``--rolled-before``): its answer, "ok" or its status."""
    ws.send('420["act",{"type":"roll"}]')
    deadline = time.monotonic() + JOIN_SECONDS
    while time.monotonic() < deadline:
        message = ws.recv()
        if message == "2":
            ws.send("3")
        elif message.startswith("430"):
            body = json.loads(message[3:])[0]
            return "ok" if body.get("ok") else str(body.get("status"))
    return "unanswered"


def connect(plan: dict, token: str | None):
    """A Socket.IO connection from the flooder's address, by hand: (its socket, its websocket)."""
    import websocket

    host, port = plan["host"], plan["port"]
    raw = socket.socket()
    raw.bind((FLOODER_ADDRESS, 0))
    raw.connect((host, port))
    ws = websocket.create_connection(f"ws://{host}:{port}/socket.io/?EIO=4&transport=websocket", socket=raw,
                                     skip_utf8_validation=True)
    ws.recv()  # the Engine.IO open packet
    ws.send("40" + json.dumps({"table": plan["code"], **({"token": token} if token else {})}))
    return raw, ws


def join_the_pool(ws, seat: dict) -> None:
    """Answers the rounds that ask this phone (its next chain value, as a phone does) until every seat
    of its table is in the table's pool, for JOIN_SECONDS at most."""
    from companion import fairness

    chain, asked_in = fairness.chain(seat["secret"]), set()
    deadline = time.monotonic() + JOIN_SECONDS
    while time.monotonic() < deadline:
        message = ws.recv()
        if message == "2":
            ws.send("3")
        if not message.startswith('42["view"'):
            continue
        entropy = (json.loads(message[2:])[1].get("table") or {}).get("entropy") or {}
        seats = entropy.get("seats") or {}
        if seats and all(book.get("in_pool") for book in seats.values()):
            return
        mine = seats.get(str(seat["seat"])) or {}
        current = entropy.get("round") or {}
        if seat["seat"] in current.get("asked", ()) and current.get("number") not in asked_in:
            asked_in.add(current.get("number"))
            ws.send("42" + json.dumps(["act", {"type": "entropy.reveal", "value": chain[mine["k"] + 1]}]))


def stay_silent(raw: socket.socket, ws) -> None:
    """Holds a seat: answers the server's pings, and nothing else."""
    while True:
        try:
            if ws.recv() == "2":
                ws.send("3")
        except Exception:  # closed
            return


# The runner -----------------------------------------------------------------------------------

def flooder_plans(url: str, arguments: argparse.Namespace, honest: list[dict]) -> list[dict]:
    """Where each flooder connects: an honest table as a spectator, or a seat of a table of its own."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    plans = []
    for index in range(arguments.flooders):
        if arguments.flood == "spectator":
            target = {"code": honest[index % len(honest)]["code"], "token": None}
        else:
            phones = 1 if arguments.flood == "seat-alone" else 2
            own = seat_tables(url, Load("f", "flooder", 1, phones, 0))[0]
            target = {"code": own["code"], **own["seats"][0], "silent": own["seats"][1] if phones == 2 else None}
        plans.append({"host": host, "port": int(port), "max": arguments.flood_max,
                      "rolled_before": arguments.rolled_before,
                      "duration": arguments.duration, "drain": arguments.drain, **target})
    return plans


def run(arguments: argparse.Namespace, workdir: Path, flooding: bool, name: str = "run") -> dict:
    load = Load("f", f"{arguments.tables} tables x {arguments.phones} phones", arguments.tables, arguments.phones, 0)
    server = make_server("companion", workdir)
    server.env["COMPANION_LIMIT_WATCH"] = ""  # the server's own default (the tests' settings lift it)
    if arguments.checkout:
        server.root = arguments.checkout.resolve()
    if arguments.blocking:
        server.env.update({"GEVENT_MONITOR_THREAD_ENABLE": "true", "GEVENT_MAX_BLOCKING_TIME": str(arguments.blocking)})
    server.start()
    clients, flooders = [], []
    try:
        with ResourceSampler(server) as sampler:
            tables = seat_tables(server.url, load)
            plans = flooder_plans(server.url, arguments, tables) if flooding else []
            # The flooders start and join their own tables' pools first, then the honest phones connect:
            # fifty flooders starting meanwhile kept the honest ones out past their deadline, and fifty
            # starting once they were connected (on a loaded machine) got them all disconnected.
            for index, plan in enumerate(plans):  # started and connected before the window opens
                plan_path, result_path = workdir / f"flood-{index}.json", workdir / f"flood-{index}-result.json"
                plan_path.write_text(json.dumps(plan))
                flooders.append((subprocess.Popen([sys.executable, __file__, "--flooder", str(plan_path),
                                                   str(result_path)], cwd=ROOT, stdin=subprocess.PIPE,
                                                  stdout=subprocess.PIPE, text=True), result_path))
            for process, _ in flooders:
                if process.stdout.readline().strip() != "ready":
                    raise RuntimeError("a flooder could not connect")
            clients = [ClientProcess(workdir, index, server.url, group, arguments, server)
                       for index, group in enumerate(split(tables, arguments.client_processes))]
            deadline = time.monotonic() + 180  # a machine shared with others' tests may take long
            for client in clients:
                client.wait_ready(deadline)
            start = time.time() + START_DELAY
            for process, _ in flooders:
                process.stdin.write(f"{start}\n")
                process.stdin.flush()
            for client in clients:
                client.start_at(start)
            time.sleep(max(0.0, start - time.time()))
            spy_process = start_spy(server, arguments, name)
            cpu_before, flooders_before = sampler.cpu_seconds(), cpu_of(process for process, _ in flooders)
            time.sleep(arguments.duration)
            server_cpu = (sampler.cpu_seconds() - cpu_before) / arguments.duration
            flooders_cpu = (cpu_of(process for process, _ in flooders) - flooders_before) / arguments.duration
            tally = merge_tallies([client.result(timeout=arguments.drain + 40) for client in clients])
            if arguments.keep:
                (workdir / f"{name}.json").write_text(json.dumps({**tally, "server_log": server.log_path.name}))
            if spy_process:
                spy_process.communicate(timeout=arguments.duration + 30)
            floods = []
            for process, result_path in flooders:
                process.wait(timeout=30)
                floods.append(json.loads(result_path.read_text()))
    finally:
        for client in clients:
            client.kill()
        for process, _ in flooders:
            if process.poll() is None:
                process.kill()
        server.stop()
    # A roll never answered, or a view never shown, counts as slower than any: the percentiles of the
    # answered ones alone would look better the more the flood stopped.
    missing = tally["unanswered"] * arguments.phones + tally["views_lost"]
    latencies = sorted(tally["phone_latencies_ms"]) + [math.inf] * missing
    if not latencies:  # no honest roll was even sent (the phones were cut off): as slow as can be
        latencies = [math.inf]
    return {"p50": percentile(latencies, 50), "p99": percentile(latencies, 99), "max": latencies[-1] if latencies else None,
            "accepted": tally["rolls_accepted"], "sent": tally["rolls_sent"], "refused": sum(tally["refusals"].values()),
            "refusals": tally["refusals"], "disconnects": tally["disconnects"],
            "unanswered": tally["unanswered"], "server_cpu": server_cpu, "floods": floods,
            "clients_cpu": tally["cpu_seconds"] / max(tally["wall_seconds"], 1e-9), "flooders_cpu": flooders_cpu}


def start_spy(server, arguments: argparse.Namespace, name: str):
    """py-spy on the server's worker for the rolling window (``--py-spy``), or None."""
    if not arguments.py_spy:
        return None
    arguments.py_spy.mkdir(parents=True, exist_ok=True)
    return spy.record(server.processes()[-1].pid, arguments.duration, arguments.py_spy / f"{name}.txt")


def cpu_of(processes) -> float:
    """CPU seconds so far of these processes (the flooders: does flooding cost the machine what it costs them?)."""
    total = 0.0
    for process in processes:
        try:
            times = psutil.Process(process.pid).cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def pair_line(name: str, outcome: dict) -> str:
    return (f"| {name} | {outcome['accepted']} / {outcome['sent']} | {outcome['refused']} | {outcome['unanswered']} | "
            f"{outcome['disconnects']} | "
            f"{outcome['p50']:.1f} | {outcome['p99']:.1f} | {outcome['max']:.1f} | {outcome['server_cpu']:.0%} | "
            f"{outcome['clients_cpu']:.0%} / {outcome['flooders_cpu']:.0%} |")


def report(arguments: argparse.Namespace, argv: list[str], pairs: list[tuple[dict, dict]], load_before: str) -> str:
    flooders = f"{arguments.flooders} {arguments.flood} flooder(s)"
    lines = [f"Command: `{' '.join(['.venv/bin/python bench/flood.py', shlex.join(argv)]).strip()}`",
             f"Machine: {cpu_model()}, load average before {load_before}, after {load_average()}; "
             f"commit {code_version()}",
             "",
             "| run | rolls accepted / sent | refused | unanswered | honest screens disconnected | p50 ms | p99 ms | "
             "max ms | server CPU | CPU of the honest phones / the flooders |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for number, (alone, flooded) in enumerate(pairs, 1):
        lines += [pair_line(f"{number}. alone", alone), pair_line(f"{number}. {flooders}", flooded)]
        ratios.append(flooded["p99"] / alone["p99"] if alone["p99"] else math.inf)
    sent = sum(f["sent"] for _, flooded in pairs for f in flooded["floods"])
    answers: dict[str, int] = {}
    for _, flooded in pairs:
        for result in flooded["floods"]:
            for key, count in result["answers"].items():
                answers[key] = answers.get(key, 0) + count
    blocked = any(f["still_sending"] for _, flooded in pairs for f in flooded["floods"])
    honest_refusals = [merge_counts(run["refusals"] for run in runs) for runs in zip(*pairs)]
    if arguments.rolled_before:
        first = merge_counts({f["first_roll"]: 1} for _, flooded in pairs for f in flooded["floods"])
        lines += ["", "**Not the default figure**: each flooder's first roll was made before the window "
                  f"(--rolled-before; its answers: {counts_line(first)})."]
    lines += ["", "A roll never answered or a view never shown counts as infinitely slow (inf).",
              "Honest p99 with the flood / alone, pair by pair: " + ", ".join(f"{r:.2f}" for r in ratios)
              + f"; median {sorted(ratios)[len(ratios) // 2]:.2f} (goal: at most 1.5).",
              f"Flood: {sent} actions sent in {len(pairs)} x {arguments.duration:.0f} s"
              + (" (a flooder was still blocked in a send at the end: the server read it no faster)" if blocked else "")
              + "; answers by status: " + ", ".join(f"{key}: {count}" for key, count in sorted(answers.items())),
              "Honest rolls refused (a player taps again), alone: " + counts_line(honest_refusals[0])
              + "; with the flood: " + counts_line(honest_refusals[1])]
    return "\n".join(lines)


def merge_counts(counts) -> dict[str, int]:
    merged: dict[str, int] = {}
    for count in counts:
        for key, number in count.items():
            merged[key] = merged.get(key, 0) + number
    return merged


def counts_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{number} \"{key}\"" for key, number in sorted(counts.items())) or "none"


def main(argv: list[str]) -> int:
    arguments = parse_arguments(argv)
    if arguments.flooder:
        plan_path, result_path = arguments.flooder
        Path(result_path).write_text(json.dumps(flood(json.loads(Path(plan_path).read_text()))))
        os._exit(0)  # a sender still blocked in its socket is not waited for
    load_before = load_average()
    pairs = []
    with tempfile.TemporaryDirectory(prefix="companion-flood-") as temporary:
        workdir = arguments.keep or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        for number in range(1, arguments.repeat + 1):
            pairs.append((run(arguments, workdir, flooding=False, name=f"run-{number}-alone"),
                          run(arguments, workdir, flooding=True, name=f"run-{number}-flooded")))
            print(pair_line("alone", pairs[-1][0]) + "\n" + pair_line("flooded", pairs[-1][1]), flush=True)
    print(report(arguments, argv, pairs, load_before))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
