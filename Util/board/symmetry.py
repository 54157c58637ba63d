"""Symmetries of the board, as in the thesis's ``Swap_Type`` and ``mirror``.

Without pawns a position keeps its value under all eight symmetries of the
square (identity, two mirrors, three rotations, two diagonal flips).  Pawns
move only forward, so with pawns only the mirror between the a- and h-files
is left.  The engine stores one representative per symmetry class: the one
whose white king stands in :data:`CANONICAL_KING_SQUARES`.
"""

from __future__ import annotations

from enum import Enum
from typing import Dict, Tuple

import chess
import numpy as np

__all__ = ["Swap_Type", "SWAPS", "TRANSFORMS", "INVERSE", "IDENTITY", "HORIZONTAL_ROW", "allowed_transforms",
           "canonical_king_squares", "folding_transform", "mirror"]


class Swap_Type(Enum):  # noqa: N801  (the thesis's name)
    """The seven non-trivial symmetries of the board (names from the thesis)."""

    VERTICAL = "vertical"  # a1 <-> a8: ranks reversed
    HORIZONTAL = "horizontal"  # a1 <-> h1: files reversed
    ROTATE_RIGHT = "rotate_right"
    ROTATE_180 = "rotate_180"
    ROTATE_LEFT = "rotate_left"
    DIAGONAL = "diagonal"  # a1-h8 diagonal
    ANTI_DIAGONAL = "anti_diagonal"  # a8-h1 diagonal


def _transpose(x: int) -> int:
    return ((x >> 3) | (x << 3)) & 63


_SQUARE_MAPS = {
    Swap_Type.VERTICAL: lambda x: x ^ 56,
    Swap_Type.HORIZONTAL: lambda x: x ^ 7,
    Swap_Type.ROTATE_RIGHT: lambda x: _transpose(x) ^ 56,
    Swap_Type.ROTATE_180: lambda x: x ^ 63,
    Swap_Type.ROTATE_LEFT: lambda x: _transpose(x) ^ 7,
    Swap_Type.DIAGONAL: _transpose,
    Swap_Type.ANTI_DIAGONAL: lambda x: _transpose(x) ^ 63,
}

#: ``SWAPS[swap_type.value][square]``: where the square goes (the thesis's dictionary).
SWAPS: Dict[str, Dict[int, int]] = {t.value: {x: f(x) for x in range(64)} for t, f in _SQUARE_MAPS.items()}

#: All eight symmetries as rows of a table, row 0 the identity; ``TRANSFORMS[t, square]``.
TRANSFORMS = np.array(
    [list(range(64))] + [[_SQUARE_MAPS[t](x) for x in range(64)] for t in Swap_Type], dtype=np.int8
)


def _inverse_rows() -> np.ndarray:
    rows = [row.tolist() for row in TRANSFORMS]
    return np.array([rows.index(np.argsort(row).tolist()) for row in TRANSFORMS], dtype=np.int8)


#: ``INVERSE[t]``: the row of TRANSFORMS that undoes row t.
INVERSE = _inverse_rows()
IDENTITY = 0
HORIZONTAL_ROW = 1 + list(Swap_Type).index(Swap_Type.HORIZONTAL)


def allowed_transforms(has_pawns: bool) -> Tuple[int, ...]:
    """Rows of TRANSFORMS that preserve every position's value for this material."""
    return (IDENTITY, HORIZONTAL_ROW) if has_pawns else tuple(range(8))


def canonical_king_squares(has_pawns: bool) -> Tuple[int, ...]:
    """Squares the white king is folded into: a1-d1-d4 triangle without pawns, files a-d with."""
    if has_pawns:
        return tuple(s for s in range(64) if (s & 7) <= 3)
    return tuple(s for s in range(64) if (s & 7) <= 3 and (s >> 3) <= (s & 7))


def folding_transform(has_pawns: bool) -> np.ndarray:
    """``table[king_square]``: the TRANSFORMS row that brings the white king into the canonical squares.

    Where two rows qualify (a king on the a1-d4 diagonal) the lower row wins,
    so the choice is deterministic.
    """
    targets = set(canonical_king_squares(has_pawns))
    rows = allowed_transforms(has_pawns)
    return np.array([next(t for t in rows if int(TRANSFORMS[t, s]) in targets) for s in range(64)], dtype=np.int8)


def mirror(board: chess.Board, sw_type: Swap_Type) -> chess.Board:
    """A new board with every piece moved by the symmetry ``sw_type``; the side to move is kept."""
    swapped = chess.Board(None)
    swapped.turn = board.turn
    table = SWAPS[sw_type.value]
    for square, piece in board.piece_map().items():
        swapped.set_piece_at(table[square], piece)
    return swapped
