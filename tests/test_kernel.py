"""The kernel (companion/games/kernel.py) on a small game made for it: declared
phases, one predicate for "legal", secrets by layout, one outcome; and the
scripted randomness that tests use to choose what the dice say."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.base import HOST, N_, IllegalAction
from companion.games.kernel import ANYONE, HOST_ONLY, Move, Phase, Rules, private_of, strip_secrets
from tests.rules import ScriptedRng


# A guessing game: each seat secretly picks a number (once), then the host
# reveals; a die is rolled and the nearest pick wins.
def pick(state, seat, action, rng):
    private_of(state, seat)["pick"] = action["number"]
    state["picked"].append(seat)
    return [{"type": "picked", "seat": seat}]


def check_pick(state, seat, action):
    if type(action.get("number")) is not int or not 1 <= action["number"] <= 6:
        raise IllegalAction(N_("Pick a whole number from 1 to 6."))


def reveal(state, seat, action, rng):
    state["die"] = rng.randint(1, 6, "the guessing die")
    picks = {int(owner): data["pick"] for owner, data in state["private"].items()}
    state["picks"] = picks
    return [{"type": "revealed", "die": state["die"]}]


def decide(state):
    if state["die"] is None:
        return None
    best = min(abs(pick - state["die"]) for pick in state["picks"].values())
    winners = sorted(seat for seat, pick in state["picks"].items() if abs(pick - state["die"]) == best)
    return {"winners": winners, "reason": N_("nearest to the die"), "ranking": [winners]}


RULES = Rules(
    moves={"pick": Move(run=pick, check=check_pick, candidates=lambda s, seat: [{"number": n} for n in range(1, 7)]),
           "reveal": Move(run=reveal, by=HOST_ONLY),
           "note": Move(run=lambda s, seat, a, rng: [], by=ANYONE, proxy=True)},
    phases={"picking": Phase(moves=("pick",), label=N_("picking"),
                             actors=lambda s: [seat for seat in s["seats"] if seat not in s["picked"]],
                             next=lambda s: "revealing" if len(s["picked"]) == len(s["seats"]) else None),
            "revealing": Phase(moves=("reveal",), label=N_("revealing"), actors=lambda s: [], timed=True)},
    render=lambda state, seat: {"picked": state["picked"], "mine": state.get("private", {}).get(str(seat))},
    decide=decide,
    always=("note",),
)


def new_state():
    return {"phase": "picking", "outcome": None, "seats": [1, 2], "picked": [], "die": None}


def rng():
    return TableRng(seed="cd" * 32, pool=EMPTY_POOL, next_n=0)


def played(*steps):
    state = new_state()
    for seat, action in steps:
        state, _ = RULES.apply(state, seat, action, rng())
    return state


def refused(state, seat, action, complaint):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, seat, action, rng())
    assert complaint in str(error.value) and state == before


def test_an_unknown_action_is_refused():
    refused(new_state(), 1, {"type": "cheat"}, "Unknown action: cheat")


def test_an_off_phase_action_never_reaches_the_move():
    refused(new_state(), HOST, {"type": "reveal"}, "Not now: the table is picking")


def test_a_seat_that_already_acted_is_not_an_actor_any_more():
    refused(played((1, {"type": "pick", "number": 3})), 1, {"type": "pick", "number": 4}, "Not your turn")


def test_the_host_cannot_send_a_seats_move_nor_a_seat_the_hosts():
    refused(new_state(), HOST, {"type": "pick", "number": 3}, "Only a player")
    state = played((1, {"type": "pick", "number": 3}), (2, {"type": "pick", "number": 5}))
    refused(state, 1, {"type": "reveal"}, "Only the host")


def test_the_moves_check_refuses_bad_parameters():
    refused(new_state(), 1, {"type": "pick", "number": 7}, "from 1 to 6")


def test_legal_actions_come_from_the_same_check_as_refusals():
    state = new_state()
    assert RULES.legal_actions(state, 1) == [{"number": n, "type": "pick"} for n in range(1, 7)] + [{"type": "note"}]
    assert RULES.legal_actions(state, HOST) == [{"type": "note"}]
    assert RULES.legal_actions(state, None) == []


def test_the_phase_advances_when_its_next_says_so():
    state = played((1, {"type": "pick", "number": 3}), (2, {"type": "pick", "number": 5}))
    assert state["phase"] == "revealing"
    assert RULES.waiting(state) == []  # nobody acts in it: the host does


def test_waiting_names_the_actors_of_the_phase():
    state = played((1, {"type": "pick", "number": 3}))
    assert RULES.waiting(state) == [{"seat": 2, "for": "picking", "params": {}, "timed": False}]


def test_a_seats_private_data_reaches_only_that_seat():
    state = played((1, {"type": "pick", "number": 3}), (2, {"type": "pick", "number": 5}))
    assert RULES.view(state, 1)["mine"] == {"pick": 3}
    assert RULES.view(state, 2)["mine"] == {"pick": 5}
    assert RULES.view(state, None)["mine"] is None and RULES.view(state, HOST)["mine"] is None
    assert "private" not in strip_secrets(state, None) and "secret" not in strip_secrets({**state, "secret": 1}, 1)
    assert strip_secrets(state, 1)["private"] == {"1": {"pick": 3}}


def test_the_outcome_is_decided_once_and_refuses_every_action_after():
    state = played((1, {"type": "pick", "number": 3}), (2, {"type": "pick", "number": 5}))
    state, events = RULES.apply(state, HOST, {"type": "reveal"}, ScriptedRng(("the guessing die", 5)))
    assert events == [{"type": "revealed", "die": 5}]
    assert RULES.outcome(state) == {"winners": [2], "reason": "nearest to the die", "ranking": [[2]]}
    assert RULES.legal_actions(state, 1) == [] and RULES.waiting(state) == []
    refused(state, 1, {"type": "note"}, "The game is over")


def test_hooks_declare_host_and_proxy_actions():
    hooks = RULES.hooks()
    assert hooks["host_actions"] == {"reveal", "note"} and hooks["proxy_actions"] == {"note"}


def test_the_scripted_rng_hands_out_chosen_results_by_purpose():
    scripted = ScriptedRng(("roll", 6), ("deal", [2, 0, 1]), ("coin", 0))
    assert scripted.randint(1, 6, "roll of a d6") == 6
    assert scripted.shuffle(["a", "b", "c"], "deal the cards") == ["c", "a", "b"]
    assert scripted.choice(["heads", "tails"], "coin toss") == "heads"
    assert scripted.spent and [draw["n"] for draw in scripted.draws] == [0, 1, 2]


@pytest.mark.parametrize("script, draw, complaint", [
    ((("roll", 6),), lambda r: r.randint(1, 6, "shuffle the deck"), "expects 'roll'"),
    ((("roll", 7),), lambda r: r.randint(1, 6, "roll"), r"not in \[1, 6\]"),
    ((("deal", [0, 0]),), lambda r: r.permutation(2, "deal"), "not an order"),
    ((), lambda r: r.randint(1, 6, "roll"), "not in the script"),
])
def test_the_scripted_rng_fails_on_what_the_test_did_not_expect(script, draw, complaint):
    with pytest.raises(AssertionError, match=complaint):
        draw(ScriptedRng(*script))


def test_the_scripted_rng_falls_back_to_a_seeded_rng_once_spent():
    scripted = ScriptedRng(("roll", 2), fallback=rng())
    assert scripted.randint(1, 6, "roll") == 2
    value = scripted.randint(1, 6, "roll again")
    assert value == TableRng(seed="cd" * 32, pool=EMPTY_POOL, next_n=1).randint(1, 6, "roll again")
    assert [draw["n"] for draw in scripted.draws] == [0, 1]
