"""Rayman's pure rules: projectiles, Bosses, the end of a round, co-op and solo, the finish and tournaments."""

from __future__ import annotations

import copy

import pytest

from companion.games.base import IllegalAction
from companion.games.rayman import GAME, HOST, LAST_COLUMN, legal_actions, view
from companion.games.rayman.common import name_of
from tests.rules import ScriptedRng
from tests.test_rayman import (SALT, act, act_events, choice_of, choose_all, lock, players, end_turns, new_game, place, player,
                               ready, refused, rng, start_round, through_setup, turns)

ROLL = {"type": "roll"}


def placed(state, where):
    """Figures at ``{seat: (column, level)}``: every player keeps a position."""
    for seat, (column, level) in where.items():
        state = place(state, seat, column, level)
    return state


def with_projectiles(state, projectiles):
    """Projectiles ``(column, level, origin)`` instead of those on the board."""
    state = copy.deepcopy(state)
    state["projectiles"] = [{"id": 10 + index, "column": column, "level": level, "origin": origin}
                            for index, (column, level, origin) in enumerate(projectiles)]
    return state


def active(state):
    return state["round"]["order"][state["round"]["turn"]]


def end_round(state):
    """Ends every turn, the last players pass their free move, nothing else hit anybody: the state and the
    events of the round's end."""
    events = []
    while state["phase"] == "turns":
        state, events = act_events(state, active(state), {"type": "end_turn"})
    while state["phase"] == "round_end" and view(state, None)["waiting"]:
        mover, seat = view(state, None)["free_mover"], view(state, None)["waiting"][0]["seat"]
        action = {"type": "free_move", "pass": True} if mover is not None else {"type": "no_hit"}
        state, more = act_events(state, seat, action)
        events = events + more
    return state, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def play_round(state, answers=None):
    """A whole round: the roll, the first two cards of every hand, every turn."""
    state = start_round(state, answers)
    picks = {p["seat"]: tuple(p["hand"][:2]) for p in players(state) if not p["crossed"]}
    return end_turns(choose_all(state, picks), answers)


def with_ptizetres(state, *seats):
    state = copy.deepcopy(state)
    for seat in seats:
        player(state, seat)["ptizetres"] = [1, 2, 3]
    return state


# --- the projectile die -------------------------------------------------------------

def test_a_random_player_rolls_the_first_projectile_die():
    generator = rng(50)
    state = through_setup(new_game(3, difficulty="intermediate"), generator=generator)
    drawn = [d for d in generator.draws if d["purpose"] == {"kind": "first_roller"}]
    assert len(drawn) == 1 and not drawn[0]["secret"]
    roller = state["round"]["roller"]
    assert roller == [1, 2, 3][drawn[0]["result"]] and view(state, 2)["roller"] == roller
    other = next(seat for seat in (1, 2, 3) if seat != roller)
    refused(state, other, ROLL, "rolls this die")
    assert ROLL not in legal_actions(state, other)
    assert ROLL in legal_actions(state, roller) and legal_actions(state, HOST)[0] == ROLL  # then a colour to name


def test_the_die_gives_the_level_and_the_projectile_spawns_at_column_21():
    state = placed(ready(2, difficulty="intermediate"), {1: (0, 1), 2: (0, 1)})
    generator = rng(60)
    state, events = act_events(state, state["round"]["roller"], ROLL, generator)
    roll = of_type(events, "projectile_roll")[0]
    assert generator.draws[0]["purpose"] == {"kind": "projectile_level", "round": 1, "seat": roll["seat"]}
    assert roll["die"] == generator.draws[0]["result"] and roll["level"] == (roll["die"] + 1) // 2
    assert roll["card"] is None and roll["line"] is None  # Intermediate: Missiles without their card
    assert state["projectiles"] == [{"id": 1, "column": 21, "level": roll["level"], "origin": 21}]
    assert state["phase"] == "choosing"


def test_projectiles_spawn_at_column_43_once_a_player_reached_column_22():
    state = placed(ready(2, difficulty="intermediate"), {1: (0, 1), 2: (0, 1)})
    state = act(state, 2, {"type": "position", "column": 22, "level": 1})
    assert state["second_tile"]
    state = act(state, HOST, ROLL)
    assert state["projectiles"][0]["column"] == 43 and state["projectiles"][0]["origin"] == 43


def test_in_the_first_round_everybody_is_on_the_start_line_so_nothing_is_asked():
    state = act(ready(2, difficulty="intermediate"), HOST, ROLL)
    assert state["phase"] == "choosing" and view(state, None)["question"] is None
    assert state["projectiles"][0]["column"] == 21


def test_without_positions_the_phone_says_the_second_tile_is_reached_and_the_host_is_not_asked():
    state = end_turns(with_projectiles(turns(2, difficulty="intermediate"), []))
    assert view(state, HOST)["question"] is None and view(state, None)["roller"] is None  # anyone rolls
    state, events = act_events(state, 2, {"type": "second_tile"})
    assert events == [{"type": "second_tile", "seat": 2}]
    refused(state, 1, {"type": "second_tile"}, "already reached")
    state = act(state, 1, ROLL)
    assert state["phase"] == "choosing" and state["projectiles"][0]["column"] == 43 and state["second_tile"]


@pytest.mark.parametrize("heart", [True, False])
def test_a_figure_on_the_spawn_space_is_hit_and_the_projectile_removed(heart):
    state = placed(ready(2, difficulty="intermediate"), {1: (0, 1), 2: (0, 1)})
    _, events = act_events(state, HOST, ROLL, rng(60))  # the same draws give the same die again
    level = of_type(events, "projectile_roll")[0]["level"]
    state = place(state, 2, 21, level)
    player(state, 2)["heart"] = heart
    state, events = act_events(state, HOST, ROLL, rng(60))
    assert state["projectiles"] == [] and of_type(events, "projectile_spawn_hit")[0]["seat"] == 2
    if heart:
        assert of_type(events, "heart_lost") and player(state, 2)["position"]["column"] == 21
    else:
        assert of_type(events, "damaged") and player(state, 2)["position"] == {"column": 19, "level": level}
        assert player(state, 2)["immune"]


def test_hero_applies_the_line_of_the_projectile_card_given_by_the_same_die():
    state = start_round(placed(ready(2, difficulty="hero"), {1: (30, 1), 2: (31, 1)}))
    die = state["round"]["die"]
    assert state["round"]["card_line"] == die and view(state, 1)["round"]["card_line"] == die
    state = choose_all(state, {1: ("b1", "b2"), 2: ("b3", "b4")})
    state, events = end_round(state)
    assert {"type": "projectile_card_effect", "card": "fourchette", "line": die} in events




@pytest.mark.parametrize("options, die, level, card, line", [
    ({"difficulty": "intermediate"}, 6, 3, None, None),  # "if you roll a 6 ... third level at column 21"
    ({"difficulty": "custom", "projectile": "missile"}, 2, 1, "missile", 2),  # the Missile card with a 2
])
def test_the_books_projectile_examples(options, die, level, card, line):
    state = placed(ready(2, **options), {1: (0, 1), 2: (0, 1)})
    state, events = act_events(state, HOST, ROLL, ScriptedRng(("", die), fallback=rng(0)))
    assert of_type(events, "projectile_roll")[0] | {"seat": None} == {
        "type": "projectile_roll", "seat": None, "die": die, "level": level, "card": card, "line": line}
    assert state["projectiles"] == [{"id": 1, "column": 21, "level": level, "origin": 21}]
    assert view(state, 2)["round"]["card_line"] == line  # a "CE ROUND-CI" line is shown all round long
    state, events = end_round(choose_all(state, {1: ("b1", "b2"), 2: ("b3", "b4")}))
    assert {"type": "projectile_moved", "id": 1, "column": 13, "level": level} in events  # 8 spaces back
    # the Missile's line 2 reads « CE ROUND-CI »: announced at the roll, not at the round's end
    assert of_type(events, "projectile_card_effect") == []


def test_after_the_first_round_the_player_farthest_from_the_finish_rolls():
    state = placed(turns(2, difficulty="intermediate"), {1: (10, 1), 2: (10, 2)})
    state = with_projectiles(state, [])
    state, _ = end_round(state)
    assert state["phase"] == "round_start" and view(state, None)["roller"] == 1  # same column: the lower level
    refused(state, 2, ROLL, "Rayman rolls this die")
    assert of_type(act_events(state, 1, ROLL)[1], "projectile_roll")[0]["seat"] == 1


def test_without_positions_the_player_farthest_from_the_finish_rolls_on_their_phone():
    state = end_turns(with_projectiles(turns(3, difficulty="intermediate"), []))
    assert view(state, None)["question"] is None and view(state, None)["roller"] is None
    assert all(ROLL in legal_actions(state, seat) for seat in (1, 2, 3))
    state, events = act_events(state, 2, ROLL)
    assert of_type(events, "projectile_roll")[0]["seat"] is None  # rolled for the table, by whoever sits farthest


# --- projectiles at the end of the round ------------------------------------------------------

def test_projectiles_fly_8_spaces_counter_clockwise_and_leave_at_the_end_of_their_path():
    state = placed(turns(2, difficulty="intermediate"), {1: (30, 2), 2: (31, 2)})
    state = with_projectiles(state, [(21, 2, 21), (5, 3, 21), (43, 1, 43), (27, 2, 43), (30, 1, 43)])
    state, events = end_round(state)
    assert [(p["id"], p["column"]) for p in state["projectiles"]] == [(10, 13), (12, 35)]
    assert [e["id"] for e in of_type(events, "projectile_removed")] == [11, 13, 14]  # start line, column 22, 22
    assert of_type(events, "projectile_hit") == []


def test_faster_projectiles_fly_9_spaces():
    state = placed(turns(2, difficulty="intermediate", projectile_speed=9), {1: (30, 2), 2: (31, 2)})
    state, _ = end_round(with_projectiles(state, [(21, 1, 21), (40, 3, 43)]))
    assert [p["column"] for p in state["projectiles"]] == [12, 31]


def test_a_projectile_hits_the_first_player_on_its_path_and_is_removed():
    state = placed(turns(3, difficulty="intermediate"), {1: (15, 2), 2: (18, 2), 3: (18, 1)})
    state, events = end_round(with_projectiles(state, [(21, 2, 21)]))
    assert of_type(events, "projectile_hit") == [{"type": "projectile_hit", "id": 10, "seat": 2}]
    assert state["projectiles"] == [] and player(state, 2)["position"] == {"column": 16, "level": 2}
    assert player(state, 1)["position"] == {"column": 15, "level": 2}  # behind Ben: untouched


def test_an_immune_player_stops_a_projectile_unharmed():
    state = placed(turns(2, difficulty="intermediate"), {1: (15, 2), 2: (30, 2)})
    state = act(state, 2, {"type": "end_turn"})
    player(state, 1)["immune"] = True  # damaged since the start of the turn
    state, events = end_round(with_projectiles(state, [(21, 2, 21)]))
    assert {"type": "immune", "seat": 1, "cause": "projectile"} in events and state["projectiles"] == []
    assert player(state, 1)["position"]["column"] == 15


def test_without_positions_the_player_hit_by_a_projectile_says_so_on_their_phone():
    state = with_projectiles(turns(2, difficulty="intermediate"), [(21, 3, 21)])
    state = act(act(state, 2, {"type": "end_turn"}), 1, {"type": "end_turn"})
    assert view(state, HOST)["question"] is None and state["phase"] == "round_end"  # the host is not asked
    assert state["projectiles"][0]["column"] == 21  # it waits for the players who keep no position
    hit = {"type": "hurt", "cause": "projectile", "projectile": 10}
    assert hit in legal_actions(state, 1)
    state, events = act_events(state, 1, hit)
    assert of_type(events, "projectile_hit")[0]["seat"] == 1 and of_type(events, "damaged")[0]["seat"] == 1
    assert state["projectiles"] == [] and state["round"]["number"] == 2  # nothing left to move


def test_a_player_reports_a_projectile_met_during_the_turn():
    state = with_projectiles(turns(2, difficulty="intermediate"), [(12, 1, 21)])
    state, events = act_events(state, 1, {"type": "hurt", "cause": "projectile", "projectile": 10})
    assert state["projectiles"] == [] and of_type(events, "damaged")


# --- the Boss -------------------------------------------------------------------------

def test_the_boss_rolls_its_level_and_reveals_a_card_of_its_shuffled_deck():
    state = ready(2, mode="coop", boss_move=5)
    assert state["phase"] == "round_start" and view(state, None)["roller"] is None
    generator = rng(70)
    state, events = act_events(state, 2, ROLL, generator)  # anyone may roll for the Boss
    roll, card = of_type(events, "boss_roll")[0], of_type(events, "boss_card")[0]
    assert [d["purpose"] for d in generator.draws] == [{"kind": "boss_level", "round": 1},
                                                       {"kind": "boss_cards_shuffle"}]
    assert generator.draws[1]["secret"] and not generator.draws[0]["secret"]
    assert roll["level"] == (roll["die"] + 1) // 2 and roll["entering"]
    assert state["boss"]["column"] == 0 and state["boss"]["level"] == roll["level"]
    assert card["card"] in (1, 2, 3) and view(state, 1)["boss"]["deck"] == 2


def test_the_decks_are_the_tables_secret_and_no_view_changes_when_they_do():
    """Secrets by layout (issue 25): the Boss's attack deck and the draft deck live in state["secret"];
    scrambling them, and every other seat's private part, changes nothing any other screen sees."""
    state, _ = act_events(ready(2, mode="coop", boss_move=5, extra_cards="on"), 2, ROLL, rng(70))
    assert "deck" not in state["boss"] and len(state["secret"]["boss_deck"]) == state["boss"]["deck_size"] == 2
    drafting = new_game(3, difficulty="intermediate")
    for seat, name in ((1, "Rayman"), (2, "Globox"), (3, "Barbara")):
        drafting = act(drafting, seat, {"type": "character", "name": name})
    assert "deck" not in drafting["draft"] and len(drafting["secret"]["draft_deck"]) == 22
    for shown in (state, drafting):
        for viewer in [None, HOST] + [p["seat"] for p in shown["players"]]:
            scrambled = copy.deepcopy(shown)
            for key, deck in scrambled["secret"].items():
                scrambled["secret"][key] = list(reversed(deck)) + [99]
            for owner, mine in scrambled["private"].items():
                if owner != str(viewer):
                    mine.update(hand=[], cards=[], discard=[], played=[])
            assert view(scrambled, viewer) == view(shown, viewer), viewer


def test_the_attack_deck_is_reshuffled_when_its_three_cards_are_used():
    state = placed(ready(2, mode="coop", boss_move=5), {1: (30, 1), 2: (31, 1)})
    seen = []
    for _ in range(4):
        state = start_round(state)
        seen.append(state["boss"]["card"])
        state = end_turns(choose_all(state, {p["seat"]: tuple(p["hand"][:2]) for p in players(state)}))
    assert sorted(seen[:3]) == [1, 2, 3] and seen[3] in (1, 2, 3)
    assert state["boss"]["used"] == [] and state["boss"]["card"] == seen[3] and state["boss"]["column"] == 20


def test_the_boss_movement_is_asked_when_not_set():
    state = ready(2, mode="coop")
    assert view(state, None)["question"] == {"key": "boss_move", "low": 1, "high": 20}
    refused(state, HOST, {"type": "answer", "question": "boss_move", "value": 0}, "1 to 20")
    state = act(state, HOST, {"type": "answer", "question": "boss_move", "value": 6})
    assert state["boss"]["move"] == 6 and view(state, None)["question"] is None


def boss_at(state, column, level, move=5):
    state = copy.deepcopy(state)
    state["boss"].update({"column": column, "level": level, "move": move})
    return state


def by_initiative(state, seat):
    hand = player(state, seat)["hand"]
    return sorted(hand, key=lambda card: next(c["initiative"] for c in player(state, seat)["cards"] if c["id"] == card))


def coop_turns(players=2, **options):
    """Co-op turns, the highest seat first: it shows its best cards, the others their weakest."""
    state = start_round(ready(players, mode="coop", boss_move=5, **options))
    top = max(p["seat"] for p in state["players"])
    picks = {p["seat"]: tuple(by_initiative(state, p["seat"])[-2:] if p["seat"] == top
                              else by_initiative(state, p["seat"])[:2]) for p in state["players"]}
    return choose_all(state, picks)


def test_the_boss_moves_clockwise_and_its_attack_applies():
    state = boss_at(placed(coop_turns(), {1: (30, 1), 2: (31, 1)}), 10, 2)
    state, events = end_round(state)
    assert {"type": "boss_moved", "column": 15, "level": 2} in events
    assert of_type(events, "boss_attack") == [{"type": "boss_attack", "card": state["boss"]["card"]}]


def test_the_boss_ending_on_a_player_with_a_heart_takes_the_heart():
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (31, 1)}), 10, 2)
    player(state, 1)["heart"] = True
    state, events = end_round(state)
    assert of_type(events, "boss_hit")[0]["seat"] == 1 and of_type(events, "heart_lost")
    assert player(state, 1)["position"] == {"column": 14, "level": 2} and not player(state, 1)["bubble_mode"]


def test_boss_damage_puts_a_coop_player_in_bubble_mode():
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (31, 1)}), 10, 2)
    state, events = end_round(state)
    assert of_type(events, "damaged")[0]["back"] == 2 and player(state, 1)["bubble_mode"]
    assert player(state, 1)["position"] == {"column": 13, "level": 2}
    assert {"type": "bubble_mode", "seat": 1, "on": True} in events


def test_a_player_in_bubble_mode_picks_cards_cannot_act_and_floats_4_spaces():
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (31, 1)}), 10, 2)
    state, _ = end_round(state)
    state = start_round(state)
    bubbling = lock(lock(state, 1, "bubble"), 2, tuple(player(state, 2)["hand"][:2]))
    refused(bubbling, 1, {"type": "reveal", "choice": choice_of("bubble"), "salt": SALT}, "cannot declare a Bubble")
    state = choose_all(state, {1: tuple(player(state, 1)["hand"][:2]), 2: tuple(player(state, 2)["hand"][:2])})
    state = copy.deepcopy(state)
    state["round"]["order"] = [1, 2]
    refused(state, 1, {"type": "heart"}, "Bubble mode")
    refused(state, 1, {"type": "slap", "target": 2}, "Bubble mode")
    assert {a["type"] for a in legal_actions(state, 1)} <= {"end_turn", "hurt", "position", "step",
                                                            "forget_position", "give_bonus"}
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert events == [{"type": "immune", "seat": 1, "cause": "enemy"}]
    state = act(state, 1, {"type": "end_turn"})
    assert player(state, 1)["position"] == {"column": 17, "level": 2}


def test_a_slap_frees_a_player_from_bubble_mode_without_moving_them():
    state = placed(coop_turns(), {1: (15, 2), 2: (16, 2)})
    player(state, 1)["bubble_mode"] = True
    state, events = act_events(state, 2, {"type": "slap", "target": 1})
    assert {"type": "bubble_mode", "seat": 1, "on": False} in events
    assert player(state, 1)["position"] == {"column": 15, "level": 2} and not player(state, 1)["bubble_mode"]


def test_the_boss_wins_when_every_player_is_in_bubble_mode():
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (31, 1)}), 10, 2)
    player(state, 2)["bubble_mode"] = True
    state, events = end_round(state)
    assert state["phase"] == "game_over" and state["result"] == {"kind": "coop", "won": False,
                                                                 "reason": "all_in_bubbles"}
    assert events[-1] == {"type": "game_over", "won": False, "reason": "all_in_bubbles"}
    refused(state, 1, {"type": "end_turn"}, "game is over")


def test_the_table_loses_when_the_boss_finishes_first():
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (31, 1)}), 40, 2)
    state, events = end_round(state)
    assert of_type(events, "boss_finished") and state["result"]["reason"] == "boss_finished"


def test_without_positions_the_player_the_boss_lands_on_says_so_on_their_phone():
    state = boss_at(coop_turns(), 10, 3)
    state = act(act(state, 2, {"type": "end_turn"}), 1, {"type": "end_turn"})
    assert view(state, None)["question"] is None and state["boss"]["column"] == 15
    state, events = act_events(state, 2, {"type": "hurt", "cause": "boss"})
    assert of_type(events, "damaged")[0]["seat"] == 2 and player(state, 2)["bubble_mode"]


def test_a_competitive_race_with_a_boss_has_no_bubble_mode():
    state = boss_at(placed(turns(2, boss="crapaud_blinde", boss_move=5), {1: (15, 2), 2: (31, 1)}), 10, 2)
    state, events = end_round(state)
    assert of_type(events, "damaged") and not player(state, 1)["bubble_mode"]


def test_a_competitive_boss_that_finishes_first_takes_the_first_place():
    state = boss_at(placed(turns(3, boss="crapaud_blinde", boss_move=5), {1: (15, 2), 2: (31, 1), 3: (20, 3)}), 40, 2)
    state, events = end_round(state)
    assert of_type(events, "boss_finished") and state["phase"] == "game_over" and state["result"]["boss_won"]
    assert [(e["seat"], e["place"]) for e in state["result"]["ranking"]] == [(2, 2), (3, 3), (1, 4)]


# --- the last player's free move and the discards -------------------------------------------

@pytest.mark.parametrize("players, where, last", [
    (2, {1: (10, 1), 2: (12, 1)}, [1]),
    (3, {1: (10, 2), 2: (10, 1), 3: (12, 1)}, [2]),  # same column: the lower level is last
    (4, {1: (10, 2), 2: (11, 1), 3: (9, 3), 4: (30, 1)}, [3, 1]),  # two last from 4 players, farthest first
    (5, {1: (5, 2), 2: (5, 1), 3: (9, 3), 4: (30, 1), 5: (31, 1)}, [2, 1]),
])
def test_the_last_player_moves_one_space_forward(players, where, last):
    options = {"players_5_6": "on"} if players > 4 else {}
    _, events = end_round(placed(turns(players, **options), where))
    assert of_type(events, "free_move") == [{"type": "free_move", "seats": last, "count": len(last)}]


def test_a_bubble_player_still_gets_the_free_move():
    state = placed(ready(2), {1: (10, 1), 2: (12, 1)})
    state = choose_all(state, {1: "bubble", 2: ("b1", "b2")})
    state, events = end_round(state)
    assert of_type(events, "free_move")[0]["seats"] == [1]


def test_without_positions_the_last_players_move_and_the_host_is_not_asked():
    state = turns(4)
    state, events = end_round(state)
    assert view(state, None)["question"] is None and state["round"]["number"] == 2
    assert {"type": "free_move", "seats": [], "count": 2} in events  # the phones say: the two last move


def test_a_hit_from_the_free_move_is_reported_after_the_round():
    state, events = end_round(turns(2))
    assert {"type": "free_move", "seats": [], "count": 1} in events and state["phase"] == "choosing"
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert of_type(events, "damaged") and player(state, 1)["immune"]
    assert {"type": "hurt", "cause": "enemy"} in legal_actions(state, 2)


def test_played_cards_go_to_the_discard_at_the_end_of_the_round():
    state = turns(2)
    assert player(state, 1)["played"] == ["b1", "b8"] and len(player(state, 1)["hand"]) == 6
    state = act(state, 2, {"type": "slap", "target": 1})
    state = end_turns(state)
    assert player(state, 1)["discard"] == ["b1", "b8"] and player(state, 1)["played"] == []
    assert not player(state, 1)["slapped"]


# --- co-op and solo ---------------------------------------------------------------------

def test_coop_players_discard_two_cards_at_random_privately():
    generator = rng(80)
    state = through_setup(new_game(2, mode="coop", boss_move=5), generator=generator)
    draws = [d for d in generator.draws if d["purpose"]["kind"] == "random_discard"]
    assert [d["purpose"] for d in draws] == [{"kind": "random_discard", "seat": seat, "round": 1} for seat in (1, 2)]
    assert all(d["secret"] and d["size"] == 8 for d in draws)
    ana = player(state, 1)
    assert len(ana["hand"]) == 6 and ana["discard"] == ana["random_discards"] and len(ana["random_ranks"]) == 2
    assert view(state, 1)["players"][0]["random_discards"] == ana["random_discards"]
    for seat in (None, HOST, 2):
        shown = view(state, seat)["players"][0]
        assert shown["random_discards"] is None and shown["discard"] is None and shown["discard_size"] == 2


def test_coop_hands_are_renewed_with_new_random_discards_after_the_third_round():
    state = placed(ready(2, mode="coop", boss_move=5), {1: (30, 1), 2: (31, 1)})
    for _ in range(3):
        assert len(player(state, 1)["hand"]) >= 2
        state = play_round(state)
    ana = player(state, 1)
    assert state["round"]["number"] == 4 and len(ana["hand"]) == 6 and len(ana["random_discards"]) == 2
    assert sorted(ana["hand"] + ana["discard"]) == sorted(card["id"] for card in ana["cards"])


def test_with_extra_cards_the_coop_hand_lasts_four_rounds():
    state = placed(ready(2, mode="coop", boss_move=5, extra_cards="on"), {1: (30, 1), 2: (31, 1)})
    assert len(player(state, 1)["hand"]) == 8
    for _ in range(3):
        state = play_round(state)
    assert len(player(state, 1)["hand"]) == 2
    state = play_round(state)
    assert len(player(state, 1)["hand"]) == 8 and len(player(state, 1)["cards"]) == 10


def test_quick_entry_shows_the_random_discards_as_ranks():
    state = ready(2, mode="coop", boss_move=5, hand_entry="quick")
    ranks = player(state, 1)["random_ranks"]
    assert len(ranks) == 2 and ranks == sorted(ranks) and all(1 <= rank <= 8 for rank in ranks)
    assert view(state, 2)["players"][0]["random_ranks"] is None


def test_solo_damage_without_a_heart_loses():
    state = start_round(ready(1, mode="solo", boss_move=4))
    state = choose_all(state, {1: tuple(player(state, 1)["hand"][:2])})
    state = act(state, 1, {"type": "heart"})
    state, events = act_events(state, 1, {"type": "hurt", "cause": "obstacle"})
    assert of_type(events, "heart_lost") and state["phase"] == "turns"
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert state["phase"] == "game_over" and state["result"] == {"kind": "coop", "won": False, "reason": "defeated", "seat": 1}


@pytest.mark.parametrize("cause", ["enemy", "obstacle", "wall", "boss"])
def test_rule_coop_any_damage_puts_the_player_in_bubble_mode(cause):
    """« En mode coopératif, le mode Bulle est activé lorsqu'un joueur subit un dégât »: any damage, not only the Boss's."""
    state, events = act_events(coop_turns(), 2, {"type": "hurt", "cause": cause})
    assert player(state, 2)["immune"] and player(state, 2)["bubble_mode"] and state["phase"] == "turns"
    assert {"type": "bubble_mode", "seat": 2, "on": True} in events


def test_harsher_coop_damage_without_a_heart_loses():
    state = act(coop_turns(harsh_coop="on"), 2, {"type": "hurt", "cause": "enemy"})
    assert state["result"] == {"kind": "coop", "won": False, "reason": "defeated", "seat": 2}
    assert GAME.outcome(state)["params"] == {"name": name_of(state, 2)}  # the end names who was defeated


def test_the_table_wins_when_every_player_finished_with_three_ptizetres():
    state = with_ptizetres(coop_turns(), 2)
    refused(state, 1, {"type": "crossed"}, "3 Ptizêtres")
    state, events = act_events(state, 2, {"type": "crossed"})
    assert of_type(events, "final_round") == [] and state["phase"] == "turns"
    state = end_turns(state)
    state = start_round(state)
    assert [p["seat"] for p in state["players"] if not p["crossed"]] == [1]
    refused(state, 2, {"type": "lock", "commitment": "ab" * 32}, "finished the race")
    state = choose_all(state, {1: tuple(player(state, 1)["hand"][:2])})
    state, events = act_events(with_ptizetres(state, 1), 1, {"type": "crossed"})
    assert state["result"] == {"kind": "coop", "won": True, "reason": "all_finished"}


def test_coop_players_give_hearts_and_bonus_tokens():
    state = coop_turns()
    refused(state, 2, {"type": "heart", "to": 1}, "heart for yourself first")
    state = act(act(state, 2, {"type": "heart"}), 2, {"type": "heart", "to": 1})
    assert player(state, 1)["heart"] and player(state, 2)["heart"]
    refused(state, 2, {"type": "heart", "to": 1}, "already has a heart")
    state = act(state, 2, {"type": "bonus"})
    state = act(act(state, 2, {"type": "give_bonus", "to": 1}), 1, {"type": "answer_offer", "accept": True})
    assert player(state, 1)["bonus"] == 1 and player(state, 2)["bonus"] == 0
    state = act(state, 1, {"type": "give_bonus", "to": 2})  # on the receiver's turn
    state = act(state, 2, {"type": "answer_offer", "accept": True})
    assert player(state, 2)["bonus"] == 1
    refused(state, 1, {"type": "give_bonus", "to": 2}, "You have only 0 bonus tokens")


# --- the finish ---------------------------------------------------------------------------

def test_crossing_with_three_ptizetres_starts_the_final_round():
    state = with_ptizetres(turns(3), 3)
    state, events = act_events(state, 3, {"type": "crossed"})
    assert of_type(events, "final_round") == [{"type": "final_round", "round": 1}]
    state = act(state, 3, {"type": "end_turn"})
    assert state["phase"] == "turns" and active(state) == 2  # the round is played to the end
    refused(state, 3, {"type": "crossed"}, "finished the race")
    state = end_turns(state)
    assert state["phase"] == "finish" and view(state, None)["question"] is None
    refused(state, 2, {"type": "distance", "spaces": 2}, "past the finish line")
    refused(state, 3, {"type": "distance", "spaces": 0}, "1 to 40")
    state = act(state, 3, {"type": "distance", "spaces": 3})
    assert view(state, None)["question"] == {"key": "ranking", "choices": [1, 2]}
    refused(state, HOST, {"type": "answer", "question": "ranking", "value": [2]}, "Name 2 different players")
    state, events = act_events(state, HOST, {"type": "answer", "question": "ranking", "value": [2, 1]})
    assert state["phase"] == "game_over" and state["result"]["winners"] == [3]
    assert [(e["seat"], e["place"]) for e in state["result"]["ranking"]] == [(3, 1), (2, 2), (1, 3)]


def test_the_books_example_barbara_wins_grand_minimus_second_rayman_third():
    state = with_ptizetres(placed(turns(4), {1: (40, 1), 2: (35, 2), 3: (30, 1), 4: (41, 3)}), 3, 4)
    assert [name for name in (player(state, s)["character"] for s in (1, 2, 3, 4))] == [
        "Rayman", "Globox", "Barbara", "Grand Minimus"]
    state = act(state, 4, {"type": "position", "column": 45, "level": 1})  # two spaces past the line
    assert player(state, 4)["crossed"] and state["race"]["final_round"]
    state = act(state, 4, {"type": "end_turn"})
    for _ in range(17):
        state = act(state, 3, {"type": "step", "direction": "forward"})
    assert player(state, 3)["position"]["column"] == 47 and player(state, 3)["crossed"]
    state, _ = end_round(state)
    ranking = state["result"]["ranking"]
    assert [(e["seat"], e["place"], e["distance"]) for e in ranking] == [
        (3, 1, 4), (4, 2, 2), (1, 3, None), (2, 4, None)]


def test_the_same_column_past_the_line_goes_to_the_higher_initiative():
    state = with_ptizetres(turns(2), 1, 2)  # Ana shows initiative 10, Ben 20
    state = act(act(state, 1, {"type": "crossed"}), 2, {"type": "crossed"})
    state = end_turns(state)
    state = act(act(state, 1, {"type": "distance", "spaces": 2}), 2, {"type": "distance", "spaces": 2})
    assert [(e["seat"], e["place"]) for e in state["result"]["ranking"]] == [(2, 1), (1, 2)]


def test_the_same_initiative_shares_the_victory():
    values = {seat: {f"b{n}": n for n in range(1, 9)} for seat in (1, 2)}
    state = with_ptizetres(choose_all(ready(2, values=values), {1: ("b4", "b1"), 2: ("b4", "b2")}), 1, 2)
    state = act(act(state, 1, {"type": "crossed"}), 2, {"type": "crossed"})
    state = end_turns(state)
    state = act(act(state, 1, {"type": "distance", "spaces": 2}), 2, {"type": "distance", "spaces": 2})
    assert state["result"]["winners"] == [1, 2]
    assert [e["place"] for e in state["result"]["ranking"]] == [1, 1]


def test_a_kept_position_cannot_cross_without_three_ptizetres_nor_come_back():
    state = placed(turns(2), {1: (43, 1), 2: (40, 1)})
    refused(state, 1, {"type": "step", "direction": "forward"}, "3 Ptizêtres")
    state = with_ptizetres(state, 1)
    state = act(state, 1, {"type": "step", "direction": "forward"})
    assert player(state, 1)["crossed"] and player(state, 1)["position"]["column"] == LAST_COLUMN + 1
    refused(state, 1, {"type": "step", "direction": "back"}, "finished the race")
    refused(state, 2, {"type": "slap", "target": 1}, "finished the race")


# --- tournaments ----------------------------------------------------------------------------

def win_race(state, order):
    """The players of ``order`` cross in that order of distance; the race ends."""
    state = start_round(state)
    state = choose_all(state, {p["seat"]: tuple(p["hand"][:2]) for p in players(state)})
    state = with_ptizetres(state, *order)
    for seat in order:
        state = act(state, seat, {"type": "crossed"})
    state = end_turns(state)
    for distance, seat in enumerate(reversed(order), start=1):
        state = act(state, seat, {"type": "distance", "spaces": distance})
    asked = view(state, None)["question"]
    if asked:  # the others, in seat order
        state = act(state, HOST, {"type": "answer", "question": "ranking", "value": asked["choices"]})
    return state


def test_a_tournament_plays_the_four_boards_in_order_and_keeps_standings():
    state = ready(3, tournament="on")
    boards = []
    for race, order in enumerate(([1, 2, 3], [3, 2, 1], [2, 1, 3], [1, 3, 2]), start=1):
        boards.append(state["race"]["board"])
        state = win_race(state, order)
        points = {entry["seat"]: entry["points"] for entry in state["tournament"]["races"][-1]["points"]}
        assert points == {order[0]: 5, order[1]: 3, order[2]: 2}
        if race < 4:
            assert state["phase"] == "race_over"
            refused(state, 1, {"type": "next_race"}, "Only the host")
            state, events = act_events(state, HOST, {"type": "next_race"})
            assert events[0] == {"type": "next_race", "race": race + 1, "board": state["race"]["board"]}
            assert all(not p["ptizetres"] and not p["crossed"] for p in state["players"])
    assert boards == ["jungle", "foret", "fiesta", "enfer"]
    assert state["phase"] == "game_over"
    assert state["tournament"]["standings"] == [{"seat": 1, "points": 5 + 2 + 3 + 5},
                                                {"seat": 2, "points": 3 + 3 + 5 + 2},
                                                {"seat": 3, "points": 2 + 5 + 2 + 3}]
    assert state["tournament"]["winners"] == [1]


def test_tournament_points_for_five_players():
    state = ready(5, tournament="on", players_5_6="on")
    state = win_race(state, [4, 5])
    points = {entry["seat"]: entry["points"] for entry in state["tournament"]["races"][0]["points"]}
    assert points == {4: 5, 5: 3, 1: 2, 2: 1, 3: 1}


def test_a_shared_victory_shares_the_points_of_the_place():
    values = {seat: {f"b{n}": 5 for n in range(1, 9)} for seat in (1, 2, 3)}
    state = with_ptizetres(choose_all(ready(3, values=values, tournament="on"),
                                      {1: ("b1", "b2"), 2: ("b1", "b2"), 3: ("b1", "b2")}), 1, 3)
    state = end_turns(act(act(state, 1, {"type": "crossed"}), 3, {"type": "crossed"}))
    state = act(act(state, 1, {"type": "distance", "spaces": 4}), 3, {"type": "distance", "spaces": 4})
    points = {entry["seat"]: entry["points"] for entry in state["tournament"]["races"][0]["points"]}
    assert points == {1: 5, 3: 5, 2: 2} and state["result"]["winners"] == [1, 3]


def test_the_standings_are_shown_after_every_race():
    state = win_race(ready(2, tournament="on"), [2, 1])
    assert view(state, None)["tournament"]["standings"] == [{"seat": 1, "points": 3}, {"seat": 2, "points": 5}]


def test_without_the_exchange_variant_each_race_drafts_new_extra_cards():
    state = win_race(ready(2, tournament="on", difficulty="intermediate"), [1, 2])
    first = {p["seat"]: [c["extra"] for c in p["cards"] if c["extra"]] for p in players(state)}
    generator = rng(90)
    state = act(state, HOST, {"type": "next_race"}, generator)
    assert state["phase"] == "draft" and all(len(p["cards"]) == 8 for p in players(state))
    assert generator.draws[0]["purpose"] == {"kind": "extra_cards_shuffle", "count": 22}
    state = through_setup(state)
    assert all(len(p["cards"]) == 10 for p in players(state)) and first


def test_the_exchange_variant_keeps_ten_cards_of_the_twelve():
    state = win_race(ready(2, tournament="on", difficulty="intermediate", card_exchange="on"), [1, 2])
    held = sorted(c["extra"] for p in players(state) for c in p["cards"] if c["extra"])
    generator = rng(91)
    state = act(state, HOST, {"type": "next_race"}, generator)
    assert generator.draws[0]["purpose"] == {"kind": "extra_cards_shuffle", "count": 18}
    assert not set(held) & set(state["secret"]["draft_deck"])  # the cards kept by the players stay out
    state = through_setup(state, known=False)
    assert state["phase"] == "exchange" and all(len(p["cards"]) == 12 for p in players(state))
    refused(state, 1, {"type": "exchange", "drop": ["b1"]}, "Choose 2 of your cards")
    refused(state, 1, {"type": "exchange", "drop": ["b1", "b1"]}, "Choose 2 of your cards")
    state = act(state, 1, {"type": "exchange", "drop": ["b1", "b2"]})
    refused(state, 1, {"type": "exchange", "drop": ["b3", "b4"]}, "already exchanged")
    new = [c["id"] for c in player(state, 2)["cards"] if c["initiative"] is None]
    state = act(state, 2, {"type": "exchange", "drop": new})  # Ben keeps his old cards
    assert state["phase"] == "round_start" and len(player(state, 1)["cards"]) == 10
    assert [c["id"] for c in player(state, 1)["cards"] if c["initiative"] is None] != []  # asked when first played
    assert state["race"]["board"] == "foret"


@pytest.mark.parametrize("choice, asked", [("keep", False), ("change", True)])
def test_a_tournament_keeps_or_changes_the_legendary_cards(choice, asked):
    state = win_race(ready(2, tournament="on", difficulty="legend", tournament_legendary=choice), [1, 2])
    state = act(state, HOST, {"type": "next_race"})
    assert (state["phase"] == "legendary") is asked
    assert (player(state, 1)["legendary"] is None) is asked


def test_next_race_only_between_races():
    refused(turns(2, tournament="on"), HOST, {"type": "next_race"}, "Not now: the table is playing the turns")
    with pytest.raises(IllegalAction):
        GAME.apply(turns(2), HOST, {"type": "next_race"}, rng())
