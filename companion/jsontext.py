"""Compact JSON text, encoded in C (orjson): what the store writes in its JSON columns and
what goes on the wire to the screens.

Dict keys that are not strings (a seat number) become strings, as the standard library does;
what orjson refuses (a number wider than 64 bits) takes the standard library's slower path
rather than failing. Reading stays with the standard library's ``json.loads``: orjson would
read such a number back as a float.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=OPTIONS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))
