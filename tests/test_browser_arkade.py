"""Arkade on the real screens, in headless Chromium against the real server: the
host's setup form, roles chosen on two phone-sized pages, throws and re-throws
seen live on the other phone and the host screen, a Defender's move and shot
(with its synthesised "piouuu"), the Arcade countdown, and the new steps: the heart
question, the asteroid sacrifice, a correction agreed by both phones, the damaged reactor's
required move, in English and in French."""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import Page, expect

from companion.verify import verify_log
from tests.screen import WAIT
from tests.test_browser import (DESKTOP, DOCS, PHONE, as_host, as_seat, browser, open_context, seat_via_api,  # noqa: F401
                                seated_phone, server)

# Counts the tones the page synthesises: the "piouuu" is an oscillator, not a file.
COUNT_TONES = """
window.__tones = 0;
const original = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones += 1; return original.call(this); };
"""


def create_arkade_table(host: Page, server, mode_label: str) -> str:
    host.goto(server.url + "/")
    form = host.locator("#create-table")
    form.locator("select[name=game]").select_option("arkade")
    options = form.locator('fieldset[data-game="arkade"]')
    expect(options).to_be_visible()
    expect(form.locator('fieldset[data-game="dice"]')).to_be_hidden()
    expect(options.locator('[data-option="saucer_colours"]')).to_have_value("blue, green, pink")
    options.locator('[data-option="mode"]').select_option(label=mode_label)
    form.get_by_role("button", name="Create the table").click()
    host.wait_for_url(re.compile(r"/host/[A-Z0-9]{4,5}$"))
    return host.locator("#host").get_attribute("data-code")


def dice_faces(page: Page, side: str) -> list[str]:
    dice = page.locator(f".ak-side.{side} .ak-die")
    expect(dice).not_to_have_count(0)  # the throw's answer may still be on its way
    return dice.all_inner_texts()


@pytest.mark.doc_screenshots  # it takes a picture for the README (./manage.sh screenshots)
def test_a_strategie_turn_on_two_phones_and_the_host_screen(server, open_context):
    host_screen = open_context(**DESKTOP)
    host = host_screen.new_page()
    code = create_arkade_table(host, server, "Stratégie (turn by turn)")
    alien_context, alien = seated_phone(open_context, server, code, "Zoé", COUNT_TONES)
    defender_context, defender = seated_phone(open_context, server, code, "Max", COUNT_TONES)
    host.get_by_role("button", name="Start the game").click()

    # Roles: the first phone to choose decides for both; the setup reminders are on show.
    expect(alien.locator(".ak-setup")).to_contain_text("The Defender starts with 6 nuggets")
    expect(host.locator(".ak-big")).to_have_text("The players choose their roles on their phones.")
    alien.get_by_role("button", name="I play the Alien").tap()
    expect(alien.locator(".ak-role")).to_have_text("Alien")
    expect(defender.locator(".ak-role")).to_have_text("Defender")
    expect(alien.locator(".ak-status")).to_have_text("Your turn!")
    expect(defender.locator(".ak-status")).to_have_text("Zoé's turn (Alien)")
    expect(defender.get_by_role("button", name="Throw the dice")).to_have_count(0)

    # Three throws at most; the other phone and the host see each one.
    alien.get_by_role("button", name="Throw the dice").tap()
    expect(alien.locator(".ak-side.alien .ak-throws")).to_have_text("Throws left: 2")
    first = dice_faces(alien, "alien")
    assert len(first) == 2
    expect(defender.locator(".ak-side.alien .ak-die")).to_have_text(first)
    expect(host.locator(".ak-side.alien .ak-die")).to_have_text(first)
    alien.locator(".ak-side.alien .ak-die").nth(1).tap()  # pick the second die only
    expect(alien.locator(".ak-side.alien .ak-die").nth(1)).to_have_attribute("aria-pressed", "true")
    alien.get_by_role("button", name="Throw the picked die again").tap()
    expect(alien.locator(".ak-side.alien .ak-throws")).to_have_text("Throws left: 1")
    expect(defender.locator(".ak-side.alien .ak-die").first).to_have_text(first[0])  # the kept die stays
    expect(defender.locator(".ak-history li").first).to_contain_text("Zoé throws:")
    alien.get_by_role("button", name="Throw both dice again").tap()
    expect(alien.locator(".ak-side.alien .ak-throws")).to_have_text("Throws left: 0")
    expect(alien.get_by_role("button", name=re.compile("Throw"))).to_have_count(0)
    alien.screenshot(path=DOCS / "screenshot-arkade-alien.png")
    alien.get_by_role("button", name="End my turn").tap()

    # The Defender: the ship follows its die, a shot asks nothing the die already says.
    expect(defender.locator(".ak-status")).to_have_text("Your turn!")
    defender.get_by_role("button", name="Throw the dice").tap()
    expect(defender.locator(".ak-side.defender .ak-die")).to_have_count(2)  # the throw's view has arrived
    ship_face, colour = dice_faces(defender, "defender")
    move = defender.get_by_role("button", name=f"Move the ship to cell {ship_face}")
    move.tap()
    expect(alien.locator(".ak-ship")).to_contain_text(f"Ship on cell {ship_face}")
    expect(host.locator(".ak-ship")).to_contain_text(f"Ship on cell {ship_face}")
    defender.get_by_role("button", name=f"{colour.strip()} saucer hit").tap()
    expect(alien.locator(".ak-history li").first).to_have_text(f"Piouuu! A {colour.strip()} saucer is eliminated.")
    # The shot is heard on the phone that tapped it, once its own view of the hit has arrived (the
    # Alien's history can show the hit first: asserting at once failed on a loaded machine).
    expect(defender.locator(".ak-history li").first).to_have_text(f"Piouuu! A {colour.strip()} saucer is eliminated.")
    defender.wait_for_function("() => window.__tones >= 1", timeout=WAIT * 1000)
    expect(host.locator(".ak-saucers tbody tr")).to_have_count(3)
    expect(host.locator(".ak-sides .ak-tile.face-down")).to_have_count(12)  # 6 + 6 drawn, none turned
    defender.screenshot(path=DOCS / "screenshot-arkade-defender.png")
    assert alien.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    assert defender.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]

    for context in (host_screen, alien_context, defender_context):
        context.assert_clean()


@pytest.mark.doc_screenshots  # it takes a picture for the README (./manage.sh screenshots)
def test_arcade_starts_on_both_phones_after_the_countdown(server, open_context):
    host_screen = open_context(**DESKTOP)
    host = host_screen.new_page()
    code = create_arkade_table(host, server, "Arcade (simultaneous, real time)")
    table_host = host_screen  # the host key came from the home page
    alien_context, alien = seated_phone(open_context, server, code, "Zoé", COUNT_TONES)
    defender_context, defender = seated_phone(open_context, server, code, "Max", COUNT_TONES)
    host.get_by_role("button", name="Start the game").click()
    defender.get_by_role("button", name="I play the Defender").tap()
    alien.get_by_role("button", name="Ready!").tap()
    expect(defender.locator(".ak-ready")).to_contain_text("Waiting for: Max")
    expect(host.locator(".ak-status")).to_have_text("The table is getting ready.")  # the kernel's label of the phase
    defender.get_by_role("button", name="Ready!").tap()
    for page in (alien, defender):
        expect(page.locator(".ak-status")).to_have_text("Arcade: throw whenever you like!")
    expect(host.locator(".ak-history li").first).to_have_text("Top départ!")
    expect(alien.locator(".ak-clock")).to_have_text(re.compile(r"^\d\d:\d\d$"))

    alien.get_by_role("button", name="Throw the dice").tap()
    defender.get_by_role("button", name="Throw the dice").tap()
    expect(alien.locator(".ak-side.defender .ak-die")).to_have_count(2)
    expect(defender.locator(".ak-side.alien .ak-die")).to_have_count(2)
    expect(alien.locator(".ak-side.alien .ak-throws")).to_have_text("Throws: 1")
    expect(host.locator(".ak-side.defender .ak-throws")).to_have_text("Throws: 1")
    expect(host.locator(".figures-heading")).to_be_hidden()  # Arkade plays without amiibo
    host.screenshot(path=DOCS / "screenshot-arkade-host.png")
    for context in (table_host, alien_context, defender_context):
        context.assert_clean()


def test_the_new_actions_on_two_phones_in_english_and_french(server, open_context):
    """The heart question, the asteroid sacrifice and a correction proposed and agreed, on phone
    screens: the Alien reads English, the Defender French. The options make the draws certain
    (blue shots, a box of asteroids, a box of extra lives); the JSON API plays the steps the
    test does not look at."""
    options = {"alien": "first", "power_tiles": "on", "shooting_die": ["blue", "blue"],
               "alien_tiles": ["extra_life"] * 6,
               "defender_tiles": ["1 asteroid", "1 asteroid", "2 asteroid", "2 asteroid", "3 asteroid", "3 asteroid"]}
    created = requests.post(f"{server.url}/api/tables", json={"game": "arkade", "options": options}, timeout=WAIT)
    table = created.json()
    code = table["code"]
    tokens = {name: seat_via_api(server, code, name) for name in ("Zoé", "Max")}
    pages = {}
    for name, language in (("Zoé", "en"), ("Max", "fr")):
        context = open_context(**PHONE)
        as_seat(context, code, tokens[name])
        pages[name] = context.new_page()
        pages[name].goto(f"{server.url}/t/{code}?lang={language}")
    alien, defender = pages["Zoé"], pages["Max"]
    requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "table.start"}, timeout=WAIT,
                  headers={"Authorization": f"Bearer {table['host_token']}"})
    zoe, max_ = Player(server, code, tokens["Zoé"]), Player(server, code, tokens["Max"])
    # Two green bonuses: the second asks the Alien whether that saucer already shows its heart.
    zoe.play({"type": "throw"})
    zoe.play({"type": "bonus", "colour": "green"})
    zoe.play({"type": "end_turn"})
    for blue in range(2):  # the Defender's second blue saucer turns an asteroid
        if blue:
            zoe.play({"type": "throw"})
            zoe.play({"type": "end_turn"})
        max_.play({"type": "throw"})
        max_.play({"type": "hit", "colour": "blue"})
        max_.play({"type": "end_turn"})
    zoe.play({"type": "throw"})
    zoe.play({"type": "bonus", "colour": "green"})
    question = alien.get_by_role("group", name="Extra life")
    expect(question).to_contain_text("did the saucer on the bonus cell already show its heart?")
    question.get_by_role("button", name="No: turn it to its heart").tap()
    expect(defender.locator(".ak-history li").first).to_have_text("Une soucoupe vert est retournée côté cœur.")

    sacrifice = alien.get_by_role("group", name="Asteroid: sacrifice the saucer before it")
    expect(sacrifice.locator("button")).to_have_count(4)  # green asks for its heart; blue and pink do not
    sacrifice.get_by_role("button", name="pink").tap()
    expect(defender.locator(".ak-history li").first).to_contain_text("est sacrifiée")
    expect(alien.get_by_role("group", name="Asteroid: sacrifice the saucer before it")).to_have_count(0)

    # A correction: the Defender proposes (in French), the Alien agrees (in English).
    defender.locator(".ak-correct summary").tap()
    defender.locator(".ak-correct input[name=nuggets]").fill("4")
    assert_fits_a_phone(defender)  # the open correction form too
    defender.get_by_role("button", name="Proposer à l’autre joueur").tap()
    expect(alien.locator(".ak-proposal")).to_contain_text("Max proposes:")
    alien.get_by_role("button", name="Agree").tap()
    expect(defender.locator(".ak-ship strong")).to_have_text("Pépites\u00a0: 4")
    expect(alien.locator(".ak-history li").first).to_have_text("Both players corrected the counters.")
    for page in (alien, defender):
        assert_fits_a_phone(page)


def assert_fits_a_phone(page: Page) -> None:
    """No sideways scroll; every visible control at least 44 px high with text of 16 px or more."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    small = page.evaluate("""() => [...document.querySelectorAll('.arkade button, .arkade input')]
        .filter((node) => node.offsetParent && (node.getBoundingClientRect().height < 44
            || parseFloat(getComputedStyle(node).fontSize) < 16)).map((node) => node.outerHTML.slice(0, 80))""")
    assert small == []


class Player:
    """Plays a seat's steps through the JSON API: its phone keeps the seat's live connection."""

    def __init__(self, server, code: str, token: str):
        self.url, self.headers = f"{server.url}/api/tables/{code}/actions", {"Authorization": f"Bearer {token}"}

    def view(self) -> dict:
        return requests.get(self.url.removesuffix("/actions"), headers=self.headers, timeout=WAIT).json()

    def play(self, action: dict) -> dict:
        answer = requests.post(self.url, json=action, headers=self.headers, timeout=WAIT)
        assert answer.status_code == 200, answer.text
        return answer.json()


def test_the_damaged_reactor_on_a_french_defenders_phone(server, open_context):
    """A box of reactor tiles: the Defender's next turn shows the damage; a 1 or a 6 of the
    movement die offers only the required move (the other faces offer none). The movement die
    is the table's: the test reads each throw and checks the screen against it."""
    options = {"alien": "first", "power_tiles": "on", "alien_tiles": ["reactor"] * 6}
    table = requests.post(f"{server.url}/api/tables", json={"game": "arkade", "options": options}, timeout=WAIT).json()
    code = table["code"]
    tokens = {name: seat_via_api(server, code, name) for name in ("Zoé", "Max")}
    context = open_context(**PHONE)
    as_seat(context, code, tokens["Max"])
    defender = context.new_page()
    defender.goto(f"{server.url}/t/{code}?lang=fr")
    requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "table.start"}, timeout=WAIT,
                  headers={"Authorization": f"Bearer {table['host_token']}"})
    zoe, max_ = Player(server, code, tokens["Zoé"]), Player(server, code, tokens["Max"])
    for action in ({"type": "throw"}, {"type": "bonus", "colour": "blue"}, {"type": "end_turn"}):
        zoe.play(action)
    expect(defender.locator(".ak-warning")).to_contain_text("Réacteur endommagé")
    for throw in range(3):
        face = max_.play({"type": "throw"} if throw == 0 else {"type": "throw", "dice": [0]})["events"][0]["faces"][0]
        expect(defender.locator(".ak-side.defender .ak-die").first).to_have_text(str(face))
        if face in (1, 6):
            required = defender.get_by_role("button", name=f"Réacteur endommagé : aller sur la case {face} (obligatoire)")
            expect(defender.get_by_role("button", name="Terminer mon tour")).to_have_count(0)  # the move comes first
            required.tap()
            expect(defender.locator(".ak-ship")).to_contain_text(f"case {face}")
            break
        expect(defender.get_by_role("button", name=re.compile("case"))).to_have_count(0)  # no move, no nugget
    assert_fits_a_phone(defender)


def test_the_verify_page_checks_arkade_events_as_the_cli_does(server, open_context):
    """A closed Arkade table's log: the page's check of each throw and tile against its draws
    gives the verdicts of companion.verify, on the true log and on edited ones."""
    options = {"alien": "first", "power_tiles": "on", "shooting_die": ["blue", "blue"]}
    table = requests.post(f"{server.url}/api/tables", json={"game": "arkade", "options": options}, timeout=WAIT).json()
    code, host = table["code"], {"Authorization": f"Bearer {table['host_token']}"}
    tokens = {name: seat_via_api(server, code, name) for name in ("Zoé", "Max")}
    requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "table.start"}, headers=host, timeout=WAIT)
    zoe, max_ = Player(server, code, tokens["Zoé"]), Player(server, code, tokens["Max"])
    for _ in range(2):  # the Alien turns a tile; the Defender's second blue saucer turns one of theirs
        for action in ({"type": "throw"}, {"type": "bonus", "colour": "pink"}):
            zoe.play(action)
        pending = zoe.view()["game"]
        if pending["pending"]:
            zoe.play(next(a for a in pending["legal"] if a["type"] in ("repair", "heart")))  # the tile's question
        zoe.play({"type": "end_turn"})
        for action in ({"type": "throw"}, {"type": "hit", "colour": "blue", "extra_life": False}):
            max_.play(action)
        if {"type": "move"} in max_.view()["game"]["legal"]:  # a damaged reactor's required move
            max_.play({"type": "move"})
        max_.play({"type": "end_turn"})
    requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "table.close"}, headers=host, timeout=WAIT)
    log = requests.get(f"{server.url}/api/tables/{code}/log", timeout=WAIT).json()

    def edited(kind: str, change) -> dict:
        copy_of_log = json.loads(json.dumps(log))
        change(next(e["event"] for e in copy_of_log["entries"] if e.get("event", {}).get("type") == kind))
        return copy_of_log

    cases = {"true": log,
             "face": edited("thrown", lambda event: event["faces"].__setitem__(
                     1, "pink" if event["faces"][1] != "pink" else "green")),  # always another face than the roll's
             "alien tile": edited("alien_tile", lambda event: event.__setitem__("kind", "not-a-tile")),
             "defender tile": edited("defender_tile", lambda event: event.__setitem__("tile", event["tile"] ^ 1))}
    page = open_context(**PHONE).new_page()
    page.goto(f"{server.url}/t/{code}/verify")
    for name, document in cases.items():
        in_page = page.evaluate("""async (log) => {
            const { verifyLog } = await import('/static/js/fairness.js');
            const report = verifyLog(log, null);
            return { ok: report.ok, entries: report.problems.map((p) => p.i) };
        }""", document)
        report = verify_log(document)
        assert in_page == {"ok": report.ok, "entries": [where for where, _ in report.problems]}, name
        assert report.ok == (name == "true"), (name, report.problems)
