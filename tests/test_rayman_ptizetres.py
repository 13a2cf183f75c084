"""Rayman's captive Ptizêtres named by their colours: « chaque Jeton Ptizêtre captif a une couleur
spécifique » (rule book, Ptizêtres), colours the book never lists. The host may name each numbered token
by the colour printed on it, in any phase, never held up for it; the table keeps the names for the evening."""

from __future__ import annotations

import pytest

from companion.games.rayman import GAME, HOST, view
from companion.games.rayman.ptizetres import PALETTE, remembered_colours
from tests.test_rayman import act, act_events, new_game, refused, rng, seats, turns

BLUE_ONE = {"type": "ptizetre_colour", "ptizetre": 1, "colour": "blue"}


def named(state, **colours):
    """``colours``: n1="blue", ... as the host names them."""
    for key, colour in colours.items():
        state = act(state, HOST, {"type": "ptizetre_colour", "ptizetre": int(key[1:]), "colour": colour})
    return state


def test_rule_the_host_names_a_token_by_its_colour_and_every_screen_sees_it():
    state = new_game(2)
    assert state["phase"] == "characters" and view(state, 1)["ptizetre_colours"] == {}
    state, events = act_events(state, HOST, BLUE_ONE)
    assert events == [{"type": "ptizetre_named", "ptizetre": 1, "colour": "blue"}]
    for viewer in (None, HOST, 1, 2):
        assert view(state, viewer)["ptizetre_colours"] == {"1": "blue"}
    assert state["history"][-1] == events[0]  # the history tells it


def test_rule_naming_waits_for_nothing_and_holds_nothing_up():
    state = turns(2)
    before = GAME.waiting(state)
    state = named(state, n2="red")  # in the middle of a turn: the same player still plays
    assert GAME.waiting(state) == before and state["phase"] == "turns"
    state = act(state, state["round"]["order"][0], {"type": "free", "ptizetre": 2})
    assert state["history"][-1]["ptizetre"] == 2  # the freed token is the red one on every screen
    # Skipped, a token keeps its number: nothing about the game needs a colour.
    state = act(state, state["round"]["order"][0], {"type": "free", "ptizetre": 3})
    assert state["ptizetre_colours"] == {"2": "red"}


def test_rule_each_colour_names_one_token_and_a_name_can_be_changed():
    state = named(new_game(2), n1="blue", n2="red")
    state = named(state, n1="green")  # a mistake put right: blue is free again
    assert state["ptizetre_colours"] == {"1": "green", "2": "red"}
    assert named(state, n3="blue")["ptizetre_colours"]["3"] == "blue"


BAD = [  # (action fields, complaint): each refused, the state untouched
    ({"ptizetre": 2, "colour": "red"}, "Another Ptizêtre already has that colour"),
    ({"ptizetre": 1, "colour": "red"}, "That Ptizêtre already has that colour."),
    ({"ptizetre": 1, "colour": "teal"}, "Unknown colour"),
    ({"ptizetre": 1, "colour": "Blue"}, "Unknown colour"),
    ({"ptizetre": 0, "colour": "blue"}, "numbered 1 to 4"),
    ({"ptizetre": 5, "colour": "blue"}, "numbered 1 to 4"),
    ({"ptizetre": "1", "colour": "blue"}, "the field ptizetre (number)"),
    ({"ptizetre": True, "colour": "blue"}, "the field ptizetre (number)"),
    ({"ptizetre": 1.0, "colour": "blue"}, "the field ptizetre (number)"),
    ({"ptizetre": 1, "colour": ["blue"]}, "the field colour (text)"),
    ({"ptizetre": 1}, "the field colour (text)"),
    ({"colour": "blue"}, "the field ptizetre (number)"),
]


@pytest.mark.parametrize("fields, complaint", BAD, ids=[complaint for _, complaint in BAD])
def test_bad_names_are_refused_and_change_nothing(fields, complaint):
    refused(named(new_game(2), n1="red"), HOST, {"type": "ptizetre_colour", **fields}, complaint)


def test_only_the_host_names_them_and_three_captives_have_three_numbers():
    state = new_game(2)
    for seat in (1, 2):
        refused(state, seat, BLUE_ONE, "Only the host can do that.")
        assert not [action for action in view(state, seat)["legal"] if action["type"] == "ptizetre_colour"]
    three = new_game(2, captive_ptizetres=3)
    refused(three, HOST, {**BLUE_ONE, "ptizetre": 4}, "numbered 1 to 3")


def test_the_host_is_offered_the_first_unnamed_token_until_every_one_is_named():
    state = named(new_game(2), n1="red")
    offered = [action for action in view(state, HOST)["legal"] if action["type"] == "ptizetre_colour"]
    assert offered == [{"type": "ptizetre_colour", "ptizetre": 2, "colour": "orange"}]
    state = named(state, n2="blue", n3="green", n4="white")
    assert not [action for action in view(state, HOST)["legal"] if action["type"] == "ptizetre_colour"]
    over = {**state, "outcome": {"winners": [], "reason": "", "ranking": []}}
    refused(over, HOST, {**BLUE_ONE, "colour": "pink"}, "The game is over")


def test_rule_the_table_remembers_the_colours_for_its_next_game():
    state = named(turns(2), n1="blue", n3="pink")
    memory = GAME.carry(state)
    assert memory["ptizetre_colours"] == {"1": "blue", "3": "pink"} and "characters" in memory  # the cards' too
    again = GAME.setup(GAME.normalize_options({}) | {"memory": memory}, seats(2), rng())
    assert view(again, 1)["ptizetre_colours"] == {"1": "blue", "3": "pink"}


def test_a_malformed_memory_of_colours_is_dropped_not_trusted():
    assert remembered_colours({"ptizetre_colours": {"1": "blue", "2": "blue", "5": "red", "x": "green",
                                                    "3": "teal", "4": 7}}) == {"1": "blue"}
    assert remembered_colours({"ptizetre_colours": ["blue"]}) == {} and remembered_colours("nonsense") == {}
    assert remembered_colours(None) == {} and len(set(PALETTE)) == len(PALETTE) == 8
