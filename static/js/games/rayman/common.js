// Rayman's screen, what every part reads: the names from the box, the view's helpers, the commitments
// checked here, the inputs that survive a redraw and the one way a phone sends an action.
import { t } from '../../i18n.js';
import { el, lazy, seatColour } from '../../ui.js';
import { context, lastView, target } from './view.js';
export const observed = new Map();  // race:round:seat -> the commitment this screen saw before the reveal
export const kept = {};  // what the player typed, by input key: a new view redraws the screen, not the typing
export const openDetails = new Set();  // folded sections the player opened
// The game's names of its components, by kind (characters, legendary, boards, projectiles, bosses): the
// table's part of the view carries them (companion/games/rayman/components.py) as [id, name] pairs in the box's
// order, each name a msgid or a proper name the box prints.
export const boxNames = (kind) => lastView?.table?.names?.[kind] ?? [];
export function boxName(kind, id) {
  const found = boxNames(kind).find(([known]) => known === id);
  return found ? t(found[1]) : id;
}
export const STEPS = [['up', '↑'], ['back', '←'], ['forward', '→'], ['down', '↓']];
// Events that the history shows but nobody needs to hear (or that come by the dozen).
export const QUIET = new Set(['moved', 'position_forgotten', 'initiative_told', 'answered', 'choosing', 'round_started',
  'reveal_now', 'revealed_by', 'free_move_passed', 'no_hit', 'ptizetre_named',
  'locked', 'turn_ended', 'standings']);
export const UNLISTED = new Set(['moved', 'position_forgotten', 'choosing']);
// The end of a round, as the history tells it (from the last turn to the next round).
export const ROUND_END_EVENTS = new Set(['projectile_moved', 'projectile_removed', 'projectile_hit', 'projectile_card_effect',
  'boss_moved', 'boss_hit', 'boss_attack', 'boss_finished', 'free_move', 'immune', 'heart_lost', 'damaged',
  'bubble_mode', 'random_discards', 'answered', 'moved', 'crossed']);


// --- reading the view ------------------------------------------------------------------

export const legal = (game) => game.legal || [];
export const matches = (action, fields) => Object.entries(fields).every(([key, value]) => action[key] === value);
export const can = (game, type, fields = {}) => legal(game).some((action) => action.type === type && matches(action, fields));
export const allOf = (game, type) => legal(game).filter((action) => action.type === type);
export const playerOf = (game, seat) => game.players.find((player) => player.seat === seat);
export const roundKey = (game, seat) => `${game.race.number}:${game.round?.number}:${seat}`;

export function nameOf(game, seat) {
  if (seat === null || seat === undefined) return t('Nobody');
  const player = playerOf(game, seat);
  if (!player) return `#${seat}`;
  if (!player.character || player.character === player.name) return player.name;
  return `${player.character} (${player.name})`;
}

export const namesOf = (game, seats) => seats.map((seat) => nameOf(game, seat)).join(', ');

// Whom the table waits for: the kernel's answer (the view's waiting), never worked out again here.
export function waitingFor(game, except = null) {
  const seats = [...new Set((game.waiting || []).map((wait) => wait.seat))].filter((seat) => seat !== except);
  return seats.length ? el('p', { class: 'muted rm-waiting', text: t('Waiting for: %(names)s', { names: namesOf(game, seats) }) }) : null;
}

export const numbers = (cards) => cards.map((number) => `n°${number}`).join(', ');

// Components by the names the table reads on them: the labels of /rayman/labels (the same words), and a
// character's own cards by the character (the box prints no name on them: their initiative tells them apart).
export const extraName = (number) => t('Extra action card n°%(number)s', { number });
// A captive Ptizêtre by the colour the host named it with (companion/games/rayman/ptizetres.py), else its number:
// the palette, each colour's name, its token's name and its paint come with the table's names (components.py).
export const ptizetreColours = () => boxNames('ptizetre_colours').map(([colour]) => colour);
export const colourOf = (game, number) => (game.ptizetre_colours || {})[String(number)] ?? null;
export const colourName = (colour) => boxName('ptizetre_colours', colour);
export function ptizetreName(game, number) {
  const colour = colourOf(game, number);
  return colour ? boxName('ptizetres', colour) : t('Captive Ptizêtre n°%(number)s', { number });
}
export function paintSwatch(colour) {
  const node = el('span', { class: 'rm-ptz-swatch', 'aria-hidden': 'true' });
  node.style.background = boxNames('ptizetre_paints').find(([known]) => known === colour)?.[1] ?? '';
  return node;
}
export const ptizetreSwatch = (game, number) => (colourOf(game, number) ? paintSwatch(colourOf(game, number)) : null);
// The Ptizêtre an event is about, drawn before its line in the history.
export const eventSwatch = (game, event) => (event.ptizetre ? ptizetreSwatch(game, event.ptizetre) : null);
export const bossCardName = (game, number) => t('%(boss)s: attack card n°%(number)s', { boss: boxName('bosses', game.boss?.name) ?? 'Boss', number });

export function cardName(card, character = lastView?.game && playerOf(lastView.game, lastView.game.you)?.character) {
  if (card.extra) return extraName(card.extra);
  return character ? t('%(character)s card', { character }) : t('Action card');
}

// A card by its initiative ("?" until the table has told it) and its name.
export function cardChip(initiative, caption = '', extra = '') {
  return el('span', { class: `rm-card ${extra}`.trim() },
    el('strong', { class: 'rm-initiative', text: initiative === null || initiative === undefined ? '?' : String(initiative) }),
    caption ? ' ' : null, caption ? el('small', { text: caption }) : null);  // read as "30 Rayman card", not "30Rayman card"
}

// What this phone taps next: a bar at the bottom of its screen (companion.css), in view however far it scrolled.
export const nextAction = (...children) => el('div', { class: 'rm-next next-action' }, ...children);

export function cardsOf(me, ids) {
  return (ids || []).map((id) => me.cards.find((card) => card.id === id)).filter(Boolean)
    .sort((a, b) => (b.initiative ?? -1) - (a.initiative ?? -1));
}

export function swatch(seat) {
  const node = el('span', { class: 'swatch' });
  node.style.background = seatColour(lastView, seat);
  return node;
}

// --- commitments, checked here ------------------------------------------------------------

// The hashing of a choice and its salt is shared with the verify page (rayman-draws.js). It loads, with
// its SHA-256, when this screen first makes or checks a commitment: not while the table only chooses.
export const hashing = lazy(() => import('../rayman-draws.js'));

export function observe(game) {
  if (game.phase !== 'choosing') return;
  for (const player of game.players) {
    if (player.locked && player.commitment) observed.set(roundKey(game, player.seat), player.commitment);
  }
}

// A revealed choice must hash to its commitment, and that commitment must be the one this screen saw
// before the reveal (a screen opened after the reveal can only check the hash).
export function verification(game, entry, { commitmentOf }) {
  const before = observed.get(roundKey(game, entry.seat));
  if ('drawn' in entry) return { ok: !(before !== undefined && before !== entry.commitment), changed: false, drawn: true };
  const hashOk = commitmentOf(entry.choice, entry.salt) === entry.commitment;
  const changed = before !== undefined && before !== entry.commitment;
  return { ok: hashOk && !changed, changed };
}

// --- inputs that survive a redraw ----------------------------------------------------------------

export function keptInput(key, attributes) {
  return el('input', { ...attributes, 'data-keep': key, value: kept[key] ?? attributes.value ?? '',
    oninput: (event) => { kept[key] = event.target.value; } });
}

export function folded(key, summary, ...children) {
  return el('details', { class: `rm-fold rm-${key}`, open: openDetails.has(key),
    ontoggle: (event) => { if (event.target.open) openDetails.add(key); else openDetails.delete(key); } },
  el('summary', { text: summary }), ...children);
}

export function numberInput(key, label, low, high, value = '') {
  return el('label', { class: 'rm-number' }, label,
    keptInput(key, { type: 'number', min: String(low), max: String(high), inputmode: 'numeric', value: String(value) }));
}

export const readInt = (key) => {
  const text = (kept[key] ?? '').toString().trim();
  return /^\d+$/.test(text) ? Number(text) : null;
};

export async function send(action) {
  const answer = await context.act(action);
  return answer?.ok;
}
