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

const loaded = {};
const loading = new Map();

export function rendererFor(game, onLoaded) {
  if (loaded[game]) return loaded[game];
  if (!SCREENS[game]) return null;  // a game without a screen of its own
  if (!loading.has(game)) {
    const [load, name] = SCREENS[game];
    loading.set(game, load().then((module) => { loaded[game] = module[name]; }));
  }
  loading.get(game).then(() => onLoaded?.());
  return null;
}
