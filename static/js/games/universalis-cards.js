// Mario Universalis: playing a card. A card is typed once an evening (kind, name as printed and in the
// other language, cost, PF and PC, types, Hero, when it acts); then it is found again from a few letters
// of either name (the table keeps the evening's cards: companion/games/universalis/cards.py, remember).
import { N_, t } from '../i18n.js';
import { el } from '../ui.js';

export const KINDS = {
  character: N_('Character'),
  action: N_('Action'),
  event: N_('Event'),
  terrain: N_('Terrain'),
  powerup: N_('Power-up'),
};
// Where a card asks its controller to act (the phases that would pass by themselves, and the damage).
export const MOMENTS = { start: N_('at the start of the turn'), refill: N_('at the renflouage'), draw: N_('at the draw'),
  end: N_('at the end of the turn'), damage: N_('when it takes or deals damage') };
const SHOWN_MATCHES = 6;

// What the player was typing survives a redraw (the other player's action redraws the screen).
let draft = {};
let search = '';

// Names compare without case or accents, as the server's rules do (« Koopa » finds « koopa »).
const folded = (text) => (text || '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

export function findCards(catalogue, query) {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  return catalogue.filter((card) => {
    const names = `${folded(card.name)} ${folded(card.other_name)}`;
    return words.every((word) => names.includes(word));
  }).slice(-SHOWN_MATCHES).reverse();
}

export function numberField(name, label, value, min = 0) {
  return el('label', { class: 'uv-field' }, label,
    el('input', { name, type: 'number', inputmode: 'numeric', min, max: 999, value, required: true }));
}

// The card as the form holds it, ready for the rules.
function cardOf(data) {
  const words = (text) => String(text || '').split(',').map((word) => word.trim()).filter(Boolean);
  const card = { kind: data.get('kind'), name: data.get('name'), cost: Number(data.get('cost')),
    types: words(data.get('types')), hero: data.get('hero') === 'on', stops: data.getAll('stops') };
  if (data.get('other_name')) card.other_name = data.get('other_name');
  if (card.kind === 'character') Object.assign(card, { pf: Number(data.get('pf')), pc: Number(data.get('pc')) });
  return card;
}

// The form takes a card of the evening as it was typed.
function fill(form, card, showFields) {
  const values = { kind: card.kind, name: card.name, other_name: card.other_name || '', cost: card.cost,
    pf: card.pf ?? 1, pc: card.pc ?? 3, types: (card.types || []).join(', ') };
  for (const [name, value] of Object.entries(values)) form.elements.namedItem(name).value = value;
  form.elements.namedItem('hero').checked = !!card.hero;
  for (const box of form.querySelectorAll('input[name=stops]')) box.checked = (card.stops || []).includes(box.value);
  draft = Object.fromEntries(new FormData(form));
  showFields();
}

function playForm(act) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const kind = el('select', { name: 'kind' }, ...Object.entries(KINDS).map(([value, label]) => el('option', { value, text: t(label) })));
  const characterFields = el('div', { class: 'uv-character-fields' },
    numberField('pf', t('PF'), 1), numberField('pc', t('PC (max)'), 3, 1));
  const showFields = () => { characterFields.hidden = kind.value !== 'character'; };
  kind.addEventListener('change', showFields);
  const play = el('button', { type: 'submit', class: 'primary', text: t('Play') });
  const form = el('form', { class: 'uv-play' },
    el('label', { class: 'uv-field' }, t('Kind'), kind),
    el('label', { class: 'uv-field' }, t('Name, as printed'), el('input', { name: 'name', required: true, maxlength: 40 })),
    el('label', { class: 'uv-field' }, t('Name in the other language (optional)'), el('input', { name: 'other_name', maxlength: 40 })),
    numberField('cost', t('Cost (coins)'), 0),
    characterFields,
    el('label', { class: 'uv-field' }, t('Types (comma-separated)'), el('input', { name: 'types', maxlength: 120 })),
    el('label', { class: 'uv-check' }, el('input', { type: 'checkbox', name: 'hero' }), el('span', { text: t('Hero') })),
    el('fieldset', { class: 'uv-moments' }, el('legend', { text: t('This card acts…') }),
      ...Object.entries(MOMENTS).map(([moment, label]) => el('label', { class: 'uv-check' },
        el('input', { type: 'checkbox', name: 'stops', value: moment }), el('span', { text: t(label) })))),
    el('label', { class: 'uv-check' }, el('input', { type: 'checkbox', name: 'free' }), el('span', { text: t('Put into play (free: a card says so)') })),
    play, error);
  for (const [name, value] of Object.entries(draft)) {
    const field = form.elements.namedItem(name);
    if (field instanceof RadioNodeList) continue;
    if (field?.type === 'checkbox') field.checked = value === 'on';
    else if (field) field.value = value;
  }
  showFields();
  form.addEventListener('input', () => { draft = Object.fromEntries(new FormData(form)); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const answer = await act({ type: 'play', card: cardOf(data), free: data.get('free') === 'on' }, error);
    if (answer?.ok) { draft = {}; search = ''; form.reset(); showFields(); }
  });
  return { form, fill: (card) => fill(form, card, showFields), play };
}

// Find a card of the evening from a few letters (either name), or type a new one.
export function cardFinder(game, me, act, { can, fold }) {
  const { form, fill: take, play } = playForm(act);
  const matches = el('ul', { class: 'uv-matches' });
  const input = el('input', { name: 'card_search', type: 'search', value: search, autocomplete: 'off',
    placeholder: t('A few letters of its name'), 'aria-label': t('Find a card of this evening') });
  const list = () => {
    search = input.value;
    matches.replaceChildren(...findCards(game.catalogue, search).map((card) => el('li', {},
      el('button', { type: 'button', class: 'uv-match', onclick: () => { take(card); play.scrollIntoView({ block: 'nearest' }); play.focus(); },
        text: card.kind === 'character'
          ? t('%(card)s — %(cost)s coins, PF %(pf)s, PC %(pc)s', { card: card.name, cost: card.cost, pf: card.pf, pc: card.pc })
          : t('%(card)s — %(kind)s, %(cost)s coins', { card: card.name, kind: t(KINDS[card.kind]), cost: card.cost }) }))));
  };
  input.addEventListener('input', list);
  list();
  const mine = game.active === me && ['prep1', 'prep2'].includes(game.phase);
  return fold(t('Play a card'), mine && can(game, 'play'),
    game.catalogue.length ? el('label', { class: 'uv-field' }, t('Find a card of this evening'), input) : null,
    matches, form);
}
