"""End to end with the NFC reader: the real server (python app.py) reads the
udp emulator through nfcpy's own code in its reader process; the host screen and
two phones are python-socketio clients.

Taps tried: three different figures one after another, the same figure twice,
a figure removed in the middle of its read; then play goes on."""

from __future__ import annotations

import queue

import requests
import socketio

from hardware.emulate import Emulator
from tests.helpers import ENTROPY
from tests.server import ServerProcess

WAIT = 30  # seconds at most for each awaited message; each wait ends on the message itself
FIGURES = [("04000000000001", "0x0000000000340102"), ("04000000000002", "0x01000000034c0902"),
           ("04000000000003", "0x0002000000350102"), ("04000000000004", "0x0003000000360102"),
           ("04000000000005", "0x0004000000370102")]


class Screen:
    """A python-socketio client recording the views and reader messages it receives."""

    def __init__(self, url: str, code: str, token: str):
        self.messages: "queue.Queue[tuple[str, dict]]" = queue.Queue()
        self.client = socketio.Client(reconnection=True)
        self.client.on("view", lambda view: self.messages.put(("view", view)))
        self.client.on("reader", lambda status: self.messages.put(("reader", status)))
        self.client.connect(url, auth={"table": code, "token": token}, transports=["websocket"], wait_timeout=WAIT)

    def wait_for(self, kind: str, predicate) -> dict:
        while True:
            got_kind, payload = self.messages.get(timeout=WAIT)
            if got_kind == kind and predicate(payload):
                return payload

    def act(self, action: dict) -> dict:
        return self.client.call("act", action, timeout=WAIT)


def registered(uid: str, seat: int):
    return lambda view: any(f["uid"] == uid and f["seat"] == seat for f in view["table"]["figures"]["list"])


def test_figures_tapped_on_the_reader_register_to_the_players(tmp_path):
    with Emulator(port=0) as emulator:
        server = ServerProcess(tmp_path, extra_env={"COMPANION_READER": emulator.path}).start()
        screens = []
        try:
            url = server.url
            created = requests.post(f"{url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
            code = created["code"]
            seats = {name: requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                         timeout=WAIT).json() for name in ("Ana", "Bo")}
            host = Screen(url, code, created["host_token"])
            ana, bo = Screen(url, code, seats["Ana"]["token"]), Screen(url, code, seats["Bo"]["token"])
            screens = [host, ana, bo]
            connected = host.wait_for("reader", lambda status: status["state"] == "connected")
            assert "udp" in connected["model"].lower() or connected["model"]

            assert ana.act({"type": "figure.adding", "on": True})["ok"]
            for uid, amiibo_id in FIGURES[:2]:
                emulator.place(uid, amiibo_id)
                for screen in (host, ana, bo):
                    view = screen.wait_for("view", registered(uid, 1))
                assert [f["amiibo_id"] for f in view["table"]["figures"]["list"]][-1] == amiibo_id
                emulator.remove()

            # The same figure again: identified, not registered twice.
            emulator.place(*FIGURES[0])
            tapped = host.wait_for("view", lambda v: (v["table"]["figures"]["last_tap"] or {}).get("uid")
                                   == FIGURES[0][0])
            assert len(tapped["table"]["figures"]["list"]) == 2
            emulator.remove()

            assert ana.act({"type": "figure.adding", "on": False})["ok"]
            assert bo.act({"type": "figure.adding", "on": True})["ok"]
            emulator.place(*FIGURES[2])
            ana.wait_for("view", registered(FIGURES[2][0], 2))
            emulator.remove()

            # Pulled away in the middle of the read: reported on the host screen, nothing registered.
            emulator.place(*FIGURES[3], vanish_after_reads=0)
            error = host.wait_for("reader", lambda status: status.get("tap_error"))
            assert "away" in error["tap_error"] or "removed" in error["tap_error"]
            emulator.remove()

            # The reader and the server go on.
            emulator.place(*FIGURES[4])
            final = bo.wait_for("view", registered(FIGURES[4][0], 2))
            assert [(f["uid"], f["seat"]) for f in final["table"]["figures"]["list"]] == [
                (FIGURES[0][0], 1), (FIGURES[1][0], 1), (FIGURES[2][0], 2), (FIGURES[4][0], 2)]
            assert bo.act({"type": "roll"})["ok"]
            assert server.process.poll() is None
        finally:
            for screen in screens:
                screen.client.disconnect()
            server.stop()
