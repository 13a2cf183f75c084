"""Rayman: what the table must tell the companion when nobody keeps the positions (the host answers)."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.common import racers, seat_list
from companion.games.rayman.constants import DRAFT_ROUNDS
from companion.games.rayman.finish import distance_of, others_order
from companion.games.rayman.round import round_start_question
from companion.games.rayman.round_end import round_end_question


def question(state: dict):
    """What the table must tell the companion now (None when nothing): the host answers."""
    phase = state["phase"]
    if phase == "draft" and not state["draft"]["table"] and state["draft"]["round"] < DRAFT_ROUNDS \
            and len(state["players"]) > 1 and state["youngest"] is None:
        return {"key": "youngest", "choices": seat_list(state["players"])}
    if phase == "round_start":
        return round_start_question(state)
    if phase == "round_end":
        return round_end_question(state)
    if phase == "finish" and all(distance_of(p) is not None for p in state["players"] if p["crossed"]) \
            and others_order(state) is None:
        return {"key": "ranking", "choices": seat_list(racers(state))}
    return None


def check_answer(state: dict, seat, action: dict):
    """The answer's value, checked against the question the table must answer."""
    asked = question(state)
    if asked is None:
        raise IllegalAction(N_("There is no question to answer."))
    require_fields(action, question=str)
    if action["question"] != asked["key"]:
        raise IllegalAction(N_("That is not the question the table must answer."))
    if "value" not in action:
        raise IllegalAction(N_("The action needs the field %(field)s (%(kind)s)."), field="value", kind="value")
    return checked_answer(state, asked, action["value"])


def do_answer(state: dict, seat, action: dict, rng) -> list[dict]:
    value, asked = check_answer(state, seat, action), question(state)
    store_answer(state, asked["key"], value)
    return [{"type": "answered", "question": asked["key"], "value": value}]


def checked_answer(state: dict, asked: dict, value):
    key = asked["key"]
    if key == "boss_move":
        if type(value) is not int or not asked["low"] <= value <= asked["high"]:
            raise IllegalAction(N_("The Boss moves 1 to %(high)s spaces."), high=asked["high"])
        return value
    if key == "ranking":
        wanted = len(asked["choices"])
        if not isinstance(value, list) or len(value) != wanted or len(set(map(str, value))) != wanted \
                or not all(is_seat_choice(seat, asked) for seat in value):
            raise IllegalAction(N_("Name %(count)s different players, in order."), count=wanted)
        return value
    if not is_seat_choice(value, asked):
        raise IllegalAction(N_("Name one of the players."))
    return value


def is_seat_choice(value, asked: dict) -> bool:
    return not isinstance(value, bool) and (value is None or type(value) is int) and value in asked["choices"]


def store_answer(state: dict, key: str, value) -> None:
    if key == "youngest":
        state["youngest"] = value
    elif key == "boss_move":
        state["boss"]["move"] = value
    else:  # the ranking of the race's end
        state["round"]["answers"][key] = value
