// Small DOM helpers: every piece of player text goes through textContent, never HTML.
import { t } from './i18n.js';

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A module a page loads only when it first needs it (a phone's first load stays light):
// lazy(load)(onLoaded) gives the module once it is in; until then null, and it asks for it and calls
// onLoaded when it arrives (the page then draws again).
// lazy(load).load() gives it to code that can wait (an answer to a tap).
// While a part the screen draws is on its way, the page says it is busy (aria-busy on <body>): a screen
// reader waits for the whole screen, and a test measures the screen once it is drawn whole.
let partsOnTheirWay = 0;

function onItsWay(loading) {
  partsOnTheirWay += 1;
  document.body.setAttribute('aria-busy', 'true');
  loading.finally(() => {
    partsOnTheirWay -= 1;
    if (!partsOnTheirWay) document.body.removeAttribute('aria-busy');
  });
}

export function lazy(load) {
  let module = null;
  let loading = null;
  const start = () => {
    loading ??= load().then((loaded) => { module = loaded; return loaded; });
    return loading;
  };
  const loaded = (onLoaded) => {
    if (module) return module;
    onItsWay(start().then(() => onLoaded?.()));
    return null;
  };
  loaded.load = start;
  return loaded;
}

// Random bytes in hex: action ids, a phone's chain secret, a commitment's salt.
export function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
}

// A plain button with its label as text.
export function button(text, onclick, extra = '') {
  return el('button', { type: 'button', class: extra, text, onclick });
}

export function seatName(view, seatId) {
  return view.table.seats.find((seat) => seat.id === seatId)?.name ?? `#${seatId}`;
}

export function seatColour(view, seatId) {
  return view.table.seats.find((seat) => seat.id === seatId)?.colour ?? '#888';
}

export function showError(node, message) {
  node.textContent = message || '';
  node.hidden = !message;
}

// An error shown next to the control that caused it (after its label, or after the control),
// announced, and tied to it for screen readers; '' clears it. Returns whether it could be placed.
export function showErrorAt(control, message) {
  if (!control?.isConnected) return false;
  const anchor = control.closest('label') || control;
  let note = anchor.nextElementSibling;
  if (!note?.classList.contains('field-error')) {
    if (!message) return true;
    note = el('p', { class: 'error field-error', role: 'alert', id: `error-${Math.random().toString(36).slice(2)}` });
    anchor.after(note);
  }
  showError(note, message);
  if (message) {
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', note.id);
  } else {
    control.removeAttribute('aria-invalid');
    if (control.getAttribute('aria-describedby') === note.id) control.removeAttribute('aria-describedby');
  }
  return true;
}

// The control a person last pressed or changed: a refusal that comes back later is shown next to it.
let lastControl = null;
for (const type of ['click', 'change', 'submit']) {
  document.addEventListener(type, (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = type === 'submit' ? event.submitter || target : target?.closest('button, input, select, textarea');
    if (control) lastControl = control;
  }, true);
}

// A refusal from the server: next to the control that asked (still on the page), else in `fallback`.
export function showRefusal(fallback, message) {
  if (message && showErrorAt(lastControl, message)) {
    if (fallback) showError(fallback, '');
    return;
  }
  for (const old of document.querySelectorAll('.field-error')) showError(old, '');
  if (fallback) showError(fallback, message);
}

// A JSON request whose failure is always a sentence a person understands, in the page's language:
// the server's own message, or ours when the network or the server did not answer; never the
// browser's transport text. Answers { ok, status, body, error }.
const unreachable = () => t('The server does not answer: check the Wi-Fi, then try again.');
const failedWith = (status) => t('The server could not answer (error %(status)s): try again in a moment.', { status });

export async function requestJson(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    return { ok: false, status: 0, body: {}, error: unreachable() };
  }
  let body = {};
  let text = '';
  try {
    text = await response.text();
    body = JSON.parse(text);
  } catch { /* not JSON: a proxy's error page */ }
  const error = response.ok ? '' : (typeof body.error === 'string' && body.error) || failedWith(response.status);
  // text: the body as it came (the verify page hands the log to Python as it was sent: JavaScript would
  // turn 1000061.0 into 1000061, and a state that keeps a time would no longer be the table's).
  return { ok: response.ok, status: response.status, body, text, error };
}

// A file's bytes (the verify page's rules zip), its failures said as requestJson says them.
export async function requestBytes(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return { ok: false, error: failedWith(response.status) };
    return { ok: true, body: new Uint8Array(await response.arrayBuffer()) };
  } catch {
    return { ok: false, error: unreachable() };
  }
}

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// Keys for a number typed at the table (an initiative read on a card, a figure's value): big keys in
// view instead of the phone's keyboard, which would cover the page. The field keeps taking a laptop's
// keys; on a phone it opens no keyboard (inputmode none). Each key tells the field's listeners.
// With several fields (`inputs`), the keys type into the one last tapped, the first at the start, and move
// on to the next once a field holds all its digits.
export function numberPad(inputs, digits = 2) {
  const fields = [inputs].flat();
  let input = fields[0];
  for (const field of fields) {
    field.setAttribute('inputmode', 'none');
    field.addEventListener('focus', () => { input = field; });
  }
  const type = (next) => {
    input.value = next;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    if (next.length >= digits && fields.indexOf(input) < fields.length - 1) input = fields[fields.indexOf(input) + 1];
  };
  const key = (digit) => el('button', { type: 'button', class: 'pad-key', text: digit, onclick: () => {
    const now = input.value === '0' ? '' : input.value;  // a leading zero gives way to the first digit
    if (now.length < digits) type(now + digit);
  } });
  return el('div', { class: 'number-pad', role: 'group', 'aria-label': t('Number keys') },
    ...['1', '2', '3', '4', '5'].map(key),
    el('button', { type: 'button', class: 'pad-key', text: '⌫', 'aria-label': t('Delete the last digit'),
      onclick: () => type(input.value.slice(0, -1)) }),
    ...['6', '7', '8', '9', '0'].map(key));
}
