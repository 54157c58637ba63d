// Practice: the person plays one side of the position against the tablebase, which answers each move
// with its best reply and a verdict. The game is the page's (and the URL's): mode=practice&side=w|b.
import { get } from '../api.js';
import { $, colour, fenAt, fenNow, game, gameParams, page, register, turnOf } from '../state.js';
import { onBoardMove, played, readGame, show, step, trainer } from '../trainer.js';
import { act, ask, download, fail, ground, showVerdict } from '../views.js';
import { gamePgn } from '../gamerecord.js';

const practising = () => page.mode === 'practice' && game.started;
const verdictBox = () => $('#verdict');

export const practice = {
  name: 'practice',
  navigable: true,
  enter() {
    $('#practice-bar').hidden = false;
    // a game on: the side played; before one starts, the side to move is offered
    const side = game.started ? game.side : turnOf(fenNow());
    document.querySelector(`input[name=practice-side][value=${side === 'b' ? 'b' : 'w'}]`).checked = true;
    return show().then(continueGame);
  },
  leave() {
    $('#practice-bar').hidden = true;
  },
  show,
  step,
  // the person moves on their own turn at the game's end
  mayMove: () => !trainer.busy && game.started && game.ply === game.moves.length && turnOf(fenNow()) === game.side,
  onMove: onBoardMove,
  you: () => (practising() ? game.side : null),
  tableHidden: () => !game.hint,
  onPlayed(verdict, by) {
    if (by === 'you') showVerdict(verdictBox(), verdict);
  },
  afterShow: () => continueGame(),
  urlParams() {
    const params = gameParams();
    params.set('mode', 'practice');
    params.set('side', game.side);
    return params;
  },
  async readUrl(params) {
    game.started = true;
    game.side = params.get('side') === 'b' ? 'b' : 'w';
    document.querySelector(`input[name=practice-side][value=${game.side}]`).checked = true;
    ground.set({ orientation: colour(game.side) });
    await readGame(params, (fen) => (turnOf(fen) !== game.side ? 'server' : 'you'));
  },
};

// Whenever the game's end is shown and it is the server's turn, the server moves: after the person's
// move, a take-back, a link, a new game, coming back to the Practice tab.
async function continueGame() {
  const { position, positionFen } = trainer;
  if (!practising() || trainer.busy || game.ply !== game.moves.length) return;
  if (!position || positionFen !== fenNow() || !position.moves.length || turnOf(fenNow()) === game.side) return;
  await reply();
}

async function reply() {
  trainer.busy = true;
  let failed = false;
  try {
    const answer = await get('/api/reply', { fen: fenNow() });
    game.moves.push(played(answer, 'server'));
    game.ply++;
    verdictBox().append(` Reply: ${answer.san}.`);
  } catch (error) {
    failed = true;
    fail(`The server's reply did not come: ${error.message}`);
  } finally {
    trainer.busy = false;
  }
  $('#retry').hidden = !failed;
  await show();
}

export function startPractice() {
  game.side = document.querySelector('input[name=practice-side]:checked').value;
  game.start = fenNow();
  restartPractice();
}

// The practice game from its start again, the person on the same side ("New game" at the end).
function restartPractice() {
  game.moves = [];
  game.ply = 0;
  page.mode = 'practice';
  game.started = true;
  game.hint = false;
  verdictBox().textContent = `You play ${game.side === 'w' ? 'White' : 'Black'}.`;
  verdictBox().className = 'verdict';
  $('#retry').hidden = true;
  ground.set({ orientation: colour(game.side) });
  show().then(continueGame);
}

function say(text) {
  verdictBox().textContent = text;
  verdictBox().className = 'verdict';
}

// Undoes the person's last move and the server's reply to it, at the game's end; viewing an earlier
// move, it asks first whether to play on from there (the later moves would be deleted).
function takeBack() {
  if (trainer.busy) return;
  if (game.ply < game.moves.length) {
    const later = game.moves.length - game.ply;
    return ask(`You are looking at an earlier move. Take back to here and play on? The ${later} later ` +
      `move${later === 1 ? '' : 's'} would be deleted.`, 'Take back to here', () => takeBackTo(yourTurnAtOrBefore(game.ply)));
  }
  let ply = game.ply;
  while (ply > 0 && turnOf(fenAt(ply - 1)) !== game.side) ply--; // the server's moves at the end
  if (ply === 0) return say('Nothing to take back: you have not moved yet.');
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
  say(ply ? 'Taken back: your move again.'
    : `Taken back to the start: ${yours ? 'your move again' : 'the server moves first'}.`);
  $('#retry').hidden = true;
  show().then(continueGame);
}

// The whole game, whichever move is shown, with its result and each move's verdict as a comment.
async function downloadPgn() {
  const you = 'You', engine = 'Tablebase';
  let result = '*';
  try {
    const answer = await get('/api/position', { fen: fenAt(game.moves.length) }, { cached: true });
    if (answer.ending) result = answer.ending.result;
  } catch {
    // the result stays '*' (unknown), as PGN has it for a game whose end is not known
  }
  const [white, black] = game.side === 'w' ? [you, engine] : [engine, you];
  download(gamePgn({ start: game.start, startpos: false, moves: game.moves, result, white, black, clock: null,
    event: 'Endgame practice' }), 'endgame.pgn');
}

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

register(practice);
