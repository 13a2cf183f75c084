"""Pig, the dice game, written from docs/ADDING_A_GAME.md alone: the proof that a game is its rules
on the kernel, (optionally) a screen module and one registry line (here COMPANION_GAME_MODULES,
since it lives in the tests).

Seats take turns. On its turn a seat rolls the die as often as it likes: each roll adds to the
turn's total, and a 1 loses the turn's total and ends the turn. Holding banks the turn's total.
The first seat to bank ``target`` points wins. A seat that leaves for good is out; the last one
left wins.
"""

from __future__ import annotations

from companion.games.base import N_, Draw, DrawKind, Game, IllegalAction, Option, declare_draws, register
from companion.games.kernel import Move, Phase, Rules

PIG_OUT = 1  # the face that loses the turn's total
declare_draws("pig", pig_die=DrawKind(("seat",), N_("the die of %(seat)s")))


def setup(options: dict, seats: list[dict], rng) -> dict:
    order = [seat["id"] for seat in seats]
    return {"phase": "playing", "outcome": None, "order": order, "out": [], "turn": 0, "running": 0,
            "banked": {str(seat): 0 for seat in order}, "names": {str(s["id"]): s["name"] for s in seats},
            "target": options["target"], "last_roll": None}


def current(state: dict) -> int:
    return state["order"][state["turn"] % len(state["order"])]


def next_seat(state: dict) -> None:
    state["turn"] = (state["turn"] + 1) % len(state["order"])
    state["running"] = 0


def check_hold(state: dict, seat: int, action: dict) -> None:
    if state["running"] == 0:
        raise IllegalAction(N_("Roll at least once before holding."))


def roll(state: dict, seat: int, action: dict, rng) -> list[dict]:
    value = rng.randint(1, 6, Draw("pig_die", seat=seat))
    state["last_roll"] = {"seat": seat, "value": value}
    if value == PIG_OUT:
        next_seat(state)
        return [{"type": "pigged", "seat": seat}]
    state["running"] += value
    return [{"type": "rolled", "seat": seat, "value": value}]


def hold(state: dict, seat: int, action: dict, rng) -> list[dict]:
    banked = state["running"]
    state["banked"][str(seat)] += banked
    next_seat(state)
    return [{"type": "held", "seat": seat, "points": banked}]


def leave(state: dict, seat: int, action: dict, rng) -> list[dict]:
    if seat not in state["order"]:
        return []
    playing = current(state)
    state["order"].remove(seat)
    state["out"].append(seat)
    if state["order"]:
        state["turn"] = state["order"].index(playing) if playing in state["order"] else state["turn"] % len(state["order"])
        if playing == seat:
            state["running"] = 0
    return [{"type": "left", "seat": seat}]


def decide(state: dict) -> dict | None:
    winners = [int(seat) for seat, points in state["banked"].items() if points >= state["target"]]
    if not winners and len(state["order"]) == 1 and state["out"]:
        winners = list(state["order"])
    if not winners:
        return None
    others = [seat for seat in state["order"] + state["out"] if seat not in winners]
    return {"winners": winners, "reason": N_("the first to bank the target"), "ranking": [winners, others]}


def render(state: dict, seat) -> dict:
    # Nothing in Pig is secret.
    return {key: state[key] for key in ("order", "out", "running", "banked", "target", "last_roll")}


RULES = Rules(
    moves={"roll": Move(run=roll), "hold": Move(run=hold, check=check_hold)},
    phases={"playing": Phase(moves=("roll", "hold"), label=N_("playing"), actors=lambda state: [current(state)])},
    render=render,
    decide=decide,
    leave=Move(run=leave),
)

GAME = register(Game(
    id="pig", title="Pig", min_seats=2, max_seats=6,
    options=(Option("target", "Points to win", "int", 20, minimum=10, maximum=100),),
    setup=setup, uses_figures=False,
    # Each roll has a chance in six to end the turn, so a walk of random legal actions ends long before this.
    longest_game=lambda options, seats: 5000,
    **RULES.hooks(),
))
