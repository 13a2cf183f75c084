"""Rayman's round start: the first discards, the projectile and Boss dice, the projectile's spawn."""

from __future__ import annotations

from companion.games.base import HOST, Draw, IllegalAction, N_
from companion.games.rayman.board import take_hit
from companion.games.rayman.choosing import start_choosing
from companion.games.rayman.common import (die_level, ended, name_of, player_at, player_of, positions_known, racers,
                                           rule)
from companion.games.rayman.constants import (BOSS_DECK, MAX_BOSS_MOVE, RANDOM_DISCARDS, SPAWN_COLUMNS,
                                              START_COLUMN, lasts_the_round)


def start_race(state: dict, rng, events: list[dict]) -> None:
    events.append({"type": "race_started", "race": state["race"]["number"], "board": state["race"]["board"]})
    if rule(state, "random_discards"):
        for player in state["players"]:
            random_discards(state, player, rng, 1, events)
    new_round(state, 1, rng, events)


def random_discards(state: dict, player: dict, rng, round_number: int, events: list[dict]) -> None:
    """Co-op and solo: two cards leave the hand at random, shown to their owner only."""
    order = rng.permutation(len(player["hand"]), Draw("random_discard", seat=player["seat"], round=round_number),
                            secret=True)
    positions = sorted(order[:RANDOM_DISCARDS])
    chosen = [player["hand"][position] for position in positions]
    player["hand"] = [card for card in player["hand"] if card not in chosen]
    player["discard"] += chosen
    player["random_discards"] = chosen
    player["random_ranks"] = [position + 1 for position in positions]
    events.append({"type": "random_discards", "seat": player["seat"], "count": len(chosen)})


def new_round(state: dict, number: int, rng, events: list[dict]) -> None:
    state["round"] = {"number": number, "rolled": False, "roller": None, "die": None, "card_line": None,
                      "boss_die": None, "spawn": None, "answers": {}, "order": [], "turn": 0, "tie_rolls": [],
                      "revealed": [], "asking": [], "end": None, "free_move": [], "free_moved": 0, "offer": None,
                      "pushes": {}}
    if state["config"]["projectile"] and number == 1:
        seats = [player["seat"] for player in state["players"]]
        state["round"]["roller"] = rng.choice(seats, Draw("first_roller"))
    events.append({"type": "round_started", "round": number})


def needs_roll(state: dict) -> bool:
    return bool(state["config"]["projectile"] or state["boss"])


def farthest_from_finish(state: dict):
    """The player nearest the start: lowest column, then lowest level."""
    behind = sorted(racers(state), key=lambda p: (p["position"]["column"], p["position"]["level"]))
    return behind[0]["seat"] if behind else None


def current_roller(state: dict):
    """Who rolls the projectile die; None when anyone may: the player farthest from the finish, whom the
    players see on the board when the companion does not know (the host is not asked)."""
    round_ = state["round"]
    if not state["config"]["projectile"]:
        return None
    if round_["number"] == 1:
        return still_racing(state, round_["roller"])
    if "farthest" in round_["answers"]:
        return still_racing(state, round_["answers"]["farthest"])
    return farthest_from_finish(state) if positions_known(state) else None


def still_racing(state: dict, seat):
    """A roller taken out of the game holds nothing up: any player (or the host) rolls instead,
    and the draw that chose them stays as it was (the verifier finds it unchanged)."""
    return seat if any(player["seat"] == seat for player in state["players"]) else None


def begin_round_start(state: dict, rng) -> list[dict]:
    """A race's first round, or the next one once the last round's end is over (its discards first)."""
    events: list[dict] = []
    if state["round"] is None:
        start_race(state, rng, events)
    else:
        close_round(state, rng, events)
        new_round(state, state["round"]["number"] + 1, rng, events)
    if not needs_roll(state):
        start_choosing(state, events)
    return events


def round_started(state: dict) -> bool:
    """The dice are rolled (or there are none) and the projectile placed: the choice is on."""
    return not needs_roll(state) or state["round"]["rolled"]


def close_round(state: dict, rng, events: list[dict]) -> None:
    """The round's played cards go to the discard; co-op and solo hands used up are renewed."""
    round_ = state["round"]
    for player in state["players"]:
        player["discard"] += player["played"]
        player["played"] = []
        player["bubble"] = player["slapped"] = False
    if rule(state, "random_discards"):
        for player in racers(state):
            if not player["hand"]:  # every card used: take them all back, two leave at random
                player["hand"], player["discard"] = player["hand"] + player["discard"], []
                random_discards(state, player, rng, round_["number"] + 1, events)
    events.append({"type": "round_ended", "round": round_["number"]})


def check_roll(state: dict, seat, action: dict) -> None:
    round_ = state["round"]
    if not needs_roll(state):
        raise IllegalAction(N_("This race has no projectile and no Boss: there is no die to roll."))
    if round_["rolled"]:
        raise IllegalAction(N_("The dice of this round are already rolled."))
    if round_start_question(state):
        raise IllegalAction(N_("The table must answer a question first."))
    roller = current_roller(state)
    if seat != HOST:
        player = player_of(state, seat)
        if roller is not None and seat != roller:
            raise IllegalAction(N_("%(name)s rolls this die."), name=name_of(state, roller))
        if player["crossed"]:
            raise IllegalAction(N_("You have finished the race: the others roll."))


def do_roll(state: dict, seat, action: dict, rng) -> list[dict]:
    check_roll(state, seat, action)
    round_, roller = state["round"], current_roller(state)
    round_["rolled"] = True
    events = []
    if state["config"]["projectile"]:
        events += roll_projectile(state, roller, rng)
    if state["boss"]:
        events += roll_boss(state, rng)
    spawn = round_["spawn"]
    if spawn:
        column = spawn_column(state)
        place_projectile(state, column, spawn["level"], spawn_hit(state, column)[1], events)
        spawn["done"] = True
    if not ended(state):  # a hit as the projectile appeared may have ended the game
        start_choosing(state, events)
    return events


def roll_projectile(state: dict, roller, rng) -> list[dict]:
    round_ = state["round"]
    die = rng.randint(1, 6, Draw("projectile_level", round=round_["number"], seat=roller))
    round_["die"] = die
    round_["spawn"] = {"level": die_level(die), "done": False}
    if state["config"]["projectile_card"]:
        round_["card_line"] = die  # the die sits on this line of the card until the end of the round
    card = state["config"]["projectile"] if state["config"]["projectile_card"] else None
    events = [{"type": "projectile_roll", "seat": roller, "die": die, "level": die_level(die), "card": card,
               "line": round_["card_line"]}]
    if card and lasts_the_round(card, die):
        # « Certaines cartes peuvent inclure des effets continus qui restent actifs tout au long du round.
        # Ces effets seront identifiés avec la note : « CE ROUND-CI ». »: applied now, for the whole round
        events.append({"type": "projectile_card_effect", "card": card, "line": die, "this_round": True})
    return events


def roll_boss(state: dict, rng) -> list[dict]:
    boss, round_ = state["boss"], state["round"]
    die = rng.randint(1, 6, Draw("boss_level", round=round_["number"]))
    round_["boss_die"] = die
    entering = boss["column"] is None
    if entering:
        boss["column"] = START_COLUMN
    boss["level"] = die_level(die)
    events = [{"type": "boss_roll", "die": die, "level": boss["level"], "entering": entering}]
    if boss["card"] is not None:
        boss["used"].append(boss["card"])  # the previous attack card is discarded
    if not boss["deck"]:  # all three used: the deck is shuffled again
        boss["deck"] = rng.shuffle(list(range(1, BOSS_DECK + 1)), Draw("boss_cards_shuffle"),
                                   secret=True)
        boss["used"] = []
    boss["card"] = boss["deck"].pop(0)
    events.append({"type": "boss_card", "card": boss["card"]})
    return events


def at_the_start_line(state: dict) -> bool:
    """In a race's first round nobody has played yet: a position not kept is on the start line."""
    return state["round"]["number"] == 1


def spawn_column(state: dict) -> int:
    """Column 43 once a figure reached the second tile: a kept position says so, or the player's phone
    (``second_tile``) when they keep none; the host is not asked."""
    return SPAWN_COLUMNS[1 if state["second_tile"] else 0]


def spawn_hit(state: dict, column: int) -> tuple[bool, object]:
    """A figure whose position is kept is hit where the projectile appears; a player who keeps none and
    stands there reports the hit on their phone (``hurt``, that projectile): the host is not asked."""
    return True, player_at(state, column, state["round"]["spawn"]["level"])


def place_projectile(state: dict, column: int, level: int, hit, events: list[dict]) -> None:
    projectile = {"id": state["next_projectile"], "column": column, "level": level, "origin": column}
    state["next_projectile"] += 1
    if hit is None:
        state["projectiles"].append(projectile)
        events.append({"type": "projectile_spawned", **projectile})
        return
    events.append({"type": "projectile_spawn_hit", **projectile, "seat": hit})
    take_hit(state, player_of(state, hit), "projectile", events)


def round_start_question(state: dict):
    round_, boss = state["round"], state["boss"]
    if not round_["rolled"]:
        if boss and boss["move"] is None:
            return {"key": "boss_move", "low": 1, "high": MAX_BOSS_MOVE}
    return None
