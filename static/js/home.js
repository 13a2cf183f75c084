// The host's home page: create a table, and come back to the ones this screen hosts.
import { storeToken } from './connection.js';
import { el, showError } from './ui.js';

const form = document.getElementById('create-table');
const die = form.elements.die;
const customFaces = form.querySelector('.custom-faces');

die.addEventListener('change', () => { customFaces.hidden = die.value !== 'custom'; });

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const options = { die: die.value, count: Number(form.elements.count.value) };
  if (die.value === 'custom') {
    options.faces = form.elements.faces.value.split('\n').map((face) => face.trim()).filter(Boolean);
  }
  const response = await fetch('/api/tables', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: form.elements.game.value, options }),
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
