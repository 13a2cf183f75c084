// Rayman's screen: what happened, in sentences, and the phone's buzz when its turn comes.
import { N_, t, tn } from '../../i18n.js';
import { QUIET, ROUND_END_EVENTS, bossCardName, boxName, cardName, extraName, nameOf, namesOf, numbers, playerOf, ptizetreName } from './common.js';
import { target } from './view.js';
export let seenHistory = null;  // history_count already announced (null: first view, announce nothing)
export let buzzedTurn = null;  // the turn this phone already vibrated for
// --- what happened ----------------------------------------------------------------------------

// What hit a player.
export const CAUSES = {
  enemy: N_('an Enemy'),
  obstacle: N_('an Obstacle'),
  wall: N_('a Wall'),
  projectile: N_('a Projectile'),
  boss: N_('the Boss'),
};
// Why the table lost against the Boss.
export const COOP_LOSSES = {
  defeated: N_('Defeated: the Boss wins.'),
  all_in_bubbles: N_('Every player is in Bubble mode: the Boss wins.'),
  boss_finished: N_('The Boss crossed the finish line first: the Boss wins.'),
};
// The position stepper, by direction.
export const STEP_LABELS = {
  up: N_('One level up'),
  down: N_('One level down'),
  forward: N_('One space forward'),
  back: N_('One space back'),
};
export const causeText = (cause) => t(CAUSES[cause]);
export const coopResult = (result) => (result.won
  ? t('The table wins: every player finished before the Boss!') : t(COOP_LOSSES[result.reason]));

export function eventText(event, game) {
  const name = nameOf(game, event.seat);
  switch (event.type) {
    case 'character_chosen':
      return t('%(name)s races as %(character)s.', { name: playerOf(game, event.seat)?.name ?? name, character: event.character });
    case 'legendary_chosen': return t('%(name)s takes the legendary card %(card)s.', { name, card: boxName('legendary', event.card) });
    case 'draft_revealed': return t('Extra cards on the table: %(cards)s. Order: %(names)s.', { cards: numbers(event.cards), names: namesOf(game, event.order) });
    case 'picked': return t('%(name)s takes %(card)s.', { name, card: extraName(event.card) });
    case 'draft_discarded': return t('Discarded: %(cards)s.', { cards: numbers(event.cards) });
    case 'exchanged': return tn('%(name)s gives back %(count)s card.', '%(name)s gives back %(count)s cards.', event.dropped.length, { name });
    case 'initiatives_asked': return t('Cards played for the first time: their players read the initiative printed on them.');
    case 'initiative_told': return t('%(name)s: %(card)s has initiative %(initiative)s.', { name, card: cardName(event, event.character), initiative: event.initiative });
    case 'race_started': return t('Race %(race)s starts on the %(board)s board.', { race: event.race, board: boxName('boards', event.board) });
    case 'next_race': return t('Next: race %(race)s on the %(board)s board.', { race: event.race, board: boxName('boards', event.board) });
    case 'random_discards': return event.seat === game.you ? t('Two of your cards were discarded at random: see your cards.')
      : tn('%(name)s discards %(count)s card at random.', '%(name)s discards %(count)s cards at random.', event.count, { name });
    case 'round_started': return t('Round %(round)s.', { round: event.round });
    case 'projectile_roll': return t('Projectile die: %(die)s, level %(level)s.', { die: event.die, level: event.level });
    case 'boss_roll': return event.entering
      ? t('Boss die: %(die)s, the Boss enters on level %(level)s.', { die: event.die, level: event.level })
      : t('Boss die: %(die)s, the Boss moves to level %(level)s.', { die: event.die, level: event.level });
    case 'boss_card': return t('The Boss reveals %(card)s.', { card: bossCardName(game, event.card) });
    case 'projectile_spawned': return t('Projectile n°%(id)s appears at column %(column)s, level %(level)s.', { id: event.id, column: event.column, level: event.level });
    case 'projectile_spawn_hit':
      return t('Projectile n°%(id)s appears on %(name)s (column %(column)s, level %(level)s).', { id: event.id, column: event.column, level: event.level, name });
    case 'choosing': return t('Round %(round)s: choose your cards in secret.', { round: event.round });
    case 'locked': return t('%(name)s has locked in.', { name });
    case 'reveal_now': return t('Everybody has locked in: the phones reveal their choices.');
    case 'revealed_by': return t("%(name)s's phone has revealed.", { name });
    case 'choice_reset': return t("%(name)s's phone lost the choice (a new phone?): %(name)s chooses again.", { name });
    case 'choice_lost': return t("%(name)s's phone lost the choice after another was revealed: it cannot change, it is drawn at random among %(name)s's legal choices.", { name });
    case 'choice_drawn': return t("%(name)s's choice was drawn at random, from random numbers the phones sent after the loss.", { name });
    case 'withdrawn': return t('%(name)s has left the race; it goes on without them.', { name });
    case 'initiative_corrected': return t('%(name)s corrected the initiative of a card.', { name });
    case 'free_moved': return t('%(name)s makes the free move.', { name });
    case 'free_move_passed': return t('%(name)s passes the free move.', { name });
    case 'no_hit': return t('%(name)s was not hit.', { name });
    case 'bonus_offered': return tn('%(name)s offers %(other)s an exchange: %(count)s bonus token for %(take)s.',
      '%(name)s offers %(other)s an exchange: %(count)s bonus tokens for %(take)s.', event.give,
      { name, other: nameOf(game, event.to), take: event.take });
    case 'bonus_exchanged': return t('%(name)s and %(other)s exchange bonus tokens.', { name: nameOf(game, event.from), other: nameOf(game, event.to) });
    case 'bonus_declined': return t('The exchange of bonus tokens does not happen.');
    case 'revealed': return t('Reveal! Order of play: %(order)s.', { order: namesOf(game, event.order) || '—' });
    case 'bubble': return event.lost_heart
      ? t('%(name)s declares a Bubble: immune this round, takes back the discarded cards and loses the heart.', { name })
      : t('%(name)s declares a Bubble: immune this round, takes back the discarded cards.', { name });
    case 'turn_started': return t("%(name)s's turn.", { name });
    case 'turn_ended': return t('%(name)s ends the turn.', { name });
    case 'heart': return event.gained ? t('%(name)s takes a heart.', { name }) : t('%(name)s already has a heart.', { name });
    case 'heart_given': return t('%(name)s gives a heart to %(other)s.', { name, other: nameOf(game, event.to) });
    case 'heart_spent': return t('%(name)s turns the heart into a Crouch (Filou).', { name });
    case 'projectile_hit': return t('Projectile n°%(id)s hits %(name)s.', { id: event.id, name });
    case 'immune': return t('%(name)s is immune (%(cause)s): no harm.', { name, cause: causeText(event.cause) });
    case 'heart_lost': return t('%(name)s loses the heart (%(cause)s).', { name, cause: causeText(event.cause) });
    case 'damaged': return tn('%(name)s takes damage (%(cause)s): %(count)s space back, immune until their next turn.',
      '%(name)s takes damage (%(cause)s): %(count)s spaces back, immune until their next turn.', event.back, { name, cause: causeText(event.cause) });
    case 'bubble_mode': return event.on
      ? t('%(name)s is in Bubble mode.', { name }) : t('%(name)s is slapped out of the Bubble.', { name });
    case 'slapped': return event.slaps
      ? tn('%(name)s slaps %(other)s (%(count)s slap for the distance).', '%(name)s slaps %(other)s (%(count)s slaps for the distance).', event.slaps,
        { name, other: nameOf(game, event.target) })
      : t('%(name)s slaps %(other)s.', { name, other: nameOf(game, event.target) });
    case 'ptizetre_freed': return t('%(name)s frees %(ptizetre)s (%(count)s freed).', { name, ptizetre: ptizetreName(game, event.ptizetre), count: event.count });
    case 'ptizetre_named': return t('Captive Ptizêtre n°%(number)s: %(ptizetre)s.', { number: event.ptizetre, ptizetre: boxName('ptizetres', event.colour) });
    case 'bonus_gained': return event.fifth
      ? t('%(name)s gains a fifth bonus token: one must be used or discarded.', { name })
      : t('%(name)s gains a bonus token (%(count)s).', { name, count: event.count });
    case 'bonus_used': return t('%(name)s uses a bonus token (%(count)s left).', { name, count: event.count });
    case 'bonus_discarded': return t('%(name)s discards a bonus token.', { name });
    case 'bonus_given': return t('%(name)s gives a bonus token to %(other)s.', { name, other: nameOf(game, event.to) });
    case 'legendary_used': return t('%(name)s uses the legendary ability (%(card)s).', { name, card: boxName('legendary', event.card) });
    case 'crossed': return t('%(name)s crosses the finish line!', { name });
    case 'final_round': return t('Final round: it is played to the end so that everybody plays as often.');
    case 'moved': return t('%(name)s: column %(column)s, level %(level)s.', { name, column: event.column, level: event.level });
    case 'position_forgotten': return null;
    case 'projectile_moved': return t('Projectile n°%(id)s moves to column %(column)s, level %(level)s.', { id: event.id, column: event.column, level: event.level });
    case 'projectile_removed': return t('Projectile n°%(id)s leaves the board.', { id: event.id });
    case 'projectile_card_effect': {
      const fields = { line: event.line, card: boxName('projectiles', event.card) };
      // The companion knows only the Missile's « CE ROUND-CI » line (announced at the roll, this_round): any
      // other card's line so marked held all round and is not applied again at its end.
      return event.this_round ? t('Apply line %(line)s of the %(card)s projectile card.', fields)
        : t('Apply line %(line)s of the %(card)s projectile card, unless it says “CE ROUND-CI”: that effect held all round and ends now.', fields);
    }
    case 'boss_moved': return t('The Boss moves to column %(column)s, level %(level)s.', { column: event.column, level: event.level });
    case 'boss_hit': return t('The Boss lands on %(name)s!', { name });
    case 'boss_attack':
      return t('Apply %(card)s, unless it says “CE ROUND-CI”: that effect held all round.', { card: bossCardName(game, event.card) });
    case 'boss_finished': return t('The Boss crosses the finish line!');
    case 'free_move': return event.seats.length
      ? t('Free move for %(names)s: one space forward, on the level of their choice.', { names: namesOf(game, event.seats) })
      : tn('Free move for the last on the board: one space forward, on the level of their choice.',
        'Free move for the %(count)s last on the board: one space forward, on the level of their choice.', event.count);
    case 'second_tile': return t('%(name)s reached the second tile: projectiles now appear at column 43.', { name });
    case 'round_ended': return t('End of round %(round)s.', { round: event.round });
    case 'race_ending': return t('The race is over: the distances past the line decide.');
    case 'race_over': return event.boss_won && !event.winners.length ? t('The Boss won the race.')
      : t('Race %(race)s: %(names)s wins!', { race: event.race, names: namesOf(game, event.winners) });
    case 'standings': return t('Tournament standings updated.');
    case 'distance': return tn('%(name)s: %(count)s space past the line.', '%(name)s: %(count)s spaces past the line.', event.spaces, { name });
    case 'answered': return t('The table answered.');
    case 'game_over':
      if (event.won !== undefined) return coopResult(event);
      if (event.winners) return t('%(names)s wins the tournament!', { names: namesOf(game, event.winners) });
      return t('Game over.');
    default: return null;
  }
}

export function freshEvents(game) {
  const count = game.history_count ?? 0;
  if (seenHistory === null || count <= seenHistory) return [];
  return game.history.slice(-Math.min(count - seenHistory, game.history.length));
}

export function announceNew(game, announce) {
  const fresh = freshEvents(game).filter((event) => !QUIET.has(event.type));
  const texts = fresh.map((event) => eventText(event, game)).filter(Boolean);
  if (texts.length) announce?.(texts.join(' — '));
  seenHistory = game.history_count ?? 0;
}

export function buzzOnMyTurn(game) {
  if (game.phase !== 'turns' || game.you === null || game.active !== game.you) return;
  const key = `${game.race.number}:${game.round.number}:${game.round.turn}`;
  if (buzzedTurn === key) return;
  buzzedTurn = key;
  if (typeof navigator.vibrate === 'function') navigator.vibrate([200, 100, 200]);
}

// The events from the last turn of a round to the start of the next (what the round's end did).
export function roundEndSummary(game) {
  const history = game.history || [];
  if (!game.round) return null;
  let end = history.length;
  let round = game.round.number;
  if (game.phase !== 'round_end') {
    end = history.map((event) => event.type).lastIndexOf('round_ended');
    if (end < 0) return null;
    round = history[end].round;
    const next = ['round_start', 'choosing'].includes(game.phase) && game.round.number === round + 1;
    const last = ['finish', 'race_over', 'game_over'].includes(game.phase) && game.round.number === round;
    if (!next && !last) return null;
  }
  const events = [];
  for (let index = end - 1; index >= 0 && ROUND_END_EVENTS.has(history[index].type); index -= 1) events.unshift(history[index]);
  return { round, events: events.filter((event) => event.type !== 'moved' && event.type !== 'answered') };
}
