// A phone at the table: join once, then come back to the same seat by itself.
import { CONNECTION_TEXT, connectTable, forgetToken, randomHex, storeToken, storedToken } from './connection.js';
import { renderers } from './games/index.js';
import { t } from './i18n.js';
import { renderPhoneFigures } from './figures.js';
import { watchProposals } from './proposals.js';
import { lobbyPanel } from './requirements.js';
import { showError } from './ui.js';

const root = document.getElementById('phone');
const code = root.dataset.code;
const joinForm = root.querySelector('.join-form');
const seatView = root.querySelector('.seat-view');
const gameArea = seatView.querySelector('.game-area');
const statusLine = seatView.querySelector('.status');
const notice = seatView.querySelector('.notice');
const announcer = seatView.querySelector('.announce');
const figureArea = seatView.querySelector('.figure-area');
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
  joinForm.querySelector('input[name=name]').focus();
}

function render(view, connection) {
  const me = view.table.seats.find((seat) => seat.id === view.you.seat);
  seatView.querySelector('.my-name').textContent = me ? me.name : t('You are watching as a spectator.');
  seatView.querySelector('.swatch').style.background = me ? me.colour : 'transparent';
  if (view.table.status === 'closed') showError(notice, t('This table is closed.'));
  figureArea.hidden = !view.table.uses_figures;
  if (view.table.uses_figures) renderPhoneFigures(figureArea, view, {
    act: async (action) => {
      const answer = await connection.act(action);
      showError(notice, answer.ok ? '' : answer.error);
      return answer;
    },
    claim,
    onClaimed: () => { claim = null; window.history.replaceState(null, '', window.location.pathname); },
  });
  const renderer = renderers[view.table.game];
  if (!view.game) { gameArea.replaceChildren(lobbyPanel(view)); return; }
  const canAct = view.you.role === 'seat' && view.table.status === 'playing';
  // quiet: an answer nobody needs to read (the second phone's "go" of a countdown).
  const act = async (action, { quiet = false } = {}) => {
    const answer = await connection.act(action);
    if (!quiet || answer.ok) showError(notice, answer.ok ? '' : answer.error);
    return answer;
  };
  renderer(gameArea, view, {
    act: canAct ? act : null,
    announce,
    onRoll: canAct ? () => act({ type: 'roll' }) : null,
    onNewRoll: (roll, text) => announce(text),
  });
}

function start(token) {
  joinForm.hidden = true;
  seatView.hidden = false;
  statusLine.textContent = t('Connecting…');
  let connection = null;
  connection = connectTable({
    code, token,
    onView: (view) => render(view, connection),
    onStatus: (state) => { statusLine.textContent = t(CONNECTION_TEXT[state]); statusLine.dataset.state = state; },
    onEnded: (reason, message) => {
      statusLine.textContent = '';
      if (reason === 'replaced') { showError(notice, t('This seat was opened on another screen.')); return; }
      forgetToken('seat', code);
      showJoinForm(reason === 'removed' ? t('The host removed your seat.') : message);
    },
  });
  // House-ranking edits proposed at this table wait for this phone's agreement.
  if (token) watchProposals(connection.socket, { code, token, container: seatView.querySelector('.proposals') });
  keepAwake();
}

joinForm.querySelector('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = joinForm.querySelector('.error');
  const name = new FormData(event.target).get('name');
  const response = await fetch(`/api/tables/${code}/seats`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, entropy: randomHex(32) }),
  });
  const body = await response.json();
  if (response.ok) {
    storeToken('seat', code, body.token);
    start(body.token);
  } else if (response.status === 403) {
    start(null);  // joining closed or game started: watch as a spectator
    showError(notice, body.error);
  } else {
    showError(error, body.error);
  }
});

const token = storedToken('seat', code);
if (token) start(token); else showJoinForm('');
