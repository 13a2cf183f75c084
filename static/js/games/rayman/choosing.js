// Rayman's screen: the secret choice, kept on the phone, locked in by its commitment and revealed by itself.
import { t } from '../../i18n.js';
import { button, el, numberPad, randomHex } from '../../ui.js';
import { cardChip, cardName, cardsOf, hashing, kept, nameOf, nextAction, numberInput, readInt, send, swatch } from './common.js';
import { context, lastView, render } from './view.js';
export let pick = { key: null, left: null, second: null };  // the cards tapped for this round's secret choice
export let localError = '';
// A new action sent clears the error the last one left (the renderer's job, this module's variable).
export function clearLocalError() { localError = ''; }
// --- the secret choice ---------------------------------------------------------------------------

export function choiceText(game, me, choice) {
  if (!choice) return t('Nothing chosen yet.');
  if (choice.bubble) return t('Your choice: a Bubble.');
  if (game.config.quick) return t('Your choice: %(left)s on the left, %(second)s second.', { left: choice.left, second: choice.second });
  const [left, second] = [choice.left, choice.second].map((id) => me.cards.find((card) => card.id === id));
  const named = (card) => `${card.initiative ?? "?"} (${cardName(card)})`;
  return t('Your choice: %(left)s on the left, %(second)s second.', { left: named(left), second: named(second) });
}

export function lockState(game) {
  const choosers = game.players.filter((player) => !player.crossed);
  return el('ul', { class: 'rm-locks', 'aria-label': t('Who has locked in') }, ...choosers.map((player) => el('li', {
    class: player.locked ? 'locked' : '' }, swatch(player.seat), nameOf(game, player.seat), ' — ',
  el('strong', { text: player.locked ? `✓ ${t('locked in')}` : t('choosing…') }))));
}

// The pick stays on this phone (its local storage, which a reload keeps) until the reveal: the
// server gets only its commitment, SHA-256 of the canonical JSON of the choice and a salt made here.
export const pickKey = (game) => `rayman:${lastView?.table?.code}:${game.race.number}:${game.round.number}:${game.you}`;
export let sentFor = '';  // the pick key this phone already sent a reveal or a new pick for

export function storedPick(game) {
  try {
    return JSON.parse(localStorage.getItem(pickKey(game)) || 'null');
  } catch {
    return null;
  }
}

export function storePick(game, value) {
  try {
    if (value) localStorage.setItem(pickKey(game), JSON.stringify(value));
    else localStorage.removeItem(pickKey(game));
  } catch {
    // a browser without storage still plays: only a reload would lose the pick
  }
}

export const choiceOf = (left, second) => ({ bubble: false, left, second });
export const BUBBLE_CHOICE = { bubble: true, left: null, second: null };

// Once every phone has locked in, this phone opens its commitment by itself; a phone that does not
// hold the pick it locked in (a new phone for the seat) asks to choose again, and every screen is told.
export function revealOrPickAgain(game, me) {
  if (!context.act || !me || me.crossed || !me.locked || !['choosing', 'revealing'].includes(game.phase)) return;
  const key = `${pickKey(game)}:${me.commitment}`;
  if (sentFor === key) return;
  const held = storedPick(game);
  if (held?.commitment !== me.commitment) {
    sentFor = key;
    send({ type: 'repick' });
  } else if (game.phase === 'revealing') {
    sentFor = key;
    send({ type: 'reveal', choice: held.choice, salt: held.salt });
  }
}

export function choosingPanel(game, me) {
  const parts = [el('h3', { text: t('Round %(round)s: secret choice', { round: game.round.number }) })];
  if (me.crossed) {
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, el('p', { text: t('You have finished the race: no more cards to choose.') }),
      lockState(game));
  }
  const choice = storedPick(game)?.choice ?? null;
  if (me.locked && me.lost) {
    parts.push(el('p', { class: 'rm-lost', text: t('Your phone lost your choice after another was revealed: it cannot change. It is drawn at random among your legal choices.') }));
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, lockState(game));
  }
  if (me.locked) {
    parts.push(el('p', { class: 'rm-locked-mine', text: `✓ ${t('Locked in.')}` }),
      el('p', { text: choiceText(game, me, choice) }),
      el('p', { class: 'rm-commitment' }, t('Your commitment:'), ' ', el('code', { text: me.commitment })),
      el('p', { class: 'muted', text: t('Only this phone knows your choice. This fingerprint of it is public now; at the reveal every phone checks that your choice matches it.') }));
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, lockState(game));
  }
  const key = pickKey(game);
  if (pick.key !== key) {  // a new round: start from the pick this phone keeps (after a reload), else from nothing
    const cards = choice && !choice.bubble;
    pick = { key, left: cards ? choice.left : null, second: cards ? choice.second : null };
    for (const side of ['left', 'second']) {
      if (cards) kept[`quick:${side}`] = String(choice[side]); else delete kept[`quick:${side}`];
    }
  }
  const mustBubble = me.hand.length < 2;
  let hint = t('Tap your left card (its initiative counts), then your second card; tap again to start over. You may '
    + 'change your mind until you lock in: only this phone knows.');
  if (game.config.quick) {
    hint = t('Type the initiative of your left card (it counts) and of your second card. You may change them until '
      + 'you lock in.');
  }
  if (mustBubble) hint = t('Your hand is empty: you must declare a Bubble.');
  parts.push(el('p', { class: 'muted', text: hint }));
  if (!mustBubble && !game.config.quick && me.hand.some((id) => me.cards.find((card) => card.id === id)?.initiative === null)) {
    parts.push(el('p', { class: 'muted rm-unknown-hint', text: t('"?" is a card the companion does not know yet: tap one for any of your cards whose number is not shown here. After the reveal your phone asks the number printed on it, once.') }));
  }
  const picking = [];
  if (!mustBubble && game.config.quick) picking.push(quickChoice());
  else if (!mustBubble) picking.push(cardChoice(game, me));
  // Both picks, the Bubble and Lock in, together in the bar at the bottom of the screen.
  const bubble = me.may_bubble ? button(t('Declare a Bubble'), () => {
    pick.left = pick.second = null;
    storePick(game, { choice: BUBBLE_CHOICE });
    render();
  }, `rm-bubble${choice?.bubble ? ' picked' : ''}`) : null;
  const lock = button(t('Lock in my choice'), lockIn, 'primary big rm-lock');
  lock.disabled = !choice && !game.config.quick;  // quick entry: the typed numbers are checked at the tap
  parts.push(nextAction(...picking, el('p', { class: 'rm-tentative', text: choiceText(game, me, choice) }), bubble, lock),
    lockState(game));
  return el('section', { class: 'rm-panel rm-choice' }, ...parts);
}

// Cards this phone cannot tell apart (not known yet, of the same name) are one button, with their count:
// any of them is the same choice.
export function kindsOf(cards) {
  const kinds = [];
  for (const card of cards) {
    const same = card.initiative === null
      && kinds.find((kind) => kind[0].initiative === null && cardName(kind[0]) === cardName(card));
    if (same) same.push(card); else kinds.push([card]);
  }
  return kinds;
}

// One grid of the hand: the first tap picks the left card (its initiative counts), the next the second card;
// a tap once both are picked starts again from that card. Each picked card says which it is.
export function cardChoice(game, me) {
  const hand = cardsOf(me, me.hand);
  const tap = (kind) => {
    if (!pick.left || pick.second) {
      pick = { ...pick, left: kind[0].id, second: null };
    } else {
      const second = kind.find((card) => card.id !== pick.left);
      if (!second) return;  // the only card of its kind is already the left one
      pick.second = second.id;
    }
    storePick(game, pick.left && pick.second ? { choice: choiceOf(pick.left, pick.second) } : null);
    render();
  };
  const picks = [['left', t('Left')], ['second', t('Second')]];
  return el('div', { class: 'rm-hand', role: 'group', 'aria-label': t('Your cards') }, ...kindsOf(hand).map((kind) => {
    const as = picks.filter(([side]) => kind.some((card) => card.id === pick[side]));
    const card = kind[0];
    const count = kind.length > 1 ? `×${kind.length}` : null;
    // The name holds the visible text in its order (a voice user says what they see), with what the
    // number is; the spaces between the parts keep "card ×2 Left" apart for the name's check.
    const name = [t('Initiative %(initiative)s, %(card)s', { initiative: card.initiative ?? '?', card: cardName(card) }),
      count, ...as.map(([, label]) => label)].filter(Boolean).join(' ');
    return el('button', {
      type: 'button', class: `rm-card-button${as.length ? ' picked' : ''}`, 'aria-pressed': String(Boolean(as.length)),
      'aria-label': name, onclick: () => tap(kind) }, cardChip(card.initiative, cardName(card)),
    count ? ' ' : null, count ? el('span', { class: 'rm-count', text: count }) : null,
    ...as.flatMap(([side, label]) => [' ', el('span', { class: `rm-picked-as rm-as-${side}`, text: label })]));
  }));
}

export function quickChoice() {
  const fields = [numberInput('quick:left', t('Initiative of the left card'), 0, 99),
    numberInput('quick:second', t('Initiative of the second card'), 0, 99)];
  // Keys in view for both numbers (the left one first), not the phone's keyboard over the bar.
  return el('div', { class: 'rm-quick' }, ...fields, numberPad(fields.map((field) => field.querySelector('input'))));
}

let locking = false;  // a second tap while the hashing loads locks in nothing more
export async function lockIn() {
  if (locking) return;
  locking = true;
  try {
    lockChoice((await hashing.load()).commitmentOf);
  } finally {
    locking = false;
  }
}

function lockChoice(commitmentOf) {
  const game = lastView.game;
  let choice = storedPick(game)?.choice ?? null;
  if (game.config.quick && !choice?.bubble) {
    const left = readInt('quick:left');
    const second = readInt('quick:second');
    if (left === null || second === null || left > 99 || second > 99) {
      localError = t('Type both initiatives first: whole numbers from 0 to 99.');
      render();
      return;
    }
    choice = choiceOf(left, second);
  }
  if (!choice) return;
  const salt = randomHex(16);
  const commitment = commitmentOf(choice, salt);
  storePick(game, { choice, salt, commitment });  // kept before it is sent: a reload between the two keeps it
  send({ type: 'lock', commitment });
}

export function revealingPanel(game, me) {
  const choice = me ? storedPick(game)?.choice ?? null : null;
  return el('section', { class: 'rm-panel rm-choice' },
    el('h3', { text: t('Round %(round)s: the reveal', { round: game.round.number }) }),
    el('p', { text: t('Every phone opens its commitment; the choices show together once all are checked.') }),
    me?.lost ? el('p', { class: 'rm-lost', text: t('Your phone lost your choice after another was revealed: it cannot change. It is drawn at random among your legal choices.') })
      : me && !me.crossed ? el('p', { text: choiceText(game, me, choice) }) : null,
    lostChoices(game), lockState(game));
}

// Every screen says whose choice the table draws, and why (no one chose it for them).
function lostChoices(game) {
  const lost = game.players.filter((player) => player.lost).map((player) => nameOf(game, player.seat));
  return lost.length ? el('p', { class: 'rm-lost-all', role: 'status', text: t('Drawn at random, from random numbers the phones send now: the choice of %(names)s.', { names: lost.join(', ') }) }) : null;
}
