"""Rayman: the end of a race: distances past the line, the ranking, a tournament's standings."""

from __future__ import annotations

from itertools import groupby

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.common import player_of, positions_known, racers, require_own_seat
from companion.games.rayman.constants import BOARDS, LAST_COLUMN, MAX_COLUMN, OTHER_PLACE_POINTS, PLACE_POINTS
from companion.games.rayman.round import close_round
from companion.games.rayman.setup import following_setup, new_boss, new_race, reset_for_race


def begin_finish(state: dict, rng) -> list[dict]:
    """The race ends: after the final round (its played cards are discarded first), or as the Boss finished."""
    events: list[dict] = []
    if not state["race"]["boss_finished"]:
        close_round(state, rng, events)
    state["round"]["answers"] = {}
    events.append({"type": "race_ending", "race": state["race"]["number"]})
    return events


def distance_of(player: dict):
    if player["distance"] is not None:
        return player["distance"]
    if player["position"] is not None and player["position"]["column"] > LAST_COLUMN:
        return player["position"]["column"] - LAST_COLUMN
    return None


def others_order(state: dict):
    """Those who did not cross, best first: from the positions or from the host."""
    others = racers(state)
    if len(others) <= 1:
        return [player["seat"] for player in others]
    if "ranking" in state["round"]["answers"]:
        return state["round"]["answers"]["ranking"]
    if positions_known(state):
        ahead = sorted(others, key=lambda p: (p["position"]["column"], p["position"]["level"]), reverse=True)
        return [player["seat"] for player in ahead]
    return None


def rankable(state: dict) -> bool:
    """Every distance past the line and the order of the others are known."""
    crossed = [player for player in state["players"] if player["crossed"]]
    return all(distance_of(player) is not None for player in crossed) and others_order(state) is not None


def finish_next(state: dict):
    """Ranked: the next race of a tournament, or the end of the game."""
    if not rankable(state):
        return None
    tournament = state["tournament"]
    return "race_over" if tournament is not None and len(tournament["races"]) + 1 < len(BOARDS) else "game_over"


def begin_ranked(state: dict, rng) -> list[dict]:
    """The race's ranking (and a tournament's standings), as the race ends; a game that ended in the middle
    of a race (co-op, solo) has its result already."""
    if state["result"] is not None:
        return []
    crossed = [player for player in state["players"] if player["crossed"]]
    events: list[dict] = []
    finish_race(state, rank(state, crossed, others_order(state)), events)
    return events


def final_initiative(state: dict, seat) -> int:
    entry = next((e for e in state["round"]["revealed"] if e["seat"] == seat), None)
    return entry["left_initiative"] if entry and entry["left_initiative"] is not None else -1


def rank(state: dict, crossed: list[dict], others: list) -> list[dict]:
    def key(player):
        return distance_of(player), final_initiative(state, player["seat"])

    ranking, place = [], 2 if state["race"]["boss_finished"] else 1
    for _, group in groupby(sorted(crossed, key=key, reverse=True), key=key):
        group = list(group)
        ranking += [{"seat": p["seat"], "place": place, "crossed": True, "distance": distance_of(p)} for p in group]
        place += len(group)
    for offset, seat in enumerate(others):
        ranking.append({"seat": seat, "place": place + offset, "crossed": False, "distance": None})
    return ranking


def place_points(place: int) -> int:
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else OTHER_PLACE_POINTS


def finish_race(state: dict, ranking: list[dict], events: list[dict]) -> None:
    winners = [entry["seat"] for entry in ranking if entry["place"] == 1]
    result = {"kind": "race", "ranking": ranking, "winners": winners, "boss_won": state["race"]["boss_finished"]}
    events.append({"type": "race_over", "race": state["race"]["number"], **result})
    state["result"] = result
    tournament = state["tournament"]
    if tournament is None:
        events.append({"type": "game_over"})
        return
    points = {entry["seat"]: place_points(entry["place"]) for entry in ranking}
    for standing in tournament["standings"]:
        standing["points"] += points.get(standing["seat"], 0)
    tournament["races"].append({"board": state["race"]["board"], "ranking": ranking, "points": points_list(points)})
    events.append({"type": "standings", "standings": tournament["standings"]})
    if len(tournament["races"]) == len(BOARDS):
        best = max(standing["points"] for standing in tournament["standings"])
        tournament["winners"] = [s["seat"] for s in tournament["standings"] if s["points"] == best]
        events.append({"type": "game_over", "winners": tournament["winners"]})


def points_list(points: dict) -> list[dict]:
    return [{"seat": seat, "points": value} for seat, value in points.items()]


def check_distance(state: dict, seat, action: dict) -> None:
    """How many spaces past the finish line a player got (when they keep no position)."""
    player = require_own_seat(state, seat)
    if not player["crossed"]:
        raise IllegalAction(N_("Only the players past the finish line enter a distance."))
    require_fields(action, spaces=int)
    if not 1 <= action["spaces"] <= MAX_COLUMN - LAST_COLUMN:
        raise IllegalAction(N_("A distance is a whole number from 1 to %(high)s."), high=MAX_COLUMN - LAST_COLUMN)


def do_distance(state: dict, seat, action: dict, rng) -> list[dict]:
    check_distance(state, seat, action)
    player_of(state, seat)["distance"] = action["spaces"]
    return [{"type": "distance", "seat": seat, "spaces": action["spaces"]}]


def check_next_race(state: dict, seat, action: dict) -> None:
    """Nothing to check: the phase table offers the next race between two races only."""


def do_next_race(state: dict, seat, action: dict, rng) -> list[dict]:
    check_next_race(state, seat, action)
    number = state["race"]["number"] + 1
    config = state["config"]
    state["race"] = new_race(config, number)
    state.update({"round": None, "projectiles": [], "second_tile": False,  # projectile ids stay unique
                  "boss": new_boss(config), "draft": None, "result": None})
    for player in state["players"]:
        if config["extra_cards"] and not config["card_exchange"]:
            player["cards"] = [card for card in player["cards"] if card["extra"] is None]
        if not config["keep_legendary"]:
            player["legendary"] = None
        reset_for_race(player)
    return [{"type": "next_race", "race": number, "board": state["race"]["board"]}]


def race_over_next(state: dict):
    """The host started the next race (its result is cleared): its setup, or its first round."""
    return following_setup(state, "characters") if state["result"] is None else None
