"""Rayman's checks of a table's log: every event that comes from a draw matches the draw, every revealed
choice opens the commitment published at its lock, and a change to any such event is reported with
the entry's number."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.rayman import GAME, HOST, legal_actions
from companion.games.rayman.audit import audit
from tests.test_rayman import seats

ORDER = ("character", "pick", "initiative", "answer", "roll", "reveal", "lock", "end_turn", "free_move", "no_hit")


def logged_game(options: dict, players: int, rounds: int = 3) -> list[dict]:
    """A game played by bots, written as the table writes its log: each action's draws, then its events."""
    rng = TableRng(seed="c4" * 32, pool=EMPTY_POOL, next_n=0)
    state = GAME.setup(GAME.normalize_options(options), seats(players), rng)
    entries: list[dict] = []
    while state["outcome"] is None and (state["round"] is None or state["round"]["number"] <= rounds):
        seat, action = next_action(state)
        rng.draws.clear()
        state, events = GAME.apply(state, seat, action, rng)
        entries += [{"kind": "draw", **draw} for draw in rng.draws]
        entries += [{"kind": "event", "seat": seat, "event": event} for event in events]
    return [{"i": number, **entry} for number, entry in enumerate(entries)]


def next_action(state: dict) -> tuple:
    waited = [wait["seat"] for wait in GAME.waiting(state)]
    everyone = waited + [p["seat"] for p in state["players"] if p["seat"] not in waited] + [HOST]
    offers = [(seat, action) for seat in everyone for action in legal_actions(state, seat)]
    return next((offer for kind in ORDER for offer in offers if offer[1]["type"] == kind))


@pytest.fixture(scope="module")
def intermediate():
    return logged_game({"difficulty": "intermediate"}, 3)


@pytest.fixture(scope="module")
def coop():
    return logged_game({"mode": "coop", "boss_move": 5}, 2)


def first(entries: list[dict], kind: str) -> dict:
    return next(entry for entry in entries if entry["kind"] == "event" and entry["event"]["type"] == kind)


def test_an_honest_log_checks_out(intermediate, coop):
    for entries in (intermediate, coop):
        kinds = {entry["event"]["type"] for entry in entries if entry["kind"] == "event"}
        assert {"revealed", "locked"} <= kinds
        assert audit(entries) == []
    assert any(entry["event"]["type"] == "projectile_roll" for entry in intermediate if entry["kind"] == "event")
    assert any(entry["event"]["type"] == "boss_roll" for entry in coop if entry["kind"] == "event")


@pytest.mark.parametrize("kind, field, value, complaint", [
    ("projectile_roll", "die", 7, "the projectile die says 7"),
    ("projectile_roll", "level", 0, "the projectile level 0 does not follow"),
    ("draft_revealed", "cards", [99, 98, 97, 96, 95], "the extra cards on the table are"),
])
def test_a_changed_random_event_is_reported_with_its_entry(intermediate, kind, field, value, complaint):
    entries = copy.deepcopy(intermediate)
    changed = first(entries, kind)
    changed["event"][field] = value
    assert any(problem.startswith(f"entry {changed['i']}: {complaint}") for problem in audit(entries))


@pytest.mark.parametrize("kind, field, value, complaint", [
    ("boss_roll", "die", 0, "the Boss die says 0"),
    ("boss_card", "card", 4, "the Boss's attack card is n°4"),
])
def test_a_changed_boss_event_is_reported_with_its_entry(coop, kind, field, value, complaint):
    entries = copy.deepcopy(coop)
    changed = first(entries, kind)
    changed["event"][field] = value
    assert any(problem.startswith(f"entry {changed['i']}: {complaint}") for problem in audit(entries))


def test_a_changed_revealed_choice_is_reported(intermediate):
    entries = copy.deepcopy(intermediate)
    revealed = first(entries, "revealed")
    entry = revealed["event"]["choices"][0]
    entry["choice"] = {**entry["choice"], "bubble": not entry["choice"]["bubble"]}
    assert f"entry {revealed['i']}: seat {entry['seat']}'s revealed choice does not open its commitment" in \
        audit(entries)


def test_a_commitment_swapped_after_the_lock_is_reported(intermediate):
    entries = copy.deepcopy(intermediate)
    locked = first(entries, "locked")
    locked["event"]["commitment"] = "0" * 64
    revealed = first(entries, "revealed")
    assert f"entry {revealed['i']}: seat {locked['event']['seat']}'s commitment is not the one published when " \
           "it locked in" in audit(entries)


def test_an_event_whose_draw_was_removed_is_reported(intermediate):
    entries = copy.deepcopy(intermediate)
    roll = first(entries, "projectile_roll")
    without_draw = [entry for entry in entries if not (entry["kind"] == "draw"
                                                       and entry["purpose"]["kind"] == "projectile_level")]
    assert f"entry {roll['i']}: a projectile die: no draw was made for it" in audit(without_draw)
