"""Mario Universalis cards: each rule the companion keeps, named after it
(the rule book `universalis.fr.txt`)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.games.base import HOST, IllegalAction
from tests.random_play import CONFIGS, play
from tests.rules import ScriptedRng

GAME = get_game("universalis")
ANA, BO = 1, 2
SEATS = [{"id": ANA, "name": "Ana", "figures": []}, {"id": BO, "name": "Bo", "figures": []}]


def new_duel(**options) -> dict:
    """Ana plays first (the draw says so)."""
    return GAME.setup(GAME.normalize_options(options), SEATS, ScriptedRng(("who plays first", 0)))


def act(state, seat, action):
    return GAME.apply(state, seat, action, ScriptedRng())


def do(state, seat, *actions):
    for action in actions:
        state, _ = act(state, seat, action)
    return state


def refused(state, seat, action, complaint):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        act(state, seat, action)
    assert complaint in str(error.value)
    assert state == before


NEXT = {"type": "next"}


def to_phase(state, phase):
    """The active player taps "next" until the phase is reached."""
    for _ in range(20):
        if state["phase"] == phase:
            return state
        state = do(state, state["active"], NEXT)
    raise AssertionError(f"never reached {phase}")


def character(name="Goomba", cost=2, pf=1, pc=4, **more):
    return {"type": "play", "card": {"kind": "character", "name": name, "cost": cost, "pf": pf, "pc": pc, **more}}


def coins(state, seat):
    return state["players"][str(seat)]["coins"]


def card(state, name):
    return next(c for c in state["in_play"] if c["name"] == name)


def third_turn(**options):
    """Global turn 2, Ana's turn, first preparation phase (nobody has attacked yet)."""
    state = new_duel(**options)
    state = to_phase(state, "end")
    state = do(state, ANA, NEXT)  # Bo's turn 2
    state = to_phase(state, "end")
    state = do(state, BO, NEXT)  # Ana's turn 3
    return to_phase(state, "prep1")


# The turn ------------------------------------------------------------------------
def test_who_plays_first_is_drawn_by_the_table():
    state = GAME.setup(GAME.normalize_options({}), SEATS, ScriptedRng(("who plays first", 1)))
    assert state["active"] == BO and state["order"] == [BO, ANA]


def test_phases_follow_the_books_order_and_the_active_phone_moves_them():
    state = new_duel()
    seen = [state["phase"]]
    for _ in range(6):
        state = do(state, ANA, NEXT)
        seen.append(state["phase"])
    assert seen == ["start", "refill", "draw", "prep1", "attackers", "prep2", "end"]
    state = do(state, ANA, NEXT)
    assert state["phase"] == "start" and state["active"] == BO and state["turn"] == 2


def test_only_the_active_player_moves_to_the_next_phase():
    refused(new_duel(), BO, NEXT, "It is Ana's turn")


def test_a_global_turn_is_both_players_turns():
    state = to_phase(do(to_phase(new_duel(), "end"), ANA, NEXT), "end")
    assert GAME.view(state, ANA)["global_turn"] == 1
    state = do(state, BO, NEXT)
    assert state["turn"] == 3 and GAME.view(state, ANA)["global_turn"] == 2


def test_renflouage_gives_6_coins_except_in_the_first_global_turn():
    state = new_duel()
    state = to_phase(state, "draw")
    assert coins(state, ANA) == 6  # the starting coins only
    state = to_phase(do(to_phase(state, "end"), ANA, NEXT), "draw")
    assert coins(state, BO) == 6  # turn 2 is still the first global turn
    state = to_phase(do(to_phase(state, "end"), BO, NEXT), "draw")
    assert coins(state, ANA) == 12


def test_the_first_player_does_not_draw_in_the_first_turn_the_second_does():
    state = to_phase(new_duel(), "prep1")
    assert state["players"][str(ANA)]["deck"] == 35
    state = to_phase(do(to_phase(state, "end"), ANA, NEXT), "prep1")
    assert state["players"][str(BO)]["deck"] == 34


def test_drawing_from_an_empty_deck_loses_an_empty_deck_alone_does_not():
    state = do(new_duel(), ANA, {"type": "deck_count", "count": 0})
    assert GAME.outcome(state) is None  # empty, but nobody drew
    state = do(state, ANA, {"type": "draw"})
    assert GAME.outcome(state) == {"winners": [BO], "reason": "%(loser)s drew from an empty deck: %(winner)s wins.",
                                   "params": {"loser": "Ana", "winner": "Bo"}, "ranking": [[BO], [ANA]]}
    refused(state, BO, NEXT, "The game is over")


def test_the_draw_phase_from_an_empty_deck_loses():
    state = to_phase(do(to_phase(new_duel(), "end"), ANA, NEXT), "refill")
    state = do(state, BO, {"type": "deck_count", "count": 0}, NEXT)
    assert GAME.outcome(state)["winners"] == [ANA]


def test_nobody_can_attack_in_the_first_global_turn():
    state = to_phase(do(to_phase(new_duel(), "prep1"), ANA, character()), "attackers")
    refused(state, ANA, {"type": "attack", "attackers": [card(state, "Goomba")["id"]]}, "first global turn")


# Coins and Super Stars ----------------------------------------------------------
def test_a_super_star_costs_20_coins():
    state = third_turn()
    refused(state, ANA, {"type": "star"}, "costs 20 coins and you have 12")
    state = do(state, ANA, {"type": "coins", "seat": ANA, "delta": 8}, {"type": "star"})
    assert state["players"][str(ANA)]["stars"] == 1 and coins(state, ANA) == 0


def test_at_most_one_super_star_per_turn():
    state = do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50}, {"type": "star"})
    refused(state, ANA, {"type": "star"}, "Only one Super Star")


def test_a_super_star_only_in_the_first_preparation_phase():
    state = to_phase(do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50}), "prep2")
    refused(state, ANA, {"type": "star"}, "first preparation phase only")


def test_the_third_super_star_wins_at_once():
    state = do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50})
    state["players"][str(ANA)]["stars"] = 2
    state, events = act(state, ANA, {"type": "star"})
    assert events[-1] == {"type": "star", "seat": ANA, "stars": 3, "wins": True}
    assert GAME.outcome(state)["winners"] == [ANA] and GAME.outcome(state)["reason"] == "%(winner)s gathered three Super Stars."
    assert GAME.outcome(state)["params"]["winner"] == "Ana"


def test_coins_never_go_below_zero_unless_a_card_allows_it():
    state = new_duel()
    refused(state, ANA, {"type": "coins", "seat": BO, "delta": -7}, "cannot go below 0: Bo has 6")
    state, events = act(state, ANA, {"type": "coins", "seat": BO, "delta": -7, "override": True})
    assert coins(state, BO) == -1 and events[0] == {"type": "override", "seat": ANA, "rules": ["no_debt"]}


# Characters ----------------------------------------------------------------------
def test_playing_a_card_pays_its_cost_from_the_coins():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(cost=4))
    assert coins(state, ANA) == 2 and card(state, "Goomba")["pc"] == 4


def test_a_card_costing_more_than_the_coins_is_refused():
    refused(to_phase(new_duel(), "prep1"), ANA, character(cost=7), "costs 7 and you have 6")


def test_putting_a_card_into_play_is_free():
    state = do(to_phase(new_duel(), "prep1"), ANA, {**character(cost=8), "free": True})
    assert coins(state, ANA) == 6


def test_only_one_character_per_turn():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(cost=1))
    refused(state, ANA, character("Koopa", cost=1), "Only one Character")
    state = do(state, ANA, {"type": "play", "card": {"kind": "powerup", "name": "Champignon", "cost": 1}})
    assert [c["name"] for c in state["in_play"]] == ["Goomba", "Champignon"]


def test_cards_are_played_in_the_preparation_phases_only():
    refused(to_phase(new_duel(), "refill"), ANA, character(cost=1), "preparation phases")
    refused(to_phase(new_duel(), "prep1"), BO, character(cost=1), "preparation phases")


def test_an_action_card_goes_to_the_graveyard_once_played():
    state = do(to_phase(new_duel(), "prep1"), ANA, {"type": "play", "card": {"kind": "action", "name": "Éclair", "cost": 3}})
    assert state["in_play"] == [] and state["players"][str(ANA)]["graveyard"] == ["Éclair"]


def test_each_ability_of_a_card_once_per_turn():
    state = do(to_phase(new_duel(), "prep1"), ANA, character())
    goomba = card(state, "Goomba")["id"]
    state = do(state, ANA, {"type": "ability", "card": goomba, "ability": 1})
    refused(state, ANA, {"type": "ability", "card": goomba, "ability": 1}, "once per turn")
    state = do(state, ANA, {"type": "ability", "card": goomba, "ability": 2})
    state = to_phase(do(to_phase(state, "end"), ANA, NEXT), "end")
    state = to_phase(do(state, BO, NEXT), "prep1")
    assert do(state, ANA, {"type": "ability", "card": goomba, "ability": 1})  # a new turn, a new use


def test_only_your_own_cards_abilities():
    state = do(to_phase(new_duel(), "prep1"), ANA, character())
    state = to_phase(do(to_phase(state, "end"), ANA, NEXT), "prep1")
    refused(state, BO, {"type": "ability", "card": card(state, "Goomba")["id"], "ability": 1}, "your own cards")


def test_pc_never_above_max_and_ko_at_zero_never_below():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(pc=4))
    goomba = card(state, "Goomba")["id"]
    state = do(state, BO, {"type": "change", "card": goomba, "pc": 3})
    assert card(state, "Goomba")["pc"] == 4
    state, events = act(state, BO, {"type": "change", "card": goomba, "pc": -9})
    assert state["in_play"] == [] and events[-1]["type"] == "ko"
    assert state["players"][str(ANA)]["graveyard"] == ["Goomba"]


def test_lowering_max_pc_lowers_current_pc_too():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(name="Rex", pc=6, pf=2))
    rex = card(state, "Rex")["id"]
    state = do(state, ANA, {"type": "change", "card": rex, "max_pc": -2, "base_pf": 3})
    assert card(state, "Rex")["max_pc"] == 4 and card(state, "Rex")["pc"] == 4
    assert card(state, "Rex")["base_pf"] == 5 and card(state, "Rex")["pf"] == 5


def test_pf_gained_in_a_turn_return_to_base_between_turns():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(pf=2))
    goomba = card(state, "Goomba")["id"]
    state = do(state, ANA, {"type": "change", "card": goomba, "pf": 3})
    assert card(state, "Goomba")["pf"] == 5
    state = do(to_phase(state, "end"), ANA, NEXT)
    assert card(state, "Goomba")["pf"] == 2 and card(state, "Goomba")["base_pf"] == 2


def test_the_hero_rule_removes_every_card_of_that_name_from_the_game():
    state = do(to_phase(new_duel(starting_coins=30), "prep1"), ANA, character("Mario", cost=3))
    state = to_phase(do(to_phase(state, "end"), ANA, NEXT), "prep1")
    state = do(state, BO, {"type": "coins", "seat": BO, "delta": 10}, character("MARIO", cost=5, types=["Héros"]))
    assert state["in_play"] == []
    assert state["players"][str(ANA)]["removed"] == ["Mario"] and state["players"][str(BO)]["removed"] == ["MARIO"]
    assert state["players"][str(ANA)]["graveyard"] == []


def test_a_hero_alone_stays_in_play():
    state = do(to_phase(new_duel(), "prep1"), ANA, character("Mario", cost=3, hero=True))
    assert card(state, "Mario")["hero"] is True


def test_you_sacrifice_only_what_you_control():
    state = do(to_phase(new_duel(), "prep1"), ANA, character())
    goomba = card(state, "Goomba")["id"]
    refused(state, BO, {"type": "sacrifice", "card": goomba}, "only sacrifice cards you control")
    state = do(state, ANA, {"type": "sacrifice", "card": goomba})
    assert state["players"][str(ANA)]["graveyard"] == ["Goomba"]


# Combat ---------------------------------------------------------------------------
def duel_with_armies(sharing="split"):
    """Ana has Koopa (PF 3, PC 5) and Goomba (PF 2, PC 4); Bo has Boo (PF 1, PC 3) and Bill (PF 2, PC 2);
    it is Ana's turn 3, at the attackers' declaration."""
    state = new_duel(starting_coins=20, sharing=sharing)
    state = do(to_phase(state, "prep1"), ANA, character("Koopa", cost=1, pf=3, pc=5))
    state = do(to_phase(state, "end"), ANA, NEXT)
    state = do(to_phase(state, "prep1"), BO, character("Boo", cost=1, pf=1, pc=3))
    state = do(to_phase(state, "end"), BO, NEXT)
    state = do(to_phase(state, "prep1"), ANA, character("Goomba", cost=1, pf=2, pc=4))
    state = do(state, BO, {"type": "play", "card": {"kind": "character", "name": "Bill", "cost": 0, "pf": 2, "pc": 2},
                            "free": True, "override": True})
    return to_phase(state, "attackers")


def ids(state, *names):
    return [card(state, name)["id"] for name in names]


def test_a_combat_two_attackers_one_blocked_by_two_one_unblocked():
    state = duel_with_armies()
    koopa, goomba, boo, bill = ids(state, "Koopa", "Goomba", "Boo", "Bill")
    before_ana, before_bo = coins(state, ANA), coins(state, BO)
    state = do(state, ANA, {"type": "attack", "attackers": [koopa, goomba]})
    assert state["phase"] == "blockers" and GAME.waiting(state)[0]["seat"] == BO
    state = do(state, BO, {"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    assert state["phase"] == "sharing"
    refused(state, ANA, {"type": "share", "shares": {str(koopa): {str(boo): 1, str(bill): 1}}}, "add up to its 3 PF")
    state, events = act(state, ANA, {"type": "share", "shares": {str(koopa): {str(boo): 3, str(bill): 0}}})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["losses"] == {str(koopa): 3, str(boo): 3, str(bill): 0}
    assert card(state, "Koopa")["pc"] == 2 and card(state, "Bill")["pc"] == 2
    assert {e["name"] for e in events if e["type"] == "ko"} == {"Boo"}
    assert coins(state, ANA) == before_ana + 2 and coins(state, BO) == before_bo - 1  # Goomba passed
    assert state["phase"] == "prep2"


def test_with_each_blocker_taking_the_whole_pf_the_damage_needs_no_sharing():
    state = duel_with_armies(sharing="each")
    koopa, boo, bill = ids(state, "Koopa", "Boo", "Bill")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state, events = act(state, BO, {"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    assert state["phase"] == "prep2"
    assert {e["name"] for e in events if e["type"] == "ko"} == {"Boo", "Bill"}
    assert card(state, "Koopa")["pc"] == 2


def test_fighters_strike_at_the_same_time_and_may_all_be_ko():
    state = duel_with_armies()
    goomba, bill = ids(state, "Goomba", "Bill")
    state = do(state, ANA, {"type": "attack", "attackers": [goomba]})
    state = do(state, BO, {"type": "block", "blocks": {str(bill): goomba}})
    assert "Bill" not in [c["name"] for c in state["in_play"]] and card(state, "Goomba")["pc"] == 2


def test_unblocked_attackers_pay_their_pf_in_one_sum_and_cost_one_coin_each():
    state = duel_with_armies()
    koopa, goomba = ids(state, "Koopa", "Goomba")
    ana, bo = coins(state, ANA), coins(state, BO)
    state, events = act(do(state, ANA, {"type": "attack", "attackers": [koopa, goomba]}), BO,
                        {"type": "block", "blocks": {}})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["coins_won"] == 5 and coins(state, ANA) == ana + 5 and coins(state, BO) == bo - 2


def test_a_blocker_blocks_one_of_the_attackers():
    state = duel_with_armies()
    koopa, goomba, boo = ids(state, "Koopa", "Goomba", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    refused(state, BO, {"type": "block", "blocks": {str(boo): goomba}}, "one of the attackers")
    refused(state, BO, {"type": "block", "blocks": {str(koopa): koopa}}, "your own Characters")
    refused(state, ANA, {"type": "block", "blocks": {}}, "The defender declares")


def test_the_defender_may_play_action_cards_and_abilities_while_declaring_blockers():
    state = duel_with_armies()
    koopa, boo = ids(state, "Koopa", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state = do(state, BO, {"type": "play", "card": {"kind": "action", "name": "POW", "cost": 1}},
               {"type": "ability", "card": boo, "ability": 1})
    refused(state, BO, character("Toad", cost=0), "Action cards also while you declare blockers")


def test_only_your_own_characters_attack():
    state = duel_with_armies()
    refused(state, ANA, {"type": "attack", "attackers": ids(state, "Boo")}, "Only your own Characters")


# Cards override the rules -----------------------------------------------------------
def test_a_card_that_allows_it_overrides_any_rule_and_the_opponent_is_told():
    state = do(to_phase(new_duel(), "prep1"), ANA, character(cost=1))
    state, events = act(state, ANA, {**character("Koopa", cost=9), "override": True})
    assert events[0] == {"type": "override", "seat": ANA, "rules": ["one_character", "coins"]}
    assert GAME.view(state, BO)["history"][-2]["type"] == "override"


def test_an_override_cannot_make_up_a_card_that_is_not_in_play():
    refused(new_duel(), ANA, {"type": "sacrifice", "card": 99, "override": True}, "no such card")


# Deck lists ---------------------------------------------------------------------------
def test_a_deck_holds_at_most_four_cards_of_the_same_name_whatever_their_variant():
    names = ["Goomba"] * 2 + ["goomba"] * 3 + ["Yoshi Vert"]
    refused(new_duel(), ANA, {"type": "deck_list", "names": names}, "at most 4 cards of the same name: Goomba ×5")
    state, events = act(new_duel(), ANA, {"type": "deck_list", "names": ["Goomba"] * 4 + ["Yoshi Vert"]})
    assert events[-1] == {"type": "deck_checked", "seat": ANA, "cards": 5}


def test_a_deck_list_stays_on_its_owners_phone():
    state = do(new_duel(), ANA, {"type": "deck_list", "names": ["Goomba", "Yoshi Vert"]})
    assert GAME.view(state, ANA)["deck_list"] == ["Goomba", "Yoshi Vert"]
    assert GAME.view(state, BO)["deck_list"] is None and GAME.view(state, None)["deck_list"] is None


# The table's hooks -----------------------------------------------------------------------
def test_a_player_who_leaves_loses_by_forfeit():
    state, events = GAME.withdraw(new_duel(), BO, ScriptedRng())
    assert GAME.outcome(state)["winners"] == [ANA] and events == [{"type": "forfeit", "seat": BO}]


def test_the_game_waits_on_the_defender_with_a_deadline_while_blockers_are_declared():
    state = do(duel_with_armies(), ANA, {"type": "attack", "attackers": ids(duel_with_armies(), "Koopa")})
    assert GAME.waiting(state) == [{"seat": BO, "for": "declaring blockers", "params": {}, "timed": True}]
    assert GAME.proxy_actions == {"no_block"}  # the host may decide no blockers, never which
    state = do(state, BO, {"type": "no_block"})
    assert state["phase"] == "prep2"


def test_the_history_is_on_both_phones_and_the_host_screen():
    state = do(to_phase(new_duel(), "prep1"), ANA, character())
    for viewer in (ANA, BO, HOST, None):
        assert any(e["type"] == "played" for e in GAME.view(state, viewer)["history"])


@pytest.mark.parametrize("action, complaint", [
    ({"type": "shuffle"}, "Unknown action"),
    ({"type": "play", "card": "Goomba"}, "as printed"),
    ({"type": "play", "card": {"kind": "spell", "name": "x", "cost": 1}}, "a character, an action"),
    ({"type": "play", "card": {"name": "Goomba", "cost": -1, "pf": 1, "pc": 1}}, "whole number"),
    ({"type": "play", "card": {"name": "\u202egoomba", "cost": 1, "pf": 1, "pc": 1}}, "control characters"),
    ({"type": "change", "card": 1, "pc": 0}, "no such card"),
    ({"type": "coins", "seat": 9, "delta": 1}, "whose coins"),
    ({"type": "coins", "seat": ANA, "delta": True}, "how many coins"),
    ({"type": "attack", "attackers": "all"}, "Not now"),
])
def test_bad_input_is_refused_and_changes_nothing(action, complaint):
    refused(to_phase(new_duel(), "prep1"), ANA, action, complaint)


def test_the_host_screen_plays_no_card():
    refused(to_phase(new_duel(), "prep1"), HOST, character(), "Only a player")


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.integers(0, 10_000), config=st.sampled_from(CONFIGS["universalis"]))
def test_random_legal_duels_raise_nothing_and_coins_never_go_below_zero(picks, config):
    """The random-play harness checks the kernel's promises and, at every step, the duel's
    invariants: coins and decks never negative (no override is ever picked), PC within 0..max."""
    walk = play(GAME, config, picks)
    assert GAME.outcome(walk.state) is not None
