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

// lock: Pyodide's lock file without its packages, from the page (companion/web/pages.py): one download less.
async function startPython(moduleUrl, lock) {
  if (typeof WebAssembly !== 'object') throw new Error('this browser does not run WebAssembly');
  performance.mark('replay: Python asked to start');
  const { loadPyodide } = await import(moduleUrl);
  performance.mark('replay: Pyodide module');
  const here = new URL('.', new URL(moduleUrl, window.location.href)).href;
  // indexURL and packageBaseUrl both ours: Pyodide never looks elsewhere (the verifier needs only
  // the standard library, which is python_stdlib.zip beside it).
  const lockFile = lock ? { lockFileContents: lock } : { lockFileURL: `${here}pyodide-lock.json` };
  // fsInit runs once the interpreter's WebAssembly is instantiated and linked, before Python's own start: a mark
  // that splits the two (bench/verify_page.py prints it).
  const python = await loadPyodide({
    indexURL: here, packageBaseUrl: here, ...lockFile,
    fsInit: async () => { performance.mark('replay: WebAssembly instantiated'); },
  });
  performance.mark('replay: Python started');
  return python;
}

// The files the replay waits for, by how their URL ends.
const DOWNLOADS = ['/rules.zip', '/pyodide.asm.js', '/pyodide.asm.wasm', '/python_stdlib.zip'];

// Starts downloading what the replay needs, as Pyodide and fetchRules() will ask for it (the same URL,
// mode and credentials: the browser hands them the preloaded answers), without running anything: the
// page's own checks keep the thread (and the connections the browser holds for its scripts).
export function preloadReplay({ rulesUrl, pyodideUrl }) {
  const here = new URL('.', new URL(pyodideUrl, window.location.href)).href;
  const links = [['modulepreload', pyodideUrl], ['modulepreload', `${here}pyodide.asm.js`],
    ['preload', `${here}pyodide.asm.wasm`], ['preload', `${here}python_stdlib.zip`], ['preload', rulesUrl]];
  for (const [rel, href] of links) {
    const link = document.createElement('link');
    link.rel = rel;
    if (rel === 'preload') {
      link.as = 'fetch';
      link.crossOrigin = 'anonymous';
    }
    link.href = href;
    document.head.append(link);
  }
}

// Calls onProgress({ downloaded, of }) each time one of DOWNLOADS has arrived (from the browser's
// resource timing, which sees the page's preloads and Pyodide's own requests alike); -> stop().
export function followDownloads(onProgress) {
  const arrived = new Set();
  const seen = (entries) => {
    for (const entry of entries) {
      const path = new URL(entry.name).pathname;
      const file = DOWNLOADS.find((end) => path.endsWith(end));
      if (file && !arrived.has(file)) {
        arrived.add(file);
        onProgress({ downloaded: arrived.size, of: DOWNLOADS.length });
      }
    }
  };
  onProgress({ downloaded: 0, of: DOWNLOADS.length });
  seen(performance.getEntriesByType('resource'));
  if (typeof PerformanceObserver !== 'function') return () => {};
  const observer = new PerformanceObserver((list) => seen(list.getEntries()));
  observer.observe({ type: 'resource' });
  return () => observer.disconnect();
}

// Starts Python (its files are downloaded meanwhile, or were preloaded while the page ran its own
// checks: Python's start holds the page's thread for seconds, so it waits for them) and fetches the
// rules: -> a promise of { rules, python } (rejected when Python cannot run). onProgress gets
// { downloaded, of } as files arrive, then { starting: true } once all have (Python initialises).
export function prepareReplay({ rulesUrl, pyodideUrl, pyodideLock, onProgress = () => {} }) {
  const stop = followDownloads((progress) => {
    onProgress(progress.downloaded === progress.of ? { starting: true } : progress);
  });
  const ready = withinTime(Promise.all([fetchRules(rulesUrl), startPython(pyodideUrl, pyodideLock)]), 'Python')
    .then(([rules, python]) => ({ rules, python }))
    .finally(stop);
  ready.catch(() => {});  // the replay reports the failure when it asks for Python
  return ready;
}

// Lets the browser show what the page just wrote before Python holds the thread (runPython blocks).
const painted = () => new Promise((resolve) => {
  const fallback = setTimeout(resolve, 100);  // no frame comes while the page is hidden
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(fallback); resolve(); }, 0));
});

// The rules zip is imported from as it is (zipimport), nothing unpacked: compiled ahead at install, it holds
// each module's bytecode beside its source, made for this path (scripts/pyodide_stdlib.py, compile_rules).
const RULES_ZIP = '/rules.zip';
const IMPORT = `
import json, sys
if "${RULES_ZIP}" not in sys.path:
    sys.path.insert(0, "${RULES_ZIP}")
from companion.rules_imports import import_rules_for
import_rules_for(json.loads(log_json))  # the logged game's rules, not every game's: each module compiles here
from companion.verify import page_report
`;
const RUN = 'json.dumps(page_report(json.loads(log_json), json.loads(record_json)))';

// -> { hash, report } where report is companion.verify.page_report's: {ok, problems, replay,
// replay_notes}, each message {i, text, params} to translate with t(). Throws when Python cannot run.
// prepared: prepareReplay()'s promise; onReplaying() is called once Python runs the game.
export async function replayInPython({ prepared, log, logText, record, onReplaying = () => {} }) {
  const { rules, python } = await prepared;
  onReplaying();
  await painted();
  python.FS.writeFile(RULES_ZIP, rules);
  performance.mark('replay: rules written');
  python.globals.set('log_json', logText || JSON.stringify(log));
  python.globals.set('record_json', JSON.stringify(record ?? null));
  python.runPython(IMPORT);
  performance.mark('replay: rules imported');
  const started = performance.now();
  const report = JSON.parse(python.runPython(RUN));
  performance.mark('replay: game replayed');
  return { hash: bytesToHex(sha256(rules)), report, milliseconds: Math.round(performance.now() - started) };
}
