"""The kernel (companion/games/kernel.py) on a small game made for it: declared
phases, one predicate for "legal", secrets by layout, one outcome; and the
scripted randomness that tests use to choose what the dice say."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.base import HOST, N_, IllegalAction
from companion.games.kernel import ANYONE, HOST_ONLY, Move, Phase, Rules, Stage, private_of, strip_secrets
from tests.rules import ScriptedRng, a_draw


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
    state["die"] = rng.randint(1, 6, a_draw("the guessing die"))
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
    state, events = RULES.apply(state, HOST, {"type": "reveal"}, ScriptedRng(("test_draw", 5)))
    assert events == [{"type": "revealed", "die": 5}]
    assert RULES.outcome(state) == {"winners": [2], "reason": "nearest to the die", "ranking": [[2]]}
    assert RULES.legal_actions(state, 1) == [] and RULES.waiting(state) == []
    refused(state, 1, {"type": "note"}, "The game is over")


def test_hooks_declare_host_and_proxy_actions():
    hooks = RULES.hooks()
    assert hooks["host_actions"] == {"reveal", "note"} and hooks["proxy_actions"] == {"note"}


def test_the_scripted_rng_hands_out_chosen_results_by_purpose():
    scripted = ScriptedRng(("test_draw", 6), ("", [2, 0, 1]), ("test_draw", 0))
    assert scripted.randint(1, 6, a_draw("roll of a d6")) == 6
    assert scripted.shuffle(["a", "b", "c"], a_draw("deal the cards")) == ["c", "a", "b"]
    assert scripted.choice(["heads", "tails"], a_draw("coin toss")) == "heads"
    assert scripted.spent and [draw["n"] for draw in scripted.draws] == [0, 1, 2]


@pytest.mark.parametrize("script, draw, complaint", [
    ((("die_roll", 6),), lambda r: r.randint(1, 6, a_draw("shuffle the deck")), "expects 'die_roll'"),
    ((("test_draw", 7),), lambda r: r.randint(1, 6, a_draw("roll")), r"not in \[1, 6\]"),
    ((("test_draw", [0, 0]),), lambda r: r.permutation(2, a_draw("deal")), "not an order"),
    ((), lambda r: r.randint(1, 6, a_draw("roll")), "not in the script"),
])
def test_the_scripted_rng_fails_on_what_the_test_did_not_expect(script, draw, complaint):
    with pytest.raises(AssertionError, match=complaint):
        draw(ScriptedRng(*script))


def test_the_scripted_rng_falls_back_to_a_seeded_rng_once_spent():
    scripted = ScriptedRng(("test_draw", 2), fallback=rng())
    assert scripted.randint(1, 6, a_draw("roll")) == 2
    value = scripted.randint(1, 6, a_draw("roll again"))
    assert value == TableRng(seed="cd" * 32, pool=EMPTY_POOL, next_n=1).randint(1, 6, a_draw("roll again"))
    assert [draw["n"] for draw in scripted.draws] == [0, 1]


# Stages and moves with their own actors ----------------------------------------------------------
# A small race: in the phase "race" the choosers lock a card each (stage "choosing"); once all are
# locked the leader answers a question (stage "asking", its own moves and actor); board keeping is
# open to every racer whatever the stage; then the race is over. A racer may leave; a timed
# question passes to the next racer.
def lock(state, seat, action, rng):
    state["locked"].append(seat)
    return [{"type": "locked", "seat": seat}]


def answer(state, seat, action, rng):
    state["answered"] = True
    return [{"type": "answered", "seat": seat}]


def keep_board(state, seat, action, rng):
    state["kept"] += 1
    return [{"type": "board_kept", "seat": seat}]


def forfeit(state, seat, action, rng):
    state["left"].append(seat)
    return [{"type": "left", "seat": seat}]


def check_racing(state, seat, action):
    if seat in state["left"]:
        raise IllegalAction(N_("You left the race."))


def hand_on(state, seat, action, rng):
    state["leader"] = next(s for s in state["racers"] if s != seat)
    return [{"type": "handed_on", "to": state["leader"]}]


def racers(state):
    return [seat for seat in state["racers"] if seat not in state["left"]]


def choosers(state):
    return [seat for seat in racers(state) if seat not in state["locked"]]


def race_decide(state):
    if len(racers(state)) == 1:
        return {"winners": racers(state), "reason": N_("the last racer"), "ranking": [racers(state)]}
    return None


STAGED = Rules(
    moves={"lock": Move(run=lock), "answer": Move(run=answer),
           "keep_board": Move(run=keep_board, actors=racers),
           "start": Move(run=lambda s, seat, a, rng: s.update(started=True) or [], by=HOST_ONLY)},
    phases={"waiting": Phase(moves=("start",), label=N_("waiting"), actors=lambda s: [],
                             next=lambda s: "race" if s["started"] else None),
            "race": Phase(moves=("lock", "keep_board"), label=N_("racing"), actors=choosers,
                          next=lambda s: "done" if s["answered"] else None,
                          stages={"choosing": Stage(label=N_("choosing"), actors=choosers,
                                                    next=lambda s: "asking" if not choosers(s) else None,
                                                    begin=lambda s, rng: [{"type": "choose"}]),
                                  "asking": Stage(moves=("answer", "keep_board"), label=N_("asking"),
                                                  actors=lambda s: [s["leader"]], timed=True,
                                                  begin=lambda s, rng: [{"type": "asked", "seat": s["leader"]}])}),
            "done": Phase(moves=(), label=N_("done"), actors=lambda s: [], waits=False)},
    render=lambda state, seat: {"locked": state["locked"]},
    decide=race_decide,
    leave=Move(run=forfeit, check=check_racing),
    timeout=Move(run=hand_on),
    history=3,
)


def race():
    return {"phase": "waiting", "outcome": None, "racers": [1, 2, 3], "locked": [], "left": [], "leader": 1,
            "started": False, "answered": False, "kept": 0, "history": []}


def raced(*steps, state=None):
    state = state or race()
    for seat, action in steps:
        state, _ = STAGED.apply(state, seat, action, rng())
    return state


def refused_by(rules, state, seat, action, complaint):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        rules.apply(state, seat, action, rng())
    assert complaint in str(error.value) and state == before


def test_entering_a_phase_enters_its_first_stage_and_runs_both_begins():
    state, events = STAGED.apply(race(), HOST, {"type": "start"}, rng())
    assert (state["phase"], state["stage"]) == ("race", "choosing")
    assert events == [{"type": "choose"}]
    assert STAGED.view(state, 1)["stage"] == "choosing"


def test_the_view_carries_the_phase_and_stage_labels_the_screens_show():
    """Msgids the screen translates (the browser's catalogue holds the rules' N_ strings): no screen keeps
    its own copy of the phases' names."""
    waiting = STAGED.view(race(), None)
    assert (waiting["phase_label"], "stage_label" in waiting) == ("waiting", False)
    state = raced((HOST, {"type": "start"}))
    assert {key: STAGED.view(state, 1)[key] for key in ("phase_label", "stage_label")} == {
        "phase_label": "racing", "stage_label": "choosing"}
    state = raced((1, {"type": "lock"}), (2, {"type": "lock"}), (3, {"type": "lock"}), state=state)
    assert STAGED.view(state, HOST)["stage_label"] == "asking"


def test_a_stage_without_moves_of_its_own_takes_the_phases():
    state = raced((HOST, {"type": "start"}))
    assert sorted(a["type"] for a in STAGED.legal_actions(state, 1)) == ["keep_board", "lock"]


def test_the_stage_advances_when_its_next_says_so_and_its_own_moves_replace_the_phases():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}))
    state, events = STAGED.apply(state, 3, {"type": "lock"}, rng())
    assert state["stage"] == "asking" and events[-1] == {"type": "asked", "seat": 1}
    refused_by(STAGED, state, 1, {"type": "lock"}, "Not now: the table is asking")
    assert [a["type"] for a in STAGED.legal_actions(state, 1)] == ["answer", "keep_board"]


def test_an_off_stage_actor_is_refused_before_the_move_runs():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}), (3, {"type": "lock"}))
    refused_by(STAGED, state, 2, {"type": "answer"}, "Not your turn: the table is asking")
    refused_by(STAGED, raced((HOST, {"type": "start"}), (1, {"type": "lock"})), 1, {"type": "lock"},
               "Not your turn: the table is choosing")


def test_a_move_with_its_own_actors_is_open_to_them_whoever_the_stage_waits_on():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}))
    state, _ = STAGED.apply(state, 1, {"type": "keep_board"}, rng())  # 1 is no chooser any more
    assert state["kept"] == 1
    assert raced((1, {"type": "keep_board"}), state=state)["kept"] == 2
    refused_by(STAGED, state, 1, {"type": "lock"}, "Not your turn")


def test_waiting_reads_the_stage_actors_label_and_timing():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}))
    assert STAGED.waiting(state) == [{"seat": s, "for": "choosing", "params": {}, "timed": False} for s in (2, 3)]
    state = raced((2, {"type": "lock"}), (3, {"type": "lock"}), state=state)
    assert STAGED.waiting(state) == [{"seat": 1, "for": "asking", "params": {}, "timed": True}]


def test_leaving_a_phase_drops_its_stage():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}), (3, {"type": "lock"}),
                  (1, {"type": "answer"}))
    assert state["phase"] == "done" and "stage" not in state and "stage" not in STAGED.view(state, 1)


def test_a_state_saved_without_its_stage_is_in_the_phases_first_stage():
    state = raced((HOST, {"type": "start"}))
    del state["stage"]
    assert STAGED.view(state, None)["stage"] == "choosing"


def test_the_kernel_keeps_the_last_events_of_moves_and_begins_in_one_history():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}), (3, {"type": "lock"}))
    assert state["history"] == [{"type": "locked", "seat": 2}, {"type": "locked", "seat": 3},
                                {"type": "asked", "seat": 1}]


# Leaving and timeouts are moves ----------------------------------------------------------------
def test_leaving_runs_as_a_move_copy_advance_decide_and_history_once():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}))
    before = copy.deepcopy(state)
    hooks = STAGED.hooks()
    after, events = hooks["withdraw"](state, 3, rng())
    assert state == before, "leaving mutated its input"
    assert events == [{"type": "left", "seat": 3}, {"type": "asked", "seat": 1}]  # 3 was the last chooser
    assert after["stage"] == "asking" and after["history"][-2:] == events and after["outcome"] is None
    after, events = hooks["withdraw"](after, 2, rng())
    assert after["outcome"] == {"winners": [1], "reason": "the last racer", "ranking": [[1]]}


def test_a_leave_the_rules_refuse_or_after_the_end_changes_nothing():
    state = raced((HOST, {"type": "start"}))
    left, _ = STAGED.withdraw(state, 3, rng())
    assert STAGED.withdraw(left, 3, rng()) == (left, [])  # already left: its check says no
    over, _ = STAGED.withdraw(left, 2, rng())
    assert over["outcome"] is not None and STAGED.withdraw(over, 1, rng()) == (over, [])


def test_a_timeout_is_a_move_too_and_the_kernel_declares_both_hooks():
    state = raced((HOST, {"type": "start"}), (1, {"type": "lock"}), (2, {"type": "lock"}), (3, {"type": "lock"}))
    after, events = STAGED.hooks()["on_timeout"](state, 1, rng())
    assert events == [{"type": "handed_on", "to": 2}] and STAGED.waiting(after)[0]["seat"] == 2
    assert "withdraw" not in RULES.hooks() and "on_timeout" not in RULES.hooks()  # the table's defaults


def check_leaderless(state, seat, action):
    if state["leader"] is not None:
        raise IllegalAction(N_("Nothing waits for that seat."))


def draw_leader(state, seat, action, rng):
    state["leader"] = state["racers"][rng.randint(0, len(state["racers"]) - 1, a_draw("leader"))]
    return [{"type": "leader_drawn", "seat": state["leader"]}]


def test_a_fresh_draw_the_game_asks_for_is_a_system_move_too():
    """The table's draw a game asks for (Rayman's lost choice) runs as a move: copy, draw, history once."""
    drawing = dataclasses.replace(STAGED, fresh=Move(run=draw_leader, check=check_leaderless))
    state = {**raced((HOST, {"type": "start"})), "leader": None}
    before = copy.deepcopy(state)
    after, events = drawing.hooks()["fresh_draw"](state, rng())
    assert state == before, "the fresh draw mutated its input"
    assert events == [{"type": "leader_drawn", "seat": after["leader"]}] and after["leader"] in (1, 2, 3)
    assert after["history"][-1] == events[0]
    assert drawing.fresh_draw(after, rng()) == (after, [])  # its check says nothing waits: nothing is drawn
    assert "fresh_draw" not in STAGED.hooks()
