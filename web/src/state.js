// The page's state: the modes and the URL. A mode is a module (modes/*.js) that registers itself here and
// keeps its own state. The tablebase modes (analyse, practice, random start, edit board) share one game on
// the board, `game` (where it started, the moves played, which is shown), so that a position set up in one
// is analysed or practised in another; Play keeps its game apart (play/match.js), so that nothing done in
// another tab of the page changes it.

export const DEFAULT_FEN = '8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1';
export const $ = (selector) => document.querySelector(selector);

// The tablebase modes' game; `started`: a practice game is on, the person playing `side`.
export const game = { start: DEFAULT_FEN, moves: [], ply: 0, side: 'w', hint: false, started: false };
// Which mode is shown.
export const page = { mode: 'analyse' };

export const fenAt = (ply) => (ply === 0 ? game.start : game.moves[ply - 1].fen);
export const fenNow = () => fenAt(game.ply);
export const turnOf = (fen) => fen.split(' ')[1];
export const colour = (turn) => (turn === 'w' ? 'white' : 'black');

// ---- modes --------------------------------------------------------------------------------------------
// A mode: { name, enter(), leave?(), show(), mayMove(), onMove?(orig, dest, meta), step?(delta) (Back,
// Forward and the arrow keys), urlParams(): URLSearchParams, readUrl?(params), onFlip?(), onBoardChange?() }.

const modes = new Map();

export function register(mode) {
  modes.set(mode.name, mode);
}

export const current = () => modes.get(page.mode);

// Shows the current mode's position (whatever that means for it).
export const refresh = () => current().show();

// Switches to `name`: the tab and panel follow, the old mode cleans up after itself.
export function setMode(name) {
  const from = current();
  if (from && from.name !== name) from.leave?.();
  page.mode = name;
  for (const tab of document.querySelectorAll('.tabs button')) tab.setAttribute('aria-selected', tab.dataset.mode === name);
  for (const other of modes.keys()) {
    const panel = $(`#panel-${other}`);
    if (panel) panel.hidden = other !== name;
  }
  document.body.dataset.mode = name;
  game.hint = false;
  return modes.get(name).enter();
}

// A new tablebase game from `fen` in mode `name`.
export function newGame(fen, name) {
  game.start = fen;
  game.moves = [];
  game.ply = 0;
  game.started = false;
  return setMode(name);
}

// ---- the URL ------------------------------------------------------------------------------------------

// The tablebase modes' part of the URL: ?fen=start&moves=uci,uci&ply=N.
export function gameParams() {
  const params = new URLSearchParams({ fen: game.start });
  if (game.moves.length) params.set('moves', game.moves.map((m) => m.uci).join(','));
  if (game.ply !== game.moves.length) params.set('ply', game.ply);
  return params;
}

export function writeUrl() {
  history.replaceState(null, '', `?${current().urlParams()}`);
}

// The mode of the link, which reads the rest of it (`readUrl`); a mode that keeps nothing in the URL
// opens as analysis.
export async function readUrl() {
  const params = new URLSearchParams(location.search);
  const named = modes.get(params.get('mode'));
  page.mode = named?.readUrl ? named.name : 'analyse';
  await modes.get(page.mode).readUrl(params);
}
