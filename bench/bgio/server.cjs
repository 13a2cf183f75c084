// boardgame.io's own server (Koa + socket.io, in-memory storage): the game on PORT, its lobby API
// (create a match, join it) on API_PORT. On one port the lobby's routes answer 404 with the
// koa-socket-2 that boardgame.io 0.50.2 installs today: its app is wrapped before the routes exist.
const { Server } = require('boardgame.io/server');
const { Dice } = require('./game.cjs');

const [port, apiPort] = process.argv.slice(2).map(Number);
const server = Server({ games: [Dice], origins: [/^http:\/\/127\.0\.0\.1(:\d+)?$/] });
server.run({ port, lobbyConfig: { apiPort } }, () => console.log(`listening on ${port}, lobby on ${apiPort}`));
