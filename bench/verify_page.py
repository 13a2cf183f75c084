"""How long the verify page takes on a phone: its own checks, then the replay with Python.

    .venv/bin/python -m bench.verify_page [--runs 3] [--cpu 4] [--mbit 20] [--repeat] [--compare]

Plays a Rayman co-op round on a real server (the same as tests/test_verify_page_replay.py), then opens
its verify page in headless Chromium with a phone-class CPU (CDP ``Emulation.setCPUThrottlingRate``)
on a slow network (CDP ``Network.emulateNetworkConditions``), an empty cache each run. Prints, from
the page's navigation start (its own clock): when the draws-and-commitments verdict showed, each
progress line of the replay, and the final verdict; where the replay's time went (when each of its files
was asked for and arrived, with its bytes, and the marks static/js/replay.js sets: Python started, the
rules written to its files, imported, the game replayed); and the bytes the page downloaded, with the
machine's load average.

The server's compressed answers are made before the runs (each file asked for once): a phone's first visit to a
running server, not the server's first compression.

``--repeat`` opens the page a second time in the same browser (its cache kept) and times that visit too.

``--compare`` weighs Python's files compiled ahead (./manage.sh install: the standard library by
scripts/pyodide_stdlib.mjs, the rules zip by ``python -m companion.rules_bundle``) against the same files
as source (the npm package's standard library, ``rules_bundle.bundle()``): each run opens the page once
with each, in turn. Both are answered by the bench itself, uncompressed, outside the emulated network
(so the same way for both): its figures weigh the two, not a phone's download, which the runs without
``--compare`` measure (the server's own answers, through the emulated network).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion import rules_bundle
from tests.server import ROOT, ServerProcess
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.test_rayman_server import FAST
from tests.test_rayman_verify import served_coop_round
from tests.test_verify_page_replay import TIMELINE

# Where the replay's time goes: when each of its files was asked for and arrived (resource timing), and the page's
# marks (static/js/replay.js: Pyodide's module, Python started, the rules written to its files and imported, the game
# replayed).
PHASES = """() => [
  ...performance.getEntriesByType('resource')
    .filter((entry) => /(rules[.]zip|pyodide[.]asm[.]js|pyodide[.]asm[.]wasm|python_stdlib[.]zip|pyodide[.]mjs)/.test(entry.name))
    .map((entry) => [entry, new URL(entry.name).pathname.split('/').pop()])
    .flatMap(([entry, file]) => [[entry.fetchStart, `asked for ${file}`],
      [entry.responseEnd, `arrived ${file} (${entry.transferSize.toLocaleString('en')} bytes)`]]),
  ...performance.getEntriesByType('mark').map((entry) => [entry.startTime, entry.name])]
  .sort((a, b) => a[0] - b[0])"""
LOADED = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .reduce((sum, entry) => sum + entry.transferSize, 0)"""


# The files a verify page downloads that the server compresses once per process (companion/web/delivery.py): asked
# for once before the runs, so that a first visit is timed as a phone sees a running server, not one that
# compresses 10 MB for the first phone (seconds on a loaded machine).
COMPRESSED_ONCE = ["/static/vendor/pyodide/pyodide.asm.wasm", "/static/vendor/pyodide/python_stdlib.zip",
                   "/static/vendor/pyodide/pyodide.asm.js", "/verify/rules.zip"]


def warm(server) -> None:
    for path in COMPRESSED_ONCE:
        with urllib.request.urlopen(urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"}),
                                    timeout=120) as answer:
            answer.read()


def python_files(variant: str | None) -> dict[str, bytes]:
    """The standard library and rules zip the bench answers with itself for a ``--compare`` variant."""
    if variant is None:
        return {}
    if variant == "source":
        return {"**/vendor/pyodide/python_stdlib.zip*": (ROOT / "node_modules/pyodide/python_stdlib.zip").read_bytes(),
                "**/verify/rules.zip": rules_bundle.bundle()}
    return {"**/vendor/pyodide/python_stdlib.zip*": (ROOT / "static/vendor/pyodide/python_stdlib.zip").read_bytes(),
            "**/verify/rules.zip": rules_bundle.served_bundle()}


def answered(page, files: dict[str, bytes]) -> None:
    for pattern, body in files.items():  # as is: Chromium does not decode an answer the bench makes that says gzip
        page.route(pattern, lambda route, _, body=body: route.fulfill(
            body=body, headers={"Content-Type": "application/zip"}))


# Resolves once the replay has its result, seen by a MutationObserver: Playwright's own wait polls the page with
# querySelectorAll each frame, on the thread the page's Python needs (2 % of it in a Chromium trace). The page gives up
# on Python by itself after 120 s (static/js/replay.js): the result is then "failed".
REPLAY_OVER = """() => new Promise((resolve) => {
  const over = () => document.querySelector('.replay[data-result]:not([data-result=running])');
  if (over()) { resolve(); return; }
  const observer = new MutationObserver(() => { if (over()) { observer.disconnect(); resolve(); } });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-result'] });
})"""


def visit(page, url: str) -> dict:
    page.goto(url)
    page.evaluate(REPLAY_OVER)
    timeline = page.evaluate("() => window.__timeline")
    checked = next(at for at, verdict, *_ in timeline if verdict in ("replaying", "mismatch", "pending"))
    return {"checks": checked, "verdict": timeline[-1][0], "result": page.locator(".verdict").get_attribute(
        "data-result"), "timeline": timeline, "bytes": page.evaluate(LOADED), "phases": page.evaluate(PHASES),
            "load": os.getloadavg()[0]}


def one_run(browser, url: str, cpu: float, mbit: float, variant: str | None, repeat: bool) -> list[dict]:
    """The first visit (an empty cache), and with ``repeat`` a second one in the same browser."""
    context = browser.new_context(locale="en-US", **PHONE)
    try:
        context.add_init_script(TIMELINE)
        page = context.new_page()
        answered(page, python_files(variant))
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": 20, "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        visits = [visit(page, url)] + ([visit(page, url)] if repeat else [])
        return [dict(found, variant=variant, visit=number) for number, found in enumerate(visits, 1)]
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=4, help="CPU slowdown (Chromium's throttling rate)")
    parser.add_argument("--mbit", type=float, default=20, help="download and upload, Mbit/s")
    parser.add_argument("--repeat", action="store_true", help="a second visit too, with the browser's cache")
    parser.add_argument("--compare", action="store_true",
                        help="Python's files compiled ahead against source, each answered by the bench")
    args = parser.parse_args()
    variants = ["source", "compiled"] if args.compare else [None]
    with tempfile.TemporaryDirectory() as workdir:
        server = ServerProcess(Path(workdir), extra_env=FAST).start()
        try:
            code = served_coop_round(server)["code"]
            warm(server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                runs = [found for _ in range(args.runs) for variant in variants
                        for found in one_run(browser, f"{server.url}/t/{code}/verify", args.cpu, args.mbit, variant,
                                             args.repeat)]
                browser.close()
        finally:
            server.stop()
    for number, run in enumerate(runs, 1):
        print(f"run {number}: {run['result']}, visit {run['visit']}, {run['bytes']:,} bytes, load average "
              f"{run['load']:.1f}" + (f", Python's files {run['variant']}" if run["variant"] else ""))
        for at, verdict, progress, result, line in run["timeline"]:
            print(f"  {at / 1000:6.2f} s  verdict {verdict or '-':9} replay {result or progress or '-':11} {line}")
        for at, what in run["phases"]:
            print(f"  {at / 1000:6.2f} s  {what}")
    for variant, visit_number in itertools.product(variants, (1, 2) if args.repeat else (1,)):
        of = [run for run in runs if run["variant"] == variant and run["visit"] == visit_number]
        loads = [run["load"] for run in of]
        print(f"Python's files {variant or 'as served'}, {'first visit' if visit_number == 1 else 'repeat visit'} "
              f"({args.cpu:g}x CPU, {args.mbit:g} Mbit/s, load average {min(loads):.1f}–{max(loads):.1f}):")
        for key, what in (("checks", "own checks shown"), ("verdict", "replay's verdict")):
            values = [run[key] / 1000 for run in of]
            print(f"  {what}: median {statistics.median(values):.2f} s, range {min(values):.2f}–{max(values):.2f} s")
        arrived = [max(at for at, what in run["phases"] if what.startswith("arrived ")) / 1000 for run in of]
        print(f"  every file in: median {statistics.median(arrived):.2f} s, range {min(arrived):.2f}–{max(arrived):.2f} s")
        started = [at / 1000 for run in of for at, what in run["phases"] if what == "replay: Python started"]
        if started:
            print(f"  Python started: median {statistics.median(started):.2f} s, "
                  f"range {min(started):.2f}–{max(started):.2f} s")


if __name__ == "__main__":
    main()
