"""Where the book is silent: every choice the referee makes there is declared with the game
(`companion/games/chakart/silent.py`) and listed, in English and French, in the screen's fold
« Rules of this table » (`static/js/games/chakart.js`), with a text for each value of the table
option that changes it. The screen itself is walked in tests/test_browser_chakart.py."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from companion.games import get_game
from companion.games.chakart.silent import SILENT_CHOICES
from tests.server import ROOT

GAME = get_game("chakart")
SCREEN = (ROOT / "static" / "js" / "games" / "chakart.js").read_text(encoding="utf-8")


def screen_choices() -> dict[str, dict]:
    """The screen's SILENT list: id -> {"option", "values" (option value -> text), "text"}."""
    listed = SCREEN[SCREEN.index("const SILENT = ["):SCREEN.index("\n];", SCREEN.index("const SILENT = ["))]
    found = {}
    for entry in re.split(r"\n  \{ id: ", listed)[1:]:
        name = entry[1:entry.index("'", 1)]
        option = re.search(r"option: '(\w+)'", entry)
        found[name] = {"option": option.group(1) if option else None,
                       "values": dict(re.findall(r"(\w+): N_\('((?:[^'\\]|\\.)*)'\)", entry)),
                       "text": re.findall(r"N_\('((?:[^'\\]|\\.)*)'\)", entry)}
    return found


def french_catalogue() -> dict[str, str]:
    with (ROOT / "companion" / "translations" / "fr" / "LC_MESSAGES" / "js.po").open("rb") as handle:
        return {message.id: message.string for message in read_po(handle) if message.id}


def test_the_screen_lists_every_silent_choice_the_game_declares_and_no_other():
    assert list(screen_choices()) == [choice.id for choice in SILENT_CHOICES]
    assert len(SILENT_CHOICES) >= 22


def test_every_table_option_but_the_position_has_its_choice_in_the_summary():
    options = {option.name: option for option in GAME.options}
    declared = {choice.option for choice in SILENT_CHOICES if choice.option}
    assert declared == set(options) - {"position"}
    for name, listed in screen_choices().items():
        if listed["option"]:
            assert set(listed["values"]) == set(options[listed["option"]].choices), name


@pytest.mark.parametrize("choice", [choice.id for choice in SILENT_CHOICES])
def test_each_silent_choice_reads_in_french_too(choice):
    french = french_catalogue()
    for text in screen_choices()[choice]["text"]:
        assert french.get(text.replace("\\'", "'")), f"no French for: {text}"
    for mark in ("the book is silent", "the book reads two ways", "%(mark)s; a table option", "Rules of this table"):
        assert french.get(mark)
