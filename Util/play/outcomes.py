"""How a game of chess ends, and the results a game or a move has for a side: the rules, without words
(those are in :mod:`Util.play.words`)."""

from __future__ import annotations

from typing import Optional

import chess

__all__ = ["WIN", "DRAW", "LOSS", "game_end"]

#: Results for a side (the side to move, or the side that plays a move): a win, a draw, a loss.
WIN, DRAW, LOSS = 1, 0, -1


def game_end(board: chess.Board) -> Optional[str]:
    """Why the game is over (``"checkmate"``, ``"stalemate"``, ...); None while it goes on.

    Checkmate, stalemate and insufficient material end it; so do fivefold
    repetition and the 75-move rule (automatic in chess), and threefold
    repetition and the fifty-move rule once they have actually happened
    (claimed at once, not merely claimable by a next move).
    """
    checks = (("checkmate", board.is_checkmate), ("stalemate", board.is_stalemate),
              ("insufficient material", board.is_insufficient_material),
              ("fivefold repetition", board.is_fivefold_repetition), ("75-move rule", board.is_seventyfive_moves),
              ("threefold repetition", lambda: board.is_repetition(3)), ("fifty-move rule", board.is_fifty_moves))
    return next((name for name, happened in checks if happened()), None)
