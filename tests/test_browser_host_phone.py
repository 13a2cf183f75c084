"""The host is a phone, in Chromium: a TV (1920x1080) opened at /screen is paired by the host phone
(360x640) scanning the TV's QR code, and the host section of that phone takes the host screen's
figure controls and the "go on without them" of a round. A wrong code, a phone without the host's
rights and a refused figure are told next to what caused them, and change nothing."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import expect

from tests.helpers import ENTROPY, bearer
from tests.test_browser import (  # noqa: F401
    SMALL_PHONE, as_host, as_seat, browser, decode_qr, open_context, server, wait_for_images,
)

TV = {"viewport": {"width": 1920, "height": 1080}}
LINK, UNKNOWN = "0x0100000000040002", "0x3f00000000ff0002"


def seat(server, code: str, name: str, host_key: str | None = None, **body) -> dict:
    answer = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": name, **(body or {"entropy": ENTROPY})},
                           headers=bearer(host_key) if host_key else {}, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def act(server, code: str, token: str, action: dict) -> None:
    answer = requests.post(f"{server.url}/api/tables/{code}/actions", json=action, headers=bearer(token), timeout=10)
    assert answer.status_code == 200, answer.text


def test_a_host_phone_pairs_the_tv_and_takes_the_host_screens_controls(server, open_context, tmp_path):
    created = requests.post(f"{server.url}/api/tables", json={"game": "amiiboxe", "options": {"figures_per_player": 3}},
                            timeout=10).json()
    code, host_key = created["code"], created["host_token"]
    ana, bo = seat(server, code, "Ana", host_key), seat(server, code, "Bo")
    phone = open_context(**SMALL_PHONE)
    as_host(phone, code, host_key)
    as_seat(phone, code, ana["token"])
    page = phone.new_page()
    page.goto(f"{server.url}/t/{code}")
    panel = page.locator(".host-panel")
    expect(panel).to_be_visible()

    # The TV shows a short code and its QR code.
    tv_context = open_context(**TV)
    tv = tv_context.new_page()
    tv.goto(f"{server.url}/")
    tv.get_by_role("link", name="Show a table on this screen").click()
    expect(tv.locator(".pair-code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    pairing = tv.locator(".pair-code").inner_text()
    wait_for_images(tv)
    tv.locator(".pair-row").screenshot(path=tmp_path / "tv.png")
    scanned = decode_qr(tmp_path / "tv.png")
    assert scanned == f"{server.url}/pair/{pairing}"

    # A wrong code typed in the host section is refused next to the field.
    wrong = "ZZZZZZ" if pairing != "ZZZZZZ" else "YYYYYY"
    panel.locator(".pair-tv input[name=pairing]").fill(wrong)
    panel.get_by_role("button", name="Show the table on this TV").tap()
    expect(panel.locator(".pair-tv .field-error")).to_have_text(
        f"No screen shows the code {wrong}: check the code on the TV and type it again.")
    # Bo's phone, without the host's rights, scans the TV's code: it hosts nothing, so nothing is paired.
    bo_phone = open_context(**SMALL_PHONE)
    as_seat(bo_phone, code, bo["token"])
    bo_page = bo_phone.new_page()
    bo_page.goto(scanned)
    expect(bo_page.locator(".pair-state")).to_contain_text("This phone hosts no open table.")
    # Ana's phone scans it: the TV names the table and its host before it shows it (anyone in the room
    # sees its code), then, shown from the TV itself, turns into the table's display without the host's rights.
    scanning = phone.new_page()
    scanning.goto(scanned)
    expect(scanning.locator(".pair-state")).to_contain_text(f"The TV names table {code}")
    expect(tv.locator(".pair-state")).to_contain_text(f"Showing table {code} (host: Ana) in")
    tv.get_by_role("button", name=f"Show table {code} (host: Ana)").click()
    tv.wait_for_url(f"{server.url}/t/{code}/screen")
    expect(tv.locator(".table-code")).to_have_text(code)
    expect(tv.locator(".table-host")).to_have_text("Host: Ana")  # whose table the TV shows, after pairing too
    expect(tv.locator(".host-controls")).to_be_hidden()
    scanning.close()
    # A second TV, paired by typing its code in the host section (any case).
    second_tv = tv_context.new_page()
    second_tv.goto(f"{server.url}/screen")
    expect(second_tv.locator(".pair-code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    panel.locator(".pair-tv input[name=pairing]").fill(second_tv.locator(".pair-code").inner_text().lower())
    panel.get_by_role("button", name="Show the table on this TV").tap()
    expect(panel.locator(".pair-tv .paired")).to_contain_text(f"The TV names table {code}")
    expect(panel.locator(".pair-tv .field-error")).to_be_hidden()
    second_tv.get_by_role("button", name=f"Show table {code} (host: Ana)").click()
    second_tv.wait_for_url(f"{server.url}/t/{code}/screen")
    second_tv.close()

    # A figure picked by name for Bo from the host section, seen on the TV.
    adding = panel.locator(".host-add-figures")
    adding.locator("summary").tap()
    adding.locator("select[name=figure-seat]").select_option(label="Bo")
    adding.locator("input[name=q]").fill("Bowser")
    adding.get_by_role("button", name="Search").tap()
    first = adding.locator(".catalogue-results li").first
    first.get_by_role("button", name="Add").tap()
    bo_figures = panel.locator(f".host-seats li[data-seat='{bo['seat']}'] .figure-name")
    expect(bo_figures).to_have_count(1)
    bowser = bo_figures.first.inner_text()
    expect(tv.locator(f".seats li[data-seat='{bo['seat']}'] .figure-name")).to_have_text([bowser])
    # The same figure for Ana is refused under the button that asked, by the game's rule.
    adding.locator("select[name=figure-seat]").select_option(label="Ana")
    first.get_by_role("button", name="Add").tap()
    expect(adding.locator(".field-error")).to_have_text(f"{bowser} is already in this game, with Bo.")
    expect(panel.locator(f".host-seats li[data-seat='{ana['seat']}'] .figure-name")).to_have_count(0)

    # The figure tapped on the reader while nobody adds is given to Bo from the phone.
    act(server, code, host_key, {"type": "table.scan", "uid": "04a1b2c3d4e5f6", "amiibo_id": LINK})
    panel.get_by_role("button", name="Give to Bo").tap()
    expect(bo_figures).to_have_count(2)
    expect(panel.locator(".waiting-figure")).to_be_empty()

    # Bo adds a figure the catalogue does not know; the host phone names it.
    act(server, code, bo["token"], {"type": "figure.pick", "amiibo_id": UNKNOWN})
    page.once("dialog", lambda dialog: dialog.accept("Pingouin masqué"))
    panel.locator(f".host-seats li[data-seat='{bo['seat']}'] .figure.unknown").get_by_role("button", name="Name it").tap()
    expect(bo_figures.last).to_have_text("Pingouin masqué")
    expect(tv.locator(f".seats li[data-seat='{bo['seat']}'] .figure-name").last).to_have_text("Pingouin masqué")

    # And removes one of Bo's figures.
    panel.locator(f".host-seats li[data-seat='{bo['seat']}'] .figure").filter(has_text=bowser).get_by_role(
        "button", name="Remove").tap()
    expect(bo_figures).to_have_count(2)
    expect(bo_figures.first).not_to_have_text(bowser)

    # A phone that joins and never sends its random numbers: the host goes on without it.
    seat(server, code, "Cy", commitment="ab" * 32)
    tools = page.locator(".table-tools")
    expect(tools.locator(".round-wait")).to_have_text("Waiting for the random numbers of: Cy.")
    expect(tools.get_by_role("button", name="Start the game")).to_be_disabled()
    tools.get_by_role("button", name="Go on without them").tap()
    expect(tools.locator(".round-wait")).to_have_count(0)
    expect(tools.get_by_role("button", name="Start the game")).to_be_enabled()

    for watched in (phone, tv_context, bo_phone):
        assert watched.page_errors == []


def hosted_table(server) -> tuple[str, str, dict]:
    """An Amiiboxe lobby whose host's rights are on Ana's seat: its code, host key and Ana's seat."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "amiiboxe", "options": {"figures_per_player": 3}},
                            timeout=10).json()
    return created["code"], created["host_token"], seat(server, created["code"], "Ana", created["host_token"])


def test_a_tv_moves_only_at_the_word_of_the_host_of_the_table_it_shows(server, open_context):
    """Issue 24 §5: a stranger with a table of their own took the room's TV. The paired TV shows its code
    and whose table it is; a stranger's phone that scans it is refused; the host of the table it shows
    sends it to another table of theirs, and the TV follows."""
    first, second = hosted_table(server), hosted_table(server)
    phone = open_context(**SMALL_PHONE)
    for table_code, host_key, ana in (first, second):
        as_host(phone, table_code, host_key)
        as_seat(phone, table_code, ana["token"])
    stranger_code, stranger_key, stranger_ana = hosted_table(server)
    stranger = open_context(**SMALL_PHONE)
    as_host(stranger, stranger_code, stranger_key)

    tv = open_context(**TV).new_page()
    tv.goto(f"{server.url}/screen")
    expect(tv.locator(".pair-code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    pairing = tv.locator(".pair-code").inner_text()
    scanning = phone.new_page()
    scanning.goto(f"{server.url}/pair/{pairing}")
    scanning.get_by_role("button", name=f"Show table {first[0]}").click()
    tv.get_by_role("button", name=f"Show table {first[0]} (host: Ana)").click()
    tv.wait_for_url(f"{server.url}/t/{first[0]}/screen")
    expect(tv.locator(".tv-code")).to_have_text(f"TV code: {pairing}")
    expect(tv.locator(".table-host")).to_have_text("Host: Ana")

    # The stranger's phone scans the TV's code: refused, the TV keeps its table.
    taking = stranger.new_page()
    taking.goto(f"{server.url}/pair/{pairing}")
    expect(taking.locator(".field-error")).to_have_text(
        f"This TV shows table {first[0]}: only that table's host, or the TV itself, can change it.")
    expect(tv.locator(".table-code")).to_have_text(first[0])

    # Ana's phone, host of the table the TV shows, sends it to her other table: the TV follows.
    scanning.goto(f"{server.url}/pair/{pairing}")
    scanning.get_by_role("button", name=f"Show table {second[0]}").click()
    expect(scanning.locator(".pair-state")).to_have_text(f"The TV shows table {second[0]} now.")
    tv.wait_for_url(f"{server.url}/t/{second[0]}/screen")
    expect(tv.locator(".table-code")).to_have_text(second[0])


def test_a_table_hosted_on_a_phone_shows_how_to_join_before_the_game_and_on_demand_after(server, open_context, tmp_path):
    """Without a TV, the host phone is where the others find the table: its code, address and QR code are
    on its first screen in the lobby, then folded in the host's section once the game is on."""
    created = requests.post(f"{server.url}/api/tables", json={"game": "arkade", "options": {}}, timeout=10).json()
    code, host_key = created["code"], created["host_token"]
    ana = seat(server, code, "Ana", host_key)
    phone = open_context(**SMALL_PHONE)
    as_host(phone, code, host_key)
    as_seat(phone, code, ana["token"])
    page = phone.new_page()
    page.goto(f"{server.url}/t/{code}?lang=fr")  # the host's phone in French
    join = page.locator(".join-here")
    expect(join).to_have_attribute("open", "")
    expect(join.locator("summary")).to_have_text("Comment rejoindre : le code et le QR code")
    expect(join.locator(".table-code")).to_have_text(code)
    expect(join.locator(".join-url")).to_have_text(f"{server.url}/t/{code}")
    assert join.evaluate("(node) => !node.closest('.host-panel')")  # at the top, not in the host's section
    wait_for_images(page)
    qr = join.locator("img.qr")
    box = qr.bounding_box()
    assert box["y"] + box["height"] <= 640, box  # the QR code whole on the first screen
    qr.screenshot(path=tmp_path / "qr.png")
    scanned = decode_qr(tmp_path / "qr.png")
    assert scanned == f"{server.url}/t/{code}"
    # Bo scans it and takes a seat; his phone, without the host's key, shows no way to join.
    bo = open_context(**SMALL_PHONE).new_page()
    bo.goto(scanned)
    bo.locator(".join-form input[name=name]").fill("Bo")
    bo.get_by_role("button", name="Take a seat").tap()
    expect(page.locator(".host-seats")).to_contain_text("Bo")
    expect(bo.locator(".seat-view")).to_be_visible()
    expect(bo.locator(".join-here")).to_be_hidden()
    # Bo's join opened a round of random contributions: the start waits until his phone has given its own.
    expect(bo.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    expect(bo.locator(".draws-wait")).to_be_hidden()

    # Once the game is on: folded in the host's section, and it opens on demand.
    act(server, code, host_key, {"type": "table.start"})
    expect(page.locator(".host-panel .join-here")).to_be_visible()
    expect(join).not_to_have_attribute("open", "")
    expect(join.locator("img.qr")).to_be_hidden()
    join.locator("summary").tap()
    expect(join.locator("img.qr")).to_be_visible()
    expect(join.locator(".table-code")).to_have_text(code)
    # Joining closed by the host: nothing to show, until it is open again.
    act(server, code, host_key, {"type": "table.joining", "open": False})
    expect(join).to_be_hidden()
    act(server, code, host_key, {"type": "table.joining", "open": True})
    expect(join).to_be_visible()
