// A phone at the table: join once, then come back to the same seat by itself.
import { CONNECTION_TEXT, connectTable, forgetToken, storeToken, storedToken } from './connection.js';
import { rendererFor } from './games/index.js';
import { t } from './i18n.js';
import { watchProposals } from './proposals.js';
import { lobbyPanel } from './requirements.js';
import { el, lazy, requestJson, showError, showErrorAt, showRefusal } from './ui.js';
import {
  clearUsedHandoff, everySecond, handoffQuestion, hostSeatTools, noteServerTime, presenceOf, renderGameOver, renderHandoff,
  renderHistory, renderPresence, renderWaiting, undoButton,
} from './tablenight.js';

const root = document.getElementById('phone');
const code = root.dataset.code;
const joinForm = root.querySelector('.join-form');
const seatView = root.querySelector('.seat-view');
const gameArea = seatView.querySelector('.game-area');
const statusLine = seatView.querySelector('.status');
const notice = seatView.querySelector('.notice');
const announcer = seatView.querySelector('.announce');
const figureArea = seatView.querySelector('.figure-area');
const drawsWait = seatView.querySelector('.draws-wait');
const fairnessMark = seatView.querySelector('.fairness-mark');
// This phone's hash chain and its own record of the table (none: a seat joined on another screen).
// record.js and its SHA-256 load only when a phone joins or has a record: the join page stays light.
const records = () => import('./record.js');
// figures.js loads only at a table that registers figures or holds one (a figure tapped during any game).
const figureModule = lazy(() => import('./figures.js'));
const figureTools = (view, redraw) => (view.table.uses_figures || view.table.figures?.list?.length
  ? figureModule(redraw) : null);
let phoneChain = null;
const waitingList = seatView.querySelector('.waiting');
const presenceStrip = seatView.querySelector('.presence-strip');
const gameOver = seatView.querySelector('.game-over');
const tableTools = seatView.querySelector('.table-tools');
const hostPanel = seatView.querySelector('.host-panel');
const hostError = hostPanel.querySelector('.host-error');
const hostOnly = joinForm.querySelector('.host-only');
// A phone that created the table holds its host key (it may also take a seat).
const hostToken = storedToken('host', code);
// A phone that opened a seat's hand-off code (the host's QR code for an away seat).
const handoff = new URLSearchParams(window.location.search).get('hand');
let presence = { online: [], away_since: {} };
let latest = null;
let latestAct = null;
// A phone that scanned the QR code of a figure waiting on the host screen.
let claim = new URLSearchParams(window.location.search).get('claim');
let wakeLock = null;

async function keepAwake() {
  try {
    if ('wakeLock' in navigator && document.visibilityState === 'visible' && !wakeLock) {
      wakeLock = await navigator.wakeLock.request('screen');
      wakeLock.addEventListener('release', () => { wakeLock = null; });
    }
  } catch { /* refused (battery saver): the game works without it */ }
}
document.addEventListener('visibilitychange', keepAwake);

function announce(text) {
  announcer.textContent = text;
  if (navigator.vibrate) navigator.vibrate(60);
}

function showJoinForm(message) {
  seatView.hidden = true;
  joinForm.hidden = false;
  showError(joinForm.querySelector('.error'), message);
  // A phone that would only watch reads why first (the page says it above the name).
  (joinForm.querySelector('.watch') || joinForm.querySelector('input[name=name]')).focus();
}

// The host's rights are this screen's: it holds the host key, or its seat was given them.
const hosting = (view) => view.you.role === 'host' || (view.you.role === 'seat' && view.table.host_seat === view.you.seat);
// As in party games, the first seat leads the table (start, play again) while no seat hosts it.
function leads(view) {
  const first = Math.min(...view.table.seats.map((seat) => seat.id));
  return view.you.role === 'seat' && view.table.host_seat == null && view.you.seat === first;
}

// One action at a time; one that draws carries the phone's next chain value (record.js). The answer
// comes after the view that shows the value spent, so the next action never reuses it.
let queue = Promise.resolve();
function send(connection, action) {
  const sent = queue.then(async () => {
    if (!phoneChain) return connection.act(action);
    const answer = await phoneChain.send((carried) => connection.act(carried), action);
    phoneChain.settle(answer);
    if (latest) renderFairnessMark(latest);  // a refusal brings no new view
    return answer;
  });
  queue = sent.catch(() => null);
  return sent;
}

// A round of random numbers still open: the game starts (and draws) once every phone answered it.
const roundOpen = (view) => Boolean(view.table.entropy?.round);

function renderTableTools(view, act) {
  const { status } = view.table;
  const lead = hosting(view) || leads(view);
  const tools = [];
  if (status === 'lobby' && lead) {
    tools.push(el('button', { type: 'button', class: 'primary big start-game', text: t('Start the game'),
      disabled: roundOpen(view), onclick: () => act({ type: 'table.start' }) }));
  }
  // Right under the start it holds back: the phones a round waits on, and the host's way past them.
  if (hosting(view)) tools.push(...goOnWithout(view, act));
  const asked = handoffQuestion(view, act);
  if (asked) tools.push(asked);
  const undo = undoButton(view, act);
  if (undo) tools.push(undo);
  if (view.you.role === 'seat' && (status === 'lobby' || status === 'over')) {
    tools.push(el('button', { type: 'button', class: 'small leave', text: t('Leave the table'), onclick: () => {
      if (window.confirm(t('Leave the table? Your seat is freed for someone else.'))) act({ type: 'seat.leave' });
    } }));
  }
  tableTools.replaceChildren(...tools);
}

// A seat that hosts also takes the game's host actions (Amiiboxe's board, Arkade's corrections…),
// on the host screen's view of the game that its seat's view comes with.
function renderHostGame(view, hostAct) {
  const details = hostPanel.querySelector('.host-game');
  // Loaded on demand (games/index.js): drawn again once its module is in.
  const renderer = rendererFor(view.table.game, () => { if (latest && latestAct) renderHostPanel(latest, latestAct); });
  details.hidden = !view.host_game || !renderer || view.table.status !== 'playing';
  if (details.hidden || !details.open) return;
  renderer(details.querySelector('.host-game-area'), { ...view, game: view.host_game, you: { role: 'host', seat: null } },
    { act: (action) => hostAct({ ...action, as_host: true }), announce: () => {} });
}

function renderHostPanel(view, act, { withGame = true } = {}) {
  hostPanel.hidden = !hosting(view) || view.table.status === 'closed';
  if (hostPanel.hidden) return;
  const { table } = view;
  const figures = figureTools(view, () => { if (latest && latestAct) renderHostPanel(latest, latestAct); });
  const hostAct = async (action) => {
    const answer = await act(action);
    showRefusal(hostError, answer.ok ? '' : answer.error);
    return answer;
  };
  hostPanel.querySelector('.host-seats').replaceChildren(...table.seats.map((seat) => {
    const here = presenceOf(view, presence, seat.id);
    return el('li', { class: `seat ${here.away ? 'away' : 'online'}`, 'data-seat': seat.id },
      el('span', { class: 'name', text: seat.name }), ' ', el('span', { class: 'presence', text: here.text }),
      // Any seat's figures: removed in the lobby, an unknown one named at any time (as on the host screen).
      figures?.hostFigureList(view, seat.id, hostAct, { removable: table.status === 'lobby' }),
      hostSeatTools(view, presence, seat, {
        act: hostAct, onHandoff: (handed, offer) => renderHandoff(hostPanel.querySelector('.handoff'), view, handed, offer),
      }),
      el('button', { type: 'button', class: 'small', text: t('Rename'), onclick: () => {
        const name = window.prompt(t('New name for this seat:'), seat.name);
        if (name !== null) hostAct({ type: 'table.rename', seat: seat.id, name });
      } }),
      el('button', { type: 'button', class: 'small danger', text: t('Remove'), onclick: () => {
        if (window.confirm(t('Remove %(name)s from the table?', { name: seat.name }))) hostAct({ type: 'table.remove', seat: seat.id });
      } }));
  }));
  if (withGame) renderHostGame(view, hostAct);  // not each second: its forms keep what is typed
  renderHistory(hostPanel.querySelector('.table-history'), view);  // the table's games, seeds and verify links
  renderHostFigureTools(view, hostAct, figures);
  hostPanel.querySelector('.host-buttons').replaceChildren(
    el('button', { type: 'button', class: 'toggle-joining', text: table.joining_open ? t('Close joining') : t('Open joining'),
      onclick: () => hostAct({ type: 'table.joining', open: !table.joining_open }) }),
    el('button', { type: 'button', class: 'danger close-table', text: t('Close the table and reveal the seed'), onclick: () => {
      if (window.confirm(t('Close this table? Nobody can act any more and the seed is revealed.'))) hostAct({ type: 'table.close' });
    } }));
}

// Adding figures for any seat, while figures are registered (built once: a search survives redraws).
let hostFigures = null;
function renderHostFigureTools(view, hostAct, figures) {
  const area = hostPanel.querySelector('.host-figures');
  const adding = view.table.uses_figures && view.table.status === 'lobby';
  area.hidden = !adding;
  if (!adding || !figures) return;
  if (!hostFigures) {
    hostFigures = figures.hostFigureTools((action) => latestHostAct(action));
    area.replaceChildren(...hostFigures.nodes);
  }
  latestHostAct = hostAct;
  hostFigures.update(view, reader);
}
let latestHostAct = () => Promise.resolve({ ok: false });
// The server's NFC reader (null: not told yet): the host's rights get its details; every phone
// learns whether it is there, so that it asks for taps only then (it may come and go in the lobby).
let reader = null;

// A round of random numbers waits on phones that do not answer: the host goes on without them.
function goOnWithout(view, hostAct) {
  const round = view.table.entropy?.round;
  // This phone's own value is not among them once sent: a reveal that completes nothing brings no view.
  const answered = (seat) => round.revealed.includes(seat.id)
    || (seat.id === view.you.seat && phoneChain?.revealing === round.number);
  const missing = round ? view.table.seats.filter((seat) => round.asked.includes(seat.id) && !answered(seat)) : [];
  if (!missing.length) return [];
  return [el('p', { class: 'round-wait', role: 'status',
    text: t('Waiting for the random numbers of: %(names)s.', { names: missing.map((seat) => seat.name).join(', ') }) }),
  el('button', { type: 'button', class: 'restart-round',
    text: round.why === 'start' ? t('Start without them (they leave the table)') : t('Go on without them'),
    onclick: () => hostAct({ type: 'table.entropy_restart' }) })];
}

// Sends the code a TV shows (/screen) with this phone's token: that TV becomes this table's display.
let pairToken = null;
const pairForm = hostPanel.querySelector('.pair-tv');
pairForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const field = pairForm.elements.pairing;
  pairForm.querySelector('.paired')?.remove();
  const { ok, body, error } = await requestJson(`/api/tables/${code}/display`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${pairToken}` },
    body: JSON.stringify({ pairing: field.value }),
  });
  showErrorAt(field, ok ? '' : error);
  if (!ok) return;
  field.value = '';
  // The TV names the table before it shows it (another table may have typed its code too).
  pairForm.append(el('p', { class: 'paired', role: 'status', text: body.state === 'asked'
    ? t('The TV names table %(code)s and shows it in a few seconds; if it lists other tables, choose yours on the TV.', { code })
    : t('The TV shows the table now.') }));
});

// The table's fairness mark (the commitment to its seed) and, beside it, how many of this phone's random
// numbers the server saw and did not use: none at an honest server, each a possible veto otherwise.
function renderFairnessMark(view) {
  const shown = Boolean(phoneChain && view.you.role === 'seat' && view.table.commitment);
  fairnessMark.hidden = !shown;
  if (!shown) return;
  const unspent = phoneChain.unspent().length;
  fairnessMark.dataset.unspent = String(unspent);
  fairnessMark.classList.toggle('warning', unspent > 0);
  fairnessMark.replaceChildren(
    el('span', { class: 'commitment-mark', title: view.table.commitment,
      text: t('Fair draws, committed: %(commitment)s', { commitment: view.table.commitment.slice(0, 8) }) }),
    ' · ',
    el('span', { class: 'unspent-count',
      text: t('random numbers the server saw and did not use: %(count)s', { count: unspent }) }),
    // replaceChildren writes a null as the text "null": the explanation is left out, not null.
    ...(unspent ? [el('span', { class: 'unspent-why', text: t("The server saw %(count)s of this phone's random numbers and did not use them. An honest server uses every one it sees, unless it fails; one it refused could hide a result it did not want, such as a 6. The verify page lists each one with its action.", { count: unspent }) })] : []));
}

// How to join, on a phone that hosts: open at the top while the table waits for its players, then folded
// in the host's panel (shown on demand). Moved and opened only when the phase changes: a fold the host
// opened or closed stays so.
const joinHere = seatView.querySelector('.join-here');
let joinHereInLobby = null;
function renderJoinHere(view) {
  joinHere.hidden = !hosting(view) || view.table.status === 'closed' || !view.table.joining_open;
  const inLobby = view.table.status === 'lobby';
  if (joinHere.hidden || inLobby === joinHereInLobby) return;
  joinHereInLobby = inLobby;
  if (inLobby) gameArea.before(joinHere);
  else hostPanel.querySelector('.host-buttons').before(joinHere);
  joinHere.open = inLobby;
}

function render(view, connection) {
  latest = view;
  clearUsedHandoff(hostPanel.querySelector('.handoff'), view);
  if (phoneChain && view.you.role === 'seat') phoneChain.observe(view, (action) => send(connection, action));
  renderFairnessMark(view);
  const inPool = !phoneChain || phoneChain.inPool(view);
  drawsWait.hidden = inPool || view.you.role !== 'seat';
  drawsWait.textContent = inPool ? '' : t("Waiting for the other phones' random numbers…");
  const me = view.table.seats.find((seat) => seat.id === view.you.seat);
  seatView.querySelector('.my-name').textContent = me ? me.name
    : (view.you.role === 'host' ? t('Host') : t('You are watching as a spectator.'));
  seatView.querySelector('.swatch').style.background = me ? me.colour : 'transparent';
  if (view.table.status === 'closed') { showError(notice, t('This table is closed.')); showConnection(); }
  // Figures are registered in the lobby; once the game is on, the game has the screen.
  const registering = view.table.uses_figures && view.table.status === 'lobby';
  figureArea.hidden = !registering;
  const figures = registering ? figureTools(view, () => render(latest, connection)) : null;
  if (figures) figures.renderPhoneFigures(figureArea, view, {
    act: async (action) => {
      const answer = await send(connection, action);
      showRefusal(notice, answer.ok ? '' : answer.error);
      return answer;
    },
    claim,
    reader,
    onClaimed: () => { claim = null; window.history.replaceState(null, '', window.location.pathname); },
  });
  // A game without a screen of its own (a game module loaded by configuration) shows the table alone.
  const renderer = rendererFor(view.table.game, () => render(latest, connection)) || ((area) => area.replaceChildren());
  // quiet: an answer nobody needs to read (the second phone's "go" of a countdown).
  const act = async (action, { quiet = false } = {}) => {
    const answer = await send(connection, action);
    if (!quiet || answer.ok) showRefusal(notice, answer.ok ? '' : answer.error);
    return answer;
  };
  latestAct = act;
  renderPresence(presenceStrip, view, presence);
  renderWaiting(waitingList, view, presence);
  renderGameOver(gameOver, view, { act, lead: hosting(view) || leads(view), hosting: hosting(view) });
  renderTableTools(view, act);
  renderHostPanel(view, act);
  renderJoinHere(view);
  if (!view.game) { gameArea.replaceChildren(lobbyPanel(view)); return; }
  // A host phone without a seat sees the host's view of the game and takes its host actions (as the TV would).
  // While a draw waits for the phones' random numbers, another seat's action that draws joins the queue (first
  // come, first drawn); the server refuses the rest, and a seat's second draw, with a message beside the control.
  const canAct = (view.you.role === 'seat' || view.you.role === 'host') && view.table.status === 'playing' && inPool;
  // Before the game draws: a game that scrolls its own choice into view (Chakart's board) keeps that scroll.
  showTurnStart(view);
  renderer(gameArea, view, {
    act: canAct ? act : null,
    announce,
    onRoll: canAct && view.you.role === 'seat' ? () => act({ type: 'roll' }) : null,
    onNewRoll: (roll, text) => announce(text),
  });
  roomForActionBar();
}

// A phone whose turn starts shows the top of its game (what it is asked and its action), not the
// score sheet it was last scrolled to.
let waitedOn = false;
function showTurnStart(view) {
  const now = view.you.role === 'seat' && (view.table.waiting || []).some((wait) => wait.seat === view.you.seat);
  if (now && !waitedOn && gameArea.getBoundingClientRect().top < 0) gameArea.scrollIntoView({ block: 'start' });
  waitedOn = now;
}

// The game's next action is a bar fixed to the bottom of the screen (companion.css): the page keeps room
// for it under its end, so that nothing stays hidden behind it.
function roomForActionBar() {
  const bar = [...gameArea.querySelectorAll('.next-action')].find((node) => node.offsetParent !== null
    || getComputedStyle(node).position === 'fixed');
  seatView.style.paddingBottom = bar ? `${Math.ceil(bar.getBoundingClientRect().height) + 12}px` : '';
}
// A game may draw again by itself (a tapped die, a picked card): the bar may change with it.
new MutationObserver(roomForActionBar).observe(gameArea, { childList: true, subtree: true });

// Without a connection nothing a tap sends would arrive: the actions grey out and stop taking taps
// until the seat is back (the browser says at once when the network goes; the socket says when it is back).
let connectionState = 'connecting';
function showConnection(state = connectionState) {
  connectionState = state;
  // A closed table says so rather than "Connected": the socket stays, but nothing can be done.
  const closed = latest?.table.status === 'closed';
  statusLine.textContent = closed ? t('This table is closed.') : t(CONNECTION_TEXT[state]);
  statusLine.dataset.state = closed ? 'closed' : state;
  const offline = state !== 'connected';
  seatView.classList.toggle('offline', offline);
  for (const part of seatView.querySelectorAll('.game-area, .figure-area, .table-tools, .proposals, .host-panel, .game-over')) {
    part.inert = offline;
  }
}
window.addEventListener('offline', () => { if (!seatView.hidden) showConnection('offline'); });

function start(token) {
  joinForm.hidden = true;
  seatView.hidden = false;
  statusLine.textContent = t('Connecting…');
  let connection = null;
  connection = connectTable({
    code, token,
    onView: (view) => {
      noteServerTime(view);
      presence = { online: view.online || presence.online, away_since: view.away_since || presence.away_since };
      render(view, connection);
    },
    onPresence: (online, now) => { presence = now; if (latest) render(latest, connection); },
    onStatus: showConnection,
    on: {
      reader: (status) => {
        reader = status;
        if (latest && latestAct && hosting(latest)) renderHostPanel(latest, latestAct, { withGame: false });
        if (latest?.table.status === 'lobby') render(latest, connection);  // this phone's own figures
      },
    },
    onEnded: (reason, message) => {
      statusLine.textContent = '';
      if (reason === 'replaced') { showError(notice, t('This seat was opened on another screen.')); return; }
      if (reason === 'demoted') { forgetToken('host', code); window.location.reload(); return; }
      forgetToken(token === hostToken ? 'host' : 'seat', code);
      showJoinForm(CONNECTION_TEXT[reason] ? t(CONNECTION_TEXT[reason]) : message);
    },
  });
  // Back on the network: the socket may have lived through it (it then says nothing).
  window.addEventListener('online', () => { if (connection.socket.connected) showConnection('connected'); });

  pairToken = token;
  // House-ranking edits proposed at this table wait for this phone's agreement.
  if (token) watchProposals(connection.socket, { code, token, container: seatView.querySelector('.proposals') });
  keepAwake();
}

joinForm.querySelector('.watch')?.addEventListener('click', () => start(null));

joinForm.querySelector('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = new FormData(event.target).get('name');
  const { newRecord } = await records();
  const record = await newRecord(code);
  // A host phone sends its host key: its seat keeps the host's rights.
  const { ok, status, body, error } = await requestJson(`/api/tables/${code}/seats`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(hostToken ? { Authorization: `Bearer ${hostToken}` } : {}) },
    body: JSON.stringify({ name, commitment: record.anchor }),
  });
  if (ok) {
    await keepChain(record, body.seat);
    storeToken('seat', code, body.token);
    start(body.token);
  } else if (status === 403) {
    start(null);  // joining closed or game started: watch as a spectator
    showError(notice, error);
  } else {
    // A refused name is shown under it; no answer at all, under the button.
    const control = status === 400 ? event.target.elements.name : event.target.querySelector('button[type=submit]');
    showErrorAt(control, error);
  }
});

async function keepChain(record, seat) {
  const { PhoneChain, saveRecord } = await records();
  record.seat = seat;
  saveRecord(record);
  phoneChain = new PhoneChain(record);
}

// The phone that opened a seat's hand-off code takes the seat (its old phone is cut off).
// (the code comes in the address of the QR code, or typed in the join form).
async function takeHandedSeat(handoffCode, field = null) {
  window.history.replaceState(null, '', window.location.pathname);
  const { newRecord } = await records();
  const record = await newRecord(code);
  const { ok, body, error } = await requestJson(`/api/tables/${code}/handoff`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ handoff: handoffCode, commitment: record.anchor }),
  });
  if (!ok && !field) {  // a scanned code: kept in the form, to take the seat once its phone allows it
    showJoinForm('');
    const form = joinForm.querySelector('.handoff-form');
    form.open = true;
    field = form.querySelector('input[name=handoff]');
    field.value = handoffCode;
  }
  if (!ok) {
    showErrorAt(field, error);
    return;
  }
  if (field) showErrorAt(field, '');
  await keepChain(record, body.seat);
  storeToken('seat', code, body.token);
  start(body.token);
}

joinForm.querySelector('.handoff-form form').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = event.target.elements.handoff;
  takeHandedSeat(field.value.trim(), field);
});
hostOnly.hidden = !hostToken;
hostOnly.querySelector('.only-host').addEventListener('click', () => start(hostToken));
hostPanel.querySelector('.host-game').addEventListener('toggle', () => { if (latest && latestAct) renderHostPanel(latest, latestAct); });
// Countdowns and away times move on by themselves (the host's tools appear once a seat is away).
everySecond(() => {
  if (!latest || seatView.hidden) return;
  renderWaiting(waitingList, latest, presence);
  renderPresence(presenceStrip, latest, presence);
  if (hosting(latest) && !hostPanel.querySelector('section.handoff:not([hidden])')) {
    // Redrawn only when a seat comes or goes away (its tools change): an error shown next to a host
    // control stays; away times move on in place.
    let changed = false;
    for (const item of hostPanel.querySelectorAll('.host-seats li.seat')) {
      const here = presenceOf(latest, presence, Number(item.dataset.seat));
      item.querySelector('.presence').textContent = here.text;
      changed ||= item.classList.contains('away') !== here.away;
    }
    if (changed) renderHostPanel(latest, latestAct, { withGame: false });
  }
});

async function boot() {
  const token = storedToken('seat', code);
  if (token && localStorage.getItem(`companion.record.${code}`)) {
    const { PhoneChain, loadRecord } = await records();
    const kept = loadRecord(code);
    if (kept) phoneChain = new PhoneChain(kept);
  }
  if (handoff) takeHandedSeat(handoff);
  else if (token) start(token);
  else showJoinForm('');
}

boot();
