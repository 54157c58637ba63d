// The tablebase's modes' common ground (analyse, practice, random start): the position shown is asked of
// the server (/api/position: its legal moves, their results, the status line), a move is played through
// it (/api/verdict: checked, with its verdict), the table of moves lists every legal move best first.
// A mode built on it gives `mayMove()` and may give `you()` (the side a person plays against the
// server, or null), `tableHidden()`, `onPlayed(verdict, by)` and `afterShow()`.
import { destinations } from './board.js';
import { get } from './api.js';
import { $, DEFAULT_FEN, current, fenNow, game, refresh, turnOf, writeUrl } from './state.js';
import { act, ask, clearNotice, fail, noticeShown, promote, renderMoveList, say, showBoard } from './views.js';

export const trainer = { position: null, positionFen: null, busy: false };

const arrow = (uci) => ({ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'green' });

export async function show() {
  const mode = current();
  const fen = fenNow();
  const you = mode.you?.() ?? null;
  writeUrl();
  showMoves();
  $('#new-game').hidden = true;
  $('#board').dataset.movable = ''; // until this position is shown: a move now would be of another
  let position;
  try {
    position = await get('/api/position', you ? { fen, you } : { fen }, { cached: true });
  } catch (error) {
    trainer.position = trainer.positionFen = null;
    // a FEN the server refuses is drawn as no board at all: chessground would read pieces out of garbage
    const board = error.status === 400 ? '8/8/8/8/8/8/8/8' : fen.split(' ')[0];
    showBoard({ fen: `${board} ${turnOf(fen) === 'b' ? 'b' : 'w'}` });
    renderTable();
    fail(error.message);
    return;
  }
  if (fen !== fenNow() || current() !== mode) return; // another position (or mode) was asked for meanwhile
  trainer.position = position;
  trainer.positionFen = fen;
  showBoard({
    fen, last: game.ply > 0 ? game.moves[game.ply - 1].uci : null, check: position.check,
    mover: mode.mayMove() ? turnOf(fen) : null, dests: destinations(position.moves.map((m) => m.uci)),
    shapes: game.hint && position.moves.length ? [arrow(position.moves[0].uci)] : [],
  });
  const zugzwang = position.mutual_zugzwang ? ' Mutual zugzwang: the side to move would rather pass.' : '';
  if (noticeShown()) say(noticeShown(), 'error');
  else if (you && position.ending) say(position.ending.text, position.ending.kind);
  else say(position.status + zugzwang, position.category);
  $('#new-game').hidden = !(you && position.ending && game.ply === game.moves.length);
  renderTable();
  $('#api-link').href = `/standard?fen=${encodeURIComponent(fen)}`;
  $('#api-link').textContent = '/standard for this position';
}

const RESULT_FOR_MOVER = { win: 'loss', draw: 'draw', loss: 'win' };

export function renderTable() {
  const body = $('#moves tbody');
  body.replaceChildren();
  const { position } = trainer;
  const hidden = current().tableHidden?.() ?? false;
  $('#moves').hidden = hidden || !position;
  if (hidden || !position) return;
  for (const move of position.moves) {
    // The server's words for the move ("Win · mates in 3 (5 plies)"); a move whose category is "loss"
    // leaves the opponent lost, so it wins for the side that plays it.
    const [label, distance = '—'] = move.words.split(' · ');
    const row = document.createElement('tr');
    row.className = RESULT_FOR_MOVER[move.category];
    row.dataset.uci = move.uci;
    row.tabIndex = 0;
    row.title = `play ${move.san}`;
    for (const text of [move.san, label, distance]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    const play = act(() => current().mayMove() && tryMove(move.uci));
    row.addEventListener('click', play);
    row.addEventListener('keydown', (e) => e.key === 'Enter' && play());
    body.append(row);
  }
}

export const showMoves = () => renderMoveList($('#movelist'), { start: game.start, moves: game.moves, ply: game.ply, goTo });

export function goTo(ply) {
  if (trainer.busy || !current().navigable) return;
  game.ply = Math.max(0, Math.min(ply, game.moves.length));
  game.hint = false;
  refresh();
}

// A move dropped on the board: one legal move is played, a promotion asks for its piece first.
export function onBoardMove(orig, dest) {
  const { position } = trainer;
  if (!position) return;
  clearNotice();
  const candidates = position.moves.filter((m) => m.uci.startsWith(orig + dest));
  if (candidates.length === 1) return tryMove(candidates[0].uci);
  if (candidates.length > 1) return promote(orig + dest, tryMove);
  show();
}

// A move from the position shown: the game's next move goes forward; another move where later moves
// exist asks first (they would be deleted).
export function tryMove(uci) {
  if (game.ply < game.moves.length) {
    if (game.moves[game.ply].uci === uci) return goTo(game.ply + 1);
    const later = game.moves.length - game.ply;
    return ask(`Play this move here? The ${later} later move${later === 1 ? '' : 's'} of the game would be deleted.`,
      'Play it and delete them', () => playMove(uci, 'you'), () => show());
  }
  return playMove(uci, 'you');
}

export const played = (answer, by) => ({ uci: answer.uci, san: answer.san, fen: answer.fen, comment: answer.comment, by,
  verdict: answer.verdict, mistake: answer.mistake, grade: answer.grade });

// Play `uci` from the position shown (dropping any moves after it), with the server's verdict on it.
export async function playMove(uci, by) {
  if (trainer.busy) return;
  const mode = current();
  trainer.busy = true;
  try {
    const verdict = await get('/api/verdict', { fen: fenNow(), move: uci });
    game.moves.length = game.ply;
    game.moves.push(played(verdict, by));
    game.ply++;
    game.hint = false;
    mode.onPlayed?.(verdict, by);
  } catch (error) {
    fail(`${uci} was not played: ${error.message}`);
  } finally {
    trainer.busy = false;
  }
  await show();
  await mode.afterShow?.();
}

// Without a position in the URL: KQvKR, or a position of a table the server has if it lacks that one.
async function firstPosition() {
  try {
    const { materials } = await get('/api/materials');
    if (!materials.length || materials.includes('KQvKR')) return DEFAULT_FEN;
    const largest = materials[materials.length - 1];
    return (await get('/api/random', { material: largest, outcome: 'win', side: 'w' })).fen;
  } catch {
    return DEFAULT_FEN; // the status line will say what is wrong
  }
}

// A link's game (?fen=&moves=&ply=): its start, its moves replayed through the server (which checks each
// and gives its verdict; `byOf(fen)` says who played the move from `fen`), the move shown.
export async function readGame(params, byOf = () => 'you') {
  game.start = (params.get('fen') || (await firstPosition())).replaceAll('_', ' ');
  await replayMoves(params, byOf);
  const ply = Number(params.get('ply'));
  if (params.has('ply') && ply >= 0 && ply <= game.moves.length) game.ply = ply;
}

async function replayMoves(params, byOf) {
  const moves = (params.get('moves') || '').split(',').filter(Boolean);
  for (const uci of moves) {
    try {
      const fen = fenNow();
      const verdict = await get('/api/verdict', { fen, move: uci });
      game.moves.push(played(verdict, byOf(fen)));
      game.ply++;
    } catch (error) {
      fail(`The link's move ${uci} could not be played (it and the moves after it are left out): ${error.message}`);
      break;
    }
  }
}


// Back, Forward and the arrow keys in a tablebase mode.
export const step = (delta) => goTo(game.ply + delta);
