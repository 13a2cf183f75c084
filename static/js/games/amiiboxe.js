// Amiiboxe: the criterion die, fights, captures and the score sheet; the host screen keeps
// the seat order, the first player and (optionally) the board.
import { N_, t } from '../i18n.js';
import { button, el, reducedMotion, seatColour } from '../ui.js';

const language = document.documentElement.lang || 'en';
let criteria = null;  // id -> {wording, unit, kind}, from /api/criteria in the page's language
let references = [];  // [{id, title}]
let loading = null;
let lastView = null;
let target = null;
let context = {};
let picked = null;  // own figure picked on the phone (or a figure picked on the host's board)
let seenFights = null;

function loadCriteria() {
  loading ??= fetch(`/api/criteria?lang=${language}`).then((response) => response.json()).then((body) => {
    criteria = Object.fromEntries(body.criteria.map((criterion) => [criterion.id, criterion]));
    references = body.references;
    render();
  });
}

const wording = (id) => criteria?.[id]?.wording ?? id;
const figureName = (figure) => figure.name[language] || figure.name.en;
const seatName = (game, seatId) => game.seats.find((seat) => seat.id === seatId)?.name ?? `#${seatId}`;
const figureById = (game, id) => game.figures.find((figure) => figure.id === id);

function valueText(criterionId, value) {
  if (value === null || value === undefined) return '?';
  const unit = criteria?.[criterionId]?.unit;
  const number = typeof value === 'number' ? value.toLocaleString(language) : String(value);
  if (unit === 'm') return `${number} m`;
  if (unit === 'date') return new Date((value - 719163) * 86400000).toLocaleDateString(language);
  return number;
}

function referencePanel(game) {
  return el('section', { class: 'ax-reference' }, el('h3', { text: t('The reference (die faces 1 to 6)') }),
    el('ol', {}, ...game.reference.criteria.map((id, index) => el('li', {},
      el('span', { class: 'ax-face', text: String(index + 1) }), wording(id)))));
}

// --- the fight ----------------------------------------------------------------------

function fightTitle(game, fight) {
  return t('%(attacker)s attacks %(defender)s', { attacker: figureName(figureById(game, fight.attacker)),
    defender: figureName(figureById(game, fight.defender)) });
}

function outcomeText(game, fight) {
  if (fight.winner === 'tie') return t('A tie: nothing happens.');
  const winner = figureById(game, fight[fight.winner]);
  return t('%(name)s wins the fight.', { name: figureName(winner) });
}

function lastFightPanel(game) {
  const fight = game.fight ?? game.fights[game.fights.length - 1];
  if (!fight) return null;
  const isNew = seenFights !== null && game.fights.length > seenFights && !game.fight;
  const die = el('div', { class: `die ax-die${isNew && !reducedMotion() ? ' rolling' : ''}` },
    el('span', { class: 'die-face', text: String(fight.face) }));
  const parts = [el('p', { class: 'ax-fight-title', text: fightTitle(game, fight) }), die,
    el('p', { class: 'ax-criterion', text: wording(fight.criterion) })];
  if (fight.values && !game.pro) {
    parts.push(el('p', { class: 'ax-values', text: `${figureName(figureById(game, fight.attacker))} ${valueText(fight.criterion, fight.values.attacker)} · ${figureName(figureById(game, fight.defender))} ${valueText(fight.criterion, fight.values.defender)}` }));
  }
  if (fight.winner) parts.push(el('p', { class: 'ax-outcome', text: outcomeText(game, fight) }));
  return el('section', { class: 'ax-fight', 'aria-live': 'polite' }, ...parts);
}

function answerPanel(game, me, act) {
  const fight = game.fight;
  const myRole = Object.entries(fight.seats).find(([, owner]) => owner === me)?.[0];
  const waiting = Object.entries(fight.answered).filter(([, done]) => !done)
    .map(([role]) => seatName(game, fight.seats[role]));
  const criterion = wording(fight.criterion);
  const parts = [el('p', { text: fight.exchange === 'judge'
    ? t('%(criterion)s: who wins? Both players answer; the same answer decides, different answers are a tie.',
      { criterion })
    : t("%(criterion)s: each player enters their own figure's value.", { criterion }) })];
  if (myRole && !fight.answered[myRole] && act) {
    if (fight.exchange === 'judge') {
      for (const role of ['attacker', 'defender']) {
        const figure = figureById(game, fight[role]);
        parts.push(button(figureName(figure), () => act({ type: 'judge', winner: figure.id }), 'primary big'));
      }
    } else {
      const input = el('input', { type: 'number', min: '0', max: '99', inputmode: 'numeric', value: '0',
        'aria-label': t('Value of %(name)s', { name: figureName(figureById(game, fight[myRole])) }) });
      parts.push(el('label', {}, t('Value of %(name)s', { name: figureName(figureById(game, fight[myRole])) }), input),
        button(t('Send'), () => act({ type: 'enter_value', value: Number(input.value) }), 'primary'));
    }
  }
  parts.push(el('p', { class: 'muted', text: waiting.length ? t('Waiting for: %(names)s', { names: waiting.join(', ') })
    : '' }));
  return el('section', { class: 'ax-answer' }, ...parts);
}

// --- a turn on the phone --------------------------------------------------------------

function turnPanel(game, me, act) {
  if (game.chain && game.active === me) {
    const figure = figureById(game, game.chain.figure);
    return el('section', { class: 'ax-turn' }, el('p', { text: t("%(name)s won: fight again (a location's effect) or end the turn.", { name: figureName(figure) }) }),
      ...attackButtons(game, figure, act), button(t('End the turn'), () => act({ type: 'end_turn' })));
  }
  if (game.active !== me) return el('p', { class: 'ax-status', text: t("%(name)s's turn", { name: seatName(game, game.active) }) });
  const own = game.figures.filter((figure) => figure.seat === me && figure.status === 'in_play');
  const mine = movingFigure(game, me);  // picked on the phone, or tapped on the reader
  const parts = [el('p', { class: 'ax-status', text: t('Your turn: pick a figure, then move, attack or retire.') }),
    el('div', { class: 'ax-pick', role: 'group', 'aria-label': t('Your figures') }, ...own.map((figure) =>
      el('button', { type: 'button', class: figure === mine ? 'picked' : '', 'aria-pressed': String(figure === mine),
        text: figureName(figure), onclick: () => { picked = figure.id; render(); } })))];
  if (mine) {
    const boardKept = game.board !== null;
    parts.push(el('div', { class: 'ax-actions' },
      boardKept ? el('p', { class: 'muted', text: t('To move it, tap an adjacent free place on the board below.') })
        : button(t('%(name)s moves (on the table)', { name: figureName(mine) }), () => act({ type: 'move', figure: mine.id })),
      el('h4', { text: t('Attack an adjacent enemy:') }), ...attackButtons(game, mine, act),
      button(t('%(name)s retires (on its own location)', { name: figureName(mine) }), () => act({ type: 'retire', figure: mine.id }))));
  }
  return el('section', { class: 'ax-turn' }, ...parts);
}

function attackButtons(game, attacker, act) {
  const ranged = el('input', { type: 'checkbox' });
  const chain = el('input', { type: 'checkbox' });
  const enemies = game.figures.filter((figure) => figure.seat !== attacker.seat && figure.status === 'in_play');
  return [...enemies.map((enemy) => button(`⚔ ${figureName(enemy)} (${seatName(game, enemy.seat)})`, () => act({
    type: 'attack', attacker: attacker.id, defender: enemy.id,
    ...(ranged.checked ? { ranged: true } : {}), ...(chain.checked ? { chain: true } : {}),
  }), 'ax-attack')),
  el('details', { class: 'ax-effects' }, el('summary', { text: t('Location effects') }),
    el('label', { class: 'check' }, ranged, t('Ranged attack (no move after a win)')), el('label', { class: 'check' }, chain, t('A second fight after a win')))];
}

// --- setup -----------------------------------------------------------------------------

// What the host must still settle before the fights begin.
const NEEDS = {
  first_player: N_('Who got an amiibo last? They play first (the host chooses).'),
  locations: N_('Every figure needs its home location.'),
  placements: N_("Every figure must stand on its owner's first row."),
};

function setupPanel(game, me, act, isHost) {
  const info = game.setup;
  const parts = [el('h3', { text: t('Setting up the square') }),
    el('p', { text: t('A square of %(size)s × %(size)s location cards, face down.', { size: info.size }) }),
    el('p', { text: `${t('Cards that must be in it')}: ${info.locations.join(', ') || '…'}` }),
    el('p', { text: info.forbidden_corners.length
      ? t('Each player places their figures on the first row in front of them, never in a corner shared by two '
        + 'starting lines.')
      : t('Each player places their figures on the first row in front of them.') })];
  if (isHost && act) parts.push(hostSetup(game, act));
  for (const figure of game.figures.filter((f) => f.seat === me && f.location === null)) {
    const input = el('input', { maxlength: '40', 'aria-label': t('Home location of %(name)s', { name: figureName(figure) }) });
    parts.push(el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      act?.({ type: 'name_location', figure: figure.id, name: input.value });
    } }, el('label', {}, t('Home location of %(name)s', { name: figureName(figure) }), input),
    el('button', { type: 'submit', text: t('Save') })));
  }
  parts.push(el('ul', { class: 'ax-needs' }, ...game.needs.map((need) => el('li', { text: t(NEEDS[need]) }))));
  return el('section', { class: 'ax-setup' }, ...parts);
}

function hostSetup(game, act) {
  const order = [...game.order];
  const moveUp = (index) => {
    [order[index - 1], order[index]] = [order[index], order[index - 1]];
    act({ type: 'seat_order', seats: order });
  };
  return el('div', { class: 'stack' },
    el('h4', { text: t('Seats, clockwise') }),
    el('ol', {}, ...order.map((seatId, index) => el('li', {}, seatName(game, seatId), ' ',
      index ? button('↑', () => moveUp(index), 'small') : null))),
    el('h4', { text: t('Who got an amiibo last?') }),
    el('div', { class: 'inline' }, ...game.order.map((seatId) => el('button', {
      type: 'button', 'aria-pressed': String(game.first === seatId), class: game.first === seatId ? 'picked' : '',
      text: seatName(game, seatId), onclick: () => act({ type: 'first_player', seat: seatId }) }))),
    game.actions.includes('begin') ? button(t('Begin the fights'), () => act({ type: 'begin' }), 'primary big') : null);
}

// --- the board (host screen, when kept) ------------------------------------------------------

function boardPanel(game, act, isHost, mover = null) {
  if (!game.board) return null;
  const at = new Map(game.figures.filter((f) => f.at && f.status === 'in_play').map((f) => [f.at.join(','), f]));
  const grid = el('div', { class: 'ax-board', role: 'grid', 'aria-label': t('The board') });
  grid.style.gridTemplateColumns = `repeat(${game.size}, 1fr)`;
  game.board.forEach((row, r) => row.forEach((card, c) => {
    const figure = at.get(`${r},${c}`);
    const cell = el('button', { type: 'button', class: `ax-cell${card.revealed ? ' revealed' : ''}${figure && figure.id === picked ? ' picked' : ''}`,
      'aria-label': `${r + 1}, ${c + 1}${card.name ? ` — ${card.name}` : ''}${figure ? ` — ${figureName(figure)}` : ''}`,
      onclick: isHost && act ? () => boardTap(game, act, figure, [r, c], card)
        : mover && !figure ? () => act({ type: 'move', figure: mover.id, cell: [r, c] }) : null },
    el('span', { class: 'ax-card', text: card.revealed ? (card.name ?? '?') : '' }),
    figure ? el('strong', { class: 'ax-token', text: figureName(figure) }) : null);
    if (figure) cell.querySelector('.ax-token').style.color = seatColour(lastView, figure.seat);
    grid.append(cell);
  }));
  const waiting = game.figures.filter((f) => f.status === 'in_play' && !f.at);
  return el('section', { class: 'ax-board-panel' }, el('h3', { text: t('The board') }), grid,
    isHost && act ? el('div', { class: 'ax-pick' }, ...waiting.map((figure) => el('button', {
      type: 'button', class: figure.id === picked ? 'picked' : '', text: figureName(figure),
      onclick: () => { picked = figure.id; render(); } }))) : null,
    isHost && act ? el('p', { class: 'muted', text: t('Tap a figure, then a place. Tap an empty face-down card to reveal and name it.') }) : null);
}

// The phone's figure that a tap on an empty place of the kept board moves (its own turn only).
function movingFigure(game, me) {
  if (game.phase !== 'play' || game.active !== me || game.chain) return null;
  const own = game.figures.filter((figure) => figure.seat === me && figure.status === 'in_play');
  const chosen = picked ?? game.selected?.figure;
  return own.find((figure) => figure.id === chosen) ?? (own.length === 1 ? own[0] : null);
}

function boardTap(game, act, figure, cell, card) {
  if (figure) { picked = figure.id; render(); return; }
  if (picked !== null) { act({ type: 'place', figure: picked, cell }); picked = null; return; }
  if (!card.revealed || card.name === null) {
    const name = window.prompt(t('Name of this location card:'), '');
    if (name) act({ type: 'reveal', cell, name });
  }
}

// --- host tools: the reference between fights, repousser and décaler --------------------------

function referenceChanger(game, act) {
  const choice = el('select', { 'aria-label': t('Change the reference') },
    ...references.map((reference) => el('option', { value: reference.id, text: reference.title,
      selected: reference.id === game.reference.id })),
    el('option', { value: 'random', text: t('A reference drawn at random') }));
  return el('div', { class: 'inline ax-reference-tools' }, choice,
    button(t('Change the reference'), () => act({ type: 'set_reference', reference: choice.value })));
}

const DIRECTIONS = { left: N_('left'), right: N_('right'), forward: N_('forward'), back: N_('back') };

function boardTools(game, act) {
  if (!game.board) return null;
  const inPlay = game.figures.filter((figure) => figure.status === 'in_play' && figure.at);
  const figureSelect = (label) => el('select', { 'aria-label': label },
    ...inPlay.map((figure) => el('option', { value: String(figure.id), text: figureName(figure) })));
  const pusher = figureSelect(t('The figure that pushes'));
  const pushed = figureSelect(t('The figure pushed'));
  const kind = el('select', { 'aria-label': t('Shift a line or a column') },
    el('option', { value: 'line', text: t('A line') }), el('option', { value: 'column', text: t('A column') }));
  const index = el('input', { type: 'number', min: '1', max: String(game.size), value: '1', inputmode: 'numeric',
    'aria-label': t("Number, from the active player's side") });
  const direction = el('select', { 'aria-label': t('Direction') },
    ...Object.entries(DIRECTIONS).map(([value, text]) => el('option', { value, text: t(text) })));
  return el('details', { class: 'ax-board-tools' }, el('summary', { text: t('Board operations (location effects)') }),
    el('div', { class: 'inline' }, pusher, el('span', { text: '→' }), pushed,
      button(t('Push back'), () => act({ type: 'push', figure: Number(pusher.value), target: Number(pushed.value) }))),
    el('p', { class: 'muted', text: t("Lines and columns are counted from the active player's side and left; lines move left or right, columns forward or back.") }),
    el('div', { class: 'inline' }, kind, index, direction,
      button(t('Shift'), () => act({ type: 'shift', kind: kind.value, index: Number(index.value) - 1,
        direction: direction.value }))));
}

// --- score sheet and history --------------------------------------------------------------------

const STATUS = { in_play: N_('in play'), retired: N_('retired'), captured: N_('captured'), out: N_('out of the game') };

function scoreSheet(game) {
  return el('section', { class: 'ax-scores' }, el('h3', { text: t('Score sheet') }),
    el('ul', {}, ...game.order.map((seatId) => {
      const seat = game.seats.find((s) => s.id === seatId);
      const item = el('li', {}, el('span', { class: 'swatch' }), el('strong', { text: `${seat.name} — ${t('%(count)s points', { count: seat.points })}` }),
        el('ul', {}, ...game.figures.filter((f) => f.seat === seatId).map((figure) => el('li', {
          class: `ax-figure ${figure.status}`,
          text: `${figureName(figure)} · ${t(STATUS[figure.status])}${figure.carries.length
            ? ` · ${t('carries %(names)s', { names: figure.carries.map((id) => figureName(figureById(game, id))).join(', ') })}` : ''}`,
        }))));
      item.querySelector('.swatch').style.background = seatColour(lastView, seatId);
      return item;
    })));
}

function fightHistory(game) {
  return el('section', { class: 'ax-history' }, el('h3', { text: t('Fights') }),
    el('ol', { reversed: true }, ...[...game.fights].reverse().map((fight) => el('li', {
      text: `${fightTitle(game, fight)} — ${fight.face}: ${wording(fight.criterion)}${fight.values && !game.pro
        ? ` (${valueText(fight.criterion, fight.values.attacker)} / ${valueText(fight.criterion, fight.values.defender)})` : ''} — ${outcomeText(game, fight)}`,
    }))));
}

function overPanel(game) {
  const names = (game.winners ?? []).map((seatId) => seatName(game, seatId)).join(', ');
  return el('section', { class: 'ax-over' }, el('p', { class: 'ak-big', text: t('Game over: %(names)s wins!', { names }) }));
}

function announceNew(game, announce) {
  if (seenFights !== null && game.fights.length > seenFights) {
    const fight = game.fights[game.fights.length - 1];
    announce?.(`${fightTitle(game, fight)} — ${wording(fight.criterion)} — ${outcomeText(game, fight)}`);
  }
  seenFights = game.fights.length;
}

function render() {
  if (!lastView) return;
  const game = lastView.game;
  const { act } = context;
  const isHost = lastView.you.role === 'host';
  const me = lastView.you.seat;
  // What to do now first (a phone shows it without scrolling); the reference, the score sheet and
  // the fights after it (beside it on a TV).
  const parts = [];
  const aside = [referencePanel(game)];
  if (game.phase === 'setup') parts.push(setupPanel(game, me, act, isHost), boardPanel(game, act, isHost));
  else {
    if (game.phase === 'over') parts.push(overPanel(game));
    parts.push(lastFightPanel(game));
    if (game.fight) parts.push(answerPanel(game, me, act));
    else if (game.phase === 'play' && act && !isHost) parts.push(turnPanel(game, me, act));
    else if (game.phase === 'play') parts.push(el('p', { class: 'ax-status', text: t("%(name)s's turn", { name: seatName(game, game.active) }) }));
    parts.push(boardPanel(game, act, isHost, isHost || game.fight ? null : movingFigure(game, me)));
    if (isHost && act && game.phase === 'play') parts.push(boardTools(game, act), referenceChanger(game, act));
    aside.push(scoreSheet(game), fightHistory(game));
  }
  aside.push(el('p', {}, el('a', { href: `/rankings?table=${lastView.table.code}`, target: '_blank', text: t('Criteria rankings') })));
  target.replaceChildren(el('div', { class: 'amiiboxe' }, el('div', { class: 'ax-main' }, ...parts),
    el('div', { class: 'ax-aside' }, ...aside)));
}

export function renderAmiiboxe(container, view, { act = null, announce = null } = {}) {
  lastView = view;
  target = container;
  context = { act };
  if (!criteria) loadCriteria();
  announceNew(view.game, announce);
  render();
}
