"""The verifier does not take the server's word: forged logs of a real table, checked by the CLI
and by the verify page (Chromium), against the phones' own records.

One real dice table (the real server process, two honest phones over HTTP) gives the true log;
each forgery is what an operator who controls the server could publish instead."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
import requests
from playwright.sync_api import expect

from companion import fairness
from companion.replay import state_digest
from companion.verify import _Walk, verify_log
from tests.helpers import bearer, verify_here
from tests.phones import ChainPhone, answer_rounds
from tests.server import ROOT, server_fixture
from tests.test_browser import PHONE, browser, open_context  # noqa: F401  (the Chromium fixtures)

TIMEOUT = 20
REPLAY_WAIT = 120_000  # Python starting takes seconds on a small machine


server = server_fixture("verify")


@pytest.fixture(scope="module")
def played(server):
    """A closed dice table: Ana and Bo joined with their chains, rolled, and kept their records."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": {"count": 2}},
                            timeout=TIMEOUT).json()
    ana = ChainPhone(server.url, created["code"], "Ana")
    answer_rounds(ana)
    ana.roll()
    bo = ChainPhone(server.url, created["code"], "Bo")
    answer_rounds(ana, bo)
    for phone in (bo, ana, bo):
        assert phone.roll().status_code == 200
    closed = requests.post(f"{server.url}/api/tables/{created['code']}/close", headers=bearer(created["host_token"]),
                           timeout=TIMEOUT)
    assert closed.status_code == 200
    log = requests.get(f"{server.url}/api/tables/{created['code']}/log", timeout=TIMEOUT).json()
    return {"code": created["code"], "log": log, "ana": ana.record, "bo": bo.record}


@pytest.fixture(scope="module")
def handed(server):
    """A closed dice table whose second seat was handed to another phone, which brought a chain of its own."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=TIMEOUT).json()
    host = bearer(created["host_token"])
    ana, bo = ChainPhone(server.url, created["code"], "Ana"), ChainPhone(server.url, created["code"], "Bo")
    answer_rounds(ana, bo)
    assert bo.roll().status_code == 200
    offer = requests.post(f"{server.url}/api/tables/{created['code']}/actions", headers=host, timeout=TIMEOUT,
                          json={"type": "table.handoff", "seat": bo.seat}).json()["handoff"]
    # Bo's phone is still here: the seat moves once it allows (without, only once it has been away long enough).
    assert bo.post({"type": "seat.handoff", "allow": True}).status_code == 200
    new = ChainPhone(server.url, created["code"], "", handoff=offer["code"])
    answer_rounds(ana, new)
    assert new.roll().status_code == 200
    requests.post(f"{server.url}/api/tables/{created['code']}/close", headers=host, timeout=TIMEOUT).raise_for_status()
    log = requests.get(f"{server.url}/api/tables/{created['code']}/log", timeout=TIMEOUT).json()
    return {"log": log, "lost": bo.record, "new": new.record}


def redraw(log: dict) -> dict:
    """What a forger does after changing the log: every draw and every roll made consistent again."""
    rolls = 0
    for entry in log["entries"]:
        if entry["kind"] == "draw":
            entry["result"] = fairness.recompute(log["seed"], entry)
        elif entry["kind"] == "event" and entry["event"]["type"] == "rolled":
            rolls += 1
            draws = [e for e in log["entries"] if e["kind"] == "draw" and e["i"] < entry["i"]][-len(entry["event"]["values"]):]
            entry["event"].update(number=rolls, values=[d["result"] for d in draws], faces=[str(d["result"]) for d in draws])
    # The game replayed with the new rolls ends in another state: the forger writes its digest too.
    walk = _Walk(log)
    walk.run(log["entries"])
    for entry in log["entries"]:
        if entry.get("type") in ("over", "closed") and "state" in entry:
            entry["state"] = state_digest(walk.replay.state)
    return log


def rebuilt_with_a_new_seed(log: dict) -> dict:
    forged = copy.deepcopy(log)
    forged["seed"] = "77" * 32
    forged["commitment"] = fairness.commitment_of(forged["seed"])
    forged["entries"][0]["commitment"] = forged["commitment"]
    return redraw(forged)


def without_the_phones_entropy(log: dict) -> dict:
    """The phones' values taken out: commits that take part in no round, empty rounds, draws without values."""
    forged = copy.deepcopy(log)
    entries = []
    for entry in forged["entries"]:
        if entry["kind"] == "reveal":
            continue
        if entry["kind"] == "commit":
            entry["rounds"] = False
        if entry["kind"] == "round":
            entry["asked"] = []
        if entry["kind"] == "pool":
            entry["pool"] = fairness.EMPTY_POOL
        if entry["kind"] == "draw":
            entry.update(pool=fairness.EMPTY_POOL, reveal=None)
        entries.append(entry)
    for i, entry in enumerate(entries):
        entry["i"] = i
    forged["entries"] = entries
    return redraw(forged)


def a_roll_edited(log: dict) -> tuple[dict, int]:
    forged = copy.deepcopy(log)
    rolled = [e for e in forged["entries"] if e["kind"] == "event" and e["event"]["type"] == "rolled"][1]
    rolled["event"]["values"] = [value % 6 + 1 for value in rolled["event"]["values"]]
    rolled["event"]["faces"] = [str(value) for value in rolled["event"]["values"]]
    return forged, rolled["i"]


def cli_argv(tmp_path, document: dict, record: dict | None = None) -> list[str]:
    """The CLI's arguments for ``document`` (and ``record``), written to files in ``tmp_path``."""
    log_file = tmp_path / "log.json"
    log_file.write_text(json.dumps(document))
    argv = [str(log_file)]
    if record is not None:
        (tmp_path / "record.json").write_text(json.dumps(record))
        argv += ["--record", str(tmp_path / "record.json")]
    return argv


def cli(tmp_path, document: dict, record: dict | None = None) -> subprocess.CompletedProcess:
    """The documented command, ``python -m companion.verify``, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "companion.verify", *cli_argv(tmp_path, document, record)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def cli_here(tmp_path, document: dict, record: dict | None = None) -> tuple[int, str]:
    """The same command's ``main`` in this process (its exit status and what it printed): a Python start
    less per forged log (the first two tests below run the command itself)."""
    return verify_here(*cli_argv(tmp_path, document, record))


def test_the_true_log_verifies_with_each_phones_record(played, tmp_path):
    for record in (None, played["ana"], played["bo"]):
        report = verify_log(played["log"], record)
        assert report.ok and report.draws_checked == 8, report.problems  # four rolls of two dice
    assert cli(tmp_path, played["log"], played["ana"]).returncode == 0


def test_the_documented_command_runs_without_a_warning(played, tmp_path, monkeypatch):
    """``python -m companion.verify``: the package is imported first (its games register their checks); had it
    imported the verifier too, Python would warn that the module runs as a second copy of itself."""
    monkeypatch.setenv("PYTHONWARNINGS", "default")  # every warning shown, whatever the caller's filters
    result = cli(tmp_path, played["log"])
    assert result.returncode == 0 and result.stdout.startswith("OK"), result.stdout + result.stderr
    assert result.stderr == ""


def test_a_log_rebuilt_with_a_new_seed_and_commitment_is_caught_by_the_phones_record(played, tmp_path):
    forged = rebuilt_with_a_new_seed(played["log"])
    assert verify_log(forged).ok  # consistent in itself: only a phone knows which commitment it was shown
    report = verify_log(forged, played["ana"])
    assert not report.ok and "rebuilt with another seed" in report.message
    status, printed = cli_here(tmp_path, forged, played["bo"])
    assert status == 1 and "rebuilt with another seed" in printed


def test_a_log_without_the_phones_entropy_and_draws_recomputed_is_caught_by_the_records(played, tmp_path):
    forged = without_the_phones_entropy(played["log"])
    assert verify_log(forged).ok  # a consistent log of scripts that never revealed anything
    for record in (played["ana"], played["bo"]):
        report = verify_log(forged, record)
        assert not report.ok
        assert any("its entropy was removed" in text for _, text in report.problems)
    status, printed = cli_here(tmp_path, forged, played["ana"])
    assert status == 1 and "its entropy was removed" in printed


def test_an_edited_rolled_event_with_the_draws_left_alone_is_reported_with_its_entry_number(played, tmp_path):
    forged, entry = a_roll_edited(played["log"])
    report = verify_log(forged)
    assert not report.ok and report.problems[0][0] == entry and "the draws give" in report.message
    status, printed = cli_here(tmp_path, forged)
    assert status == 1 and printed.startswith(f"entry {entry}: rolled")
    # The phone that displayed that roll says so too.
    shown = verify_log(forged, played["bo"])
    assert any(where == entry and "your phone showed roll 2" in text for where, text in shown.problems)


def test_a_seat_handed_to_another_phone_verifies_with_the_records_of_both_its_phones(handed):
    for phone in ("lost", "new"):
        report = verify_log(handed["log"], handed[phone])
        assert report.ok and report.draws_checked == 2, (phone, report.problems)
    forged = without_the_phones_entropy(handed["log"])  # still caught, by the new phone's record
    assert not verify_log(forged, handed["new"]).ok


def test_a_forged_rolled_event_without_draws_is_reported(played):
    forged = copy.deepcopy(played["log"])
    rolled = next(e for e in forged["entries"] if e["kind"] == "event" and e["event"]["type"] == "rolled")
    forged["entries"].append({**copy.deepcopy(rolled), "i": len(forged["entries"])})
    report = verify_log(forged)
    assert not report.ok and report.problems[0][0] == len(forged["entries"]) - 1


def test_the_page_gives_the_same_verdicts_as_the_cli(played, handed, server, open_context, tmp_path):  # noqa: F811
    edited, _ = a_roll_edited(played["log"])
    cases = {"true": (played["log"], played["ana"]), "new seed": (rebuilt_with_a_new_seed(played["log"]), played["ana"]),
             "no entropy": (without_the_phones_entropy(played["log"]), played["bo"]), "edited": (edited, None),
             "new seed, no record": (rebuilt_with_a_new_seed(played["log"]), None),
             "handed, the lost phone": (handed["log"], handed["lost"]), "handed, the new phone": (handed["log"], handed["new"]),
             "handed, no entropy": (without_the_phones_entropy(handed["log"]), handed["new"])}
    phone = open_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{server.url}/t/{played['code']}/verify")
    # "Verified" only once the game's rules replayed too (Python loads first: seconds).
    expect(page.locator(".verdict")).to_have_attribute("data-result", "ok", timeout=REPLAY_WAIT)
    for name, (log, record) in cases.items():
        in_page = page.evaluate("""async ([log, record]) => {
            const { verifyLog } = await import('/static/js/fairness.js');
            const report = verifyLog(log, record);
            return { ok: report.ok, entries: report.problems.map((p) => p.i) };
        }""", [log, record])
        report = verify_log(log, record)
        assert in_page == {"ok": report.ok, "entries": [where for where, _ in report.problems]}, name
        assert (cli_here(tmp_path, log, record)[0] == 0) == report.ok, name

    # The page itself, on a phone that kept its record, names the difference in a rebuilt log.
    page.evaluate("(record) => localStorage.setItem(`companion.record.${record.code}`, JSON.stringify(record))",
                  played["ana"])
    forged = rebuilt_with_a_new_seed(played["log"])
    page.route(f"**/api/tables/{played['code']}/log", lambda route: route.fulfill(json=forged))
    page.reload()
    expect(page.locator(".verdict")).to_have_attribute("data-result", "mismatch")
    expect(page.locator(".verdict")).to_contain_text("the log was rebuilt with another seed")
    expect(page.locator(".record-state")).to_have_attribute("data-record", "checked")
    phone.assert_clean()
