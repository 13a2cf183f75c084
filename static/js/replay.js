// The verify page's replay: the game's own Python rules (companion/verify.py and the games, the zip
// of companion/rules_bundle.py) run in this browser by CPython compiled to WebAssembly (Pyodide,
// served by our server from static/vendor/pyodide: the table may have no internet). Only the verify
// page imports this module; Python loads only when it runs.
import { bytesToHex, sha256 } from './hashes.js';
import { requestBytes } from './ui.js';

// Loading the interpreter takes seconds (13 MB on a first visit): past this, the page says it failed.
const GIVE_UP_AFTER_MS = 120000;

function withinTime(promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${GIVE_UP_AFTER_MS / 1000} s`)), GIVE_UP_AFTER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function fetchRules(url) {
  const { ok, body, error } = await requestBytes(url);
  if (!ok) throw new Error(error);
  return body;
}

async function startPython(moduleUrl) {
  if (typeof WebAssembly !== 'object') throw new Error('this browser does not run WebAssembly');
  const { loadPyodide } = await import(moduleUrl);
  const here = new URL('.', new URL(moduleUrl, window.location.href)).href;
  // indexURL and packageBaseUrl both ours: Pyodide never looks elsewhere (the verifier needs only
  // the standard library, which is python_stdlib.zip beside it).
  return loadPyodide({ indexURL: here, packageBaseUrl: here, lockFileURL: `${here}pyodide-lock.json` });
}

const RUN = `
import json, sys
if "/rules" not in sys.path:
    sys.path.insert(0, "/rules")
import companion.games  # the games register their checks (companion.game_checks) on import
from companion.verify import page_report
json.dumps(page_report(json.loads(log_json), json.loads(record_json)))
`;

// -> { hash, report } where report is companion.verify.page_report's: {ok, problems, replay,
// replay_notes}, each message {i, text, params} to translate with t(). Throws when Python cannot run.
export async function replayInPython({ rulesUrl, pyodideUrl, log, logText, record }) {
  const [rules, python] = await withinTime(Promise.all([fetchRules(rulesUrl), startPython(pyodideUrl)]),
    'Python');
  python.unpackArchive(rules, 'zip', { extractDir: '/rules' });
  python.globals.set('log_json', logText || JSON.stringify(log));
  python.globals.set('record_json', JSON.stringify(record ?? null));
  const started = performance.now();
  const report = JSON.parse(python.runPython(RUN));
  return { hash: bytesToHex(sha256(rules)), report, milliseconds: Math.round(performance.now() - started) };
}
