"""The compact index, compiled: a position's squares from its entry and back, and its un-moves.

The scheme is :mod:`Util.table.compact_index`'s (one entry per position: the
kings as one digit, identical pieces as one), with its tables as constants
here.  :class:`CompactPacked` carries one material's digits as integers, so
that one compiled kernel serves every material (as
:class:`Util.retrograde_kernels.board.PackedLayout` does for the other scheme).
Pawnless materials only, for now: a pawn's moves are not generated here.

Moving a piece other than a king changes only its own digit when the kings
are not both on the a1-h8 diagonal (the fold is then the identity): such
un-moves cost an addition (:func:`unmoves`); a king's un-move, which may fold
the whole board, is encoded afresh (:func:`canonical`).
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numpy as np
from numba import njit

from ..board.symmetry import TRANSFORMS
from ..rules.geometry import RAYS
from ..table.compact_index import (CANONICAL_ROW, DIAGONAL_ROW, KING_PAIR_OF, KING_PAIRS, ON_DIAGONAL, CompactLayout,
                                   set_table)
from .board import BIT, KIND_OF_LETTER, KING, KNIGHT, QUEEN, STEP_SQUARES, kind_of, pack_small
from .legality import ADJACENT

#: The symmetries as int64 rows; the king tables of the scheme (row 0 without pawns, 1 with).
ROWS = TRANSFORMS.astype(np.int64)
CANON_ROW = CANONICAL_ROW.astype(np.int64)
PAIR_OF = KING_PAIR_OF.astype(np.int64)
PAIRS = KING_PAIRS.astype(np.int64)
DIAG = ON_DIAGONAL.copy()
#: ``ANTI[s]``: s lies on the a8-h1 diagonal.
ANTI = np.array([(s & 7) + (s >> 3) == 7 for s in range(64)])
#: ``COMB[s, k]`` = C(s, k) for the combination numbers of sets of squares.
COMB = np.array([[comb(s, k) for k in range(6)] for s in range(65)], dtype=np.int64)
#: The ascending squares of each set of two, three and four squares, by its number.
SETS2, SETS3 = set_table(2).astype(np.int64), set_table(3).astype(np.int64)
SLIDE = np.full((5, 64, 8, 7), -1, dtype=np.int64)
for _letter, _kind in (("B", 2), ("R", 3), ("Q", QUEEN)):
    SLIDE[_kind, :, : RAYS[_letter].shape[1]] = RAYS[_letter]
#: Un-moves of one side from one position, at most (a king, a queen and two rooks: 8 + 27 + 28).
MAX_UNMOVES = 80


class CompactPacked(NamedTuple):
    """A :class:`Util.table.compact_index.CompactLayout` as integers, for the kernels."""

    count: int  # pieces, kings included
    pawns: int
    kinds: int  # per piece 4 bits (board.KIND_OF_LETTER)
    colours: int  # per piece 1 bit: 0 White, 1 Black
    groups: int  # digits after the kings'
    firsts: int  # per group 4 bits: its first piece
    sizes: int  # per group 4 bits: its number of pieces (1 to 3)
    stride0: int  # the kings' digit's stride, then each group's
    stride1: int
    stride2: int
    stride3: int
    stride4: int
    #: Lowest DTM byte of the loss counters (the bytes from it up to ILLEGAL - 1); UNKNOWN without them.
    floor: int = 255

    @classmethod
    def of(cls, layout: CompactLayout, floor: int = 255) -> "CompactPacked":
        if layout.pawns:
            raise ValueError(f"{layout.material}: the compact kernels handle tables without pawns only")
        if any(size > 3 for _, size in layout.groups):
            raise ValueError(f"{layout.material}: four identical pieces are not supported")
        letters = layout.material.letters
        strides = list(layout.strides) + [0] * (5 - len(layout.strides))
        return cls(count=len(letters), pawns=layout.pawns, kinds=pack_small([KIND_OF_LETTER[c] for c in letters]),
                   colours=pack_small([0 if c.isupper() else 1 for c in letters], bits=1),
                   groups=len(layout.groups), firsts=pack_small([f for f, _ in layout.groups]),
                   sizes=pack_small([s for _, s in layout.groups]), stride0=strides[0], stride1=strides[1],
                   stride2=strides[2], stride3=strides[3], stride4=strides[4], floor=floor)


@njit(nogil=True, cache=True, inline="always")
def nibble(packed, k):
    return (packed >> (4 * k)) & 15


@njit(nogil=True, cache=True, inline="always")
def stride_of(lay, g):
    """The stride of digit g (0: the kings, 1..: the groups)."""
    if g == 0:
        return lay.stride0
    if g == 1:
        return lay.stride1
    if g == 2:
        return lay.stride2
    if g == 3:
        return lay.stride3
    return lay.stride4


@njit(nogil=True, cache=True, inline="always")
def group_of(lay, piece):
    """The group (1-based digit number) that ``piece`` (not a king) belongs to."""
    for g in range(lay.groups):
        first = nibble(lay.firsts, g)
        if first <= piece < first + nibble(lay.sizes, g):
            return g + 1
    return -1


@njit(nogil=True, cache=True, inline="always")
def set_number(squares, first, size):
    """The combination number of the squares of pieces ``first .. first + size - 1`` (any order)."""
    if size == 1:
        return squares[first]
    a, b = squares[first], squares[first + 1]
    if size == 2:
        return COMB[min(a, b), 1] + COMB[max(a, b), 2]
    c = squares[first + 2]
    low, high = min(a, min(b, c)), max(a, max(b, c))
    return COMB[low, 1] + COMB[a + b + c - low - high, 2] + COMB[high, 3]


@njit(nogil=True, cache=True, inline="always")
def decode(index, lay, squares):
    """Fill ``squares`` (PIECE_LIST order, identical pieces ascending) with the position of ``index``."""
    pair = index // lay.stride0
    rest = index - pair * lay.stride0
    squares[0], squares[1] = PAIRS[lay.pawns, pair, 0], PAIRS[lay.pawns, pair, 1]
    for g in range(lay.groups):
        stride = stride_of(lay, g + 1)
        digit = rest // stride
        rest -= digit * stride
        first, size = nibble(lay.firsts, g), nibble(lay.sizes, g)
        if size == 1:
            squares[first] = digit
        elif size == 2:
            squares[first], squares[first + 1] = SETS2[digit, 0], SETS2[digit, 1]
        else:
            squares[first], squares[first + 1], squares[first + 2] = SETS3[digit, 0], SETS3[digit, 1], SETS3[digit, 2]


@njit(nogil=True, cache=True, inline="always")
def index_of(lay, folded):
    """The index of squares whose kings are folded (identical pieces in any order)."""
    index = PAIR_OF[lay.pawns, folded[0] * 64 + folded[1]] * lay.stride0
    for g in range(lay.groups):
        index += set_number(folded, nibble(lay.firsts, g), nibble(lay.sizes, g)) * stride_of(lay, g + 1)
    return index


@njit(nogil=True, cache=True, inline="always")
def canonical(lay, squares, folded):
    """``(index, symmetric)`` of the position ``squares`` (any symmetry, kings apart): its entry, and
    whether it is its own mirror (two of the board's symmetries leave it as it is).  ``folded``: scratch
    of the same size."""
    row = CANON_ROW[lay.pawns, squares[0] * 64 + squares[1]]
    for i in range(lay.count):
        folded[i] = ROWS[row, squares[i]]
    index = index_of(lay, folded)
    if lay.pawns or not (DIAG[folded[0]] and DIAG[folded[1]]):
        return index, False
    for i in range(lay.count):
        folded[i] = ROWS[DIAGONAL_ROW, folded[i]]
    mirrored = index_of(lay, folded)
    return min(index, mirrored), mirrored == index


@njit(nogil=True, cache=True, inline="always")
def may_be_symmetric(a, b):
    """Whether a position with kings on ``a`` and ``b`` can be its own mirror: both on one of the long
    diagonals (the only lines a symmetry of the board leaves square by square)."""
    return (DIAG[a] and DIAG[b]) or (ANTI[a] and ANTI[b])


@njit(nogil=True, cache=True, inline="always")
def occupancy(squares, count):
    occ = np.uint64(0)
    for i in range(count):
        occ |= BIT[squares[i]]
    return occ


@njit(nogil=True, cache=True, inline="always")
def is_canonical_entry(lay, index, squares, folded):
    """Whether ``index`` (decoded into ``squares``) is a position's entry: distinct squares, and not the
    unused reading of a position whose kings stand on the a1-h8 diagonal."""
    for i in range(lay.count):
        for j in range(i + 1, lay.count):
            if squares[i] == squares[j]:
                return False
    if lay.pawns or not (DIAG[squares[0]] and DIAG[squares[1]]):
        return True
    return canonical(lay, squares, folded)[0] == index


@njit(nogil=True, cache=True)
def unmoves(lay, side, f, squares, folded, out, weight, m):
    """Append to ``out[m:]`` the entries of the positions (``side`` to move) from which a move of ``side``
    leads to position ``f`` (decoded in ``squares``), with ``weight[k]`` 2 where such a predecessor is its
    own mirror, else 1 (see compact_kernels' counters); return the new end.  No un-captures: those are the
    exits.  A predecessor with the kings side by side is left out (no index holds it)."""
    occ = occupancy(squares, lay.count)
    symmetric_kings = not lay.pawns and DIAG[squares[0]] and DIAG[squares[1]]
    for piece in range(lay.count):
        if (piece == 0 and side == 1) or (piece == 1 and side == 0):
            continue
        if piece >= 2 and ((lay.colours >> piece) & 1) != side:
            continue
        kind = kind_of(lay.kinds, piece)
        source = squares[piece]
        g = group_of(lay, piece)
        fast = piece >= 2 and not symmetric_kings
        before = set_number(squares, nibble(lay.firsts, g - 1), nibble(lay.sizes, g - 1)) if fast else 0
        stride = stride_of(lay, g) if fast else 0
        for d in range(8):
            for k in range(7):
                if kind == KING or kind == KNIGHT:
                    if k > 0:
                        break
                    t = STEP_SQUARES[kind, source, d]
                elif kind == QUEEN or d < 4:
                    t = SLIDE[kind, source, d, k]
                else:
                    break
                if t < 0 or occ & BIT[t]:
                    break
                if piece < 2 and ADJACENT[t, squares[1 - piece]]:
                    continue
                squares[piece] = t
                if fast:
                    out[m] = f + (set_number(squares, nibble(lay.firsts, g - 1), nibble(lay.sizes, g - 1)) - before) * stride
                    weight[m] = 1
                else:
                    index, symmetric = canonical(lay, squares, folded)
                    out[m] = index
                    weight[m] = 2 if symmetric else 1
                m += 1
            squares[piece] = source
    return m
