// The verify page: download the public log and recompute every draw here.
import { verifyLog } from './fairness.js';
import { t } from './i18n.js';
import { el, requestJson } from './ui.js';

const root = document.getElementById('verify');
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
  root.querySelector('tbody').replaceChildren(...draws.map((draw) => {
    const row = report.rows.find((r) => r.entry === draw);
    return el('tr', { class: row ? (row.good ? 'good' : 'bad') : '' },
      el('td', { text: String(draw.n) }), el('td', { text: draw.purpose }),
      el('td', { text: JSON.stringify(draw.result) }), el('td', { text: row ? (row.good ? '✓' : '✗') : '…' }));
  }));
  if (report.pending) verdict.textContent = t('The seed is revealed when the table closes; draws can be verified then.');
  else if (report.ok) verdict.textContent = t('Verified: the commitment and all %(count)s draws check out.', { count: report.checked });
  else verdict.textContent = t('Mismatch: %(message)s', { message: report.message });
  verdict.dataset.result = report.pending ? 'pending' : (report.ok ? 'ok' : 'mismatch');
}

run();
