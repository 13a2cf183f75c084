// The host's phone scanned a TV's code (/pair/<code>): it sends it for the table this phone hosts.
import { t } from './i18n.js';
import { el, requestJson, showErrorAt } from './ui.js';

const root = document.getElementById('pair');
const pairing = root.dataset.pairing;
const state = root.querySelector('.pair-state');
const list = root.querySelector('.pair-tables');

// Every table this phone holds a key of (the host key, or a seat's that may hold the host's rights).
function keptTokens() {
  const kept = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const name = localStorage.key(index);
    const match = /^companion\.(host|seat)\.([A-Z0-9]{4,5})$/.exec(name || '');
    if (match) kept.push({ code: match[2], token: localStorage.getItem(name) });
  }
  return kept;
}

// The tables still open that this phone hosts, each with the token that holds the rights.
async function hostedTables() {
  const hosted = new Map();
  for (const { code, token } of keptTokens()) {
    if (hosted.has(code)) continue;
    const { ok, body } = await requestJson(`/api/tables/${code}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!ok || body.table.status === 'closed') continue;
    const { you, table } = body;
    if (you.role === 'host' || (you.role === 'seat' && table.host_seat === you.seat)) hosted.set(code, token);
  }
  return hosted;
}

const sendCode = (code, token, current) => requestJson(`/api/tables/${code}/display`, {
  method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
  body: JSON.stringify({ pairing, ...(current ? { current } : {}) }),
});

async function pair(code, token, control, hosted) {
  let { ok, status, body, error } = await sendCode(code, token);
  // The TV shows a table already: it moves only at the word of that table's host. This phone may be
  // that host (a new table of the evening): it says so with the key of each other table it hosts.
  for (const other of status === 409 ? [...hosted.values()].filter((kept) => kept !== token) : []) {
    ({ ok, body } = await sendCode(code, token, other));
    if (ok) break;
  }
  if (!ok) {  // said under the button that asked (the line above it no longer says "sending")
    state.textContent = showErrorAt(control, error) ? '' : error;
    return;
  }
  state.textContent = body.state === 'asked'
    ? t('The TV names table %(code)s and shows it in a few seconds; if it lists other tables, choose yours on the TV.', { code })
    : t('The TV shows table %(code)s now.', { code });
  list.replaceChildren(el('li', {}, el('a', { class: 'button', href: `/t/${code}`, text: t('Back to table %(code)s', { code }) })));
}

async function boot() {
  const hosted = await hostedTables();
  if (!hosted.size) {
    state.textContent = t('This phone hosts no open table. Open your table on the phone that hosts it, then scan the TV’s code again, or type it in the Host section.');
    return;
  }
  state.textContent = hosted.size === 1 ? t('Sending the code…') : t('Which table should the TV show?');
  const buttons = [...hosted].map(([code, token]) => {
    const button = el('button', { type: 'button', class: 'primary', text: t('Show table %(code)s', { code }) });
    button.addEventListener('click', () => pair(code, token, button, hosted));
    return el('li', {}, button);
  });
  list.replaceChildren(...buttons);
  // One table: scanning the code was the intent, nothing to choose.
  if (hosted.size === 1) buttons[0].querySelector('button').click();
}

boot();
