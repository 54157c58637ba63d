// The chessground board as the page and the notebook widget set it up, and the promotion chooser's
// pieces. Chessground draws and drags; which moves are legal comes from whoever owns the game (the
// server's answer, chessops in play mode, Python in the widget).
import { Chessground } from '@lichess-org/chessground';
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './coords.css';

// What a pawn on the last rank may become, in the order the choosers list them.
export const PROMOTION_PIECES = [['q', 'Queen'], ['r', 'Rook'], ['b', 'Bishop'], ['n', 'Knight']];

// A board in `element`: coordinates inside the squares, short animations, a ghost where a piece was
// picked up, the legal squares marked; `config` adds to (or overrides) these.
export function createBoard(element, config = {}) {
  return Chessground(element, {
    coordinates: true,
    animation: { duration: 150 },
    draggable: { showGhost: true },
    ...config,
    movable: { free: false, showDests: true, ...(config.movable || {}) },
  });
}

// {from: [to, ...]} of a list of UCI moves (a promotion's four moves give one destination).
export function destinations(ucis) {
  const dests = new Map();
  for (const uci of ucis) {
    const from = uci.slice(0, 2);
    if (!dests.has(from)) dests.set(from, []);
    if (!dests.get(from).includes(uci.slice(2, 4))) dests.get(from).push(uci.slice(2, 4));
  }
  return dests;
}

// The page's chooser (#promotion, over the board): `prefix` (e7e8) becomes a move with the piece chosen,
// given to `onChosen`; until then the pawn stays on its square (`fen`) and the board takes no move.
export function choosePromotion(ground, box, fen, prefix, onChosen) {
  ground.set({ fen: fen.split(' ')[0], movable: { color: undefined } });
  box.hidden = false;
  box.querySelectorAll('.choices button').forEach((button) => {
    button.onclick = () => {
      box.hidden = true;
      onChosen(prefix + button.dataset.role);
    };
  });
  box.querySelector('.choices button').focus();
}

// Chessground keeps where the board is on the page; text or bars above it that grow move it.
export function boardMoved(ground) {
  ground.state.dom.bounds.clear();
}
