"""Every page and every reachable state of every game, measured in Chromium at two sizes, and each
host screen at a third.

A phone (360 x 640, touch) and a TV (1920 x 1080) open each page against the real server, and
a laptop (1366 x 768, in French) and the TV in French each host screen;
the tables are brought to each state through the JSON API (tests/layout_states.py). From the
rendered page (tests/layout_check.js) each case asserts:

* nothing sticks out sideways (the page's scroll width, every box's right edge);
* every visible control is at least 44 x 44 CSS px;
* no two things overlap (controls, pictures, lines of text), nothing is cut (a box that clips
  its content, a list number outside its box);
* text is at least 16 px (on controls too); on the TV the host screen fits 1080 px without scrolling, its main
  text is at least 28 px; on the TV and the laptop it shows the lobby (big QR code, commitment) only
  before the game, the QR code small in a corner during it;
* on a host screen, nothing of the game lies outside its area or under another panel (the seats,
  the QR code): a TV layout's column that ran out of room once slid under the seats on a laptop;
* on the phone, the line that says what to do is on the first screen, and setup controls
  (Remove, Add my figures, the catalogue search) are gone once the game is on;
* on the phone a step waits on, its next action (what it taps) lies wholly inside the 360 x 640 screen,
  without scrolling, and nothing of the page stays hidden under a bar fixed to the screen's bottom;
  every control of such a bar lies wholly inside the screen (none cut off by the bar's own height), and
  where the step's choice is on a board, every square to tap lies in view and under no bar.

The cases are SCREENS (pages, and each game state on the host screen and on the phone
concerned) x SIZES, run by a test module per group of screens (GROUPS: tests/test_layout_<group>.py,
``test_layout``): ``pytest --collect-only -q tests/test_layout_*.py`` counts them. The
screenshot of a case that finds a problem is kept in test-artifacts/layout/ (git-ignored); every case's with
COMPANION_LAYOUT_SCREENSHOTS=1.

Accessible to everyone at the table: at phone size and on the TV, every page of every game (the
screens of ``ACCESSIBLE``) is also checked by axe-core (node_modules/axe-core, a development package of
package.json) against the WCAG 2.1 A and AA rules and axe's best practices: no serious or critical
violation (a control without a name, text below the contrast ratio, a field without a label, a page
without its language). It runs in the layout case that opened the page, on the same table: a suite of
its own opened every one of these pages a second time, on a second server with every table built again.
A screen reader user takes a seat and rolls the die by the names and roles the page gives; a seat is
never told apart by its colour alone (its name is written beside its swatch).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests import layout_states as states
from tests.helpers import IMAGES_IN_VIEW_LOADED
from tests.server import ROOT, ServerProcess, server_fixture
from tests.test_browser import CHROMIUM, TEST_CHROMIUM_ARGS

ARTIFACTS = ROOT / "test-artifacts" / "layout"
# A case's screenshot is kept when it finds a problem; with COMPANION_LAYOUT_SCREENSHOTS=1, every case's.
EVERY_SCREENSHOT = os.environ.get("COMPANION_LAYOUT_SCREENSHOTS") == "1"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHECK = (Path(__file__).parent / "layout_check.js").read_text()
SIZES = {
    "phone": {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True},
    "tv": {"viewport": {"width": 1920, "height": 1080}},
    # The same TV in a browser that shows its tab strip and address bar: 143 px less of height.
    "tvbars": {"viewport": {"width": 1920, "height": 937}},
    # A laptop's own screen as the host screen: the page may scroll down, but nothing is hidden.
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}
# French is longer than English: the phones, and the host screens on a laptop and on the TV, see every
# state in French.
LOCALES = {"phone": "en-US", "tv": "en-US", "phone-fr": "fr-FR", "laptop-fr": "fr-FR", "tv-fr": "fr-FR",
           "tvbars": "en-US"}
TV_SIZES = ("tv", "tvbars")
MIN_TEXT, TV_MAIN_TEXT, QR_IN_LOBBY, QR_IN_GAME = 16, 28, 300, 240
# Registering figures (Remove, Add my figures, the catalogue search): the lobby's, not the game's.
SETUP_CONTROLS = ".figure-area button, .figure-area input, .figure-area summary, .pick-figure"

expect.set_options(timeout=20_000)
WAIT_MS = 20_000


@dataclass(frozen=True)
class Screen:
    """A page to open: ``path`` (``{code}`` filled from the table), as whom, and what to expect."""

    name: str
    path: str
    build: object = None  # url -> states.Table, or None for a page without a table
    # "host", "phone" (the state's phone), "host-phone", "display", "tv-page" (a TV page without a table), "" (nobody)
    who: str = ""
    ready: str = "main"  # a selector shown once the page has rendered its state
    prompt: str = ""  # on the phone: what to do now, on the first screen
    main: tuple[str, ...] = ()  # on the TV: the main text (>= 28 px)
    in_game: bool | None = None  # the host screen: None (not a host screen), False (lobby), True (game)
    status: int = 200
    setup_gone: bool = False  # the phone: the game is on, setup controls are gone
    opened: str = ""  # a fold opened (tapped) before measuring, so that what it holds is measured too
    # On the phone the step waits on: what it taps next, each selector's first match wholly inside 360 x 640.
    action: tuple[str, ...] = ()
    # ... and what it may tap, every match of each selector inside 360 x 640 and under no bar (a board's squares).
    every: tuple[str, ...] = ()
    # Taps made on the phone before measuring (a dialog that opens on a tap), each as (what is tapped, what
    # then shows).
    taps: tuple[tuple[str, str], ...] = ()
    game: str = ""  # the create page: the game chosen in its form, whose options are then shown
    extra: dict = field(default_factory=dict)


def host(name, build, ready, main, in_game=True, **extra) -> Screen:
    return Screen(name + "-host", "/host/{code}", build, "host", ready, main=main, in_game=in_game, **extra)


def phone(name, build, ready, prompt="", setup_gone=True, **extra) -> Screen:
    return Screen(name + "-phone", "/t/{code}", build, "phone", ready, prompt=prompt, setup_gone=setup_gone, **extra)


def closed_dice(url: str) -> states.Table:
    table = states.dice_six_d20_rolled(url)
    table.act("host", {"type": "table.close"})
    return table


def fresh_dice_nobody_seated(url: str) -> states.Table:
    return states.Table.create(url, "dice", {}, ())


DICE_MAIN = (".game-area .die", ".game-area .roll-caption")
# Rayman's secret choice on one screen: the hand, both picks, the Bubble (when allowed) and Lock in.
RAYMAN_CHOICE = (".rm-hand .rm-card-button", ".rm-tentative", ".rm-lock")
SCREENS = [
    # Pages.
    Screen("home", "/", ready="#create-table"),
    # The create page with each game chosen: its options' long labels and choices never widen the page.
    *(Screen(f"home-{game}", "/", ready="#create-table", game=game)
      for game in ("amiiboxe", "arkade", "chakart", "rayman", "universalis")),
    Screen("join", "/join", ready="input[name=code]"),
    Screen("join-bad-code", "/join?code=0O1", ready=".error"),
    Screen("phone-join-form", "/t/{code}", fresh_dice_nobody_seated, ready=".join-form input[name=name]"),
    Screen("rankings", "/rankings", ready="select[name=criterion] option"),
    Screen("card", "/t/{code}/card", fresh_dice_nobody_seated, ready=".card .table-code"),
    Screen("verify", "/t/{code}/verify", closed_dice, ready=".verdict[data-result=replaying], .verdict[data-result=ok]"),
    Screen("closed", "/t/{code}", closed_dice, ready=".lead", status=410),
    Screen("unknown-table", "/t/ZZZZ", ready="h1", status=404),
    host("closed-dice", closed_dice, ".seed code", (".table-code",), in_game=None),
    # The TV without host rights (/t/<code>/screen).
    Screen("dice-six-d20-display", "/t/{code}/screen", states.dice_six_d20_rolled, "display", ".history li",
           main=DICE_MAIN, in_game=True),
    Screen("rayman-turns-display", "/t/{code}/screen", states.rayman_turns, "display", ".rm-order-item",
           main=(".rm-status",), in_game=True),
    # Dice.
    host("dice-fresh", states.dice_fresh, ".die", DICE_MAIN),
    phone("dice-fresh", states.dice_fresh, "button.die", prompt=".die-hint", action=("button.die",)),
    host("dice-six-d20", states.dice_six_d20_rolled, ".history li", DICE_MAIN),
    phone("dice-six-d20", states.dice_six_d20_rolled, ".history li", prompt=".die-hint", action=("button.die",)),
    host("dice-long-faces", states.dice_long_faces_rolled, ".history li", DICE_MAIN),
    phone("dice-long-faces", states.dice_long_faces_rolled, ".history li", prompt=".die-hint"),
    # Arkade.
    host("arkade-roles", states.arkade_roles, ".ak-big", (".ak-big",)),
    phone("arkade-roles", states.arkade_roles, ".ak-roles", prompt=".ak-roles button", action=(".ak-roles button",)),
    host("arkade-ready", states.arkade_ready, ".arkade", (".ak-status",)),
    phone("arkade-ready", states.arkade_ready, ".ak-ready", prompt=".ak-ready button", action=(".ak-ready button",)),
    host("arkade-countdown", states.arkade_countdown, ".ak-countdown", (".ak-countdown",)),
    host("arkade-playing", states.arkade_playing, ".ak-side.defender .ak-die",
         (".ak-status", ".ak-die", ".ak-saucers td", ".ak-saucers th")),
    phone("arkade-claim", states.arkade_claim, ".ak-controls", prompt=".ak-status", action=(".ak-controls button",)),
    phone("arkade-playing", states.arkade_playing, ".ak-side.defender .ak-die", prompt=".ak-status",
          action=(".ak-side.mine .ak-die", ".ak-controls button")),
    host("arkade-over", states.arkade_over, ".ak-final", (".ak-final",)),
    host("arkade-over-crowded", states.arkade_over_crowded, ".ak-final", (".ak-final",)),
    phone("arkade-over", states.arkade_over, ".ak-final", prompt=".game-over"),
    # Rayman.
    host("rayman-characters", states.rayman_characters, ".rm-status", (".rm-status",)),
    phone("rayman-characters", states.rayman_characters, ".rm-status", prompt=".rm-status",
          action=(".rm-setup .rm-choices button",)),
    host("rayman-initiatives", states.rayman_initiatives, ".rm-initiatives", (".rm-status",)),
    phone("rayman-initiatives", states.rayman_initiatives, ".rm-initiative-form", prompt=".rm-status",
          action=(".rm-initiative-form input", ".rm-initiative-form button[type=submit]")),
    host("rayman-choosing", states.rayman_choosing, ".rm-locks", (".rm-status",)),
    phone("rayman-choosing", states.rayman_choosing, ".rm-locks", prompt=".rm-status", action=RAYMAN_CHOICE),
    phone("rayman-choosing-extras", states.rayman_choosing_extras, ".rm-card-button", prompt=".rm-status",
          action=RAYMAN_CHOICE),
    phone("rayman-roll", states.rayman_roll, ".rm-roll", prompt=".rm-status", action=(".rm-roll",)),
    host("rayman-turns", states.rayman_turns, ".rm-order-item", (".rm-status",)),
    phone("rayman-turns", states.rayman_turns, ".rm-your-turn", prompt=".rm-your-turn", action=(".rm-end-turn",)),
    host("rayman-question", states.rayman_question, ".rm-question-text", (".rm-question-text",)),
    phone("rayman-question", states.rayman_question, ".rm-status", prompt=".rm-status"),
    host("rayman-over", states.rayman_over, ".rm-result", (".rm-result .rm-big",)),
    phone("rayman-over", states.rayman_over, ".rm-result", prompt=".game-over"),
    # Amiiboxe.
    host("amiiboxe-registration", states.amiiboxe_registration, ".seats .figure-name", (".table-code",),
         in_game=False),
    phone("amiiboxe-registration", states.amiiboxe_registration, ".figure-area .figure-name", setup_gone=False),
    # (the lobby's figure area is below the table's own panel, as in amiiboxe-registration)
    phone("amiiboxe-adding-no-reader", states.amiiboxe_adding_without_reader, ".no-reader-note", setup_gone=False),
    host("amiiboxe-placement", states.amiiboxe_placement, ".ax-board", (".ax-setup h3",)),
    host("amiiboxe-hold", states.amiiboxe_hold, ".ax-hold", (".ax-hold .ax-status",)),
    phone("amiiboxe-hold", states.amiiboxe_hold, ".ax-hold", prompt=".ax-confirm", action=(".ax-confirm",)),
    phone("amiiboxe-placement", states.amiiboxe_placement, ".ax-setup", prompt=".ax-setup"),
    host("amiiboxe-turn", states.amiiboxe_turn, ".ax-status", (".ax-status",)),
    phone("amiiboxe-turn", states.amiiboxe_turn, ".ax-turn", prompt=".ax-status", action=(".ax-pick button",)),
    phone("amiiboxe-effects", states.amiiboxe_effects, ".ax-end", prompt=".ax-turn p", action=(".ax-end",)),
    phone("amiiboxe-judged", states.amiiboxe_judged, ".ax-answers", prompt=".ax-ask", action=(".ax-answers button",)),
    host("amiiboxe-fight", states.amiiboxe_fight, ".ax-fight", (".ax-fight-title", ".ax-criterion")),
    phone("amiiboxe-fight", states.amiiboxe_fight, ".ax-fight", prompt=".ax-answer, .ax-outcome"),
    host("amiiboxe-over", states.amiiboxe_over, ".ax-over", (".ax-over .ak-big",)),
    phone("amiiboxe-over", states.amiiboxe_over, ".ax-over", prompt=".game-over:not([hidden]), .ax-over"),
]
# Chakart and Mario Universalis: their first states; a phone that hosts the table.
SCREENS += [
    Screen("dice-host-phone", "/t/{code}", states.dice_host_phone, "host-phone", ".host-panel", prompt=".die-hint",
           setup_gone=True),
    # The host phone's figures (any seat's, the reader's waiting one) and a round waiting on a phone.
    Screen("amiiboxe-host-phone", "/t/{code}", states.amiiboxe_host_phone, "host-phone", ".host-panel .give-figure",
           setup_gone=False, opened=".host-add-figures > summary"),
    # A TV paired by the host's phone: the code it shows, and the page the phone opens by scanning it.
    Screen("display-pair", "/screen", ready=".pair-code:not(:empty)", who="tv-page", main=(".pair-code", ".pair-state")),
    Screen("pair", "/pair/{code}", states.tv_waiting_for_a_phone, ready=".pair-state"),
    # Rayman's host controls, opened on the phone: the captive Ptizêtres named by their colours.
    Screen("rayman-host-phone", "/t/{code}", states.rayman_host_phone, "host-phone", ".host-panel",
           setup_gone=True, opened=".host-game > summary"),  # tapped open: the page scrolls to it
    Screen("arkade-host-phone", "/t/{code}", states.arkade_host_phone, "host-phone", ".host-panel",
           prompt=".host-panel .seat.away", setup_gone=True),  # waiting on an away seat: the host's tools for it
    host("chakart-start", states.chakart_start, ".chakart-game", (".ck-prompt",)),
    phone("chakart-start", states.chakart_start, ".ck-board", prompt=".ck-prompt", action=(".ck-board",)),
    host("chakart-board", states.chakart_board, ".chakart-game", (".ck-prompt",)),
    phone("chakart-pass", states.chakart_pass, ".ck-board", prompt=".ck-prompt", action=(".ck-next button",)),
    phone("chakart-board", states.chakart_board, ".chakart-game", prompt=".ck-prompt", action=(".ck-done",)),
    host("universalis-start", states.universalis_start, ".universalis-game", (".uv-prompt",)),
    phone("universalis-start", states.universalis_start, ".universalis-game", prompt=".uv-prompt"),
    host("universalis-preparation", states.universalis_preparation, ".universalis-game", (".uv-prompt",)),
    phone("universalis-preparation", states.universalis_preparation, ".universalis-game", prompt=".uv-prompt"),
    host("universalis-attacked", states.universalis_attacked, ".universalis-game", (".uv-prompt",)),
    phone("universalis-attacked", states.universalis_attacked, ".universalis-game", prompt=".uv-prompt"),
]
# More steps that wait on one phone: its question and its choice in view on the first screen, the question
# not under the bar.
SCREENS += [
    phone("arkade-heart", states.arkade_heart, ".ak-controls .ak-choices", prompt=".ak-status",
          action=(".ak-controls .ak-choices button", ".ak-controls .ak-choices button.primary")),
    phone("rayman-legendary", states.rayman_legendary, ".rm-legendary", prompt=".rm-status",
          action=(".waiting .wait.mine", ".rm-legendary button")),
    phone("rayman-draft", states.rayman_draft, ".rm-draft-table button", prompt=".rm-status",
          action=(".waiting .wait.mine", ".rm-draft-table button")),
    phone("rayman-free-move", states.rayman_free_move, ".rm-free-move", prompt=".rm-free-move .rm-your-turn",
          action=(".rm-free-move .rm-your-turn", ".rm-free-move .next-action button")),
    phone("rayman-choosing-quick", states.rayman_choosing_quick, ".rm-quick", prompt=".rm-status",
          action=(".rm-quick input", ".rm-quick .number-pad button", ".rm-lock")),
    phone("rayman-offer", states.rayman_offer, ".rm-next", prompt=".rm-status",
          action=(".rm-warning", ".rm-next button")),
    phone("amiiboxe-values", states.amiiboxe_values, ".ax-answers", prompt=".ax-ask",
          action=(".ax-answers .ax-bar-criterion", ".ax-answers input", ".ax-answers button")),
    phone("amiiboxe-vote", states.amiiboxe_vote, ".ax-answers", prompt=".ax-ask", action=(".ax-answers .ax-bar-criterion", ".ax-answers button")),
    phone("chakart-promotion", states.chakart_promotion, ".ck-choices", prompt=".ck-prompt",
          action=(".ck-prompt", ".ck-choices button")),
    # An egg of King Boo: the pieces to tap (every one, none under the bar) and "Decline the bonus" together.
    phone("chakart-egg", states.chakart_egg, ".ck-next", prompt=".ck-prompt",
          action=(".ck-prompt", ".ck-next button"), every=(".ck-board .target",)),
    # Toadette's: the captured pieces to pick and "Decline the bonus"; once one is picked, every square it may
    # come back to (the lowest ranks too, which lay under the bar). Daisy's: the piece's squares at once.
    phone("chakart-toadette", states.chakart_toadette, ".ck-choices", prompt=".ck-prompt",
          action=(".ck-prompt", ".ck-choices button", ".ck-next > button")),
    phone("chakart-toadette-picked", states.chakart_toadette, ".ck-choices", prompt=".ck-prompt",
          taps=((".ck-choices button", ".ck-board .target"),),
          action=(".ck-prompt", ".ck-next > button"), every=(".ck-board .target",)),
    phone("chakart-daisy", states.chakart_daisy, ".ck-board .target", prompt=".ck-prompt",
          action=(".ck-prompt", ".ck-next button"), every=(".ck-board .target",)),
    # Mario's queen tapped, then an empty square she reaches: "move openly or in secret" opens in the bar.
    phone("chakart-stealth", states.chakart_stealth, ".ck-board", prompt=".ck-prompt",
          taps=((".ck-board [data-square=d1]", ".ck-board .stealth-target"),
                (".ck-board [data-square=d4]", ".ck-stealth-choice")),
          action=(".ck-stealth-choice p",), every=(".ck-stealth-choice button",)),
    # The distance past the finish line, counted on the board: typed on the number pad.
    phone("rayman-distance", states.rayman_distance, ".rm-distance", prompt=".rm-status",
          action=(".rm-distance input", ".rm-distance .number-pad", ".rm-distance button[type=submit]")),
]
CASES = [(screen, size) for screen in SCREENS for size in ("phone", "tv")] + [
    (screen, "laptop-fr") for screen in SCREENS if screen.who in ("host", "display")] + [
    (screen, "tv-fr") for screen in SCREENS if screen.who in ("host", "display", "tv-page")] + [
    (screen, "tvbars") for screen in SCREENS if screen.who in ("host", "display", "tv-page")] + [
    (screen, "phone-fr") for screen in SCREENS
    if screen.who in ("phone", "host-phone") or screen.name in ("phone-join-form", "pair")
    or screen.name.startswith("home")]
# The cases run as a test module per group of screens (tests/test_layout_<group>.py), each with its own server,
# browser and tables: pytest-xdist's workers share the modules out (--dist loadfile), where one module of them
# all set the suite's end. A screen is in the first group one of whose prefixes starts its name, else in "pages"
# (the pages without a game, and the dice).
GROUPS = {"rayman": ("rayman",), "amiiboxe": ("amiiboxe",), "arkade": ("arkade",), "boards": ("chakart", "universalis")}


def group_of(name: str) -> str:
    return next((group for group, prefixes in GROUPS.items() if name.startswith(prefixes)), "pages")


def cases_of(group: str) -> list[tuple[Screen, str]]:
    return [(screen, size) for screen, size in CASES if group_of(screen.name) == group]


# What axe checks of each game: its pages, and for each game the lobby or first state, a state of play and
# the end, on the host screen, the TV display and the phone concerned; at the sizes of ACCESSIBLE_SIZES.
ACCESSIBLE = {
    "home", "join", "join-bad-code", "phone-join-form", "rankings", "card", "verify", "closed", "unknown-table",
    "display-pair", "pair", "closed-dice-host", "dice-six-d20-display", "rayman-turns-display",
    "dice-fresh-host", "dice-fresh-phone", "dice-six-d20-phone", "dice-host-phone",
    "arkade-roles-host", "arkade-roles-phone", "arkade-playing-host", "arkade-playing-phone", "arkade-over-phone",
    "arkade-host-phone",
    "rayman-characters-host", "rayman-characters-phone", "rayman-choosing-phone", "rayman-turns-host",
    "rayman-turns-phone", "rayman-over-host", "rayman-host-phone",
    "amiiboxe-registration-host", "amiiboxe-registration-phone", "amiiboxe-turn-host", "amiiboxe-turn-phone",
    "amiiboxe-fight-phone", "amiiboxe-over-host", "amiiboxe-host-phone",
    "chakart-start-host", "chakart-start-phone", "chakart-board-phone",
    "universalis-start-host", "universalis-start-phone", "universalis-preparation-phone",
    # The steps that wait on one phone, with their bars and number pads.
    "arkade-heart-phone", "rayman-legendary-phone", "rayman-choosing-quick-phone", "rayman-offer-phone",
    "amiiboxe-vote-phone", "chakart-egg-phone", "chakart-toadette-phone", "rayman-distance-phone",
}
ACCESSIBLE_SIZES = ("phone", "tv")
# French is the other language of the table, and a laptop may be the host screen: a handful of each game's
# screens there too (a phone's own step, the host screen in play).
ACCESSIBLE_IN_FRENCH = {"home", "phone-join-form", "dice-fresh-phone", "arkade-playing-phone", "arkade-heart-phone",
                        "rayman-choosing-phone", "rayman-initiatives-phone", "amiiboxe-turn-phone",
                        "amiiboxe-values-phone", "chakart-start-phone", "universalis-start-phone"}
ACCESSIBLE_ON_A_LAPTOP = {"dice-fresh-host", "arkade-playing-host", "rayman-turns-host", "amiiboxe-turn-host",
                          "chakart-start-host", "universalis-start-host"}


def axe_checks(screen: Screen, size: str) -> bool:
    return (screen.name in ACCESSIBLE and size in ACCESSIBLE_SIZES
            or screen.name in ACCESSIBLE_IN_FRENCH and size == "phone-fr"
            or screen.name in ACCESSIBLE_ON_A_LAPTOP and size == "laptop-fr")
BLOCKING = ("serious", "critical")
RUN_AXE = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  });
  return result.violations.map((rule) => ({ id: rule.id, impact: rule.impact, help: rule.help,
    nodes: rule.nodes.map((node) => ({ target: node.target.join(' '), impact: node.impact,
                                        why: node.failureSummary })) }));
}"""


@functools.cache
def axe_source() -> str:
    """axe's script (650 KB), read once per module rather than once per case that runs it."""
    return AXE.read_text() + "\n;0"


def accessibility_violations(page: Page) -> list[str]:
    """axe's serious and critical violations of the page as it is now. axe is evaluated by the browser's
    debugging protocol, which the page's Content-Security-Policy does not stop (an inline <script> it does)."""
    page.evaluate(axe_source())
    return [f"{rule['id']} ({rule['impact']}): {rule['help']} at {[node['target'] for node in rule['nodes']][:6]}"
            f" ({rule['nodes'][0]['why']})" for rule in page.evaluate(RUN_AXE) if rule["impact"] in BLOCKING]


# Words of the Amiiboxe board's cells (a card's name, a figure's) that wrap across two lines. Checked on the
# TV only: a phone's 80 px cells cannot hold a long name whole at 16 px (its browser hyphenates it).
BROKEN_BOARD_WORDS = """() => [...document.querySelectorAll('.ax-cell .ax-card, .ax-cell .ax-token')].flatMap((node) => {
  const text = node.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  return [...text.data.matchAll(/\\S+/g)].filter((word) => {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
  }).map((word) => word[0]);
})"""


# A reader is configured but not plugged in (absent): the phones show what to do without one.
# Timed waits never settle by themselves (DEADLINE_TICK 0): each state is a snapshot that later cases
# open again, and on a slow machine a judged fight waiting on an absent seat would otherwise be
# decided by the clock before its French case opens it. A module per group starts one: on a loaded
# machine Python's imports alone take 30 s, hence the long start.
server = server_fixture("layout", {**states.FAST, "COMPANION_READER": "usb:ffff:fffe", "COMPANION_DEADLINE_TICK": "0"},
                        prepare=states.import_catalogue, timeout=60)


# The verify page's Python, asked for and never answered: the page stays where its own checks are shown and the
# replay line says it downloads Python. Its start (seconds of the machine's time, during which the page answers
# nothing) is for tests/test_verify_page_replay.py: here it held up the next case opened on the same page.
# Held by a route of the page only while it shows the verify page: while a page has a route, Playwright turns its
# browser cache off, and every case downloaded and compiled every script and style sheet again.
PYODIDE = "**/vendor/pyodide/pyodide.asm.wasm*"
HOLDING_PYODIDE: set = set()  # the pages whose route holds it now


def hold_pyodide(page: Page, hold: bool) -> None:
    """Routes Pyodide's download to nowhere on ``page`` (``hold``), or stops routing it."""
    if hold and page not in HOLDING_PYODIDE:
        page.route(PYODIDE, lambda route: None)
        HOLDING_PYODIDE.add(page)
    elif not hold and page in HOLDING_PYODIDE:
        page.unroute(PYODIDE)
        HOLDING_PYODIDE.discard(page)


@pytest.fixture(scope="module")
def pages(server):
    """One browser, one context and one page per size, for the whole module."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=TEST_CHROMIUM_ARGS)
        opened = {}
        for size, locale in LOCALES.items():
            options = SIZES[size.split("-")[0]]
            context = browser.new_context(locale=locale, reduced_motion="reduce", **options)
            page = context.new_page()
            page.goto(server.url + "/join")  # an origin for the keys put in local storage
            opened[size] = page
        yield opened
        browser.close()


@pytest.fixture(scope="module")
def tables(server):
    """Each state's table, built once (by the first case that needs it)."""
    built: dict = {}

    def table_for(build) -> states.Table:
        if build not in built:
            built[build] = build(server.url)
        return built[build]

    return table_for


def open_screen(page: Page, server: ServerProcess, screen: Screen, table: states.Table | None) -> None:
    code = table.code if table else ""
    if table and screen.who in ("host", "phone", "host-phone"):
        keys = {"host": [("host", table.host_token)], "phone": [("seat", table.tokens[table.phone])],
                "host-phone": [("host", table.host_token), ("seat", table.tokens[table.phone])]}[screen.who]
        for kind, token in keys:
            page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"companion.{kind}.{code}", token])
    verify_page = screen.path.endswith("/verify")
    if verify_page:
        hold_pyodide(page, True)
    response = page.goto(server.url + screen.path.format(code=code))
    if not verify_page:
        hold_pyodide(page, False)  # once the verify page is gone, with the download it held
    assert response.status == screen.status
    # A part drawn later (a lazily loaded panel) redraws the screen: measured before, it moves under the test.
    ready = [("attached", screen.ready), ("not busy", "body")]
    if screen.who in ("host", "phone", "host-phone", "display"):
        ready += [("attached", ".status[data-state=connected], .status[data-state=closed]"), ("not empty", ".game-area")]
    wait_until(page, ready)
    if screen.opened:
        page.locator(screen.opened).click()
    for tapped, shown in screen.taps:
        page.locator(tapped).first.click()
        expect(page.locator(shown).first).to_be_visible()
    if screen.game:
        page.locator("select[name=game]").select_option(screen.game)
        expect(page.locator(f'.game-options[data-game="{screen.game}"]')).to_be_visible()
    wait_until(page, [("images in view loaded", "")])


# Playwright's own script (a third of a megabyte) is evaluated into every new document, once for each world its
# locators and waits run in (its own, and the page's for wait_for_function and evaluate_all): a case opens a new
# document, and each of these evaluations cost about a sixth of a case's time, the browser's processes counted. So
# a case waits and reads through plain scripts of its own (page.evaluate needs none of Playwright's); only a case
# that taps or chooses something uses Playwright's locators, for their checks that the target can be acted on.
# Each wait is Playwright's assertion's meaning: "attached" (the selector's first match exists), "not busy" (no
# aria-busy="true"), "not empty" (one match, strictly, with text).
WAIT_UNTIL = """async ([conditions, timeout]) => {
  const imagesLoaded = %(images)s;
  const met = {
    'attached': (selector) => document.querySelector(selector) !== null,
    'not busy': (selector) => document.querySelector(selector)?.getAttribute('aria-busy') !== 'true',
    'not empty': (selector) => {
      const nodes = document.querySelectorAll(selector);
      if (nodes.length > 1) throw new Error(`${selector} matches ${nodes.length} elements`);
      return nodes.length === 1 && Boolean(nodes[0].textContent?.trim());
    },
    'images in view loaded': imagesLoaded,
  };
  const deadline = performance.now() + timeout;
  for (const [condition, selector] of conditions) {
    while (!met[condition](selector)) {
      if (performance.now() > deadline) return `${selector}: not ${condition} after ${timeout} ms`;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await document.fonts.ready;
  return '';
}"""
# Visible as Playwright's locators see it: drawn (checkVisibility), visibility "visible", a box of some size; an
# element that has no box of its own (display: contents) is visible when one of its children is.
VISIBLE = """(node) => {
  const style = getComputedStyle(node);
  if (style.display === 'contents') {
    return [...node.childNodes].some((child) => {
      if (child.nodeType === Node.ELEMENT_NODE) return visible(child);
      if (child.nodeType !== Node.TEXT_NODE) return false;
      const range = document.createRange();
      range.selectNode(child);
      const box = range.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
  }
  const box = node.getBoundingClientRect();
  return node.checkVisibility() && style.visibility === 'visible' && box.width > 0 && box.height > 0;
}"""
WAIT_UNTIL = WAIT_UNTIL % {"images": IMAGES_IN_VIEW_LOADED}


def wait_until(page: Page, conditions: list[tuple[str, str]]) -> None:
    """Waits until each condition holds in turn (WAIT_UNTIL), as long as Playwright's expect would, then for the
    page's fonts."""
    failed = page.evaluate(WAIT_UNTIL, [conditions, WAIT_MS])
    assert not failed, failed


# The box of the selector's first match (as Playwright's bounding_box: None when it has none, hidden by display).
BOX = """(selector) => {
  const node = document.querySelector(selector);
  if (!node || !node.getClientRects().length) return null;
  const box = node.getBoundingClientRect();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}"""
# What each selector's visible matches say (as Playwright's filter(visible=True).all_inner_texts()).
SHOWN_TEXTS = """(selector) => {
  const visible = %s;
  return [...document.querySelectorAll(selector)].filter(visible).map((node) => node.innerText);
}""" % VISIBLE
# The text of each match, and the font size of each match.
TEXTS = "(selector) => [...document.querySelectorAll(selector)].map((node) => node.textContent)"
FONT_SIZES = "(selector) => [...document.querySelectorAll(selector)].map((node) => parseFloat(getComputedStyle(node).fontSize))"


def layout_test(group: str):
    """The layout cases of one group's screens, as its module's ``test_layout``."""
    cases = cases_of(group)

    @pytest.mark.parametrize(("screen", "size"), cases, ids=[f"{screen.name}-{size}" for screen, size in cases])
    def test_layout(server, pages, tables, screen: Screen, size: str):
        check_layout(server, pages, tables, screen, size)

    return test_layout


def check_layout(server, pages, tables, screen: Screen, size: str) -> None:
    page = pages[size]
    table = tables(screen.build) if screen.build else None
    open_screen(page, server, screen, table)
    tv_host = size.split("-")[0] in TV_SIZES and screen.who in ("host", "display", "tv-page")
    big_host = size.split("-")[0] in (*TV_SIZES, "laptop") and screen.who in ("host", "display")
    viewport = SIZES[size.split("-")[0]]["viewport"]
    # The whole page fits the TV's height: with less of it (toolbars), everything is smaller in proportion.
    main_text = TV_MAIN_TEXT * min(1, viewport["height"] / 1080)
    found = page.evaluate(CHECK, {"minText": MIN_TEXT, "mainSelectors": list(screen.main) if tv_host else [],
                                  "mainText": main_text, "tv": tv_host, "bigHost": big_host})
    problems = {key: found[key] for key in ("sideways", "small", "overlaps", "cut", "covered", "tooSmallText", "main",
                                            "scrolled", "panels", "bar")
                if found[key]}
    if tv_host and found["height"] > found["viewportHeight"]:
        problems["height"] = f"{found['height']}px tall in {found['viewportHeight']}px"
    if screen.prompt and size.startswith("phone"):
        box = page.evaluate(BOX, screen.prompt)
        if box is None or box["y"] < 0 or box["y"] + min(box["height"], 48) > viewport["height"]:
            problems["prompt"] = f"{screen.prompt} is not on the first screen: {box}"
    if (screen.action or screen.every) and size.startswith("phone"):
        problems.update(out_of_view(page, screen.action, viewport))
        problems.update(out_of_view(page, screen.every, viewport, every=True))
    if screen.who in ("phone", "host-phone") and screen.setup_gone:
        shown = page.evaluate(SHOWN_TEXTS, SETUP_CONTROLS)
        if shown:
            problems["setup controls during the game"] = shown
    if tv_host:  # an away seat is plain from across the room
        away = page.evaluate(FONT_SIZES, ".seat.away .presence")
        if any(size < main_text for size in away):
            problems["away seats"] = away
    if big_host and screen.in_game is not None:
        problems.update(lobby_or_game(page, screen.in_game, viewport))
    if screen.who == "host" and screen.in_game is False and size == "tv":
        # The seats' phones never connected: away in the lobby, a seat is removed, never handed on.
        wait_until(page, [("attached", ".seats li.away")])
        hand_offs = page.evaluate("(selector) => document.querySelectorAll(selector).length", ".seats .hand-seat")
        if hand_offs:
            problems["a hand-off offered in the lobby"] = hand_offs
    options = page.evaluate(TEXTS, ".table-options dd")
    if any(not value or "_" in value for value in options):  # the lobby names each option's value
        problems["option values shown as stored"] = options
    if options and size.endswith("-fr") and screen.name.startswith("amiiboxe") and "L’exemple du livret" not in options:
        problems["option values not in French"] = options
    plain = page.evaluate(PLAIN_FOLDS)
    if plain:  # "Correct the counters" read as a heading: nothing said that it opens
        problems["folds that do not show they open"] = plain
    bare = page.evaluate(BARE_HEADINGS)
    if bare:
        problems["a heading over nothing"] = bare
    broken = page.evaluate(BROKEN_BOARD_WORDS) if tv_host else []
    if broken:  # "Pikach/u" on the TV: read from across the room, a name must stay whole
        problems["board names broken mid-word"] = broken
    violations = accessibility_violations(page) if axe_checks(screen, size) else []
    if violations:  # checked last: axe's script stays in the page
        problems["accessibility"] = violations
    if problems or EVERY_SCREENSHOT:  # a whole page's picture costs a fifth of a second of the browser's time
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"{screen.name}-{size}.png", full_page=True)
    page.evaluate(STOP_TIMERS)
    assert problems == {}, f"{screen.name} at {size}: {problems}"


# Measured, a case's page waits for its size's next case, which opens a new document. Meanwhile its timers would
# redraw it (the waiting lines each second, Arkade's clock twice a second and its countdown ten times): each redraw
# a frame of up to 1920 x 1080 painted in software. The six pages idle at about a fifth of a core together, a
# sixth of a layout module's time. A timer's id is a small number counted up per document: every id up to a new
# one's is cleared.
STOP_TIMERS = """() => {
  const last = setTimeout(() => {}, 0);
  for (let id = 1; id <= last; id += 1) { clearTimeout(id); clearInterval(id); }
}"""


# A fold's title (a <details>' summary) without its chevron, or too low to tap.
PLAIN_FOLDS = """() => [...document.querySelectorAll('summary')].filter((node) => node.checkVisibility()).filter((node) => {
  const marker = getComputedStyle(node, '::before');
  return marker.content === 'none' || parseFloat(marker.width) < 4 || node.getBoundingClientRect().height < 43.5;
}).map((node) => node.textContent.trim())"""


# A game's heading followed only by an empty list (Amiiboxe's "Fights" before the first fight).
BARE_HEADINGS = """() => [...document.querySelectorAll('.game-area h2, .game-area h3')].filter((heading) => {
  const next = heading.nextElementSibling;
  return heading.offsetParent !== null && next && next.matches('ol, ul') && !next.children.length
    && !next.nextElementSibling;
}).map((heading) => heading.textContent)"""


def out_of_view(page: Page, selectors: tuple[str, ...], viewport: dict, every: bool = False) -> dict:
    """Each selector's first visible match (``every``: each one) lies wholly inside the viewport, under no bar.
    The page is as it opened: it may have scrolled itself (a board brought up above the bar), never the test,
    and the line that says what to do is still on the first screen (the prompt's check). Found and measured in
    one step: a screen redraws its waiting lines each second, which replaces their nodes."""
    outside = {}
    for selector in selectors:
        problems = page.evaluate(OUT_OF_VIEW, [selector, viewport["width"], viewport["height"], every])
        if problems:
            outside[selector] = problems
    return {"every choice in view" if every else "next action out of view": outside} if outside else {}


# What is wrong with the first visible match of the selector (``every``: with each one): not shown, out of
# the viewport, or not on top (what a tap at its middle reaches is not itself but a bar fixed over it).
OUT_OF_VIEW = """([selector, width, height, every]) => {
  const shown = (node) => node.checkVisibility({ visibilityProperty: true })
    && node.getBoundingClientRect().width > 0 && node.getBoundingClientRect().height > 0;
  const nodes = [...document.querySelectorAll(selector)].filter(shown);
  if (!nodes.length) return ['not shown'];
  const problem = (node) => {
    const box = node.getBoundingClientRect();
    if (box.x < -1 || box.y < -1 || box.right > width + 1 || box.bottom > height + 1) {
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    }
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    if (hit && (node.contains(hit) || hit.contains(node))) return null;
    return `under ${hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nothing'}`;
  };
  return (every ? nodes : nodes.slice(0, 1)).map(problem).filter((found) => found !== null);
}"""


def lobby_or_game(page: Page, in_game: bool, viewport: dict) -> dict:
    """The host screen's QR code: big with the commitment in the lobby; small in a corner in a game."""
    qr = page.evaluate(BOX, "img.qr")
    commitment = len(page.evaluate(SHOWN_TEXTS, ".join-panel .commitment"))
    if not in_game:
        return {} if qr and qr["width"] >= QR_IN_LOBBY and commitment else {
            "lobby": f"the QR code is {qr} and the commitment {'shown' if commitment else 'hidden'}"}
    in_corner = qr and (qr["x"] < viewport["width"] * 0.2 or qr["x"] + qr["width"] > viewport["width"] * 0.8) and (
        qr["y"] < viewport["height"] * 0.2 or qr["y"] + qr["height"] > viewport["height"] * 0.8)
    return {} if qr and qr["width"] <= QR_IN_GAME and in_corner and not commitment else {
        "game": f"the QR code is {qr} and the commitment {'shown' if commitment else 'hidden'}"}


def phone_screen(name: str) -> Screen:
    return next(screen for screen in SCREENS if screen.name == name)


def table_as(table: states.Table, name: str) -> states.Table:
    """The same table, seen from ``name``'s phone."""
    return states.Table(table.url, table.code, table.host_token, table.tokens, table.seats, name)


# A seat's colour swatch, wherever the screens show one: its seat's name is written beside it.
UNNAMED_SWATCHES = """() => [...document.querySelectorAll('.swatch')].filter((swatch) => swatch.offsetParent !== null)
  .filter((swatch) => !/\\p{L}/u.test(swatch.parentElement.textContent))
  .map((swatch) => swatch.parentElement.outerHTML.slice(0, 200))"""
NAMED_SCREENS = ("dice-six-d20-display", "rayman-turns-host", "amiiboxe-over-host", "universalis-start-host")


def named_swatches_test(group: str):
    """The screens of NAMED_SCREENS in ``group``, as its module's test (on the tables its layout cases built)."""

    @pytest.mark.parametrize("name", [name for name in NAMED_SCREENS if group_of(name) == group])
    def test_colour_is_never_the_only_way_a_seat_is_told_apart(server, pages, tables, name):
        page, screen = pages["tv"], phone_screen(name)
        open_screen(page, server, screen, tables(screen.build))
        assert page.locator(".swatch").count() > 0
        assert page.evaluate(UNNAMED_SWATCHES) == []

    return test_colour_is_never_the_only_way_a_seat_is_told_apart


