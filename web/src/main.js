// The trainer page: a chessground board and, in tabs, its modes: Analyse, Practice (against the
// tablebase), Random start, Edit board and Play (a whole game against the engine). Each mode is a module
// of modes/ that registers itself in state.js; this file wires the parts every mode shares (tabs, the
// move list's buttons, the keyboard) and opens the page on the link's game.
import { get } from './api.js';
import { $, DEFAULT_FEN, current, game, readUrl, setMode } from './state.js';
import { goTo as trainerGoTo } from './trainer.js';
import { act, cancelPromotion, ground } from './views.js';
import './modes/analyse.js';
import './modes/practice.js';
import './modes/random.js';
import './modes/edit.js';
import './modes/play.js';
// after chessground's CSS (imported by board.js), so that the page's rules win where both set one
import './style.css';

// Back, Forward and the arrow keys: a mode with a game of its own (play) steps through it itself.
const goTo = (ply) => (current().goTo ?? trainerGoTo)(ply);

// Without a position in the URL: KQvKR, or a position of a table the server has if it lacks that one.
async function firstPosition() {
  try {
    const { materials } = await get('/api/materials');
    if (!materials.length || materials.includes('KQvKR')) return DEFAULT_FEN;
    const largest = materials[materials.length - 1];
    return (await get('/api/random', { material: largest, outcome: 'win', side: 'w' })).fen;
  } catch {
    return DEFAULT_FEN; // the status line will say what is wrong
  }
}

for (const tab of document.querySelectorAll('.tabs button')) tab.addEventListener('click', act(() => setMode(tab.dataset.mode)));
$('#back').addEventListener('click', act(() => goTo(game.ply - 1)));
$('#forward').addEventListener('click', act(() => goTo(game.ply + 1)));
$('#flip').addEventListener('click', () => {
  ground.toggleOrientation();
  current().onFlip?.();
});
$('#promotion-cancel').addEventListener('click', cancelPromotion);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') return cancelPromotion();
  if (e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft') act(goTo)(game.ply - 1);
  if (e.key === 'ArrowRight') act(goTo)(game.ply + 1);
});

readUrl(firstPosition).then(() => setMode(game.mode));
