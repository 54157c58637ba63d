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

// The full FEN of what the board shows, with `turn` to move (no castling, no en passant).
export function fullFen(boardFen, turn) {
  return `${boardFen} ${turn} - - 0 1`;
}

// The board part with the colours of all pieces exchanged (the pieces stay on their squares).
export function swapColours(boardFen) {
  return [...boardFen].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

export { LETTER };
