// Sounds made in the browser (no audio file to serve): the Arkade "piouuu" of a shot.
let context = null;

// Browsers start audio only after a gesture: the first tap anywhere unlocks it.
function unlock() {
  if (!context && (window.AudioContext || window.webkitAudioContext)) {
    context = new (window.AudioContext || window.webkitAudioContext)();
  }
  context?.resume?.();
}
document.addEventListener('pointerdown', unlock, { passive: true });
document.addEventListener('keydown', unlock);

// A falling laser tone: a high square wave sliding down, fading out, under half a second.
export function piouuu() {
  if (!context || context.state !== 'running') return false;
  const now = context.currentTime;
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.type = 'square';
  tone.frequency.setValueAtTime(1800, now);
  tone.frequency.exponentialRampToValueAtTime(160, now + 0.42);
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.18, now + 0.02);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
  tone.connect(volume).connect(context.destination);
  tone.start(now);
  tone.stop(now + 0.5);
  return true;
}
