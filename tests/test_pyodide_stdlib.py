"""scripts/pyodide_stdlib.py: the verify page's standard library compiled ahead. Run here by this Python
on a small standard library of its own: the modules import from the compiled zip and run, the same input
gives the same bytes, a compiled zip is left as it is, and only the modules listed are kept. Then as
./manage.sh install runs it, inside the page's own Python (Pyodide, in Node: scripts/pyodide_stdlib.mjs): two
fresh processes make the same bytes, which that Python imports. The list (scripts/pyodide_stdlib_modules.txt)
holds every module the page's replays import: every game replayed in that Python, with the whole standard
library and with the one served. Bad input tried: a Pyodide that runs another Python, a list naming a file
the zip lacks (a clear error, status 2, the file unchanged)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from companion import served
from scripts import pyodide_modules, pyodide_stdlib
from tests.server import ROOT

MODULES = {"greeting/__init__.py": "from greeting.words import WORDS\n\ndef hello():\n    return WORDS['hi']\n",
           "greeting/words.py": "WORDS = {'hi': 'bonjour'}\n", "LICENSE.txt": "a file that is no module\n"}
# What the page imports of that standard library (its own list, as scripts/pyodide_stdlib_modules.txt).
IMPORTED = ["greeting/__init__.py", "greeting/words.py"]


def module_list(folder: Path, names: list[str]) -> Path:
    listed = folder / "modules.txt"
    listed.write_text("# what the page imports\n" + "".join(f"{name}\n" for name in names))
    return listed


def vendored(folder: Path, python: str) -> Path:
    """A zip of sources beside a pyodide-lock.json that says Pyodide runs ``python``."""
    folder.mkdir()
    with zipfile.ZipFile(folder / "python_stdlib.zip", "w") as archive:
        for name, text in MODULES.items():
            archive.writestr(name, text)
    (folder / "pyodide-lock.json").write_text(json.dumps({"info": {"python": python}}))
    return folder / "python_stdlib.zip"


def this_python() -> str:
    return ".".join(map(str, sys.version_info[:3]))


def pyodide_python() -> str:
    """The Python the vendored Pyodide runs (its package's lock file names it)."""
    return json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())["info"]["python"]


def in_node(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["node", *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


# In the page's own Python: the compiled zip on the path, its module imported from it, and run.
IMPORTED_IN_PYODIDE = """
import { loadPyodide } from 'pyodide';
const python = await loadPyodide();
python.mountNodeFS('/made', process.argv[1]);
console.log(python.runPython(`import sys; sys.path.insert(0, '/made/python_stdlib.zip'); import greeting
f"{greeting.hello()} {greeting.__file__}"`));
"""


def test_the_modules_are_compiled_and_import_from_the_zip_the_same_bytes_every_time(tmp_path):
    stdlib = vendored(tmp_path / "one", this_python())
    assert pyodide_stdlib.compile_stdlib(stdlib)
    archive = zipfile.ZipFile(stdlib)
    assert sorted(archive.namelist()) == ["LICENSE.txt", "greeting/__init__.pyc", "greeting/words.pyc"]
    assert archive.read("LICENSE.txt") == MODULES["LICENSE.txt"].encode()
    assert archive.comment.decode().startswith(f"compiled by CPython {sys.version.split()[0]}")
    script = ("import sys; sys.path.insert(0, 'python_stdlib.zip'); import greeting; "
              "print(greeting.hello(), greeting.__file__.endswith('.pyc'))")
    run = subprocess.run([sys.executable, "-S", "-I", "-c", script], capture_output=True, text=True, timeout=60,
                         cwd=stdlib.parent)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["bonjour", "True"]
    again = vendored(tmp_path / "two", this_python())
    pyodide_stdlib.compile_stdlib(again)
    assert again.read_bytes() == stdlib.read_bytes()
    compiled = stdlib.read_bytes()
    assert not pyodide_stdlib.compile_stdlib(stdlib)  # already compiled: left as it is
    assert stdlib.read_bytes() == compiled


def test_a_pyodide_of_another_python_is_refused_and_its_zip_left_unchanged(tmp_path):
    stdlib = vendored(tmp_path / "other", "2.7.18")
    before = stdlib.read_bytes()
    run = subprocess.run([sys.executable, "-m", "scripts.pyodide_stdlib", str(stdlib)], capture_output=True,
                         text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2
    assert "Pyodide runs Python 2.7: its bytecode must be made by that version" in run.stderr
    assert stdlib.read_bytes() == before
    assert sorted(p.name for p in stdlib.parent.iterdir()) == ["pyodide-lock.json", "python_stdlib.zip"]


def test_the_server_check_says_which_python_compiled_a_standard_library_that_differs(tmp_path):
    """``python -m companion.verify --server``: a compiled zip's bytes depend on the compiling Python, so
    a difference names what made each side (a static file that is no zip gets no such words)."""
    source = vendored(tmp_path / "source", this_python()).read_bytes()
    stdlib = vendored(tmp_path / "compiled", this_python())
    pyodide_stdlib.compile_stdlib(stdlib)
    compiled = stdlib.read_bytes()
    said = served.compiled_difference(compiled, source)
    assert f"the server's is compiled by CPython {sys.version.split()[0]}, the checkout's source" in said
    assert "node scripts/pyodide_stdlib.mjs static/vendor/pyodide/python_stdlib.zip" in said
    assert served.compiled_difference(compiled, compiled) == served.compiled_difference(b"body {}", source) == ""


def test_the_pages_own_python_in_node_compiles_the_same_bytes_in_two_processes_and_imports_them(tmp_path):
    """What ./manage.sh install runs: any machine with Node makes the compiled zip, byte for byte the same."""
    made = [vendored(tmp_path / folder, pyodide_python()) for folder in ("one", "two")]
    for stdlib in made:
        run = in_node("scripts/pyodide_stdlib.mjs", str(stdlib), "--modules", str(module_list(tmp_path, IMPORTED)))
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip().endswith("python_stdlib.zip: compiled")
    assert made[0].read_bytes() == made[1].read_bytes()
    archive = zipfile.ZipFile(made[0])
    assert sorted(archive.namelist()) == ["greeting/__init__.pyc", "greeting/words.pyc"]
    assert served.compiled_by(made[0]) == f"compiled by CPython {pyodide_python()}"
    imported = in_node("--input-type=module", "-e", IMPORTED_IN_PYODIDE, str(made[0].parent))
    assert imported.returncode == 0, imported.stderr[-2000:]
    assert imported.stdout.split() == ["bonjour", "/made/python_stdlib.zip/greeting/__init__.pyc"]
    again = in_node("scripts/pyodide_stdlib.mjs", str(made[0]))
    assert again.returncode == 0 and again.stdout.strip().endswith("already compiled")


def test_only_the_listed_modules_are_kept_and_a_listed_file_the_zip_lacks_is_refused(tmp_path):
    stdlib = vendored(tmp_path / "one", this_python())
    assert pyodide_stdlib.compile_stdlib(stdlib, IMPORTED)
    archive = zipfile.ZipFile(stdlib)
    assert archive.namelist() == ["greeting/__init__.pyc", "greeting/words.pyc"]  # no LICENSE.txt
    assert archive.comment.decode().endswith("(scripts/pyodide_stdlib.py, cut to the modules the page imports: 2 files)")
    other = vendored(tmp_path / "two", this_python())
    before = other.read_bytes()
    listed = module_list(tmp_path, [*IMPORTED, "fractions.py"])
    run = subprocess.run([sys.executable, "-m", "scripts.pyodide_stdlib", str(other), "--modules", str(listed)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2
    assert "the zip holds no fractions.py, listed as imported by the page" in run.stderr
    assert other.read_bytes() == before


def test_every_module_the_pages_replays_import_is_listed_and_in_the_served_zip():
    """Every game replayed in the page's Python as the page replays it (scripts/pyodide_modules.py), with the
    whole standard library: each module it imports is in the list (else: ``python -m scripts.pyodide_modules``,
    then ./manage.sh install); with the standard library served, compiled and cut to that list, the same
    replays import the same modules, none missing (a missing one would fail the replay: ModuleNotFoundError)."""
    listed = pyodide_stdlib.listed()
    found = pyodide_modules.imported()
    assert not set(found) - set(listed), f"imported by the replays, not listed: {sorted(set(found) - set(listed))}"
    served_zip = served.STATIC / "vendor" / "pyodide" / "python_stdlib.zip"
    assert "cut to the modules the page imports" in zipfile.ZipFile(served_zip).comment.decode(), \
        f"{served_zip} is not cut to the list: ./manage.sh install cuts it"
    modules = [name for name in zipfile.ZipFile(served_zip).namelist() if not name.endswith("/")]
    assert sorted(modules) == sorted(name + "c" for name in listed)
    assert pyodide_modules.imported(stdlib=served_zip) == found


def test_the_node_script_refuses_a_pyodide_of_another_python(tmp_path):
    stdlib = vendored(tmp_path / "other", "3.12.7")
    before = stdlib.read_bytes()
    run = in_node("scripts/pyodide_stdlib.mjs", str(stdlib))
    assert run.returncode == 2
    assert "Pyodide runs Python 3.12: its bytecode must be made by that version, this is 3.13" in run.stderr
    assert stdlib.read_bytes() == before


def test_the_served_standard_library_travels_gzipped_and_arrives_as_the_checkouts_file(client):
    """Compiled ahead, it is stored uncompressed (the same bytes from every checkout): the server gzips it."""
    path = served.STATIC / "vendor" / "pyodide" / "python_stdlib.zip"
    answer = client.get("/static/vendor/pyodide/python_stdlib.zip", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.data) == path.read_bytes()
    if served.compiled_by(path).startswith("compiled by "):
        assert len(answer.data) < path.stat().st_size / 2


def test_the_interpreter_travels_gzipped_as_application_wasm_which_the_browser_compiles_as_it_arrives(client):
    """WebAssembly.instantiateStreaming, which Pyodide uses, compiles the 8.6 MB file while it downloads,
    only for an answer that says application/wasm (tests/test_verify_page_replay.py checks the page uses it)."""
    path = served.STATIC / "vendor" / "pyodide" / "pyodide.asm.wasm"
    answer = client.get("/static/vendor/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.mimetype == "application/wasm"
    assert answer.headers["Content-Encoding"] == "gzip" and gzip.decompress(answer.data) == path.read_bytes()


def test_the_lock_the_verify_page_hands_pyodide_is_its_info_without_packages_and_verify_server_compares_it(client):
    """The page gives Pyodide its lock file's info (Pyodide then does not download the file), no package: a
    server that changed it is caught by ``python -m companion.verify --server``, which compares it."""
    lock = json.loads((served.STATIC / "vendor" / "pyodide" / "pyodide-lock.json").read_text())
    code = client.post("/api/tables", json={"game": "dice"}).json["code"]
    page = client.get(f"/t/{code}/verify").get_data(as_text=True)
    handed = [part for part in served.page_parts(page) if part.startswith("<section data-pyodide-lock> ")]
    assert [json.loads(part.split("> ", 1)[1]) for part in handed] == [{"info": lock["info"], "packages": {}}]
    changed = page.replace("&#34;packages&#34;: {}", "&#34;packages&#34;: {&#34;numpy&#34;: {}}")
    assert changed != page and served.page_parts(changed) != served.page_parts(page)


def test_a_standard_library_left_as_source_is_said_once_in_the_log(tmp_path, monkeypatch, caplog):
    """No Node at install: the page loads the source zip (slower), and the server says so, once."""
    from companion.web import pages

    monkeypatch.setattr(pages, "STDLIB", vendored(tmp_path / "source", this_python()))
    pages._stdlib_checked.cache_clear()
    try:
        with caplog.at_level("WARNING", logger="companion.web.pages"):
            assert pages._stdlib_checked() == pages._stdlib_checked() == "source"
        assert caplog.text.count("python_stdlib.zip is source, not compiled ahead") == 1
    finally:
        pages._stdlib_checked.cache_clear()
