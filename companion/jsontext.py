"""Compact JSON text, encoded in C (orjson): what the store writes in its JSON columns and
what goes on the wire to the screens, and the store's reading of its columns.

Dict keys that are not strings (a seat number) become strings, as the standard library does;
what orjson refuses (a number wider than 64 bits) takes the standard library's slower path
rather than failing. orjson would read such a number back as a float, so text that may hold
one is read by the standard library, and so is what orjson refuses to read (NaN, which the
standard library writes).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS
# 19 digits in a row: maybe a number beyond orjson's 64 bits (-9223372036854775809), or digits in a string.
LONG_DIGITS = re.compile(r"\d{19}")


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=OPTIONS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def loads(text: str) -> Any:
    if LONG_DIGITS.search(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def round_trip(value: Any) -> tuple[str, Any]:
    """``value``'s text and what `loads` reads back from it, without reading it twice: text orjson wrote
    holds no number beyond 64 bits, so orjson reads it back exactly and the check for long digits is
    skipped (it cost as much as the read; the store does this for each column an action writes)."""
    try:
        text = orjson.dumps(value, option=OPTIONS).decode()
    except TypeError:
        text = json.dumps(value, separators=(",", ":"))
        return text, loads(text)
    return text, orjson.loads(text)
