"""A phone in headless Chromium follows the server's NFC reader live: the real server reads the
udp emulator in its reader process; when that process ends (a driver that crashes) the phone
stops asking for taps and says to pick figures by name, and when the server has started the
reader again the phone offers tapping again. Nothing registered is lost meanwhile."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from hardware.emulate import Emulator
from tests.screen import Screen
from tests.server import ServerProcess
from tests.test_amiiboxe_live import FAST, reader_process
from tests.test_browser import PHONE, browser, open_context, take_seat  # noqa: F401


@pytest.fixture(scope="module")
def emulated():
    with Emulator(port=0) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def server(tmp_path_factory, emulated):
    process = ServerProcess(tmp_path_factory.mktemp("reader"),
                            extra_env={"COMPANION_READER": emulated.path, **FAST}).start()
    yield process
    process.stop()


def test_a_phone_stops_asking_for_taps_while_the_reader_is_gone_and_asks_again_once_back(server, open_context,
                                                                                           emulated):
    created = requests.post(f"{server.url}/api/tables", json={"game": "amiiboxe", "options": {}}, timeout=10).json()
    host = Screen(server.url, created["code"], created["host_token"])  # the reader's taps go to its table
    try:
        ana_adds_then_the_reader_goes_and_comes_back(server, open_context, emulated, created)
    finally:
        host.close()


def ana_adds_then_the_reader_goes_and_comes_back(server, open_context, emulated, created) -> None:
    phone = open_context(**PHONE).new_page()
    phone.goto(f"{server.url}/t/{created['code']}")
    take_seat(phone, "Ana")
    adding = phone.get_by_role("button", name="Add my figures")
    expect(adding).to_be_visible(timeout=30_000)  # once the reader process has opened the emulator
    adding.tap()
    expect(phone.locator(".figure-area .registering")).to_have_text("Tap your figures on the reader now, then press Done.")
    emulated.place("04d10000000001", "0x0100000000040002")  # Link
    expect(phone.locator(".figure-area .figure-name")).to_have_count(1)
    emulated.remove()

    process = reader_process(server)
    process.kill()
    process.wait(10)
    note = phone.locator(".figure-area .no-reader-note")
    expect(note).to_have_text("The NFC reader was disconnected: your figures are kept. Pick the others by name "
                              "below, or tap them once it is back.")
    expect(phone.locator(".figure-area .registering")).to_have_count(0)
    expect(phone.locator(".figure-area .figure-name")).to_have_count(1)  # nothing changed
    expect(phone.get_by_role("button", name="Done")).to_be_visible()  # the adding can still be ended
    expect(phone.locator(".pick-figure input[name=q]")).to_be_visible()

    # The server starts its reader again by itself: the phone asks for taps again.
    expect(note).to_have_count(0, timeout=30_000)
    expect(phone.locator(".figure-area .registering")).to_be_visible()
    phone.get_by_role("button", name="Done").tap()
    expect(phone.get_by_role("button", name="Add my figures")).to_be_visible()
