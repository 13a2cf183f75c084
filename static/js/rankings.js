// Criteria rankings: the figures of a table (or picked from the catalogue) in order, with
// their values; the house ranking of judgement criteria is edited by dragging and saved.
import { storedToken } from './connection.js';
import { catalogueSearch } from './figures.js';
import { N_, t } from './i18n.js';
import { el, requestJson, showError, showRefusal } from './ui.js';

const root = document.getElementById('rankings');
const table = root.dataset.table.toUpperCase();
const select = root.querySelector('select[name=criterion]');
const list = root.querySelector('.ranking');
const errorLine = root.querySelector('.error');
const savedLine = root.querySelector('.saved');
const language = document.documentElement.lang || 'en';
// Whoever holds a key to the table may teach the house ranking: its host screen or a seat.
const token = table ? storedToken('host', table) || storedToken('seat', table) : null;

let criteria = [];
let figures = [];  // amiibo ids picked from the catalogue (without a table)
let rows = [];  // [{entry, tied}] in order: tied means "same tier as the row above"

async function getJson(url, options = {}) {
  const { ok, body, error } = await requestJson(url, options);
  if (!ok) throw new Error(error);  // a sentence for the screen, in its language
  return body;
}

function current() {
  return criteria.find((criterion) => criterion.id === select.value);
}

function editable() {
  return current()?.kind === 'judgement' && Boolean(token) && rows.length > 1;
}

const SOURCES = {
  computed: N_('from the catalogue'),
  fact: N_('fact'),
  estimate: N_('estimate'),
  house: N_('house ranking'),
};
const KIND_NOTES = {
  computed: N_('Worked out from the catalogue.'),
  facts: N_('From the facts the companion knows about each character.'),
  situational: N_('Decided by the board at the moment of the fight.'),
  judgement: N_("A matter of judgement: the table's house ranking decides, and it learns from the players' answers."),
};
const GROUPS = {
  computed: N_('From the catalogue'),
  facts: N_('Facts'),
  situational: N_('On the board'),
  judgement: N_('Judgement'),
};

function sourceText(source) {
  if (source) return t(SOURCES[source]);
  return current()?.kind === 'judgement' ? t('not ranked yet') : t('unknown');
}

function rowItem(row, index) {
  const { entry } = row;
  const canEdit = editable();
  const item = el('li', { class: `rank-row${row.tied ? ' tied' : ''}`, 'data-id': entry.id },
    canEdit ? el('span', { class: 'handle', 'aria-hidden': 'true', text: '⠿' }) : null,
    el('span', { class: 'rank-place', text: row.tied ? '=' : '' }),
    el('span', { class: 'rank-name', text: entry.label }),
    el('span', { class: 'rank-value', text: entry.display ?? '' }),
    el('span', { class: `rank-source source-${entry.source ?? 'none'}`, text: sourceText(entry.source) }));
  if (canEdit) {
    item.append(el('span', { class: 'rank-buttons' },
      el('button', { type: 'button', class: 'small', text: '↑', 'aria-label': t('Move %(name)s up', { name: entry.label }),
        disabled: index === 0, onclick: () => move(index, index - 1) }),
      el('button', { type: 'button', class: 'small', text: '↓', 'aria-label': t('Move %(name)s down', { name: entry.label }),
        disabled: index === rows.length - 1, onclick: () => move(index, index + 1) }),
      el('button', { type: 'button', class: 'small', text: '=', 'aria-pressed': String(row.tied),
        'aria-label': t('Tie %(name)s with the figure above', { name: entry.label }), disabled: index === 0,
        onclick: () => { row.tied = !row.tied; draw(); } })));
    item.querySelector('.handle').addEventListener('pointerdown', (event) => startDrag(event, item));
  }
  return item;
}

function move(from, to) {
  if (to < 0 || to >= rows.length) return;
  const [row] = rows.splice(from, 1);
  rows.splice(to, 0, row);
  rows[0].tied = false;
  draw();
}

// Dragging with pointer events: works with a mouse and a finger alike. The listeners sit on
// the document: moving the row in the page would lose a pointer capture.
function startDrag(event, item) {
  event.preventDefault();
  item.classList.add('dragging');
  const onMove = (moveEvent) => {
    const under = document.elementFromPoint(moveEvent.clientX, moveEvent.clientY)?.closest('.rank-row');
    if (!under || under === item) return;
    const box = under.getBoundingClientRect();
    list.insertBefore(item, moveEvent.clientY < box.top + box.height / 2 ? under : under.nextSibling);
  };
  const onUp = () => {
    document.removeEventListener('pointermove', onMove);
    document.removeEventListener('pointerup', onUp);
    document.removeEventListener('pointercancel', onUp);
    const order = [...list.children].map((child) => child.dataset.id);
    rows.sort((a, b) => order.indexOf(a.entry.id) - order.indexOf(b.entry.id));
    rows[0].tied = false;
    draw();
  };
  document.addEventListener('pointermove', onMove);
  document.addEventListener('pointerup', onUp);
  document.addEventListener('pointercancel', onUp);
}

function tiers() {
  const grouped = [];
  for (const row of rows) {
    if (row.tied && grouped.length) grouped[grouped.length - 1].push(row.entry.id);
    else grouped.push([row.entry.id]);
  }
  return grouped;
}

function draw() {
  list.replaceChildren(...rows.map(rowItem));
  const canEdit = editable();
  root.querySelector('.edit-hint').hidden = !canEdit;
  root.querySelector('.edit-controls').hidden = !canEdit;
}

function show(body) {
  // The last tier may hold the figures nothing ranks yet (no source): they are not tied, just unranked.
  rows = body.tiers.flatMap((tier) => tier.map((entry, index) => ({ entry, tied: index > 0 && entry.source !== null })));
  const criterion = current();
  let note = body.note || t(KIND_NOTES[criterion.kind]);
  if (criterion.kind === 'judgement' && !token) note = `${note} ${t("Open this page from a table's screen to edit it.")}`;
  root.querySelector('.criterion-note').textContent = note;
  if (!rows.length) list.replaceChildren(el('li', { class: 'muted', text: t('No figures yet: add some.') }));
  else draw();
}

async function refresh() {
  showError(errorLine, '');
  savedLine.hidden = true;
  const query = table ? `table=${encodeURIComponent(table)}` : `figures=${figures.join(',')}`;
  const url = new URL(window.location.href);
  url.searchParams.set('criterion', select.value);
  window.history.replaceState(null, '', url);
  try {
    show(await getJson(`/api/rankings/${select.value}?${query}&lang=${language}`));
  } catch (error) {
    showRefusal(errorLine, error.message);
  }
}

async function save() {
  try {
    const body = await getJson(`/api/rankings/${select.value}?lang=${language}`, {
      method: 'PUT', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ table, tiers: tiers() }),
    });
    // The house ranking is every table's: the other seats agree on their phones (or the host confirms).
    if (body.proposal?.status === 'pending') {
      savedLine.textContent = t('Proposed: it changes once the other seats agree on their phones (or the host confirms).');
    } else {
      show(body);
      // The table agreed; the house ranking, shared by every table, takes what another table agreed too.
      savedLine.textContent = body.proposal?.house?.waiting
        ? t('Agreed at this table: the house ranking takes it once another table agrees the same.')
        : t('House ranking saved.');
    }
    savedLine.hidden = false;
  } catch (error) {
    showRefusal(errorLine, error.message);
  }
}

function addFigure(figure, results) {
  if (!figures.includes(figure.id)) figures.push(figure.id);
  results.replaceChildren();
  refresh();
}

async function start() {
  const body = await getJson(`/api/criteria?lang=${language}`);
  criteria = body.criteria;
  const kinds = ['computed', 'facts', 'situational', 'judgement'];
  select.replaceChildren(...kinds.map((kind) => el('optgroup', { label: t(GROUPS[kind]) },
    ...criteria.filter((criterion) => criterion.kind === kind)
      .map((criterion) => el('option', { value: criterion.id, text: criterion.wording })))));
  select.value = criteria.some((criterion) => criterion.id === root.dataset.criterion) ? root.dataset.criterion : criteria[0].id;
  root.querySelector('.figures-source').textContent = table ? t('The figures of table %(code)s', { code: table }) : t('Pick figures from the catalogue');
  root.querySelector('.add-figure').hidden = Boolean(table);
  select.addEventListener('change', refresh);
  root.querySelector('.save').addEventListener('click', save);
  root.querySelector('.add-figure').replaceChildren(...catalogueSearch(addFigure));
  refresh();
}

start();
