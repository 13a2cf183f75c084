"""Every browser script parses as an ES module.

A script that does not parse stops the whole page it is imported by, and a browser test only notices
on the pages it opens (a rebase once declared `let reader` twice in phone.js and every phone went
blank). Node's own parser checks each file, as the browser would load it, without running it.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "static" / "js"
NODE = shutil.which("node")


def every_script() -> list[Path]:
    return sorted(SCRIPTS.rglob("*.js"))


def test_there_are_scripts_to_check_and_node_to_check_them():
    assert NODE, "node is installed by ./manage.sh (it comes with npm)"
    assert len(every_script()) >= 20


@pytest.mark.parametrize("script", every_script(), ids=lambda path: str(path.relative_to(SCRIPTS)))
def test_the_script_parses_as_a_module(script: Path):
    checked = subprocess.run([NODE, "--input-type=module", "--check"], input=script.read_bytes(),
                             capture_output=True, timeout=60)
    assert checked.returncode == 0, checked.stderr.decode()


def test_a_script_declaring_a_name_twice_is_caught():
    """The check itself can fail: the mistake that once reached main is refused."""
    checked = subprocess.run([NODE, "--input-type=module", "--check"], input=b"let reader;\nlet reader;\n",
                             capture_output=True, timeout=60)
    assert checked.returncode != 0 and b"already been declared" in checked.stderr
