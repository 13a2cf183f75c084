// The verify page's check of a Mario Universalis duel (companion/games/universalis/__init__.py).
import { N_ } from '../i18n.js';

// Mario Universalis draws who plays first (at the start, when drawn), and the die and the coin a card asks for.
const DRAWS = { 'who plays first': [0, 1], die: [1, 6], coin: [0, 1] };

export function universalisCheck() {
  return {
    step({ draws }) {
      return draws.filter((draw) => DRAWS[draw.purpose]?.[0] !== draw.lo || DRAWS[draw.purpose]?.[1] !== draw.hi)
        .map((draw) => ({ i: draw.i, text: N_('the duel draws only who plays first, a die and a coin') }));
    },
    shown() { return null; },
    reset() {},
  };
}
