// Random start: a position of a computed table with the side to move, result and distance in plies the
// person chooses; shown for analysis, or practised at once.
import { get } from '../api.js';
import { $, game, gameParams, newGame, register, setMode } from '../state.js';
import { onBoardMove, show, step, trainer } from '../trainer.js';
import { act } from '../views.js';
import { startPractice } from './practice.js';

let materialsLoaded = false;

export const random = {
  name: 'random',
  navigable: true,
  enter() {
    loadMaterials();
    return show();
  },
  show,
  step,
  urlParams: () => gameParams(),
  mayMove: () => !trainer.busy,
  onMove: onBoardMove,
};

async function loadMaterials() {
  if (materialsLoaded) return;
  try {
    const { materials } = await get('/api/materials');
    const select = $('#random-material');
    select.replaceChildren(...materials.map((m) => new Option(m, m)));
    if (materials.includes('KQvKR')) select.value = 'KQvKR';
    materialsLoaded = true;
    if (!materials.length) $('#random-distances').textContent = 'No tables in the server\'s folder yet: compute one with python -m Util calculate KQvK.';
    else await loadDistances();
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

async function loadDistances() {
  const material = $('#random-material').value;
  if (!material) return;
  try {
    const answer = await get('/api/distances', { material, side: $('#random-side').value }, { cached: true });
    $('#random-distances').textContent = answer.text;
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

async function randomStart() {
  const params = { material: $('#random-material').value, side: $('#random-side').value,
    outcome: $('#random-outcome').value, min: $('#random-min').value || 1 };
  if ($('#random-max').value) params.max = $('#random-max').value;
  try {
    const { fen } = await get('/api/random', params);
    if ($('#random-practise').checked) {
      game.start = fen;
      game.moves = [];
      game.ply = 0;
      game.started = false; // practice offers the side to move: the side asked for
      setMode('practice');
      startPractice();
    } else {
      newGame(fen, 'analyse');
    }
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

$('#random-material').addEventListener('change', loadDistances);
$('#random-side').addEventListener('change', loadDistances);
$('#random-go').addEventListener('click', act(randomStart));

register(random);
