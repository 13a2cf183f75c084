"""What an action costs PostgreSQL in round trips (companion/store_postgres.py), counted on the wire:
a real PostgreSQL, reached through a loopback relay that counts each time a client speaks after the
server did. Other processes write the same tables through the relay too (a second store)."""

from __future__ import annotations

import select
import socket
import threading

import pytest

from companion.store import open_store
from companion.tables import TableError, Tables
from tests.helpers import ENTROPY
from tests.test_store import postgres  # noqa: F401 (a real PostgreSQL server for the module)


STARTUP_PROTOCOL = 196608  # version 3.0


class RoundTripCounter:
    """A TCP relay from loopback to PostgreSQL that counts round trips: the client's messages after which it
    waits for the server (PostgreSQL's protocol: a Sync, which ends a pipeline of statements however many
    it holds, or a simple Query)."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.count = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self._relay, args=(client, server), daemon=True).start()

    def _relay(self, client: socket.socket, server: socket.socket) -> None:
        unread, started = b"", False
        with client, server:
            while True:
                for end in select.select([client, server], [], [])[0]:
                    data = end.recv(65536)
                    if not data:
                        return
                    (server if end is client else client).sendall(data)
                    if end is client:
                        unread, started = self._read_messages(unread + data, started)

    def _read_messages(self, unread: bytes, started: bool) -> tuple[bytes, bool]:
        """Counts the whole messages in ``unread``; returns what is left and whether the session started."""
        while True:
            if not started:  # the SSL request and the startup message have no type byte
                if len(unread) < 8 or len(unread) < int.from_bytes(unread[:4], "big"):
                    return unread, started
                length, code = int.from_bytes(unread[:4], "big"), int.from_bytes(unread[4:8], "big")
                unread, started = unread[length:], code == STARTUP_PROTOCOL
                continue
            if len(unread) < 5 or len(unread) < 1 + int.from_bytes(unread[1:5], "big"):
                return unread, started
            kind, unread = unread[:1], unread[1 + int.from_bytes(unread[1:5], "big"):]
            if kind in (b"S", b"Q"):
                with self._lock:
                    self.count += 1

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def counted(postgres, request):
    """Two stores (two processes) on one fresh database, through one round-trip counter."""
    url = postgres.new_database(f"trips_{request.node.name.lower()[:40]}")
    counter = RoundTripCounter(postgres.pg_port)
    through = url.replace(f":{postgres.pg_port}/", f":{counter.port}/")
    here, there = open_store(through), open_store(through)
    yield counter, here, there
    here.close()
    there.close()
    counter.close()


def seated_table(store) -> tuple[Tables, str, str]:
    tables = Tables(store, rate_capacity=100, rate_per_second=100)
    code = tables.create("dice", {})["code"]
    return tables, code, tables.join(code, "Ana", ENTROPY)["token"]


def rolled(answer: dict) -> int:
    assert answer["ok"], answer
    return answer["events"][0]["number"]


def test_an_action_on_a_table_this_process_holds_costs_one_round_trip(counted):
    counter, store, _ = counted
    tables, code, token = seated_table(store)
    assert rolled(tables.act(code, token, {"type": "roll", "id": "first"})) == 1
    before = counter.count
    numbers = [rolled(tables.act(code, token, {"type": "roll", "id": f"r{n}"})) for n in range(5)]
    assert numbers == [2, 3, 4, 5, 6]
    assert counter.count - before == 5
    # A refusal is checked against the table as it is, and writes nothing: one round trip too.
    before = counter.count
    with pytest.raises(TableError, match="Unknown action"):
        tables.act(code, token, {"type": "seat.dance", "id": "refused"})
    assert counter.count - before == 1
    with store.reading() as tx:
        assert [row["number"] for row in (entry["event"] for entry in tx.log(code) if entry["kind"] == "event")] \
            == [1, 2, 3, 4, 5, 6]


def test_an_action_on_a_copy_another_process_outdated_runs_again_on_the_table_as_it_is(counted):
    counter, here_store, there_store = counted
    here, code, token = seated_table(here_store)
    there = Tables(there_store, rate_capacity=100, rate_per_second=100)
    assert rolled(here.act(code, token, {"type": "roll", "id": "a"})) == 1
    assert rolled(there.act(code, token, {"type": "roll", "id": "b"})) == 2  # here's copy is behind now
    before = counter.count
    assert rolled(here.act(code, token, {"type": "roll", "id": "c"})) == 3
    trips = counter.count - before
    # Refused by the guard (its answer brings the table), rolled back (psycopg also forgets its prepared
    # statements after a failed pipeline), then applied on the table it brought.
    assert 2 <= trips <= 4
    # The same id through the process that did not apply it: the first answer, nothing applied again.
    first = here.act(code, token, {"type": "roll", "id": "d"})
    again = there.act(code, token, {"type": "roll", "id": "d"})
    assert again["duplicate"] and again["events"] == first["events"]
    with there_store.reading() as tx:
        numbers = [entry["event"]["number"] for entry in tx.log(code) if entry["kind"] == "event"]
    assert numbers == [1, 2, 3, 4]
