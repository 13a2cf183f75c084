"""Taps per typical turn of each game, played on the phones' own screens, and each phone page's height.

    .venv/bin/python -m bench.taps [--root CHECKOUT] [GAME ...]

Each game's table is brought through the JSON API to the start of a typical turn (tests/layout_states.py),
then the phones whose turn it is play it in headless Chromium at 360 x 640 (touch, English) on the real
server, by tapping what their screens show. Counted per turn:

* taps: each tap on a control, and each key pressed on the phone's keyboard (a number typed on the
  screen's own number pad counts a tap per key instead);
* scrolls: each time the next thing to tap was not wholly on the screen (below the fold, or under a bar
  fixed over it), so that the player had to scroll to it first;
* the page's height (CSS px) when the turn starts, as the phone opens it.

A typical turn, from the rule books (../shared/rules/):

* Dice: a roll of the table's dice (one d6 here): the die is tapped.
* Chakart: the player moves a pawn two squares forward (tap the pawn, tap the square), then tells the
  companion the board is set as listed ("Board done", when the move changed something).
* Arkade (Stratégie, the Defender's turn): throw the dice, move the ship by the white die, shoot the
  saucer of the coloured die when it is in reach, end the turn.
* Rayman (Novice, a player who keeps no position on the phone, the first round): the secret choice of
  two cards (left, then second) and Lock in; then the two new cards' initiatives read and typed; then,
  the figure moved on the board by hand, End my turn.
* Amiiboxe (three figures each, the figures on the table): pick the figure, say it moved on the table,
  and end the turn if the screen still asks for it.
* Mario Universalis (a duel, the second global turn, each player with a Character in play): the
  player attacks with every Character, the defender lets them pass (confirms no blocks), and the player
  goes through the phases to the end of the turn. Both phones' taps are counted.

Before and after issue 28: "before" is the head of main when the issue was filed, 5f943a8 (the commit just
before 96d950b, the bottom action bar). Its files, served by this script against that checkout:

    git archive 5f943a8 | tar -x -C /tmp/before
    ln -s $PWD/.venv $PWD/node_modules /tmp/before/ && cp -rL static/vendor /tmp/before/static/
    .venv/bin/python -m bench.taps --root /tmp/before

The states' builders (this checkout's tests/layout_states.py) talk to the server through the JSON API only,
which the two commits share for these steps; the phone's controls are found by their role and name,
which were the same then, except where the screen itself changed (Rayman's cards in two rows of eight,
then one grid; Universalis's attackers ticked one by one, then "Attack with all"): both are handled."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page, sync_playwright

from tests import layout_states as states
from tests.helpers import IMAGES_IN_VIEW_LOADED
from tests.server import ROOT, ServerProcess
from tests.test_arkade_server import StrategiePlayer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.test_rayman_server import Racer, hand_of, host_answer

VIEWPORT = {"width": 360, "height": 640}
SETTLE = 3.0  # seconds an action may take to reach the server's view (a bench on a loaded machine)
STEPS = 40  # taps at most in a turn before the script gives up

# Where a tap at the middle of the box lands: on the control itself, not on a bar fixed over it.
REACHABLE = """(node) => { const box = node.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight + 1 || box.right > innerWidth + 1) return false;
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return Boolean(hit) && (node.contains(hit) || hit.contains(node)); }"""


@dataclass
class Phone:
    """One player's phone: a page of its own, and what it took to play."""

    name: str
    page: Page
    taps: int = 0
    scrolls: int = 0
    height: int = 0
    trace: list[str] = field(default_factory=list)  # what was tapped, "(scrolled)" when it was out of view

    def open(self, table: states.Table) -> None:
        self.page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                           [f"companion.seat.{table.code}", table.tokens[self.name]])
        self.page.goto(f"{table.url}/t/{table.code}")
        self.page.locator(".status[data-state=connected]").wait_for(state="attached")
        self.page.locator(".game-area > *").first.wait_for(state="attached")
        self.page.wait_for_function(IMAGES_IN_VIEW_LOADED)
        self.height = self.page.evaluate("() => document.documentElement.scrollHeight")

    def tap(self, control: Locator) -> None:
        """A tap on ``control``, scrolled to first when it was not wholly on the screen."""
        control.wait_for(state="visible")
        label = control.evaluate("(node) => (node.getAttribute('aria-label') || node.closest('label')?.textContent"
                                 " || node.textContent).trim().slice(0, 30)")
        if not control.evaluate(REACHABLE):
            self.scrolls += 1
            label += " (scrolled)"
            control.evaluate("(node) => node.scrollIntoView({block: 'center'})")
        control.tap()
        self.taps += 1
        self.trace.append(label)

    def type_number(self, form: Locator, number: int) -> None:
        """A number into the form's field: on its number pad when it has one (its own, or the one the bar shares
        between fields, which fills the field asked first), else on the phone's keyboard."""
        pad = form.locator(".number-pad")
        if not pad.count():
            pad = self.page.locator(".number-pad").filter(visible=True).first
        if pad.count():
            for digit in str(number):
                self.tap(pad.get_by_role("button", name=digit, exact=True))
            return
        self.tap(form.locator("input").first)
        self.page.keyboard.type(str(number))
        self.taps += len(str(number))
        self.trace.append(f"keys {number}")


def shown(page: Page, role: str, name) -> Locator | None:
    """The first visible, enabled control of that role and name, if the screen shows one."""
    found = page.get_by_role(role, name=name).filter(visible=True)
    for index in range(found.count()):
        if found.nth(index).is_enabled():
            return found.nth(index)
    return None


def settle(table: states.Table, before: str) -> None:
    """Until the table's view changed (the tap sent an action) or the time a render takes (it did not)."""
    deadline = time.monotonic() + SETTLE
    while time.monotonic() < deadline and json.dumps(table.game()) == before:
        time.sleep(0.1)  # a bench polls the server; the tests never do
    time.sleep(0.3)  # the phone draws the new view


def tapped(phone: Phone, table: states.Table, control: Locator) -> None:
    before = json.dumps(table.game())
    phone.tap(control)
    settle(table, before)


# --- each game's typical turn ---------------------------------------------------------------------

def dice(url: str, phones) -> list[Phone]:
    table = states.Table.create(url, "dice", {"die": "d6"}, ("Ana", "Bo"))
    ana = phones(table, "Ana")
    tapped(ana, table, ana.page.locator("button.die"))
    assert len(table.game()["history"]) == 1, table.game()["history"]
    return [ana]


def chakart(url: str, phones) -> list[Phone]:
    table = states.chakart_start(url)
    mover = phones(table, table.phone)
    colour = table.game(table.phone)["you"]
    start, end = ("e2", "e4") if colour == "w" else ("e7", "e5")
    for square in (start, end):
        tapped(mover, table, mover.page.locator(f".ck-board [data-square={square}]"))
    for _ in range(STEPS):
        game = table.game()
        if game["turn"] != colour:
            return [mover]
        control = shown(mover.page, "button", "Board done") or shown(mover.page, "button", "Decline the bonus")
        assert control, f"Chakart: nothing to tap in {game['phase']}"
        tapped(mover, table, control)
    raise AssertionError("Chakart: the turn never ended")


def arkade(url: str, phones) -> list[Phone]:
    table = states.arkade_roles(url)
    table.act("Zoé", {"type": "choose_role", "role": states.arkade.ALIEN})
    defender = states.arkade.DEFENDER
    states.play_arkade(table, lambda game: game["active"] == defender and not game["dice"][defender]
                       and not game["pending"])
    max_ = phones(table, "Max")
    page = max_.page
    once = [("button", "Throw the dice"), ("button", re.compile(r"^Move the ship")),
            ("button", re.compile(r"saucer hit"))]
    for _ in range(STEPS):
        game = table.game()
        if game["active"] != defender:
            return [max_]
        control = next((found for role, name in once if (found := shown(page, role, name))), None)
        if control is None:
            control = shown(page, "button", "End my turn")
        else:
            once = [(role, name) for role, name in once if not shown(page, role, name) or
                    shown(page, role, name).text_content() != control.text_content()]
        assert control, "Arkade: nothing to tap"
        tapped(max_, table, control)
    raise AssertionError("Arkade: the turn never ended")


def rayman(url: str, phones) -> list[Phone]:
    table = states.rayman_named(url)
    ana, ben = table.seats["Ana"], table.seats["Ben"]
    others = {"Ana": Racer(ana, keeps_position=False)}
    states.race_until(table, lambda game, players: game["phase"] == "choosing", others)
    phone = phones(table, "Ben")
    page = phone.page
    for _ in range(STEPS):
        game, mine = table.game(), table.game("Ben")
        kinds = {action["type"] for action in mine["legal"]}
        if "lock" in kinds:
            cards = page.locator(".rm-card-button").filter(visible=True)
            if cards.count() >= 16:  # before: a row of eight for the left card, another for the second
                picks = (page.locator(".rm-cards").nth(0).locator(".rm-card-button").nth(0),
                         page.locator(".rm-cards").nth(1).locator(".rm-card-button").nth(1))
            else:  # one grid: the first tap the left card, the next the second
                picks = (cards.first, cards.first)
            for card in picks:
                phone.tap(card)
            tapped(phone, table, page.locator(".rm-lock"))
        elif "initiative" in kinds:
            form = page.locator(".rm-initiative-form").filter(visible=True).first
            asked = next(a for a in game["round"]["asking"] if a["seat"] == ben)
            phone.type_number(form, hand_of(mine, ben)[asked["card"]])
            tapped(phone, table, form.get_by_role("button", name="Save"))
        elif game["phase"] == "turns" and game["active"] == ben:
            tapped(phone, table, page.get_by_role("button", name="End my turn"))
            return [phone]
        elif not others_act(table, others):
            time.sleep(0.2)  # Ben's phone opens its choice by itself
    raise AssertionError("Rayman: Ben's turn never came")


def others_act(table: states.Table, racers: dict) -> bool:
    """One step of the players the script plays through the API, or of the host screen."""
    game = table.game()
    for name, racer in racers.items():
        view = table.game(name)
        action = racer.move(view, view["legal"])
        if action:
            table.rayman(name, action)
            return True
    if game["question"]:
        table.act("host", host_answer(game))
        return True
    if game["phase"] == "round_start":
        table.act("host", {"type": "roll"})
        return True
    return False


def amiiboxe(url: str, phones) -> list[Phone]:
    table = states.amiiboxe_turn(url)
    ana = phones(table, "Ana")
    page = ana.page
    phone_turn = table.seats["Ana"]
    ana.tap(page.locator(".ax-pick button").filter(visible=True).first)
    tapped(ana, table, page.get_by_role("button", name=re.compile(r"moves \(on the table\)")))
    for _ in range(STEPS):
        if table.game()["active"] != phone_turn:
            return [ana]
        control = shown(page, "button", "End the turn")
        assert control, "Amiiboxe: nothing to tap"
        tapped(ana, table, control)
    raise AssertionError("Amiiboxe: the turn never ended")


UNIVERSALIS_CARD = {"kind": "character", "name": "Goomba", "cost": 0, "pf": 1, "pc": 9}


def universalis(url: str, phones) -> list[Phone]:
    table = states.Table.create(url, "universalis", {}, ("Ana", "Bo"))
    table.start()
    first = table.game()["active"]
    for _ in range(2):  # the first global turn: each plays a Character and ends the turn
        name = table.name_of(table.game()["active"])
        while table.game()["phase"] != "prep1":  # before: the start, refill and draw were a tap each
            table.act(name, {"type": "next"})
        table.act(name, {"type": "play", "card": {**UNIVERSALIS_CARD, "name": f"Goomba {name}"}})
        while table.game()["active"] == table.seats[name]:
            kinds = [action["type"] for action in table.game(name)["legal"]]
            table.act(name, {"type": "end_turn" if "end_turn" in kinds else "next"})
    attacker = phones(table, table.name_of(first))
    defender = phones(table, next(name for name in table.seats if table.seats[name] != first))
    by_page = [
        ("button", re.compile(r"^Attack with all")), ("checkbox", None), ("button", "Attack!"),
        ("button", "Confirm the blocks"), ("button", "Deal the damage"), ("button", "End my turn"),
        ("button", re.compile(r"^Next phase")),
    ]
    for _ in range(STEPS):
        game = table.game()
        if game["active"] != first:
            return [attacker, defender]
        for phone in (attacker, defender):
            control = next((found for role, name in by_page if (found := unchecked(phone.page, role, name))), None)
            if control and table.game(phone.name)["legal"]:
                tapped(phone, table, control)
                break
        else:
            raise AssertionError(f"Universalis: nothing to tap in {game['phase']}")
    raise AssertionError("Universalis: the turn never ended")


def unchecked(page: Page, role: str, name):
    """A control to tap; for a checkbox (an attacker to tick), one not ticked yet."""
    if role != "checkbox":
        return shown(page, role, name)
    boxes = page.locator(".uv-combat input[type=checkbox]:not(:checked)").filter(visible=True)
    return boxes.first if boxes.count() else None


GAMES = {"dice": dice, "chakart": chakart, "arkade": arkade, "rayman": rayman, "amiiboxe": amiiboxe,
         "universalis": universalis}


def serve(root: Path, workdir: Path) -> ServerProcess:
    """The server of ``root``'s checkout, its Amiiboxe catalogue written by that checkout's own store."""
    server = ServerProcess(workdir, extra_env=states.FAST, root=root)
    importer = ("import json, sys\nfrom companion.store import Store\nfrom companion.amiibo.catalog import Catalog\n"
                "store = Store(sys.argv[1]); Catalog(store).import_document(json.load(sys.stdin)); store.close()")
    subprocess.run([sys.executable, "-c", importer, str(server.database)], input=json.dumps(states.CATALOGUE),
                   text=True, cwd=root, check=True)
    return server.start()


def measure(root: Path, games: list[str]) -> dict:
    results = {}
    with tempfile.TemporaryDirectory() as workdir, sync_playwright() as playwright:
        server = serve(root, Path(workdir))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for game in games:
                contexts = []

                def phones(table: states.Table, name: str) -> Phone:
                    context = browser.new_context(locale="en-US", viewport=VIEWPORT, is_mobile=True, has_touch=True,
                                                  reduced_motion="reduce")
                    contexts.append(context)
                    page = context.new_page()
                    page.goto(server.url + "/join")  # an origin for the seat's key
                    phone = Phone(name, page)
                    phone.open(table)
                    return phone

                played = GAMES[game](server.url, phones)
                results[game] = [{"phone": p.name, "taps": p.taps, "scrolls": p.scrolls, "height": p.height,
                                  "trace": p.trace}
                                 for p in played]
                for context in contexts:
                    context.close()
        finally:
            browser.close()
            server.stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--trace", action="store_true", help="list each phone's taps")
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"among {', '.join(GAMES)} (default: all)")
    arguments = parser.parse_args()
    unknown = set(arguments.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    results = measure(arguments.root.resolve(), arguments.games or list(GAMES))
    print(f"{'game':12} {'phone':6} {'taps':>5} {'scrolls':>8} {'page height':>12}")
    for game, played in results.items():
        for phone in played:
            print(f"{game:12} {phone['phone']:6} {phone['taps']:5} {phone['scrolls']:8} {phone['height']:9} px")
            if arguments.trace:
                print(f"{'':20}{' | '.join(phone['trace'])}")


if __name__ == "__main__":
    main()
