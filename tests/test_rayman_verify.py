"""Rayman in the verifier: a game's log checks out with every event checked (no "not checked" note),
both a co-op round played on the real server by real clients and games played by bots through the rules
and the table's draws (they reach a tie-break, which distinct initiatives on the server never do); a
changed die, a changed revealed choice, a tie-break removed (its roll, or its draw) are each reported
at their entry, by ``verify_log`` and by the verify page's ``verifyLog`` alike."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion.games.rayman import SETUP_PHASES
from companion.games.rayman.audit import draw_check
from companion.verify import Step, verify_log
from tests.helpers import bearer
from tests.screen import WAIT
from tests.server import ServerProcess, server_fixture
from tests.test_browser import PHONE, browser, open_context  # noqa: F401  (the Chromium fixtures)
from tests.test_rayman_audit import first, logged_game
from tests.test_rayman_server import FAST, ROLL, Racer, Table, drive, race_move, setup_move

SEED = "c4" * 32  # logged_game's seed


def document(entries: list[dict], options: dict) -> dict:
    """The log as ``GET /api/tables/<code>/log`` serves it once the table is closed."""
    created = {"kind": "table", "type": "created", "game": "rayman", "options": options}
    numbered = [{**entry, "i": number} for number, entry in enumerate([created] + entries)]
    return {"code": "RAYM", "game": "rayman", "seed": SEED,
            "commitment": hashlib.sha256(bytes.fromhex(SEED)).hexdigest(), "entries": numbered}


server = server_fixture("rayman-verify", FAST)


def served_coop_round(server: ServerProcess) -> dict:
    """Two phones play a co-op round against the Boss on the real server; the host closes the table."""
    table = Table.create(server.url, {"mode": "coop"}, players=2)
    racers = {1: Racer(1, jump=12), 2: Racer(2, keeps_position=False)}
    table.connect()
    try:
        table.start()
        drive(table, setup_move, lambda game: game["phase"] not in SETUP_PHASES)
        table.act("host", {"type": "answer", "question": "boss_move", "value": 6})
        table.act(1, ROLL)  # the Boss's die, on Ana's phone
        drive(table, race_move(racers), lambda game: (game["round"] or {}).get("number") == 2)
        closed = requests.post(f"{table.url}/api/tables/{table.code}/close", headers=bearer(table.host_token),
                               timeout=WAIT)
        assert closed.status_code == 200
        return table.log()
    finally:
        table.disconnect()


@pytest.fixture(scope="module")
def logs(server) -> dict:
    intermediate = document(logged_game({"difficulty": "intermediate"}, 3), {"difficulty": "intermediate"})
    coop = document(logged_game({"mode": "coop", "boss_move": 5}, 2), {"mode": "coop", "boss_move": 5})
    return {"served": served_coop_round(server), "intermediate": intermediate, "coop": coop}


def changed(log: dict, kind: str, edit) -> tuple[dict, int]:
    """A copy of the log with the first ``kind`` event edited in place; the entry's number."""
    log = copy.deepcopy(log)
    entry = first(log["entries"], kind)
    edit(entry["event"])
    return log, entry["i"]


def flip_a_choice(event: dict) -> None:
    choice = event["choices"][0]["choice"]
    choice["bubble"] = not choice["bubble"]


def a_tie_roll_dropped(event: dict) -> None:
    tie = next(tie for tie in event["tie_rolls"] if tie["seats"])
    tie["seats"], tie["rolls"] = tie["seats"][:-1], tie["rolls"][:-1]


def tie_revealed(log: dict) -> dict:
    return next(entry for entry in log["entries"] if entry["kind"] == "event"
                and entry["event"]["type"] == "revealed" and entry["event"].get("tie_rolls"))


def tie_draw_removed(log: dict) -> tuple[dict, int]:
    """The first tie-break draw taken out of the log: the reveal that tells its roll is reported."""
    log = copy.deepcopy(log)
    draw = next(entry for entry in log["entries"] if entry["kind"] == "draw" and entry["purpose"]["kind"] == "tie_break")
    log["entries"].remove(draw)
    return log, tie_revealed(log)["i"]


def tie_roll_dropped(log: dict) -> tuple[dict, int]:
    """The last roll of a reveal's tie-break taken out of the reveal: its draw, left over, is reported."""
    log = copy.deepcopy(log)
    tie = tie_revealed(log)
    a_tie_roll_dropped(tie["event"])
    return log, max(entry["i"] for entry in log["entries"] if entry["kind"] == "draw"
                    and entry["purpose"]["kind"] == "tie_break" and entry["i"] < tie["i"])


def last_draw_before(log: dict, where: int, kind: str) -> int:
    return max(entry["i"] for entry in log["entries"] if entry["kind"] == "draw"
               and entry["purpose"]["kind"] == kind and entry["i"] < where)


def events_removed(log: dict, kind: str, draw_kind: str, every: bool = False) -> tuple[dict, int]:
    """The first ``kind`` event (``every``: all of them) taken out of the log: the draw it used, left
    over, is reported at its entry (with two draws of a kind in one action, the last one is left)."""
    log = copy.deepcopy(log)
    removed = first(log["entries"], kind)
    where = last_draw_before(log, removed["i"], draw_kind)
    log["entries"] = [entry for entry in log["entries"] if not (
        entry is removed or every and entry["kind"] == "event" and entry["event"]["type"] == kind)]
    return log, where


def first_roller_ignored(log: dict) -> tuple[dict, int]:
    """Round 1's projectile die rolled by nobody in particular: the first roller's draw is used by nothing."""
    log, where = changed(log, "projectile_roll", lambda event: event.update(seat=None))
    return log, last_draw_before(log, where, "first_roller")


# A Boss die of 1 and its level written as ``true``: the same number to Python alone, a change to both.
BOOLEAN_DIE = {"options": {}, "draws": [{"i": 0, "kind": "draw", "n": 0, "purpose": {"kind": "boss_level", "round": 1},
                                         "result": 1}],
               "entries": [{"i": 1, "kind": "event", "event": {"type": "boss_roll", "die": True, "level": True}}]}


def test_a_die_logged_as_true_is_not_taken_for_a_one():
    problems = draw_check().step(Step(**BOOLEAN_DIE))
    assert [where for where, _ in problems] == [1, 1]


@pytest.fixture(scope="module")
def tampered(logs) -> dict:
    """Each tampered log and the entry where its change must be reported."""
    return {
        "projectile die": changed(logs["intermediate"], "projectile_roll", lambda event: event.update(die=event["die"] % 6 + 1)),
        "Boss die": changed(logs["coop"], "boss_roll", lambda event: event.update(die=event["die"] % 6 + 1)),
        "served Boss die": changed(logs["served"], "boss_roll", lambda event: event.update(die=event["die"] % 6 + 1)),
        "revealed choice": changed(logs["intermediate"], "revealed", flip_a_choice),
        "served revealed choice": changed(logs["served"], "revealed", flip_a_choice),
        "tie roll dropped": tie_roll_dropped(logs["intermediate"]),
        "tie draw removed": tie_draw_removed(logs["intermediate"]),
        "random discard count": changed(logs["served"], "random_discards", lambda event: event.update(count=1)),
        "random discard removed": events_removed(logs["served"], "random_discards", "random_discard"),
        "projectile die removed": events_removed(logs["intermediate"], "projectile_roll", "projectile_level"),
        "Boss die removed": events_removed(logs["coop"], "boss_roll", "boss_level"),
        "Boss card removed": events_removed(logs["coop"], "boss_card", "boss_cards_shuffle"),
        "draft removed": events_removed(logs["intermediate"], "draft_revealed", "extra_cards_shuffle", every=True),
        "first roller unused": first_roller_ignored(logs["intermediate"]),
    }


def test_an_honest_rayman_log_is_checked_event_by_event(logs):
    for log in logs.values():
        report = verify_log(log)
        assert report.ok and report.problems == [] and report.draws_checked > 0
        assert not any("not checked" in note for note in report.notes)
    kinds = {entry["event"]["type"] for entry in logs["intermediate"]["entries"] if entry["kind"] == "event"}
    assert {"projectile_roll", "draft_revealed", "revealed", "locked"} <= kinds
    assert any(entry["event"].get("tie_rolls") for entry in logs["intermediate"]["entries"] if entry["kind"] == "event")


@pytest.mark.parametrize("case", ["projectile die", "Boss die", "served Boss die", "revealed choice",
                                  "served revealed choice", "tie roll dropped", "tie draw removed",
                                  "random discard count", "random discard removed", "projectile die removed",
                                  "Boss die removed", "Boss card removed", "draft removed", "first roller unused"])
def test_a_tampered_rayman_log_is_reported_at_its_entry(tampered, case):
    log, where = tampered[case]
    report = verify_log(log)
    assert not report.ok and where in [entry for entry, _ in report.problems], report.problems


def test_the_page_gives_the_same_verdicts_and_entries_as_the_cli(logs, tampered, replay_tampered, server,
                                                                  open_context):  # noqa: F811
    """The page's own script does not replay the game (the page runs the CLI's Python for that,
    tests/test_verify_page_replay.py): of the replay's findings it gives the same for an action missing
    from the log and an undo of an action the game had moved past, which the log's structure shows."""
    structural = ("action removed", "stale undo")
    cases = {**{f"honest {name}": log for name, log in logs.items()},
             **{name: log for name, (log, _) in tampered.items()},
             **{name: replay_tampered[name][0] for name in structural}}
    phone = open_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{server.url}/")
    in_page = page.evaluate("""async (cases) => {
        const { verifyLog } = await import('/static/js/fairness.js');
        return Object.fromEntries(Object.entries(cases).map(([name, log]) => {
            const report = verifyLog(log, null);
            return [name, { ok: report.ok, entries: report.problems.map((p) => p.i),
                            notes: report.notes.map((n) => n.text) }];
        }));
    }""", cases)
    boolean_die = page.evaluate("""async (step) => {
        const { raymanCheck } = await import('/static/js/games/rayman-draws.js');
        return raymanCheck().step(step).map((p) => p.i);
    }""", BOOLEAN_DIE)
    assert boolean_die == [where for where, _ in draw_check().step(Step(**BOOLEAN_DIE))] == [1, 1]
    for name, log in cases.items():
        report = verify_log(log)
        assert {key: in_page[name][key] for key in ("ok", "entries")} == {
            "ok": report.ok, "entries": [where for where, text in report.problems + report.replay
                                         if not text.startswith("replay: ") or name in structural]}, name
        assert not any("not checked" in note for note in in_page[name]["notes"]), name
    assert [in_page[f"honest {name}"]["ok"] for name in logs] == [True] * len(logs)
    assert not any(in_page[name]["ok"] for name in [*tampered, *structural])
    phone.assert_clean()


# The replay (companion.replay): the served game is run again from its logged actions, by the CLI.

def action_at(log: dict, kind: str, number: int = 0) -> dict:
    return [entry for entry in log["entries"] if entry["kind"] == "action"
            and (entry.get("action") or {}).get("type") == kind][number]


def action_edited(log: dict, kind: str, edit, number: int = 0) -> tuple[dict, int]:
    log = copy.deepcopy(log)
    entry = action_at(log, kind, number)
    edit(entry["action"])
    return log, entry["i"]


def action_removed(log: dict, kind: str) -> tuple[dict, int]:
    """An action taken out of the log: the events it made, left without it, are reported."""
    log = copy.deepcopy(log)
    entry = action_at(log, kind)
    log["entries"].remove(entry)
    return log, min(e["i"] for e in log["entries"] if e["i"] > entry["i"] and e["kind"] in ("draw", "event"))


def action_added(log: dict, kind: str) -> tuple[dict, int]:
    """A copy of a past action written again just before the table closed: the rules refuse it there."""
    log = copy.deepcopy(log)
    extra = {**copy.deepcopy(action_at(log, kind)), "i": len(log["entries"]) + 100}
    closed = next(entry for entry in log["entries"] if entry.get("type") == "closed")
    log["entries"].insert(log["entries"].index(closed), extra)
    return log, extra["i"]


def stale_undo(log: dict) -> tuple[dict, int]:
    """An undo of the first board entry written at the end: the game had moved on since."""
    log = copy.deepcopy(log)
    entry = action_at(log, "position")
    undo = {"kind": "table", "type": "undone", "seat": entry["seat"], "action": "position", "by": "seat",
            "entries": [entry["i"], entry["i"] + 1], "i": len(log["entries"]) + 200}
    closed = next(e for e in log["entries"] if e.get("type") == "closed")
    log["entries"].insert(log["entries"].index(closed), undo)
    return log, undo["i"]


def final_state_edited(log: dict) -> tuple[dict, int]:
    log = copy.deepcopy(log)
    closed = next(entry for entry in log["entries"] if entry.get("type") == "closed")
    closed["state"] = "0" * 64 if closed["state"] != "0" * 64 else "1" * 64
    return log, closed["i"]


def character_renamed(event: dict) -> None:
    event["character"] = "Globox" if event["character"] != "Globox" else "Rayman"


@pytest.fixture(scope="module")
def replay_tampered(logs) -> dict:
    served = logs["served"]
    return {
        "answer changed": action_edited(served, "answer", lambda action: action.update(value=action["value"] - 1)),
        "move changed": action_edited(served, "position", lambda action: action.update(column=action["column"] + 1), 1),
        "reveal changed": action_edited(served, "reveal", lambda action: action["choice"].update(
            left=action["choice"]["second"], second=action["choice"]["left"])),
        "action removed": action_removed(served, "free"),
        "action added": action_added(served, "end_turn"),
        "event changed": changed(served, "character_chosen", character_renamed),
        "final state changed": final_state_edited(served),
        "stale undo": stale_undo(served),
    }


def test_a_served_rayman_game_replays_from_its_log_to_its_final_state(logs):
    log = logs["served"]
    actions = [entry for entry in log["entries"] if entry["kind"] == "action"]
    assert [entry["call"] for entry in actions[:1]] == ["setup"] and len(actions) > 10
    assert all("action" in entry for entry in actions[1:])  # unsealed: the seed is revealed
    report = verify_log(log)
    assert report.ok and report.replay == []
    assert f"the game was replayed from its {len(actions)} logged actions: the same events and the same final " \
           "state" in report.notes


@pytest.mark.parametrize("case", ["answer changed", "move changed", "reveal changed", "action removed",
                                  "action added", "event changed", "final state changed", "stale undo"])
def test_a_tampered_action_is_reported_at_its_entry_by_the_replay(replay_tampered, case):
    log, where = replay_tampered[case]
    report = verify_log(log)
    assert not report.ok and where in [entry for entry, _ in report.replay], report.replay
    assert all(text.startswith("replay: ") for _, text in report.replay)


def test_an_older_log_without_actions_still_verifies_and_says_it_is_not_replayed(logs):
    log = copy.deepcopy(logs["served"])
    log["entries"] = [entry for entry in log["entries"] if entry["kind"] != "action"]
    del log["entries"][0]["actions"]
    report = verify_log(log)
    assert report.ok and report.replay == []
    assert "entry 0: this log does not record the game's actions (older format): the game is not replayed" in report.notes


def cli(log: dict, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    return subprocess.run([sys.executable, "-m", "companion.verify", str(path)], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parent.parent)


def test_the_cli_reports_a_tampered_action_and_a_tampered_die_and_exits_1(replay_tampered, tampered, tmp_path):
    log, where = replay_tampered["answer changed"]
    run = cli(log, tmp_path)
    assert run.returncode == 1 and f"entry {where}: replay: " in run.stdout, run.stdout + run.stderr
    # Run as ``-m``, the CLI runs Rayman's own checks too (they were left out: "not checked against the draws").
    log, where = tampered["served Boss die"]
    run = cli(log, tmp_path)
    assert run.returncode == 1 and f"entry {where}: the Boss die says " in run.stdout, run.stdout + run.stderr
    assert "not checked" not in run.stdout
