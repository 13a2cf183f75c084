"""Amiiboxe under random legal play: the invariants hold, apply agrees with legal_actions, every game ends."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.amiiboxe import GAME, HOST, legal_actions
from companion.games.base import IllegalAction
from tests.test_amiiboxe import ANA, BEN, CLO, DAN, context, rng, seats

GAMES = st.fixed_dictionaries({
    "players": st.sampled_from([(ANA, BEN), (ANA, BEN, CLO), (ANA, BEN, CLO, DAN)]),
    "per_player": st.just(3),  # the book's minimum; the roster has 3 figures a player
    "board": st.sampled_from(["free", "kept"]),
    "pro": st.sampled_from(["off", "on"]),
    "reference": st.sampled_from([["book"], ["villains"], ["random"]]),
    "seed": st.integers(0, 10 ** 6),
    "nameless": st.sets(st.integers(1, 12), max_size=3),  # figures whose home location is asked
    "unknown": st.sets(st.integers(1, 12), max_size=4),  # figures whose facts are unknown
})


def new_game(game):
    players = seats(*game["players"], per_player=game["per_player"])
    for seat in players:
        for figure in seat["figures"]:
            if figure["id"] in game["nameless"]:
                figure["location"] = None
            if figure["id"] in game["unknown"]:
                figure["values"] = {}
    chosen = GAME.normalize_options({"figures_per_player": game["per_player"], "board": game["board"],
                                     "pro": game["pro"], "reference": game["reference"]})
    generator = rng(game["seed"])
    return GAME.setup({**chosen, "context": context()}, players, generator), generator


def pick(data, items, label):
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


def pick_by_type(data, actions):
    """A type first, then an action of that type: the many board placements do not drown the rest."""
    kinds = sorted({action["type"] for action in actions})
    kind = pick(data, kinds, "type")
    return pick(data, [action for action in actions if action["type"] == kind], "action")


def apply_checked(state, seat, action, generator):
    snapshot = copy.deepcopy(state)
    after, events = GAME.apply(state, seat, action, generator)
    assert state == snapshot  # apply never mutates its input
    check_step(state, after, events)
    return after


def set_up(state, data, generator):
    """The host's setup: an order, the first player, names, the starting placements, then begin."""
    state = apply_checked(state, HOST, pick(data, [a for a in legal_actions(state, HOST)
                                                   if a["type"] == "seat_order"], "order"), generator)
    state = apply_checked(state, HOST, {"type": "first_player", "player": pick(data, state["order"], "first")},
                          generator)
    for figure in state["figures"]:
        if figure["location"] is None:
            naming = {"type": "name_location", "figure": figure["id"], "name": pick(data, state["cards"], "home")}
            state = apply_checked(state, figure["seat"], naming, generator)
    while "begin" not in {action["type"] for action in legal_actions(state, HOST)}:
        placements = [a for a in legal_actions(state, HOST) if a["type"] == "place"
                      and figure_of(state, a["figure"])["at"] is None]
        state = apply_checked(state, HOST, pick(data, placements, "placement"), generator)
    return apply_checked(state, HOST, {"type": "begin"}, generator)


def figure_of(state, figure_id):
    return next(f for f in state["figures"] if f["id"] == figure_id)


def random_step(state, data, generator):
    """Somebody who may act does something legal; the host's board operations now and then."""
    players = [seat for seat in state["order"] if legal_actions(state, seat)]
    host = legal_actions(state, HOST) if not players or data.draw(st.integers(0, 7), label="host?") == 0 else []
    if host:
        return apply_checked(state, HOST, pick_by_type(data, host), generator)
    seat = pick(data, players, "seat")
    return apply_checked(state, seat, pick_by_type(data, legal_actions(state, seat)), generator)


def closing_step(state, generator):
    """A player who wants the game over: answers that decide, retire when possible, else attack
    (with the host bringing a figure next to an enemy on a kept board)."""
    if state["fight"]:
        seat = GAME.waiting(state)[0]["seat"]
        fight = state["fight"]
        if fight["exchange"] in ("judge", "vote"):
            action = {"type": "judge", "winner": fight["attacker"]}  # everybody agrees: decisive
        else:
            role = next(role for role, owner in fight["seats"].items() if owner == seat)
            high = state["criteria"][fight["criterion"]]["direction"] == "max"
            action = {"type": "enter_value", "value": int((role == "attacker") == high)}
        return apply_checked(state, seat, action, generator)
    seat, actions = state["active"], legal_actions(state, state["active"])
    preferred = ([a for a in actions if a["type"] == "retire"] or [a for a in actions if a["type"] == "name_card"]
                 or [a for a in actions if a["type"] == "end_turn"] or [a for a in actions if a["type"] == "attack"])
    if preferred:
        return apply_checked(state, seat, preferred[0], generator)
    return apply_checked(state, HOST, next_to_an_enemy(state, seat), generator)


def next_to_an_enemy(state, seat):
    """The host moves one of the seat's figures beside an enemy (a card's effect, as far as the rules know)."""
    mine = next(f for f in in_play(state) if f["seat"] == seat)
    taken = [f["at"] for f in in_play(state)]
    for enemy in in_play(state):
        if enemy["seat"] != seat:
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                cell = [enemy["at"][0] + dr, enemy["at"][1] + dc]
                if all(0 <= k < state["size"] for k in cell) and cell not in taken:
                    return {"type": "place", "figure": mine["id"], "cell": cell}
    raise AssertionError("no free place beside any enemy")


# --- invariants -------------------------------------------------------------------

def in_play(state):
    return [f for f in state["figures"] if f["status"] == "in_play"]


def check_step(before, after, events):
    check_state(after)
    assert len(in_play(after)) <= len(in_play(before))  # nobody comes back to the board
    retired = [event for event in events if event["type"] == "retired"]
    for seat_before, seat_after in zip(before["seats"], after["seats"]):
        gained = sum(event["points"] for event in retired if event["seat"] == seat_after["id"])
        assert seat_after["points"] - seat_before["points"] == gained  # points only from retires
    for event in events:
        if event["type"] == "answered":
            assert set(event) == {"type", "seat"}  # never the sealed answer itself
        if event["type"] == "retired":
            assert event["points"] == 1 + len(event["carried"])
    json.dumps(events)


def check_state(state):
    assert json.loads(json.dumps(state)) == state
    carriers: dict[int, int] = {}
    for figure in state["figures"]:
        for carried in figure["carries"]:
            assert carried not in carriers  # carried by one figure at most
            carriers[carried] = figure["id"]
    for figure in state["figures"]:
        places = [figure["status"] == "in_play", figure["id"] in carriers,
                  figure["status"] in ("retired", "out")]
        assert places.count(True) == 1  # a figure is never in two places
        if figure["id"] in carriers:
            assert figure["status"] == "captured" and figure["captured_by"] == carriers[figure["id"]]
            assert figure["carries"] == []
        if figure["status"] != "in_play":
            assert figure["at"] is None
    if state["board"] is not None and state["phase"] != "setup":
        cells = [tuple(f["at"]) for f in in_play(state)]
        assert None not in cells and len(cells) == len(set(cells))
        assert all(0 <= k < state["size"] for cell in cells for k in cell)
    for seat in state["seats"]:
        assert seat["points"] == sum(r["points"] for r in state["retires"] if r["seat"] == seat["id"])
    if state["phase"] == "over":
        assert not in_play(state) and state["winners"] and state["fight"] is None
    for seat in [None] + state["order"]:
        shown = GAME.view(state, seat)
        assert "house" not in shown and "secret" not in shown
        assert not shown["fight"] or "answers" not in shown["fight"]
        if state["pro"]:
            assert all(f["values"] == {} for f in shown["figures"])
        json.dumps(shown)


@settings(max_examples=20, deadline=None)
@given(game=GAMES, steps=st.integers(0, 60), data=st.data())
def test_random_legal_play_keeps_the_invariants_and_always_ends(game, steps, data):
    state, generator = new_game(game)
    state = set_up(state, data, generator)
    for _ in range(steps):
        if state["phase"] == "over":
            break
        state = random_step(state, data, generator)
    figures = len(state["figures"])
    for _ in range(60 * figures):  # every decisive fight or retire takes a figure off the board
        if state["phase"] == "over":
            break
        state = closing_step(state, generator)
    assert state["phase"] == "over"
    assert sum(seat["points"] for seat in state["seats"]) == sum(r["points"] for r in state["retires"])
    best = max(seat["points"] for seat in state["seats"])
    assert state["winners"] == [seat["id"] for seat in state["seats"] if seat["points"] == best]


# --- apply agrees with legal_actions -------------------------------------------------------

def probes(state, data):
    """Actions worth trying now, legal or not (free-text names and custom references aside)."""
    size, figures = state["size"], [f["id"] for f in state["figures"]]
    cell = [data.draw(st.integers(-1, size), label="row"), data.draw(st.integers(-1, size), label="column")]
    one, two = pick(data, figures, "one"), pick(data, figures, "two")
    move = {"type": "move", "figure": one, **({"cell": cell} if state["board"] is not None else {})}
    at = figure_of(state, one)["at"]
    if at is not None and data.draw(st.booleans(), label="near?"):  # next to the figure: the likely moves
        step = pick(data, [(-1, 0), (1, 0), (0, -1), (0, 1)], "step")
        cell = [at[0] + step[0], at[1] + step[1]]
        move["cell"] = cell
    attack = {"type": "attack", "attacker": one, "defender": two}
    return [move, attack, {**attack, "ranged": True}, {**attack, "card": "Enfers"},
            {"type": "move", "figure": one, "swap_with": two, "cell": cell},
            {"type": "swap_cards", "first": [0, 0], "second": cell}, {"type": "swap_figures", "figure": one,
                                                                       "target": two},
            {"type": "retire", "figure": one}, {"type": "end_turn"}, {"type": "judge", "winner": one},
            {"type": "enter_value", "value": data.draw(st.integers(0, 6), label="value")},
            {"type": "begin"}, {"type": "first_player", "player": pick(data, state["order"], "seat")},
            {"type": "seat_order", "seats": list(reversed(state["order"]))},
            {"type": "place", "figure": one, "cell": cell}, {"type": "push", "figure": one, "target": two},
            {"type": "shift", "kind": pick(data, ["line", "column"], "kind"), "index": cell[0],
             "direction": pick(data, ["left", "right", "forward", "back"], "direction")},
            {"type": "name_card", "cell": cell, "name": pick(data, state["cards"], "name")},
            {"type": "set_reference", "reference": pick(data, ["book", "villains", "random", "nowhere"], "ref")}]


# The generic board operations have free places (a card the companion does not know may ask any):
# they are not listed, so only "listed means accepted" holds for them.
OPERATIONS = {"push", "shift", "swap_cards", "swap_figures", "name_card", "place"}


def check_probes(state, data):
    for actor in [HOST] + state["order"]:
        listed = legal_actions(state, actor)
        for probe in probes(state, data):
            if probe["type"] in OPERATIONS and state["phase"] == "play" and probe not in listed:
                continue
            if probe in listed:
                GAME.apply(state, actor, probe, rng(7000))
            else:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, actor, probe, rng(7000))
                    print("accepted but not listed:", actor, probe)


@settings(max_examples=12, deadline=None)
@given(game=GAMES, steps=st.integers(0, 40), data=st.data())
def test_apply_accepts_exactly_the_listed_actions(game, steps, data):
    state, generator = new_game(game)
    check_probes(state, data)
    state = set_up(state, data, generator)
    for _ in range(steps):
        if state["phase"] == "over":
            break
        check_probes(state, data)
        state = random_step(state, data, generator)
    check_probes(state, data)
