"""Figures on the real screens, in headless Chromium against the real server:
"add my figures" on a phone, a tap shown on both screens, a new figure waiting on
the host screen with its own QR code, claimed by the phone that scans it, and
named by its owner."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from tests.test_browser import (DESKTOP, PHONE, as_host, browser, decode_qr, open_context,  # noqa: F401
                                server, take_seat, wait_for_images)

# Figures newer than the shipped catalogue (model numbers it does not have): shown by their series.
MARIO = "0x000000000fff0102"
LINK = "0x0100000003ff0902"


def scan(server, table, uid, amiibo_id):
    response = requests.post(f"{server.url}/api/tables/{table['code']}/actions", timeout=10,
                             json={"type": "table.scan", "uid": uid, "amiibo_id": amiibo_id},
                             headers={"Authorization": f"Bearer {table['host_token']}"})
    assert response.status_code == 200, response.text


def create_amiiboxe_table(server) -> dict:
    """Figures are registered in the lobby of a game that plays with them."""
    response = requests.post(f"{server.url}/api/tables", json={"game": "amiiboxe", "options": {}}, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def test_figures_are_added_claimed_by_qr_code_and_named(server, open_context, tmp_path):
    table = create_amiiboxe_table(server)
    code = table["code"]
    host_screen = open_context(**DESKTOP)
    as_host(host_screen, code, table["host_token"])
    host = host_screen.new_page()
    host.goto(f"{server.url}/host/{code}")
    expect(host.locator(".reader-state")).to_have_text("No NFC reader is used")

    ana_phone = open_context(**PHONE)
    ana = ana_phone.new_page()
    ana.goto(f"{server.url}/t/{code}")
    take_seat(ana, "Ana")
    expect(ana.locator(".figure-area h3")).to_have_text("My figures")
    # No reader of the server's own and none has tapped at this table yet: picking by name comes first,
    # before the (empty) list, and no button asks for taps.
    expect(ana.locator(".figure-area .no-reader-note")).to_have_text(
        "No NFC reader is connected: pick your figures by name below.")
    expect(ana.get_by_role("button", name="Add my figures")).to_have_count(0)
    assert ana.locator(".figure-area").evaluate(
        "(area) => area.querySelector('.pick-figure').compareDocumentPosition(area.querySelector('.muted'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING")

    # A reader posts its taps from another process: a new figure tapped while nobody is adding waits
    # with its own QR code.
    scan(server, table, "04000000000002", LINK)
    waiting = host.locator(".pending-figure")
    expect(waiting).to_contain_text("is waiting: scan this code to take it")
    wait_for_images(host)
    waiting.locator("img.claim-qr").screenshot(path=tmp_path / "claim.png")
    claim_url = decode_qr(tmp_path / "claim.png")
    assert claim_url.startswith(f"{server.url}/t/{code}?claim=")

    bo_phone = open_context(**PHONE)
    bo = bo_phone.new_page()
    bo.goto(claim_url)
    take_seat(bo, "Bo")
    bo.get_by_role("button", name="Take Unknown figure").tap()
    link = f"Unknown figure #{LINK} — Legend Of Zelda series"  # the series as the catalogue names it
    expect(bo.locator(".figure-area .figure-name")).to_have_text([link])
    expect(host.locator(".pending-figure")).to_have_count(0)

    # A reader has tapped here: Ana's phone now offers to tap hers.
    ana.get_by_role("button", name="Add my figures").tap()
    expect(host.locator(".figure-area .registering")).to_have_text("Ana: tap your figures on the reader")
    expect(ana.locator(".figure-area .registering")).to_be_visible()
    scan(server, table, "04000000000001", MARIO)
    mario = f"Unknown figure #{MARIO} — Super Mario Bros. series"
    expect(ana.locator(".figure-area .figure-name")).to_have_text([mario])
    expect(host.locator(".seats .figure-name")).to_have_text([mario, link])
    ana.get_by_role("button", name="Done").tap()
    expect(host.locator(".figure-area .registering")).to_have_count(0)

    # The host names it (the name goes into the catalogue every table shares); everybody sees it.
    expect(bo.get_by_role("button", name="Name it")).to_have_count(0)
    host.once("dialog", lambda dialog: dialog.accept("Hero of Hyrule"))
    host.locator(".seats li.figure", has_text=link).get_by_role("button", name="Name it").click()
    expect(bo.locator(".figure-area .figure-name")).to_have_text(["Hero of Hyrule"])
    expect(host.locator(".seats .figure-name")).to_have_text([mario, "Hero of Hyrule"])

    # Without a reader: Ana picks a figure from the catalogue (an id typed in finds it too).
    expect(ana.get_by_role("heading", name="Pick your figures by name")).to_be_visible()  # always offered
    ana.locator(".pick-figure input[name=q]").fill("0x0003000000360102")
    ana.get_by_role("button", name="Search").tap()
    ana.locator(".catalogue-results").get_by_role("button", name="Add").tap()
    expect(ana.locator(".figure-area .figure-name")).to_have_count(2)
    ana.locator(".pick-figure input[name=q]").fill("no such figure")
    ana.get_by_role("button", name="Search").tap()
    expect(ana.locator(".catalogue-results li")).to_have_text(["Nothing found"])

    for screen in (host_screen, ana_phone, bo_phone):
        screen.assert_clean()
