"""A table on the real server process for end-to-end tests: its host screen and one phone
(a recording Socket.IO `Screen`) per seat, by player name; and a fixture helper that closes
every table a test opened."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

import requests

from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen


class LiveTable:
    def __init__(self, server, game: str, options: dict, names, start: bool = True, **body):
        self.url = server.url
        created = requests.post(f"{self.url}/api/tables", json={"game": game, "options": options, **body},
                                timeout=WAIT)
        assert created.status_code == 201, created.text
        self.code, self.host_token = created.json()["code"], created.json()["host_token"]
        self.seats = {name: self.join(name) for name in names}
        self.host = Screen(self.url, self.code, self.host_token)
        self.phones = {name: Screen(self.url, self.code, seat["token"]) for name, seat in self.seats.items()}
        if start:
            self.host.play({"type": "table.start"})

    def join(self, name: str) -> dict:
        seat = requests.post(f"{self.url}/api/tables/{self.code}/seats", json={"name": name, "entropy": ENTROPY},
                             timeout=WAIT)
        assert seat.status_code == 201, seat.text
        return seat.json()

    def seat(self, name: str) -> int:
        return self.seats[name]["seat"]

    def http(self, token: str | None, action: dict) -> requests.Response:
        return requests.post(f"{self.url}/api/tables/{self.code}/actions", json=action,
                             headers=bearer(token) if token else {}, timeout=WAIT)

    def log(self, number: int | None = None) -> dict:
        query = f"?game={number}" if number else ""
        return requests.get(f"{self.url}/api/tables/{self.code}/log{query}", timeout=WAIT).json()

    def away(self, name: str) -> None:
        """The phone of ``name`` leaves; the host screen shows its seat away."""
        self.phones[name].close()
        self.host.wait_away(self.seat(name))

    def close(self) -> None:
        for screen in [self.host, *self.phones.values()]:
            if screen.client.connected:
                screen.close()


@contextmanager
def closed_after(make: Callable[..., LiveTable]) -> Iterator[Callable[..., LiveTable]]:
    """For a fixture: ``make`` opens tables; every one of them is closed when the test ends."""
    opened: list[LiveTable] = []

    def open_table(*args, **kwargs) -> LiveTable:
        opened.append(make(*args, **kwargs))
        return opened[-1]

    try:
        yield open_table
    finally:
        for table in opened:
            table.close()
