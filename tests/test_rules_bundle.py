"""The zip of rules the verify page runs (companion/rules_bundle.py): only the verifier and what it
imports, found by import; enough on its own (run by a Python without Flask or any installed package,
it replays a game as the page does); served gzipped or not, the same bytes, their SHA-256 the ETag
and what ``python -m companion.verify --rules-hash`` prints. Bad input tried: the CLI without a log
file (a clear error, status 2), an unchanged bundle asked again (304, no body)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import sys
import zipfile

import pytest

from companion import rules_bundle
from companion.verify import page_report
from tests.random_play import CONFIGS
from tests.server import ROOT
from tests.test_replay import logged_walk


def names_in(zipped: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(zipped)).namelist()


def bytecode_of(name: str) -> str:
    """Where zipimport looks for a module's compiled code: beside its source, in the zip."""
    return name + "c"


def test_the_bundle_holds_the_verifier_and_the_games_and_nothing_else(client):
    served = client.get("/verify/rules.zip", headers={"Accept-Encoding": "identity"})
    assert served.status_code == 200 and served.mimetype == "application/zip"
    names = [name for name in names_in(served.data) if not name.endswith(".pyc")]
    assert {"companion/__init__.py", "companion/verify.py", "companion/replay.py", "companion/fairness.py",
            "companion/text.py", "companion/games/__init__.py", "companion/games/rayman/flow.py",
            "companion/games/chakart/turn.py"} <= set(names)
    assert all(name.startswith("companion/") and name.endswith(".py") for name in names)
    # Compiled ahead or not (build/rules.zip, made at install): bytecode only for the zip's own modules.
    assert set(names_in(served.data)) - set(names) <= {bytecode_of(name) for name in names}
    # Neither the server (Flask, the store, the web shell, the configuration) nor anything but code.
    server_side = ("companion/web/", "companion/store", "companion/config.py", "companion/tables.py",
                   "companion/night.py", "companion/amiibo/")
    assert not [name for name in names if name.startswith(server_side)]
    package = zipfile.ZipFile(io.BytesIO(served.data)).read("companion/__init__.py").decode()
    assert "flask" not in package.lower() and "import" not in package
    # Every file but the package's own is the checkout's, unchanged.
    for name in names:
        if name != "companion/__init__.py":
            assert zipfile.ZipFile(io.BytesIO(served.data)).read(name) == (ROOT / name).read_bytes(), name


def test_the_bundle_is_found_by_import_and_built_the_same_every_time():
    modules = rules_bundle.module_names()
    assert "companion.games.rayman.audit" in modules  # imported by the games, never named in the roots
    assert "companion.served" not in modules  # what the CLI alone uses (comparing a server's files): never imported
    rules_bundle.bundle.cache_clear()
    again = rules_bundle.bundle()
    assert again == rules_bundle.bundle()
    assert hashlib.sha256(rules_bundle.served_bundle()).hexdigest() == rules_bundle.rules_hash()


def test_the_bundle_is_served_gzipped_with_its_hash_as_etag_and_answered_304_when_unchanged(client):
    plain = client.get("/verify/rules.zip", headers={"Accept-Encoding": "identity"})
    zipped = client.get("/verify/rules.zip", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2
    assert plain.headers["ETag"] == f'"{rules_bundle.rules_hash()}"' == f'"{hashlib.sha256(plain.data).hexdigest()}"'
    assert "no-cache" in plain.headers["Cache-Control"]
    again = client.get("/verify/rules.zip", headers={"Accept-Encoding": "gzip", "If-None-Match": zipped.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_cli_prints_the_hash_of_the_bundle_and_refuses_a_missing_log_file():
    run = subprocess.run([sys.executable, "-m", "companion.verify", "--rules-hash"], capture_output=True,
                         text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == rules_bundle.rules_hash()
    missing = subprocess.run([sys.executable, "-m", "companion.verify"], capture_output=True, text=True, timeout=60,
                             cwd=ROOT)
    assert missing.returncode == 2 and "the log file is missing" in missing.stderr


def test_the_bundle_alone_replays_a_game_as_the_page_does(tmp_path):
    """A Python without its site packages (so without Flask) and with only the zip to import from: the
    page's own call, on a game's log, replays it; the same log edited is reported at its entry."""
    log = logged_walk("chakart")
    edited = json.loads(json.dumps(log))
    action = next(entry for entry in edited["entries"] if entry["kind"] == "action" and entry["call"] == "apply")
    action["seat"] = 1 - action["seat"]  # the other player moves: the rules refuse it, no draw or event tells
    honest, caught = in_page_python(tmp_path, [log, edited], "print(json.dumps([page_report(log) for log in logs]))")
    assert honest["ok"] and honest["replayed"] > 0 and honest["replay"] == []
    assert not caught["ok"] and caught["replay"][0]["i"] == action["i"]
    # As the page translates it: the msgid and its fields, not the English sentence.
    assert caught["replay"][0]["text"] == "the rules refuse this action %(kind)s of seat %(seat)s: %(refusal)s"
    assert caught["replay"][0]["params"]["seat"] == str(action["seat"]) and caught["problems"] == []


def in_page_python(tmp_path, logs: list[dict], then: str):
    """What ``then`` prints (JSON) in a Python without its site packages (so without Flask) and with only the
    zip to import from, after the page's own import of the first log's rules: ``logs`` and ``page_report``
    are defined there."""
    (tmp_path / "rules.zip").write_bytes(rules_bundle.bundle())
    (tmp_path / "logs.json").write_text(json.dumps(logs))
    script = ("import json, sys; sys.path.insert(0, 'rules.zip'); logs = json.load(open('logs.json')); "
              "from companion.rules_imports import import_rules_for; import_rules_for(logs[0]); "
              "from companion.verify import page_report; " + then)
    run = subprocess.run([sys.executable, "-S", "-I", "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def page_run(tmp_path, log: dict) -> tuple[dict, list[str]]:
    """The page's import and report: the report, and the games' packages it imported."""
    return in_page_python(tmp_path, [log], "games = sorted({name.split('.')[2] for name in sys.modules "
                          "if name.startswith('companion.games.')}); print(json.dumps([page_report(logs[0]), games]))")


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_the_page_imports_only_the_logged_games_rules_and_reports_as_with_them_all(tmp_path, game_id):
    """Each module Pyodide imports is compiled from source on the phone: the page imports the verifier and
    the game the log plays, no other game, and its report is the one the whole package gives."""
    log = logged_walk(game_id)
    report, games = page_run(tmp_path, log)
    assert set(games) - {"base", "kernel"} == {game_id}
    assert report == json.loads(json.dumps(page_report(log)))
    assert report["replayed"] > 0


@pytest.mark.parametrize("game", ["croquet", ["chakart"], "base"])
def test_a_log_of_a_game_the_zip_does_not_hold_imports_every_game_as_before(tmp_path, game):
    """A name of no game: unknown, not even a name (a list: the import must not fail where the verifier
    does not), or a module of the games that is no game. The report is the whole package's: not replayed."""
    log = logged_walk("chakart")
    log["game"] = game
    next(entry for entry in log["entries"] if entry.get("type") == "created")["game"] = game
    report, games = page_run(tmp_path, log)
    assert set(CONFIGS) <= set(games)
    assert report == json.loads(json.dumps(page_report(log)))
    assert not report["replayed"]


# In the page's own Python (Pyodide, in Node): the compiled zip imported from where the page puts it, as the
# page does (static/js/replay.js), with the source of a module replaced by one that fails: the import
# succeeds only from the bytecode made at install.
BYTECODE_RUN_IN_PYODIDE = """
import { readFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';
const python = await loadPyodide();
python.FS.writeFile('/rules.zip', new Uint8Array(readFileSync(process.argv[1])));
console.log(python.runPython(`import sys; sys.path.insert(0, '/rules.zip')
from companion.rules_imports import games_of
games_of({"game": "rayman"})[0]`));
"""


@pytest.fixture
def compiled_here(tmp_path, monkeypatch):
    """`rules_bundle.COMPILED` in a folder of this test's own (the checkout's build/ left as it is)."""
    monkeypatch.setattr(rules_bundle, "COMPILED", tmp_path / "build" / "rules.zip")
    rules_bundle.served_bundle.cache_clear()
    yield rules_bundle.COMPILED
    rules_bundle.served_bundle.cache_clear()


def test_the_rules_compiled_by_the_pages_python_are_the_same_bytes_twice_and_what_it_runs(compiled_here, tmp_path):
    """What ./manage.sh install runs (python -m companion.rules_bundle, Pyodide in Node): each module's
    bytecode beside its source, the same bytes from two processes, served and hashed in place of the
    source zip, and run by the page's Python without compiling the source."""
    assert rules_bundle.compile_bundle() == 0
    first = compiled_here.read_bytes()
    compiled_here.unlink()
    assert rules_bundle.compile_bundle() == 0
    assert compiled_here.read_bytes() == first
    sources = names_in(rules_bundle.bundle())
    assert sorted(names_in(first)) == sorted(sources + [bytecode_of(name) for name in sources])
    compiled, source = zipfile.ZipFile(io.BytesIO(first)), zipfile.ZipFile(io.BytesIO(rules_bundle.bundle()))
    assert all(compiled.read(name) == source.read(name) for name in sources)
    assert rules_bundle.served_bundle() == first
    assert rules_bundle.rules_hash() == hashlib.sha256(first).hexdigest()
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(io.BytesIO(first)) as source, zipfile.ZipFile(tampered, "w") as archive:
        for name in source.namelist():
            archive.writestr(name, b'raise ImportError("compiled from its source")'
                             if name == "companion/rules_imports.py" else source.read(name))
    ran = subprocess.run(["node", "--input-type=module", "-e", BYTECODE_RUN_IN_PYODIDE, str(tampered)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip() == "rayman"


def test_a_compiled_zip_of_other_rules_is_not_served_the_source_is_and_the_log_says_so(compiled_here, caplog):
    compiled_here.parent.mkdir()
    with zipfile.ZipFile(compiled_here, "w") as archive:
        archive.writestr("companion/__init__.py", "")
        archive.comment = f"compiled by CPython 3.13.2 from rules {'0' * 64} (scripts/pyodide_stdlib.py)".encode()
    with caplog.at_level("WARNING", logger="companion.rules_bundle"):
        assert rules_bundle.served_bundle() == rules_bundle.bundle()
    assert rules_bundle.rules_hash() == hashlib.sha256(rules_bundle.bundle()).hexdigest()
    assert "/build/rules.zip is older than the rules: the verify page compiles the rules itself" in caplog.text
