// What each draw is for, said on the verify page: a logged draw's purpose is {kind, ...fields} (a
// companion.games.base.Draw), and each kind has its fields and its sentence, the English msgid the
// games declare with declare_draws (tests/test_draw_kinds.py holds both lists equal). The checks match
// draws on their kind, never on these words.
import { N_, t } from './i18n.js';

export const DRAW_KINDS = {
  // amiiboxe
  reference: { fields: [], text: N_('draw the reference') },
  fight_die: { fields: ['attacker', 'defender'], text: N_('%(attacker)s attacks %(defender)s') },
  fight_reroll: { fields: ['attacker', 'defender'], text: N_('again for another criterion: figure %(attacker)s attacks figure %(defender)s') },
  fair_winner: { fields: ['attacker', 'defender'], text: N_('a fair draw of the winner: figure %(attacker)s or figure %(defender)s') },
  // arkade
  alien_movement_die: { fields: ['die', 'turn'], text: N_('Alien movement die %(die)s, turn %(turn)s') },
  defender_movement_die: { fields: ['turn'], text: N_('Defender movement die, turn %(turn)s') },
  defender_shooting_die: { fields: ['turn'], text: N_('Defender shooting die, turn %(turn)s') },
  alien_tiles: { fields: ['count'], text: N_('draw 6 of the %(count)s Alien power tiles, face down') },
  defender_tiles: { fields: ['colour', 'count'], text: N_('draw 2 of the %(count)s Defender power tiles of colour %(colour)s, face down') },
  alien_tile_turned: { fields: [], text: N_('Alien turns one of their face-down power tiles') },
  defender_tile_turned: { fields: ['colour'], text: N_('Defender turns a face-down power tile of colour %(colour)s') },
  // chakart
  white_player: { fields: [], text: N_('who plays White') },
  start_light_bishop: { fields: ['side'], text: N_('random start (%(side)s): light-squared bishop') },
  start_dark_bishop: { fields: ['side'], text: N_('random start (%(side)s): dark-squared bishop') },
  start_other_pieces: { fields: ['side'], text: N_('random start (%(side)s): other pieces') },
  redirect: { fields: ['item', 'square'], text: N_('%(item)s on %(square)s sends the piece') },
  egg: { fields: ['square'], text: N_('egg on %(square)s') },
  turncoat: { fields: ['piece', 'colour'], text: N_('%(piece)s: which %(colour)s piece changes side') },
  drop: { fields: ['piece', 'item', 'square'], text: N_('%(piece)s drops a %(item)s next to %(square)s') },
  // dice
  die_roll: { fields: ['die', 'seat'], text: N_('roll of the die %(die)s by %(seat)s') },
  // rayman
  extra_cards_shuffle: { fields: ['count'], text: N_('shuffle of the %(count)s extra action cards') },
  random_discard: { fields: ['seat', 'round'], text: N_('random discard of 2 cards for %(seat)s, round %(round)s') },
  first_roller: { fields: [], text: N_('random player to roll the first projectile die') },
  projectile_level: { fields: ['round', 'seat'], text: N_('projectile level, round %(round)s, rolled for %(seat)s') },
  boss_level: { fields: ['round'], text: N_('Boss level, round %(round)s') },
  boss_cards_shuffle: { fields: [], text: N_("shuffle of the Boss's 3 attack cards") },
  lost_choice: { fields: ['seat', 'round'], text: N_('drawn choice for %(seat)s, whose phone lost it, round %(round)s') },
  tie_break: { fields: ['seat', 'round', 'attempt'], text: N_('tie-break, roll %(attempt)s for %(seat)s, round %(round)s') },
  // universalis
  first_player: { fields: [], text: N_('who plays first') },
  card_die: { fields: [], text: N_("a card's die") },
  card_coin: { fields: [], text: N_("a card's coin") },
};

// One field as the sentence says it: a seat by its player's name (from the log), lists joined.
function fieldSaid(name, value, names) {
  if (name === 'seat') return value === null || value === undefined ? t('the table') : names.get(value) ?? t('seat %(seat)s', { seat: value });
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}

// A logged draw's purpose as a message for t() ({text, params}): its kind's sentence; a purpose in prose
// (a log from before typed purposes) as it was written; a kind this page does not know as its fields.
export function drawSaid(purpose, names = new Map()) {
  if (typeof purpose === 'string') return { text: purpose, params: {} };
  const declared = purpose && typeof purpose === 'object' ? DRAW_KINDS[purpose.kind] : undefined;
  if (!declared) return { text: '%(purpose)s', params: { purpose: JSON.stringify(purpose ?? null) } };
  const params = Object.fromEntries(declared.fields.map((name) => [name, fieldSaid(name, purpose[name], names)]));
  return { text: declared.text, params };
}

// The kind of a logged draw's purpose (null: a log from before typed purposes).
export const kindOf = (purpose) => (purpose && typeof purpose === 'object' ? purpose.kind ?? null : null);
