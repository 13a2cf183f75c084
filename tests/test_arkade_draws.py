"""Arkade's events against the draws they come from (the verifier's check for Arkade): a random
game checks out, with its secret tile draws sealed or revealed; a changed face, a forged throw,
a removed event or a tile turned out of turn is caught."""

from __future__ import annotations

import copy
import random

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.arkade import GAME
from companion.games.arkade.draws import DrawCheck
from tests.random_play import CONFIGS, choices, pick

SEATS = [{"id": 1, "name": "Zoé", "figures": []}, {"id": 2, "name": "Max", "figures": []}]


def logged_game(options: dict, picks: int, steps: int = 300) -> tuple[dict, list[list[dict]]]:
    """A random game as the log keeps it: per action, its draws then its events, numbered."""
    options = GAME.normalize_options(options)
    rng = TableRng(seed="7e" * 32, pool=EMPTY_POOL, next_n=0)
    state = GAME.setup(options, SEATS, rng)
    number = 0

    def entries_of(draws: list[dict], events: list[dict]) -> list[dict]:
        nonlocal number
        out = []
        for entry in [{"kind": "draw", **draw} for draw in draws] + [{"kind": "event", "event": e} for e in events]:
            out.append({**entry, "i": number})
            number += 1
        return out

    actions = [entries_of(list(rng.draws), [])]
    picker, walk_clock = random.Random(picks), 1000.0

    class Walk:  # what tests.random_play.choices reads
        game, seats = GAME, SEATS

    walk = Walk()
    for _ in range(steps):
        walk.state = state
        if GAME.outcome(state) is not None:
            break
        seat, action = pick(choices(walk), picker)
        before = len(rng.draws)
        walk_clock += 1
        state, events = GAME.apply(state, seat, {**action, "at": walk_clock}, rng)
        actions.append(entries_of(rng.draws[before:], events))
    return options, actions


def problems_of(options: dict, actions: list[list[dict]], sealed: bool = False) -> list:
    check, found = DrawCheck(), []
    for entries in actions:
        draws = [e for e in entries if e["kind"] == "draw"]
        if sealed:
            draws = [{**d, "result": None} if d.get("secret") else d for d in draws]
        found += check.step(options, draws, [e for e in entries if e["kind"] == "event"])
    return found


@pytest.mark.parametrize("config", CONFIGS["arkade"], ids=lambda config: config.name)
@pytest.mark.parametrize("picks", range(3))
def test_a_random_game_checks_out_sealed_or_revealed(config, picks):
    options, actions = logged_game(config.options, picks)
    assert problems_of(options, actions) == []
    assert problems_of(options, actions, sealed=True) == []


def game_with(kind: str, options=None) -> tuple[dict, list[list[dict]]]:
    """A game whose log has an event of that kind (the first picks that give one)."""
    for picks in range(40):
        found = logged_game(options or {"alien": "first", "power_tiles": "on"}, picks)
        if any(e.get("event", {}).get("type") == kind for entries in found[1] for e in entries):
            return found
    raise AssertionError(f"no {kind} in 40 games")


def first(actions, kind):
    return next(e for entries in actions for e in entries if e.get("event", {}).get("type") == kind)


def test_a_changed_face_is_caught():
    options, actions = game_with("thrown")
    thrown = first(actions, "thrown")
    thrown["event"]["faces"][thrown["event"]["dice"][0]] = "changed"
    assert any("but the draw gives" in text for _, text in problems_of(options, actions))


def test_a_removed_throw_and_a_forged_one_are_caught():
    options, actions = game_with("thrown")
    forged = copy.deepcopy(actions)
    for entries in actions:
        entries[:] = [e for e in entries if e.get("event", {}).get("type") != "thrown"]
    assert any("was removed" in text for _, text in problems_of(options, actions))
    extra = {"kind": "event", "i": 10 ** 6, "event": copy.deepcopy(first(forged, "thrown")["event"])}
    forged[0].append(extra)  # a throw at setup, with no draw of its own
    assert any("forged" in text for _, text in problems_of(options, forged))


@pytest.mark.parametrize("kind", ["alien_tile", "defender_tile"])
def test_a_tile_other_than_the_drawn_one_is_caught(kind):
    options, actions = game_with(kind)
    event = first(actions, kind)["event"]
    event["tile"] = event["tile"] + 1 if event["tile"] % 2 == 0 else event["tile"] - 1
    assert any("the draw picks" in text for _, text in problems_of(options, actions))


def test_a_tile_kind_other_than_the_revealed_draw_is_caught():
    options, actions = game_with("alien_tile")
    event = first(actions, "alien_tile")["event"]
    event["kind"] = "reactor" if event["kind"] != "reactor" else "rift"
    assert any("Alien tile" in text and "not" in text for _, text in problems_of(options, actions))
    assert problems_of(options, actions, sealed=True) == []  # sealed, the kind cannot be checked yet
