// Figures at the table: the reader's state, taps, "add my figures", claims and catalogue picks.
import { N_, t, tn } from './i18n.js';
import { el, requestJson, seatName, showErrorAt } from './ui.js';

const language = document.documentElement.lang || 'en';
const localized = (texts) => (texts ? texts[language] || texts.en || '' : '');

// The reader's state on the host screen.
const READER_TEXT = {
  off: N_('No NFC reader is used'),
  absent: N_('NFC reader: not connected (plug it in; it is picked up by itself)'),
  connected: N_('NFC reader ready: %(model)s'),
  error: N_('NFC reader error: %(message)s'),
};

export function figureName(figure) {
  return figure.name[language] || figure.name.en;
}

function figureItem(figure, remove, name) {
  // An unknown figure (newer than the catalogue) can be named; the name is remembered.
  const naming = name && !figure.known ? el('button', { type: 'button', class: 'small', text: t('Name it'),
    onclick: () => {
      const given = window.prompt(t('What is this figure called?'), '');
      if (given) name(given);
    } }) : null;
  return el('li', { class: `figure${figure.known ? '' : ' unknown'}`, 'data-uid': figure.uid || '' },
    el('span', { class: 'figure-name', text: figureName(figure) }), naming,
    remove ? el('button', { type: 'button', class: 'small danger', text: t('Remove'), onclick: remove }) : null);
}

export function figuresOf(view, seatId) {
  return view.table.figures.list.filter((figure) => figure.seat === seatId);
}

// The reader's state and its last failed tap (host screen and host phone).
export function readerLines(reader) {
  const parts = [el('p', { class: `reader-state reader-${reader.state}`, role: 'status',
    // The reader's own message comes in every language (never its driver's raw English).
    text: t(READER_TEXT[reader.state], { model: reader.model || '', message: localized(reader.text) }) })];
  const tapError = localized(reader.tap_texts) || reader.tap_error;  // in this screen's language
  if (tapError) parts.push(el('p', { class: 'tap-error', role: 'alert', text: tapError }));
  return parts;
}

// The host screen's panel: reader state, whose turn it is to tap, a figure waiting to be claimed.
export function renderHostFigures(container, view, reader, act) {
  const { figures, code } = view.table;
  const parts = readerLines(reader);
  if (figures.registering !== null) {
    parts.push(el('p', { class: 'registering', text: t('%(name)s: tap your figures on the reader', { name: seatName(view, figures.registering) }) }));
  }
  if (figures.pending) {
    const pending = figures.pending;
    parts.push(el('div', { class: 'pending-figure' },
      el('p', { text: t('%(figure)s is waiting: scan this code to take it', { figure: figureName(pending) }) }),
      pending.claim ? el('img', { class: 'qr claim-qr', alt: t('%(figure)s is waiting: scan this code to take it', { figure: figureName(pending) }),
        src: `/t/${code}/qr.svg?claim=${encodeURIComponent(pending.claim)}` }) : null));
  }
  if (figures.last_tap) {
    const tapped = figures.list.find((figure) => figure.id === figures.last_tap.figure);
    if (tapped) parts.push(el('p', { class: 'last-tap', text: t('%(figure)s (%(name)s)', {
      figure: figureName(tapped), name: seatName(view, tapped.seat) }) }));
  }
  container.replaceChildren(...parts);
}

// A seat's figures on a host's screen (host screen or host phone): the host names an unknown figure
// at any time (a figure tapped during the game too) and removes figures while they are registered.
export function hostFigureList(view, seatId, act, { removable = true } = {}) {
  const mine = figuresOf(view, seatId);
  if (!mine.length) return null;
  return el('ul', { class: 'figures' }, ...mine.map((figure) => figureItem(figure,
    act && removable ? () => act({ type: 'table.remove_figure', figure: figure.id }) : null,
    act ? (name) => act({ type: 'table.name_figure', figure: figure.id, name, lang: language }) : null)));
}

// The host adds a figure for any seat: picked by name for the seat chosen, or the figure waiting on
// the reader given to a seat. Built once (a search in progress survives the views that arrive).
export function hostFigureTools(act) {
  const seatPicker = el('select', { name: 'figure-seat', 'aria-label': t('For whom') });
  const search = catalogueSearch((figure) => act({ type: 'table.pick_figure', seat: Number(seatPicker.value),
    amiibo_id: figure.id }));
  const readerArea = el('div', { class: 'reader-area' });
  const waiting = el('div', { class: 'waiting-figure' });
  const node = el('details', { class: 'host-add-figures' }, el('summary', { text: t('Add a figure for a player') }),
    el('label', { class: 'stack' }, t('For whom'), seatPicker), ...search);
  const update = (view, reader) => {
    readerArea.replaceChildren(...(reader ? readerLines(reader) : []));
    const { seats, figures } = view.table;
    const chosen = seatPicker.value;
    seatPicker.replaceChildren(...seats.map((seat) => el('option', { value: seat.id, text: seat.name })));
    if (seats.some((seat) => String(seat.id) === chosen)) seatPicker.value = chosen;
    const pending = figures.pending;
    waiting.replaceChildren(...(pending ? [
      el('p', { class: 'pending-figure', text: t('%(figure)s was tapped on the reader and waits for a player.', { figure: figureName(pending) }) }),
      ...seats.map((seat) => el('button', { type: 'button', class: 'small give-figure',
        text: t('Give to %(name)s', { name: seat.name }),
        onclick: () => act({ type: 'table.give_figure', seat: seat.id }) }))] : []));
  };
  return { nodes: [readerArea, waiting, node], update };
}

// The phone's panel: my figures, add them by tapping or by picking, claim a waiting one.
export function renderPhoneFigures(container, view, { act, claim, reader, onClaimed }) {
  const { figures } = view.table;
  const me = view.you.seat;
  if (view.you.role !== 'seat') { container.replaceChildren(); return; }
  const adding = figures.registering === me;
  const parts = [el('h3', { text: t('My figures') })];
  const mine = figuresOf(view, me);
  // How many the game needs: "2 of 3", counted as each figure is added (by the reader or by name).
  const need = (view.table.requirements || []).find((item) => item.kind === 'figures' && item.seat === me);
  if (need) parts.push(el('p', { class: `figure-count${need.met ? ' met' : ''}`, 'aria-live': 'polite',
    text: tn('%(have)s of %(count)s figure', '%(have)s of %(count)s figures', need.need, { have: need.have }) }));
  // The server's reader is plugged in, or the server has none of its own ('off') and a reader posts its
  // taps from another process (`python -m hardware.reader --server`): known once one has tapped here.
  // Otherwise no taps: picking by name comes first and no button asks for them.
  const readerState = reader?.state ?? 'off';
  const tappedHere = figures.pending || figures.last_tap || figures.list.some((figure) => figure.uid);
  const readerHere = readerState === 'connected' || (readerState === 'off' && Boolean(tappedHere));
  if (!readerHere) {  // what to do instead, on the first screen
    parts.push(el('p', { class: 'no-reader-note', role: 'status', text: adding
      ? t('The NFC reader was disconnected: your figures are kept. Pick the others by name below, or tap them once it is back.')
      : t('No NFC reader is connected: pick your figures by name below.') }));
  }
  // Built once and moved into each new render, so a search in progress survives the views that arrive.
  pickPanel ??= pickForm(act);
  if (!readerHere) parts.push(pickPanel);  // without a reader, the way to add comes first
  parts.push(mine.length
    // Naming is the host's (the catalogue is every table's): a phone only removes its figures.
    ? el('ul', { class: 'figures' }, ...mine.map((figure) => figureItem(figure,
      () => act({ type: 'figure.remove', figure: figure.id }), null)))
    : el('p', { class: 'muted', text: t('No figure yet') }));
  if (claim && figures.pending) {
    parts.push(el('button', { type: 'button', class: 'primary claim', text: t('Take %(figure)s', {
      figure: figureName(figures.pending) }), onclick: async () => {
      const answer = await act({ type: 'figure.claim', claim });
      if (answer.ok) onClaimed?.();
    } }));
  }
  // Tapping is offered only while the reader is there; adding that began before it went away can be ended.
  if (readerHere || adding) {
    parts.push(el('button', { type: 'button', class: adding ? 'primary adding' : 'adding',
      text: adding ? t('Done') : t('Add my figures'),
      onclick: () => act({ type: 'figure.adding', on: !adding }) }));
  }
  if (readerHere && adding) parts.push(el('p', { class: 'registering', text: t('Tap your figures on the reader now, then press Done.') }));
  else if (readerHere && figures.registering !== null) {
    parts.push(el('p', { class: 'muted', text: t('%(name)s: tap your figures on the reader', { name: seatName(view, figures.registering) }) }));
  }
  if (readerHere) parts.push(pickPanel);
  container.replaceChildren(...parts);
}

let pickPanel = null;

// A search of the figure catalogue by name: the form and its list of results, each with
// an "Add" button that calls onPick(figure, results).
export function catalogueSearch(onPick) {
  const results = el('ul', { class: 'catalogue-results' });
  const input = el('input', { type: 'search', name: 'q', maxlength: '40', autocomplete: 'off',
    placeholder: t('Figure name'), 'aria-label': t('Figure name') });
  const form = el('form', { class: 'pick-figure inline', onsubmit: async (event) => {
    event.preventDefault();
    const { ok, body, error } = await requestJson(`/api/amiibo?q=${encodeURIComponent(input.value)}&limit=12&lang=${language}`);
    showErrorAt(input, ok ? '' : error);
    if (!ok) return;
    const found = body.results || [];
    results.replaceChildren(...(found.length ? found.map((figure) => el('li', {},
      el('span', { text: searchLabel(figure) }),
      el('button', { type: 'button', class: 'small', text: t('Add'), onclick: () => onPick(figure, results) })))
      : [el('li', { text: t('Nothing found') })]));
  } }, input, el('button', { type: 'submit', text: t('Search') }));
  return [form, results];
}

// One entry per figure: variants of a character told apart by their series
// ("Mario — Super Smash Bros." and "Mario — Super Mario Bros.").
function searchLabel(figure) {
  const label = figure.label || figure.id;
  const series = figure.amiibo_series?.name;
  return series && !label.includes(series) ? `${label} — ${series}` : label;
}

// Picking by name is a path of its own, with or without a reader: always shown in the lobby.
function pickForm(act) {
  const search = catalogueSearch((figure) => act({ type: 'figure.pick', amiibo_id: figure.id }));
  return el('section', { class: 'no-reader' }, el('h4', { text: t('Pick your figures by name') }), ...search);
}
