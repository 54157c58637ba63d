// One game, one tab: a tab that opens a game another tab of this browser is playing is told so and
// only shows it, until the person chooses to play it there (the other tab then only shows it). The tabs
// speak over a BroadcastChannel: a tab that opens a game says "hello"; one that plays it answers "here";
// "take" moves the game to the tab that says it.
const CHANNEL = 'chessai-play';
const me = Math.random().toString(36).slice(2);
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
let held = null; // the id of the game this tab plays
let since = 0; // when it took it (of two tabs that open a game at once, the first keeps it)
let onElsewhere = () => {};

// Calls `elsewhere(id)` when game `id`, open here, is played in another tab.
export function watchTabs(elsewhere) {
  onElsewhere = elsewhere;
}

// This tab plays game `id` (null: none): another tab that plays it already answers, and this one is
// told (`elsewhere`).
export function hold(id) {
  held = id;
  since = Date.now();
  if (id) channel?.postMessage({ kind: 'hello', id, tab: me, since });
}

// This tab takes game `id` over from the others.
export function take(id) {
  held = id;
  since = Date.now();
  channel?.postMessage({ kind: 'take', id, tab: me, since });
}

channel?.addEventListener('message', ({ data }) => {
  if (!data || data.tab === me || !held || data.id !== held) return;
  if (data.kind === 'hello') channel.postMessage({ kind: 'here', id: held, tab: me, since });
  else if (data.kind === 'take' || (data.kind === 'here' && data.since <= since)) {
    held = null;
    onElsewhere(data.id);
  }
});
