// The table's randomness in the browser (format companion/v2, see companion/fairness.py): the draws
// and the verifier of companion/verify.py, check for check. The phone's own chain is in chain.js.
import {
  CHAIN_LENGTH, MAX_SKIP, RECORD_FORMAT, SHOWN_FROM_VIEW, chain, chainStep, isHash, stepsTo,
} from './chain.js';
import { bytesToHex, hexToBytes, hmacSha256, sha256, utf8 } from './hashes.js';
import { drawSaid } from './draw-kinds.js';
import { N_ } from './i18n.js';
import { amiiboxeCheck } from './games/amiiboxe-draws.js';
import { arkadeCheck } from './games/arkade-draws.js';
import { chakartCheck } from './games/chakart-draws.js';
import { raymanCheck } from './games/rayman-draws.js';
import { universalisCheck } from './games/universalis-draws.js';

export { CHAIN_LENGTH, MAX_SKIP, RECORD_FORMAT, SHOWN_FROM_VIEW, chain, chainStep, isHash, stepsTo };

const WORD_SPACE = 1n << 64n;
export const EMPTY_POOL = '00'.repeat(32);
// The table's draws that wait for a round of their own (companion/verify.py's WAITS_FOR): the setup's,
// for the round the start opens, and a draw a game asks the table for (fresh).
const WAITS_FOR = { setup: 'start', fresh: 'fresh' };
// The table's own calls of the rules (a host decision or game action, a withdrawal, a timeout): a table
// draw there waits for a round opened by the call (companion/night.py), when a phone takes part in rounds.
const TABLE_CALLS = ['apply', 'withdraw', 'timeout'];
export const commitmentOf = (seedHex) => bytesToHex(sha256(hexToBytes(seedHex)));
export const mixPool = (poolHex, valueHex) => bytesToHex(sha256(hexToBytes(poolHex + valueHex)));

export function seal(poolHex, revealed) {
  let pool = poolHex;
  for (const seat of Object.keys(revealed).sort((a, b) => Number(a) - Number(b))) pool = mixPool(pool, revealed[seat]);
  return pool;
}

export function drawLabel(draw) {
  if (draw.by === null || draw.by === undefined) return `table|${draw.n}`;
  return `seat|${draw.by}|${draw.m}|${draw.reveal || '-'}`;
}

class WordStream {
  constructor(seedHex, label, poolHex) {
    this.key = hexToBytes(seedHex);
    this.prefix = `companion/v2|${poolHex}|${label}|`;
    this.block = 0;
    this.words = [];
  }

  nextWord() {
    if (!this.words.length) {
      const digest = hmacSha256(this.key, utf8(this.prefix + this.block));
      this.block += 1;
      const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
      for (let i = 0; i < 32; i += 8) this.words.push(view.getBigUint64(i));
    }
    return this.words.shift();
  }

  uniform(k) {
    const bound = BigInt(k);
    const limit = WORD_SPACE - (WORD_SPACE % bound);
    for (;;) {
      const word = this.nextWord();
      if (word < limit) return Number(word % bound);
    }
  }
}

export function recompute(seedHex, draw) {
  const stream = new WordStream(seedHex, drawLabel(draw), draw.pool);
  if (draw.type === 'int') return draw.lo + stream.uniform(draw.hi - draw.lo + 1);
  if (draw.type === 'shuffle') {
    const order = Array.from({ length: draw.size }, (_, i) => i);
    for (let i = draw.size - 1; i > 0; i -= 1) {
      const j = stream.uniform(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }
  throw new Error(`unknown draw type ${draw.type}`);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const str = (value) => JSON.stringify(value ?? null);

// How each game's events derive from its draws: companion/verify.py's GameCheck, for the page.
// step({options, draws, entries}) -> [{i, text, params}]; shown(item, events) -> problem or null;
// fromView(view) -> the results a phone records as displayed. Add a game here and in verify.py.
function diceCheck() {
  let expected = 1;
  const facesOf = (options) => ((options.die || 'd6') === 'custom' ? [...(options.faces || [])]
    : Array.from({ length: Number((options.die || 'd6').slice(1)) }, (_, i) => String(i + 1)));
  return {
    step({ options, draws, entries }) {
      const faces = facesOf(options);
      const problems = [];
      const rolled = entries.filter((entry) => entry.event?.type === 'rolled');
      if (draws.length && !rolled.length) {
        problems.push({ i: draws[0].i, text: N_("a roll's draws have no rolled event: the event was removed") });
      }
      for (const { i, event } of rolled) {
        const results = draws.map((draw) => draw.result);
        if (!draws.length) {
          problems.push({ i, text: N_('a rolled event without any draw: the event was forged') });
          continue;
        }
        if (!same(event.values, results)) {
          problems.push({ i, text: N_('rolled %(values)s but the draws give %(results)s'),
            params: { values: str(event.values), results: str(results) } });
        } else if (!same(event.faces, results.map((v) => (Number.isInteger(v) && v > 0 && v <= faces.length ? faces[v - 1] : null)))) {
          problems.push({ i, text: N_('rolled faces %(faces)s do not match the draws %(results)s'),
            params: { faces: str(event.faces), results: str(results) } });
        }
        if (draws.some((draw) => draw.by !== event.seat)) {
          problems.push({ i, text: N_('rolled by seat %(seat)s but drawn for seat %(other)s'),
            params: { seat: event.seat, other: draws[0].by } });
        }
        if (draws.some((draw) => draw.lo !== 1 || draw.hi !== faces.length)) {
          problems.push({ i, text: N_('the draws are not of a die with %(count)s faces'), params: { count: faces.length } });
        }
        if (event.number !== expected) {
          problems.push({ i, text: N_('roll number %(number)s, expected %(expected)s'),
            params: { number: event.number, expected } });
        }
        expected = (Number.isInteger(event.number) ? event.number : expected) + 1;
      }
      return problems;
    },
    shown(item, events) {
      if (item.type !== 'rolled') return null;
      const match = events.find(({ event }) => event.type === 'rolled' && event.number === item.number);
      if (!match) return { text: N_('your phone showed roll %(number)s, which the log does not have'), params: { number: item.number } };
      if (!same(match.event.values, item.values) || match.event.seat !== item.seat) {
        return { i: match.i, text: N_('your phone showed roll %(number)s by seat %(seat)s as %(values)s, the log says seat %(other)s rolled %(logged)s'),
          params: { number: item.number, seat: item.seat, values: str(item.values), other: match.event.seat, logged: str(match.event.values) } };
      }
      return null;
    },
    reset() { expected = 1; },
  };
}

export const GAME_CHECKS = { dice: diceCheck, arkade: arkadeCheck, chakart: chakartCheck, rayman: raymanCheck, universalis: universalisCheck, amiiboxe: amiiboxeCheck };


// The log replayed entry by entry, as companion/verify.py's _Walk: every problem keeps its entry number.
class Walk {
  constructor(log) {
    this.seed = log.seed;
    this.problems = [];
    this.notes = [];
    this.pool = EMPTY_POOL; this.epoch = 0; this.nextN = 0; this.rounds = 0;
    this.sealedBy = null;  // why the round that sealed the pool was opened (see WAITS_FOR)
    this.seats = new Map();
    this.present = new Set();
    this.round = null;
    this.waiting = [];
    this.lastSpent = null;
    this.draws = 0;
    this.rows = [];
    this.values = new Map();
    this.game = log.game; this.options = {}; this.check = null;
    this.step = null;
    this.events = [];
    this.carried = new Map();
    this.commitment = log.commitment;
    // The game's actions (companion/replay.py): the page replays them with the game's own Python rules
    // (replay.js, which also says when a log has none); this script checks that every draw and event
    // follows an action, which holds even where Python cannot run.
    this.actions = false;
    this.action = null;
    this.replayStopped = false;
    this.actionEntries = [];  // the numbers of the action entries so far
    this.takenBack = new Set();  // those undone
    this.unspent = [];  // the values a phone's record showed the server and the log lacks
    // The committed calls waiting for their draws, in the order they were committed (draw_waits), and
    // where the round that sealed the pool was opened (companion/verify.py's queue check).
    this.queue = [];
    this.sealedRound = null;
    this.restarts = 0;  // rounds started again without a phone that did not answer: each a veto
  }

  problem(entry, text, params = {}) { this.problems.push({ i: entry?.i ?? null, text, params }); }

  chain(entry, seat, value, k) {
    const book = this.seats.get(seat);
    if (!book) { this.problem(entry, N_('seat %(seat)s reveals a value but never committed'), { seat }); return false; }
    const steps = isHash(value) ? stepsTo(value, book.head) : null;
    if (steps === null) {
      this.problem(entry, N_("seat %(seat)s's value does not hash to its previous one: not from its committed chain"), { seat });
      return false;
    }
    if (k !== null && k !== undefined && k !== book.k + steps) this.problem(entry, N_("seat %(seat)s's value is number %(k)s, expected %(expected)s"), { seat, k, expected: book.k + steps });
    book.head = value; book.k += steps;
    if (!this.values.has(seat)) this.values.set(seat, new Set());
    this.values.get(seat).add(value);
    return true;
  }

  table(entry) {
    if (entry.type === 'created' || entry.type === 'new_game') {
      if (entry.type === 'new_game' && entry.commitment !== undefined && entry.commitment !== null && entry.commitment !== this.commitment) {
        this.problem(entry, N_("the new game's commitment is not the one the log announces"));
      }
      this.game = entry.game ?? this.game;
      this.options = entry.options || {};
      const factory = GAME_CHECKS[this.game];
      if (this.check === null || entry.type === 'created') this.check = factory ? factory() : null;
      else if (this.check) this.check.reset();
      if (!factory) this.notes.push({ text: N_('the events of game %(game)s are not checked against the draws'), params: { game: this.game } });
      this.actions = Boolean(entry.actions);
      this.queue = [];
      this.replayStopped = false;
      this.started = false;
      this.actionEntries = [];
      this.takenBack = new Set();
    } else if (entry.type === 'undone') this.undone(entry);
    else if (entry.type === 'joined') this.present.add(entry.seat);
    else if (entry.type === 'removed' || entry.type === 'left') this.present.delete(entry.seat);
    else if (entry.type === 'draw_waits') this.queue.push({ seat: entry.seat, i: entry.i });
    else if (entry.type === 'draw_dropped') this.dropped(entry);
  }

  // A committed call dropped (the rules refuse it once the draws before it ran, or the game ended): the
  // queue's head, before a round was opened for it.
  dropped(entry) {
    const head = this.queue.shift();
    if (!head || ('seat' in entry && entry.seat !== head.seat)) {
      this.problem(entry, N_('a draw of seat %(seat)s is dropped out of its turn in the queue'), { seat: entry.seat });
    }
  }

  // A committed call runs: the queue's head, first come first drawn, from a round opened after it was
  // committed (its values were revealed after it was irrevocable).
  served(entry) {
    const head = this.queue.shift();
    if (head.seat !== entry.seat) {
      this.problem(entry, N_("seat %(seat)s's call runs before seat %(head)s's, committed earlier: the queue is first come, first drawn"), { seat: entry.seat, head: head.seat });
    } else if (this.sealedRound === null || this.sealedRound === undefined || this.sealedRound < (head.i ?? 0)) {
      this.problem(entry, N_("seat %(seat)s's committed call is drawn from a round opened before it was committed: whoever ran the server could compute its draws first"), { seat: entry.seat });
    }
  }

  commit(entry) {
    if (!isHash(entry.commitment)) { this.problem(entry, N_("seat %(seat)s's commitment is malformed"), { seat: entry.seat }); return; }
    this.seats.set(entry.seat, { head: entry.commitment, k: 0, m: 0, rounds: Boolean(entry.rounds), since: null });
    this.present.add(entry.seat);
    this.waiting.push(entry.seat);
  }

  carry(entry) {
    const seats = entry.seats || {};
    this.seats = new Map(Object.entries(seats).map(([s, book]) => [Number(s), { ...book, since: null }]));
    this.carried = new Map(Object.entries(seats).map(([s, book]) => [Number(s), { ...book }]));
    this.pool = entry.pool; this.epoch = entry.epoch ?? 0; this.rounds = entry.rounds ?? 0;
    this.sealedBy = null;
    this.present = new Set(entry.present || []);
    this.waiting = [...this.seats.keys()].filter((s) => this.present.has(s)).sort((a, b) => a - b);
    this.round = null;
  }

  openRound(entry) {
    this.rounds += 1;
    if (entry.round !== this.rounds) this.problem(entry, N_('round %(number)s, expected round %(expected)s'), { number: entry.round, expected: this.rounds });
    let expected;
    let waitingFor;
    if ('without' in entry) {
      this.restarts += 1;
      this.notes.push({ text: N_('entry %(i)s: round %(number)s started again without seats %(without)s, whose phones did not answer: a veto, visible in the log'),
        params: { i: entry.i, number: entry.round, without: str(entry.without) } });
      const before = this.round || { asked: [], revealed: {}, for: [] };
      const without = Array.isArray(entry.without) ? entry.without : [];
      const missing = before.asked.filter((s) => !(String(s) in before.revealed));
      // A seat that left a start round restarts it, revealed or not.
      if (before.why === 'start') missing.push(...without.filter((s) => !this.present.has(s)));
      if (!without.length || without.some((s) => !missing.includes(s))) {
        this.problem(entry, N_('a round restarts without %(without)s, but %(missing)s had not revealed'), { without: str(entry.without), missing: str(missing) });
      }
      expected = before.asked.filter((s) => !without.includes(s) && this.present.has(s));
      waitingFor = before.for;
    } else {
      if (this.round !== null) this.problem(entry, N_('a round opens while another is still open'));
      expected = [...this.present].filter((s) => this.seats.has(s) && this.seats.get(s).rounds).sort((a, b) => a - b);
      const away = Array.isArray(entry.away) ? entry.away : [];
      if (away.length && entry.why === 'fresh' && away.every((s) => expected.includes(s))) {
        // A round a draw waits for asks the phones connected then: the server names the others.
        this.notes.push({ text: N_('entry %(i)s: round %(number)s did not ask seats %(away)s, away according to the server (only their phones\' records can tell)'),
          params: { i: entry.i, number: entry.round, away: str(away) } });
        expected = expected.filter((s) => !away.includes(s));
      }
      waitingFor = this.waiting; this.waiting = [];
    }
    if (!same(entry.asked, expected)) {
      this.problem(entry, N_('the round asks seats %(asked)s, it must ask %(expected)s: a phone was left out'), { asked: str(entry.asked), expected: str(expected) });
    }
    if ('without' in entry && (entry.why ?? null) !== (this.round?.why ?? null)) {
      this.problem(entry, N_('a round restarts for another purpose than the round it replaces'));
    }
    this.round = { asked: entry.asked || [], revealed: {}, for: waitingFor, why: entry.why ?? null, opened: entry.i };
  }

  reveal(entry) {
    const seat = entry.seat;
    if (!this.round || !this.round.asked.includes(seat) || String(seat) in this.round.revealed) {
      this.problem(entry, N_('seat %(seat)s reveals outside its round'), { seat });
      return;
    }
    const before = this.seats.get(seat)?.k;
    if (this.chain(entry, seat, entry.value, entry.k)) {
      this.round.revealed[String(seat)] = entry.value;
      if (this.round.why && this.seats.get(seat).k !== before + 1) {
        this.problem(entry, N_("seat %(seat)s skips values in a round opened for a draw, which takes each phone's very next value: a skip would let the phone pick among its values"), { seat });
      }
    }
  }

  seal(entry) {
    if (!this.round) { this.problem(entry, N_('a pool is sealed without a round')); return; }
    const revealed = Object.keys(this.round.revealed).map(Number).sort((a, b) => a - b);
    if (!same(revealed, [...this.round.asked].sort((a, b) => a - b))) this.problem(entry, N_('a pool is sealed before every asked phone revealed'));
    const pool = seal(this.pool, this.round.revealed);
    if (entry.pool !== pool) this.problem(entry, N_('the sealed pool is not the fold of the values revealed in its round'));
    if (!same(entry.for, this.round.for)) this.problem(entry, N_('the pool is sealed for seats %(seats)s, expected %(expected)s'), { seats: str(entry.for), expected: str(this.round.for) });
    this.pool = pool; this.epoch += 1; this.sealedBy = this.round.why ?? null; this.sealedRound = this.round.opened;
    for (const seat of this.round.for) {
      const book = this.seats.get(seat);
      if (book && book.since === null) book.since = this.epoch;
    }
    this.round = null;
  }

  draw(entry) {
    // Draws are numbered from 1 for people (the log counts from 0), as in companion/verify.py.
    const where = { n: Number.isInteger(entry.n) ? entry.n + 1 : entry.n, purpose: drawSaid(entry.purpose) };
    const before = this.problems.length;
    this.draws += 1;
    if (entry.n !== this.nextN) this.problem(entry, N_('draw %(n)s (%(purpose)s): expected draw number %(expected)s: a draw is missing or out of order'), { ...where, expected: this.nextN + 1 });
    this.nextN = (Number.isInteger(entry.n) ? entry.n : this.nextN) + 1;
    if (entry.pool !== this.pool) this.problem(entry, N_('draw %(n)s (%(purpose)s): not drawn from the latest sealed pool'), where);
    const call = this.action?.call;
    const waitsFor = Object.hasOwn(WAITS_FOR, call ?? '') ? WAITS_FOR[call]
      : (TABLE_CALLS.includes(call) && (entry.by === null || entry.by === undefined) && this.phones() ? 'fresh' : null);
    if (waitsFor && this.sealedBy !== waitsFor) {
      this.problem(entry, N_('draw %(n)s (%(purpose)s): a %(call)s draw from a pool sealed before the round opened for it: whoever ran the server could compute it before it was irrevocable'), { ...where, call });
    }
    if (entry.by !== null && entry.by !== undefined) this.seatDraw(entry, where, entry.by);
    let expected = null;
    try {
      expected = recompute(this.seed, entry);
      if (!same(entry.result, expected)) {
        this.problem(entry, N_('draw %(n)s (%(purpose)s): logged result %(result)s, recomputed %(expected)s'), { ...where, result: str(entry.result), expected: str(expected) });
      }
    } catch (error) {
      this.problem(entry, N_('draw %(n)s (%(purpose)s): malformed draw (%(error)s)'), { ...where, error: error.message });
    }
    this.rows.push({ entry, expected, good: this.problems.length === before });
  }

  // A present seat's phone takes part in rounds (a table of scripts alone has none).
  phones() {
    return [...this.present].some((seat) => this.seats.has(seat) && this.seats.get(seat).rounds);
  }

  seatDraw(entry, where, seat) {
    const book = this.seats.get(seat);
    if (!book || book.since === null) {
      this.problem(entry, N_('draw %(n)s (%(purpose)s): seat %(seat)s drew before a pool sealed after its commitment'), { ...where, seat });
      return;
    }
    if (entry.m !== book.m) this.problem(entry, N_("draw %(n)s (%(purpose)s): seat %(seat)s's draw number %(m)s, expected %(expected)s"), { ...where, seat, m: entry.m, expected: book.m });
    book.m += 1;
    const value = entry.reveal;
    if (entry.alone) {
      this.notes.push({ text: N_("draw %(n)s: drawn without another phone (no other phone connected, the server says): seat %(seat)s's own value alone"), params: { n: where.n, seat } });
    }
    if (value === null || value === undefined) {
      // From a round its action opened, or else its phone sent no fresh value.
      if (book.rounds && this.sealedBy !== 'fresh') this.notes.push({ text: N_("draw %(n)s: seat %(seat)s's phone sent no fresh value with its action"), params: { n: where.n, seat } });
      this.lastSpent = null;
      return;
    }
    if (this.lastSpent && this.lastSpent.seat === seat && this.lastSpent.value === value && value === book.head) return;
    if (this.chain(entry, seat, value, null)) this.lastSpent = { seat, value };
  }

  run(entries) {
    for (const entry of entries) {
      if (entry.kind === 'draw') {
        if (this.step !== null && this.step.entries.length) this.endStep();  // events, then a draw: a new step
        if (this.step === null) this.step = { options: this.options, draws: [], entries: [] };
        this.step.draws.push(entry);
        this.draw(entry);
        continue;
      }
      if (entry.kind === 'event') {
        if (this.step === null) this.step = { options: this.options, draws: [], entries: [] };
        this.step.entries.push(entry);
        this.events.push({ i: entry.i, event: entry.event || {} });
        continue;
      }
      this.endStep();
      this.lastSpent = null;
      if (entry.kind === 'action') {
        this.action = entry; this.actionEntries.push(entry.i);
        if (this.queue.length && TABLE_CALLS.includes(entry.call)) this.served(entry);
        continue;
      }
      const handler = { commit: 'commit', round: 'openRound', reveal: 'reveal', pool: 'seal', table: 'table', carry: 'carry' }[entry.kind];
      if (handler) this[handler](entry);
      else if (entry.kind === 'entropy') this.notes.push({ text: N_('entry %(i)s: a raw entropy entry (older format) feeds no draw'), params: { i: entry.i } });
    }
    this.endStep();
  }

  // An undo names the latest action not undone yet (companion/replay.py checks the state too).
  undone(entry) {
    if (!this.actions || !this.started || this.replayStopped) return;
    const named = (Array.isArray(entry.entries) ? entry.entries : []).filter((i) => this.actionEntries.includes(i));
    if (!named.length) {
      this.problem(entry, N_('replay: an undo that names no action of the log'));
    } else {
      const action = Math.min(...named);
      const latest = [...this.actionEntries].reverse().find((i) => !this.takenBack.has(i));
      if (action === latest) { this.takenBack.add(action); return; }
      this.problem(entry, N_('replay: an undo of entry %(action)s, but the game had moved on since'), { action });
    }
    this.replayStopped = true;
  }

  endStep() {
    // A round's pool feeds one call of the table's: the next needs its own.
    if (this.step && this.step.draws.some((draw) => draw.by === null || draw.by === undefined
      || draw.reveal === null || draw.reveal === undefined)) this.sealedBy = null;
    if (this.step && this.check && this.typed(this.step)) this.problems.push(...this.check.step(this.step));
    // The replay's orphan check (companion/replay.py): once the game is set up, draws or game events
    // (not the table's own figure events, marked) without the action that made them.
    // One save writes an action with its draws and events, all stamped with the same time: one stamped
    // otherwise was written by another save, whose action is missing.
    const made = this.step ? [...this.step.draws, ...this.step.entries.filter((e) => !e.figures)] : [];
    const stray = this.action === null ? (this.started ? made[0] : undefined)
      : made.find((e) => 'at' in this.action && e.at !== this.action.at);
    if (stray && this.actions && !this.replayStopped) {
      this.problem(stray, N_("replay: the game's events here follow no action: the action that made them is missing from the log"));
      this.replayStopped = true;
    }
    if (this.action) this.started = true;
    this.step = null;
    this.action = null;
  }

  // The step's draws name their kind (companion/verify.py's _typed): a log from before typed purposes
  // (prose) has its events checked against its draws by the replay alone.
  typed(step) {
    if (step.draws.every((draw) => draw.purpose && typeof draw.purpose === 'object')) return true;
    this.notes.push({ text: N_("this log names its draws in prose (an older format): the game's events are checked against its draws by the replay only"), params: {} });
    return false;
  }

  record(log, record) {
    if (record.format !== RECORD_FORMAT) { this.problem(null, N_("the phone's record is not in a format this verifier knows")); return; }
    if (record.code !== log.code) {
      this.problem(null, N_("the phone's record is for table %(record)s, the log for %(log)s"), { record: record.code, log: log.code });
      return;
    }
    const forThisGame = (item) => item?.game === undefined || item?.game === null || item.game === log.commitment;
    if (record.commitment !== log.commitment && !(record.commitments || []).includes(log.commitment)) {
      this.problem(null, N_('your phone was shown the commitment %(shown)s, the log has %(logged)s: the log was rebuilt with another seed'),
        { shown: record.commitment, logged: log.commitment });
    }
    const length = record.length ?? CHAIN_LENGTH;
    if (!isHash(record.secret) || !Number.isInteger(length) || length <= 0 || length > 65536) {
      this.problem(null, N_("the phone's record has no readable secret"));
      return;
    }
    const values = chain(record.secret, length);
    if (record.anchor !== values[0]) this.problem(null, N_("the phone's record is inconsistent: its anchor is not its secret's"));
    // A seat handed to another phone commits again: the phone's own commitment is the one to find.
    const commits = (log.entries || []).filter((e) => e.kind === 'commit' && e.seat === record.seat);
    const committed = commits.find((e) => e.commitment === values[0]) || commits[0];
    const carried = this.carried.get(record.seat);
    if (!committed && carried) {  // a later game of the table: the book it starts from
      if (!Number.isInteger(carried.k) || carried.k < 0 || carried.k >= values.length || values[carried.k] !== carried.head) {
        this.problem(null, N_("the book this game starts from does not hold your phone's value for seat %(seat)s"), { seat: record.seat });
      }
    } else if (!committed || committed.commitment !== values[0]) {
      this.problem(committed, N_("your phone's commitment (seat %(seat)s) is missing from the log or changed"), { seat: record.seat });
    }
    for (const item of (record.revealed || []).filter(forThisGame)) {
      const k = typeof item === 'object' ? item.k : item;
      if (!Number.isInteger(k) || k <= 0 || k >= values.length || !this.values.get(record.seat)?.has(values[k])) {
        this.problem(null, N_("your phone's random value number %(k)s is missing from the log: its entropy was removed"), { k });
      }
    }
    for (const item of (record.shown || []).filter(forThisGame)) {
      const found = this.check ? this.check.shown(item, this.events) : null;
      if (found) this.problem(found.i === undefined ? null : { i: found.i }, found.text, found.params);
    }
    this.unspentOf(record.seat, values, (record.sent || []).filter((item) => item && typeof item === 'object' && forThisGame(item)));
  }

  // companion/verify.py's check 8: each value the phone showed the server (and heard back about) that
  // the log lacks was seen and not spent, a possible veto, reported with the action it came with.
  unspentOf(seat, values, sent) {
    for (const item of sent) {
      const { k, answer } = item;
      if (!answer || typeof answer !== 'object') continue;  // no answer yet: the phone does not know
      if (!Number.isInteger(k) || k <= 0 || k >= values.length) {
        this.problem(null, N_("the phone's record lists a value number %(k)s it cannot have sent"), { k: str(k) });
        continue;
      }
      // Refused, then spent in a round opened for a draw (it takes the phone's very next value): the server
      // saw it with the refused action all the same.
      const refused = answer.ok === false && answer.status !== null && answer.status !== undefined;
      if (this.values.get(seat)?.has(values[k]) && !refused) continue;
      const params = { k, action: String(item.type), status: String(answer.status ?? '?'), error: String(answer.error || '') };
      let text = N_("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: the server refused the action (%(status)s: %(error)s)");
      if (answer.ok) text = N_("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: the server accepted the action without using it");
      else if (answer.fault) text = N_("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: the server said it failed on its side (%(status)s: %(error)s)");
      this.unspent.push({ i: null, text, params });
    }
  }
}

// Every check of companion/verify.py: {ok, pending, checked, problems: [{i, text, params}], notes, rows,
// unspent: [{i, text, params}] (check 8: possible vetoes, which leave ok as it is), restarts (rounds started
// again without a phone that did not answer: vetoes in the log, each named in the notes)}.
export function verifyLog(log, record = null) {
  if (!log.seed) return { ok: false, pending: true, checked: 0, problems: [], notes: [], rows: [], unspent: [], restarts: 0 };
  const walk = new Walk(log);
  try {
    if (!isHash(log.seed) || commitmentOf(log.seed) !== log.commitment) {
      walk.problem(null, N_('the revealed seed does not match the commitment published at creation'));
    }
    const created = (log.entries || []).find((e) => e.type === 'created');
    if (created && 'commitment' in created && created.commitment !== log.commitment) {
      walk.problem(created, N_('the commitment logged at creation is not the one the log announces'));
    }
    walk.run(log.entries || []);
    if (record) walk.record(log, record);
  } catch (error) {
    walk.problem(null, N_('the log is malformed (%(error)s)'), { error: error.message });
  }
  return { ok: !walk.problems.length, pending: false, checked: walk.draws, problems: walk.problems, notes: walk.notes,
    rows: walk.rows, unspent: walk.unspent, restarts: walk.restarts };
}
