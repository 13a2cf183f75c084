"""Chakart's moves against their draws, in the verifier (CLI and page): a real
game on the real server with phones that keep their chains, closed, its log
verified; then the log edited as a forger would — a redirect told as landing
elsewhere, a chance step removed — and caught at the event's entry number,
by the CLI's rules and by the page's alike."""

from __future__ import annotations

import copy

import pytest
import requests

from companion.verify import verify_log
from tests.helpers import bearer
from tests.phones import ChainPhone, answer_rounds
from tests.server import server_fixture
from tests.test_browser import PHONE, browser, open_context  # noqa: F401

TIMEOUT = 20
BXE4 = "rn1b2qk/pbppwppp/1w2p3/1p1Rm3/3PdnPr/4P1d1/PPP1mP1P/NNB1KRQB"


server = server_fixture("chakart-draws")


def move(phone: ChainPhone, start: str, end: str) -> dict:
    answer = phone.post({"type": "move", "from": start, "to": end, "reveal": phone.chain[phone.k + 1]})
    assert answer.status_code == 200, answer.text
    phone._sync()
    done = phone.post({"type": "board_done"})
    assert done.status_code == 200, done.text
    return answer.json()


@pytest.fixture(scope="module")
def played(server):
    """The book's Bxe4, then a knight's and a rook's move, on a closed table."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "chakart", "options": {
        "colours": "first", "position": [BXE4]}}, timeout=TIMEOUT).json()
    white = ChainPhone(server.url, created["code"], "Ana")
    answer_rounds(white)
    black = ChainPhone(server.url, created["code"], "Bo")
    answer_rounds(white, black)
    started = requests.post(f"{server.url}/api/tables/{created['code']}/actions", json={"type": "table.start"},
                            headers=bearer(created["host_token"]), timeout=TIMEOUT)
    assert started.status_code == 200, started.text
    answer_rounds(white, black)  # the start's own round: the setup waits for it
    move(white, "h1", "e4")
    move(black, "h4", "h5")  # Donkey leaves a banana on its only free diagonal square: no draw
    closed = requests.post(f"{server.url}/api/tables/{created['code']}/close", headers=bearer(created["host_token"]),
                           timeout=TIMEOUT)
    assert closed.status_code == 200, closed.text
    log = requests.get(f"{server.url}/api/tables/{created['code']}/log", timeout=TIMEOUT).json()
    return {"code": created["code"], "log": log}


def redirect_entry(log: dict) -> dict:
    return next(entry for entry in log["entries"] if entry["kind"] == "event"
                and any(step["kind"] == "redirect" and len(step["eligible"]) > 1 for step in entry["event"]["steps"]))


def elsewhere(log: dict) -> tuple[dict, int]:
    """The bomb's redirect told as landing on another of its eligible squares."""
    edited = copy.deepcopy(log)
    entry = redirect_entry(edited)
    step = next(s for s in entry["event"]["steps"] if s["kind"] == "redirect" and len(s["eligible"]) > 1)
    step["to"] = next(square for square in step["eligible"] if square != step["to"])
    return edited, entry["i"]


def step_removed(log: dict) -> tuple[dict, int]:
    edited = copy.deepcopy(log)
    entry = redirect_entry(edited)
    entry["event"]["steps"] = [s for s in entry["event"]["steps"] if not (s["kind"] == "redirect" and len(s["eligible"]) > 1)]
    return edited, entry["i"]


def test_a_real_chakart_game_verifies(played):
    report = verify_log(played["log"])
    assert report.ok, report.problems
    assert not [note for note in report.notes if "not checked" in note]


@pytest.mark.parametrize("forge", [elsewhere, step_removed], ids=["redirect-told-elsewhere", "chance-step-removed"])
def test_an_edited_move_is_reported_at_its_entry(played, forge):
    edited, where = forge(played["log"])
    report = verify_log(edited)
    assert not report.ok and where in [entry for entry, _ in report.problems]


def test_the_page_gives_the_same_verdicts(played, server, open_context):  # noqa: F811
    page = open_context(**PHONE).new_page()
    page.goto(f"{server.url}/t/{played['code']}/verify")
    for log in (played["log"], elsewhere(played["log"])[0], step_removed(played["log"])[0]):
        in_page = page.evaluate("""async (log) => {
            const { verifyLog } = await import('/static/js/fairness.js');
            const report = verifyLog(log, null);
            return { ok: report.ok, entries: report.problems.map((p) => p.i) };
        }""", log)
        report = verify_log(log)
        assert in_page == {"ok": report.ok, "entries": [where for where, _ in report.problems]}
