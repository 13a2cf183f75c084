"""Tally: a small game of the table's hooks, for the tests of the table shell.

Seats take turns. On its turn a seat may *mark* a point (bookkeeping: undoable),
*roll* a die (a draw), *pass*, or *claim* a point, which the next seat must
*confirm* or refuse: a timed wait on a second phone. The first seat to reach
``target`` points wins. ``tally-auto`` refuses an unanswered claim at the
deadline (``on_timeout``); ``tally`` leaves it to the host. The server loads this
module through ``COMPANION_GAME_MODULES`` (the four shipped games get their own
hooks in their own issues).
"""

from __future__ import annotations

import copy

from companion.games.base import Draw, DrawKind, Game, IllegalAction, Option, declare_draws, register

declare_draws("tally", tally_die=DrawKind(("seat",), "the die of %(seat)s"))
TURN = "It is %(name)s's turn."
CONFIRM = "Confirm the claim of %(name)s"


def setup(options: dict, seats: list[dict], rng) -> dict:
    return {"order": [seat["id"] for seat in seats], "names": {str(s["id"]): s["name"] for s in seats},
            "turn": 0, "points": {str(s["id"]): 0 for s in seats}, "rolls": [], "claim": None,
            "target": options["target"], "out": []}


def current(state: dict) -> int:
    return state["order"][state["turn"] % len(state["order"])]


def judge_of(state: dict, seat: int) -> int:
    order = state["order"]
    return order[(order.index(seat) + 1) % len(order)]


def apply(state: dict, seat, action: dict, rng) -> tuple[dict, list[dict]]:
    state = copy.deepcopy(state)
    kind = action.get("type")
    if outcome(state) is not None:
        raise IllegalAction("The game is over.")
    if kind == "crash":  # a bug in a game's rules, for the tests of what the shell answers to one
        raise RuntimeError("a bug in the rules")
    if kind == "confirm":
        claim = state["claim"]
        if claim is None or seat != claim["judge"] or not isinstance(action.get("accept"), bool):
            raise IllegalAction("That is not possible now.")
        if action["accept"]:
            state["points"][str(claim["by"])] += 1
        state["claim"] = None
        return state, [{"type": "confirmed", "by": claim["by"], "accept": action["accept"]}]
    if state["claim"] is not None or seat != current(state):
        raise IllegalAction(TURN, name=state["names"][str(current(state))])
    if kind == "mark":
        state["points"][str(seat)] += 1
        return state, [{"type": "marked", "seat": seat}]
    if kind == "roll":
        value = rng.randint(1, 6, Draw("tally_die", seat=seat))
        state["rolls"].append(value)
        return state, [{"type": "rolled", "seat": seat, "value": value}]
    if kind == "pass":
        state["turn"] += 1
        return state, [{"type": "passed", "seat": seat}]
    if kind == "claim" and len(state["order"]) > 1:
        state["claim"] = {"by": seat, "judge": judge_of(state, seat)}
        return state, [{"type": "claimed", "seat": seat}]
    raise IllegalAction("Unknown action: %(action)s.", action=str(kind))


def view(state: dict, seat) -> dict:
    return state


def outcome(state: dict) -> dict | None:
    winners = [int(seat) for seat, points in state["points"].items() if points >= state["target"]]
    if not winners:
        return None
    return {"winners": winners, "reason": "The game is over.", "ranking": [winners]}


def waiting(state: dict) -> list[dict]:
    if outcome(state) is not None:
        return []
    claim = state["claim"]
    if claim:
        return [{"seat": claim["judge"], "for": CONFIRM, "params": {"name": state["names"][str(claim["by"])]},
                 "timed": True}]
    seat = current(state)
    return [{"seat": seat, "for": TURN, "params": {"name": state["names"][str(seat)]}, "timed": False}]


def legal_actions(state: dict, seat) -> list[dict]:
    if outcome(state) is not None:
        return []
    claim = state["claim"]
    if claim:
        return [{"type": "confirm", "accept": True}, {"type": "confirm", "accept": False}] \
            if seat == claim["judge"] else []
    if seat != current(state):
        return []
    return [{"type": kind} for kind in ("mark", "roll", "pass", "claim")]


def withdraw(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    state = copy.deepcopy(state)
    if seat not in state["order"] or len(state["order"]) < 2:
        return state, []
    playing = current(state)
    if state["claim"] and seat in (state["claim"]["by"], state["claim"]["judge"]):
        state["claim"] = None
    state["order"].remove(seat)
    state["out"].append(seat)
    following = playing if playing != seat else None
    state["turn"] = state["order"].index(following) if following in state["order"] else state["turn"] % len(
        state["order"])
    return state, [{"type": "out", "seat": seat}]


def refuse_at_timeout(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    return apply(state, seat, {"type": "confirm", "accept": False}, rng)


def make(game_id: str, on_timeout) -> Game:
    return register(Game(
        id=game_id, title="Tally", min_seats=1, max_seats=6,
        options=(Option("target", "Target", "int", 3, minimum=1, maximum=20),),
        setup=setup, apply=apply, view=view, uses_figures=False,
        outcome=outcome, legal_actions=legal_actions, waiting=waiting,
        proxy_actions=frozenset({"confirm", "pass"}), withdraw=withdraw,
        withdraw_rule="The seat leaves the game; the game goes on without it.",
        on_timeout=on_timeout, undoable=frozenset({"mark"}),
    ))


TALLY = make("tally", None)
TALLY_AUTO = make("tally-auto", refuse_at_timeout)
