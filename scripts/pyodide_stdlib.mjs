// The verify page's standard library compiled ahead by the page's own Python: `node scripts/pyodide_stdlib.mjs ZIP`.
//
// Bytecode is valid only for the Python that made it, and the page runs Pyodide's (CPython 3.13 in
// WebAssembly), which Debian's Python is not. So this runs scripts/pyodide_stdlib.py inside that very
// Pyodide (the npm package ./manage.sh install copies the page's files from), here in Node: any
// machine that installs the page can make its compiled zip, the same bytes as every other
// (`python -m companion.verify --server` compares a server's with the checkout's). Exit status: that
// script's (0 compiled or already compiled, 2 it could not). With --rules, the rules zip the same way
// (companion/rules_bundle.py).
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';

const CHECKOUT = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));

// Each file argument as Pyodide sees it: its folder mounted (by its real path: Pyodide's file system does
// not follow a link out of what is mounted, and static/vendor may be one).
function mounted(python, args) {
  return args.map((arg, index) => {
    if (arg.startsWith('-')) return arg;
    python.mountNodeFS(`/host${index}`, realpathSync(dirname(arg)));
    return `/host${index}/${basename(arg)}`;
  });
}

// What the script says, with the files named as they were given.
const hostNames = (args, line) => args.reduce(
  (said, arg, index) => said.replaceAll(`/host${index}/${basename(arg)}`, arg), line);

async function main(args) {
  if (!args.length) {
    console.error('usage: node scripts/pyodide_stdlib.mjs ZIP (static/vendor/pyodide/python_stdlib.zip) | RULES_ZIP --rules OUT');
    return 2;
  }
  const python = await loadPyodide({
    stdout: (line) => console.log(hostNames(args, line)), stderr: (line) => console.error(hostNames(args, line)),
  });
  python.mountNodeFS('/checkout', CHECKOUT);
  python.globals.set('args', python.toPy(mounted(python, args)));
  return python.runPython(`
import sys
sys.path.insert(0, "/checkout")
from scripts.pyodide_stdlib import main
main(list(args))
`);
}

process.exitCode = await main(process.argv.slice(2));
