// Each game's screen is loaded only at a table that plays it: a phone at a dice table never
// downloads Rayman's. rendererFor() returns the screen once it is loaded, and meanwhile asks for
// it and calls onLoaded when it arrives (the page then draws again).
const SCREENS = {
  amiiboxe: [() => import('./amiiboxe.js'), 'renderAmiiboxe'],
  arkade: [() => import('./arkade.js'), 'renderArkade'],
  chakart: [() => import('./chakart.js'), 'renderChakart'],
  dice: [() => import('./dice.js'), 'renderDice'],
  rayman: [() => import('./rayman/view.js'), 'renderRayman'],  // its parts (rayman/*.js) load with it
  universalis: [() => import('./universalis.js'), 'renderUniversalis'],
};

// The phone's style sheet holds its game's rules only (companion/web/styles.py): a table that moves to
// another game brings that game's sheet, last (each sheet repeats the common rules, in the file's order).
// Pages that link the whole sheet have no data-game.
let styledFor = null;
function withStyles(game) {
  if (game === styledFor) return;
  styledFor = game;
  const sheets = [...document.querySelectorAll('link[rel=stylesheet][data-game]')];
  if (!sheets.length) return;
  let sheet = sheets.find((link) => link.dataset.game === game);
  if (!sheet) {
    const url = new URL(sheets[0].href);
    url.searchParams.set('game', game);
    sheet = sheets[0].cloneNode();
    sheet.dataset.game = game;
    sheet.href = url.pathname + url.search;
  }
  if (sheet !== sheets.at(-1)) sheets.at(-1).after(sheet);
}

const loaded = {};
const loading = new Map();

export function rendererFor(game, onLoaded) {
  withStyles(game);
  if (loaded[game]) return loaded[game];
  if (!SCREENS[game]) return null;  // a game without a screen of its own
  if (!loading.has(game)) {
    const [load, name] = SCREENS[game];
    loading.set(game, load().then((module) => { loaded[game] = module[name]; }));
  }
  loading.get(game).then(() => onLoaded?.());
  return null;
}
