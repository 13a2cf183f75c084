"""The verify page's standard library compiled ahead: ``node scripts/pyodide_stdlib.mjs ZIP``, which runs
this module in the page's own Python (Pyodide, in Node); any CPython of Pyodide's version may run it too.

Pyodide ships Python's standard library as source (static/vendor/pyodide/python_stdlib.zip) and compiles
each module it imports, on every visit: most of Python's start on a phone (``python -m bench.verify_page``).
This rewrites the zip with each module compiled instead (a ``.pyc`` with an unchecked hash, which
zipimport loads before looking for source). Bytecode is only valid for the Python minor version it was
made by (its magic number): the compiling Python must be the one pyodide-lock.json beside the zip names
(3.13 for Pyodide 0.28), else nothing is written.

The output is the same bytes for the same input and the same compiling Python (entries in the input's
order, fixed times, stored uncompressed: the server gzips it); the zip's comment names that Python,
which a checkout needs to build the same file (``python -m companion.verify --server`` compares them).
A zip already compiled is left as it is: ./manage.sh install runs it after each copy of the vendored
files, on static/vendor/pyodide/python_stdlib.zip (named, never implied: a worktree's static/vendor may be
a link to another checkout's). ``--rules OUT`` compiles the rules zip instead (`compile_rules`).

Only the files the page's Python imports are kept (`MODULES`, which ``python -m scripts.pyodide_modules``
makes by replaying every game in that Python): 125 of the zip's 575 files, 3.0 MB of 9.7 (1.2 MB gzipped, not 3.8).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
import zipfile
from pathlib import Path

ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# The standard library's files the verify page's Python imports (scripts/pyodide_modules.py makes it).
MODULES = Path(__file__).with_name("pyodide_stdlib_modules.txt")


class WrongPython(Exception):
    pass


def listed(path: Path = MODULES) -> list[str]:
    """The zip's files a list names (`MODULES`: what the page's Python imports), one path a line."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def kept(names: list[str], keep: list[str] | None) -> list[str]:
    """The zip's entries that stay: each listed module and the folders above it (every entry without a
    list). A listed file the zip lacks raises ValueError: the page's Python would fail to import it."""
    if keep is None:
        return names
    missing = sorted(set(keep) - set(names))
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise ValueError(f"the zip holds no {', '.join(missing[:3])}{more}, listed as imported by the page")
    folders = {name[:end + 1] for name in keep for end in range(len(name)) if name[end] == "/"}
    return [name for name in names if name in folders or name in keep]


def pyodide_python(stdlib: Path) -> tuple[int, int]:
    """The (major, minor) version of the Python the Pyodide beside ``stdlib`` runs."""
    lock = json.loads((stdlib.parent / "pyodide-lock.json").read_text(encoding="utf-8"))
    major, minor = lock["info"]["python"].split(".")[:2]
    return int(major), int(minor)


def compiled(source: bytes, path: str) -> bytes:
    """A module's ``.pyc``: its code, marked by a hash of its source that is never checked."""
    code = compile(source, path, "exec", dont_inherit=True)
    source_hash = importlib.util.source_hash(source)
    from importlib._bootstrap_external import _code_to_hash_pyc  # the layout import itself writes

    return bytes(_code_to_hash_pyc(code, source_hash, checked=False))


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.create_system = 3
    info.external_attr = (0o40755 << 16) | 0x10 if name.endswith("/") else 0o644 << 16  # 0x10: a folder
    return info


def compile_stdlib(stdlib: Path, keep: list[str] | None = None) -> bool:
    """Rewrites ``stdlib`` compiled, with only the files ``keep`` names (and their folders) when it is given;
    False when it already was compiled. Raises WrongPython or ValueError (the file unchanged)."""
    with zipfile.ZipFile(stdlib) as archive:
        names = archive.namelist()
        if not any(name.endswith(".py") for name in names):
            return False
        wanted = pyodide_python(stdlib)
        if sys.version_info[:2] != wanted:
            raise WrongPython(f"Pyodide runs Python {wanted[0]}.{wanted[1]}: its bytecode must be made by that "
                              f"version, this is {sys.version.split()[0]}")
        files = [(name, archive.read(name)) for name in kept(names, keep)]
    # Where Pyodide mounts the zip (python313.zip in /lib): the file names its tracebacks give.
    where = f"/lib/python{wanted[0]}{wanted[1]}.zip/"
    rewritten = stdlib.with_name(stdlib.name + ".compiling")
    try:
        with zipfile.ZipFile(rewritten, "w") as archive:
            for name, data in files:
                if name.endswith(".py"):
                    archive.writestr(_entry(name + "c"), compiled(data, where + name))
                else:
                    archive.writestr(_entry(name), data)
            which = "" if keep is None else f", cut to the modules the page imports: {len(keep)} files"
            archive.comment = f"compiled by CPython {sys.version.split()[0]} (scripts/pyodide_stdlib.py{which})".encode()
        rewritten.replace(stdlib)  # at once: a server never serves half a zip
    finally:
        rewritten.unlink(missing_ok=True)
    return True


def compile_rules(source: Path, out: Path, where: str = "/rules.zip/") -> None:
    """The rules zip (companion/rules_bundle.py) with each module's bytecode beside its source (``NAME.pyc``,
    the same unchecked-hash ``.pyc``), which zipimport loads before the source: the page imports from the
    zip itself, at ``where`` (nothing unpacked), and its tracebacks still quote the source. Its comment
    names the source zip's SHA-256: the server serves it only for the rules it was made from. Run by the
    page's own Python: this one's bytecode."""
    data = source.read_bytes()
    with zipfile.ZipFile(source) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    for name, text in list(files.items()):
        if name.endswith(".py"):
            files[name + "c"] = compiled(text, where + name)
    written = out.with_name(out.name + ".compiling")
    try:
        with zipfile.ZipFile(written, "w") as archive:
            for name in sorted(files):
                archive.writestr(_entry(name), files[name])
            archive.comment = (f"compiled by CPython {sys.version.split()[0]} from rules "
                               f"{hashlib.sha256(data).hexdigest()} (scripts/pyodide_stdlib.py)").encode()
        written.replace(out)
    finally:
        written.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="node scripts/pyodide_stdlib.mjs", description=__doc__.splitlines()[0])
    parser.add_argument("zip", type=Path, help="the standard library's zip (static/vendor/pyodide/python_stdlib.zip)")
    parser.add_argument("--modules", type=Path, metavar="LIST", default=MODULES,
                        help=f"keep only the files LIST names (default: scripts/{MODULES.name})")
    parser.add_argument("--rules", type=Path, metavar="OUT",
                        help="ZIP is the rules zip instead: write it compiled to OUT (companion/rules_bundle.py)")
    args = parser.parse_args(argv)
    try:
        if args.rules:
            compile_rules(args.zip, args.rules)
            print(f"{args.rules}: compiled")
            return 0
        done = compile_stdlib(args.zip, listed(args.modules))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, WrongPython) as error:
        print(f"cannot compile {args.zip}: {error}", file=sys.stderr)
        return 2
    print(f"{args.zip}: {'compiled' if done else 'already compiled'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
