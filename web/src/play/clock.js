// The game's clocks, run in the page: the side to move's clock runs from the game's first move on (as on
// lichess, nobody's time runs before a move is made), a move adds the increment, and a clock at zero
// calls `onFlag(side)`. The time left after each move is kept on the move (the PGN's [%clk] and what a
// take-back restores).
import { match, over, timeLeft, toMove } from './match.js';

const TICK_MS = 100;
let ticker = null;
let onFlag = () => {};
let onTick = () => {};

// `flag(side)` when a clock reaches zero; `tick()` every tenth of a second while one runs.
export function watchClocks(flag, tick) {
  onFlag = flag;
  onTick = tick;
}

// The clock of the side to move runs, if the game has a clock, is on and has begun.
export function startClock() {
  stopClock();
  if (!match.clock || over() || !match.on || match.moves.length === 0) return;
  match.running = toMove();
  match.since = performance.now();
  ticker = setInterval(tick, TICK_MS);
  tick();
}

export function stopClock() {
  if (match.running) match.times[match.running] = timeLeft(match.running);
  match.running = null;
  clearInterval(ticker);
  ticker = null;
}

function tick() {
  if (match.running && timeLeft(match.running) <= 0) {
    const side = match.running;
    stopClock();
    match.times[side] = 0;
    onFlag(side);
    return;
  }
  onTick();
}

// The mover's clock after a move: what was left, plus the increment (none for the game's first move,
// which no clock timed); undefined without a clock.
export function clockAfterMove(side) {
  if (!match.clock) return undefined;
  const first = match.moves.length === 0;
  match.times[side] = Math.max(0, timeLeft(side)) + (first ? 0 : match.clock.increment);
  return match.times[side];
}

// What `side` had on its clock with `ply` moves played: after its last move by then, else the start.
export function clockBefore(ply, side, turnAt) {
  for (let i = ply - 1; i >= 0; i--) {
    if (turnAt(i) === side && match.moves[i].clock !== undefined) return match.moves[i].clock;
  }
  return match.clock?.base ?? 0;
}
