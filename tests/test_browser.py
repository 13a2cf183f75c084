"""The pages in a real browser (Chromium through Playwright) against the real server process.

One server and one browser for the module; each test opens its own contexts (a
desktop host screen, phones of 360 x 740). Every context records what its pages
fetch, log and break, so each test can also check that nothing left 127.0.0.1
and that no script error or Content-Security-Policy violation happened.
Synchronisation is Playwright's auto-waiting only (expect, wait_for_*).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.server import ROOT, ServerProcess, server_fixture
from tests.helpers import ENTROPY, IMAGES_IN_VIEW_LOADED

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium phones home: tests talk to 127.0.0.1 only.
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The tests' browsers compile WebAssembly with V8's baseline compiler only: the verify page's Python (Pyodide, 8.6 MB
# of it) then starts with about a quarter less of the machine's time, the optimising compiler not run over it in the
# background. (bench/ times the pages as a phone's browser runs them: with CHROMIUM_ARGS.)
# Two features cost the tests a renderer process per page opened, which then starts from nothing (without them a
# layout module takes about a seventh less of the machine's time): Chromium keeps a spare renderer for the next
# page, made for the browser context that opened the last one, so that a test that goes from one context's page to
# another's (the layout cases: a phone, then a TV) throws it away and starts another every time; and the
# back-forward cache moves a page that may be kept for "Back" into a new process. The tests never go back.
TEST_CHROMIUM_ARGS = [*CHROMIUM_ARGS, "--js-flags=--liftoff-only",
                      "--disable-features=SpareRendererForSitePerProcess,BackForwardCache"]
# Screenshots land in test-artifacts/screenshots/ (git-ignored); the README's pictures in docs/ are
# rewritten only on purpose: `./manage.sh screenshots` (COMPANION_DOC_SCREENSHOTS=1).
DOCS = ROOT / "docs" if os.environ.get("COMPANION_DOC_SCREENSHOTS") == "1" else ROOT / "test-artifacts" / "screenshots"
DOCS.mkdir(parents=True, exist_ok=True)
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
# An emoji and markup: it must come out as these very characters, never as HTML.
TRICKY_NAME = "<b>Zoé</b> 🎲"
D6_FACES = {str(value) for value in range(1, 7)}

# The machine is small and shared: give the server and the browser room.
expect.set_options(timeout=20_000)

# Runs in every page before its own scripts: remembers CSP violations (the
# console shows them too) and whether any element ever carried the class
# "rolling" (it is removed again when the animation ends).
WATCH_SCRIPT = """
window.__csp = [];
window.__sawRolling = false;
document.addEventListener('securitypolicyviolation', (event) => {
  window.__csp.push(`${event.violatedDirective} ${event.blockedURI}`);
});
new MutationObserver(() => {
  if (document.querySelector('.rolling')) window.__sawRolling = true;
}).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
"""


# A TV paired here shows its table only when it is chosen on the TV: no countdown ends during a test.
server = server_fixture("browser", {"COMPANION_PAIR_WAIT": "600"})


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=TEST_CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A browser context and everything its pages did on the network and in the console."""

    def __init__(self, context: BrowserContext, server: ServerProcess):
        self.context = context
        self.server = server
        self.requests: list[str] = []
        self.websockets: list[str] = []
        self.failed: list[str] = []
        self.bad_status: list[str] = []
        self.console: list[tuple[str, str]] = []
        self.page_errors: list[str] = []
        context.add_init_script(WATCH_SCRIPT)
        context.on("request", lambda request: self.requests.append(request.url))
        context.on("requestfailed", lambda request: self.failed.append(f"{request.url}: {request.failure}"))
        context.on("response", self._response)
        context.on("console", lambda message: self.console.append((message.type, message.text)))
        context.on("weberror", lambda error: self.page_errors.append(str(error.error)))
        context.on("page", lambda page: page.on("websocket", lambda socket: self.websockets.append(socket.url)))

    def _response(self, response) -> None:
        if response.status >= 400:
            self.bad_status.append(f"{response.status} {response.url}")

    def new_page(self) -> Page:
        return self.context.new_page()

    def assert_clean(self, expected_bad_status: tuple[str, ...] = ()) -> None:
        """Only 127.0.0.1:<port> was contacted, nothing failed, no script error, no CSP violation."""
        own = urlsplit(self.server.url).netloc
        assert self.requests, "no request was recorded"
        foreign = [url for url in self.requests + self.websockets
                   if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != own]
        assert foreign == []
        assert self.failed == []
        assert self.bad_status == list(expected_bad_status)
        assert self.page_errors == []
        errors = [text for kind, text in self.console if kind == "error"]
        assert errors == []
        csp = [text for _, text in self.console if "Content Security Policy" in text]
        assert csp == []
        for page in self.context.pages:
            assert page.evaluate("() => window.__csp") == []


@pytest.fixture
def open_context(browser: Browser, server: ServerProcess):
    opened: list[BrowserContext] = []

    def open_context(**options) -> Watched:
        context = browser.new_context(locale="en-US", **options)
        opened.append(context)
        return Watched(context, server)

    yield open_context
    for context in opened:
        context.close()


# Helpers ------------------------------------------------------------------

def create_table(server: ServerProcess, die: str = "d6", count: int = 1) -> dict:
    response = requests.post(f"{server.url}/api/tables", timeout=10,
                             json={"game": "dice", "options": {"die": die, "count": count}})
    assert response.status_code == 201, response.text
    return response.json()


def seat_via_api(server: ServerProcess, code: str, name: str) -> str:
    response = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY}, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["token"]


def roll_via_api(server: ServerProcess, code: str, token: str) -> None:
    response = requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "roll"}, timeout=10,
                             headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def public_log(server: ServerProcess, code: str) -> dict:
    response = requests.get(f"{server.url}/api/tables/{code}/log", timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def as_host(watched: Watched, code: str, host_token: str) -> None:
    """Gives the context the host key, as the home page leaves it after creating the table."""
    store_token(watched, "host", code, host_token)


def as_seat(watched: Watched, code: str, token: str) -> None:
    """Gives the context a seat's token, as the phone keeps it after taking the seat."""
    store_token(watched, "seat", code, token)


def store_token(watched: Watched, kind: str, code: str, token: str) -> None:
    watched.context.add_init_script(f"if (location.origin === '{watched.server.url}') "
                                    f"localStorage.setItem('companion.{kind}.{code}', '{token}');")


def seated_phone(open_context, server: ServerProcess, code: str, name: str, script: str = "",
                 **options) -> tuple[Watched, Page]:
    """A phone (``PHONE`` unless ``options`` say otherwise) that takes a seat by name at the table's page;
    ``script`` runs first in each of its pages."""
    context = open_context(**{**PHONE, **options})
    if script:
        context.context.add_init_script(script)
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    take_seat(page, name)
    return context, page


SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 640}}


def phone_at_seat(open_context, server: ServerProcess, code: str, token: str, ready: str) -> Page:
    """A 360×640 phone that already holds a seat's token, on the table's page once ``ready`` shows."""
    context = open_context(**SMALL_PHONE)
    as_seat(context, code, token)
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator(ready)).to_be_visible()
    return page


def take_seat(page: Page, name: str, button: str = "Take a seat") -> None:
    expect(page.locator(".join-form")).to_be_visible()
    page.locator(".join-form input[name=name]").fill(name)
    page.get_by_role("button", name=button).tap()
    expect(page.locator(".seat-view .my-name")).to_have_text(name)
    expect(page.locator(".join-form")).to_be_hidden()
    expect(page.locator(".seat-view .status")).to_have_attribute("data-state", "connected")


def seated_phones(server: ServerProcess, open_context, code: str, names: tuple[str, ...]) -> list[Page]:
    """A phone page per name, each in a context of its own, seated at the table by its join form."""
    pages = []
    for name in names:
        page = open_context(**PHONE).new_page()
        page.goto(f"{server.url}/t/{code}")
        take_seat(page, name)
        pages.append(page)
    return pages


def wait_for_images(page: Page) -> None:
    page.wait_for_function(IMAGES_IN_VIEW_LOADED)


def decode_qr(image: Path) -> str:
    decoded = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, timeout=60)
    assert decoded.returncode == 0, f"no QR code found in {image}: {decoded.stderr}"
    return decoded.stdout.strip()


# 1. The whole table, from the host's home page to a roll seen on both screens --------

@pytest.mark.doc_screenshots  # it takes a picture for the README (./manage.sh screenshots)
def test_host_creates_a_table_and_a_phone_rolls(server, open_context, tmp_path):
    host_screen = open_context(**DESKTOP)
    host = host_screen.new_page()
    host.goto(server.url + "/")
    form = host.locator("#create-table")
    expect(form.locator("select[name=game]")).to_have_value("dice")
    expect(form.locator("select[name=die]")).to_have_value("d6")
    form.get_by_role("button", name="Create the table").click()

    host.wait_for_url(re.compile(r"/host/[A-Z0-9]{4,5}$"))
    code = host.locator("#host").get_attribute("data-code")
    assert host.url == f"{server.url}/host/{code}"
    expect(host.locator(".table-code")).to_have_text(code)
    expect(host.locator(".stage .status")).to_have_attribute("data-state", "connected")
    expect(host.locator(".stage .status")).to_have_text("Connected")
    expect(host.locator(".host-controls")).to_be_visible()  # the home page handed over the host key
    expect(host.locator(".game-area .die-kind")).to_have_text("d6")
    expect(host.locator(".game-area .die")).to_have_text("?")
    wait_for_images(host)
    join_url = host.locator(".join-url").inner_text().strip()
    assert join_url == f"{server.url}/t/{code}"

    # The QR code as a camera sees it: decoded from pixels of the screen.
    first_look = tmp_path / "host-empty.png"
    host.screenshot(path=first_look)
    scanned = decode_qr(first_look)
    assert scanned == join_url

    phone_owner = open_context(**PHONE)
    phone = phone_owner.new_page()
    phone.goto(scanned)
    expect(phone.locator(".join-form h1")).to_have_text(f"Join table {code}")
    take_seat(phone, TRICKY_NAME)

    # The host sees the seat, with the name as plain text.
    seat = host.locator(".seats .seat")
    expect(seat).to_have_count(1)
    expect(seat.locator(".name")).to_have_text(TRICKY_NAME)
    expect(seat).to_have_class(re.compile(r"\bonline\b"))
    assert "&lt;b&gt;Zoé&lt;/b&gt;" in seat.locator(".name").inner_html()
    assert host.locator("#main b").count() == 0
    assert phone.locator("#main b").count() == 0

    die = phone.locator("button.die")
    expect(die).to_have_text("?")
    expect(phone.locator(".die-hint")).to_have_text("Tap the die to roll")
    die.tap()
    expect(phone.locator(".history li")).to_have_count(1)
    face = phone.locator(".die .die-face").inner_text()
    assert face in D6_FACES
    caption = f"{TRICKY_NAME} rolled {face}"
    expect(phone.locator(".roll-caption")).to_have_text(caption)
    expect(host.locator(".game-area .die")).to_have_text(face)
    expect(host.locator(".roll-caption")).to_have_text(caption)
    expect(host.locator(".history li")).to_have_text([f"#1 {caption}"])
    assert host.locator("#main b").count() == 0

    # What the screens show is what the server drew.
    draws = [entry for entry in public_log(server, code)["entries"] if entry["kind"] == "draw"]
    assert [draw["result"] for draw in draws] == [int(face)]

    # Big enough to read across the table and to hit with a thumb, inside a 360 px screen.
    # (During a game the QR code sits small in a corner, still read from the screen above.)
    qr_box = host.locator("img.qr").bounding_box()
    assert qr_box["width"] >= 150
    die_box = die.bounding_box()
    assert die_box["width"] >= 180 and die_box["height"] >= 150
    assert die_box["x"] >= 0 and die_box["x"] + die_box["width"] <= PHONE["viewport"]["width"]
    assert die_box["y"] + die_box["height"] <= PHONE["viewport"]["height"]
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]

    # Screenshots for the docs, once the die has stopped moving.
    expect(host.locator(".rolling")).to_have_count(0)
    expect(phone.locator(".rolling")).to_have_count(0)
    host.screenshot(path=DOCS / "screenshot-host.png")
    assert decode_qr(DOCS / "screenshot-host.png") == join_url
    phone.screenshot(path=DOCS / "screenshot-phone.png")

    host_screen.assert_clean()
    phone_owner.assert_clean()


def test_with_two_phones_a_roll_waits_for_both_pages_random_numbers(server, open_context):
    """Two phone pages: a tap commits the roll, both pages answer the round it opens by themselves, and the
    roll comes from that round's pool (no value of the roller's own sent with it); no value goes unspent."""
    code = create_table(server)["code"]
    ana, bo = seated_phones(server, open_context, code, ("Ana", "Bo"))
    expect(ana.locator("button.die")).to_be_visible()  # Bo's join round sealed: Ana may roll
    expect(bo.locator("button.die")).to_be_visible()
    ana.locator("button.die").tap()
    for page in (ana, bo):
        expect(page.locator(".history li")).to_have_count(1)
        expect(page.locator(".roll-caption")).to_contain_text("Ana rolled")
        expect(page.locator(".fairness-mark")).to_have_attribute("data-unspent", "0")
        expect(page.locator(".draw-waits")).to_have_count(0)
    entries = public_log(server, code)["entries"]
    (draw,) = [entry for entry in entries if entry["kind"] == "draw"]
    assert draw["reveal"] is None and not draw.get("alone")
    fresh = [entry for entry in entries if entry["kind"] == "round" and entry.get("why") == "fresh"]
    assert [sorted(entry["asked"]) for entry in fresh] == [[1, 2]]
    assert draw["pool"] == next(entry["pool"] for entry in entries if entry["kind"] == "pool"
                                and entry["round"] == fresh[0]["round"])


# 2. A reload brings the phone back to its seat ---------------------------------

def test_reloaded_phone_comes_back_to_its_seat(server, open_context):
    table = create_table(server)
    code = table["code"]
    phone_owner = open_context(**PHONE)
    phone = phone_owner.new_page()
    phone.goto(f"{server.url}/t/{code}")
    take_seat(phone, "Ana")
    phone.locator("button.die").tap()
    expect(phone.locator(".history li")).to_have_count(1)
    token = phone.evaluate(f"() => localStorage.getItem('companion.seat.{code}')")
    assert token

    phone.reload()
    expect(phone.locator(".seat-view")).to_be_visible()
    expect(phone.locator(".seat-view .my-name")).to_have_text("Ana")
    expect(phone.locator(".join-form")).to_be_hidden()
    expect(phone.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    expect(phone.locator(".history li")).to_have_count(1)  # the table as it was
    assert phone.evaluate(f"() => localStorage.getItem('companion.seat.{code}')") == token

    phone.locator("button.die").tap()
    expect(phone.locator(".history li")).to_have_count(2)
    expect(phone.locator(".history li").first).to_contain_text("#2 Ana rolled")
    expect(phone.locator(".notice")).to_be_hidden()

    # Still one seat: the reload did not join a second time.
    view = requests.get(f"{server.url}/api/tables/{code}", timeout=10,
                        headers={"Authorization": f"Bearer {table['host_token']}"}).json()
    assert [seat["name"] for seat in view["table"]["seats"]] == ["Ana"]
    assert view["game"]["rolls"] == 2
    phone_owner.assert_clean()


# 3. Every page loads only from the server itself --------------------------------

@pytest.fixture(scope="module")
def busy_table(server):
    """A table with a seated player and a roll, so that the pages have something to show."""
    table = create_table(server)
    token = seat_via_api(server, table["code"], "Bo")
    roll_via_api(server, table["code"], token)
    return table


def ready_home(page, table):
    expect(page.locator("#create-table select[name=die]")).to_have_value("d6")


def ready_host(page, table):
    expect(page.locator(".stage .status")).to_have_attribute("data-state", "connected")
    expect(page.locator(".seats .seat .name")).to_have_text(["Bo"])
    expect(page.locator(".host-controls")).to_be_visible()
    expect(page.locator(".history li")).to_have_count(1)


def ready_screen(page, table):
    """A TV's display: the table without the host's rights, even where the host key is stored."""
    expect(page.locator(".stage .status")).to_have_attribute("data-state", "connected")
    expect(page.locator(".seats .seat .name")).to_have_text(["Bo"])
    expect(page.locator(".host-controls")).to_be_hidden()
    expect(page.locator(".qr")).to_be_visible()


def ready_phone(page, table):
    expect(page.locator(".join-form input[name=name]")).to_be_visible()


def ready_card(page, table):
    expect(page.locator(".card .table-code")).to_have_text(table["code"])


def ready_verify(page, table):
    expect(page.locator(".verdict")).to_have_attribute("data-result", "pending")
    expect(page.locator(".draws tbody tr")).to_have_count(1)


def ready_join(page, table):
    expect(page.locator("input[name=code]")).to_be_visible()


def ready_unknown(page, table):
    expect(page.locator("h1")).to_have_text("Table not found")


PAGES = [
    ("/", 200, ready_home),
    ("/host/{code}", 200, ready_host),
    ("/t/{code}/screen", 200, ready_screen),
    ("/t/{code}", 200, ready_phone),
    ("/t/{code}/card", 200, ready_card),
    ("/t/{code}/verify", 200, ready_verify),
    ("/join", 200, ready_join),
    ("/t/ZZZZ", 404, ready_unknown),
]


@pytest.mark.parametrize(("path", "status", "ready"), PAGES, ids=[path for path, _, _ in PAGES])
def test_pages_load_nothing_from_elsewhere(server, open_context, busy_table, path, status, ready):
    watched = open_context(**DESKTOP)
    as_host(watched, busy_table["code"], busy_table["host_token"])
    page = watched.new_page()
    url = server.url + path.format(code=busy_table["code"])
    response = page.goto(url, wait_until="networkidle")
    assert response.status == status
    assert "default-src 'self'" in response.headers["content-security-policy"]
    ready(page, busy_table)
    wait_for_images(page)
    page.wait_for_load_state("networkidle")
    own = urlsplit(server.url).netloc
    assert url in watched.requests
    assert any(urlsplit(request).path.endswith(".css") for request in watched.requests)
    if path.startswith("/host/"):
        assert watched.websockets and all(urlsplit(socket).netloc == own for socket in watched.websockets)
    # The unknown table answers 404 on purpose; Chromium logs that as a console error.
    intended = (f"404 {url}",) if status == 404 else ()
    if status == 404:
        watched.console[:] = [(kind, text) for kind, text in watched.console
                              if not (kind == "error" and "status of 404" in text)]
    watched.assert_clean(expected_bad_status=intended)
    # Nothing sticks out sideways on a small phone.
    page.set_viewport_size(PHONE["viewport"])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]


# 4. The verify page recomputes every draw, and notices a forged one -------------

def test_verify_page_checks_the_draws_after_closing(server, open_context):
    table = create_table(server, count=2)
    code = table["code"]
    token = seat_via_api(server, code, "Cy")
    for _ in range(3):
        roll_via_api(server, code, token)

    phone_screen = open_context(**PHONE)  # Di's phone stays open while the table closes
    as_seat(phone_screen, code, seat_via_api(server, code, "Di"))
    phone = phone_screen.new_page()
    phone.goto(f"{server.url}/t/{code}")
    expect(phone.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    host_screen = open_context(**DESKTOP)
    as_host(host_screen, code, table["host_token"])
    host = host_screen.new_page()
    host.goto(f"{server.url}/host/{code}")
    expect(host.locator(".stage .status")).to_have_attribute("data-state", "connected")
    expect(host.locator(".seed")).to_be_hidden()
    # Cy's phone never connected: during the game the host may hand the seat to another phone.
    expect(host.locator(".seats li.away .hand-seat")).to_have_count(1)
    dialogs = []

    def confirm(dialog):
        dialogs.append((dialog.type, dialog.message))
        dialog.accept()

    host.once("dialog", confirm)
    host.get_by_role("button", name="Close the table and reveal the seed").click()
    expect(host.locator(".seed")).to_be_visible()
    expect(host.locator(".stage .status")).to_have_text("This table is closed.")
    expect(host.locator(".stage .status")).to_have_attribute("data-state", "closed")
    expect(host.locator(".host-controls")).to_be_hidden()
    assert dialogs == [("confirm", "Close this table? Nobody can act any more and the seed is revealed.")]
    # A closed table offers nothing to do with a seat, and never reads "Connected", even reloaded.
    expect(host.locator(".seats li.away")).to_have_count(1)
    expect(host.locator(".seats button")).to_have_count(0)
    expect(phone.locator(".seat-view .status")).to_have_text("This table is closed.")
    expect(phone.locator(".seat-view .status")).to_have_attribute("data-state", "closed")
    host.reload()
    expect(host.locator(".seed")).to_be_visible()
    expect(host.locator(".stage .status")).to_have_attribute("data-state", "closed")
    expect(host.locator(".stage .status")).to_have_text("This table is closed.")
    expect(host.locator(".seats button")).to_have_count(0)
    log = public_log(server, code)
    assert log["status"] == "closed"
    assert re.fullmatch(r"[0-9a-f]{64}", log["seed"])
    expect(host.locator(".seed code")).to_have_text(log["seed"])

    verify = host_screen.new_page()
    verify.goto(f"{server.url}/t/{code}/verify")
    verdict = verify.locator(".verdict")
    expect(verdict).to_have_attribute("data-result", "ok", timeout=120_000)  # once the rules replayed (Python)
    expect(verdict).to_have_text("Verified: the commitment, all 6 draws and the game's rules check out.")
    expect(verify.locator(".draws tbody tr.good")).to_have_count(6)
    expect(verify.locator(".draws tbody tr.bad")).to_have_count(0)
    # Each draw said from its kind and fields, the seat by its player's name.
    expect(verify.locator(".draws tbody tr td:nth-child(3)")).to_have_text(["roll of the die d6 by Cy"] * 6)
    host_screen.assert_clean()

    # The same log with one result changed must not pass.
    def tampered(route):
        response = route.fetch()
        forged = response.json()
        draw = next(entry for entry in forged["entries"] if entry["kind"] == "draw")
        draw["result"] = draw["result"] % 6 + 1
        route.fulfill(response=response, json=forged)

    forged_page = host_screen.new_page()
    forged_page.route(f"**/api/tables/{code}/log", tampered)
    forged_page.goto(f"{server.url}/t/{code}/verify")
    verdict = forged_page.locator(".verdict")
    expect(verdict).to_have_attribute("data-result", "mismatch")
    expect(verdict).to_contain_text(re.compile(r"Mismatch: Entry \d+: draw 1 \("))
    expect(forged_page.locator(".draws tbody tr.bad")).to_have_count(1)
    expect(forged_page.locator(".draws tbody tr.good")).to_have_count(5)  # every other draw is still checked


# 5. French ------------------------------------------------------------------------

def test_phone_page_in_french(server, open_context):
    code = create_table(server)["code"]
    phone_owner = open_context(**PHONE)
    phone = phone_owner.new_page()
    phone.goto(f"{server.url}/t/{code}?lang=fr")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator(".join-form h1")).to_have_text(f"Rejoindre la table {code}")
    take_seat(phone, "Élise", button="Prendre place")
    # The strings of the scripts are French too.
    expect(phone.locator(".seat-view .status")).to_have_text("Connecté")
    expect(phone.locator(".die-hint")).to_have_text("Touchez le dé pour le lancer")
    phone.locator("button.die").tap()
    expect(phone.locator(".roll-caption")).to_contain_text("Élise a fait ")
    phone_owner.assert_clean()


# 6. Reduced motion --------------------------------------------------------------

@pytest.mark.parametrize(("motion", "animated"), [("reduce", False), ("no-preference", True)])
def test_rolling_animation_follows_reduced_motion(server, open_context, motion, animated):
    code = create_table(server)["code"]
    phone_owner = open_context(reduced_motion=motion, **PHONE)
    phone = phone_owner.new_page()
    phone.goto(f"{server.url}/t/{code}")
    take_seat(phone, "Dee")
    assert phone.evaluate("() => window.__sawRolling") is False
    phone.locator("button.die").tap()
    expect(phone.locator(".history li")).to_have_count(1)
    # The observer saw every class the die ever had, however short the animation.
    assert phone.evaluate("() => window.__sawRolling") is animated
    if not animated:
        expect(phone.locator(".die")).not_to_have_class(re.compile(r"\brolling\b"))
        assert phone.locator(".die").evaluate("(die) => getComputedStyle(die).animationName") == "none"
    phone_owner.assert_clean()
