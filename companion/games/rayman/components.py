"""Rayman: the components the box does not name, as the companion numbers them (for a printable sheet of
labels to stick on them, so that the players read the number the phones show)."""

from __future__ import annotations

from companion.games.base import N_
from companion.games.rayman.constants import (BOARDS, BOSS_DECK, BOSSES, CAPTIVES, CHARACTERS, EXTRA_CARDS,
                                              LEGENDARY_CARDS, PROJECTILES)

# Proper names from the box: the same in every language.
BOSS_NAMES = {"crapaud_blinde": "Crapaud blindé", "ptizetre_malefique": "Ptizêtre maléfique",
              "seabreather": "Seabreather", "grundermord": "Grundermord"}
BOARD_NAMES = {"jungle": "Jungle", "foret": "Forêt", "fiesta": "Fiesta de los Muertos", "enfer": "Enfer"}
PROJECTILE_NAMES = {"missile": "Missile", "fourchette": "Fourchette", "feu_artifice": "Feu d'artifice",
                    "fantome_rouge": "Fantôme Rouge", "bombe_volante": "Bombe Volante"}
LEGENDARY_NAMES = {card: card.capitalize() for card in LEGENDARY_CARDS}  # as printed: "Esquiveur"
# What the screens call them (``Game.names``), in the box's order: a character is stored by its name.
NAMES = {"characters": tuple((name, name) for name in CHARACTERS),
         **{kind: tuple((id_, names[id_]) for id_ in ids) for kind, names, ids in (
             ("legendary", LEGENDARY_NAMES, LEGENDARY_CARDS), ("boards", BOARD_NAMES, BOARDS),
             ("projectiles", PROJECTILE_NAMES, PROJECTILES), ("bosses", BOSS_NAMES, BOSSES))}}


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
