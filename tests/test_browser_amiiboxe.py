"""Amiiboxe on phone-sized screens in headless Chromium, against the real server
with the catalogue imported: the host screen sets the first player and begins,
a phone picks a figure and attacks, the die is rolled on the server and both
phones and the host screen show the face, the criterion and the outcome
(answering together when the criterion asks the players)."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.test_browser import DESKTOP, DOCS, PHONE, as_host, as_seat, browser, open_context  # noqa: F401
from tests.test_browser_rankings import server  # noqa: F401  (a server with the AmiiboAPI catalogue)
from tests.helpers import ENTROPY

ANA = ["0x0000000000000002", "0x0100000000040002", "0x0002000000010002"]  # Mario, Link, Peach
BO = ["0x0005000000140002", "0x1919000000090002", "0x1f000000000a0002"]  # Bowser, Pikachu, Kirby


def api(server, code, token, action):  # noqa: F811
    response = requests.post(f"{server.url}/api/tables/{code}/actions", json=action, timeout=10,
                             headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


def table_ready_to_begin(server):  # noqa: F811
    table = requests.post(f"{server.url}/api/tables", timeout=10,
                          json={"game": "amiiboxe", "options": {"figures_per_player": 3}}).json()
    code = table["code"]
    seats = {}
    for name, figures in (("Ana", ANA), ("Bo", BO)):
        seats[name] = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY}, timeout=10).json()
        for amiibo_id in figures:
            api(server, code, seats[name]["token"], {"type": "figure.pick", "amiibo_id": amiibo_id})
    api(server, code, table["host_token"], {"type": "table.start"})
    state = requests.get(f"{server.url}/api/tables/{code}", timeout=10,
                         headers={"Authorization": f"Bearer {table['host_token']}"}).json()["game"]
    assert all(figure["location"] for figure in state["figures"])  # each figure's own game suggests its card
    return table, seats


def phone_page(open_context, server, code, token) -> tuple:  # noqa: F811
    context = open_context(**PHONE)
    as_seat(context, code, token)
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    return context, page


def answer_if_asked(page: Page, attacker: str) -> None:
    """Judgement criteria and situational ones (no board kept) ask both players."""
    if page.get_by_role("button", name=attacker, exact=True).count():
        page.get_by_role("button", name=attacker, exact=True).tap()
    elif page.get_by_role("button", name="Send").count():
        page.get_by_role("spinbutton").fill("2")
        page.get_by_role("button", name="Send").tap()


@pytest.mark.doc_screenshots  # it takes a picture for the README (./manage.sh screenshots)
def test_a_phone_rolls_a_fight_seen_on_every_screen(server, open_context):  # noqa: F811
    table, seats = table_ready_to_begin(server)
    code = table["code"]
    host_context = open_context(**DESKTOP)
    as_host(host_context, code, table["host_token"])
    host = host_context.new_page()
    host.goto(f"{server.url}/host/{code}")
    expect(host.locator(".ax-reference li")).to_have_count(6)
    expect(host.locator(".ax-reference li").nth(4)).to_have_text("5The lightest")
    host.get_by_role("button", name="Ana", exact=True).click()  # who got an amiibo last
    host.get_by_role("button", name="Begin the fights").click()

    ana_context, ana = phone_page(open_context, server, code, seats["Ana"]["token"])
    bo_context, bo = phone_page(open_context, server, code, seats["Bo"]["token"])
    expect(ana.locator(".ax-status")).to_have_text("Your turn: pick a figure, then move, attack or retire.")
    expect(bo.locator(".ax-status")).to_have_text("Ana's turn")
    ana.get_by_role("button", name="Mario", exact=True).tap()
    ana.get_by_role("button", name="⚔ Bowser (Bo)").tap()

    for page in (ana, bo, host):
        expect(page.locator(".ax-fight .ax-fight-title")).to_have_text("Mario attacks Bowser")
        expect(page.locator(".ax-fight .die-face")).to_have_text(re.compile(r"^[1-6]$"))
    face = int(host.locator(".ax-fight .die-face").inner_text())
    criterion = host.locator(".ax-reference li").nth(face - 1).inner_text()[1:]
    expect(ana.locator(".ax-fight .ax-criterion")).to_have_text(criterion)
    answer_if_asked(ana, "Mario")
    answer_if_asked(bo, "Mario")
    for page in (ana, bo, host):
        expect(page.locator(".ax-fight .ax-outcome")).to_have_text(
            re.compile(r"^(Mario wins the fight\.|Bowser wins the fight\.|A tie: nothing happens\.)$"))
    expect(host.locator(".ax-history li")).to_have_count(1)
    expect(host.locator(".ax-history li").first).to_contain_text(f"Mario attacks Bowser — {face}: {criterion}")
    outcome = host.locator(".ax-fight .ax-outcome").inner_text()
    if outcome.startswith("Mario"):
        expect(bo.locator(".ax-figure.captured")).to_have_text(re.compile("Bowser"))
    ana.screenshot(path=DOCS / "screenshot-amiiboxe-phone.png")

    # Between fights the host changes the reference; every phone shows the new one.
    catalogue = requests.get(f"{server.url}/api/criteria", timeout=10).json()
    debate = next(reference for reference in catalogue["references"] if reference["id"] == "debate")
    host.locator(".ax-reference-tools select").select_option("debate")
    host.get_by_role("button", name="Change the reference").click()
    wordings = [f"{n}{face['wording']}" for n, face in enumerate(debate["faces"], start=1)]
    expect(bo.locator(".ax-reference li")).to_have_text(wordings)
    for page in (ana, bo):
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    for context in (host_context, ana_context, bo_context):
        context.assert_clean()


def test_with_the_board_kept_a_phone_moves_its_figure_by_tapping_a_place(server, open_context):  # noqa: F811
    table = requests.post(f"{server.url}/api/tables", timeout=10, json={
        "game": "amiiboxe", "options": {"board": "kept"}}).json()
    code, host_token = table["code"], table["host_token"]
    seats = {}
    for name, figures in (("Ana", ANA), ("Bo", BO)):
        seats[name] = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                    timeout=10).json()
        for amiibo_id in figures:
            api(server, code, seats[name]["token"], {"type": "figure.pick", "amiibo_id": amiibo_id})
    api(server, code, host_token, {"type": "table.start"})
    state = requests.get(f"{server.url}/api/tables/{code}", timeout=10,
                         headers={"Authorization": f"Bearer {host_token}"}).json()["game"]
    starts = {}
    for figure in state["figures"]:
        line = next(side for side in state["setup"]["sides"] if side["seat"] == figure["seat"])["cells"]
        taken = sum(1 for placed in state["figures"][:state["figures"].index(figure)] if placed["seat"] == figure["seat"])
        starts.setdefault(figure["seat"], line[1])
        api(server, code, host_token, {"type": "place", "figure": figure["id"], "cell": line[1 + taken]})
    api(server, code, host_token, {"type": "first_player", "player": seats["Ana"]["seat"]})
    api(server, code, host_token, {"type": "begin"})

    ana_context, ana = phone_page(open_context, server, code, seats["Ana"]["token"])
    ana.get_by_role("button", name="Mario", exact=True).tap()
    expect(ana.locator(".ax-actions .muted")).to_have_text("To move it, tap a free place it can reach on the board below.")
    row, column = starts[seats["Ana"]["seat"]]
    ana.get_by_role("button", name=f"{row}, {column + 1}", exact=True).tap()  # one row forward (labels count from 1)
    # The card turned over is named from the table's list: its effect depends on it.
    ana.get_by_role("combobox", name="The card turned over").select_option("Great Fox")
    ana.get_by_role("button", name="Name it").tap()
    expect(ana.locator(".ax-status")).to_have_text("Bo's turn")
    after = requests.get(f"{server.url}/api/tables/{code}", timeout=10,
                         headers={"Authorization": f"Bearer {host_token}"}).json()["game"]
    mario = next(figure for figure in after["figures"] if figure["name"]["en"] == "Mario")
    assert mario["at"] == [row - 1, column] and after["board"][row - 1][column]["name"] == "Great Fox"
    ana_context.assert_clean()


def add_by_search(page: Page, query: str, count: int) -> None:
    """The phone's search: the name, then the Super Smash Bros. figure among the variants."""
    page.locator(".pick-figure input[name=q]").fill(query)
    page.get_by_role("button", name="Search").tap()
    # The results of this search, not the last one's still shown while it is on its way.
    found = page.locator(".catalogue-results li", has_text="Super Smash Bros.").filter(
        has_text=re.compile(query, re.IGNORECASE)).first
    found.get_by_role("button", name="Add").tap()
    expect(page.locator(".figure-count")).to_have_text(f"{count} of 3 figures")


def test_two_phones_register_three_figures_each_by_search_and_play_a_fight(server, open_context):  # noqa: F811
    table = requests.post(f"{server.url}/api/tables", timeout=10, json={"game": "amiiboxe", "options": {}}).json()
    code = table["code"]
    seats = {name: requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=10).json() for name in ("Ana", "Bo")}
    ana_context, ana = phone_page(open_context, server, code, seats["Ana"]["token"])
    bo_context, bo = phone_page(open_context, server, code, seats["Bo"]["token"])
    expect(ana.locator(".figure-count")).to_have_text("0 of 3 figures")
    expect(ana.get_by_text("tap your figures on the reader")).to_have_count(0)  # nobody asked for the reader
    for count, query in enumerate(("mario", "link", "peach"), start=1):
        add_by_search(ana, query, count)
    for count, query in enumerate(("BOWSER", "pikachu", "kirby"), start=1):
        add_by_search(bo, query, count)
    expect(ana.locator(".figure-area .figure-name")).to_have_text(["Mario", "Link", "Peach"])
    for page in (ana, bo):
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]

    api(server, code, table["host_token"], {"type": "table.start"})
    host_context = open_context(**DESKTOP)
    as_host(host_context, code, table["host_token"])
    host = host_context.new_page()
    host.goto(f"{server.url}/host/{code}")
    for page in (ana, bo):  # the phones agree on who plays first
        page.get_by_role("button", name="Ana", exact=True).tap()
    host.get_by_role("button", name="Begin the fights").click()

    expect(ana.locator(".ax-status")).to_have_text("Your turn: pick a figure, then move, attack or retire.")
    ana.get_by_role("button", name="Link", exact=True).tap()
    ana.get_by_role("button", name="⚔ Kirby (Bo)").tap()
    for page in (ana, bo, host):
        expect(page.locator(".ax-fight .ax-fight-title")).to_have_text("Link attacks Kirby")
    answer_if_asked(ana, "Link")
    answer_if_asked(bo, "Link")
    for page in (ana, bo, host):
        expect(page.locator(".ax-fight .ax-outcome")).to_have_text(
            re.compile(r"^(Link wins the fight\.|Kirby wins the fight\.|A tie: nothing happens\.)$"))
    expect(host.locator(".ax-history li")).to_have_count(1)
    for context in (host_context, ana_context, bo_context):
        context.assert_clean()
