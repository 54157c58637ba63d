// Edit board: pieces dragged on from the rows above and below the board and off it, the side to move,
// castling rights and the en passant square; the FEN follows. Any position a game can reach is accepted
// (the server's /api/legal says why another is not): it is analysed where the tablebase has its table,
// and played against the AI from anywhere.
import { get } from '../api.js';
import { $, fenNow, game, gameParams, newGame, page, register } from '../state.js';
import { fillSpares, fullFen, possibleCastling, possibleEnPassant, swapColours } from '../editor.js';
import { act, ground, say, showBoard } from '../views.js';
import { setUpFromBoard } from './play.js';

const RIGHTS = 'KQkq';

export const edit = {
  name: 'edit',
  enter() {
    $('#spare-top').hidden = $('#spare-bottom').hidden = false;
    show();
  },
  leave() {
    $('#spare-top').hidden = $('#spare-bottom').hidden = true;
    showBoard({ fen: editedFen() });
  },
  show,
  mayMove: () => false,
  onBoardChange,
  urlParams: () => gameParams(),
  onFlip: () => show(), // the spare rows change sides with the board
};

function show() {
  const fen = fenNow();
  game.hint = false;
  showBoard({ fen, free: true });
  setControls(fen);
  const top = ground.state.orientation === 'white' ? 'black' : 'white';
  fillSpares($('#spare-top'), top, ground);
  fillSpares($('#spare-bottom'), top === 'white' ? 'black' : 'white', ground);
  $('#moves').hidden = true;
  say('Editing the board: set up any position, then analyse it (five pieces or fewer) or play it against the AI.');
  onBoardChange();
}

// The side to move, castling rights and en passant square of `fen` into the panel's controls.
function setControls(fen) {
  const [, turn = 'w', castling = '-', ep = '-'] = fen.split(/\s+/);
  document.querySelector(`input[name=edit-turn][value=${turn === 'b' ? 'b' : 'w'}]`).checked = true;
  for (const box of document.querySelectorAll('input[name=edit-castling]')) box.checked = castling.includes(box.value);
  fillEnPassant(ep);
}

// The en passant chooser: the squares where the side to move could capture so on this board.
function fillEnPassant(chosen = $('#edit-ep').value) {
  const squares = possibleEnPassant(ground.getFen(), turnChosen());
  $('#edit-ep').replaceChildren(new Option('none', '-'), ...squares.map((square) => new Option(square, square)));
  $('#edit-ep').value = squares.includes(chosen) ? chosen : '-';
}

const turnChosen = () => document.querySelector('input[name=edit-turn]:checked').value;

// What the board and the controls say: a castling right only where its king and rook stand at home.
export function editedFen() {
  const board = ground.getFen();
  const possible = possibleCastling(board);
  const chosen = [...document.querySelectorAll('input[name=edit-castling]:checked')].map((box) => box.value);
  const castling = [...RIGHTS].filter((right) => chosen.includes(right) && possible.includes(right)).join('') || '-';
  return fullFen(board, turnChosen(), castling, $('#edit-ep').value);
}

function onBoardChange() {
  if (page.mode !== 'edit') return;
  const possible = possibleCastling(ground.getFen());
  for (const box of document.querySelectorAll('input[name=edit-castling]')) {
    box.disabled = !possible.includes(box.value);
    box.closest('label').title = box.disabled ? 'its king and rook are not on their first squares' : '';
  }
  fillEnPassant();
  $('#edit-fen').value = editedFen();
}

// The position edited, if a game can reach it (the server's words otherwise, shown; then null).
async function checked() {
  const fen = $('#edit-fen').value.trim();
  try {
    return await get('/api/legal', { fen });
  } catch (error) {
    say(`${error.message}. Change the position, or its FEN, and try again.`, 'error');
    return null;
  }
}

async function analyseIt() {
  const position = await checked();
  if (!position) return;
  if (!position.tables) {
    const why = position.castling !== '-' ? `castling rights (${position.castling})` : `${position.pieces} pieces`;
    say(`The tablebase holds positions of five pieces or fewer without castling rights; this one has ${why}. ` +
      'Play it against the AI instead (“Play from this position”).', 'error');
    return;
  }
  try {
    await get('/api/position', { fen: position.fen }, { cached: true });
  } catch (error) {
    say(`${error.message}.`, 'error');
    return;
  }
  newGame(position.fen, 'analyse');
}

async function playIt() {
  const position = await checked();
  if (!position) return;
  if (position.ending || !position.legal_moves) {
    say(`No game from here: ${position.ending ? position.ending.text : 'no legal move'}. Change the position.`, 'error');
    return;
  }
  document.querySelector('input[name=play-from][value=board]').checked = true;
  setUpFromBoard();
  newGame(position.fen, 'play');
}

function loadFenField() {
  const fen = $('#edit-fen').value.trim();
  ground.set({ fen: fen.split(/\s+/)[0] });
  setControls(fen);
  onBoardChange();
}

function setBoard(board) {
  ground.set({ fen: board });
  onBoardChange();
}

$('#edit-clear').addEventListener('click', () => setBoard('8/8/8/8/8/8/8/8'));
$('#edit-start').addEventListener('click', () => {
  setBoard('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  setControls('x w KQkq -');
  onBoardChange();
});
$('#edit-swap').addEventListener('click', () => setBoard(swapColours(ground.getFen())));
for (const input of document.querySelectorAll('input[name=edit-turn], input[name=edit-castling], #edit-ep')) {
  input.addEventListener('change', onBoardChange);
}
$('#edit-fen').addEventListener('change', loadFenField);
$('#edit-fen').addEventListener('keydown', (e) => e.key === 'Enter' && analyseIt());
$('#edit-done').addEventListener('click', act(analyseIt));
$('#edit-play').addEventListener('click', act(playIt));

register(edit);
