// Play: a whole game against the engine, from the start or from a position set up, on a side, at a level
// and on a clock the person chooses; after it, the computer's analysis. The game is its own (play/match.js),
// kept in the browser so that a reload, a link or a second tab cannot change it; this module shows it and
// wires the panel's buttons to play/game.js. The URL names the game: mode=play&game=&fen=&moves=&side=&
// level=&clock=&clocks=&end= (a link opened in another browser replays it).
import { destinations } from '../board.js';
import { automaticEnd, isCheck, legalUcis, normalFen, positionOf, START_FEN, typedUci } from '../rules.js';
import { $, fenNow, page, register, writeUrl } from '../state.js';
import { act, ask, clearNotice, download, fail, ground, noticeShown, promote, say, showBoard } from '../views.js';
import { abortable, aiSide, atEnd, begin, fenShown, lastFen, match, over, resume, save, stored, toMove } from '../play/match.js';
import { startClock, stopClock, watchClocks } from '../play/clock.js';
import { isThinking, sideName, stopThinking } from '../play/ai.js';
import { claimDraw, continueGame, drawWith, finish, flagFell, mayMove, offerDraw, playYours, takeBack } from '../play/game.js';
import { aiName, renderButtons, renderClocks, renderComment, renderEvalBar, renderGraph, renderMoves, setMessage,
  showTablebase } from '../play/panel.js';
import { chosen, loadLevels, showSettings } from '../play/setup.js';
import { bestArrow, stopAnalysis } from '../play/analysis.js';
import { pgn, runAnalysis, showAnalysisLine } from '../play/report.js';
import { gameParams, readLink } from '../play/link.js';
import { hold, take, watchTabs } from '../play/tabs.js';
import { setSound, soundOn } from '../play/sound.js';

const EVAL_BAR_KEY = 'chessai.play.evalbar';
let setupShown = true; // the setup instead of a game
let elsewhere = false; // another tab of this browser plays the game: this one only shows it

export const play = {
  name: 'play',
  enter() {
    loadLevels(match.level);
    if (setupShown || !match.on) return showSetup();
    show();
    continueGame();
  },
  leave() {
    for (const id of ['#clock-top', '#clock-bottom', '#eval-bar']) $(id).hidden = true;
    document.body.classList.remove('with-eval-bar');
    $('#movelist').hidden = false;
  },
  show,
  mayMove,
  onMove,
  step: (delta) => goTo(match.ply + delta),
  urlParams,
  readUrl,
};

// Another mode's "play this position": the setup, from the board shown there.
export function setUpFromBoard() {
  setupShown = true;
}

// ---- showing ------------------------------------------------------------------------------------------

function show() {
  if (page.mode !== 'play') return;
  if (setupShown) return showSetup();
  writeUrl();
  $('#play-setup').hidden = true;
  $('#play-game').hidden = false;
  $('#moves').hidden = true;
  $('#movelist').hidden = true;
  const fen = fenShown();
  const movable = mayMove();
  const premove = match.on && !over() && atEnd() && toMove() === aiSide() && !elsewhere;
  showBoard({
    fen, last: match.ply > 0 ? match.moves[match.ply - 1].uci : null, check: isCheck(fen),
    mover: movable || premove ? match.side : null, premove,
    dests: movable ? destinations(legalUcis(positionOf(fen))) : new Map(),
    shapes: over() ? bestArrow(match.ply) : [],
  });
  renderMoves(goTo);
  renderClocks();
  renderButtons();
  renderEvalBar(localStorage.getItem(EVAL_BAR_KEY) === 'on');
  renderGraph(goTo);
  renderComment();
  showAnalysisLine();
  if (elsewhere) say('This game is open in another tab: it is played there.', 'error');
  else if (noticeShown()) say(noticeShown(), 'error');
  else if (over()) say(match.end.text, match.end.kind);
  else if (!atEnd()) say(`Move ${match.ply} of ${match.moves.length}: press Forward ▶ (or the last move) to play on.`);
  else if (isThinking()) say(`The ${aiName()} is thinking…`);
  else if (toMove() === match.side) say(`Your move (${sideName(match.side)}).${isCheck(fen) ? ' Check!' : ''}`);
  else say(`The ${aiName()} is to move.`);
  showTablebase(fen);
}

function goTo(ply) {
  if (!match.on) return;
  match.ply = Math.max(0, Math.min(ply, match.moves.length));
  show();
}

// Before a game: the board shows where it would start from, not movable; a game in progress is offered
// back, and starting another asks first.
function showSetup() {
  writeUrl();
  $('#play-setup').hidden = false;
  $('#play-game').hidden = true;
  for (const id of ['#clock-top', '#clock-bottom', '#eval-bar']) $(id).hidden = true;
  document.body.classList.remove('with-eval-bar');
  $('#moves').hidden = true;
  $('#movelist').hidden = true;
  $('#new-game').hidden = true;
  const going = match.on && !over();
  $('#play-resume-row').hidden = !going;
  $('#play-resume-text').textContent = going ? `Your game against the ${aiName()} is not over (${match.moves.length} moves).` : '';
  showBoard({ fen: setupFen() });
  say('Choose your side, the level and the clock, then press “Start the game”.');
}

// Where a game would start: the start position, or the board of the mode the person came from.
const setupFen = () => (chosen().fromBoard ? fenNow() : START_FEN);

// ---- starting and ending ------------------------------------------------------------------------------

function startGame(start, settings = chosen()) {
  try {
    start = normalFen(start);
    if (automaticEnd([start])) throw new Error('the game is over in this position: there is no move to make');
  } catch (error) {
    fail(`No game from here: ${error.message}. Choose “the start position”, or set up another one.`);
    return;
  }
  stopThinking();
  stopAnalysis();
  stopClock();
  ground.cancelPremove();
  begin({ start, side: settings.side, level: settings.level, clock: settings.clock });
  showSettings({ ...settings, start });
  hold(match.id);
  elsewhere = false;
  setupShown = false;
  for (const id of ['#play-verdict', '#play-engine', '#play-message']) $(id).textContent = '';
  $('#play-retry').hidden = true;
  $('#play-engine').textContent = `You play ${sideName(match.side)} against the ${aiName()}.`;
  ground.set({ orientation: match.side === 'w' ? 'white' : 'black' });
  save();
  show();
  window.scrollTo({ top: 0 }); // on a phone the Start button is below the board: the game is above
  continueGame();
}

// Start pressed: a game still going is resigned first, if the person says so.
function startPressed() {
  if (!(match.on && !over())) return startGame(setupFen());
  const start = setupFen();
  ask(`Your game against the ${aiName()} is not over. Resign it and start a new one?`, 'Resign it and start', () => {
    finish('resign');
    startGame(start);
  }, () => show());
}

// ---- the person's moves -------------------------------------------------------------------------------

// A move dropped on the board (or a premove played when the AI has moved): one legal move is played, a
// promotion asks for its piece (a premove's becomes a queen, as on lichess).
function onMove(orig, dest, meta = {}) {
  clearNotice();
  if (!mayMove()) return show();
  const ucis = legalUcis(positionOf(lastFen())).filter((uci) => uci.startsWith(orig + dest));
  if (ucis.length === 1) return playYours(ucis[0]);
  if (ucis.length > 1) return meta.premove ? playYours(`${orig}${dest}q`) : promote(orig + dest, playYours);
  show();
}

// A move typed in the panel (SAN or UCI) and Enter.
function typed() {
  const field = $('#play-type');
  const text = field.value.trim();
  if (!text) return;
  if (!mayMove()) return setMessage(over() ? 'The game is over.' : 'Wait for your turn (at the last move) to type a move.');
  const uci = typedUci(lastFen(), text);
  if (!uci) return setMessage(`“${text}” is no legal move here: type one such as e4, Nf3, exd5, O-O or e2e4.`);
  field.value = '';
  playYours(uci);
}

// The board shows the AI's move: a premove waiting is played now.
function playPremoveIfAny() {
  if (mayMove()) ground.playPremove();
}

// A question in the panel (the person's game stays in view), with a yes and a cancel.
function confirm(text, yes, onYes) {
  const box = $('#play-confirm');
  $('#play-confirm-text').textContent = text;
  $('#play-confirm-yes').textContent = yes;
  box.hidden = false;
  $('#play-confirm-yes').onclick = act(() => {
    box.hidden = true;
    onYes();
  });
  $('#play-confirm-no').onclick = act(() => {
    box.hidden = true;
  });
}

// ---- other tabs ---------------------------------------------------------------------------------------

// Another tab plays this game: this one shows it, with a button to play it here instead.
function openElsewhere() {
  elsewhere = true;
  ground.cancelPremove();
  stopThinking();
  stopClock();
  confirm('This game is open in another tab.', 'Play it here', () => {
    const kept = stored();
    if (kept && kept.id === match.id) resume(kept);
    elsewhere = false;
    take(match.id);
    startClock();
    show();
    continueGame();
  });
  show();
}

// ---- the URL ------------------------------------------------------------------------------------------

function urlParams() {
  return gameParams(setupShown);
}

// The link's game (play/link.js says which), shown with its settings and its clock running.
async function readUrl(params) {
  if (!readLink(params)) return;
  setupShown = false;
  showSettings({ side: match.side, level: match.level, clock: match.clock, start: match.start });
  ground.set({ orientation: match.side === 'w' ? 'white' : 'black' });
  hold(match.id);
  if (!over()) startClock();
  save();
}

// ---- wiring -------------------------------------------------------------------------------------------

watchClocks(flagFell, () => page.mode === 'play' && !setupShown && renderClocks());
watchTabs(openElsewhere);
drawWith(() => {
  show();
  playPremoveIfAny();
}, () => elsewhere);

$('#play-start').addEventListener('click', act(startPressed));
$('#play-resume').addEventListener('click', act(() => {
  setupShown = false;
  show();
  continueGame();
}));
for (const radio of document.querySelectorAll('input[name=play-from]')) {
  radio.addEventListener('change', () => setupShown && page.mode === 'play' && showSetup());
}
$('#play-takeback').addEventListener('click', act(takeBack));
$('#play-resign').addEventListener('click', act(() => confirm('Resign this game?', 'Yes, resign', () => finish('resign'))));
$('#play-abort').addEventListener('click', act(() => abortable() && finish('abort')));
$('#play-offer').addEventListener('click', act(offerDraw));
$('#play-claim').addEventListener('click', act(claimDraw));
$('#play-retry').addEventListener('click', act(() => {
  $('#play-retry').hidden = true;
  continueGame();
}));
$('#play-rematch').addEventListener('click', act(() => startGame(match.start, {
  side: match.side === 'w' ? 'b' : 'w', level: match.level, clock: match.clock })));
$('#play-new').addEventListener('click', act(() => {
  setupShown = true;
  showSetup();
}));
$('#play-analyse').addEventListener('click', act(() => runAnalysis(show)));
$('#play-pgn').addEventListener('click', () => download(pgn(), 'game.pgn'));
$('#play-type').addEventListener('keydown', (e) => e.key === 'Enter' && act(typed)());
$('#play-sound').checked = soundOn();
$('#play-sound').addEventListener('change', (e) => setSound(e.target.checked));
$('#play-evalbar').checked = localStorage.getItem(EVAL_BAR_KEY) === 'on';
$('#play-evalbar').addEventListener('change', (e) => {
  localStorage.setItem(EVAL_BAR_KEY, e.target.checked ? 'on' : 'off');
  show();
});

register(play);
