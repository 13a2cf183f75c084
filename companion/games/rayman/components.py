"""Rayman: the components the box does not name, as the companion numbers them (for a printable sheet of
labels to stick on them, so that the players read the number the phones show)."""

from __future__ import annotations

from companion.games.base import N_
from companion.games.rayman.constants import BOSS_DECK, BOSSES, CAPTIVES, EXTRA_CARDS

# Proper names from the box: the same in every language.
BOSS_NAMES = {"crapaud_blinde": "Crapaud blindé", "ptizetre_malefique": "Ptizêtre maléfique",
              "seabreather": "Seabreather", "grundermord": "Grundermord"}


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
