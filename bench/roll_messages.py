"""How many messages one roll costs when the table's phones take part in rounds (issue 24: a seat's action that
draws is committed first and drawn from a round it opens), on the real server process:
``.venv/bin/python bench/roll_messages.py [--phones 1 2 3 6]``.

For each table size, every phone joins with its hash chain and keeps its page's Socket.IO connection open; one
phone rolls the die and every phone answers the round as its page does. Printed: the requests the phones sent
for the roll (the action, the 428 and its resend when no other phone is connected, each ``entropy.reveal``), the
views each screen received until the one that shows the roll, and the time that took (loopback, one run: an
indication, not a benchmark; `bench/README.md` has the latency benchmark). Then, from 2 phones on, the same for
two phones tapping at once: the second roll is queued behind the first and drawn from a round of its own."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from tests.phones import ChainPhone, answer_rounds  # noqa: E402
from tests.screen import Screen  # noqa: E402
from tests.server import ServerProcess  # noqa: E402


def dice_table(server: ServerProcess, phones: int) -> tuple[list[ChainPhone], list[Screen], list[int]]:
    """A die table whose phones are in the pool with their pages open; the views each screen has had so far."""
    code = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": {}}, timeout=20).json()["code"]
    chains = [ChainPhone(server.url, code, f"P{n}") for n in range(phones)]
    answer_rounds(*chains)
    screens = [Screen(server.url, code, phone.token) for phone in chains]
    for screen in screens:
        screen.wait_for(lambda view: view["table"]["entropy"]["round"] is None)
    return chains, screens, [views_of(screen) for screen in screens]


def views_of(screen: Screen) -> int:
    return len([m for m in screen.messages if m[0] == "view"])


def one_roll(server: ServerProcess, phones: int) -> tuple[int, list[int], float]:
    chains, screens, seen = dice_table(server, phones)
    start = time.perf_counter()
    sent = 1
    answer = screens[0].act({"type": "roll"})
    if answer.get("status") == 428:  # no other phone connected: the roll carries the roller's value
        answer = screens[0].act({"type": "roll", "reveal": chains[0].chain[chains[0].k + 1]})
        sent += 1
    else:
        for phone, screen in zip(chains, screens):
            screen.act({"type": "entropy.reveal", "value": phone.chain[phone.k + 1]})
            sent += 1
    for screen in screens:
        screen.wait_for(lambda view: view["game"].get("last") is not None)
    took = time.perf_counter() - start
    views = [views_of(screen) - before for screen, before in zip(screens, seen)]
    for screen in screens:
        screen.close()
    return sent, views, took


def two_at_once(server: ServerProcess, phones: int) -> tuple[int, list[int], float]:
    """The first two phones roll at once: the second roll is queued; every phone answers both rounds in turn."""
    chains, screens, seen = dice_table(server, phones)
    start = time.perf_counter()
    assert screens[0].act({"type": "roll"})["ok"] and screens[1].act({"type": "roll"})["events"][0].get("queued")
    sent = 2
    for _ in range(2):  # the first roll's round, then the second's, opened once the first roll ran
        for phone, screen in zip(chains, screens):
            screen.act({"type": "entropy.reveal", "value": phone.chain[phone.k + 1]})
            phone.k += 1
            sent += 1
    for screen in screens:
        screen.wait_for(lambda view: view["game"]["rolls"] == 2)
    took = time.perf_counter() - start
    views = [views_of(screen) - before for screen, before in zip(screens, seen)]
    for screen in screens:
        screen.close()
    return sent, views, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, nargs="+", default=[1, 2, 3, 6])
    arguments = parser.parse_args()
    server = ServerProcess(Path(tempfile.mkdtemp())).start()
    try:
        for phones in arguments.phones:
            sent, views, took = one_roll(server, phones)
            print(f"{phones} phone(s) connected: {sent} requests, views per screen {views}, {took * 1000:.0f} ms")
        for phones in (n for n in arguments.phones if n >= 2):
            sent, views, took = two_at_once(server, phones)
            print(f"{phones} phone(s) connected, two rolls at once (one queued): {sent} requests, "
                  f"views per screen {views}, {took * 1000:.0f} ms")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
