// The AI's side of the game: its move asked of the server (POST /api/move with the whole game, the level
// and the clocks as they stand), one request at a time, aborted when the game changes under it; and its
// reply said in words.
import { post } from '../api.js';
import { aiSide, match, timeLeft } from './match.js';

const NAMES = { w: 'White', b: 'Black' };
let thinking = null; // the AbortController of the request in flight
let retry = null; // the timer of a request asked again after the server's "busy"

export const isThinking = () => thinking !== null;
export const isWaiting = () => retry !== null;

// The AI's move for the game as it stands: the server's answer ({uci, san, score, depth, source, ...}),
// or null when the request was stopped meanwhile (`stopThinking`). Errors are the server's (ApiError,
// with `status` and `retryAfter`).
export async function askMove() {
  stopThinking();
  const controller = new AbortController();
  thinking = controller;
  const body = { fen: match.start, moves: match.moves.map((m) => m.uci), level: match.level };
  if (match.clock) {
    Object.assign(body, { wtime: Math.max(1, Math.round(timeLeft('w'))), btime: Math.max(1, Math.round(timeLeft('b'))),
      winc: match.clock.increment, binc: match.clock.increment });
  }
  try {
    const answer = await post('/api/move', body, { signal: controller.signal });
    return thinking === controller ? answer : null;
  } catch (error) {
    if (thinking !== controller || error.name === 'AbortError') return null;
    throw error;
  } finally {
    if (thinking === controller) thinking = null;
  }
}

// Calls `again()` after `seconds` (the server's Retry-After), unless the game changes first.
export function askAgainIn(seconds, again) {
  clearTimeout(retry);
  retry = setTimeout(() => {
    retry = null;
    again();
  }, seconds * 1000);
}

export function stopThinking() {
  thinking?.abort();
  thinking = null;
  clearTimeout(retry);
  retry = null;
}

// The AI's evaluation in `answer` from White's side, as lichess shows evaluations ({cp} or {mate}), or
// null (a book move).
export function whiteScore(answer) {
  if (!answer?.score) return null;
  const sign = aiSide() === 'w' ? 1 : -1;
  return 'mate' in answer.score ? { mate: sign * answer.score.mate } : { cp: sign * answer.score.cp };
}

// "The AI played Nf6 — search, depth 7, evaluation +0.31 (White's view)".
export function describeReply(san, answer) {
  const score = whiteScore(answer);
  let how;
  if (answer.source === 'book') how = 'opening book';
  else if (score && 'mate' in score) how = `${answer.source}, depth ${answer.depth}, ${score.mate > 0 ? 'White' : 'Black'} mates in ${Math.abs(score.mate)}`;
  else if (score) how = `${answer.source}, depth ${answer.depth}, evaluation ${pawns(score.cp)} (White's view)`;
  else how = answer.source;
  return `The AI played ${san} — ${how}.`;
}

// +0.31, −1.20: centipawns as pawns, signed.
export const pawns = (cp) => `${cp >= 0 ? '+' : '−'}${Math.abs(cp / 100).toFixed(2)}`;

export const sideName = (side) => NAMES[side];
