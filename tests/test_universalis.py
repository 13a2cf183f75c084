"""Mario Universalis cards: each rule the companion keeps, named after it
(the rule book `universalis.fr.txt`)."""

from __future__ import annotations

import copy

import pytest

from companion.games import get_game
from companion.games.base import HOST, IllegalAction
from tests.rules import ScriptedRng

GAME = get_game("universalis")
ANA, BO = 1, 2
SEATS = [{"id": ANA, "name": "Ana", "figures": []}, {"id": BO, "name": "Bo", "figures": []}]


def new_duel(**options) -> dict:
    """Ana plays first (the draw says so)."""
    return GAME.setup(GAME.normalize_options(options), SEATS, ScriptedRng(("first_player", 0)))


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
END_TURN = {"type": "end_turn"}


def to_phase(state, phase):
    """The active player taps "next" until the phase is reached."""
    for _ in range(20):
        if state["phase"] == phase:
            return state
        state = do(state, state["active"], NEXT)
    raise AssertionError(f"never reached {phase}")


def pass_turn(state):
    """The active player ends the turn; the other player's first preparation then (the phases between pass)."""
    return do(to_phase(state, "prep2") if state["phase"] == "attackers" else state, state["active"], END_TURN)


def stopping_everywhere(state):
    """Both players chose to stop in every phase that would pass by itself."""
    for seat in (ANA, BO):
        state = do(state, seat, {"type": "stops", "stops": ["start", "refill", "draw", "end", "damage", "attackers"]})
    return state


def character(name="Goomba", cost=2, pf=1, pc=4, **more):
    return {"type": "play", "card": {"kind": "character", "name": name, "cost": cost, "pf": pf, "pc": pc, **more}}


def coins(state, seat):
    return state["players"][str(seat)]["coins"]


def card(state, name):
    return next(c for c in state["in_play"] if c["name"] == name)


def third_turn(**options):
    """Global turn 2, Ana's turn, first preparation phase (nobody has attacked yet)."""
    return pass_turn(pass_turn(new_duel(**options)))


# The turn ------------------------------------------------------------------------
def test_who_plays_first_is_drawn_by_the_table():
    # The book is silent on who starts: by default the table's fair draw says.
    state = GAME.setup(GAME.normalize_options({}), SEATS, ScriptedRng(("first_player", 1)))
    assert state["active"] == BO and state["order"] == [BO, ANA]


@pytest.mark.parametrize("first, starter", [("first_seat", ANA), ("second_seat", BO)])
def test_who_plays_first_is_a_table_option(first, starter):
    rng = ScriptedRng()  # no draw is expected: the script fails on one
    state = GAME.setup(GAME.normalize_options({"first": first}), SEATS, rng)
    assert state["active"] == starter and rng.draws == []


def test_phases_follow_the_books_order_and_the_active_phone_moves_them():
    # « Début du tour, Phase de renflouage, Phase de pioche, Phase de préparation, Phase de combat,
    # Seconde phase de préparation, Fin du tour »
    state = stopping_everywhere(pass_turn(pass_turn(new_duel())))
    state = pass_turn(state)  # Ana ends turn 3 at the end phase (she stops there), then Bo's turn 4 stops at its start
    state = do(state, ANA, NEXT)
    seen = [state["phase"]]
    for _ in range(6):
        state = do(state, BO, NEXT)
        seen.append(state["phase"])
    assert seen == ["start", "refill", "draw", "prep1", "attackers", "prep2", "end"]
    state = do(state, BO, NEXT)
    assert state["phase"] == "start" and state["active"] == ANA and state["turn"] == 5


def test_start_refill_draw_and_end_pass_by_themselves():
    # « En pratique, on les passe sans s'en rendre compte : le début et la fin du tour, on s'en fout les 90% du
    # temps tandis que la pioche et le renflouage sont instinctives. »
    state = new_duel()
    assert state["phase"] == "prep1"  # the first turn's start, refill and draw passed
    state, events = act(state, ANA, END_TURN)
    assert state["phase"] == "prep1" and state["active"] == BO
    assert [e["type"] for e in events] == ["turn", "no_refill", "drew"]


def test_a_card_that_acts_at_the_start_of_the_turn_stops_the_turn_there():
    # « Au début de votre tour, les Personnages non-{M} et non-{R} que vous contrôlez perdent {PC}{PC}. »
    # (Sables Trop Mouvants): the start waits for its controller.
    terrain = {"type": "play", "card": {"kind": "terrain", "name": "Sables Trop Mouvants", "cost": 6,
                                        "stops": ["start"]}}
    state = pass_turn(pass_turn(do(new_duel(), ANA, terrain)))
    assert state["phase"] == "start" and state["active"] == ANA
    assert do(state, ANA, NEXT)["phase"] == "prep1"
    sands = card(state, "Sables Trop Mouvants")["id"]
    # The card no longer asks: the start passes at once.
    assert do(state, ANA, {"type": "card_stops", "card": sands, "stops": []})["phase"] == "prep1"


def test_a_player_can_always_stop_in_a_phase():
    state = do(new_duel(), BO, {"type": "stops", "stops": ["draw"]})
    state = pass_turn(state)
    assert state["phase"] == "draw" and state["active"] == BO
    assert do(state, BO, NEXT)["phase"] == "prep1"


def test_an_ordinary_turn_takes_three_taps_or_fewer():
    from bench.universalis_taps import measure
    taps = measure(8)
    assert taps["ordinary_turn"] <= 3 and taps["defender"] <= 1, taps


def test_only_the_active_player_moves_to_the_next_phase():
    refused(new_duel(), BO, NEXT, "It is Ana's turn")
    refused(new_duel(), BO, END_TURN, "It is Ana's turn")


def test_a_global_turn_is_both_players_turns():
    # « un tour global de jeu est composé du tour d'un joueur et du tour de son adversaire »
    state = pass_turn(new_duel())
    assert GAME.view(state, ANA)["global_turn"] == 1
    state = pass_turn(state)
    assert state["turn"] == 3 and GAME.view(state, ANA)["global_turn"] == 2


def test_rule_a_game_is_two_players():
    # « Une partie se compose de 2 Joueurs » : two phones, one phone and a name, or two names on the host screen.
    assert GAME.seat_limits(GAME.normalize_options({})) == (2, 2)
    for names, seats in (([], SEATS), (["Bo"], SEATS[:1]), (["Ana", "Bo"], [])):
        options = GAME.normalize_options({"opponent": names})
        assert GAME.seat_limits(options) == (len(seats), len(seats))
        assert len(GAME.setup(options, seats, ScriptedRng(("first_player", 0)))["order"]) == 2


def test_rule_players_have_no_life_points():
    # « les joueurs n'ont pas de point de vie » : a player keeps coins, Super Stars and cards; an attacker that
    # passes earns coins and costs one, it never wounds the player.
    state = new_duel()
    assert set(state["players"][str(ANA)]) == {"coins", "stars", "deck", "graveyard", "hand", "removed", "decked",
                                               "forfeit", "stops"}


def test_renflouage_gives_6_coins_except_in_the_first_global_turn():
    # « Le joueur gagne 6 pièces, sauf si c'est le premier tour global »
    state = new_duel()
    assert coins(state, ANA) == 6  # the starting coins only
    state = pass_turn(state)
    assert coins(state, BO) == 6  # turn 2 is still the first global turn
    state = pass_turn(state)
    assert coins(state, ANA) == 12


def test_the_first_player_does_not_draw_in_the_first_turn_the_second_does():
    # « Le joueur pioche une carte de son deck, sauf si c'est le premier tour de jeu »
    state = new_duel()
    assert state["players"][str(ANA)]["deck"] == 35
    state = pass_turn(state)
    assert state["players"][str(BO)]["deck"] == 34


def test_drawing_from_an_empty_deck_loses_an_empty_deck_alone_does_not():
    # « Si un joueur devrait piocher une carte alors que son deck est vide, il perd la partie. »
    state = do(new_duel(), ANA, {"type": "deck_count", "count": 0})
    assert GAME.outcome(state) is None  # empty, but nobody drew
    state = do(state, ANA, {"type": "draw"})
    assert GAME.outcome(state) == {"winners": [BO], "reason": "%(loser)s drew from an empty deck: %(winner)s wins.",
                                   "params": {"loser": "Ana", "winner": "Bo"}, "ranking": [[BO], [ANA]]}
    refused(state, BO, NEXT, "The game is over")


def test_the_draw_phase_from_an_empty_deck_loses():
    state = do(new_duel(), BO, {"type": "deck_count", "count": 0})
    state, events = act(state, ANA, END_TURN)
    assert GAME.outcome(state)["winners"] == [ANA]
    assert {"type": "drew_from_empty_deck", "seat": BO} in events


def test_nobody_can_attack_in_the_first_global_turn_and_the_combat_passes():
    # « On ne peut pas attaquer durant le premier tour global. »
    state = do(new_duel(), ANA, character())
    refused(state, ANA, {"type": "attack", "attackers": [card(state, "Goomba")["id"]]}, "first global turn")
    assert do(state, ANA, NEXT)["phase"] == "prep2"


# Coins and Super Stars ----------------------------------------------------------
def test_a_super_star_costs_20_coins():
    # « Il peut aussi acheter une Super Etoile contre 20 pièces »
    state = third_turn()
    refused(state, ANA, {"type": "star"}, "costs 20 coins and you have 12")
    state = do(state, ANA, {"type": "coins", "seat": ANA, "delta": 8}, {"type": "star"})
    assert state["players"][str(ANA)]["stars"] == 1 and coins(state, ANA) == 0


def test_at_most_one_super_star_per_turn():
    # « à raison d'une maximum par tour »
    state = do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50}, {"type": "star"})
    refused(state, ANA, {"type": "star"}, "Only one Super Star")


def test_a_super_star_only_in_the_first_preparation_phase():
    # « Seconde phase de préparation : les mêmes actions [...] EXCEPTE acheter une Super Etoile. »
    state = to_phase(do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50}), "prep2")
    refused(state, ANA, {"type": "star"}, "first preparation phase only")


def test_rule_the_second_preparation_plays_cards_and_abilities_as_the_first():
    # « Seconde phase de préparation : Le joueur peut effectuer les mêmes actions que lors de la première »
    state = to_phase(do(third_turn(), ANA, character()), "prep2")
    goomba = card(state, "Goomba")["id"]
    state = do(state, ANA, {"type": "ability", "card": goomba, "ability": 1},
               {"type": "play", "card": {"kind": "powerup", "name": "Champignon", "cost": 1}})
    assert [c["name"] for c in state["in_play"]] == ["Goomba", "Champignon"] and card(state, "Goomba")["used"] == [1]
    refused(state, ANA, character("Koopa", cost=1), "Only one Character")  # the first preparation's one counts


def test_the_third_super_star_wins_at_once():
    # « Si la Super Etoile achetée est la troisième qu'il collecte, il gagne la partie ! »
    state = do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 50})
    state["players"][str(ANA)]["stars"] = 2
    state, events = act(state, ANA, {"type": "star"})
    assert events[-1] == {"type": "star", "seat": ANA, "stars": 3, "given": False, "card": None, "wins": True}
    assert GAME.outcome(state)["winners"] == [ANA] and GAME.outcome(state)["reason"] == "%(winner)s gathered three Super Stars."
    assert GAME.outcome(state)["params"]["winner"] == "Ana"


def test_a_super_star_given_by_a_card_costs_nothing_and_is_not_the_turns_purchase():
    # « TOUTES les règles du jeu sont écrasées par les capacités des cartes » : a card gives a Super Star.
    state = do(third_turn(), ANA, {"type": "coins", "seat": ANA, "delta": 8}, {"type": "star"})
    state, events = act(state, ANA, {"type": "star", "given": True, "by_card": "Étoile filante"})
    assert state["players"][str(ANA)]["stars"] == 2 and coins(state, ANA) == 0
    assert events[-1]["given"] is True and events[-1]["card"] == "Étoile filante"


def test_coins_never_go_below_zero_unless_a_card_allows_it():
    state = new_duel()
    refused(state, ANA, {"type": "coins", "seat": BO, "delta": -7}, "cannot go below 0: Bo has 6")
    state, events = act(state, ANA, {"type": "coins", "seat": BO, "delta": -7, "override": True})
    assert coins(state, BO) == -1 and events[0] == {"type": "override", "seat": ANA, "rules": ["no_debt"], "card": None}


# Characters ----------------------------------------------------------------------
def test_playing_a_card_pays_its_cost_from_the_coins():
    # « "Jouer une carte" signifie "Payer son coût et la mettre en jeu". »
    state = do(new_duel(), ANA, character(cost=4))
    assert coins(state, ANA) == 2 and card(state, "Goomba")["pc"] == 4


def test_a_card_costing_more_than_the_coins_is_refused():
    refused(new_duel(), ANA, character(cost=7), "costs 7 and you have 6")


def test_putting_a_card_into_play_is_free():
    # « si on vous demande de mettre une carte en jeu, c'est gratuit ! »
    state = do(new_duel(), ANA, {**character(cost=8), "free": True})
    assert coins(state, ANA) == 6


def test_rule_a_card_that_lets_you_play_another_still_makes_you_pay_it():
    # « si une carte vous autorise à en jouer une autre, il faut la payer ! »
    state = do(new_duel(), ANA, character(cost=1))
    state, events = act(state, ANA, {**character("Koopa", cost=2), "override": True, "by_card": "Tuyau"})
    assert events[0]["rules"] == ["one_character"] and coins(state, ANA) == 3


def test_rule_a_cards_colour_does_not_change_its_cost():
    # « La couleur d'une carte n'affecte pas la manière de la jouer : il faut toujours payer le nombre de pièces
    # indiqué » ; the colours stay on the card in play, for the abilities that name them (« non-{M} et non-{W} »).
    sands = {"type": "play", "card": {"kind": "terrain", "name": "Sables Trop Mouvants", "cost": 6,
                                      "colours": ["M", "W"]}}
    state = do(new_duel(), ANA, sands)
    assert coins(state, ANA) == 0 and card(state, "Sables Trop Mouvants")["colours"] == ["M", "W"]


def test_putting_into_play_is_not_playing_the_turns_character():
    # « "Mettre en jeu" une carte, c'est la poser sur le plateau de jeu » ; « Il n'est possible de jouer qu'un seul
    # Personnage par tour. » Régime de Bananes: « Mettez en jeu un Personnage {G} de votre main. »
    bananas = {"type": "play", "card": {"kind": "action", "name": "Régime de Bananes", "cost": 0}}
    state = do(new_duel(), ANA, character(cost=1), bananas)
    state, events = act(state, ANA, {**character("Wario", cost=5), "free": True})
    assert [e["type"] for e in events] == ["put_into_play"] and card(state, "Wario")["controller"] == ANA
    assert coins(state, ANA) == 5  # only the Goomba was paid


def test_putting_into_play_while_blocking_breaks_no_rule():
    state = duel_with_armies()
    state = do(state, ANA, {"type": "attack", "attackers": ids(state, "Koopa")})
    bananas = {"type": "play", "card": {"kind": "action", "name": "Régime de Bananes", "cost": 0}}
    state, events = act(do(state, BO, bananas), BO, {**character("Wario", cost=5), "free": True})
    assert "override" not in [e["type"] for e in events] and card(state, "Wario")["controller"] == BO


def test_only_one_character_per_turn():
    # « Il n'est possible de jouer qu'un seul Personnage par tour. »
    state = do(new_duel(), ANA, character(cost=1))
    refused(state, ANA, character("Koopa", cost=1), "Only one Character")
    state = do(state, ANA, {"type": "play", "card": {"kind": "powerup", "name": "Champignon", "cost": 1}})
    assert [c["name"] for c in state["in_play"]] == ["Goomba", "Champignon"]


def test_cards_are_played_in_the_preparation_phases_only():
    # « vous pouvez jouer vos cartes et/ou leurs capacités que lors de vos deux phases de préparations »
    state = do(new_duel(), ANA, {"type": "stops", "stops": ["end"]})
    refused(do(state, ANA, END_TURN), ANA, character(cost=1), "preparation phases")
    refused(new_duel(), BO, character(cost=1), "preparation phases")


def test_rule_abilities_are_used_in_the_preparation_phases_only():
    # « vous pouvez jouer vos cartes et/ou leurs capacités que lors de vos deux phases de préparations »
    state = do(new_duel(), ANA, character(), {"type": "stops", "stops": ["end"]})
    goomba = card(state, "Goomba")["id"]
    refused(do(state, ANA, END_TURN), ANA, {"type": "ability", "card": goomba, "ability": 1}, "preparation phases")
    state = do(state, BO, {"type": "stops", "stops": ["draw"]})
    state = do(do(state, ANA, END_TURN), ANA, NEXT)
    assert state["phase"] == "draw" and state["active"] == BO
    refused(state, ANA, {"type": "ability", "card": goomba, "ability": 1}, "preparation phases")


def test_an_action_card_goes_to_the_graveyard_once_played():
    # The book is silent on where a played Action goes: its owner's graveyard.
    state = do(new_duel(), ANA, {"type": "play", "card": {"kind": "action", "name": "Éclair", "cost": 3}})
    assert state["in_play"] == [] and state["players"][str(ANA)]["graveyard"] == ["Éclair"]


def test_each_ability_of_a_card_once_per_turn():
    # « on ne peut utiliser qu'une fois la même capacité d'une même carte par tour de jeu »
    state = do(new_duel(), ANA, character())
    goomba = card(state, "Goomba")["id"]
    state = do(state, ANA, {"type": "ability", "card": goomba, "ability": 1})
    refused(state, ANA, {"type": "ability", "card": goomba, "ability": 1}, "once per turn")
    offered = [a["ability"] for a in GAME.view(state, ANA)["legal"] if a["type"] == "ability" and a["card"] == goomba]
    assert offered == [2]  # ability 2 stays on the phone once ability 1 was used
    state = do(state, ANA, {"type": "ability", "card": goomba, "ability": 2})
    state = pass_turn(pass_turn(state))
    assert do(state, ANA, {"type": "ability", "card": goomba, "ability": 1})  # a new turn, a new use


def test_only_your_own_cards_abilities():
    state = pass_turn(do(new_duel(), ANA, character()))
    refused(state, BO, {"type": "ability", "card": card(state, "Goomba")["id"], "ability": 1}, "your own cards")


def test_pc_never_above_max_and_ko_at_zero_never_below():
    # « si un Personnage gagne des PC, il ne peut pas en avoir plus que son total maximum » ; « Si le total de PC
    # devient égal à 0 (il ne peut pas être inférieur à 0 !), le personnage est mis KO. »
    state = do(new_duel(), ANA, character(pc=4))
    goomba = card(state, "Goomba")["id"]
    state = do(state, BO, {"type": "change", "card": goomba, "pc": 3})
    assert card(state, "Goomba")["pc"] == 4
    state, events = act(state, BO, {"type": "change", "card": goomba, "pc": -9})
    assert state["in_play"] == [] and events[-1]["type"] == "ko"
    assert state["players"][str(ANA)]["graveyard"] == ["Goomba"]


def test_lowering_max_pc_lowers_current_pc_too():
    # « Le total max de PC de Rex baisse de 2 » ; « Si [...] le total de PC devient supérieur au total max de PC,
    # on l'abaisse aussitôt ! »
    state = do(new_duel(), ANA, character(name="Rex", pc=6, pf=2))
    rex = card(state, "Rex")["id"]
    state = do(state, ANA, {"type": "change", "card": rex, "max_pc": -2, "base_pf": 3})
    assert card(state, "Rex")["max_pc"] == 4 and card(state, "Rex")["pc"] == 4
    assert card(state, "Rex")["base_pf"] == 5 and card(state, "Rex")["pf"] == 5


def test_a_permanent_change_of_base_pf_and_max_pc_lasts_between_turns():
    # « sa deuxième capacité permet donc d'augmenter son total de base de PF, ce qui permet en clair d'augmenter
    # définitivement sa force ! Mais en diminuant définitivement sa vie... »
    state = do(new_duel(), ANA, character(name="Rex", pc=6, pf=2))
    rex = card(state, "Rex")["id"]
    state = pass_turn(do(state, ANA, {"type": "change", "card": rex, "max_pc": -2, "base_pf": 1}))
    assert (card(state, "Rex")["pf"], card(state, "Rex")["base_pf"], card(state, "Rex")["max_pc"]) == (3, 3, 4)
    offered = {tuple(sorted(k for k in a if k in ("max_pc", "base_pf"))) for a in GAME.view(state, ANA)["legal"]
               if a["type"] == "change" and a["card"] == rex}
    assert ("base_pf", "max_pc") in offered


def test_pf_gained_in_a_turn_return_to_base_between_turns():
    # « le total de PF d'un Personnage revient à son total de base entre chaque tour de jeu »
    state = do(new_duel(), ANA, character(pf=2))
    goomba = card(state, "Goomba")["id"]
    state = do(state, ANA, {"type": "change", "card": goomba, "pf": 3})
    assert card(state, "Goomba")["pf"] == 5
    state = pass_turn(state)
    assert card(state, "Goomba")["pf"] == 2 and card(state, "Goomba")["base_pf"] == 2


def test_rule_lost_pc_lower_the_current_total_and_stay_lost_between_turns():
    # « quand un Personnage perd des PC, il s'agit bien de son total de PC qui diminue, pas son total maximum » ;
    # « le total de PC ne change pas entre les tours : quand un PC est perdu, il est perdu ! Les Personnages ne
    # peuvent se soigner que via les effets de certaines cartes »
    state = do(new_duel(), ANA, character(pc=4))
    goomba = card(state, "Goomba")["id"]
    state = pass_turn(pass_turn(do(state, BO, {"type": "change", "card": goomba, "pc": -3})))
    assert (card(state, "Goomba")["pc"], card(state, "Goomba")["max_pc"]) == (1, 4)
    state = do(state, ANA, {"type": "change", "card": goomba, "pc": 2})  # a card heals it
    assert card(state, "Goomba")["pc"] == 3


def test_the_hero_rule_removes_every_card_of_that_name_from_the_game():
    # « si un Héros arrive en jeu alors qu'une (ou plusieurs) autre carte ayant le même nom est également en jeu,
    # elles sont retirées de la partie (pas envoyées au cimetière hein, retirées de la partie !) »
    state = pass_turn(do(new_duel(starting_coins=30), ANA, character("Mario", cost=3)))
    state = do(state, BO, {"type": "coins", "seat": BO, "delta": 10}, character("MARIO", cost=5, types=["Héros"]))
    assert state["in_play"] == []
    assert state["players"][str(ANA)]["removed"] == ["Mario"] and state["players"][str(BO)]["removed"] == ["MARIO"]
    assert state["players"][str(ANA)]["graveyard"] == []


def test_a_hero_alone_stays_in_play():
    state = do(new_duel(), ANA, character("Mario", cost=3, hero=True))
    assert card(state, "Mario")["hero"] is True


def test_a_card_that_becomes_a_hero_during_the_game_removes_its_namesakes():
    # « Si une carte devient de type Héros pendant la partie, la même règle s'applique, même si les autres de même
    # nom ne sont pas des Héros »
    state = pass_turn(do(new_duel(), ANA, character("Luigi", cost=1)))
    state = do(state, BO, character("Luigi", cost=1))
    assert len(state["in_play"]) == 2
    state, events = act(state, BO, {"type": "hero", "card": state["in_play"][1]["id"]})
    assert state["in_play"] == [] and events[-1]["type"] == "hero_rule"


def test_any_card_can_be_a_hero_and_have_types():
    # « N'importe quelle carte peut avoir le sous-type Héros, même si ce sont plus généralement des Personnages. »
    state = do(new_duel(), ANA, character("Peach", cost=1))
    event = {"type": "play", "card": {"kind": "event", "name": "Peach", "cost": 1, "types": ["Princesse", "Héros"]}}
    state = do(state, ANA, event)
    assert state["in_play"] == [] and state["players"][str(ANA)]["removed"] == ["Peach", "Peach"]


def test_you_sacrifice_only_what_you_control():
    # « Il n'est pas possible de sacrifier une carte contrôlée par l'adversaire »
    state = do(new_duel(), ANA, character())
    goomba = card(state, "Goomba")["id"]
    refused(state, BO, {"type": "sacrifice", "card": goomba, "asked_by": "Yoshi Vert"},
            "only sacrifice cards you control")
    state = do(state, ANA, {"type": "sacrifice", "card": goomba, "asked_by": "Yoshi Vert"})
    assert state["players"][str(ANA)]["graveyard"] == ["Goomba"]


def test_rule_a_card_is_sacrificed_only_when_another_card_asks_for_it():
    # « il n'est possible de sacrifier une carte que si une autre carte nous le demande, par un coût ou par l'effet
    # d'une capacité » : Yoshi Vert's Carap'Oeuf asks for a Carapace; its player names the card that asks.
    state = do(new_duel(), ANA, character("Koopa Troopa Rouge", cost=4, types=["Koopa", "Carapace"]))
    koopa = card(state, "Koopa Troopa Rouge")["id"]
    refused(state, ANA, {"type": "sacrifice", "card": koopa}, "only when another card asks for it")
    refused(state, ANA, {"type": "sacrifice", "card": koopa, "asked_by": ""}, "only when another card asks for it")
    refused(state, ANA, {"type": "sacrifice", "card": koopa, "asked_by": "\u202eYoshi"}, "control characters")
    state, events = act(state, ANA, {"type": "sacrifice", "card": koopa, "asked_by": "Yoshi Vert"})
    assert events == [{"type": "sacrificed", "seat": ANA, "card": koopa, "name": "Koopa Troopa Rouge",
                       "asked_by": "Yoshi Vert"}]
    assert state["in_play"] == [] and state["players"][str(ANA)]["graveyard"] == ["Koopa Troopa Rouge"]


# Combat ---------------------------------------------------------------------------
def duel_with_armies(sharing="split"):
    """Ana has Koopa (PF 3, PC 5) and Goomba (PF 2, PC 4); Bo has Boo (PF 1, PC 3) and Bill (PF 2, PC 2);
    it is Ana's turn 3, at the attackers' declaration."""
    state = new_duel(starting_coins=20, sharing=sharing)
    state = pass_turn(do(state, ANA, character("Koopa", cost=1, pf=3, pc=5)))
    state = pass_turn(do(state, BO, character("Boo", cost=1, pf=1, pc=3)))
    state = do(state, ANA, character("Goomba", cost=1, pf=2, pc=4))
    state = do(state, BO, {"type": "play", "card": {"kind": "character", "name": "Bill", "cost": 0, "pf": 2, "pc": 2},
                            "free": True})
    return to_phase(state, "attackers")


def ids(state, *names):
    return [card(state, name)["id"] for name in names]


def test_a_combat_two_attackers_one_blocked_by_two_one_unblocked():
    # « Un personnage peut être bloqué par plusieurs personnages. » (the book is silent on how they share its PF)
    state = duel_with_armies()
    koopa, goomba, boo, bill = ids(state, "Koopa", "Goomba", "Boo", "Bill")
    before_ana, before_bo = coins(state, ANA), coins(state, BO)
    state = do(state, ANA, {"type": "attack", "attackers": [koopa, goomba]})
    assert state["phase"] == "blockers" and GAME.waiting(state)[0]["seat"] == BO
    state = do(state, BO, {"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    assert state["phase"] == "sharing"
    refused(state, ANA, {"type": "share", "shares": {str(koopa): {str(boo): 1, str(bill): 1}}}, "add up to its 3 PF")
    state = do(state, ANA, {"type": "share", "shares": {str(koopa): {str(boo): 3, str(bill): 0}}})
    assert state["phase"] == "damage"  # Boo would be KO'd: the players see it first
    state, events = act(state, ANA, {"type": "deal"})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["losses"] == {str(koopa): 3, str(boo): 3, str(bill): 0}
    assert {(c["name"], c["loss"]) for c in combat["cards"]} == {("Koopa", 3), ("Boo", 3), ("Bill", 0)}
    assert card(state, "Koopa")["pc"] == 2 and card(state, "Bill")["pc"] == 2
    assert {e["name"] for e in events if e["type"] == "ko"} == {"Boo"}
    assert coins(state, ANA) == before_ana + 2 and coins(state, BO) == before_bo - 1  # Goomba passed
    assert state["phase"] == "prep2"


def test_with_each_blocker_taking_the_whole_pf_the_damage_needs_no_sharing():
    state = duel_with_armies(sharing="each")
    koopa, boo, bill = ids(state, "Koopa", "Boo", "Bill")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state = do(state, BO, {"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    assert state["phase"] == "damage"
    state, events = act(state, ANA, {"type": "deal"})
    assert state["phase"] == "prep2"
    assert {e["name"] for e in events if e["type"] == "ko"} == {"Boo", "Bill"}
    assert card(state, "Koopa")["pc"] == 2


def test_fighters_strike_at_the_same_time_and_may_all_be_ko():
    # « Les personnages d'un même combat s'attaquent en même temps, ils peuvent donc être tous mis KO »
    state = duel_with_armies()
    goomba, bill = ids(state, "Goomba", "Bill")
    state = do(state, ANA, {"type": "attack", "attackers": [goomba]})
    state = do(do(state, BO, {"type": "block", "blocks": {str(bill): goomba}}), ANA, {"type": "deal"})
    assert "Bill" not in [c["name"] for c in state["in_play"]] and card(state, "Goomba")["pc"] == 2


def test_unblocked_attackers_pay_their_pf_in_one_sum_and_cost_one_coin_each():
    # « son contrôleur gagne un nombre de pièces égal au total de PF de ce personnage et l'adversaire perd 1 pièce »
    # « vous perdez 1 pièce pour chaque personnage étant passé »
    state = duel_with_armies()
    koopa, goomba = ids(state, "Koopa", "Goomba")
    ana, bo = coins(state, ANA), coins(state, BO)
    state, events = act(do(state, ANA, {"type": "attack", "attackers": [koopa, goomba]}), BO,
                        {"type": "block", "blocks": {}})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["coins_won"] == 5 and coins(state, ANA) == ana + 5 and coins(state, BO) == bo - 2


def test_attacking_from_the_first_preparation_goes_to_the_combat():
    # « Seule la phase d'attaque doit être explicitement déclarée » : « JE T'ATTAQUE !!! »
    state = pass_turn(pass_turn(do(new_duel(), ANA, character("Koopa", cost=1, pf=3, pc=5))))
    assert state["phase"] == "prep1"
    state = do(state, ANA, {"type": "attack", "attackers": ids(state, "Koopa")})
    assert state["phase"] == "blockers" and state["combat"]["attackers"] == ids(state, "Koopa")


def test_a_damage_modifier_applies_before_the_ko_is_final():
    # Koopa Troopa Rouge: « A chaque fois que Koopa Troopa devrait perdre des {PC}, il perd {PC}{PC} de moins. »
    state = pass_turn(do(new_duel(starting_coins=20), ANA, character("Bill", cost=1, pf=4, pc=5)))
    red_koopa = {"kind": "character", "name": "Koopa Troopa Rouge", "cost": 4, "pf": 3, "pc": 4, "stops": ["damage"]}
    state = pass_turn(do(state, BO, {"type": "play", "card": red_koopa}))
    bill, koopa = ids(state, "Bill", "Koopa Troopa Rouge")
    state = do(state, ANA, {"type": "attack", "attackers": [bill]})
    state = do(state, BO, {"type": "block", "blocks": {str(koopa): bill}})
    assert state["phase"] == "damage" and state["combat"]["damage"]["losses"] == {str(bill): 3, str(koopa): 4}
    assert card(state, "Koopa Troopa Rouge")["pc"] == 4  # nothing is dealt yet
    refused(state, BO, {"type": "deal"}, "deals the damage")
    state = do(state, BO, {"type": "damage", "card": koopa, "delta": -2})
    state, events = act(state, ANA, {"type": "deal"})
    assert card(state, "Koopa Troopa Rouge")["pc"] == 2 and card(state, "Bill")["pc"] == 2
    assert "ko" not in [e["type"] for e in events] and state["phase"] == "prep2"


def test_a_ko_is_never_final_before_the_players_saw_it():
    # « Les personnages combattent comme il a été décidé et sont mis KO le cas échéant » and « A chaque fois que
    # Koopa Troopa devrait perdre des {PC}, il perd {PC}{PC} de moins » : no card marked, no stop chosen, the
    # damage that would KO Koopa Troopa Rouge (PC 4) blocking Bill (PF 4) waits for the players.
    state = pass_turn(do(new_duel(starting_coins=20), ANA, character("Bill", cost=1, pf=4, pc=5)))
    state = pass_turn(do(state, BO, character("Koopa Troopa Rouge", cost=4, pf=3, pc=4)))
    bill, koopa = ids(state, "Bill", "Koopa Troopa Rouge")
    state = do(state, ANA, {"type": "attack", "attackers": [bill]})
    state = do(state, BO, {"type": "block", "blocks": {str(koopa): bill}})
    assert state["phase"] == "damage" and state["combat"]["damage"]["losses"] == {str(bill): 3, str(koopa): 4}
    assert {"type": "deal"} in GAME.legal_actions(state, ANA)
    state = do(state, BO, {"type": "damage", "card": koopa, "delta": -2})
    state = do(state, ANA, {"type": "deal"})
    assert card(state, "Koopa Troopa Rouge")["pc"] == 2 and state["phase"] == "prep2"


def test_a_combat_that_kos_nobody_is_dealt_at_once():
    state = duel_with_armies()
    goomba, boo = ids(state, "Goomba", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [goomba]})
    state, events = act(state, BO, {"type": "block", "blocks": {str(boo): goomba}})  # Boo 3 PC - 2, Goomba 4 - 1
    assert state["phase"] == "prep2" and card(state, "Boo")["pc"] == 1 and card(state, "Goomba")["pc"] == 3
    assert any(e["type"] == "combat" for e in events)


def test_the_coins_won_are_changed_once_on_the_sum():
    # « les capacités modifiant le nombre de pièces gagnées ne s'applique donc qu'une fois et sur la somme totale »
    state = duel_with_armies()
    state = do(state, ANA, {"type": "stops", "stops": ["damage"]})
    state = do(state, ANA, {"type": "attack", "attackers": ids(state, "Koopa", "Goomba")})
    state = do(state, BO, {"type": "block", "blocks": {}})
    ana = coins(state, ANA)
    state = do(state, ANA, {"type": "damage", "what": "coins_won", "delta": 2}, {"type": "deal"})
    assert coins(state, ANA) == ana + 5 + 2


def test_rule_an_attacker_whose_blockers_left_play_was_still_blocked():
    # « Si un personnage n'a pas été bloqué, son contrôleur gagne [...] et l'adversaire perd 1 pièce » : Koopa was
    # blocked by Boo and Bill; a card takes both out of play while Ana shares its PF: Koopa earns nothing.
    state = duel_with_armies()
    koopa, boo, bill = ids(state, "Koopa", "Boo", "Bill")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state = do(state, BO, {"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    assert state["phase"] == "sharing"
    state = do(state, BO, {"type": "leave", "card": boo, "to": "graveyard"}, {"type": "leave", "card": bill, "to": "hand"})
    ana, bo = coins(state, ANA), coins(state, BO)
    state, events = act(state, ANA, {"type": "share", "shares": {}})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["passed"] == [] and combat["coins_won"] == 0 and combat["coins_lost"] == 0
    assert (coins(state, ANA), coins(state, BO), card(state, "Koopa")["pc"]) == (ana, bo, 5)
    assert state["phase"] == "prep2"


def test_a_blocker_blocks_one_of_the_attackers():
    # « Un personnage ne peut bloquer qu'un personnage. »
    state = duel_with_armies()
    koopa, goomba, boo = ids(state, "Koopa", "Goomba", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    refused(state, BO, {"type": "block", "blocks": {str(boo): goomba}}, "one of the attackers")
    refused(state, BO, {"type": "block", "blocks": {str(goomba): koopa}}, "your own Characters")
    refused(state, ANA, {"type": "block", "blocks": {}}, "The defender declares")


def test_a_character_can_block_only_one_character_unless_a_card_allows_it():
    # « Un personnage ne peut bloquer qu'un personnage. » — and « TOUTES les règles du jeu sont écrasées par les
    # capacités des cartes » : a card that lets a Character block two fights both, and deals its PF to each.
    state = duel_with_armies(sharing="each")
    koopa, goomba, boo = ids(state, "Koopa", "Goomba", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa, goomba]})
    refused(state, BO, {"type": "block", "blocks": {str(boo): [koopa, goomba]}}, "block only one Character")
    state, events = act(state, BO, {"type": "block", "blocks": {str(boo): [koopa, goomba]}, "override": True,
                                    "by_card": "Boo Géant"})
    assert events[0] == {"type": "override", "seat": BO, "rules": ["one_block"], "card": "Boo Géant"}
    assert state["phase"] == "damage"  # Boo (PC 3) would be KO'd by 3 + 2 PF
    assert state["combat"]["damage"]["losses"] == {str(koopa): 1, str(goomba): 1, str(boo): 5}
    state = do(state, ANA, {"type": "deal"})
    assert "Boo" not in [c["name"] for c in state["in_play"]] and card(state, "Goomba")["pc"] == 3


def test_the_defender_may_play_action_cards_and_abilities_while_declaring_blockers():
    # « vous pouvez jouer des cartes Action lorsque VOUS vous faites attaquer » ; « ceci vaut également pour les
    # capacités de vos cartes »
    state = duel_with_armies()
    koopa, boo = ids(state, "Koopa", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state = do(state, BO, {"type": "play", "card": {"kind": "action", "name": "POW", "cost": 1}},
               {"type": "ability", "card": boo, "ability": 1})
    refused(state, BO, character("Toad", cost=0), "Action cards also while you declare blockers")


def test_only_your_own_characters_attack():
    # « Le joueur peut attaquer son adversaire avec les personnages qu'il a en jeu. »
    state = duel_with_armies()
    refused(state, ANA, {"type": "attack", "attackers": ids(state, "Boo")}, "Only your own Characters")


# Cards override the rules -----------------------------------------------------------
def test_a_card_that_allows_it_overrides_any_rule_and_the_opponent_is_told():
    # « TOUTES les règles du jeu sont écrasées par les capacités des cartes : si une carte vous demande de faire
    # quelque chose interdit par les règles, c'est la carte qui a raison ! »
    state = do(new_duel(), ANA, character(cost=1))
    state, events = act(state, ANA, {**character("Koopa", cost=9), "override": True, "by_card": "Tuyau"})
    assert events[0] == {"type": "override", "seat": ANA, "rules": ["one_character", "coins"], "card": "Tuyau"}
    assert GAME.view(state, BO)["history"][-2]["type"] == "override"


def test_a_card_changes_the_order_of_the_phases():
    # The phase order is a rule like the others: a card may send the turn back to a second combat.
    state = duel_with_armies()
    state = do(state, ANA, {"type": "attack", "attackers": ids(state, "Goomba")}, )
    state = do(state, BO, {"type": "block", "blocks": {}})
    assert state["phase"] == "prep2"
    refused(state, ANA, {"type": "phase", "to": "attackers"}, "only a card changes it")
    state, events = act(state, ANA, {"type": "phase", "to": "attackers", "override": True, "by_card": "Double Dash"})
    assert state["phase"] == "attackers" and state["combat"] is None
    assert events[0] == {"type": "override", "seat": ANA, "rules": ["phase_order"], "card": "Double Dash"}
    assert do(state, ANA, {"type": "attack", "attackers": ids(state, "Koopa")})["phase"] == "blockers"


def test_a_card_changes_the_shape_of_a_combat():
    # A card makes a Character that does not fight lose PC in this combat, or a Character block for the other side.
    state = duel_with_armies()
    state = do(state, ANA, {"type": "stops", "stops": ["damage"]})
    koopa, goomba, boo = ids(state, "Koopa", "Goomba", "Boo")
    state = do(state, ANA, {"type": "attack", "attackers": [koopa]})
    state = do(state, BO, {"type": "block", "blocks": {str(boo): koopa}})
    refused(state, BO, {"type": "damage", "card": goomba, "delta": 2}, "not in this fight")
    state, events = act(state, BO, {"type": "damage", "card": goomba, "delta": 2, "override": True, "by_card": "POW"})
    assert events[0]["rules"] == ["combat_shape"]
    state = do(state, ANA, {"type": "deal"})
    assert card(state, "Goomba")["pc"] == 2


def test_an_override_cannot_make_up_a_card_that_is_not_in_play():
    refused(new_duel(), ANA, {"type": "sacrifice", "card": 99, "override": True}, "no such card")


# A die, a coin, the turn timer, the evening's cards ----------------------------------
def test_a_die_and_a_coin_come_from_the_tables_fair_draw():
    state, events = GAME.apply(new_duel(), BO, {"type": "roll", "what": "die"}, ScriptedRng(("card_die", 4)))
    assert events[-1] == {"type": "roll", "seat": BO, "what": "die", "result": 4} and state["roll"]["result"] == 4
    rng = ScriptedRng(("card_coin", 1))
    state, _ = GAME.apply(state, ANA, {"type": "roll", "what": "coin"}, rng)
    assert state["roll"] == {"seat": ANA, "what": "coin", "result": 1} and rng.draws[0]["hi"] == 1


def test_the_turn_timer_starts_when_a_turn_begins():
    state = GAME.setup(GAME.normalize_options({"turn_seconds": 90}), SEATS, ScriptedRng(("first_player", 0)))
    state = do(state, ANA, {**character(), "at": 990.0})
    assert GAME.view(state, BO)["turn_started"] == 990.0  # the first turn's timer starts with its first action
    state = do(state, ANA, {**END_TURN, "at": 1000.5})
    assert GAME.view(state, BO)["turn_started"] == 1000.5 and GAME.view(state, BO)["options"]["turn_seconds"] == 90


def test_cards_typed_once_are_kept_for_the_evening():
    state = do(new_duel(), ANA, character("Koopa Troopa Rouge", cost=4, pf=3, pc=4, other_name="Red Koopa Troopa"))
    assert GAME.view(state, BO)["catalogue"][-1]["other_name"] == "Red Koopa Troopa"
    again = GAME.setup(GAME.normalize_options({}) | {"memory": GAME.carry(state)}, SEATS,
                       ScriptedRng(("first_player", 0)))
    assert [c["name"] for c in again["catalogue"]] == ["Koopa Troopa Rouge"]


# One phone for the table ------------------------------------------------------------------
def test_one_phone_keeps_both_players_counters():
    # A pair without a second phone: the one seat plays for whoever the duel waits on.
    options = GAME.normalize_options({"opponent": ["Bo"], "first": "second_seat"})
    assert GAME.seat_limits(options) == (1, 1)
    state = GAME.setup(options, SEATS[:1], ScriptedRng())
    assert state["order"] == [-1, ANA] and state["names"]["-1"] == "Bo"  # the second player, Bo, plays first
    seen = GAME.view(state, ANA)
    assert seen["acting"] == -1 and seen["waiting"] == [{**GAME.waiting(state)[0], "seat": ANA}]
    assert {"type": "end_turn", "as": -1} in seen["legal"]
    state = do(state, ANA, {"type": "play", "card": character()["card"], "as": -1}, {"type": "end_turn", "as": -1})
    assert coins(state, -1) == 4 and card(state, "Goomba")["controller"] == -1
    assert state["active"] == ANA and GAME.view(state, ANA)["acting"] == ANA
    refused(state, ANA, {"type": "end_turn", "as": -1}, "It is Ana's turn")


def test_the_host_screen_keeps_both_players_counters_when_nobody_has_a_phone():
    # « a single phone (or the TV) keeps both players' counters »: two names, no seat; the host screen acts
    # for whoever the duel waits on; a phone's move from the host in an ordinary duel stays refused.
    options = GAME.normalize_options({"opponent": ["Ana", "Bo"], "first": "first_seat", "starting_coins": 20})
    assert GAME.seat_limits(options) == (0, 0)
    state = GAME.setup(options, [], ScriptedRng())
    assert state["order"] == [-1, -2] and state["names"] == {"-1": "Ana", "-2": "Bo"}
    seen = GAME.view(state, HOST)
    assert seen["host_plays"] and seen["acting"] == -1 and seen["waiting"] == [] and GAME.waiting(state) == []
    assert {"type": "end_turn", "as": -1} in seen["legal"] and GAME.host_acts(state)
    refused(state, HOST, {"type": "end_turn"}, "for which player")
    state = do(state, HOST, {**character(cost=1), "as": -1}, {"type": "end_turn", "as": -1})
    assert card(state, "Goomba")["controller"] == -1 and state["active"] == -2
    refused(state, HOST, {"type": "end_turn", "as": -1}, "It is Bo's turn")
    state = pass_turn_as_host(state)
    state = do(state, HOST, {"type": "attack", "attackers": [card(state, "Goomba")["id"]], "as": -1})
    assert GAME.view(state, HOST)["acting"] == -2  # the defender declares, on the same screen
    state = do(state, HOST, {"type": "block", "blocks": {}, "as": -2})
    assert coins(state, -1) == 19 + 6 + 1 and coins(state, -2) == 19


def pass_turn_as_host(state):
    return do(state, HOST, {"type": "end_turn", "as": state["active"]})


def test_the_host_screen_has_no_game_actions_when_the_players_have_phones():
    from companion.tables import Tables
    state = do(new_duel(), ANA, character())
    assert not GAME.host_acts(state) and GAME.view(state, HOST)["legal"] == []
    assert Tables._host_game_view({"host_seat": ANA, "state": state}, GAME, "seat", ANA) == {}
    refused(state, HOST, {"type": "end_turn", "as": ANA}, "Only a player")


def test_players_without_a_phone_need_different_names():
    with pytest.raises(IllegalAction, match="different names"):
        GAME.normalize_options({"opponent": ["Bo", "Bo"]})


def test_a_duel_saved_before_this_version_goes_on():
    """A table that was playing when the server was upgraded: its state lacks the new keys."""
    state = do(new_duel(), ANA, character())
    for key in ("catalogue", "roll", "turn_started"):
        del state[key]
    for counters in state["players"].values():
        del counters["stops"], counters["hand"]
    assert GAME.view(state, BO)["catalogue"] == []
    state = do(do(state, ANA, END_TURN), BO, character("Boo", cost=1))
    assert GAME.carry(state) == {"cards": [{**GAME.view(state, BO)["catalogue"][0]}]}


# Deck lists ---------------------------------------------------------------------------
def test_the_hand_is_a_zone_whose_count_the_phone_keeps():
    # « Il y a cinq zones de jeu sur le plateau » (the book does not list them: deck, hand, in play, graveyard,
    # out of the game are the phone's) and « Le joueur peut jouer des cartes de sa main ».
    state = new_duel(hand_size=1, starting_coins=20)
    hand = lambda state, seat: state["players"][str(seat)]["hand"]  # noqa: E731
    assert hand(state, ANA) == 1 and GAME.view(state, BO)["players"][str(ANA)]["hand"] == 1
    state = do(state, ANA, character())
    assert hand(state, ANA) == 0
    refused(state, ANA, {"type": "play", "card": {"kind": "action", "name": "Carapace verte", "cost": 1}},
            "played from your hand")
    state = do(state, ANA, {"type": "leave", "card": card(state, "Goomba")["id"], "to": "hand"})
    assert hand(state, ANA) == 1
    state = pass_turn(state)
    assert hand(state, BO) == 2  # Bo drew in the second turn
    state = do(state, BO, {"type": "hand_count", "count": 4})
    assert hand(state, BO) == 4 and state["history"][-1] == {"type": "hand_counted", "seat": BO, "hand": 4}
    state = do(state, BO, {"type": "play", "card": {"kind": "action", "name": "Carapace verte", "cost": 1}},
               {"type": "draw"})
    assert hand(state, BO) == 4


def test_a_deck_holds_at_most_four_cards_of_the_same_name_whatever_their_variant():
    # « il n'est pas permis d'avoir 2 Goombas verts et 3 Goombas marrons, car cela ferait un total de 5 Goombas »
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
    state = do(new_duel(), ANA, character())
    for viewer in (ANA, BO, HOST, None):
        assert any(e["type"] == "played" for e in GAME.view(state, viewer)["history"])


@pytest.mark.parametrize("action, complaint", [
    ({"type": "shuffle"}, "Unknown action"),
    ({"type": "play", "card": "Goomba"}, "as printed"),
    ({"type": "play", "card": {"kind": "spell", "name": "x", "cost": 1}}, "a character, an action"),
    ({"type": "play", "card": {"name": "Goomba", "cost": -1, "pf": 1, "pc": 1}}, "whole number"),
    ({"type": "play", "card": {"name": "\u202egoomba", "cost": 1, "pf": 1, "pc": 1}}, "control characters"),
    ({"type": "play", "card": {"name": "Goomba", "cost": 1, "pf": 1, "pc": 1, "stops": ["lunch"]}}, "asks to act"),
    ({"type": "play", "card": {"name": "Goomba", "cost": 1, "pf": 1, "pc": 1}, "override": True, "by_card": ""},
     "1 to 40 characters"),
    ({"type": "change", "card": 1, "pc": 0}, "no such card"),
    ({"type": "coins", "seat": 9, "delta": 1}, "whose coins"),
    ({"type": "coins", "seat": ANA, "delta": True}, "how many coins"),
    ({"type": "attack", "attackers": "all"}, "a list of different cards"),
    ({"type": "deal"}, "Not now"),
    ({"type": "roll", "what": "d20"}, "the die or toss the coin"),
    ({"type": "phase", "to": "lunch", "override": True}, "Say which phase"),
    ({"type": "stops", "stops": "draw"}, "where to stop"),
    ({"type": "hero", "card": 42}, "no such card"),
])
def test_bad_input_is_refused_and_changes_nothing(action, complaint):
    refused(new_duel(), ANA, action, complaint)


def test_the_host_screen_plays_no_card():
    refused(new_duel(), HOST, character(), "Only a player")
