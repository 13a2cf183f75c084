// Rayman's screen: the reveal, the order of play, a turn's tokens and offers, positions.
import { N_, t } from '../../i18n.js';
import { button, el } from '../../ui.js';
import { STEPS, allOf, boxName, can, cardChip, folded, hashing, nameOf, namesOf, nextAction, numberInput, ptizetreName, ptizetreSwatch, readInt, send, swatch, verification } from './common.js';
import { STEP_LABELS, causeText } from './events.js';
import { offerPanel } from './round.js';
import { render, target } from './view.js';
// --- the reveal and the order of play --------------------------------------------------------------

export function revealPanel(game) {
  const round = game.round;
  if (!round || !round.revealed.length || !['turns', 'round_end', 'finish'].includes(game.phase)) return null;
  const draws = hashing(render);
  if (!draws) return null;  // drawn again once the hashing is in
  const checks = round.revealed.map((entry) => ({ entry, check: verification(game, entry, draws) }));
  const allGood = checks.every(({ check }) => check.ok);
  const rows = checks.map(({ entry, check }) => el('li', { class: `rm-revealed${check.ok ? '' : ' bad'}` },
    swatch(entry.seat), el('span', { class: 'rm-who', text: nameOf(game, entry.seat) }),
    entry.choice.bubble ? el('span', { class: 'rm-chip rm-bubble-chip', text: t('Bubble') })
      : el('span', { class: 'rm-pair' }, cardChip(entry.left_initiative, t('left')),
        cardChip(entry.second_initiative, t('second'))),
    check.drawn ? el('span', { class: 'rm-drawn', text: t('drawn at random (the phone lost it)') })
      : check.ok ? el('span', { class: 'rm-verified', title: entry.commitment, text: `✓ ${t('verified')}` })
      : el('span', { class: 'rm-mismatch', text: `⚠ ${(check.changed ? t('changed after locking in!') : t('does not match its commitment!'))}` })));
  return el('section', { class: 'rm-panel rm-reveal', 'aria-live': 'polite' },
    el('h3', { text: t('Round %(round)s: the reveal', { round: round.number }) }), el('ul', { class: 'rm-reveal-list' }, ...rows),
    el('p', { class: allGood ? 'rm-all-verified' : 'rm-warning',
      text: (allGood ? t('Every choice matches the commitment published before the reveal.') : t('Warning: a choice does not match its commitment. Do not trust this round.')) }),
    orderOfPlay(game));
}

export function orderOfPlay(game) {
  const round = game.round;
  const entries = Object.fromEntries(round.revealed.map((entry) => [entry.seat, entry]));
  const finished = game.phase !== 'turns';
  const items = round.order.map((seat, index) => {
    const state = finished || index < round.turn ? 'done' : index === round.turn ? 'current' : '';
    const entry = entries[seat];
    return el('li', { class: `rm-order-item ${state}`.trim(), 'aria-current': state === 'current' ? 'step' : null },
      swatch(seat), el('span', { class: 'rm-who', text: nameOf(game, seat) }),
      el('span', { class: 'rm-initiatives', text: `${entry.left_initiative} / ${entry.second_initiative}` }),
      state === 'current' ? el('strong', { class: 'rm-now', text: t('playing') }) : null,
      state === 'done' ? el('span', { class: 'muted', text: `✓ ${t('played')}` }) : null);
  });
  const bubbles = round.revealed.filter((entry) => entry.choice.bubble).map((entry) => entry.seat);
  return el('div', { class: 'rm-order' }, el('h4', { text: t('Order of play') }),
    items.length ? el('ol', {}, ...items) : el('p', { text: t('Nobody plays a turn this round.') }),
    ...round.tie_rolls.map((tie) => el('p', { class: 'rm-tie', text: t('Tie broken by the die: %(rolls)s', {
      rolls: tie.seats.map((seat, index) => `${nameOf(game, seat)} 🎲 ${tie.rolls[index]}`).join(', ') }) })),
    bubbles.length ? el('p', { class: 'rm-bubbles', text: t('In a Bubble, immune until the end of the round: %(names)s', { names: namesOf(game, bubbles) }) }) : null);
}

// --- turns ---------------------------------------------------------------------------------------

export function turnPanel(game, me) {
  const mine = game.active === me.seat;
  const parts = [];
  if (me.bonus_pending) {
    parts.push(el('div', { class: 'rm-forced' }, el('p', { class: 'rm-warning', text: t('A fifth bonus token: use one now or discard one.') }),
      button(t('Use a bonus token'), () => send({ type: 'use_bonus' }), 'primary'),
      button(t('Discard a bonus token'), () => send({ type: 'discard_bonus' }))));
  }
  if (mine) {
    const entry = game.round.revealed.find((revealed) => revealed.seat === me.seat);
    parts.unshift(el('p', { class: 'rm-your-turn', role: 'status',
      text: (me.bubble_mode ? t('Your turn, in Bubble mode.') : t('Your turn!')) }));
    if (entry && !me.bubble_mode) {
      parts.push(el('p', { class: 'rm-play-these' }, t('Play your cards:'), ' ', cardChip(entry.left_initiative), ' ',
        cardChip(entry.second_initiative)));
    }
    if (me.bubble_mode) parts.push(el('p', { class: 'muted', text: t('In Bubble mode you use no card: at the end of your turn you advance 4 spaces, on the level of your choice. A slap from another player frees you.') }));
    if (can(game, 'end_turn')) parts.push(nextAction(button(t('End my turn'), () => send({ type: 'end_turn' }), 'primary big rm-end-turn')));
    parts.push(...tokenButtons(game, me));
  } else if (game.active !== null) {
    parts.push(el('p', { class: 'rm-status-line', text: t("%(name)s's turn", { name: nameOf(game, game.active) }) }));
  }
  parts.push(...offerPanel(game, me));
  if (can(game, 'crossed')) parts.push(button(t('I crossed the finish line'), () => send({ type: 'crossed' }), 'rm-cross'));
  if (!parts.length) return null;
  return el('section', { class: `rm-panel rm-turn${mine ? ' mine' : ''}` }, ...parts);
}

export function tokenButtons(game, me) {
  const groups = [];
  const tokens = [];
  if (can(game, 'heart', {}) && allOf(game, 'heart').some((action) => !('to' in action))) {
    tokens.push(button((me.heart ? t('Heart action (you already hold a heart)') : t('Heart action: take a heart')), () => send({ type: 'heart' })));
  }
  for (const gift of allOf(game, 'heart').filter((action) => 'to' in action)) {
    tokens.push(button(t('Give a heart to %(name)s', { name: nameOf(game, gift.to) }), () => send(gift)));
  }
  if (can(game, 'spend_heart')) tokens.push(button(t('Filou: turn my heart into a Crouch'), () => send({ type: 'spend_heart' })));
  if (can(game, 'bonus')) tokens.push(button(t('Enemy defeated: take a bonus token'), () => send({ type: 'bonus' })));
  if (can(game, 'use_bonus') && !me.bonus_pending) tokens.push(button(t('Use a bonus token'), () => send({ type: 'use_bonus' })));
  if (can(game, 'use_legendary')) {
    tokens.push(button(t('Use my legendary ability (%(card)s)', { card: boxName('legendary', me.legendary) }), () => send({ type: 'use_legendary' })));
  }
  const group = (title, buttons) => el('div', { class: 'rm-actions', role: 'group', 'aria-label': title },
    el('h4', { text: title }), ...buttons);
  if (tokens.length) groups.push(group(t('Tokens'), tokens));
  const frees = allOf(game, 'free');
  if (frees.length) {
    groups.push(group(t('Free a Ptizêtre'), frees.map((action) => el('button', { type: 'button', class: 'rm-ptizetre',
      onclick: () => send(action) }, ptizetreSwatch(game, action.ptizetre), ptizetreName(game, action.ptizetre)))));
  }
  const slaps = allOf(game, 'slap');
  if (slaps.length) {
    groups.push(group(t('Slap a player'), slaps.map((action) => {
      const name = nameOf(game, action.target);
      const label = { forward: N_('Slap %(name)s forward'), back: N_('Slap %(name)s back') }[action.direction]
        ?? N_('Slap %(name)s');
      return button(t(label, { name }), () => send(action));
    })));
  }
  return groups;
}

export function hurtPanel(game) {
  const hurts = allOf(game, 'hurt');
  if (!hurts.length) return null;
  return folded('hurt', t('I was hit'), el('p', { class: 'muted', text: t('Your heart is spent first; without one you take damage, unless you are immune.') }),
    el('div', { class: 'rm-actions' }, ...hurts.map((action) => button(action.cause === 'projectile'
      ? t('Hit by projectile n°%(id)s', { id: action.projectile }) : t('Hit by %(cause)s', { cause: causeText(action.cause) }),
    () => send(action), 'danger'))));
}

// --- positions ------------------------------------------------------------------------------------

export function positionText(game, position) {
  if (!position) return t('position not kept');
  const past = position.column - game.last_column;
  if (past > 0) return t('%(count)s past the line, level %(level)s', { count: past, level: position.level });
  return t('column %(column)s, level %(level)s', { column: position.column, level: position.level });
}

export function positionPanel(game, me) {
  if (!game.racing) return null;
  const position = me.position;
  if (!position) {
    const start = allOf(game, 'position')[0];
    if (!start) return null;
    // Without a kept position the phone tells what only its player sees: the second tile reached
    // (a hit is told with the buttons of the hits).
    const tile = game.config.projectile && can(game, 'second_tile')
      ? button(t('My figure reached the second tile (column 22)'), () => send({ type: 'second_tile' }), 'small') : null;
    return el('div', { class: 'rm-no-position' }, tile,
      folded('position', t('Keep my position (optional)'), el('p', { class: 'muted', text: t('If every player keeps their column and level here, the companion works out who is last, who rolls and whom projectiles and the Boss hit; otherwise each player tells it on their phone.') }),
        button(t('Keep my position on this phone'), () => send(start))));
  }
  const stepper = el('div', { class: 'rm-stepper', role: 'group', 'aria-label': t('Move my figure one space') },
    ...STEPS.map(([direction, arrow]) => el('button', { type: 'button', class: `rm-step rm-step-${direction}`,
      'aria-label': t(STEP_LABELS[direction]), disabled: !can(game, 'step', { direction }), text: arrow,
      onclick: () => send({ type: 'step', direction }) })),
    el('output', { class: 'rm-here', text: positionText(game, position) }));
  const direct = el('form', { class: 'inline rm-direct', onsubmit: (event) => {
    event.preventDefault();
    const column = readInt('pos:column');
    const level = readInt('pos:level');
    if (column !== null && level !== null) send({ type: 'position', column, level });
  } }, numberInput('pos:column', t('Column'), 0, game.max_column), numberInput('pos:level', t('Level'), 1, 3),
  el('button', { type: 'submit', text: t('Set') }));
  const section = el('section', { class: 'rm-panel rm-position' }, el('h3', { text: t('My position') }), stepper,
    folded('direct', t('Type a position'), direct),
    can(game, 'forget_position') ? button(t('Stop keeping my position'), () => send({ type: 'forget_position' }), 'small') : null);
  return section;
}
