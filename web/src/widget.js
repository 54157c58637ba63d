// The chessground board as a Jupyter widget (anywidget; the Python side is Util/notebook/board_widget.py).
// Python owns the game: it sends the position (fen), the side at the bottom (orientation), the legal
// moves (legal: {from: [to, ...]}), the last move and check; a move the person drags or clicks comes
// back as `move` (UCI, without a promotion letter: Python completes it), which Python clears once it
// has dealt with it; a drop on a square the piece cannot go to comes back as `refused` (UCI). A pawn
// reaching the last rank asks which piece it becomes (a small picker over the board, as the trainer
// page's); the move then comes back with its letter (e7e8n). Bundled by scripts/setup.sh (esbuild) into
// web/dist/widget.js and widget.css.
import { createBoard, PROMOTION_PIECES } from './board.js';
import './widget.css';

const colourOf = (fen) => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

function config(model) {
  const fen = model.get('fen');
  const legal = model.get('legal') || {};
  const dests = new Map(Object.entries(legal).filter(([, to]) => to.length));
  const last = model.get('last_move');
  const turn = colourOf(fen);
  return {
    fen: fen.split(' ')[0],
    orientation: model.get('orientation'),
    turnColor: turn,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    check: model.get('check') ? turn : false,
    movable: { free: false, color: dests.size ? turn : undefined, dests, showDests: true },
  };
}

function render({ model, el }) {
  const outer = document.createElement('div');
  outer.className = 'chessai-board-outer';
  const wrap = document.createElement('div');
  wrap.className = 'chessai-board';
  const picker = document.createElement('div');
  picker.className = 'chessai-promotion';
  picker.hidden = true;
  picker.setAttribute('role', 'dialog');
  picker.setAttribute('aria-label', 'promote the pawn to');
  const sized = () => {
    wrap.style.width = wrap.style.height = `${model.get('size')}px`;
  };
  sized();
  outer.append(wrap, picker);
  el.append(outer);
  let sent = false; // whether a move went to Python since the last press on the board
  const send = (uci) => {
    sent = true;
    model.set('move', uci);
    model.save_changes();
  };
  // a piece dropped (or a second click) on a square it cannot go to: chessground just puts it back, so
  // tell Python (`refused`, UCI), which says why in place of whatever message was there
  const refuse = (uci) => {
    model.set('refused', uci);
    model.save_changes();
  };
  // the pawn has reached the last rank: ask for the piece, then send the move with its letter
  const choosePromotion = (orig, dest) => {
    picker.replaceChildren();
    const label = document.createElement('span');
    label.textContent = 'Promote to:';
    picker.append(label);
    for (const [letter, name] of PROMOTION_PIECES) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = name;
      button.dataset.role = letter;
      button.addEventListener('click', () => {
        picker.hidden = true;
        send(orig + dest + letter);
      });
      picker.append(button);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    cancel.className = 'cancel';
    cancel.addEventListener('click', () => {
      picker.hidden = true;
      update();
    });
    picker.append(cancel);
    picker.hidden = false;
  };
  const ground = createBoard(wrap, {
    ...config(model),
    movable: {
      ...config(model).movable,
      events: {
        after: (orig, dest) => {
          // no second move until Python has answered this one
          ground.set({ movable: { color: undefined, dests: new Map() } });
          const piece = ground.state.pieces.get(dest);
          if (piece && piece.role === 'pawn' && (dest[1] === '8' || dest[1] === '1')) choosePromotion(orig, dest);
          else send(orig + dest);
        },
      },
    },
  });
  const keyAt = (event) => ground.getKeyAtDomPos([event.clientX, event.clientY]);
  let pressed = null; // the square of a movable piece the pointer went down on
  const down = (event) => {
    const legal = model.get('legal') || {};
    const key = keyAt(event);
    const selected = ground.state.selected;
    sent = false;
    pressed = key && legal[key] ? key : null;
    if (selected && key && key !== selected && legal[selected] && !legal[selected].includes(key) && !legal[key]) {
      refuse(selected + key);
    }
  };
  const up = (event) => {
    if (!pressed) return;
    const orig = pressed;
    const dest = keyAt(event);
    pressed = null;
    // after chessground has handled the drop (a legal one is sent as a move)
    setTimeout(() => {
      const legal = model.get('legal') || {};
      if (!sent && dest && dest !== orig && legal[orig] && !legal[orig].includes(dest)) refuse(orig + dest);
    }, 50);
  };
  wrap.addEventListener('pointerdown', down, true);
  window.addEventListener('pointerup', up, true);
  const update = () => {
    picker.hidden = true;
    ground.set(config(model));
  };
  const names = ['fen', 'orientation', 'legal', 'last_move', 'check'];
  for (const name of names) model.on(`change:${name}`, update);
  // Python clears `move` once it has dealt with it: show its position again (a refused move goes back)
  const cleared = () => model.get('move') === '' && update();
  model.on('change:move', cleared);
  const resized = () => {
    sized();
    ground.redrawAll();
  };
  model.on('change:size', resized);
  return () => {
    for (const name of names) model.off(`change:${name}`, update);
    model.off('change:move', cleared);
    model.off('change:size', resized);
    wrap.removeEventListener('pointerdown', down, true);
    window.removeEventListener('pointerup', up, true);
    ground.destroy();
  };
}

export default { render };
