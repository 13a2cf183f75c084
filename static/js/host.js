// The host screen: QR code, seats, the game as everybody sees it, host controls.
import { CONNECTION_TEXT, connectTable, forgetToken, storedToken } from './connection.js';
import { watchProposals } from './proposals.js';
import { rendererFor } from './games/index.js';
import { t } from './i18n.js';
import { hostFigureList, renderHostFigures } from './figures.js';
import { lobbyPanel } from './requirements.js';
import { el, requestJson, showError, showRefusal } from './ui.js';
import {
  clearUsedHandoff, everySecond, hostSeatTools, noteServerTime, presenceOf, renderGameOver, renderHandoff, renderHistory,
  renderWaiting,
} from './tablenight.js';

const root = document.getElementById('host');
const code = root.dataset.code;
// /t/<code>/screen is a display: it never uses a host key, even on the screen that holds one.
const token = root.dataset.display ? null : storedToken('host', code);
const statusLine = root.querySelector('.status');
const gameArea = root.querySelector('.game-area');
const seatList = root.querySelector('.seats');
const controls = root.querySelector('.host-controls');
const errorLine = root.querySelector('.side .error');
const figureArea = root.querySelector('.figure-area');
const figureHeading = root.querySelector('.figures-heading');
const waitingList = root.querySelector('.waiting');
const gameOver = root.querySelector('.game-over');
const handoffPanel = root.querySelector('.handoff');
const announcer = root.querySelector('.announce');
const announce = (text) => { announcer.textContent = text; };  // a roll's result, for a screen reader
const history = root.querySelector('.table-history');
let reader = { state: 'off' };
let presence = { online: [], away_since: {} };
let current = null;
let connection = null;

let connectionState = 'connecting';

// A TV paired by its code (/screen) shows that code and follows its pairing: the host of the table it
// shows may send it to another table (a stranger cannot: the server refuses them).
const FOLLOW_MS = 5000;
async function followPairing() {
  const paired = root.dataset.display ? JSON.parse(sessionStorage.getItem('companion.display') || 'null') : null;
  if (!paired) return;
  // This screen was opened for another table by hand: its pairing is not this page's.
  if (paired.table !== code) { sessionStorage.removeItem('companion.display'); return; }
  const line = root.querySelector('.tv-code');
  line.textContent = t('TV code: %(code)s', { code: paired.code });
  line.hidden = false;
  const { ok, status, body } = await requestJson('/api/displays/mine', { headers: { Authorization: `Bearer ${paired.key}` } });
  if (ok && body.state === 'paired' && body.table !== code) {
    sessionStorage.setItem('companion.display', JSON.stringify({ ...paired, table: body.table }));
    window.location.replace(body.url);
    return;
  }
  if (status === 401) { sessionStorage.removeItem('companion.display'); line.hidden = true; return; }
  window.setTimeout(followPairing, FOLLOW_MS);
}

// The line under the table code: a closed table says so whatever the socket does (it stays
// connected to show the revealed seed, but nothing can be done there any more).
function showStatus() {
  if (current?.table.status === 'closed') {
    statusLine.textContent = t('This table is closed.');
    statusLine.dataset.state = 'closed';
    return;
  }
  const text = t(CONNECTION_TEXT[connectionState]);
  statusLine.textContent = token ? text : `${text} — ${t('This screen does not hold the host key of this table: watching only.')}`;
  statusLine.dataset.state = connectionState;
}

async function act(action) {
  const answer = await connection.act(action);
  showRefusal(errorLine, answer.ok ? '' : answer.error);
  return answer;
}

function seatItem(seat) {
  const here = presenceOf(current, presence, seat.id);
  const item = el('li', { class: `seat ${here.away ? 'away' : 'online'}`, 'data-seat': seat.id },
    el('span', { class: 'swatch' }), el('span', { class: 'name', text: seat.name }),
    el('span', { class: 'presence', text: here.text }));
  item.querySelector('.swatch').style.background = seat.colour;
  // Figures are removed in the lobby only; an unknown one is named at any time.
  const figures = hostFigureList(current, seat.id, token && current.table.status !== 'closed' ? act : null,
    { removable: current.table.status === 'lobby' });
  if (figures) item.append(figures);
  const tools = token ? hostSeatTools(current, presence, seat, {
    act, onHandoff: (handed, offer) => renderHandoff(handoffPanel, current, handed, offer),
  }) : null;
  if (tools) item.append(tools);
  if (token && current.table.status !== 'closed') {
    item.append(el('span', { class: 'seat-actions' },
      el('button', { type: 'button', class: 'small', text: t('Rename'), onclick: () => {
        const name = window.prompt(t('New name for this seat:'), seat.name);
        if (name !== null) act({ type: 'table.rename', seat: seat.id, name });
      } }),
      el('button', { type: 'button', class: 'small danger', text: t('Remove'), onclick: () => {
        if (window.confirm(t('Remove %(name)s from the table?', { name: seat.name }))) act({ type: 'table.remove', seat: seat.id });
      } })));
  }
  return item;
}

function render() {
  const view = current;
  const { table } = view;
  seatList.replaceChildren(...table.seats.map(seatItem));
  clearUsedHandoff(handoffPanel, view);
  renderWaiting(waitingList, view, presence);
  renderGameOver(gameOver, view, { act, lead: Boolean(token) });
  renderHistory(history, view);
  figureHeading.hidden = !table.uses_figures;
  figureArea.hidden = !table.uses_figures;
  if (table.uses_figures) renderHostFigures(figureArea, view, reader, act);
  root.querySelector('.joining-state').textContent = table.joining_open ? t('Joining is open') : t('Joining is closed');
  // A TV says whose table it shows (the room sees a stranger's table for what it is).
  const hostLine = root.querySelector('.table-host');
  const hostSeat = table.seats.find((seat) => seat.id === table.host_seat);
  if (hostLine) {
    hostLine.hidden = !hostSeat;
    hostLine.textContent = hostSeat ? t('Host: %(name)s', { name: hostSeat.name }) : '';
  }
  root.classList.toggle('joining-closed', !table.joining_open);
  // The lobby shows the QR code big; during the game the game takes the screen.
  root.classList.toggle('in-game', table.status === 'playing' || table.status === 'over');
  root.classList.toggle('closed', table.status === 'closed');
  controls.hidden = !token || table.status === 'closed';
  controls.querySelector('.toggle-joining').textContent = table.joining_open ? t('Close joining') : t('Open joining');
  controls.querySelector('.start-game').hidden = table.status !== 'lobby';
  // Each game of the table commits to its own seed: the commitment shown follows the current game.
  root.querySelector('.commitment code').textContent = table.commitment;
  // A round of random numbers still waits on some phones: the game starts (and draws) once it is sealed.
  const round = table.entropy?.round;
  const missing = round ? table.seats.filter((seat) => round.asked.includes(seat.id) && !round.revealed.includes(seat.id)) : [];
  const drawsWait = controls.querySelector('.draws-wait');
  drawsWait.hidden = !missing.length;
  drawsWait.querySelector('span').textContent = missing.length
    ? t('Waiting for the random numbers of: %(names)s.', { names: missing.map((seat) => seat.name).join(', ') }) : '';
  controls.querySelector('.start-game').disabled = Boolean(missing.length);
  // In the start's own round, going on without a phone also takes its seat out: the game starts without it.
  controls.querySelector('.restart-round').textContent = round?.why === 'start'
    ? t('Start without them (they leave the table)') : t('Go on without them');
  const seed = root.querySelector('.seed');
  seed.hidden = !table.seed;
  seed.querySelector('code').textContent = table.seed || '';
  showStatus();
  if (!view.game) { gameArea.replaceChildren(lobbyPanel(view)); return; }
  // The host screen acts only in games that give it actions (Amiiboxe's board, seat order…).
  (rendererFor(table.game, render) || ((area) => area.replaceChildren()))(gameArea, view, {
    act: token ? act : null, announce, onNewRoll: (roll, text) => announce(text) });
}

controls.querySelector('.toggle-joining').addEventListener('click', () =>
  act({ type: 'table.joining', open: !current.table.joining_open }));
controls.querySelector('.start-game').addEventListener('click', () => act({ type: 'table.start' }));
controls.querySelector('.restart-round').addEventListener('click', () => act({ type: 'table.entropy_restart' }));
controls.querySelector('.close-table').addEventListener('click', () => {
  if (window.confirm(t('Close this table? Nobody can act any more and the seed is revealed.'))) act({ type: 'table.close' });
});

connection = connectTable({
  code, token,
  onView: (view) => {
    current = view;
    noteServerTime(view);
    presence = { online: view.online || presence.online, away_since: view.away_since || presence.away_since };
    render();
  },
  onPresence: (seats, now) => { presence = now; if (current) render(); },
  on: { reader: (status) => { reader = status; if (current) render(); } },
  onStatus: (state) => { connectionState = state; showStatus(); },
  onEnded: (reason, message) => {
    statusLine.textContent = message || t(CONNECTION_TEXT[reason]);
    // The host rights went to a seat (told now, or found refused when coming back): this screen
    // shows the table from now on, without them.
    if (reason === 'demoted' || (reason === 'refused' && token)) {
      forgetToken('host', code);
      window.setTimeout(() => window.location.reload(), 3000);
    }
  },
});

// Away times and countdowns move on by themselves.
everySecond(() => {
  if (!current) return;
  renderWaiting(waitingList, current, presence);
  let changed = false;
  for (const item of seatList.querySelectorAll('li.seat')) {
    const here = presenceOf(current, presence, Number(item.dataset.seat));
    item.querySelector('.presence').textContent = here.text;
    changed ||= item.classList.contains('away') !== here.away;
  }
  if (changed) render();  // a seat just became away: its tools appear
});
followPairing();
// The host confirms (or refuses) a house-ranking edit for the whole table.
if (token) watchProposals(connection.socket, { code, token, container: document.querySelector('#host .proposals') });
