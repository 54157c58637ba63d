"""How the engine goes about a table: the choices that change its time and memory, never its result.

Every field has today's default; a test (or a study of the engine) picks
another path by passing an :class:`EnginePolicy` to
:func:`Util.retrograde.compute_table`.  Whatever the policy, the table comes out
byte for byte the same: the tests prove it path by path.  Figures behind
the defaults are in docs/performance.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..table.values import DEEPEST


@dataclass(frozen=True)
class EnginePolicy:
    """The engine's choices, with today's defaults."""

    #: A ply counts its side's undecided positions, to see whether pulling (each undecided position looks
    #: forward for a move into the frontier) would be less work than pushing (un-moves from the frontier),
    #: only when its frontier holds more than 1/gate of the table: a loss ply from 1/8 (a loss ply that
    #: pulls stops the counters, which then start again), a win ply from 1/16 (a pulled position stops at
    #: its first move into the frontier).
    pull_gate_loss: int = 8
    pull_gate_win: int = 16
    #: None: pull where that is less work (above); True: pull on every ply; False: never.
    always_pull: Optional[bool] = None
    #: Whether loss plies may count down the moves that still escape (kernels.counters) at all; without,
    #: every loss candidate is checked forward.
    loss_counters: bool = True
    #: The lowest DTM byte the counters may take (None: from the most moves a position of the table has);
    #: they give way, cleared, once the plies' values could reach it.
    counter_floor: Optional[int] = None
    #: When White's loss plies start counting (see counting.LossCounters.white_counts_down): None: once its
    #: forward checks so far, and ``white_lookahead`` more plies like the last, would cost what the pass
    #: that sets its counters costs; a number: from that ply on (a large one: never).
    white_counters_from: Optional[int] = None
    #: White's counters' pass costs this many times Black's (its folding king and sliders' paths), or,
    #: where Black's was not timed (a resumed calculation), this many seconds per position.
    white_pass_ratio: float = 1.6
    pass_seconds_per_index: float = 6.5e-9
    white_lookahead: int = 3
    #: The most new positions of one ply that are listed (None: 1/256 of the table, at least a million);
    #: more are left in the DTM array, where the next ply's jobs find them.
    list_limit: Optional[int] = None
    #: A listed win ply is put in order through a bitmap once it holds more than 1/bitmap_sort of the
    #: table, else by numpy's sort.
    bitmap_sort: int = 2048
    #: Largest piece of a frontier handed to one thread (its predecessors must fit in memory).
    batch: int = 1 << 18
    #: From this many indices per side on (five pieces with a pawn), the first pass goes side by side when
    #: it may let sub-tables go: one more decoding pass, for most of a gigabyte less at the peak.
    side_by_side_from: int = 1 << 27
    #: The ply done apart because its n is the engine's ILLEGAL byte (see plies.Plies.deepest_ply).
    deepest_ply: int = DEEPEST

    def pull_gate(self, win: bool) -> int:
        return self.pull_gate_win if win else self.pull_gate_loss

    def listed_at_most(self, table_size: int) -> int:
        """The most new positions of one ply that are listed, in a table of ``table_size`` indices."""
        return self.list_limit if self.list_limit is not None else max(1 << 20, table_size >> 8)
