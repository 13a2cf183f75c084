// The verify page: download the public log and recompute every draw here.
import { verifyLog } from './fairness.js';
import { t } from './i18n.js';
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

async function run() {
  verdict.textContent = t('Recomputing every draw…');
  const { ok, body: log, error } = await requestJson(root.dataset.log);
  if (!ok) {
    verdict.textContent = error;
    return;
  }
  const report = verifyLog(log);
  const draws = log.entries.filter((entry) => entry.kind === 'draw');
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
  if (report.pending) verdict.textContent = t('The seed is revealed when the table closes; draws can be verified then.');
  else if (report.ok) verdict.textContent = t('Verified: the commitment and all %(count)s draws check out.', { count: report.checked });
  else verdict.textContent = t('Mismatch: %(message)s', { message: report.message });
  verdict.dataset.result = report.pending ? 'pending' : (report.ok ? 'ok' : 'mismatch');
}

run();
