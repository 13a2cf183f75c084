// The verify page: download the public log and check it here, against this phone's own record if it
// kept one (companion/verify.py runs the same checks: python -m companion.verify LOG --record RECORD).
import { verifyLog } from './fairness.js';
import { t } from './i18n.js';
import { loadRecord } from './record.js';
import { el, requestJson } from './ui.js';

const root = document.getElementById('verify');

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

// "seat 2" in a draw's purpose reads as the player's name.
const named = (text, names) => text.replace(/\bseat (\d+)\b/g, (whole, id) => names.get(Number(id)) ?? whole);
const verdict = root.querySelector('.verdict');
const problems = root.querySelector('.problems');
// What the check could not cover (a game whose events are not derived from its draws yet), said plainly.
const notes = root.querySelector('.notes');
const recordLine = root.querySelector('.record-state');
const recordLink = root.querySelector('.record-download');

function problemText(problem) {
  const text = t(problem.text, problem.params || {});
  return problem.i === null || problem.i === undefined ? text : t('Entry %(i)s: %(text)s', { i: problem.i, text });
}

async function run() {
  verdict.textContent = t('Recomputing every draw…');
  const { ok, body: log, error } = await requestJson(root.dataset.log);
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
      el('td', { text: named(draw.purpose, names) }),
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
  if (report.pending) verdict.textContent = t('The seed is revealed when the table closes; draws can be verified then.');
  else if (report.ok) verdict.textContent = t('Verified: the commitment and all %(count)s draws check out.', { count: report.checked });
  else verdict.textContent = t('Mismatch: %(message)s', { message: problemText(report.problems[0]) });
  verdict.dataset.result = report.pending ? 'pending' : (report.ok ? 'ok' : 'mismatch');
}

run();
