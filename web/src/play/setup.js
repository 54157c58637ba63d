// The setup before a game against the AI: the side, the level (the server's levels, labelled as the
// server labels them, with the scale their Elo is on where it says), the clock and where the game starts.
import { get } from '../api.js';
import { parseClock } from '../gamerecord.js';
import { START_FEN } from '../rules.js';
import { $ } from '../state.js';

let levels = []; // the server's /api/levels

// "level 3 (about 1550, CCRL Blitz scale)" as the server says it (its words, whatever scale it measures on).
export const levelLabel = (number) => levels[number - 1]?.label ?? `level ${number}`;

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The levels, asked of the server once; `chosen` selected. The scale their Elo is on is said under the
// chooser when the server names it.
export async function loadLevels(chosen) {
  if (!levels.length) {
    try {
      levels = (await get('/api/levels')).levels;
    } catch {
      levels = [1, 2, 3, 4, 5, 6, 7, 8].map((number) => ({ number, label: `level ${number}` }));
    }
  }
  const select = $('#play-level');
  select.replaceChildren(...levels.map((level) => new Option(capital(level.label), level.number)));
  select.value = chosen;
  showScale();
}

function showScale() {
  const level = levels[Number($('#play-level').value) - 1];
  const scale = typeof level?.scale === 'string' ? level.scale : '';
  // The measured interval and the games it rests on, as the server gives them (docs/levels.md).
  const interval = level?.measured && Number.isFinite(level.elo_low) && Number.isFinite(level.elo_high)
    ? ` (95 %: ${level.elo_low}–${level.elo_high}, ${level.games} games at 10+0.1)` : '';
  $('#play-scale').textContent = scale ? `Elo on the ${scale} scale${interval}.` : '';
  $('#play-scale').hidden = !scale;
}

// What the setup says: {side ('w' | 'b', "either" drawn now), level, clock (parseClock's), fromBoard}.
export function chosen() {
  const side = document.querySelector('input[name=play-side]:checked').value;
  return {
    side: side === 'random' ? (Math.random() < 0.5 ? 'w' : 'b') : side,
    level: Number($('#play-level').value) || 1,
    clock: parseClock($('#play-clock').value),
    fromBoard: document.querySelector('input[name=play-from]:checked').value === 'board',
  };
}

// The setup showing a game's settings (a link's, a rematch's).
export function showSettings({ side, level, clock, start }) {
  document.querySelector(`input[name=play-side][value=${side}]`).checked = true;
  $('#play-level').value = level;
  $('#play-clock').value = clock ? clock.text : 'none';
  document.querySelector(`input[name=play-from][value=${start === START_FEN ? 'start' : 'board'}]`).checked = true;
}

$('#play-level').addEventListener('change', showScale);
