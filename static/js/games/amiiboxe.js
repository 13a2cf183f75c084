// Amiiboxe: the criterion die, fights, captures and the score sheet; the host screen keeps
// the seat order, the first player and (optionally) the board.
import { N_, t, tn, withColon } from '../i18n.js';
import { button, el, numberPad, reducedMotion, seatColour } from '../ui.js';

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

// Who may still answer: the two players of the fight, or the voters.
function answerers(fight) {
  if (fight.exchange === 'vote') return fight.voters.filter((seat) => !fight.answered[String(seat)]);
  return Object.entries(fight.seats).filter(([role]) => !fight.answered[role]).map(([, seat]) => seat);
}

function askText(game, fight) {
  const criterion = wording(fight.criterion);
  if (fight.exchange === 'vote') {
    return t('%(criterion)s: the two players disagree. The other players vote, sealed: the majority decides.',
      { criterion });
  }
  if (fight.exchange === 'values') return t("%(criterion)s: each player enters their own figure's value.", { criterion });
  if (fight.proposal) {
    const favoured = figureName(figureById(game, fight[fight.proposal.winner]));
    return fight.proposal.by === 'house'
      ? t("%(criterion)s: who wins? The table's ranking says %(name)s; the same answer from both players decides.",
        { criterion, name: favoured })
      : t("%(criterion)s: who wins? The project's ranking (an estimate) says %(name)s; the same answer from both "
        + 'players decides.', { criterion, name: favoured });
  }
  if (game.disagreement === 'tie') {
    return t('%(criterion)s: who wins? Both players answer; the same answer decides, different answers are a tie.',
      { criterion });
  }
  // PRO with two players: nobody can block a fight by disagreeing (the rule the book leaves open).
  if (game.pro && game.seats.length === 2) {
    return t('%(criterion)s: who wins? Both players answer; the same answer decides. Otherwise the companion '
      + 'decides by what it knows (values, rankings, the board), else the die for another criterion, else a fair '
      + 'draw between the two figures.', { criterion });
  }
  return t('%(criterion)s: who wins? Both players answer; the same answer decides, otherwise the others vote (the '
    + 'die again with 2 players).', { criterion });
}

function answerPanel(game, me, act) {
  const fight = game.fight;
  const waiting = answerers(fight);
  const parts = [el('p', { class: 'ax-ask', text: askText(game, fight) })];
  if (act && waiting.includes(me)) {
    if (fight.exchange === 'values') {
      const role = Object.entries(fight.seats).find(([, owner]) => owner === me)[0];
      const label = t('Value of %(name)s', { name: figureName(figureById(game, fight[role])) });
      const input = el('input', { type: 'number', min: '0', max: '99', inputmode: 'numeric', value: '0',
        'aria-label': label });
      // The bar with its keys covers the question: it says again which criterion the value is for.
      const criterion = el('p', { class: 'ax-bar-criterion', text: wording(fight.criterion) });
      parts.push(el('div', { class: 'ax-answers next-action' }, criterion, el('label', {}, label, input), numberPad(input),
        button(t('Send'), () => act({ type: 'enter_value', value: Number(input.value) }), 'primary')));
    } else {
      // The answers: a bar at the bottom of the phone's screen, which says again which criterion they judge.
      parts.push(el('div', { class: 'ax-answers next-action' },
        el('p', { class: 'ax-bar-criterion', text: wording(fight.criterion) }), ...['attacker', 'defender'].map((role) => {
        const figure = figureById(game, fight[role]);
        return button(figureName(figure), () => act({ type: 'judge', winner: figure.id }), 'primary big');
      })));
    }
  }
  parts.push(el('p', { class: 'muted', text: waiting.length
    ? t('Waiting for: %(names)s', { names: waiting.map((seat) => seatName(game, seat)).join(', ') }) : '' }));
  return el('section', { class: 'ax-answer' }, ...parts);
}

// --- a turn on the phone --------------------------------------------------------------

const legalOf = (game, type) => (game.legal ?? []).filter((action) => action.type === type);
const can = (game, type) => (game.legal ?? []).some((action) => action.type === type);
const endTurnButton = (game, act) => (can(game, 'end_turn')
  ? button(t('End the turn'), () => act({ type: 'end_turn' }), 'ax-end') : null);

// The card a figure on a free board stands on: named by its player, so that its effect is offered;
// and the one it moves onto.
let standingOn = '';
let arrivingOn = '';

// A card picked from a list, under its label in words (a bare "(choose a card)" said nothing of what for).
function cardSelect(game, label, value, onchange) {
  return el('label', { class: 'ax-card-pick' }, label,
    el('select', { onchange: (event) => onchange(event.target.value) },
      el('option', { value: '', text: t('(choose a card)') }),
      ...game.cards.map((name) => el('option', { value: name, text: name, selected: name === value }))));
}

// A turn's action is done and an effect waits: the card to name, the swap, the second fight.
function stepPanel(game, me, act) {
  const step = game.step;
  const parts = [];
  if (step.kind === 'name_card') {
    let chosen = '';
    parts.push(el('p', { text: t('Which card did you turn over? Its effect depends on it.') }),
      el('div', { class: 'next-action' }, cardSelect(game, t('The card turned over'), '', (value) => { chosen = value; }),
        button(t('Name it'), () => act({ type: 'name_card', cell: step.cell, name: chosen }), 'primary')));
  } else if (step.kind === 'swap_cards') {
    parts.push(el('p', { text: t('Amiiboxe ville: tap two locations on the board to swap them (revealed or not).') }));
  } else if (step.kind === 'second_fight') {
    const figure = figureById(game, step.figure);
    parts.push(el('p', { text: t('Enfers: %(name)s won and stays. Fight once more (a normal fight) or end the turn.',
      { name: figureName(figure) }) }), ...attackButtons(game, figure, act));
  } else if (step.kind === 'hold') {
    parts.push(holdText(game), el('div', { class: 'next-action' }, button(t('Done: the effect is applied'),
      () => act({ type: 'confirm_effect' }), 'primary ax-confirm')));
    return el('section', { class: 'ax-turn ax-hold' }, ...parts);
  } else {
    parts.push(el('p', { text: t("Apply your card's effect with the board operations, then end the turn.") }));
  }
  const end = endTurnButton(game, act);
  // Ending the turn is then what this phone does next: a bar at the bottom of its screen.
  if (end) parts.push(step.kind === 'name_card' ? end : el('div', { class: 'next-action' }, end));
  return el('section', { class: 'ax-turn' }, ...parts);
}

// A card whose effect the companion does not know: the table applies it on the real board.
function holdText(game) {
  return el('p', { class: 'ax-status', text: t("%(card)s: the companion does not know this card's effect. Apply it on the board (the board operations below move figures and cards), then confirm.",
    { card: game.step.card }) });
}

// The host screen (and the other phones) while the table applies such an effect.
function holdStatus(game, act, confirms) {
  const parts = [el('p', { class: 'ax-status', text: t('%(name)s applies the effect of %(card)s on the board.',
    { name: seatName(game, game.active), card: game.step.card }) })];
  if (confirms) {
    parts.push(button(t('Done: the effect is applied'), () => act({ type: 'confirm_effect' }), 'ax-confirm'));
  }
  return el('section', { class: 'ax-turn ax-hold' }, ...parts);
}

function turnPanel(game, me, act) {
  if (game.active !== me && game.step?.kind === 'hold') return holdStatus(game, act, false);
  if (game.active !== me) return el('p', { class: 'ax-status', text: t("%(name)s's turn", { name: seatName(game, game.active) }) });
  if (game.step) return stepPanel(game, me, act);
  const own = game.figures.filter((figure) => figure.seat === me && figure.status === 'in_play');
  const mine = movingFigure(game, me);  // picked on the phone, or tapped on the reader
  const parts = [el('p', { class: 'ax-status', text: t('Your turn: pick a figure, then move, attack or retire.') }),
    el('div', { class: 'ax-pick', role: 'group', 'aria-label': t('Your figures') }, ...own.map((figure) =>
      el('button', { type: 'button', class: figure === mine ? 'picked' : '', 'aria-pressed': String(figure === mine),
        text: figureName(figure), onclick: () => { picked = figure.id; swapWith = null; render(); } })))];
  if (mine) {
    const boardKept = game.board !== null;
    const retire = legalOf(game, 'retire').some((action) => action.figure === mine.id);
    // Once a figure is picked, what it may do is this phone's next action: a bar at the bottom of its screen.
    parts.push(el('div', { class: 'ax-actions next-action' },
      // Free board: the card it arrives on, when the player says it, brings its arrival effect (or the
      // pause to apply one the companion does not know).
      boardKept ? null : cardSelect(game, t('The card %(name)s arrives on', { name: figureName(mine) }),
        arrivingOn, (value) => { arrivingOn = value; }),
      boardKept ? el('p', { class: 'muted', text: t('To move it, tap a free place it can reach on the board below.') })
        : button(t('%(name)s moves (on the table)', { name: figureName(mine) }), () => {
          act({ type: 'move', figure: mine.id, ...(arrivingOn ? { card: arrivingOn } : {}) });
          arrivingOn = '';
        }),
      ...(boardKept ? swapButtons(game, mine) : [cardSelect(game, t('The card %(name)s stands on', { name: figureName(mine) }),
        standingOn, (value) => { standingOn = value; render(); })]),
      el('h4', { text: t('Attack an enemy:') }), ...attackButtons(game, mine, act),
      retire || !boardKept ? button(t('%(name)s retires (on its own location)', { name: figureName(mine) }),
        () => act({ type: 'retire', figure: mine.id })) : null));
  }
  parts.push(endTurnButton(game, act));
  return el('section', { class: 'ax-turn' }, ...parts);
}

// Île des Yoshis: swap places with an adjacent figure before moving.
let swapWith = null;

function swapButtons(game, mine) {
  const partners = [...new Set(legalOf(game, 'move').filter((action) => action.figure === mine.id && action.swap_with)
    .map((action) => action.swap_with))];
  return partners.map((id) => el('button', { type: 'button', class: swapWith === id ? 'picked' : '',
    'aria-pressed': String(swapWith === id), text: t('Île des Yoshis: swap with %(name)s first',
      { name: figureName(figureById(game, id)) }), onclick: () => { swapWith = swapWith === id ? null : id; render(); } }));
}

function attackButtons(game, attacker, act) {
  const enemies = game.figures.filter((figure) => figure.seat !== attacker.seat && figure.status === 'in_play');
  const kept = game.board !== null;
  const allowed = new Set(legalOf(game, 'attack').filter((action) => action.attacker === attacker.id)
    .map((action) => action.defender));
  const ranged = el('input', { type: 'checkbox' });
  const bourgPalette = !kept && game.effect_cards[standingOn]?.effect === 'ranged_support';
  const buttons = enemies.filter((enemy) => !kept || allowed.has(enemy.id)).map((enemy) => button(
    `⚔ ${figureName(enemy)} (${seatName(game, enemy.seat)})`, () => act({
      type: 'attack', attacker: attacker.id, defender: enemy.id,
      ...(!kept && game.effect_cards[standingOn]?.when === 'attack' ? { card: standingOn } : {}),
      ...(bourgPalette && ranged.checked ? { ranged: true } : {}),
    }), 'ax-attack'));
  if (bourgPalette) {
    buttons.push(el('label', { class: 'check' }, ranged, t("Bourg Palette: a ranged attack on a support of the adjacent enemy")));
  }
  return buttons;
}

// --- setup -----------------------------------------------------------------------------

// What the host must still settle before the fights begin.
const NEEDS = {
  first_player: N_('Who got an amiibo last? They play first (the host chooses, or every phone says the same).'),
  locations: N_('Every figure needs its home location, chosen from the cards.'),
  placements: N_("Every figure must stand on its owner's first row."),
};

function setupPanel(game, me, act, isHost) {
  const info = game.setup;
  const parts = [el('h3', { text: t('Setting up the square') }),
    el('p', { text: t('A square of %(size)s × %(size)s location cards, face down.', { size: info.size }) }),
    el('p', { text: `${withColon(t('Cards that must be in it'))} ${info.locations.join(', ') || '…'}` }),
    el('p', { text: info.forbidden_corners.length
      ? t('Each player places their figures on the first row in front of them, never in a corner shared by two '
        + 'starting lines.')
      : t('Each player places their figures on the first row in front of them.') })];
  if (isHost && act) parts.push(hostSetup(game, act));
  for (const figure of game.figures.filter((f) => f.seat === me)) {
    parts.push(el('label', { class: 'ax-home' }, t('Home location of %(name)s', { name: figureName(figure) }),
      cardSelect(game, t('Home location of %(name)s', { name: figureName(figure) }), figure.location ?? '',
        (name) => act?.({ type: 'name_location', figure: figure.id, name }))));
  }
  if (!isHost && act && me !== null && me !== undefined) parts.push(firstPlayerVote(game, me, act));
  parts.push(el('ul', { class: 'ax-needs' }, ...game.needs.map((need) => el('li', { text: t(NEEDS[need]) }))));
  return el('section', { class: 'ax-setup' }, ...parts);
}

// The phones agree on who plays first: each proposes; the same proposal from every seat decides.
function firstPlayerVote(game, me, act) {
  const proposed = game.proposals?.first_player ?? [];
  return el('div', { class: 'stack' }, el('h4', { text: t('Who got an amiibo last?') }),
    el('div', { class: 'inline' }, ...game.order.map((seatId) => el('button', {
      type: 'button', 'aria-pressed': String(game.first === seatId), class: game.first === seatId ? 'picked' : '',
      text: seatName(game, seatId), onclick: () => act({ type: 'first_player', player: seatId }) }))),
    proposed.length ? el('p', { class: 'muted', text: t('Proposed by: %(names)s', {
      names: proposed.map((seatId) => seatName(game, seatId)).join(', ') }) }) : null);
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
      text: seatName(game, seatId), onclick: () => act({ type: 'first_player', player: seatId }) }))),
    can(game, 'begin') ? button(t('Begin the fights'), () => act({ type: 'begin' }), 'primary big') : null);
}

// --- the board (host screen, when kept) ------------------------------------------------------

function boardPanel(game, act, isHost, mover = null) {
  if (!game.board) return null;
  const at = new Map(game.figures.filter((f) => f.at && f.status === 'in_play').map((f) => [f.at.join(','), f]));
  const grid = el('div', { class: 'ax-board', role: 'grid', 'aria-label': t('The board') });
  grid.style.gridTemplateColumns = `repeat(${game.size}, minmax(0, 1fr))`;  // long card names wrap, never widen
  game.board.forEach((row, r) => row.forEach((card, c) => {
    const figure = at.get(`${r},${c}`);
    const cell = el('button', { type: 'button', class: `ax-cell${card.revealed ? ' revealed' : ''}${figure && figure.id === picked ? ' picked' : ''}`,
      'aria-label': `${r + 1}, ${c + 1}${card.name ? ` — ${card.name}` : ''}${figure ? ` — ${figureName(figure)}` : ''}`,
      onclick: isHost && act ? () => boardTap(game, act, figure, [r, c], card)
        : phoneBoardTap(game, act, mover, figure, [r, c]) },
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
    isHost && act ? el('p', { class: 'muted', text: t('Tap a figure, then a place. Tap a revealed card to name it.') }) : null);
}

// A tap on the kept board from the active phone: a move (a place the figure can reach), or the
// two locations Amiiboxe ville swaps.
function phoneBoardTap(game, act, mover, figure, cell) {
  if (game.step?.kind === 'swap_cards' && act) return () => swapTap(act, cell);
  if (!mover || figure || !act) return null;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const move = legalOf(game, 'move').find((action) => action.figure === mover.id && same(action.cell, cell)
    && (action.swap_with ?? null) === swapWith);
  return move ? () => act(move) : null;
}

let swapFirst = null;  // the first of two locations to swap

function swapTap(act, cell) {
  if (!swapFirst) { swapFirst = cell; render(); return; }
  const [first, second] = [swapFirst, cell];
  swapFirst = null;
  swapping = false;
  if (first[0] !== second[0] || first[1] !== second[1]) act({ type: 'swap_cards', first, second });
}

// The phone's figure that a tap on an empty place of the kept board moves (its own turn only).
function movingFigure(game, me) {
  if (game.phase !== 'play' || game.active !== me || game.step) return null;
  const own = game.figures.filter((figure) => figure.seat === me && figure.status === 'in_play');
  const chosen = picked ?? game.selected?.figure;
  return own.find((figure) => figure.id === chosen) ?? (own.length === 1 ? own[0] : null);
}

let naming = null;  // the revealed card the host is naming

function boardTap(game, act, figure, cell, card) {
  if (swapping || game.step?.kind === 'swap_cards') { swapTap(act, cell); return; }
  if (figure) { picked = figure.id; render(); return; }
  if (picked !== null) { act({ type: 'place', figure: picked, cell }); picked = null; return; }
  if (card.revealed) { naming = cell; render(); }
}

function namingPanel(game, act) {
  if (!naming || !game.board) return null;
  let chosen = '';
  return el('div', { class: 'inline ax-naming' }, el('span', { text: t('Card at %(row)s, %(column)s:',
    { row: naming[0] + 1, column: naming[1] + 1 }) }),
  cardSelect(game, t('The card turned over'), '', (value) => { chosen = value; }),
  button(t('Name it'), () => { act({ type: 'name_card', cell: naming, name: chosen }); naming = null; }));
}

let swapping = false;

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
  return el('details', { class: 'ax-board-tools', open: swapping || naming ? '' : null },
    // Before the turn's action they only correct the board (the host's): a correction is no action.
    el('summary', { text: ['action', 'second_fight'].includes(game.stage)
      ? t('Correct the board (not an action)') : t('Board operations (location effects)') }),
    namingPanel(game, act),
    button(swapping ? t('Tap two locations…') : t('Swap two locations'), () => { swapping = !swapping; swapFirst = null; render(); }),
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
      const item = el('li', {}, el('span', { class: 'swatch' }), el('strong', { text: `${seat.name} — ${tn('%(count)s point', '%(count)s points', seat.points)}` }),
        el('ul', {}, ...game.figures.filter((f) => f.seat === seatId).map((figure) => el('li', {
          class: `ax-figure ${figure.status}`,
          text: `${figureName(figure)} · ${t(STATUS[figure.status])}${figure.carries.length
            ? ` · ${t('carries %(names)s', { names: figure.carries.map((id) => figureName(figureById(game, id))).join(', ') })}` : ''}`,
        }))));
      item.querySelector('.swatch').style.background = seatColour(lastView, seatId);
      return item;
    })));
}

// How a fight was decided (the log says which rule it used).
const RULES = {
  values: N_('by the values'), board: N_('measured on the board'), entries: N_('by the values entered'),
  agreement: N_('both players agreed'), house: N_("by the table's ranking"),
  default: N_("by the project's ranking (an estimate)"), vote: N_('by the vote of the other players'),
  tie_on_disagreement: N_('a tie on disagreement (house option)'),
  no_criterion_left: N_('a tie: no criterion left to roll'),
  pro_values: N_('by the values the companion keeps (the players disagreed)'),
  fair_draw: N_('a fair draw: the players disagreed on every criterion'),
};

function fightHistory(game) {
  if (!game.fights.length) return null;  // no "Fights" heading over nothing before the first fight
  return el('section', { class: 'ax-history' }, el('h3', { text: t('Fights') }),
    el('ol', { reversed: true, tabindex: '0' }, ...[...game.fights].reverse().map((fight) => el('li', {
      text: `${fightTitle(game, fight)} — ${withColon(fight.face)} ${wording(fight.criterion)}${fight.values && !game.pro
        ? ` (${valueText(fight.criterion, fight.values.attacker)} / ${valueText(fight.criterion, fight.values.defender)})` : ''} — ${outcomeText(game, fight)}${RULES[fight.by] ? ` (${t(RULES[fight.by])})` : ''}`,
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
    else if (game.phase === 'play' && game.step?.kind === 'hold') parts.push(holdStatus(game, act, Boolean(act) && isHost));
    else if (game.phase === 'play') parts.push(el('p', { class: 'ax-status', text: t("%(name)s's turn", { name: seatName(game, game.active) }) }));
    parts.push(boardPanel(game, act, isHost, isHost || game.fight ? null : movingFigure(game, me)));
    if (act && game.phase === 'play' && game.operations) parts.push(boardTools(game, act));
    if (isHost && act && game.phase === 'play') parts.push(referenceChanger(game, act));
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
