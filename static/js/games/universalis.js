// Mario Universalis cards: each phone is its player's counter, phase keeper and combat calculator;
// the host screen shows both sides. What a phone may do comes from the view's legal actions.
import { N_, t, tn } from '../i18n.js';
import { button, el, showError } from '../ui.js';

const PHASES = {
  start: N_('Start of the turn'),
  refill: N_('Renflouage (+6 coins)'),
  draw: N_('Draw'),
  prep1: N_('Preparation'),
  attackers: N_('Combat: attackers'),
  blockers: N_('Combat: blockers'),
  sharing: N_('Combat: damage'),
  prep2: N_('Second preparation'),
  end: N_('End of the turn'),
};
const STEPS = ['start', 'refill', 'draw', 'prep1', 'attackers', 'prep2', 'end'];
const KINDS = {
  character: N_('Character'),
  action: N_('Action'),
  event: N_('Event'),
  terrain: N_('Terrain'),
  powerup: N_('Power-up'),
};
const RULES = {
  when: N_('the phase'),
  one_character: N_('one Character per turn'),
  coins: N_('the coins'),
  once_per_turn: N_('one use of an ability per turn'),
  own_card: N_('only your own cards'),
  own_sacrifice: N_('sacrifice only your own cards'),
  no_debt: N_('no coins below 0'),
  one_star: N_('one Super Star per turn'),
  first_global_turn: N_('no attack in the first global turn'),
};
const PLACES = { graveyard: N_('to the graveyard'), removed: N_('out of the game'), hand: N_('back to the hand') };

let override = false;  // "a card allows it": the next action may break a rule of the book
// A new view redraws the screen: what the player was typing and which folds were open survive it.
let draft = {};
const openFolds = new Set();

const nameOf = (game, seat) => game.names[String(seat)] ?? `#${seat}`;
const counters = (game, seat) => game.players[String(seat)];
const can = (game, type) => game.legal.some((action) => action.type === type);

const signed = (number) => (number > 0 ? `+${number}` : String(number));

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
    case 'hero_rule': return t('Hero rule: every %(card)s leaves the game.', { card: event.name });
    case 'ability': return t('%(name)s uses ability %(ability)s of %(card)s.', { name: who, ability: event.ability, card: event.name });
    case 'star': return t('%(name)s buys a Super Star (%(stars)s of 3).', { name: who, stars: event.stars });
    case 'changed': return t('%(card)s: PC %(pc)s/%(max)s, PF %(pf)s (base %(base)s).', { card: event.name, pc: event.now.pc, max: event.now.max_pc, pf: event.now.pf, base: event.now.base_pf });
    case 'ko': return t('%(card)s is KO.', { card: event.name });
    case 'coins': return t('%(name)s: %(delta)s coins (now %(now)s).', { name: nameOf(game, event.of), delta: signed(event.delta), now: event.now });
    case 'sacrificed': return t('%(name)s sacrifices %(card)s.', { name: who, card: event.name });
    case 'left_play': return t('%(card)s leaves play, %(place)s.', { card: event.name, place: t(PLACES[event.to]) });
    case 'attack': return t('%(name)s attacks!', { name: who });
    case 'blocks': return t('%(name)s declares the blockers.', { name: who });
    case 'combat': return t('Combat: %(won)s coins won, %(lost)s coins lost.', { won: event.coins_won, lost: event.coins_lost });
    case 'override': return t('%(name)s: a card allows it (%(rules)s).', { name: who, rules: event.rules.map((rule) => t(RULES[rule] ?? rule)).join(', ') });
    case 'deck_checked': return tn('%(name)s\'s deck list is checked: %(count)s card.', '%(name)s\'s deck list is checked: %(count)s cards.', event.cards, { name: who });
    case 'deck_counted': return tn('%(name)s counts %(count)s card in the deck.', '%(name)s counts %(count)s cards in the deck.', event.deck, { name: who });
    case 'forfeit': return t('%(name)s leaves the duel.', { name: who });
    default: return event.type;
  }
}

// --- parts of the screen --------------------------------------------------------
function side(game, seat, me) {
  const mine = counters(game, seat);
  return el('section', { class: `uv-side${game.active === seat ? ' active' : ''}` },
    el('h3', { text: seat === me ? t('You') : nameOf(game, seat) }),
    el('p', { class: 'uv-counters' },
      el('span', { class: 'uv-coins', text: t('%(coins)s coins', { coins: mine.coins }) }),
      el('span', { class: 'uv-stars', text: `${'★'.repeat(mine.stars)}${'☆'.repeat(Math.max(0, 3 - mine.stars))}` }),
      el('span', { text: t('Deck: %(deck)s', { deck: mine.deck }) })),
    el('p', { class: 'uv-small', text: t('Graveyard: %(count)s', { count: mine.graveyard.length }) }));
}

function phaseLine(game) {
  return el('ol', { class: 'uv-phases', 'aria-label': t('Phases of the turn') },
    ...STEPS.map((step) => el('li', { class: game.phase === step || (step === 'attackers' && ['blockers', 'sharing'].includes(game.phase)) ? 'current' : '', text: t(PHASES[step]) })));
}

function cardTile(game, card, me, act) {
  const stats = card.kind === 'character'
    ? el('p', { class: 'uv-stats' },
      el('span', { text: t('PC %(pc)s/%(max)s', { pc: card.pc, max: card.max_pc }) }),
      el('span', { text: t('PF %(pf)s (base %(base)s)', { pf: card.pf, base: card.base_pf }) }))
    : el('p', { class: 'uv-small', text: t(KINDS[card.kind]) });
  const controls = act ? cardControls(game, card, me, act) : null;
  return el('li', { class: `uv-card${card.hero ? ' hero' : ''}` },
    el('strong', { text: card.name }), stats, controls);
}

function cardControls(game, card, me, act) {
  const legal = (type) => game.legal.some((a) => a.type === type && a.card === card.id);
  const buttons = [];
  if (card.kind === 'character') {
    buttons.push(button(t('−1 PC'), () => act({ type: 'change', card: card.id, pc: -1 })),
      button(t('+1 PC'), () => act({ type: 'change', card: card.id, pc: 1 })),
      button(t('−1 PF'), () => act({ type: 'change', card: card.id, pf: -1 })),
      button(t('+1 PF'), () => act({ type: 'change', card: card.id, pf: 1 })));
  }
  if (legal('ability') || override) {
    for (const ability of [1, 2]) {
      buttons.push(button(t('Ability %(n)s', { n: ability }), () => act({ type: 'ability', card: card.id, ability }),
        card.used.includes(ability) ? 'used' : ''));
    }
  }
  if (card.controller === me) buttons.push(button(t('Sacrifice'), () => act({ type: 'sacrifice', card: card.id })));
  buttons.push(button(t('To the graveyard'), () => act({ type: 'leave', card: card.id, to: 'graveyard' })));
  return el('div', { class: 'uv-card-controls' }, ...buttons);
}

function inPlay(game, seat, me, act) {
  const cards = game.in_play.filter((card) => card.controller === seat);
  if (!cards.length) return el('p', { class: 'uv-small', text: t('No card in play.') });
  return el('ul', { class: 'uv-cards' }, ...cards.map((card) => cardTile(game, card, me, act)));
}

function numberField(name, label, value, min = 0) {
  return el('label', { class: 'uv-field' }, label,
    el('input', { name, type: 'number', inputmode: 'numeric', min, max: 999, value, required: true }));
}

function playForm(game, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const kind = el('select', { name: 'kind' }, ...Object.entries(KINDS).map(([value, label]) => el('option', { value, text: t(label) })));
  const characterFields = el('div', { class: 'uv-character-fields' },
    numberField('pf', t('PF'), 1), numberField('pc', t('PC (max)'), 3, 1),
    el('label', { class: 'uv-field' }, t('Types (comma-separated)'), el('input', { name: 'types', maxlength: 120 })),
    el('label', { class: 'uv-check' }, el('input', { type: 'checkbox', name: 'hero' }), el('span', { text: t('Hero') })));
  const showFields = () => { characterFields.hidden = kind.value !== 'character'; };
  kind.addEventListener('change', showFields);
  const form = el('form', { class: 'uv-play' },
    el('label', { class: 'uv-field' }, t('Kind'), kind),
    el('label', { class: 'uv-field' }, t('Name, as printed'), el('input', { name: 'name', required: true, maxlength: 40 })),
    numberField('cost', t('Cost (coins)'), 0),
    characterFields,
    el('label', { class: 'uv-check' }, el('input', { type: 'checkbox', name: 'free' }), el('span', { text: t('Put into play (free: a card says so)') })),
    el('button', { type: 'submit', class: 'primary', text: t('Play') }), error);
  for (const [name, value] of Object.entries(draft)) {
    const field = form.elements.namedItem(name);
    if (field?.type === 'checkbox') field.checked = value === 'on';
    else if (field) field.value = value;
  }
  showFields();
  form.addEventListener('input', () => {
    draft = Object.fromEntries(new FormData(form));
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const card = { kind: data.get('kind'), name: data.get('name'), cost: Number(data.get('cost')) };
    if (card.kind === 'character') {
      Object.assign(card, { pf: Number(data.get('pf')), pc: Number(data.get('pc')),
        types: String(data.get('types') || '').split(',').map((word) => word.trim()).filter(Boolean),
        hero: data.get('hero') === 'on' });
    }
    const answer = await act({ type: 'play', card, free: data.get('free') === 'on' }, error);
    if (answer?.ok) { draft = {}; form.reset(); showFields(); }
  });
  return form;
}

function attackForm(game, me, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const mine = game.in_play.filter((card) => card.kind === 'character' && card.controller === me);
  const boxes = mine.map((card) => el('label', { class: 'uv-check' },
    el('input', { type: 'checkbox', value: card.id }), el('span', { text: t('%(card)s (PF %(pf)s)', { card: card.name, pf: card.pf }) })));
  return el('div', { class: 'uv-combat' },
    el('h3', { text: t('Who attacks?') }), ...boxes,
    button(t('Attack!'), () => {
      const attackers = boxes.map((box) => box.querySelector('input')).filter((input) => input.checked).map((input) => Number(input.value));
      act({ type: 'attack', attackers }, error);
    }, 'primary'),
    button(t('No attack this turn'), () => act({ type: 'next' }, error)), error);
}

function blockForm(game, me, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const attackers = game.combat.attackers.map((id) => game.in_play.find((card) => card.id === id)).filter(Boolean);
  const mine = game.in_play.filter((card) => card.kind === 'character' && card.controller === me);
  const selects = mine.map((card) => el('label', { class: 'uv-field' }, t('%(card)s blocks', { card: card.name }),
    el('select', { 'data-blocker': card.id }, el('option', { value: '', text: t('nobody') }),
      ...attackers.map((attacker) => el('option', { value: attacker.id, text: t('%(card)s (PF %(pf)s)', { card: attacker.name, pf: attacker.pf }) })))));
  return el('div', { class: 'uv-combat' },
    el('h3', { text: t('You are attacked! Choose your blockers.') }),
    el('p', { text: t('Attackers: %(names)s', { names: attackers.map((card) => `${card.name} (PF ${card.pf})`).join(', ') }) }),
    ...selects,
    button(t('Confirm the blocks'), () => {
      const blocks = {};
      for (const label of selects) {
        const select = label.querySelector('select');
        if (select.value) blocks[select.dataset.blocker] = Number(select.value);
      }
      act({ type: 'block', blocks }, error);
    }, 'primary'), error);
}

function shareForm(game, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const groups = [];
  for (const attackerId of game.combat.attackers) {
    const blockers = Object.entries(game.combat.blocks).filter(([, target]) => target === attackerId).map(([id]) => Number(id));
    const attacker = game.in_play.find((card) => card.id === attackerId);
    if (!attacker || blockers.length < 2) continue;
    const inputs = blockers.map((id, index) => numberField(String(id),
      game.in_play.find((card) => card.id === id)?.name ?? `#${id}`, index === 0 ? attacker.pf : 0));
    groups.push({ attacker, inputs });
  }
  return el('div', { class: 'uv-combat' },
    el('h3', { text: t('Share each attacker\'s PF among its blockers') }),
    ...groups.flatMap(({ attacker, inputs }) => [el('p', { text: t('%(card)s: %(pf)s PF to share', { card: attacker.name, pf: attacker.pf }) }), ...inputs]),
    button(t('Deal the damage'), () => {
      const shares = {};
      for (const { attacker, inputs } of groups) {
        shares[attacker.id] = Object.fromEntries(inputs.map((label) => {
          const input = label.querySelector('input');
          return [input.name, Number(input.value)];
        }));
      }
      act({ type: 'share', shares }, error);
    }, 'primary'), error);
}

function coinControls(game, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const rows = game.order.map((seat) => el('div', { class: 'uv-coin-row' },
    el('span', { text: t('%(name)s\'s coins', { name: nameOf(game, seat) }) }),
    button('−1', () => act({ type: 'coins', seat, delta: -1 }, error)),
    button('+1', () => act({ type: 'coins', seat, delta: 1 }, error)),
    button('+5', () => act({ type: 'coins', seat, delta: 5 }, error))));
  return el('div', { class: 'uv-coins-box' }, ...rows, error);
}

function deckControls(game, me, act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const list = el('textarea', { rows: 4, maxlength: 8000, placeholder: t('One card name per line') });
  const count = el('input', { type: 'number', min: 0, max: 200, value: counters(game, me).deck, inputmode: 'numeric' });
  return el('details', { class: 'uv-deck uv-fold' }, el('summary', { text: t('My deck') }),
    game.deck_list ? el('p', { text: tn('Deck list checked: %(count)s card.', 'Deck list checked: %(count)s cards.', game.deck_list.length) }) : null,
    el('label', { class: 'uv-field' }, t('Deck list (at most 4 cards of the same name)'), list),
    button(t('Check my deck list'), () => act({ type: 'deck_list', names: list.value.split('\n').map((line) => line.trim()).filter(Boolean) }, error)),
    el('label', { class: 'uv-field' }, t('Cards left in the deck'), count),
    button(t('Correct the count'), () => act({ type: 'deck_count', count: Number(count.value) }, error)),
    button(t('Draw a card (a card\'s effect)'), () => act({ type: 'draw' }, error)), error);
}

function prompt(game, me) {
  if (game.outcome) {
    const winner = game.outcome.winners.map((seat) => nameOf(game, seat)).join(', ');
    return t('%(name)s wins the duel!', { name: winner });
  }
  const wait = game.waiting[0];
  if (!wait) return '';
  if (wait.seat === me) return game.phase === 'blockers' ? t('You are attacked: declare your blockers.') : t('Your turn: %(phase)s.', { phase: t(PHASES[game.phase]) });
  return t('Waiting for %(name)s: %(phase)s.', { name: nameOf(game, wait.seat), phase: t(PHASES[game.phase]) });
}

// --- the screen -------------------------------------------------------------------
export function renderUniversalis(container, view, { act = null } = {}) {
  const game = view.game;
  const me = view.you.role === 'seat' ? view.you.seat : null;
  // Every action carries the override when "a card allows it" is on; errors show next to their control.
  const send = act && me !== null && (async (action, errorNode = null) => {
    const answer = await act(override ? { ...action, override: true } : action);
    if (answer?.ok) override = false;
    if (errorNode) showError(errorNode, answer?.ok ? '' : answer?.error);
    return answer;
  });
  const opponent = game.order.find((seat) => seat !== me);
  const top = me !== null ? [side(game, me, me), side(game, opponent, me)] : game.order.map((seat) => side(game, seat, me));
  const parts = [
    el('p', { class: `uv-prompt${game.waiting[0]?.seat === me ? ' mine' : ''}`, text: prompt(game, me) }),
    el('p', { class: 'uv-small', text: t('Turn %(turn)s — global turn %(global)s', { turn: game.turn, global: game.global_turn }) }),
    phaseLine(game),
    el('div', { class: 'uv-sides' }, ...top),
  ];
  const playing = send && !game.outcome;
  if (playing) parts.push(mainControls(game, me, send));
  parts.push(el('div', { class: 'uv-boards' }, ...(me !== null ? [me, opponent] : game.order).map((seat) => el('section', {},
    el('h3', { text: t('In play: %(name)s', { name: seat === me ? t('you') : nameOf(game, seat) }) }),
    inPlay(game, seat, me, playing ? send : null)))));
  if (playing) parts.push(...moreControls(game, me, send));
  if (game.history.length) {  // no heading over nothing before the first event
    parts.push(el('h3', { text: t('History') }),
      el('ol', { class: 'uv-history', reversed: true, tabindex: '0' }, ...game.history.slice().reverse().map((event) => el('li', { text: eventText(game, event) }))));
  }
  container.replaceChildren(el('div', { class: 'universalis-game' }, ...parts));
}

// The one thing to do now (next phase, the combat's declarations, a Super Star).
function mainControls(game, me, send) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const main = [];
  if (game.phase === 'attackers' && game.active === me && can(game, 'next')) main.push(attackForm(game, me, send));
  else if (game.phase === 'blockers' && can(game, 'block')) main.push(blockForm(game, me, send));
  else if (game.phase === 'sharing' && can(game, 'share')) main.push(shareForm(game, send));
  else if (can(game, 'next')) main.push(button(t('Next phase: %(phase)s', { phase: t(PHASES[nextStep(game.phase)]) }), () => send({ type: 'next' }, error), 'primary big'));
  if (can(game, 'star') || (override && game.active === me)) main.push(button(t('Buy a Super Star (20 coins)'), () => send({ type: 'star' }, error)));
  return el('div', { class: 'uv-main' }, ...main, error);
}

// What cards on the table make happen: folded away until needed.
function moreControls(game, me, send) {
  const fold = (title, open, ...content) => {
    const details = el('details', { class: 'uv-fold', open: open || openFolds.has(title) }, el('summary', { text: title }), ...content);
    details.addEventListener('toggle', () => { if (details.open) openFolds.add(title); else openFolds.delete(title); });
    return details;
  };
  return [
    fold(t('Play a card'), can(game, 'play'), playForm(game, send)),
    el('label', { class: 'uv-check uv-override' },
      el('input', { type: 'checkbox', checked: override, onchange: (event) => { override = event.target.checked; } }),
      el('span', { text: t('A card allows it (override a rule for the next action)') })),
    fold(t('Coins (a card\'s effect)'), false, coinControls(game, send)),
    deckControls(game, me, send),
  ];
}

function nextStep(phase) {
  if (phase === 'end') return 'start';
  const index = STEPS.indexOf(phase);
  return STEPS[Math.min(index + 1, STEPS.length - 1)];
}
