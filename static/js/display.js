// A TV at /screen: it shows a one-time code and its QR code; once the host's phone sends the code,
// the TV turns into that table's display (/t/<code>/screen, without the host's rights).
import { t } from './i18n.js';
import { el, requestJson } from './ui.js';

const root = document.getElementById('display-pair');
const codeLine = root.querySelector('.pair-code');
const qr = root.querySelector('.pair-qr');
const state = root.querySelector('.pair-state');
// The tables asking for this screen, and this screen's own choice among them.
const asking = el('div', { class: 'pair-asks', 'aria-live': 'polite' });
state.after(asking);
// How often the TV asks whether it was paired (a TV has nothing else to do meanwhile).
const POLL_MS = 1500;
const RETRY_MS = 10000;
let key = null;

async function newCode() {
  const { ok, body, error } = await requestJson('/api/displays', { method: 'POST' });
  if (!ok) {
    state.textContent = error;
    window.setTimeout(newCode, RETRY_MS);
    return;
  }
  key = body.key;
  codeLine.textContent = body.code;
  qr.src = `/screen/qr.svg?pairing=${encodeURIComponent(body.code)}`;
  qr.hidden = false;
  state.textContent = t('Waiting for the host’s phone…');
  window.setTimeout(ask, POLL_MS);
}

const tableName = (ask) => (ask.host ? t('table %(code)s (host: %(name)s)', { code: ask.table, name: ask.host })
  : t('table %(code)s', { code: ask.table }));

// The TV itself shows one of the tables that asked (or none): nobody else chooses for it.
async function choose(table) {
  const { ok, body, error } = await requestJson('/api/displays/mine', {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify({ table }),
  });
  if (!ok) { state.textContent = error; return; }
  show(body);
}

// Who asks for this screen, named before it shows their table: a stranger who typed the code first is seen.
function showAsks(body) {
  const [first] = body.asks;
  state.textContent = body.contested
    ? t('Several tables typed this screen’s code: choose yours here.')
    : t('Showing %(table)s in %(seconds)s s. Not yours? Refuse it here.', {
      table: tableName(first), seconds: first.in });
  asking.replaceChildren(
    ...body.asks.map((ask) => el('button', { type: 'button', class: 'primary show-table', 'data-table': ask.table,
      text: t('Show %(table)s', { table: tableName(ask) }), onclick: () => choose(ask.table) })),
    el('button', { type: 'button', class: 'refuse-tables', text: t('Not my table'), onclick: () => choose(null) }));
}

function show(body) {
  if (body.state === 'paired') {
    asking.replaceChildren();
    // The table's screen keeps asking with this key: the host of the table it shows may move it.
    sessionStorage.setItem('companion.display', JSON.stringify({ key, code: codeLine.textContent, table: body.table }));
    state.textContent = t('Opening %(table)s…', { table: tableName(body) });
    window.location.replace(body.url);
    return true;
  }
  if (body.state === 'asked') showAsks(body);
  else { asking.replaceChildren(); state.textContent = t('Waiting for the host’s phone…'); }
  return false;
}

async function ask() {
  const { ok, status, body, error } = await requestJson('/api/displays/mine', {
    headers: { Authorization: `Bearer ${key}` },
  });
  if (ok && (body.state === 'paired' || body.state === 'asked' || body.state === 'waiting')) {
    if (show(body)) return;
    window.setTimeout(ask, POLL_MS);
    return;
  }
  // An expired code (or a key the server no longer knows) gives way to a new one.
  if ((ok && body.state === 'expired') || status === 401) { newCode(); return; }
  if (!ok) state.textContent = error;  // the Wi-Fi or the server: the TV keeps asking
  window.setTimeout(ask, POLL_MS);
}

newCode();
