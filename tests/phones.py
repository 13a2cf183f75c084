"""An honest phone for the fairness tests, over the real HTTP API: what static/js/phone.js does.

It joins with the anchor of its own hash chain, answers the rounds it is asked
in, sends its next chain value with each action, and keeps its own record of the
table (the commitment it was shown, its secret, the values it revealed, the
rolls it displayed) in the shape the verifiers read."""

from __future__ import annotations

import secrets

import requests

from companion import fairness
from companion.verify import RECORD_FORMAT
from tests.helpers import bearer

CHAIN = 64  # enough for any test; the real phone's chain is fairness.CHAIN_LENGTH long
TIMEOUT = 20


class ChainPhone:
    def __init__(self, url: str, code: str, name: str, secret: str | None = None, handoff: str | None = None):
        """Joins as ``name``; or, given the host's one-time ``handoff`` code, takes that seat with this chain."""
        self.url, self.code = url, code
        self.secret = secret or secrets.token_hex(32)
        self.chain = fairness.chain(self.secret, CHAIN)
        self.k = 0  # the last chain value the server holds
        shown = requests.get(f"{url}/api/tables/{code}", timeout=TIMEOUT).json()["table"]["commitment"]
        if handoff is not None:
            joined = requests.post(f"{url}/api/tables/{code}/handoff",
                                   json={"handoff": handoff, "commitment": self.chain[0]}, timeout=TIMEOUT)
        else:
            joined = requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "commitment": self.chain[0]},
                                   timeout=TIMEOUT)
        assert joined.status_code == 201, joined.text
        self.seat, self.token = joined.json()["seat"], joined.json()["token"]
        self.record = {"format": RECORD_FORMAT, "code": code, "seat": self.seat, "commitment": shown,
                       "secret": self.secret, "anchor": self.chain[0], "length": CHAIN, "revealed": [], "shown": []}

    def view(self) -> dict:
        return requests.get(f"{self.url}/api/tables/{self.code}", headers=bearer(self.token), timeout=TIMEOUT).json()

    def post(self, action: dict) -> requests.Response:
        return requests.post(f"{self.url}/api/tables/{self.code}/actions", json=action, headers=bearer(self.token),
                             timeout=TIMEOUT)

    def asked(self) -> bool:
        current = self.view()["table"]["entropy"]["round"]
        return current is not None and self.seat in current["asked"] and self.seat not in current["revealed"]

    def answer_round(self) -> None:
        """Reveals the next chain value if the open round asks this phone (the phone's script does it by itself)."""
        if self.asked():
            answer = self.post({"type": "entropy.reveal", "value": self.chain[self.k + 1]})
            assert answer.status_code == 200, answer.text
            self._sync()

    def roll(self) -> requests.Response:
        answer = self.post({"type": "roll", "reveal": self.chain[self.k + 1]})
        if answer.status_code == 200:
            self._sync()
            game = self.view()["table"]["commitment"]
            for event in answer.json()["events"]:
                if event["type"] == "rolled":
                    shown = {key: event[key] for key in ("type", "number", "seat", "values")}
                    self.record["shown"].append({**shown, "game": game})
        return answer

    def _sync(self) -> None:
        """The server spent the values up to its count for this seat: the phone notes each one it sent."""
        table = self.view()["table"]
        held = table["entropy"]["seats"][str(self.seat)]["k"]
        assert self.k <= held <= self.k + fairness.MAX_SKIP, "the server claims values this phone never sent"
        assert held == 0 or self.chain[held] == table["entropy"]["seats"][str(self.seat)]["head"]
        # Each value spent is noted with the game it went to (a table plays several, each with its own log).
        if held > self.k:
            self.record["revealed"].append({"k": held, "game": table["commitment"]})
        if table["commitment"] not in [self.record["commitment"], *self.record.get("commitments", [])]:
            self.record.setdefault("commitments", []).append(table["commitment"])
        self.k = held


def answer_rounds(*phones: ChainPhone) -> None:
    """Every phone answers until no round asks any of them (a round may open another)."""
    for _ in range(10):
        waiting = [phone for phone in phones if phone.asked()]
        if not waiting:
            return
        for phone in waiting:
            phone.answer_round()
    raise AssertionError("the rounds never ended")
