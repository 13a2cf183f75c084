"""Arkade: each rule of issue 16, one test named after it, the dice chosen by the test.

The rng is scripted (`tests.rules.ScriptedRng`): each die shows the face the test asks
for, each face-down tile turned is the one the test names; an unscripted draw fails."""

from __future__ import annotations

import copy

import pytest

from companion.games.arkade import ALIEN, DEFENDER, DEFENDER_TILES, GAME, legal_actions
from companion.games.base import HOST, Draw, IllegalAction
from tests.rules import Rules, ScriptedRng

RULES = Rules(GAME, seed="cd" * 32)
SEATS = [{"id": 1, "name": "Zoé", "figures": []}, {"id": 2, "name": "Max", "figures": []}]
ALIEN_SEAT, DEFENDER_SEAT = 1, 2
MOVEMENT, SHOOTING, ALIEN_DIE = "defender_movement_die", "defender_shooting_die", "alien_movement_die"


def dice(movement=(), shooting=(), alien=()) -> ScriptedRng:
    """A rng whose dice show these faces, in the order they are thrown (default faces of the box)."""
    options = GAME.normalize_options({})
    return ScriptedRng(*[(MOVEMENT, face - 1) for face in movement],
                       *[(SHOOTING, options["shooting_die"].index(face)) for face in shooting],
                       *[(ALIEN_DIE, options["alien_die"].index(face)) for face in alien])


def new_game(**options) -> dict:
    state = GAME.setup(GAME.normalize_options({"alien": "first", **options}), SEATS, RULES.rng())
    if state["phase"] == "ready":
        for seat in (ALIEN_SEAT, DEFENDER_SEAT):
            state = act(state, seat, {"type": "ready", "at": 10.0})
        state = act(state, ALIEN_SEAT, {"type": "go", "at": 20.0})
    return state


def act(state, seat, action, rng=None):
    return GAME.apply(state, seat, action, rng or ScriptedRng())[0]


def events_of(state, seat, action, rng=None):
    return GAME.apply(state, seat, action, rng or ScriptedRng())


def refused(state, seat, action, complaint, rng=None):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action, rng or ScriptedRng())
    assert complaint in str(error.value)
    assert state == before


def defenders_turn(state, movement=3, shooting="blue"):
    """The Alien throws and passes; the Defender throws these faces."""
    state = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "green"]))
    state = act(state, ALIEN_SEAT, {"type": "end_turn"})
    return act(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[movement], shooting=[shooting]))


def alien_tiles(state, *kinds):
    """Face-down Alien tiles of these kinds (what they are lives in the table's secret)."""
    state = copy.deepcopy(state)
    state["alien_tiles"] = [{"turned": False} for _ in kinds]
    state["secret"]["alien_tiles"] = list(kinds)
    return state


def turn_alien_tile(state, colour="blue"):
    """The Alien declares a bonus; the rng turns their first face-down tile."""
    return events_of(state, ALIEN_SEAT, {"type": "bonus", "colour": colour},
                     ScriptedRng(("alien_tile_turned", 0)))


def hearts(state, **counts):
    state = copy.deepcopy(state)
    state["saucers"]["extra_lives"].update(counts)
    return state


def saucers(state, **counts):
    state = copy.deepcopy(state)
    for colour, count in counts.items():
        state["saucers"]["eliminated"][colour] += state["saucers"]["on_board"][colour] - count
        state["saucers"]["on_board"][colour] = count
    return state


def types(actions):
    return {action["type"] for action in actions}


# --- the asteroid sacrifice ---------------------------------------------------------

def with_asteroid(mode="strategie"):
    """The Defender's second blue elimination turns the asteroid, which they lay on the board."""
    state = new_game(mode=mode, power_tiles="on")
    state["defender_tiles"] = [{"colour": "blue", "turned": False}] * 2
    state["secret"]["defender_tiles"] = [{"colour": "blue", "kind": "asteroid"}, {"colour": "blue", "kind": "gps"}]
    state["kept"]["munitions"] = ["blue"]
    state = defenders_turn(state, shooting="blue") if mode == "strategie" else act(
        state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[3], shooting=["blue"]))
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue"})
    state, events = events_of(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True},
                              ScriptedRng((Draw("defender_tile_turned", colour="blue"), 0)))
    assert events[-1]["kind"] == "asteroid" and state["on_the_board"]["asteroid"] == 1
    if mode == "strategie":
        state = act(state, DEFENDER_SEAT, {"type": "end_turn"})
    return state


def test_asteroid_the_alien_may_sacrifice_a_saucer_and_the_tile_and_saucer_are_discarded():
    state = with_asteroid()
    assert {"type": "sacrifice", "colour": "pink", "extra_life": False} in legal_actions(state, ALIEN_SEAT)
    after, events = events_of(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "pink"})
    assert events == [{"type": "sacrificed", "colour": "pink", "extra_life": False}]
    assert after["on_the_board"]["asteroid"] == 0
    assert after["saucers"]["on_board"]["pink"] == 3 and after["saucers"]["sacrificed"]["pink"] == 1
    assert after["saucers"]["eliminated"]["pink"] == 0  # the Defender did not eliminate it: no tile for them
    refused(after, ALIEN_SEAT, {"type": "sacrifice", "colour": "pink"}, "No asteroid")


def test_asteroid_sacrifice_is_refused_without_an_asteroid_or_out_of_turn():
    refused(new_game(), ALIEN_SEAT, {"type": "sacrifice", "colour": "blue"}, "No asteroid lies on the board")
    state = with_asteroid()
    refused(state, DEFENDER_SEAT, {"type": "sacrifice", "colour": "blue"}, "Only the Alien")
    refused(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "black"}, "Saucers are")
    refused(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "blue", "extra_life": "yes"}, "extra_life")
    passed = act(act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["pink", "pink"])), ALIEN_SEAT,
                 {"type": "end_turn"})
    refused(passed, ALIEN_SEAT, {"type": "sacrifice", "colour": "blue"}, "It is Max's turn")


def test_asteroid_sacrificing_the_last_saucer_leaves_the_board_empty_and_the_defender_wins():
    state = saucers(with_asteroid(), blue=0, green=0, pink=1)
    after, events = events_of(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "pink", "at": 99})
    assert events[-1] == {"type": "won", "winner": DEFENDER}
    assert GAME.outcome(after)["winners"] == [DEFENDER_SEAT] and after["phase"] == "over"


def test_asteroid_a_sacrificed_saucer_showing_its_heart_takes_its_heart_along():
    state = hearts(with_asteroid(), green=1)
    refused(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "green"}, "showed its heart")
    after = act(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "green", "extra_life": True})
    assert after["saucers"]["extra_lives"]["green"] == 0 and after["saucers"]["on_board"]["green"] == 3


def test_asteroid_sacrifice_in_arcade_any_time():
    state = with_asteroid(mode="arcade")
    after = act(state, ALIEN_SEAT, {"type": "sacrifice", "colour": "green"})
    assert after["saucers"]["on_board"]["green"] == 3


def test_magnetic_field_an_orange_result_lifts_it():
    state = new_game()
    state["on_the_board"]["magnetic_field"] = 1
    refused(state, ALIEN_SEAT, {"type": "lift_field"}, "Throw your dice first")
    blue = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "green"]))
    refused(blue, ALIEN_SEAT, {"type": "lift_field"}, "orange result")
    orange = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "orange"]))
    lifted = act(orange, ALIEN_SEAT, {"type": "lift_field"})
    assert lifted["on_the_board"]["magnetic_field"] == 0 and lifted["settled"][ALIEN]


# --- the reactor ---------------------------------------------------------------------

def damaged_arcade(movement=3, shooting="blue"):
    """Arcade: the Defender holds a throw; then the Alien's reactor tile damages the ship."""
    state = new_game(mode="arcade", power_tiles="on")
    state = act(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[movement], shooting=[shooting]))
    state = act(alien_tiles(state, "reactor"), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "pink"]))
    state, events = turn_alien_tile(state)
    assert events[0]["kind"] == "reactor" and state["reactor"] == "active"
    return state


def test_arcade_reactor_damage_stops_a_movement_die_thrown_before_it():
    state = damaged_arcade(movement=6)
    refused(state, DEFENDER_SEAT, {"type": "move"}, "")
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}, "reactor is damaged")
    assert "move" not in types(legal_actions(state, DEFENDER_SEAT))


def test_arcade_reactor_a_throw_of_the_shooting_die_alone_does_not_free_the_ship():
    state = damaged_arcade()
    state = act(state, DEFENDER_SEAT, {"type": "throw", "dice": [1]}, dice(shooting=["pink"]))
    assert state["reactor"] == "active"
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}, "reactor is damaged")


@pytest.mark.parametrize("face", [1, 6])
def test_arcade_reactor_only_a_1_or_a_6_on_the_movement_die_frees_the_ship_and_moves_it_there(face):
    state = damaged_arcade()
    state, events = events_of(state, DEFENDER_SEAT, {"type": "throw", "dice": [0]}, dice(movement=[face]))
    assert {"type": "ship_moved", "to": face, "by": "reactor"} in events and state["ship"] == face
    refused(state, DEFENDER_SEAT, {"type": "move"}, "already been used")  # no other move this turn
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2 if face == 1 else 5}, "reactor is damaged")
    state = act(state, DEFENDER_SEAT, {"type": "throw", "dice": [0]}, dice(movement=[4]))
    assert state["reactor"] is None and act(state, DEFENDER_SEAT, {"type": "move"})["ship"] == 4


def test_arcade_reactor_another_face_keeps_the_ship_in_place_for_that_throw():
    state = damaged_arcade()
    state, events = events_of(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[4], shooting=["blue"]))
    assert {"type": "reactor_stuck", "face": 4} in events and state["ship"] == 1
    refused(state, DEFENDER_SEAT, {"type": "move"}, "already been used")
    assert act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue"})["saucers"]["on_board"]["blue"] == 3
    freed = act(state, DEFENDER_SEAT, {"type": "throw", "dice": [0]}, dice(movement=[2]))
    assert freed["reactor"] is None and act(freed, DEFENDER_SEAT, {"type": "nugget", "to": 2})["ship"] == 2


def damaged_strategie(movement, shooting="blue"):
    state = alien_tiles(new_game(), "reactor")
    state = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "pink"]))
    state, _ = turn_alien_tile(state)
    state = act(state, ALIEN_SEAT, {"type": "end_turn"})
    assert state["reactor"] == "active"
    return act(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[movement], shooting=[shooting]))


def test_strategie_reactor_a_1_or_a_6_must_move_the_ship_before_the_turn_ends():
    state = damaged_strategie(6)
    refused(state, DEFENDER_SEAT, {"type": "end_turn"}, "must move to cell 6")
    assert GAME.view(state, DEFENDER_SEAT)["reactor_cell_due"] == 6
    assert "end_turn" not in types(legal_actions(state, DEFENDER_SEAT))
    moved, events = events_of(state, DEFENDER_SEAT, {"type": "move"})
    assert moved["ship"] == 6 and events == [{"type": "ship_moved", "to": 6, "by": "reactor"}]
    refused(moved, DEFENDER_SEAT, {"type": "nugget", "to": 5}, "reactor is damaged")  # no other move this turn
    assert act(moved, DEFENDER_SEAT, {"type": "end_turn"})["reactor"] is None


def test_strategie_reactor_another_face_holds_the_ship_and_the_turn_may_end():
    state = damaged_strategie(3)
    refused(state, DEFENDER_SEAT, {"type": "move"}, "only on a 1 or a 6")
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}, "reactor is damaged")
    rethrown = act(state, DEFENDER_SEAT, {"type": "throw", "dice": [0]}, dice(movement=[1]))
    refused(rethrown, DEFENDER_SEAT, {"type": "end_turn"}, "must move to cell 1")  # only the last throw counts
    assert act(state, DEFENDER_SEAT, {"type": "end_turn"})["reactor"] is None


# --- extra lives belong to one saucer ------------------------------------------------------

def extra_life_tile(state, colour="green"):
    state = act(alien_tiles(state, "extra_life", "extra_life"), ALIEN_SEAT, {"type": "throw"},
                dice(alien=["blue", "green"]))
    return turn_alien_tile(state, colour)


def test_extra_life_the_first_heart_of_a_colour_needs_no_question():
    state, events = extra_life_tile(new_game())
    assert events[0]["applied"] is True and state["saucers"]["extra_lives"]["green"] == 1 and not state["pending"]


def test_extra_life_the_alien_says_whether_the_saucer_already_shows_its_heart():
    state, events = extra_life_tile(hearts(new_game(), green=1))
    assert events[0]["applied"] is None and state["pending"] == {"kind": "heart", "colour": "green"}
    assert types(legal_actions(state, ALIEN_SEAT)) == {"heart", "correct"}
    refused(state, ALIEN_SEAT, {"type": "end_turn"}, "power tile's question")
    refused(state, ALIEN_SEAT, {"type": "heart"}, "already")
    same, events = events_of(state, ALIEN_SEAT, {"type": "heart", "already": True})
    assert same["saucers"]["extra_lives"]["green"] == 1 and events == [
        {"type": "extra_life", "colour": "green", "applied": False}]  # a second life on one saucer: no effect
    another = act(state, ALIEN_SEAT, {"type": "heart", "already": False})
    assert another["saucers"]["extra_lives"]["green"] == 2 and another["pending"] is None


def test_extra_life_on_a_colour_whose_every_saucer_shows_its_heart_has_no_effect():
    state, events = extra_life_tile(hearts(saucers(new_game(), green=2), green=2))
    assert events[0]["applied"] is False and state["saucers"]["extra_lives"]["green"] == 2 and not state["pending"]


def test_extra_life_a_hit_on_a_plain_saucer_is_never_refused():
    state = hearts(defenders_turn(new_game(), shooting="green"), green=4)  # the counters say: all hearts
    after, events = events_of(state, DEFENDER_SEAT, {"type": "hit", "colour": "green", "extra_life": False})
    assert events[0] == {"type": "hit", "colour": "green", "eliminated": True, "counters_fixed": True}
    assert after["saucers"]["on_board"]["green"] == 3 and after["saucers"]["extra_lives"]["green"] == 3


def test_extra_life_a_hit_asks_for_the_heart_only_when_the_counters_cannot_tell():
    state = hearts(defenders_turn(new_game(), shooting="green"), green=1)
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"}, "showed its heart")
    turned = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "green", "extra_life": True})
    assert turned["saucers"]["on_board"]["green"] == 4 and turned["saucers"]["extra_lives"]["green"] == 0
    plain = defenders_turn(new_game(), shooting="green")
    assert act(plain, DEFENDER_SEAT, {"type": "hit", "colour": "green"})["saucers"]["on_board"]["green"] == 3


# --- the repair race ------------------------------------------------------------------------

def repair_tile(state):
    state = alien_tiles(state, "repair")
    state = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "pink"]))
    return turn_alien_tile(state, "blue")


def test_repair_si_la_premiere_ligne_est_pleine_le_pouvoir_est_sans_effet_even_with_one_colour_to_repair():
    # « Si aucune soucoupe n'est éliminée ou que la première ligne est pleine, le pouvoir est sans effet. »
    # Only the board shows whether the first line is full: with one colour to repair the Alien still says.
    state, events = repair_tile(saucers(new_game(mode="arcade", power_tiles="on"), green=2))
    assert state["pending"] == {"kind": "repair", "colours": ["green"]} and events[-1]["type"] == "alien_tile"
    assert {action["colour"] for action in legal_actions(state, ALIEN_SEAT) if action["type"] == "repair"} \
        == {None, "green"}
    full = act(state, ALIEN_SEAT, {"type": "repair", "colour": None})
    assert full["saucers"]["on_board"]["green"] == 2 and full["pending"] is None
    assert act(state, ALIEN_SEAT, {"type": "repair", "colour": "green"})["saucers"]["on_board"]["green"] == 3


def test_repair_the_alien_chooses_among_several_colours_or_says_the_first_line_is_full():
    state, _ = repair_tile(saucers(new_game(mode="arcade", power_tiles="on"), blue=3, green=3))
    assert state["pending"] == {"kind": "repair", "colours": ["blue", "green"]}
    assert act(state, ALIEN_SEAT, {"type": "repair", "colour": None})["saucers"]["on_board"]["blue"] == 3
    refused(state, ALIEN_SEAT, {"type": "repair", "colour": "pink"}, "No eliminated saucer of that colour")


def test_repair_the_defender_cannot_win_while_a_repair_is_pending():
    state, _ = repair_tile(saucers(new_game(mode="arcade", power_tiles="on"),
                                   blue=1, green=0, pink=0))
    assert state["pending"]["colours"] == ["blue", "green", "pink"]
    state = act(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[2], shooting=["blue"]))
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue"},
                ScriptedRng((Draw("defender_tile_turned", colour="blue"), 0)))  # the fourth blue turns a tile
    assert state["saucers"]["on_board"] == {"blue": 0, "green": 0, "pink": 0}
    assert state["winner"] is None and GAME.outcome(state) is None  # held until the Alien answers
    refused(state, ALIEN_SEAT, {"type": "repair", "colour": None}, "first line is not full")
    repaired = act(state, ALIEN_SEAT, {"type": "repair", "colour": "pink"})
    assert repaired["saucers"]["on_board"]["pink"] == 1 and repaired["winner"] is None


# --- the Defender's tiles split --------------------------------------------------------------

def test_defender_tiles_split_by_colour_is_an_option_matching_the_box():
    box = ["1 asteroid", "1 asteroid", "2 mine 2", "2 gps", "3 tower", "3 comet 1"]
    state = GAME.setup(GAME.normalize_options({"alien": "first", "defender_tiles": box}), SEATS, RULES.rng())
    kinds = sorted((tile["colour"], tile["kind"]) for tile in state["secret"]["defender_tiles"])
    assert kinds == [("blue", "asteroid"), ("blue", "asteroid"), ("green", "gps"), ("green", "mine"),
                     ("pink", "comet"), ("pink", "tower")]
    assert len(GAME.normalize_options({})["defender_tiles"]) == len(DEFENDER_TILES) == 12


@pytest.mark.parametrize("box, complaint", [
    (["1 asteroid", "1 gps", "2 gps", "2 gps", "3 tower"], "colour 3 has fewer"),
    (["4 asteroid"] + list(DEFENDER_TILES), "colour's number"),
    (["1 laser"] + list(DEFENDER_TILES), "a kind"),
    (["1 mine"] + list(DEFENDER_TILES), "1 or 2"),
    (["1 mine 3"] + list(DEFENDER_TILES), "1 or 2"),
    (["1 gps 2"] + list(DEFENDER_TILES), "a kind"),
])
def test_defender_tiles_bad_splits_are_refused(box, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options({"defender_tiles": box})


def test_alien_tiles_are_the_books_twelve_unless_the_box_differs():
    assert sorted(GAME.normalize_options({})["alien_tiles"]) == sorted(
        ["extra_life"] * 4 + ["engines"] * 2 + ["rift"] * 2 + ["turret"] * 2 + ["repair", "reactor"])
    state = GAME.setup(GAME.normalize_options({"alien_tiles": ["reactor"] * 6}), SEATS, RULES.rng())
    assert state["secret"]["alien_tiles"] == ["reactor"] * 6


@pytest.mark.parametrize("box", [["reactor"] * 5, ["reactor"] * 5 + ["laser"]])
def test_alien_tiles_bad_boxes_are_refused(box):
    with pytest.raises(IllegalAction, match="at least 6"):
        GAME.normalize_options({"alien_tiles": box})


# --- counters that can be corrected ------------------------------------------------------------

def test_corrections_the_host_corrects_at_once_and_the_log_keeps_both_counts():
    state = new_game()
    after, events = events_of(state, HOST, {"type": "correct", "saucers": {"pink": 3}, "hearts": {"blue": 1},
                                            "nuggets": 2})
    assert after["saucers"]["on_board"]["pink"] == 3 and after["saucers"]["extra_lives"]["blue"] == 1
    assert after["nuggets"] == 2 and after["saucers"]["corrected"] == -1
    assert events[0]["type"] == "corrected" and events[0]["by"] == "host"
    assert events[0]["before"]["nuggets"] == 6 and events[0]["after"]["nuggets"] == 2
    refused(state, HOST, {"type": "throw"}, "Only a player can do that")


def test_corrections_a_players_correction_needs_the_other_players_agreement():
    state = new_game()
    proposed = act(state, ALIEN_SEAT, {"type": "correct", "nuggets": 5})
    assert proposed["nuggets"] == 6 and proposed["correction"]["by"] == ALIEN
    assert GAME.view(proposed, None)["correction"]["counts"]["nuggets"] == 5  # shown on both phones
    refused(proposed, ALIEN_SEAT, {"type": "agree_correction", "accept": True}, "other player's")
    assert {"type": "agree_correction", "accept": True} in legal_actions(proposed, DEFENDER_SEAT)
    agreed, events = events_of(proposed, DEFENDER_SEAT, {"type": "agree_correction", "accept": True})
    assert agreed["nuggets"] == 5 and events[0]["by"] == "both" and agreed["correction"] is None
    declined = act(proposed, DEFENDER_SEAT, {"type": "agree_correction", "accept": False})
    assert declined["nuggets"] == 6 and declined["correction"] is None


@pytest.mark.parametrize("correction, complaint", [
    ({}, "Say which counters"),
    ({"saucers": {"black": 2}}, "by colour"),
    ({"saucers": {"blue": "two"}}, "by colour"),
    ({"saucers": [1, 2, 3]}, "saucers (object)"),
    ({"saucers": {"blue": 5}}, "0 to 4 saucers"),
    ({"saucers": {"blue": -1}}, "0 to 4 saucers"),
    ({"hearts": {"blue": 5}}, "Hearts go from 0"),
    ({"saucers": {"blue": 1}, "hearts": {"blue": 2}}, "Hearts go from 0"),
    ({"nuggets": 12}, "0 to 11 nuggets"),
    ({"nuggets": True}, "nuggets (number)"),
    ({"nuggets": 6}, "nothing to correct"),
])
def test_corrections_bad_counts_are_refused(correction, complaint):
    refused(new_game(), HOST, {"type": "correct", **correction}, complaint)
    refused(new_game(), ALIEN_SEAT, {"type": "correct", **correction}, complaint)


def test_corrections_are_allowed_while_a_claim_waits_and_an_empty_board_wins_for_the_defender():
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "blue"]))
    state = act(state, ALIEN_SEAT, {"type": "claim"})
    won = act(state, HOST, {"type": "correct", "saucers": {"blue": 0, "green": 0, "pink": 0}})
    assert GAME.outcome(won)["winners"] == [DEFENDER_SEAT]


# --- a vanished phone never blocks the game ------------------------------------------------------

def test_vanished_phone_the_last_line_claim_is_a_timed_wait_on_the_defender():
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "blue"]))
    assert GAME.waiting(state) == [{"seat": ALIEN_SEAT, "for": "throw the dice and move saucers as the Alien, then end the turn", "params": {}, "timed": False}]
    state = act(state, ALIEN_SEAT, {"type": "claim"})
    assert GAME.waiting(state) == [
        {"seat": DEFENDER_SEAT, "for": "answer the Alien's last-line claim", "params": {}, "timed": True}]
    assert GAME.on_timeout is None  # past the deadline, the host answers for the away phone:
    assert GAME.proxy_actions == {"ready", "throw", "end_turn", "repair", "heart", "confirm", "agree_correction"}


def test_vanished_phone_withdrawing_gives_the_other_player_the_win_by_forfeit():
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "blue"]))
    state = act(state, ALIEN_SEAT, {"type": "claim"})
    left, events = GAME.withdraw(state, DEFENDER_SEAT, ScriptedRng())
    assert events == [{"type": "withdrew", "role": DEFENDER}, {"type": "won", "winner": ALIEN}]
    assert GAME.outcome(left) == {"winners": [ALIEN_SEAT], "ranking": [[ALIEN_SEAT], [DEFENDER_SEAT]],
                                  "reason": "%(loser)s left the game: %(winner)s wins by forfeit.",
                                  "params": {"loser": "Max", "winner": "Zoé"}}
    assert GAME.waiting(left) == [] and legal_actions(left, ALIEN_SEAT) == []
    assert "forfeit" in GAME.withdraw_rule and state["winner"] is None  # the input is untouched


def test_vanished_phone_every_step_says_whom_it_waits_on():
    roles = GAME.setup(GAME.normalize_options({}), SEATS, RULES.rng())
    assert [entry["seat"] for entry in GAME.waiting(roles)] == [1, 2]
    ready = GAME.setup(GAME.normalize_options({"alien": "first", "mode": "arcade"}), SEATS, RULES.rng())
    ready = act(ready, ALIEN_SEAT, {"type": "ready", "at": 1.0})
    assert [entry["seat"] for entry in GAME.waiting(ready)] == [DEFENDER_SEAT]
    heart, _ = extra_life_tile(hearts(new_game(), green=1))
    assert GAME.waiting(heart)[0]["seat"] == ALIEN_SEAT


def test_outcome_names_the_winner_and_why():
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "blue"]))
    state = act(act(state, ALIEN_SEAT, {"type": "claim"}), DEFENDER_SEAT, {"type": "confirm", "accept": True})
    assert GAME.outcome(state)["winners"] == [ALIEN_SEAT] and "last line" in GAME.outcome(state)["reason"]
    assert GAME.outcome(new_game()) is None


# --- rules of the book the audit (docs/rules/arkade.md) found without a test of their own ----------

def test_bonus_une_meme_soucoupe_peut_declencher_plusieurs_cases_bonus():
    # « Une même soucoupe peut déclencher plusieurs cases Bonus. » (and the rift's « c'est un combo ! »)
    state = act(alien_tiles(new_game(), "rift", "turret"), ALIEN_SEAT, {"type": "throw"}, dice(alien=["blue", "pink"]))
    state, events = turn_alien_tile(state)
    assert events[0]["kind"] == "rift"
    state, events = turn_alien_tile(state)
    assert events[0]["kind"] == "turret" and state["nuggets"] == 5
    assert all(tile["turned"] for tile in state["alien_tiles"])


def test_arcade_nuggets_at_any_time_and_a_hit_eliminates_the_saucer():
    # « À tout moment, le joueur Défenseur peut utiliser une ou plusieurs de ses pépites » and
    # « Après un tir, la soucoupe visée est éliminée du plateau. »
    state = new_game(mode="arcade")
    state = act(act(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}), DEFENDER_SEAT, {"type": "nugget", "to": 3})
    assert state["ship"] == 3 and state["nuggets"] == 4
    state = act(state, DEFENDER_SEAT, {"type": "throw"}, dice(movement=[5], shooting=["green"]))
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"})
    assert state["saucers"]["on_board"]["green"] == 3 and state["saucers"]["eliminated"]["green"] == 1
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"}, "already been used")


def test_magnetic_field_en_plus_the_orange_that_lifts_a_field_is_spent():
    # « S'il veut ensuite placer sa soucoupe sur la case libérée, il devra avoir, en plus, un résultat
    # correspondant à la couleur de cette case »: the orange lifts one field and is used.
    state = new_game(mode="arcade", power_tiles="on")
    state["on_the_board"]["magnetic_field"] = 2
    state = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["orange", "blue"]))
    lifted = act(state, ALIEN_SEAT, {"type": "lift_field"})
    assert lifted["on_the_board"]["magnetic_field"] == 1 and lifted["dice"][ALIEN][0]["used"]
    refused(lifted, ALIEN_SEAT, {"type": "lift_field"}, "orange result")
    assert "lift_field" not in types(legal_actions(lifted, ALIEN_SEAT))
    kept = act(lifted, ALIEN_SEAT, {"type": "throw", "dice": [1]}, dice(alien=["green"]))
    refused(kept, ALIEN_SEAT, {"type": "lift_field"}, "orange result")  # the spent orange was not thrown again
    again = act(lifted, ALIEN_SEAT, {"type": "throw", "dice": [0]}, dice(alien=["orange"]))
    assert act(again, ALIEN_SEAT, {"type": "lift_field"})["on_the_board"]["magnetic_field"] == 0
    two = act(state, ALIEN_SEAT, {"type": "throw"}, dice(alien=["orange", "orange"]))
    two = act(act(two, ALIEN_SEAT, {"type": "lift_field"}), ALIEN_SEAT, {"type": "lift_field"})
    assert two["on_the_board"]["magnetic_field"] == 0


@pytest.mark.parametrize("laid", ["asteroid", "magnetic_field"])
def test_repair_la_premiere_ligne_est_pleine_with_a_tile_laid_on_it(laid):
    # « Si aucune soucoupe n'est éliminée ou que la première ligne est pleine, le pouvoir est sans effet »:
    # the Defender lays an asteroid or a field « où il le souhaite », so 5 saucers and a tile fill it.
    state, _ = repair_tile(saucers(new_game(mode="arcade", power_tiles="on"), blue=1, green=1, pink=3))
    refused(state, ALIEN_SEAT, {"type": "repair", "colour": None}, "first line is not full")
    state["on_the_board"][laid] = 1
    assert {"type": "repair", "colour": None} in legal_actions(state, ALIEN_SEAT)
    full, events = events_of(state, ALIEN_SEAT, {"type": "repair", "colour": None})
    assert events == [{"type": "repaired", "colour": None}] and full["saucers"]["on_board"]["blue"] == 1
    fewer = saucers(state, pink=2)
    refused(fewer, ALIEN_SEAT, {"type": "repair", "colour": None}, "asteroids and magnetic fields")
