"""Where a position's value is stored in a table file: its index with duplicates resolved.

The engine's index (:mod:`Util.table.index_scheme`) gives some positions two or more
entries with the same value: identical pieces in either order, and, without
pawns, a white king on the a1-h8 diagonal (the position and its mirror in
that diagonal).  A file keeps one of them and blanks the others
(:meth:`Util.table.index_scheme.Layout.blank_duplicates`): the one whose identical
pieces stand in ascending square order and, on the diagonal, the lower of
the position and its mirror.  :func:`stored_index` finds that entry for one
position in plain Python (a few microseconds: what a single probe needs),
:func:`stored_indices` for many at once with numpy.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, Sequence, Tuple

import numpy as np

from .index_scheme import Layout
from ..board.material import Material
from ..board.symmetry import TRANSFORMS, Swap_Type

_DIAGONAL_ROW = 1 + list(Swap_Type).index(Swap_Type.DIAGONAL)


class StoredIndex:
    """A material's index arithmetic as plain Python lists: ``of(squares)`` is :func:`stored_index`."""

    def __init__(self, layout: Layout) -> None:
        self.fold_rows: List[List[int]] = [TRANSFORMS[row].tolist() for row in layout.fold.tolist()]
        self.slot_of_square: List[int] = layout.slot_of_square.tolist()
        self.strides: List[int] = layout.strides.tolist()
        self.groups: List[Tuple[int, int]] = [(g[0], g[-1] + 1) for g in layout.identical_groups]
        self.diagonal_slot: List[bool] = layout.diagonal_slot.tolist()
        self.mirror: List[int] = TRANSFORMS[_DIAGONAL_ROW].tolist()

    def of(self, squares: Sequence[int]) -> int:
        """The stored entry of the position with these distinct squares (see :func:`stored_index`)."""
        row = self.fold_rows[squares[0]]
        folded = [row[s] for s in squares]
        index = self.index(folded)
        if self.diagonal_slot[self.slot_of_square[folded[0]]]:
            mirror = self.mirror
            index = min(index, self.index([mirror[s] for s in folded]))
        return index

    def index(self, squares: List[int]) -> int:
        for start, end in self.groups:
            squares[start:end] = sorted(squares[start:end])
        strides = self.strides
        total = self.slot_of_square[squares[0]] * strides[0]
        for i in range(1, len(squares)):
            total += squares[i] * strides[i]
        return total


@lru_cache(maxsize=None)
def stored_index_of(material: Material) -> StoredIndex:
    """The (shared) :class:`StoredIndex` of ``material``."""
    return StoredIndex(Layout(material))


def stored_index(material: Material, squares: Sequence[int]) -> int:
    """The stored entry of the position with these squares (PIECE_LIST order: white king, black king,
    White's pieces, Black's; any symmetry of it, identical pieces in any order).  The squares must be
    distinct (a real position); the result is then an index in ``range(Layout(material).size)``."""
    return stored_index_of(material).of(squares)


def stored_indices(layout: Layout, squares: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`stored_index` of many positions: ``squares[i]`` holds piece i's square of each (int64)."""
    folded = np.stack(_folded(layout, squares))
    groups = [(g[0], g[-1] + 1) for g in layout.identical_groups]

    def index_of(rows: np.ndarray) -> np.ndarray:
        for start, end in groups:
            rows[start:end] = np.sort(rows[start:end], axis=0)
        total = layout.slot_of_square[rows[0]] * layout.strides[0]
        for i in range(1, rows.shape[0]):
            total = total + rows[i] * layout.strides[i]
        return total

    index = index_of(folded.copy())
    on_diagonal = layout.diagonal_slot[layout.slot_of_square[folded[0]]]
    if on_diagonal.any():
        mirrored = TRANSFORMS[_DIAGONAL_ROW].astype(np.int64)[folded[:, on_diagonal]]
        index[on_diagonal] = np.minimum(index[on_diagonal], index_of(mirrored))
    return index


def _folded(layout: Layout, squares: Sequence[np.ndarray]) -> List[np.ndarray]:
    """The squares moved by the symmetry that puts each position's white king on a canonical square."""
    squares = [np.asarray(s, dtype=np.int64) for s in squares]
    rows = layout.fold.astype(np.int64)[squares[0]]
    return [TRANSFORMS.astype(np.int64)[rows, s] for s in squares]
