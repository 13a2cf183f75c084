"""The standard library modules the verify page's Python imports: ``python -m scripts.pyodide_modules``
rewrites scripts/pyodide_stdlib_modules.txt, the list of the zip's files that ./manage.sh install keeps
(scripts/pyodide_stdlib.py): the rest of Pyodide's standard library (asyncio's servers, email, xml, unittest,
the codecs of every language: 80 % of the zip) would be downloaded by every phone and never run.

Found by doing what the page does, in the page's own Python (Pyodide's npm package, run in Node, with its
whole standard library as it ships): start Python, then replay a random game of every game as
static/js/replay.js replays a table's log (the rules zip written to /rules.zip, the logged game's rules
imported, ``page_report``), each with its rules imported afresh, and the logs the rules refuse, the verifier
does not read or names no game of; and a Python error raised to the page (what Pyodide imports to say it).
What Python then holds in ``sys.modules`` from the zip is the list. tests/test_pyodide_stdlib.py runs the
same replays and fails when one imports a module the list lacks (a rule that starts to import ``fractions``
is caught by the suite, not at a table); tests/test_verify_page_replay.py checks the page's own Python too.

``--check`` says what differs from the list (status 1 when a module imported is missing) without writing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from scripts.pyodide_stdlib import MODULES, listed

ROOT = Path(__file__).resolve().parent.parent
# Where Pyodide mounts python_stdlib.zip: a module imported from it has its file there.
IN_THE_ZIP = "/lib/python313.zip/"
HEADER = """\
# The files of Pyodide's standard library (python_stdlib.zip) the verify page's Python imports: Pyodide's
# own start, then the page's replay of every game's log (the verifier and each game's rules).
# Made by `.venv/bin/python -m scripts.pyodide_modules` (never by hand); ./manage.sh install keeps only
# these in static/vendor/pyodide/python_stdlib.zip (scripts/pyodide_stdlib.py). One path a line.
"""

# The page's import and run (static/js/replay.js), then what Python holds from the zip. Node prints one
# JSON line: the zip's files imported, sorted.
REPLAYS_IN_PYODIDE = """
import { readFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';
const [rulesZip, logsFile, fromTheZip, stdLibURL] = process.argv.slice(1);
const python = await loadPyodide(stdLibURL ? { stdLibURL } : {});
python.FS.writeFile('/rules.zip', new Uint8Array(readFileSync(rulesZip)));
try {
  python.runPython('raise ValueError("what the page is told when Python fails")');
} catch (error) {
  if (!String(error.message).includes('what the page is told')) throw error;
}
for (const log of JSON.parse(readFileSync(logsFile, 'utf8'))) {
  python.globals.set('log_json', JSON.stringify(log));
  python.runPython(`
import json, sys
for name in [n for n in sys.modules if n.split(".")[0] == "companion"]:
    del sys.modules[name]
if "/rules.zip" not in sys.path:
    sys.path.insert(0, "/rules.zip")
from companion.rules_imports import import_rules_for
import_rules_for(json.loads(log_json))
from companion.verify import page_report
json.dumps(page_report(json.loads(log_json), None))
`);
}
console.log(python.runPython(fromTheZip));
"""
# In the page's Python: the zip's files its modules were imported from (JSON).
FROM_THE_ZIP = f"""
import json, sys
json.dumps(sorted({{module.__file__.removeprefix("{IN_THE_ZIP}") for module in list(sys.modules.values())
                   if (getattr(module, "__file__", None) or "").startswith("{IN_THE_ZIP}")}}))
"""


def logs() -> list:
    """A random walk of every game, as a closed table's log; the first refused by its rules, one naming a
    game no zip holds (every game imported), and one the verifier cannot read."""
    from tests.random_play import CONFIGS
    from tests.test_replay import logged_walk

    walks = {game_id: logged_walk(game_id) for game_id in sorted(CONFIGS)}
    refused = json.loads(json.dumps(walks["chakart"]))  # the other player moves (tests/test_rules_bundle.py)
    action = next(entry for entry in refused["entries"] if entry["kind"] == "action" and entry["call"] == "apply")
    action["seat"] = 1 - action["seat"]
    unknown = dict(json.loads(json.dumps(walks["chakart"])), game="croquet")
    return [*walks.values(), refused, unknown, {"entries": "no list"}]


def imported(replayed: list | None = None, stdlib: Path | None = None) -> list[str]:
    """The zip's files the page's Python holds after starting and replaying ``replayed`` (`logs()`), with
    the standard library ``stdlib`` (the npm package's, whole, by default). RuntimeError when a replay fails
    (a module the zip lacks: ModuleNotFoundError)."""
    from companion import rules_bundle

    with tempfile.TemporaryDirectory() as folder:
        rules, logs_file = Path(folder) / "rules.zip", Path(folder) / "logs.json"
        rules.write_bytes(rules_bundle.bundle())
        logs_file.write_text(json.dumps(logs() if replayed is None else replayed))
        run = subprocess.run(["node", "--input-type=module", "-e", REPLAYS_IN_PYODIDE, str(rules), str(logs_file),
                              FROM_THE_ZIP, *([str(stdlib.resolve())] if stdlib else [])],
                             capture_output=True, text=True, timeout=600, cwd=ROOT)
    if run.returncode != 0:
        raise RuntimeError(f"the replays failed in Pyodide: {run.stderr[-3000:]}")
    return by_source(json.loads(run.stdout.strip().splitlines()[-1]))


def by_source(files: list[str]) -> list[str]:
    """The zip's files by their source's name (a compiled zip holds ``NAME.pyc``), sorted."""
    return sorted({name.removesuffix("c") if name.endswith(".pyc") else name for name in files})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.pyodide_modules", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="say what differs from the list, write nothing")
    args = parser.parse_args(argv)
    found = imported()
    if args.check:
        missing, unused = sorted(set(found) - set(listed())), sorted(set(listed()) - set(found))
        print(f"imported and not listed: {', '.join(missing) or 'none'}; listed and not imported: "
              f"{', '.join(unused) or 'none'}")
        return 1 if missing else 0
    MODULES.write_text(HEADER + "".join(f"{name}\n" for name in found), encoding="utf-8")
    print(f"{MODULES.relative_to(ROOT)}: {len(found)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
