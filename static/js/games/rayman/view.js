// Rayman's screen: what to do now, and the renderer (games/index.js loads this module).
import { t } from '../../i18n.js';
import { el, lazy, reducedMotion } from '../../ui.js';
import { choosingPanel, clearLocalError, localError, lockState, revealOrPickAgain, revealingPanel } from './choosing.js';
import { boxName, can, nameOf, observe, playerOf, swatch, waitingFor } from './common.js';
import { announceNew, buzzOnMyTurn, freshEvents } from './events.js';
import { boardPanel, distancePanel, historyPanel, myCardsPanel, playersPanel, resultPanel, setupReminder, standingsPanel, summaryPanel } from './picture.js';
import { freeMovePanel, initiativesPanel, noHitPanel, rollPanel } from './round.js';
import { hurtPanel, positionPanel, revealPanel, turnPanel } from './turns.js';

// Panels of a few phases (the race's setup, a question to the table) or of the host alone (naming the
// Ptizêtres): loaded when first shown, and the screen is drawn again then (a phone's first load stays light).
const setupPanels = lazy(() => import('./setup.js'));
const questionPanels = lazy(() => import('./questions.js'));
const colourPanels = lazy(() => import('./ptizetres.js'));
const SETUP_PHASES = ['characters', 'legendary', 'draft', 'exchange'];
const setup = (game) => (SETUP_PHASES.includes(game.phase) ? setupPanels(render) : null);

export let lastView = null;
export let target = null;
export let context = {};
export let rolledNow = new Set();  // dice rolled since the previous view: they roll on screen once
// --- what to do now ------------------------------------------------------------------------------------

export function statusText(game, me, isHost) {
  const phase = game.phase;
  if (game.outcome) return t('The game is over.');
  if (game.question && !isHost) return t('The table must answer a question on the host screen.');
  if (game.question) return t('The table must answer this question:');
  const locked = game.players.filter((player) => !player.crossed);
  switch (phase) {
    case 'characters': return me && !me.character ? t('Pick your character.') : t("Waiting for the other players' characters.");
    case 'legendary': return me && !me.legendary ? t('Pick your legendary player card.') : t("Waiting for the other players' legendary cards.");
    case 'draft': return me && can(game, 'pick') ? t('Your pick: take one extra action card.') : t('The extra action cards are being drafted.');
    case 'exchange': return me && can(game, 'exchange') ? t('Choose the cards you give back.') : t('Waiting for the card exchange.');
    case 'initiatives': return me && game.round.asking.some((asked) => asked.seat === me.seat)
      ? t('Type the initiative printed on each new card.') : t('Waiting for the initiatives of the cards played for the first time.');
    case 'round_start': return me && can(game, 'roll') ? t('Roll the die!') : t('Start of the round: the dice.');
    case 'revealing': return t('The reveal: every phone opens its commitment.');
    case 'choosing':
      if (me && !me.crossed && !me.locked) return t('Choose your two action cards in secret, then lock in.');
      return t('%(count)s of %(total)s locked in', { count: locked.filter((player) => player.locked).length, total: locked.length });
    case 'turns':
      if (game.active === null) return '';
      return me && game.active === me.seat ? t('Your turn!') : t("%(name)s's turn", { name: nameOf(game, game.active) });
    case 'round_end': return t('End of the round: projectiles, Boss and the free move.');
    case 'finish': return me && can(game, 'distance') ? t('Enter how many spaces past the finish line you got.') : t('The race is over: waiting for the distances and the ranking.');
    case 'race_over': return t('Waiting for the host to start the next race.');
    default: return '';
  }
}

export function phonePanels(game, me) {
  const phase = game.phase;
  const parts = [];
  const { characterPanel, draftPanel, exchangePanel, legendaryPanel } = setup(game) ?? {};
  if (!characterPanel) return parts;
  if (phase === 'characters') parts.push(characterPanel(game, me), waitingFor(game));
  if (phase === 'legendary') parts.push(legendaryPanel(game, me), waitingFor(game));
  if (phase === 'draft') parts.push(draftPanel(game, me));
  if (phase === 'exchange') parts.push(exchangePanel(game, me), waitingFor(game));
  return parts;
}

export function hostSetupPanel(game) {
  const phase = game.phase;
  const parts = [];
  if (phase === 'characters' || phase === 'legendary') {
    const picked = (player) => (phase === 'characters' ? player.character : boxName('legendary', player.legendary)) ?? '…';
    parts.push(el('ul', { class: 'rm-picks' }, ...game.players.map((player) => el('li', {}, swatch(player.seat),
      player.name, ' — ', el('strong', { text: picked(player) })))));
  }
  if (phase === 'draft') parts.push(setup(game)?.draftPanel(game, null));
  if (phase === 'exchange') parts.push(waitingFor(game));
  return parts;
}

// --- the renderer ------------------------------------------------------------------------------------------

export function render() {
  if (!lastView) return;
  const game = lastView.game;
  const isHost = lastView.you.role === 'host';
  const me = game.you !== null ? playerOf(game, game.you) : null;
  const playing = Boolean(me && context.act);
  const focusKey = target.contains(document.activeElement) ? document.activeElement?.dataset?.keep : null;
  const round = game.round ? t('Round %(round)s', { round: game.round.number }) : '';
  const head = el('header', { class: 'rm-head' },
    el('strong', { class: 'rm-title', text: t('Race %(race)s', { race: game.race.number }) }),
    round ? el('span', { class: 'rm-round', text: round }) : null,
    el('span', { class: 'rm-phase', text: t(game.stage_label ?? game.phase_label) }),  // what the table is doing
    me?.character ? el('span', { class: 'rm-me' }, swatch(me.seat), me.character) : null);
  const mineNow = playing && game.phase === 'turns' && game.active === me.seat;
  const status = mineNow ? '' : statusText(game, me, isHost);  // the turn panel says it, bigger
  const parts = [head, status ? el('p', { class: 'rm-status', text: status }) : null,
    localError ? el('p', { class: 'rm-warning', role: 'alert', text: localError }) : null,
    resultPanel(game), game.question ? questionPanels(render)?.questionPanel(game, isHost) : null];
  // What this screen must do now comes first; the dice of a round already under way go below.
  const racing = Boolean(game.round) && game.racing;
  const dice = racing ? rollPanel(game, playing ? me : null, isHost) : null;
  if (playing) {
    parts.push(...phonePanels(game, me));
    if (game.phase === 'round_start') parts.push(dice);
    // What this phone does now, then what the last round's end did.
    if (game.phase === 'choosing') parts.push(choosingPanel(game, me));
    if (game.phase === 'revealing') parts.push(revealingPanel(game, me));
    if (game.phase === 'initiatives') parts.push(initiativesPanel(game, me));
    if (game.phase === 'round_end') parts.push(freeMovePanel(game, me), noHitPanel(game, me));
    if (game.phase === 'turns' || game.phase === 'round_end') parts.push(turnPanel(game, me));
    if (racing) parts.push(summaryPanel(game));
    parts.push(distancePanel(game, me), revealPanel(game), game.phase === 'round_start' ? null : dice,
      myCardsPanel(game, me), positionPanel(game, me), hurtPanel(game));
  } else {
    parts.push(...hostSetupPanel(game));
    if (game.phase === 'round_start') parts.push(dice);
    if (racing) parts.push(summaryPanel(game));
    if (game.phase === 'choosing') {
      parts.push(el('section', { class: 'rm-panel rm-choice' },
        el('h3', { text: t('Round %(round)s: secret choice', { round: game.round.number }) }), lockState(game)));
    }
    if (game.phase === 'revealing') parts.push(revealingPanel(game, null));
    if (game.phase === 'initiatives') parts.push(initiativesPanel(game, null, isHost && Boolean(context.act)));
    parts.push(revealPanel(game), game.phase === 'round_start' ? null : dice);
  }
  parts.push(standingsPanel(game), playersPanel(game), boardPanel(game), historyPanel(game), setupReminder(game));
  // Last: on the TV it takes a column of its own, beside what the table waits for.
  if (isHost && context.act && !game.outcome) parts.push(colourPanels(render)?.colourPanel(game));
  const classes = `rayman phase-${game.phase}${isHost ? ' host' : ''}${reducedMotion() ? ' calm' : ''}`;
  target.replaceChildren(el('div', { class: classes }, ...parts));
  if (focusKey) target.querySelector(`[data-keep="${CSS.escape(focusKey)}"]`)?.focus();
}

export function renderRayman(container, view, { act = null, announce = null } = {}) {
  lastView = view;
  target = container;
  context = { act: act ? async (action) => {
    clearLocalError();
    return act(action);
  } : null };
  observe(view.game);
  rolledNow = new Set(freshEvents(view.game).map((event) => event.type));
  announceNew(view.game, announce);
  if (act) buzzOnMyTurn(view.game);
  render();
  if (act && view.game.round && view.game.you !== null) revealOrPickAgain(view.game, playerOf(view.game, view.game.you));
  rolledNow = new Set();
}
