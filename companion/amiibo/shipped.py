"""The figure catalogue shipped with Companion, so that a fresh install names every
known amiibo with no internet.

``companion/amiibo/data/catalogue.json`` holds public facts only (ids, names,
release dates and the names of the series, characters and types), in Companion's
own format, one entry a line so that a regeneration diffs well::

    {"format": "companion-amiibo-catalogue/1", "regions": ["au", "eu", "jp", "na"],
     "figures": {"0x…": ["name", au, eu, jp, na]}, "amiibo_series": {…}, "game_series": {…},
     "types": {…}, "characters": {…}}

It is generated from the AmiiboAPI database by ``scripts/make_catalogue.py`` (MIT:
its notice is ``data/NOTICE``) and loaded into the store when the server starts and
the store has not loaded this version of it yet; ``catalog import`` and ``catalog
sync`` update the store from then on (and read this format as well as AmiiboAPI's).
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from companion.amiibo.document import LOOKUPS, REGIONS, Document

SHIPPED = Path(__file__).resolve().parent / "data" / "catalogue.json"
FORMAT = "companion-amiibo-catalogue/1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS amiibo_shipped_loads (
    fingerprint TEXT PRIMARY KEY,
    loaded_at   REAL NOT NULL
);
"""


def is_shipped_format(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def as_amiiboapi(doc: dict) -> dict:
    """The same facts in the AmiiboAPI format (what `document.parse` checks)."""
    figures = doc.get("figures")
    if not isinstance(figures, dict):
        return {"amiibos": None}  # parse() says what is wrong
    amiibos = {}
    for amiibo_id, entry in figures.items():
        valid = isinstance(entry, list) and len(entry) == 1 + len(REGIONS)
        amiibos[amiibo_id] = {"name": entry[0], "release": dict(zip(REGIONS, entry[1:]))} if valid else entry
    return {"amiibos": amiibos, **{kind: doc.get(kind) for kind in LOOKUPS}}


def from_document(parsed: Document) -> dict:
    """A checked document in the shipped format, sorted by key."""
    return {
        "format": FORMAT,
        "regions": list(REGIONS),
        "figures": {amiibo_id: [entry["name"], *(entry["release"][region] for region in REGIONS)]
                    for amiibo_id, entry in sorted(parsed.amiibos.items())},
        **{kind: dict(sorted(parsed.lookups[kind].items())) for kind in LOOKUPS},
    }


def dumps(doc: dict) -> str:
    """The file's text: one figure or name a line."""
    def section(entries: dict) -> str:
        lines = [f"    {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in entries.items()]
        return "{\n" + ",\n".join(lines) + "\n  }"
    parts = [f'  "format": {json.dumps(doc["format"])}', f'  "regions": {json.dumps(doc["regions"])}']
    parts += [f"  {json.dumps(kind)}: {section(doc[kind])}" for kind in ("figures", *LOOKUPS)]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def load_shipped(catalog, path: Path = SHIPPED) -> dict | None:
    """Imports the shipped catalogue unless the store already loaded this very file;
    returns the import's counts, or None when there was nothing to do."""
    if not path.is_file():
        return None
    data = path.read_bytes()
    fingerprint = hashlib.sha256(data).hexdigest()
    store = catalog.store
    store.ensure_schema(SCHEMA)
    with store.reading() as tx:
        if tx.execute("SELECT 1 FROM amiibo_shipped_loads WHERE fingerprint = ?", (fingerprint,)).fetchone():
            return None
    counts = catalog.import_bytes(data)
    with store.transaction() as tx:
        tx.execute("INSERT OR IGNORE INTO amiibo_shipped_loads (fingerprint, loaded_at) VALUES (?, ?)",
                   (fingerprint, time.time()))
    return counts
