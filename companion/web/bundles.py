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

The bundle is written once per language (issue 29: a French page carried the whole French catalogue of
the screens, 36.7 KB compressed): as written, in English, and in each language of the catalogues, each
message of its scripts (t, tn and N_'s arguments) written in the language where the English stood
(`translated_scripts`), so that t() has nothing to look up and a French phone downloads about what an
English one does. A bundled page carries no catalogue: a file of the bundle adds the few translations
it needs as it runs (a message its code also compares, which stays as written; a game's phase labels
and names, which its screen reads from the views). Each language's files go in a folder named by their
content's hash (``en-HASH/``, ``fr-HASH/``); the .po files are among the bundle's sources, so a changed
translation makes it stale, as a changed script does. A page that runs its modules as written carries
every string of the screens in its data block, as before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from babel.messages import jslexer
from flask import g, url_for
from markupsafe import Markup

from companion.config import ROOT
from companion.games import REGISTRY
from companion.web.i18n import browser_catalogue, current_language, labels_catalogue, script_translations

FOLDER = "bundles"  # under static/
MANIFEST = "manifest.json"
# Each page's entry module (static/js/NAME.js), the name its template asks for (the print pages' one-line card.js
# and the verify page load theirs as written).
ENTRIES = ("display", "home", "host", "pair", "phone", "rankings")
# Part of the sources' hash: a bundle built with other options, or another esbuild, is stale too.
# package.json says the modules have no side effects but their exports (so unused ones are left out).
SETTINGS = ("package.json", "package-lock.json")
# ui.js (and the i18n.js it imports), which a page and most modules it loads later share, reach every
# file of the bundle: esbuild puts them in one chunk, not in a chunk each for the sets of modules that
# share them (a phone's first load: one request and 680 bytes less). (An injected file's exports also
# stand for globals of the same names: the scripts use none.)
OPTIONS = ("--bundle", "--splitting", "--format=esm", "--minify", "--charset=utf8", "--preserve-symlinks",
           "--inject:static/js/ui.js", "--entry-names=[name]-[hash]", "--chunk-names=[name]-[hash]",
           "--log-level=warning")

# The manifest's layout, part of the sources' hash: a bundle an older build wrote is stale.
LAYOUT = "translated pages, 2"
# The catalogues (LANG/LC_MESSAGES/js.po): each language has a bundle of its own, its words written in.
TRANSLATIONS = Path("companion") / "translations"
# The browser's keywords (scripts/translations.py): a message is the first argument, both for tn.
ARGUMENTS = {"t": 1, "N_": 1, "tn": 2}
SCRIPT = Markup('<script type="module" src="{}"></script>')
PRELOAD = Markup('<link rel="modulepreload" href="{}">')

log = logging.getLogger(__name__)


class BundleError(Exception):
    pass


def sources_hash(root: Path, inputs: list[str]) -> str:
    """The SHA-256 of the files a bundle is built from (paths relative to the checkout) and of the options."""
    digest = hashlib.sha256("\0".join([*OPTIONS, LAYOUT]).encode())
    for name in sorted(inputs):
        digest.update(b"\0" + name.encode() + b"\0")
        try:
            digest.update((root / name).read_bytes())
        except OSError:
            digest.update(b"(missing)")
    return digest.hexdigest()


def _dynamic_imports(outputs: dict, output: str) -> list[str]:
    return [imported["path"] for imported in outputs[output]["imports"] if imported["kind"] == "dynamic-import"]


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


Token = tuple[str, str, int, int]  # kind, text, where it starts and ends


def _tokens(source: str, jsx: bool = True, position: int = 0, expression: bool = False) -> tuple[list[Token], int]:
    """A script's tokens as Babel's extractor reads them (babel.messages.jslexer's rules: strings,
    comments and regular expressions told apart), with where each starts and ends, and where they end:
    the end of the script, or the ``}`` that closes a template literal's ``${`` (`expression`). A template
    literal with expressions gives their tokens, its own text none."""
    rules = jslexer.get_rules(jsx=jsx, dotted=True, template_string=False)
    tokens: list[Token] = []
    may_divide, depth = False, 0
    while position < len(source):
        if source[position] == "`":
            inner, end = _template(source, jsx, position)
            tokens += inner if inner is not None else [("template_string", source[position:end], position, end)]
            position, may_divide = end, True
            continue
        for kind, rule in rules:
            match = rule.match(source, position)
            if match:
                break
        else:
            kind = "operator" if may_divide else "regexp"
            match = (jslexer.division_re if may_divide else jslexer.regex_re).match(source, position)
            if match is None:  # not JavaScript Babel reads (?, =>): one character on, as its extractor does
                position += 1
                continue
        position = match.end()
        if kind is None:
            continue
        if expression and kind == "operator" and match.group() in "{}":
            depth += 1 if match.group() == "{" else -1
            if depth < 0:
                return tokens, position
        may_divide = jslexer.indicates_division(jslexer.Token(kind, match.group(), 0))
        tokens.append((kind, match.group(), match.start(), position))
    return tokens, position


def _template(source: str, jsx: bool, start: int) -> tuple[list[Token] | None, int]:
    """A template literal from its opening backtick: the tokens of its expressions (None: it has none),
    and where it ends."""
    position, inner = start + 1, None
    while position < len(source) and source[position] != "`":
        if source[position] == "\\":
            position += 2
        elif source.startswith("${", position):
            tokens, position = _tokens(source, jsx, position + 2, expression=True)
            inner = (inner or []) + tokens
        else:
            position += 1
    return inner, position + 1


def _plain_strings(source: str, jsx: bool = True) -> set[str]:
    """The string literals of a script that are not a message (t, tn, N_'s arguments)."""
    plain, code, arguments = set(), [], 0
    for kind, text, _, _ in _tokens(source, jsx)[0]:
        if kind.endswith("comment"):
            continue
        if kind in ("string", "template_string"):
            if not arguments:
                plain.add(jslexer.unquote_string(text))
            arguments -= 1 if arguments else 0
        elif not (arguments and text == ","):
            arguments = 0
        code.append(text)
        if len(code) >= 2 and code[-1] == "(" and code[-2] in ARGUMENTS:
            arguments = ARGUMENTS[code[-2]]
    return plain


# A module loaded later whose code esbuild put in a chunk it shares with the modules it loads in turn
# (Rayman's screen and its setup panels) comes as a file of a single line that re-exports the chunk's.
FACADE = re.compile(r'((?:import"\./[\w-]+\.js";)*)import\{([^}]*)\}from"\./([\w-]+\.js)";((?:import"\./[\w-]+\.js";)*)'
                    r'export\{([^}]*)\};?\s*')
EXPORTS = re.compile(r'export\{([^}]*)\};?\s*$')


def _names(clause: str) -> dict[str, str]:
    """An import or export clause's names: {the name it gives: the name it takes}."""
    pairs = [item.strip().split(" as ") for item in clause.split(",") if item.strip()]
    return {pair[-1]: pair[0] for pair in pairs}


def without_facades(texts: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The bundle's files without the re-exporting ones (`FACADE`): the chunk exports their names
    itself and the page imports the chunk (a phone at a Rayman table: one request and 600 bytes less);
    and the chunk of each facade left out."""
    texts, folded = dict(texts), {}
    for name, text in list(texts.items()):
        facade = FACADE.fullmatch(text)
        chunk = facade and facade.group(3)
        exports = chunk in texts and EXPORTS.search(texts[chunk])
        if not exports:
            continue
        bare = re.findall(r'"\./([\w-]+\.js)"', facade.group(1) + facade.group(4))
        taken, given = _names(exports.group(1)), _names(facade.group(5))
        imported = _names(facade.group(2))  # the facade's names: the chunk's exported names
        known = all(imported.get(local) in taken for local in given.values())
        if not known or set(given) & set(taken) or not all(f'"./{other}"' in texts[chunk] for other in bare):
            continue
        more = ",".join(f"{taken[imported[local]]} as {exported}" for exported, local in given.items())
        texts[chunk] = texts[chunk][:exports.start(1)] + exports.group(1) + "," + more + texts[chunk][exports.end(1):]
        del texts[name]
        folded[name] = chunk
        texts = {other: body.replace(f'"./{name}"', f'"./{chunk}"') for other, body in texts.items()}
    return texts, folded


def translated_scripts(texts: dict[str, str], translations: dict[str, str],
                       plain: set[str]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The bundle's scripts with each message written in the language (`translations`: English to
    the language, a counted message's plural included), and the messages each still shows as written.

    Only a message the scripts never write but as a message is rewritten: a string the code also
    compares or sends (`plain`: the sources' other strings, `_plain_strings`), or a tagged template,
    stays as it is, and the page must carry its translation."""
    written, kept = {}, {}
    for name, text in texts.items():
        pieces, position, kept[name], previous = [], 0, set(), ""
        for kind, token, start, end in _tokens(text, jsx=False)[0]:
            value = jslexer.unquote_string(token) if kind in ("string", "template_string") else None
            tagged = kind == "template_string" and (previous[-1:].isalnum() or previous[-1:] in ")]$_")
            if value in translations and (value in plain or tagged):
                kept[name].add(value)
            elif value in translations:
                pieces += [text[position:start], json.dumps(translations[value], ensure_ascii=False)]
                position = end
            if not kind.endswith("comment"):
                previous = token
        written[name] = "".join(pieces) + text[position:]
    return written, kept


def _closure(outputs: dict, output: str) -> list[str]:
    """An output and the chunks it imports at once."""
    return [output, *_static_imports(outputs, output)]


def _entry_outputs(metafile: dict):
    """The page entries of a metafile: (entry name, its output)."""
    for output, made in metafile["outputs"].items():
        entry = made.get("entryPoint", "")
        name = Path(entry).stem
        if entry == f"static/js/{name}.js" and name in ENTRIES:
            yield name, output


def manifest_of(metafiles: list[dict], folder: str) -> dict:
    """What the pages need from esbuild's metafiles (one per entry): each entry's script and the chunks
    it imports at once (names inside the bundle folder), and the files it was all built from."""
    inside = lambda path: Path(path).relative_to(folder).as_posix()  # noqa: E731
    entries, inputs, files = {}, set(), set()
    for metafile in metafiles:
        outputs = metafile["outputs"]
        inputs |= set(metafile["inputs"])
        files |= {inside(output) for output in outputs}
        for name, output in _entry_outputs(metafile):
            entries[name] = {"script": inside(output),
                             "preload": [inside(chunk) for chunk in _static_imports(outputs, output)]}
    return {"inputs": sorted(inputs | set(SETTINGS)), "entries": entries, "files": sorted(files), "translated": {}}


def catalogued_languages(root: Path = ROOT) -> list[str]:
    """The languages whose catalogue translates the scripts (companion/translations/LANG/LC_MESSAGES/js.po)."""
    return sorted(po.parent.parent.name for po in (root / TRANSLATIONS).glob("*/LC_MESSAGES/js.po"))


def screen_game(module: str) -> str | None:
    """The game whose screen a module is (static/js/games/index.js: games/NAME.js, or games/NAME/...)."""
    folder, _, rest = Path(module).relative_to("static/js").as_posix().partition("/")
    name = rest.split("/")[0].removesuffix(".js")
    return name if folder == "games" and name in REGISTRY else None


def _screens(metafiles: list[dict], folder: str) -> dict[str, str]:
    """The file of each game's screen a page loads (static/js/games/index.js), and its game: the
    screen's files add the game's labels to the page's strings."""
    screens = {}
    for metafile in metafiles:
        outputs = metafile["outputs"]
        for _, page in _entry_outputs(metafile):
            for chunk in _closure(outputs, page):
                for later in _dynamic_imports(outputs, chunk):
                    game = screen_game(outputs[later]["entryPoint"])
                    if game:
                        screens[Path(later).relative_to(folder).as_posix()] = game
    return screens


def write_bundle(root: Path, folder: str, manifest: dict, texts: dict[str, str], screens: dict[str, str],
                 language: str | None) -> dict:
    """The bundle's files, in a language of the catalogues or as written (None: English), in a folder
    named by their content's hash (a name never changes meaning), and its pages.

    Translated, each file has its messages written in the language (`translated_scripts`), and adds to
    the page's strings, as it runs, the translation of each message it still shows as written and, a
    game's screen, the game's labels, which the views name (the page has none: only a screen shows them)."""
    if language:
        sources = [name for name in manifest["inputs"] if name.endswith(".js")]
        plain = set().union(*(_plain_strings((root / name).read_text(encoding="utf-8"), name.startswith("static/js/"))
                              for name in sources))
        texts, kept = translated_scripts(texts, script_translations(language), plain)
        catalogue = browser_catalogue(language)
        for name in texts:
            strings = {**(labels_catalogue(language, screens[name]) if name in screens else {}),
                       **{msgid: catalogue[msgid] for msgid in kept[name] if msgid in catalogue}}
            if strings:  # into the object static/js/i18n.js reads (whichever runs first makes it), first thing
                added = json.dumps(strings, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
                texts[name] = f"Object.assign(globalThis.companionStrings??={{}},{added});\n{texts[name]}"
    digest = hashlib.sha256()
    for name in sorted(texts):
        digest.update(name.encode() + b"\0" + texts[name].encode() + b"\0")
    subfolder = f"{language or 'en'}-{digest.hexdigest()[:12]}"
    (root / folder / subfolder).mkdir(exist_ok=True)
    for name, text in texts.items():
        (root / folder / subfolder / name).write_text(text, encoding="utf-8")
    manifest["files"] += [f"{subfolder}/{name}" for name in texts]
    return {name: {"script": f"{subfolder}/{entry['script']}",
                   "preload": [f"{subfolder}/{chunk}" for chunk in entry["preload"] if chunk in texts]}
            for name, entry in manifest["entries"].items()}


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
    """Bundle the entries into static/bundles/, and translate it in each catalogue's language; write its
    manifest, remove what an earlier build left."""
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BundleError(f"{esbuild} is missing: run ./manage.sh install (npm ci installs esbuild)")
    folder = root / "static" / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    relative_folder = folder.relative_to(root).as_posix()
    metafiles = [_bundle_entry(esbuild, root, entry, relative_folder) for entry in ENTRIES]
    manifest = manifest_of(metafiles, relative_folder)
    # esbuild's files, written again in each language's folder (and then removed with what is left of older builds)
    texts, folded = without_facades({name: (folder / name).read_text(encoding="utf-8") for name in manifest["files"]})
    screens = {folded.get(name, name): game for name, game in _screens(metafiles, relative_folder).items()}
    manifest["files"] = []
    for language in catalogued_languages(root):
        manifest["translated"][language] = write_bundle(root, relative_folder, manifest, texts, screens, language)
        catalogues = (TRANSLATIONS / language / "LC_MESSAGES").as_posix()
        manifest["inputs"] = sorted({*manifest["inputs"], f"{catalogues}/js.po", f"{catalogues}/messages.po"})
    manifest["entries"] = write_bundle(root, relative_folder, manifest, texts, screens, None)
    manifest["files"].sort()
    manifest["sources"] = sources_hash(root, manifest["inputs"])
    written = folder / f".{MANIFEST}.{os.getpid()}"
    written.write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False), encoding="utf-8")
    os.replace(written, folder / MANIFEST)  # a running server reads the old manifest or the new, whole
    for old in sorted(folder.rglob("*"), reverse=True):  # a folder after its files
        name = old.relative_to(folder).as_posix()
        if name == MANIFEST or name in manifest["files"] or name.startswith("."):
            continue
        if old.is_dir():
            if not any(old.iterdir()):
                old.rmdir()
        else:
            old.unlink()
    return manifest


def page_of(manifest: dict, entry: str, language: str) -> dict | None:
    """An entry's page in a language: its translated bundle, or the bundle as written (English)."""
    return manifest["translated"].get(language, {}).get(entry) or manifest["entries"].get(entry)


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
        bundled = manifest and page_of(manifest, entry, current_language())
        g.page_bundle = (entry, bundled) if bundled else None  # its strings (companion.web.i18n.page_strings)
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
