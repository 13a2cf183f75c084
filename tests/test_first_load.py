"""A phone's first load of a table, measured by the browser's own resource timing in headless Chromium
(``transferSize``: each answer's encoded body plus the 300 bytes Chromium counts for its headers):
compressed, bundled and minified (`companion.web.bundles`), only the game's own script and style rules
(never the verify page's Python). Three paths, each printed and each under 50 KB: a phone that holds a seat, one that
arrives by the QR code and takes a seat by name, and a Rayman table's phone; a reload downloads no body
again. A phone also runs the modules as written, unbundled.
Unit checks of the delivery rules (gzip, versioned static URLs, the bundle, a game's style sheet) come first."""

from __future__ import annotations

import gzip
import html as html_text
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from companion.event_loop import off_the_loop
from companion.games import REGISTRY
from companion.served import served_static
from companion.web import bundles
from companion.web.bundles import Bundles
from companion.web.styles import GAME_MARKERS, styles_for
from tests import layout_states
from tests.server import ServerProcess
from tests.test_browser import PHONE, as_seat, browser, open_context, seat_via_api, server, take_seat  # noqa: F401

BUDGET = 50 * 1024  # issue 29: every path of a phone's first load
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def bundled():
    """The checkout's bundle, built if a script changed since it was (as ./manage.sh install does)."""
    return Bundles().fresh() or bundles.build()


def test_text_answers_are_gzipped_for_browsers_that_accept_it(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip, deflate"})
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
    assert b"<html" in gzip.decompress(page.data)
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and b"<html" in plain.data


def cached_for_a_year(answer) -> bool:
    return "immutable" in answer.headers["Cache-Control"] and "max-age=31536000" in answer.headers["Cache-Control"]


def test_static_urls_carry_a_version_and_are_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'href="(/static/css/companion\.css\?v=[0-9a-f]{12})"', html).group(1)
    answer = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert cached_for_a_year(answer) and answer.headers["Content-Encoding"] == "gzip"


def test_a_page_loads_its_bundle_whose_hashed_names_are_cached_for_a_year(client, bundled):
    table = client.post("/api/tables", json={"game": "dice"}).get_json()
    html = client.get(f"/t/{table['code']}").get_data(as_text=True)
    phone = bundled["entries"]["phone"]
    assert f'<script type="module" src="/static/bundles/{phone["script"]}"></script>' in html
    assert phone["preload"] and all(f'<link rel="modulepreload" href="/static/bundles/{chunk}">' in html
                                    for chunk in phone["preload"])
    assert "/static/js/" not in html  # no module as written
    for name in [phone["script"], *phone["preload"]]:
        answer = client.get(f"/static/bundles/{name}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200 and cached_for_a_year(answer)
        body = gzip.decompress(answer.data) if answer.headers.get("Content-Encoding") == "gzip" else answer.data
        assert body == (ROOT / "static" / "bundles" / name).read_bytes()
    manifest = client.get("/static/bundles/manifest.json")
    assert "max-age=31536000" not in manifest.headers["Cache-Control"]  # its name says nothing of its content


def test_the_bundle_is_minified_and_leaves_the_verify_page_out(bundled):
    phone = (ROOT / "static" / "bundles" / bundled["entries"]["phone"]["script"]).read_text(encoding="utf-8")
    code, *licences = phone.split("/*!")  # the licences of what it holds stay, at its end
    assert not re.search(r"^\s*//", code, re.MULTILINE) and "A phone at the table" not in code  # phone.js's comments
    assert any("Socket.IO" in licence and "MIT License" in licence for licence in licences)
    assert "static/js/phone.js" in bundled["inputs"] and "static/vendor/socket.io.esm.min.js" in bundled["inputs"]
    assert not [name for name in bundled["inputs"] if "verify" in name or "replay" in name or "pyodide" in name]


def checkout_copy(tmp_path: Path, manifest: dict) -> Path:
    """The files a bundle was built from and its manifest, in a folder of their own."""
    for name in manifest["inputs"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tmp_path / name)
    (tmp_path / "static" / "bundles").mkdir(parents=True)
    (tmp_path / "static" / "bundles" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_a_missing_or_stale_bundle_leaves_the_pages_on_their_modules_as_written(app, tmp_path, bundled, caplog):
    checkout = checkout_copy(tmp_path, bundled)
    with app.test_request_context():
        current = Bundles(checkout)
        assert current.fresh() == bundled
        assert f"/static/bundles/{bundled['entries']['phone']['script']}" in current.page_script("phone")
        changed = checkout / "static" / "js" / "ui.js"
        changed.write_text(changed.read_text(encoding="utf-8") + "\n// changed since the build\n", encoding="utf-8")
        assert current.fresh() is None
        stale = current.page_script("phone")
        assert re.fullmatch(r'<script type="module" src="/static/js/phone\.js\?v=[0-9a-f]{12}"></script>', stale)
        assert "stale" in caplog.text and "./manage.sh install" in caplog.text
        missing = Bundles(tmp_path / "nowhere")
        assert missing.fresh() is None and "/static/js/home.js?v=" in missing.page_script("home")
        assert "/static/js/home.js?v=" in Bundles(checkout, bundled=False).page_script("home")


def test_a_failed_build_says_why_and_leaves_the_bundle_as_it_was(tmp_path):
    with pytest.raises(bundles.BundleError, match="manage.sh install"):
        bundles.build(tmp_path)  # no esbuild there
    assert not (tmp_path / "static" / "bundles" / "manifest.json").exists()


def test_a_static_file_without_its_version_is_revalidated_and_answered_304(client):
    first = client.get("/static/js/ui.js", headers={"Accept-Encoding": "gzip"})
    assert "no-cache" in first.headers["Cache-Control"] and first.headers["ETag"].startswith("W/")
    again = client.get("/static/js/ui.js", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_wrong_version_is_not_cached_for_a_year(client):
    answer = client.get("/static/js/ui.js?v=000000000000")
    assert "max-age=31536000" not in answer.headers["Cache-Control"]


SHEET = ROOT / "static" / "css" / "companion.css"


def test_a_games_style_sheet_keeps_its_own_and_the_common_rules_in_order_and_no_other_games():
    css = """/* note */ .a { color: red; }
.rm-card, .ck-square { width: 1px; }
@media (min-width: 10px) { .rayman .x { top: 0; } .b { left: 0; } }
@keyframes spin { from { rotate: 0; } to { rotate: 1turn; } }
.ak-die:is(.c, .d) { margin: 0; }
.z { content: "a, .ak-b { }"; }"""
    rayman = styles_for(css, "rayman")
    assert rayman == "\n".join([".a{color: red;}", ".rm-card{width: 1px;}",
                                 "@media (min-width: 10px){.rayman .x{top: 0;}\n.b{left: 0;}}",
                                 "@keyframes spin{from { rotate: 0; } to { rotate: 1turn; }}",
                                 '.z{content: "a, .ak-b { }";}'])
    assert ".ak-die:is(.c, .d){margin: 0;}" in styles_for(css, "arkade")
    assert "rm-" not in styles_for(css, "dice") and "note" not in styles_for(css, "dice")


def test_every_class_of_a_game_is_in_its_games_sheet_and_in_no_other():
    css = SHEET.read_text(encoding="utf-8")
    common = styles_for(css, "dice")
    for game, (prefix, *_) in GAME_MARKERS.items():
        classes = set(re.findall(rf"\.{prefix}[\w-]+", css))
        assert classes and classes <= set(re.findall(rf"\.{prefix}[\w-]+", styles_for(css, game)))
        assert not re.search(rf"\.{prefix}[\w-]", common)
    assert len(common) < len(css) * 0.5  # the common part: under half the file


def test_a_phone_links_its_games_sheet_which_the_server_cuts_and_the_served_check_expects(client):
    table = client.post("/api/tables", json={"game": "rayman"}).get_json()
    html = client.get(f"/t/{table['code']}").get_data(as_text=True)
    url = html_text.unescape(re.search(r'<link rel="stylesheet" data-game="rayman"\s+href="([^"]+)"', html).group(1))
    assert "game=rayman" in url and "v=" in url
    sheet = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "max-age=31536000" in sheet.headers["Cache-Control"]
    assert sheet.data == served_static(SHEET, url) == styles_for(SHEET.read_text(encoding="utf-8"), "rayman").encode()
    assert b".rm-" in sheet.data and b".ck-" not in sheet.data
    gzipped = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(gzipped.data) == sheet.data
    home = client.get("/").get_data(as_text=True)  # other pages: the whole sheet
    assert re.search(r'href="/static/css/companion\.css\?v=[0-9a-f]{12}"', home)
    assert set(GAME_MARKERS) <= set(REGISTRY)


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


def measured(page, path: str) -> list[dict]:
    """What the page downloaded, printed: bytes on the wire (transferSize) and requests."""
    loaded = page.evaluate(LOADED)
    print(f"{path}: {sum(entry['transfer'] for entry in loaded)} bytes on the wire in {len(loaded)} requests")
    for entry in heaviest(loaded, len(loaded)):
        print(f"  {entry['transfer']:>6} {entry['name'].split('/', 3)[-1]}")
    return loaded


def heaviest(loaded: list[dict], count: int = 5) -> list[dict]:
    return sorted(loaded, key=lambda entry: -entry["transfer"])[:count]


def only_its_game(loaded: list[dict], game: str) -> None:
    names = [entry["name"] for entry in loaded]
    others = "|".join(other for other in GAME_MARKERS if other != game)
    assert not [name for name in names if re.search(rf"/games/({others})(\.js|/)", name)]
    assert not [name for name in names if "pyodide" in name or "rules.zip" in name]  # Python: the verify page's alone
    assert [name for name in names if f"companion.css?game={game}" in name]


def test_a_dice_table_loads_under_50_kb_and_a_reload_downloads_no_body_again(server, open_context):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    token = seat_via_api(server, table["code"], "Ana")
    phone = open_context(**PHONE)
    as_seat(phone, table["code"], token)
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator(".dice-game")).to_be_visible()
    first = measured(page, "first load of a dice table, a seated phone")
    only_its_game(first, "dice")
    assert not [entry for entry in first if "/qr.svg" in entry["name"]]  # folded away: not loaded
    assert sum(entry["transfer"] for entry in first) < BUDGET, heaviest(first)

    page.reload()
    expect(page.locator(".dice-game")).to_be_visible()
    again = [entry for entry in page.evaluate(LOADED)
             if "/static/" in entry["name"]]
    downloaded = [entry for entry in again if entry["transfer"] > 0 and entry["transfer"] >= entry["body"] > 0]
    print(f"reload: {sum(entry['transfer'] for entry in again)} bytes for {len(again)} static files")
    assert again and downloaded == []


def test_a_phone_arriving_by_the_qr_code_takes_a_seat(server, open_context):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    page = open_context(**PHONE).new_page()
    page.goto(f"{server.url}/t/{table['code']}")  # the QR code's address
    take_seat(page, "Ana")
    expect(page.locator(".dice-game")).to_be_visible()
    loaded = measured(page, "first load of a dice table by the QR code, the join form then the seat")
    only_its_game(loaded, "dice")
    assert sum(entry["transfer"] for entry in loaded) < BUDGET, heaviest(loaded)


@pytest.fixture(scope="module")
def unbundled_server(tmp_path_factory):
    process = ServerProcess(tmp_path_factory.mktemp("first-load-unbundled"),
                            extra_env={"COMPANION_BUNDLED": "0"}).start()
    yield process
    process.stop()


def test_a_phone_runs_the_modules_as_written_when_they_are_not_bundled(unbundled_server, open_context):
    """What a checkout whose bundle is missing or stale serves (COMPANION_BUNDLED=0 here)."""
    table = requests.post(f"{unbundled_server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    phone = open_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{unbundled_server.url}/t/{table['code']}")
    take_seat(page, "Ana")
    expect(page.locator(".dice-game")).to_be_visible()
    names = [entry["name"] for entry in page.evaluate(LOADED)]
    assert [name for name in names if "/static/js/phone.js" in name] and not [name for name in names if "/bundles/" in name]
    assert [name for name in names if "/static/js/record.js" in name]  # the phone's own record, at its seat
    assert phone.page_errors == [] and phone.failed == [] and phone.bad_status == []


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory):
    process = ServerProcess(tmp_path_factory.mktemp("first-load-rayman"), extra_env=layout_states.FAST).start()
    yield process
    process.stop()


def seat_on(phone, server: ServerProcess, code: str, token: str) -> None:
    """as_seat() for a server other than the module's."""
    phone.context.add_init_script(f"if (location.origin === '{server.url}') "
                                  f"localStorage.setItem('companion.seat.{code}', '{token}');")


def test_a_rayman_tables_phone(fast_server, open_context):
    table = layout_states.rayman_choosing(fast_server.url)
    phone = open_context(**PHONE)
    seat_on(phone, fast_server, table.code, table.tokens[table.phone])
    page = phone.new_page()
    page.goto(f"{fast_server.url}/t/{table.code}")
    expect(page.locator(".game-area .rayman, .game-area [class^=rm-]").first).to_be_attached()
    page.wait_for_load_state("networkidle")
    loaded = measured(page, "first load of a Rayman table, a seated phone choosing its cards")
    only_its_game(loaded, "rayman")
    assert sum(entry["transfer"] for entry in loaded) < BUDGET, heaviest(loaded)


def test_a_phone_whose_table_moves_to_another_game_gets_that_games_style_rules(fast_server, open_context):
    """The phone's sheet holds its first game's rules only: Chakart's come with Chakart's screen, last."""
    table = layout_states.Table.create(fast_server.url, "dice", {}, ("Ana", "Bo"))
    phone = open_context(**PHONE)
    seat_on(phone, fast_server, table.code, table.tokens["Ana"])
    page = phone.new_page()
    page.goto(f"{fast_server.url}/t/{table.code}")
    expect(page.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    board = page.locator(".ck-board")
    table.act("host", {"type": "table.another", "game": "chakart"})
    table.start()
    expect(board).to_be_visible()
    sheets = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((link) => link.dataset.game)")
    assert sheets[-1] == "chakart" and "dice" in sheets
    expect(board).to_have_css("position", "relative")  # a rule of Chakart's sheet only
    assert phone.page_errors == [] and phone.failed == [] and phone.bad_status == []
