"""Rayman: what happens to a figure on the board: a hit, damage, a move, crossing the finish line."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.common import racers, rule
from companion.games.rayman.constants import (LAST_COLUMN, LEVELS, MAX_COLUMN, PTIZETRES_TO_FINISH, SECOND_TILE,
                                              START_COLUMN)


def require_projectile(state: dict, action: dict) -> dict:
    require_fields(action, projectile=int)
    for projectile in state["projectiles"]:
        if projectile["id"] == action["projectile"]:
            return projectile
    raise IllegalAction(N_("That projectile is not on the board."))


def take_hit(state: dict, player: dict, cause: str, events: list[dict]) -> None:
    """A heart saves the player; otherwise damage, unless they are immune."""
    seat = player["seat"]
    if player["bubble"] or player["bubble_mode"] or player["immune"]:
        events.append({"type": "immune", "seat": seat, "cause": cause})
        return
    if player["heart"]:
        player["heart"] = False
        events.append({"type": "heart_lost", "seat": seat, "cause": cause})
        return
    player["immune"] = True
    events.append({"type": "damaged", "seat": seat, "cause": cause, "back": state["config"]["damage_push"]})
    if player["position"] is not None:
        column, level = landing_after_damage(state, player)
        move_to(state, player, column, level, events)
        remove_projectiles_at(state, player["position"]["column"], player["position"]["level"], events)
    damage_consequences(state, player, cause, events)


def remove_projectiles_at(state: dict, column: int, level: int, events: list[dict]) -> None:
    """« Votre immunité temporaire vous protège si vous vous retrouvez sur un Projectile (retirez-le du
    jeu) »: a projectile where damage lands a player leaves the board."""
    for projectile in [p for p in state["projectiles"] if (p["column"], p["level"]) == (column, level)]:
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_removed", "id": projectile["id"]})


def landing_after_damage(state: dict, player: dict) -> tuple[int, int]:
    """Two (or three) columns back; a column whose every space holds another figure is skipped.

    « Si tous les espaces de la colonne se trouvant à deux espaces derrière le joueur sont
    occupés par d'autres joueurs ou des Obstacles, continuez à reculer d'une colonne ». The
    level is the player's choice: the same level when it is free, else the nearest free one
    (the player corrects it, or an obstacle the companion cannot see, with the stepper)."""
    position = player["position"]
    column = position["column"] - state["config"]["damage_push"]
    while column > START_COLUMN:
        taken = occupied_levels(state, column, player)
        free = [level for level in range(1, LEVELS + 1) if level not in taken]
        if free:
            return column, min(free, key=lambda level: (abs(level - position["level"]), level))
        column -= 1
    return START_COLUMN, position["level"]  # the start line holds every figure


def occupied_levels(state: dict, column: int, mover: dict) -> set[int]:
    return {other["position"]["level"] for other in racers(state)
            if other is not mover and other["position"] and other["position"]["column"] == column}


def damage_consequences(state: dict, player: dict, cause: str, events: list[dict]) -> None:
    if rule(state, "damage_defeats"):
        end_coop(state, False, "defeated", events, seat=player["seat"])
    elif rule(state, "bubble_mode_on_damage"):
        player["bubble_mode"] = True
        events.append({"type": "bubble_mode", "seat": player["seat"], "on": True})
        if all(other["bubble_mode"] for other in racers(state)):
            end_coop(state, False, "all_in_bubbles", events)


def check_may_cross(player: dict) -> None:
    if len(player["ptizetres"]) < PTIZETRES_TO_FINISH:
        raise IllegalAction(N_("You need 3 Ptizêtres to cross the finish line."))


def cross(state: dict, player: dict, events: list[dict]) -> None:
    player["crossed"] = True
    state["second_tile"] = True  # past the line, they went through the second tile
    events.append({"type": "crossed", "seat": player["seat"]})
    if not rule(state, "race_together"):
        if not state["race"]["final_round"]:
            state["race"]["final_round"] = True
            events.append({"type": "final_round", "round": state["round"]["number"]})
    elif not racers(state):
        end_coop(state, True, "all_finished", events)


def move_to(state: dict, player: dict, column: int, level: int, events: list[dict]) -> None:
    """Moves a kept position (clamped to the course); crossing the line counts as finishing."""
    limit = MAX_COLUMN if player["crossed"] or len(player["ptizetres"]) >= PTIZETRES_TO_FINISH else LAST_COLUMN
    column = max(START_COLUMN, min(column, limit))
    player["position"] = {"column": column, "level": level}
    if column >= SECOND_TILE:
        state["second_tile"] = True
    events.append({"type": "moved", "seat": player["seat"], "column": column, "level": level})
    if column > LAST_COLUMN and not player["crossed"] and state["phase"] in ("turns", "round_end"):
        cross(state, player, events)


def end_coop(state: dict, won: bool, reason: str, events: list[dict], seat: int | None = None) -> None:
    """The table wins or loses together: the phase's ``next`` then ends the game (``common.ended``);
    ``seat``: the player it happened to (the one defeated)."""
    state["result"] = {"kind": "coop", "won": won, "reason": reason, **({"seat": seat} if seat is not None else {})}
    events.append({"type": "game_over", "won": won, "reason": reason})
