"""Rayman: a player's optional position on the board, kept on their phone."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.board import check_may_cross, move_to
from companion.games.rayman.common import require_own_seat
from companion.games.rayman.constants import DIRECTIONS, LAST_COLUMN, LEVELS, MAX_COLUMN, START_COLUMN


def check_position(state: dict, seat, action: dict) -> dict:
    player = require_own_seat(state, seat)
    require_fields(action, column=int, level=int)
    if not START_COLUMN <= action["column"] <= MAX_COLUMN or not 1 <= action["level"] <= LEVELS:
        raise IllegalAction(N_("A position is a column from 0 to %(high)s and a level from 1 to 3."), high=MAX_COLUMN)
    check_position_change(state, player, action["column"])
    return player


def do_position(state: dict, seat, action: dict, rng) -> list[dict]:
    player = check_position(state, seat, action)
    events = []
    if player["position"] is None:
        player["position"] = {"column": START_COLUMN, "level": 1}
    move_to(state, player, action["column"], action["level"], events)
    return events


def check_step(state: dict, seat, action: dict) -> tuple[dict, int, int]:
    """One tap of the stepper: one space forward, back, up or down."""
    player = require_own_seat(state, seat)
    require_fields(action, direction=str)
    if action["direction"] not in DIRECTIONS:
        raise IllegalAction(N_("A step goes %(choices)s."), choices=", ".join(DIRECTIONS))
    if player["position"] is None:
        raise IllegalAction(N_("Enter your position first."))
    columns, levels = DIRECTIONS[action["direction"]]
    column, level = player["position"]["column"] + columns, player["position"]["level"] + levels
    if not START_COLUMN <= column <= MAX_COLUMN or not 1 <= level <= LEVELS:
        raise IllegalAction(N_("That space is off the board."))
    check_position_change(state, player, column)
    return player, column, level


def do_step(state: dict, seat, action: dict, rng) -> list[dict]:
    player, column, level = check_step(state, seat, action)
    events = []
    move_to(state, player, column, level, events)
    return events


def check_position_change(state: dict, player: dict, column: int) -> None:
    if player["crossed"] and column <= LAST_COLUMN:
        raise IllegalAction(N_("You have finished the race."))
    if column > LAST_COLUMN and not player["crossed"]:
        check_may_cross(player)
        if state["phase"] not in ("turns", "round_end"):
            raise IllegalAction(N_("You cross the finish line during a turn or at the end of a round."))


def check_forget_position(state: dict, seat, action: dict) -> dict:
    player = require_own_seat(state, seat)
    if player["position"] is None:
        raise IllegalAction(N_("Enter your position first."))
    return player


def do_forget_position(state: dict, seat, action: dict, rng) -> list[dict]:
    check_forget_position(state, seat, action)["position"] = None
    return [{"type": "position_forgotten", "seat": seat}]


def check_second_tile(state: dict, seat, action: dict) -> None:
    """A player who keeps no position tells that their figure reached the second tile (column 22):
    from the next round on, projectiles appear at column 43."""
    player = require_own_seat(state, seat)
    if state["second_tile"]:
        raise IllegalAction(N_("The second tile is already reached: projectiles appear at column 43."))
    if player["crossed"]:
        raise IllegalAction(N_("You have finished the race."))


def do_second_tile(state: dict, seat, action: dict, rng) -> list[dict]:
    check_second_tile(state, seat, action)
    state["second_tile"] = True
    return [{"type": "second_tile", "seat": seat}]
