"""The verify page replays the game with the game's own Python rules, in the browser (Pyodide, served
by our server): a finished Rayman round and a Chakart game verify fully on the page, "replayed"; a
log whose changed move is still consistent with its draws and events (the JS checks pass it) is
reported by the page at the move's entry, in French on a French phone; a browser without WebAssembly
says the replay failed and that the log is not verified, as does a page whose rules zip is withheld or
whose Python is broken; the page's hash of the rules it ran is the
CLI's ``--rules-hash``. Two phones (English, French) serve the whole module: Python loads once per page,
its files from the browser's cache after the first page; a random walk of each game replays in one verify page's
Python, started once (each start takes seconds), by the page's own replay module."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from companion import rules_bundle
from companion.verify import page_report
from companion.web.pages import module_graph
from scripts.pyodide_modules import FROM_THE_ZIP, by_source
from scripts.pyodide_stdlib import listed
from tests.screen import WAIT
from tests.server import ROOT, ServerProcess, server_fixture
from tests.test_browser import PHONE, Watched, browser  # noqa: F401  (the Chromium fixture)
from tests.test_chakart_draws import played  # noqa: F401  (a closed Chakart table, on this module's server)
from tests.test_rayman_server import FAST
from tests.random_play import CONFIGS
from tests.test_rayman_verify import action_edited, served_coop_round
from tests.test_replay import logged_walk

REPLAYED = "Replayed with the game's own rules (Python, in this browser): the same events and the same final state."
# Every file of the first load: the log and what the page and Python fetched, compressed or not.
LOADED = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .map((entry) => ({ name: entry.name, transfer: entry.transferSize }))"""
# Up to 4 of 4: the last file in, the line stays while Python starts, until the replay begins.
DOWNLOADING_IN_FRENCH = re.compile("Téléchargement de Python et des règles du jeu\u00a0: [0-4] fichiers sur 4…")
# When each file was asked for (ms since navigation), by its name.
ASKED = """() => Object.fromEntries(performance.getEntriesByType('resource')
  .map((entry) => [new URL(entry.name).pathname.split('/').pop(), entry.fetchStart]))"""
# How the interpreter's WebAssembly was compiled: as it arrived (instantiateStreaming) or once whole (from its
# bytes: Pyodide also instantiates a module of its own of a few bytes that way, not counted).
COUNT_WASM_INSTANTIATIONS = """
window.__wasm = { streaming: 0, whole: 0 };
const streaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = function (...args) { window.__wasm.streaming += 1; return streaming.apply(this, args); };
const whole = WebAssembly.instantiate;
WebAssembly.instantiate = function (...args) {
  if ((args[0]?.byteLength ?? 0) > 1000000) window.__wasm.whole += 1;
  return whole.apply(this, args);
};
"""
# Python starting takes seconds on a small machine.
REPLAY_WAIT = 120_000
# Each change of the verify page's verdict and replay line, with the page's clock (ms since navigation):
# [ms, verdict's data-result, replay's data-progress, replay's data-result, replay's line]. Also read by
# bench/verify_page.py, which times them.
TIMELINE = """
window.__timeline = [];
new MutationObserver(() => {
  const verdict = document.querySelector('.verdict');
  const replay = document.querySelector('.replay');
  if (!verdict || !replay) return;
  const now = [verdict.dataset.result || '', replay.dataset.progress || '', replay.dataset.result || '',
    replay.querySelector('.replay-state').textContent];
  const last = window.__timeline.at(-1);
  if (!last || now.some((value, i) => value !== last[i + 1])) window.__timeline.push([Math.round(performance.now()), ...now]);
}).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
"""


server = server_fixture("verify-replay", FAST)


@pytest.fixture(scope="module")
def rayman_log(server) -> dict:
    return served_coop_round(server)


@pytest.fixture(scope="module")
def phones(browser, server):  # noqa: F811
    """An English phone and a French one, each keeping its browser cache for the module."""
    contexts = {language: browser.new_context(locale=locale, **PHONE)
                for language, locale in (("en", "en-US"), ("fr", "fr-FR"))}
    yield {language: Watched(context, server) for language, context in contexts.items()}
    for context in contexts.values():
        context.close()


def replayed_page(phone: Watched, server: ServerProcess, code: str, result: str):
    page = phone.new_page()
    page.goto(f"{server.url}/t/{code}/verify")
    expect(page.locator(f".replay[data-result={result}]")).to_be_visible(timeout=REPLAY_WAIT)
    return page


def cli_rules_hash() -> str:
    run = subprocess.run([sys.executable, "-m", "companion.verify", "--rules-hash"], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_finished_rayman_round_is_replayed_on_the_page_with_the_rules_the_cli_hashes(server, rayman_log, phones):
    started = time.monotonic()
    page = replayed_page(phones["en"], server, rayman_log["code"], "ok")
    waited = time.monotonic() - started  # a figure for the report, never asserted
    expect(page.locator(".verdict")).to_have_attribute("data-result", "ok")
    expect(page.locator(".replay-state")).to_have_text(REPLAYED)
    actions = sum(1 for entry in rayman_log["entries"] if entry["kind"] == "action")
    expect(page.locator(".replay-notes")).to_contain_text(f"the game was replayed from its {actions} logged actions")
    expect(page.locator(".replay-problems")).to_be_hidden()
    shown = page.locator(".rules-hash").get_attribute("data-hash")
    assert shown == cli_rules_hash()
    expect(page.locator(".rules-hash")).to_contain_text(shown)
    loaded = page.evaluate(LOADED)
    print(f"first load of the verify page, Python included: {sum(entry['transfer'] for entry in loaded)} bytes "
          f"in {len(loaded)} requests; Rayman ({actions} actions) replayed in "
          f"{page.locator('.replay').get_attribute('data-milliseconds')} ms; verdict shown {waited:.1f} s after "
          "the page was asked for")
    assert any("/static/vendor/pyodide/pyodide.asm.wasm" in entry["name"] for entry in loaded)
    phones["en"].assert_clean()  # nothing but our server was asked: no package, no CDN


def test_the_pages_own_checks_show_first_and_the_replay_says_what_it_loads_in_french(browser, server, rayman_log):  # noqa: F811
    """A first visit (an empty cache): the draws and commitments' verdict shows while Python still loads;
    meanwhile the page says what it downloads, then that it replays the game; each file comes once (the
    files the page preloads are the very answers Pyodide uses); the log is asked for as the browser reads the
    page, before its scripts import theirs, and so is every module its script imports, all before Python's files;
    Pyodide's lock file is not downloaded (the page hands Pyodide what it reads of it); the interpreter is compiled as it arrives (WebAssembly.instantiateStreaming, which takes
    the server's application/wasm). Times are printed, never asserted."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    try:
        context.add_init_script(TIMELINE)
        context.add_init_script(COUNT_WASM_INSTANTIATIONS)
        page = context.new_page()
        held = []  # the interpreter, held until the page says it downloads it (on loopback it would come at once)
        page.route("**/vendor/pyodide/pyodide.asm.wasm*", lambda route: held.append(route))
        page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
        expect(page.locator(".replay-state")).to_have_text(DOWNLOADING_IN_FRENCH)
        assert len(held) == 1
        held[0].continue_()
        expect(page.locator(".replay[data-result=ok]")).to_be_visible(timeout=REPLAY_WAIT)
        timeline = page.evaluate("() => window.__timeline")
        done = next(i for i, (_, _, _, result, _) in enumerate(timeline) if result == "ok")
        checked = next(i for i, (_, verdict, _, _, _) in enumerate(timeline) if verdict == "replaying")
        downloading = [line for _, _, progress, _, line in timeline[:done] if progress == "downloading"]
        replaying = [line for _, _, progress, _, line in timeline[:done] if progress == "replaying"]
        assert checked < done
        assert downloading and all(DOWNLOADING_IN_FRENCH.fullmatch(line) for line in downloading)
        assert replaying == [f"La partie est rejouée avec ses règles\u00a0: {actions_of(rayman_log)} actions du journal…"]
        names = [entry["name"].split("?")[0] for entry in page.evaluate(LOADED)]
        for file in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.js", "/verify/rules.zip",
                     f"/api/tables/{rayman_log['code']}/log"):
            assert sum(name.endswith(file) for name in names) == 1, file
        assert not [name for name in names if name.endswith("pyodide-lock.json")]
        asked = page.evaluate(ASKED)
        assert asked["log"] < asked["fairness.js"]
        # Its HTML names every module its script imports (module_graph), so that all are asked for at once, before
        # Python's files; the page loads no other script of ours, and each once.
        scripts = [name.split("/static/", 1)[1] for name in names
                   if name.endswith(".js") and "/static/" in name and "/vendor/pyodide/" not in name]
        assert sorted(scripts) == sorted(["js/verify.js", *module_graph("js/verify.js")])
        preloaded = page.eval_on_selector_all("link[rel=modulepreload]", "(links) => links.map((link) => link.href)")
        assert sorted(href.split("/static/", 1)[1] for href in preloaded if "/vendor/pyodide/" not in href) == sorted(
            module_graph("js/verify.js"))
        assert max(asked[name.rsplit("/", 1)[1]] for name in scripts) <= min(
            asked[file] for file in ("pyodide.asm.wasm", "python_stdlib.zip", "rules.zip"))
        assert page.evaluate("() => window.__wasm") == {"streaming": 1, "whole": 0}
        print("verify page, first visit (ms since navigation): " + "; ".join(
            f"{at} {verdict or '-'} {progress or '-'} {result or '-'}" for at, verdict, progress, result, _ in timeline))
    finally:
        context.close()


def actions_of(log: dict) -> int:
    return sum(1 for entry in log["entries"] if entry["kind"] == "action")


def test_a_finished_chakart_game_is_replayed_on_the_page(server, played, phones):  # noqa: F811
    page = replayed_page(phones["en"], server, played["code"], "ok")
    expect(page.locator(".verdict")).to_have_attribute("data-result", "ok")
    expect(page.locator(".replay-state")).to_have_text(REPLAYED)
    print(f"Chakart replayed in {page.locator('.replay').get_attribute('data-milliseconds')} ms")
    phones["en"].assert_clean()


def test_a_changed_move_that_draws_and_events_still_agree_with_is_reported_by_the_page(server, rayman_log, phones):
    """A board move one column further: no draw and no event tells it (the page's own checks pass the
    log), the replay of the rules finds the game does not end as the table ended it. The page is
    French, and so is what it says."""
    edited, where = action_edited(rayman_log, "position", lambda action: action.update(column=action["column"] + 1), 1)
    page = phones["fr"].new_page()
    page.route(f"{server.url}/api/tables/{rayman_log['code']}/log*", lambda route: route.fulfill(json=edited))
    page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
    script_only = page.evaluate("""async (log) => {
        const { verifyLog } = await import('/static/js/fairness.js');
        return verifyLog(log, null).ok;
    }""", edited)
    assert script_only  # the case the page missed before it replayed the game
    expect(page.locator(".replay[data-result=mismatch]")).to_be_visible(timeout=REPLAY_WAIT)
    problems = page.locator(".replay-problems li")
    expect(problems.first).to_contain_text(f"Entrée {where}")
    expect(page.locator(".verdict")).to_have_attribute("data-result", "mismatch")
    expect(page.locator(".verdict")).to_contain_text(f"Entrée {where}")
    expect(page.locator(".replay-state")).to_contain_text("Rejoué avec les propres règles du jeu")
    phones["fr"].assert_clean()


def test_a_move_the_rules_refuse_is_reported_with_their_refusal_in_the_pages_language(server, rayman_log, phones):
    """A board move to a column past the board: the replay quotes the rules' refusal, which comes from
    the games' catalogue (the server's), in French on a French page, not in the rules' English."""
    edited, where = action_edited(rayman_log, "position", lambda action: action.update(column=999), 1)
    page = phones["fr"].new_page()
    page.route(f"{server.url}/api/tables/{rayman_log['code']}/log*", lambda route: route.fulfill(json=edited))
    page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
    expect(page.locator(".replay[data-result=mismatch]")).to_be_visible(timeout=REPLAY_WAIT)
    problem = page.locator(".replay-problems li").first
    expect(problem).to_contain_text(f"Entrée {where}")
    expect(problem).to_contain_text("les règles refusent cette action")
    expect(problem).to_contain_text("Une position est une colonne de 0 à")
    expect(problem).not_to_contain_text("A position is")
    phones["fr"].assert_clean()


def test_a_browser_without_webassembly_says_the_rules_were_not_replayed_not_verified(
        browser, server, rayman_log):  # noqa: F811
    context = browser.new_context(locale="en-US", **PHONE)
    try:
        context.add_init_script("delete window.WebAssembly;")
        page = context.new_page()
        page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
        expect(page.locator(".replay[data-result=failed]")).to_be_visible()
        expect(page.locator(".replay-state")).to_contain_text(
            "The game could not be replayed in this browser (this browser does not run WebAssembly)")
        expect(page.locator(".verdict")).to_have_attribute("data-result", "unverified")
        expect(page.locator(".verdict")).to_have_text(NOT_REPLAYED["en"])
        expect(page.locator(".rules-hash")).to_be_hidden()
    finally:
        context.close()


NOT_REPLAYED = {"en": "Draws and commitments checked; the game's rules could not be replayed: not verified.",
                "fr": "Tirages et engagements vérifiés\u00a0; les règles du jeu n’ont pas pu être rejouées\u00a0: "
                      "non vérifié."}
# What an operator who serves the page can do to the replay: withhold the rules, or break the Python.
SABOTAGE = {"the rules zip withheld": ("**/verify/rules.zip*", lambda route: route.abort()),
            "Python broken": ("**/vendor/pyodide/pyodide.mjs*", lambda route: route.fulfill(
                content_type="text/javascript",
                body="export async function loadPyodide() { throw new Error('Python is broken here'); }"))}


@pytest.mark.parametrize(("sabotage", "language"), [("the rules zip withheld", "en"), ("Python broken", "fr")])
def test_a_changed_move_with_the_replay_sabotaged_is_never_verified(browser, server, rayman_log, sabotage,
                                                                      language):  # noqa: F811
    """The attack: a board move one column further (the page's own checks pass it) and the replay made
    to fail. The page used to say "Verified"; it now says what it checked and that this is no verification."""
    edited, _ = action_edited(rayman_log, "position", lambda action: action.update(column=action["column"] + 1), 1)
    context = browser.new_context(locale={"en": "en-US", "fr": "fr-FR"}[language], **PHONE)
    try:
        page = context.new_page()
        page.route(f"{server.url}/api/tables/{rayman_log['code']}/log*", lambda route: route.fulfill(json=edited))
        page.route(*SABOTAGE[sabotage])
        page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
        expect(page.locator(".replay[data-result=failed]")).to_be_visible(timeout=REPLAY_WAIT)
        verdict = page.locator(".verdict")
        expect(verdict).to_have_attribute("data-result", "unverified")
        expect(verdict).to_have_text(NOT_REPLAYED[language])
    finally:
        context.close()


# The page's replay module (static/js/replay.js) with the Python it prepared, in a verify page whose own run stops
# at its log (refused): each call replays a log's text as the page does (JSON read by Python, where 1.0 stays a
# float), with its rules imported afresh (the games' modules an earlier replay imported are forgotten first, as a
# new page would not have them).
START_PYTHON = """async ([rulesUrl, pyodideUrl, pyodideLock]) => {
  const { prepareReplay } = await import('/static/js/replay.js');
  window.__python = prepareReplay({ rulesUrl, pyodideUrl, pyodideLock });
  await window.__python;
}"""
FORGET_THE_RULES = "import sys\nfor name in [n for n in sys.modules if n.split('.')[0] == 'companion']: del sys.modules[name]"
REPLAY_IN_THE_PAGES_PYTHON = """async ([logText, forget]) => {
  const { replayInPython } = await import('/static/js/replay.js');
  const { verifyLog } = await import('/static/js/fairness.js');
  (await window.__python).python.runPython(forget);
  const log = JSON.parse(logText);
  const { hash, report } = await replayInPython({ prepared: window.__python, log, logText });
  return { hash, report, seen: verifyLog(log, null).problems.map((problem) => problem.i) };
}"""


RUN_IN_THE_PAGES_PYTHON = "async (code) => (await window.__python).python.runPython(code)"


class PagesPython:
    """``pages_python(log)``: the page's report of the log; ``.run(code)``: what Python's code returns there."""

    def __init__(self, page):
        self.page = page

    def __call__(self, log: dict) -> dict:
        return self.page.evaluate(REPLAY_IN_THE_PAGES_PYTHON, [json.dumps(log), FORGET_THE_RULES])

    def run(self, code: str):
        return self.page.evaluate(RUN_IN_THE_PAGES_PYTHON, code)


@pytest.fixture(scope="module")
def pages_python(browser, server, rayman_log):  # noqa: F811
    """A verify page's Python, started once for the module (it takes seconds) as the page starts it."""
    context = browser.new_context(locale="en-US", **PHONE)
    page = context.new_page()
    page.route(f"{server.url}/api/tables/{rayman_log['code']}/log*", lambda route: route.fulfill(status=404, json={}))
    page.goto(f"{server.url}/t/{rayman_log['code']}/verify")
    replay = page.locator(".replay")
    page.evaluate(START_PYTHON, [replay.get_attribute("data-rules"), replay.get_attribute("data-pyodide"),
                                 json.loads(replay.get_attribute("data-pyodide-lock"))])
    yield PagesPython(page)
    context.close()


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_a_random_game_of_every_game_replays_on_the_page(pages_python, game_id):
    """The page runs each game's own rules, not only Rayman's and Chakart's: a random walk of each game,
    logged as the table logs it (`tests.test_replay`), replayed by the page's Python as the page replays a
    table's log (what the page shows of a replay is the Rayman and Chakart tests'): replayed, with nothing
    found that the page's own checks did not (what the page shows as "Replayed ... the same final state"), the
    very report the whole package gives, with the rules the CLI hashes."""
    log = logged_walk(game_id)
    found = pages_python(log)
    report = found["report"]
    assert report["replayed"] and report["replay"] == []
    assert {problem["i"] for problem in report["problems"]} <= set(found["seen"])
    assert report == json.loads(json.dumps(page_report(log)))
    assert found["hash"] == rules_bundle.rules_hash()


def test_every_module_the_pages_python_imports_to_replay_every_game_is_one_the_standard_library_keeps(pages_python):
    """The standard library served is cut to the modules listed in scripts/pyodide_stdlib_modules.txt (found
    in Node: scripts/pyodide_modules.py): the page's own Python, in the browser, started and having replayed
    every game, imported nothing else from it (a module the list lacks would fail a replay at a table)."""
    for game_id in sorted(CONFIGS):
        assert pages_python(logged_walk(game_id))["report"]["replayed"]
    imported = by_source(json.loads(pages_python.run(FROM_THE_ZIP)))
    assert "json/__init__.py" in imported and "_pyodide/_base.py" in imported
    assert not set(imported) - set(listed()), f"not listed: {sorted(set(imported) - set(listed()))}"


def test_a_replay_in_the_pages_python_leaves_nothing_that_changes_the_next(pages_python):
    """What lets the module share one Python: the same log replayed again after another game's gives the same
    report, and so does a log the rules refuse, before and after."""
    chakart, arkade = logged_walk("chakart"), logged_walk("arkade")
    refused = json.loads(json.dumps(chakart))
    action = next(entry for entry in refused["entries"] if entry["kind"] == "action" and entry["call"] == "apply")
    action["seat"] = 1 - action["seat"]
    first = [pages_python(log) for log in (chakart, refused, arkade)]
    again = [pages_python(log) for log in (arkade, refused, chakart)]
    assert first == again[::-1]
    assert first[0]["report"]["replay"] == [] and first[1]["report"]["replay"][0]["i"] == action["i"]
