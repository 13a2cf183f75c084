"""The layout cases of the pages without a game and of the dice (tests/layout_cases.py), and what the pages
do for everyone at the table: a phone that loses its connection, the verify page, the create form, a seat handed
on, a screen reader user, the rolls announced, and axe's own checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests import layout_states as states
from tests.layout_cases import (ACCESSIBLE, ACCESSIBLE_IN_FRENCH, ACCESSIBLE_ON_A_LAPTOP, ACCESSIBLE_SIZES, ARTIFACTS,
                                AXE, CASES, GROUPS, Screen, closed_dice, layout_test, named_swatches_test, open_screen,
                                phone_screen, table_as)
from tests.layout_cases import pages, server, tables  # noqa: F401 (the module's fixtures)
from tests.server import ROOT

test_layout = layout_test("pages")
test_colour_is_never_the_only_way_a_seat_is_told_apart = named_swatches_test("pages")


def test_a_phone_that_loses_its_connection_greys_out_its_actions_until_it_is_back(server, pages, tables):
    page = pages["phone"]
    table = tables(states.dice_fresh)
    open_screen(page, server, phone_screen("dice-fresh-phone"), table)
    die = page.locator("button.die")
    expect(die).to_be_enabled()
    page.context.set_offline(True)
    try:
        expect(page.locator(".seat-view")).to_have_class(re.compile(r"\boffline\b"))
        expect(page.locator(".seat-view .status")).to_have_text("Reconnecting…")
        assert die.evaluate("(node) => node.closest('[inert]') !== null")  # taps go nowhere
        assert float(die.evaluate("(node) => getComputedStyle(node).opacity")) < 0.5
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=ARTIFACTS / "dice-offline-phone.png")
    finally:
        page.context.set_offline(False)
    expect(page.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    expect(page.locator(".seat-view")).not_to_have_class(re.compile(r"\boffline\b"))
    die.tap()
    expect(page.locator(".history li")).to_have_count(1)


def test_the_verify_page_numbers_draws_from_1_and_names_the_players(server, pages, tables):
    page = pages["phone"]
    table = tables(closed_dice)
    open_screen(page, server, phone_screen("verify"), table)
    rows = page.locator(".draws tbody tr")
    expect(rows).to_have_count(12 * 6)
    expect(rows.first.locator("td").nth(0)).to_have_text("1")
    expect(rows.last.locator("td").nth(0)).to_have_text(str(12 * 6))
    # Ana rolled first, Bo second: each draw names who rolled, by name, never by seat number.
    expect(rows.first.locator("td").nth(1)).to_have_text("Ana")
    expect(rows.nth(6).locator("td").nth(1)).to_have_text("Bo")
    expect(rows.first.locator("td").nth(2)).to_have_text("roll of the die d20 by Ana")
    expect(page.locator(".draws")).not_to_contain_text("seat")


def test_the_stylesheet_closes_every_block_it_opens():
    """A stray brace makes the browser drop the rule after it, silently."""
    css = re.sub(r"/\*.*?\*/", "", (ROOT / "static" / "css" / "companion.css").read_text(), flags=re.S)
    depth = 0
    for line_number, line in enumerate(css.splitlines(), start=1):
        for char in line:
            depth += {"{": 1, "}": -1}.get(char, 0)
            assert depth >= 0, f"a closing brace without its block near line {line_number}"
    assert depth == 0


def test_the_create_page_shows_only_the_chosen_games_options(server, pages):
    """Each game's own settings, and the hint about typed lists only where the game has lists to type."""
    page = pages["phone"]
    page.goto(server.url + "/")
    select = page.locator("select[name=game]")
    hints = page.locator(".game-options .hint").filter(visible=True)
    for game, hint in (("arkade", "colours and faces"), ("amiiboxe", "separated by commas"), ("chakart", None),
                       ("rayman", None), ("dice", None)):
        select.select_option(game)
        shown = page.locator(".game-options").filter(visible=True)
        expect(shown).to_have_count(1)
        expect(shown).to_have_attribute("data-game", game)
        if hint:
            expect(hints).to_contain_text(hint)
        else:
            expect(hints).to_have_count(0)


MOVED = {"phone": "Your seat moved to another phone", "phone-fr": "Votre place est passée sur un autre téléphone"}


@pytest.mark.parametrize("size", ["phone", "phone-fr"])
def test_a_seat_handed_on_from_a_laptop_shows_its_code_in_view_and_tells_the_old_phone(server, pages, size):
    """On a laptop's 768 px the host hands Bo's seat on: the QR code is in view, scrolled or not; once the new
    phone has taken the seat the code leaves the screen, and Bo's old phone reads that its seat moved, now
    and when it opens the table again."""
    table = states.dice_six_d20_rolled(server.url)  # its own table: the seat changes phone
    laptop, old_phone = pages["laptop-fr"], pages[size]
    open_screen(laptop, server, Screen("handoff", "/host/{code}", None, "host", ".seats li.away"), table)
    bo = table.seats["Bo"]
    laptop.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # where a host's hand may have left it
    laptop.locator(f".seats li[data-seat='{bo}'] .hand-seat").click()
    qr = laptop.locator("section.handoff img.handoff-qr")
    expect(qr).to_be_visible()
    laptop.wait_for_function("() => document.querySelector('section.handoff img.handoff-qr').complete")
    box = qr.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768 and box["x"] + box["width"] <= 1366, box
    code = laptop.locator("section.handoff .handoff-code").inner_text()
    # Bo's phone comes back to the table meanwhile: asked, it allows the move.
    open_screen(old_phone, server, Screen("old", "/t/{code}", None, "phone", ".history li"), table_as(table, "Bo"))
    old_phone.locator(".allow-handoff").tap()
    expect(old_phone.locator(".handoff-question")).to_have_count(0)  # the server has the phone's consent
    claimed = requests.post(f"{server.url}/api/tables/{table.code}/handoff", json={"handoff": code, "entropy": "5a" * 32},
                            timeout=states.WAIT)
    assert claimed.status_code == 201, claimed.text
    expect(laptop.locator("section.handoff")).to_be_hidden()
    expect(laptop.get_by_text(code)).to_have_count(0)  # a used code is no longer on the screen
    expect(old_phone.locator(".join-form .error")).to_contain_text(MOVED[size])
    expect(old_phone.locator(".handoff-form")).to_be_attached()  # and a way to take a seat again with a new code
    # Closed meanwhile, the old phone opens the table with its old token: told the same, not "not valid".
    old_phone.evaluate("([key, token]) => localStorage.setItem(key, token)",
                       [f"companion.seat.{table.code}", table.tokens["Bo"]])
    old_phone.reload()
    expect(old_phone.locator(".join-form .error")).to_contain_text(MOVED[size])


def test_axe_core_is_installed_where_the_suite_finds_it():
    assert AXE.is_file(), "./manage.sh install-test installs it (package.json's devDependencies)"


def test_every_page_axe_checks_is_a_layout_case():
    for names, sizes in ((ACCESSIBLE, ACCESSIBLE_SIZES), (ACCESSIBLE_IN_FRENCH, ("phone-fr",)),
                         (ACCESSIBLE_ON_A_LAPTOP, ("laptop-fr",))):
        cased = {screen.name for screen, size in CASES if size in sizes}
        assert names <= cased, sorted(names - cased)


def test_a_screen_reader_user_takes_a_seat_and_rolls_by_names_and_roles(server, pages):
    """Everything found by its role and accessible name, as a screen reader lists them."""
    table = states.Table.create(server.url, "dice", {"die": "d6"}, ())
    page = pages["phone"]
    page.goto(f"{server.url}/t/{table.code}")
    page.get_by_role("textbox", name="Your name").fill("Lou")
    page.get_by_role("button", name="Take a seat").click()
    die = page.get_by_role("button", name=re.compile(r"^Tap the die to roll"))
    expect(die).to_be_enabled()
    die.click()
    rolls = page.get_by_role("list", name="Rolls").get_by_role("listitem")
    expect(rolls).to_have_count(1)
    # The die's name says the result, in the words of the roll shown on it.
    expect(page.get_by_role("button", name=re.compile(r"^Tap the die to roll — [1-6]$"))).to_be_visible()
    expect(rolls.first).to_contain_text("Lou")


def test_a_rolls_result_is_announced_on_the_phones_and_the_tv(server, pages):
    """A screen reader hears who rolled what, once, from a live region: on Bo's phone and on the host screen."""
    table = states.Table.create(server.url, "dice", {"die": "d6"}, ("Ana", "Bo"))
    phone, tv = pages["phone"], pages["tv"]
    open_screen(phone, server, Screen("bo", "/t/{code}", None, "phone", "button.die"), table_as(table, "Bo"))
    open_screen(tv, server, Screen("tv", "/host/{code}", None, "host", ".die"), table)
    table.act("Ana", {"type": "roll"})
    rolled = table.game()["last"]["faces"][0]
    for page in (phone, tv):
        live = page.locator(".announce[aria-live]")
        expect(live).to_have_text(f"Ana rolled {rolled}")



def test_every_group_of_screens_has_its_test_module():
    """A group without its module would have its layout cases never run."""
    modules = {path.stem for path in Path(__file__).parent.glob("test_layout_*.py")}
    assert modules == {f"test_layout_{group}" for group in (*GROUPS, "pages")}
