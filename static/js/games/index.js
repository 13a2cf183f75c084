// Renderers per game id: each draws a view into a container.
import { renderArkade } from './arkade.js';
import { renderDice } from './dice.js';

export const renderers = { arkade: renderArkade, dice: renderDice };
