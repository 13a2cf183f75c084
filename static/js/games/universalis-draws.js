// The verify page's check of a Mario Universalis duel (companion/games/universalis/__init__.py).
import { kindOf } from '../draw-kinds.js';
import { N_ } from '../i18n.js';

// Mario Universalis draws who plays first (at the start, when drawn), and the die and the coin a card asks for.
const DRAWS = { first_player: [0, 1], card_die: [1, 6], card_coin: [0, 1] };

export function universalisCheck() {
  return {
    step({ draws }) {
      const range = (draw) => DRAWS[kindOf(draw.purpose)] || [];
      return draws.filter((draw) => range(draw)[0] !== draw.lo || range(draw)[1] !== draw.hi)
        .map((draw) => ({ i: draw.i, text: N_('the duel draws only who plays first, a die and a coin') }));
    },
    shown() { return null; },
    reset() {},
  };
}
