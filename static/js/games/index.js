// Renderers per game id: each draws a view into a container.
import { renderAmiiboxe } from './amiiboxe.js';
import { renderArkade } from './arkade.js';
import { renderChakart } from './chakart.js';
import { renderDice } from './dice.js';
import { renderRayman } from './rayman.js';
import { renderUniversalis } from './universalis.js';

export const renderers = { amiiboxe: renderAmiiboxe, arkade: renderArkade, chakart: renderChakart, dice: renderDice,
  rayman: renderRayman, universalis: renderUniversalis };
