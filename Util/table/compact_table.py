"""A table in the compact index: one byte per position and side to move, and the long mates beside it.

The compact engine (:mod:`Util.retrograde.compact`) leaves each side's values
as bytes (see :mod:`Util.retrograde_kernels.compact_kernels` for what a byte
holds): n itself below ``tail``, and from ``tail`` on one of two bytes that say
"decided at ply ``tail`` or later", with those positions listed by n in
``tails`` (KRNvKNN mates in up to 523 plies, more than a byte holds; the
positions with n from about 200 on are few).  :meth:`CompactTable.values`
gives a span of a side as true n in 16 bits, draws and unused entries as
:data:`WIDE_UNKNOWN`: what the file stores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Dict, List, Sequence

import numpy as np

from ..board.material import Material
from .compact_index import CompactLayout

__all__ = ["WIDE_UNKNOWN", "CompactTable"]

#: A draw (or no position) among values of 16 bits.
WIDE_UNKNOWN = 0xFFFF


@dataclass
class CompactTable:
    """Every S_n of one material in the compact index: ``bytes_[side]`` (0 White to move) and, for n from
    ``tail`` on, ``tails[side][n]``, the sorted entries with that n."""

    material: Material
    bytes_: List[np.ndarray]
    tail: int
    tails: List[Dict[int, np.ndarray]]
    layout: CompactLayout = field(init=False)
    #: The value of a draw.
    unknown: ClassVar[int] = WIDE_UNKNOWN

    def __post_init__(self) -> None:
        self.layout = CompactLayout(self.material)
        self._tail_index = []
        for side in (0, 1):
            items = sorted(self.tails[side].items())
            index = np.concatenate([p for _, p in items]) if items else np.empty(0, np.int64)
            n = np.concatenate([np.full(p.size, k, np.int64) for k, p in items]) if items else np.empty(0, np.int64)
            order = np.argsort(index, kind="stable")
            self._tail_index.append((index[order], n[order]))

    @property
    def max_n(self) -> int:
        """The largest n of any position, -1 if neither side ever mates."""
        largest = -1
        for side in (0, 1):
            if self.tails[side]:
                largest = max(largest, max(self.tails[side]))
                continue
            values = self.bytes_[side]
            for start in range(0, values.size, 1 << 24):
                part = values[start : start + (1 << 24)]
                below = part[part < self.tail]
                if below.size:
                    largest = max(largest, int(below.max()))
        return largest

    def longest(self, side: int) -> List[int]:
        """``[entry, n]`` of a position of ``side`` (0: White to move) with the largest n, ``[-1, -1]`` if none
        (the lowest such entry: a file's header names it, for the line that shows the longest mate)."""
        if self.tails[side]:
            n = max(self.tails[side])
            return [int(self.tails[side][n][0]), n]
        values, best = self.bytes_[side], [-1, -1]
        for start in range(0, values.size, 1 << 24):
            part = values[start : start + (1 << 24)]
            below = part[part < self.tail]
            if below.size and int(below.max()) > best[1]:
                n = int(below.max())
                best = [start + int(np.flatnonzero(part == n)[0]), n]
        return best

    def values(self, side: int, start: int, stop: int) -> np.ndarray:
        """The n of entries ``start .. stop - 1`` of ``side`` (0: White to move) as uint16, WIDE_UNKNOWN
        for draws and unused entries."""
        raw = self.bytes_[side][start:stop]
        out = raw.astype(np.uint16)
        out[raw >= self.tail] = WIDE_UNKNOWN
        index, n = self._tail_index[side]
        low, high = np.searchsorted(index, (start, stop))
        out[index[low:high] - start] = n[low:high]
        return out

    def value_of(self, side: int, index: int) -> int:
        """The n of one entry, or WIDE_UNKNOWN."""
        return int(self.values(side, index, index + 1)[0])

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """The n (WIDE_UNKNOWN for a draw) of positions given by their squares in PIECE_LIST order."""
        index = self.layout.encode_canonical(squares)
        side = 0 if white_to_move else 1
        return np.array([self.value_of(side, int(i)) for i in index], dtype=np.uint16)

    def value(self, squares: Sequence[int], white_to_move: bool) -> int:
        """The n (WIDE_UNKNOWN for a draw) of one position given by its squares in PIECE_LIST order."""
        return int(self.dtm([np.array([s]) for s in squares], white_to_move)[0])
