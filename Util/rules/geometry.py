"""Board geometry as numpy lookup tables.

Squares are numbered like python-chess: ``a1 = 0, b1 = 1, ..., h8 = 63``;
``file = square & 7`` and ``rank = square >> 3``.  Every table here is
computed once at import time from first principles (steps on an 8x8 grid),
so the engine never builds a python-chess ``Board`` in its inner loops.
"""

from __future__ import annotations

import numpy as np

NO_SQUARE = -1

KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
ROOK_DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))
BISHOP_DIRECTIONS = ((1, 1), (-1, 1), (-1, -1), (1, -1))
QUEEN_DIRECTIONS = ROOK_DIRECTIONS + BISHOP_DIRECTIONS

#: Directions in which each sliding piece letter moves.
SLIDER_DIRECTIONS = {"Q": QUEEN_DIRECTIONS, "R": ROOK_DIRECTIONS, "B": BISHOP_DIRECTIONS}


def _shift(square: int, file_step: int, rank_step: int) -> int:
    file, rank = (square & 7) + file_step, (square >> 3) + rank_step
    return rank * 8 + file if 0 <= file < 8 and 0 <= rank < 8 else NO_SQUARE


def _step_table(steps) -> np.ndarray:
    """``table[square, k]``: the square one step ``steps[k]`` away, or -1 off the board."""
    return np.array([[_shift(s, df, dr) for df, dr in steps] for s in range(64)], dtype=np.int8)


def _ray_table(directions) -> np.ndarray:
    """``table[square, d, k]``: the (k+1)-th square along direction d, or -1 past the edge."""
    table = np.full((64, len(directions), 7), NO_SQUARE, dtype=np.int8)
    for s in range(64):
        for d, (df, dr) in enumerate(directions):
            for k in range(7):
                t = _shift(s, df * (k + 1), dr * (k + 1))
                if t == NO_SQUARE:
                    break
                table[s, d, k] = t
    return table


KING_STEP = _step_table(KING_STEPS)
KNIGHT_STEP = _step_table(KNIGHT_STEPS)
RAYS = {letter: _ray_table(dirs) for letter, dirs in SLIDER_DIRECTIONS.items()}

SQUARE_BIT = np.array([1 << s for s in range(64)], dtype=np.uint64)
FILE_OF = np.arange(64, dtype=np.int8) & 7
RANK_OF = np.arange(64, dtype=np.int8) >> 3


def _bitboard(squares) -> int:
    return sum(1 << int(s) for s in squares)


def _between_and_line():
    """Squares strictly between two aligned squares, and the whole line through them.

    ``LINE_KIND[a, b]``: 0 not aligned, 1 same rank or file, 2 same diagonal.
    ``BETWEEN[a, b]``: bitboard of the squares strictly between (0 if not aligned).
    ``LINE[a, b]``: bitboard of the full board-wide line through a and b
    (0 if not aligned); python-chess calls this ``ray(a, b)``.
    """
    kind = np.zeros((64, 64), dtype=np.int8)
    between = np.zeros((64, 64), dtype=np.uint64)
    line = np.zeros((64, 64), dtype=np.uint64)
    for a in range(64):
        for letter, line_kind in (("R", 1), ("B", 2)):
            for d, (df, dr) in enumerate(SLIDER_DIRECTIONS[letter]):
                forward = [int(t) for t in RAYS[letter][a, d] if t >= 0]
                backward = [int(t) for t in RAYS[letter][a, d ^ 2] if t >= 0]  # opposite direction
                full = _bitboard(forward + backward + [a])
                for k, b in enumerate(forward):
                    kind[a, b] = line_kind
                    between[a, b] = _bitboard(forward[:k])
                    line[a, b] = full
    return kind, between, line


LINE_KIND, BETWEEN, LINE = _between_and_line()

KING_ADJACENT = np.array(
    [[max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) <= 1 for b in range(64)] for a in range(64)]
)
KNIGHT_ATTACKS = np.zeros((64, 64), dtype=bool)
for _s in range(64):
    for _t in KNIGHT_STEP[_s]:
        if _t >= 0:
            KNIGHT_ATTACKS[_s, _t] = True

#: ``WHITE_PAWN_ATTACKS[p, t]``: a white pawn on p attacks t (diagonally forward).
WHITE_PAWN_ATTACKS = np.zeros((64, 64), dtype=bool)
for _s in range(64):
    for _df in (-1, 1):
        _t = _shift(_s, _df, 1)
        if _t >= 0:
            WHITE_PAWN_ATTACKS[_s, _t] = True

#: ``BLACK_PAWN_ATTACKS[p, t]``: a black pawn on p attacks t (diagonally forward, towards rank 1).
BLACK_PAWN_ATTACKS = np.zeros((64, 64), dtype=bool)
for _s in range(64):
    for _df in (-1, 1):
        _t = _shift(_s, _df, -1)
        if _t >= 0:
            BLACK_PAWN_ATTACKS[_s, _t] = True
