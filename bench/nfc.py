"""Tap → figure shown: the production server reading the udp NFC emulator.

``.venv/bin/python bench/nfc.py [--taps 100]``

gunicorn with our config runs with ``COMPANION_READER`` on the emulator (so the
reader process reads it through nfcpy's own code); a host screen and a phone
(python-socketio, websocket) watch a table whose phone is adding figures. Each
tap places a new figure on the emulator; the latency is from ``place()`` to the
view that shows the figure registered, on the host screen and on the phone.
The emulator answers the pending poll as soon as a figure is placed, so the
reader's poll interval (reported separately, from ``python -m hardware.bench``)
is not in these figures; the read itself is.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests
import socketio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import GunicornServer  # noqa: E402
from hardware.emulate import Emulator  # noqa: E402

WAIT = 30


class Screen:
    """Puts the time of arrival of every view in a queue."""

    def __init__(self, url: str, code: str, token: str):
        self.views: "queue.Queue[tuple[float, dict]]" = queue.Queue()
        self.client = socketio.Client()
        self.client.on("view", lambda view: self.views.put((time.perf_counter(), view)))
        self.client.connect(url, auth={"table": code, "token": token}, transports=["websocket"], wait_timeout=WAIT)

    def arrival_of(self, uid: str) -> float:
        while True:
            at, view = self.views.get(timeout=WAIT)
            if any(figure["uid"] == uid for figure in view["table"]["figures"]["list"]):
                return at


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def run(taps: int) -> dict[str, list[float]]:
    latencies: dict[str, list[float]] = {"host": [], "phone": []}
    with Emulator(port=0) as emulator, tempfile.TemporaryDirectory() as workdir:
        server = GunicornServer("companion", Path(workdir))
        server.env["COMPANION_READER"] = emulator.path
        server.start()
        try:
            created = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
            seat = requests.post(f"{server.url}/api/tables/{created['code']}/seats", json={"name": "Ana"},
                                 timeout=WAIT).json()
            host = Screen(server.url, created["code"], created["host_token"])
            phone = Screen(server.url, created["code"], seat["token"])
            assert phone.client.call("act", {"type": "figure.adding", "on": True}, timeout=WAIT)["ok"]
            for number in range(taps):
                uid = f"04{number:012x}"
                placed = time.perf_counter()
                emulator.place(uid, f"0x{number % 0x3ff:04x}000000{number % 256:02x}0002")
                latencies["host"].append((host.arrival_of(uid) - placed) * 1000)
                latencies["phone"].append((phone.arrival_of(uid) - placed) * 1000)
                emulator.remove()
                # The reader notices the removal by its presence check before it polls again.
                emulator.wait_until(lambda counts, before=emulator.counts["REQA"]: counts["REQA"] > before, WAIT)
            for screen in (host, phone):
                screen.client.disconnect()
        finally:
            server.stop()
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=100)
    taps = parser.parse_args().taps
    latencies = run(taps)
    print(f"{taps} taps, figure placed on the emulator -> view showing it registered")
    print("| screen | p50 ms | p99 ms | max ms | mean ms |")
    print("|---|---:|---:|---:|---:|")
    for screen, samples in latencies.items():
        print(f"| {screen} | {percentile(samples, 0.5):.1f} | {percentile(samples, 0.99):.1f} | "
              f"{max(samples):.1f} | {statistics.fmean(samples):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
