"""The criteria rankings page on a phone-sized screen, in headless Chromium
against the real server with the AmiiboAPI catalogue imported: a table's
figures ranked by a facts criterion, then a judgement criterion's house
ranking dragged into a new order, tied, saved and read back from the API."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from tests.server import server_fixture
from tests.test_browser import PHONE, as_seat, browser, open_context  # noqa: F401
from tests.helpers import ENTROPY

MARIO, BOWSER, PIKACHU = "0x0000000000000002", "0x0005000000140002", "0x1919000000090002"


server = server_fixture("rankings")  # its first start loads the shipped catalogue


def table_with_figures(server) -> tuple[str, str]:
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    seat = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": "Ana", "entropy": ENTROPY}, timeout=10).json()
    for amiibo_id in (MARIO, BOWSER, PIKACHU):
        picked = requests.post(f"{server.url}/api/tables/{table['code']}/actions", timeout=10,
                               json={"type": "figure.pick", "amiibo_id": amiibo_id},
                               headers={"Authorization": f"Bearer {seat['token']}"})
        assert picked.status_code == 200, picked.text
    return table["code"], seat["token"]


def test_rankings_of_a_table_and_a_house_ranking_edited_by_dragging(server, open_context):
    code, token = table_with_figures(server)
    phone_context = open_context(**PHONE)
    as_seat(phone_context, code, token)
    phone = phone_context.new_page()
    phone.goto(f"{server.url}/rankings?table={code}&criterion=lightest")

    rows = phone.locator(".ranking .rank-row")
    expect(rows.locator(".rank-name")).to_have_text(["Pikachu", "Mario", "Bowser"])
    expect(rows.locator(".rank-value")).to_have_text(["79", "98", "135"])
    expect(rows.locator(".rank-source")).to_have_text(["fact", "fact", "fact"])
    expect(phone.locator(".figures-source")).to_have_text(f"The figures of table {code}")
    expect(phone.locator(".edit-controls")).to_be_hidden()  # facts are not edited

    phone.locator("select[name=criterion]").select_option("most_villainous")
    expect(phone.locator(".edit-hint")).to_be_visible()
    names = rows.locator(".rank-name")
    expect(names).to_have_text(["Mario", "Bowser", "Pikachu"])  # nothing ranked yet: the table's order
    expect(rows.locator(".rank-source")).to_have_text(["not ranked yet"] * 3)
    before = names.all_inner_texts()
    # Bowser dragged by its handle to the top, then Mario tied with the figure above him.
    handle = phone.locator('.rank-row[data-id="%s"] .handle' % BOWSER).bounding_box()
    top = rows.first.bounding_box()
    phone.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    phone.mouse.down()
    phone.mouse.move(top["x"] + 20, top["y"] + 3, steps=8)
    phone.mouse.up()
    expect(names.first).to_have_text("Bowser")
    rest = [name for name in before if name != "Bowser"]
    expect(names).to_have_text(["Bowser", *rest])
    phone.get_by_role("button", name=f"Tie {rest[1]} with the figure above").tap()
    expect(phone.locator(".ranking .rank-row .rank-place")).to_have_text(["", "", "="])
    phone.get_by_role("button", name="Save the house ranking").tap()
    # Ana alone agrees at once for her table; the house ranking, every table's, waits for another table.
    expect(phone.locator(".saved")).to_have_text(
        "Agreed at this table: the house ranking takes it once another table agrees the same.")
    unchanged = requests.get(f"{server.url}/api/rankings/most_villainous?figures={PIKACHU},{MARIO},{BOWSER}",
                             timeout=10).json()
    assert all(entry["source"] is None for tier in unchanged["tiers"] for entry in tier)
    other_code, other_token = table_with_figures(server)
    ids = {"Mario": MARIO, "Pikachu": PIKACHU}
    another = requests.put(f"{server.url}/api/rankings/most_villainous", timeout=10,
                           headers={"Authorization": f"Bearer {other_token}"},
                           json={"table": other_code, "tiers": [[BOWSER], [ids[name] for name in rest]]})
    assert another.json()["proposal"]["house"]["changed"] == 3, another.text

    saved = requests.get(f"{server.url}/api/rankings/most_villainous?figures={PIKACHU},{MARIO},{BOWSER}",
                         timeout=10).json()
    tiers = [[entry["label"] for entry in tier] for tier in saved["tiers"]]
    assert tiers[0] == ["Bowser"] and sorted(tiers[1]) == sorted(rest) and len(tiers) == 2
    phone.reload()
    expect(phone.locator(".ranking .rank-row .rank-place")).to_have_text(["", "", "="])
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    phone_context.assert_clean()
