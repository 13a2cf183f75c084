// Rayman's screen: the public picture (players, board, cards, the round's end, the result).
import { t, tn, withColon } from '../../i18n.js';
import { button, el, numberPad, showErrorAt } from '../../ui.js';
import { UNLISTED, bossCardName, boxName, can, cardChip, cardName, cardsOf, colourName, colourOf, eventSwatch, folded, kept, nameOf, namesOf, numberInput, ptizetreSwatch, readInt, send, swatch } from './common.js';
import { coopResult, eventText, roundEndSummary } from './events.js';
import { positionText } from './turns.js';
import { context, target } from './view.js';
// --- the public picture ---------------------------------------------------------------------------

export function badges(game, player) {
  const items = [];
  const badge = (text, extra = '') => items.push(el('span', { class: `rm-badge ${extra}`.trim(), text }));
  if (player.legendary) badge(boxName('legendary', player.legendary), 'legendary');
  if (!game.round) return items;  // setting up: nothing to count yet
  badge(player.heart ? `♥ ${t('heart')}` : `♡ ${t('no heart')}`, player.heart ? 'heart' : 'off');
  badge(`${t('Bonus')} ${player.bonus}/${game.max_bonus}${player.bonus_pending ? ' +1' : ''}`);
  items.push(freedBadge(game, player.ptizetres));
  badge(t('hand %(hand)s · discard %(discard)s', { hand: player.hand_size, discard: player.discard_size }));
  if (player.position) badge(positionText(game, player.position), 'position');
  if (game.phase === 'choosing' && !player.crossed) {
    badge(player.locked ? `✓ ${t('locked in')}` : t('choosing…'), player.locked ? 'ok' : 'off');
  }
  if (player.bubble) badge(t('Bubble: immune this round'), 'bubble');
  if (player.bubble_mode) badge(t('Bubble mode'), 'bubble');
  if (player.immune) badge(t('immune until their next turn'), 'immune');
  if (player.slapped) badge(t('already slapped'), 'off');
  if (player.crossed) badge(`🏁 ${t('finished')}${player.distance ? ` (+${player.distance})` : ''}`, 'ok');
  return items;
}

// The Ptizêtres a player freed: by colour (with its swatch) where the host named it, else by number.
export function freedBadge(game, freed) {
  const which = freed.flatMap((number, index) => [index ? ', ' : ' (', ptizetreSwatch(game, number),
    colourOf(game, number) ? colourName(colourOf(game, number)) : `n°${number}`]);
  return el('span', { class: `rm-badge rm-freed${freed.length >= 3 ? ' ok' : ''}` },  // one line of text inside
    el('span', {}, `${t('Ptizêtres')} ${freed.length}/3`, ...which, freed.length ? ')' : null));
}

export function playersPanel(game) {
  return el('section', { class: 'rm-panel rm-players' }, el('h3', { text: t('Players') }),
    el('ul', {}, ...game.players.map((player) => el('li', {
      class: `rm-player${game.active === player.seat ? ' active' : ''}${player.seat === game.you ? ' me' : ''}` },
    el('p', { class: 'rm-player-name' }, swatch(player.seat), el('strong', { text: nameOf(game, player.seat) }),
      game.active === player.seat ? el('span', { class: 'rm-now', text: ` — ${t('playing')}` }) : null),
    el('p', { class: 'rm-badges' }, ...badges(game, player))))));
}

export function boardPanel(game) {
  const parts = [];
  if (!game.round) return null;
  if (game.config.projectile) {
    parts.push(el('h4', { text: t('Projectiles (%(name)s)', { name: boxName('projectiles', game.config.projectile) }) }),
      game.projectiles.length ? el('ul', { class: 'rm-projectiles' }, ...game.projectiles.map((projectile) => el('li', {
        text: t('Projectile n°%(id)s: column %(column)s, level %(level)s', { id: projectile.id, column: projectile.column, level: projectile.level }) })))
        : el('p', { class: 'muted', text: t('No projectile on the board.') }));
  }
  if (game.boss) {
    const boss = game.boss;
    parts.push(el('h4', { text: `Boss — ${boxName('bosses', boss.name)}` }),
      el('p', { text: boss.column === null ? t('Not on the board yet: it enters at the first roll.')
        : t('Column %(column)s, level %(level)s', { column: boss.column, level: boss.level }) }),
      el('p', { text: boss.move === null ? t('Movement: asked at the first round') : tn('Moves %(count)s space each round', 'Moves %(count)s spaces each round', boss.move) }),
      boss.card !== null ? el('p', { text: bossCardName(game, boss.card) }) : null);
  }
  if (!parts.length) return null;
  return el('section', { class: 'rm-panel rm-board' }, ...parts);
}

export function myCardsPanel(game, me) {
  if (!game.racing && game.phase !== 'race_over') return null;
  const parts = [el('h3', { text: t('My action cards') })];
  const row = (label, ids) => el('div', { class: 'rm-card-row' }, el('span', { class: 'rm-row-label', text: label }),
    ...(ids.length ? cardsOf(me, ids).map((card) => cardChip(card.initiative, cardName(card)))
      : [el('span', { class: 'muted', text: '—' })]));
  if (game.config.quick) {
    parts.push(el('p', { text: tn('In hand: %(count)s card · discarded: %(discard)s', 'In hand: %(count)s cards · discarded: %(discard)s', me.hand.length, { discard: me.discard.length }) }));
  } else {
    parts.push(row(t('Hand'), me.hand));
    if (me.played.length) parts.push(row(t('Played'), me.played));
    parts.push(row(t('Discard'), me.discard));
  }
  if (me.random_discards.length) {
    parts.push(el('p', { class: 'rm-random', text: game.config.quick
      ? t('Discarded at random (only you see this): your cards n° %(ranks)s, counting from the highest initiative.', { ranks: me.random_ranks.join(', ') })
      : t('Discarded at random (only you see this): %(cards)s', { cards: cardsOf(me, me.random_discards)
        .map((card) => `${card.initiative ?? "?"} (${cardName(card)})`).join(', ') }) }));
  }
  if (!game.config.quick && game.racing) parts.push(correctionForm(me));
  return el('section', { class: 'rm-panel rm-my-cards' }, ...parts);
}

// A card's initiative told wrong: put right here (the rules refuse it while the card is in play this round).
export function correctionForm(me) {
  const known = cardsOf(me, me.cards.map((card) => card.id)).filter((card) => card.initiative !== null);
  if (!known.length) return null;
  if (!known.some((card) => card.id === kept['correct:card'])) kept['correct:card'] = known[0].id;
  const select = el('select', { 'data-keep': 'correct:card', onchange: (event) => { kept['correct:card'] = event.target.value; } },
    ...known.map((card) => el('option', { value: card.id, selected: card.id === kept['correct:card'],
      text: `${card.initiative} (${cardName(card)})` })));
  return folded('correct', t('Correct an initiative'), el('form', { class: 'rm-correct', novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const text = (kept['correct:value'] ?? '').toString().trim();
    if (!/^-?\d+$/.test(text)) {
      showErrorAt(event.submitter, t('Type the number printed at the top left of the card: 0 to 99.'));
      return;
    }
    send({ type: 'correct_initiative', card: kept['correct:card'], initiative: Number(text) });
  } }, el('label', { class: 'rm-number' }, t('Card'), select),
  numberInput('correct:value', t('Initiative (top left of the card)'), 0, 99),
  el('button', { type: 'submit', class: 'primary', text: t('Correct') })));
}

export function summaryPanel(game) {
  const summary = roundEndSummary(game);
  if (!summary || !summary.events.length) return null;
  const free = summary.events.find((event) => event.type === 'free_move');
  const mine = free && game.you !== null && free.seats.includes(game.you);
  return el('section', { class: 'rm-panel rm-round-end' }, el('h3', { text: t('End of round %(round)s', { round: summary.round }) }),
    mine ? el('p', { class: 'rm-free-move', text: t('You are last: move your figure one space forward, on the level of your choice (not onto another player or an Obstacle; Walls do not stop it).') }) : null,
    free && !mine ? el('p', { class: 'rm-free-move-others', text: free.seats.length
      ? t('Free move for the last player: %(names)s', { names: namesOf(game, free.seats) }) : eventText(free, game) }) : null,
    el('ul', {}, ...summary.events.filter((event) => event.type !== 'free_move')
      .map((event) => eventText(event, game)).filter(Boolean).map((text) => el('li', { text }))));
}

export function resultPanel(game) {
  const result = game.result;
  if (!result) return null;
  if (result.kind === 'coop') {
    return el('section', { class: `rm-panel rm-result ${result.won ? 'won' : 'lost'}` },
      el('p', { class: 'rm-big', text: coopResult(result) }));
  }
  const winners = namesOf(game, result.winners);
  return el('section', { class: 'rm-panel rm-result won' },
    el('p', { class: 'rm-big', text: result.winners.length ? t('%(names)s wins the race!', { names: winners }) : t('The Boss won the race.') }),
    result.boss_won ? el('p', { text: t("The Boss finished first: the players' places start at the second.") }) : null,
    el('ol', { class: 'rm-ranking' }, ...result.ranking.map((entry) => el('li', {},
      el('strong', { text: t('Place %(place)s', { place: entry.place }) }), ' ', swatch(entry.seat), nameOf(game, entry.seat), ' — ',
      entry.crossed ? tn('%(count)s space past the line', '%(count)s spaces past the line', entry.distance) : t('did not cross the line')))));
}

export function standingsPanel(game) {
  const tournament = game.tournament;
  if (!tournament) return null;
  const standings = [...tournament.standings].sort((a, b) => b.points - a.points);
  const parts = [el('h3', { text: t('Tournament standings (races played: %(count)s of 4)', { count: tournament.races.length }) }),
    el('ol', { class: 'rm-standings' }, ...standings.map((standing) => el('li', {}, swatch(standing.seat),
      nameOf(game, standing.seat), ' — ', el('strong', { text: tn('%(count)s point', '%(count)s points', standing.points) }))))];
  if (tournament.winners) {
    parts.push(el('p', { class: 'rm-big', text: t('%(names)s wins the tournament!', { names: namesOf(game, tournament.winners) }) }));
  }
  if (context.act && can(game, 'next_race')) {
    parts.push(button(t('Next race'), () => send({ type: 'next_race' }), 'primary big'));
  }
  else if (game.phase === 'race_over') parts.push(el('p', { class: 'muted', text: t('Waiting for the host to start the next race.') }));
  return el('section', { class: 'rm-panel rm-tournament' }, ...parts);
}

export function distancePanel(game, me) {
  if (!can(game, 'distance')) return null;
  const field = numberInput('distance', t('Spaces past the line'), 1, 40);
  return el('section', { class: 'rm-panel rm-distance' }, el('h3', { text: t('Past the finish line') }),
    el('form', { class: 'inline next-action', onsubmit: (event) => {
      event.preventDefault();
      const spaces = readInt('distance');
      if (spaces !== null) send({ type: 'distance', spaces });
    } }, field, numberPad(field.querySelector('input')),  // counted on the board: keys in view, no keyboard
    el('button', { type: 'submit', class: 'primary', text: t('Send') })),
    me.distance ? el('p', { class: 'rm-done', text: tn('%(count)s space past the line', '%(count)s spaces past the line', me.distance) }) : null);
}

export function historyPanel(game) {
  const lines = (game.history || []).filter((event) => !UNLISTED.has(event.type))
    .map((event) => ({ event, text: eventText(event, game) })).filter((line) => line.text).slice(-12).reverse();
  if (!lines.length) return null;  // no heading over nothing before the first event
  return el('section', { class: 'rm-panel rm-history' }, el('h3', { text: t('What happened') }),
    el('ul', { tabindex: '0' }, ...lines.map(({ event, text }) => el('li', {}, eventSwatch(game, event), text))));
}

export function setupReminder(game) {
  const config = game.config;
  const items = [`${withColon(t('Mode'))} ${boxName('modes', config.mode)}`,
    `${withColon(t('Difficulty'))} ${boxName('difficulties', config.difficulty)}`,
    t('Board: %(board)s', { board: boxName('boards', game.race.board) })];
  items.push(config.projectile ? t('Projectiles: %(name)s', { name: boxName('projectiles', config.projectile) }) : t('No projectiles'));
  if (config.projectile_card) items.push(t('The projectile card applies'));
  if (config.boss) items.push(t('Boss: %(name)s', { name: boxName('bosses', config.boss) }));
  items.push((config.extra_cards ? t('Extra action cards: 10 cards each') : t('8 action cards each')));
  if (config.legendary) items.push(t('Legendary player cards'));
  items.push((config.quick ? t('Quick: type the two initiatives each round') : t("Known cards; a new card's initiative is asked once")));
  items.push(tn('%(count)s captive Ptizêtre; free 3 before the finish line', '%(count)s captive Ptizêtres; free 3 before the finish line', config.captives));
  if (config.tournament) items.push(t('Tournament (the 4 boards)'));
  return folded('setup', t("This race's setup"), el('ul', {}, ...items.map((text) => el('li', { text }))),
    el('a', { href: '/rayman/labels', target: '_blank', rel: 'noopener', text: t('Numbered labels to print for the extra cards, the Boss cards and the Ptizêtres') }));
}
