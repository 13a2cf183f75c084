"""A phone's first load of a table, measured by the browser's own resource
timing in headless Chromium: compressed, only the game's own script (never the verify page's Python), under
60 KB on the wire for a dice table; a reload downloads no body again.
Unit checks of the delivery rules (gzip, versioned static URLs) come first."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import threading
from pathlib import Path

import requests
from playwright.sync_api import expect

from companion.event_loop import off_the_loop
from tests.test_browser import PHONE, as_seat, browser, open_context, seat_via_api, server  # noqa: F401

BUDGET = 60 * 1024
ROOT = Path(__file__).resolve().parent.parent


def test_text_answers_are_gzipped_for_browsers_that_accept_it(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip, deflate"})
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
    assert b"<html" in gzip.decompress(page.data)
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and b"<html" in plain.data


def test_static_urls_carry_a_version_and_are_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'src="(/static/js/home\.js\?v=[0-9a-f]{12})"', html).group(1)
    answer = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert "immutable" in answer.headers["Cache-Control"] and "max-age=31536000" in answer.headers["Cache-Control"]
    assert answer.headers["Content-Encoding"] == "gzip"


def test_a_static_file_without_its_version_is_revalidated_and_answered_304(client):
    first = client.get("/static/js/ui.js", headers={"Accept-Encoding": "gzip"})
    assert "no-cache" in first.headers["Cache-Control"] and first.headers["ETag"].startswith("W/")
    again = client.get("/static/js/ui.js", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_wrong_version_is_not_cached_for_a_year(client):
    answer = client.get("/static/js/ui.js?v=000000000000")
    assert "max-age=31536000" not in answer.headers["Cache-Control"]


def test_a_large_file_is_compressed_in_a_native_thread_under_gevent():
    """The verify page's 8.6 MB WebAssembly, compressed on gevent's loop, froze every phone of the
    server for as long: a large body goes to a native thread (and comes back whole)."""
    script = """
from gevent import monkey; monkey.patch_all()
import gzip, threading
from companion.event_loop import off_the_loop
from companion.web import delivery
print(off_the_loop(threading.get_native_id) != threading.get_native_id())
body = bytes(range(256)) * 4096
print(gzip.decompress(delivery.gzipped(body)) == body)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["True", "True"]
    assert off_the_loop(threading.get_native_id) == threading.get_native_id()  # no gevent here


LOADED = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .map((entry) => ({ name: entry.name, transfer: entry.transferSize, body: entry.encodedBodySize }))"""


def test_a_dice_table_loads_under_60_kb_and_a_reload_downloads_no_body_again(server, open_context):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    token = seat_via_api(server, table["code"], "Ana")
    phone = open_context(**PHONE)
    as_seat(phone, table["code"], token)
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator(".dice-game")).to_be_visible()
    first = page.evaluate(LOADED)
    names = [entry["name"] for entry in first]
    assert not [name for name in names if re.search(r"/games/(rayman|arkade|amiiboxe|chakart|universalis)(\.js|/)", name)]
    assert not [name for name in names if "pyodide" in name or "rules.zip" in name]  # Python: the verify page's alone
    total = sum(entry["transfer"] for entry in first)
    print(f"first load of a dice table: {total} bytes on the wire in {len(first)} requests")
    assert total < BUDGET, sorted(first, key=lambda entry: -entry["transfer"])[:5]

    page.reload()
    expect(page.locator(".dice-game")).to_be_visible()
    again = [entry for entry in page.evaluate(LOADED)
             if "/static/" in entry["name"]]
    downloaded = [entry for entry in again if entry["transfer"] > 0 and entry["transfer"] >= entry["body"] > 0]
    print(f"reload: {sum(entry['transfer'] for entry in again)} bytes for {len(again)} static files")
    assert again and downloaded == []
