"""Server-rendered pages: the host screen, the phone, the join card, verify."""

from __future__ import annotations

import functools
import json
import logging
import posixpath
import re

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from companion.games import REGISTRY
from companion.games.base import N_
from companion.games.rayman.components import label_groups
from companion.option_texts import shown_value
from companion.rules_bundle import SOURCE, rules_hash, served_bundle
from companion.served import compiled_by
from companion.tables import TableError, normalize_code
from companion.web import game_number, tables
from companion.web.i18n import translate
from companion.web.delivery import accepts_gzip, gzipped
from companion.web.links import join_url, public_base, qr_svg
from companion.web.security import CONTENT_SECURITY_POLICY

pages = Blueprint("pages", __name__)
log = logging.getLogger(__name__)
STDLIB = SOURCE / "static" / "vendor" / "pyodide" / "python_stdlib.zip"


def _table_or_error_page(raw_code: str, allow_closed: bool = False):
    """The table's summary, or a clear page saying why there is none."""
    try:
        log = tables().summary(raw_code)
    except TableError as error:
        return None, (render_template("error.html", message=translate(error), code=raw_code), error.status)
    if log["status"] == "closed" and not allow_closed:
        message = gettext("This table is closed.")
        return None, (render_template("closed.html", message=message, code=log["code"]), 410)
    return log, None


def game_choices() -> list[dict]:
    """The games a table can play next ("Another game"), in the page's language."""
    return [{"id": game.id, "title": gettext(game.title)} for game in REGISTRY.values()]


@pages.app_context_processor
def next_games():
    return {"game_choices": game_choices}


@pages.app_context_processor
def option_values():
    """The create form shows each option's value by name, in the page's language (ids stay in the table)."""
    return {"shown_option": lambda game, option, value: shown_value(game, option, value, gettext)}


@pages.get("/")
def home():
    # The shared die first: it needs nothing but phones.
    games = sorted(REGISTRY.values(), key=lambda game: (game.id != "dice", game.id))
    return render_template("home.html", games=games)


@pages.get("/join")
def join():
    raw = request.args.get("code", "")
    code = normalize_code(raw)
    if code:
        return redirect(url_for("pages.phone", code=code))
    return render_template("join.html", attempted=raw.strip()[:12])


@pages.get("/host/<code>")
def host(code: str):
    table, error = _table_or_error_page(code, allow_closed=True)
    if error:
        return error
    return render_template("host.html", code=table["code"], game=table["game"],
                           join_url=join_url(table["code"]), commitment=table["commitment"])


# What a phone that would only watch is told before it types a name: that it will watch, and
# what the host can do to seat it.
WATCH_NOTICES = {
    "closed": N_("Joining is closed at this table: you will watch as a spectator. The host can open "
                 "joining on the host screen; then take your seat here."),
    "started": N_("The game has started: you will watch as a spectator. The host can hand you the seat of "
                  "a player who is away (a QR code on the host screen), or seat you when this game ends."),
    "full": N_("The table is full (%(count)s seats): you will watch as a spectator. The host can remove a "
               "seat to make room; then take your seat here."),
}


@pages.get("/t/<code>")
def phone(code: str):
    table, error = _table_or_error_page(code)
    if error:
        return error
    if code != table["code"]:
        return redirect(url_for("pages.phone", code=table["code"]))
    refusal = tables().join_refusal(table["code"])
    notice = None
    if refusal:
        why = WATCH_NOTICES[refusal["reason"]]
        notice = gettext(why, count=refusal["max_seats"])
    return render_template("phone.html", code=table["code"], game=table["game"], watch_notice=notice,
                           join_url=join_url(table["code"]))


@pages.get("/t/<code>/screen")
def screen(code: str):
    """A TV or laptop showing the table: the QR code and the public state, without host rights."""
    table, error = _table_or_error_page(code, allow_closed=True)
    if error:
        return error
    return render_template("screen.html", code=table["code"], game=table["game"], display=True,
                           join_url=join_url(table["code"]), commitment=table["commitment"])


PAIRING = re.compile(r"^[A-Za-z0-9]{6}$")


@pages.get("/screen")
def display():
    """A TV that cannot scan: it shows a short code (and its QR code) that the host's phone sends; it then
    turns into the table's display (companion/displays.py)."""
    return render_template("display_pair.html")


@pages.get("/screen/qr.svg")
def display_qr():
    """The address the host's phone opens to pair the TV showing ``?pairing=``."""
    pairing = request.args.get("pairing", "")
    if not PAIRING.match(pairing):
        abort(404)
    address = public_base() + url_for("pages.pair", pairing=pairing.upper())
    return Response(qr_svg(address), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@pages.get("/pair/<pairing>")
def pair(pairing: str):
    """The host's phone scanned a TV's code: it sends it for the table it hosts (static/js/pair.js)."""
    if not PAIRING.match(pairing):
        abort(404)
    return render_template("pair.html", pairing=pairing.upper())


@pages.get("/t/<code>/hand/<handoff>")
def handoff(code: str, handoff: str):
    """The address of a seat's hand-off QR code: the phone page, which claims the seat."""
    normalized = normalize_code(code)
    if normalized is None or not HANDOFF.match(handoff):
        abort(404)
    return redirect(url_for("pages.phone", code=normalized, hand=handoff.upper()))


@pages.get("/t/<code>/card")
def card(code: str):
    table, error = _table_or_error_page(code)
    if error:
        return error
    return render_template("card.html", code=table["code"], join_url=join_url(table["code"]),
                           commitment=table["commitment"])


CLAIM = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
HANDOFF = re.compile(r"^[A-Za-z0-9]{4,12}$")


@pages.get("/t/<code>/qr.svg")
def qr(code: str):
    """The join address; with ?claim=, the address that claims a figure waiting on the host screen."""
    normalized = normalize_code(code)
    claim, hand = request.args.get("claim"), request.args.get("hand")
    if normalized is None or (claim is not None and not CLAIM.match(claim)) or (
            hand is not None and not HANDOFF.match(hand)):
        abort(404)
    if hand:  # a seat handed to another phone: the code is in the address the QR code holds
        address = join_url(normalized) + f"/hand/{hand.upper()}"
    else:
        address = join_url(normalized) + (f"?claim={claim}" if claim else "")
    return Response(qr_svg(address), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@functools.cache
def _stdlib_checked() -> str:
    """What made the standard library the verify page's Python loads, said once in the log when it is not
    compiled ahead (./manage.sh install compiles it): the page still works, its Python starts slower."""
    made = compiled_by(STDLIB)
    if not made.startswith("compiled by "):
        log.warning("%s is %s, not compiled ahead: the verify page's Python compiles the modules it imports on "
                    "each visit (tens of seconds on a slow phone); ./manage.sh install compiles it",
                    STDLIB, "missing or no zip" if made == "no zip" else "source")
    return made


@functools.cache
def _pyodide_lock() -> dict | None:
    """Pyodide's lock file as the verify page hands it to Pyodide: its ``info`` (which Pyodide checks against
    itself) without its packages, which the replay never loads. Pyodide then does not download the 110 KB
    file (25 KB gzipped) on every first visit. None without the file: Pyodide downloads it."""
    try:
        lock = json.loads((STDLIB.parent / "pyodide-lock.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return {"info": lock.get("info", {}), "packages": {}}


# A module's static imports of a file beside it (``import … from './x.js'``, ``export … from '../y.js'``, ``import
# './z.js'``): a package's name ('@noble/…', in a comment) or a dynamic ``import(…)`` is no such import.
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"`;]*?(?:\bfrom\s*)?['"](\.\.?/[^'"]+\.js)['"]""", re.M)
VERIFY_SCRIPT = "js/verify.js"


@functools.cache
def module_graph(entry: str) -> tuple[str, ...]:
    """Every module ``entry`` (a path under static/) imports, directly or not, by its path under static/, in the
    order a browser finds them (breadth first), ``entry`` left out. The verify page names them in its HTML
    (``<link rel=modulepreload>``): the browser asks for them all as it reads the page, not one level of imports
    after the other as each arrives (a phone's 20 ms a round trip, and its slow CPU, each level). Found once per
    process, as the rules zip is: the scripts do not change while a server runs."""
    static = SOURCE / "static"
    found, waiting = [], [entry]
    while waiting:
        path = waiting.pop(0)
        text = (static / path).read_text(encoding="utf-8")
        for imported in STATIC_IMPORT.findall(text):
            name = posixpath.normpath(posixpath.join(posixpath.dirname(path), imported))  # static/vendor may be a link
            if name != entry and name not in found:
                found.append(name)
                waiting.append(name)
    return tuple(found)


@pages.get("/t/<code>/verify")
def verify(code: str):
    _stdlib_checked()
    table, error = _table_or_error_page(code, allow_closed=True)
    if error:
        return error
    try:
        number = game_number(request.args.get("game"))
    except TableError as error:
        return render_template("error.html", message=translate(error), code=code), error.status
    # With the games' own messages: the replay quotes a refusal of the rules in the page's language.
    response = make_response(render_template("verify.html", code=table["code"], rules_strings=True,
                                              number=number, closed=table["status"] == "closed",
                                              pyodide_lock=_pyodide_lock(), modules=module_graph(VERIFY_SCRIPT)))
    # The replay runs CPython compiled to WebAssembly, which the browser compiles only with this
    # (it allows no script evaluation, only WebAssembly). This page only: no table page runs Python.
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
        "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
    return response


@functools.cache
def _gzipped_bundle() -> bytes:
    return gzipped(served_bundle())


@pages.get("/verify/rules.zip")
def rules_zip():
    """The verifier and the games' rules the verify page replays a game with (`companion.rules_bundle`):
    its ETag is its SHA-256, which ``python -m companion.verify --rules-hash`` prints."""
    compressed = accepts_gzip()  # the zip is stored uncompressed, so that its hash is the same everywhere
    response = Response(_gzipped_bundle() if compressed else served_bundle(), mimetype="application/zip")
    if compressed:
        response.headers["Content-Encoding"] = "gzip"
    response.set_etag(rules_hash(), weak=compressed)
    response.cache_control.no_cache = True  # revalidated: a new version of the server may bring new rules
    response.cache_control.public = True
    return response.make_conditional(request)


@pages.get("/rankings")
def rankings():
    """Criteria rankings: a table's figures (``?table=CODE``) or figures picked from the catalogue."""
    return render_template("rankings.html", table=request.args.get("table", "")[:12],
                           criterion=request.args.get("criterion", "lightest")[:40])


@pages.get("/rayman/labels")
def rayman_labels():
    """A printable sheet of numbered labels for the Rayman components the box does not name."""
    translated = gettext  # msgids from the game module (extracted there), not string literals here
    groups = [{"title": translated(group["title"]),
               "labels": [translated(group["label"]) % item for item in group["items"]]} for group in label_groups()]
    return render_template("rayman_labels.html", groups=groups)


@pages.app_errorhandler(404)
def not_found(error):
    if request.path.startswith("/api/"):
        from companion.web.api import http_error
        return http_error(error)
    return render_template("error.html", message=gettext("There is nothing at this address.")), 404


@pages.app_errorhandler(405)
def method_not_allowed(error):
    # Routing errors never reach the API blueprint's own handlers: answer JSON here.
    if request.path.startswith("/api/"):
        from companion.web.api import http_error
        return http_error(error)
    return error
