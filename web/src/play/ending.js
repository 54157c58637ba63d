// Every way a game against the AI ends, described once: the words the page shows when it happens and
// after a reload, the PGN's result and termination. A game keeps only its end's code; the rest is read
// from here, so that a reloaded game says exactly what the live one said.
import { canMate } from '../rules.js';
import { turnOf } from '../state.js';

const NAMES = { w: 'White', b: 'Black' };
const other = (side) => (side === 'w' ? 'b' : 'w');

// code -> [result for the person ('win' | 'draw' | 'loss' | 'aborted'), words]; the checkmate and the flag
// depend on the position and are made below.
const FIXED = {
  stalemate: ['draw', 'Draw: stalemate'],
  insufficient: ['draw', 'Draw: no mating material left'],
  fivefold: ['draw', 'Draw by fivefold repetition'],
  seventyfive: ['draw', 'Draw by the seventy-five-move rule'],
  repetition: ['draw', 'Draw by repetition'],
  fifty: ['draw', 'Draw by the fifty-move rule'],
  agreed: ['draw', 'Draw by agreement: the AI accepted your offer'],
  resign: ['loss', 'You lost: you resigned'],
  abort: ['aborted', 'Game aborted: no result'],
};
const CODES = new Set([...Object.keys(FIXED), 'checkmate', 'time-w', 'time-b']);

export const isEndCode = (code) => CODES.has(code);

// The end `code` of a game the person plays as `you`, whose last position is `fen`: {code, result (PGN's
// 1-0, 0-1, 1/2-1/2, or * when aborted), kind (win, draw, loss, aborted: for the person), text, termination
// (PGN's: normal, time forfeit, abandoned)}; null for a code that is none.
export function describeEnd(code, you, fen) {
  if (!isEndCode(code)) return null;
  if (code === 'checkmate') return decided(code, other(turnOf(fen)), you, `${other(turnOf(fen)) === you ? 'You won' : 'You lost'}: checkmate`);
  if (code.startsWith('time-')) {
    const flagged = code.slice(5);
    const who = flagged === you ? 'you ran out of time' : 'the AI ran out of time';
    if (!canMate(fen, other(flagged))) {
      return { code, result: '1/2-1/2', kind: 'draw', text: `Draw: ${who}, but ${NAMES[other(flagged)]} cannot mate`,
        termination: 'time forfeit' };
    }
    return { ...decided(code, other(flagged), you, flagged === you ? 'You lost on time' : 'You won on time'), termination: 'time forfeit' };
  }
  const [kind, text] = FIXED[code];
  if (kind === 'loss') return decided(code, other(you), you, text);
  if (kind === 'aborted') return { code, result: '*', kind, text, termination: 'abandoned' };
  return { code, result: '1/2-1/2', kind, text, termination: 'normal' };
}

function decided(code, winner, you, text) {
  return { code, result: winner === 'w' ? '1-0' : '0-1', kind: winner === you ? 'win' : 'loss', text, termination: 'normal' };
}
