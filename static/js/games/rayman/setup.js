// Rayman's screen: the setup phases (characters, legendary cards, the extra cards' draft, the exchange).
import { N_, t, tn, withColon } from '../../i18n.js';
import { button, el } from '../../ui.js';
import { boxName, boxNames, can, cardChip, cardName, extraName, kept, keptInput, nameOf, namesOf, numbers, send } from './common.js';
import { render } from './view.js';

// What each legendary card does.
const LEGENDARY_ABILITIES = {
  esquiveur: N_('Crouch to dodge an Enemy and gain 1 Move. Lums: Crouch.'),
  vagabond: N_('Go up or down while gliding; 1 Move per 2 Glide icons. Lums: Glide.'),
  fracasseur: N_('Each Slap reaches one space further; 1 Move for a hit 2 spaces away or more. Lums: Slap.'),
  sprinteur: N_('2 Moves in the air before falling. Lums: Move.'),
  filou: N_('Turn your heart into a Crouch icon; 1 Move per 2 Crouch icons. Lums: a heart.'),
  grimpeur: N_('Two Jumps in a row; 1 Move for reaching level 3 from level 1. Lums: Jump.'),
};
export let dropping = { key: null, cards: new Set() };  // tournament exchange: the cards to give back
// --- setup phases ------------------------------------------------------------------------------

export function characterPanel(game, me) {
  const taken = new Set(game.players.filter((p) => p !== me && p.character).map((p) => p.character.toLowerCase()));
  const parts = [el('h3', { text: t('Your character') })];
  if (me.character) parts.push(el('p', { class: 'rm-done', text: t('You race as %(character)s.', { character: me.character }) }));
  parts.push(el('div', { class: 'rm-choices' }, ...boxNames('characters').map(([name]) => el('button', {
    type: 'button', class: me.character === name ? 'picked' : '', 'aria-pressed': String(me.character === name),
    disabled: taken.has(name.toLowerCase()), text: name, onclick: () => send({ type: 'character', name }) }))));
  parts.push(el('form', { class: 'inline rm-free-name', onsubmit: (event) => {
    event.preventDefault();
    if ((kept.free_name ?? '').trim()) send({ type: 'character', name: kept.free_name.trim() });
  } }, el('label', {}, t('Or a name of your own'), keptInput('free_name', { maxlength: '24', autocomplete: 'off' })),
  el('button', { type: 'submit', text: t('Choose') })));
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

export function legendaryPanel(game, me) {
  const taken = new Set(game.players.filter((p) => p !== me && p.legendary).map((p) => p.legendary));
  return el('section', { class: 'rm-panel rm-setup' }, el('h3', { text: t('Your legendary player card') }),
    me.legendary ? el('p', { class: 'rm-done', text: t('Your legendary card: %(card)s.', { card: boxName('legendary', me.legendary) }) }) : null,
    // Until this phone has picked, the cards are its next action: the bar at the bottom of its screen.
    el('div', { class: `rm-legendary${me.legendary ? '' : ' next-action'}` }, ...boxNames('legendary').map(([id, name]) => el('button', {
      type: 'button', class: me.legendary === id ? 'picked' : '', 'aria-pressed': String(me.legendary === id),
      disabled: taken.has(id), onclick: () => send({ type: 'pick_legendary', card: id }) },
    el('strong', { text: t(name) }), el('small', { text: t(LEGENDARY_ABILITIES[id]) })))));
}

export function draftPanel(game, me) {
  const draft = game.draft;
  const parts = [el('h3', { text: t('Extra action cards') }),
    el('p', { class: 'muted', text: (game.config.mode === 'solo' ? t('Solo: draw 3 cards, keep 1, twice.') : t('The cards lie face up; the youngest player picks first, clockwise, then the other way round. The 2 cards left over are discarded.')) })];
  if (draft.table.length) {
    const picker = draft.order[draft.turn];
    parts.push(el('p', { class: 'rm-draft-round', text: t('Draw %(round)s of 2', { round: draft.round }) }),
      el('ol', { class: 'rm-draft-order' }, ...draft.order.map((seat, index) => el('li', {
        class: index < draft.turn ? 'done' : index === draft.turn ? 'current' : '', text: nameOf(game, seat) }))));
    const mine = me && picker === me.seat && can(game, 'pick');
    if (!mine) parts.push(el('p', { class: 'rm-status-line', text: t('%(name)s picks.', { name: nameOf(game, picker) }) }));
    parts.push(el('div', { class: `rm-choices rm-draft-table${mine ? ' next-action' : ''}` }, ...draft.table.map((number) => mine
      ? button(t('Take %(card)s', { card: extraName(number) }), () => send({ type: 'pick', card: number }), 'primary')
      : el('span', { class: 'rm-chip', text: extraName(number) }))));
  }
  if (me) {
    const extras = me.cards.filter((card) => card.extra);
    if (extras.length) parts.push(el('p', { text: `${withColon(t('Your extra cards'))} ${extras.map(cardName).join(', ')}` }));
  }
  if (draft.discarded.length) {
    parts.push(el('p', { class: 'muted', text: t('Discarded: %(cards)s.', { cards: numbers(draft.discarded) }) }));
  }
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

export function exchangePanel(game, me) {
  const count = Math.max(0, me.cards.length - 10);
  const parts = [el('h3', { text: t('Tournament: exchange of cards') })];
  if (!count) {
    return el('section', { class: 'rm-panel rm-setup' }, ...parts, el('p', { class: 'rm-done', text: t('Done: your hand is ready for this race.') }));
  }
  const key = `${game.race.number}`;
  if (dropping.key !== key) dropping = { key, cards: new Set() };
  parts.push(el('p', { text: tn('Pick %(count)s card to put back in the box.', 'Pick %(count)s cards to put back in the box.', count) }),
    el('div', { class: 'rm-choices' }, ...me.cards.map((card) => el('button', {
      type: 'button', class: dropping.cards.has(card.id) ? 'picked' : '', 'aria-pressed': String(dropping.cards.has(card.id)),
      onclick: () => {
        if (dropping.cards.has(card.id)) dropping.cards.delete(card.id); else dropping.cards.add(card.id);
        render();
      } },
    cardChip(card.initiative, cardName(card))))),
    button(tn('Give back %(count)s card', 'Give back %(count)s cards', count), () => send({ type: 'exchange', drop: [...dropping.cards] }), 'primary big'));
  parts.at(-1).disabled = dropping.cards.size !== count;
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

