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


def take_hit(state: dict, player: dict, cause: str, events: list[dict], moves: bool = True) -> None:
    """A heart saves the player; otherwise damage, unless they are immune. ``moves``: False when a wall
    behind the figure keeps it from going back (``turns.wall_stops_push``)."""
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
    if player["position"] is not None and moves:
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
    return free_space_back(state, player, position["column"] - state["config"]["damage_push"], position["level"])


def free_space_back(state: dict, player: dict, column: int, level: int) -> tuple[int, int]:
    """The first column from ``column`` back with a space no other figure holds, on the free level nearest
    ``level``; the start line holds every figure."""
    while column > START_COLUMN:
        taken = occupied_levels(state, column, player)
        free = [other for other in range(1, LEVELS + 1) if other not in taken]
        if free:
            return column, min(free, key=lambda other: (abs(other - level), other))
        column -= 1
    return START_COLUMN, level


def free_space_near(state: dict, player: dict, spaces: list[tuple[int, int]], back_from: int,
                    level: int) -> tuple[int, int]:
    """The first of ``spaces`` on the board that no other figure holds, else the first free space from
    ``back_from`` back: a figure never ends a move on another's space (the start line and past the finish
    line hold every figure)."""
    for column, height in spaces:
        if column <= START_COLUMN or column > LAST_COLUMN:
            return column, height
        if 1 <= height <= LEVELS and height not in occupied_levels(state, column, player):
            return column, height
    return free_space_back(state, player, back_from, level)


def pushed_to(state: dict, player: dict, column: int, level: int, events: list[dict]) -> None:
    """A move the player did not choose (a slap's push, the Bubble mode's float) to ``column``, ``level``.

    « Puisque votre figurine ne peut pas terminer son mouvement sur le même espace que celle d'un autre
    joueur, vous devez placer votre figurine dans un espace vide directement au-dessus, en dessous ou
    derrière ce dernier. Si ces espaces sont également occupés [...], déplacez votre figurine vers un
    espace vide plus loin en arrière, au niveau de votre choix. » The companion proposes the first free
    one in that order; the player corrects it with the stepper (an obstacle it cannot see, say)."""
    column = clamped(player, column)
    spaces = [(column, level), (column, level + 1), (column, level - 1), (column - 1, level)]
    move_to(state, player, *free_space_near(state, player, spaces, column - 1, level), events)


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
    column = clamped(player, column)
    player["position"] = {"column": column, "level": level}
    if column >= SECOND_TILE:
        state["second_tile"] = True
    events.append({"type": "moved", "seat": player["seat"], "column": column, "level": level})
    if column > LAST_COLUMN and not player["crossed"] and state["phase"] in ("turns", "round_end"):
        cross(state, player, events)


def clamped(player: dict, column: int) -> int:
    """``column`` on the course: the finish line is crossed with 3 Ptizêtres only."""
    limit = MAX_COLUMN if player["crossed"] or len(player["ptizetres"]) >= PTIZETRES_TO_FINISH else LAST_COLUMN
    return max(START_COLUMN, min(column, limit))


def end_coop(state: dict, won: bool, reason: str, events: list[dict], seat: int | None = None) -> None:
    """The table wins or loses together: the phase's ``next`` then ends the game (``common.ended``);
    ``seat``: the player it happened to (the one defeated)."""
    state["result"] = {"kind": "coop", "won": won, "reason": reason, **({"seat": seat} if seat is not None else {})}
    events.append({"type": "game_over", "won": won, "reason": reason})
