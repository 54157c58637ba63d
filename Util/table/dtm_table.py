"""The table type: all S_n sets of one material as two DTM arrays.

``dtm_white[i]`` / ``dtm_black[i]`` is n, the S_n that holds position i
with White / Black to move, or :data:`~Util.table.values.UNKNOWN` (255) where
the position is in no S_n (a draw, or not a legal position).  Odd n: the
side to move mates in n plies; even n: it is mated in n plies.  Index i is
the position's place in the material's index scheme (:class:`Util.table.index_scheme.Layout`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Sequence

import numpy as np

from .index_scheme import Layout
from ..board.material import Material

__all__ = ["CHUNK", "DtmTable"]

#: Positions handled per step when a pass touches the whole index space.
CHUNK = 1 << 20


@dataclass
class DtmTable:
    """The S_n sets of one material: a DTM value in plies per position and side to move."""

    material: Material
    dtm_white: np.ndarray
    dtm_black: np.ndarray
    layout: Layout = field(init=False)
    #: The value of a draw (as every table says: a compact table's is WIDE_UNKNOWN).
    unknown: ClassVar[int] = 255

    def __post_init__(self) -> None:
        self.layout = Layout(self.material)

    @property
    def max_n(self) -> int:
        """The largest n with a non-empty S_n, or -1 if neither side can ever mate.  Chunk by chunk, each
        byte plus one in 8 bits, which makes UNKNOWN (255) the 0 below every n + 1: no mask, no copy of the
        values (those had cost the summary line of ``calculate KRPvKQ`` 2.9 s and 1 GB)."""
        shifted = np.empty(min(CHUNK, self.dtm_white.size), dtype=np.uint8)
        largest = 0
        for values in (self.dtm_white, self.dtm_black):
            for start in range(0, values.size, CHUNK):
                part = shifted[: min(CHUNK, values.size - start)]
                np.add(values[start : start + CHUNK], np.uint8(1), out=part)
                largest = max(largest, int(part.max(initial=0)))
        return largest - 1

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM values (UNKNOWN for a draw) of positions given by their squares in PIECE_LIST order."""
        array = self.dtm_white if white_to_move else self.dtm_black
        return array[self.layout.encode_canonical(squares)]

    def value(self, squares: Sequence[int], white_to_move: bool) -> int:
        """The DTM value (UNKNOWN for a draw) of one position, given by its squares in PIECE_LIST order."""
        return int(self.dtm([np.array([s]) for s in squares], white_to_move)[0])
