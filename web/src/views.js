// What the page shows around the board, whatever the mode: the board itself (one configuration for every
// mode, `showBoard`), the status line (and an error that stays there until the person's next action), the
// question box, a list of moves played, the verdict bar and a file to download.
import { boardMoved, choosePromotion, createBoard } from './board.js';
import { $, DEFAULT_FEN, colour, current, refresh, turnOf } from './state.js';

// The page's one board; a move made on it, or a change in the editor, goes to the current mode.
export const ground = createBoard($('#board'), {
  fen: DEFAULT_FEN.split(' ')[0],
  movable: { color: undefined, events: { after: (orig, dest, meta) => current().onMove?.(orig, dest, meta) } },
  events: { change: () => current().onBoardChange?.() },
});

let shownFen = DEFAULT_FEN;

// Puts a position on the board, the one way every mode does: `fen` (a whole FEN), `last` (the UCI move
// that led to it, or null), `mover` ('w', 'b' or null: whose pieces the person may move now), `dests`
// (a Map from square to squares), `premove` (the person may premove while the other side thinks),
// `shapes` (arrows), `check` (the side to move is in check), `free` (the editor: any piece anywhere). The
// board's element says whose pieces move now (`data-movable`, empty while only a premove may be set), so
// that a program driving the page knows when it may.
export function showBoard({ fen, last = null, mover = null, dests = new Map(), premove = false, shapes = [], check = false,
  free = false }) {
  const turn = turnOf(fen) === 'b' ? 'b' : 'w';
  shownFen = fen;
  ground.set({
    fen: fen.split(' ')[0],
    turnColor: colour(turn),
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    check: check ? colour(turn) : false,
    movable: { free, color: free ? 'both' : mover ? colour(mover) : undefined, dests: free ? undefined : dests },
    premovable: { enabled: premove },
    draggable: { deleteOnDropOff: free },
  });
  ground.setAutoShapes(shapes);
  $('#board').dataset.movable = free ? 'both' : premove ? '' : mover ?? '';
}

let notice = null; // an error shown instead of the status line until the person's next action

export const noticeShown = () => notice;

export function say(text, kind = '') {
  const status = $('#status');
  status.textContent = text;
  status.className = `status ${kind}`;
  boardMoved(ground);
}

// An error stays on the status line until the person does something else (`act`).
export function fail(message) {
  notice = message;
  say(message, 'error');
}

// Wraps what a person does: the last error gives way to what comes next.
export const act = (fn) => (...args) => {
  notice = null;
  $('#ask').hidden = true;
  return fn(...args);
};

export const clearNotice = () => {
  notice = null;
};

// A question with a yes and a cancel; nothing happens until one is pressed.
export function ask(text, yes, onYes, onNo = () => {}) {
  $('#ask-text').textContent = text;
  $('#ask-yes').textContent = yes;
  $('#ask').hidden = false;
  $('#ask-yes').onclick = act(onYes);
  $('#ask-no').onclick = act(onNo);
  boardMoved(ground);
}

// The chooser over the board; `onChosen` gets the whole move (e7e8n).
export function promote(prefix, onChosen) {
  choosePromotion(ground, $('#promotion'), shownFen, prefix, act(onChosen));
}

export function cancelPromotion() {
  if ($('#promotion').hidden) return;
  $('#promotion').hidden = true;
  refresh();
}

// The moves of a game in `list`, numbered, each a button that shows its position (`goTo(ply)`): `start`
// the FEN it began from, `moves` [{san, mistake?, grade?, verdict?}], `ply` the one shown. A move's class
// carries its mistake (practice's verdicts), `data-grade` its grade (the style adds lichess's ?!, ?, ??)
// and its title the verdict.
export function renderMoveList(list, { start, moves, ply, goTo }) {
  list.replaceChildren();
  const [, turn, , , , fullmove] = start.split(' ');
  let number = Number(fullmove) || 1;
  let white = turn === 'w';
  moves.forEach((move, i) => {
    const item = document.createElement('li');
    const label = white ? `${number}.` : i === 0 ? `${number}…` : '';
    if (label) {
      const span = document.createElement('span');
      span.className = 'number';
      span.textContent = label;
      item.append(span);
    }
    const button = document.createElement('button');
    button.textContent = move.san;
    button.className = `move ${move.mistake ? `mistake-${move.mistake}` : ''} ${i + 1 === ply ? 'current' : ''}`;
    if (move.grade) button.dataset.grade = move.grade;
    button.title = move.verdict || '';
    button.addEventListener('click', act(() => goTo(i + 1)));
    item.append(button);
    list.append(item);
    if (!white) number++;
    white = !white;
  });
  list.querySelector('.current')?.scrollIntoView?.({ block: 'nearest' });
  $('#back').disabled = ply === 0;
  $('#forward').disabled = ply === moves.length;
}

// The verdict bar `box` on the person's move (an /api/verdict answer), coloured by how good it was.
export function showVerdict(box, verdict, prefix = 'Your move: ') {
  box.textContent = `${prefix}${verdict.verdict}`;
  box.className = `verdict ${verdict.mistake ? `mistake-${verdict.mistake}` : 'best'} grade-${verdict.grade}`;
}

export function download(text, name, type = 'application/x-chess-pgn') {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
