"""Random legal boards of one material: the one generator the tests, benchmarks, checks and random starts use.

A board is drawn by placing the material's pieces on distinct squares picked at random (every placement
equally likely) and keeping it only if python-chess calls it valid (``chess.Board.is_valid``: both kings,
no pawn on the first or last rank, the side not to move not in check, no impossible check).  So among the
legal boards of the material, each is equally likely.

The random source is the caller's: a ``random.Random`` or a numpy ``Generator``; each draws its squares
its own way (``rng.sample`` or ``rng.choice`` without replacement), so a caller that seeded one keeps the
very boards it drew before this module existed.
"""

from __future__ import annotations

import random
from typing import List, Optional, Union

import chess
import numpy as np

from .material import Material

__all__ = ["DEFAULT_TRIES", "random_legal_board", "random_legal_boards"]

#: Placements tried for one board before giving up: a legal board is usually found in a few tries (most
#: placements of up to five pieces are legal), so this many failures means the wish cannot be met
#: (``playable`` boards of bare kings, or of a king and knight against a king: every one is a draw).
DEFAULT_TRIES = 100_000

Rng = Union[random.Random, np.random.Generator]


def _squares(rng: Rng, count: int) -> List[int]:
    if isinstance(rng, random.Random):
        return rng.sample(range(64), count)
    return [int(s) for s in rng.choice(64, size=count, replace=False)]


def _coin(rng: Rng) -> bool:
    return rng.random() < 0.5


def random_legal_board(material: Union[Material, str], rng: Rng, *, turn: Optional[chess.Color] = None,
                       playable: bool = False, tries: int = DEFAULT_TRIES) -> chess.Board:
    """A random board of ``material`` (``Material`` or a name such as ``"KQvKR"``, White's pieces first)
    that python-chess calls valid, without castling rights or en passant square.

    ``turn``: the side to move (``chess.WHITE`` or ``chess.BLACK``); None: either, by a fair coin drawn
    after each placement.  ``playable``: also refuse boards where the game is already over (checkmate,
    stalemate, insufficient material), for a start a person or engine plays on.  ``rng``: a
    ``random.Random`` or a numpy ``Generator``; the same seed gives the same board.

    Raises ValueError, naming the material and the condition, when ``tries`` placements gave none (a
    ``playable`` board of KvK or KNvK does not exist).
    """
    material = Material.parse(material) if isinstance(material, str) else material
    letters = material.letters
    for _ in range(tries):
        board = chess.Board(None)
        for square, letter in zip(_squares(rng, len(letters)), letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = _coin(rng) if turn is None else turn
        if board.is_valid() and not (playable and board.is_game_over()):
            return board
    wish = "legal and not over" if playable else "legal"
    mover = "" if turn is None else f" with {chess.COLOR_NAMES[turn].capitalize()} to move"
    raise ValueError(f"{material}: no {wish} board{mover} in {tries:,} random placements; "
                     f"{'ask for playable=False or ' if playable else ''}choose another material")


def random_legal_boards(material: Union[Material, str], count: int, rng: Rng, *,
                        turn: Optional[chess.Color] = None, playable: bool = False) -> List[chess.Board]:
    """``count`` boards of :func:`random_legal_board`, drawn one after the other from ``rng``; a board may
    come twice (each draw is independent)."""
    return [random_legal_board(material, rng, turn=turn, playable=playable) for _ in range(count)]
