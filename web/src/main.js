// The trainer page: a chessground board and, in tabs, its modes: Analyse, Practice (against the
// tablebase), Random start, Edit board and Play (a whole game against the engine). Each mode is a module
// of modes/ that registers itself in state.js; this file wires the parts every mode shares (tabs, Back,
// Forward, Flip, the arrow keys) and opens the page on the link's game.
import { $, current, readUrl, page, setMode } from './state.js';
import { act, cancelPromotion, ground } from './views.js';
import './modes/analyse.js';
import './modes/practice.js';
import './modes/random.js';
import './modes/edit.js';
import './modes/play.js';
// after chessground's CSS (imported by board.js), so that the page's rules win where both set one
import './style.css';

const step = (delta) => current().step?.(delta);

for (const tab of document.querySelectorAll('.tabs button')) tab.addEventListener('click', act(() => setMode(tab.dataset.mode)));
$('#back').addEventListener('click', act(() => step(-1)));
$('#forward').addEventListener('click', act(() => step(1)));
$('#flip').addEventListener('click', () => {
  ground.toggleOrientation();
  current().onFlip?.();
});
$('#promotion-cancel').addEventListener('click', cancelPromotion);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') return cancelPromotion();
  if (e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft') act(step)(-1);
  if (e.key === 'ArrowRight') act(step)(1);
});

readUrl().then(() => setMode(page.mode));
