// The course of a game against the AI: the person's moves, the AI's, the end by the rules or by a button,
// take-back, draw offers; each change kept (play/match.js) before it is shown. `show` draws the game
// (modes/play.js gives it); nothing here touches the page but through it and the panel's message.
import { get } from '../api.js';
import { automaticEnd, claimableDraw, inTableRange, playUci } from '../rules.js';
import { $, turnOf } from '../state.js';
import { fail, ground, showVerdict } from '../views.js';
import { describeEnd } from './ending.js';
import { aiSide, atEnd, fenAt, fensOfGame, lastFen, match, over, save, toMove } from './match.js';
import { clockAfterMove, clockBefore, startClock, stopClock } from './clock.js';
import { askAgainIn, askMove, describeReply, isThinking, isWaiting, stopThinking } from './ai.js';
import { aiName, setMessage } from './panel.js';
import { playSound } from './sound.js';

let show = () => {};
let viewOnly = () => false;

// `draw()` shows the game; `readOnly()` says whether this tab only shows it (another tab plays it).
export function drawWith(draw, readOnly) {
  show = draw;
  viewOnly = readOnly;
}

export const mayMove = () => match.on && !over() && atEnd() && toMove() === match.side && !isThinking() && !viewOnly();

// The person's move `uci` (legal: chessops checked it).
export function playYours(uci) {
  if (!mayMove()) return show();
  const before = lastFen();
  const move = playUci(before, uci);
  if (!move) return show();
  const clock = clockAfterMove(match.side);
  match.moves.push({ ...move, by: 'you', clock });
  match.ply = match.moves.length;
  match.offered = false;
  $('#play-verdict').textContent = '';
  if (inTableRange(before)) judge(match.moves.length - 1, true);
  playSound(move.capture ? 'capture' : 'move');
  afterMove();
}

// After either side's move: the game's end by the rules, else the other clock runs and, on the AI's
// turn, it is asked for its move.
function afterMove() {
  setMessage(''); // a message about the last thing done gives way to the move
  const code = automaticEnd(fensOfGame());
  if (code) return finish(code);
  startClock();
  save();
  show();
  continueGame();
}

// The game ends: `code` is play/ending.js's.
export function finish(code) {
  ground.cancelPremove();
  stopThinking();
  stopClock();
  match.end = describeEnd(code, match.side, lastFen());
  match.ply = match.moves.length;
  save();
  playSound('end');
  show();
  gradeByTables();
}

// The AI moves whenever the game is on and it is its turn (after the person's move, a take-back, a link,
// a reload).
export function continueGame() {
  if (!match.on || over() || isThinking() || isWaiting() || viewOnly() || toMove() !== aiSide()) return;
  askTheAi();
}

async function askTheAi() {
  $('#play-retry').hidden = true;
  const line = $('#play-engine');
  const plies = match.moves.length;
  let answer;
  const asking = askMove();
  line.textContent = `The ${aiName()} is thinking…`;
  line.className = 'engine thinking';
  show();
  try {
    answer = await asking;
  } catch (error) {
    line.className = 'engine';
    if (error.status === 503 || error.status === 429) {
      line.textContent = `The server is busy (${error.message}): asking again in ${error.retryAfter} s.`;
      askAgainIn(error.retryAfter, continueGame);
    } else {
      line.textContent = '';
      $('#play-retry').hidden = false;
      fail(`The AI's move did not come: ${error.message}`);
    }
    return show();
  }
  if (!answer || match.moves.length !== plies || over()) return; // taken back, ended or another game meanwhile
  const before = lastFen();
  const move = playUci(before, answer.uci);
  line.className = 'engine';
  if (!move) {
    $('#play-retry').hidden = false;
    fail(`The server answered ${answer.uci}, which is no legal move here.`);
    return show();
  }
  const following = atEnd();
  const clock = clockAfterMove(aiSide());
  match.moves.push({ ...move, by: 'ai', clock, engine: answer });
  if (following) match.ply = match.moves.length;
  line.textContent = describeReply(move.san, answer);
  line.className = `engine ${answer.source}`;
  if (inTableRange(before)) judge(match.moves.length - 1, false);
  playSound(move.capture ? 'capture' : 'move');
  afterMove();
}

// The tablebase's verdict on move `index` (from a position it holds), kept on the move; the person's
// shown in the verdict bar as practice shows it.
async function judge(index, shown) {
  const move = match.moves[index];
  try {
    const verdict = await get('/api/verdict', { fen: fenAt(index), move: move.uci }, { cached: true });
    if (match.moves[index] !== move) return;
    Object.assign(move, { verdict: verdict.verdict, mistake: verdict.mistake, grade: verdict.grade, comment: verdict.comment });
    if (shown) showVerdict($('#play-verdict'), verdict);
    save();
    show();
  } catch {
    // a table not computed: the move stays unjudged
  }
}

// After the game: every move a table can judge, judged.
function gradeByTables() {
  match.moves.forEach((move, i) => {
    if (!move.grade && inTableRange(fenAt(i))) judge(i, false);
  });
}

// Your last move and the AI's reply (or, while it thinks, your move alone) go; the clocks go back too.
export function takeBack() {
  if (!match.on || over() || viewOnly()) return;
  stopThinking();
  ground.cancelPremove();
  let ply = match.moves.length;
  while (ply > 0 && match.moves[ply - 1].by !== 'you') ply--;
  if (ply === 0) return;
  ply--;
  match.moves.length = ply;
  match.ply = ply;
  const turnAt = (i) => turnOf(fenAt(i));
  for (const side of ['w', 'b']) match.times[side] = clockBefore(ply, side, turnAt);
  match.offered = false;
  setMessage('Taken back: your move again.');
  $('#play-verdict').textContent = '';
  $('#play-engine').textContent = '';
  $('#play-retry').hidden = true;
  startClock();
  save();
  show();
  continueGame();
}

// The AI takes a draw when its last evaluation says it is worse (half a pawn or more, or being mated),
// or when the tablebase says the position is drawn or lost for it.
export async function offerDraw() {
  if (!match.on || over() || viewOnly()) return;
  match.offered = true;
  const last = [...match.moves].reverse().find((m) => m.by === 'ai')?.engine;
  let accepts = last?.score ? ('mate' in last.score ? last.score.mate < 0 : last.score.cp <= -50) : false;
  const fen = lastFen();
  if (inTableRange(fen)) {
    try {
      const answer = await get('/standard', { fen }, { cached: true });
      const forAi = turnOf(fen) === aiSide() ? answer.category : { win: 'loss', loss: 'win', draw: 'draw' }[answer.category];
      accepts = forAi !== 'win';
    } catch {
      // no table: the evaluation decides
    }
  }
  if (over() || lastFen() !== fen) return;
  if (accepts) return finish('agreed');
  setMessage('The AI declines your draw offer: it does not think it is worse.');
  show();
}

export function claimDraw() {
  const why = claimableDraw(fensOfGame());
  if (!why || over() || viewOnly()) return show();
  finish(why);
}

// A flag fell: lost on time, or a draw when the other side cannot mate (play/ending.js says which).
export const flagFell = (side) => finish(`time-${side}`);
