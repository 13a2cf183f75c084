// Rayman's screen: the captive Ptizêtres named by their colours (the host, optional).
import { t } from '../../i18n.js';
import { el } from '../../ui.js';
import { colourName, folded, paintSwatch, ptizetreColours, ptizetreSwatch, send } from './common.js';
import { render } from './view.js';
export let naming = null;  // host: the captive Ptizêtre being named by its colour (null: the first unnamed)
// --- the captive Ptizêtres' colours (the host, optional) ------------------------------------------------

// Where the tokens are placed (the setup), the host screen offers to name each captive token by the colour
// printed on it: the first one still unnamed is picked, so naming it is one tap on its colour. Skipped,
// the Ptizêtres keep their numbers (the labels sheet); during the race the same panel waits folded.
export function colourPanel(game) {
  const colours = game.ptizetre_colours || {};
  const numbers = Array.from({ length: game.config.captives }, (_, index) => index + 1);
  const current = numbers.includes(naming) ? naming : numbers.find((number) => !colours[number]) ?? null;
  const tokens = el('div', { class: 'rm-choices rm-ptz-tokens', role: 'group', 'aria-label': t('Which Ptizêtre') },
    ...numbers.map((number) => el('button', { type: 'button', class: number === current ? 'picked' : '',
      'aria-pressed': String(number === current), onclick: () => { naming = number; render(); } },
    ptizetreSwatch(game, number) ?? el('span', { class: 'rm-ptz-swatch unnamed', 'aria-hidden': 'true' }),
    t('n°%(number)s', { number }))));
  const parts = [el('p', { class: 'muted', text: t('Optional: every screen then names each token by its colour; skipped, it keeps its number.') }), tokens];
  if (current === null) {
    parts.push(el('p', { class: 'rm-done', text: t('Every Ptizêtre has its colour: tap one to change it.') }));
  } else {
    const taken = new Set(Object.entries(colours).filter(([number]) => Number(number) !== current).map(([, colour]) => colour));
    parts.push(el('p', { class: 'rm-ptz-ask', text: t('Ptizêtre n°%(number)s: its colour?', { number: current }) }),
      el('div', { class: 'rm-choices rm-palette', role: 'group', 'aria-label': t('Colours') },
        ...ptizetreColours().map((id) => el('button', { type: 'button',
          class: colours[current] === id ? 'picked' : '', 'aria-pressed': String(colours[current] === id),
          disabled: taken.has(id), onclick: async () => {
            if (await send({ type: 'ptizetre_colour', ptizetre: current, colour: id })) {
              naming = null;  // on to the next one still unnamed
              render();
            }
          } }, paintSwatch(id), colourName(id)))));
  }
  const title = t("The captive Ptizêtres' colours");
  if (game.setting_up) return el('section', { class: 'rm-panel rm-colours' }, el('h3', { text: title }), ...parts);
  return folded('colours', title, ...parts);
}
