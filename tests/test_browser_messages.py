"""In headless Chromium at phone size: the create form refuses an impossible option next to its
field as it is typed (and lets the table be created once it is fixed), and a phone opening a
table whose joining is closed is told it will watch before typing a name, then watches."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import expect

from tests.test_browser import PHONE, browser, open_context, server  # noqa: F401


def test_an_impossible_option_is_refused_next_to_its_field_as_it_is_set(server, open_context):
    phone = open_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{server.url}/")
    page.locator("select[name=game]").select_option("amiiboxe")
    field = page.locator('[data-option="figures_per_player"]')
    field.fill("9")
    error = page.locator(".field-error:visible")
    expect(error).to_have_text("Option Figures per player must be a whole number from 1 to 6.")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("button", name="Create the table")).to_be_disabled()
    field_box, error_box = field.bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) < 40  # right under the field
    field.fill("2")  # the book's minimum is 3: refused with its reason
    expect(error).to_have_text(re.compile("at least 3 amiibo per player"))
    field.fill("3")
    expect(error).to_have_count(0)
    page.get_by_role("button", name="Create the table").tap()
    # Created: a phone hosts the table from its own page.
    expect(page).to_have_url(re.compile(rf"^{re.escape(server.url)}/(t|host)/[A-Z0-9]{{4,5}}$"))
    phone.assert_clean()


def test_a_phone_is_told_it_will_watch_before_typing_a_name(server, open_context):
    table = requests.post(f"{server.url}/api/tables", json={"game": "arkade"}, timeout=10).json()
    closed = requests.post(f"{server.url}/api/tables/{table['code']}/actions", timeout=10,
                           json={"type": "table.joining", "open": False},
                           headers={"Authorization": f"Bearer {table['host_token']}"})
    assert closed.status_code == 200
    phone = open_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table['code']}")
    notice = page.locator(".join-form .watch-notice")
    expect(notice).to_contain_text("you will watch as a spectator. The host can open joining")
    assert notice.bounding_box()["y"] < page.locator(".join-form input[name=name]").bounding_box()["y"]
    watch = page.get_by_role("button", name="Watch the table")
    expect(watch).to_be_focused()
    watch.tap()
    expect(page.locator(".seat-view .my-name")).to_have_text("You are watching as a spectator.")
    expect(page.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    phone.assert_clean()


COUNTED = {("en", 1): "Rayman: 1 space past the line.", ("en", 2): "Rayman: 2 spaces past the line.",
           ("fr", 1): "Rayman\u00a0: 1 espace après la ligne.", ("fr", 2): "Rayman\u00a0: 2 espaces après la ligne.",
           ("en", 0): "Rayman: 0 spaces past the line.", ("fr", 0): "Rayman\u00a0: 0 espace après la ligne."}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_count_of_one_is_singular_and_two_plural_in_the_page_language(server, open_context, language):
    phone = open_context(**PHONE)
    page = phone.new_page()
    # A page whose scripts run as written carries every string of the screens (a bundled page's scripts come
    # written in its language and carry none: tests/test_first_load.py): a table's join card.
    code = requests.post(f"{server.url}/api/tables", json={"game": "rayman"}, timeout=10).json()["code"]
    page.goto(f"{server.url}/t/{code}/card?lang={language}")
    said = page.evaluate("""async () => {
      const { tn } = await import('/static/js/i18n.js');
      return [0, 1, 2].map((count) => tn('%(name)s: %(count)s space past the line.',
                                         '%(name)s: %(count)s spaces past the line.', count, { name: 'Rayman' }));
    }""")
    assert said == [COUNTED[language, count] for count in (0, 1, 2)]
    phone.assert_clean()
