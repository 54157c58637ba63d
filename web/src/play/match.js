// The game against the AI: its own state, apart from the other modes' board, kept in the browser
// (localStorage) after every change together with the time of that change, so that a reload resumes it
// with the time its clocks have really run, and a link or another tab cannot change it.
import { normalFen, START_FEN } from '../rules.js';
import { turnOf } from '../state.js';

const KEY = 'chessai.play.game';
const other = (side) => (side === 'w' ? 'b' : 'w');

// `moves`: [{uci, san, fen, by: 'you' | 'ai', clock (ms left after it), capture, engine (the AI's answer),
// verdict, mistake, grade, comment (the tablebase's)}]; `times`: ms left on each clock as of `since`
// (performance.now()) for the side whose clock runs (`running`); `analysis`: the evaluations after the game.
export const match = {
  id: null, // this game's name in storage, in the URL and between tabs
  on: false, // a game is shown (being played, or over)
  start: START_FEN,
  moves: [],
  ply: 0, // the move shown
  side: 'w',
  level: 1,
  clock: null, // {base, increment, text} in ms, or null: no clock
  times: { w: 0, b: 0 },
  running: null,
  since: 0,
  end: null, // play/ending.js's description
  offered: false, // a draw offer made in this position
  analysis: null, // {evals: [{cp} | {mate} | null by ply, White's view], best: [uci by ply], done}
};

export const aiSide = () => other(match.side);
export const over = () => match.end !== null;
export const atEnd = () => match.ply === match.moves.length;
export const fenAt = (ply) => (ply === 0 ? match.start : match.moves[ply - 1].fen);
export const fenShown = () => fenAt(match.ply);
export const lastFen = () => fenAt(match.moves.length);
export const fensOfGame = () => [normalFen(match.start), ...match.moves.map((m) => m.fen)];
export const toMove = () => turnOf(lastFen());
export const newId = () => Math.random().toString(36).slice(2, 10);
// Abort is possible until each side has moved once (as on lichess); the clocks run from the first move.
export const abortable = () => !over() && match.moves.length < 2;

// Time left on `side`'s clock now (ms).
export function timeLeft(side) {
  const left = match.times[side];
  return match.running === side ? left - (performance.now() - match.since) : left;
}

// The game as it stands, kept: the clocks as of now (`savedAt`, the wall clock), the rest as it is.
export function save() {
  if (!match.id) return;
  // of the AI's answer, what the page shows again: where its move came from, how deep, its evaluation
  const moves = match.moves.map(({ engine, ...move }) => ({
    ...move, engine: engine && { source: engine.source, score: engine.score, depth: engine.depth } }));
  const kept = { id: match.id, start: match.start, moves, side: match.side, level: match.level, clock: match.clock,
    times: { w: timeLeft('w'), b: timeLeft('b') }, running: match.running, savedAt: Date.now(), end: match.end,
    analysis: match.analysis };
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or refused (a private window): the game goes on, a reload will not find it
  }
}

// The game kept in this browser, or null; its running clock has lost the time since it was kept.
export function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (!kept || typeof kept.id !== 'string' || !Array.isArray(kept.moves)) return null;
    if (kept.running) kept.times[kept.running] -= Math.max(0, Date.now() - kept.savedAt);
    return kept;
  } catch {
    return null;
  }
}

// Makes the kept game `kept` (stored()'s) the one played; its clock runs on from now.
export function resume(kept) {
  Object.assign(match, { id: kept.id, on: true, start: kept.start, moves: kept.moves, ply: kept.moves.length, side: kept.side,
    level: kept.level, clock: kept.clock, times: kept.times, running: kept.running, since: performance.now(),
    end: kept.end, offered: false, analysis: kept.analysis ?? null });
}

// A new game: `start` FEN, the person on `side`, at `level`, on `clock` (or null).
export function begin({ id = newId(), start, side, level, clock }) {
  Object.assign(match, { id, on: true, start: normalFen(start), moves: [], ply: 0, side, level, clock,
    times: { w: clock?.base ?? 0, b: clock?.base ?? 0 }, running: null, since: 0, end: null, offered: false, analysis: null });
}
