"""Tables expire: against the real server process with the times shortened,
an idle table is closed by the sweeper (every screen still there is told),
its log stays readable and verifiable, then the whole table is deleted. In
process, with a clock the test holds: which tables each pass closes or
deletes (finished, idle, recently used, closed long ago)."""

from __future__ import annotations

import time

import pytest
import requests

from companion.expiry import DAY, HOUR, Expiry, Sweeper
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer, new_table
from tests.screen import WAIT, Screen
from tests.server import ServerProcess

SHORT = {"COMPANION_IDLE_HOURS": str(1.5 / HOUR), "COMPANION_FINISHED_HOURS": str(1.5 / HOUR),
         "COMPANION_LOG_DAYS": str(3 / DAY), "COMPANION_SWEEP_SECONDS": "0.2"}


def test_an_idle_table_closes_by_itself_its_log_stays_verifiable_then_it_is_deleted(tmp_path):
    server = ServerProcess(tmp_path, extra_env=SHORT).start()
    try:
        code = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()["code"]
        seat = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY},
                             timeout=10).json()
        rolled = requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "roll"},
                               headers=bearer(seat["token"]), timeout=10)
        assert rolled.status_code == 200
        phone = Screen(server.url, code, seat["token"])
        try:
            closed = phone.wait_for(lambda view: view["table"]["status"] == "closed")  # told, not polling
        finally:
            phone.close()
        assert closed["table"]["seed"]

        log = requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).json()
        kinds = [(entry["kind"], entry.get("type")) for entry in log["entries"]]
        assert kinds.index(("table", "expired")) < kinds.index(("table", "closed"))
        assert verify_log(log).ok
        refused = requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "roll"},
                                headers=bearer(seat["token"]), timeout=10)
        assert refused.status_code == 410

        # Nothing announces the deletion: the log is read until it is gone.
        deadline = time.monotonic() + WAIT
        while requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).status_code == 200:
            assert time.monotonic() < deadline, "the closed table was never deleted"
            time.sleep(0.2)
        assert requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).status_code == 404
        assert "Table not found" in requests.get(f"{server.url}/t/{code}", timeout=10).text
    finally:
        server.stop()


@pytest.fixture
def sweep_at(tables):
    """A pass of the sweeper as if the clock read ``now + later`` seconds."""
    expiry = Expiry(finished_seconds=10, idle_seconds=100, log_seconds=1000)

    def sweep(later: float) -> dict:
        return Sweeper(tables, expiry, clock=lambda: time.time() + later).sweep()

    return sweep


def status_of(client, code: str) -> int | str:
    response = client.get(f"/api/tables/{code}")
    return response.json["table"]["status"] if response.status_code == 200 else response.status_code


def test_each_pass_closes_the_finished_and_the_idle_and_deletes_the_long_closed(client, tables, sweep_at):
    finished, idle = new_table(client)["code"], new_table(client)["code"]
    with tables.store.transaction() as tx:
        tx.update_table(finished, status="over")
    assert sweep_at(5) == {"closed": 0, "deleted": 0}  # used a moment ago: nothing
    assert sweep_at(50) == {"closed": 1, "deleted": 0}  # a game over for a while closes first
    assert (status_of(client, finished), status_of(client, idle)) == ("closed", "playing")
    assert sweep_at(150) == {"closed": 1, "deleted": 0}
    assert status_of(client, idle) == "closed"
    assert client.get(f"/api/tables/{idle}/log").status_code == 200  # kept for verification
    assert sweep_at(1100) == {"closed": 0, "deleted": 2}
    assert (status_of(client, finished), status_of(client, idle)) == (404, 404)


def test_a_table_in_use_is_never_swept(client, tables, sweep_at):
    table = new_table(client)
    code, token = table["code"], table["seats"]["Ana"]["token"]
    assert sweep_at(50) == {"closed": 0, "deleted": 0}
    assert client.post(f"/api/tables/{code}/actions", json={"type": "roll"}, headers=bearer(token)).status_code == 200
    assert sweep_at(99) == {"closed": 0, "deleted": 0}
    assert status_of(client, code) == "playing"
