// The draws of companion/fairness.py, recomputed in the browser (format companion/v1).
import { bytesToHex, hexToBytes, hmacSha256, sha256, utf8 } from './hashes.js';

const WORD_SPACE = 1n << 64n;
export const EMPTY_POOL = '00'.repeat(32);

class WordStream {
  constructor(seedHex, n, poolHex) {
    this.key = hexToBytes(seedHex);
    this.prefix = `companion/v1|${n}|${poolHex}|`;
    this.block = 0;
    this.words = [];
  }

  nextWord() {
    if (!this.words.length) {
      const digest = hmacSha256(this.key, utf8(this.prefix + this.block));
      this.block += 1;
      const view = new DataView(digest.buffer);
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
  const stream = new WordStream(seedHex, draw.n, draw.pool);
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

export const commitmentOf = (seedHex) => bytesToHex(sha256(hexToBytes(seedHex)));
export const mixPool = (poolHex, valueHex) => bytesToHex(sha256(hexToBytes(poolHex + valueHex)));

// Walks the log like companion/verify.py; returns {ok, checked, message, rows}.
export function verifyLog(log) {
  const rows = [];
  if (!log.seed) return { ok: false, pending: true, checked: 0, rows };
  if (commitmentOf(log.seed) !== log.commitment) {
    return { ok: false, checked: 0, rows, message: 'the seed does not match the commitment' };
  }
  let pool = EMPTY_POOL;
  let next = 0;
  for (const entry of log.entries) {
    if (entry.kind === 'entropy') {
      pool = mixPool(pool, entry.value);
      if (entry.pool !== pool) return { ok: false, checked: next, rows, message: `entry ${entry.i}: wrong pool` };
    } else if (entry.kind === 'draw') {
      const expected = recompute(log.seed, entry);
      const good = entry.n === next && entry.pool === pool && JSON.stringify(expected) === JSON.stringify(entry.result);
      rows.push({ entry, expected, good });
      if (!good) return { ok: false, checked: next, rows, message: `draw ${entry.n + 1} (${entry.purpose})` };  // counted from 1, as the page shows
      next += 1;
    }
  }
  return { ok: true, checked: next, rows };
}
