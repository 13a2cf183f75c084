"""Each game's main phone screen at 360 x 640 in French, the pictures of docs/PLAYING.md.

The tables are brought to a state of play through the JSON API (tests/layout_states.py) and the phone whose
step it is opens its page in Chromium. The pictures go to test-artifacts/screenshots/screens/ on every run
and to docs/screens/ only with `./manage.sh screenshots` (COMPANION_DOC_SCREENSHOTS=1)."""

from __future__ import annotations

import struct

import pytest
from playwright.sync_api import expect, sync_playwright

from tests import layout_states as states
from tests.helpers import IMAGES_IN_VIEW_LOADED
from tests.server import server_fixture
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, DOCS

SCREENS = DOCS / "screens"
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "locale": "fr-FR",
         "reduced_motion": "reduce"}
# Each game's main screen: the state, and what its phone shows when it is ready (in French).
MAIN_SCREENS = {
    "dice": (states.dice_six_d20_rolled, ".history li"),
    "arkade": (states.arkade_playing, ".ak-side.mine .ak-die"),
    "rayman": (states.rayman_choosing, ".rm-lock"),
    "amiiboxe": (states.amiiboxe_turn, ".ax-pick button"),
    "chakart": (states.chakart_start, ".ck-board"),
    "universalis": (states.universalis_preparation, ".uv-prompt"),
}


server = server_fixture("screens", states.FAST, prepare=states.import_catalogue)


def png_size(path) -> tuple[int, int]:
    """Width and height from the PNG's header (its IHDR chunk)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", header[16:24])


def open_seat(browser, table: states.Table, name: str):
    """``name``'s phone at the table, connected."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(table.url + "/join")  # an origin for the seat's key
    page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"companion.seat.{table.code}", table.tokens[name]])
    page.goto(f"{table.url}/t/{table.code}")
    expect(page.locator(".status[data-state=connected]")).to_be_attached()
    expect(page.locator(".game-area")).not_to_be_empty()
    return page


@pytest.mark.doc_screenshots  # the pictures of docs/PLAYING.md (./manage.sh screenshots)
def test_each_games_main_phone_screen_in_french(server):
    SCREENS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for game, (build, ready) in MAIN_SCREENS.items():
                table = build(server.url)
                # Every player's phone at the table, so that none shows as away; the picture is the last one's.
                others = [open_seat(browser, table, name) for name in table.tokens if name != table.phone]
                page = open_seat(browser, table, table.phone)
                expect(page.locator(ready).first).to_be_visible()
                expect(page.locator(".presence-strip .seat.away")).to_have_count(0)  # everyone at the table
                expect(page.locator("html")).to_have_attribute("lang", "fr")
                page.wait_for_function(IMAGES_IN_VIEW_LOADED)
                page.evaluate("() => document.fonts.ready")
                picture = SCREENS / f"fr-{game}.png"
                page.screenshot(path=picture)  # the screen as the player sees it, not the whole page
                assert png_size(picture) == (360, 640), game
                for opened in (*others, page):
                    opened.context.close()
        finally:
            browser.close()
