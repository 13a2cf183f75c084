"""Every game replays from its log (companion.replay): a random game of each, through its rules and the
table's draws, written as the table writes it (an action entry before each call's draws and events, the
final state's digest at the close), verifies and replays to the same events and final state; a changed
action, a dropped draw and an undo of an action the game had moved past are each reported at their entry."""

from __future__ import annotations

import copy
import random

import pytest

from companion import fairness
from companion.games import REGISTRY
from companion.games.rayman import SETUP_PHASES
from companion.replay import action_entry, state_digest
from companion.verify import page_report, verify_log
from tests.random_play import CONFIGS, SEED, act, choices, pick, start

STEPS = 60  # enough to reach each game's draws; the log is closed where the walk stops


def logged_walk(game_id: str, steps: int = STEPS, ended: dict | None = None, config: int = 0) -> dict:
    """A random walk of the game's configuration (its first by default), as ``GET /api/tables/<code>/log``
    serves it closed (without the phones' entropy: the harness draws for the table). ``ended`` receives
    the walk."""
    game, config = REGISTRY[game_id], CONFIGS[game_id][config]
    walk = start(game, config)
    options = game.normalize_options(copy.deepcopy(config.options))
    options, seats = config.prepare(options, config.make_seats(config.seats))
    # The start's own round (companion.fairness.Entropy.open_for): no phone to ask, it seals the pool as it was.
    start_round = [{"kind": "round", "round": 1, "asked": [], "why": "start"},
                   {"kind": "pool", "round": 1, "epoch": 1, "pool": fairness.EMPTY_POOL, "for": []}]
    entries = [{"kind": "table", "type": "created", "game": game_id, "options": options, "actions": True},
               *start_round, action_entry("setup", options=options, seats=seats), *draws_of(walk.rng.draws),
               {"kind": "table", "type": "started"}]
    picker = random.Random(7)
    for _ in range(steps):
        listed = choices(walk)
        if game.outcome(walk.state) is not None or not listed:
            break
        seat, action = pick(listed, picker)
        made = len(walk.rng.draws)
        step = act(walk, seat, action)
        entries += [action_entry("apply", seat, action=step.action), *draws_of(walk.rng.draws[made:]),
                    *({"kind": "event", "seat": seat, "event": event} for event in step.events)]
    entries.append({"kind": "table", "type": "closed", "seed": SEED, "state": state_digest(walk.state)})
    if ended is not None:
        ended["walk"] = walk
    return {"code": "REPL", "game": game_id, "seed": SEED, "commitment": fairness.commitment_of(SEED),
            "entries": [{**entry, "i": number} for number, entry in enumerate(entries)]}


def draws_of(draws: list[dict]) -> list[dict]:
    return [{"kind": "draw", **draw} for draw in draws]


@pytest.fixture(scope="module")
def logs() -> dict:
    return {game_id: logged_walk(game_id) for game_id in sorted(CONFIGS)}


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_a_random_game_replays_from_its_log(logs, game_id):
    log = logs[game_id]
    actions = [entry for entry in log["entries"] if entry["kind"] == "action"]
    report = verify_log(log)
    # (The harness draws for the table, not the seat: Dice's own check wants the roller's draws.)
    assert report.replay == [] and (report.ok or game_id == "dice"), (report.problems + report.replay)[:3]
    assert f"the game was replayed from its {len(actions)} logged actions: the same events and the same final " \
           "state" in report.notes


WALKED = [(game_id, index) for game_id, configs in sorted(CONFIGS.items()) for index in range(len(configs))]


@pytest.mark.parametrize("game_id, config", WALKED, ids=[f"{g}-{CONFIGS[g][i].name}" for g, i in WALKED])
def test_every_configuration_replays_to_the_state_its_walk_ended_in(game_id, config):
    """The walk keeps its states in memory, the replay as the store keeps them (JSON): a list the rules put
    in two places (Rayman's draft table and its draft_revealed event, kept in the history) and changed in
    one later changed both in memory only, and a solo race with extra cards replayed to another state."""
    report = verify_log(logged_walk(game_id, config=config))
    assert report.replay == [] and (report.ok or game_id == "dice"), (report.problems + report.replay)[:3]


def test_a_changed_action_a_dropped_draw_and_a_stale_undo_are_reported_at_their_entry(logs):
    log = logs["dice"]
    rolls = [entry for entry in log["entries"] if entry["kind"] == "action"
             and entry.get("action", {}).get("type") == "roll"]
    changed = copy.deepcopy(log)  # the second roll said to be another seat's
    other = next(seat for seat in (1, 2, 3) if seat != rolls[1]["seat"])
    changed["entries"][rolls[1]["i"]]["seat"] = other
    assert [where for where, _ in verify_log(changed).replay] == [rolls[1]["i"], rolls[1]["i"] + 1]

    dropped = copy.deepcopy(log)
    draw = next(entry for entry in dropped["entries"] if entry["kind"] == "draw" and entry["i"] > rolls[1]["i"])
    dropped["entries"].remove(draw)
    assert rolls[1]["i"] in [where for where, _ in verify_log(dropped).replay]  # the rules draw, the log does not

    # An undo naming the first roll, written after the second: the game had moved on.
    stale = copy.deepcopy(log)
    after = next(k for k, entry in enumerate(stale["entries"])
                 if entry["i"] > rolls[1]["i"] and entry["kind"] == "event")
    undo = {"kind": "table", "type": "undone", "seat": rolls[0]["seat"], "entries": [rolls[0]["i"]],
            "by": "seat", "i": 10_000}
    stale["entries"].insert(after + 1, undo)
    assert [where for where, _ in verify_log(stale).replay][:1] == [10_000]



def test_a_deadline_and_a_withdrawal_replay_as_the_table_logs_them():
    """The table's own calls: a deadline settled by the game's rule, then a seat taken out of the game."""
    game, walked = REGISTRY["rayman"], {}
    # Novice, two seats (a harsh co-op walk is lost before its first round): the first walk that reached a round
    for steps in range(6, 40):
        log = logged_walk("rayman", steps=steps, ended=walked, config=1)
        if game.outcome(walked["walk"].state) is None and walked["walk"].state["phase"] not in SETUP_PHASES:
            break
    assert walked["walk"].state["round"] is not None
    closed = log["entries"].pop()
    state, rng, entries = walked["walk"].state, walked["walk"].rng, []
    for kind, call, rule in (("timed_out", "timeout", game.on_timeout), ("withdrawn", "withdraw", game.withdraw)):
        made = len(rng.draws)
        state, events = rule(state, 1, rng)
        entries += [{"kind": "table", "type": kind, "seat": 1}, action_entry(call, 1), *draws_of(rng.draws[made:]),
                    *({"kind": "event", "seat": 1, "event": event} for event in events)]
    log["entries"] = [{**entry, "i": number} for number, entry in enumerate(
        log["entries"] + entries + [{**closed, "state": state_digest(state)}])]
    report = verify_log(log)
    assert report.ok and report.replay == [], (report.problems + report.replay)[:3]
    assert [e["call"] for e in log["entries"] if e["kind"] == "action"][-2:] == ["timeout", "withdraw"]


def test_a_refusal_of_the_rules_is_quoted_as_a_message_of_its_own_for_the_page():
    """The CLI prints the refusal's English; the verify page gets its msgid and fields, which it shows in
    its own language (tests/test_verify_page_replay.py shows it in French)."""
    log = logged_walk("dice")
    where = next(entry["i"] for entry in log["entries"] if entry.get("call") == "apply")
    log["entries"][where]["action"]["type"] = "no-such-action"
    report = verify_log(log)
    assert any("Unknown action: no-such-action." in text for _, text in report.replay)
    quoted = [problem["params"]["refusal"] for problem in page_report(log)["replay"] if "refusal" in problem["params"]]
    assert quoted == [{"text": "Unknown action: %(action)s.", "params": {"action": "no-such-action"}}]
