"""The Dice game's pure rules."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import IllegalAction, get_game
from companion.games.base import HOST

DICE = get_game("dice")


def rng(n=0):
    return TableRng(seed="ab" * 32, pool=EMPTY_POOL, next_n=n)


def new_game(**options):
    return DICE.setup(DICE.normalize_options(options), [], rng())


@pytest.mark.parametrize("die, sides", [("d4", 4), ("d6", 6), ("d8", 8), ("d10", 10), ("d12", 12), ("d20", 20)])
def test_standard_dice_have_their_faces(die, sides):
    assert new_game(die=die)["faces"] == [str(v) for v in range(1, sides + 1)]


def test_default_is_one_d6():
    state = new_game()
    assert state["die"] == "d6" and state["count"] == 1 and state["rolls"] == 0


def test_a_roll_draws_once_per_die_and_logs_its_purpose():
    state = new_game(count=3)
    generator = rng()
    after, events = DICE.apply(state, 2, {"type": "roll"}, generator)
    assert len(generator.draws) == 3
    assert all(d["lo"] == 1 and d["hi"] == 6 and d["purpose"] == {"kind": "die_roll", "die": "d6", "seat": 2}
               for d in generator.draws)
    assert events == [{"type": "rolled", "seat": 2, "number": 1, "values": [d["result"] for d in generator.draws],
                       "faces": [str(d["result"]) for d in generator.draws]}]
    assert after["rolls"] == 1 and after["history"][0]["seat"] == 2


def test_custom_faces_are_rolled_by_index():
    state = new_game(die="custom", faces=[" Pile ", "Face", "🎲"])
    after, events = DICE.apply(state, 1, {"type": "roll"}, rng())
    assert state["faces"] == ["Pile", "Face", "🎲"]
    assert events[0]["faces"][0] == state["faces"][events[0]["values"][0] - 1]


@pytest.mark.parametrize("options, complaint", [
    ({"die": "d7"}, "must be one of"),
    ({"die": "custom", "faces": ["only one"]}, "at least 2 faces"),
    ({"die": "custom", "faces": ["x" * 25, "y"]}, "1 to 24 characters"),
    ({"die": "custom", "faces": ["a", 3]}, "1 to 24 characters"),
    ({"die": "custom", "faces": "ab"}, "list"),
    ({"count": 0}, "from 1 to 6"),
    ({"count": 7}, "from 1 to 6"),
    ({"count": True}, "from 1 to 6"),
    ({"colour": "red"}, "Unknown option"),
])
def test_bad_options_are_refused(options, complaint):
    with pytest.raises(IllegalAction) as refused:
        DICE.normalize_options(options)
    assert complaint in str(refused.value)


def test_options_must_be_an_object():
    with pytest.raises(IllegalAction):
        DICE.normalize_options(["d6"])


def test_unknown_action_is_illegal_and_changes_nothing():
    state = new_game()
    before = copy.deepcopy(state)
    generator = rng()
    with pytest.raises(IllegalAction, match="Unknown action"):
        DICE.apply(state, 1, {"type": "cheat"}, generator)
    assert state == before and generator.draws == []


def test_view_is_the_same_for_every_seat_and_every_seat_may_roll():
    state, _ = DICE.apply(new_game(), 1, {"type": "roll"}, rng())
    public, first, seventh = DICE.view(state, None), DICE.view(state, 1), DICE.view(state, 7)
    assert first == seventh and {**public, "legal": first["legal"]} == first
    assert public["legal"] == [] and first["legal"] == [{"type": "roll"}]


def test_the_host_screen_cannot_roll_for_the_table():
    with pytest.raises(IllegalAction, match="Only a player"):
        DICE.apply(new_game(), HOST, {"type": "roll"}, rng())


def test_the_die_never_ends_and_waits_on_nobody():
    state, _ = DICE.apply(new_game(), 1, {"type": "roll"}, rng())
    assert DICE.outcome(state) is None and DICE.waiting(state) == []
