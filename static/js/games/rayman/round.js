// Rayman's screen: a round's start (dice, projectile, Boss) and the initiatives of cards played for the first time.
import { t, tn } from '../../i18n.js';
import { button, el, numberPad, reducedMotion, showErrorAt } from '../../ui.js';
import { allOf, bossCardName, boxName, can, cardName, folded, kept, keptInput, nameOf, nextAction, playerOf, send, waitingFor } from './common.js';
import { context, rolledNow } from './view.js';
// --- the start of a round: dice, projectile, Boss ------------------------------------------------

export function thisRoundEvents(game) {
  const history = game.history || [];
  const start = history.map((event) => event.type).lastIndexOf('round_started');
  return start < 0 ? [] : history.slice(start + 1);
}

export function rollPanel(game, me, isHost) {
  const round = game.round;
  const parts = [];
  const needsRoll = Boolean(game.config.projectile || game.boss);
  if (needsRoll && !round.rolled && game.phase === 'round_start') {
    const mine = context.act && can(game, 'roll');
    if (mine) {
      const label = isHost && game.roller !== null ? t('Roll for %(name)s', { name: nameOf(game, game.roller) }) : t('Roll');
      parts.push(nextAction(button(label, () => send({ type: 'roll' }), 'primary big rm-roll')));
    }
    if (!mine || isHost) {
      parts.push(el('p', { class: 'rm-status-line', text: game.roller !== null && game.roller !== undefined
        ? t('%(name)s rolls the die.', { name: nameOf(game, game.roller) }) : t('Any player may roll.') }));
    }
  }
  if (round.die !== null) {
    const spawn = thisRoundEvents(game).find((event) => ['projectile_spawned', 'projectile_spawn_hit'].includes(event.type));
    parts.push(el('div', { class: 'rm-dice' }, dieFace(round.die, 'projectile_roll'),
      el('p', {}, el('strong', { text: t('Projectile: level %(level)s', { level: round.spawn.level }) }), spawn ? el('br') : null,
        spawn ? t('Projectile n°%(id)s appears at column %(column)s, level %(level)s.', { id: spawn.id, column: spawn.column, level: spawn.level }) : null)));
  }
  if (round.card_line !== null) {
    const card = boxName('projectiles', game.config.projectile);
    parts.push(el('p', { class: 'rm-card-line' }, t('%(card)s projectile card: line %(line)s', { card, line: round.card_line }),
      el('br'), el('small', { text: t('Its effect applies at the end of the round; an effect marked CE ROUND-CI is active for the whole round.') })));
  }
  if (round.boss_die !== null) {
    parts.push(el('div', { class: 'rm-dice' }, dieFace(round.boss_die, 'boss_roll', 'boss'),
      el('p', {}, el('strong', { text: t('Boss: level %(level)s', { level: game.boss.level }) }), el('br'),
        bossCardName(game, game.boss.card), el('br'), el('small', { text: t('Applied at the end of the round, after the Boss moves, unless it says CE ROUND-CI (active all round).') }))));
  }
  if (!parts.length) return null;
  return el('section', { class: 'rm-panel rm-round-start' },
    el('h3', { text: t('Round %(round)s: the dice', { round: round.number }) }), ...parts);
}

// A die face, rolling on screen once when the roll is new.
export function dieFace(value, rolledBy, extra = '') {
  const rolling = !reducedMotion() && rolledNow.has(rolledBy);
  return el('span', { class: `die rm-die ${extra}${rolling ? ' rolling' : ''}`, text: String(value) });
}

// --- a card played for the first time: its initiative, read on the card ----------------------------

// A card drawn on screen: the label the table stuck on it (or its character), and the top left corner
// where the initiative is printed, marked.
export function cardPicture(name, value = '?') {
  return el('span', { class: 'rm-card-picture', 'aria-hidden': 'true' },
    el('span', { class: 'rm-corner', text: value }), el('span', { class: 'rm-card-label', text: name }));
}

export function askedName(game, asked) {
  return cardName(asked, playerOf(game, asked.seat)?.character);
}

// pad: the form's own number keys; the phone's bar gives all its forms one pad instead (initiativesPanel).
export function initiativeForm(game, asked, owner = '', pad = !owner) {
  const key = `initiative:${asked.seat}:${asked.card}`;
  const name = askedName(game, asked);
  const side = asked.side === 'left' ? t('left card') : t('second card');
  const input = keptInput(key, { type: 'number', min: '0', max: '99', inputmode: 'numeric', autocomplete: 'off',
    'aria-label': t('Initiative of %(card)s', { card: name }) });
  return el('form', { class: 'rm-initiative-form', novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const text = (kept[key] ?? '').toString().trim();
    if (!/^-?\d+$/.test(text)) {
      showErrorAt(event.submitter || input, t('Type the number printed at the top left of the card: 0 to 99.'));
      return;
    }
    send({ type: 'initiative', seat: asked.seat, card: asked.card, initiative: Number(text) });
  } }, cardPicture(name),
  el('div', { class: 'rm-initiative-ask' },
    el('p', {}, el('strong', { text: name }), ` — ${side}${owner ? ` (${owner})` : ''}`),
    el('label', { class: 'rm-number' }, el('span', { text: t('Initiative (top left of the card)') }), input),
    pad ? numberPad(input) : null,  // the player's own phone: keys in view, not the phone's keyboard
    el('button', { type: 'submit', class: 'primary', text: t('Save') })));
}

// Both new cards in the bar with one pad under them (a pad each did not fit the screen): the digits go to the
// first field, then on to the next, or to the field tapped.
function barForms(forms) {
  return [...forms, numberPad(forms.map((form) => form.querySelector('input')))];
}

// The owner's phone asks; the host screen lists whom the table waits for and, folded, lets the host
// read the card of a player whose phone is away (it lies face up on the table).
export function initiativesPanel(game, me, hosting = false) {
  const asking = game.round.asking;
  const mine = me ? asking.filter((asked) => asked.seat === me.seat) : [];
  const parts = [el('h3', { text: t('Cards played for the first time') })];
  if (mine.length) {
    parts.push(el('p', { text: t('The companion does not know these cards yet. Read the number at the top left of each one: it asks once and remembers it for the evening.') }),
      nextAction(...barForms(mine.map((asked) => initiativeForm(game, asked, '', false)))));
  }
  const others = asking.filter((asked) => !me || asked.seat !== me.seat);
  parts.push(waitingFor(game, me?.seat ?? null));
  if (hosting && others.length) {
    parts.push(folded('host-initiatives', t("For a player who is away: read their card on the table"),
      ...others.map((asked) => initiativeForm(game, asked, nameOf(game, asked.seat)))));
  }
  return el('section', { class: 'rm-panel rm-initiatives' }, ...parts);
}

export function freeMovePanel(game, me) {
  const moves = allOf(game, 'free_move');
  if (!moves.length) return null;
  const levels = moves.filter((action) => action.level);
  // The question goes in the bar with its answers: above them, the bar would cover it.
  return el('section', { class: 'rm-panel rm-free-move mine' },
    el('div', { class: 'rm-actions next-action' },
      el('p', { class: 'rm-your-turn', text: t('Free move: you are last. One space forward, on the level of your choice (not onto another player).') }),
      ...levels.map((action) => button(t('Level %(level)s', { level: action.level }),
      () => send(action), 'primary')), button(t('No free move'), () => send({ type: 'free_move', pass: true }))));
}

// The round's end waits for a player whose position the companion does not know (did a moving projectile reach
// them?) or, in the final round, for a free mover (did they land on an enemy?): a hit goes through "I was hit".
export function noHitPanel(game, me) {
  if (!can(game, 'no_hit')) return null;
  const landed = (game.round?.end?.landed ?? []).includes(me.seat);
  const ask = landed ? t('Did your free move land on an enemy? If so, report the hit under “I was hit”: the ranking waits for you.')
    : t('The projectiles move: did one reach your figure? If so, report the hit under “I was hit”: they wait for you.');
  return el('section', { class: 'rm-panel rm-no-hit mine' }, el('p', { class: 'rm-your-turn', text: ask }),
    el('div', { class: 'rm-actions next-action' }, button(landed ? t('No enemy there') : t('No projectile reached me'),
      () => send({ type: 'no_hit' }), 'primary')));
}

export function offerPanel(game, me) {
  const offer = game.round?.offer;
  const parts = [];
  if (offer && offer.to === me.seat) {
    parts.push(el('p', { class: 'rm-warning', text: tn('%(name)s offers you %(count)s bonus token for %(take)s of yours.',
      '%(name)s offers you %(count)s bonus tokens for %(take)s of yours.', offer.give,
      { name: nameOf(game, offer.from), take: offer.take }) }),
    nextAction(button(t('Accept the exchange'), () => send({ type: 'answer_offer', accept: true }), 'primary'),
      button(t('Refuse'), () => send({ type: 'answer_offer', accept: false }))));
  } else if (offer && offer.from === me.seat) {
    parts.push(el('p', { text: t('Waiting for %(name)s to accept on their phone.', { name: nameOf(game, offer.to) }) }),
      button(t('Withdraw the offer'), () => send({ type: 'answer_offer', accept: false })));
  }
  for (const gift of allOf(game, 'give_bonus')) {
    const name = nameOf(game, gift.to);
    let label = t('Swap a bonus token with %(name)s', { name });
    if (!gift.take) label = t('Give a bonus token to %(name)s', { name });
    else if (!gift.give) label = t('Ask %(name)s for a bonus token', { name });
    parts.push(button(label, () => send(gift)));
  }
  return parts;
}
