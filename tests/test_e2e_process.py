"""End to end with real processes: the server (python app.py, gevent) on a
loopback port, three python-socketio phones over websocket, and a SIGKILL of
the server in the middle of the game."""

from __future__ import annotations

import queue
import threading

import engineio
import requests
import socketio

from tests.helpers import ENTROPY

WAIT = 20  # seconds: generous on a loaded 2-core machine; every wait ends on an event


class Phone:
    """A python-socketio client that records every view it receives."""

    def __init__(self, url: str, code: str, token: str):
        self.views: "queue.Queue[dict]" = queue.Queue()
        self.connected = threading.Event()
        self.connects = 0
        self.client = socketio.Client(reconnection=True, reconnection_delay=0.2, reconnection_delay_max=1)
        self.client.on("view", self.views.put)
        self.client.on("connect", self._on_connect)
        self.client.on("disconnect", lambda *args: self.connected.clear())
        self.client.connect(url, auth={"table": code, "token": token}, transports=["websocket"],
                            wait_timeout=WAIT)

    def _on_connect(self):
        self.connects += 1
        self.connected.set()

    def roll(self, action_id: str) -> dict:
        return self.client.call("act", {"type": "roll", "id": action_id}, timeout=WAIT)

    def wait_for_roll(self, number: int) -> dict:
        """The first view showing roll ``number``, skipping older views."""
        while True:
            view = self.views.get(timeout=WAIT)
            if view["game"]["rolls"] >= number:
                return view

    def close(self):
        self.client.disconnect()


def test_phones_play_on_after_the_server_is_killed(live_server):
    url = live_server.url
    created = requests.post(f"{url}/api/tables", json={"game": "dice", "options": {"die": "d20"}}, timeout=WAIT)
    code = created.json()["code"]
    seats = [requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                           timeout=WAIT).json() for name in ("Ana", "Bo", "Cy")]
    phones = [Phone(url, code, seat["token"]) for seat in seats]
    try:
        for number, phone in enumerate(phones, start=1):
            assert phone.roll(f"before-{number}")["ok"] is True
            seen = [p.wait_for_roll(number) for p in phones]
            assert {v["game"]["last"]["seat"] for v in seen} == {seats[number - 1]["seat"]}
        before = requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json()

        live_server.kill()
        for phone in phones:
            phone.connected.clear()
        live_server.start()
        for phone in phones:
            assert phone.connected.wait(WAIT), "a phone did not reconnect by itself"
            assert phone.connects == 2

        after = requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json()
        assert after["entries"] == before["entries"]
        view = requests.get(f"{url}/api/tables/{code}", headers={"Authorization": f"Bearer {seats[1]['token']}"},
                            timeout=WAIT).json()
        assert view["game"]["rolls"] == 3 and [s["name"] for s in view["table"]["seats"]] == ["Ana", "Bo", "Cy"]
        assert view["you"]["seat"] == seats[1]["seat"]

        # A flaky phone resends its last action after the restart: no double roll.
        assert phones[2].roll("before-3")["duplicate"] is True
        assert phones[1].roll("after-1")["ok"] is True
        seen = [p.wait_for_roll(4) for p in phones]
        assert all(v["game"]["rolls"] == 4 and v["game"]["last"]["seat"] == seats[1]["seat"] for v in seen)
        closed = requests.post(f"{url}/api/tables/{code}/close",
                               headers={"Authorization": f"Bearer {created.json()['host_token']}"}, timeout=WAIT)
        assert closed.status_code == 200
        from companion.verify import verify_log
        report = verify_log(requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json())
        assert report.ok and report.draws_checked == 4
    finally:
        for phone in phones:
            phone.close()


def test_the_server_runs_without_a_terminal_and_announces_its_address(live_server):
    # live_server starts `python app.py` with stdin from /dev/null and output to a file, as systemd would.
    assert f"open {live_server.url}" in live_server.log_path.read_text()
    page = requests.get(live_server.url + "/", timeout=WAIT)
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers


def test_gunicorn_with_our_config_serves_websockets(tmp_path):
    from tests.server import ServerProcess

    server = ServerProcess(tmp_path, command="gunicorn").start()
    try:
        created = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
        seat = requests.post(f"{server.url}/api/tables/{created['code']}/seats", json={"name": "Ana", "entropy": ENTROPY},
                             timeout=WAIT).json()
        phone = Phone(server.url, created["code"], seat["token"])
        try:
            assert phone.client.transport() == "websocket"
            assert phone.roll("g-1")["ok"] is True
            assert phone.wait_for_roll(1)["game"]["last"]["seat"] == seat["seat"]
        finally:
            phone.close()
    finally:
        server.stop()


def test_a_socket_from_another_origin_is_refused(live_server):
    created = requests.post(f"{live_server.url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
    client = socketio.Client(reconnection=False)
    try:
        client.connect(live_server.url, auth={"table": created["code"]}, transports=["websocket"],
                       headers={"Origin": "http://evil.example"}, wait_timeout=WAIT)
        connected = client.connected
    except (socketio.exceptions.ConnectionError, engineio.exceptions.ConnectionError):
        connected = False
    finally:
        client.disconnect()
    assert not connected
    same_origin = socketio.Client(reconnection=False)  # websocket-client sends the server's own origin
    same_origin.connect(live_server.url, auth={"table": created["code"]}, transports=["websocket"],
                        wait_timeout=WAIT)
    assert same_origin.connected
    same_origin.disconnect()
