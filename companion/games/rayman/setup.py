"""Rayman before the first round: characters, legendary cards, the draft of extra cards."""

from __future__ import annotations

from companion.games.base import Draw, IllegalAction, N_, require_fields
from companion.games.rayman.cards import extra_initiative, fill_base_cards, learn, remembered
from companion.games.rayman.common import card_of, name_of, player_of, require_own_seat, rule
from companion.games.rayman.constants import (BASE_CARDS, BOARDS, CHARACTERS, DRAFT_ROUNDS, EXTRA_CARDS,
                                              LEGENDARY_CARDS, MAX_INITIATIVE, SETUP_PHASES, SOLO_DRAFT,
                                              START_COLUMN)
from companion.games.rayman.layout import pack
from companion.games.rayman.options import resolve, seat_range
from companion.games.rayman.ptizetres import remembered_colours
from companion.text import unsafe_character


def setup(options: dict, seats: list[dict], rng) -> dict:
    """``options["memory"]``: what the table learnt in its earlier games (``cards.carry``), if any."""
    config = resolve(options)
    low, high = seat_range(config)
    if not low <= len(seats) <= high:
        raise IllegalAction(N_("This mode is for %(low)s to %(high)s players."), low=low, high=high)
    return pack({
        "config": config,
        "phase": "characters",
        "players": [new_player(seat, config) for seat in seats],
        "race": new_race(config, 1),
        "round": None,
        "projectiles": [],
        "next_projectile": 1,
        "second_tile": False,
        "boss": new_boss(config),
        "draft": None,
        "youngest": None,
        "known": remembered(options.get("memory")),
        "ptizetre_colours": remembered_colours(options.get("memory")),
        "tournament": {"races": [], "standings": [{"seat": seat["id"], "points": 0} for seat in seats]}
        if config["tournament"] else None,
        "result": None, "outcome": None,
        "history": [], "history_count": 0,
    })


def new_player(seat: dict, config: dict) -> dict:
    cards = [{"id": f"b{number}", "initiative": None, "extra": None} for number in range(1, BASE_CARDS + 1)]
    player = {"seat": seat["id"], "name": seat["name"], "character": None, "legendary": None,
              "cards": cards, "position": None}
    reset_for_race(player)
    return player


def reset_for_race(player: dict) -> None:
    """Tokens, hand and progress as the race starts (cards and character stay)."""
    player.update({
        "hand": [card["id"] for card in player["cards"]], "discard": [], "played": [], "random_discards": [],
        "random_ranks": [], "heart": False, "bonus": 0, "bonus_pending": False, "ptizetres": [],
        "immune": False, "bubble": False, "bubble_mode": False, "slapped": False, "crossed": False,
        "distance": None, "legendary_uses": 0, "bubbled_round": None, "locked": False, "commitment": None,
    })
    if player["position"] is not None:
        player["position"] = {"column": START_COLUMN, "level": 1}


def new_race(config: dict, number: int) -> dict:
    board = BOARDS[number - 1] if config["tournament"] else config["board"]
    return {"number": number, "board": board, "final_round": False, "boss_finished": False}


def new_boss(config: dict) -> dict | None:
    if not config["boss"]:
        return None
    return {"name": config["boss"], "move": config["boss_move"], "column": None, "level": None,
            "deck": [], "card": None, "used": []}


def check_character(state: dict, seat, action: dict) -> str:
    """The name the character takes (the box's spelling of a box character)."""
    player = require_own_seat(state, seat)
    require_fields(action, name=str)
    name = " ".join(action["name"].split())
    if not 0 < len(name) <= 24:
        raise IllegalAction(N_("A character's name has 1 to 24 characters."))
    if unsafe_character(name):  # shown on every screen: it must not reorder or hide text there
        raise IllegalAction(N_("A character's name cannot contain control, invisible or direction-changing "
                               "characters."))
    name = next((box for box in CHARACTERS if box.lower() == name.lower()), name)
    taken = [other for other in state["players"] if other["seat"] != player["seat"] and other["character"]
             and other["character"].lower() == name.lower()]
    if taken:
        raise IllegalAction(N_("%(name)s is already in the race."), name=name)
    return name


def do_character(state: dict, seat, action: dict, rng) -> list[dict]:
    name, player = check_character(state, seat, action), player_of(state, seat)
    player["character"] = name
    fill_base_cards(state, player)
    return [{"type": "character_chosen", "seat": seat, "character": name}]


def check_pick_legendary(state: dict, seat, action: dict) -> None:
    require_own_seat(state, seat)
    require_fields(action, card=str)
    card = action["card"]
    if card not in LEGENDARY_CARDS:
        raise IllegalAction(N_("The legendary cards are %(choices)s."), choices=", ".join(LEGENDARY_CARDS))
    if any(other["seat"] != seat and other["legendary"] == card for other in state["players"]):
        raise IllegalAction(N_("Another player already holds that legendary card."))


def do_pick_legendary(state: dict, seat, action: dict, rng) -> list[dict]:
    check_pick_legendary(state, seat, action)
    card = action["card"]
    player_of(state, seat)["legendary"] = card
    return [{"type": "legendary_chosen", "seat": seat, "card": card}]


def setup_done(state: dict, phase: str) -> bool:
    players = state["players"]
    if phase == "characters":
        return all(player["character"] for player in players)
    if phase == "legendary":
        return all(player["legendary"] for player in players)
    if phase == "exchange":  # every card is in hand before the race: the hand's size is the cards'
        return all(player["hand_size"] <= BASE_CARDS + DRAFT_ROUNDS for player in players)
    return False


def phase_needed(state: dict, phase: str) -> bool:
    config, race = state["config"], state["race"]["number"]
    if phase == "legendary":
        return config["legendary"] and (race == 1 or not config["keep_legendary"])
    if phase == "draft":
        return config["extra_cards"]
    if phase == "exchange":
        return config["card_exchange"] and race > 1
    return False


def following_setup(state: dict, phase: str) -> str:
    """The setup phase after ``phase`` this race needs, or the race itself (``round_start``)."""
    return next((following for following in SETUP_PHASES[SETUP_PHASES.index(phase) + 1:]
                 if phase_needed(state, following)), "round_start")


def setup_next(phase: str):
    """A setup phase's ``next``: the following one once every player has done it."""
    return lambda state: following_setup(state, phase) if setup_done(state, phase) else None


def begin_draft(state: dict, rng) -> list[dict]:
    held = {card["extra"] for player in state["players"] for card in player["cards"]}
    free = [number for number in range(1, EXTRA_CARDS + 1) if number not in held]
    deck = rng.shuffle(free, Draw("extra_cards_shuffle", count=len(free)), secret=True)
    state["draft"] = {"deck": deck, "table": [], "discarded": [], "round": 0, "order": [], "turn": 0,
                      "last": None}
    return []


def draft_next(state: dict):
    """Both rounds of the draft picked and their last cards discarded: the following setup phase."""
    draft = state["draft"]
    return following_setup(state, "draft") if draft["round"] == DRAFT_ROUNDS and not draft["table"] else None


def begin_dealing(state: dict, rng) -> list[dict]:
    """Between two rounds of the draft: the cards nobody picked are discarded."""
    draft = state["draft"]
    if not draft["table"]:
        return []
    events = [{"type": "draft_discarded", "cards": draft["table"]}]
    draft["discarded"] += draft["table"]
    draft["table"] = []
    return events


def dealing_next(state: dict):
    """The next round of the draft is dealt once the host named the youngest player (who picks first)."""
    if state["draft"]["round"] == DRAFT_ROUNDS or (len(state["players"]) > 1 and state["youngest"] is None):
        return None
    return "picking"


def picking_next(state: dict):
    draft = state["draft"]
    return "dealing" if draft["turn"] >= len(draft["order"]) else None


def picker(state: dict) -> list:
    draft = state["draft"]
    return [draft["order"][draft["turn"]]] if draft["table"] and draft["turn"] < len(draft["order"]) else []


def draft_size(state: dict) -> int:
    return SOLO_DRAFT if rule(state, "draft_alone") else len(state["players"]) + 2


def clockwise_from(state: dict, seat) -> list:
    seats = [player["seat"] for player in state["players"]]
    start = seats.index(seat)
    return seats[start:] + seats[:start]


def begin_picking(state: dict, rng) -> list[dict]:
    """A round of the draft: its cards on the table, the order of the picks."""
    draft = state["draft"]
    size = draft_size(state)
    draft["table"], draft["deck"] = draft["deck"][:size], draft["deck"][size:]
    draft["round"] += 1
    if rule(state, "draft_alone"):
        draft["order"] = [state["players"][0]["seat"]]
    elif draft["round"] == 1:
        draft["order"] = clockwise_from(state, state["youngest"])
    else:  # back the other way, starting with the last to pick
        counterclockwise = list(reversed(clockwise_from(state, state["youngest"])))
        # the last to pick starts back (if they left the race, the one before them in the way back)
        start = counterclockwise.index(draft["last"]) if draft["last"] in counterclockwise else 0
        draft["order"] = counterclockwise[start:] + counterclockwise[:start]
    draft["turn"] = 0
    return [{"type": "draft_revealed", "round": draft["round"], "cards": draft["table"], "order": draft["order"]}]


def check_pick(state: dict, seat, action: dict) -> None:
    require_own_seat(state, seat)
    draft = state["draft"]
    if not draft["table"] or draft["turn"] >= len(draft["order"]):
        raise IllegalAction(N_("No card is on the table yet: the host first names the youngest player."))
    picker = draft["order"][draft["turn"]]
    if seat != picker:
        raise IllegalAction(N_("It is %(name)s's turn to pick."), name=name_of(state, picker))
    require_fields(action, card=int)
    if action["card"] not in draft["table"]:
        raise IllegalAction(N_("That card is not on the table."))


def do_pick(state: dict, seat, action: dict, rng) -> list[dict]:
    check_pick(state, seat, action)
    player, draft = player_of(state, seat), state["draft"]
    draft["table"].remove(action["card"])
    card_id = f"x{action['card']}"
    player["cards"].append({"id": card_id, "initiative": extra_initiative(state, action["card"]),
                            "extra": action["card"]})
    player["hand"].append(card_id)
    draft["turn"] += 1  # solo: one pick, the other two cards are discarded
    draft["last"] = seat
    return [{"type": "picked", "seat": seat, "card": action["card"]}]


def cards_to_give_back(player: dict) -> int:
    return max(0, len(player["cards"]) - (BASE_CARDS + DRAFT_ROUNDS))


def check_exchange_cards(state: dict, seat, action: dict) -> None:
    """Tournament variant: as many cards go back to the box as were drafted (two, unless the deck ran short)."""
    player = require_own_seat(state, seat)
    count = cards_to_give_back(player)
    if count == 0:
        raise IllegalAction(N_("You have already exchanged your cards."))
    require_fields(action, drop=list)
    drop = action["drop"]
    ids = [card["id"] for card in player["cards"]]
    if len(drop) != count or len(set(map(str, drop))) != count or not all(card in ids for card in drop):
        raise IllegalAction(N_("Choose %(count)s of your cards to give back."), count=count)


def do_exchange(state: dict, seat, action: dict, rng) -> list[dict]:
    check_exchange_cards(state, seat, action)
    player, drop = player_of(state, seat), action["drop"]
    player["cards"] = [card for card in player["cards"] if card["id"] not in drop]
    player["hand"] = [card["id"] for card in player["cards"]]
    return [{"type": "exchanged", "seat": seat, "dropped": sorted(drop)}]


def check_correct_initiative(state: dict, seat, action: dict) -> None:
    """A mistyped initiative put right during the race (``card``, ``initiative``); a card on the table this
    round keeps the value its order of play was decided with."""
    player = require_own_seat(state, seat)
    if state["config"]["quick"]:
        raise IllegalAction(N_("With quick entry you type the initiatives each round: nothing to correct."))
    require_fields(action, card=str, initiative=int)
    card = card_of(player, action["card"])
    if card is None:
        raise IllegalAction(N_("You have no card %(card)s."), card=action["card"][:8])
    if not 0 <= action["initiative"] <= MAX_INITIATIVE:
        raise IllegalAction(N_("An initiative is a whole number from 0 to %(high)s."), high=MAX_INITIATIVE)
    if state["phase"] in ("choosing", "revealing", "initiatives") or card["id"] in player["played"]:
        # the order of play is decided from the initiatives of the cards revealed: not while choosing
        raise IllegalAction(N_("That card is in play this round: correct it once the round is over."))


def do_correct_initiative(state: dict, seat, action: dict, rng) -> list[dict]:
    check_correct_initiative(state, seat, action)
    player = player_of(state, seat)
    card = card_of(player, action["card"])
    old, card["initiative"] = card["initiative"], action["initiative"]
    learn(state, player, card, old)
    return [{"type": "initiative_corrected", "seat": seat}]

