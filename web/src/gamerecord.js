// A whole game's record: clock times in words and in PGN, time controls, and the game as PGN with its
// headers and each move's clock ([%clk h:mm:ss], as lichess writes it).

const two = (n) => String(n).padStart(2, '0');

// PGN's clock comment for `ms` left: h:mm:ss (whole seconds, rounded down).
export function pgnClock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

// A clock on the screen: m:ss, tenths under ten seconds (0:09.4), h:mm:ss from an hour.
export function shownClock(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const s = Math.floor(left / 1000);
  if (s >= 3600) return pgnClock(left);
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

// "3+2" -> {base: 180000, increment: 2000} (minutes + seconds); "none" or nothing -> null; a clock not
// written so -> null as well (the page offers none other).
export function parseClock(text) {
  const match = /^(\d{1,3})\+(\d{1,3})$/.exec(text || '');
  if (!match || Number(match[1]) === 0) return null;
  return { base: Number(match[1]) * 60_000, increment: Number(match[2]) * 1000, text };
}

// PGN's TimeControl: seconds+increment ("180+2"), "-" without a clock.
export const timeControl = (clock) => (clock ? `${clock.base / 1000}+${clock.increment / 1000}` : '-');

// The game as PGN. `moves`: {san (with a glyph such as ?! after it if graded), clock (ms left after it, or
// undefined), eval (the [%eval] after it: 0.31, #-2, or undefined), comment}; `result`: 1-0, 0-1,
// 1/2-1/2 or *; `termination`: PGN's word for how it ended (normal, time forfeit) or undefined; `ending`:
// how it ended in words ("You lost: you resigned"), a comment after the last move, or undefined.
export function gamePgn({ start, startpos, moves, result, white, black, clock, termination, event, ending }) {
  const [, turn, , , , fullmove] = start.split(' ');
  const date = new Date().toISOString().slice(0, 10).replaceAll('-', '.');
  const headers = [['Event', event], ['Site', 'python -m Util serve'], ['Date', date], ['Round', '-'],
    ['White', white], ['Black', black], ['Result', result], ['TimeControl', timeControl(clock)]];
  if (termination) headers.push(['Termination', termination]);
  if (!startpos) headers.push(['SetUp', '1'], ['FEN', start]);
  let number = Number(fullmove) || 1;
  let whiteToMove = turn !== 'b';
  const text = [];
  moves.forEach((move, i) => {
    if (whiteToMove) text.push(`${number}.`);
    else if (i === 0) text.push(`${number}...`);
    text.push(move.san);
    const notes = [move.eval === undefined ? '' : `[%eval ${move.eval}]`,
      move.clock === undefined ? '' : `[%clk ${pgnClock(move.clock)}]`, move.comment || '']
      .filter(Boolean).join(' ').replaceAll('}', ')');
    if (notes) text.push(`{${notes}}`);
    if (!whiteToMove) number++;
    whiteToMove = !whiteToMove;
  });
  if (ending) text.push(`{${ending.replaceAll('}', ')')}}`);
  text.push(result);
  return `${headers.map(([k, v]) => `[${k} "${String(v).replaceAll('"', "'")}"]`).join('\n')}\n\n${text.join(' ')}\n`;
}
