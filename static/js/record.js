// A phone's own part in the table's randomness (docs/fairness.md): its hash chain, whose secret never
// leaves the phone until the phone sends each value, and its own record of the table (the commitment
// it was shown, its secret, every value the server spent, every result it displayed), kept in local
// storage for the verify page to check the server's log against.
import { randomHex } from './connection.js';
import { CHAIN_LENGTH, MAX_SKIP, RECORD_FORMAT, SHOWN_FROM_VIEW, chain } from './chain.js';
import { requestJson } from './ui.js';

const recordKey = (code) => `companion.record.${code}`;
const ACTIONS_WITHOUT_DRAWS = /^(table|figure|entropy|seat)\./;

export function loadRecord(code) {
  try {
    const record = JSON.parse(localStorage.getItem(recordKey(code)) || 'null');
    return record && record.format === RECORD_FORMAT ? record : null;
  } catch {
    return null;
  }
}

export function saveRecord(record) {
  try { localStorage.setItem(recordKey(record.code), JSON.stringify(record)); } catch { /* storage full: the game goes on */ }
}

// Before joining (or taking a seat handed over): the commitment this phone is shown and a fresh chain.
// (The chain's values ride along, not stored: the secret alone gives them back after a reload.)
export async function newRecord(code) {
  const { body: view } = await requestJson(`/api/tables/${code}`);
  const secret = randomHex(32);
  const values = chain(secret, CHAIN_LENGTH);
  const record = { format: RECORD_FORMAT, code, seat: null, commitment: view.table?.commitment ?? null, secret,
    anchor: values[0], length: CHAIN_LENGTH, k: 0, revealed: [], shown: [] };
  Object.defineProperty(record, 'values', { value: values, enumerable: false });
  return record;
}

export class PhoneChain {
  constructor(record) {
    this.record = record;
    this.values = record.values || chain(record.secret, record.length);
    this.revealing = null;
    this.drawingTypes = new Set();  // the types of action that drew at this table
    this.sent = null;
  }

  mine(view) {
    return view.you?.seat === this.record.seat ? view.table.entropy?.seats?.[String(this.record.seat)] : null;
  }

  // A seat may draw once a pool sealed after its commitment exists (a phone without a record: as before).
  inPool(view) {
    const mine = this.mine(view);
    return !mine || mine.in_pool;
  }

  // Every view: note the values the server spent (it can show one only if this phone sent it),
  // the results displayed, a new commitment after "play again", and answer an open round.
  observe(view, act) {
    const mine = this.mine(view);
    if (!mine) return;
    const { record } = this;
    if (mine.k > record.k && mine.k < this.values.length && this.values[mine.k] === mine.head) {
      record.revealed.push({ k: mine.k, game: view.table.commitment });
      record.k = mine.k;
    }
    if (view.table.commitment && !(record.commitments || []).includes(view.table.commitment)) {
      record.commitments = [...(record.commitments || []), view.table.commitment];
    }
    const shown = SHOWN_FROM_VIEW[view.table.game]?.(view.game) || [];
    for (const item of shown) {
      if (!record.shown.some((old) => old.type === item.type && old.number === item.number && old.game === view.table.commitment)) {
        record.shown.push({ ...item, game: view.table.commitment });
      }
    }
    saveRecord(record);
    const round = view.table.entropy?.round;
    if (round && round.asked.includes(record.seat) && !round.revealed.includes(record.seat)
        && this.revealing !== round.number && mine.k === record.k && this.next() < this.values.length) {
      this.revealing = round.number;
      const value = this.values[this.next()];
      act({ type: 'entropy.reveal', value }).then((answer) => { if (!answer.ok) this.burn(value); });
    }
  }

  // The next value to send: after the last one the server spent, past any a refused action showed it
  // (the server saw those: a draw fed by one could be predicted), at most MAX_SKIP steps on.
  next() {
    const { k, burnt = 0 } = this.record;
    return Math.min(Math.max(k, burnt) + 1, k + MAX_SKIP);
  }

  burn(value) {
    const index = this.values.indexOf(value);
    if (index > (this.record.burnt || 0)) { this.record.burnt = index; saveRecord(this.record); }
  }

  // An action that draws carries the phone's next value: its draws depend on it, and nobody knew it
  // before. The server asks for it (428) when an action draws; the phone then sends it up front with
  // that type of action. A value sent and not spent is never sent again (the server saw it).
  async send(act, action) {
    const drawing = !ACTIONS_WITHOUT_DRAWS.test(action.type) && this.next() < this.values.length;
    let answer = await act(drawing && this.drawingTypes.has(action.type) ? this.withValue(action) : action);
    if (drawing && !answer.ok && answer.status === 428) {
      this.drawingTypes.add(action.type);
      answer = await act(this.withValue(action));
    }
    return answer;
  }

  withValue(action) {
    const value = this.values[this.next()];
    this.sent = value;
    return { ...action, reveal: value };
  }

  // After each answer (the view that shows a value spent comes before it).
  settle() {
    if (this.sent && this.values.indexOf(this.sent) > this.record.k) this.burn(this.sent);
    this.sent = null;
  }
}
