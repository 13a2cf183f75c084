"""``python -m companion.verify --server URL``: what a server serves against this checkout (issue 24, 4).
The real server process serves the checkout's own files (OK); one changed to serve one static file of
its own (tests/changed_static.py) is reported, that file alone, with nothing else taken for a change."""

from __future__ import annotations

import subprocess
import sys

import requests

from tests.server import ROOT, ServerProcess, server_fixture


honest = server_fixture("served")
changed = server_fixture("served-changed", {"COMPANION_GAME_MODULES": "tests.changed_static"})


def check(server: ServerProcess, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.verify", "--server", server.url, *extra],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


def a_table(server: ServerProcess, game: str = "dice") -> dict:
    created = requests.post(f"{server.url}/api/tables", json={"game": game}, timeout=20)
    assert created.status_code == 201, created.text
    return created.json()


def test_the_real_server_serves_the_checkouts_own_files_pages_and_rules(honest):
    checked = check(honest, "--table", a_table(honest)["code"])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK: the ")
    print(checked.stdout.strip())


def test_a_closed_table_of_another_game_compares_too(honest):
    """Its phone page is the closed table's page, here and in the checkout's own rendering."""
    table = a_table(honest, "rayman")
    requests.post(f"{honest.url}/api/tables/{table['code']}/close", timeout=20,
                  headers={"Authorization": f"Bearer {table['host_token']}"}).raise_for_status()
    checked = check(honest, "--table", table["code"])
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_server_serving_one_changed_static_file_is_reported(changed):
    checked = check(changed, "--table", a_table(changed)["code"])
    assert checked.returncode == 1, checked.stdout + checked.stderr
    lines = checked.stdout.strip().splitlines()
    assert lines[-1].startswith("1 difference between what ")
    assert lines[0].startswith("/static/js/record.js: the server's file differs from the checkout's")
    assert len(lines) == 2


def test_a_server_that_does_not_answer_cannot_be_checked(tmp_path):
    server = ServerProcess(tmp_path)  # never started: nothing listens on its port
    checked = check(server)
    assert checked.returncode == 2
    assert checked.stdout.startswith("cannot reach the server")
