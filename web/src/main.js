// The trainer page: a chessground board, the table of moves, practice against the tablebase, a board
// editor and random starts. All knowledge comes from our server (/api/..., /standard); the game lives
// here and in the URL (?fen=start&moves=uci,uci&mode=...&side=...), so a link shows the same board.
import { Chessground } from '@lichess-org/chessground';
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './coords.css';
import './style.css';
import { ApiError, get } from './api.js';
import { fillSpares, fullFen, swapColours } from './editor.js';
import { distancesText, moveOutcome, pgn } from './words.js';

const DEFAULT_FEN = '8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1';
const $ = (selector) => document.querySelector(selector);

// The game: where it started, the moves played (each with its verdict), which of them is shown, and
// whether a practice game is on (`started`: the person plays `side`, the server the other).
const game = { start: DEFAULT_FEN, moves: [], ply: 0, mode: 'analyse', side: 'w', hint: false, started: false };
let position = null; // the server's answer for the position shown
let positionFen = null; // the FEN it was asked for
let busy = false;
let notice = null; // an error shown instead of the status line until the person's next action

const ground = Chessground($('#board'), {
  fen: DEFAULT_FEN.split(' ')[0],
  coordinates: true,
  animation: { duration: 150 },
  movable: { free: false, color: undefined, showDests: true, events: { after: onBoardMove } },
  draggable: { showGhost: true },
  events: { change: onBoardChange },
});

const fenAt = (ply) => (ply === 0 ? game.start : game.moves[ply - 1].fen);
const fenNow = () => fenAt(game.ply);
const practising = () => game.mode === 'practice' && game.started;
const turnOf = (fen) => fen.split(' ')[1];
const colour = (turn) => (turn === 'w' ? 'white' : 'black');

function say(text, kind = '') {
  const status = $('#status');
  status.textContent = text;
  status.className = `status ${kind}`;
  boardMoved();
}

// An error stays on the status line until the person does something else (`act`).
function fail(message) {
  notice = message;
  say(message, 'error');
}

// Wraps what a person does: the last error gives way to what comes next.
const act = (fn) => (...args) => {
  notice = null;
  $('#ask').hidden = true;
  return fn(...args);
};

// Chessground keeps where the board is on the page; text or bars above it that grow move it.
function boardMoved() {
  ground.state.dom.bounds.clear();
}

// ---- showing a position -------------------------------------------------------------------------------

async function show() {
  const fen = fenNow();
  writeUrl();
  renderMoveList();
  $('#new-game').hidden = true;
  try {
    position = await get('/api/position', practising() ? { fen, you: game.side } : { fen }, { cached: true });
  } catch (error) {
    position = positionFen = null;
    // a FEN the server refuses is drawn as no board at all: chessground would read pieces out of garbage
    const board = error.status === 400 ? '8/8/8/8/8/8/8/8' : fen.split(' ')[0];
    ground.set({ fen: board, lastMove: undefined, check: false, turnColor: colour(turnOf(fen) === 'b' ? 'b' : 'w'),
      movable: { color: undefined, dests: new Map() } });
    ground.setAutoShapes([]);
    renderTable();
    fail(error.message);
    return;
  }
  if (fen !== fenNow()) return; // another position was asked for meanwhile
  positionFen = fen;
  const last = game.ply > 0 ? game.moves[game.ply - 1].uci : null;
  const turn = turnOf(fen);
  ground.set({
    fen: fen.split(' ')[0],
    turnColor: colour(turn),
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    check: position.check ? colour(turn) : false,
    movable: { free: false, color: mayMove() ? colour(turn) : undefined, dests: destinations(position.moves) },
  });
  ground.setAutoShapes(game.hint && position.moves.length ? [arrow(position.moves[0].uci)] : []);
  const zugzwang = position.mutual_zugzwang ? ' Mutual zugzwang: the side to move would rather pass.' : '';
  if (notice) say(notice, 'error');
  else if (practising() && position.ending) say(position.ending.text, position.ending.kind);
  else say(position.status + zugzwang, position.category);
  $('#new-game').hidden = !(practising() && position.ending && game.ply === game.moves.length);
  renderTable();
  $('#api-link').href = `/standard?fen=${encodeURIComponent(fen)}`;
  $('#api-link').textContent = '/standard for this position';
}

const arrow = (uci) => ({ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'green' });

function destinations(moves) {
  const dests = new Map();
  for (const { uci } of moves) {
    const from = uci.slice(0, 2);
    if (!dests.has(from)) dests.set(from, []);
    if (!dests.get(from).includes(uci.slice(2, 4))) dests.get(from).push(uci.slice(2, 4));
  }
  return dests;
}

// Whether the person may move now: in analysis always, in a practice game on their own turn at its end.
function mayMove() {
  if (game.mode === 'edit' || busy) return false;
  if (game.mode !== 'practice') return true;
  return game.started && game.ply === game.moves.length && turnOf(fenNow()) === game.side;
}

function renderTable() {
  const body = $('#moves tbody');
  body.replaceChildren();
  const hidden = game.mode === 'edit' || (game.mode === 'practice' && !game.hint);
  $('#moves').hidden = hidden || !position;
  if (hidden || !position) return;
  for (const move of position.moves) {
    const outcome = moveOutcome(move);
    const row = document.createElement('tr');
    row.className = outcome.result;
    row.dataset.uci = move.uci;
    row.tabIndex = 0;
    row.title = `play ${move.san}`;
    for (const text of [move.san, outcome.label, outcome.distance]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    const play = act(() => mayMove() && tryMove(move.uci));
    row.addEventListener('click', play);
    row.addEventListener('keydown', (e) => e.key === 'Enter' && play());
    body.append(row);
  }
}

function renderMoveList() {
  const list = $('#movelist');
  list.replaceChildren();
  const [, turn, , , , fullmove] = game.start.split(' ');
  let number = Number(fullmove) || 1;
  let white = turn === 'w';
  game.moves.forEach((move, i) => {
    const item = document.createElement('li');
    const label = white ? `${number}.` : i === 0 ? `${number}…` : '';
    item.innerHTML = label ? `<span class="number">${label}</span>` : '';
    const button = document.createElement('button');
    button.textContent = move.san;
    button.className = `move ${move.mistake ? `mistake-${move.mistake}` : ''} ${i + 1 === game.ply ? 'current' : ''}`;
    button.title = move.verdict || '';
    button.addEventListener('click', act(() => goTo(i + 1)));
    item.append(button);
    list.append(item);
    if (!white) number++;
    white = !white;
  });
  $('#back').disabled = game.ply === 0;
  $('#forward').disabled = game.ply === game.moves.length;
}

function goTo(ply) {
  if (busy || game.mode === 'edit') return;
  game.ply = Math.max(0, Math.min(ply, game.moves.length));
  game.hint = false;
  show();
}

// ---- playing moves ------------------------------------------------------------------------------------

function onBoardMove(orig, dest) {
  if (game.mode === 'edit' || !position) return; // in the editor pieces move freely
  notice = null;
  const candidates = position.moves.filter((m) => m.uci.startsWith(orig + dest));
  if (candidates.length === 1) return tryMove(candidates[0].uci);
  if (candidates.length > 1) return choosePromotion(orig + dest);
  show();
}

// The chooser lies over the board; until a piece is chosen the pawn stays where it was.
function choosePromotion(prefix) {
  const box = $('#promotion');
  ground.set({ fen: fenNow().split(' ')[0], movable: { color: undefined } });
  box.hidden = false;
  box.querySelectorAll('.choices button').forEach((button) => {
    button.onclick = act(() => {
      box.hidden = true;
      tryMove(prefix + button.dataset.role);
    });
  });
  box.querySelector('.choices button').focus();
}

function cancelPromotion() {
  if ($('#promotion').hidden) return;
  $('#promotion').hidden = true;
  show();
}

// A move from the position shown: the game's next move goes forward; another move where later moves
// exist asks first (they would be deleted).
function tryMove(uci) {
  if (game.ply < game.moves.length) {
    if (game.moves[game.ply].uci === uci) return goTo(game.ply + 1);
    const later = game.moves.length - game.ply;
    return ask(`Play this move here? The ${later} later move${later === 1 ? '' : 's'} of the game would be deleted.`,
      'Play it and delete them', () => playMove(uci, 'you'), () => show());
  }
  return playMove(uci, 'you');
}

// A question over the moves with a yes and a cancel; nothing happens until one is pressed.
function ask(text, yes, onYes, onNo = () => {}) {
  $('#ask-text').textContent = text;
  $('#ask-yes').textContent = yes;
  $('#ask').hidden = false;
  $('#ask-yes').onclick = act(onYes);
  $('#ask-no').onclick = act(onNo);
  boardMoved();
}

// Play `uci` from the position shown (dropping any moves after it), with the server's verdict on it.
async function playMove(uci, by) {
  if (busy) return;
  busy = true;
  try {
    const fen = fenNow();
    const verdict = await get('/api/verdict', { fen, move: uci });
    game.moves.length = game.ply;
    game.moves.push(played(verdict, by));
    game.ply++;
    game.hint = false;
    if (game.mode === 'practice' && by === 'you') showVerdict(verdict);
  } catch (error) {
    fail(`${uci} was not played: ${error.message}`);
  } finally {
    busy = false;
  }
  await show();
  await continueGame();
}

const played = (answer, by) => ({ uci: answer.uci, san: answer.san, fen: answer.fen, comment: answer.comment, by,
  verdict: answer.verdict, mistake: answer.mistake, grade: answer.grade });

function showVerdict(verdict) {
  const box = $('#verdict');
  box.textContent = `Your move: ${verdict.verdict}`;
  box.className = `verdict ${verdict.mistake ? `mistake-${verdict.mistake}` : 'best'} grade-${verdict.grade}`;
}

// In a practice game, whenever the game's end is shown and it is the server's turn, the server moves:
// after the person's move, a take-back, a link, a new game, coming back to the Practice tab.
async function continueGame() {
  if (!practising() || busy || game.ply !== game.moves.length) return;
  if (!position || positionFen !== fenNow() || !position.moves.length || turnOf(fenNow()) === game.side) return;
  await reply();
}

async function reply() {
  busy = true;
  let failed = false;
  try {
    const answer = await get('/api/reply', { fen: fenNow() });
    game.moves.push(played(answer, 'server'));
    game.ply++;
    $('#verdict').append(` Reply: ${answer.san}.`);
  } catch (error) {
    failed = true;
    fail(`The server's reply did not come: ${error.message}`);
  } finally {
    busy = false;
  }
  $('#retry').hidden = !failed;
  await show();
}

// ---- modes --------------------------------------------------------------------------------------------

function setMode(mode) {
  if (game.mode === 'edit' && mode !== 'edit') leaveEditor();
  game.mode = mode;
  for (const tab of document.querySelectorAll('.tabs button')) tab.setAttribute('aria-selected', tab.dataset.mode === mode);
  for (const name of ['analyse', 'practice', 'random', 'edit']) $(`#panel-${name}`).hidden = name !== mode;
  $('#practice-bar').hidden = mode !== 'practice';
  $('#spare-top').hidden = $('#spare-bottom').hidden = mode !== 'edit';
  boardMoved();
  if (mode === 'edit') return enterEditor();
  if (mode === 'random') loadMaterials();
  if (mode === 'practice') {
    // a game on: the side played; before one starts, the side to move is offered
    const side = game.started ? game.side : turnOf(fenNow());
    document.querySelector(`input[name=practice-side][value=${side === 'b' ? 'b' : 'w'}]`).checked = true;
  }
  game.hint = false;
  return show().then(continueGame);
}

function startPractice() {
  game.side = document.querySelector('input[name=practice-side]:checked').value;
  game.start = fenNow();
  restartPractice();
}

// The practice game from its start again, the person on the same side ("New game" at the end).
function restartPractice() {
  game.moves = [];
  game.ply = 0;
  game.mode = 'practice';
  game.started = true;
  game.hint = false;
  $('#verdict').textContent = `You play ${game.side === 'w' ? 'White' : 'Black'}.`;
  $('#verdict').className = 'verdict';
  $('#retry').hidden = true;
  ground.set({ orientation: colour(game.side) });
  show().then(continueGame);
}

// Undoes the person's last move and the server's reply to it, at the game's end; viewing an earlier
// move, it asks first whether to play on from there (the later moves would be deleted).
function takeBack() {
  if (busy) return;
  if (game.ply < game.moves.length) {
    const later = game.moves.length - game.ply;
    return ask(`You are looking at an earlier move. Take back to here and play on? The ${later} later ` +
      `move${later === 1 ? '' : 's'} would be deleted.`, 'Take back to here', () => takeBackTo(yourTurnAtOrBefore(game.ply)));
  }
  let ply = game.ply;
  while (ply > 0 && turnOf(fenAt(ply - 1)) !== game.side) ply--; // the server's moves at the end
  if (ply === 0) {
    $('#verdict').textContent = 'Nothing to take back: you have not moved yet.';
    $('#verdict').className = 'verdict';
    return;
  }
  takeBackTo(yourTurnAtOrBefore(ply - 1));
}

// The latest position at or before `ply` in which the person is to move (0 if none: the server moves).
function yourTurnAtOrBefore(ply) {
  while (ply > 0 && turnOf(fenAt(ply)) !== game.side) ply--;
  return ply;
}

function takeBackTo(ply) {
  game.moves.length = ply;
  game.ply = ply;
  game.hint = false;
  const yours = turnOf(fenAt(ply)) === game.side;
  $('#verdict').textContent = ply ? 'Taken back: your move again.'
    : `Taken back to the start: ${yours ? 'your move again' : 'the server moves first'}.`;
  $('#verdict').className = 'verdict';
  $('#retry').hidden = true;
  show().then(continueGame);
}

// The whole game, whichever move is shown, with its result and each move's verdict as a comment.
async function downloadPgn() {
  const you = 'You', engine = 'Tablebase';
  const last = fenAt(game.moves.length);
  let result = '*';
  try {
    const answer = await get('/api/position', { fen: last }, { cached: true });
    if (answer.ending) result = answer.ending.result;
  } catch {
    // the result stays '*' (unknown), as PGN has it for a game whose end is not known
  }
  const text = pgn(game.start, game.moves, result,
    game.side === 'w' ? { white: you, black: engine } : { white: engine, black: you });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  link.download = 'endgame.pgn';
  link.click();
  URL.revokeObjectURL(link.href);
}

// ---- editor -------------------------------------------------------------------------------------------

function enterEditor() {
  const fen = fenNow();
  game.hint = false;
  ground.set({
    fen: fen.split(' ')[0], lastMove: undefined, check: false,
    movable: { free: true, color: 'both', dests: undefined },
    draggable: { deleteOnDropOff: true },
  });
  ground.setAutoShapes([]);
  document.querySelector(`input[name=edit-turn][value=${turnOf(fen)}]`).checked = true;
  const top = ground.state.orientation === 'white' ? 'black' : 'white';
  fillSpares($('#spare-top'), top, ground);
  fillSpares($('#spare-bottom'), top === 'white' ? 'black' : 'white', ground);
  $('#moves').hidden = true;
  say('Editing the board: set up a position, then press “Analyse this position”.');
  onBoardChange();
}

function leaveEditor() {
  ground.set({ movable: { free: false }, draggable: { deleteOnDropOff: false } });
}

const editedFen = () => fullFen(ground.getFen(), document.querySelector('input[name=edit-turn]:checked').value);

function onBoardChange() {
  if (game.mode === 'edit') $('#edit-fen').value = editedFen();
}

async function finishEditing() {
  const fen = $('#edit-fen').value.trim();
  try {
    await get('/api/position', { fen }, { cached: true });
  } catch (error) {
    say(`${error.message}. Change the position, or its FEN, and try again.`, 'error');
    return;
  }
  newGame(fen, 'analyse');
}

function loadFenField() {
  const fen = $('#edit-fen').value.trim();
  const [board, turn] = fen.split(/\s+/);
  ground.set({ fen: board });
  if (turn === 'w' || turn === 'b') document.querySelector(`input[name=edit-turn][value=${turn}]`).checked = true;
}

function newGame(fen, mode) {
  game.start = fen;
  game.moves = [];
  game.ply = 0;
  game.started = false;
  setMode(mode);
}

// ---- random starts ------------------------------------------------------------------------------------

let materialsLoaded = false;

async function loadMaterials() {
  if (materialsLoaded) return;
  try {
    const { materials } = await get('/api/materials');
    const select = $('#random-material');
    select.replaceChildren(...materials.map((m) => new Option(m, m)));
    if (materials.includes('KQvKR')) select.value = 'KQvKR';
    materialsLoaded = true;
    if (!materials.length) $('#random-distances').textContent = 'No tables in the server\'s folder yet: compute one with python -m Util calculate KQvK.';
    else await loadDistances();
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

async function loadDistances() {
  const material = $('#random-material').value;
  if (!material) return;
  try {
    const answer = await get('/api/distances', { material, side: $('#random-side').value }, { cached: true });
    $('#random-distances').textContent = distancesText(answer);
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

async function randomStart() {
  const params = { material: $('#random-material').value, side: $('#random-side').value,
    outcome: $('#random-outcome').value, min: $('#random-min').value || 1 };
  if ($('#random-max').value) params.max = $('#random-max').value;
  try {
    const { fen } = await get('/api/random', params);
    if ($('#random-practise').checked) {
      game.start = fen;
      game.moves = [];
      game.ply = 0;
      game.started = false; // setMode offers the side to move: the side asked for
      setMode('practice');
      startPractice();
    } else {
      newGame(fen, 'analyse');
    }
  } catch (error) {
    $('#random-distances').textContent = error.message;
  }
}

// ---- the URL ------------------------------------------------------------------------------------------

function writeUrl() {
  const params = new URLSearchParams({ fen: game.start });
  if (game.moves.length) params.set('moves', game.moves.map((m) => m.uci).join(','));
  if (game.ply !== game.moves.length) params.set('ply', game.ply);
  if (game.mode === 'practice') {
    params.set('mode', 'practice');
    params.set('side', game.side);
  }
  history.replaceState(null, '', `?${params}`);
}

// Without a position in the URL: KQvKR, or a position of a table the server has if it lacks that one.
async function firstPosition() {
  try {
    const { materials } = await get('/api/materials');
    if (!materials.length || materials.includes('KQvKR')) return DEFAULT_FEN;
    const largest = materials[materials.length - 1];
    return (await get('/api/random', { material: largest, outcome: 'win', side: 'w' })).fen;
  } catch {
    return DEFAULT_FEN; // the status line will say what is wrong
  }
}

// Replays the moves of a link (each through the server, which checks it and gives its verdict).
async function readUrl() {
  const params = new URLSearchParams(location.search);
  game.start = (params.get('fen') || (await firstPosition())).replaceAll('_', ' ');
  if (params.get('mode') === 'practice') {
    game.mode = 'practice';
    game.started = true;
    game.side = params.get('side') === 'b' ? 'b' : 'w';
    document.querySelector(`input[name=practice-side][value=${game.side}]`).checked = true;
    ground.set({ orientation: colour(game.side) });
  }
  const moves = (params.get('moves') || '').split(',').filter(Boolean);
  for (const uci of moves) {
    try {
      const fen = fenNow();
      const verdict = await get('/api/verdict', { fen, move: uci });
      const by = game.mode === 'practice' && turnOf(fen) !== game.side ? 'server' : 'you';
      game.moves.push(played(verdict, by));
      game.ply++;
    } catch (error) {
      fail(`The link's move ${uci} could not be played (it and the moves after it are left out): ${error.message}`);
      break;
    }
  }
  const ply = Number(params.get('ply'));
  if (params.has('ply') && ply >= 0 && ply <= game.moves.length) game.ply = ply;
}

// ---- wiring -------------------------------------------------------------------------------------------

for (const tab of document.querySelectorAll('.tabs button')) tab.addEventListener('click', act(() => setMode(tab.dataset.mode)));
$('#back').addEventListener('click', act(() => goTo(game.ply - 1)));
$('#forward').addEventListener('click', act(() => goTo(game.ply + 1)));
$('#flip').addEventListener('click', () => {
  ground.toggleOrientation();
  if (game.mode === 'edit') enterEditor();
});
$('#practice-start').addEventListener('click', act(startPractice));
$('#new-game').addEventListener('click', act(restartPractice));
$('#hint').addEventListener('click', act(() => {
  game.hint = true;
  show();
}));
$('#takeback').addEventListener('click', act(takeBack));
$('#retry').addEventListener('click', act(() => {
  $('#retry').hidden = true;
  show().then(continueGame);
}));
$('#pgn').addEventListener('click', downloadPgn);
$('#promotion-cancel').addEventListener('click', cancelPromotion);
$('#edit-clear').addEventListener('click', () => {
  ground.set({ fen: '8/8/8/8/8/8/8/8' });
  onBoardChange();
});
$('#edit-swap').addEventListener('click', () => {
  ground.set({ fen: swapColours(ground.getFen()) });
  onBoardChange();
});
for (const radio of document.querySelectorAll('input[name=edit-turn]')) radio.addEventListener('change', onBoardChange);
$('#edit-fen').addEventListener('change', loadFenField);
$('#edit-fen').addEventListener('keydown', (e) => e.key === 'Enter' && finishEditing());
$('#edit-done').addEventListener('click', act(finishEditing));
$('#random-material').addEventListener('change', loadDistances);
$('#random-side').addEventListener('change', loadDistances);
$('#random-go').addEventListener('click', act(randomStart));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') return cancelPromotion();
  if (e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft') act(goTo)(game.ply - 1);
  if (e.key === 'ArrowRight') act(goTo)(game.ply + 1);
});

readUrl().then(() => setMode(game.mode));
