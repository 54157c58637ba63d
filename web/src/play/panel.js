// The game panel beside the board, as lichess's: the AI's clock at the top, the person's at the bottom
// (each with its name and the material it is up), the move list between them, the messages, the
// buttons; after the game the evaluation graph. On a narrow screen the clocks go above and below the
// board itself. Only draws: what the buttons do is modes/play.js's.
import { $, turnOf } from '../state.js';
import { get } from '../api.js';
import { claimableDraw, inTableRange, materialDiff } from '../rules.js';
import { renderMoveList } from '../views.js';
import { shownClock } from '../gamerecord.js';
import { abortable, aiSide, atEnd, fenAt, fensOfGame, fenShown, match, over, timeLeft, toMove } from './match.js';
import { sideName, whiteScore } from './ai.js';
import { moveNotes } from './analysis.js';
import { drawGraph } from './graph.js';
import { shownEval, winPercent } from './grading.js';
import { levelLabel } from './setup.js';

const NARROW = window.matchMedia('(max-width: 760px)');
const LOW_MS = 10_000;
const PIECE_SIGNS = { queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' };

export const aiName = () => `AI ${levelLabel(match.level)}`;

// The clocks where they belong for the screen's width: at the board's edge on a phone, in the panel
// beside the board otherwise.
function placeClocks() {
  const [top, bottom] = NARROW.matches ? [$('#board-top'), $('#board-bottom')] : [null, null];
  if (top) {
    top.append($('#clock-top'));
    bottom.append($('#clock-bottom'));
  } else {
    $('#play-game').prepend($('#clock-top'));
    $('#play-game').append($('#clock-bottom'));
  }
}
NARROW.addEventListener('change', placeClocks);
placeClocks();

// The clocks: names, time left (the running one lit, red under ten seconds) and material.
export function renderClocks() {
  const diff = materialDiff(fenShown());
  for (const [id, side, name] of [['#clock-top', aiSide(), aiName()], ['#clock-bottom', match.side, 'You']]) {
    const box = $(id);
    box.hidden = !match.on;
    box.querySelector('.name').textContent = `${name} (${sideName(side)})`;
    box.querySelector('.time').textContent = match.clock ? shownClock(timeLeft(side)) : '–';
    box.querySelector('.material').textContent = diff[side].roles.map((role) => PIECE_SIGNS[role]).join('')
      + (diff[side].score ? ` +${diff[side].score}` : '');
    box.dataset.side = side;
    box.classList.toggle('running', match.running === side);
    box.classList.toggle('low', match.clock !== null && timeLeft(side) < LOW_MS);
  }
}

// The move list, each move marked with its grade once the analysis or the tablebase has given one.
export function renderMoves(goTo) {
  const moves = match.moves.map((move, i) => {
    const notes = moveNotes(i);
    return { ...move, grade: notes.grade ?? (move.grade === 'best' ? 'best' : move.grade), verdict: notes.words ?? move.verdict };
  });
  renderMoveList($('#play-moves'), { start: match.start, moves, ply: match.ply, goTo });
}

// Which buttons a game in this state offers.
export function renderButtons() {
  const on = match.on && !over();
  $('#play-buttons').hidden = !on;
  $('#play-after').hidden = !(match.on && over());
  $('#play-takeback').disabled = !on || !match.moves.some((m) => m.by === 'you');
  $('#play-offer').disabled = !on || match.offered || !atEnd() || abortable();
  $('#play-resign').hidden = abortable();
  $('#play-abort').hidden = !on || !abortable();
  const claim = on && atEnd() && toMove() === match.side ? claimableDraw(fensOfGame()) : null;
  $('#play-claim').hidden = !claim;
  $('#play-claim').dataset.why = claim || '';
  $('#play-claim').textContent = claim === 'fifty' ? 'Claim a draw (fifty moves)' : 'Claim a draw (repetition)';
  $('#play-analyse').hidden = match.end?.code === 'abort' || match.moves.length === 0;
  $('#play-analyse').disabled = Boolean(match.analysis?.done);
  $('#play-type').disabled = !on;
}

// White's evaluation at `ply`: the analysis's, else the AI's last search up to there (null if none).
export function evaluationAt(ply) {
  const analysed = match.analysis?.evals[ply];
  if (analysed) return analysed;
  for (let i = ply - 1; i >= 0; i--) {
    if (match.moves[i].engine?.score) return whiteScore(match.moves[i].engine);
  }
  return null;
}

// The evaluation bar beside the board (if the person turned it on): White's share, as on lichess.
export function renderEvalBar(shown) {
  const bar = $('#eval-bar');
  bar.hidden = !shown;
  document.body.classList.toggle('with-eval-bar', shown);
  if (!shown) return;
  const score = evaluationAt(match.ply);
  const percent = score ? winPercent(score) : 50;
  bar.querySelector('.white-share').style.height = `${percent}%`;
  bar.setAttribute('aria-valuenow', Math.round(percent));
  bar.classList.toggle('flipped', match.side === 'b');
}

// The graph of the analysis (what is known of it so far), a click going to a move.
export function renderGraph(goTo) {
  const analysis = match.analysis;
  if (!analysis) {
    $('#play-graph').hidden = true;
    return;
  }
  const percents = [];
  const grades = [null];
  for (let ply = 0; ply <= match.moves.length; ply++) {
    const score = analysis.evals[ply];
    const mated = score === null ? (turnOf(fenAt(ply)) === 'w' ? 0 : 100) : null;
    percents.push(score ? winPercent(score) : mated);
    if (ply > 0) grades.push(moveNotes(ply - 1).grade ?? null);
  }
  drawGraph($('#play-graph'), { percents, grades, ply: match.ply, goTo });
}

// "tablebase: White mates in 12 (23 plies)" at five pieces or fewer, in practice's words.
export async function showTablebase(fen) {
  const line = $('#play-tablebase');
  if (!inTableRange(fen)) {
    line.hidden = true;
    return;
  }
  try {
    const answer = await get('/api/position', { fen }, { cached: true });
    if (fenShown() !== fen) return;
    line.textContent = `tablebase: ${answer.status.replace(/^(White|Black) to move\. /, '')}`;
    line.className = `tablebase status ${answer.category}`;
  } catch (error) {
    line.textContent = `tablebase: no answer here (${error.message})`;
    line.className = 'tablebase status';
  }
  line.hidden = false;
}

// What the analysis (or the tablebase) says of the move shown: "6. Nxf7? (−0.20 → −1.31) Mistake. d4 was best."
export function renderComment() {
  const line = $('#play-comment');
  const index = match.ply - 1;
  const notes = index >= 0 && match.analysis ? moveNotes(index) : {};
  const move = match.moves[index];
  if (!move || !(notes.words || (match.analysis && notes.eval))) {
    line.textContent = '';
    return;
  }
  const [, turn, , , , fullmove] = match.start.split(' ');
  const number = Number(fullmove || 1) + Math.floor((index + (turn === 'b' ? 1 : 0)) / 2);
  const white = (index % 2 === 0) === (turn !== 'b');
  const glyph = { inaccuracy: '?!', mistake: '?', blunder: '??' }[notes.grade] ?? '';
  line.textContent = `${number}${white ? '.' : '…'} ${move.san}${glyph} ${notes.words ?? (notes.eval ? shownEval(notes.eval) : '')}`;
  line.className = `comment ${notes.grade ?? ''}`;
}

// A message about the last thing done ("Taken back: your move again.", a declined offer) that the next
// move clears.
export function setMessage(text) {
  $('#play-message').textContent = text;
}
