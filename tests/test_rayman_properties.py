"""Rayman's pure rules under random legal play (hypothesis): the invariants the issue asks for."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.rayman import GAME, HOST, LAST_COLUMN, LEVELS, MAX_BONUS, PROJECTILE_END, commitment, \
    legal_actions, view
from tests.test_rayman import players as players_of
from tests.test_rayman import rng, seats

# (options, players): every mode, hand entry and most modifiers get played.
CONFIGURATIONS = [
    ({}, 2),
    ({"difficulty": "intermediate"}, 3),
    ({"difficulty": "hero", "unlimited_slaps": "on"}, 4),
    ({"difficulty": "legend", "limited_legendary": "on", "projectile_speed": 9}, 2),
    ({"difficulty": "intermediate", "hand_entry": "quick", "players_5_6": "on"}, 5),
    ({"mode": "coop", "boss_move": 5}, 2),
    ({"mode": "coop", "difficulty": "legend", "projectile": "missile", "extra_cards": "on", "boss_move": 7}, 3),
    ({"mode": "coop", "harsh_coop": "on", "hand_entry": "quick"}, 2),
    ({"mode": "solo", "extra_cards": "on", "boss_move": 4}, 1),
    ({"difficulty": "custom", "boss": "seabreather", "boss_move": 6, "captive_ptizetres": 3, "damage_push": 3}, 3),
    ({"tournament": "on", "difficulty": "intermediate", "card_exchange": "on"}, 2),
]
PROGRESS = ("end_turn", "lock", "reveal", "roll", "free_move", "no_hit", "answer", "next_race", "distance", "pick", "initiative",
            "character", "pick_legendary", "exchange")


def pick_action(state, players, pick):
    """One legal action: a type first (so that one type with many variants does not crowd the others)."""
    offers = [(seat, action) for seat in [p["seat"] for p in players] + [HOST]
              for action in legal_actions(state, seat)]
    if not offers:
        return None
    types = sorted({action["type"] for _, action in offers})
    progress = [kind for kind in types if kind in PROGRESS]
    kind = progress[pick % len(progress)] if progress and pick % 3 == 0 else types[pick % len(types)]
    chosen = [offer for offer in offers if offer[1]["type"] == kind]
    return chosen[(pick // 7) % len(chosen)]


def check_cards(state):
    for player in players_of(state):
        ids = sorted(card["id"] for card in player["cards"])
        assert sorted(player["hand"] + player["discard"] + player["played"]) == ids
        assert set(player["random_discards"]) <= set(player["discard"])
        assert player["hand_size"] == len(player["hand"]) and player["discard_size"] == len(player["discard"])
    extras = [card["extra"] for p in players_of(state) for card in p["cards"] if card["extra"]]
    assert len(extras) == len(set(extras))  # an extra card belongs to one player at most


def check_tokens(state):
    captives = state["config"]["captives"]
    for player in state["players"]:
        assert isinstance(player["heart"], bool)
        assert 0 <= player["bonus"] <= MAX_BONUS
        assert player["bonus_pending"] is False or player["bonus"] == MAX_BONUS
        assert len(player["ptizetres"]) == len(set(player["ptizetres"]))
        assert all(1 <= number <= captives for number in player["ptizetres"])
        position = player["position"]
        if position is not None:
            assert 1 <= position["level"] <= LEVELS and position["column"] >= 0
            assert (position["column"] > LAST_COLUMN) == player["crossed"]  # past the line means finished


def check_projectiles(state, removed):
    ids = [projectile["id"] for projectile in state["projectiles"]]
    assert len(ids) == len(set(ids)) and not set(ids) & removed
    for projectile in state["projectiles"]:
        assert PROJECTILE_END[projectile["origin"]] <= projectile["column"] <= projectile["origin"]
        assert 1 <= projectile["level"] <= LEVELS
    if state["projectiles"]:
        assert max(ids) < state["next_projectile"]


def check_secrecy(state, players):
    """Nobody but the chooser sees a choice before the reveal; nothing is revealed early."""
    watchers = [p["seat"] for p in players] + [None, HOST]
    for seat in watchers:
        shown = view(state, seat)
        json.dumps(shown)
        for other in shown["players"]:
            if other["seat"] != seat or seat == HOST:
                assert other["hand"] is None and other["cards"] is None
        assert "secret" not in shown and "reveals" not in json.dumps(shown)  # held reveals: nobody's to see
    if state["phase"] == "initiatives":  # asked: only revealed cards whose initiative nobody told yet
        choices = {entry["seat"]: entry["choice"] for entry in state["round"]["revealed"]}
        assert state["round"]["asking"] and all(
            asked["card"] == choices[asked["seat"]][asked["side"]] for asked in state["round"]["asking"])
        assert state["round"]["order"] == []
    if state["phase"] in ("choosing", "revealing"):
        assert state["round"]["revealed"] == []
        assert any(not p["locked"] for p in state["players"] if not p["crossed"]) == (state["phase"] == "choosing")


def check_reveal(state, events, commitments):
    for event in events:
        if event["type"] == "locked":
            commitments[event["seat"]] = event["commitment"]
        if event["type"] != "revealed":
            continue
        choices = event["choices"]
        for entry in choices:
            assert commitment(entry["choice"], entry["salt"]) == entry["commitment"] == commitments[entry["seat"]]
        playing = {entry["seat"]: entry for entry in choices if not entry["choice"]["bubble"]}
        assert sorted(event["order"]) == sorted(playing)  # a permutation of the non-Bubble players
        keys = [(playing[seat]["left_initiative"], playing[seat]["second_initiative"]) for seat in event["order"]]
        assert keys == sorted(keys, reverse=True)  # consistent with the initiatives
        commitments.clear()


@settings(max_examples=45, deadline=None)
@given(configuration=st.sampled_from(CONFIGURATIONS), seed=st.integers(0, 10 ** 6),
       picks=st.lists(st.integers(0, 10 ** 6), min_size=40, max_size=220))
def test_random_legal_play_keeps_the_invariants(configuration, seed, picks):
    options, count = configuration
    generator = rng(seed)
    state = GAME.setup(GAME.normalize_options(options), seats(count), generator)
    players = state["players"]
    removed, commitments = set(), {}
    for pick in picks:
        chosen = pick_action(state, players, pick)
        if chosen is None:
            break
        seat, action = chosen
        snapshot = copy.deepcopy(state)
        after, events = GAME.apply(state, seat, action, generator)
        assert state == snapshot  # apply never mutates its input
        revealing = any(event["type"] == "revealed" for event in events)
        if action["type"] == "lock":  # a lock says "locked" and a hash, nothing else
            assert [event["type"] for event in events][:1] == ["locked"] and set(events[0]) == {
                "type", "seat", "commitment"}
        if revealing:  # the last phone to open its commitment (or to read a new card) makes the choices public
            assert (action["type"], state["phase"]) in (("reveal", "revealing"), ("initiative", "initiatives"))
        removed |= {event["id"] for event in events if event["type"] in ("projectile_removed", "projectile_hit")}
        check_reveal(after, events, commitments)
        state = after
        assert json.loads(json.dumps(state)) == state
        check_cards(state)
        check_tokens(state)
        check_projectiles(state, removed)
        check_secrecy(state, players)


def listed(probe: dict, legal: list[dict]) -> bool:
    """A lock's commitment is any hash the phone made: the legal list shows samples, so a lock is
    listed when any lock is; every other action must be listed as it is."""
    if probe["type"] == "lock":
        return any(action["type"] == "lock" for action in legal)
    return probe in legal


@settings(max_examples=25, deadline=None)
@given(configuration=st.sampled_from(CONFIGURATIONS), seed=st.integers(0, 10 ** 6),
       picks=st.lists(st.integers(0, 10 ** 6), max_size=120),
       probe=st.sampled_from([
           {"type": "end_turn"}, {"type": "lock", "commitment": "ab" * 32}, {"type": "roll"}, {"type": "heart"},
           {"type": "bonus"}, {"type": "repick"}, {"type": "free", "ptizetre": 1}, {"type": "crossed"},
           {"type": "free_move", "pass": True}, {"type": "answer_offer", "accept": False},
           {"type": "slap", "target": 1}, {"type": "next_race"}, {"type": "use_legendary"},
           {"type": "answer", "question": "last", "value": [1]}, {"type": "distance", "spaces": 2},
           {"type": "pick", "card": 1}, {"type": "step", "direction": "back"},
           {"type": "initiative", "seat": 1, "card": "b1", "initiative": 5}]))
def test_a_refused_action_changes_nothing(configuration, seed, picks, probe):
    """Whatever the moment, an action is accepted exactly when it is listed; a refusal leaves no trace."""
    options, count = configuration
    generator = rng(seed)
    state = GAME.setup(GAME.normalize_options(options), seats(count), generator)
    for pick in picks:
        chosen = pick_action(state, state["players"], pick)
        if chosen is None:
            break
        state, _ = GAME.apply(state, chosen[0], chosen[1], generator)
    for seat in [p["seat"] for p in state["players"]] + [HOST, 99]:
        snapshot = copy.deepcopy(state)
        try:
            GAME.apply(state, seat, probe, rng(7))
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == listed(probe, legal_actions(state, seat)), (seat, probe, state["phase"])
        assert state == snapshot
