// The peer's dice game in boardgame.io: any seat may roll at any time; each roll is one
// move, one draw from boardgame.io's seeded PRNG, and one state sent to every client.
const { ActivePlayers } = require('boardgame.io/core');

const HISTORY = 6; // the last rolls, as Companion's dice view keeps them

const Dice = {
  name: 'dice',
  setup: () => ({ rolls: 0, last: null, history: [] }),
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    roll: {
      move: ({ G, random, playerID }, id) => {
        G.rolls += 1;
        G.last = { seat: Number(playerID), id, number: G.rolls, face: random.D6() };
        G.history = [G.last, ...G.history].slice(0, HISTORY);
      },
      // Rolls of one match cross on the wire: without this the server drops a roll sent on a
      // state another roll already replaced (29 % of them at 100 tables), as no table would.
      ignoreStaleStateID: true,
    },
  },
};

module.exports = { Dice };
