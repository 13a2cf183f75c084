"""What each screen sees, what each viewer may do now, and whom the game waits on."""

from __future__ import annotations

import copy
import itertools

from companion.games.amiiboxe import board, cards
from companion.games.amiiboxe.board import all_cells, figure_at, forbidden_corners, side_of, starting_cells
from companion.games.amiiboxe.common import ATTACKER, DEFENDER, IN_PLAY
from companion.games.amiiboxe.setup import setup_needs
from companion.games.base import HOST, N_


def view(state: dict, seat, operations: bool) -> dict:
    """What ``seat`` may see (the kernel already removed the secrets: the rankings, the sealed
    answers of the others, the values in PRO mode); the kernel adds ``legal``."""
    # The criteria and references are the catalogue's (the screens read them from /api/criteria).
    shown = {key: copy.deepcopy(value) for key, value in state.items()
             if key not in ("private", "proposals", "criteria", "references")}
    if state["fight"]:
        shown["fight"]["your_answer"] = (state.get("private") or {}).get(str(seat), {}).get("answer")
    shown["proposals"] = {topic: sorted(int(s) for s in votes) for topic, votes in state["proposals"].items()}
    shown["setup"] = setup_info(state)
    shown["needs"] = setup_needs(state) if state["phase"] == "setup" else []
    shown["effect_cards"] = {printed: {"when": when, "effect": what}
                             for printed, when, what in cards.EFFECT_CARDS.values()}
    shown["operations"] = operations
    return shown


def setup_info(state: dict) -> dict:
    """What the host needs to lay out the square, in any mode."""
    return {"size": state["size"], "locations": home_locations(state),
            "forbidden_corners": forbidden_corners(state),
            "sides": [{"seat": seat, "side": side_of(state, seat), "cells": starting_cells(state, seat)}
                      for seat in state["order"]]}


def home_locations(state: dict) -> list[str]:
    """The cards the square must hold: each figure's home location, once."""
    names: list[str] = []
    for figure in state["figures"]:
        if figure["location"] and cards.find_card(names, figure["location"]) is None:
            names.append(figure["location"])
    return names


# --- candidate actions (each is checked by its move's own check) --------------------------------

# The values the players count on a free board (supports, lines from the start) stay under 10:
# those are offered; a larger one (up to MAX_VALUE) is still accepted.
OFFERED_VALUES = 10


def candidates(state: dict, seat, operations: bool = True) -> list[dict]:
    if state["phase"] == "over":
        return []
    if state["phase"] == "setup":
        return setup_candidates(state, seat)
    if state["fight"]:
        fight = state["fight"]
        return [{"type": "judge", "winner": fight[role]} for role in (ATTACKER, DEFENDER)] + [
            {"type": "enter_value", "value": value} for value in range(0, OFFERED_VALUES)]
    listed = turn_candidates(state, seat) + naming_candidates(state)  # home locations: offered at setup
    return listed + (board_candidates(state, seat) if operations else [])


def setup_candidates(state: dict, seat) -> list[dict]:
    listed = [{"type": "first_player", "player": s} for s in state["order"]]
    listed += [{"type": "seat_order", "seats": list(order)} for order in itertools.permutations(state["order"])]
    listed.append({"type": "begin"})
    listed += name_locations(state)
    if state["board"] is not None:
        listed += [{"type": "place", "figure": f["id"], "cell": cell}
                   for f in state["figures"] for cell in starting_cells(state, f["seat"])]
    return listed


def name_locations(state: dict) -> list[dict]:
    """Offered for the figures without a home card (any may still change it before it plays)."""
    return [{"type": "name_location", "figure": f["id"], "name": name}
            for f in state["figures"] if f["location"] is None for name in state["cards"]]


def turn_candidates(state: dict, seat) -> list[dict]:
    own = [f for f in state["figures"] if f["status"] == IN_PLAY and f["seat"] == seat]
    enemies = [f for f in state["figures"] if f["status"] == IN_PLAY and f["seat"] != seat]
    listed = [{"type": "end_turn"}, {"type": "pass", "proxied": True}, {"type": "confirm_effect"}]
    listed += [{"type": "retire", "figure": f["id"]} for f in own]
    for attacker, defender in itertools.product(own, enemies):
        base = {"type": "attack", "attacker": attacker["id"], "defender": defender["id"]}
        listed.append(base)
        if state["board"] is None:  # the player names the card they stand on for its effect
            listed += [{**base, "card": "Enfers"}, {**base, "card": "Bourg Palette"},
                       {**base, "card": "Bourg Palette", "ranged": True}]
    if state["board"] is None:
        listed += [{"type": "move", "figure": f["id"]} for f in own]
        return listed
    for figure in own:
        listed += [{"type": "move", "figure": figure["id"], "cell": cell}
                   for cell in reachable(state, figure)]
        for partner_cell in board.neighbours(state, figure["at"]):
            partner = figure_at(state, partner_cell)
            if partner:
                listed += [{"type": "move", "figure": figure["id"], "swap_with": partner["id"], "cell": cell}
                           for cell in board.neighbours(state, partner_cell)]
    return listed


def reachable(state: dict, figure: dict) -> list[list[int]]:
    cell = figure["at"]
    near = board.neighbours(state, cell) + board.neighbours(state, cell, board.DIAGONALS)
    far = [board.offset(cell, step, 2) for step in board.STEPS if board.inside(state, board.offset(cell, step, 2))]
    return near + far


def naming_candidates(state: dict) -> list[dict]:
    """The card a figure just turned over waits for its name."""
    step = state["step"]
    if not step or step["kind"] != "name_card":
        return []
    return [{"type": "name_card", "cell": step["cell"], "name": name} for name in state["cards"]]


def board_candidates(state: dict, seat) -> list[dict]:
    """Naming cards and the generic board operations (checked: the host's and the active phone's)."""
    if state["board"] is None or (seat != HOST and seat != state["active"]):
        return []
    cells = all_cells(state)
    # A face-down card too: an effect may turn it up (its name is then given).
    listed = [{"type": "name_card", "cell": cell, "name": name} for cell in cells
              if not (state["step"] and state["step"].get("cell") == cell) for name in state["cards"]]
    listed += [{"type": "swap_cards", "first": a, "second": b} for a, b in itertools.combinations(cells, 2)]
    on = [f for f in state["figures"] if f["status"] == IN_PLAY]
    for a, b in itertools.permutations(on, 2):
        listed += [{"type": "push", "figure": a["id"], "target": b["id"]},
                   {"type": "swap_figures", "figure": a["id"], "target": b["id"]}]
    listed += [{"type": "shift", "kind": kind, "index": index, "direction": direction}
               for kind, directions in board.SHIFT_DIRECTIONS.items() for index in range(state["size"])
               for direction in directions]
    return listed


# --- whom the game waits on ---------------------------------------------------------------------------

def waiting(state: dict) -> list[dict]:
    if state["phase"] != "play":
        return []
    fight = state["fight"]
    if fight:
        if fight["exchange"] == "vote":
            return [{"seat": seat, "for": N_("Vote who wins the fight"), "params": {}, "timed": True}
                    for seat in fight["voters"] if not fight["answered"][str(seat)]]
        wording = N_("Say who wins the fight") if fight["exchange"] == "judge" else N_("Enter your value")
        return [{"seat": owner, "for": wording, "params": {}, "timed": True}
                for role, owner in fight["seats"].items() if not fight["answered"][role]]
    step = state["step"]
    if step and step["kind"] == "hold":
        return [{"seat": state["active"], "for": N_("Apply the effect of %(card)s on the board, then confirm"),
                 "params": {"card": step["card"]}, "timed": False}]
    wording = N_("Play your turn") if step is None else N_("Finish your turn's effects or end it")
    return [{"seat": state["active"], "for": wording, "params": {}, "timed": False}]
