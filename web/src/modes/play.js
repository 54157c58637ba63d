// Play: a whole game against the engine (POST /api/move) from the start or from the board shown, on a
// side, at a level and on a clock the person chooses. The rules (legal moves, the game's end) are
// chessops's (rules.js); at five pieces or fewer the tablebase takes over visibly and judges the
// person's moves as in practice. The game is in the URL: mode=play&side=&level=&clock=&clocks=&end=.
import { get, post } from '../api.js';
import { destinations } from '../board.js';
import { gamePgn, parseClock, shownClock } from '../gamerecord.js';
import { automaticEnd, canMate, claimableDraw, inTableRange, isCheck, legalUcis, normalFen, playUci, positionOf,
  START_FEN } from '../rules.js';
import { $, colour, fenAt, fenNow, game, register, turnOf, writeUrl } from '../state.js';
import { act, clearNotice, download, fail, ground, noticeShown, promote, renderMoveList, say,
  showVerdict } from '../views.js';

const NAMES = { w: 'White', b: 'Black' };
const other = (side) => (side === 'w' ? 'b' : 'w');
const TICK_MS = 100;

// The game's settings and live parts; `game` (state.js) holds the start, the moves and the side.
const match = {
  on: false, // a game is being played (practice's game.started is practice's own)
  level: 1,
  levels: [], // the server's /api/levels
  clock: null, // {base, increment, text} in ms, or null: no clock
  times: { w: 0, b: 0 }, // ms left, as of `since` for the side whose clock runs
  running: null, // 'w' | 'b' | null
  since: 0,
  end: null, // {result, text, kind, code, termination}
  thinking: null, // the AbortController of the AI's request
  retry: null, // the timer of a retry after 503
  ticker: null,
  offered: false, // a draw offer made in this position
};

const aiSide = () => other(game.side);
const over = () => match.end !== null;
const atEnd = () => game.ply === game.moves.length;
const fensOfGame = () => [normalFen(game.start), ...game.moves.map((m) => m.fen)];
const levelLabel = () => match.levels[match.level - 1]?.label ?? `level ${match.level}`;
const aiName = () => `AI ${levelLabel()}`;

export const play = {
  name: 'play',
  navigable: true,
  enter() {
    $('#play-bar').hidden = false;
    loadLevels();
    if (!match.on) return showSetup();
    show();
    return continueGame();
  },
  leave() {
    $('#play-bar').hidden = true;
    $('#clock-top').hidden = $('#clock-bottom').hidden = true;
    stopThinking();
    stopClock();
    match.on = false;
    match.end = null;
  },
  show: () => (match.on ? show() : showSetup()),
  mayMove: () => match.on && !over() && atEnd() && turnOf(fenNow()) === game.side && !match.thinking,
  onMove,
  goTo(ply) {
    if (!match.on) return;
    game.ply = Math.max(0, Math.min(ply, game.moves.length));
    show();
  },
  urlParams(params) {
    params.set('mode', 'play');
    if (!match.on) return params.set('setup', '1');
    params.set('side', game.side);
    params.set('level', match.level);
    params.set('clock', match.clock ? match.clock.text : 'none');
    if (match.clock && game.moves.length) params.set('clocks', game.moves.map((m) => Math.round(m.clock / 100)).join(','));
    if (match.end && match.end.code) params.set('end', match.end.code);
  },
  readUrl,
};

// ---- setting up ---------------------------------------------------------------------------------------

async function loadLevels() {
  if (match.levels.length) return;
  const select = $('#play-level');
  try {
    match.levels = (await get('/api/levels')).levels;
  } catch {
    match.levels = [1, 2, 3, 4, 5, 6, 7, 8].map((number) => ({ number, label: `level ${number}` }));
  }
  select.replaceChildren(...match.levels.map((l) => new Option(l.label.replace(/^level/, 'Level'), l.number)));
  select.value = match.level;
  if (match.on) renderClocks();
}

// Where a game would start: the start position, or the board shown by the mode the person came from.
const setupFen = () => (document.querySelector('input[name=play-from]:checked').value === 'start' ? START_FEN : fenNow());

// Before a game: the board shows where it would start from, not movable.
function showSetup() {
  $('#clock-top').hidden = $('#clock-bottom').hidden = true;
  $('#play-buttons').hidden = true;
  $('#play-tablebase').hidden = true;
  $('#play-engine').textContent = $('#play-verdict').textContent = '';
  $('#moves').hidden = true;
  $('#new-game').hidden = true;
  ground.set({ fen: setupFen().split(' ')[0], lastMove: undefined, check: false, movable: { color: undefined, dests: new Map() } });
  ground.setAutoShapes([]);
  writeUrl();
  renderMoveList(play.goTo);
  say('Choose your side, the level and the clock, then press “Start the game”.');
}

function chosenSide() {
  const side = document.querySelector('input[name=play-side]:checked').value;
  return side === 'random' ? (Math.random() < 0.5 ? 'w' : 'b') : side;
}

function startGame(start) {
  try {
    start = normalFen(start);
    if (automaticEnd([start])) throw new Error('the game is over in this position: there is no move to make');
    if (!legalUcis(positionOf(start)).length) throw new Error('there is no legal move in this position');
  } catch (error) {
    fail(`No game from here: ${error.message}. Choose “the start position”, or set up another one.`);
    return;
  }
  stopThinking();
  game.start = start;
  game.moves = [];
  game.ply = 0;
  game.side = chosenSide();
  match.on = true;
  game.started = false; // a practice game on the same board is over
  match.level = Number($('#play-level').value) || 1;
  match.clock = parseClock($('#play-clock').value);
  match.times = { w: match.clock?.base ?? 0, b: match.clock?.base ?? 0 };
  match.end = null;
  match.offered = false;
  $('#play-verdict').textContent = '';
  $('#play-verdict').className = 'verdict';
  $('#play-engine').textContent = `You play ${NAMES[game.side]} against the ${aiName()}.`;
  ground.set({ orientation: colour(game.side) });
  startClock();
  show();
  window.scrollTo({ top: 0 }); // on a phone the Start button is below the board: the game is above
  continueGame();
}

// ---- showing ------------------------------------------------------------------------------------------

function show() {
  writeUrl();
  renderMoveList(play.goTo);
  const fen = fenNow();
  const last = game.ply > 0 ? game.moves[game.ply - 1].uci : null;
  const turn = turnOf(fen);
  const movable = play.mayMove();
  ground.set({
    fen: fen.split(' ')[0],
    turnColor: colour(turn),
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    check: isCheck(fen) ? colour(turn) : false,
    movable: { free: false, color: movable ? colour(turn) : undefined, dests: movable ? destinations(legalUcis(positionOf(fen))) : new Map() },
  });
  ground.setAutoShapes([]);
  $('#moves').hidden = true;
  $('#new-game').hidden = true;
  $('#clock-top').hidden = $('#clock-bottom').hidden = false;
  $('#play-buttons').hidden = false;
  renderClocks();
  renderButtons();
  if (noticeShown()) say(noticeShown(), 'error');
  else if (over()) say(match.end.text, match.end.kind);
  else if (!atEnd()) say(`Move ${game.ply} of ${game.moves.length}: press Forward ▶ (or the last move) to play on.`);
  else if (match.thinking) say(`The ${aiName()} is thinking…`);
  else if (turn === game.side) say(`Your move (${NAMES[game.side]}).${isCheck(fen) ? ' Check!' : ''}`);
  else say(`The ${aiName()} is to move.`);
  showTablebase(fen);
}

function renderButtons() {
  const on = match.on && !over();
  $('#play-takeback').disabled = !on || !game.moves.some((m) => m.by === 'you');
  $('#play-resign').disabled = !on;
  $('#play-offer').disabled = !on || match.offered || !atEnd();
  const claim = on && atEnd() && turnOf(fenNow()) === game.side ? claimableDraw(fensOfGame()) : null;
  $('#play-claim').hidden = !claim;
  $('#play-claim').dataset.why = claim || '';
  $('#play-claim').textContent = claim === 'fifty' ? 'Claim a draw (fifty moves)' : 'Claim a draw (repetition)';
  $('#play-new').hidden = !over();
}

// Each clock where the person sees it: the AI's above the board, the person's below (as on lichess).
function renderClocks() {
  const you = game.side;
  for (const [id, side, name] of [['#clock-top', aiSide(), aiName()], ['#clock-bottom', you, 'You']]) {
    const box = $(id);
    box.querySelector('.name').textContent = `${name} (${NAMES[side]})`;
    box.querySelector('.time').textContent = match.clock ? shownClock(timeLeft(side)) : '–';
    box.dataset.side = side;
    box.classList.toggle('running', match.running === side);
    box.classList.toggle('low', match.clock !== null && timeLeft(side) < 10_000);
  }
}

// "tablebase: White mates in 12 (23 plies)" at five pieces or fewer, in practice's words.
let tablebaseFen = null;

async function showTablebase(fen) {
  const line = $('#play-tablebase');
  if (!inTableRange(fen)) {
    line.hidden = true;
    tablebaseFen = null;
    return;
  }
  if (tablebaseFen === fen && !line.hidden) return;
  tablebaseFen = fen;
  try {
    const answer = await get('/api/position', { fen }, { cached: true });
    if (fenNow() !== fen) return;
    line.textContent = `tablebase: ${answer.status.replace(/^(White|Black) to move\. /, '')}`;
    line.className = `tablebase status ${answer.category}`;
  } catch (error) {
    line.textContent = `tablebase: no answer here (${error.message})`;
    line.className = 'tablebase status';
  }
  line.hidden = false;
}

// ---- clocks -------------------------------------------------------------------------------------------

function timeLeft(side) {
  const left = match.times[side];
  return match.running === side ? left - (performance.now() - match.since) : left;
}

// The clock of the side to move runs (if the game has a clock and is on).
function startClock() {
  stopClock();
  if (!match.clock || over() || !match.on) return;
  match.running = turnOf(fenAt(game.moves.length));
  match.since = performance.now();
  match.ticker = setInterval(tick, TICK_MS);
}

function stopClock() {
  if (match.running) match.times[match.running] = timeLeft(match.running);
  match.running = null;
  clearInterval(match.ticker);
  match.ticker = null;
}

function tick() {
  if (match.running && timeLeft(match.running) <= 0) return flagFell(match.running);
  renderClocks();
}

// The mover's clock after a move: what was left, plus the increment.
function clockAfterMove(side) {
  if (!match.clock) return undefined;
  const left = Math.max(0, timeLeft(side));
  match.times[side] = left + match.clock.increment;
  return match.times[side];
}

function flagFell(side) {
  stopThinking();
  stopClock();
  match.times[side] = 0;
  const fen = fenAt(game.moves.length);
  if (!canMate(fen, other(side))) {
    const who = side === game.side ? 'You ran out of time' : 'The AI ran out of time';
    return finish({ result: '1/2-1/2', text: `Draw: ${who}, but ${NAMES[other(side)]} cannot mate`, kind: 'draw',
      code: `time-${side}`, termination: 'time forfeit' });
  }
  const won = side !== game.side;
  finish({ result: side === 'w' ? '0-1' : '1-0', text: won ? 'You won on time' : 'You lost on time',
    kind: won ? 'win' : 'loss', code: `time-${side}`, termination: 'time forfeit' });
}

// ---- moves --------------------------------------------------------------------------------------------

function onMove(orig, dest) {
  clearNotice();
  if (!play.mayMove()) return show();
  const ucis = legalUcis(positionOf(fenNow())).filter((uci) => uci.startsWith(orig + dest));
  if (ucis.length === 1) return playYours(ucis[0]);
  if (ucis.length > 1) return promote(orig + dest, playYours);
  show();
}

function playYours(uci) {
  if (!play.mayMove()) return show();
  const fen = fenNow();
  const move = playUci(fen, uci);
  if (!move) return show();
  const clock = clockAfterMove(game.side);
  game.moves.push({ ...move, by: 'you', clock });
  game.ply = game.moves.length;
  match.offered = false;
  if (inTableRange(fen)) judge(game.moves.length - 1, true);
  afterMove();
}

// After either side's move: the game's end by the rules, else the other clock runs and, on the AI's
// turn, it is asked for its move.
function afterMove() {
  const ended = automaticEnd(fensOfGame());
  if (ended) return finish(endOfRules(ended));
  startClock();
  show();
  continueGame();
}

function endOfRules({ result, why }) {
  if (result === '1/2-1/2') {
    const text = why === 'stalemate' ? 'Draw: stalemate' : why === 'insufficient material' ? 'Draw: no mating material left'
      : `Draw by ${why}`;
    return { result, text, kind: 'draw', termination: 'normal' };
  }
  const won = (result === '1-0') === (game.side === 'w');
  return { result, text: `${won ? 'You won' : 'You lost'}: ${why}`, kind: won ? 'win' : 'loss', termination: 'normal' };
}

function finish(end) {
  stopThinking();
  stopClock();
  if ($('#play-verdict').textContent.startsWith('The AI declines')) $('#play-verdict').textContent = '';
  match.end = end;
  game.ply = game.moves.length;
  show();
  gradeAll();
}

// The AI moves whenever the game's end is shown, the game is on and it is the AI's turn (after the
// person's move, a take-back, a link).
function continueGame() {
  if (!match.on || over() || !atEnd() || match.thinking || match.retry) return;
  if (turnOf(fenNow()) !== aiSide()) return;
  askTheAi();
}

async function askTheAi() {
  clearTimeout(match.retry);
  match.retry = null;
  $('#play-retry').hidden = true;
  const controller = new AbortController();
  match.thinking = controller;
  $('#play-engine').textContent = `The ${aiName()} is thinking…`;
  $('#play-engine').className = 'engine thinking';
  show();
  const body = { fen: game.start, moves: game.moves.map((m) => m.uci), level: match.level };
  if (match.clock) {
    Object.assign(body, { wtime: Math.max(1, Math.round(timeLeft('w'))), btime: Math.max(1, Math.round(timeLeft('b'))),
      winc: match.clock.increment, binc: match.clock.increment });
  }
  const plies = game.moves.length;
  let answer;
  try {
    answer = await post('/api/move', body, { signal: controller.signal });
  } catch (error) {
    if (match.thinking !== controller) return; // taken back, resigned, flagged or a new game meanwhile
    match.thinking = null;
    $('#play-engine').className = 'engine';
    if (error.status === 503) {
      $('#play-engine').textContent = `The server is busy (${error.message}): asking again in ${error.retryAfter} s.`;
      match.retry = setTimeout(() => {
        match.retry = null;
        continueGame();
      }, error.retryAfter * 1000);
      return show();
    }
    $('#play-retry').hidden = false;
    $('#play-engine').textContent = '';
    fail(`The AI's move did not come: ${error.message}`);
    return show();
  }
  if (match.thinking !== controller || game.moves.length !== plies) return;
  match.thinking = null;
  const move = playUci(fenNow(), answer.uci);
  if (!move) {
    $('#play-retry').hidden = false;
    fail(`The server answered ${answer.uci}, which is no legal move here.`);
    return show();
  }
  const fen = fenNow();
  const clock = clockAfterMove(aiSide());
  game.moves.push({ ...move, by: 'ai', clock, engine: answer });
  game.ply = game.moves.length;
  $('#play-engine').textContent = describeReply(move.san, answer);
  $('#play-engine').className = `engine ${answer.source}`;
  if (inTableRange(fen)) judge(game.moves.length - 1, false);
  afterMove();
}

// "The AI played Nf6 — search, depth 7, evaluation +0.31 (White's view)": `score` is from the side to
// move (the AI), shown from White's side as lichess shows evaluations.
function describeReply(san, answer) {
  const sign = aiSide() === 'w' ? 1 : -1;
  let how;
  if (answer.source === 'book') how = 'opening book';
  else if (answer.score && 'mate' in answer.score) {
    const n = answer.score.mate;
    const mater = n > 0 ? NAMES[aiSide()] : NAMES[game.side];
    how = `${answer.source}, depth ${answer.depth}, ${mater} mates in ${Math.abs(n)}`;
  } else if (answer.score) {
    const pawns = (sign * answer.score.cp) / 100;
    how = `${answer.source}, depth ${answer.depth}, evaluation ${pawns >= 0 ? '+' : '−'}${Math.abs(pawns).toFixed(2)} (White's view)`;
  } else how = answer.source;
  return `The AI played ${san} — ${how}.`;
}

function stopThinking() {
  if (match.thinking) match.thinking.abort();
  match.thinking = null;
  clearTimeout(match.retry);
  match.retry = null;
}

// The tablebase's verdict on move `index` (from a position it holds), kept on the move; the person's
// shown in the verdict bar as practice shows it.
async function judge(index, shown) {
  const move = game.moves[index];
  try {
    const verdict = await get('/api/verdict', { fen: fenAt(index), move: move.uci }, { cached: true });
    if (game.moves[index] !== move) return;
    Object.assign(move, { verdict: verdict.verdict, mistake: verdict.mistake, grade: verdict.grade, comment: verdict.comment });
    if (shown) showVerdict($('#play-verdict'), verdict);
    renderMoveList(play.goTo);
  } catch {
    // a table not computed: the move stays unjudged
  }
}

// After the game: every move a table can judge, judged.
function gradeAll() {
  game.moves.forEach((move, i) => {
    if (!move.grade && inTableRange(fenAt(i))) judge(i, false);
  });
}

// ---- the person's buttons -----------------------------------------------------------------------------

// Your last move and the AI's reply (or, while it thinks, your move alone) go; the clocks go back too.
function takeBack() {
  if (!match.on || over()) return;
  stopThinking();
  let ply = game.moves.length;
  while (ply > 0 && game.moves[ply - 1].by !== 'you') ply--;
  if (ply === 0) return;
  ply--;
  game.moves.length = ply;
  game.ply = ply;
  for (const side of ['w', 'b']) match.times[side] = clockBefore(ply, side);
  match.offered = false;
  $('#play-verdict').textContent = 'Taken back: your move again.';
  $('#play-verdict').className = 'verdict';
  $('#play-engine').textContent = '';
  $('#play-retry').hidden = true;
  startClock();
  show();
  continueGame();
}

// What `side` had on its clock with `ply` moves played: after its last move by then, else the start.
function clockBefore(ply, side) {
  for (let i = ply - 1; i >= 0; i--) {
    if (turnOf(fenAt(i)) === side && game.moves[i].clock !== undefined) return game.moves[i].clock;
  }
  return match.clock?.base ?? 0;
}

function resign() {
  if (!match.on || over()) return;
  finish({ result: game.side === 'w' ? '0-1' : '1-0', text: 'You lost: you resigned', kind: 'loss', code: 'resign',
    termination: 'normal' });
}

// The AI takes a draw when its last evaluation says it is worse (half a pawn or more, or being mated),
// or when the tablebase says the position is drawn or lost for it.
async function offerDraw() {
  if (!match.on || over()) return;
  match.offered = true;
  const last = [...game.moves].reverse().find((m) => m.by === 'ai')?.engine;
  let accepts = last?.score ? ('mate' in last.score ? last.score.mate < 0 : last.score.cp <= -50) : false;
  const fen = fenNow();
  if (inTableRange(fen)) {
    try {
      const answer = await get('/standard', { fen }, { cached: true });
      const forAi = turnOf(fen) === aiSide() ? answer.category : { win: 'loss', loss: 'win', draw: 'draw' }[answer.category];
      accepts = forAi !== 'win';
    } catch {
      // no table: the evaluation decides
    }
  }
  if (accepts) {
    return finish({ result: '1/2-1/2', text: 'Draw by agreement: the AI accepted your offer', kind: 'draw', code: 'agreed',
      termination: 'normal' });
  }
  $('#play-verdict').textContent = 'The AI declines your draw offer: it does not think it is worse.';
  $('#play-verdict').className = 'verdict';
  show();
}

function claimDraw() {
  const why = claimableDraw(fensOfGame());
  if (!why || over()) return show();
  finish({ result: '1/2-1/2', text: why === 'fifty' ? 'Draw by the fifty-move rule' : 'Draw by repetition', kind: 'draw',
    code: why, termination: 'normal' });
}

function downloadPgn() {
  const you = 'You';
  const ai = `AI ${levelLabel()}`;
  const text = gamePgn({
    start: game.start, startpos: game.start === START_FEN, moves: game.moves, result: match.end?.result ?? '*',
    white: game.side === 'w' ? you : ai, black: game.side === 'w' ? ai : you, clock: match.clock,
    termination: match.end?.termination, event: 'Game against the AI', ending: match.end?.text,
  });
  download(text, 'game.pgn');
}

// ---- the URL ------------------------------------------------------------------------------------------

// A link's game: its moves replayed by the rules (the first illegal one and those after it left out),
// its clocks as they were after each move, its end if it had one the moves do not show (a resignation,
// a flag, a claim, an agreement).
async function readUrl(params) {
  if (params.get('setup') || !params.get('side')) return;
  try {
    game.start = normalFen(game.start);
  } catch (error) {
    fail(`The link's position cannot be played: ${error.message}`);
    return;
  }
  match.on = true;
  game.side = params.get('side') === 'b' ? 'b' : 'w';
  match.level = Math.min(8, Math.max(1, Number(params.get('level')) || 1));
  match.clock = parseClock(params.get('clock'));
  const tenths = (params.get('clocks') || '').split(',').map(Number);
  for (const uci of (params.get('moves') || '').split(',').filter(Boolean)) {
    const move = playUci(fenNow(), uci);
    if (!move) {
      fail(`The link's move ${uci} could not be played (it and the moves after it are left out): it is not legal here.`);
      break;
    }
    const clock = match.clock && Number.isFinite(tenths[game.moves.length]) ? tenths[game.moves.length] * 100 : undefined;
    game.moves.push({ ...move, by: turnOf(fenNow()) === game.side ? 'you' : 'ai', clock });
    game.ply++;
  }
  for (const side of ['w', 'b']) match.times[side] = clockBefore(game.moves.length, side);
  document.querySelector(`input[name=play-side][value=${game.side}]`).checked = true;
  $('#play-level').value = match.level;
  $('#play-clock').value = match.clock ? match.clock.text : 'none';
  document.querySelector(`input[name=play-from][value=${game.start === START_FEN ? 'start' : 'board'}]`).checked = true;
  ground.set({ orientation: colour(game.side) });
  const code = params.get('end');
  const ruled = automaticEnd(fensOfGame());
  if (ruled) match.end = endOfRules(ruled);
  else if (code) match.end = endOfCode(code);
  if (!over()) startClock();
  else gradeAll();
}

function endOfCode(code) {
  const fen = fenAt(game.moves.length);
  if (code === 'resign') {
    return { result: game.side === 'w' ? '0-1' : '1-0', text: 'You lost: you resigned', kind: 'loss', code, termination: 'normal' };
  }
  if (code === 'agreed') return { result: '1/2-1/2', text: 'Draw by agreement: the AI accepted your offer', kind: 'draw', code, termination: 'normal' };
  if (code === 'repetition' || code === 'fifty') {
    return { result: '1/2-1/2', text: code === 'fifty' ? 'Draw by the fifty-move rule' : 'Draw by repetition', kind: 'draw', code, termination: 'normal' };
  }
  const side = code === 'time-w' ? 'w' : code === 'time-b' ? 'b' : null;
  if (!side) return null;
  if (!canMate(fen, other(side))) return { result: '1/2-1/2', text: `Draw: time ran out, but ${NAMES[other(side)]} cannot mate`, kind: 'draw', code, termination: 'time forfeit' };
  const won = side !== game.side;
  return { result: side === 'w' ? '0-1' : '1-0', text: won ? 'You won on time' : 'You lost on time', kind: won ? 'win' : 'loss', code, termination: 'time forfeit' };
}

// ---- wiring -------------------------------------------------------------------------------------------

$('#play-start').addEventListener('click', act(() => startGame(setupFen())));
for (const radio of document.querySelectorAll('input[name=play-from]')) {
  radio.addEventListener('change', () => !match.on && showSetup());
}
$('#play-new').addEventListener('click', act(() => startGame(game.start)));
$('#play-takeback').addEventListener('click', act(takeBack));
$('#play-resign').addEventListener('click', act(resign));
$('#play-offer').addEventListener('click', act(offerDraw));
$('#play-claim').addEventListener('click', act(claimDraw));
$('#play-retry').addEventListener('click', act(() => {
  $('#play-retry').hidden = true;
  continueGame();
}));
$('#play-pgn').addEventListener('click', downloadPgn);

register(play);
