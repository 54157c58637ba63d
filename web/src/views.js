// What the page shows around the board, whatever the mode: the board itself, the status line (and an
// error that stays there until the person's next action), the question box, the list of moves played,
// the verdict bar and a file to download.
import { boardMoved, choosePromotion, createBoard } from './board.js';
import { $, DEFAULT_FEN, current, fenNow, game, refresh } from './state.js';

// The page's one board; a move made on it, or a change in the editor, goes to the current mode.
export const ground = createBoard($('#board'), {
  fen: DEFAULT_FEN.split(' ')[0],
  movable: { color: undefined, events: { after: (orig, dest) => current().onMove?.(orig, dest) } },
  events: { change: () => current().onBoardChange?.() },
});

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

// A question over the moves with a yes and a cancel; nothing happens until one is pressed.
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
  choosePromotion(ground, $('#promotion'), fenNow(), prefix, act(onChosen));
}

export function cancelPromotion() {
  if ($('#promotion').hidden) return;
  $('#promotion').hidden = true;
  refresh();
}

// The moves played, numbered, each a button that shows its position (`goTo`); a move's class carries its
// mistake (practice's verdicts) and its title the verdict.
export function renderMoveList(goTo) {
  const list = $('#movelist');
  list.replaceChildren();
  const [, turn, , , , fullmove] = game.start.split(' ');
  let number = Number(fullmove) || 1;
  let white = turn === 'w';
  game.moves.forEach((move, i) => {
    const item = document.createElement('li');
    const label = white ? `${number}.` : i === 0 ? `${number}…` : '';
    item.innerHTML = label ? `<span class="number">${label}</span>` : '';
    const button = document.createElement('button');
    button.textContent = move.san;
    button.className = `move ${move.mistake ? `mistake-${move.mistake}` : ''} ${i + 1 === game.ply ? 'current' : ''}`;
    if (move.grade) button.dataset.grade = move.grade;
    button.title = move.verdict || '';
    button.addEventListener('click', act(() => goTo(i + 1)));
    item.append(button);
    list.append(item);
    if (!white) number++;
    white = !white;
  });
  $('#back').disabled = game.ply === 0;
  $('#forward').disabled = game.ply === game.moves.length;
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

