// The verify page: download the public log and recompute every draw here.
import { verifyLog } from './fairness.js';
import { t } from './i18n.js';
import { el } from './ui.js';

const root = document.getElementById('verify');
const verdict = root.querySelector('.verdict');

async function run() {
  verdict.textContent = t('verify_running');
  const log = await (await fetch(root.dataset.log)).json();
  const report = verifyLog(log);
  const draws = log.entries.filter((entry) => entry.kind === 'draw');
  root.querySelector('tbody').replaceChildren(...draws.map((draw) => {
    const row = report.rows.find((r) => r.entry === draw);
    return el('tr', { class: row ? (row.good ? 'good' : 'bad') : '' },
      el('td', { text: String(draw.n) }), el('td', { text: draw.purpose }),
      el('td', { text: JSON.stringify(draw.result) }), el('td', { text: row ? (row.good ? '✓' : '✗') : '…' }));
  }));
  if (report.pending) verdict.textContent = t('verify_pending');
  else if (report.ok) verdict.textContent = t('verify_ok', { count: report.checked });
  else verdict.textContent = t('verify_fail', { message: report.message });
  verdict.dataset.result = report.pending ? 'pending' : (report.ok ? 'ok' : 'mismatch');
}

run();
