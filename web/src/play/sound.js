// Optional sounds, made on the spot with the Web Audio API (no sound files to fetch): a short knock for
// a move, a lower double knock for a capture, a rising pair of notes when the game ends. Off until the
// person turns them on; the choice is kept in the browser.
const KEY = 'chessai.play.sound';
// [frequency Hz, start s, length s, volume] of each sound's notes.
const SOUNDS = {
  move: [[520, 0, 0.07, 0.25]],
  capture: [[300, 0, 0.06, 0.3], [240, 0.07, 0.08, 0.3]],
  end: [[440, 0, 0.15, 0.2], [660, 0.16, 0.25, 0.2]],
  low: [[880, 0, 0.05, 0.12]],
};
let context = null;

export const soundOn = () => localStorage.getItem(KEY) === 'on';

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

// Plays sound `name` (move, capture, end, low) if sounds are on.
export function playSound(name) {
  if (!soundOn() || !(window.AudioContext || window.webkitAudioContext)) return;
  context = context || new (window.AudioContext || window.webkitAudioContext)();
  const now = context.currentTime;
  for (const [frequency, start, length, volume] of SOUNDS[name]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'triangle';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, now + start);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length);
  }
}
