"""Issue 24, 3: vetoes the players could not see. An operator changes its server to refuse every roll
that would show a 6 with its own "disk full" (tests/veto_operator.py); the player taps again. The
log is consistent (the refused rolls never happened), so without the phone's record both verifiers
pass it. With it, each value the phone showed the server and the log lacks is reported: on the phone
beside the table's fairness mark, by the CLI (``--record``) and by the verify page, each with its action.

A real phone page (Chromium) against the real server process, changed only by the module the
operator loads into it."""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import expect

from tests.helpers import bearer, verify_here
from tests.phones import ChainPhone, answer_rounds
from tests.server import ServerProcess
from tests.test_browser import PHONE, Watched, browser, create_table, public_log, take_seat  # noqa: F401
from tests.test_verify_page_replay import REPLAY_WAIT

FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"}  # taps faster than thumbs
RECORD = "(code) => JSON.parse(localStorage.getItem(`companion.record.${code}`))"
ANSWERED = "([code, count]) => (JSON.parse(localStorage.getItem(`companion.record.${code}`)).sent || []).filter((s) => s.answer && s.type === 'roll').length === count"
VETOES = 2


@pytest.fixture(scope="module")
def vetoing(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("vetoes")
    vetoes = workdir / "vetoes.txt"
    vetoes.touch()
    server = ServerProcess(workdir, extra_env={**FAST, "COMPANION_GAME_MODULES": "tests.tally_game,tests.veto_operator",
                                               "COMPANION_TEST_VETO_LOG": str(vetoes)}).start()
    yield server, vetoes
    server.stop()


def test_a_server_that_refuses_every_six_is_caught_by_the_phones_count_and_both_verifiers(vetoing, browser, tmp_path):  # noqa: F811
    server, vetoes = vetoing
    table = create_table(server)
    code = table["code"]
    phone = Watched(browser.new_context(locale="en-US", **PHONE), server)
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/t/{code}")
        take_seat(page, "Ana")
        mark = page.locator(".fairness-mark")
        expect(mark).to_have_attribute("data-unspent", "0")
        expect(mark).to_contain_text("random numbers the server saw and did not use: 0")
        taps = 0
        while len(vetoes.read_text().splitlines()) < VETOES:  # each tap is refused with probability 1/6
            assert taps < 200, "the operator never had a 6 to refuse"
            taps += 1
            page.locator("button.die").tap()
            page.wait_for_function(ANSWERED, arg=[code, taps])
        vetoed = len(vetoes.read_text().splitlines())
        print(f"{taps} taps, {vetoed} refused by the operator (a 6 each), {taps - vetoed} rolls logged")  # a figure
        # The phone says it at once, beside the table's fairness mark, with what it means.
        expect(mark).to_have_attribute("data-unspent", str(vetoed))
        expect(mark.locator(".unspent-why")).to_contain_text(
            f"The server saw {vetoed} of this phone's random numbers and did not use them")
        record = page.evaluate(RECORD, code)
        requests.post(f"{server.url}/api/tables/{code}/close", headers=bearer(table["host_token"]),
                      timeout=20).raise_for_status()
        log = public_log(server, code)
        rolls = [entry["event"]["values"] for entry in log["entries"]
                 if entry["kind"] == "event" and entry["event"]["type"] == "rolled"]
        assert len(rolls) == taps - vetoed and all(6 not in values for values in rolls)

        # The CLI: the log alone checks out (the refused rolls left no trace); with the record, each value.
        (tmp_path / "log.json").write_text(json.dumps(log))
        (tmp_path / "record.json").write_text(json.dumps(record))
        status, printed = verify_here(tmp_path / "log.json")
        assert status == 0, printed
        status, printed = verify_here(tmp_path / "log.json", "--record", tmp_path / "record.json")
        assert status == 3, printed
        assert f"the server saw {vetoed} of your phone's random values and did not spend them" in printed
        unspent = [line for line in printed.splitlines() if line.startswith("not spent: ")]
        assert len(unspent) == vetoed
        assert all("shown with the action roll" in line and "the server said it failed on its side (503" in line
                   for line in unspent), unspent

        # The verify page, on the phone that kept the record: each value, and no "Verified".
        verify = phone.new_page()
        verify.goto(f"{server.url}/t/{code}/verify")
        verdict = verify.locator(".verdict")
        expect(verdict).to_have_attribute("data-result", "unspent", timeout=REPLAY_WAIT)
        expect(verdict).to_have_attribute("data-unspent", str(vetoed))
        expect(verdict).not_to_contain_text("Verified")
        expect(verify.locator(".unspent li")).to_have_count(vetoed)
        expect(verify.locator(".unspent li").first).to_contain_text("shown with the action roll")
        # The server's own log says which values a fault cost (here: every veto, which claims to be one).
        assert server.log_tail(200_000).count("the phone counts it as unspent") == vetoed
        phone.assert_clean(expected_bad_status=())
    finally:
        phone.context.close()


# The phone's own protocol (record.js), over HTTP with the seat's token: the answer and what it showed.
SEND = """async ([code, action]) => {
  const { PhoneChain, loadRecord } = await import('/static/js/record.js');
  const chain = new PhoneChain(loadRecord(code));
  const token = localStorage.getItem(`companion.seat.${code}`);
  const act = async (carried) => {
    const answer = await fetch(`/api/tables/${code}/actions`, { method: 'POST', body: JSON.stringify(carried),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
    return { ...(await answer.json()), status: answer.status };
  };
  const next = chain.next();
  const answer = await chain.send(act, action);
  chain.settle(answer);
  return { status: answer.status, shown: chain.record.sent.filter((item) => item.type === action.type).length,
    next: chain.next() === next };
}"""
ROUND_ANSWERED = "(code) => JSON.parse(localStorage.getItem(`companion.record.${code}`)).sent.some((s) => s.type === 'entropy.reveal' && s.answer?.ok)"


def test_an_action_the_rules_refuse_shows_no_value_and_counts_for_nothing(vetoing, browser):  # noqa: F811
    """Tally: Bo's phone rolls on Ana's turn. The rules refuse it before the server asks for a value
    (428 only to an action they accept), so the phone showed nothing and counts nothing."""
    server, _ = vetoing
    created = requests.post(f"{server.url}/api/tables", json={"game": "tally", "options": {"target": 5}}, timeout=20)
    assert created.status_code == 201, created.text
    table = created.json()
    code = table["code"]
    ana = ChainPhone(server.url, code, "Ana")
    phone = Watched(browser.new_context(locale="en-US", **PHONE), server)
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/t/{code}")
        take_seat(page, "Bo")
        answer_rounds(ana)
        page.wait_for_function(ROUND_ANSWERED, arg=code)
        started = requests.post(f"{server.url}/api/tables/{code}/actions", headers=bearer(table["host_token"]),
                                json={"type": "table.start"}, timeout=20)
        assert started.status_code == 200, started.text
        answer_rounds(ana)
        refused = page.evaluate(SEND, [code, {"type": "roll"}])
        assert refused == {"status": 400, "shown": 0, "next": True}  # "It is Ana's turn": no value shown
        expect(page.locator(".fairness-mark")).to_have_attribute("data-unspent", "0")
        assert phone.page_errors == [] and phone.bad_status == [f"400 {server.url}/api/tables/{code}/actions"]
    finally:
        phone.context.close()

