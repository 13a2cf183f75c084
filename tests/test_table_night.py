"""A table that survives a game night, end to end: the real server process, real
Socket.IO screens. An away seat is handed to another phone, decided for, or taken
out; timed waits end at their deadline; play again, another game; host rights
on a seat; undo. The game is Tally (tests/tally_game.py), loaded by the server."""

from __future__ import annotations

import pytest
import requests

from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.screen import Screen
from tests.live_table import LiveTable, closed_after
from tests.server import server_fixture
import tests.tally_game  # noqa: F401  (registers Tally here too: the verifier replays its games)

WAIT = 30


server = server_fixture("night", {
    "COMPANION_GAME_MODULES": "tests.tally_game", "COMPANION_AWAY_SECONDS": "0",
    "COMPANION_DEADLINE_TICK": "0.2", "COMPANION_RATE_BURST": "100", "COMPANION_RATE_PER_SECOND": "100"})


class Table(LiveTable):
    """A table of the small test game (Tally unless said) with its host screen and one phone per seat."""

    def __init__(self, server, game="tally", options=None, names=("Ana", "Bo"), timeout=None, start=True):
        super().__init__(server, game, options or {"target": 3}, names, start,
                         **({"timeout": timeout} if timeout else {}))


@pytest.fixture
def table(server):
    with closed_after(lambda **kwargs: Table(server, **kwargs)) as open_table:
        yield open_table


def waits_on(view: dict, seat: int) -> list[dict]:
    return [wait for wait in view["table"]["waiting"] if wait["seat"] == seat]


def claim_by_bo(t: Table, judge: str = "Ana") -> None:
    """Ana passes, Bo claims a point: the game waits on the next seat to confirm (a timed wait)."""
    t.phones["Ana"].play({"type": "pass"})
    t.phones["Bo"].play({"type": "claim"})
    view = t.host.wait_for(lambda v: waits_on(v, t.seat(judge)) and waits_on(v, t.seat(judge))[0]["timed"])
    wait = waits_on(view, t.seat(judge))[0]
    assert wait["deadline"] is not None and wait["text"]["en"] == "Confirm the claim of Bo"


def away(t: Table, name: str) -> None:
    t.away(name)


def test_every_screen_says_whom_the_game_waits_on_and_who_is_away(table):
    t = table()
    view = t.phones["Bo"].wait_for(lambda v: v["game"] is not None and v["table"]["waiting"])
    assert [(w["seat"], w["text"]["en"], w["timed"]) for w in view["table"]["waiting"]] == [
        (t.seat("Ana"), "It is Ana's turn.", False)]
    assert view["table"]["waiting"][0]["text"]["fr"] == "C’est au tour de Ana."
    assert sorted(view["online"]) == sorted([t.seat("Ana"), t.seat("Bo")]) and view["away_since"] == {}
    t.phones["Ana"].close()
    seen = t.phones["Bo"].wait_away(t.seat("Ana"))
    assert t.seat("Ana") not in seen["online"] and seen["away_since"][str(t.seat("Ana"))] > 0


def version_now(t: Table) -> int:
    """The table's version as the server has it now (never a stale view)."""
    return requests.get(f"{t.url}/api/tables/{t.code}", headers=bearer(t.host_token), timeout=WAIT).json()["version"]


def claim(t: Table, code: str, body: dict | None = None, language: str = "en") -> requests.Response:
    return requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": code, **(body or {})},
                         headers={"Accept-Language": language}, timeout=WAIT)


def test_a_hand_off_without_a_commitment_is_refused_and_changes_nothing(table):
    """Issue 24 §5: a claim without the phone's anchor took the seat, which then could never draw."""
    t = table()
    ana = t.seat("Ana")
    t.away("Ana")  # a lost phone: no consent to wait for
    offer = t.host.play({"type": "table.handoff", "seat": ana})["handoff"]
    before, version = t.log()["entries"], version_now(t)
    for body, language, said in (({}, "en", "commitment to its random numbers"),
                                 ({"commitment": None}, "fr", "engagement sur ses nombres aléatoires")):
        refused = claim(t, offer["code"], body, language)
        assert refused.status_code == 400 and said in refused.json()["error"], refused.text
    assert t.log()["entries"] == before and version_now(t) == version
    assert t.http(t.seats["Ana"]["token"], {"type": "pass"}).status_code != 401  # the seat did not move
    taken = claim(t, offer["code"], {"commitment": ENTROPY})  # the same code, with an anchor
    assert taken.status_code == 201 and taken.json()["seat"] == ana
    assert any(entry["kind"] == "commit" and entry["seat"] == ana for entry in t.log()["entries"][len(before):])


def test_a_present_seat_moves_only_once_its_phone_allows_it_and_the_old_phone_is_told(table, server):
    """Issue 24 §5: the host handed a present player's seat to a phone of its own. Now the seat's phone
    is asked (every screen shows the move); it refuses, or allows and is then told its seat moved."""
    t = table()
    claim_by_bo(t)
    ana = t.seat("Ana")
    old_token = t.seats["Ana"]["token"]
    offer = t.host.play({"type": "table.handoff", "seat": ana})["handoff"]
    assert offer["seat"] == ana and len(offer["code"]) == 6
    # The code never reaches another screen or the log: only the host's answer holds it.
    assert offer["code"] not in str(t.phones["Bo"].messages) and offer["code"] not in str(t.log())
    forged = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": "ZZZZZZ"}, timeout=WAIT)
    assert forged.status_code == 403
    # The host's own phone tries to take the seat while Ana's phone is here: refused, nothing changes.
    before, version = t.log()["entries"], version_now(t)
    for language, said in (("en", "Ana's phone is at the table"),
                           ("fr", "Le téléphone de Ana est à la table\u00a0:")):
        waiting = claim(t, offer["code"], {"entropy": ENTROPY}, language)
        assert waiting.status_code == 409 and said in waiting.json()["error"], waiting.text
    assert t.log()["entries"] == before and version_now(t) == version
    # Every screen sees the move; Ana's phone is asked.
    for screen in (t.phones["Ana"], t.phones["Bo"], t.host):
        shown = screen.wait_for(lambda v: v["table"]["handoffs"])["table"]["handoffs"]
        assert shown == [{"seat": ana, "allowed": False}]
    # Ana refuses: the code is dropped, and no screen shows the move any more.
    assert t.phones["Bo"].act({"type": "seat.handoff", "allow": True})["status"] == 409  # nobody moves Bo's seat
    assert t.phones["Ana"].act({"type": "seat.handoff", "allow": "yes"})["status"] == 400
    t.phones["Ana"].play({"type": "seat.handoff", "allow": False})
    assert t.phones["Bo"].wait_for(lambda v: v["version"] > version)["table"]["handoffs"] == []
    assert claim(t, offer["code"], {"entropy": ENTROPY}).status_code == 403
    assert any(entry.get("type") == "handoff_refused" for entry in t.log()["entries"])

    # Asked again, Ana allows (her battery is low): the code takes the seat.
    offer = t.host.play({"type": "table.handoff", "seat": ana})["handoff"]
    t.phones["Ana"].play({"type": "seat.handoff", "allow": True})
    assert t.host.wait_for(lambda v: v["table"]["handoffs"] == [{"seat": ana, "allowed": True}])
    claimed = requests.post(f"{t.url}/api/tables/{t.code}/handoff",
                            json={"handoff": offer["code"].lower(), "entropy": ENTROPY}, timeout=WAIT)
    assert claimed.status_code == 201 and claimed.json()["seat"] == t.seat("Ana")
    used = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": offer["code"]}, timeout=WAIT)
    assert used.status_code == 403

    # The old phone, still connected, is told and cut off at once; its token is refused everywhere.
    old_phone = t.phones["Ana"]
    assert old_phone.wait_event("revoked")["who"] == t.seat("Ana")
    assert t.http(old_token, {"type": "confirm", "accept": True}).status_code == 401
    assert requests.get(f"{t.url}/api/tables/{t.code}", headers=bearer(old_token), timeout=WAIT).status_code == 401
    assert Screen.refusal(t.url, t.code, old_token) is not None

    new_phone = Screen(t.url, t.code, claimed.json()["token"])
    t.phones["Ana"] = new_phone
    assert new_phone.wait_for(lambda v: True)["you"] == {"role": "seat", "seat": t.seat("Ana")}
    new_phone.play({"type": "confirm", "accept": True})
    view = t.host.wait_for(lambda v: v["game"]["points"][str(t.seat("Bo"))] == 1)
    assert waits_on(view, t.seat("Bo"))  # the game goes on: Bo's turn again


def test_the_host_decides_for_an_away_seat_but_never_for_a_present_one(table):
    t = table()
    claim_by_bo(t)
    ana, bo = t.seat("Ana"), t.seat("Bo")
    accept = {"type": "table.decide", "seat": ana, "action": {"type": "confirm", "accept": True}}
    assert t.host.act(accept)["status"] == 409  # Ana is here: she decides
    away(t, "Ana")
    version = t.host.latest["version"]
    refusals = {
        "not a proxy action": {**accept, "action": {"type": "mark"}},
        "no action": {"type": "table.decide", "seat": ana},
        "unknown seat": {**accept, "seat": 99},
        "seat not waited on": {**accept, "seat": bo},
    }
    answers = {why: t.host.act(action) for why, action in refusals.items()}
    assert {why: answer["status"] for why, answer in answers.items()} == {
        "not a proxy action": 400, "no action": 400, "unknown seat": 404, "seat not waited on": 409}
    assert t.phones["Bo"].act(accept)["status"] == 403  # a seat acting as the host
    assert t.http(None, accept).status_code == 401  # a spectator
    t.host.play(accept)
    view = t.host.wait_for(lambda v: v["game"]["points"][str(bo)] == 1)
    assert view["version"] == version + 1
    assert any(e.get("proxy") and e["event"]["type"] == "confirmed" for e in t.log()["entries"])


def test_the_host_takes_an_away_seat_out_of_the_game(table):
    t = table(names=("Ana", "Bo", "Cy"))
    claim_by_bo(t, judge="Cy")
    view = t.host.latest
    cy = t.seat("Cy")
    assert waits_on(view, cy) and view["table"]["withdraw_rule"]["en"].startswith("The seat leaves the game")
    assert view["table"]["withdraw_rule"]["fr"]
    seen = t.phones["Ana"].wait_for(lambda v: waits_on(v, cy))
    assert "withdraw_rule" not in seen["table"] and "proxy" not in seen["table"]  # the host's, not the players'
    away(t, "Cy")
    assert t.phones["Ana"].act({"type": "table.withdraw", "seat": cy})["status"] == 403
    t.host.play({"type": "table.withdraw", "seat": cy})
    view = t.host.wait_for(lambda v: cy in v["game"]["out"])
    assert [w["seat"] for w in view["table"]["waiting"]] == [t.seat("Bo")]  # the game goes on
    t.phones["Bo"].play({"type": "mark"})


def test_a_timed_wait_past_its_deadline_is_left_to_the_host(table):
    t = table(timeout=2, names=("Ana", "Bo"))
    claim_by_bo(t)
    ana = t.seat("Ana")
    # Ana is here but does not answer: past the deadline the server asks the host, by itself.
    view = t.phones["Bo"].wait_for(lambda v: any(w["expired"] for w in waits_on(v, ana)))
    assert view["table"]["timeout"] == 2
    assert any(e.get("type") == "timed_out" for e in t.log()["entries"])
    t.host.play({"type": "table.decide", "seat": ana, "action": {"type": "confirm", "accept": False}})
    t.host.wait_for(lambda v: v["game"]["claim"] is None and waits_on(v, t.seat("Bo")))


def test_a_timed_wait_past_its_deadline_follows_the_games_rule(table):
    t = table(game="tally-auto", timeout=2)
    claim_by_bo(t)
    view = t.host.wait_for(lambda v: v["game"]["claim"] is None)
    assert view["game"]["points"][str(t.seat("Bo"))] == 0  # the rule: an unanswered claim is refused
    timed_out = [e for e in t.log()["entries"] if e.get("timeout")]
    assert [e["event"]["type"] for e in timed_out] == ["confirmed"]


def test_bad_table_settings_and_game_numbers_are_refused(server):
    for timeout in (0, 601, "60", True, 1.5):
        answer = requests.post(f"{server.url}/api/tables", json={"game": "dice", "timeout": timeout}, timeout=WAIT)
        assert answer.status_code == 400, timeout
    created = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
    for number, status in (("0", 404), ("2", 404), ("x", 400), ("-1", 400)):  # no such game; not a number
        answer = requests.get(f"{server.url}/api/tables/{created['code']}/log?game={number}", timeout=WAIT)
        assert answer.status_code == status, number


def finish(t: Table) -> dict:
    """Ana marks the winning point (target 1): the game is over on every screen."""
    t.phones["Ana"].play({"type": "mark"})
    return t.phones["Bo"].wait_for(lambda v: v["table"]["status"] == "over")


def test_play_again_commits_to_a_new_seed_and_the_old_game_verifies(table):
    t = table(options={"target": 1})
    t.phones["Ana"].play({"type": "roll"})
    over = finish(t)
    first = over["table"]["commitment"]
    assert over["table"]["seed"] and over["table"]["outcome"]["winners"] == [t.seat("Ana")]
    assert t.phones["Ana"].act({"type": "mark"})["status"] == 409  # nothing more is played
    assert t.phones["Bo"].act({"type": "table.again"})["status"] == 403  # Bo is not the first seat

    late = t.join("Cy")  # a new phone joins between games
    t.phones["Ana"].play({"type": "table.again"})  # the first seat may start the next game
    # Play again starts the game once its round is sealed: these test phones are scripts that take part in
    # no round, so it seals at once and the new game is playing.
    lobby = t.host.wait_for(lambda v: v["table"]["game_no"] == 2)
    assert lobby["table"]["status"] == "playing" and lobby["table"]["seed"] is None
    assert lobby["table"]["commitment"] != first
    assert [(h["number"], h["seed"] == over["table"]["seed"]) for h in lobby["table"]["history"]] == [(1, True)]
    fresh = requests.get(f"{t.url}/api/tables/{t.code}", timeout=WAIT).json()  # a screen that comes now
    assert [h["number"] for h in fresh["table"]["history"]] == [1]

    page = requests.get(f"{t.url}/t/{t.code}/verify?game=1", timeout=WAIT).text
    assert f'data-log="/api/tables/{t.code}/log?game=1"' in page  # the verify page checks that game
    old = t.log(1)
    report = verify_log(old)
    assert report.ok and report.draws_checked == 1 and old["commitment"] == first
    assert t.log()["seed"] is None and t.log()["number"] == 2

    # Raw entropy is no action any more.
    assert t.phones["Bo"].act({"type": "seat.entropy", "value": ENTROPY})["status"] == 400
    assert t.phones["Ana"].act({"type": "table.start"})["status"] == 409  # started already
    playing = t.host.wait_for(lambda v: v["table"]["status"] == "playing")
    assert sorted(playing["game"]["order"]) == sorted([t.seat("Ana"), t.seat("Bo"), late["seat"]])
    t.phones["Ana"].play({"type": "roll"})
    finish(t)
    second = t.log(2)
    assert verify_log(second).ok and verify_log(second).draws_checked == 1
    assert verify_log(t.log(1)).ok


def test_another_game_and_seats_that_leave_between_games(table):
    t = table(options={"target": 1}, names=("Ana", "Bo", "Cy"))
    assert t.phones["Cy"].act({"type": "seat.leave"})["status"] == 409  # not during a game
    finish(t)
    t.phones["Cy"].play({"type": "seat.leave"})
    assert t.phones["Cy"].wait_event("removed")
    assert t.http(t.seats["Cy"]["token"], {"type": "seat.leave"}).status_code == 401
    assert t.host.act({"type": "table.another", "game": "chess"})["status"] == 400
    assert t.host.act({"type": "table.another", "game": "dice", "options": {"die": "d7"}})["status"] == 400
    t.host.play({"type": "table.another", "game": "dice", "options": {"die": "d20"}})
    view = t.phones["Bo"].wait_for(lambda v: v["table"]["game"] == "dice" and v["game"] is not None)
    assert view["table"]["status"] == "playing" and [s["name"] for s in view["table"]["seats"]] == ["Ana", "Bo"]
    t.phones["Bo"].play({"type": "roll"})
    t.host.play({"type": "table.another", "game": "tally", "options": {"target": 2}})  # the die never ends
    view = t.host.wait_for(lambda v: v["table"]["game_no"] == 3)
    assert [h["game"] for h in view["table"]["history"]] == ["tally", "dice"]
    assert view["table"]["status"] == "lobby"  # another game waits for its start: the first seat may give it
    t.phones["Ana"].play({"type": "table.start"})
    t.host.wait_for(lambda v: v["table"]["status"] == "playing")
    assert verify_log(t.log(2)).ok and verify_log(t.log(2)).draws_checked == 1


def test_host_rights_handed_to_a_seat(table):
    t = table()
    ana, bo = t.seat("Ana"), t.seat("Bo")
    assert t.phones["Bo"].act({"type": "table.give_host", "seat": bo})["status"] == 403
    assert t.host.act({"type": "table.give_host", "seat": 42})["status"] == 404
    t.host.play({"type": "table.give_host", "seat": bo})
    assert t.host.wait_event("revoked")["who"] == "host"
    assert t.http(t.host_token, {"type": "table.joining", "open": False}).status_code == 401
    view = t.phones["Ana"].wait_for(lambda v: v["table"]["host_seat"] == bo)
    assert "proxy" not in str(view["table"].keys()) or view["table"].get("proxy") is None
    t.phones["Bo"].play({"type": "table.joining", "open": False})
    assert t.phones["Ana"].act({"type": "table.joining", "open": True})["status"] == 403
    # Now a seat hosts: the first seat no longer starts the next game, the host phone does.
    assert t.phones["Ana"].wait_for(lambda v: not v["table"]["joining_open"])
    assert t.phones["Ana"].act({"type": "table.again"})["status"] == 403


def test_a_phone_creates_a_table_hosts_it_and_takes_a_seat(server):
    created = requests.post(f"{server.url}/api/tables", json={"game": "tally"}, timeout=WAIT).json()
    seat = requests.post(f"{server.url}/api/tables/{created['code']}/seats", json={"name": "Ana", "entropy": ENTROPY},
                         headers=bearer(created["host_token"]), timeout=WAIT).json()
    other = requests.post(f"{server.url}/api/tables/{created['code']}/seats", json={"name": "Bo", "entropy": ENTROPY},
                          headers=bearer("forged"), timeout=WAIT).json()
    phone = Screen(server.url, created["code"], seat["token"])
    try:
        view = phone.wait_for(lambda v: True)
        assert view["table"]["host_seat"] == seat["seat"] != other["seat"]
        phone.play({"type": "table.start"})
        phone.wait_for(lambda v: v["table"]["status"] == "playing")
    finally:
        phone.close()


def test_undo_of_a_seats_own_bookkeeping_until_a_draw_or_another_seat(table):
    t = table(options={"target": 9})
    ana, bo = t.seat("Ana"), t.seat("Bo")
    phone = t.phones["Ana"]
    phone.play({"type": "mark"})
    phone.play({"type": "mark"})
    assert t.phones["Bo"].act({"type": "seat.undo"})["status"] == 409  # nothing of Bo's
    assert t.host.act({"type": "table.undo", "seat": bo})["status"] == 409
    assert t.host.act({"type": "seat.undo"})["status"] == 403  # the host screen has no seat
    phone.play({"type": "seat.undo"})
    t.host.play({"type": "table.undo", "seat": ana})
    t.phones["Bo"].wait_for_game(lambda g: g["points"][str(ana)] == 0 and g["rolls"] == [])
    assert t.phones["Bo"].latest["table"]["undo"] is None
    assert phone.act({"type": "seat.undo"})["status"] == 409  # nothing left to undo

    phone.play({"type": "mark"})
    phone.play({"type": "roll"})  # a draw: what came before can no longer be undone
    assert phone.act({"type": "seat.undo"})["status"] == 409
    phone.play({"type": "mark"})
    phone.play({"type": "pass"})  # Bo's turn now
    assert phone.act({"type": "seat.undo"})["status"] == 409
    t.phones["Bo"].play({"type": "mark"})
    assert t.phones["Bo"].wait_for(lambda v: v["table"]["undo"] == {"seat": bo, "type": "mark"})
    t.phones["Bo"].play({"type": "seat.undo"})
    now = requests.get(f"{t.url}/api/tables/{t.code}", timeout=WAIT).json()
    assert now["game"]["points"] == {str(ana): 2, str(bo): 0} and now["table"]["undo"] is None

    log = t.log()
    undone = [e for e in log["entries"] if e.get("undone")]
    assert [e["event"]["type"] for e in undone if e["kind"] == "event"] == ["marked", "marked", "marked"]
    # Each undone action is kept too, sealed until the seed is revealed (companion.replay).
    assert [(e["call"], e.get("sealed"), "action" in e) for e in undone if e["kind"] == "action"] == \
        [("apply", True, False)] * 3
    assert [e["by"] for e in log["entries"] if e.get("type") == "undone"] == ["seat", "host", "seat"]
    t.host.play({"type": "table.close"})
    closed = t.log()
    assert [e["action"]["type"] for e in closed["entries"] if e.get("undone") and e["kind"] == "action"] == \
        ["mark"] * 3
    report = verify_log(closed)
    assert report.ok and report.draws_checked == 1
    assert any(note.startswith("the game was replayed") for note in report.notes)


def test_arkade_goes_on_without_a_phone_that_left_and_is_played_again(table):
    """A real game's hooks: the host decides for the away Alien, then takes the Defender out
    (Arkade is a duel: a forfeit); the game is over on every screen and is played again."""
    t = table(game="arkade", options={"mode": "strategie"}, names=("Zoé", "Max"))
    zoe, max_ = t.seat("Zoé"), t.seat("Max")
    view = t.host.wait_for(lambda v: v["game"] is not None and len(v["table"]["waiting"]) == 2)
    assert {w["text"]["fr"] for w in view["table"]["waiting"]} == {"choisir un rôle"}
    t.phones["Zoé"].play({"type": "choose_role", "role": "alien"})
    away(t, "Zoé")
    view = t.host.wait_for(lambda v: v["table"].get("proxy", {}).get(str(zoe)))
    choice = view["table"]["proxy"][str(zoe)][0]
    assert view["table"]["withdraw_rule"]["en"] == "Arkade is a duel: the other player wins by forfeit."
    assert choice["type"] in {"throw", "end_turn"}
    refused = t.host.act({"type": "table.decide", "seat": zoe, "action": {"type": "choose_role", "role": "alien"}})
    assert refused["status"] == 400  # not an open decision the game lets the host take
    before = len(view["game"]["history"])
    t.host.play({"type": "table.decide", "seat": zoe, "action": choice})
    t.phones["Max"].wait_for_game(lambda g: len(g["history"]) > before)

    t.host.play({"type": "table.withdraw", "seat": max_})
    over = t.phones["Max"].wait_for(lambda v: v["table"]["status"] == "over")
    assert over["table"]["outcome"]["winners"] == [zoe] and over["table"]["seed"]
    t.host.play({"type": "table.again"})
    lobby = t.host.wait_for(lambda v: v["table"]["game_no"] == 2)
    # These scripts take part in no round: the start round of play again seals at once, the new game plays.
    assert lobby["table"]["status"] == "playing" and lobby["table"]["history"][0]["outcome"]["winners"] == [zoe]
    assert verify_log(t.log(1)).ok


def test_bad_input_for_the_table_actions_is_refused_and_changes_nothing(table):
    t = table()
    spectator = Screen(t.url, t.code, None)
    try:
        before = t.log()["entries"]
        host_refusals = {
            ("table.handoff", "unknown seat"): ({"type": "table.handoff", "seat": 99}, 404),
            ("table.handoff", "seat as text"): ({"type": "table.handoff", "seat": "1"}, 404),
            ("table.withdraw", "unknown seat"): ({"type": "table.withdraw", "seat": 99}, 404),
            ("table.undo", "no seat"): ({"type": "table.undo"}, 404),
            ("table.again", "game not over"): ({"type": "table.again"}, 409),
            ("table.another", "during a game"): ({"type": "table.another", "game": "dice"}, 409),
            ("table.bogus", "unknown"): ({"type": "table.bogus"}, 400),
        }
        answers = {why: t.host.act(action)["status"] for why, (action, _) in host_refusals.items()}
        assert answers == {why: status for why, (_, status) in host_refusals.items()}
        assert t.phones["Ana"].act({"type": "seat.bogus"})["status"] == 400
        assert t.phones["Ana"].act({"type": "table.handoff", "seat": t.seat("Bo")})["status"] == 403
        assert spectator.act({"type": "seat.undo"})["ok"] is False
        assert t.http(None, {"type": "table.handoff", "seat": t.seat("Bo")}).status_code == 401
        for body in ({}, {"handoff": None}, {"handoff": "A" * 100}, {"handoff": 123456}):
            answer = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json=body, timeout=WAIT)
            assert answer.status_code == 403, body
        assert t.log()["entries"] == before
    finally:
        spectator.close()


def test_another_game_before_the_start_keeps_the_unused_commitment(table):
    t = table(start=False)
    first = t.host.wait_for(lambda v: True)["table"]["commitment"]
    assert t.phones["Bo"].act({"type": "table.another", "game": "dice"})["status"] == 403  # Bo is not the first seat
    t.phones["Ana"].play({"type": "table.another", "game": "dice"})
    view = t.host.wait_for(lambda v: v["table"]["game"] == "dice" and v["game"] is not None)
    # No draw was made with the seed yet: the same game number and commitment go on.
    assert (view["table"]["game_no"], view["table"]["commitment"], view["table"]["status"]) == (1, first, "playing")


def test_a_seat_with_the_host_rights_takes_the_games_host_actions(table):
    """Arkade's counter correction is the host's: a host phone's seat takes it with "as_host"."""
    t = table(game="arkade", options={"mode": "strategie", "alien": "first"}, names=("Zoé", "Max"))
    zoe, max_ = t.seat("Zoé"), t.seat("Max")
    t.host.play({"type": "table.give_host", "seat": zoe})
    view = t.phones["Zoé"].wait_for(lambda v: v["table"]["host_seat"] == zoe and "host_game" in v)
    assert view["host_game"]["role"] is None  # the host screen's view of the game: no seat's secrets
    seen = t.phones["Max"].wait_for(lambda v: v["table"]["host_seat"] == zoe)
    assert "host_game" not in seen
    correction = {"type": "correct", "nuggets": 5, "as_host": True}
    assert t.phones["Max"].act(correction)["status"] == 403  # no host rights
    assert t.phones["Zoé"].act({**correction, "as_host": 1})["status"] == 403
    assert t.phones["Zoé"].act({"type": "throw", "as_host": True})["status"] == 403  # not a host action
    t.phones["Zoé"].play(correction)
    game = t.phones["Max"].wait_for_game(lambda g: g["nuggets"] == 5)["game"]
    assert game["history"][-1]["type"] == "corrected"


def test_a_bug_in_the_rules_answers_the_action_with_an_error_and_changes_nothing(table, server):
    """An exception no rule expected (Tally's "crash"), over Socket.IO and over HTTP: the actor is told the
    server failed and nothing changed, the table's version and log stay as they were, and the phone's
    connection, which reads its events one after another, stays up: its next action is played."""
    t = table()
    version, entries = t.host.wait_for(lambda view: view)["version"], len(t.log()["entries"])
    answer = t.phones["Ana"].act({"type": "crash"})
    assert (answer["ok"], answer["status"], answer["fault"]) == (False, 500, True)  # a fault, not a refusal
    assert answer["error"].startswith("The server failed to do this") and "nothing changed" in answer["error"]
    over_http = t.http(t.seats["Ana"]["token"], {"type": "crash"})
    assert over_http.status_code == 500 and over_http.json()["error"] == answer["error"]
    assert over_http.json()["fault"] is True
    assert len(t.log()["entries"]) == entries
    assert t.phones["Ana"].play({"type": "mark"})["ok"]
    assert t.host.wait_for(lambda view: view["version"] > version)["version"] == version + 1
    assert "a bug in the rules" in server.log_tail(chars=100_000)
