"""The compact index: one entry per position, for tables of six pieces.

The index of :mod:`Util.table.index_scheme` gives every piece 64 squares and
keeps a position's repeats (identical pieces in either order, a mirror in the
a1-h8 diagonal): 10 * 64**5 = 10.7 G entries per side to move for six pieces
without pawns, more than a machine of 24 GB holds at a byte each for both
sides.  This scheme numbers each position once:

* **the two kings are one digit**, the number of their pair among the legal
  ones after folding by symmetry (:data:`KING_PAIRS`: 462 without pawns, where
  the white king stands in the a1-d1-d4 triangle and, on the a1-d4 diagonal,
  the black king on or below that diagonal; 1,806 with pawns, the white king
  on files a-d);
* **identical pieces are one digit**, the number of their set of squares,
  ``C(s1, 1) + C(s2, 2) + ...`` for ascending squares ``s1 < s2 < ...``
  (2,016 for a pair instead of 64**2);
* every other piece is a digit of 64 squares.

The index is ``kings * stride[0] + digit_1 * stride[1] + ...`` (mixed radix,
the groups in PIECE_LIST order).  A position with both kings on the a1-h8
diagonal of a pawnless table is still its own mirror in that diagonal when
the other pieces are: of the two readings the lower index is the position's
entry, and the other is unused (as are indices whose pieces share a square).
KRNvKNN: 462 * 64 * 64 * 2,016 = 3.81 G entries per side, where the scheme of
five pieces would have 10.7 G.

:func:`compact_index` gives one position's entry in plain Python (what a probe
needs); :class:`CompactLayout` does it for numpy arrays and decodes entries
back into squares.  The compiled kernels (:mod:`Util.retrograde_kernels.compact_board`)
use the same tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb
from typing import List, Sequence, Tuple

import numpy as np

from ..board.material import Material
from ..board.symmetry import TRANSFORMS, Swap_Type, folding_transform

__all__ = ["COMPACT_SCHEME", "KING_PAIRS", "CANONICAL_ROW", "KING_PAIR_OF", "ON_DIAGONAL", "DIAGONAL_ROW",
           "GROUP_SQUARES", "CompactLayout", "compact_index", "combination_number", "set_table"]

#: The name files give this scheme in their header.
COMPACT_SCHEME = "compact-kings-and-sets-v1"
DIAGONAL_ROW = 1 + list(Swap_Type).index(Swap_Type.DIAGONAL)
_TRIANGLE = tuple(s for s in range(64) if (s >> 3) <= (s & 7) <= 3)


def _on_diagonal(square: int) -> bool:
    return (square & 7) == (square >> 3)


def _adjacent(a: int, b: int) -> bool:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) <= 1


def _king_tables(pawns: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pairs, row, pair_of)``: the legal folded king pairs (wk, bk) in index order (the white king's
    square first, then the black king's), the TRANSFORMS row that folds each raw pair ``wk * 64 + bk``,
    and the number of each folded pair (-1 where it is not one)."""
    fold = folding_transform(bool(pawns))
    row = np.zeros(64 * 64, dtype=np.int64)
    for wk in range(64):
        for bk in range(64):
            r = int(fold[wk])
            w, b = int(TRANSFORMS[r, wk]), int(TRANSFORMS[r, bk])
            if not pawns and _on_diagonal(w) and (b >> 3) > (b & 7):  # the black king above: mirror it below
                r = _composed(DIAGONAL_ROW, r)
            row[wk * 64 + bk] = r
    kings = _TRIANGLE if not pawns else tuple(s for s in range(64) if (s & 7) <= 3)
    pairs = [(w, b) for w in kings for b in range(64)
             if b != w and not _adjacent(w, b) and (pawns or not _on_diagonal(w) or (b >> 3) <= (b & 7))]
    pair_of = np.full(64 * 64, -1, dtype=np.int64)
    for k, (w, b) in enumerate(pairs):
        pair_of[w * 64 + b] = k
    return np.array(pairs, dtype=np.int64), row, pair_of


def _composed(first: int, then: int) -> int:
    """The TRANSFORMS row that does row ``then`` and then row ``first``."""
    composed = TRANSFORMS[first][TRANSFORMS[then].astype(np.int64)]
    return next(k for k, r in enumerate(TRANSFORMS) if (r == composed).all())


_TABLES = [_king_tables(0), _king_tables(1)]
#: ``KING_PAIRS[pawns][k]``: the squares (white king, black king) of king pair k (pawns: 0 or 1).
KING_PAIRS = np.stack([np.pad(t[0], ((0, 1806 - len(t[0])), (0, 0)), constant_values=-1) for t in _TABLES])
#: ``CANONICAL_ROW[pawns][wk * 64 + bk]``: the symmetry (row of TRANSFORMS) that folds a position by its kings.
CANONICAL_ROW = np.stack([t[1] for t in _TABLES])
#: ``KING_PAIR_OF[pawns][wk * 64 + bk]``: the number of a folded king pair, -1 if it is none.
KING_PAIR_OF = np.stack([t[2] for t in _TABLES])
#: ``ON_DIAGONAL[square]``: the square lies on the a1-h8 diagonal.
ON_DIAGONAL = np.array([_on_diagonal(s) for s in range(64)])
#: Squares a piece other than a king may stand on: 64 (pawns on ranks 1 and 8 are unused entries).
GROUP_SQUARES = 64


def combination_number(squares: Sequence[int]) -> int:
    """The number of a set of distinct squares among all sets of as many: ``C(s1,1) + C(s2,2) + ...``
    over the squares in ascending order (0 .. C(64, k) - 1)."""
    return sum(comb(s, k + 1) for k, s in enumerate(sorted(squares)))


@lru_cache(maxsize=None)
def set_table(size: int) -> np.ndarray:
    """``table[d]``: the ascending squares of the set numbered d (uint8, shape (C(64, size), size))."""
    from itertools import combinations

    table = np.zeros((comb(64, size), size), dtype=np.uint8)
    for squares in combinations(range(64), size):  # ascending squares; C(64, 4) = 635,376 sets at most
        table[combination_number(squares)] = squares
    return table


@dataclass(frozen=True)
class CompactLayout:
    """The compact index of one material (see the module's docstring)."""

    material: Material
    groups: Tuple[Tuple[int, int], ...] = field(init=False)

    def __post_init__(self) -> None:
        letters = self.material.letters
        groups: List[Tuple[int, int]] = []
        for i in range(2, len(letters)):
            if groups and letters[groups[-1][0]] == letters[i]:
                groups[-1] = (groups[-1][0], groups[-1][1] + 1)
            else:
                groups.append((i, 1))
        object.__setattr__(self, "groups", tuple(groups))

    @property
    def pawns(self) -> int:
        return int(self.material.has_pawns)

    @property
    def piece_count(self) -> int:
        return self.material.piece_count

    @cached_property
    def radices(self) -> Tuple[int, ...]:
        """Values of each digit: the king pairs, then each group's sets of squares."""
        kings = int((KING_PAIRS[self.pawns][:, 0] >= 0).sum())
        return (kings,) + tuple(comb(GROUP_SQUARES, size) for _, size in self.groups)

    @cached_property
    def strides(self) -> Tuple[int, ...]:
        """Index step of each digit (the last is 1)."""
        strides, step = [], 1
        for radix in reversed(self.radices):
            strides.append(step)
            step *= radix
        return tuple(reversed(strides))

    @property
    def size(self) -> int:
        """Entries per side to move."""
        return self.radices[0] * self.strides[0]

    def decode(self, index: np.ndarray) -> List[np.ndarray]:
        """Squares (int64 arrays, PIECE_LIST order, identical pieces ascending) of the entries ``index``."""
        index = np.asarray(index, dtype=np.int64)
        kings = KING_PAIRS[self.pawns][index // self.strides[0]]
        squares = [kings[:, 0], kings[:, 1]]
        for (first, size), stride, radix in zip(self.groups, self.strides[1:], self.radices[1:]):
            digit = (index // stride) % radix
            sets = set_table(size)[digit].astype(np.int64)
            squares += [sets[:, k] for k in range(size)]
        return squares

    def encode_canonical(self, squares: Sequence[np.ndarray]) -> np.ndarray:
        """The entry of each position given by its squares (PIECE_LIST order, any symmetry, identical pieces
        in any order): folded by its kings, and of a pawnless position with both kings on the a1-h8
        diagonal the lower of it and its mirror."""
        squares = [np.asarray(s, dtype=np.int64) for s in squares]
        row = CANONICAL_ROW[self.pawns][squares[0] * 64 + squares[1]]
        folded = [TRANSFORMS.astype(np.int64)[row, s] for s in squares]
        index = self._index(folded)
        tie = ON_DIAGONAL[folded[0]] & ON_DIAGONAL[folded[1]] & (not self.pawns)
        if tie.any():
            mirrored = [TRANSFORMS[DIAGONAL_ROW].astype(np.int64)[s[tie]] for s in folded]
            index[tie] = np.minimum(index[tie], self._index(mirrored))
        return index

    def _index(self, folded: List[np.ndarray]) -> np.ndarray:
        """The index of folded squares (kings folded; identical pieces in any order)."""
        index = KING_PAIR_OF[self.pawns][folded[0] * 64 + folded[1]] * self.strides[0]
        for (first, size), stride in zip(self.groups, self.strides[1:]):
            group = np.sort(np.stack(folded[first : first + size]), axis=0)
            digit = sum(_comb_array(group[k], k + 1) for k in range(size))
            index = index + digit * stride
        return index


def _comb_array(values: np.ndarray, k: int) -> np.ndarray:
    """``C(values, k)`` elementwise (int64)."""
    out = np.ones(values.shape, dtype=np.int64)
    for j in range(k):
        out = out * (values - j)
    for j in range(2, k + 1):
        out //= j
    return out


class CompactIndex:
    """:func:`compact_index` of one material, with its tables as plain Python lists (microseconds a probe)."""

    def __init__(self, layout: CompactLayout) -> None:
        self.pawns = layout.pawns
        self.rows: List[List[int]] = TRANSFORMS.astype(np.int64).tolist()
        self.row_of: List[int] = CANONICAL_ROW[self.pawns].tolist()
        self.pair_of: List[int] = KING_PAIR_OF[self.pawns].tolist()
        self.groups = [(first, first + size) for first, size in layout.groups]
        self.strides = list(layout.strides)
        self.diagonal: List[bool] = ON_DIAGONAL.tolist()

    def of(self, squares: Sequence[int]) -> int:
        row = self.rows[self.row_of[squares[0] * 64 + squares[1]]]
        folded = [row[s] for s in squares]
        index = self.index(folded)
        if not self.pawns and self.diagonal[folded[0]] and self.diagonal[folded[1]]:
            mirror = self.rows[DIAGONAL_ROW]
            index = min(index, self.index([mirror[s] for s in folded]))
        return index

    def index(self, folded: List[int]) -> int:
        total = self.pair_of[folded[0] * 64 + folded[1]] * self.strides[0]
        for (start, end), stride in zip(self.groups, self.strides[1:]):
            total += combination_number(folded[start:end]) * stride
        return total


@lru_cache(maxsize=None)
def compact_index_of(material: Material) -> CompactIndex:
    """The (shared) :class:`CompactIndex` of ``material``."""
    return CompactIndex(CompactLayout(material))


def compact_index(material: Material, squares: Sequence[int]) -> int:
    """The entry of the position with these distinct squares (PIECE_LIST order, any symmetry, identical
    pieces in any order) in ``material``'s compact index."""
    return compact_index_of(material).of(squares)
