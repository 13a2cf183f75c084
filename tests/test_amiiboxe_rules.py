"""Amiiboxe, rule by rule from the book (`amiiboxe.fr.txt`), FAQ included.

Each test is named after the rule it referees (« Mise en place », « Tour de jeu »,
« Lexique », « FAQ »), or after the choice made where the book is silent (the
docstring of `companion.games.amiiboxe` lists those choices). The book's
scoring examples and the basic turn rules are in tests/test_amiiboxe.py.
"""

from __future__ import annotations

import pytest

from companion.games.amiiboxe import GAME, HOST, legal_actions
from companion.games.base import IllegalAction
from tests.rules import ScriptedRng
from tests.test_amiiboxe import (ANA, BEN, CLO, DAN, FARTHEST, LEAST_CLOTHED, LIGHTEST, LINK, MARIO, PEACH, SHORTEST_NAME,
                                 SUPPORTS, TALLEST, act, actions, events_of, fig, kinds, new_game, positioned, refused,
                                 rng, started)


def roll(*faces):
    """The die shows these faces, in order (first the fight's, then any roll again)."""
    return ScriptedRng(*[("", face) for face in faces])


def attack_with(state, attacker, defender, *faces, **fields):
    seat = fig(state, attacker)["seat"]
    return events_of(state, seat, {"type": "attack", "attacker": attacker, "defender": defender, **fields},
                     roll(*faces))


def kept(cells, revealed=None, players=(ANA, BEN), **options):
    """A kept 4 × 4 board (2 players) with figures on these cells and these cards named face up;
    the figures not placed are out of the game."""
    state = positioned(started(players, board="kept", **options), cells, revealed)
    for figure in state["figures"]:
        if figure["id"] not in cells:
            figure["status"] = "out"
    return state


# --- « Mise en place » -----------------------------------------------------------------------------

def test_setup_at_least_three_figures_per_player_refused_at_creation_with_the_books_reason():
    for fewer in (1, 2):
        with pytest.raises(IllegalAction, match="The book asks for at least 3 amiibo per player"):
            GAME.normalize_options({"figures_per_player": fewer})
    assert GAME.normalize_options({"figures_per_player": 3})["figures_per_player"] == 3


def test_setup_the_seat_order_and_first_player_are_set_by_the_host_or_agreed_by_every_phone():
    state = new_game((ANA, BEN, CLO))
    state, events = events_of(state, ANA, {"type": "first_player", "player": BEN})
    assert events == [{"type": "proposed", "topic": "first_player", "seat": ANA, "value": BEN}]
    assert state["first"] is None and GAME.view(state, CLO)["proposals"] == {"first_player": [ANA]}
    state = act(state, BEN, {"type": "first_player", "player": CLO})  # not the same: nothing yet
    state = act(state, CLO, {"type": "first_player", "player": BEN})
    assert state["first"] is None
    state = act(state, BEN, {"type": "first_player", "player": BEN})  # now all three say Ben
    assert state["first"] == BEN and state["proposals"] == {}
    for seat in (ANA, BEN):
        state = act(state, seat, {"type": "seat_order", "seats": [BEN, ANA, CLO]})
    assert state["order"] == [ANA, BEN, CLO]
    state = act(state, CLO, {"type": "seat_order", "seats": [BEN, ANA, CLO]})
    assert state["order"] == [BEN, ANA, CLO]
    assert act(state, HOST, {"type": "first_player", "player": ANA})["first"] == ANA  # the host alone
    refused(state, ANA, {"type": "first_player", "player": 9}, "no such seat")
    refused(state, ANA, {"type": "first_player", "seat": ANA}, "player")


def test_setup_a_home_location_is_chosen_from_the_tables_cards_ignoring_case_accents_and_apostrophes():
    state = new_game()
    assert {"Mute City", "Great Fox", "Observatoire", "Bourg Palette", "Enfers", "Amiiboxe ville",
            "Île des Yoshis", "Jungle des jobards", "Temple du temps"} <= set(state["cards"])
    for typed, card in (("ILE DES YOSHIS", "Île des Yoshis"), ("château d’hyrule", "Château d'Hyrule"),
                        ("  amiiboxe   VILLE ", "Amiiboxe ville")):
        assert act(state, ANA, {"type": "name_location", "figure": 1, "name": typed})["figures"][0]["location"] == card
    assert act(state, HOST, {"type": "name_location", "figure": 4, "name": "enfers"})["figures"][3]["location"] == \
        "Enfers"  # the host too
    refused(state, ANA, {"type": "name_location", "figure": 1, "name": "Hyrule"}, "from the list")
    played = act(started(), ANA, {"type": "move", "figure": 1})
    refused(played, ANA, {"type": "name_location", "figure": 1, "name": "Enfers"}, "before it plays")
    assert act(played, BEN, {"type": "name_location", "figure": 4, "name": "Enfers"})  # Mario has not played


# --- « Tour de jeu » ------------------------------------------------------------------------------

def test_turn_one_and_only_one_action_then_the_next_player():
    state = kept({1: [3, 0], 2: [3, 1], 4: [0, 0], 5: [0, 2]})
    state = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0], "card": "Great Fox"})
    assert state["active"] == BEN  # the move and its (absent) effects are resolved: the turn ends
    refused(state, ANA, {"type": "move", "figure": 2, "cell": [2, 1]}, "Not your turn: the table is playing a turn")
    waiting = act(kept({1: [3, 0], 2: [3, 1], 4: [0, 0], 5: [0, 2]}), ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    assert waiting["active"] == ANA and waiting["step"]["kind"] == "name_card"
    refused(waiting, ANA, {"type": "move", "figure": 2, "cell": [2, 1]}, "Not now: the table is naming the card turned over")
    refused(waiting, ANA, {"type": "attack", "attacker": 2, "defender": 4}, "Not now: the table is naming the card turned over")
    refused(waiting, ANA, {"type": "retire", "figure": 2}, "Not now: the table is naming the card turned over")


def test_turn_a_card_turned_over_stays_face_up_for_the_rest_of_the_game():
    state = kept({1: [3, 0], 4: [0, 0]})
    state = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0], "card": "Great Fox"})
    state = act(state, BEN, {"type": "move", "figure": 4, "cell": [0, 1], "card": "Enfers"})
    state = act(state, ANA, {"type": "move", "figure": 1, "cell": [3, 0], "card": "Temple du temps"})
    assert state["board"][2][0] == {"revealed": True, "name": "Great Fox"}


def test_turn_the_effect_of_the_card_left_comes_before_the_card_arrived_on():
    state = kept({1: [3, 0], 4: [0, 3]}, {(3, 0): "Great Fox", (2, 1): "Amiiboxe ville"})
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [2, 1]})
    assert kinds(events) == ["effect", "moved", "effect"]
    assert [events[0]["card"], events[2]["card"]] == ["Great Fox", "Amiiboxe ville"]
    assert state["step"]["kind"] == "swap_cards" and state["active"] == ANA


def test_attack_a_winning_attacker_moves_onto_the_place_and_applies_its_arrival_effect():
    state = kept({1: [2, 0], 2: [3, 3], 4: [1, 0], 5: [0, 3]}, {(1, 0): "Amiiboxe ville"})
    state, events = attack_with(state, 1, 4, TALLEST)  # Link 1.7 m, Mario 1.55 m
    assert fig(state, 1)["at"] == [1, 0] and state["step"]["kind"] == "swap_cards" and state["active"] == ANA
    state, events = events_of(state, ANA, {"type": "swap_cards", "first": [0, 0], "second": [3, 3]})
    assert events[-1] == {"type": "turn", "seat": BEN, "turn": 2}


def test_attack_a_winning_defender_does_not_move():
    state = kept({1: [2, 0], 2: [3, 3], 4: [0, 3], 5: [1, 0]})
    state, _ = attack_with(state, 1, 5, TALLEST)  # Peach 1.85 m wins
    assert fig(state, 5)["at"] == [1, 0] and fig(state, 5)["carries"] == [1] and state["active"] == BEN


# --- « Lexique » ---------------------------------------------------------------------------------

def test_lexicon_decaler_uses_the_active_players_lines_while_their_turns_effects_are_applied():
    # Ana (south) arrives on a card the companion does not know: the turn holds for its effect.
    # Her line 1 is row 2, her "right" is east. Before, the shift came after the turn had passed to Ben.
    state = kept({1: [3, 0], 4: [0, 0], 5: [0, 1]}, {(2, 0): "Temple du temps"})
    state = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0], "hold": True})
    assert state["active"] == ANA and state["step"] == {"kind": "hold", "card": "Temple du temps", "figure": 1,
                                                        "hold": True}
    state, events = events_of(state, ANA, {"type": "shift", "kind": "line", "index": 1, "direction": "right"})
    assert events[0]["seat"] == ANA and fig(state, 1)["at"] == [2, 1]
    refused(state, BEN, {"type": "shift", "kind": "line", "index": 1, "direction": "right"}, "Not your turn: the table is applying a card’s effect")
    assert act(state, ANA, {"type": "end_turn"})["active"] == BEN


def test_turn_une_et_une_seule_action_board_tools_before_it_are_the_hosts_corrections_and_no_action():
    # « A son tour, un joueur doit faire une et une seule de ces actions avec un de ses amiibo au choix »
    state = kept({1: [2, 1], 2: [3, 1], 4: [1, 1], 5: [0, 2]})
    refused(state, ANA, {"type": "end_turn"}, "Move, attack or retire")
    # The active phone cannot move a figure (nor push, swap, shift) and then act: that would be two actions.
    for operation in ({"type": "place", "figure": 1, "cell": [1, 2]}, {"type": "push", "figure": 1, "target": 4},
                      {"type": "swap_figures", "figure": 1, "target": 2},
                      {"type": "swap_cards", "first": [0, 0], "second": [2, 2]},
                      {"type": "shift", "kind": "line", "index": 1, "direction": "right"}):
        refused(state, ANA, operation, "only the host corrects the board")
    assert not GAME.view(state, ANA)["operations"]
    # The host's corrections are marked as such, reveal and apply nothing, and the action is still to take.
    for operation in ({"type": "place", "figure": 4, "cell": [1, 3]},
                      {"type": "swap_cards", "first": [0, 0], "second": [2, 2]},
                      {"type": "push", "figure": 1, "target": 4}):
        after, events = events_of(state, HOST, operation)
        assert events and all(event["correction"] is True for event in events)
        assert after["active"] == ANA and after["step"] is None
        assert {"type": "end_turn"} not in legal_actions(after, ANA)
        refused(after, ANA, {"type": "end_turn"}, "Move, attack or retire")
    refused(state, BEN, {"type": "swap_figures", "figure": 1, "target": 2}, "Not your turn")
    refused(state, HOST, {"type": "swap_cards", "first": [0, 0], "second": [0, 0]}, "two different")


def test_turn_after_its_action_the_active_phone_applies_its_cards_effects_with_the_board_tools():
    state = kept({1: [3, 0], 2: [3, 2], 4: [0, 0], 5: [0, 1]}, {(2, 0): "Temple du temps"})
    held = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})  # an effect the companion does not know
    after, events = events_of(held, ANA, {"type": "shift", "kind": "line", "index": 0, "direction": "right"})
    assert "correction" not in events[0] and fig(after, 2)["at"] == [3, 3] and after["active"] == ANA
    assert GAME.view(held, ANA)["operations"]


def test_turn_a_figure_moved_by_another_cards_effect_applies_the_card_it_lands_on():
    # « Des effets permettent de déplacer un autre amiibo en plus de celui qui est joué. Si rien n'est
    # précisé, cet amiibo applique l'effet du lieu qu'il quitte ou rejoint. »
    state = kept({1: [3, 0], 2: [3, 2], 4: [0, 0], 5: [0, 3]},
                 {(2, 0): "Temple du temps", (1, 1): "Observatoire"})
    held = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    after, events = events_of(held, ANA, {"type": "place", "figure": 4, "cell": [1, 1]})
    assert kinds(events) == ["moved", "effect"] + ["location_revealed"] * 4
    assert events[1]["card"] == "Observatoire" and all(after["board"][r][c]["revealed"]
                                                       for r, c in ((0, 1), (1, 0), (1, 2), (2, 1)))
    assert after["step"]["kind"] == "hold" and after["active"] == ANA  # the unknown card still waits
    # Onto a face-down card: it is turned over and waits for its name, then applies itself.
    onto_face_down, events = events_of(held, ANA, {"type": "place", "figure": 4, "cell": [1, 2]})
    assert kinds(events) == ["moved", "location_revealed"] and onto_face_down["step"]["kind"] == "name_card"
    assert act(onto_face_down, ANA, {"type": "name_card", "cell": [1, 2], "name": "Amiiboxe ville"})["step"]["kind"] \
        == "swap_cards"


def test_turn_a_face_down_card_is_turned_up_when_an_effect_says_so():
    state = kept({1: [3, 0], 2: [3, 2], 4: [0, 0], 5: [0, 3]}, {(2, 0): "Temple du temps"})
    held = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    after, events = events_of(held, ANA, {"type": "name_card", "cell": [1, 3], "name": "Enfers"})
    assert kinds(events) == ["location_revealed", "card_named"]
    assert after["board"][1][3] == {"revealed": True, "name": "Enfers"} and after["step"]["kind"] == "hold"


def test_lexicon_repousser_activates_no_effect():
    state = kept({1: [2, 1], 4: [1, 1]}, {(0, 1): "Amiiboxe ville"})
    state, events = events_of(state, HOST, {"type": "push", "figure": 1, "target": 4})
    assert fig(state, 4)["at"] == [0, 1] and kinds(events) == ["pushed"] and state["step"] is None


# --- FAQ ---------------------------------------------------------------------------------------

def test_faq_mute_city_the_place_crossed_is_neither_revealed_nor_applied():
    state = kept({1: [3, 0], 4: [0, 3]}, {(3, 0): "Mute City"})
    state["board"][2][0] = {"revealed": False, "name": "Amiiboxe ville"}  # face down, whatever it is
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [1, 0], "card": "Enfers"})
    assert fig(state, 1)["at"] == [1, 0] and not state["board"][2][0]["revealed"]
    assert kinds(events) == ["effect", "moved", "location_revealed", "card_named", "turn"]  # no swap offered
    assert events[0] == {"type": "effect", "card": "Mute City", "effect": "straight_two", "figure": 1}


def test_faq_mute_city_cannot_go_behind_an_adjacent_figure():
    state = kept({1: [3, 0], 2: [2, 0], 4: [0, 3]}, {(3, 0): "Mute City"})
    refused(state, ANA, {"type": "move", "figure": 1, "cell": [1, 0]}, "does not pass over a figure")


def test_faq_jungle_des_jobards_jumps_over_an_adjacent_figure():
    state = kept({1: [3, 0], 4: [2, 0], 5: [0, 3]}, {(3, 0): "Jungle des jobards", (1, 0): "Enfers"})
    assert fig(act(state, ANA, {"type": "move", "figure": 1, "cell": [1, 0]}), 1)["at"] == [1, 0]
    refused(kept({1: [3, 0], 4: [0, 3]}, {(3, 0): "Jungle des jobards"}), ANA,
            {"type": "move", "figure": 1, "cell": [1, 0]}, "jumps over an adjacent figure")


def test_faq_great_fox_moves_diagonally_but_attacks_only_an_adjacent_enemy():
    state = kept({1: [3, 0], 4: [2, 1], 5: [0, 3]}, {(3, 0): "Great Fox"})
    refused(state, ANA, {"type": "attack", "attacker": 1, "defender": 4}, "adjacent enemy")
    state = kept({1: [3, 0], 4: [0, 3]}, {(3, 0): "Great Fox", (2, 1): "Enfers"})
    assert fig(act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 1]}), 1)["at"] == [2, 1]


def test_faq_observatoire_reveals_the_places_around_even_occupied_ones():
    state = kept({1: [3, 1], 4: [1, 1], 5: [2, 0]}, {(2, 1): "Observatoire"})
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [2, 1]})
    around = [[1, 1], [3, 1], [2, 0], [2, 2]]
    assert all(state["board"][r][c]["revealed"] for r, c in around)
    assert [e["cell"] for e in events if e["type"] == "location_revealed"] == around
    assert state["active"] == BEN


def test_faq_bourg_palette_a_ranged_attack_on_the_adjacent_enemys_support_without_moving_and_the_winner_stays():
    # Link on Bourg Palette; Mario beside him; Peach supports Mario. Link attacks Peach from where he stands.
    cells, cards = {1: [2, 0], 4: [1, 0], 5: [0, 0], 6: [0, 3]}, {(2, 0): "Bourg Palette"}
    state, events = attack_with(kept(cells, cards), 1, 5, SHORTEST_NAME)  # "Link" is shorter than "Peach"
    assert events[0]["ranged"] and events[0]["card"] == "Bourg Palette"
    assert fig(state, 1)["at"] == [2, 0] and fig(state, 1)["carries"] == [5] and state["active"] == BEN
    refused(kept(cells, cards), ANA, {"type": "attack", "attacker": 1, "defender": 6}, "support of an adjacent enemy")
    refused(kept(cells), ANA, {"type": "attack", "attacker": 1, "defender": 5}, "adjacent enemy")


def test_faq_enfers_the_first_winner_stays_and_the_second_fight_is_normal():
    state = kept({1: [2, 0], 2: [3, 1], 4: [1, 0], 5: [2, 1], 6: [0, 3]}, {(2, 0): "Enfers", (2, 1): "Château de Peach"})
    state, events = attack_with(state, 1, 4, SHORTEST_NAME)  # Link beats Mario, and stays
    assert fig(state, 1)["at"] == [2, 0] and events[-1]["type"] == "second_fight_offered"
    assert state["active"] == ANA and state["step"]["kind"] == "second_fight"
    refused(state, ANA, {"type": "attack", "attacker": 2, "defender": 5}, "figure that just won")
    refused(state, ANA, {"type": "move", "figure": 1, "cell": [1, 0]}, "Not now: the table is choosing a second fight (Enfers)")
    declined = act(state, ANA, {"type": "end_turn"})
    assert declined["active"] == BEN
    state, events = attack_with(state, 1, 5, SHORTEST_NAME)  # a normal fight: the winner moves
    assert fig(state, 1)["at"] == [2, 1] and fig(state, 1)["carries"] == [4, 5]
    assert "second_fight_offered" not in kinds(events)  # never a third fight
    # It arrived on Château de Peach, whose effect the companion does not know: the table applies it.
    assert state["step"]["kind"] == "hold" and act(state, ANA, {"type": "confirm_effect"})["active"] == BEN


def test_faq_amiiboxe_ville_swaps_a_revealed_location_with_a_face_down_one():
    state = kept({1: [3, 0], 4: [0, 3]}, {(2, 0): "Amiiboxe ville", (1, 2): "Enfers"})
    state = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    assert state["step"]["kind"] == "swap_cards"
    refused(state, BEN, {"type": "swap_cards", "first": [1, 2], "second": [0, 0]}, "Not your turn")
    state, events = events_of(state, ANA, {"type": "swap_cards", "first": [1, 2], "second": [0, 0]})
    assert state["board"][0][0] == {"revealed": True, "name": "Enfers"} and not state["board"][1][2]["revealed"]
    assert state["active"] == BEN
    # A card keeps the figure standing on it.
    state = kept({1: [3, 0], 4: [0, 3]}, {(2, 0): "Amiiboxe ville"})
    state = act(act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]}), ANA,
                {"type": "swap_cards", "first": [2, 0], "second": [1, 1]})
    assert fig(state, 1)["at"] == [1, 1] and state["board"][1][1]["name"] == "Amiiboxe ville"


def test_faq_ile_des_yoshis_swap_places_then_move_and_only_the_arrival_card_applies():
    # Link on Île des Yoshis swaps with Zelda standing on Mute City, then moves from there: Mute City's
    # effect does not apply (he leaves it at once), Amiiboxe ville's arrival effect does.
    cards = {(2, 0): "Île des Yoshis", (2, 1): "Mute City", (1, 1): "Amiiboxe ville"}
    state = kept({1: [2, 0], 2: [2, 1], 4: [0, 3]}, cards)
    refused(state, ANA, {"type": "move", "figure": 1, "swap_with": 2, "cell": [0, 1]}, "adjacent place")
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "swap_with": 2, "cell": [1, 1]})
    assert fig(state, 2)["at"] == [2, 0] and fig(state, 1)["at"] == [1, 1]
    assert kinds(events) == ["effect", "swapped_figures", "moved", "effect"]
    assert state["step"]["kind"] == "swap_cards"
    refused(kept({1: [2, 0], 2: [2, 1], 4: [0, 3]}), ANA, {"type": "move", "figure": 1, "swap_with": 2,
                                                          "cell": [1, 1]}, "Île des Yoshis")


def test_effects_are_offered_only_where_their_card_is():
    state = kept({1: [3, 0], 4: [0, 3]})
    refused(state, ANA, {"type": "move", "figure": 1, "cell": [2, 1]}, "adjacent place")  # no Great Fox
    refused(state, ANA, {"type": "move", "figure": 1, "cell": [1, 0]}, "adjacent place")  # no Mute City
    listed = legal_actions(state, ANA)
    assert not [a for a in listed if a["type"] == "move" and a["figure"] == 1 and a["cell"] != [2, 0]
                and a["cell"] != [3, 1]]


def test_without_a_kept_board_the_player_names_the_card_they_stand_on_and_its_effect_is_offered():
    state = started()
    refused(state, ANA, {"type": "attack", "attacker": 1, "defender": 5, "ranged": True}, "Bourg Palette")
    refused(state, ANA, {"type": "attack", "attacker": 1, "defender": 5, "ranged": True, "card": "Enfers"},
            "Bourg Palette")
    after, events = attack_with(state, 1, 5, SHORTEST_NAME, ranged=True, card="bourg palette")
    assert events[0]["ranged"] and fig(after, 1)["carries"] == [5]
    after, events = attack_with(state, 1, 4, SHORTEST_NAME, card="Enfers")
    assert after["step"] == {"kind": "second_fight", "figure": 1, "hold": False} and after["active"] == ANA
    refused(state, ANA, {"type": "attack", "attacker": 1, "defender": 4, "card": "Mute City"}, "attack effect")
    refused(started(board="kept"), ANA, {"type": "attack", "attacker": 1, "defender": 4, "card": "Enfers"},
            "read from the board")


# --- judgements nobody can block -------------------------------------------------------------------

DEFAULTS = {"least_clothed": [[MARIO["amiibo_id"]], [LINK["amiibo_id"], PEACH["amiibo_id"]]]}


def judged(players=(ANA, BEN), house=None, defaults=None, **chosen):
    state = started(players, house=house, **chosen)
    state["secret"]["defaults"] = defaults or {}
    return attack_with(state, 1, 4, LEAST_CLOTHED)


def test_judgement_the_projects_default_ranking_decides_when_the_players_disagree():
    state, events = judged(defaults=DEFAULTS)
    assert events[-1]["proposal"] == {"winner": "defender", "by": "default"}
    assert GAME.view(state, ANA)["fight"]["proposal"] == {"winner": "defender", "by": "default"}
    state = act(state, ANA, {"type": "judge", "winner": 1})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    decided = next(e for e in events if e["type"] == "fight_decided")
    assert decided["winner"] == "defender" and decided["by"] == "default"
    assert decided["answers"] == {"attacker": 1, "defender": 4} and state["fights"][-1]["by"] == "default"


def test_judgement_the_house_ranking_refines_the_default():
    house = {"least_clothed": [[LINK["amiibo_id"], MARIO["amiibo_id"]]]}
    state, events = judged(house=house, defaults=DEFAULTS)
    assert events[-1]["proposal"] == {"winner": "attacker", "by": "house"}


def test_judgement_two_players_who_agree_override_both_rankings():
    house = {"least_clothed": [[MARIO["amiibo_id"], LINK["amiibo_id"]]]}
    state, _ = judged(house=house, defaults=DEFAULTS)
    state = act(state, BEN, {"type": "judge", "winner": 1})
    state, events = events_of(state, ANA, {"type": "judge", "winner": 1})
    assert next(e for e in events if e["type"] == "fight_decided")["by"] == "agreement"
    assert [LINK["amiibo_id"], MARIO["amiibo_id"]] in state["secret"]["house"]["least_clothed"]
    assert [MARIO["amiibo_id"], LINK["amiibo_id"]] not in state["secret"]["house"]["least_clothed"]


def disagree_until_decided(state, generator):
    """Both players of every fight asked answer for their own figure, until the fight is decided."""
    events = []
    while state["fight"]:
        for role in ("attacker", "defender"):
            seat, figure = state["fight"]["seats"][role], state["fight"][role]
            state, more = events_of(state, seat, {"type": "judge", "winner": figure}, generator)
            events += more
    return state, next(event for event in events if event["type"] == "fight_decided")


def test_assumption_pro_with_two_players_a_disagreement_is_settled_by_what_the_companion_knows():
    # The book is silent (« Si vous ne souhaitez pas tenir compte de cette aide, jouez en mode PRO »).
    # With two players nobody votes: a player who always disagrees must not turn every fight into a tie.
    state = started(pro="on")
    assert fig(state, 1)["values"] == {} and state["secret"]["values"]["1"]["tallest"] == 1.7  # sealed values
    generator = roll(TALLEST)
    state, _ = attack_with(state, 1, 4, TALLEST)  # Link 1.7 m against Mario 1.55 m, judged by the players
    state, decided = disagree_until_decided(state, generator)
    assert decided["winner"] == "attacker" and decided["by"] == "pro_values" and decided["values"] is None
    assert fig(state, 4)["status"] == "captured"


def test_assumption_pro_with_two_players_nothing_known_on_any_criterion_is_a_fair_draw_not_a_tie():
    state = started(pro="on")
    state["secret"]["values"] = {}  # the companion knows no value, and no ranking orders them
    generator = roll(LEAST_CLOTHED, SUPPORTS, TALLEST, SHORTEST_NAME, LIGHTEST, FARTHEST, 2)
    state, _ = events_of(state, ANA, {"type": "attack", "attacker": 1, "defender": 4}, generator)
    state, decided = disagree_until_decided(state, generator)
    assert decided["by"] == "fair_draw" and decided["winner"] == "defender" and len(decided["tried"]) == 6
    assert generator.draws[-1]["purpose"]["kind"] == "fair_winner"
    assert fig(state, 1)["status"] == "captured"


def test_assumption_pro_with_three_players_the_others_still_vote():
    state = started((ANA, BEN, CLO), pro="on")
    state, _ = attack_with(state, 1, 4, TALLEST)
    state = act(state, ANA, {"type": "judge", "winner": 1})
    state = act(state, BEN, {"type": "judge", "winner": 4})
    assert state["fight"]["exchange"] == "vote" and state["fight"]["voters"] == [CLO]


def test_judgement_disagreement_with_three_players_the_other_player_votes_sealed():
    state, _ = judged((ANA, BEN, CLO))
    state = act(state, ANA, {"type": "judge", "winner": 1})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    assert events[-1] == {"type": "fight_asks", "exchange": "vote", "proposal": None, "seats": [CLO]}
    assert GAME.waiting(state) == [{"seat": CLO, "for": "Vote who wins the fight", "params": {}, "timed": True}]
    refused(state, ANA, {"type": "judge", "winner": 1}, "Not your turn: the table is voting on a fight")
    for seat in (None, ANA, BEN, CLO):
        assert "answers" not in GAME.view(state, seat)["fight"] and "secret" not in GAME.view(state, seat)
    state, events = events_of(state, CLO, {"type": "judge", "winner": 4})
    decided = next(e for e in events if e["type"] == "fight_decided")
    assert decided["by"] == "vote" and decided["winner"] == "defender"
    assert decided["answers"] == {"attacker": 1, "defender": 4} and decided["votes"] == {str(CLO): 4}


def test_judgement_a_tied_vote_rolls_the_die_again():
    state, _ = judged((ANA, BEN, CLO, DAN))
    state = act(act(state, ANA, {"type": "judge", "winner": 1}), BEN, {"type": "judge", "winner": 4})
    state = act(state, CLO, {"type": "judge", "winner": 1})
    state, events = events_of(state, DAN, {"type": "judge", "winner": 4}, roll(TALLEST))
    assert kinds(events)[:3] == ["answered", "fight_rerolled", "fight_decided"]
    assert events[2]["criterion"] == "tallest" and events[2]["winner"] == "attacker"


def test_judgement_disagreement_with_two_players_the_die_is_rolled_again_for_another_criterion():
    state, _ = judged()
    state = act(state, ANA, {"type": "judge", "winner": 1})
    # The die shows the same criterion again, then the tallest: Link (1.7 m) beats Mario (1.55 m).
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4}, roll(LEAST_CLOTHED, TALLEST))
    rerolled = next(e for e in events if e["type"] == "fight_rerolled")
    assert rerolled["criterion"] == "tallest" and rerolled["answers"] == {"attacker": 1, "defender": 4}
    decided = next(e for e in events if e["type"] == "fight_decided")
    assert decided["winner"] == "attacker" and decided["tried"] == ["least_clothed", "tallest"]
    assert decided["faces"] == [LEAST_CLOTHED, TALLEST] and fig(state, 1)["carries"] == [4]


def test_judgement_tie_on_disagreement_is_a_visible_house_option():
    option = next(option for option in GAME.options if option.name == "disagreement")
    assert option.choices == ("resolve", "tie") and option.default == "resolve"
    state, _ = judged(disagreement="tie")
    assert GAME.view(state, None)["disagreement"] == "tie"


def test_a_judged_fight_is_a_timed_wait_and_never_stalls():
    state, _ = judged(defaults=DEFAULTS)
    assert all(wait["timed"] for wait in GAME.waiting(state)) and len(GAME.waiting(state)) == 2
    state = act(state, ANA, {"type": "judge", "winner": 1})
    state, events = GAME.on_timeout(state, BEN, rng())  # Ben never answers: the proposal decides
    assert kinds(events)[:2] == ["timed_out", "fight_decided"] and events[1]["by"] == "default"
    assert state["fight"] is None and state["active"] == BEN
    # Without a ranking, a silent player counts as disagreeing: the die again.
    state, _ = judged()
    state, events = GAME.on_timeout(state, ANA, rng())
    assert events == [{"type": "timed_out", "seat": ANA}] and state["fight"]
    state, events = GAME.on_timeout(state, BEN, roll(TALLEST))
    assert "fight_rerolled" in kinds(events) and state["fight"] is None
    assert GAME.on_timeout(state, BEN, rng())[1] == []  # nothing timed any more


def test_a_withdrawn_seats_figures_leave_the_board_and_score_nothing():
    state = started((ANA, BEN, CLO))
    state, _ = attack_with(state, 1, 4, TALLEST)  # Link carries Mario
    state, events = GAME.withdraw(state, ANA, rng())
    assert {fig(state, f)["status"] for f in (1, 2, 3, 4)} == {"out"} and state["seats"][0]["points"] == 0
    assert state["active"] == BEN and "withdraw" not in GAME.withdraw_rule
    state, events = GAME.withdraw(state, CLO, rng())
    assert state["phase"] == "over" and state["winners"] == [BEN]
    assert GAME.outcome(state) == {"winners": [BEN], "reason": "The most points, from the figures retired: %(names)s.",
                                   "params": {"names": "Ben"}, "ranking": [[BEN], [ANA, CLO]]}


def test_the_verifier_checks_every_fights_die_against_its_draws():
    from companion.games.amiiboxe.draws import step_problems
    state, _ = judged()
    state = act(state, ANA, {"type": "judge", "winner": 1})
    generator = ScriptedRng(("fight_reroll", LEAST_CLOTHED), ("fight_reroll", TALLEST))
    _, events = events_of(state, BEN, {"type": "judge", "winner": 4}, generator)
    entries = [{"i": 10 + n, "event": event} for n, event in enumerate(events)]
    assert step_problems(generator.draws, entries) == []
    edited = [{"i": e["i"], "event": {**e["event"], "face": 6} if e["event"]["type"] == "fight_rerolled"
               else e["event"]} for e in entries]
    assert "which no draw gives" in step_problems(generator.draws, edited)[0][1]
    attack_rng = roll(TALLEST)
    _, events = events_of(started(), ANA, {"type": "attack", "attacker": 1, "defender": 4}, attack_rng)
    entries = [{"i": n, "event": event} for n, event in enumerate(events)]
    assert step_problems(attack_rng.draws, entries) == []
    assert "forged" in step_problems([], entries)[0][1]
    assert "removed" in step_problems(attack_rng.draws, entries[1:])[0][1]


# --- cards the companion does not know, and an away player's turn ----------------------------------

def test_assumption_a_card_whose_effect_is_unknown_holds_the_turn_until_the_table_confirms_it_is_applied():
    state = kept({1: [3, 0], 2: [3, 2], 4: [0, 0], 5: [0, 1]}, {(2, 0): "Temple du temps", (2, 2): "Enfers"})
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    assert kinds(events) == ["moved", "effect_to_apply"] and events[1]["card"] == "Temple du temps"
    assert state["active"] == ANA and state["step"] == {"kind": "hold", "card": "Temple du temps", "figure": 1,
                                                        "hold": False}
    assert GAME.waiting(state) == [{"seat": ANA, "for": "Apply the effect of %(card)s on the board, then confirm",
                                    "params": {"card": "Temple du temps"}, "timed": False}]
    assert "confirm_effect" in actions(GAME.view(state, ANA)) and actions(GAME.view(state, BEN)) == []
    refused(state, BEN, {"type": "confirm_effect"}, "Not your turn")
    refused(state, ANA, {"type": "move", "figure": 2, "cell": [2, 1]}, "Not now: the table is applying a card’s effect")
    # While it holds, the generic operations apply the effect on the kept board; then Ana confirms.
    pushed = act(state, ANA, {"type": "place", "figure": 4, "cell": [0, 3], "card": "Mute City"})
    assert pushed["active"] == ANA and fig(pushed, 4)["at"] == [0, 3]
    after, events = events_of(pushed, ANA, {"type": "confirm_effect"})
    assert kinds(events) == ["effect_applied", "turn"] and events[0]["by"] == ANA and after["active"] == BEN
    assert act(state, HOST, {"type": "confirm_effect"})["active"] == BEN  # the host keeps the board too
    refused(after, BEN, {"type": "confirm_effect"}, "Not now: the table is playing a turn")
    # A card the companion knows applies itself (Enfers acts when attacking): no pause.
    assert act(state := kept({1: [3, 0], 2: [3, 2], 4: [0, 0]}, {(2, 2): "Enfers"}), ANA,
               {"type": "move", "figure": 2, "cell": [2, 2]})["active"] == BEN
    # A card turned over holds once it is named.
    turned = act(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    assert turned["step"]["kind"] == "name_card"
    named = act(turned, ANA, {"type": "name_card", "cell": [2, 0], "name": "château d'hyrule"})
    assert named["step"]["kind"] == "hold" and named["step"]["card"] == "Château d'Hyrule"


def test_assumption_on_a_free_board_a_named_card_whose_effect_is_unknown_holds_the_turn_too():
    state = started()
    held = act(state, ANA, {"type": "move", "figure": 1, "card": "Royaume Champignon"})
    assert held["step"]["kind"] == "hold" and held["active"] == ANA
    assert act(held, ANA, {"type": "end_turn"})["active"] == BEN  # ending the turn declines it
    assert act(state, ANA, {"type": "move", "figure": 1, "card": "Enfers"})["active"] == BEN
    assert act(state, ANA, {"type": "move", "figure": 1})["active"] == BEN  # no card named: nothing to hold


def test_assumption_only_the_host_passes_the_turn_of_a_player_who_is_away():
    state = started()
    assert "pass" in GAME.proxy_actions and "judge" not in GAME.proxy_actions  # never a sealed answer
    assert {"type": "pass", "proxied": True} in GAME.legal_actions(state, ANA)  # the host's choice for Ana
    assert "pass" not in actions(GAME.view(state, ANA))  # not on her own screen
    refused(state, ANA, {"type": "pass"}, "only the host passes")
    refused(state, BEN, {"type": "pass", "proxied": True}, "Not your turn")
    passed, events = events_of(state, ANA, {"type": "pass", "proxied": True})
    assert kinds(events) == ["turn_passed", "turn"] and passed["active"] == BEN
    moved = act(state, ANA, {"type": "move", "figure": 1, "card": "Royaume Champignon"})
    refused(moved, ANA, {"type": "pass", "proxied": True}, "Not now: the table is applying a card’s effect")  # then: confirm or end the turn
    assert {"type": "confirm_effect"} in GAME.legal_actions(moved, ANA) and "confirm_effect" in GAME.proxy_actions
