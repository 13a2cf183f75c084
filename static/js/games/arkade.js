// Arkade: the Alien against the Defender. Phones throw and declare; the host screen shows both sides.
import { t } from '../i18n.js';
import { button, el, reducedMotion } from '../ui.js';
import { piouuu } from '../sound.js';

const ALIEN = 'alien';
const DEFENDER = 'defender';
const KNOWN_COLOURS = ['blue', 'green', 'pink', 'orange', 'red', 'yellow', 'purple', 'cyan', 'white', 'black'];

let seenEvents = null;  // history length already announced (null: first view, announce nothing)
let serverOffset = 0;  // server time minus this screen's time, in ms
let clockTimer = null;
let countdownTimer = null;
let goSent = false;
let selected = new Set();  // dice picked for a re-throw
let pendingChoice = null;  // a two-step action waiting for its colour: 'bonus'
let lastView = null;

const serverNow = () => (Date.now() + serverOffset) / 1000;
const roleName = (role) => t(role === ALIEN ? 'ak_alien' : 'ak_defender');

function colourLabel(name) {
  return KNOWN_COLOURS.includes(name) ? t(`ak_colour_${name}`) : name;
}

function colourChip(name, extra = '') {
  const chip = el('span', { class: `ak-colour ${extra}`.trim() }, el('span', { class: 'ak-dot' }), colourLabel(name));
  if (CSS.supports('color', name)) chip.firstChild.style.background = name;
  return chip;
}

function faceChip(face) {
  return typeof face === 'number' ? el('span', { class: 'ak-number', text: String(face) }) : colourChip(face);
}

function tileLabel(tile) {
  const name = t(`ak_tile_${tile.kind}`);
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
    case 'roles_chosen': return t('ak_roles_chosen', { alien: game.names.alien, defender: game.names.defender });
    case 'ready': return t('ak_is_ready', { name: who(event.role) });
    case 'countdown': return t('ak_countdown_started');
    case 'top_depart': return t('ak_top_depart');
    case 'thrown': return t('ak_thrown', { name: who(event.role), faces: event.faces.map(faceText).join(' · ') });
    case 'turn_ended': return t('ak_turn_ended', { name: who(event.role), next: who(event.next) });
    case 'alien_tile': return t('ak_alien_tile', { tile: tileLabel(event), colour: colourLabel(event.colour) });
    case 'defender_tile': return t('ak_defender_tile', { tile: tileLabel(event), colour: colourLabel(event.colour) });
    case 'repaired': return event.colour ? t('ak_repaired', { colour: colourLabel(event.colour) }) : t('ak_repair_none');
    case 'claimed_last_line': return t('ak_claimed', { name: who(ALIEN) });
    case 'claim_answered': return event.accepted ? t('ak_claim_accepted') : t('ak_claim_refused');
    case 'ship_moved': return t(`ak_ship_moved_${event.by}`, { cell: event.to });
    case 'hit': return t(event.eliminated ? 'ak_hit_eliminated' : 'ak_hit_life', { colour: colourLabel(event.colour) });
    case 'won': return t('ak_winner', { name: who(event.winner), role: roleName(event.winner) });
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
  if (!dice.length) return el('p', { class: 'ak-no-dice', text: t('ak_no_throw') });
  const canPick = act && game.can.includes('throw');
  return el('div', { class: 'ak-dice' }, ...dice.map((die, index) => {
    const node = el(canPick ? 'button' : 'div', {
      class: `ak-die${die.used ? ' used' : ''}${selected.has(index) ? ' picked' : ''}`,
      type: canPick ? 'button' : null, 'aria-pressed': canPick ? String(selected.has(index)) : null,
      'aria-label': `${t(role === ALIEN ? 'ak_move_die' : ['ak_ship_die', 'ak_shooting_die'][index])}: ${faceText(die.face)}${die.used ? ` (${t('ak_used')})` : ''}`,
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
  return left === null ? t('ak_throws_count', { count: game.throws[role] }) : t('ak_throws_left', { count: left });
}

function saucerTable(game) {
  const saucers = game.saucers;
  return el('table', { class: 'ak-saucers' },
    el('thead', {}, el('tr', {}, el('th', { text: t('ak_saucers') }), el('th', { text: t('ak_on_board') }),
      el('th', { text: t('ak_extra_lives') }), el('th', { text: t('ak_eliminated') }))),
    el('tbody', {}, ...game.colours.map((colour) => el('tr', {},
      el('th', {}, colourChip(colour)), el('td', { text: String(saucers.on_board[colour]) }),
      el('td', { text: String(saucers.extra_lives[colour]) }), el('td', { text: String(saucers.eliminated[colour]) })))));
}

function tileList(tiles, owner) {
  return el('ul', { class: 'ak-tiles', 'aria-label': t(owner === ALIEN ? 'ak_alien_tiles' : 'ak_defender_tiles') },
    ...tiles.map((tile) => {
      if (tile.turned) return el('li', { class: 'ak-tile turned', text: tileLabel(tile) });
      const back = el('li', { class: 'ak-tile face-down' }, tile.colour ? colourChip(tile.colour) : t('ak_face_down'));
      back.setAttribute('aria-label', t('ak_face_down'));
      return back;
    }));
}

function sidePanel(game, role, act) {
  const mine = act && game.role === role;
  const active = game.mode === 'strategie' && game.active === role;
  const panel = el('section', { class: `ak-side ${role}${active ? ' active' : ''}${mine ? ' mine' : ''}` },
    el('h3', {}, roleName(role), ' — ', game.names[role] ?? '…'),
    diceRow(game, role, mine ? act : null),
    el('p', { class: 'ak-throws', text: throwsText(game, role) }));
  if (role === DEFENDER) {
    panel.append(el('p', { class: 'ak-ship' }, t('ak_ship_cell', { cell: game.ship }), ' · ',
      el('strong', { text: t('ak_nuggets', { count: game.nuggets }) })));
    if (game.reactor) panel.append(el('p', { class: 'ak-warning', text: t(`ak_reactor_${game.reactor}`) }));
    const kept = [...game.kept.munitions.map((colour) => t('ak_kept_munitions', { colour: colourLabel(colour) })),
      ...Array(game.kept.gps).fill(t('ak_tile_gps'))];
    if (kept.length) panel.append(el('p', { class: 'ak-kept', text: `${t('ak_kept')}: ${kept.join(', ')}` }));
    if (game.tower) panel.append(el('p', { text: t('ak_tower_built') }));
  }
  if (game.power_tiles) panel.append(tileList(role === ALIEN ? game.alien_tiles : game.defender_tiles, role));
  return panel;
}

function throwButtons(game, act) {
  if (!game.can.includes('throw')) return [];
  const first = !game.dice[game.role].length;
  const chosen = [...selected].sort();
  const label = first || !chosen.length || chosen.length === game.dice[game.role].length
    ? t(first ? 'ak_throw' : 'ak_rethrow_all') : t('ak_rethrow_picked', { count: chosen.length });
  return [button(label, () => {
    const action = first || !chosen.length ? { type: 'throw' } : { type: 'throw', dice: chosen };
    selected = new Set();
    act(action);
  }, 'primary big ak-throw')];
}

function alienButtons(game, act) {
  const buttons = [];
  if (game.can.includes('bonus')) {
    buttons.push(button(t('ak_bonus'), () => { pendingChoice = pendingChoice === 'bonus' ? null : 'bonus'; render(); }));
  }
  if (pendingChoice === 'bonus' && game.can.includes('bonus')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('ak_bonus_which') },
      el('p', { text: t('ak_bonus_which') }),
      ...game.colours.filter((colour) => game.saucers.on_board[colour])
        .map((colour) => el('button', { type: 'button', onclick: () => { pendingChoice = null; act({ type: 'bonus', colour }); } },
          colourChip(colour)))));
  }
  if (game.can.includes('claim')) {
    buttons.push(button(t('ak_claim'), () => {
      if (window.confirm(t('ak_claim_confirm'))) act({ type: 'claim' });
    }, 'danger'));
  }
  if (game.can.includes('repair')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('ak_repair_which') },
      el('p', { text: t('ak_repair_which') }),
      ...game.pending.colours.map((colour) => el('button', { type: 'button', onclick: () => act({ type: 'repair', colour }) },
        colourChip(colour))),
      button(t('ak_first_line_full'), () => act({ type: 'repair', colour: null }))));
  }
  return buttons;
}

function defenderButtons(game, act) {
  const buttons = [];
  const [movement, shooting] = game.dice.defender;
  if (game.can.includes('confirm')) {
    buttons.push(el('div', { class: 'ak-choices' }, el('p', { text: t('ak_confirm_question', { name: game.names.alien }) }),
      button(t('ak_confirm_yes'), () => act({ type: 'confirm', accept: true }), 'danger'),
      button(t('ak_confirm_no'), () => act({ type: 'confirm', accept: false }))));
  }
  if (game.can.includes('move')) {
    buttons.push(button(t('ak_move_ship', { cell: movement.face }), () => act({ type: 'move' }), 'primary'));
  }
  if (shooting && !shooting.used) buttons.push(...hitButtons(game, shooting.face, false, act));
  for (const colour of new Set(game.kept.munitions)) buttons.push(...hitButtons(game, colour, true, act));
  if (game.can.includes('nugget')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('ak_spend_nugget') },
      el('p', { text: t('ak_spend_nugget') }),
      ...[game.ship - 1, game.ship + 1].filter((cell) => cell >= 1 && cell <= 6)
        .map((cell) => button(t('ak_to_cell', { cell }), () => act({ type: 'nugget', to: cell })))));
  }
  if (game.can.includes('gps')) {
    buttons.push(el('div', { class: 'ak-choices', role: 'group', 'aria-label': t('ak_use_gps') },
      el('p', { text: t('ak_use_gps') }),
      ...[1, 2, 3, 4, 5, 6].map((cell) => button(String(cell), () => act({ type: 'gps', to: cell })))));
  }
  return buttons;
}

function hitButtons(game, colour, munitions, act) {
  const saucers = game.saucers;
  const options = [];
  if (saucers.on_board[colour] > saucers.extra_lives[colour]) options.push(false);
  if (saucers.extra_lives[colour]) options.push(true);
  return options.map((extraLife) => el('button', {
    type: 'button', class: 'ak-hit',
    onclick: () => act({ type: 'hit', colour, extra_life: extraLife, ...(munitions ? { munitions: true } : {}) }),
  }, colourChip(colour), ' ', t(munitions ? 'ak_hit_munitions' : 'ak_hit'),
  extraLife ? ` — ${t('ak_with_extra_life')}` : ''));
}

function controls(game, act) {
  const parts = [...throwButtons(game, act)];
  parts.push(...(game.role === ALIEN ? alienButtons(game, act) : defenderButtons(game, act)));
  if (game.can.includes('end_turn')) parts.push(button(t('ak_end_turn'), () => act({ type: 'end_turn' })));
  return el('div', { class: 'ak-controls' }, ...parts);
}

function statusLine(game) {
  if (game.winner) return t('ak_winner', { name: game.names[game.winner], role: roleName(game.winner) });
  if (game.pending?.kind === 'claim') return t('ak_waiting_claim');
  if (game.mode === 'arcade') return t('ak_arcade_running');
  if (game.role && game.active === game.role) return t('ak_your_turn');
  return t('ak_turn_of', { name: game.names[game.active], role: roleName(game.active) });
}

function reminders(game) {
  const { reminders: r } = game;
  const items = [
    t(game.mode === 'arcade' ? 'ak_mode_arcade' : 'ak_mode_strategie'),
    t('ak_start_nuggets', { count: r.nuggets }),
    r.board ? t(`ak_board_${r.board}`) : t('ak_board_any'),
    t(`ak_layout_${r.layout}`),
    r.power_tiles ? t('ak_tiles_in_play') : t('ak_tiles_left_out'),
  ];
  if (game.mode === 'strategie') items.push(t('ak_throws_per_turn', { count: r.throws }));
  return el('details', { class: 'ak-setup', open: game.phase === 'roles' || game.phase === 'ready' },
    el('summary', { text: t('ak_setup') }),
    el('ul', {}, ...items.map((text) => el('li', { text })),
      el('li', {}, `${t('ak_saucer_colours')}: `, ...game.colours.map((colour) => colourChip(colour))),
      el('li', {}, `${t('ak_alien_die')}: `, ...game.alien_die.map(faceChip)),
      el('li', {}, `${t('ak_shooting_die')}: `, ...game.shooting_die.map(faceChip))));
}

// --- phases ------------------------------------------------------------------------

function rolesPanel(game, act) {
  if (!act) return el('p', { class: 'ak-big', text: t('ak_choose_roles_wait') });
  return el('div', { class: 'ak-roles' }, el('p', { text: t('ak_choose_role') }),
    button(t('ak_play_alien'), () => act({ type: 'choose_role', role: ALIEN }), 'primary big'),
    button(t('ak_play_defender'), () => act({ type: 'choose_role', role: DEFENDER }), 'primary big'));
}

function readyPanel(game, act) {
  const waiting = [ALIEN, DEFENDER].filter((role) => !game.ready[role]).map((role) => game.names[role]);
  return el('div', { class: 'ak-ready' },
    el('p', { text: t('ak_roles_chosen', { alien: game.names.alien, defender: game.names.defender }) }),
    act && game.can.includes('ready') ? button(t('ak_ready'), () => act({ type: 'ready' }), 'primary big') : null,
    el('p', { text: t('ak_waiting_for', { names: waiting.join(', ') }) }));
}

function countdownPanel(game, act) {
  const node = el('p', { class: 'ak-countdown', 'aria-live': 'assertive' });
  const tick = () => {
    const left = game.countdown_from + game.countdown_seconds - serverNow();
    node.textContent = left > 0 ? String(Math.ceil(left)) : t('ak_top_depart');
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
  return el('section', { class: 'ak-history' }, el('h3', { text: t('ak_history') }),
    el('ol', { reversed: true }, ...recent.map((event) => el('li', { text: eventText(event, game) }))));
}

function clock(game) {
  const node = el('span', { class: 'ak-clock', 'aria-label': t('ak_elapsed') });
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
    el('p', { class: 'ak-big', text: t('ak_winner', { name: game.names[game.winner], role: roleName(game.winner) }) }),
    el('p', { text: game.mode === 'arcade'
      ? t('ak_throws_count', { count: game.history.filter((event) => event.type === 'thrown').length })
      : t('ak_final_turns', { count: game.turn }) }),
    el('p', { text: t('ak_final_time', { time: formatClock(elapsed(game) ?? 0) }) }));
}

// --- the renderer ------------------------------------------------------------------

let target = null;
let context = {};

function render() {
  if (!lastView) return;
  const game = lastView.game;
  const act = context.act ? (action, options) => context.act(action, options) : null;
  const head = el('header', { class: 'ak-head' },
    el('strong', { class: 'ak-role', text: game.role ? roleName(game.role) : t('ak_both_sides') }),
    clock(game), el('span', { class: 'ak-status', text: game.phase === 'playing' || game.phase === 'over' ? statusLine(game) : '' }));
  const parts = [head];
  if (game.phase === 'roles') parts.push(rolesPanel(game, act), reminders(game));
  else if (game.phase === 'ready') parts.push(readyPanel(game, act), reminders(game));
  else if (game.phase === 'countdown') parts.push(countdownPanel(game, act));
  else {
    if (game.winner) parts.push(finalPanel(game));
    const order = game.role === DEFENDER ? [DEFENDER, ALIEN] : [ALIEN, DEFENDER];
    if (act && game.role && !game.winner) parts.push(controls(game, act));
    parts.push(el('div', { class: 'ak-sides' }, ...order.map((role) => sidePanel(game, role, act))),
      saucerTable(game), history(game), reminders(game));
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
  context = { act: view.you.role === 'seat' ? act : null };  // the host screen only watches
  announceNew(view.game, announce);
  render();
}
