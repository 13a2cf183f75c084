"""Every game and configuration of the random-play harness, played at random through the table layer
(companion/tables.py: the store, the phones' rounds of random values, the table's own draws and deadlines),
replays from the table's log to the state the table ended in (companion.replay via companion.verify).

tests/test_replay.py replays the harness's own walks, written as the table writes its log; here the table
writes it: whatever the live path keeps that the log does not (a time, an order, a draw, a shared list)
shows as a replay that ends elsewhere."""

from __future__ import annotations

import random
import secrets

import pytest

from companion import fairness
from companion.errors import TableError
from companion.games import REGISTRY
from companion.games.base import HOST
from companion.tables import RateLimiter
from companion.verify import verify_log
from tests.random_play import CONFIGS, START_TIME, Config, pick

STEPS = 40  # the harness's own walks replay 60 steps (tests/test_replay.py): here the table's part


class Phone:
    """A seat's phone as static/js/phone.js plays it: joins with the anchor of its hash chain, answers the
    rounds it is asked in, and shows its next chain value to an action that draws (the table asks again)."""

    def __init__(self, tables, code: str, name: str):
        self.tables, self.code = tables, code
        self.chain = fairness.chain(secrets.token_hex(32), 64)
        joined = tables.join(code, name, commitment=self.chain[0])
        self.seat, self.token = joined["seat"], joined["token"]
        self.shown = 0  # the last chain value the server saw, spent or not (a refused action's is skipped)

    def entropy(self) -> dict:
        """What every screen sees of the table's random values (its view's ``entropy``)."""
        with self.tables.store.reading() as tx:
            table = tx.table(self.code)
        return fairness.Entropy(table["entropy"], table["pool"]).public()

    def next_value(self) -> str:
        held = self.entropy()["seats"][str(self.seat)]["k"]
        self.shown = max(self.shown, held) + 1
        return self.chain[self.shown]

    def act(self, action: dict) -> None:
        try:
            self.tables.act(self.code, self.token, action)
        except TableError as error:
            if error.status != 428:  # "this action draws": sent again with the phone's next value
                raise
            self.tables.act(self.code, self.token, {**action, "reveal": self.next_value()})

    def answer_round(self) -> bool:
        current = self.entropy()["round"]
        if current is None or self.seat not in current["asked"] or self.seat in current["revealed"]:
            return False
        self.tables.act(self.code, self.token, {"type": "entropy.reveal", "value": self.next_value()})
        return True


class TableWalk:
    """A table of ``config`` in the lobby, its seats' phones joined and their figures picked, then started;
    the table's clock moves on by the configuration's seconds per step (a countdown ends, a deadline passes)."""

    def __init__(self, tables, game_id: str, config: Config):
        self.tables, self.game, self.config = tables, REGISTRY[game_id], config
        self.now = START_TIME
        tables.clock = lambda: self.now
        tables.limiter = RateLimiter(10 ** 9, 10 ** 9)  # a walk acts faster than a person: not a flood
        created = tables.create(game_id, config.options)
        self.code, self.host_token = created["code"], created["host_token"]
        planned = config.make_seats(config.seats)
        self.phones = {}
        for seat in planned:
            phone = Phone(tables, self.code, seat["name"])
            self.phones[phone.seat] = phone
            for figure in seat["figures"]:
                phone.act({"type": "figure.pick", "amiibo_id": figure["amiibo_id"]})
        self.answer_rounds()  # a phone that joins adds its value to the pool
        if not self.game.starts_at_once:
            self.tables.act(self.code, self.host_token, {"type": "table.start"})
        self.answer_rounds()

    def table(self) -> dict:
        with self.tables.store.reading() as tx:
            return tx.table(self.code)

    def answer_rounds(self) -> None:
        """Every phone answers until no round asks any (a round's draw may open another)."""
        for _ in range(10):
            if not any([phone.answer_round() for phone in self.phones.values()]):
                return
        raise AssertionError("the rounds never ended")

    def listed(self, state: dict) -> list[tuple]:
        """What the rules list for the host screen and each seat; a decision the host takes for an away
        seat (``proxied``) goes through the host's night actions, not the seat's phone."""
        return [(actor, action) for actor in [HOST, *self.phones] for action in self.game.legal_actions(state, actor)
                if action.get("proxied") is not True]

    def play(self, steps: int, picker: random.Random) -> int:
        """Random legal actions until the game ends or ``steps`` were taken; the steps taken."""
        for step in range(steps):
            table = self.table()
            listed = self.listed(table["state"]) if table["status"] == "playing" else []
            if not listed:
                return step
            seat, action = pick(listed, picker, self.config.prefer, self.config.prefer_odds)
            self.now += self.config.seconds_per_step
            if seat == HOST:
                self.tables.act(self.code, self.host_token, action)
            else:
                self.phones[seat].act(action)
            self.answer_rounds()
        return steps

    def closed_log(self) -> dict:
        if self.table()["status"] != "closed":
            self.tables.act(self.code, self.host_token, {"type": "table.close"})
        return self.tables.public_log(self.code)


WALKS = [(game_id, config) for game_id, configs in sorted(CONFIGS.items()) for config in configs]


@pytest.mark.parametrize("game_id, config", WALKS, ids=[f"{game_id}-{config.name}" for game_id, config in WALKS])
def test_a_random_game_at_a_table_replays_from_the_table_log_to_its_final_state(tables, game_id, config):
    walk = TableWalk(tables, game_id, config)
    taken = walk.play(STEPS, random.Random(f"{game_id}-{config.name}"))
    assert taken > 0, "the walk made no step"
    report = verify_log(walk.closed_log())
    assert report.ok and report.replay == [], (taken, report.message, (report.problems + report.replay)[:3])
    assert any(note.startswith("the game was replayed from its") for note in report.notes), report.notes
