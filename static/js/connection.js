// The socket to a table: authenticates with the table code and a token, keeps
// the newest view, reconnects by itself after a reload, a sleep or a Wi-Fi drop.
import { io } from '../vendor/socket.io.esm.min.js';
import { N_, t } from './i18n.js';
import { randomHex } from './ui.js';

const ACK_TIMEOUT_MS = 8000;

// What a screen says about its connection (onStatus) or why it ended (onEnded), to pass to t().
export const CONNECTION_TEXT = {
  connecting: N_('Connecting…'),
  connected: N_('Connected'),
  offline: N_('Reconnecting…'),
  replaced: N_('This seat was opened on another screen.'),
  removed: N_('The host removed your seat.'),
  revoked: N_('Your seat moved to another phone. To play on this one, ask the host for a hand-off code.'),
  demoted: N_('The host rights went to a seat: this screen is now a display.'),
};

export function connectTable({ code, token, onView, onPresence, onStatus, onEnded, on = {} }) {
  const socket = io({ auth: { table: code, token }, transports: ['websocket', 'polling'] });
  for (const [event, handler] of Object.entries(on)) socket.on(event, handler);
  let version = 0;
  let you = null;  // who this screen is: in the connect view; views shared by several screens leave it out
  socket.on('connect', () => onStatus?.('connected'));
  socket.on('disconnect', () => onStatus?.('offline'));
  socket.on('connect_error', (error) => {
    // A refusal from the server (bad token, unknown table) is final; a network error is not.
    // The server's refusal is already a sentence in the screen's language.
    if (error?.message && !socket.active) onEnded?.('refused', error.message);
    else onStatus?.('offline');
  });
  socket.on('view', (view) => {
    // Views can overtake each other; the newest table version wins.
    if (view.version < version) return;
    version = view.version;
    if (view.you) you = view.you; else view.you = you;
    onView?.(view);
  });
  socket.on('presence', (presence) => onPresence?.(presence.online, presence));
  // This screen's token stopped working: its seat went to another phone, or the host rights to a seat.
  socket.on('revoked', (data) => { socket.disconnect(); onEnded?.(data?.who === 'host' ? 'demoted' : 'revoked'); });
  socket.on('replaced', () => { socket.disconnect(); onEnded?.('replaced'); });
  socket.on('removed', () => { socket.disconnect(); onEnded?.('removed'); });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !socket.connected && socket.active !== false) socket.connect();
  });

  async function act(action) {
    // The id makes a retry after a lost acknowledgement harmless: the server answers it once.
    const withId = { ...action, id: action.id || randomHex(12) };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        return await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('act', withId);
      } catch {
        // No acknowledgement: the connection is down or the server is slow. Say so in the
        // screen's language, never with the transport's own English.
      }
    }
    return { ok: false, error: t('The server does not answer: check the Wi-Fi, then try again.') };
  }
  return { socket, act };
}

export function storedToken(kind, code) {
  return localStorage.getItem(`companion.${kind}.${code}`);
}

export function storeToken(kind, code, token) {
  localStorage.setItem(`companion.${kind}.${code}`, token);
}

export function forgetToken(kind, code) {
  localStorage.removeItem(`companion.${kind}.${code}`);
}
