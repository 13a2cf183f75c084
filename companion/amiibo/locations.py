"""Each figure's home location in Amiiboxe, asked once and remembered.

The book gives every figure a location card (its home, where it retires); the
companion asks a figure's location the first time the figure plays and keeps
it for the next games, per amiibo id, on this server.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from companion.amiibo.ids import AmiiboError, normalize
from companion.games.base import N_

MAX_LOCATION = 40

SCHEMA = """
CREATE TABLE IF NOT EXISTS amiibo_locations (
    amiibo_id   TEXT PRIMARY KEY,
    name        TEXT NOT NULL
);
"""


def clean_location(raw: Any) -> str:
    """1 to 40 characters, trimmed, in NFC, no control characters."""
    if not isinstance(raw, str):
        raise AmiiboError(N_("A location is a name of 1 to %(count)s characters."), count=MAX_LOCATION)
    name = unicodedata.normalize("NFC", raw).strip()
    if not 0 < len(name) <= MAX_LOCATION or any(unicodedata.category(char).startswith("C") for char in name):
        raise AmiiboError(N_("A location is a name of 1 to %(count)s characters."), count=MAX_LOCATION)
    return name


class FigureLocations:
    def __init__(self, store):
        self.store = store
        store.ensure_schema(SCHEMA)

    def get(self, amiibo_ids: list[str]) -> dict[str, str]:
        """The remembered locations of these figures (figures never asked are left out)."""
        wanted = [normalize(amiibo_id) for amiibo_id in amiibo_ids]
        with self.store.reading() as tx:
            rows = tx.execute(f"SELECT amiibo_id, name FROM amiibo_locations WHERE amiibo_id IN "
                              f"({', '.join('?' for _ in wanted)})", wanted).fetchall() if wanted else []
        return {row["amiibo_id"]: row["name"] for row in rows}

    def remember(self, amiibo_id: str, name: Any) -> str:
        clean = clean_location(name)
        with self.store.transaction() as tx:
            tx.execute("INSERT INTO amiibo_locations (amiibo_id, name) VALUES (?, ?) "
                       "ON CONFLICT (amiibo_id) DO UPDATE SET name = excluded.name", (normalize(amiibo_id), clean))
        return clean


# The card a figure's own game suggests as its home, by the game series (the top 10 bits of
# the character, as in `companion.amiibo.taxonomy`): the project's choice, in French like the
# cards of the book; the eight cards the FAQ describes are among them. A few characters have
# their own card.
HOME_BY_SERIES: tuple[tuple[int, int, str], ...] = (
    (0x000, 0x000, "Royaume Champignon"), (0x002, 0x002, "Île des Yoshis"), (0x003, 0x003, "Île Kong"),
    (0x004, 0x005, "Temple du temps"), (0x006, 0x014, "Village"), (0x016, 0x016, "Great Fox"),
    (0x017, 0x017, "Zèbes"), (0x018, 0x018, "Mute City"), (0x019, 0x019, "PNF-404"),
    (0x01B, 0x01B, "Ring de Punch-Out!!"), (0x01C, 0x01C, "Studio Wii Fit"), (0x01D, 0x01D, "Enfers"),
    (0x01E, 0x01E, "Salle d'arcade"), (0x01F, 0x01F, "Place Mii"), (0x020, 0x020, "Chromapolis"),
    (0x027, 0x027, "Royaume Champignon"), (0x028, 0x028, "Village"), (0x029, 0x029, "Stade ARMS"),
    (0x064, 0x077, "Bourg Palette"), (0x07C, 0x07C, "Dream Land"), (0x07D, 0x07D, "Monde BoxBoy!"),
    (0x084, 0x084, "Château d'Altea"), (0x089, 0x089, "Colonie 9"), (0x08A, 0x08A, "Onett"),
    (0x08B, 0x08B, "Maison Sanderson"), (0x0C8, 0x0C8, "Green Hill"), (0x0C9, 0x0C9, "Vigrid"),
    (0x0CD, 0x0CD, "Labyrinthe de Pac-Man"), (0x0D2, 0x0D2, "Laboratoire du Dr Light"),
    (0x0D3, 0x0D3, "Château de Suzaku"), (0x0D4, 0x0D4, "Village de Kamura"), (0x0D7, 0x0D7, "Tour du Destin"),
)
HOME_BY_CHARACTER: dict[int, str] = {
    0x0002: "Château de Peach", 0x0005: "Château de Bowser", 0x0102: "Château d'Hyrule",
    0x0101: "Château d'Hyrule", 0x0007: "Amiiboxe ville",
}


def suggested_home(amiibo_id: str) -> str | None:
    """The card a figure's own game suggests as its home (None for a game the project did not place)."""
    try:
        character = int(normalize(amiibo_id)[2:6], 16)
    except AmiiboError:
        return None
    if character in HOME_BY_CHARACTER:
        return HOME_BY_CHARACTER[character]
    series = character >> 6
    return next((name for first, last, name in HOME_BY_SERIES if first <= series <= last), None)
