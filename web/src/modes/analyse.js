// Analyse: every legal move of the position with its result and distance; any move may be played.
import { gameParams, register } from '../state.js';
import { onBoardMove, readGame, show, step, trainer } from '../trainer.js';

export const analyse = {
  name: 'analyse',
  navigable: true,
  enter: () => show(),
  show,
  step,
  mayMove: () => !trainer.busy,
  onMove: onBoardMove,
  urlParams: () => gameParams(),
  readUrl: (params) => readGame(params),
};

register(analyse);
