// Grading a move as lichess's computer analysis does (lila's modules/tree/src/main/Advice.scala and
// WinPercent.scala; docs/server.md cites them): from the evaluations before and after it, the mover's
// loss of winning chances (2 / (1 + e^(-0.00368208 cp)) - 1, from -1 to +1) of 0.1, 0.2 or 0.3 or more is an
// inaccuracy, a mistake or a blunder; a mate that appears against the mover, or one the mover had and
// lost, is graded by the centipawns on the other side of it. Evaluations are White's view: {cp} or {mate}.

// lila's multiplier (lichess-org/lila pull request 11148), fitted to games' results.
const MULTIPLIER = -0.00368208;
// Winning-chance losses, worst first (lila's winningChanceJudgements).
const LOSSES = [[0.3, 'blunder'], [0.2, 'mistake'], [0.1, 'inaccuracy']];
// lila's cap on centipawns where a mate is shown as a number (the graph's ends).
const CEILING = 1000;

export const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

const clamp = (x, low, high) => Math.max(low, Math.min(high, x));

// From -1 (Black wins) to +1 (White wins): how likely White is to win at `cp` centipawns.
export const winningChances = (cp) => clamp(2 / (1 + Math.exp(MULTIPLIER * cp)) - 1, -1, 1);

// White's winning chances in percent (0-100) of an evaluation, a mate as the ceiling's centipawns.
export function winPercent(score) {
  const cp = 'mate' in score ? Math.sign(score.mate || 1) * CEILING : clamp(score.cp, -CEILING, CEILING);
  return 50 + 50 * winningChances(cp);
}

const forMover = (score, mover) => {
  const sign = mover === 'w' ? 1 : -1;
  return 'mate' in score ? { mate: sign * score.mate } : { cp: sign * score.cp };
};

// The grade ('inaccuracy' | 'mistake' | 'blunder') of a move by `mover` ('w' | 'b') that turned
// evaluation `before` into `after`, and lichess's words for it ("Mistake", "Checkmate is now
// unavoidable", "Lost forced checkmate sequence"); null for a move that is none of them.
export function judge(before, after, mover) {
  if ('cp' in before && 'cp' in after) {
    const change = winningChances(after.cp) - winningChances(before.cp);
    const loss = mover === 'w' ? -change : change;
    const found = LOSSES.find(([threshold]) => loss >= threshold);
    return found ? { grade: found[1], words: WORDS[found[1]] } : null;
  }
  const was = forMover(before, mover);
  const now = forMover(after, mover);
  if ('cp' in was && now.mate < 0) {
    return { grade: was.cp < -999 ? 'inaccuracy' : was.cp < -700 ? 'mistake' : 'blunder', words: 'Checkmate is now unavoidable' };
  }
  if (was.mate > 0 && ('cp' in now || now.mate < 0)) {
    const cp = now.cp ?? 0;
    return { grade: cp > 999 ? 'inaccuracy' : cp > 700 ? 'mistake' : 'blunder', words: 'Lost forced checkmate sequence' };
  }
  return null;
}

// An evaluation as the PGN's [%eval] writes it (White's view): 0.31, -1.20, #3, #-2.
export const pgnEval = (score) => ('mate' in score ? `#${score.mate}` : (score.cp / 100).toFixed(2));

// An evaluation as the page shows it: +0.31, −1.20, #3, #−2.
export const shownEval = (score) => ('mate' in score ? `#${score.mate < 0 ? '−' : ''}${Math.abs(score.mate)}`
  : `${score.cp >= 0 ? '+' : '−'}${Math.abs(score.cp / 100).toFixed(2)}`);
