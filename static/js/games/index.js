// Renderers per game id: each draws a view into a container.
import { renderDice } from './dice.js';

export const renderers = { dice: renderDice };
