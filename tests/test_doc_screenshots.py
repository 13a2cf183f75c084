"""Running the tests leaves the tracked README pictures alone: browser tests write their
screenshots under test-artifacts/ (git-ignored), and only `./manage.sh screenshots`
(COMPANION_DOC_SCREENSHOTS=1) rewrites docs/screenshot-*.png and docs/screens/."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.server import ROOT


def test_browser_screenshots_go_to_ignored_artifacts_unless_asked_for_docs():
    assert os.environ.get("COMPANION_DOC_SCREENSHOTS") != "1", "run this test without the docs switch"
    from tests.test_browser import DOCS

    assert DOCS.relative_to(ROOT).parts[0] == "test-artifacts"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(DOCS / "screenshot-host.png")], cwd=ROOT)
    assert ignored.returncode == 0, f"{DOCS} is not git-ignored"


def test_no_test_writes_a_screenshot_into_docs_directly():
    writes_docs = re.compile(r"""screenshot\(\s*path\s*=\s*[^)]*ROOT\s*/\s*["']docs""")
    offenders = [path.name for path in (ROOT / "tests").glob("test_*.py") if writes_docs.search(path.read_text())]
    assert offenders == []


def test_the_screenshots_command_runs_the_marked_tests_with_the_docs_switch():
    manage = (ROOT / "manage.sh").read_text()
    line = next(line for line in manage.splitlines() if line.strip().startswith("screenshots)"))
    assert "COMPANION_DOC_SCREENSHOTS=1" in line and "-m doc_screenshots" in line
    marked = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", "-m", "doc_screenshots", "tests/test_browser.py"],
                            cwd=ROOT, capture_output=True, text=True)
    assert "test_host_creates_a_table_and_a_phone_rolls" in marked.stdout


def test_each_games_phone_picture_is_taken_by_the_screenshots_command_and_shown():
    """docs/screens/fr-<game>.png: marked for `./manage.sh screenshots`, written under DOCS, shown in PLAYING.md."""
    from tests.test_browser import DOCS
    from tests.test_doc_phone_screens import MAIN_SCREENS, SCREENS

    assert SCREENS.parent == DOCS
    marked = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             "-m", "doc_screenshots", "tests/test_doc_phone_screens.py"],
                            cwd=ROOT, capture_output=True, text=True)
    assert "test_each_games_main_phone_screen_in_french" in marked.stdout
    playing = (ROOT / "docs" / "PLAYING.md").read_text()
    for game in MAIN_SCREENS:
        assert f"(screens/fr-{game}.png)" in playing, game
        assert (ROOT / "docs" / "screens" / f"fr-{game}.png").is_file(), game
