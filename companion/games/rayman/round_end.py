"""Rayman's round end, in stages (``flow.PHASES["round_end"]``): the projectiles wait for the players who
keep no position (``projectiles``), then move, the projectile card and the Boss apply (``moving``), the last
players make the free move (``free_move``), and the final round's ranking waits for where they landed
(``landings``); the played cards go to the discard as the next round starts (``round.close_round``)."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.board import end_coop, free_space_near, move_to, take_hit
from companion.games.rayman.common import (ended, name_of, player_at, player_of, positions_known, racers,
                                           require_own_seat, rule)
from companion.games.rayman.constants import LAST_COLUMN, LEVELS, PROJECTILE_END, lasts_the_round


def begin_round_end(state: dict, rng) -> list[dict]:
    state["round"]["end"] = {"projectiles": None, "boss_moved": False, "told": [], "landed": []}
    return []


def round_end_next(state: dict):
    """The phase that follows the round's end: the game's end, the race's (the Boss finished first, or the
    final round is over) or the next round."""
    if ended(state):
        return "game_over"
    if state["race"]["boss_finished"]:
        return "finish"
    if state.get("stage") == "landings" and not state["round"]["end"]["landed"]:
        return "finish" if state["race"]["final_round"] else "round_start"
    return None


def projectiles_to_move(state: dict) -> list[dict]:
    """This round's projectiles still to move; one removed meanwhile (a hit reported by a player) is skipped."""
    waiting = state["round"]["end"]["projectiles"]
    on_board = {projectile["id"]: projectile for projectile in state["projectiles"]}
    if waiting is None:
        return list(state["projectiles"])
    return [on_board[number] for number in waiting if number in on_board]


def unsure_of_projectiles(state: dict) -> list:
    """The racers who keep no position and have not said yet whether this round's moving projectiles
    reach them: the projectiles wait for them (see ``end_projectiles``)."""
    if state["phase"] != "round_end" or state.get("stage") != "projectiles" or not projectiles_to_move(state):
        return []
    told = state["round"]["end"]["told"]
    return [player["seat"] for player in racers(state) if player["position"] is None and player["seat"] not in told]


def begin_moving(state: dict, rng) -> list[dict]:
    """The projectiles move, the projectile card's line applies, the Boss moves and attacks."""
    events: list[dict] = []
    for step in (end_projectiles, end_projectile_card, end_boss):
        step(state, events)
        if ended(state) or state["race"]["boss_finished"]:
            break
    return events


def end_projectiles(state: dict, events: list[dict]) -> None:
    """Every projectile moves once each player who keeps no position said whether it reached them.

    « Si un Projectile actif croise le chemin d'un joueur, le joueur perd son Jeton Cœur, s'il en a
    un, ou subit un dégât. Dans les deux cas, le Jeton Projectile est retiré du plateau. » Only the
    table sees a figure whose position is not kept: moving a projectile before its player spoke would
    take it past them (or off the board, where the hit can no longer be reported), or hit a player
    behind them whose position is kept."""
    end = state["round"]["end"]
    while True:
        waiting = projectiles_to_move(state)
        end["projectiles"] = [projectile["id"] for projectile in waiting]
        if not waiting:
            return
        move_projectile(state, waiting[0], projectile_victim(state, waiting[0]), events)
        end["projectiles"].pop(0)
        if ended(state):
            return  # a hit ended the game


def projectile_path(state: dict, projectile: dict) -> tuple[list[int], bool]:
    """The columns it crosses, counter-clockwise, and whether it then leaves the board."""
    last = PROJECTILE_END[projectile["origin"]]
    target = projectile["column"] - state["config"]["projectile_speed"]
    stop = max(target, last)
    return list(range(projectile["column"], stop - 1, -1)), target <= last


def projectile_victim(state: dict, projectile: dict):
    """Of the figures whose positions are kept, the first on its path (None: nobody); a player who keeps
    none and is on it reported the hit on their phone (``hurt``) before it moved."""
    path, _ = projectile_path(state, projectile)
    return next((seat for column in path if (seat := player_at(state, column, projectile["level"])) is not None),
                None)


def move_projectile(state: dict, projectile: dict, victim, events: list[dict]) -> None:
    path, leaves = projectile_path(state, projectile)
    if victim is not None:
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_hit", "id": projectile["id"], "seat": victim})
        take_hit(state, player_of(state, victim), "projectile", events)
    elif leaves:
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_removed", "id": projectile["id"]})
    else:
        projectile["column"] = path[-1]
        events.append({"type": "projectile_moved", "id": projectile["id"], "column": path[-1],
                       "level": projectile["level"]})


def end_projectile_card(state: dict, events: list[dict]) -> None:
    """« Après avoir déplacé tous les Projectiles, à la fin du round, appliquez l'effet indiqué à ce numéro de
    la carte »; a line that reads « CE ROUND-CI » was announced at the roll (``round.roll_projectile``)."""
    line = state["round"]["card_line"]
    if line is not None and not lasts_the_round(state["config"]["projectile"], line):
        events.append({"type": "projectile_card_effect", "card": state["config"]["projectile"], "line": line})


def end_boss(state: dict, events: list[dict]) -> None:
    boss, end = state["boss"], state["round"]["end"]
    if not boss or boss["column"] is None:
        return
    if not end["boss_moved"]:
        boss["column"] += boss["move"]
        end["boss_moved"] = True
        events.append({"type": "boss_moved", "column": boss["column"], "level": boss["level"]})
    if boss["column"] > LAST_COLUMN:
        boss_finished(state, events)
        return
    seat = player_at(state, boss["column"], boss["level"])  # a player who keeps no position says so
    if seat is not None:
        boss_hits(state, player_of(state, seat), events)
        if ended(state):
            return  # the hit ended the game
    events.append({"type": "boss_attack", "card": boss["card"]})


def boss_hits(state: dict, player: dict, events: list[dict]) -> None:
    events.append({"type": "boss_hit", "seat": player["seat"]})
    had_heart = player["heart"] and not (player["bubble"] or player["bubble_mode"] or player["immune"])
    take_hit(state, player, "boss", events)
    if had_heart and player["position"] is not None:
        # « déplace sa figurine dans un espace situé en dessous, au-dessus ou derrière le Boss »: one no other
        # figure holds (behind first; the player corrects it with the stepper)
        column, level = state["boss"]["column"], state["boss"]["level"]
        spaces = [(column - 1, level), (column, level + 1), (column, level - 1)]
        move_to(state, player, *free_space_near(state, player, spaces, column - 1, level), events)


def boss_finished(state: dict, events: list[dict]) -> None:
    events.append({"type": "boss_finished"})
    if rule(state, "race_together"):
        end_coop(state, False, "boss_finished", events)
    elif not state["race"]["final_round"]:
        state["race"]["boss_finished"] = True  # the race ends at once (``round_end_next``)


def free_move_count(state: dict) -> int:
    """The last player, or the two last from 4 players on.

    Solo too: « Lorsque vous jouez en solo, les mêmes règles s'appliquent, sauf qu'il n'y a pas de mode
    Bulle », and a player racing alone is the last on the board."""
    return min(2 if len(state["players"]) >= 4 else 1, len(racers(state)))


def last_players(state: dict):
    """Farthest behind first (same column: the lower level is behind); None when the table must say."""
    count = free_move_count(state)
    answers = state["round"]["answers"]
    if "last" in answers:
        return answers["last"]
    if count == 0 or not positions_known(state):
        return []  # the players see who is last on the board: the host is not asked
    behind = sorted(racers(state), key=lambda p: (p["position"]["column"], p["position"]["level"]))
    return [player["seat"] for player in behind[:count]]


def begin_free_move(state: dict, rng) -> list[dict]:
    """The last player(s) move one space forward; one who keeps a position records it (the farthest behind first).

    Waiting for the move keeps the companion's positions right for the next round, and the
    final round's ranking counts it."""
    seats = last_players(state)
    state["round"]["end"]["free_move"] = state["round"]["free_move"] = seats
    count = free_move_count(state)
    return [{"type": "free_move", "seats": seats, "count": count}] if count else []


def free_mover(state: dict):
    """The player whose free move the companion waits for (None: nobody, or nothing to record).

    A player who keeps no position moves their figure on the board alone: nothing to record."""
    round_ = state["round"]
    if state["phase"] != "round_end" or state.get("stage") != "free_move":
        return None
    keeping = {p["seat"] for p in racers(state) if p["position"] is not None}
    seats = round_["end"].get("free_move") or []
    return next((seat for seat in seats[round_["free_moved"]:] if seat in keeping), None)


def check_free_move(state: dict, seat, action: dict) -> None:
    """« le joueur en dernière place [...] peut déplacer sa figurine d'un espace vers l'avant au niveau de son
    choix. Cet espace doit être inoccupé par un autre joueur » (``level``), or ``pass: true``."""
    player = require_own_seat(state, seat)
    if free_mover(state) != seat:
        raise IllegalAction(N_("Only the last player makes the free move, at the end of the round."))
    if action.get("pass") is True:
        return
    require_fields(action, level=int)
    column, level = player["position"]["column"] + 1, action["level"]
    if not 1 <= level <= LEVELS:
        raise IllegalAction(N_("A level is 1, 2 or 3."))
    taken = player_at(state, column, level)
    if taken is not None:
        raise IllegalAction(N_("%(name)s is on that space: choose another level."), name=name_of(state, taken))


def do_free_move(state: dict, seat, action: dict, rng) -> list[dict]:
    check_free_move(state, seat, action)
    player = player_of(state, seat)
    state["round"]["free_moved"] = state["round"]["end"]["free_move"].index(seat) + 1
    if action.get("pass") is True:
        return [{"type": "free_move_passed", "seat": seat}]
    column, level = player["position"]["column"] + 1, action["level"]
    events = [{"type": "free_moved", "seat": seat}]
    move_to(state, player, column, level, events)
    if state["race"]["final_round"] and not player["crossed"]:
        state["round"]["end"]["landed"].append(seat)  # the ranking waits for what they landed on
    return events


def landed_unsure(state: dict) -> list:
    """The final round's ranking waits for each free mover whose position is kept to say whether they
    landed on an enemy (``hurt``) or not (``no_hit``).

    « S'il contient un Ennemi, le joueur peut toujours s'y déplacer, mais perdra son Jeton Cœur ou
    subira un dégât »: damage moves them back, which can change the ranking. In another round the
    hit is reported during the next one."""
    if state["phase"] != "round_end" or state.get("stage") != "landings":
        return []
    return list(state["round"]["end"]["landed"])


def check_no_hit(state: dict, seat, action: dict) -> None:
    """The player says nothing hit them: no projectile of the round's end reached them (they keep no
    position), or the final round's free move landed on no enemy."""
    require_own_seat(state, seat)
    if seat not in unsure_of_projectiles(state) and seat not in landed_unsure(state):
        raise IllegalAction(N_("Nothing waits for you to say whether you were hit."))


def do_no_hit(state: dict, seat, action: dict, rng) -> list[dict]:
    check_no_hit(state, seat, action)
    end = state["round"]["end"]
    if seat in unsure_of_projectiles(state):
        end["told"].append(seat)
    else:
        end["landed"].remove(seat)
    return [{"type": "no_hit", "seat": seat}]


def round_end_waits_on(state: dict) -> list:
    """The seats the round's end waits for, in the order they act."""
    mover = free_mover(state)
    return ([mover] if mover is not None else []) + unsure_of_projectiles(state) + landed_unsure(state)


def round_end_question(state: dict):
    """Nothing: a hit or the last place the companion cannot know, the player's phone tells it."""
    return None
