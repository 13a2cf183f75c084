"""How long the verify page takes on a phone: its own checks, then the replay with Python.

    .venv/bin/python -m bench.verify_page [--runs 3] [--cpu 4] [--mbit 20] [--stdlib ZIP ...]

Plays a Rayman co-op round on a real server (the same as tests/test_verify_page_replay.py), then opens
its verify page in headless Chromium with a phone-class CPU (CDP ``Emulation.setCPUThrottlingRate``)
on a slow network (CDP ``Network.emulateNetworkConditions``), an empty cache each run. Prints, from
the page's navigation start (its own clock): when the draws-and-commitments verdict showed, each
progress line of the replay, and the final verdict; where the replay's time went (when each of its files
arrived, and the marks static/js/replay.js sets: Python started, the rules unpacked, imported, the game
replayed); and the bytes the page downloaded, with the machine's load average.

``--stdlib ZIP`` (once or more) serves that file as Pyodide's standard library (python_stdlib.zip),
each run of each in turn: to weigh one made by scripts/pyodide_stdlib.py
against the vendored one (give both: the answers the bench makes skip the emulated network, so the
vendored file must be served the same way for a fair comparison).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.server import ServerProcess
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.test_rayman_server import FAST
from tests.test_rayman_verify import served_coop_round
from tests.test_verify_page_replay import TIMELINE

# Where the replay's time goes: when each of its files arrived (resource timing), and the page's marks
# (static/js/replay.js: Pyodide's module, Python started, the rules unpacked and imported, the game replayed).
PHASES = """() => [
  ...performance.getEntriesByType('resource')
    .filter((entry) => /(rules[.]zip|pyodide[.]asm[.]js|pyodide[.]asm[.]wasm|python_stdlib[.]zip|pyodide[.]mjs)/.test(entry.name))
    .map((entry) => [entry.responseEnd, `arrived ${new URL(entry.name).pathname.split('/').pop()}`]),
  ...performance.getEntriesByType('mark').map((entry) => [entry.startTime, entry.name])]
  .sort((a, b) => a[0] - b[0])"""
LOADED = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .reduce((sum, entry) => sum + entry.transferSize, 0)"""


def served_as_stdlib(page, stdlib: Path) -> None:
    body = stdlib.read_bytes()  # as is: Chromium does not decode an answer the bench makes that says gzip
    page.route("**/vendor/pyodide/python_stdlib.zip*", lambda route, _: route.fulfill(
        body=body, headers={"Content-Type": "application/zip"}))


def one_run(browser, url: str, cpu: float, mbit: float, stdlib: Path | None) -> dict:
    context = browser.new_context(locale="en-US", **PHONE)
    try:
        context.add_init_script(TIMELINE)
        page = context.new_page()
        if stdlib:
            served_as_stdlib(page, stdlib)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": 20, "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        page.goto(url)
        page.locator(".replay[data-result]:not([data-result=running])").wait_for(state="attached", timeout=180_000)
        timeline = page.evaluate("() => window.__timeline")
        checked = next(at for at, verdict, *_ in timeline if verdict in ("replaying", "mismatch", "pending"))
        return {"checks": checked, "verdict": timeline[-1][0], "result": page.locator(".verdict").get_attribute(
            "data-result"), "timeline": timeline, "bytes": page.evaluate(LOADED), "phases": page.evaluate(PHASES),
                "stdlib": stdlib, "load": os.getloadavg()[0]}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=4, help="CPU slowdown (Chromium's throttling rate)")
    parser.add_argument("--mbit", type=float, default=20, help="download and upload, Mbit/s")
    parser.add_argument("--stdlib", type=Path, action="append", help="serve this file as python_stdlib.zip")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = ServerProcess(Path(workdir), extra_env=FAST).start()
        try:
            code = served_coop_round(server)["code"]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                runs = [one_run(browser, f"{server.url}/t/{code}/verify", args.cpu, args.mbit, stdlib)
                        for _ in range(args.runs) for stdlib in args.stdlib or [None]]
                browser.close()
        finally:
            server.stop()
    for number, run in enumerate(runs, 1):
        print(f"run {number}: {run['result']}, {run['bytes']:,} bytes, load average {run['load']:.1f}"
              + (f", standard library {run['stdlib']}" if run["stdlib"] else ""))
        for at, verdict, progress, result, line in run["timeline"]:
            print(f"  {at / 1000:6.2f} s  verdict {verdict or '-':9} replay {result or progress or '-':11} {line}")
        for at, what in run["phases"]:
            print(f"  {at / 1000:6.2f} s  {what}")
    for stdlib in args.stdlib or [None]:
        of = [run for run in runs if run["stdlib"] == stdlib]
        loads = [run["load"] for run in of]
        print(f"standard library {stdlib or 'as served'} ({args.cpu:g}x CPU, {args.mbit:g} Mbit/s, "
              f"load average {min(loads):.1f}–{max(loads):.1f}):")
        for key, what in (("checks", "own checks shown"), ("verdict", "replay's verdict")):
            values = [run[key] / 1000 for run in of]
            print(f"  {what}: median {statistics.median(values):.2f} s, range {min(values):.2f}–{max(values):.2f} s")


if __name__ == "__main__":
    main()
