// The board editor's spare pieces and its FEN: chessground does the dragging.

const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const LETTER = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };

// Fill a row of spare pieces of `color`; pressing one starts dragging a new piece onto the board.
export function fillSpares(element, color, ground) {
  element.replaceChildren();
  for (const role of ROLES) {
    const piece = document.createElement('piece');
    piece.className = `${role} ${color}`;
    piece.dataset.piece = `${color} ${role}`;
    piece.title = `${color} ${role}: drag it onto the board`;
    const start = (event) => {
      if (event.button !== undefined && event.button !== 0) return;
      event.preventDefault();
      ground.dragNewPiece({ color, role }, event, true);
    };
    piece.addEventListener('mousedown', start);
    piece.addEventListener('touchstart', start, { passive: false });
    element.append(piece);
  }
}

// The full FEN of what the board shows, with `turn` to move, `castling` rights ('KQkq' or '-') and the
// en passant square `ep` ('-' for none).
export function fullFen(boardFen, turn, castling = '-', ep = '-') {
  return `${boardFen} ${turn} ${castling || '-'} ${ep || '-'} 0 1`;
}

// The piece on each square of a board FEN: {e1: 'K', ...}.
function squares(boardFen) {
  const found = {};
  boardFen.split('/').forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else found['abcdefgh'[file++] + (8 - i)] = c;
    }
  });
  return found;
}

// Which castling rights the board allows (its king and that rook on their first squares): a subset of
// 'KQkq' in that order.
export function possibleCastling(boardFen) {
  const at = squares(boardFen);
  const rights = [['K', 'e1', 'h1', 'K', 'R'], ['Q', 'e1', 'a1', 'K', 'R'], ['k', 'e8', 'h8', 'k', 'r'], ['q', 'e8', 'a8', 'k', 'r']];
  return rights.filter(([, king, rook, k, r]) => at[king] === k && at[rook] === r).map(([right]) => right).join('');
}

// The squares a pawn of the side not to move may just have skipped with a double step (that pawn beside
// them, both squares behind it empty): where `turn` might capture en passant.
export function possibleEnPassant(boardFen, turn) {
  const at = squares(boardFen);
  const [pawn, rank, skipped, from] = turn === 'w' ? ['p', 5, 6, 7] : ['P', 4, 3, 2];
  return [...'abcdefgh'].filter((f) => at[f + rank] === pawn && !at[f + skipped] && !at[f + from]).map((f) => f + skipped);
}

// The board part with the colours of all pieces exchanged (the pieces stay on their squares).
export function swapColours(boardFen) {
  return [...boardFen].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

export { LETTER };
