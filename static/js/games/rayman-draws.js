// Rayman's events against the draws they come from, and each revealed choice against the commitment
// its phone published, for the verify page: the same rules as companion/games/rayman/audit.py (its
// Audit keeps its state across the steps of a game). A problem is {i, text, params}, its text marked
// for translation. The commitment is hashed here as the Rayman phone hashes it (rayman/common.js and rayman/choosing.js import it).
import { bytesToHex, sha256, utf8 } from '../hashes.js';
import { drawSaid, kindOf } from '../draw-kinds.js';
import { N_ } from '../i18n.js';

const BOSS_DECK = 3;
const EXTRA_CARDS = 22;
const RANDOM_DISCARDS = 2;
// The draws a later action uses (the draft's shuffle by the race's start, the first roller by round 2):
// any other draw is used by the events of the action that made it (see audit.py's LATER).
const FIRST_ROLLER = 'first_roller';
const LATER = ['extra_cards_shuffle', FIRST_ROLLER];
const numberOf = (draw) => (Number.isInteger(draw.n) ? draw.n + 1 : draw.n);
const str = (value) => JSON.stringify(value ?? null);
const dieLevel = (value) => Math.floor((value + 1) / 2);  // 1-2: first level, 3-4: second, 5-6: third

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

export const commitmentOf = (choice, salt) => bytesToHex(sha256(utf8(canonicalJson(choice) + salt)));

function opens(entry) {
  if (!entry || !('choice' in entry) || typeof entry.salt !== 'string') return false;
  return commitmentOf(entry.choice, entry.salt) === entry.commitment;
}

class Audit {
  constructor() {
    this.problems = [];
    this.draws = new Map();  // kind -> draws not matched yet
    this.round = 0;
    this.locked = new Map();  // seat -> the commitment its phone published this round
    this.drawnChoices = new Map();  // seat -> the result of the draw of the choice its phone lost
    this.seats = [];
    this.bossDeck = [];
    this.draftDeck = null;
  }

  check(entries) {
    entries.forEach((entry, number) => {
      const where = entry.i ?? number;
      if (entry.kind === 'draw') {
        const key = kindOf(entry.purpose);
        if (!this.draws.has(key)) this.draws.set(key, []);
        this.draws.get(key).push(entry);
      } else if (entry.kind === 'event' && entry.event && typeof entry.event === 'object' && !Array.isArray(entry.event)) {
        const handler = HANDLERS[entry.event.type];
        if (handler) handler.call(this, where, entry.event);
      }
    });
    return this.problems;
  }

  problem(i, text, params = {}) { this.problems.push({ i, text, params }); }

  // The next draw of this kind; null (and a problem) when there is none.
  drawn(where, kind, what, params = {}) {
    const pending = this.draws.get(kind) || [];
    if (!pending.length) {
      this.problem(where, what, params);
      return null;
    }
    return pending.shift();
  }

  // Reports the draws of these kinds that no event used (by default: those of the action just done,
  // and of a later action's kind all but the newest, which waits for its event).
  unused(kinds = null) {
    for (const [kind, pending] of this.draws) {
      if (kinds !== null && !kinds.includes(kind)) continue;
      const keep = kinds === null && LATER.includes(kind) ? 1 : 0;
      while (pending.length > keep) {
        const draw = pending.shift();
        this.problem(draw.i, N_('draw %(n)s (%(purpose)s) was made but no event uses it'), { n: str(numberOf(draw)), purpose: drawSaid(draw.purpose) });
      }
    }
  }

  checkFirstRoller(where, seat) {
    const draw = this.drawn(where, FIRST_ROLLER, N_('the first roller: no draw was made for it'));
    if (!draw || draw.result == null || !this.seats.length) return;
    if (!(draw.result >= 0 && draw.result < this.seats.length) || this.seats[draw.result] !== seat) {
      this.problem(where, N_('the first projectile die was given to seat %(seat)s, the draw chose another'), { seat });
    }
  }

  checkDie(where, event, draw, boss) {
    if (!draw || draw.result == null) return;
    if (event.die !== draw.result) {
      this.problem(where, boss ? N_('the Boss die says %(die)s, draw %(n)s gave %(result)s')
        : N_('the projectile die says %(die)s, draw %(n)s gave %(result)s'), { die: str(event.die), n: str(draw.n), result: draw.result });
    }
    if (event.level !== dieLevel(draw.result)) {
      this.problem(where, boss ? N_('the Boss level %(level)s does not follow from the die')
        : N_('the projectile level %(level)s does not follow from the die'), { level: str(event.level) });
    }
  }
}

const HANDLERS = {
  character_chosen(where, event) {
    if (!this.seats.includes(event.seat)) this.seats = [...this.seats, event.seat].sort((a, b) => a - b);
  },
  next_race() { this.draftDeck = null; },  // a new race drafts from a new shuffle
  race_started() { this.unused(['extra_cards_shuffle']); },  // the draft is over
  round_started(where, event) {
    if ('round' in event) this.round = event.round;
    if (this.round !== 1) this.unused([FIRST_ROLLER]);  // round 1's projectile die is rolled
  },
  choosing() { this.locked = new Map(); this.drawnChoices = new Map(); },
  choice_drawn(where, event) {
    const draw = this.drawn(where, 'lost_choice', N_("seat %(seat)s's drawn choice: no draw was made for it"), { seat: str(event.seat) });
    this.drawnChoices.set(event.seat, draw ? draw.result : null);
  },
  locked(where, event) { this.locked.set(event.seat, event.commitment); },
  choice_reset(where, event) { this.locked.delete(event.seat); },
  projectile_roll(where, event) {
    if (this.round === 1 && event.seat != null) this.checkFirstRoller(where, event.seat);
    this.checkDie(where, event, this.drawn(where, 'projectile_level', N_('a projectile die: no draw was made for it')), false);
  },
  boss_roll(where, event) {
    this.checkDie(where, event, this.drawn(where, 'boss_level', N_('a Boss die: no draw was made for it')), true);
  },
  boss_card(where, event) {
    if (!this.bossDeck.length) {
      const draw = this.drawn(where, 'boss_cards_shuffle', N_("the Boss's attack cards: no draw was made for it"));
      const order = draw?.result;
      if (!Array.isArray(order)) return;  // sealed until the table closes
      this.bossDeck = order.map((index) => index + 1).slice(0, BOSS_DECK);
      if (!this.bossDeck.length) return;
    }
    const card = this.bossDeck.shift();
    if (event.card !== card) {
      this.problem(where, N_("the Boss's attack card is n°%(card)s, the shuffle gave n°%(drawn)s"), { card: str(event.card), drawn: card });
    }
  },
  draft_revealed(where, event) {
    const shown = Array.isArray(event.cards) ? event.cards : [];
    if (this.draftDeck === null) {
      const draw = this.drawn(where, 'extra_cards_shuffle', N_('the extra cards: no draw was made for it'));
      const order = draw?.result;
      if (!Array.isArray(order) || order.length !== EXTRA_CARDS) {  // sealed, or a later race (cards already held)
        this.draftDeck = [];
        return;
      }
      this.draftDeck = order.map((index) => index + 1);
    }
    if (!this.draftDeck.length) return;
    const cards = this.draftDeck.slice(0, shown.length);
    this.draftDeck = this.draftDeck.slice(shown.length);
    if (str(event.cards) !== str(cards)) {
      this.problem(where, N_('the extra cards on the table are %(cards)s, the shuffle gave %(drawn)s'), { cards: str(event.cards), drawn: str(cards) });
    }
  },
  random_discards(where, event) {
    const draw = this.drawn(where, 'random_discard', N_("seat %(seat)s's random discard: no draw was made for it"), { seat: str(event.seat) });
    const size = draw?.size;
    if (Number.isInteger(size) && event.count !== Math.min(RANDOM_DISCARDS, size)) {
      this.problem(where, N_('seat %(seat)s discards %(count)s cards at random, draw %(n)s shuffled a hand of %(size)s: %(left)s leave it'),
        { seat: str(event.seat), count: str(event.count), n: str(numberOf(draw)), size, left: Math.min(RANDOM_DISCARDS, size) });
    }
  },
  revealed(where, event) {
    for (const entry of Array.isArray(event.choices) ? event.choices : []) {
      const seat = entry?.seat;
      if (entry && 'drawn' in entry) {  // its phone lost it after a reveal: drawn by the table, it opens nothing
        if (!this.drawnChoices.has(seat)) {
          this.problem(where, N_("seat %(seat)s's choice is said drawn at random, but no draw was made for it"), { seat: str(seat) });
        } else if (this.drawnChoices.get(seat) != null && this.drawnChoices.get(seat) !== entry.drawn) {
          this.problem(where, N_("seat %(seat)s's drawn choice is number %(drawn)s, the draw gave %(result)s"),
            { seat: str(seat), drawn: str(entry.drawn), result: this.drawnChoices.get(seat) });
        }
      } else if (!opens(entry)) this.problem(where, N_("seat %(seat)s's revealed choice does not open its commitment"), { seat: str(seat) });
      if (!this.locked.has(seat) || this.locked.get(seat) !== entry?.commitment) {
        this.problem(where, N_("seat %(seat)s's commitment is not the one published when it locked in"), { seat: str(seat) });
      }
    }
    for (const tie of Array.isArray(event.tie_rolls) ? event.tie_rolls : []) {
      const seats = tie?.seats || [];
      const rolls = tie?.rolls || [];
      for (let k = 0; k < Math.min(seats.length, rolls.length); k += 1) {
        const draw = this.drawn(where, 'tie_break', N_("seat %(seat)s's tie-break roll: no draw was made for it"), { seat: str(seats[k]) });
        if (draw && draw.result != null && draw.result !== rolls[k]) {
          this.problem(where, N_("seat %(seat)s's tie-break roll is %(roll)s, draw %(n)s gave %(result)s"),
            { seat: str(seats[k]), roll: str(rolls[k]), n: str(draw.n), result: draw.result });
        }
      }
    }
  },
};

export function raymanCheck() {
  let audit = new Audit();
  return {
    step({ draws, entries }) {
      const before = audit.problems.length;
      audit.check([...draws, ...entries]);
      audit.unused();
      return audit.problems.slice(before);
    },
    shown() { return null; },
    reset() { audit = new Audit(); },
  };
}
