// Plain words for the tablebase's numbers, and the game's PGN.

const plies = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;

// A move of the /standard answer, for the side that plays it: its values are those of the position
// after it, from the opponent's view, so a move whose category is "loss" wins.
export function moveOutcome(move) {
  if (move.category === 'draw') {
    const why = move.stalemate ? ' (stalemate)' : move.insufficient_material ? ' (no mating material)' : '';
    return { result: 'draw', label: 'Draw', distance: why.trim().replace(/[()]/g, '') || '—' };
  }
  const count = move.checkmate ? 1 : Math.abs(move.dtm) + 1;
  const moves = Math.ceil(count / 2);
  if (move.category === 'loss') {
    return { result: 'win', label: 'Win', distance: move.checkmate ? 'checkmate' : `mates in ${moves} (${plies(count)})` };
  }
  return { result: 'loss', label: 'Loss', distance: `mated in ${moves} (${plies(count)})` };
}

// [1, 3, 5, 9] -> "1–5, 9" (distances of one kind go in steps of two plies).
export function ranges(numbers) {
  const parts = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 2) j++;
    parts.push(j > i ? `${numbers[i]}–${numbers[j]}` : `${numbers[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

export function distancesText(answer) {
  const side = answer.side === 'w' ? 'White' : 'Black';
  const wins = answer.win.map((d) => d.plies);
  const losses = answer.loss.map((d) => d.plies);
  const win = wins.length ? `mates in ${ranges(wins)} plies` : 'never mates';
  const loss = losses.length ? `is mated in ${ranges(losses)} plies` : 'is never mated';
  return `In ${answer.material} with ${side} to move, ${side} ${win}; ${side} ${loss}.`;
}

// The game as PGN, each move with its comment (its verdict and who mates in how many plies after it);
// `result` is PGN's: 1-0, 0-1, 1/2-1/2 or * (the game goes on).
export function pgn(startFen, moves, result, { white, black }) {
  const [, turn, , , , fullmove] = startFen.split(' ');
  const date = new Date().toISOString().slice(0, 10).replaceAll('-', '.');
  const headers = [
    ['Event', 'Endgame practice'], ['Site', 'python -m Util serve'], ['Date', date],
    ['White', white], ['Black', black], ['Result', result], ['SetUp', '1'], ['FEN', startFen],
  ];
  let number = Number(fullmove) || 1;
  let whiteToMove = turn !== 'b';
  const text = [];
  moves.forEach((move, i) => {
    if (whiteToMove) text.push(`${number}.`);
    else if (i === 0) text.push(`${number}...`);
    text.push(move.san);
    if (move.comment) text.push(`{${move.comment.replaceAll('}', ')')}}`);
    if (!whiteToMove) number++;
    whiteToMove = !whiteToMove;
  });
  text.push(result);
  return `${headers.map(([k, v]) => `[${k} "${v.replaceAll('"', "'")}"]`).join('\n')}\n\n${text.join(' ')}\n`;
}
