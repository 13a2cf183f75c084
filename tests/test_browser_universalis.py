"""Mario Universalis on two phone screens (360×640) in headless Chromium against
the real server: the first player plays a Character from the form, moves to the
combat and attacks with two Characters; the other phone is told it is attacked
and blocks one; both phones then show the damage and the coins."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.helpers import bearer
from tests.server import ROOT, ServerProcess
from tests.test_browser import browser, open_context, phone_at_seat, seat_via_api  # noqa: F401

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The API plays two turns before the phones take over: faster than a thumb."""
    process = ServerProcess(tmp_path_factory.mktemp("universalis"),
                            extra_env={"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"}).start()
    yield process
    process.stop()


def act(server, code: str, token: str, action: dict) -> None:
    response = requests.post(f"{server.url}/api/tables/{code}/actions", json=action, headers=bearer(token), timeout=10)
    assert response.status_code == 200, response.text


def next_phases(server, code, token, count):
    for _ in range(count):
        act(server, code, token, {"type": "next"})


def character(name, cost, pf, pc):
    return {"type": "play", "card": {"kind": "character", "name": name, "cost": cost, "pf": pf, "pc": pc}}


def open_phone(open_context, server, code, token) -> Page:
    return phone_at_seat(open_context, server, code, token, ".universalis-game")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_a_turn_and_a_combat_from_two_phones(server, open_context):
    ARTIFACTS.mkdir(exist_ok=True)
    created = requests.post(f"{server.url}/api/tables", json={"game": "universalis", "options": {"starting_coins": 10}},
                            timeout=10).json()
    code = created["code"]
    tokens = {name: seat_via_api(server, code, name) for name in ("Ana", "Bo")}
    act(server, code, created["host_token"], {"type": "table.start"})
    game = requests.get(f"{server.url}/api/tables/{code}", timeout=10).json()["game"]
    seat_names = {seat: game["names"][str(seat)] for seat in game["order"]}
    first, second = (tokens[seat_names[seat]] for seat in game["order"])
    # Two turns by the API: the first player's Koopa, the second player's Boo; the first player's turn 3 begins.
    next_phases(server, code, first, 3)
    act(server, code, first, character("Koopa", 3, 3, 5))
    next_phases(server, code, first, 4)
    next_phases(server, code, second, 3)
    act(server, code, second, character("Boo", 2, 1, 3))
    next_phases(server, code, second, 4)
    next_phases(server, code, first, 3)

    attacker, defender = open_phone(open_context, server, code, first), open_phone(open_context, server, code, second)
    expect(attacker.locator(".uv-prompt")).to_have_text("Your turn: Preparation.")
    expect(defender.locator(".uv-prompt")).to_contain_text("Waiting for")
    form = attacker.locator("form.uv-play")
    form.locator("input[name=name]").fill("Goomba")
    # The other player's action redraws the screen: what was typed stays.
    act(server, code, second, {"type": "coins", "seat": game["order"][1], "delta": 1})
    expect(attacker.locator(".uv-history")).to_contain_text("+1 coins")
    expect(form.locator("input[name=name]")).to_have_value("Goomba")
    form.locator("input[name=cost]").fill("2")
    form.locator("input[name=pf]").fill("2")
    form.locator("input[name=pc]").fill("4")
    form.get_by_role("button", name="Play", exact=True).tap()
    expect(defender.locator(".uv-card", has_text="Goomba")).to_be_visible()
    attacker.get_by_role("button", name="Next phase: Combat: attackers").tap()
    expect(attacker.get_by_role("heading", name="Who attacks?")).to_be_visible()
    attacker.get_by_label("Koopa (PF 3)").check()
    attacker.get_by_label("Goomba (PF 2)").check()
    no_sideways_scroll(attacker)
    attacker.get_by_role("button", name="Attack!").tap()

    expect(defender.locator(".uv-prompt")).to_have_text("You are attacked: declare your blockers.")
    defender.get_by_label("Boo blocks").select_option(label="Koopa (PF 3)")
    no_sideways_scroll(defender)
    defender.get_by_role("button", name="Confirm the blocks").tap()
    for page in (attacker, defender):
        expect(page.locator(".uv-phases li.current")).to_have_text("Second preparation")
        expect(page.locator(".uv-history")).to_contain_text("Boo is KO.")
        expect(page.locator(".uv-card", has_text="Koopa")).to_contain_text("PC 4/5")
        no_sideways_scroll(page)
    attacker.screenshot(path=str(ARTIFACTS / "universalis-attacker-360.png"), full_page=True)
    defender.screenshot(path=str(ARTIFACTS / "universalis-defender-360.png"))
    box = attacker.get_by_role("button", name="Next phase: End of the turn").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
