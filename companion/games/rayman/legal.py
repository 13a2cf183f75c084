"""Rayman: the actions a seat may take now, for the phones' buttons and the tests."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from itertools import combinations

from companion.games.base import HOST, IllegalAction
from companion.games.rayman.choosing import possible_choices
from companion.games.rayman.common import active_seat, choosers, player_at, player_of, rule
from companion.games.rayman.constants import (CHARACTERS, DIRECTIONS, HIT_PHASES, HURT_CAUSES, LAST_COLUMN,
                                              LEGENDARY_CARDS, LEVELS, MAX_COLUMN, PTIZETRES_TO_FINISH,
                                              RACE_PHASES, START_COLUMN, commitment)
from companion.games.rayman.ptizetres import colour_candidates
from companion.games.rayman.questions import question
from companion.games.rayman.round import current_roller, needs_roll
from companion.games.rayman.round_end import free_mover, landed_unsure, unsure_of_projectiles
from companion.games.rayman.setup import cards_to_give_back
from companion.games.rayman.turns import check_exchange, within_reach


def candidate_actions(state: dict, seat, kind: str | None = None) -> list[dict]:
    """The actions (of type ``kind``, or of every type) worth offering ``seat`` now; the kernel keeps those
    the moves' checks accept.

    Open-ended arguments are sampled: a few initiatives, positions and
    distances, two orders for a ranking.
    """
    phase = state["phase"]
    if phase == "game_over":
        return []
    if seat == HOST:
        actions = host_actions(state) + colour_candidates(state)
        return [action for action in actions if kind in (None, action["type"])]
    try:
        player = player_of(state, seat)
    except IllegalAction:
        return []
    actions = []
    if kind is None or kind in PHASE_KINDS.get(phase, ()):  # a phase's sampling can be long (every commitment)
        actions += SEAT_ACTIONS[phase](state, player)
    if kind in (None, "hurt") and phase in HIT_PHASES and not player["crossed"]:
        actions += hurt_actions(state)
    if (kind is None or kind in POSITION_KINDS) and phase in RACE_PHASES:
        actions += position_actions(state, player)
    return [action for action in actions if kind in (None, action["type"])]


def hurt_actions(state: dict) -> list[dict]:
    actions = [{"type": "hurt", "cause": cause} for cause in HURT_CAUSES
               if cause not in ("projectile", "boss") or (cause == "boss" and state["boss"])]
    return actions + [{"type": "hurt", "cause": "projectile", "projectile": p["id"]} for p in state["projectiles"]]


def host_actions(state: dict) -> list[dict]:
    asked = question(state)
    if asked:
        return [{"type": "answer", "question": asked["key"], "value": value} for value in answer_samples(asked)]
    if state["phase"] == "race_over":
        return [{"type": "next_race"}]
    if state["phase"] == "initiatives":
        return initiative_actions(state, HOST)
    if state["phase"] == "round_start" and needs_roll(state) and not state["round"]["rolled"]:
        return [{"type": "roll"}]
    return []


INITIATIVE_SAMPLES = (2, 5, 9)


def initiative_actions(state: dict, seat) -> list[dict]:
    """A few initiatives for each card the companion asks of ``seat`` (the host: of every seat)."""
    return [{"type": "initiative", "seat": entry["seat"], "card": entry["card"], "initiative": value}
            for entry in state["round"]["asking"] if seat in (HOST, entry["seat"]) for value in INITIATIVE_SAMPLES]


def answer_samples(asked: dict) -> list:
    key = asked["key"]
    if key == "boss_move":
        return [3, 6, 9]
    if key == "ranking":
        return [asked["choices"], list(reversed(asked["choices"]))]
    return list(asked["choices"])


def setup_actions(state: dict, player: dict) -> list[dict]:
    phase = state["phase"]
    if phase == "characters":
        taken = {p["character"].lower() for p in state["players"] if p["character"] and p is not player}
        free_name = f"Hero {player['seat']}"
        return [{"type": "character", "name": name} for name in CHARACTERS + (free_name,)
                if name.lower() not in taken]
    if phase == "legendary":
        taken = {p["legendary"] for p in state["players"] if p is not player}
        return [{"type": "pick_legendary", "card": card} for card in LEGENDARY_CARDS if card not in taken]
    if phase == "exchange" and cards_to_give_back(player):
        ids = [card["id"] for card in player["cards"]]
        return [{"type": "exchange", "drop": list(drop)} for drop in combinations(ids, cards_to_give_back(player))]
    return []


def draft_actions(state: dict, player: dict) -> list[dict]:
    draft = state["draft"]
    if draft["table"] and draft["turn"] < len(draft["order"]) and draft["order"][draft["turn"]] == player["seat"]:
        return [{"type": "pick", "card": card} for card in draft["table"]]
    return []


def round_start_actions(state: dict, player: dict) -> list[dict]:
    if not needs_roll(state) or state["round"]["rolled"] or question(state) or player["crossed"]:
        return []
    roller = current_roller(state)
    return [{"type": "roll"}] if roller in (None, player["seat"]) else []


@lru_cache(maxsize=64)
def sample_salt(seat) -> str:
    """The salt tests and bots lock and reveal with (one per seat); a phone makes its own
    (``crypto.getRandomValues``)."""
    return hashlib.sha256(f"sample salt of seat {seat}".encode()).hexdigest()[:32]


def choosing_actions(state: dict, player: dict) -> list[dict]:
    if player["locked"]:
        return [{"type": "repick"}]
    salt = sample_salt(player["seat"])
    return [{"type": "lock", "commitment": sample_commitment(choice["bubble"], choice["left"], choice["second"], salt)}
            for choice in possible_choices(state, player)]


@lru_cache(maxsize=4096)
def sample_commitment(bubble: bool, left, second, salt: str) -> str:
    """A candidate lock's commitment: every view of the choosing lists a seat's every choice again, each
    hashed, so the hashes are kept."""
    return commitment({"bubble": bubble, "left": left, "second": second}, salt)


def revealing_actions(state: dict, player: dict) -> list[dict]:
    salt = sample_salt(player["seat"])
    return [{"type": "reveal", "choice": choice, "salt": salt} for choice in possible_choices(state, player)] + [
        {"type": "repick"}]


def turn_actions(state: dict, player: dict) -> list[dict]:
    seat = player["seat"]
    actions = []
    if player["bonus_pending"]:
        actions += [{"type": "use_bonus"}, {"type": "discard_bonus"}]
    actions += exchange_actions(state, player)
    if active_seat(state) != seat:
        return actions + crossing_actions(player)
    if player["bonus_pending"]:
        return actions
    actions.append({"type": "end_turn"})
    if player["bubble_mode"]:
        return actions + crossing_actions(player)
    return actions + acting_actions(state, player) + crossing_actions(player)


def exchange_actions(state: dict, player: dict) -> list[dict]:
    offer = state["round"].get("offer")
    if offer and player["seat"] in (offer["from"], offer["to"]):
        answers = [False, True] if player["seat"] == offer["to"] else [False]
        return [{"type": "answer_offer", "accept": accept} for accept in answers]
    if not rule(state, "bonus_exchange") or offer:
        return []
    actions = []
    for other in state["players"]:
        for give, take in ((1, 0), (0, 1), (1, 1)):
            try:
                check_exchange(state, player, other, give, take)
            except IllegalAction:
                continue
            actions.append({"type": "give_bonus", "to": other["seat"], "give": give, "take": take})
    return actions


def acting_actions(state: dict, player: dict) -> list[dict]:
    actions = [{"type": "heart"}, {"type": "bonus"}]
    if rule(state, "gift_hearts") and player["heart"]:
        actions += [{"type": "heart", "to": other["seat"]} for other in state["players"]
                    if other is not player and not other["heart"]]
    if player["heart"] and player["legendary"] == "filou":
        actions.append({"type": "spend_heart"})
    if player["bonus"]:
        actions.append({"type": "use_bonus"})
    if player["legendary"] and not (state["config"]["limited_legendary"] and player["legendary_uses"]):
        actions.append({"type": "use_legendary"})
    actions += [{"type": "free", "ptizetre": number} for number in range(1, state["config"]["captives"] + 1)
                if number not in player["ptizetres"]]
    if not player["crossed"]:
        actions += slap_actions(state, player)
    return actions


def slap_actions(state: dict, player: dict) -> list[dict]:
    actions = []
    for target in state["players"]:
        if target is player or target["crossed"] or target["bubble"]:
            continue
        if target["slapped"] and not state["config"]["unlimited_slaps"]:
            continue
        if not within_reach(state, player, target):
            continue
        same_column = (not target["bubble_mode"] and player["position"] and target["position"]
                       and player["position"]["column"] == target["position"]["column"])
        if same_column:
            actions += [{"type": "slap", "target": target["seat"], "direction": way} for way in ("forward", "back")]
        else:
            actions.append({"type": "slap", "target": target["seat"]})
    return actions


def crossing_actions(player: dict) -> list[dict]:
    if player["crossed"] or len(player["ptizetres"]) < PTIZETRES_TO_FINISH:
        return []
    return [{"type": "crossed"}]


def round_end_actions(state: dict, player: dict) -> list[dict]:
    actions = crossing_actions(player)
    if free_mover(state) == player["seat"]:
        column = player["position"]["column"] + 1
        actions += [{"type": "free_move", "level": level} for level in range(1, LEVELS + 1)
                    if player_at(state, column, level) is None]
        actions.append({"type": "free_move", "pass": True})
    if player["seat"] in unsure_of_projectiles(state) or player["seat"] in landed_unsure(state):
        actions.append({"type": "no_hit"})
    return actions


def finish_actions(state: dict, player: dict) -> list[dict]:
    if player["crossed"] and player["position"] is None:
        return [{"type": "distance", "spaces": spaces} for spaces in (1, 2, 5)]
    return []


def position_actions(state: dict, player: dict) -> list[dict]:
    position = player["position"]
    if position is None:
        start = LAST_COLUMN + 1 if player["crossed"] else START_COLUMN
        return [{"type": "second_tile"}, {"type": "position", "column": start, "level": 1}]
    crossing_allowed = state["phase"] in ("turns", "round_end") and (
        player["crossed"] or len(player["ptizetres"]) >= PTIZETRES_TO_FINISH)
    low = LAST_COLUMN + 1 if player["crossed"] else START_COLUMN
    high = MAX_COLUMN if crossing_allowed else LAST_COLUMN
    actions = [{"type": "forget_position"}]
    for direction, (columns, levels) in DIRECTIONS.items():
        column, level = position["column"] + columns, position["level"] + levels
        if low <= column <= high and 1 <= level <= LEVELS:
            actions.append({"type": "step", "direction": direction})
    for jump in (5, 12):
        column = min(position["column"] + jump, high)
        if low <= column:
            actions.append({"type": "position", "column": column, "level": (position["level"] % LEVELS) + 1})
    return actions


POSITION_KINDS = ("position", "step", "forget_position", "second_tile")
TURN_KINDS = ("use_bonus", "discard_bonus", "answer_offer", "give_bonus", "end_turn", "heart", "bonus", "spend_heart",
              "use_legendary", "free", "slap", "crossed")
PHASE_KINDS = {"characters": ("character",), "legendary": ("pick_legendary",), "exchange": ("exchange",),
               "draft": ("pick",), "round_start": ("roll",), "choosing": ("lock", "repick"),
               "revealing": ("reveal", "repick"), "initiatives": ("initiative",), "turns": TURN_KINDS,
               "round_end": ("crossed", "free_move", "no_hit"), "finish": ("distance",)}
SEAT_ACTIONS = {"characters": setup_actions, "legendary": setup_actions, "exchange": setup_actions,
                "draft": draft_actions, "round_start": round_start_actions,
                "choosing": choosing_actions, "revealing": revealing_actions,
                "initiatives": lambda state, player: initiative_actions(state, player["seat"]), "turns": turn_actions,
                "round_end": round_end_actions, "finish": finish_actions}
