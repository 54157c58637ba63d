// The computer analysis after the game, as lichess's: every position of the finished game evaluated by
// the server's engine (GET /api/cloud-eval, a bounded time each, one request at a time, so that the
// analysis takes this page's share of the server's search processes and no more), each move graded from
// the evaluations before and after it (play/grading.js: lichess's thresholds), or by the tablebase where
// it holds the position (its verdict, exact); the best move in each position, for the board's arrow and
// the words "Nf3 was best". The results are kept with the game (a reload shows them).
import { get } from '../api.js';
import { playUci, positionOf } from '../rules.js';
import { turnOf } from '../state.js';
import { fenAt, match, save } from './match.js';
import { judge, shownEval } from './grading.js';

// Milliseconds the engine thinks about each position.
export const MOVETIME_MS = 500;
let running = null; // the token of the analysis in progress

export const analysing = () => running !== null;
export const stopAnalysis = () => {
  running = null;
};

// The evaluation of a position where the game is over by the rules (no search): null for a checkmate
// (the mover has won: nothing to grade, nothing to draw beyond), a draw's 0.00 otherwise; undefined for a
// position where the game goes on.
function endOf(fen) {
  const position = positionOf(fen);
  if (position.isCheckmate()) return null;
  if (position.isStalemate() || position.isInsufficientMaterial() || position.halfmoves >= 150) return { cp: 0 };
  return undefined;
}

// Evaluates the positions not evaluated yet, first to last; `progress(done, total)` after each; a busy
// server is asked again after its Retry-After. Throws the server's error when it cannot go on.
export async function analyse(progress) {
  const token = {};
  running = token;
  const analysis = match.analysis ?? { evals: [], best: [], done: false };
  match.analysis = analysis;
  const total = match.moves.length + 1;
  try {
    for (let ply = 0; ply < total; ply++) {
      if (analysis.evals[ply] !== undefined) continue;
      const fen = fenAt(ply);
      const ended = endOf(fen);
      if (ended !== undefined) {
        analysis.evals[ply] = ended;
      } else {
        const answer = await evaluation(fen, token);
        if (running !== token) return;
        const [line] = answer.pvs;
        analysis.evals[ply] = 'mate' in line ? { mate: line.mate } : { cp: line.cp };
        analysis.best[ply] = line.moves.split(' ')[0];
      }
      progress(ply + 1, total);
      save();
    }
    analysis.done = true;
    save();
  } finally {
    if (running === token) running = null;
  }
}

async function evaluation(fen, token) {
  for (;;) {
    try {
      return await get('/api/cloud-eval', { fen, movetime: MOVETIME_MS });
    } catch (error) {
      if (running !== token || ![429, 503].includes(error.status)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * (error.retryAfter || 1)));
    }
  }
}

// What the analysis says of move `index` (0-based): {grade, words} (lichess's, or the tablebase's where
// it judged the move), {eval} after it, the best move in SAN where it was another; {} before the analysis.
export function moveNotes(index) {
  const analysis = match.analysis;
  const move = match.moves[index];
  if (!analysis) return {};
  const before = analysis.evals[index];
  const after = analysis.evals[index + 1];
  const notes = {};
  if (after) notes.eval = after;
  const bestUci = analysis.best[index];
  const best = bestUci && bestUci !== move.uci ? playUci(fenAt(index), bestUci)?.san : null;
  if (move.grade && move.grade !== 'best') {
    notes.grade = move.grade;
    notes.words = move.comment;
  } else if (!move.grade && before && after) {
    const judged = judge(before, after, turnOf(fenAt(index)));
    if (judged) {
      notes.grade = judged.grade;
      notes.words = `(${shownEval(before)} → ${shownEval(after)}) ${judged.words}.${best ? ` ${best} was best.` : ''}`;
    }
  }
  return notes;
}

// The best move's arrow in the position at `ply`, once analysed.
export function bestArrow(ply) {
  const uci = match.analysis?.best[ply];
  return uci ? [{ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'green' }] : [];
}
