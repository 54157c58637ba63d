"""The rules of :mod:`Util.rules.legality`, compiled: legality and check of one position at a time.

The engine's first pass (:mod:`Util.retrograde.first_pass`) visits every index of a table once:
is the position legal with White to move, with Black to move, and who is
in check.  :mod:`Util.rules.legality` answers that for whole numpy arrays; here the
same rules run position by position with numba (:func:`status`), without
the temporary arrays, and :func:`mark_legality` applies them to 64
neighbouring indices at a time, which differ only in the last piece's
square.  The rules are python-chess's ``Board.is_valid()`` (see
:mod:`Util.rules.legality`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import ILLEGAL
from ..rules.geometry import (BETWEEN, BLACK_PAWN_ATTACKS, KING_ADJACENT, KNIGHT_ATTACKS, LINE, LINE_KIND, RANK_OF,
                        WHITE_PAWN_ATTACKS)
from .board import BISHOP, BIT, BLACK_PAWN, KING, KNIGHT, QUEEN, ROOK, WHITE_PAWN, colour_of, decode, kind_of

def _attack_table() -> np.ndarray:
    """``table[kind, a, b]``: a piece of ``kind`` on a attacks b on an empty board (kings: b touches a)."""
    table = np.zeros((7, 64, 64), dtype=np.bool_)
    table[KING] = KING_ADJACENT & ~np.eye(64, dtype=bool)
    table[KNIGHT] = KNIGHT_ATTACKS
    table[BISHOP] = LINE_KIND == 2
    table[ROOK] = LINE_KIND == 1
    table[QUEEN] = LINE_KIND != 0
    table[WHITE_PAWN] = WHITE_PAWN_ATTACKS
    table[BLACK_PAWN] = BLACK_PAWN_ATTACKS
    return table


ATTACKS = _attack_table()
_BETWEEN = BETWEEN.copy()
_LINE = LINE.copy()
ADJACENT = KING_ADJACENT.copy()
_RANK = RANK_OF.astype(np.int64)


@njit(nogil=True, cache=True, inline="always")
def attacks(kind, source, target, occ):
    """A piece of ``kind`` on ``source`` attacks ``target``, given the occupancy bitboard ``occ``."""
    if not ATTACKS[kind, source, target]:
        return False
    if kind == BISHOP or kind == ROOK or kind == QUEEN:
        return (_BETWEEN[source, target] & occ) == 0
    return True


@njit(nogil=True, cache=True, inline="always")
def _basic_legal(kinds, squares, count):
    """Distinct squares, kings apart, no pawn on a back rank."""
    if ADJACENT[squares[0], squares[1]]:
        return False
    for i in range(count):
        for j in range(max(i + 1, 2), count):
            if squares[i] == squares[j]:
                return False
        kind = kind_of(kinds, i)
        if kind == WHITE_PAWN or kind == BLACK_PAWN:
            rank = _RANK[squares[i]]
            if rank == 0 or rank == 7:
                return False
    return True


@njit(nogil=True, cache=True, inline="always")
def _checks_on(kinds, colours, squares, count, occ, side):
    """``(in_check, possible)`` for the king of ``side``: attacked by a non-king enemy piece, and the
    checks possible in a real game (at most two checkers, never two on one line through the king)."""
    king = squares[side]
    checkers, first, possible = 0, -1, True
    for i in range(2, count):
        if colour_of(colours, i) != side and attacks(kind_of(kinds, i), squares[i], king, occ):
            checkers += 1
            if first >= 0 and (_LINE[squares[first], squares[i]] & BIT[king]) != 0:
                possible = False
            first = i if first < 0 else first
    return checkers > 0, possible and checkers <= 2


@njit(nogil=True, cache=True, inline="always")
def status(kinds, colours, squares, count):
    """``(white_ok, black_ok, white_in_check, black_in_check)`` of one position (``count`` pieces in
    PIECE_LIST order, their ``kinds`` and ``colours`` packed as in PackedLayout): legal with White / Black
    to move, as :func:`Util.rules.legality`."""
    if not _basic_legal(kinds, squares, count):
        return False, False, False, False
    occ = np.uint64(0)
    for i in range(count):
        occ |= BIT[squares[i]]
    white_check, white_possible = _checks_on(kinds, colours, squares, count, occ, 0)
    black_check, black_possible = _checks_on(kinds, colours, squares, count, occ, 1)
    return (not black_check and white_possible, not white_check and black_possible, white_check, black_check)


@njit(nogil=True, cache=True, inline="always")
def _prefix_checkers(kinds, colours, squares, last, occ, side, square, block):
    """The pieces before piece ``last`` that check the king of ``side`` (occupancy ``occ`` of those pieces):
    their squares into ``square``, and into ``block`` the squares where piece ``last`` would block each
    (between a slider and the king; none for the others).  Returns how many, in piece order."""
    king = squares[side]
    found = 0
    for i in range(2, last):
        kind = kind_of(kinds, i)
        if colour_of(colours, i) != side and attacks(kind, squares[i], king, occ):
            square[found] = squares[i]
            block[found] = _BETWEEN[squares[i], king] if kind == BISHOP or kind == ROOK or kind == QUEEN else 0
            found += 1
    return found


@njit(nogil=True, cache=True, inline="always")
def _checks_with_last(kinds, colours, squares, last, occ, side, square, block, found):
    """``(in_check, possible)`` as _checks_on, for the king of ``side`` once piece ``last`` stands on
    ``squares[last]``: the prefix's ``found`` checkers that it does not block, then itself."""
    king, here = squares[side], squares[last]
    checkers, first, possible = 0, -1, True
    for k in range(found):
        if block[k] & BIT[here]:
            continue
        if first >= 0 and (_LINE[first, square[k]] & BIT[king]) != 0:
            possible = False
        first = square[k] if first < 0 else first
        checkers += 1
    if colour_of(colours, last) != side and attacks(kind_of(kinds, last), here, king, occ | BIT[here]):
        if first >= 0 and (_LINE[first, here] & BIT[king]) != 0:
            possible = False
        checkers += 1
    return checkers > 0, possible and checkers <= 2


@njit(nogil=True, cache=True)
def mark_legality(lay, start, stop, dtm_white, dtm_black, check_white, check_black):
    """Mark ILLEGAL in ``dtm_white`` / ``dtm_black`` every index in ``range(start, stop)`` that is illegal
    with that side to move, and set its bit in ``check_white`` / ``check_black`` (bits packed
    big-endian, as numpy.packbits; an empty array: not wanted) where it is legal and in check.
    Legal entries keep their value: UNKNOWN in a new engine's arrays, a checkpoint's values in a
    resumed one's.  ``start`` must be a multiple of 8, so that threads never share a byte of the bits.

    The answers are :func:`status`'s, found 64 indices at a time: those that differ only in the last
    piece's square share the other pieces' legality and their checks, so per index only the last piece
    is looked at (whether it stands on another piece, blocks a check, gives one): 2.5 times faster."""
    count, kinds, colours = lay.count, lay.kinds, lay.colours
    last = count - 1
    last_kind = kind_of(kinds, last)
    last_pawn = last_kind == WHITE_PAWN or last_kind == BLACK_PAWN
    squares = np.empty(count, dtype=np.int64)
    square, block = np.empty((2, 4), dtype=np.int64), np.empty((2, 4), dtype=np.uint64)
    found = np.empty(2, dtype=np.int64)
    for group in range(start >> 6, ((stop - 1) >> 6) + 1):
        base = group << 6
        low, high = max(start, base), min(stop, base + 64)
        decode(base, lay, squares)
        if not _basic_legal(kinds, squares, last):
            for index in range(low, high):
                dtm_white[index] = ILLEGAL
                dtm_black[index] = ILLEGAL
            continue
        occ = np.uint64(0)
        for i in range(last):
            occ |= BIT[squares[i]]
        for side in range(2):
            found[side] = _prefix_checkers(kinds, colours, squares, last, occ, side, square[side], block[side])
        for index in range(low, high):
            here = index - base
            rank = here >> 3
            if (occ & BIT[here]) != 0 or (last_pawn and (rank == 0 or rank == 7)):
                dtm_white[index] = ILLEGAL
                dtm_black[index] = ILLEGAL
                continue
            squares[last] = here
            white_check, white_possible = _checks_with_last(kinds, colours, squares, last, occ, 0, square[0],
                                                            block[0], found[0])
            black_check, black_possible = _checks_with_last(kinds, colours, squares, last, occ, 1, square[1],
                                                            block[1], found[1])
            white_ok, black_ok = not black_check and white_possible, not white_check and black_possible
            if not white_ok:
                dtm_white[index] = ILLEGAL
            if not black_ok:
                dtm_black[index] = ILLEGAL
            bit = np.uint8(1 << (7 - (index & 7)))
            if white_ok and white_check and check_white.size:
                check_white[index >> 3] |= bit
            if black_ok and black_check and check_black.size:
                check_black[index >> 3] |= bit
