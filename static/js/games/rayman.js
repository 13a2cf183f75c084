// Rayman: each phone keeps its player's secret choice, turn, tokens and (optionally) position;
// the host screen shows the table's public picture and answers the table's questions.
import { N_, t, tn, withColon } from '../i18n.js';
import { bytesToHex } from '../hashes.js';
import { canonicalJson, commitmentOf } from './rayman-draws.js';
import { button, el, reducedMotion, seatColour, showErrorAt } from '../ui.js';

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
const SETUP_PHASES = ['characters', 'legendary', 'draft', 'exchange'];
const RACE_PHASES = ['round_start', 'choosing', 'revealing', 'initiatives', 'turns', 'round_end', 'finish'];
const STEPS = [['up', '↑'], ['back', '←'], ['forward', '→'], ['down', '↓']];
// Events that the history shows but nobody needs to hear (or that come by the dozen).
const QUIET = new Set(['moved', 'position_forgotten', 'initiative_told', 'answered', 'choosing', 'round_started',
  'reveal_now', 'revealed_by', 'free_move_passed', 'ptizetre_named',
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
let naming = null;  // host: the captive Ptizêtre being named by its colour (null: the first unnamed)

// --- reading the view ------------------------------------------------------------------

const legal = (game) => game.legal || [];
const matches = (action, fields) => Object.entries(fields).every(([key, value]) => action[key] === value);
const can = (game, type, fields = {}) => legal(game).some((action) => action.type === type && matches(action, fields));
const allOf = (game, type) => legal(game).filter((action) => action.type === type);
const playerOf = (game, seat) => game.players.find((player) => player.seat === seat);
const roundKey = (game, seat) => `${game.race.number}:${game.round?.number}:${seat}`;

function nameOf(game, seat) {
  if (seat === null || seat === undefined) return t('Nobody');
  const player = playerOf(game, seat);
  if (!player) return `#${seat}`;
  if (!player.character || player.character === player.name) return player.name;
  return `${player.character} (${player.name})`;
}

const namesOf = (game, seats) => seats.map((seat) => nameOf(game, seat)).join(', ');
const numbers = (cards) => cards.map((number) => `n°${number}`).join(', ');

// Components by the names the table reads on them: the labels of /rayman/labels (the same words), and a
// character's own cards by the character (the box prints no name on them: their initiative tells them apart).
const extraName = (number) => t('Extra action card n°%(number)s', { number });
// A captive Ptizêtre by the colour the host named it with (companion/games/rayman/ptizetres.py), else its number.
const PTIZETRE_COLOURS = {
  red: { name: N_('red'), ptizetre: N_('Red Ptizêtre'), paint: '#e03131' },
  orange: { name: N_('orange'), ptizetre: N_('Orange Ptizêtre'), paint: '#f76707' },
  yellow: { name: N_('yellow'), ptizetre: N_('Yellow Ptizêtre'), paint: '#fcc419' },
  green: { name: N_('green'), ptizetre: N_('Green Ptizêtre'), paint: '#2f9e44' },
  blue: { name: N_('blue'), ptizetre: N_('Blue Ptizêtre'), paint: '#1c7ed6' },
  purple: { name: N_('purple'), ptizetre: N_('Purple Ptizêtre'), paint: '#7048e8' },
  pink: { name: N_('pink'), ptizetre: N_('Pink Ptizêtre'), paint: '#f783ac' },
  white: { name: N_('white'), ptizetre: N_('White Ptizêtre'), paint: '#f8f9fa' },
};
const colourOf = (game, number) => PTIZETRE_COLOURS[(game.ptizetre_colours || {})[String(number)]] ?? null;
function ptizetreName(game, number) {
  const colour = colourOf(game, number);
  return colour ? t(colour.ptizetre) : t('Captive Ptizêtre n°%(number)s', { number });
}
function paintSwatch(colour) {
  const node = el('span', { class: 'rm-ptz-swatch', 'aria-hidden': 'true' });
  node.style.background = colour.paint;
  return node;
}
const ptizetreSwatch = (game, number) => (colourOf(game, number) ? paintSwatch(colourOf(game, number)) : null);
// The Ptizêtre an event is about, drawn before its line in the history.
const eventSwatch = (game, event) => (event.ptizetre ? ptizetreSwatch(game, event.ptizetre) : null);
const bossCardName = (game, number) => t('%(boss)s: attack card n°%(number)s', { boss: BOSSES[game.boss?.name] ?? 'Boss', number });

function cardName(card, character = lastView?.game && playerOf(lastView.game, lastView.game.you)?.character) {
  if (card.extra) return extraName(card.extra);
  return character ? t('%(character)s card', { character }) : t('Action card');
}

// A card by its initiative ("?" until the table has told it) and its name.
function cardChip(initiative, caption = '', extra = '') {
  return el('span', { class: `rm-card ${extra}`.trim() },
    el('strong', { class: 'rm-initiative', text: initiative === null || initiative === undefined ? '?' : String(initiative) }),
    caption ? ' ' : null, caption ? el('small', { text: caption }) : null);  // read as "30 Rayman card", not "30Rayman card"
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

// The hashing of a choice and its salt is shared with the verify page (rayman-draws.js).
export { canonicalJson };

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

// What hit a player.
const CAUSES = {
  enemy: N_('an Enemy'),
  obstacle: N_('an Obstacle'),
  wall: N_('a Wall'),
  projectile: N_('a Projectile'),
  boss: N_('the Boss'),
};
// Why the table lost against the Boss.
const COOP_LOSSES = {
  defeated: N_('Defeated: the Boss wins.'),
  all_in_bubbles: N_('Every player is in Bubble mode: the Boss wins.'),
  boss_finished: N_('The Boss crossed the finish line first: the Boss wins.'),
};
// What each legendary card does.
const LEGENDARY_ABILITIES = {
  esquiveur: N_('Crouch to dodge an Enemy and gain 1 Move. Lums: Crouch.'),
  vagabond: N_('Go up or down while gliding; 1 Move per 2 Glide icons. Lums: Glide.'),
  fracasseur: N_('Each Slap reaches one space further; 1 Move for a hit 2 spaces away or more. Lums: Slap.'),
  sprinteur: N_('2 Moves in the air before falling. Lums: Move.'),
  filou: N_('Turn your heart into a Crouch icon; 1 Move per 2 Crouch icons. Lums: a heart.'),
  grimpeur: N_('Two Jumps in a row; 1 Move for reaching level 3 from level 1. Lums: Jump.'),
};
// The position stepper, by direction.
const STEP_LABELS = {
  up: N_('One level up'),
  down: N_('One level down'),
  forward: N_('One space forward'),
  back: N_('One space back'),
};
// The host's questions to the table, by key.
const QUESTIONS = {
  youngest: N_('Who is the youngest player? They pick first.'),
  boss_move: N_('How many spaces does the Boss move each round? (on its Boss card)'),
  farthest: N_('Who is farthest from the finish line? They roll the projectile die.'),
  second_tile: N_('Has a player reached the second tile (column %(column)s)?'),
  spawn_hit: N_('A projectile appears at column %(column)s, level %(level)s: is a player on that space?'),
  projectile: N_('Projectile n°%(id)s moves on level %(level)s from column %(from)s to column %(to)s: whom does it hit first?'),
  boss_landing: N_('The Boss ends its move at column %(column)s, level %(level)s: who is on that space?'),
  last: N_('Who is in last place? Name %(count)s, the farthest behind first (in the same column, the lower level is behind).'),
  ranking: N_('Rank the %(count)s players who did not cross the line, the farthest ahead first.'),
};
// Game modes.
const MODES = {
  competitive: N_('Competitive'),
  coop: N_('Co-op against a Boss'),
  solo: N_('Solo against a Boss'),
};
// Difficulty levels.
const DIFFICULTIES = {
  label: N_('Difficulty'),
  novice: N_('Novice'),
  intermediate: N_('Intermediate'),
  hero: N_('Hero'),
  legend: N_('Legend'),
  custom: N_('Custom'),
};
// Phases of a race.
const PHASES = {
  characters: N_('Characters'),
  legendary: N_('Legendary cards'),
  draft: N_('Extra action cards'),
  exchange: N_('Card exchange'),
  round_start: N_('Start of the round'),
  choosing: N_('Secret choice'),
  revealing: N_('The reveal'),
  initiatives: N_('New cards'),
  turns: N_('Turns'),
  round_end: N_('End of the round'),
  finish: N_('Finish'),
  race_over: N_('Between two races'),
  game_over: N_('Game over'),
};

const causeText = (cause) => t(CAUSES[cause]);
const coopResult = (result) => (result.won
  ? t('The table wins: every player finished before the Boss!') : t(COOP_LOSSES[result.reason]));

function eventText(event, game) {
  const name = nameOf(game, event.seat);
  switch (event.type) {
    case 'character_chosen':
      return t('%(name)s races as %(character)s.', { name: playerOf(game, event.seat)?.name ?? name, character: event.character });
    case 'legendary_chosen': return t('%(name)s takes the legendary card %(card)s.', { name, card: LEGENDARY[event.card] ?? event.card });
    case 'draft_revealed': return t('Extra cards on the table: %(cards)s. Order: %(names)s.', { cards: numbers(event.cards), names: namesOf(game, event.order) });
    case 'picked': return t('%(name)s takes %(card)s.', { name, card: extraName(event.card) });
    case 'draft_discarded': return t('Discarded: %(cards)s.', { cards: numbers(event.cards) });
    case 'exchanged': return tn('%(name)s gives back %(count)s card.', '%(name)s gives back %(count)s cards.', event.dropped.length, { name });
    case 'initiatives_asked': return t('Cards played for the first time: their players read the initiative printed on them.');
    case 'initiative_told': return t('%(name)s: %(card)s has initiative %(initiative)s.', { name, card: cardName(event, event.character), initiative: event.initiative });
    case 'race_started': return t('Race %(race)s starts on the %(board)s board.', { race: event.race, board: BOARDS[event.board] ?? event.board });
    case 'next_race': return t('Next: race %(race)s on the %(board)s board.', { race: event.race, board: BOARDS[event.board] ?? event.board });
    case 'random_discards': return event.seat === game.you ? t('Two of your cards were discarded at random: see your cards.')
      : tn('%(name)s discards %(count)s card at random.', '%(name)s discards %(count)s cards at random.', event.count, { name });
    case 'round_started': return t('Round %(round)s.', { round: event.round });
    case 'projectile_roll': return t('Projectile die: %(die)s, level %(level)s.', { die: event.die, level: event.level });
    case 'boss_roll': return event.entering
      ? t('Boss die: %(die)s, the Boss enters on level %(level)s.', { die: event.die, level: event.level })
      : t('Boss die: %(die)s, the Boss moves to level %(level)s.', { die: event.die, level: event.level });
    case 'boss_card': return t('The Boss reveals %(card)s.', { card: bossCardName(game, event.card) });
    case 'projectile_spawned': return t('Projectile n°%(id)s appears at column %(column)s, level %(level)s.', { id: event.id, column: event.column, level: event.level });
    case 'projectile_spawn_hit':
      return t('Projectile n°%(id)s appears on %(name)s (column %(column)s, level %(level)s).', { id: event.id, column: event.column, level: event.level, name });
    case 'choosing': return t('Round %(round)s: choose your cards in secret.', { round: event.round });
    case 'locked': return t('%(name)s has locked in.', { name });
    case 'reveal_now': return t('Everybody has locked in: the phones reveal their choices.');
    case 'revealed_by': return t("%(name)s's phone has revealed.", { name });
    case 'choice_reset': return t("%(name)s's phone lost the choice (a new phone?): %(name)s chooses again.", { name });
    case 'withdrawn': return t('%(name)s has left the race; it goes on without them.', { name });
    case 'initiative_corrected': return t('%(name)s corrected the initiative of a card.', { name });
    case 'free_moved': return t('%(name)s makes the free move.', { name });
    case 'free_move_passed': return t('%(name)s passes the free move.', { name });
    case 'bonus_offered': return t('%(name)s offers %(other)s an exchange: %(give)s bonus token(s) for %(take)s.', { name, other: nameOf(game, event.to), give: event.give, take: event.take });
    case 'bonus_exchanged': return t('%(name)s and %(other)s exchange bonus tokens.', { name: nameOf(game, event.from), other: nameOf(game, event.to) });
    case 'bonus_declined': return t('The exchange of bonus tokens does not happen.');
    case 'revealed': return t('Reveal! Order of play: %(order)s.', { order: namesOf(game, event.order) || '—' });
    case 'bubble': return event.lost_heart
      ? t('%(name)s declares a Bubble: immune this round, takes back the discarded cards and loses the heart.', { name })
      : t('%(name)s declares a Bubble: immune this round, takes back the discarded cards.', { name });
    case 'turn_started': return t("%(name)s's turn.", { name });
    case 'turn_ended': return t('%(name)s ends the turn.', { name });
    case 'heart': return event.gained ? t('%(name)s takes a heart.', { name }) : t('%(name)s already has a heart.', { name });
    case 'heart_given': return t('%(name)s gives a heart to %(other)s.', { name, other: nameOf(game, event.to) });
    case 'heart_spent': return t('%(name)s turns the heart into a Crouch (Filou).', { name });
    case 'projectile_hit': return t('Projectile n°%(id)s hits %(name)s.', { id: event.id, name });
    case 'immune': return t('%(name)s is immune (%(cause)s): no harm.', { name, cause: causeText(event.cause) });
    case 'heart_lost': return t('%(name)s loses the heart (%(cause)s).', { name, cause: causeText(event.cause) });
    case 'damaged': return tn('%(name)s takes damage (%(cause)s): %(count)s space back, immune until their next turn.',
      '%(name)s takes damage (%(cause)s): %(count)s spaces back, immune until their next turn.', event.back, { name, cause: causeText(event.cause) });
    case 'bubble_mode': return event.on
      ? t('%(name)s is in Bubble mode.', { name }) : t('%(name)s is slapped out of the Bubble.', { name });
    case 'slapped': return event.slaps
      ? tn('%(name)s slaps %(other)s (%(count)s slap for the distance).', '%(name)s slaps %(other)s (%(count)s slaps for the distance).', event.slaps,
        { name, other: nameOf(game, event.target) })
      : t('%(name)s slaps %(other)s.', { name, other: nameOf(game, event.target) });
    case 'ptizetre_freed': return t('%(name)s frees %(ptizetre)s (%(count)s freed).', { name, ptizetre: ptizetreName(game, event.ptizetre), count: event.count });
    case 'ptizetre_named': return t('Captive Ptizêtre n°%(number)s: %(ptizetre)s.', { number: event.ptizetre, ptizetre: t(PTIZETRE_COLOURS[event.colour]?.ptizetre ?? event.colour) });
    case 'bonus_gained': return event.fifth
      ? t('%(name)s gains a fifth bonus token: one must be used or discarded.', { name })
      : t('%(name)s gains a bonus token (%(count)s).', { name, count: event.count });
    case 'bonus_used': return t('%(name)s uses a bonus token (%(count)s left).', { name, count: event.count });
    case 'bonus_discarded': return t('%(name)s discards a bonus token.', { name });
    case 'bonus_given': return t('%(name)s gives a bonus token to %(other)s.', { name, other: nameOf(game, event.to) });
    case 'legendary_used': return t('%(name)s uses the legendary ability (%(card)s).', { name, card: LEGENDARY[event.card] ?? event.card });
    case 'crossed': return t('%(name)s crosses the finish line!', { name });
    case 'final_round': return t('Final round: it is played to the end so that everybody plays as often.');
    case 'moved': return t('%(name)s: column %(column)s, level %(level)s.', { name, column: event.column, level: event.level });
    case 'position_forgotten': return null;
    case 'projectile_moved': return t('Projectile n°%(id)s moves to column %(column)s, level %(level)s.', { id: event.id, column: event.column, level: event.level });
    case 'projectile_removed': return t('Projectile n°%(id)s leaves the board.', { id: event.id });
    case 'projectile_card_effect':
      return t('Apply line %(line)s of the %(card)s projectile card.', { line: event.line, card: PROJECTILES[event.card] ?? event.card });
    case 'boss_moved': return t('The Boss moves to column %(column)s, level %(level)s.', { column: event.column, level: event.level });
    case 'boss_hit': return t('The Boss lands on %(name)s!', { name });
    case 'boss_attack': return t('Apply %(card)s.', { card: bossCardName(game, event.card) });
    case 'boss_finished': return t('The Boss crosses the finish line!');
    case 'free_move': return event.seats.length
      ? t('Free move for %(names)s: one space forward, on the level of their choice.', { names: namesOf(game, event.seats) })
      : tn('Free move for the last on the board: one space forward, on the level of their choice.',
        'Free move for the %(count)s last on the board: one space forward, on the level of their choice.', event.count);
    case 'second_tile': return t('%(name)s reached the second tile: projectiles now appear at column 43.', { name });
    case 'round_ended': return t('End of round %(round)s.', { round: event.round });
    case 'race_ending': return t('The race is over: the distances past the line decide.');
    case 'race_over': return event.boss_won && !event.winners.length ? t('The Boss won the race.')
      : t('Race %(race)s: %(names)s wins!', { race: event.race, names: namesOf(game, event.winners) });
    case 'standings': return t('Tournament standings updated.');
    case 'distance': return tn('%(name)s: %(count)s space past the line.', '%(name)s: %(count)s spaces past the line.', event.spaces, { name });
    case 'answered': return t('The table answered.');
    case 'game_over':
      if (event.won !== undefined) return coopResult(event);
      if (event.winners) return t('%(names)s wins the tournament!', { names: namesOf(game, event.winners) });
      return t('Game over.');
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
  const parts = [el('h3', { text: t('Your character') })];
  if (me.character) parts.push(el('p', { class: 'rm-done', text: t('You race as %(character)s.', { character: me.character }) }));
  parts.push(el('div', { class: 'rm-choices' }, ...CHARACTERS.map((name) => el('button', {
    type: 'button', class: me.character === name ? 'picked' : '', 'aria-pressed': String(me.character === name),
    disabled: taken.has(name.toLowerCase()), text: name, onclick: () => send({ type: 'character', name }) }))));
  parts.push(el('form', { class: 'inline rm-free-name', onsubmit: (event) => {
    event.preventDefault();
    if ((kept.free_name ?? '').trim()) send({ type: 'character', name: kept.free_name.trim() });
  } }, el('label', {}, t('Or a name of your own'), keptInput('free_name', { maxlength: '24', autocomplete: 'off' })),
  el('button', { type: 'submit', text: t('Choose') })));
  return el('section', { class: 'rm-panel rm-setup' }, ...parts);
}

function legendaryPanel(game, me) {
  const taken = new Set(game.players.filter((p) => p !== me && p.legendary).map((p) => p.legendary));
  return el('section', { class: 'rm-panel rm-setup' }, el('h3', { text: t('Your legendary player card') }),
    me.legendary ? el('p', { class: 'rm-done', text: t('Your legendary card: %(card)s.', { card: LEGENDARY[me.legendary] }) }) : null,
    el('div', { class: 'rm-legendary' }, ...Object.entries(LEGENDARY).map(([id, label]) => el('button', {
      type: 'button', class: me.legendary === id ? 'picked' : '', 'aria-pressed': String(me.legendary === id),
      disabled: taken.has(id), onclick: () => send({ type: 'pick_legendary', card: id }) },
    el('strong', { text: label }), el('small', { text: t(LEGENDARY_ABILITIES[id]) })))));
}

function draftPanel(game, me) {
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
    parts.push(el('div', { class: 'rm-choices rm-draft-table' }, ...draft.table.map((number) => mine
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

function exchangePanel(game, me) {
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

function waitingFor(game, done) {
  const waiting = game.players.filter((player) => !done(player)).map((player) => nameOf(game, player.seat));
  return waiting.length ? el('p', { class: 'muted rm-waiting', text: t('Waiting for: %(names)s', { names: waiting.join(', ') }) }) : null;
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
      const label = isHost && game.roller !== null ? t('Roll for %(name)s', { name: nameOf(game, game.roller) }) : t('Roll');
      parts.push(button(label, () => send({ type: 'roll' }), 'primary big rm-roll'));
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
    const card = PROJECTILES[game.config.projectile];
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
function dieFace(value, rolledBy, extra = '') {
  const rolling = !reducedMotion() && rolledNow.has(rolledBy);
  return el('span', { class: `die rm-die ${extra}${rolling ? ' rolling' : ''}`, text: String(value) });
}

// --- the secret choice ---------------------------------------------------------------------------

function choiceText(game, me, choice) {
  if (!choice) return t('Nothing chosen yet.');
  if (choice.bubble) return t('Your choice: a Bubble.');
  if (game.config.quick) return t('Your choice: %(left)s on the left, %(second)s second.', { left: choice.left, second: choice.second });
  const [left, second] = [choice.left, choice.second].map((id) => me.cards.find((card) => card.id === id));
  const named = (card) => `${card.initiative ?? "?"} (${cardName(card)})`;
  return t('Your choice: %(left)s on the left, %(second)s second.', { left: named(left), second: named(second) });
}

function lockState(game) {
  const choosers = game.players.filter((player) => !player.crossed);
  return el('ul', { class: 'rm-locks', 'aria-label': t('Who has locked in') }, ...choosers.map((player) => el('li', {
    class: player.locked ? 'locked' : '' }, swatch(player.seat), nameOf(game, player.seat), ' — ',
  el('strong', { text: player.locked ? `✓ ${t('locked in')}` : t('choosing…') }))));
}

// The pick stays on this phone (its local storage, which a reload keeps) until the reveal: the
// server gets only its commitment, SHA-256 of the canonical JSON of the choice and a salt made here.
const pickKey = (game) => `rayman:${lastView?.table?.code}:${game.race.number}:${game.round.number}:${game.you}`;
let sentFor = '';  // the pick key this phone already sent a reveal or a new pick for

function storedPick(game) {
  try {
    return JSON.parse(localStorage.getItem(pickKey(game)) || 'null');
  } catch {
    return null;
  }
}

function storePick(game, value) {
  try {
    if (value) localStorage.setItem(pickKey(game), JSON.stringify(value));
    else localStorage.removeItem(pickKey(game));
  } catch {
    // a browser without storage still plays: only a reload would lose the pick
  }
}

const choiceOf = (left, second) => ({ bubble: false, left, second });
const BUBBLE_CHOICE = { bubble: true, left: null, second: null };

function randomSalt() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return bytesToHex(bytes);
}

// Once every phone has locked in, this phone opens its commitment by itself; a phone that does not
// hold the pick it locked in (a new phone for the seat) asks to choose again, and every screen is told.
function revealOrPickAgain(game, me) {
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

function choosingPanel(game, me) {
  const parts = [el('h3', { text: t('Round %(round)s: secret choice', { round: game.round.number }) })];
  if (me.crossed) {
    return el('section', { class: 'rm-panel rm-choice' }, ...parts, el('p', { text: t('You have finished the race: no more cards to choose.') }),
      lockState(game));
  }
  const choice = storedPick(game)?.choice ?? null;
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
  let hint = t('Tap your left card (its initiative counts), then your second card. You may change your mind until you '
    + 'lock in: only this phone knows.');
  if (game.config.quick) {
    hint = t('Type the initiative of your left card (it counts) and of your second card. You may change them until '
      + 'you lock in.');
  }
  if (mustBubble) hint = t('Your hand is empty: you must declare a Bubble.');
  parts.push(el('p', { class: 'muted', text: hint }));
  if (!mustBubble && !game.config.quick && me.hand.some((id) => me.cards.find((card) => card.id === id)?.initiative === null)) {
    parts.push(el('p', { class: 'muted rm-unknown-hint', text: t('"?" is a card the companion does not know yet: tap one for any of your cards whose number is not shown here. After the reveal your phone asks the number printed on it, once.') }));
  }
  if (!mustBubble && game.config.quick) parts.push(quickChoice());
  else if (!mustBubble) parts.push(...cardChoice(game, me));
  if (me.may_bubble) {
    parts.push(button(t('Declare a Bubble'), () => {
      pick.left = pick.second = null;
      storePick(game, { choice: BUBBLE_CHOICE });
      render();
    }, `rm-bubble${choice?.bubble ? ' picked' : ''}`));
  }
  parts.push(el('p', { class: 'rm-tentative', text: choiceText(game, me, choice) }));
  const lock = button(t('Lock in my choice'), lockIn, 'primary big rm-lock');
  lock.disabled = !choice && !game.config.quick;  // quick entry: the typed numbers are checked at the tap
  parts.push(lock, lockState(game));
  return el('section', { class: 'rm-panel rm-choice' }, ...parts);
}

function cardChoice(game, me) {
  const hand = cardsOf(me, me.hand);
  const tap = (side, id) => {
    pick[side] = pick[side] === id ? null : id;
    if (side === 'left' && pick.second === id) pick.second = null;
    storePick(game, pick.left && pick.second ? { choice: choiceOf(pick.left, pick.second) } : null);
    render();
  };
  const row = (side, label, cards) => el('div', { class: `rm-pick-row rm-${side}`, role: 'group', 'aria-label': label },
    el('p', { class: 'rm-row-label', text: label }),
    el('div', { class: 'rm-cards' }, ...cards.map((card) => el('button', {
      type: 'button', class: `rm-card-button${pick[side] === card.id ? ' picked' : ''}`,
      'aria-pressed': String(pick[side] === card.id),
      // The name holds the visible text (a voice user says what they see), with what the number is.
      'aria-label': t('Initiative %(initiative)s, %(card)s', { initiative: card.initiative ?? '?', card: cardName(card) }),
      onclick: () => tap(side, card.id) }, cardChip(card.initiative, cardName(card))))));
  return [row('left', t('Left card'), hand), row('second', t('Second card'), hand.filter((card) => card.id !== pick.left))];
}

function quickChoice() {
  return el('div', { class: 'rm-quick' },
    numberInput('quick:left', t('Initiative of the left card'), 0, 99), numberInput('quick:second', t('Initiative of the second card'), 0, 99));
}

async function lockIn() {
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
  const salt = randomSalt();
  const commitment = commitmentOf(choice, salt);
  storePick(game, { choice, salt, commitment });  // kept before it is sent: a reload between the two keeps it
  send({ type: 'lock', commitment });
}

function revealingPanel(game, me) {
  const choice = me ? storedPick(game)?.choice ?? null : null;
  return el('section', { class: 'rm-panel rm-choice' },
    el('h3', { text: t('Round %(round)s: the reveal', { round: game.round.number }) }),
    el('p', { text: t('Every phone opens its commitment; the choices show together once all are checked.') }),
    me && !me.crossed ? el('p', { text: choiceText(game, me, choice) }) : null, lockState(game));
}

// --- a card played for the first time: its initiative, read on the card ----------------------------

// A card drawn on screen: the label the table stuck on it (or its character), and the top left corner
// where the initiative is printed, marked.
function cardPicture(name, value = '?') {
  return el('span', { class: 'rm-card-picture', 'aria-hidden': 'true' },
    el('span', { class: 'rm-corner', text: value }), el('span', { class: 'rm-card-label', text: name }));
}

function askedName(game, asked) {
  return cardName(asked, playerOf(game, asked.seat)?.character);
}

function initiativeForm(game, asked, owner = '') {
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
    el('label', { class: 'rm-number' }, t('Initiative (top left of the card)'), input),
    el('button', { type: 'submit', class: 'primary', text: t('Save') })));
}

// The owner's phone asks; the host screen lists whom the table waits for and, folded, lets the host
// read the card of a player whose phone is away (it lies face up on the table).
function initiativesPanel(game, me, hosting = false) {
  const asking = game.round.asking;
  const mine = me ? asking.filter((asked) => asked.seat === me.seat) : [];
  const parts = [el('h3', { text: t('Cards played for the first time') })];
  if (mine.length) {
    parts.push(el('p', { text: t('The companion does not know these cards yet. Read the number at the top left of each one: it asks once and remembers it for the evening.') }),
      ...mine.map((asked) => initiativeForm(game, asked)));
  }
  const others = asking.filter((asked) => !me || asked.seat !== me.seat);
  if (others.length) {
    parts.push(el('p', { class: 'muted rm-waiting', text: t('Waiting for: %(names)s', {
      names: [...new Set(others.map((asked) => asked.seat))].map((seat) => nameOf(game, seat)).join(', ') }) }));
  }
  if (hosting && others.length) {
    parts.push(folded('host-initiatives', t("For a player who is away: read their card on the table"),
      ...others.map((asked) => initiativeForm(game, asked, nameOf(game, asked.seat)))));
  }
  return el('section', { class: 'rm-panel rm-initiatives' }, ...parts);
}

function freeMovePanel(game, me) {
  const moves = allOf(game, 'free_move');
  if (!moves.length) return null;
  const levels = moves.filter((action) => action.level);
  return el('section', { class: 'rm-panel rm-free-move mine' },
    el('p', { class: 'rm-your-turn', text: t('Free move: you are last. One space forward, on the level of your choice (not onto another player).') }),
    el('div', { class: 'rm-actions' }, ...levels.map((action) => button(t('Level %(level)s', { level: action.level }),
      () => send(action), 'primary')), button(t('No free move'), () => send({ type: 'free_move', pass: true }))));
}

function offerPanel(game, me) {
  const offer = game.round?.offer;
  const parts = [];
  if (offer && offer.to === me.seat) {
    parts.push(el('p', { class: 'rm-warning', text: t('%(name)s offers you %(give)s bonus token(s) for %(take)s of yours.', {
      name: nameOf(game, offer.from), give: offer.give, take: offer.take }) }),
    button(t('Accept the exchange'), () => send({ type: 'answer_offer', accept: true }), 'primary'),
    button(t('Refuse'), () => send({ type: 'answer_offer', accept: false })));
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

// --- the reveal and the order of play --------------------------------------------------------------

function revealPanel(game) {
  const round = game.round;
  if (!round || !round.revealed.length || !['turns', 'round_end', 'finish'].includes(game.phase)) return null;
  const checks = round.revealed.map((entry) => ({ entry, check: verification(game, entry) }));
  const allGood = checks.every(({ check }) => check.ok);
  const rows = checks.map(({ entry, check }) => el('li', { class: `rm-revealed${check.ok ? '' : ' bad'}` },
    swatch(entry.seat), el('span', { class: 'rm-who', text: nameOf(game, entry.seat) }),
    entry.choice.bubble ? el('span', { class: 'rm-chip rm-bubble-chip', text: t('Bubble') })
      : el('span', { class: 'rm-pair' }, cardChip(entry.left_initiative, t('left')),
        cardChip(entry.second_initiative, t('second'))),
    check.ok ? el('span', { class: 'rm-verified', title: entry.commitment, text: `✓ ${t('verified')}` })
      : el('span', { class: 'rm-mismatch', text: `⚠ ${(check.changed ? t('changed after locking in!') : t('does not match its commitment!'))}` })));
  return el('section', { class: 'rm-panel rm-reveal', 'aria-live': 'polite' },
    el('h3', { text: t('Round %(round)s: the reveal', { round: round.number }) }), el('ul', { class: 'rm-reveal-list' }, ...rows),
    el('p', { class: allGood ? 'rm-all-verified' : 'rm-warning',
      text: (allGood ? t('Every choice matches the commitment published before the reveal.') : t('Warning: a choice does not match its commitment. Do not trust this round.')) }),
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

function turnPanel(game, me) {
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
    if (can(game, 'end_turn')) parts.push(button(t('End my turn'), () => send({ type: 'end_turn' }), 'primary big rm-end-turn'));
    parts.push(...tokenButtons(game, me));
  } else if (game.active !== null) {
    parts.push(el('p', { class: 'rm-status-line', text: t("%(name)s's turn", { name: nameOf(game, game.active) }) }));
  }
  parts.push(...offerPanel(game, me));
  if (can(game, 'crossed')) parts.push(button(t('I crossed the finish line'), () => send({ type: 'crossed' }), 'rm-cross'));
  if (!parts.length) return null;
  return el('section', { class: `rm-panel rm-turn${mine ? ' mine' : ''}` }, ...parts);
}

function tokenButtons(game, me) {
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
    tokens.push(button(t('Use my legendary ability (%(card)s)', { card: LEGENDARY[me.legendary] }), () => send({ type: 'use_legendary' })));
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

function hurtPanel(game) {
  const hurts = allOf(game, 'hurt');
  if (!hurts.length) return null;
  return folded('hurt', t('I was hit'), el('p', { class: 'muted', text: t('Your heart is spent first; without one you take damage, unless you are immune.') }),
    el('div', { class: 'rm-actions' }, ...hurts.map((action) => button(action.cause === 'projectile'
      ? t('Hit by projectile n°%(id)s', { id: action.projectile }) : t('Hit by %(cause)s', { cause: causeText(action.cause) }),
    () => send(action), 'danger'))));
}

// --- positions ------------------------------------------------------------------------------------

function positionText(position) {
  if (!position) return t('position not kept');
  if (position.column > LAST_COLUMN) return t('%(count)s past the line, level %(level)s', { count: position.column - LAST_COLUMN, level: position.level });
  return t('column %(column)s, level %(level)s', { column: position.column, level: position.level });
}

function positionPanel(game, me) {
  if (!RACE_PHASES.includes(game.phase)) return null;
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
    el('output', { class: 'rm-here', text: positionText(position) }));
  const direct = el('form', { class: 'inline rm-direct', onsubmit: (event) => {
    event.preventDefault();
    const column = readInt('pos:column');
    const level = readInt('pos:level');
    if (column !== null && level !== null) send({ type: 'position', column, level });
  } }, numberInput('pos:column', t('Column'), 0, 83), numberInput('pos:level', t('Level'), 1, 3),
  el('button', { type: 'submit', text: t('Set') }));
  const section = el('section', { class: 'rm-panel rm-position' }, el('h3', { text: t('My position') }), stepper,
    folded('direct', t('Type a position'), direct),
    can(game, 'forget_position') ? button(t('Stop keeping my position'), () => send({ type: 'forget_position' }), 'small') : null);
  return section;
}

// --- the table's questions (the host answers) --------------------------------------------------------

function questionText(game, asked) {
  const key = asked.key.startsWith('projectile_') ? 'projectile' : asked.key;
  return t(QUESTIONS[key], { column: asked.column, level: asked.level, id: asked.projectile, from: asked.from,
    to: asked.to, count: asked.count ?? asked.choices?.length });
}

function questionPanel(game, isHost) {
  const asked = game.question;
  if (!asked) return null;
  const parts = [el('h3', { text: t('Question for the table') }), el('p', { class: 'rm-question-text', text: questionText(game, asked) })];
  if (!isHost || !context.act) {
    parts.push(el('p', { class: 'muted', text: t('The host screen answers it.') }));
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
    } }, numberInput('answer:boss_move', t('Spaces'), asked.low, asked.high),
    el('button', { type: 'submit', class: 'primary', text: t('Answer') }));
  }
  if (asked.key === 'second_tile') {
    return el('div', { class: 'rm-choices' }, button(t('Yes'), () => answer(true), 'primary'),
      button(t('No'), () => answer(false)));
  }
  if (asked.key === 'last' || asked.key === 'ranking') {
    const wanted = asked.key === 'last' ? asked.count : asked.choices.length;
    const key = `${game.race.number}:${game.round?.number}:${asked.key}`;
    if (ordering.key !== key) ordering = { key, seats: [] };
    const left = asked.choices.filter((seat) => !ordering.seats.includes(seat));
    const confirm = button(t('Confirm'), () => answer(ordering.seats), 'primary big');
    confirm.disabled = ordering.seats.length !== wanted;
    return el('div', { class: 'rm-ordering' },
      el('ol', {}, ...ordering.seats.map((seat) => el('li', { text: nameOf(game, seat) }))),
      el('div', { class: 'rm-choices' }, ...(ordering.seats.length < wanted ? left : []).map((seat) =>
        button(nameOf(game, seat), () => { ordering.seats.push(seat); render(); }))),
      el('div', { class: 'rm-choices' }, confirm, button(t('Start again'), () => { ordering.seats = []; render(); })));
  }
  return el('div', { class: 'rm-choices' }, ...asked.choices.map((seat) =>
    button(seat === null ? t('Nobody') : nameOf(game, seat), () => answer(seat), seat === null ? '' : 'primary')));
}

// --- the public picture ---------------------------------------------------------------------------

function badges(game, player) {
  const items = [];
  const badge = (text, extra = '') => items.push(el('span', { class: `rm-badge ${extra}`.trim(), text }));
  if (player.legendary) badge(LEGENDARY[player.legendary], 'legendary');
  if (!game.round) return items;  // setting up: nothing to count yet
  badge(player.heart ? `♥ ${t('heart')}` : `♡ ${t('no heart')}`, player.heart ? 'heart' : 'off');
  badge(`${t('Bonus')} ${player.bonus}/${MAX_BONUS}${player.bonus_pending ? ' +1' : ''}`);
  items.push(freedBadge(game, player.ptizetres));
  badge(t('hand %(hand)s · discard %(discard)s', { hand: player.hand_size, discard: player.discard_size }));
  if (player.position) badge(positionText(player.position), 'position');
  if (game.phase === 'choosing' && !player.crossed) {
    badge(player.locked ? `✓ ${t('locked in')}` : t('choosing…'), player.locked ? 'ok' : 'off');
  }
  if (player.bubble) badge(t('Bubble: immune this round'), 'bubble');
  if (player.bubble_mode) badge(t('Bubble mode'), 'bubble');
  if (player.immune) badge(t('immune until their next turn'), 'immune');
  if (player.slapped) badge(t('already slapped'), 'off');
  if (player.crossed) badge(`🏁 ${t('finished')}${player.distance ? ` (+${player.distance})` : ''}`, 'ok');
  return items;
}

// The Ptizêtres a player freed: by colour (with its swatch) where the host named it, else by number.
function freedBadge(game, freed) {
  const which = freed.flatMap((number, index) => [index ? ', ' : ' (', ptizetreSwatch(game, number),
    colourOf(game, number) ? t(colourOf(game, number).name) : `n°${number}`]);
  return el('span', { class: `rm-badge rm-freed${freed.length >= 3 ? ' ok' : ''}` },  // one line of text inside
    el('span', {}, `${t('Ptizêtres')} ${freed.length}/3`, ...which, freed.length ? ')' : null));
}

function playersPanel(game) {
  return el('section', { class: 'rm-panel rm-players' }, el('h3', { text: t('Players') }),
    el('ul', {}, ...game.players.map((player) => el('li', {
      class: `rm-player${game.active === player.seat ? ' active' : ''}${player.seat === game.you ? ' me' : ''}` },
    el('p', { class: 'rm-player-name' }, swatch(player.seat), el('strong', { text: nameOf(game, player.seat) }),
      game.active === player.seat ? el('span', { class: 'rm-now', text: ` — ${t('playing')}` }) : null),
    el('p', { class: 'rm-badges' }, ...badges(game, player))))));
}

function boardPanel(game) {
  const parts = [];
  if (!game.round) return null;
  if (game.config.projectile) {
    parts.push(el('h4', { text: t('Projectiles (%(name)s)', { name: PROJECTILES[game.config.projectile] }) }),
      game.projectiles.length ? el('ul', { class: 'rm-projectiles' }, ...game.projectiles.map((projectile) => el('li', {
        text: t('Projectile n°%(id)s: column %(column)s, level %(level)s', { id: projectile.id, column: projectile.column, level: projectile.level }) })))
        : el('p', { class: 'muted', text: t('No projectile on the board.') }));
  }
  if (game.boss) {
    const boss = game.boss;
    parts.push(el('h4', { text: `Boss — ${BOSSES[boss.name] ?? boss.name}` }),
      el('p', { text: boss.column === null ? t('Not on the board yet: it enters at the first roll.')
        : t('Column %(column)s, level %(level)s', { column: boss.column, level: boss.level }) }),
      el('p', { text: boss.move === null ? t('Movement: asked at the first round') : tn('Moves %(count)s space each round', 'Moves %(count)s spaces each round', boss.move) }),
      boss.card !== null ? el('p', { text: bossCardName(game, boss.card) }) : null);
  }
  if (!parts.length) return null;
  return el('section', { class: 'rm-panel rm-board' }, ...parts);
}

function myCardsPanel(game, me) {
  if (!RACE_PHASES.includes(game.phase) && game.phase !== 'race_over') return null;
  const parts = [el('h3', { text: t('My action cards') })];
  const row = (label, ids) => el('div', { class: 'rm-card-row' }, el('span', { class: 'rm-row-label', text: label }),
    ...(ids.length ? cardsOf(me, ids).map((card) => cardChip(card.initiative, cardName(card)))
      : [el('span', { class: 'muted', text: '—' })]));
  if (game.config.quick) {
    parts.push(el('p', { text: tn('In hand: %(count)s card · discarded: %(discard)s', 'In hand: %(count)s cards · discarded: %(discard)s', me.hand.length, { discard: me.discard.length }) }));
  } else {
    parts.push(row(t('Hand'), me.hand));
    if (me.played.length) parts.push(row(t('Played'), me.played));
    parts.push(row(t('Discard'), me.discard));
  }
  if (me.random_discards.length) {
    parts.push(el('p', { class: 'rm-random', text: game.config.quick
      ? t('Discarded at random (only you see this): your cards n° %(ranks)s, counting from the highest initiative.', { ranks: me.random_ranks.join(', ') })
      : t('Discarded at random (only you see this): %(cards)s', { cards: cardsOf(me, me.random_discards)
        .map((card) => `${card.initiative ?? "?"} (${cardName(card)})`).join(', ') }) }));
  }
  if (!game.config.quick && RACE_PHASES.includes(game.phase)) parts.push(correctionForm(me));
  return el('section', { class: 'rm-panel rm-my-cards' }, ...parts);
}

// A card's initiative told wrong: put right here (the rules refuse it while the card is in play this round).
function correctionForm(me) {
  const known = cardsOf(me, me.cards.map((card) => card.id)).filter((card) => card.initiative !== null);
  if (!known.length) return null;
  if (!known.some((card) => card.id === kept['correct:card'])) kept['correct:card'] = known[0].id;
  const select = el('select', { 'data-keep': 'correct:card', onchange: (event) => { kept['correct:card'] = event.target.value; } },
    ...known.map((card) => el('option', { value: card.id, selected: card.id === kept['correct:card'],
      text: `${card.initiative} (${cardName(card)})` })));
  return folded('correct', t('Correct an initiative'), el('form', { class: 'rm-correct', novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const text = (kept['correct:value'] ?? '').toString().trim();
    if (!/^-?\d+$/.test(text)) {
      showErrorAt(event.submitter, t('Type the number printed at the top left of the card: 0 to 99.'));
      return;
    }
    send({ type: 'correct_initiative', card: kept['correct:card'], initiative: Number(text) });
  } }, el('label', { class: 'rm-number' }, t('Card'), select),
  numberInput('correct:value', t('Initiative (top left of the card)'), 0, 99),
  el('button', { type: 'submit', class: 'primary', text: t('Correct') })));
}

function summaryPanel(game) {
  const summary = roundEndSummary(game);
  if (!summary || !summary.events.length) return null;
  const free = summary.events.find((event) => event.type === 'free_move');
  const mine = free && game.you !== null && free.seats.includes(game.you);
  return el('section', { class: 'rm-panel rm-round-end' }, el('h3', { text: t('End of round %(round)s', { round: summary.round }) }),
    mine ? el('p', { class: 'rm-free-move', text: t('You are last: move your figure one space forward, on the level of your choice (not onto another player or an Obstacle; Walls do not stop it).') }) : null,
    free && !mine ? el('p', { class: 'rm-free-move-others', text: free.seats.length
      ? t('Free move for the last player: %(names)s', { names: namesOf(game, free.seats) }) : eventText(free, game) }) : null,
    el('ul', {}, ...summary.events.filter((event) => event.type !== 'free_move')
      .map((event) => eventText(event, game)).filter(Boolean).map((text) => el('li', { text }))));
}

function resultPanel(game) {
  const result = game.result;
  if (!result) return null;
  if (result.kind === 'coop') {
    return el('section', { class: `rm-panel rm-result ${result.won ? 'won' : 'lost'}` },
      el('p', { class: 'rm-big', text: coopResult(result) }));
  }
  const winners = namesOf(game, result.winners);
  return el('section', { class: 'rm-panel rm-result won' },
    el('p', { class: 'rm-big', text: result.winners.length ? t('%(names)s wins the race!', { names: winners }) : t('The Boss won the race.') }),
    result.boss_won ? el('p', { text: t("The Boss finished first: the players' places start at the second.") }) : null,
    el('ol', { class: 'rm-ranking' }, ...result.ranking.map((entry) => el('li', {},
      el('strong', { text: t('Place %(place)s', { place: entry.place }) }), ' ', swatch(entry.seat), nameOf(game, entry.seat), ' — ',
      entry.crossed ? tn('%(count)s space past the line', '%(count)s spaces past the line', entry.distance) : t('did not cross the line')))));
}

function standingsPanel(game) {
  const tournament = game.tournament;
  if (!tournament) return null;
  const standings = [...tournament.standings].sort((a, b) => b.points - a.points);
  const parts = [el('h3', { text: t('Tournament standings (races played: %(count)s of 4)', { count: tournament.races.length }) }),
    el('ol', { class: 'rm-standings' }, ...standings.map((standing) => el('li', {}, swatch(standing.seat),
      nameOf(game, standing.seat), ' — ', el('strong', { text: tn('%(count)s point', '%(count)s points', standing.points) }))))];
  if (tournament.winners) {
    parts.push(el('p', { class: 'rm-big', text: t('%(names)s wins the tournament!', { names: namesOf(game, tournament.winners) }) }));
  }
  if (context.act && can(game, 'next_race')) {
    parts.push(button(t('Next race'), () => send({ type: 'next_race' }), 'primary big'));
  }
  else if (game.phase === 'race_over') parts.push(el('p', { class: 'muted', text: t('Waiting for the host to start the next race.') }));
  return el('section', { class: 'rm-panel rm-tournament' }, ...parts);
}

function distancePanel(game, me) {
  if (!can(game, 'distance')) return null;
  return el('section', { class: 'rm-panel rm-distance' }, el('h3', { text: t('Past the finish line') }),
    el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      const spaces = readInt('distance');
      if (spaces !== null) send({ type: 'distance', spaces });
    } }, numberInput('distance', t('Spaces past the line'), 1, 40),
    el('button', { type: 'submit', class: 'primary', text: t('Send') })),
    me.distance ? el('p', { class: 'rm-done', text: tn('%(count)s space past the line', '%(count)s spaces past the line', me.distance) }) : null);
}

function historyPanel(game) {
  const lines = (game.history || []).filter((event) => !UNLISTED.has(event.type))
    .map((event) => ({ event, text: eventText(event, game) })).filter((line) => line.text).slice(-12).reverse();
  if (!lines.length) return null;  // no heading over nothing before the first event
  return el('section', { class: 'rm-panel rm-history' }, el('h3', { text: t('What happened') }),
    el('ul', { tabindex: '0' }, ...lines.map(({ event, text }) => el('li', {}, eventSwatch(game, event), text))));
}

function setupReminder(game) {
  const config = game.config;
  const items = [`${withColon(t('Mode'))} ${t(MODES[config.mode])}`,
    `${withColon(t('Difficulty'))} ${t(DIFFICULTIES[config.difficulty])}`,
    t('Board: %(board)s', { board: BOARDS[game.race.board] ?? game.race.board })];
  items.push(config.projectile ? t('Projectiles: %(name)s', { name: PROJECTILES[config.projectile] }) : t('No projectiles'));
  if (config.projectile_card) items.push(t('The projectile card applies'));
  if (config.boss) items.push(t('Boss: %(name)s', { name: BOSSES[config.boss] ?? config.boss }));
  items.push((config.extra_cards ? t('Extra action cards: 10 cards each') : t('8 action cards each')));
  if (config.legendary) items.push(t('Legendary player cards'));
  items.push((config.quick ? t('Quick: type the two initiatives each round') : t("Known cards; a new card's initiative is asked once")));
  items.push(tn('%(count)s captive Ptizêtre; free 3 before the finish line', '%(count)s captive Ptizêtres; free 3 before the finish line', config.captives));
  if (config.tournament) items.push(t('Tournament (the 4 boards)'));
  return folded('setup', t("This race's setup"), el('ul', {}, ...items.map((text) => el('li', { text }))),
    el('a', { href: '/rayman/labels', target: '_blank', rel: 'noopener', text: t('Numbered labels to print for the extra cards, the Boss cards and the Ptizêtres') }));
}

// --- the captive Ptizêtres' colours (the host, optional) ------------------------------------------------

// Where the tokens are placed (the setup), the host screen offers to name each captive token by the colour
// printed on it: the first one still unnamed is picked, so naming it is one tap on its colour. Skipped,
// the Ptizêtres keep their numbers (the labels sheet); during the race the same panel waits folded.
function colourPanel(game) {
  const colours = game.ptizetre_colours || {};
  const numbers = Array.from({ length: game.config.captives }, (_, index) => index + 1);
  const current = numbers.includes(naming) ? naming : numbers.find((number) => !colours[number]) ?? null;
  const tokens = el('div', { class: 'rm-choices rm-ptz-tokens', role: 'group', 'aria-label': t('Which Ptizêtre') },
    ...numbers.map((number) => el('button', { type: 'button', class: number === current ? 'picked' : '',
      'aria-pressed': String(number === current), onclick: () => { naming = number; render(); } },
    ptizetreSwatch(game, number) ?? el('span', { class: 'rm-ptz-swatch unnamed', 'aria-hidden': 'true' }),
    t('n°%(number)s', { number }))));
  const parts = [el('p', { class: 'muted', text: t('Optional: every screen then names each token by its colour; skipped, it keeps its number.') }), tokens];
  if (current === null) {
    parts.push(el('p', { class: 'rm-done', text: t('Every Ptizêtre has its colour: tap one to change it.') }));
  } else {
    const taken = new Set(Object.entries(colours).filter(([number]) => Number(number) !== current).map(([, colour]) => colour));
    parts.push(el('p', { class: 'rm-ptz-ask', text: t('Ptizêtre n°%(number)s: its colour?', { number: current }) }),
      el('div', { class: 'rm-choices rm-palette', role: 'group', 'aria-label': t('Colours') },
        ...Object.entries(PTIZETRE_COLOURS).map(([id, colour]) => el('button', { type: 'button',
          class: colours[current] === id ? 'picked' : '', 'aria-pressed': String(colours[current] === id),
          disabled: taken.has(id), onclick: async () => {
            if (await send({ type: 'ptizetre_colour', ptizetre: current, colour: id })) {
              naming = null;  // on to the next one still unnamed
              render();
            }
          } }, paintSwatch(colour), t(colour.name)))));
  }
  const title = t("The captive Ptizêtres' colours");
  if (SETUP_PHASES.includes(game.phase)) return el('section', { class: 'rm-panel rm-colours' }, el('h3', { text: title }), ...parts);
  return folded('colours', title, ...parts);
}

// --- what to do now ------------------------------------------------------------------------------------

function statusText(game, me, isHost) {
  const phase = game.phase;
  if (phase === 'game_over') return t('The game is over.');
  if (game.question && !isHost) return t('The table must answer a question on the host screen.');
  if (game.question) return t('The table must answer this question:');
  const locked = game.players.filter((player) => !player.crossed);
  switch (phase) {
    case 'characters': return me && !me.character ? t('Pick your character.') : t("Waiting for the other players' characters.");
    case 'legendary': return me && !me.legendary ? t('Pick your legendary player card.') : t("Waiting for the other players' legendary cards.");
    case 'draft': return me && can(game, 'pick') ? t('Your pick: take one extra action card.') : t('The extra action cards are being drafted.');
    case 'exchange': return me && can(game, 'exchange') ? t('Choose the cards you give back.') : t('Waiting for the card exchange.');
    case 'initiatives': return me && game.round.asking.some((asked) => asked.seat === me.seat)
      ? t('Type the initiative printed on each new card.') : t('Waiting for the initiatives of the cards played for the first time.');
    case 'round_start': return me && can(game, 'roll') ? t('Roll the die!') : t('Start of the round: the dice.');
    case 'revealing': return t('The reveal: every phone opens its commitment.');
    case 'choosing':
      if (me && !me.crossed && !me.locked) return t('Choose your two action cards in secret, then lock in.');
      return t('%(count)s of %(total)s locked in', { count: locked.filter((player) => player.locked).length, total: locked.length });
    case 'turns':
      if (game.active === null) return '';
      return me && game.active === me.seat ? t('Your turn!') : t("%(name)s's turn", { name: nameOf(game, game.active) });
    case 'round_end': return t('End of the round: projectiles, Boss and the free move.');
    case 'finish': return me && can(game, 'distance') ? t('Enter how many spaces past the finish line you got.') : t('The race is over: waiting for the distances and the ranking.');
    case 'race_over': return t('Waiting for the host to start the next race.');
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
  const round = game.round ? t('Round %(round)s', { round: game.round.number }) : '';
  const head = el('header', { class: 'rm-head' },
    el('strong', { class: 'rm-title', text: t('Race %(race)s', { race: game.race.number }) }),
    round ? el('span', { class: 'rm-round', text: round }) : null,
    el('span', { class: 'rm-phase', text: t(PHASES[game.phase]) }),
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
    if (game.phase === 'revealing') parts.push(revealingPanel(game, me));
    if (game.phase === 'initiatives') parts.push(initiativesPanel(game, me));
    if (game.phase === 'round_end') parts.push(freeMovePanel(game, me));
    if (game.phase === 'turns' || game.phase === 'round_end') parts.push(turnPanel(game, me));
    parts.push(distancePanel(game, me), revealPanel(game), game.phase === 'round_start' ? null : dice,
      myCardsPanel(game, me), positionPanel(game, me), hurtPanel(game));
  } else {
    parts.push(...hostSetupPanel(game));
    if (game.phase === 'round_start') parts.push(dice);
    if (racing) parts.push(summaryPanel(game));
    if (game.phase === 'choosing') {
      parts.push(el('section', { class: 'rm-panel rm-choice' },
        el('h3', { text: t('Round %(round)s: secret choice', { round: game.round.number }) }), lockState(game)));
    }
    if (game.phase === 'revealing') parts.push(revealingPanel(game, null));
    if (game.phase === 'initiatives') parts.push(initiativesPanel(game, null, isHost && Boolean(context.act)));
    parts.push(revealPanel(game), game.phase === 'round_start' ? null : dice);
  }
  parts.push(standingsPanel(game), playersPanel(game), boardPanel(game), historyPanel(game), setupReminder(game));
  // Last: on the TV it takes a column of its own, beside what the table waits for.
  if (isHost && context.act && game.phase !== 'game_over') parts.push(colourPanel(game));
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
  if (act && view.game.round && view.game.you !== null) revealOrPickAgain(view.game, playerOf(view.game, view.game.you));
  rolledNow = new Set();
}
