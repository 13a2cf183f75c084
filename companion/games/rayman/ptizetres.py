"""Rayman's captive Ptizêtres by the colour the players see on them.

The book gives each captive token a colour of its own, matched by the round tokens the players
take (« chaque Jeton Ptizêtre captif a une couleur spécifique »), but never says which colours.
So the companion numbers them (``turns.do_free``) and the host may name each number by the colour
printed on its token, one tap from a fixed palette (``ptizetre_colour``: ``ptizetre``, ``colour``).
Naming is never required: a token left unnamed keeps its number on every screen.

The names are public and, like the cards' initiatives, the table keeps them for the evening's next
games (``state["ptizetre_colours"]``: ``{"1": "blue", ...}``, carried by ``carry``).
"""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, require_fields
from companion.games.rayman.cards import carry as cards_carry
from companion.games.rayman.components import PTIZETRE_COLOURS
from companion.games.rayman.constants import CAPTIVES

# Colours a captive token may have, each used once (the screens name and paint them from the table's names).
PALETTE = tuple(PTIZETRE_COLOURS)


def colours_of(state: dict) -> dict:
    """The colour of each named Ptizêtre, by number (a string key, as JSON keeps it)."""
    return state.get("ptizetre_colours") or {}


def remembered_colours(memory) -> dict:
    """The colours named in the table's earlier games (``memory``, from ``carry``); anything
    malformed, a number out of range or a colour named twice is dropped, never trusted."""
    named = memory.get("ptizetre_colours") if isinstance(memory, dict) else None
    colours: dict = {}
    for number, colour in (named.items() if isinstance(named, dict) else ()):
        if number in {str(n) for n in range(1, CAPTIVES + 1)} and colour in PALETTE \
                and colour not in colours.values():
            colours[number] = colour
    return colours


def carry(state: dict) -> dict:
    """What this game leaves the table for its next games: the cards' initiatives and these colours."""
    return {**cards_carry(state), "ptizetre_colours": dict(colours_of(state))}


def check_ptizetre_colour(state: dict, seat, action: dict) -> None:
    """The host names captive Ptizêtre ``ptizetre`` by ``colour`` (or renames it); any phase, never
    waited for."""
    require_fields(action, ptizetre=int, colour=str)
    number, colour, high = action["ptizetre"], action["colour"], state["config"]["captives"]
    if not 1 <= number <= high:
        raise IllegalAction(N_("The captive Ptizêtres are numbered 1 to %(high)s."), high=high)
    if colour not in PALETTE:
        raise IllegalAction(N_("Unknown colour: pick one of the palette's colours."))
    colours = colours_of(state)
    if colours.get(str(number)) == colour:
        raise IllegalAction(N_("That Ptizêtre already has that colour."))
    if colour in colours.values():
        raise IllegalAction(N_("Another Ptizêtre already has that colour: each colour names one token."))


def do_ptizetre_colour(state: dict, seat, action: dict, rng) -> list[dict]:
    check_ptizetre_colour(state, seat, action)
    number, colour, colours = action["ptizetre"], action["colour"], colours_of(state)
    state["ptizetre_colours"] = {**colours, str(number): colour}
    return [{"type": "ptizetre_named", "ptizetre": number, "colour": colour}]


def colour_candidates(state: dict) -> list[dict]:
    """For the host's legal actions, a sample: the first free colour for the first Ptizêtre still
    unnamed (any free colour is legal; renaming too, but not offered: a random player would rename
    for ever). One candidate keeps the host's every view cheap: each is checked on a copy of the state."""
    colours = colours_of(state)
    unnamed = [n for n in range(1, state["config"]["captives"] + 1) if str(n) not in colours]
    free = [colour for colour in PALETTE if colour not in colours.values()]
    return [{"type": "ptizetre_colour", "ptizetre": unnamed[0], "colour": free[0]}] if unnamed else []
