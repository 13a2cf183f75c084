"""A house-ranking edit made on the rankings page reaches the other phones of
the table as a proposal, in headless Chromium at 360×740: Ana moves a figure
and saves, Bo's phone shows what she proposes and who is still asked, Bo
agrees with one tap, and the panel goes once Cy has agreed too."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from tests.test_browser import PHONE, as_seat, browser, open_context, server  # noqa: F401
from tests.helpers import ENTROPY

MARIO, BOWSER, PIKACHU = "0x0000000000000002", "0x0005000000140002", "0x1919000000090002"


def seated_table(server) -> tuple[str, dict]:
    code = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()["code"]
    tokens = {}
    for name, figure in (("Ana", MARIO), ("Bo", BOWSER), ("Cy", PIKACHU)):
        tokens[name] = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                     timeout=10).json()["token"]
        picked = requests.post(f"{server.url}/api/tables/{code}/actions", timeout=10,
                               json={"type": "figure.pick", "amiibo_id": figure},
                               headers={"Authorization": f"Bearer {tokens[name]}"})
        assert picked.status_code == 200, picked.text
    return code, tokens


def test_a_ranking_edit_is_shown_on_the_other_phones_and_agreed_there(server, open_context):
    code, tokens = seated_table(server)
    bo_context = open_context(**PHONE)
    as_seat(bo_context, code, tokens["Bo"])
    bo = bo_context.new_page()
    bo.goto(f"{server.url}/t/{code}")
    expect(bo.locator(".my-name")).to_have_text("Bo")
    expect(bo.locator(".proposals")).to_be_hidden()

    ana_context = open_context(**PHONE)
    as_seat(ana_context, code, tokens["Ana"])
    ana = ana_context.new_page()
    ana.goto(f"{server.url}/rankings?table={code}&criterion=most_villainous")
    expect(ana.locator(".ranking .rank-name")).to_have_text(["Mario", "Bowser", "Pikachu"])
    ana.get_by_role("button", name="Move Bowser up").tap()
    ana.get_by_role("button", name="Save the house ranking").tap()
    expect(ana.locator(".saved")).to_have_text(
        "Proposed: it changes once the other seats agree on their phones (or the host confirms).")

    panel = bo.locator(".proposals")
    expect(panel).to_be_visible()
    expect(panel.locator(".proposal p").first).to_have_text(
        "Ana proposes a house ranking for “The most villainous”:")
    expect(panel.locator(".proposal ol li")).to_have_text(["Bowser", "Mario", "Pikachu"])
    expect(panel.locator(".proposal .muted")).to_have_text("Waiting for: Bo, Cy")
    agree = panel.get_by_role("button", name="Agree")
    assert agree.bounding_box()["height"] >= 44
    assert bo.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    agree.tap()
    expect(panel.locator(".proposal .muted")).to_have_text("Waiting for: Cy")
    expect(panel.get_by_role("button", name="Agree")).to_have_count(0)

    proposal = panel.locator(".proposal").get_attribute("data-id")
    answered = requests.post(f"{server.url}/api/rankings/proposals/{proposal}", timeout=10,
                             json={"table": code, "agree": True}, headers={"Authorization": f"Bearer {tokens['Cy']}"})
    agreed = answered.json()["proposal"]
    # Agreed at this table: its word on each pair; the house ranking, every table's, waits for another table.
    assert agreed["status"] == "agreed" and agreed["house"] == {"changed": 0, "waiting": 3, "tables_needed": 2}
    expect(panel).to_be_hidden()
    other_code, other_tokens = seated_table(server)
    for name in ("Ana", "Bo", "Cy"):  # another table's players all say the same
        if name == "Ana":
            pending = requests.put(f"{server.url}/api/rankings/most_villainous", timeout=10,
                                   json={"table": other_code, "tiers": [[BOWSER], [MARIO], [PIKACHU]]},
                                   headers={"Authorization": f"Bearer {other_tokens[name]}"}).json()["proposal"]
        else:
            requests.post(f"{server.url}/api/rankings/proposals/{pending['id']}", timeout=10,
                          json={"table": other_code, "agree": True},
                          headers={"Authorization": f"Bearer {other_tokens[name]}"}).raise_for_status()
    ranked = requests.get(f"{server.url}/api/rankings/most_villainous?figures={MARIO},{BOWSER},{PIKACHU}",
                          timeout=10).json()
    assert [[entry["id"] for entry in tier] for tier in ranked["tiers"]] == [[BOWSER], [MARIO], [PIKACHU]]
    for context in (ana_context, bo_context):
        context.assert_clean()
