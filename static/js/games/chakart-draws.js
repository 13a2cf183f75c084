// Chakart's moves against the draws they come from, for the verify page: the same rules as
// companion/games/chakart/draws.py. Each step that needed chance says what it was drawn among and
// what was drawn; each consumed one draw, in order. A problem is {i, text, params}.
import { kindOf } from '../draw-kinds.js';
import { N_ } from '../i18n.js';

const EGG_EFFECTS = ['kingboo', 'koopa', 'toadette', 'chomp', 'daisy', 'bowser', 'luigi', 'waluigi'];
const SETUP_DRAWS = ['white_player', 'start_light_bishop', 'start_dark_bishop', 'start_other_pieces'];
const CHOSEN = { redirect: 'to', drop: 'square', turncoat: 'square' };
const str = (value) => JSON.stringify(value ?? null);

function chanceSteps(entries) {
  const found = [];
  for (const entry of entries) {
    for (const step of entry.event?.steps || []) {
      if (step.kind in CHOSEN && (step.eligible || []).length > 1) found.push([entry.i, step.eligible, step[CHOSEN[step.kind]]]);
      else if (step.kind === 'egg') found.push([entry.i, step.among || [], step.effect]);
    }
  }
  return found;
}

export function chakartCheck() {
  return {
    step({ options, draws, entries }) {
      const moves = draws.filter((draw) => !SETUP_DRAWS.includes(kindOf(draw.purpose)));
      const told = chanceSteps(entries);
      // Where a difference shows: the move's event (where a step went missing or was added), else its first draw.
      const where = (told[0] && told[0][0]) ?? entries[0]?.i ?? moves[0]?.i ?? null;
      if (moves.length !== told.length) {
        return [{ i: where, text: N_('the move drew %(draws)s times but its steps tell of %(told)s draws: a step was changed, added or removed'),
          params: { draws: moves.length, told: told.length } }];
      }
      const problems = [];
      moves.forEach((draw, index) => {
        const [i, among, said] = told[index];
        if ((options.eggs || 'book') === 'book' && among.length && EGG_EFFECTS.includes(said) && str(among) !== str(EGG_EFFECTS)) {
          problems.push({ i, text: N_("an egg's effect was drawn among fewer than the book's eight") });
        }
        if (draw.lo !== 0 || draw.hi !== among.length - 1) {
          problems.push({ i, text: N_('a draw among %(drawn)s possibilities is told as one among %(told)s'),
            params: { drawn: (draw.hi ?? -1) - (draw.lo ?? 0) + 1, told: among.length } });
          return;
        }
        if (Number.isInteger(draw.result) && draw.result >= 0 && draw.result < among.length && among[draw.result] !== said) {
          problems.push({ i, text: N_('the log says %(said)s but the draw gives %(drawn)s'),
            params: { said: str(said), drawn: str(among[draw.result]) } });
        }
      });
      return problems;
    },
    shown() { return null; },
    reset() {},
  };
}
