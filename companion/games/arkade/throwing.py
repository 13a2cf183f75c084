"""The dice, the turns of Stratégie, and the damaged reactor (freed only by the movement die)."""

from __future__ import annotations

from companion.games.arkade.common import check_turn, other, require_dice
from companion.games.arkade.constants import ALIEN, DEFENDER, REACTOR_CELLS, SHIP_CELLS
from companion.games.base import N_, Draw, IllegalAction, Plural


def check_throw(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    dice_to_throw(state, role, action, len(die_faces(state, role)))
    if state["mode"] == "arcade":
        return
    if state["settled"][role]:
        raise IllegalAction(N_("Your dice are settled: you already used this throw."))
    if state["throws"][role] >= state["max_throws"]:
        raise IllegalAction(Plural("Only %(count)s throw is allowed per turn.", "Only %(count)s throws are allowed per turn."),
                            count=state["max_throws"])


def throw(state: dict, role: str, action: dict, rng) -> list[dict]:
    faces = die_faces(state, role)
    chosen = dice_to_throw(state, role, action, len(faces))
    dice = state["dice"][role] or [None] * len(faces)
    for index in chosen:
        face = roll_face(faces[index], die_draw(role, index, state["turn"]), rng)
        dice[index] = {"face": face, "used": False}
    state["dice"][role] = dice
    state["throws"][role] += 1
    events = [{"type": "thrown", "role": role, "throw": state["throws"][role], "dice": chosen,
               "faces": [die["face"] for die in dice]}]
    if state["mode"] == "arcade":
        state["turn"] += 1
        if role == DEFENDER and 0 in chosen:  # only the movement die frees a damaged reactor
            events += arcade_reactor_throw(state)
    return events


def throw_candidates(state: dict, seat) -> list[dict]:
    return [{}, {"dice": [0]}, {"dice": [1]}]


def die_faces(state: dict, role: str) -> list[list]:
    if role == ALIEN:
        return [state["alien_die"], state["alien_die"]]
    return [list(range(1, SHIP_CELLS + 1)), state["shooting_die"]]


def die_draw(role: str, index: int, turn: int) -> Draw:
    """A die of the throw: the Alien's movement dice (numbered from 1), the Defender's two dice."""
    if role == ALIEN:
        return Draw("alien_movement_die", die=index + 1, turn=turn)
    return Draw(("defender_movement_die", "defender_shooting_die")[index], turn=turn)


def roll_face(faces: list, purpose: Draw, rng):
    return faces[rng.randint(0, len(faces) - 1, purpose)]


def dice_to_throw(state: dict, role: str, action: dict, count: int) -> list[int]:
    chosen = action.get("dice", list(range(count)))
    valid = isinstance(chosen, list) and chosen and all(
        type(index) is int and 0 <= index < count for index in chosen)
    if not valid or len(set(chosen)) != len(chosen):
        raise IllegalAction(N_("Choose which dice to throw: a list of die numbers from 0 to %(high)s."),
                            high=count - 1)
    if not state["dice"][role] and len(chosen) != count:
        raise IllegalAction(N_("The first throw takes all your dice."))
    return sorted(chosen)


def check_end_turn(state: dict, role: str, action: dict) -> None:
    if state["mode"] == "arcade":
        raise IllegalAction(N_("There are no turns in Arcade mode."))
    check_turn(state, role)
    require_dice(state, role)
    cell = reactor_cell_due(state, role)
    if cell:
        raise IllegalAction(N_("The damaged reactor: the ship must move to cell %(cell)s before the turn ends."),
                            cell=cell)


def reactor_cell_due(state: dict, role: str) -> int | None:
    """Stratégie: with the reactor damaged, a 1 or a 6 on the movement die must move the ship there."""
    if role != DEFENDER or state["reactor"] != "active" or not state["dice"][DEFENDER]:
        return None
    movement = state["dice"][DEFENDER][0]
    return movement["face"] if movement["face"] in REACTOR_CELLS and not movement["used"] else None


def end_turn(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["dice"][role], state["throws"][role], state["settled"][role] = [], 0, False
    state["reactor"] = next_reactor_state(state["reactor"], other(role))
    state["active"] = other(role)
    state["turn"] += 1
    return [{"type": "turn_ended", "role": role, "next": other(role), "turn": state["turn"]}]


def next_reactor_state(reactor: str | None, starting: str) -> str | None:
    """Damage lasts the whole of the Defender's next turn, then the ship is free."""
    if starting == DEFENDER and reactor == "pending":
        return "active"
    if starting == ALIEN and reactor == "active":
        return None
    return reactor


def arcade_reactor_throw(state: dict) -> list[dict]:
    """Arcade: the first movement die thrown after the damage frees the ship on a 1 or a 6, moving it
    there; either way that die is spent and the ship stays put until the movement die is thrown again."""
    movement = state["dice"][DEFENDER][0]
    if state["reactor"] == "held":
        state["reactor"] = None
        return []
    if state["reactor"] != "active":
        return []
    movement["used"] = True
    state["reactor"] = "held"
    if movement["face"] not in REACTOR_CELLS:
        return [{"type": "reactor_stuck", "face": movement["face"]}]
    state["ship"] = movement["face"]
    return [{"type": "ship_moved", "to": state["ship"], "by": "reactor"}]
