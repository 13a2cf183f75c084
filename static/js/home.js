// The host's home page: create a table, and come back to the ones this screen hosts.
import { storeToken } from './connection.js';
import { el, showError } from './ui.js';

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

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const game = form.elements.game.value;
  const options = game === 'dice' ? diceOptions() : declaredOptions(game);
  const response = await fetch('/api/tables', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game, options }),
  });
  const body = await response.json();
  if (!response.ok) { showError(form.querySelector('.error'), body.error); return; }
  storeToken('host', body.code, body.host_token);
  const hosted = JSON.parse(localStorage.getItem('companion.hosted') || '[]');
  localStorage.setItem('companion.hosted', JSON.stringify([body.code, ...hosted].slice(0, 10)));
  window.location.href = `/host/${body.code}`;
});

const hosted = JSON.parse(localStorage.getItem('companion.hosted') || '[]');
if (hosted.length) {
  const recent = document.getElementById('recent');
  recent.hidden = false;
  recent.querySelector('.recent').replaceChildren(
    ...hosted.map((code) => el('li', {}, el('a', { href: `/host/${code}`, text: code }))));
}
