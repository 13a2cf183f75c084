"""A phone's first load of a table, measured by the browser's own resource timing in headless Chromium
(``transferSize``: each answer's encoded body plus the 300 bytes Chromium counts for its headers):
compressed, bundled and minified (`companion.web.bundles`), only the game's own script and style rules
(never the verify page's Python). Three paths, each printed and each under 50 KB, in English and in French: a phone
that holds a seat, one that arrives by the QR code and takes a seat by name, and a Rayman table's phone; a reload
downloads no body again. A French phone loads the bundle written in French, and shows no message in English; a
message missing is shown in English, never blank. A phone also runs the modules as written, unbundled.
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
from babel.messages import jslexer
from playwright.sync_api import expect

from companion.event_loop import off_the_loop
from companion.games import REGISTRY
from companion.served import served_static
from companion.web import bundles
from companion.web.bundles import Bundles
from companion.web.i18n import browser_catalogue, labels_catalogue
from companion.web.styles import GAME_MARKERS, styles_for
from tests import layout_states
from tests.server import ServerProcess, server_fixture
from tests.test_browser import PHONE, as_seat, browser, open_context, seat_via_api, take_seat  # noqa: F401

BUDGET = 50 * 1024  # issue 29: every path of a phone's first load
ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "fr")
SEAT_BUTTON = {"en": "Take a seat", "fr": "Prendre place"}

# The module's server; its Rayman table is played over the API, faster than thumbs.
server = server_fixture("first-load", layout_states.FAST)


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


def phone_in(language: str, open_context, server: ServerProcess):
    """A phone's browser context; a French phone chose French (the language cookie the page's link sets)."""
    phone = open_context(**PHONE)
    if language != "en":
        phone.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
    return phone


def page_data(html: str, name: str):
    found = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', html, re.S)
    return json.loads(html_text.unescape(found.group(1))) if found else None


def test_a_french_page_loads_its_bundle_written_in_french_and_carries_no_catalogue(client, bundled):
    table = client.post("/api/tables", json={"game": "rayman"}).get_json()
    french, english = (client.get(f"/t/{table['code']}?lang={language}").get_data(as_text=True)
                       for language in ("fr", "en"))
    phone = bundled["translated"]["fr"]["phone"]
    assert re.fullmatch(r"fr-[0-9a-f]{12}/phone-\w+\.js", phone["script"])
    assert f'<script type="module" src="/static/bundles/{phone["script"]}"></script>' in french
    assert page_data(french, "i18n") == {} == page_data(english, "i18n")  # English: the key is the text
    folder = ROOT / "static" / "bundles"
    script = (folder / phone["script"]).read_text(encoding="utf-8")
    assert "Connexion…" in script and "Connecting…" not in script  # connection.js's message, written in French
    assert "Connecting…" in (folder / bundled["entries"]["phone"]["script"]).read_text(encoding="utf-8")
    answer = client.get(f"/static/bundles/{phone['script']}", headers={"Accept-Encoding": "gzip"})
    assert cached_for_a_year(answer) and gzip.decompress(answer.data) == script.encode()


def added_strings(path: Path) -> dict:
    """What a file of a translated bundle adds to the page's strings as it runs (none: {})."""
    added = r"Object\.assign\(globalThis\.companionStrings\?\?=\{\},(\{.*?\})\);\n"
    found = re.match(added, path.read_text(encoding="utf-8"))
    return json.loads(found.group(1)) if found else {}


def test_a_games_screen_brings_its_labels_and_the_messages_the_bundle_could_not_write(bundled):
    folder = ROOT / "static" / "bundles"
    french = {path.name: added_strings(path) for path in folder.glob("fr-*/*.js")}
    rayman = next(strings for strings in french.values() if "choosing the cards in secret" in strings)  # its screen
    assert rayman["choosing the cards in secret"] == "choisir les cartes en secret"  # a phase label: the view names it
    assert rayman["Blue Ptizêtre"] == "Ptizêtre bleu"  # a name of the game's box
    assert {msgid for strings in french.values() for msgid in strings} >= {"heart", "here"}  # compared: as written
    assert "Locked in." not in rayman  # written in French, inside a template literal's ${} too
    assert "Engines" not in rayman and "Moteurs améliorés" in [strings.get("Engines") for strings in french.values()]
    assert not [name for name in folder.glob("en-*/*.js") if added_strings(name)]  # English adds nothing
    assert sum(len(json.dumps(strings)) for strings in french.values()) < 20_000  # not the catalogue again


def test_no_file_of_the_french_bundle_shows_a_message_in_english_it_does_not_translate(bundled):
    """Each message left as written in a French file (a string its code also compares) comes with its
    translation in that very file: whichever file a page loads, t() finds it."""
    french = browser_catalogue("fr")
    untranslated = {msgid for msgid, text in french.items() if isinstance(text, str) and text != msgid}
    folder = ROOT / "static" / "bundles"
    checked = 0
    for path in folder.glob("fr-*/*.js"):
        text = path.read_text(encoding="utf-8")
        literals = {jslexer.unquote_string(token) for kind, token, _, _ in bundles._tokens(text, jsx=False)[0]
                    if kind in ("string", "template_string")}
        assert literals & untranslated <= set(added_strings(path)), path.name
        checked += 1
    assert checked == len([name for name in bundled["files"] if name.startswith("fr-")]) > 10


def test_a_translated_bundle_writes_only_the_messages_its_code_never_uses_otherwise():
    script = ('const x=n("Roll"),y=n(`Roll`),z=n("Mode");if(k==="Mode")f(q`Roll`,`Roll ${n("Roll")}`,"Roll me");'
              'o(m("%(count)s point","%(count)s points",2),"Unknown")')
    french = {"Roll": "Lancer", "Mode": "Mode de jeu", "Roll me": "Lance-moi",
              "%(count)s point": "%(count)s pt", "%(count)s points": "%(count)s pts"}
    written, kept = bundles.translated_scripts({"a.js": script}, french, plain={"Mode", "Roll me"})
    assert written["a.js"] == ('const x=n("Lancer"),y=n("Lancer"),z=n("Mode");if(k==="Mode")'
                               'f(q`Roll`,`Roll ${n("Lancer")}`,"Roll me");'
                               'o(m("%(count)s pt","%(count)s pts",2),"Unknown")')
    assert kept == {"a.js": {"Mode", "Roll me", "Roll"}}  # as written: the page needs them ("Roll": a tagged template)
    source = "t('A'); N_(\"B\"); tn('C', 'D', n); f('E'); // t('F')\nx = 'G' + t(`H`) + `I ${t('J')} ${f('K')}`;"
    assert bundles._plain_strings(source) == {"E", "G", "K"}


def test_a_file_that_only_reexports_a_chunk_is_left_out_and_the_chunk_exports_its_names():
    texts = {"page.js": 'import"./common.js";const s=()=>import("./view-A.js");',
             "view-A.js": 'import{b as x,c as y}from"./chunk-B.js";import"./common.js";export{x as render,y as target};',
             "chunk-B.js": 'import{t}from"./common.js";function r(){}let q=1;export{r as b,q as c};'}
    folded, moved = bundles.without_facades(texts)
    assert moved == {"view-A.js": "chunk-B.js"} and set(folded) == {"page.js", "chunk-B.js"}
    assert folded["page.js"] == 'import"./common.js";const s=()=>import("./chunk-B.js");'
    assert folded["chunk-B.js"].endswith("export{r as b,q as c,r as render,q as target};")
    clash = {**texts, "chunk-B.js": texts["chunk-B.js"].replace("q as c", "q as c,q as render")}
    assert "view-A.js" in bundles.without_facades(clash)[0]  # a name the chunk already exports: left as it is


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


# Each piece of text the page shows (a text node of its own, or an attribute a reader hears), trimmed.
SHOWN = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('script, style, [hidden]') === null) texts.push(node.textContent.trim());
  }
  for (const node of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
    texts.push(...['aria-label', 'title', 'placeholder'].map((name) => node.getAttribute(name)?.trim()));
  }
  return texts.filter(Boolean);
}"""


def untranslated() -> set[str]:
    """The screens' English messages that French says otherwise (the scripts' and the games' labels)."""
    french = {**browser_catalogue("fr"), **labels_catalogue("fr")}
    return {msgid for msgid, text in french.items() if isinstance(text, str) and text != msgid and "%(" not in msgid}


def shown_in_english(page, language: str) -> list[str]:
    """What a French page shows of the screens' messages in English: a string its strings lacked."""
    return sorted(set(page.evaluate(SHOWN)) & untranslated()) if language == "fr" else []


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


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dice_table_loads_under_50_kb_and_a_reload_downloads_no_body_again(server, open_context, language):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    token = seat_via_api(server, table["code"], "Ana")
    phone = phone_in(language, open_context, server)
    as_seat(phone, table["code"], token)
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator(".dice-game")).to_be_visible()
    first = measured(page, f"first load of a dice table, a seated phone ({language})")
    only_its_game(first, "dice")
    assert shown_in_english(page, language) == []
    assert not [entry for entry in first if "/qr.svg" in entry["name"]]  # folded away: not loaded
    assert sum(entry["transfer"] for entry in first) < BUDGET, heaviest(first)

    page.reload()
    expect(page.locator(".dice-game")).to_be_visible()
    again = [entry for entry in page.evaluate(LOADED)
             if "/static/" in entry["name"]]
    downloaded = [entry for entry in again if entry["transfer"] > 0 and entry["transfer"] >= entry["body"] > 0]
    print(f"reload: {sum(entry['transfer'] for entry in again)} bytes for {len(again)} static files")
    assert again and downloaded == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_arriving_by_the_qr_code_takes_a_seat(server, open_context, language):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    page = phone_in(language, open_context, server).new_page()
    page.goto(f"{server.url}/t/{table['code']}")  # the QR code's address
    take_seat(page, "Ana", SEAT_BUTTON[language])
    expect(page.locator(".dice-game")).to_be_visible()
    loaded = measured(page, f"first load of a dice table by the QR code, the join form then the seat ({language})")
    only_its_game(loaded, "dice")
    assert shown_in_english(page, language) == []
    assert sum(entry["transfer"] for entry in loaded) < BUDGET, heaviest(loaded)


def test_a_message_the_page_lacks_is_shown_in_english_never_blank(server, open_context):
    table = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    page = phone_in("fr", open_context, server).new_page()
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator(".join-form")).to_be_visible()
    shown = page.evaluate("""() => import('/static/js/i18n.js').then(({ t, tn }) => [
      t('Not a message of the catalogue, %(name)s', { name: 'Ana' }),
      tn('%(count)s new thing', '%(count)s new things', 2), t('Connecting…')])""")
    assert shown == ["Not a message of the catalogue, Ana", "2 new things", "Connecting…"]  # the page carries none


unbundled_server = server_fixture("first-load-unbundled", {"COMPANION_BUNDLED": "0"})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_runs_the_modules_as_written_when_they_are_not_bundled(unbundled_server, open_context, language):
    """What a checkout whose bundle is missing or stale serves (COMPANION_BUNDLED=0 here): the page holds
    every string, and fetches none."""
    table = requests.post(f"{unbundled_server.url}/api/tables", json={"game": "dice"}, timeout=10).json()
    phone = phone_in(language, open_context, unbundled_server)
    page = phone.new_page()
    page.goto(f"{unbundled_server.url}/t/{table['code']}")
    take_seat(page, "Ana", SEAT_BUTTON[language])
    expect(page.locator(".dice-game")).to_be_visible()
    names = [entry["name"] for entry in page.evaluate(LOADED)]
    assert [name for name in names if "/static/js/phone.js" in name] and not [name for name in names if "/bundles/" in name]
    assert [name for name in names if "/static/js/record.js" in name]  # the phone's own record, at its seat
    assert shown_in_english(page, language) == []
    assert phone.page_errors == [] and phone.failed == [] and phone.bad_status == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rayman_tables_phone(server, open_context, language):
    table = layout_states.rayman_choosing(server.url)
    phone = phone_in(language, open_context, server)
    as_seat(phone, table.code, table.tokens[table.phone])
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table.code}")
    expect(page.locator(".game-area .rayman, .game-area [class^=rm-]").first).to_be_attached()
    page.wait_for_load_state("networkidle")
    loaded = measured(page, f"first load of a Rayman table, a seated phone choosing its cards ({language})")
    only_its_game(loaded, "rayman")
    assert shown_in_english(page, language) == []
    assert sum(entry["transfer"] for entry in loaded) < BUDGET, heaviest(loaded)


def test_a_phone_whose_table_moves_to_another_game_gets_that_games_style_rules(server, open_context):
    """The phone's sheet holds its first game's rules only: Chakart's come with Chakart's screen, last."""
    table = layout_states.Table.create(server.url, "dice", {}, ("Ana", "Bo"))
    phone = open_context(**PHONE)
    as_seat(phone, table.code, table.tokens["Ana"])
    page = phone.new_page()
    page.goto(f"{server.url}/t/{table.code}")
    expect(page.locator(".seat-view .status")).to_have_attribute("data-state", "connected")
    board = page.locator(".ck-board")
    table.act("host", {"type": "table.another", "game": "chakart"})
    table.start()
    expect(board).to_be_visible()
    sheets = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((link) => link.dataset.game)")
    assert sheets[-1] == "chakart" and "dice" in sheets
    expect(board).to_have_css("position", "relative")  # a rule of Chakart's sheet only
    assert phone.page_errors == [] and phone.failed == [] and phone.bad_status == []
