// A TV at /screen: it shows a one-time code and its QR code; once the host's phone sends the code,
// the TV turns into that table's display (/t/<code>/screen, without the host's rights).
import { t } from './i18n.js';
import { requestJson } from './ui.js';

const root = document.getElementById('display-pair');
const codeLine = root.querySelector('.pair-code');
const qr = root.querySelector('.pair-qr');
const state = root.querySelector('.pair-state');
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

async function ask() {
  const { ok, status, body, error } = await requestJson('/api/displays/mine', {
    headers: { Authorization: `Bearer ${key}` },
  });
  if (ok && body.state === 'paired') {
    state.textContent = t('Opening table %(code)s…', { code: body.table });
    window.location.replace(body.url);
    return;
  }
  // An expired code (or a key the server no longer knows) gives way to a new one.
  if ((ok && body.state === 'expired') || status === 401) { newCode(); return; }
  if (!ok) state.textContent = error;  // the Wi-Fi or the server: the TV keeps asking
  window.setTimeout(ask, POLL_MS);
}

newCode();
