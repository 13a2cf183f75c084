"""The pages' scripts, bundled and minified at install time (issue 29: a phone's first load under 50 KB).

``./manage.sh install`` (and ``serve``, ``install-test``) runs ``python -m companion.web.bundles``:
esbuild (package.json) bundles each page's entry module (`ENTRIES`) with what it imports, puts what it
loads later (a game's screen, a phone's record) and what that shares with it in chunks of their own, and
writes them all to ``static/bundles/`` (git-ignored) with their content hash in their names, beside a
manifest. A name never changes meaning: the browser keeps them for a year (`companion.web.delivery`).

A checkout whose bundle is missing, or older than the files it was built from (a script changed since
the last install), serves the modules unbundled, as written, and says so once in the log: the pages work
the same, they only weigh more. So a script can be changed and tried at once, and a server started
without the installer still runs.

The verify page is left out: it loads its modules as written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

from flask import url_for
from markupsafe import Markup

from companion.config import ROOT

FOLDER = "bundles"  # under static/
MANIFEST = "manifest.json"
# Each page's entry module (static/js/NAME.js), the name its template asks for (the print pages' one-line card.js
# and the verify page load theirs as written).
ENTRIES = ("display", "home", "host", "pair", "phone", "rankings")
# Part of the sources' hash: a bundle built with other options, or another esbuild, is stale too.
# package.json says the modules have no side effects but their exports (so unused ones are left out).
SETTINGS = ("package.json", "package-lock.json")
OPTIONS = ("--bundle", "--splitting", "--format=esm", "--minify", "--charset=utf8", "--preserve-symlinks",
           "--entry-names=[name]-[hash]", "--chunk-names=[name]-[hash]", "--log-level=warning")

SCRIPT = Markup('<script type="module" src="{}"></script>')
PRELOAD = Markup('<link rel="modulepreload" href="{}">')

log = logging.getLogger(__name__)


class BundleError(Exception):
    pass


def sources_hash(root: Path, inputs: list[str]) -> str:
    """The SHA-256 of the files a bundle is built from (paths relative to the checkout) and of the options."""
    digest = hashlib.sha256("\0".join(OPTIONS).encode())
    for name in sorted(inputs):
        digest.update(b"\0" + name.encode() + b"\0")
        try:
            digest.update((root / name).read_bytes())
        except OSError:
            digest.update(b"(missing)")
    return digest.hexdigest()


def _static_imports(outputs: dict, output: str) -> list[str]:
    """Every chunk an output imports before it runs, directly or not (the page preloads them)."""
    found: list[str] = []
    pending = [output]
    while pending:
        for imported in outputs[pending.pop()]["imports"]:
            if imported["kind"] == "import-statement" and imported["path"] not in found:
                found.append(imported["path"])
                pending.append(imported["path"])
    return found


def manifest_of(metafiles: list[dict], folder: str) -> dict:
    """What the pages need from esbuild's metafiles (one per entry): each entry's script and the chunks
    it imports at once (names inside the bundle folder), and the files it was all built from."""
    inside = lambda path: Path(path).relative_to(folder).as_posix()  # noqa: E731
    entries, inputs, files = {}, set(), set()
    for metafile in metafiles:
        outputs = metafile["outputs"]
        inputs |= set(metafile["inputs"])
        files |= {inside(output) for output in outputs}
        for output, made in outputs.items():
            entry = made.get("entryPoint", "")
            name = Path(entry).stem
            if entry == f"static/js/{name}.js" and name in ENTRIES:
                entries[name] = {"script": inside(output),
                                 "preload": [inside(chunk) for chunk in _static_imports(outputs, output)]}
    return {"inputs": sorted(inputs | set(SETTINGS)), "entries": entries, "files": sorted(files)}


def _bundle_entry(esbuild: Path, root: Path, entry: str, folder: str) -> dict:
    """One page's bundle, on its own: a page shares no chunk with another page (a phone opens one page,
    and fewer, larger chunks weigh less than the same code split for every page that could share it)."""
    metafile = root / folder / f".meta-{entry}-{os.getpid()}.json"
    command = [str(esbuild), f"static/js/{entry}.js", *OPTIONS, f"--outdir={folder}",
               f"--metafile={metafile.relative_to(root).as_posix()}"]
    made = subprocess.run(command, cwd=root, capture_output=True, text=True)
    try:
        if made.returncode != 0:
            raise BundleError(f"esbuild failed on static/js/{entry}.js:\n{made.stderr.strip()}")
        return json.loads(metafile.read_text(encoding="utf-8"))
    finally:
        metafile.unlink(missing_ok=True)


def build(root: Path = ROOT) -> dict:
    """Bundle the entries into static/bundles/, write its manifest, remove what an earlier build left."""
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BundleError(f"{esbuild} is missing: run ./manage.sh install (npm ci installs esbuild)")
    folder = root / "static" / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    relative_folder = folder.relative_to(root).as_posix()
    manifest = manifest_of([_bundle_entry(esbuild, root, entry, relative_folder) for entry in ENTRIES],
                           relative_folder)
    manifest["sources"] = sources_hash(root, manifest["inputs"])
    written = folder / f".{MANIFEST}.{os.getpid()}"
    written.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(written, folder / MANIFEST)  # a running server reads the old manifest or the new, whole
    for old in folder.iterdir():
        if old.name != MANIFEST and old.name not in manifest["files"] and not old.name.startswith("."):
            old.unlink()
    return manifest


class Bundles:
    """The bundle the pages use, while it is as new as its sources; otherwise none (modules unbundled)."""

    def __init__(self, root: Path = ROOT, bundled: bool = True):
        self.root = root
        self.bundled = bundled  # False: always the modules as written (COMPANION_BUNDLED=0)
        self.folder = root / "static" / FOLDER
        self._checked: tuple | None = None  # the sizes and times of the sources last hashed, and the answer
        self._lock = threading.Lock()
        self._warned = False

    def _manifest(self) -> dict | None:
        try:
            return json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def _stamp(self, manifest: dict) -> tuple:
        stamps = []
        for name in [MANIFEST, *manifest["inputs"]]:
            try:
                stat = (self.folder / name if name == MANIFEST else self.root / name).stat()
                stamps.append((name, stat.st_mtime_ns, stat.st_size))
            except OSError:
                stamps.append((name, None, None))
        return tuple(stamps)

    def fresh(self) -> dict | None:
        """The manifest, when the bundle was built from the sources as they are now."""
        manifest = self._manifest()
        if manifest is not None:
            stamp = self._stamp(manifest)  # a stat per source: hashing them again only when one changed
            with self._lock:
                if self._checked and self._checked[0] == stamp:
                    return self._checked[1]
            current = sources_hash(self.root, manifest["inputs"]) == manifest.get("sources")
            with self._lock:
                self._checked = (stamp, manifest if current else None)
            if current:
                return manifest
        return None

    def page_script(self, entry: str) -> Markup:
        """A page's script tag: its bundle and the chunks it imports at once, or its module as written."""
        manifest = self.fresh() if self.bundled else None
        bundled = manifest and manifest["entries"].get(entry)
        if not bundled:
            if self.bundled:
                self._warn_once("stale" if self._manifest() else "missing")
            return SCRIPT.format(url_for("static", filename=f"js/{entry}.js"))
        # Their names are their content's hash: no ?v= (companion.web.delivery), so that the URLs the
        # page preloads are the very ones the bundle imports.
        inside = lambda name: url_for("static", filename=f"{FOLDER}/{name}")  # noqa: E731
        tags = [PRELOAD.format(inside(chunk)) for chunk in bundled["preload"]]
        return Markup("\n").join([*tags, SCRIPT.format(inside(bundled["script"]))])

    def _warn_once(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("static/%s is %s: the pages load their modules unbundled (heavier); "
                        "./manage.sh install builds it", FOLDER, why)


def main() -> int:
    """Build the bundle when it is missing or stale (``--force``: always)."""
    bundles = Bundles()
    if "--force" not in sys.argv and bundles.fresh():
        return 0
    try:
        manifest = build()
    except BundleError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"Bundled the pages' scripts: {len(manifest['files'])} files in static/{FOLDER}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
