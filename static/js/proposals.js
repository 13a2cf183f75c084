// House-ranking proposals of this table, on a phone or the host screen: what a seat proposed
// from the rankings page, who still has to agree, and Agree / Refuse for the seats it waits on
// (the host confirms for the whole table). The server changes the ranking once all agree.
import { t } from './i18n.js';
import { el, requestJson, showError } from './ui.js';

const language = document.documentElement.lang || 'en';

function tierText(proposal, tier) {
  return tier.map((id) => proposal.labels[id]?.[language] || proposal.labels[id]?.en || id).join(' = ');
}

export function watchProposals(socket, { code, token, container }) {
  let pending = [];
  let you = null;
  let hostSeat = null;  // a seat that holds the host's rights confirms for the table, as the host screen does
  const hosting = () => you && (you.role === 'host' || (you.role === 'seat' && hostSeat === you.seat));

  async function answer(proposal, agree, errorLine) {
    const { ok, error } = await requestJson(`/api/rankings/proposals/${proposal.id}?lang=${language}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ table: code, agree }),
    });
    showError(errorLine, ok ? '' : error);
  }

  function item(proposal) {
    const errorLine = el('p', { class: 'error', role: 'alert', hidden: true });
    const waiting = proposal.needed.filter((seat) => !proposal.agreed.includes(seat))
      .map((seat) => proposal.seat_names[seat] || `#${seat}`);
    const asked = you && ((you.role === 'seat' && waiting.length && proposal.needed.includes(you.seat)
      && !proposal.agreed.includes(you.seat)) || hosting());
    const proposer = proposal.proposer_name || t('The host');
    return el('li', { class: 'proposal stack', 'data-id': String(proposal.id) },
      el('p', { text: t('%(name)s proposes a house ranking for “%(criterion)s”:', {
        name: proposer,
        criterion: proposal.wording[language] || proposal.wording.en }) }),
      el('ol', {}, ...proposal.tiers.map((tier) => el('li', { text: tierText(proposal, tier) }))),
      el('p', { class: 'muted', text: t('Waiting for: %(names)s', { names: waiting.join(', ') }) }),
      asked ? el('div', { class: 'inline' },
        el('button', { type: 'button', class: 'primary',
          text: hosting() ? t('Confirm for the table') : t('Agree'),
          onclick: () => answer(proposal, true, errorLine) }),
        el('button', { type: 'button', text: t('Refuse'), onclick: () => answer(proposal, false, errorLine) })) : null,
      errorLine);
  }

  function draw() {
    container.hidden = pending.length === 0;
    container.replaceChildren(el('h3', { text: t('House ranking proposals') }),
      el('ul', { class: 'proposals-list' }, ...pending.map(item)));
  }

  socket.on('view', (view) => {
    const before = hosting();
    hostSeat = view.table?.host_seat ?? null;
    if (view.you) you = view.you;
    if (view.you || hosting() !== before) draw();
  });
  socket.on('proposals', (message) => { pending = message.pending; draw(); });
  fetch(`/api/rankings/proposals?table=${code}&lang=${language}`)
    .then((response) => response.json())
    .then((body) => { pending = body.pending || []; draw(); })
    .catch(() => {});  // the next "proposals" message brings them
}
