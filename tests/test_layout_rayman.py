"""The layout cases of Rayman's screens (tests/layout_cases.py), and its number pads."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import layout_states as states
from tests.layout_cases import layout_test, named_swatches_test, open_screen, phone_screen
from tests.layout_cases import pages, server, tables  # noqa: F401 (the module's fixtures)

test_layout = layout_test("rayman")
test_colour_is_never_the_only_way_a_seat_is_told_apart = named_swatches_test("rayman")


@pytest.mark.parametrize("size", ["phone", "phone-fr"])
def test_an_initiative_is_typed_on_big_keys_in_view_not_the_phone_keyboard(server, pages, size):
    """Ana reads her new card's initiative and taps it on the pad under the field: no keyboard opens."""
    page = pages[size]
    table = states.rayman_initiatives(server.url)  # its own table: the initiative is sent
    open_screen(page, server, phone_screen("rayman-initiatives-phone"), table)
    form = page.locator(".rm-initiative-form").first
    field = form.locator("input")
    expect(field).to_have_attribute("inputmode", "none")
    pad = page.locator(".rm-initiatives .next-action").get_by_role(  # one pad in the bar, under the cards' fields
        "group", name={"phone": "Number keys", "phone-fr": "Touches des chiffres"}[size])
    for key in pad.get_by_role("button").all():
        box = key.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44 and box["y"] + box["height"] <= 640, box
    pad.get_by_role("button", name="1", exact=True).tap()
    pad.get_by_role("button", name="7", exact=True).tap()  # two digits at most (0 to 99): the next card's field is next
    expect(field).to_have_value("17")
    field.tap()  # the field tapped takes the keys again
    pad.get_by_role("button", name={"phone": "Delete the last digit", "phone-fr": "Effacer le dernier chiffre"}[size]).tap()
    pad.get_by_role("button", name="5", exact=True).tap()
    asked = table.game("Ana")["round"]["asking"]
    form.locator("button[type=submit]").tap()
    expect(page.locator(".rm-initiative-form")).to_have_count(len([a for a in asked if a["seat"] == table.seats["Ana"]]) - 1)
    told = [event for event in table.game()["history"] if event["type"] == "initiative_told"]
    assert told and told[-1]["initiative"] == 15, told


def test_quick_entry_types_both_initiatives_on_the_pad_the_left_one_first(server, pages):
    page = pages["phone"]
    open_screen(page, server, phone_screen("rayman-choosing-quick-phone"), states.rayman_choosing_quick(server.url))
    pad = page.locator(".rm-quick .number-pad")
    left, second = page.locator(".rm-quick input").all()
    for digit in "4215":  # two digits fill the left card's number, the next go to the second card's
        pad.get_by_role("button", name=digit, exact=True).tap()
    expect(left).to_have_value("42")
    expect(second).to_have_value("15")
    second.tap()
    pad.get_by_role("button", name="Delete the last digit").tap()
    expect(second).to_have_value("1")
    expect(left).to_have_value("42")



def test_the_screen_names_modes_difficulties_and_ptizetre_colours_from_the_server_in_french(server, pages, tables):
    """The screen keeps no copy of them: the table's names carry them (companion/games/rayman/components.py) and
    the page's catalogue translates them; the colours the host already gave are taken, each swatch painted."""
    page = pages["phone-fr"]
    open_screen(page, server, phone_screen("rayman-host-phone"), tables(states.rayman_host_phone))
    palette = page.locator(".rm-palette button")
    expect(palette).to_have_text(["rouge", "orange", "jaune", "vert", "bleu", "violet", "rose", "blanc"])
    expect(palette.filter(has_text="blanc")).to_be_disabled()
    expect(palette.filter(has_text="violet")).to_be_disabled()
    paint = "(node) => getComputedStyle(node.querySelector('.rm-ptz-swatch')).backgroundColor"
    assert palette.filter(has_text="rouge").evaluate(paint) == "rgb(224, 49, 49)"
    assert page.locator(".rm-ptz-tokens button").first.evaluate(paint) == "rgb(248, 249, 250)"  # n°1 is white
    expect(page.locator(".rm-history").first).to_contain_text("Ptizêtre blanc")
    expect(page.locator(".game-area")).to_contain_text("Compétitif")
    expect(page.locator(".game-area")).to_contain_text("Novice")


# Each time the page sets or removes aria-busy: whether it is busy then, and whether Rayman's setup panel is drawn.
BUSY_RECORD = """() => {
  window.busyRecord = [];
  const note = (busy) => window.busyRecord.push({ busy, setup: !!document.querySelector('.rm-setup') });
  const { setAttribute, removeAttribute } = Element.prototype;
  Element.prototype.setAttribute = function (name, value) {
    if (name === 'aria-busy') note(value === 'true');
    return setAttribute.call(this, name, value);
  };
  Element.prototype.removeAttribute = function (name) {
    if (name === 'aria-busy') note(false);
    return removeAttribute.call(this, name);
  };
}"""


def test_the_phone_says_it_is_busy_until_the_panel_it_loads_later_is_drawn(server, pages, tables):
    """Rayman's setup panels come in a module of their own, asked for at the screen's first draw: until it is in
    and drawn, <body> carries aria-busy (a screen reader, and the layout cases, wait for the whole screen)."""
    page = pages["phone"].context.new_page()  # its own page: the recording script stays out of the other cases
    try:
        page.add_init_script(f"({BUSY_RECORD})()")
        page.goto(server.url + "/join")  # an origin for the seat's key in local storage
        open_screen(page, server, phone_screen("rayman-characters-phone"), tables(states.rayman_characters))
        expect(page.locator(".rm-setup .rm-choices button").first).to_be_visible()
        record = page.evaluate("() => window.busyRecord")
        assert record[0] == {"busy": True, "setup": False}, record  # drawn first without the panel, busy
        assert record[-1] == {"busy": False, "setup": True}, record  # and busy until drawn again with it
    finally:
        page.close()
