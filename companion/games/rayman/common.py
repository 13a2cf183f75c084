"""Rayman: looking players up, and the checks every phase shares."""

from __future__ import annotations

from companion.games.base import HOST, N_, IllegalAction, require_fields


def player_of(state: dict, seat) -> dict:
    for player in state["players"]:
        if player["seat"] == seat:
            return player
    raise IllegalAction(N_("Only the players of this race can do that."))


def name_of(state: dict, seat) -> str:
    player = player_of(state, seat)
    return player["character"] or player["name"]


# What the table is doing in each phase, read as "the table is <label>" (the kernel's refusals and waits).
LABELS = {
    "characters": N_("naming the characters"),
    "legendary": N_("picking the legendary cards"),
    "draft": N_("drafting the extra action cards"),
    "exchange": N_("giving back cards before the race"),
    "round_start": N_("rolling the dice of the round"),
    "choosing": N_("choosing the cards in secret"),
    "revealing": N_("revealing the chosen cards"),
    "initiatives": N_("reading the initiatives of cards played for the first time"),
    "turns": N_("playing the turns"),
    "round_end": N_("ending the round"),
    "finish": N_("settling the ranking"),
    "race_over": N_("between two races"),
    "game_over": N_("finishing the game"),
}


def ended(state: dict) -> bool:
    """The game ended in the middle of a race (co-op or solo won or lost, nobody left): every race phase's
    ``next`` then goes to ``game_over``."""
    return state["result"] is not None and state["result"]["kind"] == "coop"


def card_of(player: dict, card_id):
    return next((card for card in player["cards"] if card["id"] == card_id), None)


def racers(state: dict) -> list[dict]:
    """Players still on the course (not past the finish line)."""
    return [player for player in state["players"] if not player["crossed"]]


def positions_known(state: dict) -> bool:
    return all(player["position"] is not None for player in racers(state))


def rule(state: dict, name: str) -> bool:
    """One of the rules the mode decides (see ``options.mode_rules``)."""
    return state["config"]["rules"][name]


def active_seat(state: dict):
    if state["phase"] != "turns":
        return None
    round_ = state["round"]
    return round_["order"][round_["turn"]]


def require_turn(state: dict, seat) -> dict:
    """The player whose turn it is (the phase table lets a turn's moves through in the turns only)."""
    active = active_seat(state)
    if seat != active:
        raise IllegalAction(N_("It is %(name)s's turn."), name=name_of(state, active))
    return player_of(state, seat)


def require_own_seat(state: dict, seat) -> dict:
    if seat == HOST:
        raise IllegalAction(N_("The host screen does not play: act from a seat."))
    return player_of(state, seat)


def require_seat_field(state: dict, action: dict, field: str) -> dict:
    require_fields(action, **{field: int})
    return player_of(state, action[field])


def die_level(value: int) -> int:
    return (value + 1) // 2  # 1-2: first level, 3-4: second, 5-6: third


def player_at(state: dict, column: int, level: int):
    for player in racers(state):
        position = player["position"]
        if position and position["column"] == column and position["level"] == level:
            return player["seat"]
    return None


def choosers(state: dict) -> list[dict]:
    return racers(state)


def hand_size(player: dict) -> int:
    return len(player["hand"])


def seat_list(players: list[dict]) -> list:
    return [player["seat"] for player in players]
