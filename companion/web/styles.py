"""The style sheet of one game's phone: the rules of every page, and that game's own, no other game's.

A phone plays one game at a time, yet ``static/css/companion.css`` holds the rules of every game
(40 % of the file). The phone's page links ``companion.css?game=rayman``; a phone whose table moves to
another game adds that game's sheet (``static/js/games/index.js``). Other pages link the whole file.

A game's rules are told by the classes that mark its screens (``GAME_MARKERS``): a selector naming
one of them belongs to that game, any other to every page. The sheet is cut from the one file when it
is served, in the file's order (the cascade is the file's); comments are left out.
"""

from __future__ import annotations

import re

COMMON = None
# The classes each game's screens carry (their prefix, or the game's own class on its root).
GAME_MARKERS = {
    "amiiboxe": ("ax-", "amiiboxe"),
    "arkade": ("ak-", "arkade"),
    "chakart": ("ck-", "chakart"),
    "rayman": ("rm-", "rayman"),
    "universalis": ("uv-", "universalis"),
}
_MARKER = {game: re.compile(r"\.(?:" + "|".join(re.escape(prefix) + r"[\w-]" if prefix.endswith("-")
                                                   else re.escape(prefix) + r"(?![\w-])" for prefix in markers) + ")")
           for game, markers in GAME_MARKERS.items()}
# At-rules whose block holds rules (split inside); any other (@keyframes, @font-face) goes whole to the common part.
_GROUPING = ("@media", "@supports", "@layer", "@container")


def _game_of(selector: str) -> str:
    for game, marker in _MARKER.items():
        if marker.search(selector):
            return game
    return COMMON


def _blocks(css: str) -> list[tuple[str, str]]:
    """Top-level ``prelude { body }`` pairs of a style sheet, comments dropped (strings kept whole)."""
    blocks, prelude, depth, body_start, i = [], [], 0, 0, 0
    while i < len(css):
        char = css[i]
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = len(css) if end < 0 else end + 2
            continue
        if char in "\"'":
            end = i + 1
            while end < len(css) and css[end] != char:
                end += 2 if css[end] == "\\" else 1
            if depth == 0:
                prelude.append(css[i:end + 1])
            i = end + 1
            continue
        if char == "{":
            depth += 1
            if depth == 1:
                body_start = i + 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                blocks.append(("".join(prelude).strip(), _without_comments(css[body_start:i]).strip()))
                prelude = []
        elif depth == 0:
            if char == ";":  # a statement at-rule (@import, @charset): common
                prelude.append(char)
                blocks.append(("".join(prelude).strip(), ""))
                prelude = []
            else:
                prelude.append(char)
        i += 1
    return blocks


def _without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def _selector_list(prelude: str) -> list[str]:
    """The selectors of a rule, split at its top-level commas (not those inside ``:is(.a, .b)``)."""
    selectors, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        depth += (char in "([") - (char in ")]")
        if char == "," and depth == 0:
            selectors.append(prelude[start:i].strip())
            start = i + 1
    return selectors + [prelude[start:].strip()]


def _selectors_of(prelude: str, game: str) -> str:
    return ",".join(selector for selector in _selector_list(prelude) if _game_of(selector) in (COMMON, game))


def styles_for(css: str, game: str) -> str:
    """The style sheet ``css`` without the rules of games other than ``game`` (any game id)."""
    out = []
    for prelude, body in _blocks(css):
        if prelude.startswith("@"):
            if prelude.lower().startswith(_GROUPING):
                inner = styles_for(body, game)
                if inner:
                    out.append(f"{prelude}{{{inner}}}")
            else:
                out.append(f"{prelude}{{{body}}}" if body or not prelude.endswith(";") else prelude)
            continue
        selectors = _selectors_of(prelude, game)
        if selectors:
            out.append(f"{selectors}{{{body}}}")
    return "\n".join(out)
