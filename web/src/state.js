// The page's state: the game (where it started, the moves played, which is shown), the modes, and the URL
// (?fen=start&moves=uci,uci&ply=N&mode=...&...), so that a link shows the same board. A mode is a module
// (modes/*.js) that registers itself here; the page asks the current mode what to do at each step.

export const DEFAULT_FEN = '8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1';
export const $ = (selector) => document.querySelector(selector);

// `started`: a game against the server is on (practice, play), the person playing `side`.
export const game = { start: DEFAULT_FEN, moves: [], ply: 0, mode: 'analyse', side: 'w', hint: false, started: false };

export const fenAt = (ply) => (ply === 0 ? game.start : game.moves[ply - 1].fen);
export const fenNow = () => fenAt(game.ply);
export const turnOf = (fen) => fen.split(' ')[1];
export const colour = (turn) => (turn === 'w' ? 'white' : 'black');

// ---- modes --------------------------------------------------------------------------------------------
// A mode: { name, enter(), leave?(), show(), mayMove(), onMove?(orig, dest), play?(uci), goTo?,
//   urlParams?(params), readUrl?(params), takesKeys? }. Only `name`, `enter` and `show` are required.

const modes = new Map();

export function register(mode) {
  modes.set(mode.name, mode);
}

export const modeOf = (name) => modes.get(name);
export const current = () => modes.get(game.mode);
export const modeNames = () => [...modes.keys()];

// Shows the current mode's position (whatever that means for it).
export const refresh = () => current().show();

// Switches to `name`: the tab and panel follow, the old mode cleans up after itself.
export function setMode(name) {
  const from = current();
  if (from && from.name !== name) from.leave?.();
  game.mode = name;
  for (const tab of document.querySelectorAll('.tabs button')) tab.setAttribute('aria-selected', tab.dataset.mode === name);
  for (const other of modes.keys()) {
    const panel = $(`#panel-${other}`);
    if (panel) panel.hidden = other !== name;
  }
  game.hint = false;
  return modes.get(name).enter();
}

// A new game from `fen` in mode `name`.
export function newGame(fen, name) {
  game.start = fen;
  game.moves = [];
  game.ply = 0;
  game.started = false;
  return setMode(name);
}

// ---- the URL ------------------------------------------------------------------------------------------

export function writeUrl() {
  const params = new URLSearchParams({ fen: game.start });
  if (game.moves.length) params.set('moves', game.moves.map((m) => m.uci).join(','));
  if (game.ply !== game.moves.length) params.set('ply', game.ply);
  current().urlParams?.(params);
  history.replaceState(null, '', `?${params}`);
}

// The mode, start and moves of the link; the mode named there replays the moves (`readUrl`).
export async function readUrl(firstPosition) {
  const params = new URLSearchParams(location.search);
  game.start = (params.get('fen') || (await firstPosition())).replaceAll('_', ' ');
  const named = modes.get(params.get('mode'));
  const name = named?.readUrl ? named.name : 'analyse'; // a mode that keeps nothing in the URL opens as analysis
  game.mode = name;
  await modes.get(name).readUrl(params);
  const ply = Number(params.get('ply'));
  if (params.has('ply') && ply >= 0 && ply <= game.moves.length) game.ply = ply;
}
