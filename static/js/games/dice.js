// The shared die, on the host screen and on the phones.
import { t } from '../i18n.js';
import { el, seatColour, seatName, reducedMotion } from '../ui.js';

let lastShown = null;

function rollText(view, roll) {
  return t('%(name)s rolled %(result)s', { name: seatName(view, roll.seat), result: roll.faces.join(' + ') });
}

function dieFaces(roll, placeholder) {
  const faces = roll ? roll.faces : [placeholder];
  // Spaces between the faces: the die's accessible name, "… — 3 + 4", then holds its visible text "3 4".
  return faces.flatMap((face, index) => [index ? ' ' : null,
    el('span', { class: `die-face${face.length > 3 ? ' long' : ''}`, text: face })]).filter(Boolean);
}

// Renders the die; calls onNewRoll(roll) once for each roll not shown before.
export function renderDice(container, view, { onRoll, onNewRoll } = {}) {
  const game = view.game;
  const last = game.last;
  const isNew = last && lastShown !== null && last.number !== lastShown;
  const die = el(onRoll ? 'button' : 'div', {
    class: `die${(last ? last.faces.length : 1) > 1 ? ' multi' : ''}`, type: onRoll ? 'button' : null,
    'aria-label': onRoll ? `${t('Tap the die to roll')}${last ? ` — ${last.faces.join(' + ')}` : ''}` : null,
    onclick: onRoll || null,
  }, ...dieFaces(last, '?'));
  if (isNew && !reducedMotion()) {
    die.classList.add('rolling');
    die.addEventListener('animationend', () => die.classList.remove('rolling'), { once: true });
  }
  const caption = el('p', { class: 'roll-caption', text: last ? rollText(view, last) : t('No roll yet') });
  if (last) caption.style.setProperty('--seat-colour', seatColour(view, last.seat));
  const history = el('ol', { class: 'history', 'aria-label': t('Rolls'), tabindex: '0' },  // it scrolls: the keyboard can too
    ...game.history.map((roll) => el('li', {},
      el('span', { class: 'swatch', style: null }), `#${roll.number} `, rollText(view, roll))));
  history.querySelectorAll('.swatch').forEach((swatch, index) => {
    swatch.style.background = seatColour(view, game.history[index].seat);
  });
  container.replaceChildren(el('div', { class: 'dice-game' },
    el('p', { class: 'die-kind', text: `${game.count > 1 ? game.count : ''}${game.die}` }),
    die, onRoll ? el('p', { class: 'die-hint', text: t('Tap the die to roll') }) : null,
    caption, game.history.length ? el('h3', { text: t('Rolls') }) : null, history));  // no heading over nothing
  if (isNew) onNewRoll?.(last, rollText(view, last));
  if (last) lastShown = last.number; else lastShown = 0;
}
