// What is made of a game against the AI: its computer analysis started and reported in a line of the
// panel ("2 inaccuracies, 1 mistake, 1 blunder" for each side), and its PGN, with each move's clock
// ([%clk]), the analysis's evaluation ([%eval]), grade (?!, ?, ??) and words, as lichess writes them.
import { gamePgn } from '../gamerecord.js';
import { START_FEN } from '../rules.js';
import { $, turnOf } from '../state.js';
import { fenAt, match } from './match.js';
import { analyse, analysing, moveNotes } from './analysis.js';
import { GLYPHS, pgnEval } from './grading.js';
import { levelLabel } from './setup.js';

const GRADES = ['inaccuracy', 'mistake', 'blunder'];
const PLURALS = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };

// Runs the analysis of the game shown (what is not analysed yet), `show()` after each position.
export async function runAnalysis(show) {
  if (analysing() || !match.on || !match.end) return;
  const line = $('#play-analysis');
  line.hidden = false;
  try {
    await analyse((done, total) => {
      line.textContent = `Computer analysis: ${done} of ${total} positions evaluated…`;
      show();
    });
  } catch (error) {
    line.textContent = `The analysis stopped: ${error.message}. Press “Computer analysis” to go on.`;
    $('#play-analyse').disabled = false;
    return;
  }
  show();
}

// "You: 1 inaccuracy, 2 mistakes. AI: none." once the analysis is done; its progress before.
export function showAnalysisLine() {
  const line = $('#play-analysis');
  if (!match.analysis?.done) {
    line.hidden = !analysing();
    return;
  }
  line.hidden = false;
  line.textContent = `Computer analysis — ${summary(match.side, 'You')} ${summary(match.side === 'w' ? 'b' : 'w', 'AI')}`;
}

// How many moves of `side` the analysis grades as what, in words.
export function summary(side, name) {
  const counts = Object.fromEntries(GRADES.map((grade) => [grade, 0]));
  match.moves.forEach((move, i) => {
    const { grade } = moveNotes(i);
    if (turnOf(fenAt(i)) === side && grade in counts) counts[grade]++;
  });
  const said = GRADES.filter((grade) => counts[grade]).map((grade) => `${counts[grade]} ${counts[grade] === 1 ? grade : PLURALS[grade]}`);
  return `${name}: ${said.length ? said.join(', ') : 'no inaccuracy, mistake or blunder'}.`;
}

// The game as PGN, whichever move is shown.
export function pgn() {
  const you = 'You';
  const ai = `AI ${levelLabel(match.level)}`;
  const moves = match.moves.map((move, i) => {
    const notes = moveNotes(i);
    return { san: move.san + (GLYPHS[notes.grade] ?? ''), clock: move.clock,
      eval: notes.eval ? pgnEval(notes.eval) : undefined, comment: notes.words ?? move.comment };
  });
  return gamePgn({
    start: match.start, startpos: match.start === START_FEN, moves, result: match.end?.result ?? '*',
    white: match.side === 'w' ? you : ai, black: match.side === 'w' ? ai : you, clock: match.clock,
    termination: match.end?.termination, event: 'Game against the AI', ending: match.end?.text,
  });
}
