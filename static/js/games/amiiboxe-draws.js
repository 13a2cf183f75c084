// Amiiboxe's fights against their draws, for the verify page: the same rules as
// companion/games/amiiboxe/draws.py. A fight's die is drawn when the attack is made, and again
// while it shows a criterion already tried in that fight; the fight_rolled face must be the
// attack's draw, every fight_rerolled face one of the re-draws that follow, in order.
import { kindOf } from '../draw-kinds.js';
import { N_ } from '../i18n.js';

const str = (value) => JSON.stringify(value ?? null);

export function stepProblems(draws, entries) {
  const problems = [];
  const fightDraws = draws.filter((d) => kindOf(d.purpose) === 'fight_die');
  const rerolls = draws.filter((d) => kindOf(d.purpose) === 'fight_reroll');
  const rolled = entries.filter((e) => e.event?.type === 'fight_rolled');
  const again = entries.filter((e) => e.event?.type === 'fight_rerolled');
  if (fightDraws.length && !rolled.length) {
    problems.push({ i: fightDraws[0].i ?? 0, text: N_("an attack's die has no fight_rolled event: it was removed") });
  }
  rolled.forEach(({ i, event }, index) => {
    const draw = fightDraws[index];
    if (!draw) problems.push({ i, text: N_('a fight_rolled event without its draw: the event was forged') });
    else if (event.face !== draw.result) {
      problems.push({ i, text: N_("the fight's die shows %(face)s but the draw gives %(result)s"),
        params: { face: str(event.face), result: str(draw.result) } });
    }
  });
  const results = rerolls.map((d) => d.result);
  let position = 0;
  for (const { i, event } of again) {
    while (position < results.length && results[position] !== event.face) position += 1;  // a re-draw that showed a tried criterion
    if (position === results.length) {
      problems.push({ i, text: N_('the die rolled again shows %(face)s, which no draw gives'), params: { face: str(event.face) } });
    }
    position += 1;
  }
  return problems;
}

export function amiiboxeCheck() {
  return {
    step({ draws, entries }) { return stepProblems(draws, entries); },
    shown() { return null; },
    reset() {},
  };
}
