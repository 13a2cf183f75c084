"""The attacks of issue 13 on the table's randomness, against the real server process.

The attacker is the operator: it reads the whole database (so it knows the seed),
makes phones of its own and controls the host screen. Each test replays one attack
and shows what stops it; docs/fairness.md explains why it holds in general."""

from __future__ import annotations

import secrets
import sqlite3

import pytest
import requests

from companion import fairness
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.phones import ChainPhone, answer_rounds
from tests.server import ServerProcess, server_fixture

TIMEOUT = 20


server = server_fixture("attacks")


def new_table(server, game="dice", **options) -> dict:
    created = requests.post(f"{server.url}/api/tables", json={"game": game, "options": options}, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    return created.json()


def what_the_operator_reads(server) -> str:
    """Everything in the server's database, as the operator sees it."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return "\n".join(db.iterdump())


def seed_from_database(server, code: str) -> str:
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return db.execute("SELECT seed FROM tables WHERE code = ?", (code,)).fetchone()[0]


def log(server, code: str) -> dict:
    return requests.get(f"{server.url}/api/tables/{code}/log", timeout=TIMEOUT).json()


def close(server, table: dict) -> dict:
    closed = requests.post(f"{server.url}/api/tables/{table['code']}/close", headers=bearer(table["host_token"]),
                           timeout=TIMEOUT)
    assert closed.status_code == 200, closed.text
    return log(server, table["code"])


def test_the_grinding_late_join_cannot_force_an_honest_players_rolls(server):
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    answer_rounds(ana)
    assert ana.roll().status_code == 200
    seed = seed_from_database(server, table["code"])
    # The attack: with the seed and the pool, try entropy for a phone of the operator's
    # until the next three draws are 6, 6, 6 (152 tries did it before).
    pool = requests.get(f"{server.url}/api/tables/{table['code']}", timeout=TIMEOUT).json()["table"]["entropy"]["pool"]
    next_n = len([e for e in log(server, table["code"])["entries"] if e["kind"] == "draw"])
    ground = None
    for _ in range(2000):
        candidate = secrets.token_hex(32)
        mixed = fairness.mix_pool(pool, fairness.chain(candidate, 1)[1])
        if all(fairness.recompute(seed, {"n": next_n + i, "by": None, "pool": mixed, "type": "int", "lo": 1, "hi": 6})
               == 6 for i in range(3)):
            ground = candidate
            break
    assert ground is not None, "the grinding itself should find such entropy within 2000 tries"
    mallory = ChainPhone(server.url, table["code"], "Mallory", secret=ground)
    known_at_join = what_the_operator_reads(server)
    answer_rounds(ana, mallory)
    rolls = [ana.roll() for _ in range(3)]
    assert all(answer.status_code == 200 for answer in rolls)

    entries = log(server, table["code"])["entries"]
    anas_draws = [e for e in entries if e["kind"] == "draw" and e["by"] == ana.seat][-3:]
    # Each of Ana's draws depends on a value her phone revealed only with that roll, and the
    # round's pool on one it revealed after Mallory had committed: none was anywhere the
    # operator could read when it chose Mallory's entropy, so it could not aim at her rolls.
    fresh = [draw["reveal"] for draw in anas_draws]
    round_values = [e["value"] for e in entries if e["kind"] == "reveal" and e["seat"] == ana.seat][1:]
    assert len(set(fresh)) == 3 and round_values
    for value in fresh + round_values:
        assert value not in known_at_join
    assert all(draw["pool"] != fairness.mix_pool(pool, fairness.chain(ground, 1)[1]) for draw in anas_draws)
    # What the operator computed is not what was drawn: the draws are not numbered by the table.
    assert all(fairness.draw_label(draw).startswith(f"seat|{ana.seat}|") for draw in anas_draws)
    report = verify_log(close(server, table), ana.record)
    assert report.ok, report.problems


def test_an_operator_made_phone_joining_last_can_only_abort(server):
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    answer_rounds(ana)
    mallory = ChainPhone(server.url, table["code"], "Mallory")  # the operator's phone joins last
    assert ana.asked() and mallory.asked()
    ana.answer_round()
    # Mallory now knows every input of the pool its reveal would seal: it withholds.
    before = ana.view()["table"]["entropy"]["pool"]
    anas_value = ana.chain[ana.k]
    with_mallory = fairness.seal(before, {str(ana.seat): anas_value, str(mallory.seat): mallory.chain[1]})
    without_mallory = fairness.seal(before, {str(ana.seat): anas_value})
    entries_before = log(server, table["code"])["entries"]
    refused = mallory.roll()
    assert refused.status_code == 409 and "not in the pool yet" in refused.json()["error"]
    assert log(server, table["code"])["entries"] == entries_before
    assert ana.roll().status_code == 200  # the table does not stall: Ana plays from the pool she is in

    # Nobody but the host may go on without a phone, and only while a round waits.
    assert ana.post({"type": "table.entropy_restart"}).status_code == 403
    known_at_abort = what_the_operator_reads(server)
    restarted = requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                              json={"type": "table.entropy_restart"}, timeout=TIMEOUT)
    assert restarted.status_code == 200 and restarted.json()["events"] == [
        {"type": "entropy_restarted", "without": [mallory.seat]}]
    assert ana.asked() and not mallory.asked()
    ana.answer_round()
    sealed = ana.view()["table"]["entropy"]
    assert sealed["round"] is None
    # The new pool is neither of the two Mallory could compute: it holds a value Ana revealed after the abort.
    assert sealed["pool"] not in (with_mallory, without_mallory, before)
    assert ana.chain[ana.k] not in known_at_abort
    again = requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                          json={"type": "table.entropy_restart"}, timeout=TIMEOUT)
    assert again.status_code == 409
    assert mallory.roll().status_code == 200  # in a pool sealed after its anchor: it may play, it chose nothing
    report = verify_log(close(server, table), ana.record)
    assert report.ok, report.problems
    assert verify_log(log(server, table["code"]), mallory.record).ok


def test_a_pool_that_stays_empty_feeds_no_draw(server):
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    entries = log(server, table["code"])["entries"]
    refused = ana.roll()
    assert refused.status_code == 409 and "not in the pool yet" in refused.json()["error"]
    assert log(server, table["code"])["entries"] == entries
    answer_rounds(ana)
    assert ana.roll().status_code == 200
    draw = next(e for e in log(server, table["code"])["entries"] if e["kind"] == "draw")
    assert draw["pool"] == fairness.mix_pool(fairness.EMPTY_POOL, ana.chain[1]) != fairness.EMPTY_POOL

    # A game that starts from the lobby: no start (and no setup draw) while a phone's value is missing.
    lobby = new_table(server, "arkade")
    phones = [ChainPhone(server.url, lobby["code"], name) for name in ("Ana", "Bo")]
    phones[0].answer_round()
    start = lambda: requests.post(f"{server.url}/api/tables/{lobby['code']}/actions",  # noqa: E731
                                  headers=bearer(lobby["host_token"]), json={"type": "table.start"}, timeout=TIMEOUT)
    entries = log(server, lobby["code"])["entries"]
    assert start().status_code == 409
    assert log(server, lobby["code"])["entries"] == entries
    answer_rounds(*phones)
    assert start().status_code == 200
    # The start opens a round of its own: no setup draw until every phone revealed a value after it.
    assert not [e for e in log(server, lobby["code"])["entries"] if e["kind"] == "draw"]
    assert phones[0].view()["table"]["status"] == "lobby"
    answer_rounds(*phones)
    assert phones[0].view()["table"]["status"] == "playing"
    setup_draws = [e for e in log(server, lobby["code"])["entries"] if e["kind"] == "draw"]
    final_pool = phones[0].view()["table"]["entropy"]["pool"]
    assert setup_draws and all(d["pool"] == final_pool and d["by"] is None for d in setup_draws)
    assert final_pool != fairness.EMPTY_POOL


@pytest.mark.parametrize("body, complaint", [
    ({"name": "Eve"}, "commitment to its random numbers"),
    ({"name": "Eve", "commitment": "ab" * 31}, "64 hexadecimal digits"),
    ({"name": "Eve", "commitment": "zz" * 32}, "64 hexadecimal digits"),
    ({"name": "Eve", "commitment": 12}, "64 hexadecimal digits"),
    ({"name": "Eve", "entropy": "ab" * 16}, "64 hexadecimal digits"),
])
def test_a_join_without_entropy_is_refused(server, body, complaint):
    table = new_table(server)
    entries = log(server, table["code"])["entries"]
    refused = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json=body, timeout=TIMEOUT)
    assert refused.status_code == 400 and complaint in refused.json()["error"]
    assert log(server, table["code"])["entries"] == entries
    view = requests.get(f"{server.url}/api/tables/{table['code']}", timeout=TIMEOUT).json()
    assert view["table"]["seats"] == []


def test_forged_random_contributions_are_refused_and_change_nothing(server):
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    entries = log(server, table["code"])["entries"]
    attempts = [
        ({"type": "entropy.reveal", "value": ana.chain[fairness.MAX_SKIP + 1]}, 400),  # too far down the chain
        ({"type": "entropy.reveal", "value": ana.chain[0]}, 400),  # the anchor itself, replayed
        ({"type": "entropy.reveal", "value": "ab" * 31}, 400),  # malformed
        ({"type": "entropy.reveal"}, 400),
        ({"type": "roll", "reveal": ana.chain[1][::-1]}, 400),  # a value that is not from the chain
    ]
    for action, status in attempts:
        answer = ana.post(action)
        assert answer.status_code == status, (action, answer.text)
    host = requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                         json={"type": "entropy.reveal", "value": ana.chain[1]}, timeout=TIMEOUT)
    assert host.status_code == 403
    assert log(server, table["code"])["entries"] == entries
    answer_rounds(ana)
    late = ana.post({"type": "entropy.reveal", "value": ana.chain[ana.k + 1]})  # no round asks for it
    assert late.status_code == 409
    # A script that never takes part in rounds joins with its anchor as "entropy": its join opens a
    # round that asks the phones, not the script.
    script = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": "Bot", "entropy": ENTROPY},
                           timeout=TIMEOUT)
    assert script.status_code == 201
    assert ana.view()["table"]["entropy"]["round"]["asked"] == [ana.seat]


def test_a_new_seed_is_committed_before_the_phones_reveal_again_for_the_next_game(server):
    """The operator draws the next game's seed knowing every pool so far: the new game's draws
    wait for values the phones reveal after that new commitment."""
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    answer_rounds(ana)
    assert ana.roll().status_code == 200
    first = ana.view()["table"]["commitment"]
    another = requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                            json={"type": "table.another", "game": "dice"}, timeout=TIMEOUT)
    assert another.status_code == 200, another.text
    view = ana.view()
    assert view["table"]["commitment"] != first and view["table"]["entropy"]["round"]["asked"] == [ana.seat]
    refused = ana.roll()
    assert refused.status_code == 409 and "not in the pool yet" in refused.json()["error"]
    answer_rounds(ana)
    assert ana.roll().status_code == 200
    closed = close(server, table)
    assert closed["entries"][0]["type"] == "new_game" and closed["entries"][1]["kind"] == "carry"
    report = verify_log(closed, ana.record)
    assert report.ok, report.problems
    forged = {**closed, "entries": [dict(e) for e in closed["entries"]]}
    forged["entries"][1] = {**forged["entries"][1], "seats": {str(ana.seat): {
        **forged["entries"][1]["seats"][str(ana.seat)], "head": "ab" * 32}}}
    assert not verify_log(forged, ana.record).ok  # a carried book that is not the phone's chain


def test_a_seat_removed_while_its_round_waits_on_it_does_not_stall_the_round(server):
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    answer_rounds(ana)
    gone = ChainPhone(server.url, table["code"], "Gone")  # joins, then its phone is lost
    removed = requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                            json={"type": "table.remove", "seat": gone.seat}, timeout=TIMEOUT)
    assert removed.status_code == 200
    assert ana.view()["table"]["entropy"]["round"]["asked"] == [ana.seat]  # asked again, without the removed seat
    answer_rounds(ana)
    assert ana.roll().status_code == 200
    assert verify_log(close(server, table), ana.record).ok


def test_a_phone_shows_its_value_only_to_an_action_that_draws_and_never_twice(server):
    """A value shown before the draws it feeds would let the operator predict them: the server asks for
    it only when an action draws, and a value it saw without spending is skipped by the phone."""
    table = new_table(server)
    ana = ChainPhone(server.url, table["code"], "Ana")
    answer_rounds(ana)
    entries = log(server, table["code"])["entries"]
    asked = ana.post({"type": "roll"})  # the roll draws: the phone must bring its next value
    assert asked.status_code == 428 and "next random value" in asked.json()["error"]
    assert log(server, table["code"])["entries"] == entries
    refused = ana.post({"type": "roll", "reveal": ana.chain[ana.k + 1], "extra": "x" * 20_000})  # too large: refused
    assert refused.status_code == 413
    skipped = ana.post({"type": "roll", "reveal": ana.chain[ana.k + 2]})  # the value the server saw is skipped
    assert skipped.status_code == 200
    ana._sync()
    assert ana.k == 3  # anchor, the round's value, one skipped, the roll's
    assert verify_log(close(server, table), ana.record).ok


def test_play_again_starts_by_itself_once_the_last_phone_revealed_after_the_new_commitment(tmp_path):
    server = ServerProcess(tmp_path, extra_env={"COMPANION_GAME_MODULES": "tests.tally_game"}).start()
    try:
        table = new_table(server, "tally", target=1)
        host = lambda action: requests.post(f"{server.url}/api/tables/{table['code']}/actions",  # noqa: E731
                                            headers=bearer(table["host_token"]), json=action, timeout=TIMEOUT)
        ana, bo = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Bo")
        answer_rounds(ana, bo)
        assert host({"type": "table.start"}).status_code == 200
        answer_rounds(ana, bo)  # the start's own round
        assert ana.post({"type": "roll", "reveal": ana.chain[ana.k + 1]}).status_code == 200
        ana._sync()
        assert ana.post({"type": "mark"}).status_code == 200
        assert host({"type": "table.again"}).status_code == 200
        view = ana.view()["table"]
        assert view["status"] == "lobby" and view["entropy"]["round"]["asked"] == [ana.seat, bo.seat]
        ana.answer_round()
        assert ana.view()["table"]["status"] == "lobby"  # Bo's phone has not revealed yet
        bo.answer_round()
        assert ana.view()["table"]["status"] == "playing"  # the last value in: the game started by itself
        assert ana.post({"type": "roll", "reveal": ana.chain[ana.k + 1]}).status_code == 200
        ana._sync()
        assert ana.post({"type": "mark"}).status_code == 200
        second = log(server, table["code"])
        assert second["number"] == 2 and second["seed"]
        report = verify_log(second, ana.record)
        assert report.ok, report.problems
    finally:
        server.stop()
