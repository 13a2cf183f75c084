"""How pages and static files travel to a phone: compressed, and cached.

* Text answers (HTML, scripts, styles, JSON, SVG) of a kilobyte or more go
  out gzip-compressed to a browser that accepts it; a static file is
  compressed once per version and kept in memory (the files are few and small).
* Every ``url_for('static', …)`` carries the file's content hash (``?v=…``):
  such a URL never changes meaning, so it is cached for a year and never asked
  again. The scripts those pages import by relative path have no version in
  their URL: they are revalidated (``no-cache``) and answered 304, without a
  body, while they are unchanged.
* A page's scripts come bundled and minified when the checkout's bundle is up to date
  (`companion.web.bundles`): the files of ``static/bundles/`` carry their content hash in their
  names, so they too are cached for a year, without ``?v=``.
* Game scripts are loaded only at a table that plays the game
  (``static/js/games/index.js``), and a phone's style sheet holds no other game's rules
  (``?game=``, `companion.web.styles`).
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from flask import Flask, Response, request
from markupsafe import Markup

from companion.event_loop import off_the_loop
from companion.games import REGISTRY
from companion.web.bundles import FOLDER as BUNDLES, MANIFEST, Bundles
from companion.web.styles import styles_for

# WebAssembly too: the verify page's Python (8.6 MB) travels as 2.8 MB, compressed once per process; and
# zips, stored uncompressed so that each checkout builds the same bytes: Python's standard library compiled
# ahead and cut to what the page imports (scripts/pyodide_stdlib.mjs, 3.0 MB) travels as 1.2 MB (the rules zip's
# own route gzips it).
COMPRESSIBLE = ("text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "image/svg+xml", "text/plain", "application/wasm", "application/zip")
SMALLEST_WORTH_COMPRESSING = 1024
YEAR = 365 * 24 * 3600
# Compressing a body this large takes long enough (the 8.6 MB WebAssembly file: 0.6 s here, seconds on a
# Raspberry Pi) to freeze every phone of the server if it ran on gevent's event loop.
LARGE_BODY = 256 * 1024


def _gzip(body: bytes, level: int = 6) -> bytes:
    return gzip.compress(body, compresslevel=level, mtime=0)  # mtime 0: the same file, the same bytes


def gzipped(body: bytes) -> bytes:
    return off_the_loop(_gzip, body) if len(body) >= LARGE_BODY else _gzip(body)


def gzipped_once(body: bytes) -> bytes:
    """A static file's body, compressed once per version: at the best level, which costs nothing after
    (a phone's scripts 1 to 2 % smaller), but for a large one (the verify page's Python, seconds more)."""
    return gzipped(body) if len(body) >= LARGE_BODY else _gzip(body, 9)


class StaticVersions:
    """The content hash of each static file, recomputed when the file changes."""

    def __init__(self, folder: str):
        self.folder = Path(folder)
        self._known: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def of(self, filename: str) -> str | None:
        path = self.folder / filename
        try:
            changed = path.stat().st_mtime
        except OSError:
            return None
        with self._lock:
            known = self._known.get(filename)
            if known and known[0] == changed:
                return known[1]
            version = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            self._known[filename] = (changed, version)
            return version


class BodyCache:
    """Bodies made from static files (compressed, or cut), by URL path, query and ETag (bounded: the
    static folder is small)."""

    def __init__(self, make: Callable[..., bytes], limit: int = 256):
        self._make = make
        self._bodies: dict[tuple, bytes] = {}
        self._limit = limit
        self._lock = threading.Lock()

    def get(self, key: tuple, *args) -> bytes:
        with self._lock:
            cached = self._bodies.get(key)
        if cached is None:
            cached = self._make(*args)
            with self._lock:
                if len(self._bodies) >= self._limit:
                    self._bodies.clear()
                self._bodies[key] = cached
        return cached


def accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def compressible(response: Response) -> bool:
    return (response.status_code == 200 and "Content-Encoding" not in response.headers
            and (response.mimetype or "") in COMPRESSIBLE and not request.path.startswith("/socket.io"))


# Headers of a static file a browser does not use here, about 100 bytes per file: it is shown inline
# anyway, its ETag revalidates it (not its date), and a compressed body is never asked for by range.
UNUSED_STATIC_HEADERS = ("Content-Disposition", "Last-Modified", "Accept-Ranges")


def _trim_static_headers(response: Response) -> None:
    for name in UNUSED_STATIC_HEADERS:
        if name != "Last-Modified" or response.get_etag()[0]:
            response.headers.pop(name, None)


def _sheet_game(response: Response) -> str | None:
    """The game of a style sheet asked for one game's phone (``?game=``, `companion.web.styles`)."""
    game = request.args.get("game")
    if response.status_code == 200 and response.mimetype == "text/css" and game in REGISTRY:
        return game
    return None


def _hashed_name(filename: str) -> bool:
    """A file of the bundle: its name is its content's hash (the manifest's is not)."""
    return filename.startswith(BUNDLES + "/") and filename != f"{BUNDLES}/{MANIFEST}"


@lru_cache(maxsize=4)
def _icon_url(path: Path, changed: float) -> Markup:
    svg = path.read_text(encoding="utf-8").strip().replace('"', "'")
    return Markup("data:image/svg+xml," + quote(svg, safe=" '/:=;,()"))  # no " < > & left: safe in an attribute


def icon_url(static_folder: str) -> Markup:
    """The pages' icon (static/icon.svg, 250 bytes), inside the page: a phone's first load asks for one
    file less (550 bytes on the wire)."""
    path = Path(static_folder) / "icon.svg"
    return _icon_url(path, path.stat().st_mtime)


def init_app(app: Flask) -> None:
    versions = StaticVersions(app.static_folder)
    app.jinja_env.globals["page_script"] = Bundles(bundled=app.config.get("BUNDLED", True)).page_script
    app.jinja_env.globals["icon_url"] = lambda: icon_url(app.static_folder)
    cache = BodyCache(gzipped_once)
    sheets = BodyCache(lambda body, game: styles_for(body.decode("utf-8"), game).encode("utf-8"))

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values and values.get("filename") and not _hashed_name(values["filename"]):
            version = versions.of(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def deliver(response: Response) -> Response:
        if request.endpoint == "static":
            filename = request.view_args["filename"]
            versioned = _hashed_name(filename) or (request.args.get("v") and request.args.get("v") == versions.of(filename))
            response.cache_control.no_cache = None if versioned else True
            response.cache_control.public = True
            response.cache_control.max_age = YEAR if versioned else 0
            if versioned:
                response.cache_control.immutable = True
            _trim_static_headers(response)
            game = _sheet_game(response)
            if game:
                response.direct_passthrough = False
                response.set_data(sheets.get((request.path, game, response.get_etag()[0]), response.get_data(), game))
        response.vary.add("Accept-Encoding")
        if not accepts_gzip() or not compressible(response):
            return response
        static = request.endpoint == "static"
        if static:
            response.direct_passthrough = False
        body = response.get_data()
        if len(body) < SMALLEST_WORTH_COMPRESSING:
            return response
        if static and response.get_etag()[0]:
            compressed = cache.get((request.path, request.args.get("game"), response.get_etag()[0]), body)
            response.set_etag(response.get_etag()[0], weak=True)  # the same file, in another encoding
        else:
            compressed = gzipped(body)
        response.set_data(compressed)
        response.headers["Content-Encoding"] = "gzip"
        return response
