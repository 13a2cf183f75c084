"""The Alien's moves: bonus cells and their power tiles, repairs, hearts, the asteroid sacrifice,
the magnetic field, and the last-line claim."""

from __future__ import annotations

from companion.games.arkade.common import (
    check_saucer_declared, check_turn, defender_wins_if_board_empty, heart_of, repairable_colours, require_colour,
    require_dice, settle)
from companion.games.arkade.constants import DEFENDER, LIFTS_FIELD, SHIP_CELLS
from companion.games.base import N_, Draw, IllegalAction, require_fields


def check_bonus(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    colour = require_colour(state, action)
    if not state["power_tiles"]:
        raise IllegalAction(N_("Power tiles are not in play in this game."))
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board."), colour=colour)
    if all(tile["turned"] for tile in state["alien_tiles"]):
        raise IllegalAction(N_("All your power tiles are already turned."))


def bonus(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A saucer stopped on a bonus cell framed in its own colour: one face-down tile, at random."""
    colour = action["colour"]
    settle(state, role)
    face_down = [i for i, tile in enumerate(state["alien_tiles"]) if not tile["turned"]]
    index = face_down[rng.randint(0, len(face_down) - 1, Draw("alien_tile_turned"))]
    kind = state["secret"]["alien_tiles"][index]
    state["alien_tiles"][index] = {"kind": kind, "turned": True}
    event = {"type": "alien_tile", "tile": index, "kind": kind, "colour": colour}
    event["applied"] = ALIEN_EFFECTS[kind](state, colour)
    return [event]


def bonus_candidates(state: dict, seat) -> list[dict]:
    return [{"colour": c} for c in state["colours"]]


def gain_extra_life(state: dict, colour: str) -> bool | None:
    """The saucer that triggered the tile turns to its heart, unless it already shows it.

    Returns None when only the Alien knows (some saucers of that colour show a heart, some do not)."""
    saucers = state["saucers"]
    hearts, plain = saucers["extra_lives"][colour], saucers["on_board"][colour] - saucers["extra_lives"][colour]
    if plain == 0:
        return False  # every saucer of that colour, the trigger included, already shows its heart
    if hearts:
        state["pending"] = {"kind": "heart", "colour": colour}
        return None
    saucers["extra_lives"][colour] += 1
    return True


def hit_turret(state: dict, colour: str) -> bool:
    if state["nuggets"] == 0:
        return False
    state["nuggets"] -= 1
    return True


def damage_reactor(state: dict, colour: str) -> bool:
    """Stratégie: the Defender's next turn. Arcade: at once, a movement die already thrown included."""
    if state["mode"] == "arcade":
        state["reactor"] = "active"
        if state["dice"][DEFENDER]:
            state["dice"][DEFENDER][0]["used"] = True
    elif state["reactor"] is None:
        state["reactor"] = "pending"
    return True


def ask_for_repair(state: dict, colour: str) -> bool | None:
    """The Alien says which colour comes back, or that the first line is full (« le pouvoir est sans
    effet »): only the board shows it, even when one colour alone can be repaired."""
    if not repairable_colours(state):
        return False
    state["pending"] = {"kind": "repair", "colours": repairable_colours(state)}
    return None


def on_the_board_only(state: dict, colour: str) -> bool:
    return True  # engines and rift: the Alien moves the saucers on the board


ALIEN_EFFECTS = {"extra_life": gain_extra_life, "turret": hit_turret, "reactor": damage_reactor,
                 "repair": ask_for_repair, "engines": on_the_board_only, "rift": on_the_board_only}


def first_line_may_be_full(state: dict) -> bool:
    """The first line has a cell per column (as many as the ship's). A saucer takes one, and so may an
    asteroid or a magnetic field, laid « où il le souhaite »: with fewer of them on the board it cannot
    be full."""
    laid = sum(state["on_the_board"].values())
    return sum(state["saucers"]["on_board"].values()) + laid >= SHIP_CELLS


def check_repair(state: dict, role: str, action: dict) -> None:
    colour = action.get("colour")
    if colour is None:
        if not first_line_may_be_full(state):
            raise IllegalAction(N_("Fewer than %(count)s saucers, asteroids and magnetic fields are on the board, "
                                   "so the first line is not full: choose a colour."), count=SHIP_CELLS)
        return
    if colour not in state["pending"]["colours"] or colour not in repairable_colours(state):
        raise IllegalAction(N_("No eliminated saucer of that colour can be repaired."))


def repair(state: dict, role: str, action: dict, rng) -> list[dict]:
    if action.get("colour") is None:
        state["pending"] = None
        return [{"type": "repaired", "colour": None}]  # the first line is full: no effect
    return put_back(state, action["colour"])


def put_back(state: dict, colour: str) -> list[dict]:
    state["pending"] = None
    state["saucers"]["on_board"][colour] += 1
    state["saucers"]["repairs"] += 1
    return [{"type": "repaired", "colour": colour}]


def repair_candidates(state: dict, seat) -> list[dict]:
    pending = state["pending"]
    colours = pending["colours"] if pending and pending["kind"] == "repair" else []
    return [{"colour": None}] + [{"colour": c} for c in colours]


def check_heart(state: dict, role: str, action: dict) -> None:
    require_fields(action, already=bool)


def heart(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The Alien's answer: did the saucer on the bonus cell already show its heart?"""
    colour = state["pending"]["colour"]
    state["pending"] = None
    if not action["already"]:
        state["saucers"]["extra_lives"][colour] += 1
    return [{"type": "extra_life", "colour": colour, "applied": not action["already"]}]


def heart_candidates(state: dict, seat) -> list[dict]:
    return [{"already": False}, {"already": True}]


def check_sacrifice(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    colour = require_colour(state, action)
    if state["on_the_board"]["asteroid"] == 0:
        raise IllegalAction(N_("No asteroid lies on the board."))
    check_saucer_declared(state, action, colour)


def sacrifice(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The saucer before the asteroid is sacrificed: the saucer and the tile leave the board."""
    colour = action["colour"]
    extra_life, fixed = heart_of(state, colour, action)
    saucers = state["saucers"]
    if extra_life:
        saucers["extra_lives"][colour] -= 1
    saucers["on_board"][colour] -= 1
    saucers["sacrificed"][colour] += 1
    state["on_the_board"]["asteroid"] -= 1
    event = {"type": "sacrificed", "colour": colour, "extra_life": extra_life}
    return [{**event, "counters_fixed": True} if fixed else event] + defender_wins_if_board_empty(state)


def check_lift_field(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    if state["on_the_board"]["magnetic_field"] == 0:
        raise IllegalAction(N_("No magnetic field lies on the board."))
    if unused_orange(state, role) is None:
        raise IllegalAction(N_("An orange result is needed to lift the magnetic field."))


def unused_orange(state: dict, role: str) -> dict | None:
    return next((die for die in state["dice"][role] if die["face"] == LIFTS_FIELD and not die["used"]), None)


def lift_field(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The orange result lifts the field and is spent: moving onto the freed cell takes « en plus » a
    result of that cell's colour."""
    unused_orange(state, role)["used"] = True
    settle(state, role)
    state["on_the_board"]["magnetic_field"] -= 1
    return [{"type": "field_lifted"}]


def check_claim(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)


def claim(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["pending"] = {"kind": "claim"}
    return [{"type": "claimed_last_line"}]
