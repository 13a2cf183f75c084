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
