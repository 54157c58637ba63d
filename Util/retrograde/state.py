"""The table being computed: its two DTM arrays and what the passes keep beside them.

One :class:`WorkingTable` is shared by the first pass, the counters and the
plies.  Besides the DTM arrays (see :mod:`Util.table.values` for what a byte
means inside the engine) it holds, per side that can lose, the in-check
bits (until the mates are found) and the exit bytes, the en passant double
steps, and the packed layout the kernels read.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from ..table.dtm_table import CHUNK
from ..table.values import UNKNOWN
from ..rules.en_passant import DoubleSteps
from ..retrograde_kernels.board import PackedLayout
from ..retrograde_kernels.counters import count_undecided
from ..table.index_scheme import Layout
from ..board.material import Material
from ..runtime.parallel import Threads
from .frontiers import Frontier, FrontierScan, indices_equal, spans
from .policy import EnginePolicy

#: Sides to move, as indices: ``table.dtm[WHITE]``, PIECE_LIST position of that side's king.
WHITE, BLACK = 0, 1
SIDES = (WHITE, BLACK)


class WorkingTable:
    """The DTM arrays of one table while it is computed, with the scratch the passes share."""

    def __init__(self, material: Material, threads: Threads, policy: EnginePolicy,
                 values: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        self.material, self.threads, self.policy = material, threads, policy
        self.layout = Layout(material)
        size = self.layout.size
        # A bare king never mates: with a lone black king (the thesis's case) White never loses.
        self.can_win = (bool(material.white), bool(material.black))
        self.can_lose = (self.can_win[1], self.can_win[0])
        # A resumed calculation continues in the checkpoint's own arrays (the first pass only adds the
        # ILLEGAL marks): a copy beside them would add a gigabyte to a five-piece pawn table's first pass.
        self.dtm = values or (filled(size, UNKNOWN, threads), filled(size, UNKNOWN, threads))
        # Per side that can lose: one check bit per index (until the mates are found), and the exit byte
        # (see Util.rules.exits), found once so that the forward checks need not redo captures.
        self.in_check = [np.zeros(-(-size // 8), dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self.exit_value = [np.zeros(size, dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self.double_steps = [DoubleSteps.empty(), DoubleSteps.empty()]  # see Util.rules.en_passant
        #: The layout as the kernels read it; its ``floor`` says where the loss counters live (see
        #: counting.LossCounters).
        self.packed = PackedLayout.of(self.layout)
        # one bit per index: the loss candidates already checked in this ply (see kernels.blocks.keep_unchecked);
        # all zero between plies, when jobs.collect may borrow it to sort a win ply's positions
        self.checked = np.zeros(-(-size // 64) * 8, dtype=np.uint8) if any(self.can_lose) else None
        # the kernels that find un-moves once per 64 frontier indices apply (kernels.counters.count_white_runs,
        # kernels.plies.mark_wins_runs): pawns (no diagonal twins), one entry per position, Black's piece last
        self.runs = material.has_pawns and bool(material.black) and not self.layout.identical_groups

    @property
    def dtm_white(self) -> np.ndarray:
        return self.dtm[WHITE]

    @property
    def dtm_black(self) -> np.ndarray:
        return self.dtm[BLACK]

    @property
    def size(self) -> int:
        """Indices per side to move."""
        return self.layout.size

    def forget_checks(self) -> None:
        """Free the in-check bits: only the mates need them."""
        self.in_check = [None, None]

    def frontier(self, side: int, n: int) -> Frontier:
        """The positions (``side`` to move) whose value is n: listed, or a FrontierScan where they are many."""
        values = self.dtm[side]
        count = self.count_equal(values, n)
        return FrontierScan(values, n, count) if count > self.list_limit else indices_equal(values, n, self.threads)

    @property
    def list_limit(self) -> int:
        """The most new positions of one ply that are listed (EnginePolicy.list_limit)."""
        return self.policy.listed_at_most(self.size)

    def batch(self, size: int) -> int:
        """Piece size of a list of ``size`` positions: at most EnginePolicy.batch, small enough that every
        thread gets a few pieces."""
        return max(1 << 12, min(self.policy.batch, -(-size // (4 * self.threads.count))))

    @property
    def span_step(self) -> int:
        """Indices per job of a pass over the whole index space: CHUNK, or in a small table less, so that each
        thread gets about four (KBNvK's 2.6 M indices in three chunks left one thread idle for a third of each
        pass).  A multiple of 64, as the kernels that take 64 indices at a time need."""
        return min(CHUNK, max(1 << 14, (-(-self.size // (4 * self.threads.count)) + 63) // 64 * 64))

    @property
    def index_spans(self) -> List[Tuple[int, int]]:
        """The jobs of a pass over the whole index space (see span_step)."""
        return spans(self.size, self.span_step)

    def count_equal(self, values: np.ndarray, n: int) -> int:
        """How many entries of ``values`` equal n (chunk by chunk, on all threads)."""
        return sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0] : span[1]] == n)),
                                    self.index_spans))

    def count_undecided(self, values: np.ndarray) -> int:
        """How many entries of ``values`` are undecided (chunk by chunk, on all threads)."""
        floor = self.packed.floor
        return sum(self.threads.map(lambda span: count_undecided(values, *span, floor), self.index_spans))


def filled(size: int, value: int, threads: Threads) -> np.ndarray:
    """``np.full(size, value, np.uint8)``, filled on all threads: the first touch of a five-piece table's
    pages is most of the cost (KRPvKR's two arrays: 1.9 s on one thread)."""
    values = np.empty(size, dtype=np.uint8)
    threads.map(lambda span: values[span[0] : span[1]].fill(value), spans(size, CHUNK))
    return values
