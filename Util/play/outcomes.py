"""How a game of chess ends: the rule that ended it, in a word and in a sentence for the player."""

from __future__ import annotations

from typing import Optional

import chess

__all__ = ["game_end", "termination_message"]


#: Why a game is over (:func:`game_end`), in words for the player.
_END_MESSAGES = {
    "stalemate": "Stalemate: the side to move has no legal move but is not in check. Draw.",
    "insufficient material": "Insufficient material: no side can ever mate. Draw.",
    "fivefold repetition": "Fivefold repetition: the same position for the fifth time. Draw.",
    "75-move rule": "75-move rule: 75 moves each without a capture or pawn move. Draw.",
    "threefold repetition": "Threefold repetition: the same position for the third time; the AI claims the draw.",
    "fifty-move rule": "Fifty-move rule: 50 moves each without a capture or pawn move; the AI claims the draw.",
}


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


def termination_message(board: chess.Board) -> Optional[str]:
    """Why the game is over, in a sentence for the player; None while it goes on."""
    end = game_end(board)
    if end == "checkmate":
        return f"Checkmate: {'White' if board.turn == chess.BLACK else 'Black'} wins."
    return _END_MESSAGES.get(end) if end else None
