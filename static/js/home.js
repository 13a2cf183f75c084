// The host's home page: create a table, and come back to the ones this screen hosts.
import { storeToken } from './connection.js';
import { el, requestJson, showErrorAt } from './ui.js';

const form = document.getElementById('create-table');
const die = form.elements.die;
const customFaces = form.querySelector('.custom-faces');

die.addEventListener('change', () => { customFaces.hidden = die.value !== 'custom'; });

// Only the chosen game's settings are shown (and sent).
function showGameOptions() {
  for (const fieldset of form.querySelectorAll('.game-options')) {
    fieldset.hidden = fieldset.dataset.game !== form.elements.game.value;
  }
}
form.elements.game.addEventListener('change', showGameOptions);
showGameOptions();

function diceOptions() {
  const options = { die: die.value, count: Number(form.elements.count.value) };
  if (die.value === 'custom') {
    options.faces = form.elements.faces.value.split('\n').map((face) => face.trim()).filter(Boolean);
  }
  return options;
}

function declaredOptions(game) {
  const options = {};
  for (const field of form.querySelectorAll(`.game-options[data-game="${game}"] [data-option]`)) {
    const { option, kind } = field.dataset;
    if (kind === 'int') options[option] = Number(field.value);
    else if (kind === 'list') options[option] = field.value.split(',').map((item) => item.trim()).filter(Boolean);
    else options[option] = field.value;
  }
  return options;
}

const submit = form.querySelector('button[type=submit]');

function chosenOptions() {
  const game = form.elements.game.value;
  return { game, options: game === 'dice' ? diceOptions() : declaredOptions(game) };
}

// The field of an option of the chosen game (the dice's own fields carry their option's name).
function optionField(game, option) {
  const fieldset = form.querySelector(`.game-options[data-game="${game}"]`);
  return fieldset?.querySelector(`[data-option="${option}"]`) || (game === 'dice' ? form.elements[option] : null);
}

const postJson = (url, body) => requestJson(url, {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});

// Each option is checked by the server as it is set (the same check as creating the table): an
// impossible one is refused next to its field, with the reason, and the table cannot be created.
let checking = 0;
async function checkOptions(changed) {
  const ticket = ++checking;
  const { game, options } = chosenOptions();
  const answer = await postJson('/api/options/check', { game, options, changed });
  if (ticket !== checking) return;  // a newer change is being checked
  const body = answer.status === 200 ? answer.body : { ok: false, error: answer.error };
  for (const field of form.querySelectorAll('[aria-invalid]')) showErrorAt(field, '');
  const field = body.ok ? null : optionField(game, body.option);
  if (!body.ok && !showErrorAt(field, body.error)) showErrorAt(submit, body.error);
  if (body.ok) showErrorAt(submit, '');
  submit.disabled = !body.ok;
}

form.addEventListener('change', (event) => {
  const name = event.target.dataset?.option || event.target.name;
  checkOptions(name === 'game' ? undefined : name);
});
// Typed values are checked as they are typed, once the typing pauses.
let typing = null;
form.addEventListener('input', (event) => {
  if (!event.target.matches('input, textarea')) return;
  clearTimeout(typing);
  typing = setTimeout(() => checkOptions(event.target.dataset.option || event.target.name), 400);
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const { game, options } = chosenOptions();
  const { ok, body, error } = await postJson('/api/tables', { game, options, timeout: Number(form.elements.timeout.value) });
  if (!ok) { showErrorAt(submit, error); return; }
  storeToken('host', body.code, body.host_token);
  const hosted = JSON.parse(localStorage.getItem('companion.hosted') || '[]');
  localStorage.setItem('companion.hosted', JSON.stringify([body.code, ...hosted].slice(0, 10)));
  // A table created on a phone is hosted from that phone (it may take a seat too); a TV opens /t/<code>/screen.
  const onPhone = window.matchMedia('(max-width: 700px)').matches;
  window.location.href = onPhone ? `/t/${body.code}` : `/host/${body.code}`;
});

const hosted = JSON.parse(localStorage.getItem('companion.hosted') || '[]');
if (hosted.length) {
  const recent = document.getElementById('recent');
  recent.hidden = false;
  recent.querySelector('.recent').replaceChildren(
    ...hosted.map((code) => el('li', {}, el('a', { href: `/host/${code}`, text: code }))));
}
