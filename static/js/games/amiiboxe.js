// Amiiboxe: the criterion die, fights, captures and the score sheet; the host screen keeps
// the seat order, the first player and (optionally) the board.
import { t } from '../i18n.js';
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
  return el('section', { class: 'ax-reference' }, el('h3', { text: t('ax_reference') }),
    el('ol', {}, ...game.reference.criteria.map((id, index) => el('li', {},
      el('span', { class: 'ax-face', text: String(index + 1) }), wording(id)))));
}

// --- the fight ----------------------------------------------------------------------

function fightTitle(game, fight) {
  return t('ax_attacks', { attacker: figureName(figureById(game, fight.attacker)),
    defender: figureName(figureById(game, fight.defender)) });
}

function outcomeText(game, fight) {
  if (fight.winner === 'tie') return t('ax_tie');
  const winner = figureById(game, fight[fight.winner]);
  return t('ax_winner', { name: figureName(winner) });
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
  const parts = [el('p', { text: t(fight.exchange === 'judge' ? 'ax_who_wins' : 'ax_enter_values',
    { criterion: wording(fight.criterion) }) })];
  if (myRole && !fight.answered[myRole] && act) {
    if (fight.exchange === 'judge') {
      for (const role of ['attacker', 'defender']) {
        const figure = figureById(game, fight[role]);
        parts.push(button(figureName(figure), () => act({ type: 'judge', winner: figure.id }), 'primary big'));
      }
    } else {
      const input = el('input', { type: 'number', min: '0', max: '99', inputmode: 'numeric', value: '0',
        'aria-label': t('ax_my_value', { name: figureName(figureById(game, fight[myRole])) }) });
      parts.push(el('label', {}, t('ax_my_value', { name: figureName(figureById(game, fight[myRole])) }), input),
        button(t('ax_send'), () => act({ type: 'enter_value', value: Number(input.value) }), 'primary'));
    }
  }
  parts.push(el('p', { class: 'muted', text: waiting.length ? t('ax_waiting_for', { names: waiting.join(', ') })
    : '' }));
  return el('section', { class: 'ax-answer' }, ...parts);
}

// --- a turn on the phone --------------------------------------------------------------

function turnPanel(game, me, act) {
  if (game.chain && game.active === me) {
    const figure = figureById(game, game.chain.figure);
    return el('section', { class: 'ax-turn' }, el('p', { text: t('ax_chain', { name: figureName(figure) }) }),
      ...attackButtons(game, figure, act), button(t('ax_end_turn'), () => act({ type: 'end_turn' })));
  }
  if (game.active !== me) return el('p', { class: 'ax-status', text: t('ax_turn_of', { name: seatName(game, game.active) }) });
  const own = game.figures.filter((figure) => figure.seat === me && figure.status === 'in_play');
  const mine = movingFigure(game, me);  // picked on the phone, or tapped on the reader
  const parts = [el('p', { class: 'ax-status', text: t('ax_your_turn') }),
    el('div', { class: 'ax-pick', role: 'group', 'aria-label': t('ax_pick_figure') }, ...own.map((figure) =>
      el('button', { type: 'button', class: figure === mine ? 'picked' : '', 'aria-pressed': String(figure === mine),
        text: figureName(figure), onclick: () => { picked = figure.id; render(); } })))];
  if (mine) {
    const boardKept = game.board !== null;
    parts.push(el('div', { class: 'ax-actions' },
      boardKept ? el('p', { class: 'muted', text: t('ax_move_on_board') })
        : button(t('ax_move', { name: figureName(mine) }), () => act({ type: 'move', figure: mine.id })),
      el('h4', { text: t('ax_attack_whom') }), ...attackButtons(game, mine, act),
      button(t('ax_retire', { name: figureName(mine) }), () => act({ type: 'retire', figure: mine.id }))));
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
  el('details', { class: 'ax-effects' }, el('summary', { text: t('ax_location_effects') }),
    el('label', { class: 'check' }, ranged, t('ax_ranged')), el('label', { class: 'check' }, chain, t('ax_chain_option')))];
}

// --- setup -----------------------------------------------------------------------------

function setupPanel(game, me, act, isHost) {
  const info = game.setup;
  const parts = [el('h3', { text: t('ax_setup') }),
    el('p', { text: t('ax_square', { size: info.size }) }),
    el('p', { text: `${t('ax_locations')}: ${info.locations.join(', ') || '…'}` }),
    el('p', { text: t(info.forbidden_corners.length ? 'ax_placement_corners' : 'ax_placement') })];
  if (isHost && act) parts.push(hostSetup(game, act));
  for (const figure of game.figures.filter((f) => f.seat === me && f.location === null)) {
    const input = el('input', { maxlength: '40', 'aria-label': t('ax_location_of', { name: figureName(figure) }) });
    parts.push(el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      act?.({ type: 'name_location', figure: figure.id, name: input.value });
    } }, el('label', {}, t('ax_location_of', { name: figureName(figure) }), input),
    el('button', { type: 'submit', text: t('ax_save') })));
  }
  parts.push(el('ul', { class: 'ax-needs' }, ...game.needs.map((need) => el('li', { text: t(`ax_need_${need}`) }))));
  return el('section', { class: 'ax-setup' }, ...parts);
}

function hostSetup(game, act) {
  const order = [...game.order];
  const moveUp = (index) => {
    [order[index - 1], order[index]] = [order[index], order[index - 1]];
    act({ type: 'seat_order', seats: order });
  };
  return el('div', { class: 'stack' },
    el('h4', { text: t('ax_seat_order') }),
    el('ol', {}, ...order.map((seatId, index) => el('li', {}, seatName(game, seatId), ' ',
      index ? button('↑', () => moveUp(index), 'small') : null))),
    el('h4', { text: t('ax_first_player') }),
    el('div', { class: 'inline' }, ...game.order.map((seatId) => el('button', {
      type: 'button', 'aria-pressed': String(game.first === seatId), class: game.first === seatId ? 'picked' : '',
      text: seatName(game, seatId), onclick: () => act({ type: 'first_player', seat: seatId }) }))),
    game.actions.includes('begin') ? button(t('ax_begin'), () => act({ type: 'begin' }), 'primary big') : null);
}

// --- the board (host screen, when kept) ------------------------------------------------------

function boardPanel(game, act, isHost, mover = null) {
  if (!game.board) return null;
  const at = new Map(game.figures.filter((f) => f.at && f.status === 'in_play').map((f) => [f.at.join(','), f]));
  const grid = el('div', { class: 'ax-board', role: 'grid', 'aria-label': t('ax_board') });
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
  return el('section', { class: 'ax-board-panel' }, el('h3', { text: t('ax_board') }), grid,
    isHost && act ? el('div', { class: 'ax-pick' }, ...waiting.map((figure) => el('button', {
      type: 'button', class: figure.id === picked ? 'picked' : '', text: figureName(figure),
      onclick: () => { picked = figure.id; render(); } }))) : null,
    isHost && act ? el('p', { class: 'muted', text: t('ax_board_hint') }) : null);
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
    const name = window.prompt(t('ax_reveal_prompt'), '');
    if (name) act({ type: 'reveal', cell, name });
  }
}

// --- host tools: the reference between fights, repousser and décaler --------------------------

function referenceChanger(game, act) {
  const choice = el('select', { 'aria-label': t('ax_change_reference') },
    ...references.map((reference) => el('option', { value: reference.id, text: reference.title,
      selected: reference.id === game.reference.id })),
    el('option', { value: 'random', text: t('ax_random_reference') }));
  return el('div', { class: 'inline ax-reference-tools' }, choice,
    button(t('ax_change_reference'), () => act({ type: 'set_reference', reference: choice.value })));
}

function boardTools(game, act) {
  if (!game.board) return null;
  const inPlay = game.figures.filter((figure) => figure.status === 'in_play' && figure.at);
  const figureSelect = (label) => el('select', { 'aria-label': label },
    ...inPlay.map((figure) => el('option', { value: String(figure.id), text: figureName(figure) })));
  const pusher = figureSelect(t('ax_pusher'));
  const pushed = figureSelect(t('ax_pushed'));
  const kind = el('select', { 'aria-label': t('ax_shift_what') },
    el('option', { value: 'line', text: t('ax_shift_line') }), el('option', { value: 'column', text: t('ax_shift_column') }));
  const index = el('input', { type: 'number', min: '1', max: String(game.size), value: '1', inputmode: 'numeric',
    'aria-label': t('ax_shift_index') });
  const direction = el('select', { 'aria-label': t('ax_shift_direction') },
    ...['left', 'right', 'forward', 'back'].map((value) => el('option', { value, text: t(`ax_dir_${value}`) })));
  return el('details', { class: 'ax-board-tools' }, el('summary', { text: t('ax_board_operations') }),
    el('div', { class: 'inline' }, pusher, el('span', { text: '→' }), pushed,
      button(t('ax_push'), () => act({ type: 'push', figure: Number(pusher.value), target: Number(pushed.value) }))),
    el('p', { class: 'muted', text: t('ax_shift_hint') }),
    el('div', { class: 'inline' }, kind, index, direction,
      button(t('ax_shift'), () => act({ type: 'shift', kind: kind.value, index: Number(index.value) - 1,
        direction: direction.value }))));
}

// --- score sheet and history --------------------------------------------------------------------

const STATUS = { in_play: 'ax_in_play', retired: 'ax_retired', captured: 'ax_captured', out: 'ax_out' };

function scoreSheet(game) {
  return el('section', { class: 'ax-scores' }, el('h3', { text: t('ax_scores') }),
    el('ul', {}, ...game.order.map((seatId) => {
      const seat = game.seats.find((s) => s.id === seatId);
      const item = el('li', {}, el('span', { class: 'swatch' }), el('strong', { text: `${seat.name} — ${t('ax_points', { count: seat.points })}` }),
        el('ul', {}, ...game.figures.filter((f) => f.seat === seatId).map((figure) => el('li', {
          class: `ax-figure ${figure.status}`,
          text: `${figureName(figure)} · ${t(STATUS[figure.status])}${figure.carries.length
            ? ` · ${t('ax_carries', { names: figure.carries.map((id) => figureName(figureById(game, id))).join(', ') })}` : ''}`,
        }))));
      item.querySelector('.swatch').style.background = seatColour(lastView, seatId);
      return item;
    })));
}

function fightHistory(game) {
  return el('section', { class: 'ax-history' }, el('h3', { text: t('ax_fights') }),
    el('ol', { reversed: true }, ...[...game.fights].reverse().map((fight) => el('li', {
      text: `${fightTitle(game, fight)} — ${fight.face}: ${wording(fight.criterion)}${fight.values && !game.pro
        ? ` (${valueText(fight.criterion, fight.values.attacker)} / ${valueText(fight.criterion, fight.values.defender)})` : ''} — ${outcomeText(game, fight)}`,
    }))));
}

function overPanel(game) {
  const names = (game.winners ?? []).map((seatId) => seatName(game, seatId)).join(', ');
  return el('section', { class: 'ax-over' }, el('p', { class: 'ak-big', text: t('ax_game_over', { names }) }));
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
  const parts = [referencePanel(game)];
  if (game.phase === 'setup') parts.push(setupPanel(game, me, act, isHost), boardPanel(game, act, isHost));
  else {
    if (game.phase === 'over') parts.push(overPanel(game));
    parts.push(lastFightPanel(game));
    if (game.fight) parts.push(answerPanel(game, me, act));
    else if (game.phase === 'play' && act && !isHost) parts.push(turnPanel(game, me, act));
    else if (game.phase === 'play') parts.push(el('p', { class: 'ax-status', text: t('ax_turn_of', { name: seatName(game, game.active) }) }));
    parts.push(boardPanel(game, act, isHost, isHost || game.fight ? null : movingFigure(game, me)));
    if (isHost && act && game.phase === 'play') parts.push(boardTools(game, act), referenceChanger(game, act));
    parts.push(scoreSheet(game), fightHistory(game));
  }
  target.replaceChildren(el('div', { class: 'amiiboxe' }, ...parts,
    el('p', {}, el('a', { href: `/rankings?table=${lastView.table.code}`, target: '_blank', text: t('ax_rankings') }))));
}

export function renderAmiiboxe(container, view, { act = null, announce = null } = {}) {
  lastView = view;
  target = container;
  context = { act };
  if (!criteria) loadCriteria();
  announceNew(view.game, announce);
  render();
}
