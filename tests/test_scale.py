"""Several processes on existing engines: PostgreSQL, Redis (the Socket.IO queue and shared
presence) and nginx in front of two Companion processes, all real, on loopback ports in a
temporary directory (scripts/cluster.py, the cluster `./manage.sh serve --processes N` starts)."""

from __future__ import annotations

import contextlib
import queue
import threading

import pytest
import redis
import requests
import socketio

from companion.verify import verify_log
from scripts.cluster import Cluster
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, hang_up
from tests.server import TEST_LIMITS

# The in-memory flood limit counts per process; these tests send bursts on purpose.
LIMITS = {**{f"COMPANION_{name}": str(value) for name, value in TEST_LIMITS.items()},
          "COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_SWEEP_SECONDS": "0"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("cluster"), processes=2, extra_env=LIMITS).start()
    yield running
    running.stop()


class Phone:
    """A python-socketio client that records every view; ``node`` pins it to one process through
    the proxy's cookie (as a browser keeps it), or ``url`` names a process directly."""

    def __init__(self, url: str, code: str, token: str, node: str | None = None):
        self.views: "queue.Queue[dict]" = queue.Queue()
        self.presences: "queue.Queue[dict]" = queue.Queue()  # who is here, as views and presence events tell
        self.connected: "queue.Queue[bool]" = queue.Queue()
        self.client = socketio.Client(reconnection=True, reconnection_delay=0.2, reconnection_delay_max=1)
        self.client.on("view", lambda view: (self.views.put(view), self.presences.put(view)))
        self.client.on("presence", self.presences.put)
        self.client.on("connect", lambda: self.connected.put(True))
        self.client.on("disconnect", lambda *args: self.connected.put(False))
        headers = {"Cookie": f"companion_node={node}"} if node else None
        self.client.connect(url, auth={"table": code, "token": token}, transports=["websocket"], headers=headers,
                            wait_timeout=WAIT)
        self.you = self.views.get(timeout=WAIT)["you"]

    def roll(self, action_id: str) -> dict:
        answer = self.client.call("act", {"type": "roll", "id": action_id}, timeout=WAIT)
        assert answer["ok"], answer
        return answer["events"][0]

    def rolls_seen(self, count: int) -> dict[int, int]:
        """roll number -> version of the view that showed it, once ``count`` rolls were seen."""
        seen: dict[int, int] = {}
        while len(seen) < count:
            view = self.views.get(timeout=WAIT)
            last = (view.get("game") or {}).get("last")
            if last:
                seen.setdefault(last["number"], view["version"])
        return seen

    def first_view_from(self, version: int) -> dict:
        """The first view of this table version or a newer one (older ones may come first)."""
        view = self.views.get(timeout=WAIT)
        while view["version"] < version:
            view = self.views.get(timeout=WAIT)
        return view

    def view_after_roll(self, action_id: str) -> dict:
        """The first view published after a roll of this phone (whatever the roll's outcome)."""
        while not self.views.empty():
            self.views.get_nowait()
        answer = self.client.call("act", {"type": "roll", "id": action_id}, timeout=WAIT)
        assert answer["ok"], answer
        return self.views.get(timeout=WAIT)

    def online_becomes(self, seats: list[int]) -> dict:
        """The first presence (a view's or an announcement) that shows exactly ``seats`` online."""
        presence = self.presences.get(timeout=WAIT)
        while presence["online"] != seats:
            presence = self.presences.get(timeout=WAIT)
        return presence

    def close(self):
        hang_up(self.client)
        self.client.disconnect()


def new_table(url: str, names=("Ana", "Bo")) -> dict:
    created = requests.post(f"{url}/api/tables", json={"game": "dice", "options": {}}, timeout=WAIT)
    assert created.status_code == 201, created.text
    table = {**created.json(), "tokens": []}
    for name in names:
        seat = requests.post(f"{url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY},
                             timeout=WAIT)
        assert seat.status_code == 201, seat.text
        table["tokens"].append(seat.json()["token"])
    return table


def node_url(cluster: Cluster, index: int) -> str:
    return f"http://127.0.0.1:{cluster.node_ports[index]}"


def closed_log(cluster: Cluster, table: dict) -> dict:
    closed = requests.post(f"{cluster.url}/api/tables/{table['code']}/close", headers=bearer(table["host_token"]),
                           timeout=WAIT)
    assert closed.ok, closed.text
    return requests.get(f"{cluster.url}/api/tables/{table['code']}/log", timeout=WAIT).json()


def rolls_in(log: dict) -> list[dict]:
    return [entry["event"] for entry in log["entries"] if entry["kind"] == "event" and entry["event"]["type"] == "rolled"]


def test_two_phones_on_two_processes_see_each_others_rolls_in_order(cluster):
    table = new_table(cluster.url)
    ana = Phone(node_url(cluster, 0), table["code"], table["tokens"][0])
    bo = Phone(node_url(cluster, 1), table["code"], table["tokens"][1])
    try:
        acked = [(ana if turn % 2 == 0 else bo).roll(f"r{turn}") for turn in range(10)]
        assert [roll["number"] for roll in acked] == list(range(1, 11))
        for phone in (ana, bo):
            seen = phone.rolls_seen(10)
            # Every roll reached both processes' phones, each in a newer view than the roll before.
            assert sorted(seen) == list(range(1, 11))
            versions = [seen[number] for number in range(1, 11)]
            assert versions == sorted(versions) and len(set(versions)) == 10
        # Both processes see both seats here: presence is shared, not per process.
        view = requests.get(f"{node_url(cluster, 0)}/api/tables/{table['code']}", timeout=WAIT).json()
        assert view["table"]["seats"] and {s["id"] for s in view["table"]["seats"]} == {1, 2}
    finally:
        ana.close()
        bo.close()


def test_who_is_here_at_a_table_whose_phones_sit_on_two_processes(cluster):
    """Each process keeps a copy of a table's presence and hears of joins and leaves on any process:
    the rolls of one process carry the seats held on the other, and a leave there shows here."""
    table = new_table(cluster.url)
    ana = Phone(node_url(cluster, 0), table["code"], table["tokens"][0])
    bo = Phone(node_url(cluster, 1), table["code"], table["tokens"][1])
    try:
        ana.online_becomes([1, 2])
        # Published by process 0, with the presence it keeps.
        assert ana.view_after_roll("here")["online"] == [1, 2]
        bo.close()
        assert "2" in ana.online_becomes([1])["away_since"]
        after = ana.view_after_roll("alone")  # process 0's next publish knows it too
        assert after["online"] == [1] and "2" in after["away_since"]
        bo = Phone(node_url(cluster, 1), table["code"], table["tokens"][1])
        ana.online_becomes([1, 2])
    finally:
        ana.close()
        bo.close()


def test_a_seat_opened_through_another_process_replaces_the_first_screen(cluster):
    table = new_table(cluster.url, names=("Ana",))
    first = Phone(node_url(cluster, 0), table["code"], table["tokens"][0])
    replaced: "queue.Queue[dict]" = queue.Queue()
    first.client.on("replaced", replaced.put)
    second = Phone(node_url(cluster, 1), table["code"], table["tokens"][0])
    try:
        assert replaced.get(timeout=WAIT) == {"code": table["code"]}
        assert second.roll("after")["seat"] == 1
    finally:
        first.close()
        second.close()


def test_two_processes_acting_on_one_table_at_once_apply_each_action_once_in_order(cluster):
    table = new_table(cluster.url)
    per_seat = 12
    answers: dict[str, list] = {}

    def roll_on(process: int, token: str, prefix: str, repeat_on: int) -> None:
        """Each roll goes to one process, then the same roll (same id) to the other at once."""
        with requests.Session() as session:
            for number in range(per_seat):
                action = {"type": "roll", "id": f"{prefix}{number}"}
                for target in (process, repeat_on):
                    answer = session.post(f"{node_url(cluster, target)}/api/tables/{table['code']}/actions",
                                          json=action, headers=bearer(token), timeout=WAIT).json()
                    answers.setdefault(action["id"], []).append(answer)

    workers = [threading.Thread(target=roll_on, args=(0, table["tokens"][0], "a", 1)),
               threading.Thread(target=roll_on, args=(1, table["tokens"][1], "b", 0))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert len(answers) == 2 * per_seat
    for action_id, (first, again) in answers.items():
        assert first["ok"] and again.get("duplicate") and again["events"] == first["events"], (action_id, first, again)
    log = closed_log(cluster, table)
    rolled = rolls_in(log)
    # Once each, numbered in the order they were applied, and every draw in sequence.
    assert [roll["number"] for roll in rolled] == list(range(1, 2 * per_seat + 1))
    assert sorted(answer[0]["events"][0]["number"] for answer in answers.values()) == list(range(1, 2 * per_seat + 1))
    report = verify_log(log)
    assert report.ok and report.draws_checked == 2 * per_seat, report.message


@contextlib.contextmanager
def phones_on_two_processes_while_redis_refuses(cluster: Cluster, command: str):
    """Ana on process 0, Bo on process 1, and a roll of Ana's made while Redis refuses ``command``
    to the processes (`ACL SETUSER`); yields the two phones, Ana's roll and its table version."""
    table = new_table(cluster.url)
    ana = Phone(node_url(cluster, 0), table["code"], table["tokens"][0])
    bo = Phone(node_url(cluster, 1), table["code"], table["tokens"][1])
    queue_server = redis.Redis.from_url(cluster.queue)
    try:
        queue_server.execute_command("ACL", "SETUSER", "default", f"-{command}")
        try:
            if command == "subscribe":  # cut the subscriptions that are there; none can come back
                # Two per process: the Socket.IO queue's and the presence changes' (shared_presence.py).
                assert queue_server.client_kill_filter(_type="pubsub") == 4
            rolled = ana.roll(f"while-{command}-refused")  # acknowledged after its publish
        finally:
            queue_server.execute_command("ACL", "SETUSER", "default", f"+{command}")
        yield ana, bo, rolled, ana.rolls_seen(1)[rolled["number"]]
    finally:
        queue_server.close()
        ana.close()
        bo.close()


def test_a_process_cut_off_from_the_queue_sends_its_phones_the_table_they_missed_once_back(cluster):
    """Redis drops a subscriber that reads too slowly (its output buffer limit) or that it lost:
    what was published until the process subscribes again never reaches it. Here both processes'
    subscriptions are cut, and kept from coming back, while Ana rolls on process 0: Bo, on process
    1, missed that view, and must get the table as it is once process 1 is subscribed again."""
    with phones_on_two_processes_while_redis_refuses(cluster, "subscribe") as (ana, bo, rolled, version):
        assert_shows(bo.first_view_from(version), version, rolled)
        assert ana.views.get(timeout=WAIT)["version"] == version  # process 0 sent its screens the table too
        # Both processes are subscribed again: a roll crosses as before.
        again = bo.roll("after")
        assert ana.rolls_seen(1) == {again["number"]: version + 1}


def test_a_view_that_could_not_be_published_is_published_again_later(cluster):
    """Redis refuses PUBLISH (as when unreachable) while Ana rolls on process 0: python-socketio
    gives up after two tries, and Bo, on process 1, gets the view once Redis takes it again."""
    with phones_on_two_processes_while_redis_refuses(cluster, "publish") as (_, bo, rolled, version):
        assert_shows(bo.first_view_from(version), version, rolled)


def assert_shows(view: dict, version: int, rolled: dict) -> None:
    last = view["game"]["last"]
    assert view["version"] == version and (last["seat"], last["number"]) == (rolled["seat"], rolled["number"])


def test_a_process_killed_mid_burst_loses_no_acknowledged_roll_and_its_phones_come_back(cluster):
    table = new_table(cluster.url)
    # Both phones through the proxy, pinned to process 0 by its cookie.
    phones = [Phone(cluster.url, table["code"], token, node="n0") for token in table["tokens"]]
    acknowledged: list[dict] = []
    stop = threading.Event()

    def burst(phone: Phone, seat: int) -> None:
        for number in range(200):
            if stop.is_set():
                return
            try:
                answer = phone.client.call("act", {"type": "roll", "id": f"s{seat}-{number}"}, timeout=5)
            except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError,
                    socketio.exceptions.DisconnectedError):
                return  # the process died under this roll: it was never acknowledged
            if answer and answer.get("ok"):
                acknowledged.append(answer["events"][0])
    try:
        for phone in phones:
            assert phone.connected.get(timeout=WAIT) is True
        bursts = [threading.Thread(target=burst, args=(phone, seat)) for seat, phone in enumerate(phones, 1)]
        for thread in bursts:
            thread.start()
        while len(acknowledged) < 10:  # mid-burst: rolls acknowledged, more on the way
            phones[0].views.get(timeout=WAIT)
        cluster.kill_node(0)
        stop.set()
        for thread in bursts:
            thread.join(timeout=WAIT)
        for phone in phones:  # dropped, then back through the proxy on the living process
            while phone.connected.get(timeout=WAIT) is not False:
                pass
            assert phone.connected.get(timeout=WAIT) is True
        for seat, phone in enumerate(phones, 1):
            view = phone.views.get(timeout=WAIT)
            while view.get("you") is None:
                view = phone.views.get(timeout=WAIT)
            assert view["you"] == {"role": "seat", "seat": seat}
        after = phones[1].roll("after-the-kill")
        log = closed_log(cluster, table)
    finally:
        for phone in phones:
            phone.close()
        cluster.start_node(0)
    logged = {(roll["seat"], roll["number"]) for roll in rolls_in(log)}
    assert {(roll["seat"], roll["number"]) for roll in acknowledged} <= logged
    assert (after["seat"], after["number"]) in logged and len(acknowledged) >= 10
    assert verify_log(log).ok
