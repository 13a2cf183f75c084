// What every screen shows of the table beyond the game (companion/night.py): who is here or away
// and for how long, whom the game waits on (with the countdown of a timed wait), the end of a
// game with Play again / Another game, the history of the table's games, undo, and the host's
// tools for an away seat (hand it to another phone, decide for it, take it out, give host rights).
import { t, tn, withColon } from './i18n.js';
import { el, seatName, showError } from './ui.js';

const lang = () => document.documentElement.lang || 'en';
// A message the server sent in every language ({en, fr}): the page's own.
export const localized = (texts) => (texts ? texts[lang()] || texts.en || '' : '');

// The server's clock minus this screen's, from the newest view: countdowns follow the server.
let skew = 0;
export function noteServerTime(view) {
  if (typeof view.time === 'number') skew = view.time - Date.now() / 1000;
}
const serverNow = () => Date.now() / 1000 + skew;

export function duration(seconds) {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

// "here", or "away 1:20" once the seat has been away longer than the table's grace.
export function presenceOf(view, presence, seatId) {
  const online = presence.online || [];
  if (online.includes(seatId)) return { away: false, text: t('here') };
  const since = (presence.away_since || {})[String(seatId)];
  const seconds = since ? serverNow() - since : 0;
  if (seconds < (view.table.away_after ?? 5)) return { away: false, text: t('here') };
  return { away: true, text: t('away %(time)s', { time: duration(seconds) }) };
}

function waitingLine(view, presence, wait) {
  const mine = view.you?.role === 'seat' && view.you.seat === wait.seat;
  const parts = [mine ? t('Your move: %(what)s', { what: localized(wait.text) })
    : t('Waiting for %(name)s: %(what)s', { name: seatName(view, wait.seat), what: localized(wait.text) })];
  const state = presenceOf(view, presence, wait.seat);
  if (state.away) parts.push(`(${state.text})`);
  if (wait.expired) parts.push(t('Time is up: the host decides.'));
  else if (wait.deadline) parts.push(`⏱ ${duration(wait.deadline - serverNow())}`);
  return el('li', { class: `wait${mine ? ' mine' : ''}${state.away ? ' away' : ''}${wait.expired ? ' expired' : ''}`,
    'data-seat': wait.seat, text: parts.join(' ') });
}

// A seat being moved to another phone, on every screen: nobody's seat moves unseen.
function movingLine(view, move) {
  const mine = view.you?.role === 'seat' && view.you.seat === move.seat;
  const name = seatName(view, move.seat);
  const text = move.allowed ? t('%(name)s’s seat is moving to another phone (allowed).', { name })
    : mine ? t('The host wants to move your seat to another phone.')
      : t('%(name)s’s seat may move to another phone: waiting for their phone to allow it.', { name });
  return el('li', { class: `wait moving${mine ? ' mine' : ''}`, 'data-seat': move.seat, text });
}

// Whom the game waits on, on every screen; redrawn each second for the countdowns.
// A draw committed and waiting for the phones' random numbers (nothing else moves meanwhile), or the last
// draw of a seat made without another phone's value (no other phone was connected): every screen says so.
// Draws committed while another waits queue behind it (first come, first drawn): every screen names the
// queue's head (the TV shows it), and a phone whose own draw waits further back says so too.
function drawLines(view) {
  const draw = view.table.draw || {};
  if (draw.waits) {
    const you = view.you?.role === 'seat' ? view.you.seat : null;
    const text = you === draw.seat ? t('Your draw waits for the phones’ random numbers…')
      : Number.isInteger(draw.seat) ? t('%(name)s’s draw waits for the phones’ random numbers…', { name: seatName(view, draw.seat) })
        : t('The draw waits for the phones’ random numbers…');
    const lines = [el('li', { class: 'wait draw-waits', 'data-seat': draw.seat, text })];  // the list is polite-live
    const queue = draw.queue || [];
    if (you !== null && queue.includes(you)) {
      lines.push(el('li', { class: 'wait draw-queued', 'data-seat': you,
        text: tn('Your draw waits too: it comes after %(count)s other draw.',
          'Your draw waits too: it comes after %(count)s other draws.', queue.indexOf(you) + 1) }));
    }
    return lines;
  }
  if (Number.isInteger(draw.alone)) {
    return [el('li', { class: 'wait drawn-alone', 'data-seat': draw.alone,
      text: t('%(name)s’s last draw was drawn without another phone: no other phone was connected.', { name: seatName(view, draw.alone) }) })];
  }
  return [];
}

export function renderWaiting(node, view, presence) {
  const waits = view.table.waiting || [];
  const moves = view.table.handoffs || [];
  const draws = drawLines(view);
  node.hidden = !waits.length && !moves.length && !draws.length;
  node.replaceChildren(...draws, ...waits.map((wait) => waitingLine(view, presence, wait)),
    ...moves.map((move) => movingLine(view, move)));
}

// A seat's own phone, while the host moves its seat to another phone: allow or refuse.
export function handoffQuestion(view, act) {
  const { table, you } = view;
  const asked = you?.role === 'seat' && (table.handoffs || []).some((move) => move.seat === you.seat && !move.allowed);
  if (!asked) return null;
  const host = table.host_seat != null && table.host_seat !== you.seat ? seatName(view, table.host_seat) : null;
  return el('div', { class: 'handoff-question', role: 'alertdialog' },
    el('p', { text: host ? t('%(name)s wants to move your seat to another phone.', { name: host })
      : t('The host wants to move your seat to another phone.') }),
    el('button', { type: 'button', class: 'primary allow-handoff', text: t('Allow'),
      onclick: () => act({ type: 'seat.handoff', allow: true }) }),
    el('button', { type: 'button', class: 'refuse-handoff', text: t('Refuse'),
      onclick: () => act({ type: 'seat.handoff', allow: false }) }));
}

// Each seat here or away (with how long), on the phones: a line of names.
export function renderPresence(node, view, presence) {
  node.replaceChildren(...view.table.seats.map((seat) => {
    const state = presenceOf(view, presence, seat.id);
    const item = el('li', { class: `who-is-here ${state.away ? 'away' : 'here'}`, 'data-seat': seat.id },
      el('span', { class: 'swatch' }), el('span', { text: state.away ? `${seat.name} (${state.text})` : seat.name }));
    item.querySelector('.swatch').style.background = seat.colour;
    return item;
  }));
}

function winnersText(view, outcome) {
  const names = (outcome.winners || []).map((seat) => outcome.names?.[String(seat)] || seatName(view, seat));
  return names.length ? t('Winner: %(names)s', { names: names.join(', ') }) : t('No winner');
}

// The end of a game: the result and, for whoever may lead the table, the next game.
export function renderGameOver(node, view, { act, lead, hosting = lead, errorNode }) {
  const { table } = view;
  // A game that never ends (the shared die) offers the host another game at any time.
  if (table.endless && hosting) { node.hidden = false; node.replaceChildren(nextGame(table, act, false)); return; }
  node.hidden = table.status !== 'over';
  if (node.hidden) { node.replaceChildren(); return; }
  const outcome = table.outcome || { winners: [] };
  const children = [el('h2', { text: t('Game over') }), el('p', { class: 'winners', text: winnersText(view, outcome) })];
  if (outcome.text) children.push(el('p', { class: 'reason', text: localized(outcome.text) }));
  if (lead) {
    children.push(nextGame(table, act, true));
  } else {
    // While no seat holds the host's rights, the first seat may start the next game too.
    const first = table.host_seat == null && table.seats.length ? seatName(view, Math.min(...table.seats.map((s) => s.id))) : null;
    children.push(el('p', { class: 'hint', text: first ? t('%(name)s or the host starts the next game.', { name: first })
      : t('The host starts the next game.') }));
  }
  if (errorNode) children.push(errorNode);
  node.replaceChildren(...children);
}

// The games a table can play, from the page's data block (titles in the page's language).
const gameChoices = () => JSON.parse(document.getElementById('games')?.textContent || '[]');

// Play again (after a game over) and Another game: the same seats, a new seed.
function nextGame(table, act, again) {
  const picker = el('select', { 'aria-label': t('Game') },
    ...gameChoices().map((game) => el('option', { value: game.id, text: game.title })));
  picker.value = table.game;
  return el('div', { class: 'next-game' },
    again ? el('button', { type: 'button', class: 'primary big play-again', text: t('Play again'),
      onclick: () => act({ type: 'table.again' }) }) : null,
    el('label', { class: 'another' }, picker),
    el('button', { type: 'button', class: 'another-game', text: t('Another game'),
      onclick: () => act({ type: 'table.another', game: picker.value }) }));
}

// The table's finished games: result, revealed seed and where to verify the draws.
export function renderHistory(node, view) {
  const { table } = view;
  const history = table.history || [];
  node.hidden = !history.length;
  node.replaceChildren(...(history.length ? [el('h2', { text: t('Games at this table') })] : []),
    el('ol', { class: 'history-list' }, ...history.map((game) => el('li', {},
      el('span', { text: `${gameChoices().find((choice) => choice.id === game.game)?.title || game.game} — ${game.outcome ? winnersText(view, game.outcome) : t('No winner')}` }),
      ' ',
      el('a', { href: `/t/${table.code}/verify?game=${game.number}`, target: '_blank', text: t('Verify the draws') }),
      el('code', { class: 'seed', title: t('Seed'), text: game.seed.slice(0, 16) + '…' })))));
}

// A seat's own undo button: while its last bookkeeping action can still be undone.
export function undoButton(view, act) {
  const { undo, status } = view.table;
  if (status !== 'playing' || !undo || view.you.role !== 'seat' || undo.seat !== view.you.seat) return null;
  return el('button', { type: 'button', class: 'undo', text: t('Undo my last action'),
    onclick: () => act({ type: 'seat.undo' }) });
}

const withoutLabel = ({ label, ...action }) => action;

function proxyLabel(action) {
  const shown = (value) => (value === true ? t('yes') : value === false ? t('no') : value);
  const fields = Object.entries(action).filter(([name]) => name !== 'type' && name !== 'label');
  if (action.label) {  // the game names this kind of decision; its details follow, when it has any
    const details = fields.map(([, value]) => shown(value)).join(', ');
    return details ? `${localized(action.label)} (${details})` : localized(action.label);
  }
  const named = fields.map(([name, value]) => `${withColon(t(name))} ${shown(value)}`);
  return named.length ? `${t(action.type)} (${named.join(', ')})` : t(action.type);
}

// The host's tools for one seat (host screen or host phone), shown where they apply.
export function hostSeatTools(view, presence, seat, { act, onHandoff }) {
  const { table } = view;
  const waited = (table.waiting || []).some((wait) => wait.seat === seat.id);
  const state = presenceOf(view, presence, seat.id);
  const expired = (table.waiting || []).some((wait) => wait.seat === seat.id && wait.expired);
  const tools = [];
  // A hand-off keeps a seat in a game: in the lobby the host simply removes an away seat (a new phone
  // joins by the QR code), and a closed table has nothing left to hand.
  if ((state.away || expired) && (table.status === 'playing' || table.status === 'over')) {
    tools.push(el('button', { type: 'button', class: 'small hand-seat', text: t('Hand to another phone'),
      onclick: async () => {
        const answer = await act({ type: 'table.handoff', seat: seat.id });
        if (answer.ok && answer.handoff) onHandoff(seat, answer.handoff);
      } }));
  }
  if (waited && (state.away || expired) && table.status === 'playing') {
    for (const action of (table.proxy || {})[String(seat.id)] || []) {
      tools.push(el('button', { type: 'button', class: 'small decide',
        text: t('Decide: %(choice)s', { choice: proxyLabel(action) }),
        onclick: () => act({ type: 'table.decide', seat: seat.id, action: withoutLabel(action) }) }));
    }
  }
  // A timed step (a fight's answer) waits on a player who has gone: end it now, as its deadline would.
  const timed = (table.waiting || []).some((wait) => wait.seat === seat.id && wait.timed && !wait.expired);
  if (timed && state.away && table.status === 'playing') {
    tools.push(el('button', { type: 'button', class: 'small stop-waiting', text: t('Stop waiting for %(name)s', { name: seat.name }),
      onclick: () => act({ type: 'table.stop_waiting', seat: seat.id }) }));
  }
  if (table.status === 'playing' && (state.away || expired)) {
    tools.push(el('button', { type: 'button', class: 'small danger withdraw', text: t('Take out of the game'),
      onclick: () => {
        const rule = localized(table.withdraw_rule);
        if (window.confirm(`${t('Take %(name)s out of the game?', { name: seat.name })}\n\n${rule}`)) {
          act({ type: 'table.withdraw', seat: seat.id });
        }
      } }));
  }
  if (table.status === 'playing' && table.undo?.seat === seat.id) {
    tools.push(el('button', { type: 'button', class: 'small undo', text: t('Undo their last action'),
      onclick: () => act({ type: 'table.undo', seat: seat.id }) }));
  }
  if (table.host_seat !== seat.id && table.status !== 'closed') {
    tools.push(el('button', { type: 'button', class: 'small give-host', text: t('Make host'),
      onclick: () => {
        if (window.confirm(t('Give the host rights to %(name)s? This screen becomes a display.', { name: seat.name }))) {
          act({ type: 'table.give_host', seat: seat.id });
        }
      } }));
  }
  return tools.length ? el('span', { class: 'night-tools' }, ...tools) : null;
}

// The one-time code of a seat handed to another phone: a QR code and the code to type.
export function renderHandoff(node, view, seat, handoff, onClose) {
  const { code } = view.table;
  node.hidden = false;
  node.dataset.seat = seat.id;  // cleared once the table no longer lists the move (clearUsedHandoff)
  node.replaceChildren(
    el('h2', { text: t('Hand %(name)s to another phone', { name: seat.name }) }),
    el('img', { class: 'qr handoff-qr', src: `/t/${code}/qr.svg?hand=${encodeURIComponent(handoff.code)}`,
      alt: t('QR code that gives this seat to the phone that scans it') }),
    el('p', { class: 'handoff-code', text: handoff.code }),
    el('p', { class: 'hint', text: t('Scan it with the new phone, or open %(address)s and type the code.', {
      address: `${window.location.origin}/t/${code}` }) }),
    el('button', { type: 'button', class: 'small', text: t('Done'), onclick: () => { node.hidden = true; onClose?.(); } }));
}

// A code once used (the new phone took the seat) or expired leaves the screen: shown on, it would only
// invite a second scan that fails. The screen's views list a seat's move while its code is good.
export function clearUsedHandoff(node, view) {
  if (!node || node.hidden || !node.dataset.seat) return;
  if ((view.table.handoffs || []).some((move) => String(move.seat) === node.dataset.seat)) return;
  node.hidden = true;
  node.replaceChildren();
  delete node.dataset.seat;
}

// Each screen redraws its countdowns and away times every second.
export function everySecond(redraw) {
  return window.setInterval(redraw, 1000);
}

export { showError };
