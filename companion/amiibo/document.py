"""Reading a file in the AmiiboAPI format, and checking all of it before any
of it is written.

The format (``database/amiibo.json`` of N3evin/AmiiboAPI) is one JSON object::

    {"amiibos": {"0x…16 digits": {"name": "…", "release": {"au", "eu", "jp", "na": "YYYY-MM-DD" or null}}},
     "amiibo_series": {"0x…2 digits": "name"}, "game_series": {"0x…3 digits": "name"},
     "types": {"0x…2 digits": "name"}, "characters": {"0x…4 digits": "name"}}

`parse` returns a `Document` with every key in canonical (lower-case) form,
or raises `CatalogError` saying what is wrong and where.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from companion.amiibo.ids import AmiiboError, InvalidAmiiboId, normalize
from companion.games.base import N_

REGIONS = ("au", "eu", "jp", "na")
MAX_NAME_LENGTH = 100
# Lookup table -> the number of hexadecimal digits of its keys.
LOOKUPS = {"amiibo_series": 2, "game_series": 3, "types": 2, "characters": 4}
SECTIONS = ("amiibos", *LOOKUPS)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class CatalogError(AmiiboError):
    """A catalogue file or download that cannot be imported; nothing was changed."""


@dataclass
class Document:
    # id -> {"name": str, "release": {region: "YYYY-MM-DD" | None}}
    amiibos: dict[str, dict] = field(default_factory=dict)
    # lookup table -> key -> name
    lookups: dict[str, dict[str, str]] = field(default_factory=lambda: {name: {} for name in LOOKUPS})


def _shorten(value: Any, length: int = 40) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= length else text[:length - 1] + "…"


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise CatalogError(N_("The key “%(key)s” appears twice in the same JSON object."), key=_shorten(key))
        seen[key] = value
    return seen


def load_json(data: bytes | str) -> Any:
    """Parses JSON text (UTF-8, -16 or -32), refusing duplicated keys."""
    try:
        return json.loads(data, object_pairs_hook=_refuse_duplicates)
    except UnicodeDecodeError:
        raise CatalogError(N_("The file is not text in UTF-8.")) from None
    except json.JSONDecodeError as error:
        raise CatalogError(N_("The file is not valid JSON (line %(line)s, column %(column)s)."),
                           line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise CatalogError(N_("The file is not in the AmiiboAPI format.")) from None


def clean_name(value: Any) -> str | None:
    """A name as text of 1 to MAX_NAME_LENGTH characters, or None."""
    if not isinstance(value, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name or len(name) > MAX_NAME_LENGTH or any(unicodedata.category(c) == "Cc" for c in name):
        return None
    return name


def _key(section: str, raw: str, digits: int) -> str:
    if (len(raw) == digits + 2 and raw[:2] in ("0x", "0X")
            and all(char in "0123456789abcdefABCDEF" for char in raw[2:])):
        return raw.lower()
    raise CatalogError(N_("“%(key)s” in “%(section)s” is not a key of 0x and %(count)s hexadecimal digits."),
                       key=_shorten(raw), section=section, count=digits)


def _release(key: str, raw: Any) -> dict:
    if not isinstance(raw, dict):
        raise CatalogError(N_("The figure %(key)s has no release dates (“release” should be an object)."), key=key)
    for region, value in raw.items():
        if region not in REGIONS:
            raise CatalogError(N_("The figure %(key)s has an unknown release region “%(region)s” "
                                  "(expected au, eu, jp or na)."), key=key, region=_shorten(region))
        valid = isinstance(value, str) and DATE.match(value)
        if valid:
            try:
                datetime.date.fromisoformat(value)
            except ValueError:
                valid = False
        if value is not None and not valid:
            raise CatalogError(N_("The figure %(key)s has an invalid release date in %(region)s: “%(value)s” "
                                  "(expected YYYY-MM-DD or null)."), key=key, region=region, value=_shorten(value))
    return {region: raw.get(region) for region in REGIONS}


def _section(doc: dict, section: str) -> dict:
    value = doc.get(section)
    if not isinstance(value, dict):
        raise CatalogError(N_("The file is not in the AmiiboAPI format: “%(section)s” should be a JSON object."),
                           section=section)
    return value


def _store(target: dict, section: str, key: str, value: Any) -> None:
    if key in target:
        raise CatalogError(N_("“%(key)s” appears twice in “%(section)s” (keys ignore case)."),
                           key=key, section=section)
    target[key] = value


def parse(doc: Any) -> Document:
    """Checks a whole AmiiboAPI document; raises `CatalogError` at the first problem."""
    if not isinstance(doc, dict) or "amiibos" not in doc:
        raise CatalogError(N_("The file is not in the AmiiboAPI format: it should be a JSON object with the keys "
                              "%(keys)s."), keys=", ".join(SECTIONS))
    parsed = Document()
    for raw_key, entry in _section(doc, "amiibos").items():
        try:
            key = normalize(raw_key)
        except InvalidAmiiboId as error:
            raise CatalogError(N_("“%(key)s” in “amiibos” is not an amiibo id: %(reason)s"),
                               key=_shorten(raw_key), reason=error) from None
        if not isinstance(entry, dict):
            raise CatalogError(N_("The figure %(key)s should be a JSON object with “name” and “release”."),
                               key=key)
        name = clean_name(entry.get("name"))
        if name is None:
            raise CatalogError(N_("The figure %(key)s has no name, or one that is not text of 1 to %(count)s "
                                  "characters."), key=key, count=MAX_NAME_LENGTH)
        _store(parsed.amiibos, "amiibos", key, {"name": name, "release": _release(key, entry.get("release"))})
    for section, digits in LOOKUPS.items():
        for raw_key, value in _section(doc, section).items():
            key = _key(section, raw_key, digits)
            name = clean_name(value)
            if name is None:
                raise CatalogError(N_("“%(key)s” in “%(section)s” has no name, or one that is not text of 1 to "
                                      "%(count)s characters."), key=key, section=section, count=MAX_NAME_LENGTH)
            _store(parsed.lookups[section], section, key, name)
    return parsed
