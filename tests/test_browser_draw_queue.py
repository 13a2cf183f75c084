"""Issue 24, the draw queue in real phone pages (Chromium through Playwright, the real server process): two
phones tap the die while a draw waits, both rolls are drawn in order, each page says its own draw waits, a
second tap is refused beside the die, and the verify page (its own script and the rules' replay) verifies
the log with the queued draws."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from companion.verify import verify_log
from tests.helpers import bearer
from tests.phones import ChainPhone
from tests.screen import Screen
from tests.server import server_fixture
from tests.test_browser import browser, create_table, open_context, public_log, seated_phones  # noqa: F401

REPLAY_WAIT = 120_000  # Python starting takes seconds on a small machine


server = server_fixture("browser-queue")


def answer_when_asked(screen: Screen, phone: ChainPhone) -> None:
    """The phone answers the next round that asks it (its screen says when)."""
    def asked(view: dict) -> bool:
        current = view["table"]["entropy"]["round"]
        return current is not None and phone.seat in current["asked"] and phone.seat not in current["revealed"]

    screen.wait_for(asked)
    phone.answer_round()


def test_two_phone_pages_tapping_while_a_draw_waits_are_both_drawn_and_verified(server, open_context):
    table = create_table(server)
    code = table["code"]
    ana, bo = seated_phones(server, open_context, code, ("Ana", "Bo"))
    # Cy's phone is here too and answers its rounds only when the test says: Ana's roll waits on it meanwhile.
    cy = ChainPhone(server.url, code, "Cy")
    cys_screen = Screen(server.url, code, cy.token)
    answer_when_asked(cys_screen, cy)
    expect(bo.locator("button.die")).to_be_visible()

    ana.locator("button.die").tap()
    expect(bo.locator(".draw-waits")).to_contain_text("Ana’s draw waits")
    bo.locator("button.die").tap()  # while Ana's draw waits: committed and queued, not refused
    expect(bo.locator(".draw-queued")).to_have_text("Your draw waits too: it comes after 1 other draw.")
    expect(ana.locator(".draw-waits")).to_have_text("Your draw waits for the phones’ random numbers…")
    expect(ana.locator(".draw-queued")).to_have_count(0)
    bo.locator("button.die").tap()  # a second draw of the same seat: refused beside the die
    expect(bo.get_by_role("alert")).to_contain_text("Your draw waits for the phones' random numbers")

    answer_when_asked(cys_screen, cy)  # Ana's round seals, her roll runs; Bo's round opens
    expect(bo.locator(".draw-waits")).to_have_text("Your draw waits for the phones’ random numbers…")
    answer_when_asked(cys_screen, cy)
    for page in (ana, bo):
        expect(page.locator(".history li")).to_have_count(2)
        expect(page.locator(".history li").first).to_contain_text("Bo rolled")
        expect(page.locator(".fairness-mark")).to_have_attribute("data-unspent", "0")
        expect(page.locator(".fairness-mark")).not_to_contain_text("null")  # no explanation: nothing unspent
        expect(page.locator(".draw-waits")).to_have_count(0)
    cys_screen.close()

    closed = requests.post(f"{server.url}/api/tables/{code}/actions", headers=bearer(table["host_token"]),
                           json={"type": "table.close"}, timeout=10)
    assert closed.status_code == 200, closed.text
    log = public_log(server, code)
    assert [e["seat"] for e in log["entries"] if e.get("type") == "draw_waits"] == [1, 2]
    assert [e["by"] for e in log["entries"] if e["kind"] == "draw"] == [1, 2]
    ana.goto(f"{server.url}/t/{code}/verify")  # on Ana's phone: its own record is checked too
    verdict = ana.locator(".verdict")
    expect(verdict).to_have_attribute("data-result", "ok", timeout=REPLAY_WAIT)
    expect(verdict).to_have_attribute("data-restarts", "0")
    expect(ana.locator(".record-state")).to_have_attribute("data-record", "checked")

    # The page's own script and the CLI agree on the honest log and on one served out of order.
    swapped = {**log, "entries": [dict(entry) for entry in log["entries"]]}
    waits = [entry for entry in swapped["entries"] if entry.get("type") == "draw_waits"]
    waits[0]["seat"], waits[1]["seat"] = waits[1]["seat"], waits[0]["seat"]
    for case in (log, swapped):
        in_page = ana.evaluate("""async (log) => {
            const { verifyLog } = await import('/static/js/fairness.js');
            const report = verifyLog(log);
            return { ok: report.ok, entries: report.problems.map((p) => p.i) };
        }""", case)
        report = verify_log(case)
        assert in_page == {"ok": report.ok, "entries": [where for where, _ in report.problems]}
    assert not verify_log(swapped).ok
