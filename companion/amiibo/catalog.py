"""The figure catalogue, kept in the store: what a figure is called and when
it came out, and the names of the amiibo series, game series, figure types and
characters its id points to.

It is filled by importing a file in the AmiiboAPI format (``catalog import``),
by syncing from the AmiiboAPI when a user asks (``catalog sync``), and by the
names hosts and owners give to figures the catalogue does not know (remembered
for the next time). The built-in taxonomy (`companion.amiibo.taxonomy`) names
what no import covers, so an unknown figure still shows its series.

Names have a language: the AmiiboAPI gives English ("en"); French ("fr")
comes from hosts or from a file imported with ``lang="fr"``. A figure's name
in a language is, in order: the catalogue's, a host's, then the same in English,
then a host's in any language.

Tables (all prefixed ``amiibo_``):

* ``amiibo_figures``: the figures an import knows, with their release dates;
* ``amiibo_figure_names``: figure names by language and source (``catalog`` or
  ``host``), with a folded copy for case- and accent-insensitive search;
* ``amiibo_lookup_names``: the names of the AmiiboAPI's lookup tables
  (``amiibo_series``, ``game_series``, ``types``, ``characters``), keyed the way
  the AmiiboAPI keys them.
"""

from __future__ import annotations

import re
import time
import unicodedata
from pathlib import Path
from typing import Any

from companion.amiibo import taxonomy
from companion.amiibo.document import LOOKUPS, REGIONS, CatalogError, Document, load_json, parse
from companion.amiibo.ids import AmiiboError, AmiiboId, InvalidAmiiboId, decode, game_series_keys
from companion.amiibo.locale import LANGUAGES, is_supported, language, translate
from companion.amiibo.shipped import as_amiiboapi, is_shipped_format
from companion.amiibo.sync import DEFAULT_TIMEOUT, DEFAULT_URL, download
from companion.games.base import N_
from companion.text import CONTROL, unsafe_character

SCHEMA = """
CREATE TABLE IF NOT EXISTS amiibo_figures (
    id          TEXT PRIMARY KEY,
    release_au  TEXT,
    release_eu  TEXT,
    release_jp  TEXT,
    release_na  TEXT,
    updated_at  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS amiibo_figure_names (
    id          TEXT NOT NULL,
    lang        TEXT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('catalog', 'host')),
    name        TEXT NOT NULL,
    folded      TEXT NOT NULL,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (id, lang, source)
);
CREATE TABLE IF NOT EXISTS amiibo_lookup_names (
    kind        TEXT NOT NULL CHECK (kind IN ('amiibo_series', 'game_series', 'types', 'characters')),
    key         TEXT NOT NULL,
    lang        TEXT NOT NULL,
    name        TEXT NOT NULL,
    PRIMARY KEY (kind, key, lang)
);
"""

MAX_HOST_NAME = 64
MAX_QUERY = 100
MAX_LIMIT = 100
MAX_WORDS = 8
SOURCES = ("catalog", "host")

_APOSTROPHES = re.compile(r"['’ʼ‘`´]")
_NOT_WORD = re.compile(r"[\W_]+")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ı": "i"})


def fold(text: str) -> str:
    """Text for comparison: no case, no accents, no apostrophes, words separated by one space."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold().translate(_LIGATURES)
    return " ".join(_NOT_WORD.sub(" ", _APOSTROPHES.sub("", text)).split())


def _parse_id(amiibo_id: AmiiboId | str) -> AmiiboId:
    return amiibo_id if isinstance(amiibo_id, AmiiboId) else decode(amiibo_id)


def _counts() -> dict:
    return {"added": 0, "updated": 0, "unchanged": 0}


def _choose(stored: dict[tuple[str, str], str], keys: list[str], builtin, lang: str) -> str | None:
    """A lookup name in ``lang``: the catalogue's (exact key first), the built-in
    one, then the same in English, then the catalogue's in any language."""
    for wanted in dict.fromkeys((lang, "en")):
        for key in keys:
            if (key, wanted) in stored:
                return stored[key, wanted]
        name = builtin(wanted) if builtin else None
        if name:
            return name
    for key in keys:
        for (stored_key, _), name in sorted(stored.items()):
            if stored_key == key:
                return name
    return None


class Catalog:
    def __init__(self, store):
        self.store = store
        store.ensure_schema(SCHEMA)

    # Reading ---------------------------------------------------------------
    def describe(self, amiibo_id: AmiiboId | str, lang: str = "en") -> dict:
        """What a screen shows for a figure (raises `InvalidAmiiboId` for a malformed id)."""
        parsed = _parse_id(amiibo_id)
        with self.store.reading() as tx:
            return self._describe(tx, parsed, language(lang))

    def figure_names(self, amiibo_id: AmiiboId | str) -> dict:
        """``{"name": {"en": …, "fr": …}, "known": bool}``: the label in each language."""
        parsed = _parse_id(amiibo_id)
        with self.store.reading() as tx:
            described = {lang: self._describe(tx, parsed, lang) for lang in LANGUAGES}
        return {"name": {lang: described[lang]["label"] for lang in LANGUAGES}, "known": described["en"]["known"]}

    def search(self, text: Any, lang: str = "en", limit: int = 20) -> list[dict]:
        """Figures whose name (in English or French, from the catalogue or a host)
        contains every word of ``text``, ignoring case and accents; best matches
        first (the whole name, then its start, then the start of its words).
        A complete amiibo id finds that figure."""
        lang = language(lang)
        limit = max(1, min(int(limit), MAX_LIMIT))
        if not isinstance(text, str):
            return []
        text = text.strip()[:MAX_QUERY]
        with self.store.reading() as tx:
            try:
                return [self._describe(tx, decode(text), lang)]
            except InvalidAmiiboId:
                pass
            query = fold(text)
            words = query.split()[:MAX_WORDS]
            if not words:
                return []
            rows = tx.execute("SELECT id, folded FROM amiibo_figure_names WHERE "
                              + " AND ".join("instr(folded, ?) > 0" for _ in words), words).fetchall()
            best: dict[str, tuple] = {}
            for row in rows:
                rank = (self._rank(row["folded"], query, words), len(row["folded"]), row["folded"], row["id"])
                best[row["id"]] = min(best.get(row["id"], rank), rank)
            ranked = sorted(best, key=best.__getitem__)[:limit]
            return [self._describe(tx, decode(amiibo_id), lang) for amiibo_id in ranked]

    @staticmethod
    def _rank(folded: str, query: str, words: list[str]) -> int:
        if folded == query:
            return 0
        if folded.startswith(query):
            return 1
        name_words = folded.split()
        if all(any(word.startswith(part) for word in name_words) for part in words):
            return 2
        return 3

    def counts(self) -> dict:
        """How many figures, host names and lookup names the catalogue holds."""
        with self.store.reading() as tx:
            figures = tx.execute("SELECT COUNT(*) FROM amiibo_figures").fetchone()[0]
            named = tx.execute("SELECT COUNT(DISTINCT id) FROM amiibo_figure_names WHERE source = 'host'").fetchone()[0]
            lookups = {row["kind"]: row["n"] for row in tx.execute(
                "SELECT kind, COUNT(DISTINCT key) AS n FROM amiibo_lookup_names GROUP BY kind")}
        return {"amiibos": figures, "named_by_hosts": named, **{kind: lookups.get(kind, 0) for kind in LOOKUPS}}

    def _describe(self, tx, parsed: AmiiboId, lang: str) -> dict:
        amiibo_id = str(parsed)
        figure = tx.execute("SELECT * FROM amiibo_figures WHERE id = ?", (amiibo_id,)).fetchone()
        names = {(row["lang"], row["source"]): row["name"] for row in tx.execute(
            "SELECT lang, source, name FROM amiibo_figure_names WHERE id = ?", (amiibo_id,))}
        series_keys = [parsed.game_series_key,
                       *(key for key in game_series_keys(parsed.game_series) if key != parsed.game_series_key)]
        stored: dict[str, dict[tuple[str, str], str]] = {kind: {} for kind in LOOKUPS}
        rows = tx.execute(
            "SELECT kind, key, lang, name FROM amiibo_lookup_names WHERE (kind = 'characters' AND key = ?) "
            "OR (kind = 'types' AND key = ?) OR (kind = 'amiibo_series' AND key = ?) "
            "OR (kind = 'game_series' AND key IN (?, ?, ?, ?))",
            (parsed.character_key, parsed.type_key, parsed.amiibo_series_key, *series_keys))
        for row in rows:
            stored[row["kind"]][row["key"], row["lang"]] = row["name"]

        name, source = self._figure_name(names, lang)
        amiibo_series = _choose(stored["amiibo_series"], [parsed.amiibo_series_key],
                                lambda wanted: taxonomy.amiibo_series_name(parsed.amiibo_series, wanted), lang)
        game_series = _choose(stored["game_series"], series_keys,
                              lambda wanted: taxonomy.game_series_name(parsed.game_series, wanted), lang)
        if name:
            label = name
        elif amiibo_series:
            label = translate(lang, N_("Unknown figure #%(id)s — %(series)s series"), id=amiibo_id,
                              series=amiibo_series)
        elif game_series:
            label = translate(lang, N_("Unknown figure #%(id)s — %(game)s"), id=amiibo_id, game=game_series)
        else:
            label = translate(lang, N_("Unknown figure #%(id)s"), id=amiibo_id)
        return {
            "id": amiibo_id,
            "known": figure is not None,
            "name": name,
            "name_source": source,
            "label": label,
            "decoded": parsed.fields(),
            "character": {"key": parsed.character_key,
                          "name": _choose(stored["characters"], [parsed.character_key], None, lang)},
            "game_series": {"key": parsed.game_series_key, "name": game_series},
            "amiibo_series": {"key": parsed.amiibo_series_key, "name": amiibo_series},
            "type": {"key": parsed.type_key, "name": _choose(
                stored["types"], [parsed.type_key],
                lambda wanted: taxonomy.figure_type_name(parsed.figure_type, wanted), lang)},
            "release": {region: figure[f"release_{region}"] for region in REGIONS} if figure else None,
        }

    @staticmethod
    def _figure_name(names: dict[tuple[str, str], str], lang: str) -> tuple[str | None, str | None]:
        order = [(wanted, source) for wanted in dict.fromkeys((lang, "en")) for source in SOURCES]
        order += sorted(key for key in names if key not in order)
        for key in order:
            if key in names:
                return names[key], key[1]
        return None, None

    # Writing ---------------------------------------------------------------
    def name_figure(self, amiibo_id: AmiiboId | str, name: Any, lang: str = "en") -> dict:
        """Remembers the name a host or owner gives a figure, in ``lang``; returns
        the figure as `describe` shows it in that language. Catalogue names in
        the same language still come first."""
        parsed = _parse_id(amiibo_id)
        if not is_supported(lang):
            raise AmiiboError(N_("Names can be given in English (en) or French (fr), not “%(lang)s”."),
                              lang=str(lang)[:16])
        lang = language(lang)
        if not isinstance(name, str) or not name.strip():
            raise AmiiboError(N_("A figure's name is needed."))
        name = " ".join(unicodedata.normalize("NFC", name).split())
        if len(name) > MAX_HOST_NAME:
            raise AmiiboError(N_("A figure's name has at most %(count)s characters."), count=MAX_HOST_NAME)
        if unsafe_character(name) == CONTROL:
            raise AmiiboError(N_("A figure's name cannot contain control characters."))
        if unsafe_character(name):
            raise AmiiboError(N_("A figure's name cannot contain invisible or direction-changing characters."))
        with self.store.transaction() as tx:
            tx.execute("INSERT INTO amiibo_figure_names (id, lang, source, name, folded, updated_at) "
                       "VALUES (?, ?, 'host', ?, ?, ?) ON CONFLICT (id, lang, source) DO UPDATE SET "
                       "name = excluded.name, folded = excluded.folded, updated_at = excluded.updated_at",
                       (str(parsed), lang, name, fold(name), time.time()))
        return self.describe(parsed, lang)

    def import_document(self, doc: Any, lang: str = "en") -> dict:
        """Imports a whole AmiiboAPI document in one transaction, after checking
        all of it (`CatalogError` and nothing changed otherwise). Returns, per
        section, how many entries were added, updated and unchanged: importing
        the same document twice changes nothing the second time. The shipped
        catalogue's own format (`companion.amiibo.shipped`) is read as well."""
        parsed = parse(as_amiiboapi(doc) if is_shipped_format(doc) else doc)
        lang = language(lang)
        with self.store.transaction() as tx:
            counts = {"amiibos": self._import_figures(tx, parsed, lang)}
            for kind, entries in parsed.lookups.items():
                counts[kind] = self._import_lookup(tx, kind, entries, lang)
        return counts

    def _import_figures(self, tx, parsed: Document, lang: str) -> dict:
        counts, now = _counts(), time.time()
        releases = {row["id"]: tuple(row[f"release_{region}"] for region in REGIONS)
                    for row in tx.execute("SELECT * FROM amiibo_figures")}
        names = {row["id"]: row["name"] for row in tx.execute(
            "SELECT id, name FROM amiibo_figure_names WHERE lang = ? AND source = 'catalog'", (lang,))}
        figure_rows, name_rows = [], []
        for amiibo_id, entry in parsed.amiibos.items():
            release = tuple(entry["release"][region] for region in REGIONS)
            if amiibo_id not in releases:
                counts["added"] += 1
            elif releases[amiibo_id] != release or names.get(amiibo_id) != entry["name"]:
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
                continue
            if releases.get(amiibo_id) != release:
                figure_rows.append((amiibo_id, *release, now))
            if names.get(amiibo_id) != entry["name"]:
                name_rows.append((amiibo_id, lang, entry["name"], fold(entry["name"]), now))
        tx.executemany("INSERT INTO amiibo_figures (id, release_au, release_eu, release_jp, release_na, updated_at) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET release_au = excluded.release_au, "
                       "release_eu = excluded.release_eu, release_jp = excluded.release_jp, "
                       "release_na = excluded.release_na, updated_at = excluded.updated_at", figure_rows)
        tx.executemany("INSERT INTO amiibo_figure_names (id, lang, source, name, folded, updated_at) "
                       "VALUES (?, ?, 'catalog', ?, ?, ?) ON CONFLICT (id, lang, source) DO UPDATE SET "
                       "name = excluded.name, folded = excluded.folded, updated_at = excluded.updated_at", name_rows)
        return counts

    def _import_lookup(self, tx, kind: str, entries: dict[str, str], lang: str) -> dict:
        counts = _counts()
        existing = {row["key"]: row["name"] for row in tx.execute(
            "SELECT key, name FROM amiibo_lookup_names WHERE kind = ? AND lang = ?", (kind, lang))}
        changed = []
        for key, name in entries.items():
            if key not in existing:
                counts["added"] += 1
            elif existing[key] != name:
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
                continue
            changed.append((kind, key, lang, name))
        tx.executemany("INSERT INTO amiibo_lookup_names (kind, key, lang, name) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (kind, key, lang) DO UPDATE SET name = excluded.name", changed)
        return counts

    def export_document(self, lang: str = "en") -> dict:
        """What imports and syncs stored (not the names hosts gave), in the AmiiboAPI format."""
        lang = language(lang)
        with self.store.reading() as tx:
            names = {row["id"]: row["name"] for row in tx.execute(
                "SELECT id, name FROM amiibo_figure_names WHERE lang = ? AND source = 'catalog'", (lang,))}
            amiibos = {row["id"]: {"name": names[row["id"]],
                                   "release": {region: row[f"release_{region}"] for region in REGIONS}}
                       for row in tx.execute("SELECT * FROM amiibo_figures") if row["id"] in names}
            lookups = {kind: {} for kind in LOOKUPS}
            for row in tx.execute("SELECT kind, key, name FROM amiibo_lookup_names WHERE lang = ?", (lang,)):
                lookups[row["kind"]][row["key"]] = row["name"]
        return {"amiibos": amiibos, **lookups}

    def import_bytes(self, data: bytes | str, lang: str = "en") -> dict:
        return self.import_document(load_json(data), lang)

    def import_file(self, path: str | Path, lang: str = "en") -> dict:
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise CatalogError(N_("Could not read %(path)s (%(reason)s)."), path=str(path),
                               reason=error.strerror or str(error)) from None
        return self.import_bytes(data, lang)

    def sync(self, url: str = DEFAULT_URL, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """Downloads the AmiiboAPI database and imports it (all or nothing)."""
        return self.import_bytes(download(url, timeout))
