// The game against the AI in the URL and back: mode=play&game=&fen=&moves=&side=&level=&clock=&clocks=&end=.
// A link never changes the game kept in this browser: a link naming it resumes the kept game (its
// clocks as they really ran); another game's link opens only when no game is going on here.
import { parseClock } from '../gamerecord.js';
import { automaticEnd, normalFen, playUci, START_FEN } from '../rules.js';
import { turnOf } from '../state.js';
import { fail } from '../views.js';
import { begin, fenAt, lastFen, match, newId, resume, stored } from './match.js';
import { clockBefore } from './clock.js';
import { describeEnd, isEndCode } from './ending.js';

const fensOfGame = () => [normalFen(match.start), ...match.moves.map((m) => m.fen)];

// The URL of the game shown (of the setup, when `setup`).
export function gameParams(setup) {
  const params = new URLSearchParams({ mode: 'play' });
  if (setup || !match.on) {
    params.set('setup', '1');
    return params;
  }
  params.set('game', match.id);
  params.set('fen', match.start);
  if (match.moves.length) params.set('moves', match.moves.map((m) => m.uci).join(','));
  params.set('side', match.side);
  params.set('level', match.level);
  params.set('clock', match.clock ? match.clock.text : 'none');
  if (match.clock && match.moves.length) params.set('clocks', match.moves.map((m) => Math.round((m.clock ?? 0) / 100)).join(','));
  if (match.end && !automaticEnd(fensOfGame())) params.set('end', match.end.code);
  return params;
}

// Makes the link's game (or the kept one) the game shown; false when the link opens the setup.
export function readLink(params) {
  const kept = stored();
  const going = kept && !kept.end;
  if (kept && (params.get('game') === kept.id || (going && !params.get('side')))) {
    resume(kept);
  } else if (going && params.get('side')) {
    resume(kept);
    fail('The link\'s game was not opened: your game in progress is shown. Finish or resign it first.');
  } else if (params.get('side')) {
    readLinkedGame(params);
  } else {
    return false;
  }
  return true;
}

// A link's game: its moves replayed by the rules (the first illegal one and those after it left out),
// its clocks as after each move (full without `clocks=`), from the start position without `fen=`, its end
// if it had one the moves do not show (a resignation, a flag, a claim, an agreement).
function readLinkedGame(params) {
  let start;
  try {
    start = normalFen((params.get('fen') || START_FEN).replaceAll('_', ' '));
  } catch (error) {
    fail(`The link's position cannot be played: ${error.message}`);
    start = START_FEN;
  }
  begin({ id: params.get('game') || newId(), start, side: params.get('side') === 'b' ? 'b' : 'w',
    level: Math.min(8, Math.max(1, Number(params.get('level')) || 1)), clock: parseClock(params.get('clock')) });
  const tenths = params.get('clocks') ? params.get('clocks').split(',').map((t) => (t === '' ? NaN : Number(t))) : [];
  for (const uci of (params.get('moves') || '').split(',').filter(Boolean)) {
    const move = playUci(lastFen(), uci);
    if (!move) {
      fail(`The link's move ${uci} could not be played (it and the moves after it are left out): it is not legal here.`);
      break;
    }
    const tenth = tenths[match.moves.length];
    const clock = match.clock && Number.isFinite(tenth) && tenth >= 0 ? tenth * 100 : undefined;
    match.moves.push({ ...move, by: turnOf(lastFen()) === match.side ? 'you' : 'ai', clock });
  }
  match.ply = match.moves.length;
  for (const side of ['w', 'b']) match.times[side] = clockBefore(match.moves.length, side, (i) => turnOf(fenAt(i)));
  const code = automaticEnd(fensOfGame()) || (isEndCode(params.get('end')) ? params.get('end') : null);
  if (code) match.end = describeEnd(code, match.side, lastFen());
}
