"""Arkade's pure rules: the dice, the counters, the power tiles and what each seat may see."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.games.arkade import ALIEN, ALIEN_TILES, COUNTDOWN_SECONDS, DEFENDER, GAME, legal_actions
from companion.games.base import IllegalAction
from tests.rules import Rules

RULES = Rules(GAME, seed="ab" * 32)
rng, act, refused = RULES.rng, RULES.act, RULES.refused
SEATS = [{"id": 1, "name": "Globox", "figures": []}, {"id": 2, "name": "Rayman", "figures": []}]
ALIEN_SEAT, DEFENDER_SEAT = 1, 2


def new_game(**options):
    """A game in play: roles by the table's order (unless asked), past the Arcade countdown."""
    state = GAME.setup(GAME.normalize_options({"alien": "first", **options}), SEATS, rng())
    return started(state)


def can(view):
    """The action types a view offers its seat."""
    return sorted({action["type"] for action in view["legal"]})


def started(state, at=100.0):
    if state["phase"] == "ready":
        state = act(act(state, state["roles"][ALIEN], {"type": "ready", "at": at}),
                    state["roles"][DEFENDER], {"type": "ready", "at": at})
        state = act(state, state["roles"][ALIEN], {"type": "go", "at": at + COUNTDOWN_SECONDS})
    return state


def with_dice(state, role, faces):
    """A state whose last throw showed these faces (the dice are random: tests set them)."""
    state = copy.deepcopy(state)
    state["dice"][role] = [{"face": face, "used": False} for face in faces]
    state["throws"][role] = max(1, state["throws"][role])
    return state


def defender_turn(state):
    state = copy.deepcopy(state)
    state["active"] = DEFENDER
    return state


def with_alien_tiles(state, kinds):
    """Face-down Alien tiles of these kinds (what they are lives in the table's secret)."""
    state = copy.deepcopy(state)
    state["alien_tiles"] = [{"turned": False} for _ in kinds]
    state["secret"]["alien_tiles"] = list(kinds)
    return state


def with_defender_tiles(state, tiles):
    """Face-down Defender tiles: their colour shows, the rest is secret."""
    state = copy.deepcopy(state)
    state["defender_tiles"] = [{"colour": tile["colour"], "turned": False} for tile in tiles]
    state["secret"]["defender_tiles"] = [dict(tile) for tile in tiles]
    return state


# --- setup and options ------------------------------------------------------

def test_roles_follow_the_option():
    assert new_game()["roles"] == {ALIEN: 1, DEFENDER: 2}
    assert new_game(alien="second")["roles"] == {ALIEN: 2, DEFENDER: 1}


def test_the_phones_choose_the_roles_first_come_first_served():
    state = GAME.setup(GAME.normalize_options({}), SEATS, rng())
    assert state["phase"] == "roles" and state["roles"] == {ALIEN: None, DEFENDER: None}
    assert GAME.view(state, None)["role"] is None and can(GAME.view(state, 2)) == ["choose_role"]
    refused(state, 1, {"type": "throw"}, "Not now: the table is choosing roles")
    refused(state, 9, {"type": "choose_role", "role": ALIEN}, "Not your turn")
    refused(state, 1, {"type": "choose_role", "role": "saucer"}, "The roles are")
    refused(state, 1, {"type": "choose_role"}, "needs the field role")
    chosen, events = GAME.apply(state, 2, {"type": "choose_role", "role": ALIEN}, rng())
    assert chosen["roles"] == {ALIEN: 2, DEFENDER: 1} and chosen["names"] == {ALIEN: "Rayman", DEFENDER: "Globox"}
    assert events == [{"type": "roles_chosen", "alien": 2, "defender": 1}]
    assert chosen["phase"] == "playing" and chosen["active"] == ALIEN
    refused(chosen, 1, {"type": "choose_role", "role": ALIEN}, "Not now: the table is playing the game")


def test_arcade_starts_with_a_shared_countdown():
    state = GAME.setup(GAME.normalize_options({"mode": "arcade", "alien": "second"}), SEATS, rng())
    assert state["phase"] == "ready" and state["roles"] == {ALIEN: 2, DEFENDER: 1}
    refused(state, 2, {"type": "throw", "at": 10}, "Not now: the table is getting ready")
    refused(state, 2, {"type": "go", "at": 10}, "Not now: the table is getting ready")
    one = act(state, 2, {"type": "ready", "at": 10})
    assert one["phase"] == "ready" and can(GAME.view(one, 2)) == [] and can(GAME.view(one, 1)) == ["ready"]
    both, events = GAME.apply(one, 1, {"type": "ready", "at": 11.5}, rng())
    assert both["phase"] == "countdown" and both["countdown_from"] == 11.5
    assert events[-1] == {"type": "countdown", "seconds": COUNTDOWN_SECONDS}
    refused(both, 1, {"type": "throw", "at": 20}, "Not now: the table is counting down")
    refused(both, 1, {"type": "go", "at": 11.5 + COUNTDOWN_SECONDS - 0.1}, "top départ")  # too early
    refused(both, 1, {"type": "go"}, "top départ")  # the shell's time stamp is needed
    refused(both, 9, {"type": "go", "at": 20}, "Not your turn")
    going, events = GAME.apply(both, 1, {"type": "go", "at": 11.5 + COUNTDOWN_SECONDS}, rng())
    assert going["phase"] == "playing" and going["started_at"] == 14.5 and events == [{"type": "top_depart"}]
    refused(going, 2, {"type": "go", "at": 30}, "Not now: the table is playing the game")  # the other phone's go comes second


def test_the_end_time_is_kept_for_the_clock():
    state = with_dice(new_game(), ALIEN, ["blue", "pink"])
    state = act(state, ALIEN_SEAT, {"type": "claim", "at": 50})
    won = act(state, DEFENDER_SEAT, {"type": "confirm", "accept": True, "at": 61})
    assert won["phase"] == "over" and won["ended_at"] == 61 and won["started_at"] == 50


@pytest.mark.parametrize("level, nuggets", [("hard", 4), ("normal", 6), ("easy", 8)])
def test_the_level_sets_the_defenders_nuggets(level, nuggets):
    assert new_game(level=level)["nuggets"] == nuggets


@pytest.mark.parametrize("handicap, level, nuggets, board, layout", [
    ("none", "easy", 8, None, "base"),
    ("adult_defender", "easy", 6, "classic", "simplified"),  # an adult Defender: 6 nuggets at most
    ("adult_defender", "hard", 4, "classic", "simplified"),
    ("adult_alien", "hard", 8, "advanced", "base"),  # a child Defender plays with 8
])
def test_the_adult_and_child_presets(handicap, level, nuggets, board, layout):
    state = new_game(handicap=handicap, level=level)
    assert state["nuggets"] == nuggets
    assert state["reminders"] == {"board": board, "layout": layout, "nuggets": nuggets, "power_tiles": True,
                                  "throws": 3}


def test_strategie_starts_with_the_alien_and_power_tiles():
    state = new_game()
    assert state["mode"] == "strategie" and state["active"] == ALIEN and state["power_tiles"]
    assert len(state["alien_tiles"]) == 6 and len(state["defender_tiles"]) == 6
    assert state["ship"] == 1 and sum(state["saucers"]["on_board"].values()) == 12


def test_arcade_has_no_turns_and_no_tiles_unless_asked():
    state = new_game(mode="arcade")
    assert state["active"] is None and not state["power_tiles"] and state["alien_tiles"] == []
    assert new_game(mode="arcade", power_tiles="on")["power_tiles"]
    assert not new_game(power_tiles="off")["power_tiles"]


def test_the_tile_draws_are_secret_and_say_why():
    generator = rng()
    state = GAME.setup(GAME.normalize_options({}), SEATS, generator)
    assert len(generator.draws) == 4 and all(draw["secret"] for draw in generator.draws)
    assert generator.draws[0]["purpose"]["kind"] == "alien_tiles" and generator.draws[1]["purpose"]["kind"] == "defender_tiles"
    drawn = Counter(state["secret"]["alien_tiles"])
    assert all(count <= ALIEN_TILES.count(kind) for kind, count in drawn.items())


def test_the_defender_draws_two_tiles_of_each_colour():
    for n in range(20):
        state = GAME.setup(GAME.normalize_options({}), SEATS, rng(n))
        assert Counter(tile["colour"] for tile in state["defender_tiles"]) == {"blue": 2, "green": 2, "pink": 2}


def test_colours_and_dice_faces_are_options():
    state = new_game(saucer_colours=["red", "yellow", "cyan"], shooting_die=["red", "yellow", "cyan"],
                     alien_die=["red", "orange"])
    assert state["colours"] == ["red", "yellow", "cyan"] and state["alien_die"] == ["red", "orange"]
    assert {tile["colour"] for tile in state["defender_tiles"]} == {"red", "yellow", "cyan"}


@pytest.mark.parametrize("options, complaint", [
    ({"saucer_colours": ["red", "red", "blue"]}, "3 different saucer colours"),
    ({"shooting_die": ["blue", "black"]}, "saucer colours"),
    ({"alien_die": ["blue"]}, "at least 2 faces"),
    ({"throws": 4}, "from 2 to 3"),
    ({"level": "nightmare"}, "must be one of"),
])
def test_bad_options_are_refused(options, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options(options)


def test_two_players_exactly():
    with pytest.raises(IllegalAction, match="exactly 2"):
        GAME.setup(GAME.normalize_options({}), SEATS[:1], rng())


# --- throwing -----------------------------------------------------------------

def test_a_throw_rolls_every_die_with_a_purpose():
    generator = rng(50)
    state, events = GAME.apply(new_game(), ALIEN_SEAT, {"type": "throw"}, generator)
    assert len(generator.draws) == 2 and [d["purpose"] for d in generator.draws] == [
        {"kind": "alien_movement_die", "die": die, "turn": 1} for die in (1, 2)]
    assert not any(draw["secret"] for draw in generator.draws)
    assert [die["face"] for die in state["dice"][ALIEN]] == events[0]["faces"]
    assert all(face in state["alien_die"] for face in events[0]["faces"])


def test_the_defender_throws_a_movement_die_and_a_shooting_die():
    state = act(act(new_game(), ALIEN_SEAT, {"type": "throw"}), ALIEN_SEAT, {"type": "end_turn"})
    state = act(state, DEFENDER_SEAT, {"type": "throw"})
    movement, shooting = state["dice"][DEFENDER]
    assert 1 <= movement["face"] <= 6 and shooting["face"] in state["shooting_die"]


def test_a_rethrow_of_one_die_keeps_the_other():
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"})
    generator = rng(77)
    after, _ = GAME.apply(state, ALIEN_SEAT, {"type": "throw", "dice": [1]}, generator)
    assert after["dice"][ALIEN][0] == state["dice"][ALIEN][0] and len(generator.draws) == 1
    assert after["throws"][ALIEN] == 2


def test_the_first_throw_takes_every_die():
    refused(new_game(), ALIEN_SEAT, {"type": "throw", "dice": [0]}, "first throw takes all")


@pytest.mark.parametrize("dice", [[], [2], [0, 0], "both", [True]])
def test_bad_dice_choices_are_refused(dice):
    state = act(new_game(), ALIEN_SEAT, {"type": "throw"})
    refused(state, ALIEN_SEAT, {"type": "throw", "dice": dice}, "Choose which dice")


def test_a_fourth_throw_is_refused():
    state = new_game()
    for _ in range(3):
        state = act(state, ALIEN_SEAT, {"type": "throw"})
    refused(state, ALIEN_SEAT, {"type": "throw"}, "Only 3 throws")


def test_the_hard_variant_allows_two_throws():
    state = act(act(new_game(throws=2), ALIEN_SEAT, {"type": "throw"}), ALIEN_SEAT, {"type": "throw"})
    refused(state, ALIEN_SEAT, {"type": "throw"}, "Only 2 throws")


def test_a_throw_out_of_turn_is_refused():
    refused(new_game(), DEFENDER_SEAT, {"type": "throw"}, "It is Globox's turn")


def test_a_throw_after_the_turn_ended_is_refused():
    state = act(act(new_game(), ALIEN_SEAT, {"type": "throw"}), ALIEN_SEAT, {"type": "end_turn"})
    assert state["active"] == DEFENDER and state["turn"] == 2 and state["dice"][ALIEN] == []
    refused(state, ALIEN_SEAT, {"type": "throw"}, "It is Rayman's turn")


def test_a_turn_cannot_end_before_a_throw():
    refused(new_game(), ALIEN_SEAT, {"type": "end_turn"}, "Throw your dice first")


def test_once_a_result_is_used_the_dice_are_settled():
    state = with_dice(defender_turn(new_game()), DEFENDER, [3, "blue"])
    state = act(state, DEFENDER_SEAT, {"type": "move"})
    refused(state, DEFENDER_SEAT, {"type": "throw"}, "settled")


def test_arcade_throws_are_unlimited_and_simultaneous():
    state = new_game(mode="arcade")
    for _ in range(5):
        state = act(state, DEFENDER_SEAT, {"type": "throw"})
        state = act(state, ALIEN_SEAT, {"type": "throw"})
    assert state["throws"] == {ALIEN: 5, DEFENDER: 5} and state["turn"] == 11
    refused(state, ALIEN_SEAT, {"type": "end_turn"}, "no turns in Arcade")


def test_arcade_dice_are_used_once_per_throw():
    state = with_dice(new_game(mode="arcade"), DEFENDER, [4, "blue"])
    state = act(state, DEFENDER_SEAT, {"type": "move"})
    refused(state, DEFENDER_SEAT, {"type": "move"}, "already been used")
    state = act(state, DEFENDER_SEAT, {"type": "throw", "dice": [0]})
    assert not state["dice"][DEFENDER][0]["used"]


# --- the Defender -------------------------------------------------------------

def test_the_ship_moves_to_the_die():
    state = act(with_dice(defender_turn(new_game()), DEFENDER, [5, "pink"]), DEFENDER_SEAT, {"type": "move"})
    assert state["ship"] == 5
    refused(state, DEFENDER_SEAT, {"type": "move"}, "already been used")


def test_a_nugget_moves_the_ship_one_cell_and_is_spent():
    state = act(defender_turn(new_game(level="hard")), DEFENDER_SEAT, {"type": "nugget", "to": 2})
    assert state["ship"] == 2 and state["nuggets"] == 3
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 4}, "adjacent")
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 7}, "1 to 6")


def test_nuggets_never_go_below_zero():
    state = defender_turn(new_game())
    state["nuggets"] = 0
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}, "no nugget")


def test_a_hit_needs_the_shooting_die_colour():
    state = with_dice(defender_turn(new_game()), DEFENDER, [1, "green"])
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue"}, "shows green")
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "black"}, "Saucers are")
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"})
    assert state["saucers"]["on_board"]["green"] == 3 and state["saucers"]["eliminated"]["green"] == 1
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"}, "already been used")


def test_hit_flags_must_be_true_or_false():
    state = with_dice(defender_turn(new_game()), DEFENDER, [1, "green"])
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "green", "extra_life": "no"}, "extra_life")


def test_a_hit_out_of_turn_is_refused():
    state = with_dice(new_game(), DEFENDER, [1, "green"])
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "green"}, "It is Globox's turn")


def test_an_extra_life_turns_the_saucer_over_instead():
    state = with_dice(defender_turn(new_game()), DEFENDER, [1, "pink"])
    state["saucers"]["extra_lives"]["pink"] = 1
    after = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "pink", "extra_life": True})
    assert after["saucers"]["on_board"]["pink"] == 4 and after["saucers"]["extra_lives"]["pink"] == 0


def test_every_second_saucer_of_a_colour_turns_a_tile_of_that_colour():
    state = with_defender_tiles(defender_turn(new_game()), [
        {"colour": "blue", "kind": "mine", "value": 2}, {"colour": "blue", "kind": "gps"},
        {"colour": "green", "kind": "munitions"}, {"colour": "green", "kind": "asteroid"},
        {"colour": "pink", "kind": "comet", "value": 1}, {"colour": "pink", "kind": "tower"}])
    state["kept"]["munitions"] = ["blue", "blue", "blue"]  # three extra shots for the test
    first = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True})
    assert not any(tile["turned"] for tile in first["defender_tiles"])
    second, events = GAME.apply(first, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True}, rng(9))
    turned = [tile for tile in second["defender_tiles"] if tile["turned"]]
    assert len(turned) == 1 and turned[0]["colour"] == "blue"
    assert events[-1]["type"] == "defender_tile" and events[-1]["kind"] == turned[0]["kind"]
    if turned[0]["kind"] == "mine":
        assert second["nuggets"] == 8
    else:
        assert second["kept"]["gps"] == 1


def test_kept_super_munitions_shoot_once_and_finish_an_extra_life():
    state = defender_turn(new_game())
    state["kept"]["munitions"] = ["pink"]
    state["saucers"]["extra_lives"]["pink"] = 1
    refused(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True}, "no blue super munitions")
    after = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "pink", "extra_life": True, "munitions": True})
    assert after["saucers"]["on_board"]["pink"] == 3 and after["kept"]["munitions"] == []


def test_a_kept_gps_moves_the_ship_anywhere_once():
    state = defender_turn(new_game())
    refused(state, DEFENDER_SEAT, {"type": "gps", "to": 6}, "no GPS")
    state["kept"]["gps"] = 1
    after = act(state, DEFENDER_SEAT, {"type": "gps", "to": 6})
    assert after["ship"] == 6 and after["kept"]["gps"] == 0


@pytest.mark.parametrize("kind, value, check", [
    ("mine", 1, lambda s: s["nuggets"] == 7),
    ("mine", 2, lambda s: s["nuggets"] == 8),
    ("munitions", 0, lambda s: s["kept"]["munitions"] == ["green"]),
    ("gps", 0, lambda s: s["kept"]["gps"] == 1),
    ("tower", 0, lambda s: s["tower"]),
    ("comet", 2, lambda s: s["nuggets"] == 6),
])
def test_defender_tile_effects(kind, value, check):
    tile = {"colour": "green", "kind": kind, **({"value": value} if kind in ("mine", "comet") else {})}
    state = with_defender_tiles(defender_turn(new_game()), [tile])
    state["kept"]["munitions"] = ["green", "green"]
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "green", "munitions": True})
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "green", "munitions": True})
    assert state["defender_tiles"][0]["turned"] and check(state)


def test_a_mine_never_gives_more_nuggets_than_the_box_holds():
    mine = {"colour": "blue", "kind": "mine", "value": 2}
    state = with_defender_tiles(defender_turn(new_game(level="easy")), [mine])
    state["nuggets"] = 10
    state["kept"]["munitions"] = ["blue", "blue"]
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True})
    state = act(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue", "munitions": True})
    assert state["nuggets"] == 11


def test_eliminating_every_saucer_wins_for_the_defender():
    state = defender_turn(new_game(power_tiles="off"))
    state["saucers"]["on_board"] = {"blue": 1, "green": 0, "pink": 0}
    state["saucers"]["eliminated"] = {"blue": 3, "green": 4, "pink": 4}
    state = with_dice(state, DEFENDER, [2, "blue"])
    after, events = GAME.apply(state, DEFENDER_SEAT, {"type": "hit", "colour": "blue"}, rng())
    assert after["winner"] == DEFENDER and events[-1] == {"type": "won", "winner": DEFENDER}
    view = GAME.view(after, None)
    assert view["winner"] == DEFENDER and view["history"] and view["turn"] == 1
    refused(after, ALIEN_SEAT, {"type": "throw"}, "game is over")


# --- the Alien -----------------------------------------------------------------

def alien_bonus(kinds, colour="blue", state=None):
    state = with_dice(with_alien_tiles(state or new_game(), kinds), ALIEN, ["blue", "green"])
    return GAME.apply(state, ALIEN_SEAT, {"type": "bonus", "colour": colour}, rng(3))


def test_a_bonus_turns_one_face_down_tile_at_random_for_both_to_see():
    generator = rng(3)
    state = with_dice(new_game(), ALIEN, ["blue", "green"])
    after, events = GAME.apply(state, ALIEN_SEAT, {"type": "bonus", "colour": "blue"}, generator)
    turned = [i for i, tile in enumerate(after["alien_tiles"]) if tile["turned"]]
    assert len(turned) == 1 and events[0]["tile"] == turned[0]
    assert events[0]["kind"] == after["alien_tiles"][turned[0]]["kind"]
    assert generator.draws[0]["purpose"]["kind"] == "alien_tile_turned"
    for seat in (None, ALIEN_SEAT, DEFENDER_SEAT):
        assert GAME.view(after, seat)["alien_tiles"][turned[0]]["kind"] == events[0]["kind"]


def test_a_bonus_needs_tiles_a_throw_and_the_alien():
    refused(new_game(), ALIEN_SEAT, {"type": "bonus", "colour": "blue"}, "Throw your dice first")
    refused(with_dice(new_game(power_tiles="off"), ALIEN, ["blue", "blue"]), ALIEN_SEAT,
            {"type": "bonus", "colour": "blue"}, "not in play")
    state = with_dice(defender_turn(new_game()), DEFENDER, [1, "blue"])
    refused(state, DEFENDER_SEAT, {"type": "bonus", "colour": "blue"}, "Only the Alien")
    state = with_dice(new_game(), ALIEN, ["blue", "blue"])
    for tile in state["alien_tiles"]:
        tile["turned"] = True
    refused(state, ALIEN_SEAT, {"type": "bonus", "colour": "blue"}, "already turned")


def test_extra_life_tile_counts_a_heart_on_that_colour():
    state, events = alien_bonus(["extra_life"], "green")
    assert state["saucers"]["extra_lives"]["green"] == 1 and events[0]["applied"]


def test_turret_tile_costs_the_defender_a_nugget_but_never_below_zero():
    state, _ = alien_bonus(["turret"])
    assert state["nuggets"] == 5
    empty = new_game()
    empty["nuggets"] = 0
    state, events = alien_bonus(["turret"], state=empty)
    assert state["nuggets"] == 0 and not events[0]["applied"]


def test_repair_tile_brings_back_an_eliminated_saucer():
    state, events = alien_bonus(["repair"])
    assert not events[0]["applied"] and state["pending"] is None  # nothing eliminated yet
    start = new_game()
    start["saucers"]["on_board"].update(pink=3, blue=3)
    start["saucers"]["eliminated"].update(pink=1, blue=1)
    state, events = alien_bonus(["repair"], state=start)
    assert state["pending"] == {"kind": "repair", "colours": ["blue", "pink"]}
    refused(state, ALIEN_SEAT, {"type": "throw"}, "power tile's question")
    refused(state, ALIEN_SEAT, {"type": "repair", "colour": "green"}, "No eliminated saucer")
    after = act(state, ALIEN_SEAT, {"type": "repair", "colour": "pink"})
    assert after["saucers"]["on_board"]["pink"] == 4 and after["saucers"]["repairs"] == 1
    full_line = act(state, ALIEN_SEAT, {"type": "repair", "colour": None})
    assert full_line["saucers"]["on_board"]["pink"] == 3 and full_line["pending"] is None


def test_reactor_damage_holds_the_ship_for_the_defenders_next_turn():
    state, _ = alien_bonus(["reactor"])
    state = act(state, ALIEN_SEAT, {"type": "end_turn"})
    assert state["reactor"] == "active"
    refused(state, DEFENDER_SEAT, {"type": "nugget", "to": 2}, "reactor is damaged")
    refused(with_dice(state, DEFENDER, [3, "blue"]), DEFENDER_SEAT, {"type": "move"}, "only on a 1 or a 6")
    moved = act(with_dice(state, DEFENDER, [6, "blue"]), DEFENDER_SEAT, {"type": "move"})
    assert moved["ship"] == 6
    freed = act(act(moved, DEFENDER_SEAT, {"type": "end_turn"}), ALIEN_SEAT, {"type": "throw"})
    freed = act(freed, ALIEN_SEAT, {"type": "end_turn"})
    assert freed["reactor"] is None
    assert act(freed, DEFENDER_SEAT, {"type": "nugget", "to": 5})["ship"] == 5


@pytest.mark.parametrize("kind", ["engines", "rift"])
def test_board_only_tiles_are_shown(kind):
    state, events = alien_bonus([kind])
    assert events[0]["kind"] == kind and state["alien_tiles"][0]["turned"]


def test_a_claim_on_the_last_line_waits_for_the_defender():
    state = act(act(new_game(), ALIEN_SEAT, {"type": "throw"}), ALIEN_SEAT, {"type": "claim"})
    refused(state, ALIEN_SEAT, {"type": "end_turn"}, "Wait for the Defender")
    refused(state, DEFENDER_SEAT, {"type": "throw"}, "Answer the Alien's claim")
    refused(state, DEFENDER_SEAT, {"type": "confirm", "accept": "yes"}, "accept")
    denied = act(state, DEFENDER_SEAT, {"type": "confirm", "accept": False})
    assert denied["winner"] is None and denied["pending"] is None
    won = act(state, DEFENDER_SEAT, {"type": "confirm", "accept": True})
    assert won["winner"] == ALIEN and GAME.view(won, DEFENDER_SEAT)["winner"] == ALIEN


def test_nothing_to_answer_without_a_claim():
    refused(new_game(), DEFENDER_SEAT, {"type": "confirm", "accept": True}, "nothing to answer")


def test_strangers_and_unknown_actions_are_refused():
    refused(new_game(), 9, {"type": "throw"}, "Not your turn")
    refused(new_game(), ALIEN_SEAT, {"type": "laser"}, "Unknown action")


# --- views ---------------------------------------------------------------------

def test_nobody_sees_a_face_down_tile_not_even_its_owner():
    state = new_game()
    for seat in (None, ALIEN_SEAT, DEFENDER_SEAT):
        shown = GAME.view(state, seat)
        assert shown["alien_tiles"] == [{"turned": False}] * 6
        assert all(set(tile) == {"colour", "turned"} for tile in shown["defender_tiles"])
    assert GAME.view(state, ALIEN_SEAT)["role"] == ALIEN and GAME.view(state, None)["role"] is None
    assert GAME.view(state, ALIEN_SEAT)["throws_left"] == {ALIEN: 3, DEFENDER: 3}


