"""Location cards: how their names compare, and the effects the companion knows.

The book's FAQ answers questions about eight cards. Their effects are built in;
every other card (a figure's home location, a card the host adds) has an
effect the companion does not know: the players apply it with the generic
board operations (see `companion.games.amiiboxe.board_ops`).

When an effect fires (the book's icons):
* ``leave``: the figure leaves this card by a special move (Mute City: two
  places in a straight line; Great Fox: a diagonal; Jungle des jobards: over
  an adjacent figure; Île des Yoshis: swap places with an adjacent figure,
  then move).
* ``arrive``: on arriving (Observatoire: the cards around are revealed;
  Amiiboxe ville: the player swaps two locations).
* ``attack``: when the figure on it attacks (Bourg Palette: a ranged attack on
  a support of the adjacent enemy; Enfers: a second fight after a win).
"""

from __future__ import annotations

import unicodedata

LEAVE, ARRIVE, ATTACK = "leave", "arrive", "attack"
STRAIGHT_TWO, DIAGONAL, JUMP, SWAP_FIRST = "straight_two", "diagonal", "jump", "swap_first"
REVEAL_AROUND, SWAP_CARDS = "reveal_around", "swap_cards"
RANGED_SUPPORT, SECOND_FIGHT = "ranged_support", "second_fight"

# id: (the card's printed name, when it fires, what it does)
EFFECT_CARDS: dict[str, tuple[str, str, str]] = {
    "mute_city": ("Mute City", LEAVE, STRAIGHT_TWO),
    "great_fox": ("Great Fox", LEAVE, DIAGONAL),
    "observatoire": ("Observatoire", ARRIVE, REVEAL_AROUND),
    "bourg_palette": ("Bourg Palette", ATTACK, RANGED_SUPPORT),
    "enfers": ("Enfers", ATTACK, SECOND_FIGHT),
    "amiiboxe_ville": ("Amiiboxe ville", ARRIVE, SWAP_CARDS),
    "ile_des_yoshis": ("Île des Yoshis", LEAVE, SWAP_FIRST),
    "jungle_des_jobards": ("Jungle des jobards", LEAVE, JUMP),
}
APOSTROPHES = "'’‘`´ʼ"


def fold(name: str | None) -> str:
    """A card name as compared: no case, no accents, any apostrophe style, single spaces."""
    if not isinstance(name, str):
        return ""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(char for char in text if not unicodedata.combining(char))
    for apostrophe in APOSTROPHES:
        text = text.replace(apostrophe, "'")
    return " ".join(text.casefold().replace("-", " ").split())


def same_card(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and fold(a) == fold(b)


def effect_of(name: str | None) -> tuple[str, str, str] | None:
    """``(card id, when, what)`` of a card the companion knows, else None."""
    folded = fold(name)
    for card_id, (printed, when, what) in EFFECT_CARDS.items():
        if folded and fold(printed) == folded:
            return card_id, when, what
    return None


def effect_when(name: str | None, when: str) -> str | None:
    """What the card does at that moment (``leave``, ``arrive``, ``attack``), or None."""
    effect = effect_of(name)
    return effect[2] if effect and effect[1] == when else None


def find_card(known: list[str], name: str) -> str | None:
    """The table's spelling of a card the players chose, or None when the table does not know it."""
    return next((card for card in known if same_card(card, name)), None)


def effect_card_names() -> list[str]:
    return [printed for printed, _, _ in EFFECT_CARDS.values()]
