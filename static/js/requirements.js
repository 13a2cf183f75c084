// What a table still needs before its game can start (players, each player's figures), with counts,
// from the view's table.requirements: the host screen and every phone show it in the lobby.
import { t, tn } from './i18n.js';
import { localized } from './tablenight.js';
import { el, seatName } from './ui.js';

function playersText(need) {
  if (need.have > need.max) return t('Too many players: %(have)s (at most %(max)s)', need);
  if (need.have < need.need) return t('Players: %(have)s of %(need)s', need);
  return need.need === need.max ? t('Players: %(have)s', need) : t('Players: %(have)s (%(need)s to %(max)s)', need);
}

function figuresText(view, need) {
  const params = { ...need, name: seatName(view, need.seat), extra: need.have - need.need };
  return need.have > need.need ? t('%(name)s: %(have)s figures, %(need)s play: remove %(extra)s', params)
    : tn('%(name)s: %(have)s of %(count)s figure', '%(name)s: %(have)s of %(count)s figures', params.need, params);
}

export function requirementText(view, need) {
  return need.kind === 'players' ? playersText(need) : figuresText(view, need);
}

// The lobby's panel: what is missing, or that the game can start.
export function lobbyPanel(view) {
  const needs = view.table.requirements || [];
  const ready = needs.every((need) => need.met);
  return el('section', { class: 'requirements', 'aria-live': 'polite' },
    el('h2', { text: ready ? t('Ready: the game can start.') : t('Before the game can start') }),
    el('ul', {}, ...needs.map((need) => el('li', { class: need.met ? 'met' : 'missing' },
      el('span', { class: 'mark', 'aria-hidden': 'true', text: need.met ? '✓' : '…' }),
      ` ${requirementText(view, need)}`))),
    optionsSummary(view));
}

// The table's options as chosen on the create form, by name in the screen's language (folded: the
// start comes first on a phone).
function optionsSummary(view) {
  const shown = view.table.options_shown || [];
  if (!shown.length) return null;
  return el('details', { class: 'table-options' }, el('summary', { text: t('Options of this table') }),
    el('dl', {}, ...shown.flatMap((option) => [
      el('dt', { text: localized(option.label) }), el('dd', { 'data-option': option.name, text: localized(option.value) })])));
}
