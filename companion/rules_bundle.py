"""The verifier and the games' rules as one zip: what the verify page's Python runs.

The verify page replays a table's game in the browser with CPython compiled to WebAssembly
(Pyodide), running these very files, not a translation of them. The server serves the zip at
``GET /verify/rules.zip``; ``python -m companion.verify --rules-hash`` prints the SHA-256 of the zip
a checkout builds, which the page shows for the zip it downloaded: equal hashes, the same rules.

The files are found by following imports from `ROOTS`, never listed by hand: a module the rules
start to import joins the zip, and nothing else does (no templates, no configuration, no database).
The zip is byte for byte the same wherever it is built from the same files: names sorted, fixed
timestamps and modes, and stored uncompressed (a deflated stream could differ between zlib builds;
the server gzips the answer on the way out instead).

What the server serves is that zip compiled ahead when it can (`served_bundle`): each module's bytecode
beside its source, made at install (``./manage.sh install`` runs ``python -m companion.rules_bundle``) by
the page's own Python, Pyodide run in Node (scripts/pyodide_stdlib.mjs), so that the phone does not
compile the rules. That too is the same bytes wherever it is made from the same rules; without it (no
Node, or rules changed since the install) the server serves the source zip and says so in its log.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import logging
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent  # the folder that holds the companion package
ROOTS = ("companion.verify", "companion.games", "companion.rules_imports")  # the last: what the page imports first
# The real companion/__init__.py builds the Flask app: the zip's package file is this one instead.
PACKAGE_INIT = ('"""Companion\'s verifier and game rules, without the server (the zip the verify page '
                'runs: companion/rules_bundle.py)."""\n')
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: the bundle carries no build time
COMPILED = SOURCE / "build" / "rules.zip"  # made by ./manage.sh install (git-ignored)

log = logging.getLogger(__name__)


def module_path(name: str) -> Path | None:
    """The file of a module of the companion package (its ``__init__.py`` for a package)."""
    base = SOURCE.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_names(path: Path) -> set[str]:
    """Every ``companion.…`` module a file imports, anywhere in it (imports inside functions too:
    the replay imports the games' registry when it runs). ``from X import y`` counts ``X.y`` when
    ``y`` is a module."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.split(".")[0] == "companion" and module_path(name)}


@functools.cache
def module_names() -> tuple[str, ...]:
    """The modules the verifier needs, sorted: `ROOTS` and everything they import, with the packages
    that hold them (``companion`` itself gets `PACKAGE_INIT`)."""
    found: set[str] = set()
    waiting = list(ROOTS)
    while waiting:
        name = waiting.pop()
        if name in found or name == "companion":  # its own file is not the zip's (PACKAGE_INIT)
            continue
        found.add(name)
        parts = name.split(".")
        waiting.extend(".".join(parts[:end]) for end in range(2, len(parts)))  # the packages above it
        waiting.extend(imported_names(module_path(name)))
    return tuple(sorted(found | {"companion"}))


def archive_name(name: str) -> str:
    return str(module_path(name).relative_to(SOURCE))


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.create_system = 3  # Unix, wherever it is built
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_STORED
    return info


@functools.cache
def bundle() -> bytes:
    """The zip, built once per process (the rules do not change while a server runs)."""
    files = {archive_name(name): module_path(name).read_bytes() for name in module_names() if name != "companion"}
    files["companion/__init__.py"] = PACKAGE_INIT.encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            archive.writestr(_entry(name), files[name])
    return buffer.getvalue()


def compiled_for(source: bytes) -> bytes | None:
    """`COMPILED`, when it was made from these very rules (its comment names their zip's SHA-256)."""
    try:
        compiled = COMPILED.read_bytes()
        comment = zipfile.ZipFile(io.BytesIO(compiled)).comment.decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile):
        return None
    return compiled if f" from rules {hashlib.sha256(source).hexdigest()} " in comment else None


@functools.cache
def served_bundle() -> bytes:
    """The zip the verify page runs: `bundle` compiled ahead if the install made it for these rules, else
    `bundle` as it is (the page compiles the rules itself: slower), said once in the log."""
    compiled = compiled_for(bundle())
    if compiled is None:
        log.warning("%s is %s: the verify page compiles the rules itself (slower); ./manage.sh install makes it",
                    COMPILED, "older than the rules" if COMPILED.exists() else "missing")
    return compiled or bundle()


def rules_hash() -> str:
    """The SHA-256 of `served_bundle`, in hex: what the verify page shows and the CLI prints."""
    return hashlib.sha256(served_bundle()).hexdigest()


def compile_bundle() -> int:
    """Makes `COMPILED` if it is missing or older than the rules (what ./manage.sh install runs): 0 when it is
    there after, 1 when it could not be made (no Node, no Pyodide): the server then serves the source zip."""
    source = bundle()
    if compiled_for(source) is not None:
        return 0
    COMPILED.parent.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "rules.zip").write_bytes(source)
        try:
            made = subprocess.run(["node", "scripts/pyodide_stdlib.mjs", str(Path(folder) / "rules.zip"),
                                   "--rules", str(COMPILED)], cwd=SOURCE, capture_output=True, text=True)
        except OSError as error:
            made = subprocess.CompletedProcess([], 1, "", str(error))
    if made.returncode != 0 or compiled_for(source) is None:
        print(f"the rules zip was not compiled ahead (the verify page compiles it itself): {made.stderr.strip()}",
              file=sys.stderr)
        return 1
    print(f"Compiled the verify page's rules: {COMPILED}")
    return 0


if __name__ == "__main__":
    sys.exit(compile_bundle())
