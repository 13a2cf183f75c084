// Arkade: the Alien against the Defender. Phones throw and declare; the host screen shows both sides.
import { N_, t, tn, withColon } from '../i18n.js';
import { button, el, reducedMotion } from '../ui.js';
import { piouuu } from '../sound.js';

const ALIEN = 'alien';
const DEFENDER = 'defender';
// The role that won, read from the kernel's outcome (its winner's seat): null while the game runs.
const winnerOf = (game) => (game.outcome
  ? [ALIEN, DEFENDER].find((role) => game.roles[role] === game.outcome.winners[0]) ?? null : null);
// The roles the table waits for, read from the kernel's waiting (its seats), never worked out here.
const waitedRoles = (game) => [ALIEN, DEFENDER]
  .filter((role) => (game.waiting || []).some((wait) => wait.seat === game.roles[role]));

let seenEvents = null;  // history length already announced (null: first view, announce nothing)
let serverOffset = 0;  // server time minus this screen's time, in ms
let clockTimer = null;
let countdownTimer = null;
let goSent = false;
let selected = new Set();  // dice picked for a re-throw
let pendingChoice = null;  // a two-step action waiting for its colour: 'bonus'
let lastView = null;
let draft = null;  // the counters being corrected (kept across views while the form is open)

// The view's legal actions say which buttons to show (the rules check every action again).
const can = (game, type) => game.legal.some((action) => action.type === type);
const serverNow = () => (Date.now() + serverOffset) / 1000;
const roleName = (role) => (role === ALIEN ? t('Alien') : t('Defender'));

// The game's names of its colours and power tiles (msgids), by id: the table's part of the view carries them
// (companion/games/arkade/constants.py), as [id, name] pairs; a colour the companion does not know shows as typed.
function boxName(kind, id) {
  const found = (lastView?.table?.names?.[kind] ?? []).find(([known]) => known === id);
  return found ? t(found[1]) : id;
}
// How the ship moved.
const SHIP_MOVES = {
  die: N_('The ship moves to cell %(cell)s (movement die).'),
  nugget: N_('The ship moves to cell %(cell)s (one nugget).'),
  gps: N_('The ship moves to cell %(cell)s (GPS update).'),
  reactor: N_('The damaged reactor: the ship moves to cell %(cell)s.'),
};
// Reactor damage: coming next turn, or now.
const REACTOR = {
  pending: N_('Reactor damaged: next turn the ship moves only on a 1 or a 6.'),
  active: N_('Reactor damaged: the ship moves only if the die shows 1 or 6, and then only to cell 1 or 6. No nugget, no GPS.'),
  held: N_('Reactor damaged: the ship stays put until the movement die is thrown again.'),
};
// Who corrected the counters.
const CORRECTED_BY = {
  host: N_('The host corrected the counters.'),
  both: N_('Both players corrected the counters.'),
};
// The board's side in the setup reminders.
const BOARDS = {
  classic: N_('Board: classic side'),
  advanced: N_('Board: advanced Alien side'),
};
// The saucers' layout in the setup reminders.
const LAYOUTS = {
  base: N_('Saucers: the basic layout on the first two lines'),
  simplified: N_('Saucers: the simplified layout (colours lined up)'),
};

const colourLabel = (name) => boxName('colours', name);

function colourChip(name, extra = '') {
  const chip = el('span', { class: `ak-colour ${extra}`.trim() }, el('span', { class: 'ak-dot' }), colourLabel(name));
  if (CSS.supports('color', name)) chip.firstChild.style.background = name;
  return chip;
}

function faceChip(face) {
  return typeof face === 'number' ? el('span', { class: 'ak-number', text: String(face) }) : colourChip(face);
}

function tileLabel(tile) {
  const name = boxName('tiles', tile.kind);
  return tile.value ? `${name} (${tile.value})` : name;
}

function formatClock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

function elapsed(game) {
  if (game.started_at === null) return null;
  return (game.ended_at ?? serverNow()) - game.started_at;
}

// --- what happened ------------------------------------------------------------

function eventText(event, game) {
  const who = (role) => game.names[role] ?? roleName(role);
  switch (event.type) {
    case 'roles_chosen': return t('%(alien)s plays the Alien, %(defender)s the Defender.', { alien: game.names.alien, defender: game.names.defender });
    case 'ready': return t('%(name)s is ready.', { name: who(event.role) });
    case 'countdown': return t('Everybody is ready: the countdown starts.');
    case 'top_depart': return t('Top départ!');
    case 'thrown': return t('%(name)s throws: %(faces)s', { name: who(event.role), faces: event.faces.map(faceText).join(' · ') });
    case 'turn_ended': return t('%(name)s ends the turn; %(next)s plays.', { name: who(event.role), next: who(event.next) });
    case 'alien_tile': return t('Alien power tile: %(tile)s (a %(colour)s saucer on a bonus cell)', { tile: tileLabel(event), colour: colourLabel(event.colour) });
    case 'defender_tile': return t('Defender power tile, %(colour)s: %(tile)s', { tile: tileLabel(event), colour: colourLabel(event.colour) });
    case 'repaired': return event.colour ? t('A %(colour)s saucer is repaired: put it back on the first line.', { colour: colourLabel(event.colour) }) : t('No saucer to repair: the tile has no effect.');
    case 'claimed_last_line': return t('%(name)s says a saucer reached the last line.', { name: who(ALIEN) });
    case 'claim_answered': return event.accepted ? t('The Defender confirms: a saucer is on the last line.') : t('The Defender says no: no saucer on the last line.');
    case 'ship_moved': return t(SHIP_MOVES[event.by], { cell: event.to });
    case 'hit': return (event.eliminated
      ? t('Piouuu! A %(colour)s saucer is eliminated.', { colour: colourLabel(event.colour) })
      : t('Piouuu! A %(colour)s saucer loses its extra life.', { colour: colourLabel(event.colour) }))
      + (event.counters_fixed ? ` ${t('(the heart counter follows the board)')}` : '');
    case 'sacrificed': return t('A %(colour)s saucer is sacrificed: it and the asteroid leave the board.', { colour: colourLabel(event.colour) });
    case 'extra_life': return event.applied
      ? t('A %(colour)s saucer turns to its heart.', { colour: colourLabel(event.colour) })
      : t('That saucer already showed its heart: no effect.');
    case 'reactor_stuck': return t('The damaged reactor: a %(face)s does not free the ship.', { face: event.face });
    case 'field_lifted': return t('An orange result lifts the magnetic field.');
    case 'correction_proposed': return t('%(name)s proposes to correct the counters.', { name: who(event.by) });
    case 'correction_refused': return t('%(name)s refuses the correction.', { name: who(event.by) });
    case 'corrected': return t(CORRECTED_BY[event.by]);
    case 'withdrew': return t('%(name)s left the game.', { name: who(event.role) });
    case 'won': return t('%(name)s (%(role)s) wins!', { name: who(event.winner), role: roleName(event.winner) });
    default: return event.type;
  }
}

function faceText(face) {
  return typeof face === 'number' ? String(face) : colourLabel(face);
}

function announceNew(game, announce) {
  const history = game.history;
  if (seenEvents !== null && history.length > seenEvents) {
    const fresh = history.slice(seenEvents);
    if (fresh.some((event) => event.type === 'hit')) piouuu();
    announce?.(fresh.map((event) => eventText(event, game)).join(' — '));
  }
  seenEvents = history.length;
}

// --- parts of the screen ----------------------------------------------------------

function diceRow(game, role, act) {
  const dice = game.dice[role];
  if (!dice.length) return el('p', { class: 'ak-no-dice', text: t('No throw yet') });
  const canPick = act && can(game, 'throw');
  return el('div', { class: 'ak-dice' }, ...dice.map((die, index) => {
    const node = el(canPick ? 'button' : 'div', {
      class: `ak-die${die.used ? ' used' : ''}${selected.has(index) ? ' picked' : ''}`,
      type: canPick ? 'button' : null, 'aria-pressed': canPick ? String(selected.has(index)) : null,
      'aria-label': `${withColon(role === ALIEN ? t('Movement die') : [t('Ship movement die'), t('Shooting die')][index])} ${faceText(die.face)}${die.used ? ` (${t('used')})` : ''}`,
      onclick: canPick ? () => { toggle(index); render(); } : null,
    }, faceChip(die.face));
    return node;
  }));
}

function toggle(index) {
  if (selected.has(index)) selected.delete(index); else selected.add(index);
}

function throwsText(game, role) {
  const left = game.throws_left[role];
  return left === null ? t('Throws: %(count)s', { count: game.throws[role] }) : t('Throws left: %(count)s', { count: left });
}

// A column of the saucers' table: its name, and the short one the TV shows in big type (the header keeps
// the full name for screen readers).
const heading = (name, short) => el('th', { 'aria-label': name }, el('span', { class: 'ak-long', text: name }),
  el('span', { class: 'ak-short', text: short }));

function saucerTable(game) {
  const saucers = game.saucers;
  return el('table', { class: 'ak-saucers' },
    el('thead', {}, el('tr', {}, heading(t('Saucers'), ''), heading(t('On the board'), t('In play')),
      heading(t('Extra lives'), '♥'), heading(t('Eliminated'), t('Out')))),
    el('tbody', {}, ...game.colours.map((colour) => el('tr', {},
      el('th', {}, colourChip(colour)), el('td', { text: String(saucers.on_board[colour]) }),
      el('td', { text: String(saucers.extra_lives[colour]) }), el('td', { text: String(saucers.eliminated[colour]) })))));
}

function tileList(tiles, owner) {
  return el('ul', { class: 'ak-tiles', 'aria-label': (owner === ALIEN ? t('Alien power tiles') : t('Defender power tiles')) },
    ...tiles.map((tile) => {
      if (tile.turned) return el('li', { class: 'ak-tile turned', text: tileLabel(tile) });
      const back = el('li', { class: 'ak-tile face-down' }, tile.colour ? colourChip(tile.colour) : t('face down'));
      back.setAttribute('aria-label', t('face down'));
      return back;
    }));
}

// bar: this phone's bar (its dice and buttons, see controls), on its own side, in place of the dice.
function sidePanel(game, role, act, bar = null) {
  const mine = act && game.role === role;
  const active = game.mode === 'strategie' && game.active === role;
  const panel = el('section', { class: `ak-side ${role}${active ? ' active' : ''}${mine ? ' mine' : ''}` },
    el('h3', {}, roleName(role), ' — ', game.names[role] ?? '…'),
    mine && bar?.querySelector('.ak-dice') ? null : diceRow(game, role, mine ? act : null),
    el('p', { class: 'ak-throws', text: throwsText(game, role) }));
  if (role === DEFENDER) {
    panel.append(el('p', { class: 'ak-ship' }, t('Ship on cell %(cell)s', { cell: game.ship }), ' · ',
      el('strong', { text: t('Nuggets: %(count)s', { count: game.nuggets }) })));
    if (game.reactor) panel.append(el('p', { class: 'ak-warning', text: t(REACTOR[game.reactor]) }));
    const kept = [...game.kept.munitions.map((colour) => t('%(colour)s super munitions', { colour: colourLabel(colour) })),
      ...Array(game.kept.gps).fill(t('GPS update'))];
    if (kept.length) panel.append(el('p', { class: 'ak-kept', text: `${withColon(t('Kept tiles'))} ${kept.join(', ')}` }));
    if (game.tower) panel.append(el('p', { text: t('A mini-tower guards its column.') }));
  }
  if (game.power_tiles) panel.append(tileList(role === ALIEN ? game.alien_tiles : game.defender_tiles, role));
  if (mine && bar) panel.append(bar);
  return panel;
}

function throwButtons(game, act) {
  if (!can(game, 'throw')) return [];
  const first = !game.dice[game.role].length;
  const chosen = [...selected].sort();
  const label = first || !chosen.length || chosen.length === game.dice[game.role].length
    ? (first ? t('Throw the dice') : t('Throw both dice again')) : t('Throw the picked die again', { count: chosen.length });
  return [button(label, () => {
    const action = first || !chosen.length ? { type: 'throw' } : { type: 'throw', dice: chosen };
    selected = new Set();
    act(action);
  }, 'primary big ak-throw')];
}

function alienButtons(game, act) {
  const buttons = [];
  if (can(game, 'bonus')) {
    buttons.push(button(t('A saucer stopped on a bonus cell of its colour'), () => { pendingChoice = pendingChoice === 'bonus' ? null : 'bonus'; render(); }));
  }
  if (pendingChoice === 'bonus' && can(game, 'bonus')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('Which saucer colour?') },
      el('p', { text: t('Which saucer colour?') }),
      ...game.colours.filter((colour) => game.saucers.on_board[colour])
        .map((colour) => el('button', { type: 'button', onclick: () => { pendingChoice = null; act({ type: 'bonus', colour }); } },
          colourChip(colour)))));
  }
  if (can(game, 'claim')) {
    buttons.push(button(t('A saucer reached the last line!'), () => {
      if (window.confirm(t('Claim the victory: one of your saucers is on the last line?'))) act({ type: 'claim' });
    }, 'danger'));
  }
  if (can(game, 'heart')) {
    buttons.push(el('div', { class: 'ak-choices ak-question', role: 'group', 'aria-label': t('Extra life') },
      el('p', { text: t('Extra life for a %(colour)s saucer: did the saucer on the bonus cell already show its heart?', { colour: colourLabel(game.pending.colour) }) }),
      button(t('Yes: no effect'), () => act({ type: 'heart', already: true })),
      button(t('No: turn it to its heart'), () => act({ type: 'heart', already: false }), 'primary')));
  }
  if (can(game, 'sacrifice')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('Asteroid: sacrifice the saucer before it') },
      el('p', { text: t('Asteroid: sacrifice the saucer before it') }),
      ...saucerButtons(game, (colour, extraLife) => act({ type: 'sacrifice', colour,
        ...(extraLife === null ? {} : { extra_life: extraLife }) }))));
  }
  if (can(game, 'lift_field')) {
    buttons.push(button(t('Orange result: lift the magnetic field'), () => act({ type: 'lift_field' })));
  }
  if (can(game, 'repair')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('Repaired saucer: which colour goes back on the first line?') },
      el('p', { text: t('Repaired saucer: which colour goes back on the first line?') }),
      ...game.pending.colours.map((colour) => el('button', { type: 'button', onclick: () => act({ type: 'repair', colour }) },
        colourChip(colour))),
      button(t('The first line is full'), () => act({ type: 'repair', colour: null }))));
  }
  return buttons;
}

function defenderButtons(game, act) {
  const buttons = [];
  const [movement, shooting] = game.dice.defender;
  if (can(game, 'confirm')) {
    buttons.push(el('div', { class: 'ak-choices' }, el('p', { text: t('%(name)s says a saucer reached the last line. Is it true?', { name: game.names.alien }) }),
      button(t('Yes, the Alien wins'), () => act({ type: 'confirm', accept: true }), 'danger'),
      button(t('No'), () => act({ type: 'confirm', accept: false }))));
  }
  if (can(game, 'move')) {
    const label = game.reactor_cell_due
      ? t('Damaged reactor: move the ship to cell %(cell)s (required)', { cell: game.reactor_cell_due })
      : t('Move the ship to cell %(cell)s', { cell: movement.face });
    buttons.push(button(label, () => act({ type: 'move' }), 'primary'));
  }
  if (shooting && !shooting.used) buttons.push(...hitButtons(game, shooting.face, false, act));
  for (const colour of new Set(game.kept.munitions)) buttons.push(...hitButtons(game, colour, true, act));
  if (can(game, 'nugget')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('Spend a nugget: move one cell') },
      el('p', { text: t('Spend a nugget: move one cell') }),
      ...[game.ship - 1, game.ship + 1].filter((cell) => cell >= 1 && cell <= 6)
        .map((cell) => button(t('To cell %(cell)s', { cell }), () => act({ type: 'nugget', to: cell })))));
  }
  if (can(game, 'gps')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('GPS update: move to any cell') },
      el('p', { text: t('GPS update: move to any cell') }),
      ...[1, 2, 3, 4, 5, 6].map((cell) => button(String(cell), () => act({ type: 'gps', to: cell })))));
  }
  return buttons;
}

// One button per saucer of that colour the counters cannot tell apart: with or without its heart.
function saucerButtons(game, send) {
  const saucers = game.saucers;
  return game.colours.filter((colour) => saucers.on_board[colour]).flatMap((colour) => heartChoices(game, colour)
    .map((extraLife) => el('button', { type: 'button', class: 'ak-hit', onclick: () => send(colour, extraLife) },
      colourChip(colour), extraLife === null ? '' : ` — ${extraLife ? t('showing its heart') : t('without heart')}`)));
}

// null: the counters tell whether the saucer shows its heart; else the two answers to choose from.
function heartChoices(game, colour) {
  const { on_board: onBoard, extra_lives: hearts } = game.saucers;
  return hearts[colour] > 0 && hearts[colour] < onBoard[colour] ? [false, true] : [null];
}

function hitButtons(game, colour, munitions, act) {
  const offered = game.legal.some((action) => action.type === 'hit' && action.colour === colour
    && Boolean(action.munitions) === munitions);
  if (!offered) return [];
  return heartChoices(game, colour).map((extraLife) => el('button', {
    type: 'button', class: 'ak-hit',
    onclick: () => act({ type: 'hit', colour, ...(extraLife === null ? {} : { extra_life: extraLife }),
      ...(munitions ? { munitions: true } : {}) }),
  }, colourChip(colour), ' ', (munitions ? t('saucer hit with super munitions') : t('saucer hit')),
  extraLife === null ? '' : ` — ${extraLife ? t('showing its heart') : t('without heart')}`));
}

// --- correcting the counters ---------------------------------------------------------

function numberField(name, max, label) {
  return el('label', { class: 'ak-count' }, label,
    el('input', { type: 'number', name, min: '0', max: String(max), value: String(draft[name]), inputmode: 'numeric',
      oninput: (typed) => { draft[name] = Number(typed.target.value); } }));
}

function countsOf(game) {
  return Object.fromEntries([['nuggets', game.nuggets],
    ...game.colours.flatMap((c) => [[`saucers-${c}`, game.saucers.on_board[c]], [`hearts-${c}`, game.saucers.extra_lives[c]]])]);
}

// The host corrects at once; a player proposes and the other player agrees (both phones show it).
function correctionPanel(game, act, role) {
  const proposal = game.correction;
  const panel = el('details', { class: 'ak-correct', open: Boolean(proposal) || draft !== null },
    el('summary', { text: t('Correct the counters') }));
  panel.addEventListener('toggle', () => { draft = panel.open ? (draft ?? countsOf(game)) : null; if (panel.open) fillForm(); });
  const fillForm = () => panel.querySelector('form')?.replaceWith(correctionForm(game, act, role));
  if (proposal) {
    const counts = proposal.counts;
    panel.append(el('p', { class: 'ak-proposal', text: t('%(name)s proposes: %(counts)s', {
      name: game.names[proposal.by],
      counts: [...game.colours.map((c) => `${colourLabel(c)} ${counts.saucers[c]} (♥ ${counts.hearts[c]})`),
        t('Nuggets: %(count)s', { count: counts.nuggets })].join(', ') }) }));
    if (can(game, 'agree_correction')) {
      panel.append(el('div', { class: 'ak-choices' },
        button(t('Agree'), () => act({ type: 'agree_correction', accept: true }), 'primary'),
        button(t('Refuse'), () => act({ type: 'agree_correction', accept: false }))));
    }
  }
  panel.append(draft === null ? el('form') : correctionForm(game, act, role));
  return panel;
}

function correctionForm(game, act, role) {
  const form = el('form', { class: 'ak-correct-form' },
    ...game.colours.map((c) => el('fieldset', {}, el('legend', {}, colourChip(c)),
      numberField(`saucers-${c}`, 4, t('On the board')),
      numberField(`hearts-${c}`, 4, t('Extra lives')))),
    numberField('nuggets', 11, t('Nuggets')),
    el('button', { type: 'submit', class: 'primary', text: role === 'host' ? t('Correct') : t('Propose to the other player') }));
  form.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const value = (name) => Number(form.elements[name].value);
    const action = { type: 'correct', nuggets: value('nuggets'),
      saucers: Object.fromEntries(game.colours.map((c) => [c, value(`saucers-${c}`)])),
      hearts: Object.fromEntries(game.colours.map((c) => [c, value(`hearts-${c}`)])) };
    draft = null;
    act(action);
  });
  return form;
}

function controls(game, act) {
  const parts = [...throwButtons(game, act)];
  parts.push(...(game.role === ALIEN ? alienButtons(game, act) : defenderButtons(game, act)));
  if (can(game, 'end_turn')) parts.push(button(t('End my turn'), () => act({ type: 'end_turn' })));
  // What this phone taps next: a bar at the bottom of its screen (nothing while the other side plays).
  if (!parts.length) return null;
  // Its own dice lead the bar: the dice picked for a new throw and every button of the turn fit in view
  // together (under a bar that left the dice above it, the buttons did not fit: companion.css).
  const dice = game.dice[game.role].length ? diceRow(game, game.role, act) : null;
  return el('div', { class: 'ak-controls next-action' }, dice, ...parts);
}

function statusLine(game) {
  const winner = winnerOf(game);
  if (winner) return t('%(name)s (%(role)s) wins!', { name: game.names[winner], role: roleName(winner) });
  const waited = waitedRoles(game);
  // A pending question waits on the Defender (the Alien's last-line claim) or on the Alien (a power tile).
  if (game.pending && waited.includes(DEFENDER)) return t("Waiting for the Defender's answer…");
  if (game.pending && game.role !== ALIEN) return t("Waiting for the Alien's answer to the power tile…");
  if (game.mode === 'arcade') return t('Arcade: throw whenever you like!');
  if (game.role && waited.includes(game.role)) return t('Your turn!');
  return waited.length ? t("%(name)s's turn (%(role)s)", { name: game.names[waited[0]], role: roleName(waited[0]) }) : '';
}

function reminders(game) {
  const { reminders: r } = game;
  const items = [
    (game.mode === 'arcade' ? t('Arcade: both players at once, in real time') : t('Stratégie: turn by turn, the Alien first')),
    tn('The Defender starts with %(count)s nugget', 'The Defender starts with %(count)s nuggets', r.nuggets),
    r.board ? t(BOARDS[r.board]) : t('Board: either side'),
    t(LAYOUTS[r.layout]),
    r.power_tiles ? t('Power tiles: in play (drawn by the companion, face down)') : t('Power tiles: left out'),
  ];
  if (game.mode === 'strategie') items.push(tn('%(count)s throw per turn', '%(count)s throws per turn', r.throws));
  return el('details', { class: 'ak-setup', open: game.phase === 'roles' || game.phase === 'ready' },
    el('summary', { text: t('Setting up the box') }),
    el('ul', {}, ...items.map((text) => el('li', { text })),
      el('li', {}, `${withColon(t('Saucer colours'))} `, ...game.colours.map((colour) => colourChip(colour))),
      el('li', {}, `${withColon(t('Alien movement dice'))} `, ...game.alien_die.map(faceChip)),
      el('li', {}, `${withColon(t('Shooting die'))} `, ...game.shooting_die.map(faceChip))));
}

// --- phases ------------------------------------------------------------------------

function rolesPanel(game, act) {
  if (!act) return el('p', { class: 'ak-big', text: t('The players choose their roles on their phones.') });
  return el('div', { class: 'ak-roles next-action' }, el('p', { text: t('Who do you play?') }),
    button(t('I play the Alien'), () => act({ type: 'choose_role', role: ALIEN }), 'primary big'),
    button(t('I play the Defender'), () => act({ type: 'choose_role', role: DEFENDER }), 'primary big'));
}

function readyPanel(game, act) {
  const waiting = waitedRoles(game).map((role) => game.names[role]);
  return el('div', { class: 'ak-ready' },
    el('p', { text: t('%(alien)s plays the Alien, %(defender)s the Defender.', { alien: game.names.alien, defender: game.names.defender }) }),
    act && can(game, 'ready') ? el('div', { class: 'next-action' }, button(t('Ready!'), () => act({ type: 'ready' }), 'primary big')) : null,
    el('p', { text: t('Waiting for: %(names)s', { names: waiting.join(', ') }) }));
}

function countdownPanel(game, act) {
  const node = el('p', { class: 'ak-countdown', 'aria-live': 'assertive' });
  const tick = () => {
    const left = game.countdown_from + game.countdown_seconds - serverNow();
    node.textContent = left > 0 ? String(Math.ceil(left)) : t('Top départ!');
    if (left <= 0) {
      clearInterval(countdownTimer);
      countdownTimer = null;
      if (act && !goSent) { goSent = true; act({ type: 'go' }, { quiet: true }); }
    }
  };
  clearInterval(countdownTimer);
  countdownTimer = setInterval(tick, 100);
  tick();
  return node;
}

function history(game) {
  const recent = game.history.slice(-12).reverse();
  return el('section', { class: 'ak-history' }, el('h3', { text: t('What happened') }),
    el('ol', { reversed: true, tabindex: '0' }, ...recent.map((event) => el('li', { text: eventText(event, game) }))));
}

function clock(game) {
  const node = el('span', { class: 'ak-clock', 'aria-label': t('Elapsed time') });
  const tick = () => {
    const seconds = elapsed(game);
    node.textContent = seconds === null ? '--:--' : formatClock(seconds);
  };
  clearInterval(clockTimer);
  if (game.started_at !== null && game.ended_at === null) clockTimer = setInterval(tick, 500);
  tick();
  return node;
}

function finalPanel(game) {
  return el('section', { class: 'ak-final' },
    el('p', { class: 'ak-big', text: t('%(name)s (%(role)s) wins!', { name: game.names[winnerOf(game)], role: roleName(winnerOf(game)) }) }),
    el('p', { text: game.mode === 'arcade'
      ? t('Throws: %(count)s', { count: game.history.filter((event) => event.type === 'thrown').length })
      : t('Turns played: %(count)s', { count: game.turn }) }),
    el('p', { text: t('Time: %(time)s', { time: formatClock(elapsed(game) ?? 0) }) }));
}

// --- the renderer ------------------------------------------------------------------

let target = null;
let context = {};

function render() {
  if (!lastView) return;
  const game = lastView.game;
  const act = context.act ? (action, options) => context.act(action, options) : null;
  const head = el('header', { class: 'ak-head' },
    el('strong', { class: 'ak-role', text: game.role ? roleName(game.role) : t('Alien against Defender') }),
    clock(game), el('span', { class: 'ak-status', text: game.phase === 'playing' || game.phase === 'over' ? statusLine(game)
      : t('The table is %(phase)s.', { phase: t(game.phase_label) }) }));  // the kernel's label of the phase
  const parts = [head];
  if (game.phase === 'roles') parts.push(rolesPanel(game, act), reminders(game));
  else if (game.phase === 'ready') parts.push(readyPanel(game, act), reminders(game));
  else if (game.phase === 'countdown') parts.push(countdownPanel(game, act));
  else {
    const over = Boolean(game.outcome);
    if (over) parts.push(finalPanel(game));
    const order = game.role === DEFENDER ? [DEFENDER, ALIEN] : [ALIEN, DEFENDER];
    const bar = act && game.role && !over ? controls(game, act) : null;
    const sides = el('div', { class: 'ak-sides' }, ...order.map((role) => sidePanel(game, role, act, bar)));
    // A player's phone: its own side first, under the line that says whose turn it is (its dice and
    // buttons are a bar at the bottom of the screen); the host screen keeps its controls above the sides.
    if (game.role) parts.push(sides);
    const corrector = act && game.role ? act : context.hostAct;
    if (corrector && !over) parts.push(correctionPanel(game, corrector, game.role ? 'seat' : 'host'));
    if (!game.role) parts.push(sides);
    parts.push(saucerTable(game), history(game), reminders(game));
  }
  target.replaceChildren(el('div', { class: `arkade phase-${game.phase}${reducedMotion() ? ' calm' : ''}` }, ...parts));
}

export function renderArkade(container, view, { act = null, announce = null } = {}) {
  serverOffset = view.time * 1000 - Date.now();
  if (view.game.phase !== 'countdown') goSent = false;
  const role = view.game.role;
  if (!role || (lastView && lastView.game.throws[role] !== view.game.throws[role])) selected = new Set();
  lastView = view;
  target = container;
  // The host screen watches, and may correct the counters.
  context = { act: view.you.role === 'seat' ? act : null, hostAct: view.you.role === 'host' ? act : null };
  announceNew(view.game, announce);
  render();
}
