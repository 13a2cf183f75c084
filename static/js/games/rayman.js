// Rayman: each phone keeps its player's secret choice, turn, tokens and (optionally) position;
// the host screen shows the table's public picture and answers the table's questions.
import { t } from '../i18n.js';
import { bytesToHex, sha256, utf8 } from '../sha256.js';
import { button, el, reducedMotion, seatColour } from '../ui.js';

// Proper names from the box: the same in every language.
const CHARACTERS = ['Rayman', 'Globox', 'Barbara', 'Grand Minimus'];
const LEGENDARY = { esquiveur: 'Esquiveur', vagabond: 'Vagabond', fracasseur: 'Fracasseur', sprinteur: 'Sprinteur',
  filou: 'Filou', grimpeur: 'Grimpeur' };
const BOARDS = { jungle: 'Jungle', foret: 'Forêt', fiesta: 'Fiesta de los Muertos', enfer: 'Enfer' };
const PROJECTILES = { missile: 'Missile', fourchette: 'Fourchette', feu_artifice: "Feu d'artifice",
  fantome_rouge: 'Fantôme Rouge', bombe_volante: 'Bombe Volante' };
const BOSSES = { crapaud_blinde: 'Crapaud blindé', ptizetre_malefique: 'Ptizêtre maléfique',
  seabreather: 'Seabreather', grundermord: 'Grundermord' };
const LAST_COLUMN = 43;
const MAX_BONUS = 4;
const RACE_PHASES = ['round_start', 'choosing', 'turns', 'round_end', 'finish'];
const STEPS = [['up', '↑'], ['back', '←'], ['forward', '→'], ['down', '↓']];
// Events that the history shows but nobody needs to hear (or that come by the dozen).
const QUIET = new Set(['moved', 'position_forgotten', 'hand_entered', 'answered', 'choosing', 'round_started',
  'locked', 'turn_ended', 'standings']);
const UNLISTED = new Set(['moved', 'position_forgotten', 'choosing']);
// The end of a round, as the history tells it (from the last turn to the next round).
const ROUND_END_EVENTS = new Set(['projectile_moved', 'projectile_removed', 'projectile_hit', 'projectile_card_effect',
  'boss_moved', 'boss_hit', 'boss_attack', 'boss_finished', 'free_move', 'immune', 'heart_lost', 'damaged',
  'bubble_mode', 'random_discards', 'answered', 'moved', 'crossed']);

let lastView = null;
let target = null;
let context = {};
let seenHistory = null;  // history_count already announced (null: first view, announce nothing)
let buzzedTurn = null;  // the turn this phone already vibrated for
const observed = new Map();  // race:round:seat -> the commitment this screen saw before the reveal
const kept = {};  // what the player typed, by input key: a new view redraws the screen, not the typing
const openDetails = new Set();  // folded sections the player opened
let pick = { key: null, left: null, second: null };  // the cards tapped for this round's secret choice
let ordering = { key: null, seats: [] };  // host: players named in order (last places, ranking)
let dropping = { key: null, cards: new Set() };  // tournament exchange: the cards to give back
let localError = '';
let rolledNow = new Set();  // dice rolled since the previous view: they roll on screen once

// --- reading the view ------------------------------------------------------------------

const legal = (game) => game.actions || [];
const matches = (action, fields) => Object.entries(fields).every(([key, value]) => action[key] === value);
const can = (game, type, fields = {}) => legal(game).some((action) => action.type === type && matches(action, fields));
const allOf = (game, type) => legal(game).filter((action) => action.type === type);
const playerOf = (game, seat) => game.players.find((player) => player.seat === seat);
const roundKey = (game, seat) => `${game.race.number}:${game.round?.number}:${seat}`;

function nameOf(game, seat) {
  if (seat === null || seat === undefined) return t('rm_nobody');
  const player = playerOf(game, seat);
  if (!player) return `#${seat}`;
  if (!player.character || player.character === player.name) return player.name;
  return `${player.character} (${player.name})`;
}

const namesOf = (game, seats) => seats.map((seat) => nameOf(game, seat)).join(', ');
const numbers = (cards) => cards.map((number) => `n°${number}`).join(', ');

function cardName(card) {
  return card.extra ? t('rm_extra_card', { number: card.extra }) : t('rm_base_card', { number: card.id.slice(1) });
}

function cardChip(initiative, caption = '', extra = '') {
  if ((initiative === null || initiative === undefined) && caption) {  // quick entry: the cards have no number here
    return el('span', { class: `rm-card ${extra}`.trim() }, el('strong', { class: 'rm-card-name', text: caption }));
  }
  return el('span', { class: `rm-card ${extra}`.trim() },
    el('strong', { class: 'rm-initiative', text: initiative === null || initiative === undefined ? '?' : String(initiative) }),
    caption ? el('small', { text: caption }) : null);
}

function cardsOf(me, ids) {
  return (ids || []).map((id) => me.cards.find((card) => card.id === id)).filter(Boolean)
    .sort((a, b) => (b.initiative ?? -1) - (a.initiative ?? -1));
}

function swatch(seat) {
  const node = el('span', { class: 'swatch' });
  node.style.background = seatColour(lastView, seat);
  return node;
}

// --- commitments, checked here ------------------------------------------------------------

// Python's json.dumps(sort_keys=True, separators=(",", ":")): it escapes everything outside printable ASCII.
const jsonString = (text) => JSON.stringify(text)
  .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${jsonString(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return typeof value === 'string' ? jsonString(value) : JSON.stringify(value);
}

const commitmentOf = (choice, salt) => bytesToHex(sha256(utf8(canonicalJson(choice) + salt)));

function observe(game) {
  if (game.phase !== 'choosing') return;
  for (const player of game.players) {
    if (player.locked && player.commitment) observed.set(roundKey(game, player.seat), player.commitment);
  }
}

// A revealed choice must hash to its commitment, and that commitment must be the one this screen saw
// before the reveal (a screen opened after the reveal can only check the hash).
function verification(game, entry) {
  const before = observed.get(roundKey(game, entry.seat));
  const hashOk = commitmentOf(entry.choice, entry.salt) === entry.commitment;
  const changed = before !== undefined && before !== entry.commitment;
  return { ok: hashOk && !changed, changed };
}

// --- what happened ----------------------------------------------------------------------------

const causeText = (cause) => t(`rm_cause_${cause}`);

function eventText(event, game) {
  const name = nameOf(game, event.seat);
  switch (event.type) {
    case 'character_chosen':
      return t('rm_ev_character', { name: playerOf(game, event.seat)?.name ?? name, character: event.character });
    case 'legendary_chosen': return t('rm_ev_legendary', { name, card: LEGENDARY[event.card] ?? event.card });
    case 'draft_revealed': return t('rm_ev_draft_revealed', { cards: numbers(event.cards), names: namesOf(game, event.order) });
    case 'picked': return t('rm_ev_picked', { name, number: event.card });
    case 'draft_discarded': return t('rm_ev_draft_discarded', { cards: numbers(event.cards) });
    case 'exchanged': return t('rm_ev_exchanged', { name, count: event.dropped.length });
    case 'hand_entered': return event.complete ? t('rm_ev_hand_entered', { name }) : null;
    case 'race_started': return t('rm_ev_race_started', { race: event.race, board: BOARDS[event.board] ?? event.board });
    case 'next_race': return t('rm_ev_next_race', { race: event.race, board: BOARDS[event.board] ?? event.board });
    case 'random_discards': return event.seat === game.you ? t('rm_ev_random_discards_mine')
      : t('rm_ev_random_discards', { name, count: event.count });
    case 'round_started': return t('rm_ev_round_started', { round: event.round });
    case 'projectile_roll': return t('rm_ev_projectile_roll', { die: event.die, level: event.level });
    case 'boss_roll': return t(event.entering ? 'rm_ev_boss_enters' : 'rm_ev_boss_roll', { die: event.die, level: event.level });
    case 'boss_card': return t('rm_ev_boss_card', { card: event.card });
    case 'projectile_spawned': return t('rm_ev_projectile_spawned', { id: event.id, column: event.column, level: event.level });
    case 'projectile_spawn_hit':
      return t('rm_ev_projectile_spawn_hit', { id: event.id, column: event.column, level: event.level, name });
    case 'choosing': return t('rm_ev_choosing', { round: event.round });
    case 'locked': return t('rm_ev_locked', { name });
    case 'revealed': return t('rm_ev_revealed', { order: namesOf(game, event.order) || '—' });
    case 'bubble': return t(event.lost_heart ? 'rm_ev_bubble_heart' : 'rm_ev_bubble', { name });
    case 'turn_started': return t('rm_ev_turn_started', { name });
    case 'turn_ended': return t('rm_ev_turn_ended', { name });
    case 'heart': return t(event.gained ? 'rm_ev_heart' : 'rm_ev_heart_kept', { name });
    case 'heart_given': return t('rm_ev_heart_given', { name, other: nameOf(game, event.to) });
    case 'heart_spent': return t('rm_ev_heart_spent', { name });
    case 'projectile_hit': return t('rm_ev_projectile_hit', { id: event.id, name });
    case 'immune': return t('rm_ev_immune', { name, cause: causeText(event.cause) });
    case 'heart_lost': return t('rm_ev_heart_lost', { name, cause: causeText(event.cause) });
    case 'damaged': return t('rm_ev_damaged', { name, cause: causeText(event.cause), count: event.back });
    case 'bubble_mode': return t(event.on ? 'rm_ev_bubble_mode_on' : 'rm_ev_bubble_mode_off', { name });
    case 'slapped': return t('rm_ev_slapped', { name, other: nameOf(game, event.target) });
    case 'ptizetre_freed': return t('rm_ev_ptizetre', { name, number: event.ptizetre, count: event.count });
    case 'bonus_gained': return t(event.fifth ? 'rm_ev_bonus_fifth' : 'rm_ev_bonus', { name, count: event.count });
    case 'bonus_used': return t('rm_ev_bonus_used', { name, count: event.count });
    case 'bonus_discarded': return t('rm_ev_bonus_discarded', { name });
    case 'bonus_given': return t('rm_ev_bonus_given', { name, other: nameOf(game, event.to) });
    case 'legendary_used': return t('rm_ev_legendary_used', { name, card: LEGENDARY[event.card] ?? event.card });
    case 'crossed': return t('rm_ev_crossed', { name });
    case 'final_round': return t('rm_ev_final_round');
    case 'moved': return t('rm_ev_moved', { name, column: event.column, level: event.level });
    case 'position_forgotten': return null;
    case 'projectile_moved': return t('rm_ev_projectile_moved', { id: event.id, column: event.column, level: event.level });
    case 'projectile_removed': return t('rm_ev_projectile_removed', { id: event.id });
    case 'projectile_card_effect':
      return t('rm_ev_card_effect', { line: event.line, card: PROJECTILES[event.card] ?? event.card });
    case 'boss_moved': return t('rm_ev_boss_moved', { column: event.column, level: event.level });
    case 'boss_hit': return t('rm_ev_boss_hit', { name });
    case 'boss_attack': return t('rm_ev_boss_attack', { card: event.card });
    case 'boss_finished': return t('rm_ev_boss_finished');
    case 'free_move': return t('rm_ev_free_move', { names: namesOf(game, event.seats) });
    case 'round_ended': return t('rm_ev_round_ended', { round: event.round });
    case 'race_ending': return t('rm_ev_race_ending');
    case 'race_over': return event.boss_won && !event.winners.length ? t('rm_ev_boss_won')
      : t('rm_ev_race_over', { race: event.race, names: namesOf(game, event.winners) });
    case 'standings': return t('rm_ev_standings');
    case 'distance': return t('rm_ev_distance', { name, count: event.spaces });
    case 'answered': return t('rm_ev_answered');
    case 'game_over':
      if (event.won !== undefined) return t(event.won ? 'rm_coop_won' : `rm_coop_lost_${event.reason}`);
      if (event.winners) return t('rm_ev_tournament_won', { names: namesOf(game, event.winners) });
      return t('rm_ev_game_over');
    default: return null;
  }
}

function freshEvents(game) {
  const count = game.history_count ?? 0;
  if (seenHistory === null || count <= seenHistory) return [];
  return game.history.slice(-Math.min(count - seenHistory, game.history.length));
}

function announceNew(game, announce) {
  const fresh = freshEvents(game).filter((event) => !QUIET.has(event.type));
  const texts = fresh.map((event) => eventText(event, game)).filter(Boolean);
  if (texts.length) announce?.(texts.join(' — '));
  seenHistory = game.history_count ?? 0;
}

function buzzOnMyTurn(game) {
  if (game.phase !== 'turns' || game.you === null || game.active !== game.you) return;
  const key = `${game.race.number}:${game.round.number}:${game.round.turn}`;
  if (buzzedTurn === key) return;
  buzzedTurn = key;
  if (typeof navigator.vibrate === 'function') navigator.vibrate([200, 100, 200]);
}

// The events from the last turn of a round to the start of the next (what the round's end did).
function roundEndSummary(game) {
  const history = game.history || [];
  if (!game.round) return null;
  let end = history.length;
  let round = game.round.number;
  if (game.phase !== 'round_end') {
    end = history.map((event) => event.type).lastIndexOf('round_ended');
    if (end < 0) return null;
    round = history[end].round;
    const next = ['round_start', 'choosing'].includes(game.phase) && game.round.number === round + 1;
    const last = ['finish', 'race_over', 'game_over'].includes(game.phase) && game.round.number === round;
    if (!next && !last) return null;
  }
  const events = [];
  for (let index = end - 1; index >= 0 && ROUND_END_EVENTS.has(history[index].type); index -= 1) events.unshift(history[index]);
  return { round, events: events.filter((event) => event.type !== 'moved' && event.type !== 'answered') };
}

// --- inputs that survive a redraw ----------------------------------------------------------------

function keptInput(key, attributes) {
  return el('input', { ...attributes, 'data-keep': key, value: kept[key] ?? attributes.value ?? '',
    oninput: (event) => { kept[key] = event.target.value; } });
}

function folded(key, summary, ...children) {
  return el('details', { class: `rm-fold rm-${key}`, open: openDetails.has(key),
    ontoggle: (event) => { if (event.target.open) openDetails.add(key); else openDetails.delete(key); } },
  el('summary', { text: summary }), ...children);
}

function numberInput(key, label, low, high, value = '') {
  return el('label', { class: 'rm-number' }, label,
    keptInput(key, { type: 'number', min: String(low), max: String(high), inputmode: 'numeric', value: String(value) }));
}

const readInt = (key) => {
  const text = (kept[key] ?? '').toString().trim();
  return /^\d+$/.test(text) ? Number(text) : null;
};

async function send(action) {
  const answer = await context.act(action);
  return answer?.ok;
}

// --- setup phases ------------------------------------------------------------------------------

function characterPanel(game, me) {
  const taken = new Set(game.players.filter((p) => p !== me && p.character).map((p) => p.character.toLowerCase()));
  const parts = [el('h3', { text: t('rm_pick_character') })];
  if (me.character) parts.push(el('p', { class: 'rm-done', text: t('rm_you_race_as', { character: me.character }) }));
  parts.push(el('div', { class: 'rm-choices' }, ...CHARACTERS.map((name) => el('button', {
    type: 'button', class: me.character === name ? 'picked' : '', 'aria-pressed': String(me.character === name),
    disabled: taken.has(name.toLowerCase()), text: name, onclick: () => send({ type: 'character', name }) }))));
  parts.push(el('form', { class: 'inline rm-free-name', onsubmit: (event) => {
    event.preventDefault();
    if ((kept.free_name ?? '').trim()) send({ type: 'character', name: kept.free_name.trim() });
  } }, el('label', {}, t('rm_free_name'), keptInput('free_name', { maxlength: '24', autocomplete: 'off' })),
  el('button', { type: 'submit', text: t('rm_choose') })));
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

function legendaryPanel(game, me) {
  const taken = new Set(game.players.filter((p) => p !== me && p.legendary).map((p) => p.legendary));
  return el('section', { class: 'rm-panel rm-setup' }, el('h3', { text: t('rm_pick_legendary') }),
    me.legendary ? el('p', { class: 'rm-done', text: t('rm_your_legendary', { card: LEGENDARY[me.legendary] }) }) : null,
    el('div', { class: 'rm-legendary' }, ...Object.entries(LEGENDARY).map(([id, label]) => el('button', {
      type: 'button', class: me.legendary === id ? 'picked' : '', 'aria-pressed': String(me.legendary === id),
      disabled: taken.has(id), onclick: () => send({ type: 'pick_legendary', card: id }) },
    el('strong', { text: label }), el('small', { text: t(`rm_legend_${id}`) })))));
}

function draftPanel(game, me) {
  const draft = game.draft;
  const parts = [el('h3', { text: t('rm_draft') }),
    el('p', { class: 'muted', text: t(game.config.mode === 'solo' ? 'rm_draft_solo' : 'rm_draft_rules') })];
  if (draft.table.length) {
    const picker = draft.order[draft.turn];
    parts.push(el('p', { class: 'rm-draft-round', text: t('rm_draft_round', { round: draft.round }) }),
      el('ol', { class: 'rm-draft-order' }, ...draft.order.map((seat, index) => el('li', {
        class: index < draft.turn ? 'done' : index === draft.turn ? 'current' : '', text: nameOf(game, seat) }))));
    const mine = me && picker === me.seat && can(game, 'pick');
    if (!mine) parts.push(el('p', { class: 'rm-status-line', text: t('rm_pick_of', { name: nameOf(game, picker) }) }));
    parts.push(el('div', { class: 'rm-choices rm-draft-table' }, ...draft.table.map((number) => mine
      ? button(t('rm_take_extra', { number }), () => send({ type: 'pick', card: number }), 'primary')
      : el('span', { class: 'rm-chip', text: t('rm_extra_card', { number }) }))));
  }
  if (me) {
    const extras = me.cards.filter((card) => card.extra);
    if (extras.length) parts.push(el('p', { text: `${t('rm_your_extras')}: ${extras.map(cardName).join(', ')}` }));
  }
  if (draft.discarded.length) {
    parts.push(el('p', { class: 'muted', text: t('rm_ev_draft_discarded', { cards: numbers(draft.discarded) }) }));
  }
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

function exchangePanel(game, me) {
  const count = Math.max(0, me.cards.length - 10);
  const parts = [el('h3', { text: t('rm_exchange') })];
  if (!count) {
    return el('section', { class: 'rm-panel rm-setup' }, ...parts, el('p', { class: 'rm-done', text: t('rm_exchange_done') }));
  }
  const key = `${game.race.number}`;
  if (dropping.key !== key) dropping = { key, cards: new Set() };
  parts.push(el('p', { text: t('rm_exchange_hint', { count }) }),
    el('div', { class: 'rm-choices' }, ...me.cards.map((card) => el('button', {
      type: 'button', class: dropping.cards.has(card.id) ? 'picked' : '', 'aria-pressed': String(dropping.cards.has(card.id)),
      onclick: () => {
        if (dropping.cards.has(card.id)) dropping.cards.delete(card.id); else dropping.cards.add(card.id);
        render();
      } },
    cardChip(card.initiative, cardName(card))))),
    button(t('rm_give_back', { count }), () => send({ type: 'exchange', drop: [...dropping.cards] }), 'primary big'));
  parts.at(-1).disabled = dropping.cards.size !== count;
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

function handPanel(game, me) {
  const complete = me.cards.every((card) => card.initiative !== null);
  const form = el('form', { class: 'rm-hand-form', onsubmit: (event) => {
    event.preventDefault();
    const initiatives = {};
    for (const card of me.cards) {
      const value = readInt(`hand:${card.id}`);
      if (value === null || value > 99) { localError = t('rm_hand_incomplete'); render(); return; }
      initiatives[card.id] = value;
    }
    localError = '';
    send({ type: 'hand', initiatives });
  } }, el('div', { class: 'rm-hand-grid' }, ...me.cards.map((card) => {
    if (kept[`hand:${card.id}`] === undefined && card.initiative !== null) kept[`hand:${card.id}`] = String(card.initiative);
    return numberInput(`hand:${card.id}`, cardName(card), 0, 99);
  })), el('button', { type: 'submit', class: 'primary big', text: t(complete ? 'rm_hand_update' : 'rm_hand_save') }));
  return el('section', { class: 'rm-panel rm-setup' }, el('h3', { text: t('rm_hand_entry') }),
    el('p', { text: t('rm_hand_hint', { count: me.cards.length }) }),
    complete ? el('p', { class: 'rm-done', text: t('rm_hand_saved') }) : null, form);
}

function waitingFor(game, done) {
  const waiting = game.players.filter((player) => !done(player)).map((player) => nameOf(game, player.seat));
  return waiting.length ? el('p', { class: 'muted rm-waiting', text: t('rm_waiting_for', { names: waiting.join(', ') }) }) : null;
}

// --- the start of a round: dice, projectile, Boss ------------------------------------------------

function thisRoundEvents(game) {
  const history = game.history || [];
  const start = history.map((event) => event.type).lastIndexOf('round_started');
  return start < 0 ? [] : history.slice(start + 1);
}

function rollPanel(game, me, isHost) {
  const round = game.round;
  const parts = [];
  const needsRoll = Boolean(game.config.projectile || game.boss);
  if (needsRoll && !round.rolled && game.phase === 'round_start') {
    const mine = context.act && can(game, 'roll');
    if (mine) {
      const label = isHost && game.roller !== null ? t('rm_roll_for', { name: nameOf(game, game.roller) }) : t('rm_roll');
      parts.push(button(label, () => send({ type: 'roll' }), 'primary big rm-roll'));
    }
    if (!mine || isHost) {
      parts.push(el('p', { class: 'rm-status-line', text: game.roller !== null && game.roller !== undefined
        ? t('rm_waiting_roll', { name: nameOf(game, game.roller) }) : t('rm_waiting_roll_any') }));
    }
  }
  if (round.die !== null) {
    const spawn = thisRoundEvents(game).find((event) => ['projectile_spawned', 'projectile_spawn_hit'].includes(event.type));
    parts.push(el('div', { class: 'rm-dice' }, dieFace(round.die, 'projectile_roll'),
      el('p', {}, el('strong', { text: t('rm_projectile_die', { level: round.spawn.level }) }), spawn ? el('br') : null,
        spawn ? t('rm_projectile_spawn', { id: spawn.id, column: spawn.column, level: spawn.level }) : null)));
  }
  if (round.card_line !== null) {
    const card = PROJECTILES[game.config.projectile];
    parts.push(el('p', { class: 'rm-card-line' }, t('rm_card_line', { card, line: round.card_line }),
      el('br'), el('small', { text: t('rm_card_line_hint') })));
  }
  if (round.boss_die !== null) {
    parts.push(el('div', { class: 'rm-dice' }, dieFace(round.boss_die, 'boss_roll', 'boss'),
      el('p', {}, el('strong', { text: t('rm_boss_die', { level: game.boss.level }) }), el('br'),
        t('rm_boss_attack_card', { card: game.boss.card }), el('br'), el('small', { text: t('rm_boss_card_hint') }))));
  }
  if (!parts.length) return null;
  return el('section', { class: 'rm-panel rm-round-start' },
    el('h3', { text: t('rm_round_dice', { round: round.number }) }), ...parts);
}

// A die face, rolling on screen once when the roll is new.
function dieFace(value, rolledBy, extra = '') {
  const rolling = !reducedMotion() && rolledNow.has(rolledBy);
  return el('span', { class: `die rm-die ${extra}${rolling ? ' rolling' : ''}`, text: String(value) });
}

// --- the secret choice ---------------------------------------------------------------------------

function choiceText(game, me, choice) {
  if (!choice) return t('rm_no_choice_yet');
  if (choice.bubble) return t('rm_choice_bubble');
  if (game.config.quick) return t('rm_choice_cards', { left: choice.left, second: choice.second });
  const [left, second] = [choice.left, choice.second].map((id) => me.cards.find((card) => card.id === id));
  const named = (card) => `${card.initiative} (${cardName(card)})`;
  return t('rm_choice_cards', { left: named(left), second: named(second) });
}

function lockState(game) {
  const choosers = game.players.filter((player) => !player.crossed);
  return el('ul', { class: 'rm-locks', 'aria-label': t('rm_locks') }, ...choosers.map((player) => el('li', {
    class: player.locked ? 'locked' : '' }, swatch(player.seat), nameOf(game, player.seat), ' — ',
  el('strong', { text: player.locked ? `✓ ${t('rm_locked_in')}` : t('rm_still_choosing') }))));
}

function choosingPanel(game, me) {
  const parts = [el('h3', { text: t('rm_secret_choice', { round: game.round.number }) })];
  if (me.crossed) {
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, el('p', { text: t('rm_finished_no_choice') }),
      lockState(game));
  }
  const choice = me.secret?.choice ?? null;
  if (me.locked) {
    parts.push(el('p', { class: 'rm-locked-mine', text: `✓ ${t('rm_you_locked_in')}` }),
      el('p', { text: choiceText(game, me, choice) }),
      el('p', { class: 'rm-commitment' }, t('rm_your_commitment'), ' ', el('code', { text: me.commitment })),
      el('p', { class: 'muted', text: t('rm_commitment_hint') }));
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, lockState(game));
  }
  const key = `${game.race.number}:${game.round.number}`;
  if (pick.key !== key) {  // a new round: start from the choice already made (after a reload), else from nothing
    const cards = choice && !choice.bubble;
    pick = { key, left: cards ? choice.left : null, second: cards ? choice.second : null };
    for (const side of ['left', 'second']) {
      if (cards) kept[`quick:${side}`] = String(choice[side]); else delete kept[`quick:${side}`];
    }
  }
  const mustBubble = me.hand.length < 2;
  const hint = mustBubble ? 'rm_must_bubble' : game.config.quick ? 'rm_choice_hint_quick' : 'rm_choice_hint';
  parts.push(el('p', { class: 'muted', text: t(hint) }));
  if (!mustBubble && game.config.quick) parts.push(quickChoice());
  else if (!mustBubble) parts.push(...cardChoice(me));
  const bubble = can(game, 'choose', { bubble: true });
  if (bubble) {
    parts.push(button(t('rm_declare_bubble'), () => { pick.left = pick.second = null; send({ type: 'choose', bubble: true }); },
      `rm-bubble${choice?.bubble ? ' picked' : ''}`));
  }
  parts.push(el('p', { class: 'rm-tentative', text: choiceText(game, me, choice) }));
  const lock = button(t('rm_lock_in'), lockIn, 'primary big rm-lock');
  lock.disabled = !choice && !game.config.quick;  // quick entry: the typed numbers are checked at the tap
  parts.push(lock, lockState(game));
  return el('section', { class: 'rm-panel rm-choice' }, ...parts);
}

function cardChoice(me) {
  const hand = cardsOf(me, me.hand);
  const tap = (side, id) => {
    pick[side] = pick[side] === id ? null : id;
    if (side === 'left' && pick.second === id) pick.second = null;
    if (pick.left && pick.second) send({ type: 'choose', left: pick.left, second: pick.second });
    render();
  };
  const row = (side, label, cards) => el('div', { class: `rm-pick-row rm-${side}`, role: 'group', 'aria-label': label },
    el('p', { class: 'rm-row-label', text: label }),
    el('div', { class: 'rm-cards' }, ...cards.map((card) => el('button', {
      type: 'button', class: `rm-card-button${pick[side] === card.id ? ' picked' : ''}`,
      'aria-pressed': String(pick[side] === card.id),
      'aria-label': t('rm_card_aria', { initiative: card.initiative, card: cardName(card) }),
      onclick: () => tap(side, card.id) }, cardChip(card.initiative, cardName(card))))));
  return [row('left', t('rm_left_card'), hand), row('second', t('rm_second_card'), hand.filter((card) => card.id !== pick.left))];
}

function quickChoice() {
  return el('div', { class: 'rm-quick' },
    numberInput('quick:left', t('rm_left_initiative'), 0, 99), numberInput('quick:second', t('rm_second_initiative'), 0, 99));
}

async function lockIn() {
  const game = lastView.game;
  const me = playerOf(game, game.you);
  const choice = me.secret?.choice ?? null;
  if (game.config.quick && !choice?.bubble) {
    const left = readInt('quick:left');
    const second = readInt('quick:second');
    if (left === null || second === null || left > 99 || second > 99) {
      localError = t('rm_quick_missing');
      render();
      return;
    }
    if (!choice || choice.left !== left || choice.second !== second) {
      if (!await send({ type: 'choose', left, second })) return;
    }
  } else if (!choice?.bubble && pick.left && pick.second) {
    const same = choice && choice.left === pick.left && choice.second === pick.second;
    if (!same && !await send({ type: 'choose', left: pick.left, second: pick.second })) return;
  }
  send({ type: 'lock' });
}

// --- the reveal and the order of play --------------------------------------------------------------

function revealPanel(game) {
  const round = game.round;
  if (!round || !round.revealed.length || !['turns', 'round_end', 'finish'].includes(game.phase)) return null;
  const checks = round.revealed.map((entry) => ({ entry, check: verification(game, entry) }));
  const allGood = checks.every(({ check }) => check.ok);
  const rows = checks.map(({ entry, check }) => el('li', { class: `rm-revealed${check.ok ? '' : ' bad'}` },
    swatch(entry.seat), el('span', { class: 'rm-who', text: nameOf(game, entry.seat) }),
    entry.choice.bubble ? el('span', { class: 'rm-chip rm-bubble-chip', text: t('rm_bubble') })
      : el('span', { class: 'rm-pair' }, cardChip(entry.left_initiative, t('rm_left')),
        cardChip(entry.second_initiative, t('rm_second'))),
    check.ok ? el('span', { class: 'rm-verified', title: entry.commitment, text: `✓ ${t('rm_verified')}` })
      : el('span', { class: 'rm-mismatch', text: `⚠ ${t(check.changed ? 'rm_check_changed' : 'rm_check_failed')}` })));
  return el('section', { class: 'rm-panel rm-reveal', 'aria-live': 'polite' },
    el('h3', { text: t('rm_reveal', { round: round.number }) }), el('ul', { class: 'rm-reveal-list' }, ...rows),
    el('p', { class: allGood ? 'rm-all-verified' : 'rm-warning',
      text: t(allGood ? 'rm_all_verified' : 'rm_verification_failed') }),
    orderOfPlay(game));
}

function orderOfPlay(game) {
  const round = game.round;
  const entries = Object.fromEntries(round.revealed.map((entry) => [entry.seat, entry]));
  const finished = game.phase !== 'turns';
  const items = round.order.map((seat, index) => {
    const state = finished || index < round.turn ? 'done' : index === round.turn ? 'current' : '';
    const entry = entries[seat];
    return el('li', { class: `rm-order-item ${state}`.trim(), 'aria-current': state === 'current' ? 'step' : null },
      swatch(seat), el('span', { class: 'rm-who', text: nameOf(game, seat) }),
      el('span', { class: 'rm-initiatives', text: `${entry.left_initiative} / ${entry.second_initiative}` }),
      state === 'current' ? el('strong', { class: 'rm-now', text: t('rm_playing_now') }) : null,
      state === 'done' ? el('span', { class: 'muted', text: `✓ ${t('rm_played')}` }) : null);
  });
  const bubbles = round.revealed.filter((entry) => entry.choice.bubble).map((entry) => entry.seat);
  return el('div', { class: 'rm-order' }, el('h4', { text: t('rm_order_of_play') }),
    items.length ? el('ol', {}, ...items) : el('p', { text: t('rm_nobody_plays') }),
    ...round.tie_rolls.map((tie) => el('p', { class: 'rm-tie', text: t('rm_tie_rolls', {
      rolls: tie.seats.map((seat, index) => `${nameOf(game, seat)} 🎲 ${tie.rolls[index]}`).join(', ') }) })),
    bubbles.length ? el('p', { class: 'rm-bubbles', text: t('rm_bubble_immune', { names: namesOf(game, bubbles) }) }) : null);
}

// --- turns ---------------------------------------------------------------------------------------

function turnPanel(game, me) {
  const mine = game.active === me.seat;
  const parts = [];
  if (me.bonus_pending) {
    parts.push(el('div', { class: 'rm-forced' }, el('p', { class: 'rm-warning', text: t('rm_fifth_bonus') }),
      button(t('rm_use_bonus'), () => send({ type: 'use_bonus' }), 'primary'),
      button(t('rm_discard_bonus'), () => send({ type: 'discard_bonus' }))));
  }
  if (mine) {
    const entry = game.round.revealed.find((revealed) => revealed.seat === me.seat);
    parts.unshift(el('p', { class: 'rm-your-turn', role: 'status',
      text: t(me.bubble_mode ? 'rm_your_turn_bubble' : 'rm_your_turn') }));
    if (entry && !me.bubble_mode) {
      parts.push(el('p', { class: 'rm-play-these' }, t('rm_play_your_cards'), ' ', cardChip(entry.left_initiative), ' ',
        cardChip(entry.second_initiative)));
    }
    if (me.bubble_mode) parts.push(el('p', { class: 'muted', text: t('rm_bubble_mode_turn') }));
    if (can(game, 'end_turn')) parts.push(button(t('rm_end_turn'), () => send({ type: 'end_turn' }), 'primary big rm-end-turn'));
    parts.push(...tokenButtons(game, me));
  } else if (game.active !== null) {
    parts.push(el('p', { class: 'rm-status-line', text: t('rm_turn_of', { name: nameOf(game, game.active) }) }));
  }
  for (const gift of allOf(game, 'give_bonus')) {
    parts.push(button(t('rm_give_bonus', { name: nameOf(game, gift.to) }), () => send(gift)));
  }
  if (can(game, 'crossed')) parts.push(button(t('rm_crossed_line'), () => send({ type: 'crossed' }), 'rm-cross'));
  if (!parts.length) return null;
  return el('section', { class: `rm-panel rm-turn${mine ? ' mine' : ''}` }, ...parts);
}

function tokenButtons(game, me) {
  const groups = [];
  const tokens = [];
  if (can(game, 'heart', {}) && allOf(game, 'heart').some((action) => !('to' in action))) {
    tokens.push(button(t(me.heart ? 'rm_heart_again' : 'rm_heart'), () => send({ type: 'heart' })));
  }
  for (const gift of allOf(game, 'heart').filter((action) => 'to' in action)) {
    tokens.push(button(t('rm_give_heart', { name: nameOf(game, gift.to) }), () => send(gift)));
  }
  if (can(game, 'spend_heart')) tokens.push(button(t('rm_spend_heart'), () => send({ type: 'spend_heart' })));
  if (can(game, 'bonus')) tokens.push(button(t('rm_gain_bonus'), () => send({ type: 'bonus' })));
  if (can(game, 'use_bonus') && !me.bonus_pending) tokens.push(button(t('rm_use_bonus'), () => send({ type: 'use_bonus' })));
  if (can(game, 'use_legendary')) {
    tokens.push(button(t('rm_use_legendary', { card: LEGENDARY[me.legendary] }), () => send({ type: 'use_legendary' })));
  }
  const group = (title, buttons) => el('div', { class: 'rm-actions', role: 'group', 'aria-label': title },
    el('h4', { text: title }), ...buttons);
  if (tokens.length) groups.push(group(t('rm_tokens'), tokens));
  const frees = allOf(game, 'free');
  if (frees.length) {
    groups.push(group(t('rm_free_ptizetre'), frees.map((action) =>
      button(t('rm_ptizetre_n', { number: action.ptizetre }), () => send(action), 'rm-ptizetre'))));
  }
  const slaps = allOf(game, 'slap');
  if (slaps.length) {
    groups.push(group(t('rm_slap'), slaps.map((action) => {
      const name = nameOf(game, action.target);
      return button(t(action.direction ? `rm_slap_${action.direction}` : 'rm_slap_player', { name }), () => send(action));
    })));
  }
  return groups;
}

function hurtPanel(game) {
  const hurts = allOf(game, 'hurt');
  if (!hurts.length) return null;
  return folded('hurt', t('rm_i_was_hit'), el('p', { class: 'muted', text: t('rm_hit_hint') }),
    el('div', { class: 'rm-actions' }, ...hurts.map((action) => button(action.cause === 'projectile'
      ? t('rm_hit_by_projectile', { id: action.projectile }) : t('rm_hit_by', { cause: causeText(action.cause) }),
    () => send(action), 'danger'))));
}

// --- positions ------------------------------------------------------------------------------------

function positionText(position) {
  if (!position) return t('rm_position_unknown');
  if (position.column > LAST_COLUMN) return t('rm_past_line', { count: position.column - LAST_COLUMN, level: position.level });
  return t('rm_position', { column: position.column, level: position.level });
}

function positionPanel(game, me) {
  if (!RACE_PHASES.includes(game.phase)) return null;
  const position = me.position;
  if (!position) {
    const start = allOf(game, 'position')[0];
    if (!start) return null;
    return folded('position', t('rm_positions'), el('p', { class: 'muted', text: t('rm_position_hint') }),
      button(t('rm_keep_position'), () => send(start)));
  }
  const stepper = el('div', { class: 'rm-stepper', role: 'group', 'aria-label': t('rm_stepper') },
    ...STEPS.map(([direction, arrow]) => el('button', { type: 'button', class: `rm-step rm-step-${direction}`,
      'aria-label': t(`rm_step_${direction}`), disabled: !can(game, 'step', { direction }), text: arrow,
      onclick: () => send({ type: 'step', direction }) })),
    el('output', { class: 'rm-here', text: positionText(position) }));
  const direct = el('form', { class: 'inline rm-direct', onsubmit: (event) => {
    event.preventDefault();
    const column = readInt('pos:column');
    const level = readInt('pos:level');
    if (column !== null && level !== null) send({ type: 'position', column, level });
  } }, numberInput('pos:column', t('rm_column'), 0, 83), numberInput('pos:level', t('rm_level'), 1, 3),
  el('button', { type: 'submit', text: t('rm_set_position') }));
  const section = el('section', { class: 'rm-panel rm-position' }, el('h3', { text: t('rm_my_position') }), stepper,
    folded('direct', t('rm_position_direct'), direct),
    can(game, 'forget_position') ? button(t('rm_forget_position'), () => send({ type: 'forget_position' }), 'small') : null);
  return section;
}

// --- the table's questions (the host answers) --------------------------------------------------------

function questionText(game, asked) {
  const key = asked.key.startsWith('projectile_') ? 'projectile' : asked.key;
  return t(`rm_q_${key}`, { column: asked.column, level: asked.level, id: asked.projectile, from: asked.from,
    to: asked.to, count: asked.count ?? asked.choices?.length });
}

function questionPanel(game, isHost) {
  const asked = game.question;
  if (!asked) return null;
  const parts = [el('h3', { text: t('rm_question') }), el('p', { class: 'rm-question-text', text: questionText(game, asked) })];
  if (!isHost || !context.act) {
    parts.push(el('p', { class: 'muted', text: t('rm_host_answers') }));
  } else {
    parts.push(answerInputs(game, asked));
  }
  return el('section', { class: 'rm-panel rm-question', 'aria-live': 'polite' }, ...parts);
}

function answerInputs(game, asked) {
  const answer = (value) => send({ type: 'answer', question: asked.key, value });
  if (asked.key === 'boss_move') {
    return el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      const value = readInt('answer:boss_move');
      if (value !== null) answer(value);
    } }, numberInput('answer:boss_move', t('rm_spaces'), asked.low, asked.high),
    el('button', { type: 'submit', class: 'primary', text: t('rm_answer') }));
  }
  if (asked.key === 'second_tile') {
    return el('div', { class: 'rm-choices' }, button(t('rm_yes'), () => answer(true), 'primary'),
      button(t('rm_no'), () => answer(false)));
  }
  if (asked.key === 'last' || asked.key === 'ranking') {
    const wanted = asked.key === 'last' ? asked.count : asked.choices.length;
    const key = `${game.race.number}:${game.round?.number}:${asked.key}`;
    if (ordering.key !== key) ordering = { key, seats: [] };
    const left = asked.choices.filter((seat) => !ordering.seats.includes(seat));
    const confirm = button(t('rm_confirm'), () => answer(ordering.seats), 'primary big');
    confirm.disabled = ordering.seats.length !== wanted;
    return el('div', { class: 'rm-ordering' },
      el('ol', {}, ...ordering.seats.map((seat) => el('li', { text: nameOf(game, seat) }))),
      el('div', { class: 'rm-choices' }, ...(ordering.seats.length < wanted ? left : []).map((seat) =>
        button(nameOf(game, seat), () => { ordering.seats.push(seat); render(); }))),
      el('div', { class: 'rm-choices' }, confirm, button(t('rm_start_again'), () => { ordering.seats = []; render(); })));
  }
  return el('div', { class: 'rm-choices' }, ...asked.choices.map((seat) =>
    button(seat === null ? t('rm_nobody') : nameOf(game, seat), () => answer(seat), seat === null ? '' : 'primary')));
}

// --- the public picture ---------------------------------------------------------------------------

function badges(game, player) {
  const items = [];
  const badge = (text, extra = '') => items.push(el('span', { class: `rm-badge ${extra}`.trim(), text }));
  if (player.legendary) badge(LEGENDARY[player.legendary], 'legendary');
  if (!game.round) return items;  // setting up: nothing to count yet
  badge(player.heart ? `♥ ${t('rm_heart_token')}` : `♡ ${t('rm_no_heart')}`, player.heart ? 'heart' : 'off');
  badge(`${t('rm_bonus_tokens')} ${player.bonus}/${MAX_BONUS}${player.bonus_pending ? ' +1' : ''}`);
  const freed = player.ptizetres;
  const which = freed.length ? ` (n° ${freed.join(', ')})` : '';
  badge(`${t('rm_ptizetres')} ${freed.length}/3${which}`, freed.length >= 3 ? 'ok' : '');
  badge(t('rm_hand_sizes', { hand: player.hand_size, discard: player.discard_size }));
  if (player.position) badge(positionText(player.position), 'position');
  if (game.phase === 'choosing' && !player.crossed) {
    badge(player.locked ? `✓ ${t('rm_locked_in')}` : t('rm_still_choosing'), player.locked ? 'ok' : 'off');
  }
  if (player.bubble) badge(t('rm_in_bubble'), 'bubble');
  if (player.bubble_mode) badge(t('rm_bubble_mode'), 'bubble');
  if (player.immune) badge(t('rm_immune'), 'immune');
  if (player.slapped) badge(t('rm_already_slapped'), 'off');
  if (player.crossed) badge(`🏁 ${t('rm_finished')}${player.distance ? ` (+${player.distance})` : ''}`, 'ok');
  return items;
}

function playersPanel(game) {
  return el('section', { class: 'rm-panel rm-players' }, el('h3', { text: t('rm_players') }),
    el('ul', {}, ...game.players.map((player) => el('li', {
      class: `rm-player${game.active === player.seat ? ' active' : ''}${player.seat === game.you ? ' me' : ''}` },
    el('p', { class: 'rm-player-name' }, swatch(player.seat), el('strong', { text: nameOf(game, player.seat) }),
      game.active === player.seat ? el('span', { class: 'rm-now', text: ` — ${t('rm_playing_now')}` }) : null),
    el('p', { class: 'rm-badges' }, ...badges(game, player))))));
}

function boardPanel(game) {
  const parts = [];
  if (!game.round) return null;
  if (game.config.projectile) {
    parts.push(el('h4', { text: t('rm_projectiles', { name: PROJECTILES[game.config.projectile] }) }),
      game.projectiles.length ? el('ul', { class: 'rm-projectiles' }, ...game.projectiles.map((projectile) => el('li', {
        text: t('rm_projectile_at', { id: projectile.id, column: projectile.column, level: projectile.level }) })))
        : el('p', { class: 'muted', text: t('rm_no_projectile') }));
  }
  if (game.boss) {
    const boss = game.boss;
    parts.push(el('h4', { text: `Boss — ${BOSSES[boss.name] ?? boss.name}` }),
      el('p', { text: boss.column === null ? t('rm_boss_waiting')
        : t('rm_boss_at', { column: boss.column, level: boss.level }) }),
      el('p', { text: boss.move === null ? t('rm_boss_move_unknown') : t('rm_boss_move', { count: boss.move }) }),
      boss.card !== null ? el('p', { text: t('rm_boss_attack_card', { card: boss.card }) }) : null);
  }
  if (!parts.length) return null;
  return el('section', { class: 'rm-panel rm-board' }, ...parts);
}

function myCardsPanel(game, me) {
  if (!RACE_PHASES.includes(game.phase) && game.phase !== 'race_over') return null;
  const parts = [el('h3', { text: t('rm_my_cards') })];
  const row = (label, ids) => el('div', { class: 'rm-card-row' }, el('span', { class: 'rm-row-label', text: label }),
    ...(ids.length ? cardsOf(me, ids).map((card) => cardChip(card.initiative, cardName(card)))
      : [el('span', { class: 'muted', text: '—' })]));
  if (game.config.quick) {
    parts.push(el('p', { text: t('rm_hand_count', { hand: me.hand.length, discard: me.discard.length }) }));
  } else {
    parts.push(row(t('rm_in_hand'), me.hand));
    if (me.played.length) parts.push(row(t('rm_played_cards'), me.played));
    parts.push(row(t('rm_discarded'), me.discard));
  }
  if (me.random_discards.length) {
    parts.push(el('p', { class: 'rm-random', text: game.config.quick
      ? t('rm_random_ranks', { ranks: me.random_ranks.join(', ') })
      : t('rm_random_cards', { cards: cardsOf(me, me.random_discards)
        .map((card) => `${card.initiative} (${cardName(card)})`).join(', ') }) }));
  }
  return el('section', { class: 'rm-panel rm-my-cards' }, ...parts);
}

function summaryPanel(game) {
  const summary = roundEndSummary(game);
  if (!summary || !summary.events.length) return null;
  const free = summary.events.find((event) => event.type === 'free_move');
  const mine = free && game.you !== null && free.seats.includes(game.you);
  return el('section', { class: 'rm-panel rm-round-end' }, el('h3', { text: t('rm_round_end', { round: summary.round }) }),
    mine ? el('p', { class: 'rm-free-move', text: t('rm_free_move_mine') }) : null,
    free && !mine ? el('p', { class: 'rm-free-move-others',
      text: t('rm_free_move_others', { names: namesOf(game, free.seats) }) }) : null,
    el('ul', {}, ...summary.events.filter((event) => event.type !== 'free_move')
      .map((event) => eventText(event, game)).filter(Boolean).map((text) => el('li', { text }))));
}

function resultPanel(game) {
  const result = game.result;
  if (!result) return null;
  if (result.kind === 'coop') {
    return el('section', { class: `rm-panel rm-result ${result.won ? 'won' : 'lost'}` },
      el('p', { class: 'rm-big', text: t(result.won ? 'rm_coop_won' : `rm_coop_lost_${result.reason}`) }));
  }
  const winners = namesOf(game, result.winners);
  return el('section', { class: 'rm-panel rm-result won' },
    el('p', { class: 'rm-big', text: result.winners.length ? t('rm_winner', { names: winners }) : t('rm_ev_boss_won') }),
    result.boss_won ? el('p', { text: t('rm_boss_first') }) : null,
    el('ol', { class: 'rm-ranking' }, ...result.ranking.map((entry) => el('li', {},
      el('strong', { text: t('rm_place', { place: entry.place }) }), ' ', swatch(entry.seat), nameOf(game, entry.seat), ' — ',
      entry.crossed ? t('rm_distance', { count: entry.distance }) : t('rm_not_crossed')))));
}

function standingsPanel(game) {
  const tournament = game.tournament;
  if (!tournament) return null;
  const standings = [...tournament.standings].sort((a, b) => b.points - a.points);
  const parts = [el('h3', { text: t('rm_standings', { count: tournament.races.length }) }),
    el('ol', { class: 'rm-standings' }, ...standings.map((standing) => el('li', {}, swatch(standing.seat),
      nameOf(game, standing.seat), ' — ', el('strong', { text: t('rm_points', { count: standing.points }) }))))];
  if (tournament.winners) {
    parts.push(el('p', { class: 'rm-big', text: t('rm_ev_tournament_won', { names: namesOf(game, tournament.winners) }) }));
  }
  if (context.act && can(game, 'next_race')) {
    parts.push(button(t('rm_next_race'), () => send({ type: 'next_race' }), 'primary big'));
  }
  else if (game.phase === 'race_over') parts.push(el('p', { class: 'muted', text: t('rm_waiting_next_race') }));
  return el('section', { class: 'rm-panel rm-tournament' }, ...parts);
}

function distancePanel(game, me) {
  if (!can(game, 'distance')) return null;
  return el('section', { class: 'rm-panel rm-distance' }, el('h3', { text: t('rm_distance_title') }),
    el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      const spaces = readInt('distance');
      if (spaces !== null) send({ type: 'distance', spaces });
    } }, numberInput('distance', t('rm_distance_label'), 1, 40),
    el('button', { type: 'submit', class: 'primary', text: t('rm_send') })),
    me.distance ? el('p', { class: 'rm-done', text: t('rm_distance', { count: me.distance }) }) : null);
}

function historyPanel(game) {
  const texts = (game.history || []).filter((event) => !UNLISTED.has(event.type))
    .map((event) => eventText(event, game)).filter(Boolean).slice(-12).reverse();
  return el('section', { class: 'rm-panel rm-history' }, el('h3', { text: t('rm_history') }),
    el('ul', {}, ...texts.map((text) => el('li', { text }))));
}

function setupReminder(game) {
  const config = game.config;
  const items = [`${t('rm_mode_label')}: ${t(`rm_mode_${config.mode}`)}`,
    `${t('rm_difficulty_label')}: ${t(`rm_difficulty_${config.difficulty}`)}`,
    t('rm_board', { board: BOARDS[game.race.board] ?? game.race.board })];
  items.push(config.projectile ? t('rm_with_projectiles', { name: PROJECTILES[config.projectile] }) : t('rm_no_projectiles'));
  if (config.projectile_card) items.push(t('rm_with_projectile_card'));
  if (config.boss) items.push(t('rm_with_boss', { name: BOSSES[config.boss] ?? config.boss }));
  items.push(t(config.extra_cards ? 'rm_with_extras' : 'rm_no_extras'));
  if (config.legendary) items.push(t('rm_with_legendary'));
  items.push(t(config.quick ? 'rm_quick_entry' : 'rm_full_entry'));
  items.push(t('rm_captives', { count: config.captives }));
  if (config.tournament) items.push(t('rm_tournament'));
  return folded('setup', t('rm_setup'), el('ul', {}, ...items.map((text) => el('li', { text }))));
}

// --- what to do now ------------------------------------------------------------------------------------

function statusText(game, me, isHost) {
  const phase = game.phase;
  if (phase === 'game_over') return t('rm_game_over');
  if (game.question && !isHost) return t('rm_waiting_host');
  if (game.question) return t('rm_host_question');
  const locked = game.players.filter((player) => !player.crossed);
  switch (phase) {
    case 'characters': return me && !me.character ? t('rm_do_character') : t('rm_waiting_characters');
    case 'legendary': return me && !me.legendary ? t('rm_do_legendary') : t('rm_waiting_legendary');
    case 'draft': return me && can(game, 'pick') ? t('rm_your_pick') : t('rm_waiting_draft');
    case 'exchange': return me && can(game, 'exchange') ? t('rm_do_exchange') : t('rm_waiting_exchange');
    case 'hands': return me && me.cards.some((card) => card.initiative === null) ? t('rm_do_hand') : t('rm_waiting_hands');
    case 'round_start': return me && can(game, 'roll') ? t('rm_do_roll') : t('rm_waiting_dice');
    case 'choosing':
      if (me && !me.crossed && !me.locked) return t('rm_do_choose');
      return t('rm_locked_count', { count: locked.filter((player) => player.locked).length, total: locked.length });
    case 'turns':
      if (game.active === null) return '';
      return me && game.active === me.seat ? t('rm_your_turn') : t('rm_turn_of', { name: nameOf(game, game.active) });
    case 'round_end': return t('rm_round_ending');
    case 'finish': return me && can(game, 'distance') ? t('rm_do_distance') : t('rm_waiting_finish');
    case 'race_over': return t('rm_waiting_next_race');
    default: return '';
  }
}

function phonePanels(game, me) {
  const phase = game.phase;
  const parts = [];
  if (phase === 'characters') parts.push(characterPanel(game, me), waitingFor(game, (player) => player.character));
  if (phase === 'legendary') parts.push(legendaryPanel(game, me), waitingFor(game, (player) => player.legendary));
  if (phase === 'draft') parts.push(draftPanel(game, me));
  if (phase === 'exchange') parts.push(exchangePanel(game, me), waitingFor(game, (player) => player.hand_size <= 10));
  if (phase === 'hands') parts.push(handPanel(game, me), waitingFor(game, (player) => player.hand_entered));
  return parts;
}

function hostSetupPanel(game) {
  const phase = game.phase;
  const parts = [];
  if (phase === 'characters' || phase === 'legendary') {
    const picked = (player) => (phase === 'characters' ? player.character : LEGENDARY[player.legendary]) ?? '…';
    parts.push(el('ul', { class: 'rm-picks' }, ...game.players.map((player) => el('li', {}, swatch(player.seat),
      player.name, ' — ', el('strong', { text: picked(player) })))));
  }
  if (phase === 'draft') parts.push(draftPanel(game, null));
  if (phase === 'hands') parts.push(waitingFor(game, (player) => player.hand_entered));
  if (phase === 'exchange') parts.push(waitingFor(game, (player) => player.hand_size <= 10));
  return parts;
}

// --- the renderer ------------------------------------------------------------------------------------------

function render() {
  if (!lastView) return;
  const game = lastView.game;
  const isHost = lastView.you.role === 'host';
  const me = game.you !== null ? playerOf(game, game.you) : null;
  const playing = Boolean(me && context.act);
  const focusKey = target.contains(document.activeElement) ? document.activeElement?.dataset?.keep : null;
  const round = game.round ? t('rm_round_n', { round: game.round.number }) : '';
  const head = el('header', { class: 'rm-head' },
    el('strong', { class: 'rm-title', text: t('rm_race_n', { race: game.race.number }) }),
    round ? el('span', { class: 'rm-round', text: round }) : null,
    el('span', { class: 'rm-phase', text: t(`rm_phase_${game.phase}`) }),
    me?.character ? el('span', { class: 'rm-me' }, swatch(me.seat), me.character) : null);
  const mineNow = playing && game.phase === 'turns' && game.active === me.seat;
  const status = mineNow ? '' : statusText(game, me, isHost);  // the turn panel says it, bigger
  const parts = [head, status ? el('p', { class: 'rm-status', text: status }) : null,
    localError ? el('p', { class: 'rm-warning', role: 'alert', text: localError }) : null,
    resultPanel(game), questionPanel(game, isHost)];
  // What this screen must do now comes first; the dice of a round already under way go below.
  const racing = Boolean(game.round) && RACE_PHASES.includes(game.phase);
  const dice = racing ? rollPanel(game, playing ? me : null, isHost) : null;
  if (playing) {
    parts.push(...phonePanels(game, me));
    if (game.phase === 'round_start') parts.push(dice);
    if (racing) parts.push(summaryPanel(game));
    if (game.phase === 'choosing') parts.push(choosingPanel(game, me));
    if (game.phase === 'turns' || game.phase === 'round_end') parts.push(turnPanel(game, me));
    parts.push(distancePanel(game, me), revealPanel(game), game.phase === 'round_start' ? null : dice,
      myCardsPanel(game, me), positionPanel(game, me), hurtPanel(game));
  } else {
    parts.push(...hostSetupPanel(game));
    if (game.phase === 'round_start') parts.push(dice);
    if (racing) parts.push(summaryPanel(game));
    if (game.phase === 'choosing') {
      parts.push(el('section', { class: 'rm-panel rm-choice' },
        el('h3', { text: t('rm_secret_choice', { round: game.round.number }) }), lockState(game)));
    }
    parts.push(revealPanel(game), game.phase === 'round_start' ? null : dice);
  }
  parts.push(standingsPanel(game), playersPanel(game), boardPanel(game), historyPanel(game), setupReminder(game));
  const classes = `rayman phase-${game.phase}${isHost ? ' host' : ''}${reducedMotion() ? ' calm' : ''}`;
  target.replaceChildren(el('div', { class: classes }, ...parts));
  if (focusKey) target.querySelector(`[data-keep="${CSS.escape(focusKey)}"]`)?.focus();
}

export function renderRayman(container, view, { act = null, announce = null } = {}) {
  lastView = view;
  target = container;
  context = { act: act ? async (action) => {
    localError = '';
    return act(action);
  } : null };
  observe(view.game);
  rolledNow = new Set(freshEvents(view.game).map((event) => event.type));
  announceNew(view.game, announce);
  if (act) buzzOnMyTurn(view.game);
  render();
  rolledNow = new Set();
}
