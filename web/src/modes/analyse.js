// Analyse: every legal move of the position with its result and distance; any move may be played.
import { register } from '../state.js';
import { onBoardMove, replayMoves, show, trainer } from '../trainer.js';

export const analyse = {
  name: 'analyse',
  navigable: true,
  enter: () => show(),
  show,
  mayMove: () => !trainer.busy,
  onMove: onBoardMove,
  readUrl: (params) => replayMoves(params),
};

register(analyse);
