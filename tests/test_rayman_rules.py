"""Rayman: the rules issue 17 found refereed wrong, one test named after each rule of the book."""

from __future__ import annotations

import copy

import pytest

from companion.games.rayman import GAME, HOST, legal_actions, view
from companion.games.rayman.constants import commitment
from companion.games.rayman.legal import sample_salt
from tests.test_rayman import (SALT, act, act_events, choice_of, choose_all, end_turns, lock, new_game, place, player,
                               ready, refused, reveal, rng, start_round, turns)
from tests.rules import ScriptedRng
from tests.test_rayman_race import (active, boss_at, coop_turns, end_round, of_type, placed, play_round,
                                    with_projectiles, with_ptizetres)


def ended_turns(state):
    while state["phase"] == "turns":
        state = act(state, active(state), {"type": "end_turn"})
    return state


# --- the free move of the last player ---------------------------------------------------------

def test_rule_the_last_player_records_the_free_move_on_their_phone():
    state = ended_turns(placed(turns(3), {1: (5, 1), 2: (9, 1), 3: (12, 2)}))
    assert state["phase"] == "round_end" and view(state, None)["free_mover"] == 1
    assert {"type": "free_move", "level": 3} in legal_actions(state, 1)
    refused(state, 2, {"type": "free_move", "level": 1}, "Only the last player")
    refused(state, 1, {"type": "free_move", "level": 4}, "A level is 1, 2 or 3")
    state, events = act_events(state, 1, {"type": "free_move", "level": 3})
    assert {"type": "moved", "seat": 1, "column": 6, "level": 3} in events
    assert state["phase"] == "choosing" or state["round"]["number"] == 2


def test_rule_the_free_move_goes_to_a_space_no_other_player_holds():
    state = ended_turns(placed(turns(3), {1: (5, 1), 2: (6, 1), 3: (12, 2)}))
    assert {"type": "free_move", "level": 1} not in legal_actions(state, 1)
    refused(state, 1, {"type": "free_move", "level": 1}, "Globox is on that space")
    state = act(state, 1, {"type": "free_move", "pass": True})
    assert player(state, 1)["position"] == {"column": 5, "level": 1} and state["round"]["number"] == 2


def test_rule_with_four_players_the_two_last_move_the_farthest_behind_first():
    state = ended_turns(placed(turns(4), {1: (20, 1), 2: (7, 1), 3: (4, 2), 4: (30, 1)}))
    assert view(state, None)["free_mover"] == 3
    state = act(state, 3, {"type": "free_move", "level": 2})
    assert view(state, None)["free_mover"] == 2
    state = act(state, 2, {"type": "free_move", "level": 1})
    assert player(state, 2)["position"]["column"] == 8 and state["round"]["number"] == 2


def test_rule_the_final_rounds_ranking_counts_the_free_move():
    state = with_ptizetres(placed(turns(3), {1: (20, 1), 2: (20, 2), 3: (43, 1)}), 3)
    state = act(state, 3, {"type": "step", "direction": "forward"})  # past the line: the final round
    state = ended_turns(state)
    assert view(state, None)["free_mover"] == 1  # same column: the lower level is behind
    state = act(act(state, 1, {"type": "free_move", "level": 1}), 1, {"type": "no_hit"})  # no enemy there
    ranking = [(entry["seat"], entry["place"]) for entry in state["result"]["ranking"]]
    assert ranking == [(3, 1), (1, 2), (2, 3)]  # without the free move Ana would be third


def test_rule_a_free_mover_who_keeps_no_position_is_not_waited_for():
    state = ended_turns(turns(3))
    assert view(state, HOST)["question"] is None
    assert state["round"]["number"] == 2 and view(state, None)["free_mover"] is None


# --- slapping ------------------------------------------------------------------------------

def test_rule_a_slap_reaches_at_most_three_spaces_in_a_straight_line():
    state = placed(turns(3), {1: (10, 1), 2: (14, 1), 3: (11, 1)})
    assert active(state) == 3
    assert {"type": "slap", "target": 2} in legal_actions(state, 3)  # 11 to 14: three spaces, the most
    refused(place(state, 2, 15), 3, {"type": "slap", "target": 2}, "Globox is 4 spaces away")
    refused(place(state, 2, 12, 2), 3, {"type": "slap", "target": 2}, "not in a straight line")
    assert not any(a["type"] == "slap" and a["target"] == 2 for a in legal_actions(place(state, 2, 15), 3))


def test_rule_a_slap_costs_one_slap_more_per_space_of_distance():
    state = placed(turns(3), {1: (10, 1), 2: (13, 1), 3: (11, 1)})
    state, events = act_events(state, 3, {"type": "slap", "target": 2})
    assert events[0] == {"type": "slapped", "seat": 3, "target": 2, "distance": 2, "slaps": 3}
    assert player(state, 2)["position"]["column"] == 14  # slapped from behind: forward


def test_rule_the_fracasseur_reaches_a_space_per_slap():
    state = copy.deepcopy(placed(turns(2, legendary="on"), {1: (10, 1), 2: (12, 1)}))
    player(state, 2)["legendary"] = "fracasseur"
    _, events = act_events(state, 2, {"type": "slap", "target": 1})
    assert events[0]["distance"] == 2 and events[0]["slaps"] == 2


# --- the exchange of bonus tokens ---------------------------------------------------------------

def coop_with_bonus():
    state = coop_turns(3)
    for seat in (1, 2, 3):
        player(state, seat)["bonus"] = 1
    return state


def test_rule_a_bonus_exchange_needs_both_players_consent():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    third = next(seat for seat in (1, 2, 3) if seat not in (mover, other))
    state, events = act_events(state, mover, {"type": "give_bonus", "to": other, "give": 1, "take": 0})
    assert events == [{"type": "bonus_offered", "seat": mover, "to": other, "give": 1, "take": 0}]
    assert player(state, other)["bonus"] == 1  # nothing moves before the answer
    refused(state, third, {"type": "answer_offer", "accept": True}, "Nobody offered you")
    refused(state, mover, {"type": "answer_offer", "accept": True}, "must accept your offer on their phone")
    refused(state, mover, {"type": "give_bonus", "to": third}, "waiting for an answer")
    assert {"type": "answer_offer", "accept": True} in legal_actions(state, other)
    state, events = act_events(state, other, {"type": "answer_offer", "accept": True})
    assert of_type(events, "bonus_exchanged") and player(state, mover)["bonus"] == 0 and \
        player(state, other)["bonus"] == 2


def test_rule_a_bonus_exchange_may_be_declined_or_withdrawn():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    offered = act(state, mover, {"type": "give_bonus", "to": other, "give": 0, "take": 1})
    for seat in (mover, other):
        after, events = act_events(offered, seat, {"type": "answer_offer", "accept": False})
        assert of_type(events, "bonus_declined") and after["round"]["offer"] is None
        assert [player(after, s)["bonus"] for s in (1, 2, 3)] == [1, 1, 1]


def test_rule_a_bonus_exchange_is_between_players_on_the_same_space_or_side_by_side():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    far = placed(state, {seat: (4 * seat, 1) for seat in (1, 2, 3)})
    refused(far, mover, {"type": "give_bonus", "to": other}, "not on your space or next to you")
    near = placed(state, {mover: (8, 2), other: (8, 1)})
    assert act_events(near, mover, {"type": "give_bonus", "to": other})[1][0]["type"] == "bonus_offered"


def test_rule_a_bonus_exchange_checks_counts_and_the_limit_of_four():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    refused(state, mover, {"type": "give_bonus", "to": other, "give": 2}, "You have only 1 bonus token.")
    refused(state, mover, {"type": "give_bonus", "to": other, "give": 0, "take": 0}, "at least one")
    refused(state, mover, {"type": "give_bonus", "to": other, "give": "1"}, "at least one")
    player(state, other)["bonus"] = 4
    refused(state, mover, {"type": "give_bonus", "to": other, "give": 1}, "more than 4 bonus tokens")


def test_rule_an_offer_lapses_when_the_turn_passes():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    state = act(state, mover, {"type": "give_bonus", "to": other})
    state = act(state, mover, {"type": "end_turn"})
    assert state["round"]["offer"] is None
    refused(state, other, {"type": "answer_offer", "accept": True}, "Nobody offered you")


# --- Bubbles --------------------------------------------------------------------------------

def test_rule_a_player_who_bubbled_plays_again_the_next_round():
    state = start_round(ready(2))
    state = choose_all(state, {1: "bubble", 2: ("b1", "b2")})
    state = end_turns(state)
    state = start_round(state)
    bubble_lock = {"type": "lock", "commitment": commitment(choice_of("bubble"), sample_salt(1))}
    assert bubble_lock not in legal_actions(state, 1)
    bubbling = lock(lock(state, 1, "bubble"), 2, ("b3", "b4"))
    refused(bubbling, 1, {"type": "reveal", "choice": choice_of("bubble"), "salt": SALT},
            "You declared a Bubble last round")
    state = choose_all(state, {1: ("b1", "b2"), 2: ("b3", "b4")})
    state = start_round(end_turns(state))
    assert bubble_lock in legal_actions(state, 1)  # two rounds later it may again


# --- damage -------------------------------------------------------------------------------

def test_rule_damage_pushes_back_past_a_column_whose_every_space_is_taken():
    state = placed(turns(5, players_5_6="on"), {1: (8, 1), 2: (8, 2), 3: (8, 3), 4: (20, 1), 5: (10, 2)})
    state, events = act_events(state, 5, {"type": "hurt", "cause": "enemy"})
    assert player(state, 5)["position"] == {"column": 7, "level": 2}


def test_rule_damage_lands_on_a_free_level_of_the_column_two_back():
    state = placed(turns(3), {1: (8, 2), 2: (8, 1), 3: (10, 2)})
    state = act(state, 3, {"type": "hurt", "cause": "obstacle"})
    assert player(state, 3)["position"] == {"column": 8, "level": 3}


# --- a seat taken out of the game -------------------------------------------------------------

def test_rule_a_withdrawn_seat_leaves_a_race_that_goes_on_during_the_choice():
    state = start_round(ready(3))
    state = lock(lock(state, 1, ("b1", "b2")), 2, ("b1", "b2"))
    state, events = GAME.withdraw(state, 3, rng(50))
    assert {"type": "withdrawn", "seat": 3} in events and state["phase"] == "revealing"
    state = reveal(reveal(state, 1, ("b1", "b2")), 2, ("b1", "b2"))
    assert state["round"]["order"] == [2, 1] and [p["seat"] for p in state["players"]] == [1, 2]
    refused(state, 3, {"type": "end_turn"}, "You have left this race")


def test_rule_a_withdrawn_seat_on_its_turn_passes_the_turn_on():
    state = turns(3)
    assert active(state) == 3
    state, events = GAME.withdraw(state, 3, rng(50))
    assert active(state) == 2 and {"type": "turn_started", "seat": 2, "bubble_mode": False} in events
    state, _ = end_round(state)
    asked = view(state, HOST)["question"]
    assert asked is None or 3 not in asked.get("choices", [])


def test_rule_a_withdrawn_seat_in_setup_does_not_block_it():
    state = new_game(3)
    state = act(act(state, 1, {"type": "character", "name": "Rayman"}), 2, {"type": "character", "name": "Globox"})
    state, _ = GAME.withdraw(state, 3, rng(50))
    assert state["phase"] == "choosing" and [p["seat"] for p in state["players"]] == [1, 2]


def test_rule_a_withdrawn_first_roller_lets_any_other_player_roll():
    state = ready(3, projectile="missile")
    roller = state["round"]["roller"]
    assert [wait["seat"] for wait in GAME.waiting(state)] == [roller]
    other = next(seat for seat in (1, 2, 3) if seat != roller)
    refused(state, other, {"type": "roll"}, "rolls this die")
    state, _ = GAME.withdraw(state, roller, rng(50))
    assert all(wait["seat"] != roller for wait in GAME.waiting(state))  # nobody waits on a seat that left
    state, events = act_events(state, other, {"type": "roll"})
    assert [e["seat"] for e in events if e["type"] == "projectile_roll"] == [None]  # not said to be the drawn roller


def test_rule_coop_every_other_player_finished_wins_when_the_last_withdraws():
    state = with_ptizetres(coop_turns(2), 1, 2)
    mover = active(state)
    other = 3 - mover
    state = act(state, mover, {"type": "crossed"})
    state, events = GAME.withdraw(state, other, rng(50))
    assert state["result"] == {"kind": "coop", "won": True, "reason": "all_finished"}


# --- corrections ---------------------------------------------------------------------------

def test_rule_a_mistyped_initiative_is_corrected_during_the_race():
    choosing = start_round(ready(2))
    refused(choosing, 1, {"type": "correct_initiative", "card": "b5", "initiative": 4}, "in play this round")
    state = turns(2)
    state, events = act_events(state, 1, {"type": "correct_initiative", "card": "b5", "initiative": 42})
    assert events == [{"type": "initiative_corrected", "seat": 1}]
    assert next(c for c in player(state, 1)["cards"] if c["id"] == "b5")["initiative"] == 42
    refused(state, 1, {"type": "correct_initiative", "card": "b9", "initiative": 4}, "You have no card b9")
    refused(state, 1, {"type": "correct_initiative", "card": "b5", "initiative": 100}, "0 to 99")
    refused(state, 1, {"type": "correct_initiative", "card": "b1", "initiative": 4}, "in play this round")
    quick = start_round(ready(2, hand_entry="quick"))
    refused(quick, 1, {"type": "correct_initiative", "card": "b5", "initiative": 4}, "quick entry")


# --- refusals say why --------------------------------------------------------------------------

@pytest.mark.parametrize("action, why", [
    ({"type": "reveal", "choice": {"bubble": True}, "salt": "ab" * 16}, "Not now: the table is playing the turns"),
    ({"type": "pick", "card": 1}, "Not now: the table is playing the turns"),
    ({"type": "initiative", "seat": 1, "card": "b1", "initiative": 4}, "Not now: the table is playing the turns"),
    ({"type": "free_move", "level": 1}, "Not now: the table is playing the turns"),
    ({"type": "end_turn"}, "It is Barbara's turn"),
    ({"type": "answer_offer", "accept": True}, "Nobody offered you"),
])
def test_rule_every_refusal_says_why(action, why):
    refused(turns(3), 1, action, why)


def test_rule_a_refusal_before_the_turns_says_what_the_table_is_doing():
    state = start_round(ready(2))
    refused(state, 1, {"type": "end_turn"}, "Not now: the table is choosing the cards in secret")
    refused(state, 1, {"type": "roll"}, "Not now")
    refused(ready(2, difficulty="intermediate"), 2, {"type": "end_turn"},
            "Not now: the table is rolling the dice of the round")


def test_every_round_of_play_round_still_works_with_the_free_move():
    state = placed(ready(2), {1: (0, 1), 2: (0, 2)})
    state = play_round(state)
    assert state["round"]["number"] == 2


# --- components named as the phones name them ------------------------------------------------------

def test_a_printable_sheet_labels_the_components_the_box_does_not_name(client):
    page = client.get("/rayman/labels?lang=en").get_data(as_text=True)
    assert page.count('class="label"') == 22 + 4 * 3 + 4
    assert "Extra action card n°22" in page and "Seabreather: attack card n°3" in page
    assert "Captive Ptizêtre n°4" in page
    french = client.get("/rayman/labels?lang=fr").get_data(as_text=True)
    assert "Carte Action supplémentaire n°22" in french and "Ptizêtre captif n°4" in french


# --- whom the table waits on, and a deadline that passes --------------------------------------------

def test_the_table_waits_on_the_right_seats_in_each_step():
    state = start_round(ready(3))
    assert sorted(wait["seat"] for wait in GAME.waiting(state)) == [1, 2, 3]
    state = lock(state, 1, ("b1", "b2"))
    assert sorted(wait["seat"] for wait in GAME.waiting(state)) == [2, 3]
    state = lock(lock(state, 2, ("b1", "b2")), 3, ("b1", "b2"))
    assert [wait["for"] for wait in GAME.waiting(state)] == ["revealing the chosen cards"] * 3
    state = turns(3)
    assert [(wait["seat"], wait["timed"]) for wait in GAME.waiting(state)] == [(active(state), False)]


def test_an_unanswered_offer_lapses_when_its_deadline_passes():
    state = coop_with_bonus()
    mover = active(state)
    other = next(seat for seat in (1, 2, 3) if seat != mover)
    state = act(state, mover, {"type": "give_bonus", "to": other})
    assert (other, True) in [(wait["seat"], wait["timed"]) for wait in GAME.waiting(state)]
    state, events = GAME.on_timeout(state, other, rng(5))
    assert of_type(events, "bonus_declined") and state["round"]["offer"] is None
    assert GAME.on_timeout(state, mover, rng(5)) == (state, [])  # nothing else lapses by itself


# --- issue 25: projectiles, damage, the final round and the projectile card -------------------------

HIT_BY_10 = {"type": "hurt", "cause": "projectile", "projectile": 10}


def test_rule_a_projectile_waits_at_the_round_end_for_the_hit_of_a_player_who_keeps_no_position():
    # « Si un Projectile actif croise le chemin d'un joueur, le joueur perd son Jeton Cœur, s'il en a un, ou
    # subit un dégât. Dans les deux cas, le Jeton Projectile est retiré du plateau. »
    state = with_projectiles(turns(2, difficulty="intermediate"), [(5, 2, 21)])  # its path ends off the board
    state = ended_turns(state)
    assert state["phase"] == "round_end" and [p["column"] for p in state["projectiles"]] == [5]
    assert {wait["seat"] for wait in view(state, None)["waiting"]} == {1, 2}
    assert HIT_BY_10 in legal_actions(state, 2) and {"type": "no_hit"} in legal_actions(state, 2)
    state, events = act_events(state, 2, HIT_BY_10)  # still on the board: the hit is reported
    assert of_type(events, "projectile_hit") == [{"type": "projectile_hit", "id": 10, "seat": 2}]
    assert state["projectiles"] == [] and state["round"]["number"] == 2  # nothing left to move: the round ends
    refused(turns(2), 1, {"type": "no_hit"}, "Not now")


def test_rule_a_projectile_nobody_reports_moves_once_every_player_without_a_position_spoke():
    # « Les Projectiles lancés depuis la colonne 21 ➡ terminent leur mouvement sur la ligne de départ »
    state = ended_turns(with_projectiles(turns(2, difficulty="intermediate"), [(5, 2, 21)]))
    state = act(state, 1, {"type": "no_hit"})
    refused(state, 1, {"type": "no_hit"}, "Nothing waits for you")
    assert state["phase"] == "round_end" and view(state, None)["waiting"][0]["seat"] == 2
    state, events = act_events(state, 2, {"type": "no_hit"})
    assert of_type(events, "projectile_removed") == [{"type": "projectile_removed", "id": 10}]
    assert state["round"]["number"] == 2


@pytest.mark.parametrize("unkept_hit", [True, False])
def test_rule_with_some_positions_kept_the_first_player_on_the_path_is_hit(unkept_hit):
    # « Si un Projectile actif croise le chemin d'un joueur [...] le Jeton Projectile est retiré du plateau »:
    # Ben keeps no position and stands at column 18, before Ana (column 15) on the projectile's path
    state = placed(turns(3, difficulty="intermediate"), {1: (15, 2), 3: (30, 1)})
    state = ended_turns(with_projectiles(state, [(21, 2, 21)]))
    assert [wait["seat"] for wait in view(state, None)["waiting"]] == [2]
    state, events = act_events(state, 2, HIT_BY_10 if unkept_hit else {"type": "no_hit"})
    hits = of_type(events, "projectile_hit")
    assert hits == [{"type": "projectile_hit", "id": 10, "seat": 2 if unkept_hit else 1}]
    assert player(state, 1)["position"] == ({"column": 15, "level": 2} if unkept_hit else {"column": 13, "level": 2})
    assert state["projectiles"] == []


def test_rule_damage_that_lands_a_player_on_a_projectile_removes_it():
    # « Votre immunité temporaire vous protège si vous vous retrouvez sur un Projectile (retirez-le du jeu) »
    state = with_projectiles(placed(turns(2, difficulty="intermediate"), {1: (15, 1), 2: (30, 1)}),
                             [(13, 1, 21), (13, 2, 21)])
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert {"type": "moved", "seat": 1, "column": 13, "level": 1} in events
    assert of_type(events, "projectile_removed") == [{"type": "projectile_removed", "id": 10}]
    assert [p["id"] for p in state["projectiles"]] == [11]  # the other level's stays


def test_rule_a_hit_from_the_final_rounds_free_move_changes_the_ranking():
    # « S'il contient un Ennemi, le joueur peut toujours s'y déplacer, mais perdra son Jeton Cœur ou subira un
    # dégât » — and « À la fin du round, le joueur ayant franchi la plus grande distance [...] remporte la course »
    state = with_ptizetres(placed(turns(3), {1: (20, 1), 2: (20, 2), 3: (43, 1)}), 3)
    state = ended_turns(act(state, 3, {"type": "step", "direction": "forward"}))  # the final round
    state = act(state, 1, {"type": "free_move", "level": 1})  # column 21, onto an enemy
    assert state["outcome"] is None and [wait["seat"] for wait in view(state, None)["waiting"]] == [1]
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert of_type(events, "damaged") and player(state, 1)["position"]["column"] == 19
    ranking = [(entry["seat"], entry["place"]) for entry in state["result"]["ranking"]]
    assert ranking == [(3, 1), (2, 2), (1, 3)]


def roll(state, die):
    return act_events(state, HOST, {"type": "roll"}, ScriptedRng(("", die), fallback=rng(0)))


@pytest.mark.parametrize("die, this_round", [(2, True), (6, False)])
def test_rule_a_ce_round_ci_line_applies_from_the_roll_and_not_at_the_round_end(die, this_round):
    # « Certaines cartes peuvent inclure des effets continus qui restent actifs tout au long du round. Ces effets
    # seront identifiés avec la note : « CE ROUND-CI ». » — the Missile's line 2 reads « Tous les Ennemis ont
    # maintenant besoin de 1 🦋 supplémentaire pour être vaincus CE ROUND-CI »
    state = placed(ready(2, difficulty="custom", projectile="missile"), {1: (0, 1), 2: (0, 1)})
    state, events = roll(state, die)
    at_roll = of_type(events, "projectile_card_effect")
    assert at_roll == ([{"type": "projectile_card_effect", "card": "missile", "line": 2, "this_round": True}]
                       if this_round else [])
    state, events = end_round(choose_all(state, {1: ("b1", "b2"), 2: ("b3", "b4")}))
    at_end = of_type(events, "projectile_card_effect")
    assert at_end == ([] if this_round else [{"type": "projectile_card_effect", "card": "missile", "line": die}])


# --- figures moved by others: never onto another figure, never through a wall (rules 12, 99, 106, 107) ------

def shared_spaces(state):
    """Spaces that hold two kept positions of racers (the book lets a move end on none)."""
    spaces = [(p["position"]["column"], p["position"]["level"]) for p in state["players"]
              if p["position"] is not None and not p["crossed"]]
    return {space for space in spaces if spaces.count(space) > 1}


@pytest.mark.parametrize("ana, ben, landing", [
    ((12, 1), (11, 1), (12, 2)),  # directly above Ana
    ((12, 3), (11, 3), (12, 2)),  # nothing above level 3: directly below
])
def test_rule_a_figure_pushed_onto_another_players_space_goes_above_below_or_behind_it(ana, ben, landing):
    # « vous devez placer votre figurine dans un espace vide directement au-dessus, en dessous ou derrière ce
    # dernier »: Barbara slaps Ben from behind, onto Ana's space
    state = placed(turns(3), {1: ana, 2: ben, 3: (ben[0] - 1, ben[1])})
    state, events = act_events(state, 3, {"type": "slap", "target": 2})
    assert {"type": "moved", "seat": 2, "column": landing[0], "level": landing[1]} in events
    assert player(state, 1)["position"] == {"column": ana[0], "level": ana[1]} and not shared_spaces(state)


def test_rule_a_figure_pushed_onto_a_full_column_goes_behind_it():
    # « Si ces espaces sont également occupés [...], déplacez votre figurine vers un espace vide plus loin en
    # arrière »: Dan slaps Chloé onto column 12, where Ana and Ben hold levels 1 and 2 and level 0 is no level
    state = placed(turns(4), {1: (12, 1), 2: (12, 2), 3: (11, 1), 4: (9, 1)})
    assert active(state) == 4
    state = act(state, 4, {"type": "slap", "target": 3})
    assert player(state, 3)["position"] == {"column": 11, "level": 1} and not shared_spaces(state)


def test_rule_the_bubble_mode_float_ends_on_a_space_no_other_figure_holds():
    # « Avance automatiquement de 4 espaces, chaque tour, au niveau de son choix », and never onto a figure
    state = placed(coop_turns(), {1: (10, 2), 2: (14, 2)})
    state["round"]["order"] = [1, 2]
    player(state, 1)["bubble_mode"] = True
    state = act(state, 1, {"type": "end_turn"})
    assert player(state, 1)["position"] == {"column": 14, "level": 3} and not shared_spaces(state)


def test_rule_the_boss_puts_a_player_with_a_heart_on_a_free_space_below_above_or_behind_it():
    # « le joueur perd le Jeton et déplace sa figurine dans un espace situé en dessous, au-dessus ou derrière
    # le Boss »: Ben already stands behind it
    state = boss_at(placed(coop_turns(), {1: (15, 2), 2: (14, 2)}), 10, 2)
    player(state, 1)["heart"] = True
    state, events = end_round(state)
    assert of_type(events, "heart_lost") and player(state, 1)["position"] == {"column": 15, "level": 3}
    assert not shared_spaces(state)


def wall_push(heart, barbara=(10, 1)):
    """Barbara slaps Ben (column 11, level 1), who holds a heart or not; Ana is far away."""
    state = placed(turns(3), {1: (30, 1), 2: (11, 1), 3: barbara})
    player(state, 2)["heart"] = heart
    return act(state, 3, {"type": "slap", "target": 2})


def test_rule_a_figure_pushed_against_a_wall_with_a_heart_loses_it_and_stays_on_its_space():
    # « Si vous êtes poussé contre un Mur et que vous avez un Jeton Cœur, vous le perdez. Les Murs étant
    # infranchissables, vous restez sur votre espace actuel. »
    state = wall_push(heart=True)
    assert player(state, 2)["position"] == {"column": 12, "level": 1}  # the companion cannot see the wall
    state, events = act_events(state, 2, {"type": "hurt", "cause": "wall"})
    assert of_type(events, "heart_lost") and not player(state, 2)["heart"]
    assert player(state, 2)["position"] == {"column": 11, "level": 1}


def test_rule_a_figure_pushed_forward_against_a_wall_without_a_heart_goes_two_back_from_its_space():
    # « Si vous n'avez pas de Jeton Cœur, cependant, votre personnage subit un dégât et doit donc reculer de
    # deux espaces »: from column 11, where the wall stopped the push (Barbara holds column 10)
    state, events = act_events(wall_push(heart=False), 2, {"type": "hurt", "cause": "wall"})
    assert of_type(events, "damaged") and player(state, 2)["position"] == {"column": 9, "level": 1}


def test_rule_a_figure_pushed_back_against_a_wall_without_a_heart_does_not_go_through_it():
    # « Si vous êtes poussé vers l'arrière contre un Mur et que vous n'avez pas de Jeton Cœur, vous subissez un
    # dégât normalement [...] comme vous ne pouvez pas traverser le Mur, aucun mouvement [...] ne se produit. »
    state = wall_push(heart=False, barbara=(12, 1))  # slapped from the front: pushed back
    state, events = act_events(state, 2, {"type": "hurt", "cause": "wall"})
    assert of_type(events, "damaged") and player(state, 2)["immune"]
    assert player(state, 2)["position"] == {"column": 11, "level": 1}


def test_rule_a_wall_reported_after_the_player_moved_the_figure_undoes_no_push():
    state = act(wall_push(heart=False), 2, {"type": "step", "direction": "forward"})  # column 13 now
    state = act(state, 2, {"type": "hurt", "cause": "wall"})
    assert player(state, 2)["position"] == {"column": 11, "level": 1}  # two back from 13


# --- the finish line (rule 95) ----------------------------------------------------------------------

def test_rule_past_the_finish_line_a_player_no_longer_slaps():
    # « Après avoir franchi la ligne d'arrivée, vous ne pouvez plus utiliser d'Action Gifle. »
    state = act(with_ptizetres(turns(3), 3), 3, {"type": "crossed"})
    refused(state, 3, {"type": "slap", "target": 2}, "Past the finish line you can no longer slap")
    assert not any(action["type"] == "slap" for action in legal_actions(state, 3))


# --- solo (rule 142) ----------------------------------------------------------------------------------

def test_rule_solo_the_lone_player_is_last_and_makes_the_free_move():
    # « Lorsque vous jouez en solo, les mêmes règles s'appliquent, sauf qu'il n'y a pas de mode Bulle » — and
    # « le joueur en dernière place sur le plateau peut déplacer sa figurine d'un espace vers l'avant »
    state = start_round(placed(ready(1, mode="solo", boss_move=4), {1: (3, 1)}))
    state = ended_turns(choose_all(state, {1: tuple(player(state, 1)["hand"][:2])}))
    assert state["phase"] == "round_end" and view(state, None)["free_mover"] == 1
    state = act(state, 1, {"type": "free_move", "level": 2})
    assert player(state, 1)["position"] == {"column": 4, "level": 2} and state["round"]["number"] == 2
    unkept = start_round(ready(1, mode="solo", boss_move=4))  # the figure moves on the board: nothing to wait for
    unkept = ended_turns(choose_all(unkept, {1: tuple(player(unkept, 1)["hand"][:2])}))
    assert unkept["round"]["number"] == 2
