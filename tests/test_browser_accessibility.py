"""Accessible to everyone at the table: axe-core (node_modules/axe-core, a development package of
package.json) checks every page of every game, at phone size (360 x 640) and on the TV (1920 x 1080), and
a handful of them in French on a phone and on a laptop (1366 x 768),
against the WCAG 2.1 A and AA rules and axe's best practices: no serious or critical violation (a
control without a name, text below the contrast ratio, a field without a label, a page without its
language). The pages are tests/test_layout.py's screens, on the same tables (tests/layout_states.py),
one per state, built once for the module.

A screen reader user takes a seat and rolls the die by the names and roles the page gives; a seat is
never told apart by its colour alone (its name is written beside its swatch)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect, sync_playwright

from tests import layout_states as states
from tests.server import ROOT
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.test_layout import SCREENS, SIZES, Screen, open_screen, server, table_as, tables  # noqa: F401 (fixtures)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# What each game shows: its pages, and for each game the lobby or first state, a state of play and the
# end, on the host screen, the TV display and the phone concerned.
CHECKED = {
    "home", "join", "join-bad-code", "phone-join-form", "rankings", "card", "verify", "closed", "unknown-table",
    "display-pair", "pair", "closed-dice-host", "dice-six-d20-display", "rayman-turns-display",
    "dice-fresh-host", "dice-fresh-phone", "dice-six-d20-phone", "dice-host-phone",
    "arkade-roles-host", "arkade-roles-phone", "arkade-playing-host", "arkade-playing-phone", "arkade-over-phone",
    "arkade-host-phone",
    "rayman-characters-host", "rayman-characters-phone", "rayman-choosing-phone", "rayman-turns-host",
    "rayman-turns-phone", "rayman-over-host", "rayman-host-phone",
    "amiiboxe-registration-host", "amiiboxe-registration-phone", "amiiboxe-turn-host", "amiiboxe-turn-phone",
    "amiiboxe-fight-phone", "amiiboxe-over-host", "amiiboxe-host-phone",
    "chakart-start-host", "chakart-start-phone", "chakart-board-phone",
    "universalis-start-host", "universalis-start-phone", "universalis-preparation-phone",
    # The steps that wait on one phone, with their bars and number pads.
    "arkade-heart-phone", "rayman-legendary-phone", "rayman-choosing-quick-phone", "rayman-offer-phone",
    "amiiboxe-vote-phone", "chakart-egg-phone",
}
# French is the other language of the table, and a laptop may be the host screen: a handful of each game's
# screens there (a phone's own step, the host screen in play), to keep the module quick.
IN_FRENCH = {"home", "phone-join-form", "dice-fresh-phone", "arkade-playing-phone", "arkade-heart-phone",
             "rayman-choosing-phone", "rayman-initiatives-phone", "amiiboxe-turn-phone", "amiiboxe-values-phone",
             "chakart-start-phone", "universalis-start-phone"}
ON_A_LAPTOP = {"dice-fresh-host", "arkade-playing-host", "rayman-turns-host", "amiiboxe-turn-host",
               "chakart-start-host", "universalis-start-host"}
CASES = [(screen, size) for screen in SCREENS if screen.name in CHECKED for size in ("phone", "tv")] + [
    (screen, "phone-fr") for screen in SCREENS if screen.name in IN_FRENCH] + [
    (screen, "laptop-fr") for screen in SCREENS if screen.name in ON_A_LAPTOP]

RUN_AXE = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  });
  return result.violations.map((rule) => ({ id: rule.id, impact: rule.impact, help: rule.help,
    nodes: rule.nodes.map((node) => ({ target: node.target.join(' '), impact: node.impact,
                                        why: node.failureSummary })) }));
}"""


def test_axe_core_is_installed_where_the_suite_finds_it():
    assert AXE.is_file(), "./manage.sh install-test installs it (package.json's devDependencies)"


@pytest.fixture(scope="module")
def pages(server):  # noqa: F811
    """One browser, a phone and a TV; the pages' Content-Security-Policy would refuse axe's script."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        opened = {}
        for size in ("phone", "tv", "phone-fr", "laptop-fr"):
            context = browser.new_context(locale="fr-FR" if size.endswith("-fr") else "en-US", reduced_motion="reduce",
                                          bypass_csp=True, **SIZES[size.split("-")[0]])
            opened[size] = context.new_page()
            opened[size].goto(server.url + "/join")  # an origin for the keys put in local storage
        yield opened
        browser.close()


def violations(page) -> list[dict]:
    """axe's serious and critical violations of the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE)
    return [rule for rule in found if rule["impact"] in BLOCKING]


@pytest.mark.parametrize(("screen", "size"), CASES, ids=[f"{screen.name}-{size}" for screen, size in CASES])
def test_no_serious_accessibility_violation(server, pages, tables, screen, size):  # noqa: F811
    page = pages[size]
    open_screen(page, server, screen, tables(screen.build) if screen.build else None)
    found = violations(page)
    assert found == [], f"{screen.name} at {size}: " + "; ".join(
        f"{rule['id']} ({rule['impact']}): {rule['help']} at {[node['target'] for node in rule['nodes']][:6]}"
        f" ({rule['nodes'][0]['why']})" for rule in found)


def test_a_screen_reader_user_takes_a_seat_and_rolls_by_names_and_roles(server, pages):  # noqa: F811
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


# A seat's colour swatch, wherever the screens show one: its seat's name is written beside it.
UNNAMED_SWATCHES = """() => [...document.querySelectorAll('.swatch')].filter((swatch) => swatch.offsetParent !== null)
  .filter((swatch) => !/\\p{L}/u.test(swatch.parentElement.textContent))
  .map((swatch) => swatch.parentElement.outerHTML.slice(0, 200))"""
NAMED_SCREENS = ("dice-six-d20-display", "rayman-turns-host", "amiiboxe-over-host", "universalis-start-host")


@pytest.mark.parametrize("name", NAMED_SCREENS)
def test_colour_is_never_the_only_way_a_seat_is_told_apart(server, pages, tables, name):  # noqa: F811
    screen = next(screen for screen in SCREENS if screen.name == name)
    page = pages["tv"]
    open_screen(page, server, screen, tables(screen.build))
    assert page.locator(".swatch").count() > 0
    assert page.evaluate(UNNAMED_SWATCHES) == []


def test_a_rolls_result_is_announced_on_the_phones_and_the_tv(server, pages):  # noqa: F811
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
