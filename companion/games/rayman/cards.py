"""Rayman's action cards: what the box says of their initiatives, what the table has learnt, and the
question the companion asks of a card it does not know yet.

The initiative is « le nombre affiché au coin supérieur gauche d'une Carte Action » (rule book 0.01,
p.4 "Aperçu du jeu"); only the left card's counts, the second card's breaks a tie (p.6).

A player's base cards are told apart by their initiative alone: the referee needs nothing else of
them (their Action icons are played on the board), so the cards of a character that the companion
does not know yet are interchangeable on the phone, and the first time one is played the phone
asks the initiative printed on it. An extra card has a number (the label the table sticks on it,
``components.label_groups``) and keeps it.

What the table has learnt (``state["known"]``: ``{"characters": {name: [initiative, ...]},
"extras": {"n": initiative}}``) is public: it comes from revealed cards. The shell carries it from
one game of the evening to the next (``carry``), so that Play again never asks twice.
"""

from __future__ import annotations

from companion.games.base import HOST, IllegalAction, N_, require_fields
from companion.games.rayman.common import card_of, name_of, player_of
from companion.games.rayman.constants import BASE_CARDS, CHARACTERS, EXTRA_CARDS, MAX_INITIATIVE

# The box's facts: the initiative printed on each card, where a source gives it (None: unknown).
# The rule book (0.01) lists the cards: 8 Action cards for each of the 4 characters and 22 extra
# Action cards marked ⊕ (p.3 "Qu'est-ce qui se trouve dans la boîte ?", p.17 note), but it prints
# no card's initiative. Its only values are an example's second cards, "3" for Globox and "2" for
# Rayman (p.6 "Comment jouer"), without saying which cards they are, so they identify none. Every
# value is therefore asked once at the table; a value from a trusted source goes here, with it.
BOX_INITIATIVES: dict[str, tuple] = {character: (None,) * BASE_CARDS for character in CHARACTERS}
EXTRA_INITIATIVES: dict[int, int | None] = {number: None for number in range(1, EXTRA_CARDS + 1)}

MAX_NAME = 24  # a character's name (setup checks it)


def box_facts() -> dict:
    """What the box's table above knows, in the shape of ``state["known"]``."""
    return {"characters": {name: sorted(value for value in values if value is not None)
                           for name, values in BOX_INITIATIVES.items() if any(v is not None for v in values)},
            "extras": {str(number): value for number, value in EXTRA_INITIATIVES.items() if value is not None}}


def is_initiative(value) -> bool:
    return type(value) is int and 0 <= value <= MAX_INITIATIVE


def remembered(memory) -> dict:
    """The box's facts, then what the table learnt in its earlier games (``memory``, from ``carry``);
    anything malformed in ``memory`` is dropped, never trusted."""
    known = box_facts()
    memory = memory if isinstance(memory, dict) else {}
    characters = memory.get("characters") if isinstance(memory.get("characters"), dict) else {}
    for name, values in characters.items():
        if isinstance(name, str) and 0 < len(name) <= MAX_NAME and isinstance(values, list) \
                and len(values) <= BASE_CARDS and all(map(is_initiative, values)):
            known["characters"][name] = sorted(values)
    extras = memory.get("extras") if isinstance(memory.get("extras"), dict) else {}
    for number, value in extras.items():
        if isinstance(number, str) and number.isdigit() and 1 <= int(number) <= EXTRA_CARDS and is_initiative(value):
            known["extras"][number] = value
    return known


def carry(state: dict) -> dict:
    """What this game leaves the table for its next games: the initiatives learnt so far."""
    return state.get("known") or remembered(None)


def fill_base_cards(state: dict, player: dict) -> None:
    """A character's cards take the initiatives the table knows for it; the others stay to be asked."""
    values = list(state["known"]["characters"].get(player["character"], []))
    for card in player["cards"]:
        if card["extra"] is None:
            card["initiative"] = values.pop(0) if values else None


def extra_initiative(state: dict, number: int):
    return state["known"]["extras"].get(str(number))


def learn(state: dict, player: dict, card: dict, old) -> None:
    """A card's initiative was told (or corrected from ``old``): the table remembers it."""
    known = state["known"]
    if card["extra"] is not None:
        known["extras"][str(card["extra"])] = card["initiative"]
        return
    name = player["character"]
    values = list(known["characters"].get(name, []))
    if old is not None and old in values:
        values.remove(old)
    known["characters"][name] = sorted(values + [card["initiative"]])[:BASE_CARDS]


# --- asking a card's initiative the first time it is played ------------------------------------

def unknown_played(state: dict) -> list[dict]:
    """The revealed cards whose initiative the companion does not know: ``[{"seat", "card", "side",
    "extra"}]`` (``round["asking"]`` holds them until each is told)."""
    asked = []
    for entry in state["round"]["revealed"] if state.get("round") else []:
        choice = entry["choice"]
        if choice["bubble"] or state["config"]["quick"]:
            continue
        player = player_of(state, entry["seat"])
        for side in ("left", "second"):
            card = card_of(player, choice[side])
            if card is not None and card["initiative"] is None:
                asked.append({"seat": entry["seat"], "card": card["id"], "side": side, "extra": card["extra"]})
    return asked


def check_initiative(state: dict, seat, action: dict) -> dict:
    """The initiative printed on a card just revealed (``seat``, ``card``, ``initiative``): its owner's
    phone answers, or the host screen for a seat (it can read the card on the table). Returns the asked entry."""
    require_fields(action, seat=int, card=str, initiative=int)
    player_of(state, action["seat"])
    if seat != HOST and action["seat"] != seat:
        raise IllegalAction(N_("Enter the initiatives of your own cards: %(name)s enters theirs."),
                            name=name_of(state, action["seat"]))
    asking = state["round"]["asking"]
    asked = next((entry for entry in asking if (entry["seat"], entry["card"]) == (action["seat"], action["card"])), None)
    if asked is None:
        raise IllegalAction(N_("That card's initiative is not asked: enter the one of a card you just revealed."))
    if not is_initiative(action["initiative"]):
        raise IllegalAction(N_("An initiative is a whole number from 0 to %(high)s."), high=MAX_INITIATIVE)
    return asked


def do_initiative(state: dict, seat, action: dict, rng) -> list[dict]:
    asked, player = check_initiative(state, seat, action), player_of(state, action["seat"])
    asking = state["round"]["asking"]
    card = card_of(player, action["card"])
    card["initiative"] = action["initiative"]
    asking.remove(asked)
    learn(state, player, card, None)
    return [{"type": "initiative_told", "seat": action["seat"], "card": card["id"], "extra": card["extra"],
             "character": player["character"], "initiative": card["initiative"]}]
