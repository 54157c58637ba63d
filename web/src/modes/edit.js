// Edit board: pieces dragged on from the rows above and below the board and off it; the FEN follows.
import { get } from '../api.js';
import { $, fenNow, game, newGame, register, turnOf } from '../state.js';
import { fillSpares, fullFen, swapColours } from '../editor.js';
import { act, ground, say } from '../views.js';

export const edit = {
  name: 'edit',
  navigable: false,
  enter() {
    $('#spare-top').hidden = $('#spare-bottom').hidden = false;
    show();
  },
  leave() {
    $('#spare-top').hidden = $('#spare-bottom').hidden = true;
    ground.set({ movable: { free: false }, draggable: { deleteOnDropOff: false } });
  },
  show,
  mayMove: () => false,
  onBoardChange,
  onFlip: () => show(), // the spare rows change sides with the board
};

function show() {
  const fen = fenNow();
  game.hint = false;
  ground.set({
    fen: fen.split(' ')[0], lastMove: undefined, check: false,
    movable: { free: true, color: 'both', dests: undefined },
    draggable: { deleteOnDropOff: true },
  });
  ground.setAutoShapes([]);
  document.querySelector(`input[name=edit-turn][value=${turnOf(fen)}]`).checked = true;
  const top = ground.state.orientation === 'white' ? 'black' : 'white';
  fillSpares($('#spare-top'), top, ground);
  fillSpares($('#spare-bottom'), top === 'white' ? 'black' : 'white', ground);
  $('#moves').hidden = true;
  say('Editing the board: set up a position, then press “Analyse this position”.');
  onBoardChange();
}

export const editedFen = () => fullFen(ground.getFen(), document.querySelector('input[name=edit-turn]:checked').value);

function onBoardChange() {
  if (game.mode === 'edit') $('#edit-fen').value = editedFen();
}

async function finishEditing() {
  const fen = $('#edit-fen').value.trim();
  try {
    await get('/api/position', { fen }, { cached: true });
  } catch (error) {
    say(`${error.message}. Change the position, or its FEN, and try again.`, 'error');
    return;
  }
  newGame(fen, 'analyse');
}

function loadFenField() {
  const fen = $('#edit-fen').value.trim();
  const [board, turn] = fen.split(/\s+/);
  ground.set({ fen: board });
  if (turn === 'w' || turn === 'b') document.querySelector(`input[name=edit-turn][value=${turn}]`).checked = true;
}

$('#edit-clear').addEventListener('click', () => {
  ground.set({ fen: '8/8/8/8/8/8/8/8' });
  onBoardChange();
});
$('#edit-swap').addEventListener('click', () => {
  ground.set({ fen: swapColours(ground.getFen()) });
  onBoardChange();
});
for (const radio of document.querySelectorAll('input[name=edit-turn]')) radio.addEventListener('change', onBoardChange);
$('#edit-fen').addEventListener('change', loadFenField);
$('#edit-fen').addEventListener('keydown', (e) => e.key === 'Enter' && finishEditing());
$('#edit-done').addEventListener('click', act(finishEditing));

register(edit);
