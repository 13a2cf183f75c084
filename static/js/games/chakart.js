// Chakart: the board on the phone of the player to move (their side down), the moves the rules
// allow highlighted, each step of what happened, and the changes to make on the real board.
import { N_, t, withColon } from '../i18n.js';
import { button, el, showError } from '../ui.js';

const FILES = 'abcdefgh';
const GLYPHS = { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const ITEM_GLYPHS = { m: '🍄', e: '🥚', d: '🍌', w: '💣' };
const PIECES = {
  p: N_('Toad (pawn)'), n: N_('Yoshi (knight)'), r: N_('Donkey (rook)'),
  b: N_('Wario (bishop)'), q: N_('Mario (queen)'), k: N_('Peach (king)'),
};
const ITEMS = { m: N_('mushroom'), e: N_('egg'), d: N_('banana'), w: N_('bomb') };
const ITEM_WORDS = { mushroom: 'm', egg: 'e', banana: 'd', bomb: 'w' };
const EGGS = {
  kingboo: N_('King Boo: swap the piece with any other'),
  koopa: N_('Koopa: back to its start square'),
  toadette: N_('Toadette: bring back a captured piece'),
  chomp: N_('Chomp: the piece is eaten'),
  daisy: N_('Daisy: play again with the same piece'),
  bowser: N_('Bowser: the piece is held next turn'),
  luigi: N_('Luigi: an enemy piece changes side'),
  waluigi: N_('Waluigi: one of your pieces changes side'),
};

// Where the book is silent or reads two ways: the referee's choices, shown in the fold "Rules of this
// table" (companion/games/chakart/silent.py lists the same ids). A choice that a table option changes
// has one text per value of that option.
const SILENT = [
  { id: 'colours', option: 'colours', text: {
    random: N_('Who plays White is drawn at random.'),
    first: N_('The first player to sit plays White.') } },
  { id: 'start', option: 'start', twoWays: true, text: {
    standard: N_('The game starts from the standard chess position.'),
    random: N_('Random start: each side’s back rank is shuffled on its own, bishops on squares of both colours (as in the book’s first diagram).'),
    mirrored: N_('Random start: one shuffled back rank for both sides, bishops on squares of both colours.') } },
  { id: 'slides', text: N_('Rooks, bishops, queens and kings pass over eggs and mushrooms (they lie flat) and stop on a banana or a bomb, which goes off.') },
  { id: 'pawn_step', text: N_('A pawn’s two-square step passes over an egg or a mushroom, not over a banana or a bomb.') },
  { id: 'redirect', option: 'redirect', twoWays: true, text: {
    capture: N_('A banana or a bomb may send a piece onto an enemy, who is captured (the book’s sentence; its Bxe4 caption leaves that square out).'),
    free: N_('A banana or a bomb sends a piece only to a square without a piece (the book’s Bxe4 caption; its sentence allows a capture).') } },
  { id: 'redirect_own', text: N_('A banana or a bomb never sends a piece onto one of its own side; with no square left, the piece stays.') },
  { id: 'mushroom_step', text: N_('On a mushroom, a king, pawn or knight goes on only to a square without a piece (it captures nothing this way); a pawn that took diagonally goes on diagonally.') },
  { id: 'eggs', option: 'eggs', twoWays: true, text: {
    book: N_('An egg’s effect is drawn among all eight; one that cannot apply does nothing.'),
    applicable: N_('An egg’s effect is drawn among those that can apply.') } },
  { id: 'decline', text: N_('A bonus that asks you something (King Boo, Toadette, Daisy) may be declined.') },
  { id: 'kingboo', text: N_('King Boo swaps your piece with any other piece of either side; a pawn of yours put on its last rank is promoted, and an enemy pawn is never put on its own last rank.') },
  { id: 'toadette', text: N_('Toadette brings back one of your own captured pieces, on any square without a piece (a pawn on its last rank is promoted); on an egg or a mushroom it just takes it.') },
  { id: 'daisy', text: N_('Daisy’s second move sets off no egg, and leaves its item as any move does.') },
  { id: 'bowser', text: N_('Bowser holds the piece through its owner’s next turn, wherever it goes; a held Peach throws no shell.') },
  { id: 'turncoats', text: N_('Luigi and Waluigi never turn a king, nor a pawn onto its new side’s last rank; Waluigi may turn the piece that just moved.') },
  { id: 'leftovers', option: 'leftovers', text: {
    left: N_('A piece that Koopa sends back or Chomp eats still leaves its item.'),
    none: N_('A piece that Koopa sends back or Chomp eats leaves no item (as on the author’s site).') } },
  { id: 'stealth_hidden', text: N_('The queen’s stealth move goes to a square without a piece or an item; she stays hidden during one turn of the opponent (her owner takes her off the board), then comes back where she went.') },
  { id: 'stealth_found', text: N_('An enemy piece that arrives on the hidden queen’s square captures her, by a move, an item or Toadette; a stealth move onto the other hidden queen is a capture, and the power stays unused.') },
  { id: 'stealth_items', text: N_('An item dropped on the hidden queen’s square is taken away when she comes back; King Boo, Luigi and the shell pass her by.') },
  { id: 'shell', text: N_('Peach’s shell reaches as far as a queen would move: over eggs and mushrooms, not past a banana or a bomb; it hits an enemy only.') },
  { id: 'promotion', text: N_('A pawn on the last rank becomes a queen, rook, bishop, knight or king, chosen once the whole move has resolved (an item may carry it there).') },
  { id: 'no_move', option: 'no_move', text: {
    pass: N_('A player who has no move at all passes; the game is drawn when neither player can move.'),
    lose: N_('A player who has no move at all loses (as on the author’s site).') } },
  { id: 'fifty_moves', text: N_('The game is drawn after 50 moves by each side without a capture, a pawn move or an item used.') },
];

let selected = null;  // the square of the piece the player tapped
let reviving = null;  // Toadette: the captured piece picked, waiting for its square

const colourOf = (letter) => (letter === letter.toUpperCase() ? 'w' : 'b');
function pieceName(letter) {
  const name = t(PIECES[letter.toLowerCase()]);
  return colourOf(letter) === 'w' ? t('white %(piece)s', { piece: name }) : t('black %(piece)s', { piece: name });
}
const itemName = (code) => t(ITEMS[code]);
const thing = (code) => (code in ITEMS ? itemName(code) : pieceName(code));
const nameOfSeat = (game, seat) => game.names[String(seat)] ?? `#${seat}`;
const nameOfColour = (game, colour) => nameOfSeat(game, game.seats[colour]);

function stepText(step) {
  switch (step.kind) {
    case 'move': return t('%(piece)s: %(from)s → %(to)s', { piece: pieceName(step.piece), from: step.from, to: step.to });
    case 'item': return step.no_effect ? t('It takes the %(item)s on %(square)s (no effect).', { item: itemName(step.item), square: step.square })
      : t('%(item)s on %(square)s!', { item: itemName(step.item), square: step.square });
    case 'redirect': return step.to ? t('The %(item)s sends it to %(to)s (drawn among %(eligible)s).', { item: itemName(ITEM_WORDS[step.item]), to: step.to, eligible: step.eligible.join(', ') })
      : t('The %(item)s has nowhere to send it.', { item: itemName(ITEM_WORDS[step.item]) });
    case 'mushroom': if (!step.to) return t('The mushroom has no effect here.');
      return step.over ? t('Mushroom: it jumps over %(over)s to %(to)s.', { over: step.over, to: step.to }) : t('Mushroom: on to %(to)s.', { to: step.to });
    case 'egg': return step.applies ? t('Egg on %(square)s: %(effect)s.', { square: step.square, effect: t(EGGS[step.effect]) })
      : t('Egg on %(square)s: %(effect)s — it cannot apply, nothing happens.', { square: step.square, effect: t(EGGS[step.effect]) });
    case 'egg_spent': return t('The egg has no effect on a second move.');
    case 'back': return t('Koopa sends it back to %(to)s.', { to: step.to });
    case 'eaten': return t('Chomp eats the %(piece)s on %(square)s.', { piece: pieceName(step.piece), square: step.square });
    case 'immobile': return t('Bowser: the piece on %(square)s cannot move next turn.', { square: step.square });
    case 'turncoat': return t('The %(piece)s on %(square)s changes side.', { piece: pieceName(step.piece), square: step.square });
    case 'capture': return step.hidden ? t('The hidden queen was on %(square)s: captured!', { square: step.square })
      : t('The %(piece)s on %(square)s is captured.', { piece: pieceName(step.piece), square: step.square });
    case 'drop': return step.square ? (step.eligible.length > 1
      ? t('Dropped on %(square)s: %(item)s (drawn among %(eligible)s).', { item: itemName(ITEM_WORDS[step.item]), square: step.square, eligible: step.eligible.join(', ') })
      : t('Dropped on %(square)s: %(item)s.', { item: itemName(ITEM_WORDS[step.item]), square: step.square }))
      : t('No free square for the %(item)s.', { item: itemName(ITEM_WORDS[step.item]) });
    case 'stealth': return t('Mario leaves %(from)s in secret: nobody else knows where he goes.', { from: step.from });
    case 'shell': return t('Peach throws her shell from %(from)s at %(to)s.', { from: step.from, to: step.to });
    case 'swap': return t('King Boo swaps %(square)s and %(with)s.', { square: step.square, with: step.with });
    case 'revived': return t('Toadette brings back the %(piece)s on %(square)s.', { piece: pieceName(step.piece), square: step.square });
    case 'promotion': return t('Promotion: the %(piece)s on %(square)s.', { piece: pieceName(step.piece), square: step.square });
    case 'declined': return t('The bonus is declined.');
    case 'no_move_again': return t('Daisy, but the piece has no move: nothing happens.');
    case 'no_drop': return t('Taken by the egg, the piece leaves no item.');
    default: return step.kind;
  }
}

function changeText(change) {
  const { square, before, after } = change;
  if (before && !after) return t('Remove the %(thing)s from %(square)s.', { thing: thing(before), square });
  if (!before && after) return t('Put the %(thing)s on %(square)s.', { thing: thing(after), square });
  return t('On %(square)s, replace the %(before)s with the %(after)s.', { square, before: thing(before), after: thing(after) });
}

// --- what the player may do ------------------------------------------------------------
function legalFrom(game, square) {
  return game.legal.filter((action) => action.from === square);
}

function targetsFor(game) {
  const targets = new Map();  // square -> [actions]
  const add = (square, action) => targets.set(square, [...(targets.get(square) || []), action]);
  if (game.pending?.kind === 'swap') game.legal.filter((a) => a.type === 'swap').forEach((a) => add(a.with, a));
  else if (game.pending?.kind === 'revive' && reviving) {
    game.legal.filter((a) => a.type === 'revive' && a.piece === reviving).forEach((a) => add(a.to, a));
  } else if (pieceToMove(game)) legalFrom(game, pieceToMove(game)).forEach((a) => add(a.to, a));
  return targets;
}

// The piece tapped, or Daisy's piece: it is the only one that may move again, so its squares show at once.
function pieceToMove(game) {
  return selected || (game.pending?.kind === 'again' ? game.pending.square : null);
}

function prompt(game, me) {
  if (game.outcome) {
    return game.outcome.winners.length
      ? t('%(name)s wins!', { name: game.outcome.winners.map((seat) => nameOfSeat(game, seat)).join(', ') })
      : t('A draw.');
  }
  const mover = nameOfColour(game, game.turn);
  const mine = me === game.turn;
  if (game.phase === 'board') return mine ? t('Change the board as listed, then tap “Board done”.') : t('%(name)s is changing the board.', { name: mover });
  if (game.phase === 'choice') {
    if (!mine) return t('%(name)s is choosing an egg\'s effect.', { name: mover });
    return {
      swap: t('King Boo: tap the piece to swap yours with.'),
      revive: t('Toadette: pick a captured piece, then tap its square.'),
      again: t('Daisy: move the same piece again.'),
      promote: game.pending.then ? t('Promotion first: choose the new piece, then Daisy lets it move again.')
        : t('Promotion: choose the new piece.'),
    }[game.pending.kind];
  }
  return mine ? t('Your move: tap a piece, then where it goes.') : t('%(name)s is moving.', { name: mover });
}

// --- the board ------------------------------------------------------------------------------
function renderBoard(game, me, act, errorNode) {
  const flip = me === 'b';
  const targets = act ? targetsFor(game) : new Map();
  // A group of squares, each a button (a move) or a picture named by its square and what stands on it.
  const grid = el('div', { class: 'ck-board', role: 'group', 'aria-label': t('The board') });
  for (let row = 0; row < 8; row += 1) {
    for (let column = 0; column < 8; column += 1) {
      const file = flip ? 7 - column : column;
      const rank = flip ? row : 7 - row;
      const square = `${FILES[file]}${rank + 1}`;
      grid.append(cell(game, square, (file + rank) % 2 === 1, targets.get(square), act, errorNode));
    }
  }
  return grid;
}

function cell(game, square, light, actions, act, errorNode) {
  const piece = game.pieces[square];
  const item = game.items[square];
  const hidden = game.hidden_queen === square;
  const classes = ['ck-square', light ? 'light' : 'dark'];
  if (pieceToMove(game) === square) classes.push('selected');
  if (actions?.some((a) => a.type === 'move' || a.type === 'swap' || a.type === 'revive')) classes.push('target');
  if (actions?.some((a) => a.type === 'stealth')) classes.push('stealth-target');
  if (actions?.some((a) => a.type === 'shell')) classes.push('shell-target');
  if (game.report?.changes?.some((change) => change.square === square)) classes.push('changed');
  const label = [square, piece ? pieceName(piece) : null, item ? itemName(item) : null,
    hidden ? t('your hidden queen') : null].filter(Boolean).join(', ');
  const content = [];
  if (piece) content.push(el('span', { class: `ck-piece ${colourOf(piece)}`, text: GLYPHS[piece.toLowerCase()] }));
  else if (hidden) content.push(el('span', { class: `ck-piece ${game.you} ghost`, text: GLYPHS.q }));
  if (item) content.push(el('span', { class: `ck-item${piece ? ' under' : ''}`, text: ITEM_GLYPHS[item] }));
  if (game.immobile[square]) content.push(el('span', { class: 'ck-held', text: '⛓' }));
  return el(act ? 'button' : 'div', {
    class: classes.join(' '), type: act ? 'button' : null, role: act ? null : 'img', 'aria-label': label, 'data-square': square,
    onclick: act ? () => tap(game, square, actions, act, errorNode) : null,
  }, ...content);
}

async function send(act, action, errorNode) {
  const answer = await act(action);
  showError(errorNode, answer?.ok ? '' : answer?.error);
  if (answer?.ok) { selected = null; reviving = null; }
  return answer;
}

function tap(game, square, actions, act, errorNode) {
  if (actions?.length) {
    const normal = actions.find((a) => a.type !== 'stealth');
    const secret = actions.find((a) => a.type === 'stealth');
    if (normal && secret) {
      chooseStealth(normal, secret, act, errorNode);
      return;
    }
    send(act, normal || secret, errorNode);
    return;
  }
  const piece = game.pieces[square];
  selected = piece && colourOf(piece) === game.turn && legalFrom(game, square).length ? square : null;
  rerender();
}

function chooseStealth(normal, secret, act, errorNode) {
  const dialog = el('div', { class: 'ck-stealth-choice next-action', role: 'group' },
    el('p', { text: t('Mario can go there openly, or in secret (once per game).') }),
    button(t('Move openly'), () => send(act, normal, errorNode), 'primary'),
    button(t('Stealth move: only I know where'), () => send(act, secret, errorNode)),
    button(t('Cancel'), () => { selected = null; rerender(); }));
  errorNode.before(dialog);
}

// --- the screen --------------------------------------------------------------------------------
let lastArgs = null;
function rerender() {
  if (lastArgs) renderChakart(...lastArgs);
}

export function renderChakart(container, view, options = {}) {
  lastArgs = [container, view, options];
  const game = view.game;
  const me = view.you.role === 'seat' ? game.you : null;
  const myTurn = me && me === game.turn && !game.outcome;
  const act = myTurn && options.act ? options.act : null;
  if (!act) { selected = null; reviving = null; }
  const errorNode = el('p', { class: 'error', hidden: true, role: 'alert' });
  const parts = [el('p', { class: `ck-prompt${myTurn ? ' mine' : ''}`, text: prompt(game, me) })];
  if (game.queen_hidden.length && !game.hidden_queen) {
    parts.push(el('p', { class: 'notice', text: t('%(name)s\'s queen moved in secret: she comes back after this turn.', { name: game.queen_hidden.map((colour) => nameOfColour(game, colour)).join(', ') }) }));
  }
  if (game.hidden_queen) {
    parts.push(el('p', { class: 'notice', text: t('Your queen is hidden on %(square)s: keep her off the board until she comes back.', { square: game.hidden_queen }) }));
  }
  parts.push(renderBoard(game, me, act, errorNode), errorNode);
  // What this phone taps next, besides the board: a bar at the bottom of the phone's screen.
  const next = [];
  if (act && game.phase === 'board') next.push(button(t('Board done'), () => send(act, { type: 'board_done' }, errorNode), 'primary big ck-done'));
  if (act) next.push(...choiceControls(game, act, errorNode));
  if (next.length) parts.push(el('div', { class: 'ck-next next-action' }, ...next));
  if (act && game.phase === 'move' && game.legal.some((a) => a.type === 'shell')) {
    parts.push(el('p', { class: 'ck-hint', text: t('Peach can throw her shell: tap your king, then a red target.') }));
  }
  if (game.report) parts.push(report(game, me));
  parts.push(sides(game, me));
  if (game.reports.length) {
    parts.push(el('details', { class: 'ck-fold' }, el('summary', { text: t('Earlier moves') }),
      el('ol', { class: 'ck-history', reversed: true }, ...game.reports.slice().reverse().map((item) => el('li', {},
        el('strong', { text: nameOfColour(game, item.colour) }), ' ', item.steps.map(stepText).join(' '))))));
  }
  parts.push(el('p', { class: 'ck-fen' }, el('span', { text: t('Position (FEN):') }), ' ', el('code', { text: game.my_fen || game.fen })));
  parts.push(rulesSummary(view.table?.options || {}));
  container.replaceChildren(el('div', { class: 'chakart-game' }, ...parts));
  if (act) boardAboveBar(container, `${game.reports.length}:${game.phase}:${game.pending?.kind}:${reviving}`);
}

// A choice made on the board (King Boo's piece, Toadette's square, Daisy's move) while a bar holds the rest
// of it at the foot of the phone's screen: the page scrolls the board up to sit above the bar, so that no
// square to tap lies under it (the lowest ranks did). Once per choice: the player's own scrolling is left be.
let choiceShown = null;
function boardAboveBar(container, choice) {
  const board = container.querySelector('.ck-board');
  const bar = container.querySelector('.next-action');
  if (!board?.querySelector('.target') || !bar || getComputedStyle(bar).position !== 'fixed') return;
  if (choice === choiceShown) return;
  choiceShown = choice;
  const { top, bottom } = board.getBoundingClientRect();
  const under = bottom - bar.getBoundingClientRect().top;
  // Up until its foot clears the bar, but never past its top; a board scrolled past comes back down.
  const shift = top < 0 ? top : Math.min(Math.max(under, 0), top);
  if (shift) window.scrollBy({ top: shift, behavior: 'instant' });
}

function choiceControls(game, act, errorNode) {
  const parts = [];
  if (game.pending?.kind === 'promote') {
    parts.push(el('div', { class: 'ck-choices' }, ...['q', 'r', 'b', 'n', 'k'].map((piece) => button(
      t(PIECES[piece]), () => send(act, { type: 'promote', piece }, errorNode)))));
  }
  if (game.pending?.kind === 'revive') {
    const captured = [...new Set(game.captured[game.turn])];
    parts.push(el('div', { class: 'ck-choices' }, ...captured.map((piece) => button(pieceName(piece), () => {
      reviving = piece; rerender();
    }, reviving === piece ? 'primary' : ''))));
  }
  if (game.legal.some((a) => a.type === 'decline')) parts.push(button(t('Decline the bonus'), () => send(act, { type: 'decline' }, errorNode)));
  if (game.legal.some((a) => a.type === 'pass')) parts.push(button(t('Pass: nothing can move'), () => send(act, { type: 'pass' }, errorNode)));
  return parts;
}

function sides(game, me) {
  const line = (colour) => el('li', { class: game.turn === colour ? 'active' : '' },
    el('strong', { text: `${withColon(colour === 'w' ? t('White') : t('Black'))} ${nameOfColour(game, colour)}${colour === me ? ` (${t('you')})` : ''}` }),
    el('span', { text: ` ${game.powers[colour].stealth ? '🕶' : ''}${game.powers[colour].shell ? '🐢' : ''}` }),
    game.captured[colour].length ? el('span', { class: 'ck-captured', text: ` ${t('lost:')} ${game.captured[colour].map((p) => GLYPHS[p.toLowerCase()]).join('')}` }) : null);
  return el('ul', { class: 'ck-sides' }, line('w'), line('b'));
}

function report(game, me) {
  const mine = me === game.report.colour;
  const parts = [el('h3', { text: t('What happened') }),
    el('ol', { class: 'ck-steps' }, ...game.report.steps.map((step) => el('li', { text: stepText(step) })))];
  const changes = game.report.changes;
  const revealed = game.report.revealed;
  if (changes.length) {
    // The changes first: they are what the players act on; the story of the move follows. Once the
    // hidden queen is back, the move's changes are done: what the board needs now is hers.
    const heading = revealed ? t('Changes of that move (done)') : (mine ? t('Change the board') : t('Changes on the board'));
    parts.unshift(el('h3', { text: heading }),
      el('ul', { class: 'ck-changes' }, ...changes.map((change) => el('li', { text: changeText(change) }))));
  }
  if (revealed) {
    parts.unshift(el('h3', { text: t('The hidden queen comes back on %(square)s', { square: revealed.square }) }),
      el('ul', { class: 'ck-changes ck-revealed' }, ...(revealed.changes || []).map((change) => el('li', { text: changeText(change) }))));
  }
  return el('section', { class: 'ck-report' }, ...parts);
}

// The fold any player can open during the game: every choice the referee makes where the book is silent
// or reads two ways, as this table plays it.
export function rulesSummary(options) {
  const items = SILENT.map((choice) => {
    const value = choice.option ? options[choice.option] : null;
    const text = typeof choice.text === 'string' ? choice.text
      : (choice.text[value] ?? Object.values(choice.text)[0]);
    const mark = choice.twoWays ? t('the book reads two ways') : t('the book is silent');
    const note = choice.option ? t('%(mark)s; a table option', { mark }) : mark;
    return el('li', { 'data-choice': choice.id },
      el('span', { text: t(text) }), ' ', el('em', { class: 'ck-silent', text: `(${note})` }));
  });
  return el('details', { class: 'ck-fold ck-rules' }, el('summary', { text: t('Rules of this table') }),
    el('p', { text: t('Where the book says nothing, or can be read two ways, the referee plays so:') }),
    el('ul', {}, ...items));
}
