// The verify page: download the public log and check it here, against this phone's own record if it
// kept one (companion/verify.py runs the same checks: python -m companion.verify LOG --record RECORD).
import { drawSaid } from './draw-kinds.js';
import { verifyLog } from './fairness.js';
import { N_, t, tn } from './i18n.js';
import { loadRecord } from './record.js';
import { followDownloads, preloadReplay, prepareReplay, replayInPython } from './replay.js';
import { el, requestJson } from './ui.js';

const root = document.getElementById('verify');
const replaySection = root.querySelector('.replay');
const replayState = replaySection.querySelector('.replay-state');

// What the replay is waiting for, shown until it runs (its files take seconds on a phone's network).
function showProgress({ downloaded, of, starting }) {
  const over = replaySection.dataset.result && replaySection.dataset.result !== 'running';
  if (over || replaySection.dataset.progress === 'replaying') return;
  replaySection.dataset.progress = starting ? 'starting' : 'downloading';
  replayState.textContent = starting ? t('Starting Python…')
    : t("Downloading Python and the game's rules: %(downloaded)s of %(of)s files…", { downloaded, of });
}

// A closed table's replay files download while the page runs its own checks (asked for right after the
// log, which goes first); the page shows how far they are. (Python starts once the checks are shown: its
// start holds the thread for seconds.)
function downloadReplayEarly() {
  if (!replaySection.dataset.early) return;
  preloadReplay({ rulesUrl: replaySection.dataset.rules, pyodideUrl: replaySection.dataset.pyodide });
  followDownloads(showProgress);
}

// Each seat's player, by the names the log gives them (joined, then renamed).
function seatNames(log) {
  const names = new Map();
  for (const entry of log.entries) {
    if (entry.kind === 'table' && entry.seat !== undefined && entry.name) names.set(entry.seat, entry.name);
  }
  return names;
}

// Who acted when each draw was made: the seat of the event logged with it (same moment).
function actors(log) {
  const byMoment = new Map();
  for (const entry of log.entries) {
    if (entry.kind === 'event' && entry.seat !== undefined && entry.seat !== null) byMoment.set(entry.at, entry.seat);
  }
  return byMoment;
}

const verdict = root.querySelector('.verdict');
const problems = root.querySelector('.problems');
// What the check could not cover (a game whose events are not derived from its draws yet), said plainly.
const notes = root.querySelector('.notes');
const recordLine = root.querySelector('.record-state');
const recordLink = root.querySelector('.record-download');
const unspentList = root.querySelector('.unspent');

const said = (message) => t(message.text, message.params);

function problemText(problem) {
  const text = t(problem.text, problem.params || {});
  return problem.i === null || problem.i === undefined ? text : t('Entry %(i)s: %(text)s', { i: problem.i, text });
}

async function run() {
  verdict.textContent = t('Recomputing every draw…');
  const logRequest = requestJson(root.dataset.log);
  downloadReplayEarly();
  const { ok, body: log, text: logText, error } = await logRequest;
  if (!ok) {
    verdict.textContent = error;
    return;
  }
  const record = loadRecord(root.dataset.code);
  const report = verifyLog(log, record);
  const draws = (log.entries || []).filter((entry) => entry.kind === 'draw');
  const names = seatNames(log);
  const actor = actors(log);
  // Draws are numbered from 1 for people (the log counts from 0).
  root.querySelector('tbody').replaceChildren(...draws.map((draw) => {
    const row = report.rows.find((r) => r.entry === draw);
    return el('tr', { class: row ? (row.good ? 'good' : 'bad') : '' },
      el('td', { text: String(draw.n + 1) }), el('td', { text: names.get(actor.get(draw.at)) ?? '' }),
      el('td', { text: said(drawSaid(draw.purpose, names)) }),
      el('td', { text: JSON.stringify(draw.result) }), el('td', { text: row ? (row.good ? '✓' : '✗') : '…' }));
  }));
  problems.replaceChildren(...report.problems.map((problem) => el('li', { text: problemText(problem) })));
  problems.hidden = !report.problems.length;
  const noted = [...new Set(report.notes.map((note) => t(note.text, note.params || {})))];
  notes.replaceChildren(...noted.map((text) => el('li', { text })));
  notes.hidden = !noted.length;
  recordLine.textContent = record
    ? t("This phone's own record of the table (seat %(seat)s) was checked against the log.", { seat: record.seat })
    : t('This screen kept no record of the table: only the log itself is checked.');
  recordLine.dataset.record = record ? 'checked' : 'none';
  recordLink.hidden = !record;
  if (record) {
    recordLink.href = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: 'application/json' }));
  }
  // Each value this phone showed the server and the log does not hold: a possible veto, with its action.
  listInto(unspentList, report.unspent.map(problemText));
  verdict.dataset.unspent = String(report.unspent.length);
  verdict.dataset.restarts = String(report.restarts);  // rounds a silent phone stopped: vetoes, named in the notes
  if (report.pending) {
    say('pending', t('The seed is revealed when the table closes; draws can be verified then.'));
    return;
  }
  if (!report.ok) say('mismatch', t('Mismatch: %(message)s', { message: problemText(report.problems[0]) }));
  else say('replaying', t("Draws and commitments checked; the game's rules are being replayed…"));
  conclude(report, await replay(log, record, report, logText));
}

function say(result, text) {
  verdict.textContent = text;
  verdict.dataset.result = result;
}

// The verdict names what was checked: "Verified" only once the draws, the commitments and the game's
// rules (the replay) all checked out. A replay that could not run, or did not run, is no verification.
function conclude(report, replayed) {
  if (!report.ok) return;  // the page's own checks found a mismatch: it stays the verdict
  if (replayed.result === 'mismatch') {
    say('mismatch', t('Mismatch: %(message)s', { message: problemText(replayed.problem) }));
  } else if (replayed.result === 'failed') {
    say('unverified', t("Draws and commitments checked; the game's rules could not be replayed: not verified."));
  } else if (replayed.result === 'skipped') {
    say('unverified', t('Draws and commitments checked; the game was not replayed (the notes say why): not verified.'));
  } else if (report.unspent.length) {
    say('unspent', t("Draws, commitments and the game's rules check out, but the server saw %(count)s of this phone's random numbers and did not use them: each may hide a result it refused (listed below).",
      { count: report.unspent.length }));
  } else {
    say('ok', tn("Verified: the commitment, the %(count)s draw and the game's rules check out.",
      "Verified: the commitment, all %(count)s draws and the game's rules check out.", report.checked));
  }
}

const RAN = N_("Replayed with the game's own rules (Python, in this browser)");

function listInto(list, texts) {
  list.replaceChildren(...texts.map((text) => el('li', { text })));
  list.hidden = !texts.length;
}

// A Python traceback ends with what went wrong: that line is enough on a phone.
const lastLine = (text) => text.trim().split('\n').pop();

// Pyodide's lock file as the page gives it (without its packages), or undefined: Pyodide downloads it.
const pyodideLock = () => (replaySection.dataset.pyodideLock ? JSON.parse(replaySection.dataset.pyodideLock) : undefined);

// The page's own checks showed at once; the replay (seconds: Python loads first) shows beside them.
// A problem of the Python checks the page's script did not find is listed too: nothing is hidden.
async function replay(log, record, report, logText) {
  replaySection.dataset.result = 'running';
  const prepared = prepareReplay({
    rulesUrl: replaySection.dataset.rules, pyodideUrl: replaySection.dataset.pyodide, pyodideLock: pyodideLock(),
    onProgress: showProgress,
  });
  const actions = (log.entries || []).filter((entry) => entry.kind === 'action').length;
  const replaying = () => {
    replaySection.dataset.progress = 'replaying';
    replayState.textContent = tn('Replaying the game with its rules: %(count)s logged action…',
      'Replaying the game with its rules: %(count)s logged actions…', actions);
  };
  let found;
  try {
    found = await replayInPython({ prepared, log, logText, record, onReplaying: replaying });
  } catch (error) {
    replayState.textContent = t('The game could not be replayed in this browser (%(error)s). The replay runs offline with: python -m companion.verify LOGFILE',
      { error: lastLine(error?.message || String(error)) });
    replaySection.dataset.result = 'failed';
    return { result: 'failed' };
  }
  const seen = new Set(report.problems.map((problem) => problem.i));
  const problemsFound = [...found.report.replay, ...found.report.problems.filter((problem) => !seen.has(problem.i))];
  listInto(replaySection.querySelector('.replay-problems'), problemsFound.map(problemText));
  listInto(replaySection.querySelector('.replay-notes'), found.report.replay_notes.map((note) => t(note.text, note.params)));
  const hashLine = replaySection.querySelector('.rules-hash');
  hashLine.textContent = t('SHA-256 of the rules it ran: %(hash)s (python -m companion.verify --rules-hash prints the same for the same rules)',
    { hash: found.hash });
  hashLine.dataset.hash = found.hash;
  hashLine.hidden = false;
  replaySection.dataset.milliseconds = String(found.milliseconds);
  if (!problemsFound.length && !found.report.replayed) {  // an older log, or a game this verifier does not know
    replayState.textContent = t('The game was not replayed: the notes say why.');
    replaySection.dataset.result = 'skipped';
    return { result: 'skipped' };
  }
  if (!problemsFound.length) {
    replayState.textContent = t('%(what)s: the same events and the same final state.', { what: t(RAN) });
    replaySection.dataset.result = 'ok';
    return { result: 'ok' };
  }
  replayState.textContent = t('%(what)s: mismatch.', { what: t(RAN) });
  replaySection.dataset.result = 'mismatch';
  return { result: 'mismatch', problem: problemsFound[0] };
}

run();
