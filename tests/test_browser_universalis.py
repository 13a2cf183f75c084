"""Mario Universalis on two phone screens (360×640) in headless Chromium against
the real server: the first player plays a Character from the form, attacks with
two Characters; the other phone is told it is attacked and blocks one; both
phones then show the damage per card and the coins. At every phase the main
action is on the first screen, without scrolling; a card typed once is found
again from a few letters; an undo is shown to the other phone; the turn is
also walked in French."""

from __future__ import annotations

import os
from pathlib import Path

import requests
from playwright.sync_api import Locator, Page, expect

from tests.helpers import bearer
from tests.server import ROOT, server_fixture
from tests.test_browser import (  # noqa: F401
    DESKTOP, SMALL_PHONE, Watched, as_host, as_seat, browser, open_context, phone_at_seat, seat_via_api,
)

ARTIFACTS = ROOT / "test-artifacts"
# The screenshots a reviewer looks at (outside the repository when asked for).
SHOTS = Path(os.environ.get("COMPANION_UNIVERSALIS_SHOTS", ARTIFACTS / "universalis"))


# The API plays two turns before the phones take over: faster than a thumb.
server = server_fixture("universalis", {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"})


def act(server, code: str, token: str, action: dict) -> None:
    response = requests.post(f"{server.url}/api/tables/{code}/actions", json=action, headers=bearer(token), timeout=10)
    assert response.status_code == 200, response.text


def character(name, cost, pf, pc):
    return {"type": "play", "card": {"kind": "character", "name": name, "cost": cost, "pf": pf, "pc": pc}}


def duel_at_turn_three(server) -> tuple[str, dict[str, str], dict[str, int]]:
    """Ana plays first (a table option); by the API she plays Koopa, Bo plays Boo: Ana's turn 3 begins."""
    created = requests.post(f"{server.url}/api/tables", timeout=10, json={
        "game": "universalis", "options": {"starting_coins": 10, "first": "first_seat"}}).json()
    code = created["code"]
    tokens = {name: seat_via_api(server, code, name) for name in ("Ana", "Bo")}
    act(server, code, created["host_token"], {"type": "table.start"})
    game = requests.get(f"{server.url}/api/tables/{code}", timeout=10).json()["game"]
    seats = {game["names"][str(seat)]: seat for seat in game["order"]}
    assert game["active"] == seats["Ana"] and game["phase"] == "prep1"  # start, refill and draw passed
    act(server, code, tokens["Ana"], character("Koopa", 3, 3, 5))
    act(server, code, tokens["Ana"], {"type": "end_turn"})
    act(server, code, tokens["Bo"], character("Boo", 2, 1, 3))
    act(server, code, tokens["Bo"], {"type": "end_turn"})
    return code, tokens, seats


def open_phone(open_context, server, code, token) -> Page:
    return phone_at_seat(open_context, server, code, token, ".universalis-game")


def buzzing_phone(open_context, server, code, token) -> Page:
    """A phone whose vibrations are recorded (headless Chromium has no motor): ``window.buzzes``."""
    context = open_context(**SMALL_PHONE)
    as_seat(context, code, token)
    context.context.add_init_script("window.buzzes = []; navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };")
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator(".universalis-game")).to_be_visible()
    return page


def french_phone(browser, server, code, token) -> Page:
    context = browser.new_context(locale="fr-FR", **SMALL_PHONE)
    as_seat(Watched(context, server), code, token)
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator(".universalis-game")).to_be_visible()
    return page


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def on_first_screen(page: Page, control: Locator) -> None:
    """The phase's main action is in the 360×640 viewport as the page opens, without scrolling."""
    expect(control).to_be_visible()
    assert page.evaluate("() => window.scrollY") == 0
    box = control.bounding_box()
    viewport = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert box["height"] >= 44


def test_a_turn_and_a_combat_from_two_phones(server, open_context):
    SHOTS.mkdir(parents=True, exist_ok=True)
    code, tokens, seats = duel_at_turn_three(server)
    # Ana stops at the damage (a card of hers changes it), Bo at the start of his turn: those phases wait.
    act(server, code, tokens["Ana"], {"type": "stops", "stops": ["damage"]})
    act(server, code, tokens["Bo"], {"type": "stops", "stops": ["start"]})
    attacker = open_phone(open_context, server, code, tokens["Ana"])
    defender = buzzing_phone(open_context, server, code, tokens["Bo"])
    expect(attacker.locator(".uv-prompt")).to_have_text("Your turn: Preparation.")
    expect(defender.locator(".uv-prompt")).to_contain_text("Waiting for Ana")
    on_first_screen(attacker, attacker.get_by_role("button", name="Attack with all (1)"))
    attacker.screenshot(path=str(SHOTS / "en-1-preparation.png"))
    # The counters read across the table, as a life counter's: 28 px and more.
    sizes = attacker.locator(".uv-number, .uv-stars").evaluate_all(
        "nodes => nodes.map(node => parseFloat(getComputedStyle(node).fontSize))")
    assert len(sizes) == 4 and min(sizes) >= 28, sizes
    form = attacker.locator("form.uv-play")
    form.locator("input[name=name]").fill("Goomba")
    # The other player's action redraws the screen: what was typed stays.
    act(server, code, tokens["Bo"], {"type": "coins", "seat": seats["Bo"], "delta": 1})
    expect(attacker.locator(".uv-history")).to_contain_text("+1 coins")
    expect(form.locator("input[name=name]")).to_have_value("Goomba")
    form.locator("input[name=cost]").fill("2")
    form.locator("input[name=pf]").fill("2")
    form.locator("input[name=pc]").fill("4")
    form.get_by_role("button", name="Play", exact=True).tap()
    expect(defender.locator(".uv-card", has_text="Goomba")).to_be_visible()
    attacker.evaluate("() => window.scrollTo(0, 0)")
    on_first_screen(attacker, attacker.get_by_role("button", name="Choose attackers"))
    attacker.get_by_role("button", name="Choose attackers").tap()
    on_first_screen(attacker, attacker.get_by_role("button", name="Attack!"))
    attacker.get_by_label("Koopa (PF 3)").check()
    attacker.get_by_label("Goomba (PF 2)").check()
    no_sideways_scroll(attacker)
    attacker.get_by_role("button", name="Attack!").tap()

    expect(defender.locator(".uv-prompt")).to_have_text("You are attacked: declare your blockers.")
    assert defender.evaluate("() => window.buzzes") == [[200, 100, 200]]  # the phone vibrated, once
    on_first_screen(defender, defender.get_by_role("button", name="Confirm the blocks"))
    defender.get_by_label("Boo blocks").select_option(label="Koopa (PF 3)")
    no_sideways_scroll(defender)
    defender.screenshot(path=str(SHOTS / "en-2-attacked.png"))
    defender.get_by_role("button", name="Confirm the blocks").tap()
    expect(attacker.locator(".uv-prompt")).to_have_text("Your turn: Combat: damage.")
    on_first_screen(attacker, attacker.get_by_role("button", name="Deal the damage"))
    expect(attacker.locator(".uv-combat")).to_contain_text("Boo loses 3 PC")
    attacker.screenshot(path=str(SHOTS / "en-3-damage-before-the-ko.png"))
    attacker.get_by_role("button", name="Deal the damage").tap()
    for page in (attacker, defender):
        expect(page.locator(".uv-phases li.current")).to_have_text("Second preparation")
        expect(page.locator(".uv-history")).to_contain_text("Combat: Koopa −1 PC (4 left); Boo −3 PC (KO); Goomba passed")
        expect(page.locator(".uv-history")).to_contain_text("Bo blocks: Boo blocks Koopa.")  # Boo, KO'd since, by name
        expect(page.locator(".uv-card", has_text="Koopa")).to_contain_text("PC 4/5")
        no_sideways_scroll(page)
    attacker.evaluate("() => window.scrollTo(0, 0)")
    on_first_screen(attacker, attacker.get_by_role("button", name="End my turn"))
    expect(attacker.locator(".uv-side").first).to_contain_text("Hand: 4")  # 5, one drawn, two played
    attacker.screenshot(path=str(SHOTS / "en-4-after-the-combat.png"))
    attacker.screenshot(path=str(ARTIFACTS / "universalis-attacker-360.png"), full_page=True)
    attacker.get_by_role("button", name="End my turn").tap()

    # Bo's turn stops at its start (he said so); then refill and draw pass; Koopa, typed once, is found from "koop".
    expect(defender.locator(".uv-prompt")).to_have_text("Your turn: Start of the turn.")
    defender.evaluate("() => window.scrollTo(0, 0)")
    on_first_screen(defender, defender.get_by_role("button", name="Next phase: Renflouage (+6 coins)"))
    defender.get_by_role("button", name="Next phase: Renflouage (+6 coins)").tap()
    expect(defender.locator(".uv-prompt")).to_have_text("Your turn: Preparation.")
    on_first_screen(defender, defender.get_by_role("button", name="End my turn"))
    defender.get_by_role("searchbox", name="Find a card of this evening").fill("koop")
    defender.get_by_role("button", name="Koopa — 3 coins, PF 3, PC 5").tap()
    expect(defender.locator("form.uv-play input[name=name]")).to_have_value("Koopa")
    # Bo takes back a coin: Ana's phone says so.
    act(server, code, tokens["Bo"], {"type": "coins", "seat": seats["Bo"], "delta": 1})
    expect(attacker.locator(".uv-history")).to_contain_text("Bo: +1 coins")
    act(server, code, tokens["Bo"], {"type": "seat.undo"})
    expect(attacker.locator(".uv-took-back")).to_contain_text("Bo took back: Bo: +1 coins")


def test_the_turn_in_french_at_360(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    code, tokens, seats = duel_at_turn_three(server)
    ana = french_phone(browser, server, code, tokens["Ana"])
    expect(ana.locator(".uv-prompt")).to_have_text("À vous\u00a0: Préparation.")
    on_first_screen(ana, ana.get_by_role("button", name="Attaquer avec tous (1)"))
    no_sideways_scroll(ana)
    ana.screenshot(path=str(SHOTS / "fr-1-preparation.png"))
    ana.get_by_role("button", name="Attaquer avec tous (1)").tap()
    bo = french_phone(browser, server, code, tokens["Bo"])
    expect(bo.locator(".uv-prompt")).to_have_text("On vous attaque\u00a0: déclarez vos bloquants.")
    on_first_screen(bo, bo.get_by_role("button", name="Confirmer les blocages"))
    bo.get_by_label("Boo bloque").select_option(label="Koopa (PF 3)")
    bo.screenshot(path=str(SHOTS / "fr-2-attacked.png"))
    bo.get_by_role("button", name="Confirmer les blocages").tap()
    # Boo (PC 3) would be KO'd by Koopa (PF 3): the damage waits for the players, in French too.
    on_first_screen(ana, ana.get_by_role("button", name="Infliger les dégâts"))
    expect(ana.locator(".uv-combat")).to_contain_text("Boo perd 3 PC")
    ana.screenshot(path=str(SHOTS / "fr-3-damage-before-the-ko.png"))
    ana.get_by_role("button", name="Infliger les dégâts").tap()
    on_first_screen(ana, ana.get_by_role("button", name="Terminer mon tour"))
    expect(ana.locator(".uv-side").first).to_contain_text("Main\u00a0: 5")
    ana.screenshot(path=str(SHOTS / "fr-4-after-the-combat.png"))


def test_rule_a_sacrifice_names_the_card_that_asks_for_it(server, open_context):
    """« il n'est possible de sacrifier une carte que si une autre carte nous le demande » : the phone asks which
    card asks; without one it says so and nothing leaves play, with one both phones read the sacrifice."""
    code, tokens, seats = duel_at_turn_three(server)
    ana = open_phone(open_context, server, code, tokens["Ana"])
    bo = open_phone(open_context, server, code, tokens["Bo"])
    koopa = ana.locator(".uv-card", has_text="Koopa")
    koopa.locator("summary", has_text="More for Koopa").tap()
    koopa.get_by_role("button", name="Sacrifice (a card asks for it)").tap()
    expect(koopa.get_by_role("alert")).to_contain_text("say which card asks")
    expect(bo.locator(".uv-card", has_text="Koopa")).to_be_visible()
    koopa.get_by_label("Which card asks for the sacrifice?").fill("Yoshi Vert")
    koopa.get_by_role("button", name="Sacrifice (a card asks for it)").tap()
    for page in (ana, bo):
        expect(page.locator(".uv-history")).to_contain_text("Ana sacrifices Koopa: Yoshi Vert asks for it.")
        expect(page.locator(".uv-card", has_text="Koopa")).to_have_count(0)
    no_sideways_scroll(ana)


def test_one_phone_for_the_table_plays_both_sides(server, open_context):
    """A pair without a second phone: one seat, the other player a name; the phone plays for each in turn."""
    created = requests.post(f"{server.url}/api/tables", timeout=10, json={
        "game": "universalis", "options": {"opponent": ["Bo"], "first": "first_seat", "turn_seconds": 90}}).json()
    code = created["code"]
    token = seat_via_api(server, code, "Ana")
    act(server, code, created["host_token"], {"type": "table.start"})
    phone = open_phone(open_context, server, code, token)
    expect(phone.locator(".uv-one-phone")).to_have_text("One phone for the table: now for Ana.")
    expect(phone.locator(".uv-side h3")).to_have_text(["Ana", "Bo"])
    expect(phone.locator(".uv-timer")).to_contain_text("Time left: 1:")  # the table's optional turn timer
    on_first_screen(phone, phone.get_by_role("button", name="End my turn"))
    phone.get_by_role("button", name="End my turn").tap()
    expect(phone.locator(".uv-one-phone")).to_have_text("One phone for the table: now for Bo.")
    expect(phone.locator(".uv-prompt")).to_have_text("Your turn: Preparation.")
    phone.get_by_role("button", name="End my turn").tap()
    expect(phone.locator(".uv-one-phone")).to_have_text("One phone for the table: now for Ana.")
    expect(phone.locator(".uv-history")).to_contain_text("Turn 3 (global turn 2): Ana plays.")
    no_sideways_scroll(phone)


def test_the_host_screen_plays_for_two_players_without_a_phone_and_a_tv_only_watches(server, open_context):
    """« a single phone (or the TV) keeps both players' counters »: both names as the option, no seat; the host
    screen (with the host's token) plays for whoever the duel waits on, a TV without it only shows the duel.
    With the turn timer, time up buzzes the screen once and says so; the turn goes on."""
    created = requests.post(f"{server.url}/api/tables", timeout=10, json={"game": "universalis", "options": {
        "opponent": ["Ana", "Bo"], "first": "first_seat", "starting_coins": 10, "turn_seconds": 1}}).json()
    code = created["code"]
    act(server, code, created["host_token"], {"type": "table.start"})
    watched = open_context(**DESKTOP)
    as_host(watched, code, created["host_token"])
    watched.context.add_init_script("window.buzzes = []; navigator.vibrate = (p) => { window.buzzes.push(p); return true; };")
    host = watched.new_page()
    host.goto(f"{server.url}/host/{code}")
    tv = open_context(**DESKTOP).new_page()
    tv.goto(f"{server.url}/host/{code}")
    expect(host.locator(".uv-one-phone")).to_have_text("The host screen plays for both: now for Ana.")
    expect(tv.locator(".uv-one-phone")).to_have_text("The host screen plays for both: now for Ana.")
    expect(tv.get_by_role("button", name="End my turn")).to_have_count(0)  # a display does not act
    host.get_by_role("button", name="End my turn").click()
    expect(host.locator(".uv-one-phone")).to_have_text("The host screen plays for both: now for Bo.")
    expect(tv.locator(".uv-history")).to_contain_text("Turn 2 (global turn 1): Bo plays.")
    # Bo's turn began with a stamp: its one second runs out, the screen buzzes once, the turn goes on.
    expect(host.locator(".uv-timer")).to_have_text("Time is up! Finish the action in hand, then end the turn.")
    expect(host.get_by_role("button", name="End my turn")).to_be_enabled()
    assert host.evaluate("() => window.buzzes") == [[300, 100, 300]]
    SHOTS.mkdir(parents=True, exist_ok=True)
    host.screenshot(path=str(SHOTS / "host-screen-plays-both.png"))
    host.get_by_role("button", name="End my turn").click()
    expect(tv.locator(".uv-one-phone")).to_have_text("The host screen plays for both: now for Ana.")
    expect(host.locator(".uv-side h3")).to_have_text(["Ana", "Bo"])
