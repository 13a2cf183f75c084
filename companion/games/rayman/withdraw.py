"""Rayman: a seat taken out of the game (the table's third way for an away phone).

The rule, shown to the host before confirming: the player leaves the race; their figure
leaves the board and the race goes on for the others. Their secret choice, if any, is never
revealed; they are not ranked.
"""

from __future__ import annotations

from companion.games.base import N_, IllegalAction
from companion.games.rayman.board import end_coop
from companion.games.rayman.common import racers, rule
from companion.games.rayman.turns import start_turn

WITHDRAW_RULE = N_("The player leaves the race: their figure leaves the board, they are not ranked, "
                   "and the race goes on for the others.")


def withdraw_player(state: dict, seat, events: list[dict]) -> None:
    """Takes the seat out of every list that waits on it; ``advance`` then moves the game on."""
    if state["phase"] == "game_over":
        raise IllegalAction(N_("The game is over."))
    index = next((i for i, p in enumerate(state["players"]) if p["seat"] == seat), None)
    if index is None:
        raise IllegalAction(N_("That seat is not in the race."))
    state["players"].pop(index)
    state["withdrawn"] = state.get("withdrawn", []) + [seat]
    events.append({"type": "withdrawn", "seat": seat})
    leave_draft(state, seat)
    (state.get("secret") or {}).get("reveals", {}).pop(str(seat), None)
    if state["round"]:
        leave_round(state, seat, events)
    if state["phase"] in ("round_start", "choosing", "initiatives", "turns", "round_end"):
        check_race_goes_on(state, events)


def leave_draft(state: dict, seat) -> None:
    if state["youngest"] == seat:
        state["youngest"] = state["players"][0]["seat"] if state["players"] else None
    draft = state["draft"]
    if draft and seat in draft["order"]:
        position = draft["order"].index(seat)
        draft["order"].remove(seat)
        if position < draft["turn"]:
            draft["turn"] -= 1
    if draft and draft["last"] == seat:
        draft["last"] = None


def leave_round(state: dict, seat, events: list[dict]) -> None:
    round_ = state["round"]
    offer = round_.get("offer")
    if offer and seat in (offer["from"], offer["to"]):
        round_["offer"] = None
    if state["phase"] == "initiatives":  # their cards are not asked any more, nor do they play
        round_["asking"] = [asked for asked in round_["asking"] if asked["seat"] != seat]
        round_["revealed"] = [entry for entry in round_["revealed"] if entry["seat"] != seat]
    landed = (round_["end"] or {}).get("landed", [])
    if seat in landed:
        landed.remove(seat)  # the final round's ranking no longer waits for them
    if seat in round_["order"]:
        position = round_["order"].index(seat)
        round_["order"].remove(seat)
        if position < round_["turn"]:
            round_["turn"] -= 1
        elif position == round_["turn"] and state["phase"] == "turns" and round_["turn"] < len(round_["order"]):
            start_turn(state, events)  # it was their turn: the next player's starts


def check_race_goes_on(state: dict, events: list[dict]) -> None:
    """Racing together, the table still wins or loses as a whole; nobody left ends the game."""
    if not state["players"]:
        end_coop(state, False, "nobody_left", events)
    elif rule(state, "race_together") and not racers(state):
        end_coop(state, True, "all_finished", events)
    elif rule(state, "bubble_mode_on_damage") and all(p["bubble_mode"] for p in racers(state)):
        end_coop(state, False, "all_in_bubbles", events)
