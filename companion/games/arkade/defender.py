"""The Defender's moves: answering a claim, the ship (die, nuggets, GPS, a damaged reactor), the
hits and the power tiles they turn."""

from __future__ import annotations

from companion.games.arkade.common import (
    check_saucer_declared, check_turn, defender_wins_if_board_empty, heart_of, require_colour, require_dice,
    require_flag, settle, win)
from companion.games.arkade.constants import ALIEN, BOARD_TILES, DEFENDER, NUGGETS_IN_BOX, REACTOR_CELLS, SHIP_CELLS
from companion.games.base import N_, Draw, IllegalAction, require_fields


def check_confirm(state: dict, role: str, action: dict) -> None:
    require_fields(action, accept=bool)


def confirm(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["pending"] = None
    if action["accept"]:
        win(state, ALIEN, "last_line")
    return [{"type": "claim_answered", "accepted": action["accept"], "winner": state["winner"]}]


def confirm_candidates(state: dict, seat) -> list[dict]:
    return [{"accept": True}, {"accept": False}]


def require_cell(action: dict) -> int:
    require_fields(action, to=int)
    if not 1 <= action["to"] <= SHIP_CELLS:
        raise IllegalAction(N_("The ship's cells are numbered 1 to 6."))
    return action["to"]


def check_move_ship(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    movement = state["dice"][DEFENDER][0]
    if movement["used"]:
        raise IllegalAction(N_("The movement die has already been used."))
    damaged = state["reactor"] in ("active", "held")
    if damaged and (state["mode"] == "arcade" or movement["face"] not in REACTOR_CELLS):
        raise IllegalAction(N_("The reactor is damaged: the ship moves only on a 1 or a 6."))


def move_ship(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The ship goes to the cell its movement die shows (with a damaged reactor: 1 or 6, required)."""
    movement = state["dice"][DEFENDER][0]
    movement["used"] = True
    settle(state, role)
    state["ship"] = movement["face"]
    return [{"type": "ship_moved", "to": state["ship"], "by": "reactor" if state["reactor"] else "die"}]


def check_ship_free(state: dict) -> None:
    if state["reactor"] in ("active", "held"):
        raise IllegalAction(N_("The reactor is damaged: the ship moves only with its die this turn."))


def check_nugget(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    cell = require_cell(action)
    check_ship_free(state)
    if state["nuggets"] == 0:
        raise IllegalAction(N_("You have no nugget left."))
    if abs(cell - state["ship"]) != 1:
        raise IllegalAction(N_("A nugget moves the ship to an adjacent cell only."))


def nugget(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A nugget moves the ship one cell, at any time of the Defender's turn."""
    state["nuggets"] -= 1
    state["ship"] = action["to"]
    return [{"type": "ship_moved", "to": action["to"], "by": "nugget", "nuggets": state["nuggets"]}]


def nugget_candidates(state: dict, seat) -> list[dict]:
    return [{"to": state["ship"] - 1}, {"to": state["ship"] + 1}]


def check_gps(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_cell(action)
    check_ship_free(state)
    if state["kept"]["gps"] == 0:
        raise IllegalAction(N_("You have no GPS update."))


def gps(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["kept"]["gps"] -= 1
    state["ship"] = action["to"]
    return [{"type": "ship_moved", "to": action["to"], "by": "gps"}]


def gps_candidates(state: dict, seat) -> list[dict]:
    return [{"to": cell} for cell in range(1, SHIP_CELLS + 1)]


def check_hit(state: dict, role: str, action: dict) -> None:
    """A shot hit the first saucer of the column: the Defender says its colour, and whether it showed
    its heart when the counters cannot tell. The board has the last word: a hit is never refused
    because the heart counter disagrees (the counter follows, and the event says so)."""
    check_turn(state, role)
    colour = require_colour(state, action)
    require_flag(action, "munitions")
    if action.get("munitions"):
        if colour not in state["kept"]["munitions"]:
            raise IllegalAction(N_("You have no %(colour)s super munitions."), colour=colour)
    else:
        require_dice(state, role)
        shooting = state["dice"][DEFENDER][1]
        if shooting["used"]:
            raise IllegalAction(N_("The shooting die has already been used."))
        if shooting["face"] != colour:
            raise IllegalAction(N_("The shooting die shows %(colour)s."), colour=shooting["face"])
    check_saucer_declared(state, action, colour)


def hit(state: dict, role: str, action: dict, rng) -> list[dict]:
    colour, with_munitions = action["colour"], action.get("munitions", False)
    if with_munitions:
        state["kept"]["munitions"].remove(colour)
    else:
        state["dice"][DEFENDER][1]["used"] = True
        settle(state, role)
    extra_life, fixed = heart_of(state, colour, action)
    return record_hit(state, colour, extra_life, with_munitions, fixed, rng)


def record_hit(state: dict, colour: str, extra_life: bool, with_munitions: bool, fixed: bool, rng) -> list[dict]:
    saucers = state["saucers"]
    marks = {"counters_fixed": True} if fixed else {}
    if extra_life:
        saucers["extra_lives"][colour] -= 1
        if not with_munitions:  # the saucer turns over and stays; super munitions finish it
            return [{"type": "hit", "colour": colour, "eliminated": False, **marks}]
    saucers["on_board"][colour] -= 1
    saucers["eliminated"][colour] += 1
    events = [{"type": "hit", "colour": colour, "eliminated": True, **marks}]
    if saucers["eliminated"][colour] % 2 == 0:
        events += turn_defender_tile(state, colour, rng)
    return events + defender_wins_if_board_empty(state)


def hit_candidates(state: dict, seat) -> list[dict]:
    """A shot with the die (its colour) or with each kind of kept super munitions, on a saucer
    showing its heart or not."""
    shots = [{"colour": state["dice"][DEFENDER][1]["face"]}] if state["dice"][DEFENDER] else []
    shots += [{"colour": c, "munitions": True} for c in sorted(set(state["kept"]["munitions"]))]
    return [{**shot, "extra_life": life} for shot in shots for life in (False, True)]


def turn_defender_tile(state: dict, colour: str, rng) -> list[dict]:
    face_down = [i for i, tile in enumerate(state["defender_tiles"])
                 if tile["colour"] == colour and not tile["turned"]]
    if not face_down:
        return []
    index = face_down[rng.randint(0, len(face_down) - 1, Draw("defender_tile_turned", colour=colour))]
    face = state["secret"]["defender_tiles"][index]
    state["defender_tiles"][index] = {**face, "turned": True}
    keep_or_apply_defender_tile(state, face)
    return [{"type": "defender_tile", "tile": index, **face}]


def keep_or_apply_defender_tile(state: dict, tile: dict) -> None:
    if tile["kind"] == "munitions":
        state["kept"]["munitions"].append(tile["colour"])
    elif tile["kind"] == "gps":
        state["kept"]["gps"] += 1
    elif tile["kind"] == "mine":
        state["nuggets"] = min(NUGGETS_IN_BOX, state["nuggets"] + tile["value"])
    elif tile["kind"] == "tower":
        state["tower"] = True
    elif tile["kind"] in BOARD_TILES:
        state["on_the_board"][tile["kind"]] += 1  # the Defender lays it where they like
    # a comet is carried out on the board
