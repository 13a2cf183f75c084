"""What a server serves, against this checkout: ``python -m companion.verify --server URL [--table CODE]``.

The verify page runs the server's code: an operator who changed it could make the page lie. This
check runs only the checkout's own code (a clone of the release) and reports every difference:

* every file under the checkout's ``static/`` (scripts, styles, the vendored hashes and Python), byte
  for byte as the server serves it, and each static URL a page uses, with its ``?v=`` as the page has it;
  Python's standard library as the checkout's install compiled it ahead (scripts/pyodide_stdlib.mjs);
* the rules zip the verify page replays games with, by its SHA-256 (``--rules-hash``), compiled ahead as
  the checkout's install compiled it (``python -m companion.rules_bundle``), or as source where it did not;
* the pages (the home page, the TV's, the rankings; with ``--table`` that table's phone, host, TV, card
  and verify pages): what each makes the browser run or load (scripts, styles, the rules zip, Python,
  inline scripts and event handlers) and its Content-Security-Policy, against the same page rendered
  by this checkout (for a table of the same game, in the same state, in a database of its own).

It proves what the server sent to this check, not what it sends to a given phone: see docs/fairness.md.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import tempfile
import urllib.error
import urllib.request
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from companion.rules_bundle import SOURCE, rules_hash, served_bundle

STATIC = SOURCE / "static"
TIMEOUT = 60
PUBLIC_PAGES = ("/", "/join", "/screen", "/rankings", "/rayman/labels")
TABLE_PAGES = ("/t/{code}", "/t/{code}/screen", "/t/{code}/verify", "/t/{code}/card", "/host/{code}")
LANGUAGES = ("en", "fr")  # each page in each: its words (its translations) are compared too
# Attributes whose value a browser loads or runs, and data attributes that name what a script loads.
LOADED = {"src", "href", "srcset", "poster", "action", "formaction"}
NOT_RUN = {"application/json", "application/ld+json"}  # data blocks: nothing runs
# Data the page hands to its Python as it starts it (Pyodide's lock file, companion/web/pages.py): compared too.
HANDED_TO_PYTHON = {"data-pyodide-lock"}


class Unreachable(Exception):
    pass


def fetch(url: str, language: str = "en") -> tuple[int, dict, bytes]:
    """One GET without compression (the bytes as stored): status, headers, body."""
    request = urllib.request.Request(url, headers={"Accept-Language": language, "Accept-Encoding": "identity"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310 (the URL given)
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except (urllib.error.URLError, OSError) as error:
        raise Unreachable(f"{url}: {error}") from error


class PageParts(HTMLParser):
    """What a page makes the browser load or run: each local URL (with its query), each inline script
    (by its SHA-256) and each inline event handler."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: set[str] = set()
        self._script: str | None = None
        self._kind = ""

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if value is None:
                continue
            if name.startswith("on"):
                self.parts.add(f"inline handler {name}={value!r} on <{tag}>")
            elif name in LOADED or name in HANDED_TO_PYTHON or (
                    name.startswith("data-") and value.startswith(("/static/", "/verify/"))):
                if tag == "a" and name == "href" and not value.startswith(("/static/", "/verify/")):
                    continue  # a link the reader follows is no part of the page
                self.parts.add(f"<{tag} {name}> {value}")
        if tag == "script" and "src" not in attributes:
            # A data block runs nothing, but the page's words come from one (its translations): compared too.
            self._kind = "inline script" if attributes.get("type") not in NOT_RUN else \
                f"data block {attributes.get('id') or ''}".rstrip()
            self._script = ""

    def handle_data(self, data):
        if self._script is not None:
            self._script += data

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            digest = hashlib.sha256(self._script.strip().encode()).hexdigest()[:16]
            self.parts.add(f"{self._kind} (SHA-256 {digest}…)")
            self._script = None


def page_parts(html: str) -> set[str]:
    parser = PageParts()
    parser.feed(html)
    return parser.parts


def static_files() -> list[str]:
    """Every file of the checkout's static folder, as URL paths (its vendored files through their links)."""
    found = []
    for folder, _, names in os.walk(STATIC, followlinks=True):
        for name in names:
            found.append("/static/" + (Path(folder) / name).relative_to(STATIC).as_posix())
    return sorted(found)


def local_file(url_path: str) -> Path | None:
    """The checkout's file for a ``/static/…`` URL path (none for a path outside the folder)."""
    relative = url_path[len("/static/"):]
    path = (STATIC / relative)
    if ".." in Path(relative).parts or not path.is_file():
        return None
    return path


def compare_static(base: str, url_paths: list[str]) -> list[str]:
    differences = []
    for url_path in url_paths:
        path = local_file(urlsplit(url_path).path)
        if path is None:
            differences.append(f"{url_path}: the page uses a static file this checkout does not have")
            continue
        status, _, body = fetch(base + url_path)
        expected = served_static(path, url_path)
        if status != 200:
            differences.append(f"{url_path}: not served ({status})")
        elif body != expected:
            differences.append(f"{url_path}: the server's file differs from the checkout's "
                               f"(SHA-256 {hashlib.sha256(body).hexdigest()[:16]}…, the checkout's "
                               f"{hashlib.sha256(expected).hexdigest()[:16]}…)" + compiled_difference(body, expected))
    return differences


def compiled_by(zipped: bytes | Path) -> str:
    """What made a standard library zip (its bytes, or its file): its source as vendored, or the Python that
    compiled it ahead (scripts/pyodide_stdlib.py says so in the zip's comment)."""
    try:
        with zipfile.ZipFile(io.BytesIO(zipped) if isinstance(zipped, bytes) else zipped) as archive:
            comment = archive.comment.decode("utf-8", "replace")
    except (zipfile.BadZipFile, OSError):
        return "no zip"
    return comment.split(" (")[0].split(" from ")[0] if comment.startswith("compiled by ") else "source"


def compiled_difference(served: bytes, own: bytes,
                        how: str = "node scripts/pyodide_stdlib.mjs static/vendor/pyodide/python_stdlib.zip") -> str:
    """For a zip compiled ahead (Pyodide's standard library, the rules), whose bytes depend on the compiling
    Python: what made each zip, when they differ, and how to make the checkout's the same way."""
    made = compiled_by(served), compiled_by(own)
    if "no zip" in made or made[0] == made[1]:
        return ""
    return (f"; the server's is {made[0]}, the checkout's {made[1]}: ./manage.sh install compiles the checkout's "
            f"with the page's own Python ({how})")


def served_static(path: Path, url_path: str) -> bytes:
    """The checkout's file as the server serves it at ``url_path``: a phone's style sheet holds its game's
    rules only (``?game=``, `companion.web.styles`)."""
    game = parse_qs(urlsplit(url_path).query).get("game", [None])[0]
    if path.suffix == ".css" and game:
        from companion.games import REGISTRY
        from companion.web.styles import styles_for

        if game in REGISTRY:
            return styles_for(path.read_text(encoding="utf-8"), game).encode("utf-8")
    return path.read_bytes()


def compare_rules(base: str) -> list[str]:
    status, _, body = fetch(base + "/verify/rules.zip")
    if status != 200:
        return [f"/verify/rules.zip: not served ({status}): the verify page cannot replay the rules"]
    served, own = hashlib.sha256(body).hexdigest(), rules_hash()
    if served != own:
        return [f"/verify/rules.zip: SHA-256 {served}, this checkout's rules are {own} (--rules-hash)"
                + compiled_difference(body, served_bundle(), "python -m companion.rules_bundle")]
    return []


class LocalPages:
    """The checkout's own app, on a database of its own in a temporary folder, that renders each page."""

    def __init__(self, folder: str):
        settings = {"COMPANION_INSTANCE": folder, "COMPANION_DATABASE": str(Path(folder) / "local.sqlite3"),
                    "COMPANION_SECRET_KEY": "local-render-only", "COMPANION_READER": "none"}
        saved = {name: os.environ.get(name) for name in settings}
        os.environ.update(settings)
        try:
            from companion import create_app

            self.app = create_app({"TESTING": True, "DEADLINE_TICK": 0, "SWEEP_SECONDS": 0,
                                   "SHIPPED_CATALOGUE": None})
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        self.client = self.app.test_client()

    def table_like(self, game: str, closed: bool) -> str:
        """A table of ``game`` here, closed if the server's is: its pages use the same templates."""
        created = self.client.post("/api/tables", json={"game": game}).get_json()
        if closed:
            self.client.post(f"/api/tables/{created['code']}/close",
                             headers={"Authorization": f"Bearer {created['host_token']}"})
        return created["code"]

    def get(self, path: str, language: str):
        return self.client.get(path, headers={"Accept-Language": language})


def compare_pages(base: str, local: LocalPages, table: str | None) -> tuple[list[str], set[str]]:
    """Each page's differences, and the static URLs the served pages use (compared with their query)."""
    pages = [(path, path, None, None) for path in PUBLIC_PAGES]
    if table:
        status, _, body = fetch(f"{base}/api/tables/{table}/log")
        if status != 200:
            return [f"table {table}: the server does not show its log ({status})"], set()
        log = json.loads(body)
        code = local.table_like(log.get("game"), log.get("status") == "closed")
        pages += [(path.format(code=table), path.format(code=code), table, code) for path in TABLE_PAGES]
    differences, used = [], set()
    for (served_path, local_path, served_code, local_code), language in itertools.product(pages, LANGUAGES):
        status, headers, body = fetch(base + served_path, language)
        own = local.get(local_path, language)
        served_path = f"{served_path} ({language})"
        if status != own.status_code:
            differences.append(f"{served_path}: status {status}, this checkout's {own.status_code}")
            continue
        # The table's own address (its QR code) names its code: the same part at both tables.
        served_parts = {part.replace(served_code, "{code}") if served_code else part
                        for part in page_parts(body.decode("utf-8", "replace"))}
        own_parts = {part.replace(local_code, "{code}") if local_code else part
                     for part in page_parts(own.get_data(as_text=True))}
        differences += [f"{served_path}: only the server's page has {part}" for part in sorted(served_parts - own_parts)]
        differences += [f"{served_path}: only this checkout's page has {part}" for part in sorted(own_parts - served_parts)]
        csp = {name.lower(): value for name, value in headers.items()}.get("content-security-policy")
        if csp != own.headers.get("Content-Security-Policy"):
            differences.append(f"{served_path}: Content-Security-Policy {csp!r}, this checkout's "
                               f"{own.headers.get('Content-Security-Policy')!r}")
        used |= {part.split("> ", 1)[1] for part in served_parts
                 if part.startswith("<") and "> /static/" in part}
    return differences, used


def compare(base: str, table: str | None = None) -> tuple[list[str], int]:
    """Every difference, and how many files and pages were compared."""
    base = base.rstrip("/")
    with tempfile.TemporaryDirectory(prefix="companion-served-") as folder:
        pages, used = compare_pages(base, LocalPages(folder), table)
    files = static_files()
    differences = pages + compare_static(base, files) + compare_rules(base)
    differences += compare_static(base, sorted(url for url in used if url not in files))  # with their ?v=
    pages = (len(PUBLIC_PAGES) + (len(TABLE_PAGES) if table else 0)) * len(LANGUAGES)
    return differences, len(files) + len(used) + 1 + pages


def main(url: str, table: str | None) -> int:
    try:
        differences, compared = compare(url, table)
    except Unreachable as error:
        print(f"cannot reach the server: {error}")
        return 2
    for difference in differences:
        print(difference)
    if differences:
        print(f"{len(differences)} difference{'' if len(differences) == 1 else 's'} between what {url} serves "
              "and this checkout")
        return 1
    vendor = "" if (STATIC / "vendor").is_dir() else " (this checkout has no static/vendor: run ./manage.sh setup)"
    print(f"OK: the {compared} files, pages and rules zip {url} serves are this checkout's{vendor}")
    return 0
