// Rayman's screen: the table's questions, answered on the host screen.
import { N_, t } from '../../i18n.js';
import { button, el } from '../../ui.js';
import { nameOf, numberInput, readInt, send } from './common.js';
import { context, render } from './view.js';

// The host's questions to the table, by key.
const QUESTIONS = {
  youngest: N_('Who is the youngest player? They pick first.'),
  boss_move: N_('How many spaces does the Boss move each round? (on its Boss card)'),
  farthest: N_('Who is farthest from the finish line? They roll the projectile die.'),
  second_tile: N_('Has a player reached the second tile (column %(column)s)?'),
  spawn_hit: N_('A projectile appears at column %(column)s, level %(level)s: is a player on that space?'),
  projectile: N_('Projectile n°%(id)s moves on level %(level)s from column %(from)s to column %(to)s: whom does it hit first?'),
  boss_landing: N_('The Boss ends its move at column %(column)s, level %(level)s: who is on that space?'),
  last: N_('Who is in last place? Name %(count)s, the farthest behind first (in the same column, the lower level is behind).'),
  ranking: N_('Rank the %(count)s players who did not cross the line, the farthest ahead first.'),
};
export let ordering = { key: null, seats: [] };  // host: players named in order (last places, ranking)
// --- the table's questions (the host answers) --------------------------------------------------------

export function questionText(game, asked) {
  const key = asked.key.startsWith('projectile_') ? 'projectile' : asked.key;
  return t(QUESTIONS[key], { column: asked.column, level: asked.level, id: asked.projectile, from: asked.from,
    to: asked.to, count: asked.count ?? asked.choices?.length });
}

export function questionPanel(game, isHost) {
  const asked = game.question;
  if (!asked) return null;
  const parts = [el('h3', { text: t('Question for the table') }), el('p', { class: 'rm-question-text', text: questionText(game, asked) })];
  if (!isHost || !context.act) {
    parts.push(el('p', { class: 'muted', text: t('The host screen answers it.') }));
  } else {
    parts.push(answerInputs(game, asked));
  }
  return el('section', { class: 'rm-panel rm-question', 'aria-live': 'polite' }, ...parts);
}

export function answerInputs(game, asked) {
  const answer = (value) => send({ type: 'answer', question: asked.key, value });
  if (asked.key === 'boss_move') {
    return el('form', { class: 'inline', onsubmit: (event) => {
      event.preventDefault();
      const value = readInt('answer:boss_move');
      if (value !== null) answer(value);
    } }, numberInput('answer:boss_move', t('Spaces'), asked.low, asked.high),
    el('button', { type: 'submit', class: 'primary', text: t('Answer') }));
  }
  if (asked.key === 'second_tile') {
    return el('div', { class: 'rm-choices' }, button(t('Yes'), () => answer(true), 'primary'),
      button(t('No'), () => answer(false)));
  }
  if (asked.key === 'last' || asked.key === 'ranking') {
    const wanted = asked.key === 'last' ? asked.count : asked.choices.length;
    const key = `${game.race.number}:${game.round?.number}:${asked.key}`;
    if (ordering.key !== key) ordering = { key, seats: [] };
    const left = asked.choices.filter((seat) => !ordering.seats.includes(seat));
    const confirm = button(t('Confirm'), () => answer(ordering.seats), 'primary big');
    confirm.disabled = ordering.seats.length !== wanted;
    return el('div', { class: 'rm-ordering' },
      el('ol', {}, ...ordering.seats.map((seat) => el('li', { text: nameOf(game, seat) }))),
      el('div', { class: 'rm-choices' }, ...(ordering.seats.length < wanted ? left : []).map((seat) =>
        button(nameOf(game, seat), () => { ordering.seats.push(seat); render(); }))),
      el('div', { class: 'rm-choices' }, confirm, button(t('Start again'), () => { ordering.seats = []; render(); })));
  }
  return el('div', { class: 'rm-choices' }, ...asked.choices.map((seat) =>
    button(seat === null ? t('Nobody') : nameOf(game, seat), () => answer(seat), seat === null ? '' : 'primary')));
}
