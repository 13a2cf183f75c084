"""Amiiboxe's pure rules: setup, turns, fights of every criterion kind, captures and score, the board."""

from __future__ import annotations

import copy
import json

import pytest

from companion.games.amiiboxe import GAME, HOST, HOST_ACTIONS, legal_actions
from companion.games.base import IllegalAction
from tests.rules import Rules, ScriptedRng

SEED = "ab" * 32
RULES = Rules(GAME, seed=SEED)
rng, act, events_of, refused = RULES.rng, RULES.act, RULES.events, RULES.refused
ANA, BEN, CLO, DAN = 1, 2, 3, 4

CRITERIA = {
    "most_supports": {"kind": "situational", "direction": "max"},
    "farthest_from_start": {"kind": "situational", "direction": "max"},
    "tallest": {"kind": "facts", "direction": "max"},
    "lightest": {"kind": "facts", "direction": "min"},
    "heaviest": {"kind": "facts", "direction": "max"},
    "shortest_name": {"kind": "computed", "direction": "min"},
    "oldest_figure": {"kind": "computed", "direction": "min"},
    "least_clothed": {"kind": "judgement", "direction": "max"},
    "most_villainous": {"kind": "judgement", "direction": "max"},
}
BOOK = ["most_supports", "tallest", "shortest_name", "least_clothed", "lightest", "farthest_from_start"]
REFERENCES = {
    "book": BOOK,
    "villains": ["most_villainous", "heaviest", "oldest_figure", "least_clothed", "tallest", "most_supports"],
}
# Die faces of the book's reference.
SUPPORTS, TALLEST, SHORTEST_NAME, LEAST_CLOTHED, LIGHTEST, FARTHEST = range(1, 7)


def figure(figure_id, name, seat, location, amiibo, **values):
    return {"id": figure_id, "amiibo_id": f"0x{amiibo:016x}", "name": {"en": name, "fr": name}, "seat": seat,
            "uid": None, "known": True, "values": values, "location": location}


LINK = figure(1, "Link", ANA, "Temple du temps", 0x01000000, tallest=1.7, lightest=104, shortest_name=4)
ZELDA = figure(2, "Zelda", ANA, "Château d'Hyrule", 0x01010000, tallest=1.75, lightest=85, shortest_name=5)
YOSHI = figure(3, "Yoshi", ANA, "Île de Yoshi", 0x00030000, tallest=1.6, lightest=104, shortest_name=5)
MARIO = figure(4, "Mario", BEN, "Royaume Champignon", 0x00000000, tallest=1.55, lightest=98, shortest_name=5)
PEACH = figure(5, "Peach", BEN, "Château de Peach", 0x00020000, tallest=1.85, lightest=89, shortest_name=5)
BOWSER = figure(6, "Bowser", BEN, "Château de Bowser", 0x00050000, tallest=2.5, shortest_name=6)  # weight unknown
KIRBY = figure(7, "Kirby", CLO, "Dream Land", 0x1f000000, tallest=0.2, lightest=79, shortest_name=5)
FOX = figure(8, "Fox", CLO, "Corneria", 0x05000000, tallest=1.1, lightest=77, shortest_name=3)
PIKACHU = figure(9, "Pikachu", CLO, "Bourg Palette", 0x19190000, tallest=0.4, lightest=79, shortest_name=7)
SAMUS = figure(10, "Samus", DAN, "Zèbes", 0x05800000, tallest=1.9, lightest=108, shortest_name=5)
NESS = figure(11, "Ness", DAN, "Onett", 0x22000000, tallest=1.2, lightest=94, shortest_name=4)
MARTH = figure(12, "Marth", DAN, "Altea", 0x21000000, tallest=1.75, lightest=90, shortest_name=5)

ROSTER = {ANA: ("Ana", [LINK, ZELDA, YOSHI]), BEN: ("Ben", [MARIO, PEACH, BOWSER]),
          CLO: ("Clo", [KIRBY, FOX, PIKACHU]), DAN: ("Dan", [SAMUS, NESS, MARTH])}


def seats(*ids, per_player=3):
    return [{"id": i, "name": ROSTER[i][0], "figures": copy.deepcopy(ROSTER[i][1][:per_player])} for i in ids]


def context(house=None):
    return {"criteria": copy.deepcopy(CRITERIA), "references": copy.deepcopy(REFERENCES),
            "house": copy.deepcopy(house or {})}


def die(face):
    """The table's randomness with the fight's die showing this face (then the seeded draws)."""
    return ScriptedRng(("", face), fallback=rng(1))


def options(house=None, **chosen):
    normalized = GAME.normalize_options(chosen)
    return {**normalized, "context": context(house)}


def new_game(players=(ANA, BEN), house=None, per_player=3, **chosen):
    return GAME.setup(options(house, figures_per_player=per_player, **chosen),
                      seats(*players, per_player=per_player), rng())


def kinds(events):
    return [event["type"] for event in events]


def started(players=(ANA, BEN), first=ANA, house=None, per_player=3, **chosen):
    """A game past its setup: free board unless ``board="kept"`` (then every figure on its line)."""
    state = new_game(players, house, per_player, **chosen)
    state = act(state, HOST, {"type": "first_player", "player": first})
    if state["board"] is not None:
        for seat in players:
            cells = starting_line_of(state, seat)
            for figure_, cell in zip([f for f in state["figures"] if f["seat"] == seat], cells):
                state = act(state, HOST, {"type": "place", "figure": figure_["id"], "cell": cell})
    return act(state, HOST, {"type": "begin"})


def starting_line_of(state, seat):
    return next(side["cells"] for side in GAME.view(state, None)["setup"]["sides"] if side["seat"] == seat)


def fig(state, figure_id):
    return next(f for f in state["figures"] if f["id"] == figure_id)


def positioned(state, cells, revealed=None):
    """The kept board with these figures on these cells (the others set aside off the board)."""
    state = copy.deepcopy(state)
    for f in state["figures"]:
        f["at"] = cells.get(f["id"])
    for cell, name in (revealed or {}).items():
        state["board"][cell[0]][cell[1]] = {"revealed": True, "name": name}
    return state


def turn_of(state, seat):
    state = copy.deepcopy(state)
    state["active"] = seat
    return state


def actions(shown):
    """The types of the viewer's legal actions."""
    return sorted({action["type"] for action in shown["legal"]})


def only(state, keep):
    """The game with only these figures left on the board (the others out, as if withdrawn)."""
    state = copy.deepcopy(state)
    for f in state["figures"]:
        if f["id"] not in keep:
            f["status"] = "out"
    return state


def points(state):
    return {seat["id"]: seat["points"] for seat in state["seats"]}


def attack(state, attacker, defender, face, **flags):
    seat = fig(state, attacker)["seat"]
    return events_of(state, seat, {"type": "attack", "attacker": attacker, "defender": defender, **flags}, die(face))


# --- setup and options ---------------------------------------------------------

@pytest.mark.parametrize("players, per_player, size", [
    ((ANA, BEN), 3, 4), ((ANA, BEN, CLO), 3, 5), ((ANA, BEN, CLO, DAN), 3, 6)])
def test_the_square_has_figures_plus_one_cards_a_side_and_more_with_more_players(players, per_player, size):
    state = new_game(players, per_player=per_player)
    assert state["size"] == size and GAME.view(state, None)["setup"]["size"] == size


def test_the_setup_lists_every_home_location_once():
    state = new_game()
    state["figures"][4]["location"] = " temple du TEMPS "  # Peach shares Link's card, written differently
    locations = GAME.view(state, None)["setup"]["locations"]
    assert locations == ["Temple du temps", "Château d'Hyrule", "Île de Yoshi", "Royaume Champignon",
                         "Château de Bowser"]


def test_the_game_declares_its_registration_rules_and_host_actions():
    assert GAME.id == "amiiboxe" and (GAME.min_seats, GAME.max_seats) == (2, 4)
    assert GAME.registration.unique_figures and GAME.registration.equal_counts
    assert GAME.figure_tapped is not None
    assert HOST_ACTIONS == {"seat_order", "first_player", "name_location", "add_card", "begin", "place",
                            "name_card", "swap_cards", "swap_figures", "push", "shift", "set_reference", "confirm_effect"}


def test_the_book_reference_by_default():
    state = new_game()
    assert state["reference"] == {"id": "book", "criteria": BOOK}
    assert state["phase"] == "setup" and state["board"] is None and not state["pro"]


def test_a_known_reference_or_six_criteria():
    assert new_game(reference=["villains"])["reference"]["criteria"] == REFERENCES["villains"]
    custom = ["lightest", "tallest", "heaviest", "shortest_name", "oldest_figure", "least_clothed"]
    assert new_game(reference=custom)["reference"] == {"id": None, "criteria": custom}


def test_a_random_reference_is_drawn_among_the_known_ones():
    drawn = set()
    for n in range(12):
        generator = rng(n)
        state = GAME.setup(options(reference=["random"]), seats(ANA, BEN), generator)
        assert generator.draws[0]["purpose"] == {"kind": "reference"} and not generator.draws[0]["secret"]
        drawn.add(state["reference"]["id"])
    assert drawn == set(REFERENCES)


@pytest.mark.parametrize("reference, complaint", [
    (["lightest", "tallest"], "6 different criteria"),
    (["lightest"] * 6, "6 different criteria"),
    ([], "6 different criteria"),
])
def test_malformed_references_are_refused_with_the_options(reference, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options({"reference": reference})


@pytest.mark.parametrize("reference, complaint", [
    (["nowhere"], "Unknown reference: nowhere"),
    (["lightest", "tallest", "heaviest", "shortest_name", "oldest_figure", "prettiest"],
     "Unknown criterion: prettiest"),
])
def test_references_are_checked_against_the_context(reference, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        new_game(reference=reference)


@pytest.mark.parametrize("broken", [
    None, {}, {"criteria": {"tallest": {"kind": "vibes", "direction": "max"}}},
    {"criteria": CRITERIA, "references": {"short": ["tallest"]}},
    {"criteria": CRITERIA, "house": {"least_clothed": [["0x1", "0x2", "0x3"]]}},
    {"criteria": CRITERIA, "house": {"prettiest": []}},
])
def test_a_missing_or_malformed_context_is_refused(broken):
    chosen = {**GAME.normalize_options({}), "context": broken}
    if broken is None:
        del chosen["context"]
    with pytest.raises(IllegalAction, match="criteria of Amiiboxe"):
        GAME.setup(chosen, seats(ANA, BEN), rng())


def test_every_player_needs_the_same_number_of_figures():
    unequal = seats(ANA, BEN)
    unequal[1]["figures"].pop()
    with pytest.raises(IllegalAction, match="Every player needs 3 figures; Ben has 2"):
        GAME.setup(options(), unequal, rng())
    with pytest.raises(IllegalAction, match="needs 4 figures; Ana has 3"):
        GAME.setup(options(figures_per_player=4), seats(ANA, BEN), rng())


def test_each_figure_at_most_once_per_game():
    twice = seats(ANA, BEN)
    twice[1]["figures"][0] = {**copy.deepcopy(LINK), "id": 40, "seat": BEN}
    with pytest.raises(IllegalAction, match="Link is already in this game, with Ana"):
        GAME.setup(options(), twice, rng())


def test_two_to_four_players():
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        GAME.setup(options(), seats(ANA), rng())


def test_unknown_values_are_left_out():
    state = new_game()
    assert "lightest" not in fig(state, 6)["values"] and fig(state, 6)["values"]["tallest"] == 2.5


# --- before the fights ---------------------------------------------------------------

def test_play_begins_with_the_player_who_acquired_an_amiibo_last():
    state = new_game()
    assert GAME.view(state, None)["needs"] == ["first_player"]
    refused(state, HOST, {"type": "begin"}, "acquired an amiibo last")
    state = act(state, HOST, {"type": "first_player", "player": BEN})
    after, events = events_of(state, HOST, {"type": "begin"})
    assert after["phase"] == "play" and after["active"] == BEN and after["turn"] == 1
    assert events == [{"type": "play_began", "order": [ANA, BEN], "seat": BEN}]
    refused(after, HOST, {"type": "first_player", "player": ANA}, "Not now: the table is playing a turn")


def test_the_host_sets_the_clockwise_order():
    state = new_game((ANA, BEN, CLO))
    state = act(state, HOST, {"type": "seat_order", "seats": [CLO, ANA, BEN]})
    assert state["order"] == [CLO, ANA, BEN]
    sides = {side["seat"]: side["side"] for side in GAME.view(state, None)["setup"]["sides"]}
    assert sides == {CLO: "south", ANA: "west", BEN: "north"}
    for order in ([ANA, BEN], [ANA, BEN, BEN], [ANA, BEN, 9], [ANA, BEN, "3"], "ABC"):
        refused(state, HOST, {"type": "seat_order", "seats": order}, "seat order" if order != "ABC" else "seats")


def test_unnamed_locations_are_chosen_by_their_owners_from_the_tables_cards_and_remembered():
    nameless = seats(ANA, BEN)
    nameless[0]["figures"][0]["location"] = None
    state = act(GAME.setup(options(), nameless, rng()), HOST, {"type": "first_player", "player": ANA})
    assert GAME.view(state, ANA)["needs"] == ["locations"]
    refused(state, HOST, {"type": "begin"}, "home location must be chosen")
    refused(state, BEN, {"type": "name_location", "figure": 1, "name": "Temple du temps"}, "not yours")
    refused(state, ANA, {"type": "name_location", "figure": 1, "name": "   "}, "from the list")
    refused(state, ANA, {"type": "name_location", "figure": 1, "name": "Temple du tempo"}, "from the list")
    refused(state, ANA, {"type": "name_location", "figure": 99, "name": "Hyrule"}, "no such figure")
    state, events = events_of(state, ANA, {"type": "name_location", "figure": 1, "name": " chateau d’HYRULE "})
    assert events == [{"type": "location_named", "figure": 1, "amiibo_id": LINK["amiibo_id"],
                       "name": "Château d'Hyrule"}]
    assert act(state, HOST, {"type": "begin"})["phase"] == "play"


def test_the_host_changes_the_reference_between_fights():
    state = started()
    state, events = events_of(state, HOST, {"type": "set_reference", "reference": "villains"})
    assert state["reference"]["criteria"] == REFERENCES["villains"]
    assert events == [{"type": "reference_changed", "id": "villains", "criteria": REFERENCES["villains"]}]
    custom = ["lightest", "tallest", "heaviest", "shortest_name", "oldest_figure", "least_clothed"]
    assert act(state, HOST, {"type": "set_reference", "reference": custom})["reference"]["id"] is None
    generator = rng(3)
    drawn = act(state, HOST, {"type": "set_reference", "reference": "random"}, generator)
    assert drawn["reference"]["id"] in REFERENCES
    assert generator.draws[0]["purpose"] == {"kind": "reference"}
    refused(state, HOST, {"type": "set_reference", "reference": ["tallest"] * 6}, "6 different criteria")
    refused(state, HOST, {"type": "set_reference", "reference": 7}, "6 different criteria")
    refused(state, HOST, {"type": "set_reference"}, "reference")
    pending, _ = attack(started(), 1, 6, LIGHTEST)  # Bowser's weight is unknown: the players judge
    assert pending["fight"]
    refused(pending, HOST, {"type": "set_reference", "reference": "book"}, "fight is being decided")


# --- placement on the kept board ---------------------------------------------------------

def test_two_players_start_on_opposite_lines():
    state = new_game(board="kept")
    sides = {side["seat"]: side for side in GAME.view(state, None)["setup"]["sides"]}
    assert sides[ANA]["side"] == "south" and sides[ANA]["cells"] == [[3, 0], [3, 1], [3, 2], [3, 3]]
    assert sides[BEN]["side"] == "north" and sides[BEN]["cells"] == [[0, 3], [0, 2], [0, 1], [0, 0]]
    assert GAME.view(state, None)["setup"]["forbidden_corners"] == []


def test_three_players_never_start_in_a_shared_corner():
    state = new_game((ANA, BEN, CLO), board="kept")
    setup = GAME.view(state, None)["setup"]
    assert setup["forbidden_corners"] == [[0, 0], [4, 0]]
    sides = {side["seat"]: side for side in setup["sides"]}
    assert sides[ANA]["cells"] == [[4, 1], [4, 2], [4, 3], [4, 4]]  # south: not the south-west corner
    assert sides[BEN]["cells"] == [[1, 0], [2, 0], [3, 0]]  # west: both its corners are shared
    assert sides[CLO]["cells"] == [[0, 4], [0, 3], [0, 2], [0, 1]]  # north, from the player's left
    refused(state, HOST, {"type": "place", "figure": 1, "cell": [4, 0]}, "shared by two starting lines")


def test_four_players_lose_every_corner():
    state = new_game((ANA, BEN, CLO, DAN), board="kept")
    setup = GAME.view(state, None)["setup"]
    assert setup["forbidden_corners"] == [[0, 0], [0, 5], [5, 0], [5, 5]]
    assert {side["side"]: side["cells"][0] for side in setup["sides"]} == {
        "south": [5, 1], "west": [1, 0], "north": [0, 4], "east": [4, 5]}


def test_placement_on_the_starting_line_before_the_fights():
    state = act(new_game(board="kept"), HOST, {"type": "first_player", "player": ANA})
    assert GAME.view(state, None)["needs"] == ["placements"]
    refused(state, HOST, {"type": "place", "figure": 1, "cell": [2, 0]}, "starting line")
    refused(state, HOST, {"type": "place", "figure": 4, "cell": [3, 0]}, "starting line")
    state, events = events_of(state, HOST, {"type": "place", "figure": 1, "cell": [3, 0]})
    assert events == [{"type": "placed", "figure": 1, "from": None, "to": [3, 0]}]
    refused(state, HOST, {"type": "place", "figure": 2, "cell": [3, 0]}, "taken")
    refused(state, HOST, {"type": "begin"}, "must first stand on its owner")
    state = act(state, HOST, {"type": "place", "figure": 1, "cell": [3, 3]})  # moved along its line
    assert fig(state, 1)["at"] == [3, 3] and not state["board"][3][3]["revealed"]


def test_a_new_seat_order_sends_misplaced_figures_back_to_the_setup():
    state = new_game(board="kept")
    state = act(state, HOST, {"type": "first_player", "player": ANA})
    for figure_id, cell in ((1, [3, 0]), (2, [3, 1]), (3, [3, 2]), (4, [0, 0]), (5, [0, 1]), (6, [0, 2])):
        state = act(state, HOST, {"type": "place", "figure": figure_id, "cell": cell})
    swapped = act(state, HOST, {"type": "seat_order", "seats": [BEN, ANA]})
    assert GAME.view(swapped, None)["needs"] == ["placements"]
    refused(swapped, HOST, {"type": "begin"}, "starting line")


def test_a_tap_then_a_place_positions_the_tapped_figure():
    state = new_game(board="kept")
    state, events = GAME.figure_tapped(state, {"id": 5, "uid": None, "amiibo_id": PEACH["amiibo_id"]}, rng())
    assert events == [{"type": "figure_selected", "figure": 5, "as": "figure"}]
    state = act(state, HOST, {"type": "place", "cell": [0, 1]})
    assert fig(state, 5)["at"] == [0, 1] and state["selected"] == {"figure": None, "target": None}


# --- turns --------------------------------------------------------------------------

def test_the_turn_passes_clockwise():
    state = started((ANA, BEN, CLO), first=BEN)
    order = []
    for _ in range(4):
        order.append(state["active"])
        mover = next(f for f in state["figures"] if f["seat"] == state["active"])
        state = act(state, state["active"], {"type": "move", "figure": mover["id"]})
    assert order == [BEN, CLO, ANA, BEN] and state["turn"] == 5


def test_a_player_without_figures_is_skipped():
    state = started((ANA, BEN, CLO))
    for figure_id in (4, 5, 6):  # Ben's figures are all set aside
        fig(state, figure_id)["status"] = "out"
    state = act(state, ANA, {"type": "move", "figure": 1})
    assert state["active"] == CLO


def test_out_of_turn_and_strangers_are_refused():
    state = started()
    refused(state, BEN, {"type": "move", "figure": 4}, "Not your turn: the table is playing a turn")
    refused(state, 9, {"type": "move", "figure": 4}, "Not your turn")
    refused(state, ANA, {"type": "move", "figure": 4}, "not yours")
    refused(state, ANA, {"type": "end_turn"}, "Move, attack or retire")
    refused(state, ANA, {"type": "judge", "winner": 1}, "Not now: the table is playing a turn")
    refused(state, ANA, {"type": "name_location", "figure": 1, "name": "Hyrule"}, "from the list")
    refused(new_game(), ANA, {"type": "move", "figure": 1}, "Not now: the table is setting up the square")


def test_host_and_seat_actions_do_not_mix():
    state = started()
    refused(new_game(), ANA, {"type": "begin"}, "Only the host")
    refused(state, HOST, {"type": "move", "figure": 1}, "Only a player can do that")
    refused(state, ANA, {"type": "dance"}, "Unknown action: dance")
    refused(state, HOST, {"type": None}, "Unknown action")
    refused(state, ANA, ["move"], "Unknown action")
    refused(state, ANA, {"type": ["move"]}, "Unknown action")


def test_events_share_nothing_with_the_new_state():
    state = started(board="kept")
    after, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    events[0]["to"].append(9)
    assert fig(after, 1)["at"] == [2, 0]


@pytest.mark.parametrize("action, complaint", [
    ({"type": "move"}, "figure"),
    ({"type": "move", "figure": "1"}, "figure"),
    ({"type": "move", "figure": True}, "figure"),
    ({"type": "attack", "attacker": 1}, "defender"),
    ({"type": "attack", "attacker": 1, "defender": 4.0}, "defender"),
    ({"type": "attack", "attacker": 1, "defender": 4, "ranged": "yes"}, "ranged"),
    ({"type": "attack", "attacker": 1, "defender": 4, "ranged": True}, "Bourg Palette"),
    ({"type": "attack", "attacker": 1, "defender": 4, "card": 7}, "card"),
    ({"type": "attack", "attacker": 1, "defender": 2}, "enemy"),
    ({"type": "attack", "attacker": 4, "defender": 1}, "not yours"),
    ({"type": "retire", "figure": 77}, "no such figure"),
])
def test_malformed_turn_actions_change_nothing(action, complaint):
    refused(started(), ANA, action, complaint)


@pytest.mark.parametrize("action, complaint", [
    ({"type": "move", "figure": 1}, "cell"),
    ({"type": "move", "figure": 1, "cell": [2]}, "[row, column]"),
    ({"type": "move", "figure": 1, "cell": [2, "0"]}, "[row, column]"),
    ({"type": "move", "figure": 1, "cell": [4, 0]}, "[row, column]"),
    ({"type": "move", "figure": 1, "cell": [-1, 0]}, "[row, column]"),
    ({"type": "move", "figure": 1, "cell": [2, 1]}, "adjacent place"),
    ({"type": "move", "figure": 1, "cell": [3, 1]}, "taken"),
    ({"type": "attack", "attacker": 1, "defender": 4}, "adjacent enemy"),
])
def test_kept_board_moves_and_attacks_are_checked(action, complaint):
    refused(started(board="kept"), ANA, action, complaint)


def test_a_move_on_the_kept_board_reveals_the_card_and_waits_for_its_name():
    state = started(board="kept")
    state, events = events_of(state, ANA, {"type": "move", "figure": 1, "cell": [2, 0]})
    assert fig(state, 1)["at"] == [2, 0] and state["board"][2][0] == {"revealed": True, "name": None}
    assert events == [{"type": "moved", "figure": 1, "from": [3, 0], "to": [2, 0]},
                      {"type": "location_revealed", "cell": [2, 0], "name": None}]
    assert state["active"] == ANA and state["step"]["kind"] == "name_card"
    state, events = events_of(state, ANA, {"type": "name_card", "cell": [2, 0], "name": "great fox"})
    assert events == [{"type": "card_named", "cell": [2, 0], "name": "Great Fox"},
                      {"type": "turn", "seat": BEN, "turn": 2}]


# --- retiring and the book's scoring examples ---------------------------------------------------

def test_a_retire_scores_one_point():
    state, events = events_of(started(), ANA, {"type": "retire", "figure": 2})
    assert points(state) == {ANA: 1, BEN: 0} and fig(state, 2)["status"] == "retired"
    assert events[0] == {"type": "retired", "figure": 2, "seat": ANA, "points": 1, "carried": [],
                         "automatic": False}


def test_on_the_kept_board_a_figure_retires_only_from_its_revealed_home():
    state = started(board="kept")
    refused(state, ANA, {"type": "retire", "figure": 1}, "Temple du temps")
    turned = act(state, HOST, {"type": "name_card", "cell": [3, 0], "name": "Temple du temps"})
    assert turned["board"][3][0] == {"revealed": True, "name": "Temple du temps"}  # a correction may turn it up
    state["board"][3][0]["revealed"] = True  # as if Link had arrived there
    state = act(state, HOST, {"type": "name_card", "cell": [3, 0], "name": "Château d'Hyrule"})
    refused(state, ANA, {"type": "retire", "figure": 1}, "own location")
    state = act(state, HOST, {"type": "name_card", "cell": [3, 0], "name": "temple du temps"})
    assert {"type": "retire", "figure": 1} in legal_actions(state, ANA)
    assert points(act(state, ANA, {"type": "retire", "figure": 1}))[ANA] == 1


def test_book_example_1_link_defeats_mario_then_retires_for_two_points():
    # « Link vainc Mario, le joueur utilisant Link prend l'amiibo de Mario et la place à côté de l'aire de
    # jeu et à proximité de Link. Par la suite, Link rejoint le Temple du temps et quitte l'aire de jeu.
    # Son propriétaire marque 1 point pour avoir retiré son amiibo, et 1 point supplémentaire car Link
    # avait terrassé 1 adversaire. »
    state, events = attack(started(), 1, 4, TALLEST)
    assert {"type": "captured", "figure": 4, "by": 1, "returned": []} in events
    assert fig(state, 1)["carries"] == [4] and fig(state, 4)["status"] == "captured"
    assert fig(state, 4)["captured_by"] == 1
    state = act(state, BEN, {"type": "move", "figure": 5})
    state, events = events_of(state, ANA, {"type": "retire", "figure": 1})
    assert events[0] == {"type": "retired", "figure": 1, "seat": ANA, "points": 2, "carried": [4],
                         "automatic": False}
    assert points(state) == {ANA: 2, BEN: 0}


def test_book_example_1_with_two_enemies_defeated_link_scores_three():
    # « S'il en avait terrassé 2 avant de sortir, le joueur aurait marqué 3 points au total. »
    state, _ = attack(started(), 1, 4, TALLEST)  # Link (1.7 m) is taller than Mario (1.55 m)
    state = act(state, BEN, {"type": "move", "figure": 5})
    state, _ = attack(state, 1, 6, SHORTEST_NAME)  # "Link" is shorter than "Bowser"
    assert fig(state, 1)["carries"] == [4, 6]
    state = act(state, BEN, {"type": "move", "figure": 5})
    state = act(state, ANA, {"type": "retire", "figure": 1})
    assert points(state) == {ANA: 3, BEN: 0}


def test_book_example_2_peach_defeats_link_who_had_defeated_mario():
    # « Après avoir vaincu Mario, Link se fait battre par Peach. Link est donc éliminé et ne pourra plus
    # marquer de points, l'amiibo de Mario est rendu à son propriétaire et écarté du jeu. Le propriétaire
    # de Peach récupère l'amiibo de Link et le garde à proximité de Peach, en dehors de l'aire de jeu.
    # Si Peach parvient à rejoindre son Château et s'échapper, elle rapportera 2 points, celui pour être
    # sortie et celui pour avoir vaincu Link, mais personne ne marquera de point pour avoir vaincu ou
    # vengé Mario. »
    state, _ = attack(started(), 1, 4, TALLEST)
    state, events = attack(state, 5, 1, TALLEST)  # Peach (1.85 m) is taller than Link (1.7 m)
    assert {"type": "captured", "figure": 1, "by": 5, "returned": [4]} in events
    assert fig(state, 1)["status"] == "captured" and fig(state, 1)["captured_by"] == 5
    assert fig(state, 1)["carries"] == []
    assert fig(state, 4)["status"] == "out" and fig(state, 4)["captured_by"] is None
    assert fig(state, 5)["carries"] == [1]
    refused(state, ANA, {"type": "retire", "figure": 1}, "no longer on the board")
    state = act(state, ANA, {"type": "move", "figure": 2})
    state, events = events_of(state, BEN, {"type": "retire", "figure": 5})
    assert events[0]["points"] == 2 and events[0]["carried"] == [1]
    assert points(state) == {ANA: 0, BEN: 2}


def test_book_example_2_with_three_players_nobody_scores_for_mario():
    state = started((ANA, BEN, CLO))
    state, _ = attack(state, 1, 4, TALLEST)  # Ana's Link beats Ben's Mario
    state = act(state, BEN, {"type": "move", "figure": 5})
    state, _ = attack(state, 9, 1, SHORTEST_NAME)  # "Link" beats "Pikachu" on a short name
    assert state["active"] == ANA and fig(state, 9)["status"] == "captured"  # the defender wins
    state = act(state, ANA, {"type": "move", "figure": 2})
    state = act(state, BEN, {"type": "move", "figure": 5})
    state, _ = attack(state, 8, 1, SHORTEST_NAME)  # "Fox" beats "Link"
    assert fig(state, 8)["carries"] == [1] and fig(state, 9)["status"] == "out"
    state = act(state, ANA, {"type": "move", "figure": 2})
    state = act(state, BEN, {"type": "move", "figure": 5})
    state = act(state, CLO, {"type": "retire", "figure": 8})
    assert points(state) == {ANA: 0, BEN: 0, CLO: 2}


# --- the end of the game -------------------------------------------------------------------

def test_when_one_player_is_left_their_figures_retire_at_once():
    state = only(started(), {1, 4})  # Link against Mario
    state, events = attack(state, 1, 4, TALLEST)
    assert kinds(events)[-2:] == ["retired", "game_over"]
    assert events[-2] == {"type": "retired", "figure": 1, "seat": ANA, "points": 2, "carried": [4],
                          "automatic": True}
    assert events[-1] == {"type": "game_over", "scores": [{"seat": ANA, "points": 2}, {"seat": BEN, "points": 0}],
                          "winners": [ANA]}
    assert state["phase"] == "over" and state["winners"] == [ANA] and state["active"] is None
    refused(state, BEN, {"type": "move", "figure": 4}, "game is over")
    refused(state, HOST, {"type": "set_reference", "reference": "book"}, "game is over")
    assert legal_actions(state, ANA) == [] and legal_actions(state, HOST) == []


def test_the_last_retire_of_a_player_ends_the_game():
    state = only(started(), {1, 4})
    state, events = events_of(state, ANA, {"type": "retire", "figure": 1})
    assert kinds(events) == ["retired", "retired", "game_over"]
    assert events[-1]["winners"] == [ANA, BEN] and points(state) == {ANA: 1, BEN: 1}  # equal totals share


def test_the_highest_total_wins():
    state = only(started(), {1, 2, 4, 5})  # Link, Zelda against Mario, Peach
    state = act(state, ANA, {"type": "retire", "figure": 1})
    state, _ = attack(state, 5, 2, TALLEST)  # Peach beats Zelda: Ana has nobody left
    assert state["phase"] == "over" and points(state) == {ANA: 1, BEN: 3}  # Peach 2, Mario 1
    assert state["winners"] == [BEN]


# --- fights: computed and facts ------------------------------------------------------------------

def test_the_die_picks_the_criterion_and_says_who_attacks_whom():
    generator = die(TALLEST)
    state, events = GAME.apply(started(), ANA, {"type": "attack", "attacker": 1, "defender": 4}, generator)
    assert generator.draws[0]["purpose"] == {"kind": "fight_die", "attacker": "Link", "defender": "Mario"} and not generator.draws[0]["secret"]
    assert events[0] == {"type": "fight_rolled", "attacker": 1, "defender": 4, "face": TALLEST,
                         "criterion": "tallest", "ranged": False, "card": None}
    assert events[1]["type"] == "fight_decided" and events[1]["values"] == {"attacker": 1.7, "defender": 1.55}
    assert events[1]["winner"] == "attacker" and events[1]["by"] == "values"
    assert state["fights"][0]["winner"] == "attacker" and state["fights"][0]["number"] == 1


def test_a_computed_criterion_follows_its_direction():
    state, events = attack(turn_of(started(), BEN), 4, 1, SHORTEST_NAME)
    decided = next(e for e in events if e["type"] == "fight_decided")
    assert decided["values"] == {"attacker": 5, "defender": 4} and decided["winner"] == "defender"
    assert fig(state, 4)["status"] == "captured" and fig(state, 1)["carries"] == [4]


def test_a_tie_changes_nothing_and_ends_the_turn():
    state = started()
    after, events = attack(state, 2, 4, SHORTEST_NAME)  # "Zelda" and "Mario": 5 letters each
    assert kinds(events) == ["fight_rolled", "fight_decided", "turn"] and events[1]["winner"] == "tie"
    unplayed = [{**f, "played": False} for f in after["figures"]]
    assert unplayed == state["figures"] and after["active"] == BEN


def test_an_unknown_value_is_left_to_the_players_and_not_learnt():
    state, events = attack(started(), 1, 6, LIGHTEST)  # Bowser's weight is unknown
    assert events[-1] == {"type": "fight_asks", "exchange": "judge", "proposal": None, "seats": [ANA, BEN]}
    state = act(state, ANA, {"type": "judge", "winner": 6})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 6})
    assert "house_learned" not in kinds(events) and state["secret"]["house"] == {}
    assert fig(state, 6)["carries"] == [1]


# --- fights: judgement and the house ranking -----------------------------------------------------

def test_the_house_ranking_decides_a_judgement_criterion_when_the_players_disagree():
    house = {"least_clothed": [[MARIO["amiibo_id"], LINK["amiibo_id"]]]}
    state, events = attack(started(house=house), 1, 4, LEAST_CLOTHED)
    assert events[-1]["proposal"] == {"winner": "defender", "by": "house"}
    state = act(state, ANA, {"type": "judge", "winner": 1})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    assert events[1]["by"] == "house" and events[1]["winner"] == "defender" and events[1]["values"] is None


def test_agreement_decides_and_is_learnt_for_the_rest_of_the_game():
    house = {"least_clothed": [[PEACH["amiibo_id"], MARIO["amiibo_id"]]]}
    state, events = attack(started(house=house), 1, 5, LEAST_CLOTHED)
    assert kinds(events) == ["fight_rolled", "fight_asks"] and state["active"] == ANA
    state, events = events_of(state, BEN, {"type": "judge", "winner": 1})
    assert events == [{"type": "answered", "seat": BEN}]
    state, events = events_of(state, ANA, {"type": "judge", "winner": 1})
    assert events[:2] == [
        {"type": "answered", "seat": ANA},
        {"type": "house_learned", "criterion": "least_clothed", "winner": LINK["amiibo_id"],
         "loser": PEACH["amiibo_id"]}]
    assert events[2]["by"] == "agreement" and events[2]["answers"] == {"attacker": 1, "defender": 1}
    # Link beats Peach who beats Mario: Link beats Mario too, the house proposes it from now on.
    assert [LINK["amiibo_id"], MARIO["amiibo_id"]] in state["secret"]["house"]["least_clothed"]
    state = act(state, BEN, {"type": "move", "figure": 6})
    state, events = attack(state, 1, 4, LEAST_CLOTHED)
    assert events[-1]["proposal"] == {"winner": "attacker", "by": "house"}


def test_disagreement_on_the_house_option_tie_on_disagreement_is_a_tie():
    state, _ = attack(started(disagreement="tie"), 1, 4, LEAST_CLOTHED)
    state = act(state, ANA, {"type": "judge", "winner": 1})
    before = copy.deepcopy(state["figures"])
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    assert kinds(events) == ["answered", "fight_decided", "turn"] and events[1]["winner"] == "tie"
    assert events[1]["by"] == "tie_on_disagreement" and events[1]["answers"] == {"attacker": 1, "defender": 4}
    assert state["figures"] == before and state["secret"]["house"] == {} and state["fight"] is None


def test_judge_answers_stay_sealed_until_both_are_in():
    state, _ = attack(started(), 1, 4, LEAST_CLOTHED)
    state, events = events_of(state, ANA, {"type": "judge", "winner": 4})
    assert events == [{"type": "answered", "seat": ANA}]
    for seat in (None, ANA, BEN):
        shown = GAME.view(state, seat)["fight"]
        assert "answers" not in shown and shown["answered"] == {"attacker": True, "defender": False}
        assert shown["your_answer"] == (4 if seat == ANA else None)
    assert actions(GAME.view(state, BEN)) == ["judge"] and actions(GAME.view(state, ANA)) == []
    assert GAME.waiting(state) == [{"seat": BEN, "for": "Say who wins the fight", "params": {}, "timed": True}]
    refused(state, ANA, {"type": "judge", "winner": 1}, "Not your turn: the table is deciding a fight")
    refused(state, BEN, {"type": "judge", "winner": 2}, "one of the two figures")
    refused(state, BEN, {"type": "judge", "winner": "Mario"}, "winner")
    refused(state, BEN, {"type": "enter_value", "value": 2}, "nothing to answer")
    refused(state, BEN, {"type": "move", "figure": 4}, "Not now: the table is deciding a fight")


def test_only_the_two_fighters_answer():
    state, _ = attack(started((ANA, BEN, CLO)), 1, 4, LEAST_CLOTHED)
    refused(state, CLO, {"type": "judge", "winner": 1}, "Not your turn: the table is deciding a fight")
    assert legal_actions(state, CLO) == [] and legal_actions(state, HOST) == []
    with pytest.raises(IllegalAction, match="fight is being decided"):
        GAME.figure_tapped(state, {"id": 2}, rng())


# --- fights: situational ------------------------------------------------------------------------

def test_situational_values_are_entered_on_a_free_board():
    state, events = attack(started(), 1, 4, SUPPORTS)
    assert events[-1] == {"type": "fight_asks", "exchange": "values", "proposal": None, "seats": [ANA, BEN]}
    refused(state, ANA, {"type": "enter_value", "value": -1}, "from 0 to 99")
    refused(state, ANA, {"type": "enter_value", "value": 100}, "from 0 to 99")
    refused(state, ANA, {"type": "enter_value", "value": 1.5}, "value")
    refused(state, ANA, {"type": "judge", "winner": 1}, "nothing to answer")
    state, events = events_of(state, BEN, {"type": "enter_value", "value": 2})
    assert events == [{"type": "answered", "seat": BEN}]
    assert GAME.view(state, ANA)["fight"]["answered"] == {"attacker": False, "defender": True}
    assert GAME.view(state, ANA)["fight"]["your_answer"] is None
    state, events = events_of(state, ANA, {"type": "enter_value", "value": 1})
    decided = events[1]
    assert decided["values"] == {"attacker": 1, "defender": 2} and decided["winner"] == "defender"
    assert decided["by"] == "entries" and fig(state, 4)["carries"] == [1]


def test_supports_are_counted_on_the_kept_board():
    state = positioned(started(board="kept"), {1: [2, 1], 2: [3, 1], 3: [2, 2], 4: [1, 1], 5: [0, 1], 6: [0, 2]})
    # Link has two allies beside it (Zelda below, Yoshi right), Mario one (Peach; Bowser is diagonal).
    state, events = attack(state, 1, 4, SUPPORTS)
    assert events[1]["values"] == {"attacker": 2, "defender": 1} and events[1]["by"] == "board"
    assert fig(state, 1)["at"] == [1, 1] and fig(state, 4)["at"] is None  # the winner takes the place


def test_distance_from_each_starting_line_on_the_kept_board():
    state = positioned(started(board="kept"), {1: [1, 0], 2: [3, 1], 3: [3, 2], 4: [1, 1], 5: [0, 1], 6: [0, 3]})
    # Link is 2 lines from the south line, Mario 1 from the north line.
    state, events = attack(state, 1, 4, FARTHEST)
    assert events[1]["values"] == {"attacker": 2, "defender": 1} and events[1]["winner"] == "attacker"


def test_distance_for_the_west_and_east_players():
    state = started((ANA, BEN, CLO, DAN), board="kept")
    state = positioned(state, {1: [5, 1], 4: [2, 3], 10: [2, 4], 7: [0, 1]})
    # Ben plays from the west side (3 columns in), Dan from the east side (1 column in).
    state, events = attack(turn_of(state, DAN), 10, 4, FARTHEST)
    assert events[1]["values"] == {"attacker": 1, "defender": 3} and events[1]["winner"] == "defender"
    assert fig(state, 4)["at"] == [2, 3]  # a winning defender stays


# --- PRO mode ----------------------------------------------------------------------------------

def test_pro_mode_judges_every_criterion_and_hides_the_values():
    state = started(pro="on")
    assert all(f["values"] == {} for f in GAME.view(state, ANA)["figures"])
    state, events = attack(state, 1, 4, TALLEST)
    assert events[-1]["exchange"] == "judge"
    state = act(state, ANA, {"type": "judge", "winner": 4})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    assert "house_learned" not in kinds(events)  # tallest is a fact, not a judgement
    assert events[1]["values"] is None and events[1]["winner"] == "defender"


def test_pro_mode_learns_judgement_agreements_and_ignores_the_house():
    house = {"least_clothed": [[MARIO["amiibo_id"], LINK["amiibo_id"]]]}
    state, events = attack(started(pro="on", house=house), 1, 4, LEAST_CLOTHED)
    assert events[-1]["exchange"] == "judge"  # even where the house ranking would decide
    state = act(state, ANA, {"type": "judge", "winner": 4})
    state, events = events_of(state, BEN, {"type": "judge", "winner": 4})
    assert events[1] == {"type": "house_learned", "criterion": "least_clothed", "winner": MARIO["amiibo_id"],
                         "loser": LINK["amiibo_id"]}
    assert "house" not in GAME.view(state, None) and "secret" not in GAME.view(state, None)


# --- the winner's move ----------------------------------------------------------------


def test_a_winning_attacker_takes_the_place_and_reveals_it():
    state = positioned(started(board="kept"), {1: [2, 0], 4: [1, 0], 5: [0, 1], 2: [3, 1]})
    state, events = attack(state, 1, 4, TALLEST)
    assert {"type": "moved", "figure": 1, "from": [2, 0], "to": [1, 0]} in events
    assert {"type": "location_revealed", "cell": [1, 0], "name": None} in events




# --- board operations ----------------------------------------------------------------------------

BOARD = {1: [2, 1], 2: [3, 1], 3: [3, 2], 4: [1, 1], 5: [0, 1], 6: [0, 3]}


def test_repousser_moves_the_figure_one_place_away_without_revealing():
    state = positioned(started(board="kept"), {**BOARD, 2: [3, 0]})
    state, events = events_of(state, HOST, {"type": "push", "figure": 4, "target": 1})
    assert events == [{"type": "pushed", "figure": 1, "by": 4, "from": [2, 1], "to": [3, 1], "correction": True}]
    assert not state["board"][3][1]["revealed"] and state["active"] == ANA


def test_repousser_is_refused_at_the_edge_onto_a_figure_or_from_afar():
    state = positioned(started(board="kept"), BOARD)
    refused(state, HOST, {"type": "push", "figure": 4, "target": 1}, "behind that figure is taken")
    refused(state, HOST, {"type": "push", "figure": 4, "target": 5}, "edge")
    refused(state, HOST, {"type": "push", "figure": 6, "target": 1}, "adjacent")
    refused(state, HOST, {"type": "push", "figure": 4}, "target")
    refused(started(), HOST, {"type": "push", "figure": 4, "target": 1}, "does not keep the board")


@pytest.mark.parametrize("active, shift, expected", [
    # south player (Ana): line 1 is row 2; "right" is east.
    (ANA, {"kind": "line", "index": 1, "direction": "right"}, {1: [2, 2], "card": ([2, 3], [2, 0])}),
    (ANA, {"kind": "column", "index": 1, "direction": "forward"}, {1: [1, 1], 4: [0, 1], 5: [3, 1], 2: [2, 1],
                                                                    "card": ([0, 1], [3, 1])}),
    # north player (Ben): line 2 (counted from row 0) is row 2; his "right" is west.
    (BEN, {"kind": "line", "index": 2, "direction": "right"}, {1: [2, 0], "card": ([2, 3], [2, 2])}),
    # north player: column 2 from his left is column 1; "back" is towards him (row 0).
    (BEN, {"kind": "column", "index": 2, "direction": "back"}, {1: [1, 1], 4: [0, 1], 5: [3, 1], 2: [2, 1],
                                                                "card": ([0, 1], [3, 1])}),
])
def test_decaler_follows_the_active_players_orientation(active, shift, expected):
    state = positioned(turn_of(started(board="kept"), active), BOARD, revealed={(2, 3): "Onett", (0, 1): "Altea"})
    state, events = events_of(state, HOST, {"type": "shift", **shift})
    for figure_id, cell in expected.items():
        if figure_id != "card":
            assert fig(state, figure_id)["at"] == cell
    origin, destination = expected["card"]
    assert events[0]["seat"] == active and state["active"] == active
    moved_card = state["board"][destination[0]][destination[1]]
    assert moved_card["revealed"] and moved_card["name"] in ("Onett", "Altea")
    assert not state["board"][origin[0]][origin[1]]["revealed"] or origin == destination


def test_decaler_for_west_and_east_players():
    state = started((ANA, BEN, CLO, DAN), board="kept")
    state = positioned(turn_of(state, BEN), {4: [0, 2], 7: [5, 2]})
    # Ben plays from the west: his line 2 is column 2; "right" goes south.
    after = act(state, HOST, {"type": "shift", "kind": "line", "index": 2, "direction": "right"})
    assert fig(after, 4)["at"] == [1, 2] and fig(after, 7)["at"] == [0, 2]  # Kirby wraps around
    # Dan plays from the east: his column 0 (his left) is row 5; "forward" goes west.
    state = positioned(turn_of(state, DAN), {7: [5, 2], 10: [5, 0]})
    after = act(state, HOST, {"type": "shift", "kind": "column", "index": 0, "direction": "forward"})
    assert fig(after, 7)["at"] == [5, 1] and fig(after, 10)["at"] == [5, 5]


@pytest.mark.parametrize("shift, complaint", [
    ({"kind": "line", "index": 1, "direction": "forward"}, "line left or right"),
    ({"kind": "diagonal", "index": 1, "direction": "left"}, "line left or right"),
    ({"kind": "column", "index": 4, "direction": "back"}, "from 0 to 3"),
    ({"kind": "column", "index": "1", "direction": "back"}, "index"),
])
def test_bad_shifts_are_refused(shift, complaint):
    refused(positioned(started(board="kept"), BOARD), HOST, {"type": "shift", **shift}, complaint)


def test_the_host_names_cards_from_the_tables_list():
    state = started(board="kept")
    for row in state["board"]:
        for place in row:
            place["revealed"] = True  # turned over by figures that came and went
    state, events = events_of(state, HOST, {"type": "name_card", "cell": [1, 2], "name": "Mute city"})
    assert events == [{"type": "card_named", "cell": [1, 2], "name": "Mute City", "correction": True}]
    refused(state, HOST, {"type": "name_card", "cell": [2, 2], "name": "MUTE CITY"}, "already on the board")
    refused(state, HOST, {"type": "name_card", "cell": [2, 2], "name": ""}, "from the list")
    refused(state, HOST, {"type": "name_card", "cell": [2, 2], "name": "Onett"}, "from the list")
    refused(state, HOST, {"type": "name_card", "cell": [9, 2], "name": "Enfers"}, "inside the square")
    refused(state, ANA, {"type": "name_card", "cell": [1, 2], "name": "Enfers"}, "only the host corrects")
    refused(state, BEN, {"type": "name_card", "cell": [2, 2], "name": "Enfers"}, "Not your turn: the table is playing a turn")
    assert act(state, HOST, {"type": "name_card", "cell": [1, 2], "name": "Enfers"})["board"][1][2]["name"] == \
        "Enfers"
    state = act(state, HOST, {"type": "add_card", "name": "Onett"})
    assert act(state, HOST, {"type": "name_card", "cell": [2, 2], "name": "onett"})["board"][2][2]["name"] == "Onett"
    refused(state, HOST, {"type": "add_card", "name": "ONETT"}, "already knows")
    refused(state, ANA, {"type": "add_card", "name": "Altea"}, "Only the host")


def test_the_host_corrects_where_a_figure_stands_before_the_action():
    state = started(board="kept")
    state, events = events_of(state, HOST, {"type": "place", "figure": 4, "cell": [2, 2]})
    assert fig(state, 4)["at"] == [2, 2] and state["active"] == ANA  # the turn goes on
    assert kinds(events) == ["moved"] and events[0]["correction"] and not state["board"][2][2]["revealed"]
    refused(state, HOST, {"type": "place", "figure": 4, "cell": [3, 0]}, "taken")
    refused(state, HOST, {"type": "place", "cell": [1, 1]}, "figure")


def test_board_operations_wait_for_the_fights_to_begin_and_to_end():
    setup = new_game(board="kept")
    refused(setup, HOST, {"type": "name_card", "cell": [1, 2], "name": "Enfers"}, "Not now")
    refused(setup, HOST, {"type": "shift", "kind": "line", "index": 1, "direction": "left"}, "Not now")
    state, _ = attack(positioned(started(board="kept"), BOARD), 1, 4, LEAST_CLOTHED)
    refused(state, HOST, {"type": "push", "figure": 4, "target": 5}, "Not now: the table is deciding a fight")
    refused(state, HOST, {"type": "place", "figure": 4, "cell": [2, 2]}, "Not now: the table is deciding a fight")


# --- taps --------------------------------------------------------------------------------------

def test_taps_select_the_attacker_and_the_target():
    state = started()
    state, events = GAME.figure_tapped(state, {"id": 4, "uid": "04a1b2c3d4e5f6"}, rng())
    assert events == [{"type": "figure_selected", "figure": 4, "as": "target"}]
    state, events = GAME.figure_tapped(state, {"id": 1, "uid": None}, rng())
    assert events == [{"type": "figure_selected", "figure": 1, "as": "figure"}]
    after, events = events_of(state, ANA, {"type": "attack"}, die(TALLEST))
    assert events[0]["attacker"] == 1 and events[0]["defender"] == 4
    assert after["selected"] == {"figure": None, "target": None}


def test_a_tap_never_changes_its_input_and_refuses_figures_off_the_board():
    state, _ = attack(started(), 1, 4, TALLEST)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="no longer on the board"):
        GAME.figure_tapped(state, {"id": 4}, rng())
    with pytest.raises(IllegalAction, match="no such figure"):
        GAME.figure_tapped(state, {"id": 99}, rng())
    GAME.figure_tapped(state, {"id": 5}, rng())
    assert state == before


# --- views -------------------------------------------------------------------------------------

def test_views_are_json_and_list_the_seats_actions():
    state = started()
    shown = GAME.view(state, ANA)
    assert json.loads(json.dumps(shown)) == shown
    assert actions(shown) == ["attack", "move", "retire"] and actions(GAME.view(state, BEN)) == []
    assert {"type": "attack", "attacker": 1, "defender": 4} in shown["legal"]
    assert actions(GAME.view(state, None)) == [] and "house" not in shown and "secret" not in shown
    assert shown["reference"] == {"id": "book", "criteria": BOOK}
    assert shown["figures"][0]["values"]["tallest"] == 1.7


def test_the_score_sheet_and_fight_history_are_public():
    state, _ = attack(started(), 1, 4, TALLEST)
    shown = GAME.view(state, None)
    assert len(shown["fights"]) == 1 and shown["fights"][0]["values"] == {"attacker": 1.7, "defender": 1.55}
    assert shown["fights"][0]["winner"] == "attacker" and shown["fights"][0]["by"] == "values"
    assert [seat["points"] for seat in shown["seats"]] == [0, 0]


def test_legal_actions_on_the_kept_board():
    state = positioned(started(board="kept"), BOARD)
    listed = legal_actions(state, ANA)
    assert {"type": "move", "figure": 1, "cell": [2, 0]} in listed
    assert {"type": "move", "figure": 1, "cell": [1, 1]} not in listed  # Mario stands there
    assert {"type": "move", "figure": 1, "cell": [1, 0]} not in listed  # a diagonal needs Great Fox
    assert {"type": "attack", "attacker": 1, "defender": 4} in listed
    assert {"type": "attack", "attacker": 2, "defender": 4} not in listed  # not adjacent, not Bourg Palette
    assert not [a for a in listed if a["type"] == "retire"]  # nobody stands on a named home card
    # The generic board operations have free places: they are not listed, the views say they are open.
    # Before her action they are the host's corrections (« une et une seule » action).
    assert GAME.view(state, HOST)["operations"] and not GAME.view(state, ANA)["operations"]
    assert not GAME.view(state, BEN)["operations"]
    act(state, HOST, {"type": "push", "figure": 3, "target": 2})  # Yoshi pushes Zelda west
    refused(state, HOST, {"type": "push", "figure": 1, "target": 4}, "taken")  # Peach stands behind Mario