"""How tall each game's phone page is while playing, and where its next action lies, at 360 x 640 in French.

    .venv/bin/python -m bench.phone_pages [SHOTS_DIR]

Builds each state of tests/layout_states.py on a real server, opens the waited-on phone in Chromium and
prints the page's height and the box of the phone's next action (``.next-action``, or the selector given
for a state whose screen has none). A screenshot of each is saved in SHOTS_DIR when given."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests import layout_states as states
from tests.helpers import IMAGES_IN_VIEW_LOADED
from tests.server import ServerProcess
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS

# (name, builder, what the phone taps next when the screen marks nothing)
STATES = [
    ("dice", states.dice_six_d20_rolled, "button.die"),
    ("arkade-roles", states.arkade_roles, ".ak-roles button"),
    ("arkade-playing", states.arkade_playing, ".ak-side.defender .ak-die"),
    ("chakart-move", states.chakart_start, ".ck-board .legal, .ck-board"),
    ("chakart-board", states.chakart_board, ".ck-done"),
    ("rayman-initiatives", states.rayman_initiatives, ".rm-initiative-form button[type=submit]"),
    ("rayman-choosing", states.rayman_choosing, ".rm-lock"),
    ("rayman-turns", states.rayman_turns, ".rm-your-turn button"),
    ("amiiboxe-turn", states.amiiboxe_turn, ".ax-turn button"),
    ("amiiboxe-fight", states.amiiboxe_fight, ".ax-answer"),
    ("amiiboxe-judged", states.amiiboxe_judged, ".ax-answer button"),
]


def main(shots: Path | None) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        server = ServerProcess(Path(workdir), extra_env=states.FAST)
        states.import_catalogue(server.database)
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(locale="fr-FR", viewport={"width": 360, "height": 640},
                                              is_mobile=True, has_touch=True, reduced_motion="reduce")
                page = context.new_page()
                page.goto(server.url + "/join")
                for name, build, fallback in STATES:
                    table = build(server.url)
                    page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                                  [f"companion.seat.{table.code}", table.tokens[table.phone]])
                    page.goto(f"{server.url}/t/{table.code}")
                    page.locator(".status[data-state=connected]").wait_for(state="attached")
                    page.locator(".game-area > *").first.wait_for(state="attached")
                    page.wait_for_function(IMAGES_IN_VIEW_LOADED)
                    action = page.locator(".game-area .next-action").filter(visible=True)
                    if not action.count():
                        action = page.locator(fallback).filter(visible=True)
                    box = action.first.bounding_box() if action.count() else None
                    height = page.evaluate("() => document.documentElement.scrollHeight")
                    where = f"{round(box['y'])}–{round(box['y'] + box['height'])} px" if box else "none"
                    print(f"{name:20} page {height:5} px  action {where}")
                    if shots:
                        page.screenshot(path=shots / f"{name}.png")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    if target:
        target.mkdir(parents=True, exist_ok=True)
    main(target)
