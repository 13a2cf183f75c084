"""What one roll costs the server's CPU, measured in one process without the network:
``.venv/bin/python bench/profile_roll.py [--tables 10] [--phones 6] [--rolls 2000] [--postgres] [--profile]``.

The app runs as in the tests (threads, Flask-SocketIO's test clients standing for the phones, a
SQLite file with every commit synced), so the whole action path runs: the payload check, the
transaction, the game, the views of every seat, the host and the public, their grouping and
encoding, and one delivery per connected screen. The phones join with the anchor of a hash chain
and a roll is what it is at a real table (docs/fairness.md): the action, committed first, then one
``entropy.reveal`` per phone of the table for the round it opened, the last one running the roll. The figure is CPU time (``time.process_time``)
per roll, which a machine busy with other work changes far less than latencies; ``--profile``
prints the functions that take it (cProfile). ``--postgres`` runs the same on the PostgreSQL store
(a fresh server started by `scripts.cluster.Cluster`, fsync on) and also counts the round trips to
it per roll (`RoundTrips`).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app, fairness  # noqa: E402
from tests.server import TEST_LIMITS  # noqa: E402


class RoundTrips:
    """Counts the times the PostgreSQL store sends something and waits for the answer: each
    statement it reads the answer of, and each COMMIT (`companion.store_postgres.Connection`:
    the writes it defers travel with the next of these, and so does the transaction's BEGIN
    where libpq has pipelines; without them BEGIN is one more)."""

    def __init__(self):
        import psycopg

        from companion import store_postgres

        self.count = 0
        counter = self
        begin_apart = 0 if psycopg.Pipeline.is_supported() else 1

        def counted(method, per_call=1):
            def wrapper(*args, **kwargs):
                counter.count += per_call
                return method(*args, **kwargs)
            return wrapper

        connection = store_postgres.Connection
        connection.execute = counted(connection.execute)
        connection.executemany = counted(connection.executemany)
        connection.execute_together = counted(connection.execute_together)
        connection.commit = counted(connection.commit, per_call=1 + begin_apart)


class Phone:
    """A seated test client with its hash chain, as static/js's phone: it joined with the chain's anchor
    and answers each round it is asked in with its next value."""

    def __init__(self, client, seat: int, secret: str):
        self.client, self.seat = client, seat
        self.chain = fairness.chain(secret, 4096)
        self.k = 0  # the last chain value the server holds

    def act(self, action: dict) -> dict:
        answer = self.client.emit("act", action, callback=True)
        if not answer.get("ok"):
            raise RuntimeError(answer)
        return answer

    def reveal(self) -> dict:
        self.k += 1
        return self.act({"type": "entropy.reveal", "value": self.chain[self.k], "id": f"r{self.seat}-{self.k}"})


def build(workdir: str, tables: int, phones: int, database: str | None = None):
    """The tables, each with its host screen and its phones connected; every join's round answered, so
    each phone's values are in its table's pool."""
    app = create_app({"TESTING": True, "DATABASE": database or f"{workdir}/profile.sqlite3", "ASYNC_MODE": "threading",
                      "PUBLIC_URL": "http://127.0.0.1:5000", "SECRET_KEY": "profile", "READER": "none",
                      "RATE_BURST": 10**9, "RATE_PER_SECOND": 10**9, **TEST_LIMITS})
    http = app.test_client()
    socketio = app.extensions["companion.socketio"]
    seated = []
    for _ in range(tables):
        table = http.post("/api/tables", json={"game": "dice", "options": {}}).json
        socketio.test_client(app, auth={"table": table["code"], "token": table["host_token"]})
        at_table = []
        for n in range(phones):
            secret = secrets.token_hex(32)
            anchor = fairness.chain(secret, 4096)[0]
            seat = http.post(f"/api/tables/{table['code']}/seats", json={"name": f"P{n}", "commitment": anchor}).json
            client = socketio.test_client(app, auth={"table": table["code"], "token": seat["token"]})
            at_table.append(Phone(client, seat["seat"], secret))
            answer_rounds(http, table["code"], at_table)
        seated.append(at_table)
    deliver_without_decoding(socketio)
    return app, seated


def answer_rounds(http, code: str, phones: list[Phone]) -> None:
    """Every phone a round asks reveals, until no round is open (setting up: read over the API)."""
    while (current := http.get(f"/api/tables/{code}").json["table"]["entropy"]["round"]) is not None:
        for phone in phones:
            if phone.seat in current["asked"] and str(phone.seat) not in current["revealed"]:
                phone.reveal()


def deliver_without_decoding(socketio) -> None:
    """From now on a message to a screen is counted, not decoded: the test clients decode each
    delivery in Python (a phone does it in its browser), which would be most of the figure. The
    answers to the rollers' acts go another way and are still decoded."""
    server = socketio.server
    server.delivered = 0

    def count(eio_sid, eio_packet):
        server.delivered += 1

    server._send_eio_packet = count


ROUNDS = iter(range(10**9))


def roll_all(seated, rolls: int) -> None:
    """Each roll as at a real table: the roller's action is committed first (``draw_waits``), then every
    phone of the table reveals its next value for the round it opened, the last one sealing it and
    running the roll (docs/fairness.md)."""
    ids = next(ROUNDS)
    phones = [phone for table in seated for phone in table]
    for number in range(rolls):
        roller = phones[number % len(phones)]
        table = seated[(number % len(phones)) // len(seated[0])]
        # With an id, as a phone sends it (a retry is answered from the log, never rolled twice).
        answer = roller.act({"type": "roll", "id": f"roll-{ids}-{number}"})
        if len(table) > 1:
            if not any(event.get("type") == "draw_waits" for event in answer["events"]):
                raise RuntimeError(f"the roll did not wait for a round: {answer}")
            for phone in table:
                answer = phone.reveal()
        if not any(event.get("type") == "rolled" for event in answer["events"]):
            raise RuntimeError(f"the round did not run the roll: {answer}")
        if number % 50 == 0:
            for phone in phones:  # the test clients keep what they received: drop it
                phone.client.get_received()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="print the 25 costliest functions (cumulative)")
    parser.add_argument("--postgres", action="store_true", help="on the PostgreSQL store; counts round trips")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        database, cluster, trips = None, None, None
        if arguments.postgres:
            from scripts.cluster import Cluster

            cluster = Cluster(Path(workdir) / "cluster", processes=0)
            database = cluster.start_database()
            trips = RoundTrips()
        try:
            cpu, wall, sent = measure(workdir, arguments, database, trips)
        finally:
            if cluster:
                cluster.stop()
    where = "PostgreSQL" if arguments.postgres else "SQLite"
    print(f"{arguments.tables} tables x {arguments.phones} phones (+ host screens), {arguments.rolls} rolls on {where}: "
          f"{1000 * cpu / arguments.rolls:.3f} ms CPU per roll ({1000 * wall / arguments.rolls:.3f} ms wall)"
          + (f", {sent / arguments.rolls:.1f} round trips to PostgreSQL per roll" if trips else ""))
    return 0


def measure(workdir: str, arguments, database: str | None, trips: RoundTrips | None) -> tuple[float, float, int]:
    """CPU seconds and wall seconds of the rolls, and the round trips they made."""
    app, seated = build(workdir, arguments.tables, arguments.phones, database)
    try:
        roll_all(seated, 100)  # warm up
        profiler = cProfile.Profile() if arguments.profile else None
        sent = trips.count if trips else 0
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler:
            profiler.enable()
        roll_all(seated, arguments.rolls)
        if profiler:
            profiler.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        sent = (trips.count if trips else 0) - sent
    finally:
        app.extensions["companion.tables"].store.close()
    if profiler:
        pstats.Stats(profiler).sort_stats(os.environ.get("PROFILE_SORT", "tottime")).print_stats(int(os.environ.get("PROFILE_LINES", "30")))
    return cpu, wall, sent


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
