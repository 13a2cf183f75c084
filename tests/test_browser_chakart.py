"""Chakart on two phone screens (360×640) in headless Chromium against the real
server: White taps a pawn and its square, reads the changes to make and taps
"Board done"; Black, whose board is seen from its side, does the same. The
squares are at least 44 px and nothing scrolls sideways."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect

from tests.helpers import bearer
from tests.server import ROOT
from tests.test_browser import browser, open_context, phone_at_seat, seat_via_api, server  # noqa: F401

ARTIFACTS = ROOT / "test-artifacts"


def open_phone(open_context, server, code, token) -> Page:
    return phone_at_seat(open_context, server, code, token, ".ck-board")


def square(page: Page, name: str):
    return page.locator(f'.ck-square[data-square="{name}"]')


def test_two_moves_by_tapping_the_board(server, open_context):
    created = requests.post(f"{server.url}/api/tables", json={"game": "chakart", "options": {"colours": "first"}},
                            timeout=10).json()
    code = created["code"]
    white_token, black_token = seat_via_api(server, code, "Ana"), seat_via_api(server, code, "Bo")
    started = requests.post(f"{server.url}/api/tables/{code}/actions", json={"type": "table.start"},
                            headers=bearer(created["host_token"]), timeout=10)
    assert started.status_code == 200, started.text
    white, black = open_phone(open_context, server, code, white_token), open_phone(open_context, server, code, black_token)

    expect(white.locator(".ck-prompt")).to_have_text("Your move: tap a piece, then where it goes.")
    box = square(white, "a1").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert white.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    # White's board has a1 at the bottom left; Black's has h8 there.
    assert square(white, "a1").bounding_box()["y"] > square(white, "a8").bounding_box()["y"]
    assert square(black, "h8").bounding_box()["y"] > square(black, "h1").bounding_box()["y"]

    square(white, "e2").tap()
    expect(square(white, "e4")).to_have_class(re.compile(r"\btarget\b"))
    square(white, "e4").tap()
    expect(white.locator(".ck-changes")).to_contain_text("Put the mushroom on e3.")
    expect(black.locator(".ck-prompt")).to_have_text("Ana is changing the board.")
    white.get_by_role("button", name="Board done").tap()

    expect(black.locator(".ck-prompt")).to_have_text("Your move: tap a piece, then where it goes.")
    square(black, "g8").tap()
    square(black, "f6").tap()
    expect(black.locator(".ck-changes")).to_contain_text("On g8, replace the black Yoshi (knight) with the egg.")
    black.get_by_role("button", name="Board done").tap()
    expect(white.locator(".ck-prompt")).to_have_text("Your move: tap a piece, then where it goes.")
    expect(square(white, "f6")).to_have_attribute("aria-label", "f6, black Yoshi (knight)")
    ARTIFACTS.mkdir(exist_ok=True)
    white.screenshot(path=str(ARTIFACTS / "chakart-white-360.png"))


def act_via_api(server, code: str, token: str, action: dict) -> None:
    answer = requests.post(f"{server.url}/api/tables/{code}/actions", json=action, headers=bearer(token), timeout=10)
    assert answer.status_code == 200, answer.text


def test_the_hidden_queen_comes_back_with_the_exact_change_and_the_rules_fold_reads_in_french(server, open_context):
    # Black's knight leaves its egg on d5 (« le premier case intermédiaire »), where White's queen hides.
    created = requests.post(f"{server.url}/api/tables", json={"game": "chakart", "options": {
        "colours": "first", "position": ["4k3/8/8/2n5/8/8/8/3QK3"], "redirect": "free", "no_move": "lose"}},
        timeout=10).json()
    code = created["code"]
    white_token, black_token = seat_via_api(server, code, "Ana"), seat_via_api(server, code, "Bo")
    act_via_api(server, code, created["host_token"], {"type": "table.start"})
    act_via_api(server, code, white_token, {"type": "stealth", "from": "d1", "to": "d5"})
    act_via_api(server, code, white_token, {"type": "board_done"})
    act_via_api(server, code, black_token, {"type": "move", "from": "c5", "to": "e4"})
    act_via_api(server, code, black_token, {"type": "board_done"})

    white = open_phone(open_context, server, code, white_token)
    expect(white.locator(".ck-report h3").first).to_have_text("The hidden queen comes back on d5")
    expect(white.locator(".ck-revealed li")).to_have_text(["On d5, replace the egg with the white Mario (queen)."])
    expect(square(white, "d5")).to_have_attribute("aria-label", "d5, white Mario (queen)")

    black = open_phone(open_context, server, code, black_token)
    black.goto(f"{server.url}/t/{code}?lang=fr")
    rules = black.locator(".ck-rules")
    expect(rules.locator("summary")).to_have_text("Règles de cette table")
    rules.locator("summary").tap()
    expect(rules.locator("li")).to_have_count(22)
    expect(rules.locator('li[data-choice="slides"] em')).to_have_text("(le livret ne dit rien)")
    expect(rules.locator('li[data-choice="redirect"]')).to_contain_text("n’envoie une pièce que sur une case sans pièce")
    expect(rules.locator('li[data-choice="no_move"]')).to_contain_text("perd (comme sur le site de l’auteur)")
    expect(rules.locator('li[data-choice="no_move"] em')).to_have_text("(le livret ne dit rien ; une option de la table)")
    assert black.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    black.screenshot(path=str(ARTIFACTS / "chakart-rules-fr-360.png"), full_page=True)


def test_a_phone_whose_turn_starts_shows_the_top_of_its_game(server, open_context):
    """Bo scrolled down to the rules fold while Ana played; when Bo's turn starts, his phone shows the top of his
    game (what he is asked and his board), not the fold he was reading."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "chakart", "options": {"colours": "first"}},
                            timeout=10).json()
    code = created["code"]
    white_token, black_token = seat_via_api(server, code, "Ana"), seat_via_api(server, code, "Bo")
    act_via_api(server, code, created["host_token"], {"type": "table.start"})
    black = open_phone(open_context, server, code, black_token)
    expect(black.locator(".ck-prompt")).to_have_text("Ana is moving.")
    black.evaluate("() => document.querySelectorAll('details').forEach((fold) => { fold.open = true; })")
    black.evaluate("() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' })")
    game_top = "() => document.querySelector('.game-area').getBoundingClientRect().top"
    assert black.evaluate(game_top) < 0, "the page must be long enough to scroll past the game's top"

    act_via_api(server, code, white_token, {"type": "move", "from": "e2", "to": "e4"})
    act_via_api(server, code, white_token, {"type": "board_done"})

    expect(black.locator(".ck-prompt")).to_have_text("Your move: tap a piece, then where it goes.")
    assert abs(black.evaluate(game_top)) < 1
