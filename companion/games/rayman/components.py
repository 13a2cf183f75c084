"""Rayman: the components the box does not name, as the companion numbers them (for a printable sheet of
labels to stick on them, so that the players read the number the phones show)."""

from __future__ import annotations

from companion.games.base import N_
from companion.games.rayman.constants import (BOARDS, BOSS_DECK, BOSSES, CAPTIVES, CHARACTERS, DIFFICULTIES,
                                              EXTRA_CARDS, LEGENDARY_CARDS, MODES, PROJECTILES)

# Proper names from the box: the same in every language.
BOSS_NAMES = {"crapaud_blinde": "Crapaud blindé", "ptizetre_malefique": "Ptizêtre maléfique",
              "seabreather": "Seabreather", "grundermord": "Grundermord"}
BOARD_NAMES = {"jungle": "Jungle", "foret": "Forêt", "fiesta": "Fiesta de los Muertos", "enfer": "Enfer"}
PROJECTILE_NAMES = {"missile": "Missile", "fourchette": "Fourchette", "feu_artifice": "Feu d'artifice",
                    "fantome_rouge": "Fantôme Rouge", "bombe_volante": "Bombe Volante"}
LEGENDARY_NAMES = {card: card.capitalize() for card in LEGENDARY_CARDS}  # as printed: "Esquiveur"
MODE_NAMES = dict(zip(MODES, (N_("Competitive"), N_("Co-op against a Boss"), N_("Solo against a Boss"))))
DIFFICULTY_NAMES = dict(zip(DIFFICULTIES, (N_("Novice"), N_("Intermediate"), N_("Hero"), N_("Legend"), N_("Custom"))))
# The colours a captive Ptizêtre token may be named by (``ptizetres.PALETTE`` is their order): the colour's
# name, the token's name, and the paint of its swatch on the screens (a CSS colour: no words to translate).
PTIZETRE_COLOURS = {
    "red": (N_("red"), N_("Red Ptizêtre"), "#e03131"),
    "orange": (N_("orange"), N_("Orange Ptizêtre"), "#f76707"),
    "yellow": (N_("yellow"), N_("Yellow Ptizêtre"), "#fcc419"),
    "green": (N_("green"), N_("Green Ptizêtre"), "#2f9e44"),
    "blue": (N_("blue"), N_("Blue Ptizêtre"), "#1c7ed6"),
    "purple": (N_("purple"), N_("Purple Ptizêtre"), "#7048e8"),
    "pink": (N_("pink"), N_("Pink Ptizêtre"), "#f783ac"),
    "white": (N_("white"), N_("White Ptizêtre"), "#f8f9fa"),
}
# What the screens call them (``Game.names``), in the box's order: a character is stored by its name.
NAMES = {"characters": tuple((name, name) for name in CHARACTERS),
         **{kind: tuple((id_, names[id_]) for id_ in ids) for kind, names, ids in (
             ("legendary", LEGENDARY_NAMES, LEGENDARY_CARDS), ("boards", BOARD_NAMES, BOARDS),
             ("projectiles", PROJECTILE_NAMES, PROJECTILES), ("bosses", BOSS_NAMES, BOSSES),
             ("modes", MODE_NAMES, MODES), ("difficulties", DIFFICULTY_NAMES, DIFFICULTIES))},
         **{kind: tuple((colour, parts[index]) for colour, parts in PTIZETRE_COLOURS.items())
            for index, kind in enumerate(("ptizetre_colours", "ptizetres", "ptizetre_paints"))}}


def label_groups() -> list[dict]:
    """[{"title": msgid, "label": msgid, "items": [params, ...]}]: one label per component."""
    return [
        {"title": N_("Extra action cards"), "label": N_("Extra action card n°%(number)s"),
         "items": [{"number": number} for number in range(1, EXTRA_CARDS + 1)]},
        {"title": N_("Boss attack cards"), "label": N_("%(boss)s: attack card n°%(number)s"),
         "items": [{"boss": BOSS_NAMES[boss], "number": number} for boss in BOSSES
                   for number in range(1, BOSS_DECK + 1)]},
        {"title": N_("Captive Ptizêtres (in the order they sit along the course)"),
         "label": N_("Captive Ptizêtre n°%(number)s"),
         "items": [{"number": number} for number in range(1, CAPTIVES + 1)]},
    ]
