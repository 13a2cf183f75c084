// Mario Universalis cards: each phone is its player's counter, phase keeper and combat calculator;
// the host screen shows both sides. What a phone may do comes from the view's legal actions.
// The screen, top down: what to do now and its button (always on the first screen), the counters,
// the phases, a die and a coin, then the cards (found by name), the cards in play, the rest folded.
import { N_, t, tn, withColon } from '../i18n.js';
import { button, el, showError } from '../ui.js';
import { cardFinder, KINDS, MOMENTS, numberField } from './universalis-cards.js';

const PHASES = {
  start: N_('Start of the turn'),
  refill: N_('Renflouage (+6 coins)'),
  draw: N_('Draw'),
  prep1: N_('Preparation'),
  attackers: N_('Combat: attackers'),
  blockers: N_('Combat: blockers'),
  sharing: N_('Combat: sharing'),
  damage: N_('Combat: damage'),
  prep2: N_('Second preparation'),
  end: N_('End of the turn'),
};
const STEPS = ['start', 'refill', 'draw', 'prep1', 'attackers', 'prep2', 'end'];
const COMBAT = ['attackers', 'blockers', 'sharing', 'damage'];
// Where a player may stop although the phase would pass by itself.
const STOPS = { start: N_('Start of the turn'), refill: N_('Renflouage (+6 coins)'), draw: N_('Draw'),
  attackers: N_('Combat in the first global turn'), damage: N_('Combat: damage'), end: N_('End of the turn') };
const RULES = {
  when: N_('the phase'),
  one_character: N_('one Character per turn'),
  coins: N_('the coins'),
  once_per_turn: N_('one use of an ability per turn'),
  own_card: N_('only your own cards'),
  own_sacrifice: N_('sacrifice only your own cards'),
  asked_sacrifice: N_('sacrifice only when a card asks for it'),
  no_debt: N_('no coins below 0'),
  one_star: N_('one Super Star per turn'),
  first_global_turn: N_('no attack in the first global turn'),
  phase_order: N_('the order of the phases'),
  own_attack: N_('only your own Characters attack'),
  own_block: N_('only your own Characters block'),
  one_block: N_('a Character blocks only one Character'),
  from_hand: N_('cards are played from the hand'),
  combat_shape: N_('the shape of the combat'),
};
const PLACES = { graveyard: N_('to the graveyard'), removed: N_('out of the game'), hand: N_('back to the hand') };
const FIRST = { random: N_('drawn at random by the table'), first_seat: N_('the first player to sit'),
  second_seat: N_('the second player to sit') };

// "A card allows it": the next action may break a rule of the book, in the name of a card.
let override = false;
let overrideCard = '';
const openFolds = new Set();
// The history as this phone last saw it: an undo shows as what vanished from it.
let seenHistory = null;
let tookBack = null;
let attackedIn = null;  // the combat this phone last vibrated for
let skew = 0;  // the server's clock minus this phone's, for the turn timer
let timerTick = null;
let timeUpIn = null;  // the turn this phone last buzzed for when its time ran out

const nameOf = (game, seat) => game.names[String(seat)] ?? `#${seat}`;
const counters = (game, seat) => game.players[String(seat)];
const can = (game, type) => game.legal.some((action) => action.type === type);
const signed = (number) => (number > 0 ? `+${number}` : String(number));
const cardName = (game, id) => game.in_play.find((card) => card.id === id)?.name ?? `#${id}`;

// --- the history --------------------------------------------------------------------
function combatText(game, event) {
  const fights = (event.cards || []).map((card) => (card.pc === 0
    ? t('%(card)s −%(loss)s PC (KO)', { card: card.name, loss: card.loss })
    : t('%(card)s −%(loss)s PC (%(pc)s left)', { card: card.name, loss: card.loss, pc: card.pc })));
  const passed = (event.passed || []).map((card) => card.name);
  const parts = [...fights];
  if (passed.length) parts.push(t('%(cards)s passed', { cards: passed.join(', ') }));
  parts.push(t('%(won)s coins won, %(lost)s coins lost', { won: event.coins_won, lost: event.coins_lost }));
  return t('Combat: %(what)s.', { what: parts.join('; ') });
}

function overrideText(game, event) {
  const rules = event.rules.map((rule) => t(RULES[rule] ?? rule)).join(', ');
  return event.card
    ? t('%(name)s, by the card %(card)s: %(rules)s.', { name: nameOf(game, event.seat), card: event.card, rules })
    : t('%(name)s: a card allows it (%(rules)s).', { name: nameOf(game, event.seat), rules });
}

function eventText(game, event) {
  const who = nameOf(game, event.seat);
  switch (event.type) {
    case 'turn': return t('Turn %(turn)s (global turn %(global)s): %(name)s plays.', { turn: event.turn, global: event.global_turn, name: who });
    case 'refill': return t('%(name)s gets %(coins)s coins.', { name: who, coins: event.coins });
    case 'no_refill': return t('First global turn: no coins for %(name)s.', { name: who });
    case 'drew': return t('%(name)s draws a card (%(deck)s left in the deck).', { name: who, deck: event.deck });
    case 'no_draw': return t('The first player does not draw in the first turn.');
    case 'drew_from_empty_deck': return t('%(name)s must draw from an empty deck.', { name: who });
    case 'no_attack_first_global_turn': return t('Nobody attacks in the first global turn.');
    case 'played': return t('%(name)s plays %(card)s (%(kind)s) for %(cost)s coins.', { name: who, card: event.name, kind: t(KINDS[event.kind]), cost: event.cost });
    case 'put_into_play': return t('%(name)s puts %(card)s (%(kind)s) into play, for free.', { name: who, card: event.name, kind: t(KINDS[event.kind]) });
    case 'hero_rule': return t('Hero rule: every %(card)s leaves the game.', { card: event.name });
    case 'became_hero': return t('%(card)s becomes a Hero.', { card: event.name });
    case 'card_stops': return event.stops.length
      ? t('%(card)s acts %(moments)s.', { card: event.name, moments: event.stops.map((m) => t(MOMENTS[m])).join(', ') })
      : t('%(card)s no longer stops the turn.', { card: event.name });
    case 'ability': return t('%(name)s uses ability %(ability)s of %(card)s.', { name: who, ability: event.ability, card: event.name });
    case 'star': return event.given
      ? t('%(name)s is given a Super Star by a card (%(stars)s of 3).', { name: who, stars: event.stars })
      : t('%(name)s buys a Super Star (%(stars)s of 3).', { name: who, stars: event.stars });
    case 'changed': return t('%(card)s: PC %(pc)s/%(max)s, PF %(pf)s (base %(base)s).', { card: event.name, pc: event.now.pc, max: event.now.max_pc, pf: event.now.pf, base: event.now.base_pf });
    case 'ko': return t('%(card)s is KO.', { card: event.name });
    case 'coins': return t('%(name)s: %(delta)s coins (now %(now)s).', { name: nameOf(game, event.of), delta: signed(event.delta), now: event.now });
    case 'sacrificed': return event.asked_by
      ? t('%(name)s sacrifices %(card)s: %(asking)s asks for it.', { name: who, card: event.name, asking: event.asked_by })
      : t('%(name)s sacrifices %(card)s.', { name: who, card: event.name });
    case 'left_play': return t('%(card)s leaves play, %(place)s.', { card: event.name, place: t(PLACES[event.to]) });
    case 'attack': return t('%(name)s attacks with %(cards)s!', { name: who, cards: (event.names || []).join(', ') });
    case 'blocks': return Object.keys(event.blocks).length
      ? t('%(name)s blocks: %(blocks)s.', { name: who, blocks: Object.entries(event.blocks).map(([blocker, attacker]) => t('%(blocker)s blocks %(attacker)s', { blocker: event.names?.[blocker] ?? cardName(game, Number(blocker)), attacker: [].concat(attacker).map((id) => event.names?.[id] ?? cardName(game, id)).join(' + ') })).join(', ') })
      : t('%(name)s does not block.', { name: who });
    case 'shared': return t('%(name)s shares the PF among the blockers.', { name: who });
    case 'damage_ready': return t('The damage is ready: the cards may change it.');
    case 'adjusted': return event.card
      ? t('%(name)s: %(card)s will lose %(now)s PC.', { name: who, card: event.name, now: event.now })
      : t('%(name)s: the coins of the combat are now %(now)s.', { name: who, now: event.now });
    case 'combat': return combatText(game, event);
    case 'override': return overrideText(game, event);
    case 'goto': return t('%(name)s goes to the phase: %(phase)s.', { name: who, phase: t(PHASES[event.to]) });
    case 'roll': return event.what === 'die'
      ? t('%(name)s rolls the die: %(result)s.', { name: who, result: event.result })
      : t('%(name)s tosses a coin: %(result)s.', { name: who, result: event.result ? t('heads') : t('tails') });
    case 'deck_checked': return tn('%(name)s\'s deck list is checked: %(count)s card.', '%(name)s\'s deck list is checked: %(count)s cards.', event.cards, { name: who });
    case 'deck_counted': return tn('%(name)s counts %(count)s card in the deck.', '%(name)s counts %(count)s cards in the deck.', event.deck, { name: who });
    case 'hand_counted': return tn('%(name)s counts %(count)s card in hand.', '%(name)s counts %(count)s cards in hand.', event.hand, { name: who });
    case 'forfeit': return t('%(name)s leaves the duel.', { name: who });
    default: return event.type;
  }
}

// An undo puts the duel back as it was: the events of the undone action vanish from the history.
// What vanished is what the player took back (shown to both phones until the next change).
function noticeUndo(game) {
  const now = game.history.map((event) => JSON.stringify(event));
  const before = seenHistory;
  seenHistory = now;
  if (!before || before.join('\n') === now.join('\n')) return;
  tookBack = null;
  const same = (a, b) => a.length === b.length && a.every((line, i) => line === b[i]);
  for (let gone = 1; gone <= Math.min(12, before.length); gone += 1) {
    const kept = before.slice(0, before.length - gone);
    const undone = now.length === kept.length ? same(kept, now)
      : now.length === before.length && same(kept, now.slice(gone));  // a full history had shifted
    if (undone) {
      const removed = before.slice(before.length - gone).map((line) => JSON.parse(line));
      const seat = removed.find((event) => event.seat !== undefined)?.seat;
      tookBack = t('%(name)s took back: %(what)s', { name: nameOf(game, seat), what: removed.map((event) => eventText(game, event)).join(' ') });
      return;
    }
  }
}

// --- parts of the screen --------------------------------------------------------
function side(game, seat, me) {
  const mine = counters(game, seat);
  return el('section', { class: `uv-side${game.active === seat ? ' active' : ''}` },
    el('h3', { text: seat === me && !game.one_phone ? t('You') : nameOf(game, seat) }),
    el('p', { class: 'uv-counters' },
      el('span', { class: 'uv-coins', 'aria-label': t('%(coins)s coins', { coins: mine.coins }) },
        el('span', { class: 'uv-number', text: String(mine.coins) }), el('span', { class: 'uv-unit', text: t('coins') })),
      el('span', { class: 'uv-stars', 'aria-label': t('%(stars)s of 3 Super Stars', { stars: mine.stars }),
        text: `${'★'.repeat(mine.stars)}${'☆'.repeat(Math.max(0, 3 - mine.stars))}` })),
    el('p', { class: 'uv-small uv-row' }, el('span', { text: t('Deck: %(deck)s', { deck: mine.deck }) }),
      mine.hand != null ? el('span', { text: t('Hand: %(count)s', { count: mine.hand }) }) : null,
      el('span', { text: t('Graveyard: %(count)s', { count: mine.graveyard.length }) })));
}

function phaseLine(game) {
  const current = COMBAT.includes(game.phase) ? 'attackers' : game.phase;
  return el('ol', { class: 'uv-phases', 'aria-label': t('Phases of the turn') },
    ...STEPS.map((step) => el('li', { class: current === step ? 'current' : '', text: t(PHASES[step]) })));
}

function cardTile(game, card, me, act) {
  const stats = card.kind === 'character'
    ? el('p', { class: 'uv-stats' },
      el('span', { text: t('PC %(pc)s/%(max)s', { pc: card.pc, max: card.max_pc }) }),
      el('span', { text: t('PF %(pf)s (base %(base)s)', { pf: card.pf, base: card.base_pf }) }))
    : el('p', { class: 'uv-small', text: t(KINDS[card.kind]) });
  const acts = card.stops?.length ? el('p', { class: 'uv-small', text: t('Acts %(moments)s.', { moments: card.stops.map((m) => t(MOMENTS[m])).join(', ') }) }) : null;
  return el('li', { class: `uv-card${card.hero ? ' hero' : ''}` },
    el('strong', { text: card.name }), stats, acts, act ? cardControls(game, card, me, act) : null);
}

function cardControls(game, card, me, act) {
  const legal = (type, more = () => true) => game.legal.some((a) => a.type === type && a.card === card.id && more(a));
  const buttons = [];
  if (card.kind === 'character') {
    buttons.push(button(t('−1 PC'), () => act({ type: 'change', card: card.id, pc: -1 })),
      button(t('+1 PC'), () => act({ type: 'change', card: card.id, pc: 1 })),
      button(t('−1 PF'), () => act({ type: 'change', card: card.id, pf: -1 })),
      button(t('+1 PF'), () => act({ type: 'change', card: card.id, pf: 1 })));
  }
  // « on ne peut utiliser qu'une fois la même capacité d'une même carte par tour » : each ability on its own.
  if (card.controller === me) {
    for (const ability of [1, 2]) {
      const open = legal('ability', (a) => a.ability === ability) || override;
      const node = button(t('Ability %(n)s', { n: ability }), () => act({ type: 'ability', card: card.id, ability }),
        card.used.includes(ability) ? 'used' : '');
      node.disabled = !open;
      buttons.push(node);
    }
  }
  return el('div', { class: 'uv-card-controls' }, ...buttons, cardMore(game, card, me, act));
}

// What cards do less often: lasting changes, a new Hero, where the card acts, leaving play.
function cardMore(game, card, me, act) {
  const parts = [];
  if (card.kind === 'character') {
    parts.push(el('div', { class: 'uv-row' },
      button(t('−1 max PC'), () => act({ type: 'change', card: card.id, max_pc: -1 })),
      button(t('+1 max PC'), () => act({ type: 'change', card: card.id, max_pc: 1 })),
      button(t('−1 base PF'), () => act({ type: 'change', card: card.id, base_pf: -1 })),
      button(t('+1 base PF'), () => act({ type: 'change', card: card.id, base_pf: 1 }))));
  }
  if (!card.hero) parts.push(button(t('Becomes a Hero'), () => act({ type: 'hero', card: card.id })));
  if (card.controller === me) {
    const boxes = Object.entries(MOMENTS).map(([moment, label]) => el('label', { class: 'uv-check' },
      el('input', { type: 'checkbox', checked: card.stops?.includes(moment), onchange: () => {
        const stops = boxes.filter((box) => box.querySelector('input').checked).map((box) => box.dataset.moment);
        act({ type: 'card_stops', card: card.id, stops });
      } }), el('span', { text: t(label) })));
    boxes.forEach((box, i) => { box.dataset.moment = Object.keys(MOMENTS)[i]; });
    parts.push(el('fieldset', { class: 'uv-moments' }, el('legend', { text: t('This card acts…') }), ...boxes));
    // « il n'est possible de sacrifier une carte que si une autre carte nous le demande » : name that card.
    // (a refusal is shown next to the button, as every card control's)
    const asking = el('input', { name: 'asked_by', list: 'uv-card-names', maxlength: 40 });
    parts.push(el('label', { class: 'uv-field' }, t('Which card asks for the sacrifice?'), asking),
      button(t('Sacrifice (a card asks for it)'), () => act({ type: 'sacrifice', card: card.id, asked_by: asking.value.trim() })));
  }
  parts.push(el('div', { class: 'uv-row' }, ...Object.entries(PLACES).map(([to, label]) => button(t(label), () => act({ type: 'leave', card: card.id, to })))));
  return fold(t('More for %(card)s', { card: card.name }), false, ...parts);
}

function fold(title, open, ...content) {
  const details = el('details', { class: 'uv-fold', open: open || openFolds.has(title) }, el('summary', { text: title }), ...content);
  details.addEventListener('toggle', () => { if (details.open) openFolds.add(title); else openFolds.delete(title); });
  return details;
}

function inPlay(game, seat, me, act) {
  const cards = game.in_play.filter((card) => card.controller === seat);
  if (!cards.length) return el('p', { class: 'uv-small', text: t('No card in play.') });
  return el('ul', { class: 'uv-cards' }, ...cards.map((card) => cardTile(game, card, me, act)));
}

// --- the main action of each phase ------------------------------------------------
function attackForm(game, me, act, error) {
  const mine = game.in_play.filter((card) => card.kind === 'character' && card.controller === me);
  const boxes = mine.map((card) => el('label', { class: 'uv-check' },
    el('input', { type: 'checkbox', value: card.id }), el('span', { text: t('%(card)s (PF %(pf)s)', { card: card.name, pf: card.pf }) })));
  return el('div', { class: 'uv-combat' },
    el('div', { class: 'uv-row' },
      button(t('Attack!'), () => {
        const attackers = boxes.map((box) => box.querySelector('input')).filter((input) => input.checked).map((input) => Number(input.value));
        act({ type: 'attack', attackers }, error);
      }, 'primary big'),
      button(t('No attack: end my turn'), () => act({ type: 'end_turn' }, error))),
    el('p', { class: 'uv-small', text: t('Who attacks?') }), ...boxes);
}

function blockForm(game, me, act, error) {
  const attackers = game.combat.attackers.map((id) => game.in_play.find((card) => card.id === id)).filter(Boolean);
  const mine = game.in_play.filter((card) => card.kind === 'character' && card.controller === me);
  const selects = mine.map((card) => el('label', { class: 'uv-field' }, t('%(card)s blocks', { card: card.name }),
    // One attacker per blocker, as the book says; "A card allows it" lets one block several.
    el('select', { 'data-blocker': card.id, multiple: override }, el('option', { value: '', text: t('nobody') }),
      ...attackers.map((attacker) => el('option', { value: attacker.id, text: t('%(card)s (PF %(pf)s)', { card: attacker.name, pf: attacker.pf }) })))));
  return el('div', { class: 'uv-combat' },
    button(t('Confirm the blocks'), () => {
      const blocks = {};
      for (const label of selects) {
        const chosen = [...label.querySelector('select').selectedOptions].map((option) => option.value).filter(Boolean).map(Number);
        if (chosen.length) blocks[label.querySelector('select').dataset.blocker] = chosen.length === 1 ? chosen[0] : chosen;
      }
      act({ type: 'block', blocks }, error);
    }, 'primary big'),
    el('p', { text: t('Attackers: %(names)s', { names: attackers.map((card) => `${card.name} (PF ${card.pf})`).join(', ') }) }),
    ...selects);
}

function shareForm(game, act, error) {
  const groups = [];
  for (const attackerId of game.combat.attackers) {
    const blockers = Object.entries(game.combat.blocks).filter(([, target]) => [].concat(target).includes(attackerId)).map(([id]) => Number(id));
    const attacker = game.in_play.find((card) => card.id === attackerId);
    if (!attacker || blockers.length < 2) continue;
    const inputs = blockers.map((id, index) => numberField(String(id), cardName(game, id), index === 0 ? attacker.pf : 0));
    groups.push({ attacker, inputs });
  }
  return el('div', { class: 'uv-combat' },
    button(t('Share the damage'), () => {
      const shares = {};
      for (const { attacker, inputs } of groups) {
        shares[attacker.id] = Object.fromEntries(inputs.map((label) => {
          const input = label.querySelector('input');
          return [input.name, Number(input.value)];
        }));
      }
      act({ type: 'share', shares }, error);
    }, 'primary big'),
    el('p', { class: 'uv-small', text: t('Share each attacker\'s PF among its blockers') }),
    ...groups.flatMap(({ attacker, inputs }) => [el('p', { text: t('%(card)s: %(pf)s PF to share', { card: attacker.name, pf: attacker.pf }) }), ...inputs]));
}

// The damage of each card before it is dealt: the players apply their cards' modifiers, then it is dealt.
function damageForm(game, me, act, error) {
  const { damage } = game.combat;
  const rows = Object.entries(damage.losses).map(([id, loss]) => el('div', { class: 'uv-coin-row' },
    el('span', { text: t('%(card)s loses %(loss)s PC', { card: cardName(game, Number(id)), loss }) }),
    button('−1', () => act({ type: 'damage', card: Number(id), delta: -1 }, error)),
    button('+1', () => act({ type: 'damage', card: Number(id), delta: 1 }, error))));
  const coins = el('div', { class: 'uv-coin-row' },
    el('span', { text: t('%(won)s coins won, %(lost)s lost', { won: damage.coins_won, lost: damage.coins_lost }) }),
    button('−1', () => act({ type: 'damage', what: 'coins_won', delta: -1 }, error)),
    button('+1', () => act({ type: 'damage', what: 'coins_won', delta: 1 }, error)));
  const deal = game.active === me ? button(t('Deal the damage'), () => act({ type: 'deal' }, error), 'primary big') : null;
  return el('div', { class: 'uv-combat' }, deal, ...rows, coins);
}

// Prompt, then the one thing to do now (its button first).
function mainControls(game, me, send) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const main = [];
  const mine = game.in_play.filter((card) => card.kind === 'character' && card.controller === me);
  const attacks = game.legal.filter((action) => action.type === 'attack');
  if (game.phase === 'blockers' && can(game, 'block')) main.push(blockForm(game, me, send, error));
  else if (game.phase === 'sharing' && can(game, 'share')) main.push(shareForm(game, send, error));
  else if (game.phase === 'damage' && (can(game, 'damage') || can(game, 'deal'))) main.push(damageForm(game, me, send, error));
  else if (game.phase === 'attackers' && game.active === me) main.push(attackForm(game, me, send, error));
  else if (game.phase === 'prep1' && game.active === me) {
    const everyone = mine.map((card) => card.id);
    const row = [];
    if (attacks.length) {
      row.push(button(t('Attack with all (%(count)s)', { count: everyone.length }), () => send({ type: 'attack', attackers: everyone }, error), 'primary big'));
      if (everyone.length > 1) row.push(button(t('Choose attackers'), () => send({ type: 'next' }, error)));
    }
    row.push(button(t('End my turn'), () => send({ type: 'end_turn' }, error), attacks.length ? '' : 'primary big'));
    main.push(el('div', { class: 'uv-row' }, ...row));
  } else if (game.phase === 'prep2' && can(game, 'end_turn')) {
    main.push(button(t('End my turn'), () => send({ type: 'end_turn' }, error), 'primary big'));
  } else if (can(game, 'next')) {
    const asking = game.in_play.filter((card) => card.controller === me && card.stops?.includes(game.phase)).map((card) => card.name);
    if (asking.length) main.push(el('p', { class: 'uv-small', text: t('A card acts here: %(cards)s.', { cards: asking.join(', ') }) }));
    main.push(button(t('Next phase: %(phase)s', { phase: t(PHASES[nextStep(game.phase)]) }), () => send({ type: 'next' }, error), 'primary big'));
  }
  if (can(game, 'star') || (override && game.active === me)) main.push(button(t('Buy a Super Star (20 coins)'), () => send({ type: 'star' }, error)));
  return el('div', { class: 'uv-main' }, ...main, error);
}

// --- the table's odds and ends -------------------------------------------------------
function chance(game, send) {
  const roll = game.roll;
  const shown = roll ? (roll.what === 'die' ? `⚀ ${roll.result}` : (roll.result ? t('heads') : t('tails'))) : '';
  return el('div', { class: 'uv-chance' },
    send ? button(t('Roll the die'), () => send({ type: 'roll', what: 'die' })) : null,
    send ? button(t('Toss a coin'), () => send({ type: 'roll', what: 'coin' })) : null,
    roll ? el('output', { class: 'uv-roll', text: `${withColon(nameOf(game, roll.seat))} ${shown}` }) : null);
}

function timer(game) {
  const limit = game.options.turn_seconds;
  clearInterval(timerTick);
  if (!limit || game.outcome) return null;
  const node = el('p', { class: 'uv-timer', role: 'timer' });
  const started = game.turn_started;  // the server's time the turn began (none yet in the first turn)
  const show = () => {
    const left = started ? Math.max(0, Math.round(started + limit - (Date.now() / 1000 + skew))) : limit;
    node.textContent = left > 0 ? t('Time left: %(time)s', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` }) : t('Time is up! Finish the action in hand, then end the turn.');
    node.classList.toggle('up', left === 0);
    // Time up: every phone buzzes once and says so; the turn goes on (a card being resolved must finish).
    if (left === 0 && started && timeUpIn !== game.turn) {
      timeUpIn = game.turn;
      navigator.vibrate?.([300, 100, 300]);
    }
  };
  timerTick = setInterval(() => { if (node.isConnected) show(); }, 1000);  // the next redraw replaces it
  show();
  return node;
}

function coinControls(game, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const rows = game.order.map((seat) => el('div', { class: 'uv-coin-row' },
    el('span', { text: t('%(name)s\'s coins', { name: nameOf(game, seat) }) }),
    button('−1', () => act({ type: 'coins', of: seat, delta: -1 }, error)),
    button('+1', () => act({ type: 'coins', of: seat, delta: 1 }, error)),
    button('+5', () => act({ type: 'coins', of: seat, delta: 5 }, error))));
  return el('div', { class: 'uv-coins-box' }, ...rows, error);
}

function overrideControls(game, me, send) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const names = [...new Set(game.catalogue.map((card) => card.name))];
  const phase = el('select', { name: 'goto' }, ...STEPS.map((step) => el('option', { value: step, text: t(PHASES[step]) })));
  return el('div', { class: 'uv-override' },
    el('label', { class: 'uv-check' },
      el('input', { type: 'checkbox', checked: override, onchange: (event) => { override = event.target.checked; } }),
      el('span', { text: t('A card allows it (override a rule for the next action)') })),
    el('label', { class: 'uv-field' }, t('Which card?'),
      el('input', { name: 'by_card', list: 'uv-card-names', maxlength: 40, value: overrideCard, oninput: (event) => { overrideCard = event.target.value; } })),
    el('datalist', { id: 'uv-card-names' }, ...names.map((name) => el('option', { value: name }))),
    el('div', { class: 'uv-row' }, phase,
      button(t('Go to this phase (a card says so)'), () => send({ type: 'phase', to: phase.value, override: true }, error))),
    button(t('A card gives me a Super Star'), () => send({ type: 'star', given: true }, error)),
    error);
}

function stopControls(game, me, send) {
  const mine = counters(game, me).stops || [];
  const boxes = Object.entries(STOPS).map(([moment, label]) => el('label', { class: 'uv-check' },
    el('input', { type: 'checkbox', value: moment, checked: mine.includes(moment), onchange: () => {
      send({ type: 'stops', stops: boxes.map((box) => box.querySelector('input')).filter((input) => input.checked).map((input) => input.value) });
    } }), el('span', { text: t(label) })));
  return fold(t('Where my turn stops'), false,
    el('p', { class: 'uv-small', text: t('These phases pass by themselves unless a card of yours acts there. Tick one to stop there every turn.') }),
    ...boxes);
}

function deckControls(game, me, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const list = el('textarea', { rows: 4, maxlength: 8000, placeholder: t('One card name per line') });
  const count = el('input', { type: 'number', min: 0, max: 200, value: counters(game, me).deck, inputmode: 'numeric' });
  const hand = el('input', { type: 'number', min: 0, max: 200, value: counters(game, me).hand ?? 0, inputmode: 'numeric' });
  return fold(t('My deck'), false,
    game.deck_list ? el('p', { text: tn('Deck list checked: %(count)s card.', 'Deck list checked: %(count)s cards.', game.deck_list.length) }) : null,
    el('label', { class: 'uv-field' }, t('Deck list (at most 4 cards of the same name)'), list),
    button(t('Check my deck list'), () => act({ type: 'deck_list', names: list.value.split('\n').map((line) => line.trim()).filter(Boolean) }, error)),
    el('label', { class: 'uv-field' }, t('Cards left in the deck'), count),
    button(t('Correct the count'), () => act({ type: 'deck_count', count: Number(count.value) }, error)),
    el('label', { class: 'uv-field' }, t('Cards in my hand'), hand),
    button(t('Correct the hand'), () => act({ type: 'hand_count', count: Number(hand.value) }, error)),
    button(t('Draw a card (a card\'s effect)'), () => act({ type: 'draw' }, error)), error);
}

// The rules the phones keep, and what this table does where the book is silent.
function rulesSummary(game) {
  const options = game.options;
  const silent = [
    t('Each deck has %(cards)s cards; each player starts with %(hand)s in hand and %(coins)s coins.', { cards: options.deck_size, hand: options.hand_size, coins: options.starting_coins }),
    t('Who plays first: %(how)s.', { how: t(FIRST[options.first] ?? FIRST.random) }),
    options.sharing === 'each' ? t('Several blockers on one attacker: each takes its whole PF.') : t('Several blockers on one attacker: the attacker shares its PF among them.'),
    t('A KO\'d Character and a played Action card go to their owner\'s graveyard.'),
    t('PF never go below 0.'),
    options.turn_seconds ? t('Turn timer: %(seconds)s s. When it runs out, the phones buzz and say so; the turn goes on until its player ends it.', { seconds: options.turn_seconds }) : null,
  ].filter(Boolean);
  const book = [
    t('Renflouage: +6 coins, except in the first global turn. The first player does not draw in the first turn.'),
    t('One Character played per turn; putting a card into play is free and is not playing it.'),
    t('Each ability of a card once per turn. A Super Star: 20 coins, one per turn, first preparation only; three win.'),
    t('No attack in the first global turn. A blocker blocks one attacker; fights are simultaneous; an unblocked attacker earns its PF in coins and costs the defender 1 coin.'),
    t('Drawing from an empty deck loses. A Hero in play removes every card of its name from the game.'),
    t('A KO is never final before you saw it: a combat that would KO a card stops at the damage, for the cards that change it.'),
    t('Cards are played from the hand, whose count the phone keeps. A card is sacrificed only when another card asks for it.'),
    t('Cards override every rule: tick "A card allows it" and name the card.'),
  ];
  return fold(t('Rules (summary)'), false,
    el('ul', { class: 'uv-rules' }, ...book.map((line) => el('li', { text: line }))),
    el('h4', { text: t('Where the book is silent') }),
    el('ul', { class: 'uv-rules' }, ...silent.map((line) => el('li', {},
      el('span', { text: line }), ' ', el('em', { class: 'uv-silent', text: t('(the book is silent)') })))));
}

function prompt(game, me) {
  if (game.outcome) {
    const winner = game.outcome.winners.map((seat) => nameOf(game, seat)).join(', ');
    return t('%(name)s wins the duel!', { name: winner });
  }
  const wait = game.waiting[0];
  if (!wait && !game.host_plays) return '';  // (the host screen that plays waits on no phone)
  const waited = game.one_phone ? game.acting : wait.seat;  // one phone: the duel waits on the player it plays for
  if (waited === me) return game.phase === 'blockers' ? t('You are attacked: declare your blockers.') : t('Your turn: %(phase)s.', { phase: t(PHASES[game.phase]) });
  return t('Waiting for %(name)s: %(phase)s.', { name: nameOf(game, waited), phase: t(PHASES[game.phase]) });
}

// The phone buzzes once when its player is attacked.
function buzzWhenAttacked(game, me) {
  const key = game.phase === 'blockers' && me !== null && game.active !== me ? `${game.turn}:${JSON.stringify(game.combat?.attackers)}` : null;
  if (key && key !== attackedIn) navigator.vibrate?.([200, 100, 200]);
  attackedIn = key;
}

// A redraw keeps the field being typed in (and its caret): the other player's action must not close the keyboard.
function keepFocus(container, draw) {
  const active = document.activeElement;
  const name = container.contains(active) ? active.getAttribute('name') : null;
  const caret = name && 'selectionStart' in active ? [active.selectionStart, active.selectionEnd] : null;
  draw();
  if (!name) return;
  const again = container.querySelector(`[name="${CSS.escape(name)}"]`);
  if (!again) return;
  again.focus();
  try { if (caret) again.setSelectionRange(...caret); } catch { /* a number field has no caret */ }
}

// --- the screen -------------------------------------------------------------------
export function renderUniversalis(container, view, { act = null } = {}) {
  const game = view.game;
  const seat = view.you.role === 'seat' ? view.you.seat : null;
  // One device for the table: the phone (or, when nobody has one, the host screen: never a TV that only
  // displays, which has no way to act) plays for whoever the duel waits on, and says whom.
  const device = seat !== null || (game.host_plays && view.you.role === 'host' && Boolean(act));
  const me = game.one_phone && device ? game.acting : seat;
  if (typeof view.time === 'number') skew = view.time - Date.now() / 1000;
  noticeUndo(game);
  if (!game.one_phone) buzzWhenAttacked(game, me);
  // Every action carries the override (and the card named) when "a card allows it" is on.
  const send = act && me !== null && (async (action, errorNode = null) => {
    const named = overrideCard.trim() ? { by_card: overrideCard.trim() } : {};
    const sent = me !== seat ? { ...action, as: me } : action;
    const answer = await act(override || action.override || action.given ? { ...sent, override: override || action.override, ...named } : sent);
    if (answer?.ok && override) { override = false; overrideCard = ''; }
    if (errorNode) showError(errorNode, answer?.ok ? '' : answer?.error);
    return answer;
  });
  const opponent = game.order.find((seat) => seat !== me);
  const top = me !== null ? [side(game, me, me), side(game, opponent, me)] : game.order.map((seat) => side(game, seat, me));
  const playing = send && !game.outcome;
  // What is happening now, and the table (cards in play, the history): one column on a phone, two on a TV.
  const now = [
    game.one_phone && !game.outcome ? el('p', { class: 'uv-one-phone', text: game.host_plays
      ? t('The host screen plays for both: now for %(name)s.', { name: nameOf(game, game.acting) })
      : t('One phone for the table: now for %(name)s.', { name: nameOf(game, game.acting) }) }) : null,
    el('p', { class: `uv-prompt${(device && game.one_phone) || game.waiting[0]?.seat === seat ? ' mine' : ''}`, text: prompt(game, me) }),
    playing ? mainControls(game, me, send) : null,
    el('div', { class: 'uv-sides' }, ...top),
    timer(game),
    el('p', { class: 'uv-small', text: t('Turn %(turn)s — global turn %(global)s', { turn: game.turn, global: game.global_turn }) }),
    phaseLine(game),
    chance(game, playing ? send : null),
  ];
  const table = [];
  if (playing) table.push(cardFinder(game, me, send, { can, fold }));
  table.push(el('div', { class: 'uv-boards' }, ...(me !== null ? [me, opponent] : game.order).map((seat) => el('section', {},
    el('h3', { text: t('In play: %(name)s', { name: seat === me && !game.one_phone ? t('you') : nameOf(game, seat) }) }),
    inPlay(game, seat, me, playing ? send : null)))));
  if (playing) {
    table.push(fold(t('A card allows it'), override, overrideControls(game, me, send)),
      fold(t('Coins (a card\'s effect)'), false, coinControls(game, send)),
      stopControls(game, me, send), deckControls(game, me, send));
  }
  if (me !== null) table.push(rulesSummary(game));  // the players' (the TV keeps its room for the game)
  if (tookBack) table.push(el('p', { class: 'uv-took-back', role: 'status', text: tookBack }));
  if (game.history.length) {  // no heading over nothing before the first event
    table.push(el('h3', { text: t('History') }),
      el('ol', { class: 'uv-history', reversed: true, tabindex: '0' }, ...game.history.slice().reverse().map((event) => el('li', { text: eventText(game, event) }))));
  }
  keepFocus(container, () => container.replaceChildren(el('div', { class: 'universalis-game' },
    el('div', { class: 'uv-now' }, ...now), el('div', { class: 'uv-table' }, ...table))));
}

function nextStep(phase) {
  if (phase === 'end') return 'start';
  const index = STEPS.indexOf(phase);
  return STEPS[Math.min(index + 1, STEPS.length - 1)];
}
