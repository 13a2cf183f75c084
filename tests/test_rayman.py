"""Rayman's pure rules: setup, the draft, hands, secret choices, the order of play and the turns.

The helpers at the top are shared with the other ``test_rayman_*`` files.
"""

from __future__ import annotations

import copy
import json
from collections.abc import MutableMapping

import pytest

from companion.games.base import IllegalAction
from companion.games.rayman import (BOARDS, CHARACTERS, GAME, HOST, LEGENDARY_CARDS, commitment,
                                    die_level, legal_actions, view)
from companion.games.rayman.layout import PRIVATE
from companion.games.rayman.legal import sample_salt
from tests.rules import Rules

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred")
RULES = Rules(GAME, seed="cd" * 32)
rng, act, act_events, refused = RULES.rng, RULES.act, RULES.events, RULES.refused


def seats(count):
    return [{"id": number, "name": NAMES[number - 1], "figures": []} for number in range(1, count + 1)]


def new_game(players=2, **options):
    return GAME.setup(GAME.normalize_options(options), seats(players), rng())


def initiative(seat, index):
    """Distinct initiatives: card ``index`` of seat ``s`` is 9 * (index + 1) + s."""
    return 9 * (index + 1) + seat


def known_cards(state, values=None):
    """Every card's initiative as if the table had told it in an earlier game (the tests' shortcut for the
    questions of the first plays): ``values`` seat -> {card id: initiative}, else distinct ``initiative``s."""
    state = copy.deepcopy(state)
    for seat in players(state):
        told = (values or {}).get(seat["seat"], {})
        for index, card in enumerate(seat["cards"]):
            if card["id"] in told or card["initiative"] is None:
                card["initiative"] = told.get(card["id"], initiative(seat["seat"], index))
    return state


def through_setup(state, values=None, generator=None, known=True):
    """Characters, legendary cards, the draft (first card each time); with ``known``, every card's
    initiative (``known_cards``)."""
    generator = generator or rng(2000)
    if state["phase"] == "characters":
        for index, player in enumerate(state["players"]):
            name = CHARACTERS[index] if index < len(CHARACTERS) else f"Hero {index}"
            state = act(state, player["seat"], {"type": "character", "name": name}, generator)
    if state["phase"] == "legendary":
        for index, player in enumerate(state["players"]):
            state = act(state, player["seat"], {"type": "pick_legendary", "card": LEGENDARY_CARDS[index]}, generator)
    if state["phase"] == "draft" and state["youngest"] is None and len(state["players"]) > 1:
        state = act(state, HOST, {"type": "answer", "question": "youngest", "value": 1}, generator)
    while state["phase"] == "draft":
        draft = state["draft"]
        state = act(state, draft["order"][draft["turn"]], {"type": "pick", "card": draft["table"][0]}, generator)
    if known and not state["config"]["quick"]:
        state = known_cards(state, values)
    return state


def ready(players=2, values=None, known=True, **options):
    """A race at its first round (before the roll, or at the choice when nothing is rolled)."""
    return through_setup(new_game(players, **options), values, known=known)


SALT = "5eed" * 8  # what a phone's crypto.getRandomValues would give, fixed for the tests


def choice_of(pick):
    """``pick``: (left, second) or "bubble"; the choice as the phone commits it."""
    if pick == "bubble":
        return {"bubble": True, "left": None, "second": None}
    return {"bubble": False, "left": pick[0], "second": pick[1]}


def lock(state, seat, pick, salt=SALT, generator=None):
    return act(state, seat, {"type": "lock", "commitment": commitment(choice_of(pick), salt)}, generator)


def reveal(state, seat, pick, salt=SALT, generator=None):
    return act(state, seat, {"type": "reveal", "choice": choice_of(pick), "salt": salt}, generator)


def choose_all(state, picks, generator=None):
    """``picks``: seat -> (left, second) or "bubble"; every phone locks in, then every phone reveals."""
    generator = generator or rng(3000)
    for seat, pick in picks.items():
        state = lock(state, seat, pick, generator=generator)
    for seat, pick in picks.items():
        state = reveal(state, seat, pick, generator=generator)
    return state


class Seat(MutableMapping):
    """A player as the rules read them: the public part and the private part (``state["private"]``)."""

    def __init__(self, state, seat):
        self.public = next(p for p in state["players"] if p["seat"] == seat)
        self.private = state["private"].setdefault(str(seat), {})

    def part(self, key):
        return self.private if key in PRIVATE else self.public

    def __getitem__(self, key):
        return self.part(key)[key]

    def __setitem__(self, key, value):
        self.part(key)[key] = value

    def __delitem__(self, key):
        del self.part(key)[key]

    def __iter__(self):
        return iter({**self.public, **self.private})

    def __len__(self):
        return len({**self.public, **self.private})


def player(state, seat):
    return Seat(state, seat)


def players(state):
    return [Seat(state, p["seat"]) for p in state["players"]]


def place(state, seat, column, level=1):
    """Puts a figure somewhere (the tests' shortcut for many taps of the stepper)."""
    state = copy.deepcopy(state)
    player(state, seat)["position"] = {"column": column, "level": level}
    return state


ROUTINE_ANSWERS = {"second_tile": False, "spawn_hit": None, "boss_move": 5}


def start_round(state, answers=None):
    """Rolls (as the host) and answers the table's questions until the secret choice."""
    answers = {**ROUTINE_ANSWERS, **(answers or {})}
    while state["phase"] == "round_start":
        asked = view(state, None)["question"]
        if asked:
            value = answers[asked["key"]] if asked["key"] in answers else asked["choices"][0]
            state = act(state, HOST, {"type": "answer", "question": asked["key"], "value": value})
        else:
            state = act(state, HOST, {"type": "roll"})
    return state


def end_turns(state, answers=None):
    """Every remaining turn ends; the table's questions get routine answers (nobody hit, last in seat order)."""
    while state["phase"] == "turns":
        state = act(state, state["round"]["order"][state["round"]["turn"]], {"type": "end_turn"})
    return answer_round_end(state, answers)


def answer_round_end(state, answers=None):
    answers = answers or {}
    while state["phase"] == "round_end":
        shown = view(state, None)
        asked = shown["question"]
        if asked is None and shown["free_mover"] is None:  # nothing hit those the table waits for
            state = act(state, shown["waiting"][0]["seat"], {"type": "no_hit"})
            continue
        if asked is None:  # the last player's phone records the free move (``answers["free_move"]``: level)
            mover = shown["free_mover"]
            level = answers.get("free_move", {}).get(mover)
            state = act(state, mover, {"type": "free_move", "level": level} if level else {"type": "free_move",
                                                                                          "pass": True})
            continue
        if asked["key"] in answers:
            value = answers[asked["key"]]
        else:
            value = asked["choices"][:asked["count"]] if asked["key"] == "last" else None
        state = act(state, HOST, {"type": "answer", "question": asked["key"], "value": value})
    return state


# --- options and presets ------------------------------------------------------

def test_the_game_is_registered_with_its_seat_limits():
    assert GAME.id == "rayman" and GAME.min_seats == 1 and GAME.max_seats == 6
    assert HOST == "host" and GAME.host_actions == {"answer", "initiative", "next_race", "roll",
                                                    "ptizetre_colour"}


@pytest.mark.parametrize("difficulty, board, projectile, card, extras, legendary", [
    ("novice", "jungle", None, False, False, False),
    ("intermediate", "foret", "missile", False, True, False),
    ("hero", "fiesta", "fourchette", True, True, False),
    ("legend", "enfer", "fantome_rouge", True, True, True),
])
def test_each_difficulty_sets_what_the_book_says(difficulty, board, projectile, card, extras, legendary):
    config = new_game(difficulty=difficulty)["config"]
    assert (config["board"], config["projectile"], config["projectile_card"]) == (board, projectile, card)
    assert (config["extra_cards"], config["legendary"], config["boss"]) == (extras, legendary, None)
    assert new_game(difficulty=difficulty)["race"]["board"] == board


def test_hero_and_legend_may_take_any_board_and_projectile_card():
    config = new_game(difficulty="hero", board="jungle", projectile="feu_artifice")["config"]
    assert (config["board"], config["projectile"], config["projectile_card"]) == ("jungle", "feu_artifice", True)
    config = new_game(difficulty="legend", projectile="bombe_volante")["config"]
    assert config["projectile"] == "bombe_volante" and config["legendary"]


def test_custom_combines_a_board_a_projectile_card_and_the_modifiers():
    config = new_game(difficulty="custom", board="enfer", projectile="fourchette", captive_ptizetres=3,
                      damage_push=3, projectile_speed=9, limited_legendary="on", unlimited_slaps="on",
                      legendary="on", boss="grundermord", boss_move=7)["config"]
    assert (config["board"], config["projectile"], config["projectile_card"]) == ("enfer", "fourchette", True)
    assert (config["captives"], config["damage_push"], config["projectile_speed"]) == (3, 3, 9)
    assert config["limited_legendary"] and config["unlimited_slaps"] and config["legendary"]
    assert config["boss"] == "grundermord" and config["boss_move"] == 7 and config["mode"] == "competitive"
    plain = new_game(difficulty="custom")["config"]
    assert plain["projectile"] is None and not plain["extra_cards"] and plain["boss"] is None


@pytest.mark.parametrize("difficulty, boss, board", [
    ("novice", "crapaud_blinde", "jungle"), ("intermediate", "ptizetre_malefique", "foret"),
    ("hero", "seabreather", "fiesta"), ("legend", "grundermord", "enfer"),
])
def test_coop_pairs_each_difficulty_with_the_books_boss_and_board(difficulty, boss, board):
    config = new_game(2, mode="coop", difficulty=difficulty)["config"]
    assert (config["boss"], config["board"], config["projectile"]) == (boss, board, None)
    assert not config["extra_cards"] and not config["legendary"]  # optional modifiers in co-op


def test_coop_with_projectiles_and_competitive_with_a_boss_are_modifiers():
    config = new_game(2, mode="coop", projectile="missile")["config"]
    assert config["projectile"] == "missile" and config["boss"] == "crapaud_blinde"
    assert new_game(2, boss="seabreather")["config"]["boss"] == "seabreather"
    assert new_game(1, mode="solo", extra_cards="on", legendary="on")["config"]["extra_cards"]


@pytest.mark.parametrize("options, complaint", [
    ({"mode": "coop", "boss": "none"}, "against a Boss"),
    ({"projectile_card": "on"}, "needs projectiles"),
    ({"mode": "coop", "tournament": "on"}, "competitive"),
    ({"card_exchange": "on", "difficulty": "hero"}, "tournament variant"),
    ({"card_exchange": "on", "tournament": "on"}, "tournament variant"),
    ({"harsh_coop": "on"}, "co-op"),
    ({"difficulty": "impossible"}, "must be one of"),
    ({"damage_push": 4}, "from 2 to 3"),
    ({"projectile_speed": 10}, "from 8 to 9"),
    ({"captive_ptizetres": 2}, "from 3 to 4"),
    ({"boss_move": -1}, "from 0 to 20"),
])
def test_bad_options_are_refused(options, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options(options)


@pytest.mark.parametrize("options, count, accepted", [
    ({}, 1, False), ({}, 2, True), ({}, 4, True), ({}, 5, False),
    ({"players_5_6": "on"}, 5, True), ({"players_5_6": "on"}, 6, True),
    ({"mode": "coop"}, 1, False), ({"mode": "coop"}, 4, True), ({"mode": "coop", "players_5_6": "on"}, 5, False),
    ({"mode": "solo"}, 1, True), ({"mode": "solo"}, 2, False),
])
def test_player_counts_follow_the_mode(options, count, accepted):
    normalized = GAME.normalize_options(options)
    if accepted:
        assert len(GAME.setup(normalized, seats(count), rng())["players"]) == count
    else:
        with pytest.raises(IllegalAction, match="players"):
            GAME.setup(normalized, seats(count), rng())


def test_setup_draws_nothing_and_the_state_is_json():
    generator = rng()
    state = GAME.setup(GAME.normalize_options({"difficulty": "legend"}), seats(3), generator)
    assert generator.draws == [] and state["phase"] == "characters"
    assert json.loads(json.dumps(state)) == state


# --- characters and legendary cards ---------------------------------------------

def test_each_player_picks_a_character_or_a_free_name():
    state = new_game(3)
    state = act(state, 1, {"type": "character", "name": "rayman"})
    assert player(state, 1)["character"] == "Rayman"  # the book's spelling
    refused(state, 2, {"type": "character", "name": "RAYMAN"}, "already in the race")
    state = act(state, 2, {"type": "character", "name": "  Teensy   Queen "})
    assert player(state, 2)["character"] == "Teensy Queen" and state["phase"] == "characters"
    state = act(state, 1, {"type": "character", "name": "Globox"})  # a change of mind before the others
    state = act(state, 3, {"type": "character", "name": "Rayman"})
    assert state["phase"] == "choosing"  # no initiative to type before the race: each is asked when first played


@pytest.mark.parametrize("name", ["", "   ", "x" * 25])
def test_a_character_name_has_1_to_24_characters(name):
    refused(new_game(), 1, {"type": "character", "name": name}, "1 to 24")


def test_legend_mode_asks_every_player_for_a_different_legendary_card():
    state = new_game(2, difficulty="legend")
    state = act(act(state, 1, {"type": "character", "name": "Barbara"}), 2, {"type": "character", "name": "Globox"})
    assert state["phase"] == "legendary"
    refused(state, 1, {"type": "pick_legendary", "card": "ninja"}, "legendary cards are")
    state = act(state, 1, {"type": "pick_legendary", "card": "filou"})
    refused(state, 2, {"type": "pick_legendary", "card": "filou"}, "already holds")
    state = act(state, 2, {"type": "pick_legendary", "card": "grimpeur"})
    assert state["phase"] == "draft" and player(state, 2)["legendary"] == "grimpeur"


def test_legendary_cards_are_asked_only_when_in_play():
    state = new_game(2, difficulty="hero")
    state = act(act(state, 1, {"type": "character", "name": "Barbara"}), 2, {"type": "character", "name": "Globox"})
    assert state["phase"] == "draft"
    refused(state, 1, {"type": "pick_legendary", "card": "filou"}, "Not now: the table is drafting")


# --- the draft of extra action cards -------------------------------------------------

def at_draft(players=4, **options):
    state = new_game(players, difficulty="intermediate", **options)
    for index in range(players):
        state = act(state, index + 1, {"type": "character", "name": CHARACTERS[index % 4] + ("" if index < 4 else "!")})
    return state


def test_the_22_extra_cards_are_shuffled_in_secret():
    generator = rng(10)
    state = new_game(2, difficulty="intermediate")
    state = act(state, 1, {"type": "character", "name": "Rayman"}, generator)
    state = act(state, 2, {"type": "character", "name": "Globox"}, generator)
    shuffles = [draw for draw in generator.draws if draw["type"] == "shuffle"]
    assert len(shuffles) == 1 and shuffles[0]["secret"] and shuffles[0]["size"] == 22
    assert shuffles[0]["purpose"] == {"kind": "extra_cards_shuffle", "count": 22}
    assert sorted(state["secret"]["draft_deck"]) == list(range(1, 23))  # the deck in the table's secret
    for seat in (None, HOST, 1, 2):
        assert view(state, seat)["draft"]["deck"] == 22  # its order stays hidden from everyone


def test_the_draft_follows_the_books_order():
    state = at_draft(4)
    assert state["phase"] == "draft" and state["draft"]["table"] == []
    assert view(state, None)["question"]["key"] == "youngest"
    refused(state, 1, {"type": "answer", "question": "youngest", "value": 3}, "Only the host")
    state, events = act_events(state, HOST, {"type": "answer", "question": "youngest", "value": 3})
    draft = state["draft"]
    assert len(draft["table"]) == 6 and draft["order"] == [3, 4, 1, 2]  # players + 2, clockwise from the youngest
    assert events[-1]["type"] == "draft_revealed" and events[-1]["cards"] == draft["table"]
    refused(state, 1, {"type": "pick", "card": draft["table"][0]}, "Barbara's turn to pick")
    refused(state, 3, {"type": "pick", "card": 99}, "not on the table")
    first_table = list(draft["table"])
    for seat in (3, 4, 1, 2):
        state = act(state, seat, {"type": "pick", "card": state["draft"]["table"][0]})
    draft = state["draft"]
    assert draft["discarded"] == first_table[4:]  # the two left are discarded
    assert draft["order"] == [2, 1, 4, 3] and len(draft["table"]) == 6  # back the other way, last picker first
    for seat in (2, 1, 4, 3):
        state = act(state, seat, {"type": "pick", "card": state["draft"]["table"][-1]})
    assert state["phase"] == "round_start" and state["draft"]["round"] == 2
    held = [card["extra"] for p in players(state) for card in p["cards"] if card["extra"]]
    assert len(held) == len(set(held)) == 8 and all(len(p["cards"]) == 10 for p in players(state))
    assert len(state["draft"]["discarded"]) == 4 and len(state["secret"]["draft_deck"]) == 22 - 12


def test_solo_draws_three_and_keeps_one_twice():
    state = new_game(1, mode="solo", extra_cards="on")
    state = act(state, 1, {"type": "character", "name": "Rayman"})
    assert state["phase"] == "draft" and len(state["draft"]["table"]) == 3 and view(state, 1)["question"] is None
    state = act(state, 1, {"type": "pick", "card": state["draft"]["table"][1]})
    assert len(state["draft"]["table"]) == 3 and len(state["draft"]["discarded"]) == 2
    state = act(state, 1, {"type": "pick", "card": state["draft"]["table"][2]})
    assert state["phase"] == "round_start" and len(player(state, 1)["cards"]) == 10


# --- hands ---------------------------------------------------------------------

def test_hands_are_private():
    state = ready(2)
    for seat in (None, HOST, 2):
        shown = view(state, seat)["players"][0]
        assert shown["cards"] is None and shown["hand"] is None and shown["hand_size"] == 8
    assert view(state, 1)["players"][0]["hand"] == player(state, 1)["hand"]


def test_quick_entry_skips_the_hands():
    state = ready(2, hand_entry="quick")
    assert state["phase"] == "choosing" and player(state, 1)["cards"][0]["initiative"] is None


# --- secret choices ---------------------------------------------------------------

def test_the_server_holds_only_a_commitment_until_every_phone_locked_in():
    state = ready(3)
    generator = rng(77)
    state, events = act_events(state, 1, {"type": "lock", "commitment": commitment(choice_of(("b3", "b1")), SALT)},
                               generator)
    assert events == [{"type": "locked", "seat": 1, "commitment": commitment(choice_of(("b3", "b1")), SALT)}]
    assert generator.draws == []  # the salt is the phone's: the seed, revealed at closing, cannot recompute it
    assert SALT not in json.dumps(state) and '"left": "b3"' not in json.dumps(state)
    refused(state, 1, {"type": "lock", "commitment": "ab" * 32}, "locked in")
    refused(state, 2, {"type": "lock", "commitment": "AB" * 32}, "64 hexadecimal digits")
    refused(state, 2, {"type": "lock"}, "commitment")
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b3", "b1")), "salt": SALT}, "Not now")
    state = lock(lock(state, 2, "bubble"), 3, ("b1", "b2"))
    assert state["phase"] == "revealing"


def test_reveals_stay_in_the_tables_secret_until_every_phone_revealed():
    state = lock(lock(ready(2), 1, ("b5", "b2")), 2, "bubble")
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b2", "b5")), "salt": SALT}, "does not match")
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b5", "b2")), "salt": "00"}, "32 to 128")
    state, events = act_events(state, 1, {"type": "reveal", "choice": choice_of(("b5", "b2")), "salt": SALT})
    assert events == [{"type": "revealed_by", "seat": 1}] and state["phase"] == "revealing"
    for seat in (None, HOST, 1, 2):
        assert SALT not in json.dumps(view(state, seat))
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b5", "b2")), "salt": SALT}, "already revealed")
    state, events = act_events(state, 2, {"type": "reveal", "choice": choice_of("bubble"), "salt": SALT})
    revealed = next(event for event in events if event["type"] == "revealed")
    assert [entry["choice"] for entry in revealed["choices"]] == [choice_of(("b5", "b2")), choice_of("bubble")]
    assert state["phase"] == "turns" and "reveals" not in state["secret"]


def test_a_lost_phone_picks_again_while_no_choice_is_revealed_and_every_screen_is_told():
    state = lock(lock(ready(3), 1, ("b5", "b2")), 2, ("b1", "b2"))
    state = lock(state, 3, "bubble")
    assert state["phase"] == "revealing"
    state, events = act_events(state, 1, {"type": "repick"})  # Ana's new phone has no pick: she chooses again
    assert events == [{"type": "choice_reset", "seat": 1}] and view(state, None)["history"][-1] == events[0]
    assert state["phase"] == "choosing" and not player(state, 1)["locked"]
    assert GAME.wants_fresh_draw(state) is None
    refused(state, 1, {"type": "repick"}, "not locked in yet")
    state = reveal(reveal(lock(state, 1, ("b7", "b8")), 1, ("b7", "b8")), 2, ("b1", "b2"))
    state = reveal(state, 3, "bubble")
    assert state["phase"] == "turns" and state["round"]["order"] == [1, 2]


def test_a_choice_lost_after_a_reveal_stands_and_is_drawn_among_the_legal_choices():
    """Bo's revealed choice sits in the table's store: Ana's new phone may not choose knowing it. Her
    commitment stands and the table draws her choice (from a round opened with the loss: ``fresh_draw``)."""
    state = lock(lock(ready(3), 1, ("b5", "b2")), 2, ("b1", "b2"))
    state = reveal(lock(state, 3, "bubble"), 2, ("b1", "b2"))
    refused(state, 2, {"type": "repick"}, "already revealed")
    state, events = act_events(state, 1, {"type": "repick"})
    assert events == [{"type": "choice_lost", "seat": 1}] and player(state, 1)["lost"]
    assert state["phase"] == "revealing" and player(state, 1)["locked"]
    refused(state, 1, {"type": "repick"}, "drawn at random")
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b5", "b2")), "salt": SALT}, "drawn at random")
    refused(state, 1, {"type": "lock", "commitment": "ab" * 32}, "")
    assert GAME.wants_fresh_draw(state) == {"race": 1, "round": 1, "lost": [1]}
    state = reveal(state, 3, "bubble")  # the others reveal meanwhile; the round waits for the draw
    assert state["phase"] == "revealing" and GAME.wants_fresh_draw(state) == {"race": 1, "round": 1, "lost": [1]}
    generator = rng(4000)
    state, events = GAME.fresh_draw(state, generator)
    drawn = generator.draws[0]
    assert drawn["purpose"] == {"kind": "lost_choice", "seat": 1, "round": 1} and drawn["secret"]
    assert events[0] == {"type": "choice_drawn", "seat": 1} and GAME.wants_fresh_draw(state) is None
    revealed = next(event for event in events if event["type"] in ("revealed", "initiatives_asked"))
    assert revealed and state["phase"] != "revealing"
    ana = next(entry for entry in state["round"]["revealed"] if entry["seat"] == 1)
    assert ana["drawn"] == drawn["result"] and ana["salt"] is None


def test_views_and_events_reveal_nothing_before_the_last_lock():
    """Two tables that differ only by Ana's choice look the same to everybody else, Ana included."""
    tables = []
    for pick in (("b3", "b1"), "bubble"):
        state, events = act_events(ready(3), 1, {"type": "lock", "commitment": commitment(choice_of(pick), SALT)})
        state, more = act_events(state, 2, {"type": "lock", "commitment": commitment(choice_of(("b2", "b1")), SALT)})
        tables.append((state, events + more))
    (first, first_events), (second, second_events) = tables
    for seat in (None, HOST, 1, 2, 3):
        assert strip_commitments(view(first, seat)) == strip_commitments(view(second, seat))
    assert strip_commitments(first_events) == strip_commitments(second_events)


def strip_commitments(value):
    """Commitments and salts masked: they differ between two runs whatever the choices (random salts)."""
    text = json.dumps(value, sort_keys=True)
    for field in ("commitment", "salt"):
        for secret in {part.split('"')[0] for part in text.split(f'"{field}": "')[1:]}:
            text = text.replace(secret, f"<{field}>")
    return text


def test_the_reveal_makes_every_choice_and_salt_public_and_checkable():
    state = choose_all(ready(2), {2: "bubble", 1: ("b5", "b2")})
    revealed = next(event for event in state["history"] if event["type"] == "revealed")
    assert [entry["seat"] for entry in revealed["choices"]] == [1, 2]
    for entry in revealed["choices"]:
        assert commitment(entry["choice"], entry["salt"]) == entry["commitment"] and entry["salt"] == SALT
    assert revealed["choices"][0]["left_initiative"] == initiative(1, 4)
    assert view(state, None)["round"]["revealed"] == revealed["choices"]
    assert state["phase"] == "turns" and revealed["order"] == [1]


def test_commitment_hashes_the_canonical_json_and_the_salt():
    choice = {"second": "b2", "left": "b5", "bubble": False}
    expected = __import__("hashlib").sha256(b'{"bubble":false,"left":"b5","second":"b2"}' + b"00ff").hexdigest()
    assert commitment(choice, "00ff") == expected


@pytest.mark.parametrize("choice, complaint", [
    ({"left": "b1", "second": "b1"}, "two different cards"),
    ({"left": "b1", "second": "b9"}, "two different cards"),
    ({"left": "b1"}, "second"),
    ({"left": 3, "second": 5}, "left"),
])
def test_a_choice_takes_two_different_cards_of_the_hand(choice, complaint):
    """The server cannot judge a commitment; it judges the choice it opens to (and refuses it)."""
    state = act(ready(2), 1, {"type": "lock", "commitment": commitment(choice, SALT)})
    state = lock(state, 2, ("b1", "b2"))
    refused(state, 1, {"type": "reveal", "choice": choice, "salt": SALT}, complaint)


def test_quick_entry_chooses_two_initiatives():
    state = ready(2, hand_entry="quick")
    wrong = lock(lock(state, 1, (100, 2)), 2, (7, 3))
    refused(wrong, 1, {"type": "reveal", "choice": choice_of((100, 2)), "salt": SALT}, "0 to 99")
    state = choose_all(state, {1: (7, 2), 2: (7, 3)})
    assert state["round"]["order"] == [2, 1]
    assert len(player(state, 1)["hand"]) == 6 and len(player(state, 1)["played"]) == 2


def test_a_bubble_is_forced_when_the_hand_is_empty():
    state = copy.deepcopy(ready(2))
    ana = player(state, 1)
    ana["discard"], ana["hand"] = ana["hand"], []
    choices = [action for action in legal_actions(state, 1) if action["type"] == "lock"]
    assert choices == [{"type": "lock", "commitment": commitment(choice_of("bubble"), sample_salt(1))}]
    state = lock(lock(state, 1, ("b1", "b2")), 2, ("b1", "b2"))
    refused(state, 1, {"type": "reveal", "choice": choice_of(("b1", "b2")), "salt": SALT}, "must declare a Bubble")


def test_solo_has_no_bubble():
    state = ready(1, mode="solo", boss_move=4)
    state = lock(act(state, 1, {"type": "roll"}), 1, "bubble")
    refused(state, 1, {"type": "reveal", "choice": choice_of("bubble"), "salt": SALT}, "Solo has no Bubble")


# --- order of play ---------------------------------------------------------------

def test_the_highest_left_initiative_plays_first():
    state = choose_all(ready(3), {1: ("b1", "b2"), 2: ("b8", "b1"), 3: ("b4", "b5")})
    assert state["round"]["order"] == [2, 3, 1] and state["round"]["tie_rolls"] == []


def test_the_books_example_second_card_breaks_a_tie():
    """Rayman and Globox show the same initiative: Globox's second card (3) beats Rayman's (2)."""
    values = {1: {f"b{n}": n for n in range(1, 9)}, 2: {f"b{n}": n for n in range(1, 9)}}
    state = choose_all(ready(2, values=values), {1: ("b6", "b2"), 2: ("b6", "b3")})
    assert state["round"]["order"] == [2, 1] and state["round"]["tie_rolls"] == []


def test_dice_break_the_remaining_ties_and_are_shown():
    values = {seat: {f"b{n}": 5 for n in range(1, 9)} for seat in (1, 2, 3)}
    generator = rng(400)
    state = ready(3, values=values)
    state = choose_all(state, {1: ("b1", "b2"), 2: ("b1", "b2"), 3: ("b3", "b4")}, generator)
    rolls = state["round"]["tie_rolls"]
    assert rolls[0]["seats"] == [1, 2, 3]
    purposes = [draw["purpose"] for draw in generator.draws if draw["purpose"]["kind"] == "tie_break"]
    assert purposes[:3] == [{"kind": "tie_break", "seat": seat, "round": 1, "attempt": 1} for seat in (1, 2, 3)]
    assert sorted(state["round"]["order"]) == [1, 2, 3]
    first = dict(zip(rolls[0]["seats"], rolls[0]["rolls"]))
    for better, worse in zip(state["round"]["order"], state["round"]["order"][1:]):
        assert first[better] >= first[worse]
    for reroll in rolls[1:]:
        assert len({first[seat] for seat in reroll["seats"]}) == 1  # re-rolled only among the still tied


def test_tie_rolls_repeat_until_the_tie_is_broken():
    values = {seat: {f"b{n}": 5 for n in range(1, 9)} for seat in (1, 2)}
    for n in range(40):
        state = choose_all(ready(2, values=values), {1: ("b1", "b2"), 2: ("b1", "b2")}, rng(n * 10))
        rolls = state["round"]["tie_rolls"]
        assert all(len(entry["seats"]) == 2 for entry in rolls)
        assert all(entry["rolls"][0] == entry["rolls"][1] for entry in rolls[:-1])
        assert rolls[-1]["rolls"][0] != rolls[-1]["rolls"][1]
        winner = 1 if rolls[-1]["rolls"][0] > rolls[-1]["rolls"][1] else 2
        assert state["round"]["order"][0] == winner


def test_a_bubble_takes_no_turn_takes_back_the_discard_and_loses_the_heart():
    state = choose_all(ready(2), {1: ("b1", "b2"), 2: ("b3", "b4")})
    state = end_turns(state)
    state = copy.deepcopy(state)
    player(state, 1)["heart"] = True
    state = end_turns(choose_all(state, {1: "bubble", 2: ("b5", "b6")}))
    ana = player(state, 1)
    assert ana["hand"] and sorted(ana["hand"]) == [f"b{n}" for n in range(1, 9)] and ana["discard"] == []
    assert not ana["heart"]
    assert state["round"]["number"] == 3  # the round ended: Ana's Bubble immunity is over


def test_a_bubble_player_is_immune_and_cannot_be_slapped_this_round():
    state = choose_all(ready(2), {1: "bubble", 2: ("b3", "b4")})
    assert state["round"]["order"] == [2] and player(state, 1)["bubble"]
    refused(state, 2, {"type": "slap", "target": 1}, "in a Bubble")
    state, events = act_events(state, 1, {"type": "hurt", "cause": "enemy"})
    assert events == [{"type": "immune", "seat": 1, "cause": "enemy"}]


# --- turns -------------------------------------------------------------------------

def turns(players=2, **options):
    picks = {seat: (f"b{seat}", "b8") for seat in range(1, players + 1)}
    return choose_all(start_round(ready(players, **options)), picks)


def test_only_the_active_player_plays_and_one_tap_ends_the_turn():
    state = turns(3)
    assert state["round"]["order"] == [3, 2, 1] and view(state, None)["active"] == 3
    refused(state, 1, {"type": "end_turn"}, "It is Barbara's turn")
    refused(state, 2, {"type": "heart"}, "It is Barbara's turn")
    state, events = act_events(state, 3, {"type": "end_turn"})
    assert events == [{"type": "turn_ended", "seat": 3}, {"type": "turn_started", "seat": 2, "bubble_mode": False}]
    assert view(state, None)["active"] == 2


def test_a_player_holds_one_heart_at_most():
    state = turns(2)
    state = act(state, 2, {"type": "heart"})
    state, events = act_events(state, 2, {"type": "heart"})
    assert player(state, 2)["heart"] is True and events == [{"type": "heart", "seat": 2, "gained": False}]
    refused(state, 2, {"type": "heart", "to": 1}, "only in co-op")


def test_a_heart_saves_from_one_hit_then_damage_gives_immunity_until_the_next_turn():
    state = place(place(turns(2), 1, 10), 2, 12)
    state = act(state, 2, {"type": "heart"})
    state, events = act_events(state, 2, {"type": "hurt", "cause": "obstacle"})
    assert events == [{"type": "heart_lost", "seat": 2, "cause": "obstacle"}]
    state, events = act_events(state, 2, {"type": "hurt", "cause": "wall"})
    assert events[0] == {"type": "damaged", "seat": 2, "cause": "wall", "back": 2}
    # two columns back, on level 2: 10:1 holds Ana
    assert player(state, 2)["position"] == {"column": 10, "level": 2} and player(state, 2)["immune"]
    state, events = act_events(state, 2, {"type": "hurt", "cause": "enemy"})
    assert events == [{"type": "immune", "seat": 2, "cause": "enemy"}]
    state = end_turns(state)
    state = choose_all(state, {1: ("b2", "b3"), 2: ("b7", "b1")})
    assert state["round"]["order"][0] == 2 and not player(state, 2)["immune"]  # cleared as the turn starts


def test_damage_pushes_back_three_with_the_modifier():
    state = place(turns(2, damage_push=3), 2, 5, 2)
    state = act(state, 2, {"type": "hurt", "cause": "enemy"})
    assert player(state, 2)["position"] == {"column": 2, "level": 2}
    state = place(turns(2, damage_push=3), 2, 1)
    state = act(state, 2, {"type": "hurt", "cause": "enemy"})
    assert player(state, 2)["position"]["column"] == 0  # never behind the start line


def test_four_bonus_tokens_at_most_a_fifth_forces_a_choice():
    state = turns(2)
    for count in range(1, 5):
        state, events = act_events(state, 2, {"type": "bonus"})
        assert events == [{"type": "bonus_gained", "seat": 2, "count": count}]
    state = act(state, 2, {"type": "bonus"})
    assert player(state, 2)["bonus"] == 4 and player(state, 2)["bonus_pending"]
    refused(state, 2, {"type": "end_turn"}, "Use or discard")
    refused(state, 2, {"type": "heart"}, "Use or discard")
    discarded = act(state, 2, {"type": "discard_bonus"})
    used = act(state, 2, {"type": "use_bonus"})
    for after in (discarded, used):
        assert player(after, 2)["bonus"] == 4 and not player(after, 2)["bonus_pending"]
    state = act(used, 2, {"type": "use_bonus"})
    assert player(state, 2)["bonus"] == 3
    refused(state, 2, {"type": "discard_bonus"}, "may keep")


def test_each_ptizetre_is_freed_once_per_player():
    state = turns(2)
    state, events = act_events(state, 2, {"type": "free", "ptizetre": 3})
    assert events == [{"type": "ptizetre_freed", "seat": 2, "ptizetre": 3, "count": 1}]
    refused(state, 2, {"type": "free", "ptizetre": 3}, "already freed")
    refused(state, 2, {"type": "free", "ptizetre": 5}, "1 to 4")
    state = act(state, 2, {"type": "end_turn"})
    state = act(state, 1, {"type": "free", "ptizetre": 3})  # another player frees the same captive
    assert player(state, 1)["ptizetres"] == [3]
    refused(turns(2, captive_ptizetres=3), 2, {"type": "free", "ptizetre": 4}, "1 to 3")


def test_a_player_is_slapped_once_per_round():
    state = turns(3)
    state = act(state, 3, {"type": "slap", "target": 1})
    refused(state, 3, {"type": "slap", "target": 1}, "already been slapped")
    refused(state, 3, {"type": "slap", "target": 3}, "yourself")
    state = act(state, 3, {"type": "end_turn"})
    refused(state, 2, {"type": "slap", "target": 1}, "already been slapped")  # whoever slaps
    state = end_turns(state)
    state = choose_all(state, {1: ("b2", "b3"), 2: ("b7", "b1"), 3: ("b5", "b1")})
    assert state["round"]["order"] == [2, 3, 1]
    assert player(act(state, 2, {"type": "slap", "target": 1}), 1)["slapped"]  # a new round


def test_unlimited_slaps_modifier():
    state = act(turns(2, unlimited_slaps="on"), 2, {"type": "slap", "target": 1})
    state = act(state, 2, {"type": "slap", "target": 1})
    assert player(state, 1)["slapped"]


def test_a_slap_pushes_forward_from_behind_back_from_the_front():
    state = place(place(turns(2), 1, 10), 2, 9)
    state = act(state, 2, {"type": "slap", "target": 1})
    assert player(state, 1)["position"]["column"] == 11
    state = place(place(turns(2), 1, 10), 2, 11)
    assert player(act(state, 2, {"type": "slap", "target": 1}), 1)["position"]["column"] == 9
    state = place(place(turns(2), 1, 10, 1), 2, 10, 2)
    refused(state, 2, {"type": "slap", "target": 1}, "forward or back")
    after = act(state, 2, {"type": "slap", "target": 1, "direction": "back"})
    assert player(after, 1)["position"] == {"column": 9, "level": 1}


def test_a_limited_legendary_ability_is_used_once_per_race():
    state = turns(2, difficulty="legend")
    state = act(state, 2, {"type": "use_legendary"})
    state = act(state, 2, {"type": "use_legendary"})
    assert player(state, 2)["legendary_uses"] == 2
    limited = act(turns(2, difficulty="legend", limited_legendary="on"), 2, {"type": "use_legendary"})
    refused(limited, 2, {"type": "use_legendary"}, "once per race")
    refused(turns(2), 2, {"type": "use_legendary"}, "no legendary card")


def test_the_filou_turns_a_heart_into_an_action():
    state = turns(2, difficulty="legend")  # Ana: esquiveur, Ben: vagabond
    refused(act(state, 2, {"type": "heart"}), 2, {"type": "spend_heart"}, "Only the Filou")
    state = copy.deepcopy(state)
    player(state, 2)["legendary"] = "filou"
    refused(state, 2, {"type": "spend_heart"}, "no heart")
    state = act(act(state, 2, {"type": "heart"}), 2, {"type": "spend_heart"})
    assert not player(state, 2)["heart"]


# --- bad input changes nothing -----------------------------------------------------------

@pytest.mark.parametrize("seat, action, complaint", [
    (1, {"type": "fly"}, "Unknown action"),
    (1, {}, "Unknown action"),
    (1, {"type": 7}, "Unknown action"),
    (9, {"type": "end_turn"}, "Not your turn"),
    (HOST, {"type": "end_turn"}, "Only a player can do that, on their phone"),
    (2, {"type": "next_race"}, "Not now: the table is playing the turns"),
    (HOST, {"type": "answer", "question": "last", "value": [1]}, "Not now: the table is playing the turns"),
    (2, {"type": "hurt", "cause": "lava"}, "A hit comes from"),
    (2, {"type": "hurt"}, "cause"),
    (2, {"type": "hurt", "cause": "projectile"}, "projectile"),
    (2, {"type": "hurt", "cause": "projectile", "projectile": 4}, "not on the board"),
    (2, {"type": "hurt", "cause": "boss"}, "no Boss"),
    (2, {"type": "slap", "target": "Ana"}, "target"),
    (2, {"type": "slap", "target": True}, "target"),
    (2, {"type": "slap", "target": 8}, "Only the players"),
    (2, {"type": "free", "ptizetre": "1"}, "ptizetre"),
    (2, {"type": "pick", "card": 3}, "Not now: the table is playing the turns"),
    (2, {"type": "lock", "commitment": "ab" * 32}, "Not now: the table is playing the turns"),
    (2, {"type": "character", "name": "Rayman"}, "Not now: the table is playing the turns"),
    (2, {"type": "distance", "spaces": 3}, "Not now: the table is playing the turns"),
    (2, {"type": "crossed"}, "3 Ptizêtres"),
    (2, {"type": "step", "direction": "left"}, "A step goes"),
    (2, {"type": "step", "direction": "forward"}, "Enter your position first"),
    (2, {"type": "position", "column": -1, "level": 1}, "column from 0"),
    (2, {"type": "position", "column": 3, "level": 4}, "level from 1 to 3"),
    (2, {"type": "position", "column": 50, "level": 1}, "3 Ptizêtres"),
    (2, {"type": "give_bonus", "to": 1}, "only in co-op"),
    (1, {"type": "roll"}, "Not now: the table is playing the turns"),
])
def test_bad_actions_change_nothing(seat, action, complaint):
    refused(turns(2), seat, action, complaint)


def test_actions_that_are_not_objects_are_refused():
    for action in (None, "end_turn", ["end_turn"]):
        refused(turns(2), 2, action, "Unknown action")


def test_nothing_is_possible_once_the_game_is_over():
    state = copy.deepcopy(turns(2))
    state["phase"], state["outcome"] = "game_over", {"winners": [], "reason": "", "ranking": []}
    refused(state, 2, {"type": "end_turn"}, "The game is over")
    assert legal_actions(state, 2) == [] and legal_actions(state, HOST) == []


def test_apply_never_mutates_its_input():
    state = turns(3)
    snapshot = copy.deepcopy(state)
    for seat, action in ((3, {"type": "heart"}), (3, {"type": "slap", "target": 1}),
                         (1, {"type": "hurt", "cause": "wall"}), (3, {"type": "end_turn"}),
                         (2, {"type": "position", "column": 4, "level": 2})):
        GAME.apply(state, seat, action, rng(1))
        assert state == snapshot


def test_die_faces_give_the_three_levels():
    assert [die_level(value) for value in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_the_boards_are_in_the_tournament_order():
    assert BOARDS == ("jungle", "foret", "fiesta", "enfer")


def test_a_view_carries_its_viewers_actions_and_the_last_public_events():
    state = ready(2)
    sample = {"type": "lock", "commitment": commitment(choice_of(("b3", "b1")), sample_salt(1))}
    assert sample in view(state, 1)["legal"]  # a bot's or a test's: a phone makes its own salt
    # The host screen may name a Ptizêtre's colour at any time (offered until each is named), nothing else here.
    assert view(state, None)["legal"] == [] and [action["type"] for action in view(state, HOST)["legal"]] == [
        "ptizetre_colour"]
    state, events = act_events(state, 1, {"type": "lock", "commitment": commitment(choice_of("bubble"), SALT)})
    assert view(state, 1)["legal"] == legal_actions(state, 1) and {"type": "repick"} in legal_actions(state, 1)
    assert not any(action["type"] == "lock" for action in legal_actions(state, 1))
    assert view(state, 2)["history"][-1] == events[0] and events[0]["type"] == "locked"
    count = view(state, None)["history_count"]
    for _ in range(45):
        state = act(state, 2, {"type": "position", "column": 1, "level": 1})
    shown = view(state, None)
    assert len(shown["history"]) == 40 and shown["history_count"] == count + 45
    assert shown["history"][-1] == {"type": "moved", "seat": 2, "column": 1, "level": 1}
