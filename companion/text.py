"""Text players type that other screens show: names, custom die faces.

Any script and emoji are welcome; what is refused is what makes a text lie
about itself on another screen: control characters, direction overrides
(U+202E makes "Ana" print a later part of the line backwards) and invisible
characters (a zero-width space makes a second "Ana" that is not the first).

Two joiners stay allowed where writing needs them: U+200D inside an emoji
sequence (👨‍👩‍👧) and U+200C/U+200D between letters of the scripts that join
(Arabic, Persian, the Indic scripts…). Tag characters stay allowed after the
black flag, for subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿). Pure: no Flask, so games use it too.
"""

from __future__ import annotations

import unicodedata

ZWNJ, ZWJ = "\u200c", "\u200d"
BLACK_FLAG = "\U0001f3f4"
TAGS = range(0xE0020, 0xE0080)
# Letters that are blank although they are not format characters.
INVISIBLE_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u2028", "\u2029"}
FIRST_JOINING_SCRIPT = 0x0600  # Arabic; Latin, Greek, Cyrillic and Hebrew letters never need a joiner

CONTROL, INVISIBLE = "control", "invisible"


def _is_emoji_part(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or char == "\ufe0f" or 0x1F3FB <= ord(char) <= 0x1F3FF


def _joins_letters(before: str, after: str) -> bool:
    return all(unicodedata.category(char)[0] in "LM" and ord(char) >= FIRST_JOINING_SCRIPT for char in (before, after))


def _allowed_format(text: str, index: int) -> bool:
    char = text[index]
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if ord(char) in TAGS:  # only in a run of tags right after the black flag
        flag = text.rfind(BLACK_FLAG, 0, index)
        return flag >= 0 and all(ord(c) in TAGS for c in text[flag + 1:index])
    if char not in (ZWJ, ZWNJ) or not before or not after:
        return False
    if char == ZWJ and _is_emoji_part(before) and _is_emoji_part(after):
        return True
    return _joins_letters(before, after)


def unsafe_character(text: str) -> str | None:
    """``CONTROL`` or ``INVISIBLE`` for the first character a text must not hold, or None."""
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs"):
            return CONTROL
        if category in ("Zl", "Zp") or char in INVISIBLE_LETTERS:
            return INVISIBLE
        if category == "Cf" and not _allowed_format(text, index):
            return INVISIBLE
    return None
