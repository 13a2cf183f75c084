// A phone's own part in the table's randomness (docs/fairness.md): its hash chain, whose secret never
// leaves the phone until the phone sends each value, and its own record of the table (the commitment
// it was shown, its secret, every value it showed the server and what became of it, every value the
// server spent, every result it displayed), kept in local storage for the verify page to check the
// server's log against.
import { CHAIN_LENGTH, MAX_SKIP, RECORD_FORMAT, SHOWN_FROM_VIEW, chain } from './chain.js';
import { randomHex, requestJson } from './ui.js';

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
    anchor: values[0], length: CHAIN_LENGTH, k: 0, revealed: [], shown: [], sent: [] };
  Object.defineProperty(record, 'values', { value: values, enumerable: false });
  return record;
}

// The values this phone showed the server that it did not spend: each one may hide a result the server
// refused (a veto). A value still waiting for its answer is not counted yet; one the server spent later
// (its answer was lost, the view came) is not counted at all, unless the server had refused it first (a
// round opened for a draw takes the phone's very next value, so a refused one may be sent again there).
export function unspentValues(record) {
  const spent = new Set((record.revealed || []).map((item) => (typeof item === 'object' ? item.k : item)));
  return (record.sent || []).filter((item) => item.answer && (!spent.has(item.k) || refused(item.answer)));
}

const refused = (answer) => answer.ok === false && answer.status !== null && answer.status !== undefined;

export class PhoneChain {
  constructor(record) {
    this.record = record;
    this.record.sent = record.sent || [];
    this.values = record.values || chain(record.secret, record.length);
    this.revealing = null;
    this.game = null;  // the commitment of the game this phone sees
    this.sending = null;  // the record's entry of the value the action in flight carries
  }

  unspent() { return unspentValues(this.record); }

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
    this.game = view.table.commitment;
    if (mine.k < this.values.length && this.values[mine.k] === mine.head) this.noteSpent(mine.k);
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
      // A round opened for a draw (a start, an action, a call) takes the very next value: were a skip
      // allowed, the phone answering last could pick among its values. A join's round skips refused ones.
      const value = this.values[round.why ? record.k + 1 : this.next()];
      const sent = this.noteSent(value, 'entropy.reveal');
      act({ type: 'entropy.reveal', value }).then((answer) => {
        this.noteAnswer(sent, answer);
        if (answer.ok) this.noteSpent(sent.k);
        else this.burn(value);
      });
    }
  }

  // The server took this value for its round: a reveal that completes nothing brings no view (the round's
  // views come once it seals), so its answer is what says the value was spent (the log must show it).
  noteSpent(k) {
    const { record } = this;
    if (k <= record.k) return;
    record.revealed.push({ k, game: this.game });
    record.k = k;
    saveRecord(record);
  }

  // Every value shown to the server is kept with the action it came with; its answer comes later.
  noteSent(value, type) {
    const sent = { k: this.values.indexOf(value), type, game: this.game, at: new Date().toISOString() };
    this.record.sent.push(sent);
    saveRecord(this.record);
    return sent;
  }

  // What the server answered: a refusal (its status and message), or a fault it owns up to (`fault`:
  // the server failed on its side, companion/errors.py). Either way a value not spent stays shown.
  noteAnswer(sent, answer) {
    sent.answer = answer.ok ? { ok: true }
      : { ok: false, status: answer.status ?? null, error: answer.error ?? '', fault: Boolean(answer.fault) };
    saveRecord(this.record);
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
  // before. The action goes first without it: the rules refuse it then (not your turn) without any value
  // shown, and the server asks for the value (428) only when the action is accepted and draws. A value
  // sent and not spent is never sent again (the server saw it) and stays in the record as unspent.
  async send(act, action) {
    const drawing = !ACTIONS_WITHOUT_DRAWS.test(action.type) && this.next() < this.values.length;
    const answer = await act(action);
    if (!drawing || answer.ok || answer.status !== 428) return answer;
    const value = this.values[this.next()];
    this.sending = this.noteSent(value, action.type);
    return act({ ...action, reveal: value });
  }

  // After each answer (the view that shows a value spent comes before it).
  settle(answer) {
    const sent = this.sending;
    this.sending = null;
    if (!sent) return;
    this.noteAnswer(sent, answer || { ok: false });
    if (sent.k > this.record.k) this.burn(this.values[sent.k]);
  }
}
