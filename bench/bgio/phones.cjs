// One client process of the benchmark against boardgame.io, with boardgame.io's own client
// (socket.io, websocket transport): the same protocol as bench/phones.py. It reads the plan,
// connects every screen, prints "ready", reads the start time (wall clock, seconds) on stdin,
// makes every phone roll once per period at its own random phase, waits for the last states,
// and writes the same tally as phones.py.
const fs = require('fs');
const readline = require('readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Dice } = require('./game.cjs');

const [planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const now = () => performance.now() / 1000;
const ms = (seconds) => Math.round(seconds * 1e6) / 1e3;
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, Math.max(0, seconds * 1000)));

function screen(table, seat) {
  const client = Client({
    game: Dice, matchID: table.code, numPlayers: table.seats.length, debug: false,
    playerID: seat === null ? undefined : String(seat.seat), credentials: seat === null ? undefined : seat.token,
    multiplayer: SocketIO({ server: plan.url, socketOpts: { transports: ['websocket'] } }),
  });
  const me = { client, seat: seat === null ? null : seat.seat, firstSeen: new Map(), inHistory: new Set(),
    rolls: [], connected: false };
  client.subscribe((state) => {
    if (!state) return;
    me.connected = me.connected || state.isConnected;
    const { last, history } = state.G;
    const arrived = now();
    if (last && !me.firstSeen.has(last.id)) me.firstSeen.set(last.id, arrived);
    for (const roll of history) me.inHistory.add(roll.id);
  });
  client.start();
  return me;
}

const tables = plan.tables.map((table) => ({
  phones: table.seats.map((seat) => screen(table, seat)),
  host: screen(table, null),
}));
const screens = tables.flatMap((table) => [...table.phones, table.host]);

async function main() {
  const connectDeadline = now() + 30;
  while (screens.some((s) => !s.connected) && now() < connectDeadline) await sleep(0.05);
  const connectErrors = screens.filter((s) => !s.connected).map(() => 'not connected in 30 s');
  console.log('ready');
  const line = await new Promise((resolve) => readline.createInterface({ input: process.stdin }).once('line', resolve));
  const start = now() + (Number(line) - Date.now() / 1000);
  await sleep(start - now());
  const cpuBefore = process.cpuUsage();
  const wallBefore = now();
  let counter = 0;
  const rollers = tables.flatMap((table) => table.phones.map(async (phone) => {
    const phase = Math.random() * plan.period;
    for (let offset = phase; offset < plan.duration; offset += plan.period) {
      await sleep(start + offset - now());
      const id = `${process.pid}-${counter++}`;
      phone.rolls.push({ id, sent: now() });
      phone.client.moves.roll(id);
    }
  }));
  await Promise.all(rollers);
  const settled = () => tables.every((table) => table.phones.every((p) => p.rolls.every((roll) =>
    [...table.phones, table.host].every((s) => s.firstSeen.has(roll.id)))));
  const drainEnd = now() + plan.drain;
  while (!settled() && now() < drainEnd) await sleep(0.05);
  const cpu = process.cpuUsage(cpuBefore);
  const tally = { screens: screens.filter((s) => s.connected).length, connect_errors: connectErrors,
    rolls_sent: 0, rolls_accepted: 0, refusals: {}, unanswered: 0, views_expected: 0, views_received: 0,
    views_coalesced: 0, views_lost: 0, phone_views_missing: 0, disconnects: 0, phone_latencies_ms: [], host_latencies_ms: [],
    ack_latencies_ms: [], timeline: [], cpu_seconds: (cpu.user + cpu.system) / 1e6, wall_seconds: now() - wallBefore };
  for (const table of tables) {
    const receivers = [...table.phones, table.host];
    for (const phone of table.phones) {
      for (const roll of phone.rolls) {
        tally.rolls_sent += 1;
        // boardgame.io answers a move with the new state only: a roll its own phone saw was accepted.
        const own = phone.firstSeen.get(roll.id);
        // Never shown, not even to its own phone: dropped. Every phone's view of it is missing.
        if (own === undefined) { tally.unanswered += 1; tally.phone_views_missing += table.phones.length; continue; }
        tally.rolls_accepted += 1;
        tally.ack_latencies_ms.push(ms(own - roll.sent));
        let slowest = null;
        for (const receiver of receivers) {
          tally.views_expected += 1;
          const arrived = receiver.firstSeen.get(roll.id);
          if (arrived === undefined) {
            if (receiver.inHistory.has(roll.id)) tally.views_coalesced += 1;
            else { tally.views_lost += 1; if (receiver.seat !== null) tally.phone_views_missing += 1; }
            continue;
          }
          tally.views_received += 1;
          const latency = ms(arrived - roll.sent);
          (receiver.seat === null ? tally.host_latencies_ms : tally.phone_latencies_ms).push(latency);
          slowest = Math.max(slowest ?? 0, latency);
        }
        if (slowest !== null) tally.timeline.push([Math.round((roll.sent - start) * 1000) / 1000, slowest]);
      }
    }
  }
  fs.writeFileSync(resultPath, JSON.stringify(tally));
  for (const s of screens) s.client.stop();
  process.exit(0);
}

main();
