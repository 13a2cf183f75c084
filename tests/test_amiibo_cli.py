"""``flask --app app catalog …``: import, show and name, in-process and as a real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.server import ROOT
from tests.test_amiibo_catalog import contents, small


@pytest.fixture
def app_config():
    """These tests start from an empty catalogue (not the shipped one), as figures newer than it do."""
    return {"SHIPPED_CATALOGUE": None}


@pytest.fixture
def small_file(tmp_path):
    path = tmp_path / "amiibo.json"
    path.write_text(json.dumps(small()), encoding="utf-8")
    return path


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def test_import_then_import_again(runner, small_file):
    first = runner.invoke(args=["catalog", "import", str(small_file)], env={"LANGUAGE": "en"})
    assert first.exit_code == 0, first.output
    assert f"Imported {small_file} into the catalogue." in first.output
    assert "figures: 6 new, 0 changed, 0 unchanged" in first.output
    assert "characters: 5 new, 0 changed, 0 unchanged" in first.output
    again = runner.invoke(args=["catalog", "import", str(small_file)], env={"LANGUAGE": "en"})
    assert again.exit_code == 0
    assert "Nothing changed" in again.output and "figures: 0 new, 0 changed, 6 unchanged" in again.output


def test_import_in_french(runner, small_file):
    result = runner.invoke(args=["catalog", "import", str(small_file)], env={"LANGUAGE": "fr_FR:en"})
    assert result.exit_code == 0
    assert "figurines — nouveautés\u00a0: 6, modifications\u00a0: 0, sans changement\u00a0: 0" in result.output


@pytest.mark.parametrize("text, message", [
    ("not json", "The file is not valid JSON (line 1, column 1)."),
    ('{"amiibos": {"0x0000000000000003": {"name": "X", "release": {}}}}', "ends with 02"),
    (json.dumps({**small(), "types": []}), "“types” should be a JSON object"),
])
def test_a_malformed_file_fails_with_a_message_and_changes_nothing(app, runner, tmp_path, small_file, text,
                                                                   message):
    runner.invoke(args=["catalog", "import", str(small_file)])
    before = contents(app.extensions["companion.catalog"].store)
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    result = runner.invoke(args=["catalog", "import", str(bad)], env={"LANGUAGE": "en"})
    assert result.exit_code == 1
    assert message in result.output
    assert contents(app.extensions["companion.catalog"].store) == before


def test_a_missing_file(runner, tmp_path):
    result = runner.invoke(args=["catalog", "import", str(tmp_path / "none.json")], env={"LANGUAGE": "fr"})
    assert result.exit_code == 1
    assert "Impossible de lire" in result.output


def test_show_and_name(runner, small_file):
    runner.invoke(args=["catalog", "import", str(small_file)])
    shown = runner.invoke(args=["catalog", "show", "0x0001000000010002"], env={"LANGUAGE": "en"})
    assert shown.exit_code == 0 and shown.output.startswith("Luigi\n")
    assert "amiibo series: Super Smash Bros. (0x00)" in shown.output
    named = runner.invoke(args=["catalog", "name", "0x3f00000000ff0002", "Pingouin masqué", "--lang", "fr"],
                          env={"LANGUAGE": "fr"})
    assert named.exit_code == 0, named.output
    shown = runner.invoke(args=["catalog", "show", "0x3f00000000ff0002", "--json"], env={"LANGUAGE": "fr"})
    assert json.loads(shown.output)["name"] == "Pingouin masqué"
    bad = runner.invoke(args=["catalog", "show", "0x12"], env={"LANGUAGE": "en"})
    assert bad.exit_code == 1 and "not 2" in bad.output


def test_the_real_command(tmp_path, small_file):
    env = {**os.environ, "COMPANION_DATABASE": str(tmp_path / "companion.sqlite3"),
           "COMPANION_INSTANCE": str(tmp_path), "COMPANION_READER": "none", "LANGUAGE": "en"}
    flask = [sys.executable, "-m", "flask", "--app", "app", "catalog"]

    def run(*args):
        return subprocess.run([*flask, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)

    imported = run("import", str(small_file))
    assert imported.returncode == 0, imported.stderr
    assert "figures: 6 new" in imported.stdout
    shown = run("show", "0x0199000101230502", "--json")
    assert json.loads(shown.stdout)["name"] == "Renée"
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2", encoding="utf-8")
    failed = run("import", str(broken))
    assert failed.returncode != 0
    assert "The file is not valid JSON" in failed.stderr
