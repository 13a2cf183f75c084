"""Rayman on the real screens, in headless Chromium against the real server: one round on two
phone-sized pages (characters, a secret choice changed then locked in, the reveal checked in the
browser, the initiatives of the new cards read once (one by the host screen, as for a phone away),
the order of play, two turns) while the host screen shows who has
locked in but never what; a lost phone's pick chosen again, a reloaded phone's pick kept, and no
choice in the database or another screen's stream before the reveal; no question for the host."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from companion.games.rayman import canonical_json, commitment
from tests.helpers import ENTROPY, bearer
from tests.test_browser import DESKTOP, DOCS, PHONE, as_host, browser, open_context, server  # noqa: F401
from tests.test_browser import phone_at_seat, public_log, seated_phone

RAYMAN_PHONE = {**PHONE, "viewport": {"width": 390, "height": 844}}
# Records the vibrations a page asks for (a headless browser has no motor to feel).
RECORD_VIBRATIONS = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, 'vibrate', {
  configurable: true, value(pattern) { window.__vibrations.push(pattern); return true; },
});
"""
LOCKS = ["Rayman (Zoé) — ✓ locked in", "Murfy (Max) — choosing…"]  # who has locked in, and nothing more


# A choice of cards as it would show in a state, a view or a message (what must not, before the reveal).
CHOICE = re.compile(r'"(left|second)"\s*:\s*"b\d"')


def record_frames(page: Page) -> list[str]:
    """Every Socket.IO frame the page receives from now on (a websocket opened later included)."""
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


def create_rayman_table(server) -> tuple[str, str]:
    response = requests.post(f"{server.url}/api/tables", json={"game": "rayman", "options": {}}, timeout=10)
    assert response.status_code == 201, response.text
    body = response.json()
    return body["code"], body["host_token"]


def tap_card(page: Page, index: int) -> None:
    """The ``index``-th card of the hand: the first tap picks the left card, the next the second. Cards not
    known yet show "?" and their character, and identical ones are a single button (any of them is the same)."""
    page.get_by_role("group", name="Your cards").get_by_role("button").nth(index).tap()


def tell(page: Page, side: str, initiative: int) -> None:
    """The phone asks the initiative printed on a card played for the first time."""
    form = page.locator(".rm-initiative-form").filter(has_text=side)
    form.locator("input").fill(str(initiative))
    form.get_by_role("button", name="Save").tap()


@pytest.mark.doc_screenshots  # it takes a picture for the README (./manage.sh screenshots)
def test_one_round_on_two_phones_with_the_host_screen(server, open_context):
    code, host_token = create_rayman_table(server)
    host_screen = open_context(**DESKTOP)
    as_host(host_screen, code, host_token)
    host = host_screen.new_page()
    host_frames = record_frames(host)
    host.goto(f"{server.url}/host/{code}")
    zoe_context, zoe = seated_phone(open_context, server, code, "Zoé", RECORD_VIBRATIONS, **RAYMAN_PHONE)
    max_context, max_ = seated_phone(open_context, server, code, "Max", RECORD_VIBRATIONS, **RAYMAN_PHONE)
    host.get_by_role("button", name="Start the game").click()

    # Characters: a character of the box, or a name of one's own; a taken character is greyed out.
    expect(zoe.locator(".rm-status")).to_have_text("Pick your character.")
    zoe.get_by_role("button", name="Rayman", exact=True).tap()
    expect(max_.get_by_role("button", name="Rayman", exact=True)).to_be_disabled()
    max_.get_by_label("Or a name of your own").fill("Murfy")
    max_.get_by_role("button", name="Choose", exact=True).tap()
    expect(host.locator(".rm-history li", has_text="Max races as Murfy.")).to_have_count(1)

    # The secret choice, with nothing typed before: Zoé plays two of her cards (30 on the left, 12), and locks in.
    expect(zoe.locator(".rm-status")).to_have_text("Choose your two action cards in secret, then lock in.")
    # What the table is doing: the kernel's label of the phase, as the view carries it.
    expect(host.locator(".rm-phase")).to_have_text("choosing the cards in secret")
    tap_card(zoe, 0)
    tap_card(zoe, 0)
    expect(zoe.locator(".rm-tentative")).to_have_text("Your choice: ? (Rayman card) on the left, ? (Rayman card) second.")
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")
    expect(zoe.locator(".rm-commitment code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))

    # Zoé's phone is lost: her seat's new phone (the same seat, no local pick) chooses again, and
    # every screen is told.
    zoe_frames = record_frames(zoe)
    zoe.evaluate("() => Object.keys(localStorage).filter((key) => key.startsWith('rayman:'))"
                 ".forEach((key) => localStorage.removeItem(key))")
    zoe.reload()
    expect(host.locator(".rm-history li").first).to_have_text(
        "Rayman (Zoé)'s phone lost the choice (a new phone?): Rayman (Zoé) chooses again.")
    expect(zoe.locator(".rm-status")).to_have_text("Choose your two action cards in secret, then lock in.")
    tap_card(zoe, 0)
    tap_card(zoe, 0)
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")

    # Max hesitates: a first choice, then others, a reload in between; only his phone knows.
    murfy = "? (Murfy card) on the left, ? (Murfy card) second."
    tap_card(max_, 0)
    tap_card(max_, 0)
    expect(max_.locator(".rm-tentative")).to_have_text(f"Your choice: {murfy}")
    max_.reload()  # the phone keeps its pick
    expect(max_.locator(".rm-tentative")).to_have_text(f"Your choice: {murfy}")
    expect(max_.locator(".rm-card-button.picked .rm-picked-as")).to_have_text(["Left", "Second"])  # one kind, ×8
    max_.get_by_role("button", name="Declare a Bubble").tap()
    expect(max_.locator(".rm-tentative")).to_have_text("Your choice: a Bubble.")
    tap_card(max_, 0)
    tap_card(max_, 0)
    expect(max_.locator(".rm-tentative")).to_have_text(f"Your choice: {murfy}")
    expect(max_.locator(".rm-locks li")).to_have_text(LOCKS)
    # Before the reveal no choice is in the server's database nor in what the other screens received.
    stored = b"".join(path.read_bytes() for path in server.database.parent.glob(server.database.name + "*"))
    zoe_salt = zoe.evaluate("() => Object.keys(localStorage).filter((key) => key.startsWith('rayman:'))"
                            ".map((key) => JSON.parse(localStorage.getItem(key)).salt).find(Boolean)")
    assert zoe_salt and zoe_salt.encode() not in stored
    for received in (stored.decode("utf-8", "replace"), "".join(host_frames), "".join(zoe_frames)):
        assert not CHOICE.search(received) and zoe_salt not in received

    # The host screen: who has locked in, never what.
    expect(host.locator(".rm-locks li")).to_have_text(LOCKS)
    expect(host.locator(".rm-status")).to_have_text("1 of 2 locked in")
    expect(host.locator(".rm-card")).to_have_count(0)
    expect(host.locator(".rm-reveal")).to_have_count(0)
    expect(host.locator(".game-area")).not_to_contain_text("Initiative")
    expect(host.locator(".game-area")).not_to_contain_text("Rayman card")

    # Max locks in: the phones reveal. No card was known: each phone asks the number printed on its two.
    max_.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-status")).to_have_text("Type the initiative printed on each new card.")
    expect(host.locator(".rm-initiatives .rm-waiting")).to_have_text("Waiting for: Rayman (Zoé), Murfy (Max)")
    tell(zoe, "left card", 30)
    tell(zoe, "second card", 12)
    tell(max_, "left card", 28)
    # The host screen may read a card for a player (whose phone is away): it lies face up on the table.
    host.locator(".rm-host-initiatives summary").click()
    card = host.locator(".rm-host-initiatives .rm-initiative-form").filter(has_text="second card (Murfy (Max))")
    card.locator("input").fill("2")
    card.get_by_role("button", name="Save").click()
    for page in (zoe, max_, host):
        expect(page.locator(".rm-verified")).to_have_count(2)
        expect(page.locator(".rm-all-verified")).to_have_text(
            "Every choice matches the commitment published before the reveal.")
        expect(page.locator(".rm-revealed .rm-initiative")).to_have_text(["30", "12", "28", "2"])
        expect(page.locator(".rm-order-item .rm-who")).to_have_text(["Rayman (Zoé)", "Murfy (Max)"])
    expect(host.locator(".rm-order-item").first).to_contain_text("playing")

    # Zoé's turn: her phone says so, and vibrated once when it started.
    expect(zoe.locator(".rm-your-turn")).to_have_text("Your turn!")
    expect(max_.locator(".rm-status")).to_have_text("Rayman (Zoé)'s turn")
    expect(max_.locator(".rm-your-turn")).to_have_count(0)
    assert zoe.evaluate("() => window.__vibrations").count([200, 100, 200]) == 1
    assert max_.evaluate("() => window.__vibrations").count([200, 100, 200]) == 0
    expect(zoe.locator(".rolling")).to_have_count(0)
    end_turn = zoe.get_by_role("button", name="End my turn")
    box = end_turn.bounding_box()
    assert box["height"] >= 48 and box["x"] + box["width"] <= RAYMAN_PHONE["viewport"]["width"]
    zoe.evaluate("() => window.scrollTo(0, 0)")
    zoe.screenshot(path=DOCS / "screenshot-rayman-phone.png")
    end_turn.tap()

    # Max's turn: his phone takes over.
    expect(max_.locator(".rm-your-turn")).to_have_text("Your turn!")
    expect(zoe.locator(".rm-status")).to_have_text("Murfy (Max)'s turn")
    expect(host.locator(".rm-order-item.done .rm-who")).to_have_text(["Rayman (Zoé)"])
    assert max_.evaluate("() => window.__vibrations").count([200, 100, 200]) == 1
    max_.get_by_role("button", name="End my turn").tap()

    # Nobody keeps a position: the host is asked nothing; every phone says the last one moves.
    expect(zoe.locator(".rm-round")).to_have_text("Round 2")
    expect(host.locator(".rm-question")).to_have_count(0)
    for page in (zoe, max_):
        expect(page.locator(".rm-free-move-others")).to_have_text(
            "Free move for the last on the board: one space forward, on the level of their choice.")
    expect(zoe.locator(".rm-my-cards")).to_contain_text("30")  # the cards told are known from now on

    for page in (zoe, max_):
        assert page.evaluate("() => document.documentElement.scrollWidth") <= RAYMAN_PHONE["viewport"]["width"]

    # The phones hash the very bytes the server hashed, whatever the text.
    tricky = {"second": "Zoé 🎲 \u2028\"<b>", "left": [1, None, True], "bubble": False, "Ä": {"z": 0, "a": -2}}
    hashed = zoe.evaluate("async (value) => (await import('/static/js/games/rayman-draws.js')).canonicalJson(value)", tricky)
    assert hashed == canonical_json(tricky)
    for context in (host_screen, zoe_context, max_context):
        context.assert_clean()


def test_a_new_cards_initiative_is_asked_once_on_a_small_phone_and_a_bad_answer_changes_nothing(server, open_context):
    """Zoé's phone (360×640) is asked the initiative printed on each card she plays for the first time;
    out of range (on the phone), malformed or for another seat (on the API) is refused, next to the
    control on the phone, and changes nothing; when she plays the same cards again, nothing is asked.
    Max plays through the API."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "rayman", "options": {}}, timeout=10).json()
    code = created["code"]
    zoe_seat, max_seat = (requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                        timeout=10).json() for name in ("Zoé", "Max"))
    assert post(server, code, created["host_token"], {"type": "table.start"}).status_code == 200
    zoe = phone_at_seat(open_context, server, code, zoe_seat["token"], ".rm-status")

    def max_plays(action: dict) -> None:
        answer = post(server, code, max_seat["token"], action)
        assert answer.status_code == 200, answer.text

    def max_chooses(choice: dict) -> None:
        salt = "ab" * 16
        max_plays({"type": "lock", "commitment": commitment(choice, salt)})
        max_plays({"type": "reveal", "choice": choice, "salt": salt})

    max_plays({"type": "character", "name": "Globox"})
    zoe.get_by_role("button", name="Rayman", exact=True).tap()
    expect(zoe.locator(".rm-status")).to_have_text("Choose your two action cards in secret, then lock in.")
    expect(zoe.locator(".rm-unknown-hint")).to_be_visible()
    tap_card(zoe, 0)
    tap_card(zoe, 0)
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")
    max_chooses({"bubble": False, "left": "b1", "second": "b2"})

    # The reveal: Zoé's phone asks both her cards, each drawn with its label and the corner to read.
    expect(zoe.locator(".rm-status")).to_have_text("Type the initiative printed on each new card.")
    expect(zoe.locator(".rm-initiative-form .rm-card-label")).to_have_text(["Rayman card", "Rayman card"])
    before = public(server, code)
    assert len(before["game"]["round"]["asking"]) == 4

    # Out of range: the server's refusal shows next to the control, and nothing changes.
    left = zoe.locator(".rm-initiative-form").filter(has_text="left card")
    left.locator("input").fill("150")
    left.get_by_role("button", name="Save").tap()
    expect(left.locator(".field-error")).to_have_text("An initiative is a whole number from 0 to 99.")
    # Malformed, and another seat's card: refused with the reason, nothing changes.
    malformed = post(server, code, zoe_seat["token"], {"type": "initiative", "seat": zoe_seat["seat"], "card": "b1",
                                                       "initiative": "7"})
    assert malformed.status_code == 400 and "initiative" in malformed.json()["error"]
    others = post(server, code, max_seat["token"], {"type": "initiative", "seat": zoe_seat["seat"], "card": "b1",
                                                    "initiative": 7})
    assert others.status_code == 403 and "your own seat" in others.json()["error"]
    assert public(server, code)["version"] == before["version"]

    tell(zoe, "left card", 30)
    tell(zoe, "second card", 12)
    expect(zoe.locator(".rm-initiatives .rm-waiting")).to_have_text("Waiting for: Globox (Max)")
    max_plays({"type": "initiative", "seat": max_seat["seat"], "card": "b1", "initiative": 8})
    max_plays({"type": "initiative", "seat": max_seat["seat"], "card": "b2", "initiative": 2})
    expect(zoe.locator(".rm-your-turn")).to_have_text("Your turn!")  # 30 before 8
    zoe.get_by_role("button", name="End my turn").tap()
    expect(zoe.locator(".rm-status")).to_have_text("Globox (Max)'s turn")
    max_plays({"type": "end_turn"})

    # Round 2: both take their cards back with a Bubble; round 3: the same cards again, asked no more.
    expect(zoe.locator(".rm-round")).to_have_text("Round 2")
    zoe.get_by_role("button", name="Declare a Bubble").tap()
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")
    max_chooses({"bubble": True, "left": None, "second": None})
    expect(zoe.locator(".rm-round")).to_have_text("Round 3")
    zoe.get_by_role("group", name="Your cards").get_by_role("button", name="Initiative 30, Rayman card").tap()
    zoe.get_by_role("group", name="Your cards").get_by_role("button", name="Initiative 12, Rayman card").tap()
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")
    max_chooses({"bubble": False, "left": "b1", "second": "b2"})
    expect(zoe.locator(".rm-your-turn")).to_have_text("Your turn!")
    expect(zoe.locator(".rm-initiative-form")).to_have_count(0)
    # A told initiative is corrected on the phone, but not while its card is in play: refused next to the control.
    zoe.locator(".rm-correct").locator("xpath=ancestor::details").locator("summary").tap()
    zoe.locator(".rm-correct select").select_option(label="30 (Rayman card)")
    zoe.locator(".rm-correct").get_by_label("Initiative (top left of the card)").fill("31")
    zoe.locator(".rm-correct").get_by_role("button", name="Correct").tap()
    expect(zoe.locator(".rm-correct .field-error")).to_have_text(
        "That card is in play this round: correct it once the round is over.")
    events = [entry["event"]["type"] for entry in public_log(server, code)["entries"] if entry["kind"] == "event"]
    assert events.count("initiatives_asked") == 1 and events.count("initiative_told") == 4
    assert zoe.evaluate("() => document.documentElement.scrollWidth") <= 360


def post(server, code: str, token: str, action: dict) -> requests.Response:
    return requests.post(f"{server.url}/api/tables/{code}/actions", json=action, headers=bearer(token), timeout=10)


def public(server, code: str) -> dict:
    return requests.get(f"{server.url}/api/tables/{code}", timeout=10).json()


def test_the_host_names_the_ptizetres_by_colour_in_one_tap_each_and_the_phones_show_them(server, open_context):
    """The host screen (in French) names the first two captive tokens by their colours during the characters,
    one tap each, and skips the others; Zoé's 360 px phone (in English) frees the blue one in her turn: her
    buttons, the players' list and the history name them by colour, with their swatches. Max plays through the API."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "rayman", "options": {}}, timeout=10).json()
    code = created["code"]
    zoe_seat, max_seat = (requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                        timeout=10).json() for name in ("Zoé", "Max"))
    assert post(server, code, created["host_token"], {"type": "table.start"}).status_code == 200
    tv = open_context(viewport={"width": 1920, "height": 1080})  # the TV: the whole game on its screen
    as_host(tv, code, created["host_token"])
    host = tv.new_page()
    host.goto(f"{server.url}/host/{code}?lang=fr")
    panel = host.locator(".rm-colours")
    expect(panel.locator(".rm-ptz-ask")).to_have_text("Ptizêtre n°1 : sa couleur ?")
    panel.get_by_role("button", name="Bleu").click()
    expect(panel.locator(".rm-ptz-ask")).to_have_text("Ptizêtre n°2 : sa couleur ?")
    expect(panel.get_by_role("button", name="Bleu")).to_be_disabled()  # each colour names one token
    panel.get_by_role("button", name="Rose").click()
    expect(host.locator(".rm-history li").first).to_have_text("Ptizêtre captif n°2 : Ptizêtre rose.")
    assert public(server, code)["game"]["ptizetre_colours"] == {"1": "blue", "2": "pink"}

    zoe = phone_at_seat(open_context, server, code, zoe_seat["token"], ".rm-status")
    zoe.get_by_role("button", name="Rayman", exact=True).tap()
    max_plays = lambda action: post(server, code, max_seat["token"], action).raise_for_status()  # noqa: E731
    max_plays({"type": "character", "name": "Globox"})
    tap_card(zoe, 0)
    tap_card(zoe, 0)
    zoe.get_by_role("button", name="Lock in my choice").tap()
    expect(zoe.locator(".rm-locked-mine")).to_have_text("✓ Locked in.")
    choice, salt = {"bubble": False, "left": "b1", "second": "b2"}, "cd" * 16
    max_plays({"type": "lock", "commitment": commitment(choice, salt)})
    max_plays({"type": "reveal", "choice": choice, "salt": salt})
    tell(zoe, "left card", 30)
    tell(zoe, "second card", 12)
    for card, value in (("b1", 8), ("b2", 2)):
        max_plays({"type": "initiative", "seat": max_seat["seat"], "card": card, "initiative": value})

    frees = zoe.get_by_role("group", name="Free a Ptizêtre").get_by_role("button")
    expect(frees).to_have_text(["Blue Ptizêtre", "Pink Ptizêtre", "Captive Ptizêtre n°3", "Captive Ptizêtre n°4"])
    assert frees.first.locator(".rm-ptz-swatch").evaluate("(node) => getComputedStyle(node).backgroundColor") \
        == "rgb(28, 126, 214)"
    frees.first.tap()
    expect(zoe.locator(".rm-player.me .rm-freed")).to_have_text("Ptizêtres 1/3 (blue)")
    expect(zoe.locator(".rm-history li").first).to_have_text("Rayman (Zoé) frees Blue Ptizêtre (1 freed).")
    expect(zoe.locator(".rm-history li").first.locator(".rm-ptz-swatch")).to_have_count(1)
    expect(host.locator(".rm-player .rm-freed").first).to_have_text("Ptizêtres 1/3 (bleu)")
    assert zoe.evaluate("() => document.documentElement.scrollWidth") <= 360


def test_a_phone_whose_position_is_not_kept_says_no_projectile_reached_it_before_the_projectiles_move(
        server, open_context):
    """Issue 25: nobody keeps a position, so the round's end waits for each phone to say whether the
    projectile reached its figure. Zoé's phone asks, in one tap; Max answers through the API."""
    options = {"difficulty": "custom", "projectile": "missile", "projectile_card": "off"}
    created = requests.post(f"{server.url}/api/tables", json={"game": "rayman", "options": options}, timeout=10).json()
    code, host = created["code"], created["host_token"]
    zoe_seat, max_seat = (requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                        timeout=10).json() for name in ("Zoé", "Max"))
    assert post(server, code, host, {"type": "table.start"}).status_code == 200

    def plays(seat: dict, action: dict) -> None:
        answer = post(server, code, seat["token"], action)
        assert answer.status_code == 200, answer.text

    for seat, name in ((zoe_seat, "Rayman"), (max_seat, "Globox")):
        plays(seat, {"type": "character", "name": name})
    assert post(server, code, host, {"type": "roll"}).status_code == 200
    choice, salt = {"bubble": False, "left": "b1", "second": "b2"}, "ab" * 16
    for seat in (zoe_seat, max_seat):
        plays(seat, {"type": "lock", "commitment": commitment(choice, salt)})
    for seat in (zoe_seat, max_seat):
        plays(seat, {"type": "reveal", "choice": choice, "salt": salt})
    for seat, left in ((zoe_seat, 30), (max_seat, 8)):  # Zoé plays first
        plays(seat, {"type": "initiative", "seat": seat["seat"], "card": "b1", "initiative": left})
        plays(seat, {"type": "initiative", "seat": seat["seat"], "card": "b2", "initiative": 2})
    zoe = phone_at_seat(open_context, server, code, zoe_seat["token"], ".rm-round")
    for seat in (zoe_seat, max_seat):
        plays(seat, {"type": "end_turn"})

    asked = zoe.locator(".rm-no-hit")
    expect(asked).to_contain_text("The projectiles move: did one reach your figure?")
    before = public(server, code)["game"]
    assert before["phase"] == "round_end" and [p["column"] for p in before["projectiles"]] == [21]  # not moved yet
    plays(max_seat, {"type": "no_hit"})
    asked.get_by_role("button", name="No projectile reached me").tap()
    expect(zoe.locator(".rm-round")).to_have_text("Round 2")
    expect(zoe.locator(".rm-history li", has_text="Rayman (Zoé) was not hit.")).to_have_count(1)
    assert [p["column"] for p in public(server, code)["game"]["projectiles"]] == [13]  # it flew once both spoke
