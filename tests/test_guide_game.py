"""Pig (tests/guide_game.py), a game written from docs/ADDING_A_GAME.md alone: the shared random
play, and a whole game on the real server with real Socket.IO phones, verified afterwards.

Bad input tried: a roll out of turn, a hold before any roll, an unknown action, an action after the
game ended."""

from __future__ import annotations

import pytest

import tests.guide_game  # noqa: F401  (registers Pig here too: the verifier replays its games)
from companion.games import REGISTRY
from companion.verify import verify_log
from tests.live_table import LiveTable, closed_after
from tests.random_play import Config, play
from tests.server import server_fixture

PIG = REGISTRY["pig"]


@pytest.mark.parametrize("picks", range(3))
def test_pig_keeps_every_promise_of_the_kernel_at_random(picks):
    walk = play(PIG, Config("three", {"target": 20}, seats=3), picks)
    assert PIG.outcome(walk.state) is not None


server = server_fixture("pig", {"COMPANION_GAME_MODULES": "tests.guide_game", "COMPANION_AWAY_SECONDS": "0",
                                "COMPANION_RATE_BURST": "200", "COMPANION_RATE_PER_SECOND": "200"})


@pytest.fixture
def table(server):
    with closed_after(lambda: LiveTable(server, "pig", {"target": 10}, ("Ana", "Bo"))) as open_table:
        yield open_table


def started(t: LiveTable) -> dict:
    return t.host.wait_for(lambda view: view["table"]["status"] == "playing" and view["game"] is not None)


def test_a_whole_game_of_pig_on_the_real_server_ends_and_verifies(table):
    t = table()
    ana, bo = t.seat("Ana"), t.seat("Bo")
    version = started(t)["version"]
    refused = t.phones["Ana"].act({"type": "hold"})
    assert refused["ok"] is False and "Roll at least once" in refused["error"]
    assert t.phones["Bo"].act({"type": "roll"})["ok"] is False  # not Bo's turn: the kernel refuses it
    assert t.phones["Ana"].act({"type": "fly"})["ok"] is False
    for _ in range(400):  # each seat rolls until it has 6 or more, then holds
        view = t.host.wait_for(lambda view, seen=version: view["version"] >= seen)
        game, version = view["game"], view["version"] + 1
        if game["outcome"] is not None:
            break
        name = "Ana" if game["waiting"][0]["seat"] == ana else "Bo"
        answer = t.phones[name].play({"type": "hold" if game["running"] >= 6 else "roll"})
        assert answer["ok"], answer
    game = t.host.wait_for(lambda view: view["game"]["outcome"] is not None)["game"]
    assert game["outcome"]["winners"][0] in (ana, bo)
    assert max(game["banked"].values()) >= 10
    assert t.phones["Ana"].act({"type": "roll"})["ok"] is False  # the game is over
    t.host.play({"type": "table.close"})
    report = verify_log(t.log())
    assert report.ok, report.message
    assert report.draws_checked > 0


def test_a_seat_that_leaves_pig_is_a_move_of_the_kernel_and_the_last_one_wins(table):
    t = table()
    started(t)
    t.host.play({"type": "table.withdraw", "seat": t.seat("Bo")})
    game = t.host.wait_for(lambda view: view["game"]["outcome"] is not None)["game"]
    assert game["outcome"]["winners"] == [t.seat("Ana")] and game["out"] == [t.seat("Bo")]
