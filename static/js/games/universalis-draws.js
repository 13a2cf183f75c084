// The verify page's check of a Mario Universalis duel (companion/games/universalis/__init__.py).
import { N_ } from '../i18n.js';

// Mario Universalis draws once, at the start: who plays first.
export function universalisCheck() {
  return {
    step({ draws }) {
      return draws.filter((draw) => draw.purpose !== 'who plays first' || draw.lo !== 0 || draw.hi !== 1)
        .map((draw) => ({ i: draw.i, text: N_('the duel draws only who plays first') }));
    },
    shown() { return null; },
    reset() {},
  };
}
