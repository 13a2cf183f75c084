"""Rayman's card initiatives: « L'initiative est le nombre affiché au coin supérieur gauche d'une Carte
Action » (rule book p.4), known where the box's facts give it, else asked of the card's owner the first
time the card is played, after the reveal, and remembered for the rest of the evening."""

from __future__ import annotations

from companion.games.rayman import GAME, HOST, view
from companion.games.rayman.cards import BOX_INITIATIVES, EXTRA_INITIATIVES, carry, remembered
from tests.rules import ScriptedRng
from tests.test_rayman import (act, act_events, choose_all, end_turns, known_cards, new_game, player, ready, refused, rng,
                               seats)


def answer(state, seat, card, value, by=None, generator=None):
    return act(state, by or seat, {"type": "initiative", "seat": seat, "card": card, "initiative": value}, generator)


def first_round(players=2, **options):
    """Two players (Rayman and Globox) at their first choice, no card known."""
    return ready(players, known=False, **options)


def test_rule_the_book_prints_no_cards_initiative_so_every_value_is_asked():
    # The data table of the box's facts: every character's 8 cards and the 22 extra cards, none known.
    assert set(BOX_INITIATIVES) == {"Rayman", "Globox", "Barbara", "Grand Minimus"}
    assert all(len(values) == 8 for values in BOX_INITIATIVES.values()) and len(EXTRA_INITIATIVES) == 22
    state = first_round()
    assert state["phase"] == "choosing"  # nothing typed before round 1
    assert all(card["initiative"] is None for seat in (1, 2) for card in player(state, seat)["cards"])


def test_rule_a_card_played_for_the_first_time_is_asked_of_its_owner_after_the_reveal():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    assert state["phase"] == "initiatives"
    asking = state["round"]["asking"]
    assert [(entry["seat"], entry["card"], entry["side"]) for entry in asking] == [
        (1, "b1", "left"), (1, "b2", "second"), (2, "b3", "left"), (2, "b4", "second")]
    assert [entry["choice"]["left"] for entry in state["round"]["revealed"]] == ["b1", "b3"]  # public now
    waits = [wait["seat"] for wait in GAME.waiting(state)]
    assert waits == [1, 2]
    assert {action["card"] for action in view(state, 1)["legal"] if action["type"] == "initiative"} == {"b1", "b2"}


def test_rule_the_order_of_play_waits_for_the_last_initiative_then_follows_the_left_card():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    state = answer(answer(answer(state, 1, "b1", 4), 1, "b2", 7), 2, "b3", 6)
    assert state["phase"] == "initiatives" and [wait["seat"] for wait in GAME.waiting(state)] == [2]
    state, events = act_events(state, 2, {"type": "initiative", "seat": 2, "card": "b4", "initiative": 1})
    assert state["phase"] == "turns" and state["round"]["order"] == [2, 1]  # Globox's 6 before Rayman's 4
    revealed = next(event for event in events if event["type"] == "revealed")
    assert [(e["left_initiative"], e["second_initiative"]) for e in revealed["choices"]] == [(4, 7), (6, 1)]


def test_rule_a_tie_on_told_initiatives_is_broken_by_the_second_card_then_the_dice():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b1", "b2")})
    state = answer(answer(answer(state, 1, "b1", 5), 1, "b2", 3), 2, "b1", 5)
    dice = ScriptedRng(("tie_break", 2), ("tie_break", 6))
    state = answer(state, 2, "b2", 3, generator=dice)
    assert dice.spent and state["round"]["order"] == [2, 1] and state["round"]["tie_rolls"] == [
        {"seats": [1, 2], "rolls": [2, 6]}]


def test_rule_a_told_initiative_is_never_asked_again():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b1", "b2")})
    for seat, card, value in ((1, "b1", 5), (1, "b2", 3), (2, "b1", 8), (2, "b2", 2)):
        state = answer(state, seat, card, value)
    assert [card["initiative"] for card in player(state, 1)["cards"][:2]] == [5, 3]
    state = bubble_back(state)  # both take their discards back: b1 and b2 come round again
    state = choose_all(state, {1: ("b2", "b1"), 2: ("b1", "b2")})
    assert state["phase"] == "turns" and state["round"]["order"] == [2, 1]  # 8 before 3: nothing asked


def bubble_back(state):
    """The turns end, then both players declare a Bubble (their cards come back to the hand), then end
    that round too: the next choice can play the same cards again."""
    state = end_turns(state)
    state = end_turns(choose_all(state, {1: "bubble", 2: "bubble"}))
    return state


def test_rule_a_bad_initiative_is_refused_and_changes_nothing():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b1", "initiative": 100}, "0 to 99")
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b1", "initiative": -1}, "0 to 99")
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b1", "initiative": "7"}, "initiative (")
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b1", "initiative": True}, "initiative (")
    refused(state, 1, {"type": "initiative", "seat": 1, "card": ["b1"], "initiative": 7}, "card (")
    refused(state, 1, {"type": "initiative", "card": "b1", "initiative": 7}, "seat (")
    refused(state, 1, {"type": "initiative", "seat": 2, "card": "b3", "initiative": 7}, "your own cards")
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b5", "initiative": 7}, "not asked")  # not played
    refused(state, 1, {"type": "initiative", "seat": 1, "card": "b3", "initiative": 7}, "not asked")  # Globox's card
    refused(state, 1, {"type": "initiative", "seat": 9, "card": "b1", "initiative": 7}, "players of this race")
    told = answer(state, 1, "b1", 7)
    refused(told, 1, {"type": "initiative", "seat": 1, "card": "b1", "initiative": 2}, "not asked")  # told already


def test_rule_the_host_screen_may_read_a_card_for_a_seat():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    state = answer(state, 2, "b3", 9, by=HOST)
    assert player(state, 2)["cards"][2]["initiative"] == 9
    refused(state, HOST, {"type": "initiative", "card": "b4", "initiative": 9}, "seat (")


def test_rule_a_bubble_asks_nothing_and_quick_entry_never_asks():
    state = choose_all(first_round(), {1: "bubble", 2: ("b3", "b4")})
    assert [entry["seat"] for entry in state["round"]["asking"]] == [2, 2]
    quick = choose_all(ready(2, known=False, hand_entry="quick"), {1: (5, 3), 2: (4, 4)})
    assert quick["phase"] == "turns" and quick["round"]["order"] == [1, 2]


def test_rule_the_table_remembers_initiatives_for_its_next_game():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    for seat, card, value in ((1, "b1", 5), (1, "b2", 3), (2, "b3", 8), (2, "b4", 2)):
        state = answer(state, seat, card, value)
    memory = carry(state)
    assert memory == {"characters": {"Rayman": [3, 5], "Globox": [2, 8]}, "extras": {}}
    # Play again: the same characters (at any seat) start with the initiatives the table told.
    again = GAME.setup(GAME.normalize_options({}) | {"memory": memory}, seats(2), rng())
    again = act(act(again, 1, {"type": "character", "name": "Globox"}), 2, {"type": "character", "name": "rayman"})
    assert [card["initiative"] for card in player(again, 1)["cards"]] == [2, 8] + [None] * 6
    assert [card["initiative"] for card in player(again, 2)["cards"]] == [3, 5] + [None] * 6
    again = choose_all(again, {1: ("b1", "b2"), 2: ("b2", "b1")})
    assert again["phase"] == "turns" and again["round"]["order"] == [2, 1]  # nothing asked: 5 before 2


def test_rule_an_extra_cards_initiative_is_remembered_by_its_number():
    state = ready(2, known=False, difficulty="intermediate")
    extra = next(card for card in player(state, 1)["cards"] if card["extra"])
    state = known_cards(state, {1: {extra["id"]: 40}})  # as if told when first played
    state["known"]["extras"][str(extra["extra"])] = 40
    again = GAME.setup(GAME.normalize_options({"difficulty": "intermediate"}) | {"memory": carry(state)}, seats(2), rng())
    assert remembered(carry(state))["extras"] == {str(extra["extra"]): 40}
    assert again["known"]["extras"] == {str(extra["extra"]): 40}


def test_rule_a_corrected_initiative_is_what_the_table_remembers():
    state = choose_all(first_round(), {1: ("b1", "b2"), 2: ("b3", "b4")})
    for seat, card, value in ((1, "b1", 5), (1, "b2", 3), (2, "b3", 8), (2, "b4", 2)):
        state = answer(state, seat, card, value)
    state = choose_all(end_turns(state), {1: ("b3", "b4"), 2: ("b5", "b6")})
    for seat, card, value in ((1, "b3", 6), (1, "b4", 1), (2, "b5", 9), (2, "b6", 7)):
        state = answer(state, seat, card, value)
    state = act(state, 1, {"type": "correct_initiative", "card": "b2", "initiative": 4})  # round 2: b2 rests
    assert carry(state)["characters"]["Rayman"] == [1, 4, 5, 6]


def test_a_malformed_memory_is_dropped_not_trusted():
    known = remembered({"characters": {"Rayman": [5, 300], "Globox": [1, 2], "": [1], "X" * 30: [1]},
                        "extras": {"3": 7, "30": 4, "x": 1, "4": "9"}})
    assert known == {"characters": {"Globox": [1, 2]}, "extras": {"3": 7}}
    assert remembered("nonsense") == {"characters": {}, "extras": {}}


def test_rule_a_seat_taken_out_while_its_cards_are_asked_leaves_the_others_to_play():
    state = choose_all(first_round(players=3), {1: ("b1", "b2"), 2: ("b3", "b4"), 3: ("b1", "b2")})
    state = answer(answer(answer(answer(state, 1, "b1", 4), 1, "b2", 7), 3, "b1", 9), 3, "b2", 1)
    state, events = GAME.withdraw(state, 2, rng(40))
    assert state["phase"] == "turns" and state["round"]["order"] == [3, 1]
    assert [entry["seat"] for entry in state["round"]["revealed"]] == [1, 3]
