// Arkade's events against the draws they come from, for the verify page: the same rules as
// companion/games/arkade/draws.py (every face a throw shows, every power tile turned and, once the
// seed is revealed, what it is). A problem is {i, text, params}, its text marked for translation.
import { kindOf } from '../draw-kinds.js';
import { N_ } from '../i18n.js';

const DICE = ['alien_movement_die', 'defender_movement_die', 'defender_shooting_die'];
const TILES_DRAWN = 6;
const str = (value) => JSON.stringify(value ?? null);
const isIndex = (value, length) => Number.isInteger(value) && value >= 0 && value < length;

function dieFaces(options, kind) {
  if (kind === 'alien_movement_die') return [...(options.alien_die || [])];
  if (kind === 'defender_movement_die') return [1, 2, 3, 4, 5, 6];
  return [...(options.shooting_die || [])];
}

// "2 mine 1" -> [1, 'mine', 1]: the colour's index, the kind, the value (0 when it has none).
function defenderBox(options) {
  return (options.defender_tiles || []).map((item) => {
    const [number, kind, value] = item.split(/\s+/);
    return [Number(number) - 1, kind, Number(value || 0)];
  });
}

function drawn(box, draw, count) {
  const order = draw.result;
  if (!Array.isArray(order) || !same([...order].sort((a, b) => a - b), box.map((_, i) => i))) return null;
  return order.map((index) => box[index]).slice(0, count);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function arkadeCheck() {
  let alienTurned; let defenderTurned; let alienBox; let defenderBoxes;
  const reset = () => { alienTurned = new Set(); defenderTurned = new Set(); alienBox = null; defenderBoxes = {}; };
  reset();

  function throwProblems(options, dice, entries) {
    const thrown = entries.filter((entry) => entry.event?.type === 'thrown');
    if (!thrown.length) return [{ i: dice[0].i, text: N_("a throw's draws have no thrown event: the event was removed") }];
    const { i, event } = thrown[0];
    if (!dice.length) return [{ i, text: N_('a thrown event without any draw: the event was forged') }];
    const chosen = event.dice; const faces = event.faces;
    if (!Array.isArray(chosen) || !Array.isArray(faces) || chosen.length !== dice.length) {
      return [{ i, text: N_('the throw names dice %(dice)s, the log has %(count)s draws'), params: { dice: str(chosen), count: dice.length } }];
    }
    const problems = [];
    chosen.forEach((die, k) => {
      const sides = dieFaces(options, kindOf(dice[k].purpose));
      const result = dice[k].result;
      if (!isIndex(die, faces.length) || !isIndex(result, sides.length)) {
        problems.push({ i, text: N_('die %(die)s: the draw %(result)s is not one of its %(count)s faces'),
          params: { die: str(die), result: str(result), count: sides.length } });
      } else if (!same(faces[die], sides[result])) {
        problems.push({ i, text: N_('die %(die)s shows %(face)s but the draw gives %(drawn)s'),
          params: { die, face: str(faces[die]), drawn: str(sides[result]) } });
      }
    });
    return problems;
  }

  function alienTile(draw, entries) {
    const turned = entries.filter((entry) => entry.event?.type === 'alien_tile');
    if (!turned.length) return [{ i: draw.i, text: N_('an Alien tile was drawn but no tile was turned') }];
    const { i, event } = turned[0];
    const faceDown = [...Array(TILES_DRAWN).keys()].filter((index) => !alienTurned.has(index));
    if (!isIndex(draw.result, faceDown.length) || event.tile !== faceDown[draw.result]) {
      return [{ i, text: N_('Alien tile %(tile)s turned, the draw picks %(result)s of %(choices)s'),
        params: { tile: str(event.tile), result: str(draw.result), choices: str(faceDown) } }];
    }
    alienTurned.add(event.tile);
    if (alienBox && event.kind !== alienBox[event.tile]) {
      return [{ i, text: N_('Alien tile %(tile)s is %(kind)s, not %(shown)s'),
        params: { tile: event.tile, kind: str(alienBox[event.tile]), shown: str(event.kind) } }];
    }
    return [];
  }

  function defenderTile(options, draw, entries) {
    const turned = entries.filter((entry) => entry.event?.type === 'defender_tile');
    if (!turned.length) return [{ i: draw.i, text: N_('a Defender tile was drawn but no tile was turned') }];
    const { i, event } = turned[0];
    const colours = options.saucer_colours || [];
    if (!colours.includes(event.colour)) {
      return [{ i, text: N_('a Defender tile of colour %(colour)s, not a saucer colour'), params: { colour: str(event.colour) } }];
    }
    const first = 2 * colours.indexOf(event.colour);  // two tiles per colour, in the order of the colours
    const faceDown = [first, first + 1].filter((index) => !defenderTurned.has(index));
    if (!isIndex(draw.result, faceDown.length) || event.tile !== faceDown[draw.result]) {
      return [{ i, text: N_('Defender tile %(tile)s turned, the draw picks %(result)s of %(choices)s'),
        params: { tile: str(event.tile), result: str(draw.result), choices: str(faceDown) } }];
    }
    defenderTurned.add(event.tile);
    const box = defenderBoxes[event.colour];
    if (box) {
      const [kind, value] = box[event.tile - first];
      if (event.kind !== kind || (event.value ?? 0) !== value) {
        return [{ i, text: N_('Defender tile %(tile)s is %(kind)s %(value)s, not %(shown)s'),
          params: { tile: event.tile, kind: str(kind), value, shown: str(event.kind) } }];
      }
    }
    return [];
  }

  function rememberDefenderDraw(options, colour, draw) {
    const colours = options.saucer_colours || [];
    if (!colours.includes(colour)) return;
    const family = defenderBox(options).filter(([index]) => index === colours.indexOf(colour))
      .map(([, kind, value]) => [kind, value]);
    defenderBoxes[colour] = drawn(family, draw, 2);
  }

  return {
    step({ options, draws, entries }) {
      let problems = [];
      const dice = draws.filter((draw) => DICE.includes(kindOf(draw.purpose)));
      if (dice.length || entries.some((entry) => entry.event?.type === 'thrown')) problems = problems.concat(throwProblems(options, dice, entries));
      for (const draw of draws) {
        const kind = kindOf(draw.purpose);
        if (kind === 'alien_tiles') alienBox = drawn(options.alien_tiles || [], draw, TILES_DRAWN);
        else if (kind === 'defender_tiles') rememberDefenderDraw(options, draw.purpose.colour, draw);
        else if (kind === 'alien_tile_turned') problems = problems.concat(alienTile(draw, entries));
        else if (kind === 'defender_tile_turned') problems = problems.concat(defenderTile(options, draw, entries));
      }
      return problems;
    },
    shown() { return null; },  // an Arkade phone records no result of its own
    reset,
  };
}
