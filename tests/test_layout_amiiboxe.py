"""The layout cases of Amiiboxe's screens (tests/layout_cases.py), a phone without a reader, and the host
screen that stops waiting for an away fighter."""

from __future__ import annotations

from playwright.sync_api import expect

from tests import layout_states as states
from tests.layout_cases import Screen, layout_test, named_swatches_test, open_screen, phone_screen
from tests.layout_cases import pages, server, tables  # noqa: F401 (the module's fixtures)
from tests.screen import Screen as LiveScreen

test_layout = layout_test("amiiboxe")
test_colour_is_never_the_only_way_a_seat_is_told_apart = named_swatches_test("amiiboxe")


def test_without_a_reader_a_phone_picks_its_figures_by_name_first(server, pages, tables):
    """The layout suite's server has a reader configured but none plugged in: no button asks for taps,
    and the search by name comes before the list of figures, on the first screen."""
    page = pages["phone"]
    open_screen(page, server, phone_screen("amiiboxe-registration-phone"), tables(states.amiiboxe_registration))
    area = page.locator(".figure-area")
    expect(area.locator(".pick-figure input[name=q]")).to_be_visible()
    expect(area.get_by_role("button", name="Add my figures")).to_have_count(0)
    assert area.evaluate("(node) => node.querySelector('.pick-figure').compareDocumentPosition("
                         "node.querySelector('ul.figures')) & Node.DOCUMENT_POSITION_FOLLOWING")


def test_the_host_stops_waiting_for_an_away_fighter_from_the_tv(server, pages):
    """A judged fight waits on Bo, whose phone has gone: the host screen ends the wait at once."""
    page = pages["tv"]
    table = states.amiiboxe_judged(server.url)  # its own table: the tap changes it
    open_screen(page, server, Screen("fight", "/host/{code}", None, "host", ".ax-fight"), table)
    bo = table.seats["Bo"]
    waited = [wait for wait in table.view()["table"]["waiting"] if wait["seat"] == bo and wait["timed"]]
    watcher = LiveScreen(server.url, table.code, table.host_token)  # hears every new view of the table
    try:
        stop = page.get_by_role("button", name="Stop waiting for Bo")
        expect(stop).to_be_visible()
        stop.click()
        # That wait ends now: the fight is settled without Bo, or (with two players) goes on to another
        # criterion that asks Bo again, with a deadline of its own.
        watcher.wait_for(lambda view: not [wait for wait in view["table"]["waiting"] if wait["seat"] == bo
                                           and wait["deadline"] == waited[0]["deadline"]])
    finally:
        watcher.close()

