// A phone's hash chain (docs/fairness.md): all a phone needs to take part in the draws, without the
// verifier (fairness.js), so that a phone at the table loads only this. SHA-256 from @noble/hashes.
import { sha256 } from '../vendor/noble-hashes/sha2.js';
import { bytesToHex, hexToBytes } from '../vendor/noble-hashes/utils.js';

export const CHAIN_LENGTH = 1024;
export const RECORD_FORMAT = 'companion-phone-record/1';
const HEX64 = /^[0-9a-fA-F]{64}$/;

export const isHash = (value) => typeof value === 'string' && HEX64.test(value);
export const chainStep = (valueHex) => bytesToHex(sha256(hexToBytes(valueHex)));

// A phone's chain, anchor first: [c_0, …, c_length], c_length being the secret.
export function chain(secretHex, length = CHAIN_LENGTH) {
  const values = [secretHex];
  for (let i = 0; i < length; i += 1) values.push(chainStep(values[values.length - 1]));
  return values.reverse();
}

// How many chain steps lead from a value down to the head (1: the next value), at most MAX_SKIP: a phone
// skips a value that a refused action showed to the server (companion/fairness.py's steps_to).
export const MAX_SKIP = 16;
export function stepsTo(valueHex, headHex) {
  let value = valueHex;
  for (let steps = 1; steps <= MAX_SKIP; steps += 1) {
    value = chainStep(value);
    if (value === headHex) return steps;
  }
  return null;
}

// What a phone records as displayed, from a view: one item per result (Dice: each roll it showed).
// A game whose events the verifier derives from its draws (fairness.js's GAME_CHECKS) adds its own.
export const SHOWN_FROM_VIEW = {
  dice: (game) => (game?.history || []).map((roll) => ({ type: 'rolled', number: roll.number, seat: roll.seat, values: roll.values })),
};
