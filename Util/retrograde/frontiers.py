"""Frontiers and exits: the sets of positions a ply starts from.

A ply works from the positions the ply before decided (the frontier), and
from those a move into another table decides at this ply (the exits).  A
frontier is listed (sorted int32 indices) when small, or left in the DTM
array (a :class:`FrontierScan`) when large.  The exits are listed by ply
(:class:`ExitList`), or read from the exit bytes a window of plies at a time
(:class:`ExitScan`) where a list would be too large.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..table.values import DRAW, NO_EXIT, UNKNOWN
from ..retrograde_kernels.sorting import bucket_by_value, group_exit_bytes
from ..runtime.parallel import Threads


@dataclass
class ExitList:
    """Positions whose value also depends on a move into another table, grouped by the ply that move
    decides: ``index[starts[n] : starts[n + 1]]`` are those decided at ply n (int32 indices)."""

    index: np.ndarray
    starts: np.ndarray  # int64, 257 entries

    @classmethod
    def of(cls, indices: List[np.ndarray], values: List[np.ndarray]) -> "ExitList":
        """From per-chunk pieces (int32 indices, uint8 exit values; values that decide nothing left out)."""
        index = np.concatenate(indices) if indices else np.empty(0, np.int32)
        value = np.concatenate(values) if values else np.empty(0, np.uint8)
        indices.clear(), values.clear()  # a 5-piece table's exits fill hundreds of MB: keep one copy only
        return cls(*bucket_by_value(index, value))

    def at(self, n: int) -> np.ndarray:
        return self.index[self.starts[n] : self.starts[n + 1]]

    @property
    def last(self) -> int:
        """The largest ply at which an exit decides a position, -1 if none."""
        filled = np.flatnonzero(np.diff(self.starts[:UNKNOWN + 1]))
        return int(filled[-1]) if filled.size else -1


class ExitScan:
    """The same as :class:`ExitList`, read from a side's exit bytes when asked, for a window of plies at a
    time: a list of every deciding exit of a 5-piece pawn table would hold a gigabyte, the exit bytes
    are there anyway, and one scan of them per window costs a fraction of a second.

    ``span_counts[k, v]``: how many positions of ``spans[k]`` have exit byte v (from the first pass, which
    counted them anyway: a scan need not count them again).  A window spans as many plies as fit
    ``budget`` positions (at least one ply).
    """

    def __init__(self, exit_value: np.ndarray, span_counts: np.ndarray, spans: List[Tuple[int, int]],
                 threads: Threads, budget: int = 1 << 25):
        self.exit_value, self.threads, self.budget = exit_value, threads, budget
        self.counts = span_counts.sum(axis=0)
        self.counts[[NO_EXIT, DRAW]] = 0  # these decide nothing
        # one part of the exit bytes per thread, whole spans each, with their counts
        cuts = np.searchsorted([stop for _, stop in spans], np.linspace(0, exit_value.size, threads.count + 1)[1:-1])
        groups = np.split(np.arange(len(spans)), cuts)
        self._parts = [(spans[g[0]][0], spans[g[-1]][1]) for g in groups if g.size]
        self._part_counts = np.array([span_counts[g].sum(axis=0) for g in groups if g.size])
        self._window, self._lists = (0, 0), ExitList(np.empty(0, np.int32), np.zeros(257, np.int64))

    @property
    def last(self) -> int:
        filled = np.flatnonzero(self.counts)
        return int(filled[-1]) if filled.size else -1

    def at(self, n: int) -> np.ndarray:
        if not self._window[0] <= n < self._window[1]:
            self._scan(n)
        return self._lists.at(n)

    def _scan(self, n: int) -> None:
        stop = n + 1
        while stop < UNKNOWN and self.counts[n : stop + 1].sum() <= self.budget:
            stop += 1
        if not self.counts[n:stop].any():  # nothing to find: skip the scan
            self._window = (n, stop)
            self._lists = ExitList(np.empty(0, np.int32), np.zeros(257, np.int64))
            return
        # Straight into one array grouped by value: each thread writes the indices of its part at its own
        # offsets (no per-chunk lists to concatenate and sort: a third of the memory at the peak of a
        # five-piece pawn table).
        values, parts, counts = self.exit_value, self._parts, self._part_counts[:, n:stop]
        ends = np.cumsum(counts, axis=0)  # [part, v - n]: where part's indices of value v end in the group
        total = ends[-1]
        group_starts = np.concatenate(([0], np.cumsum(total)))[:-1]
        offsets = [group_starts + ends[k] - counts[k] for k in range(len(parts))]
        grouped = np.empty(int(total.sum()), dtype=np.int32)
        self.threads.map(lambda k: group_exit_bytes(values, *parts[k], n, stop, offsets[k], grouped), range(len(parts)))
        starts = np.zeros(257, dtype=np.int64)
        starts[n + 1 : stop + 1] = np.cumsum(total)
        starts[stop + 1 :] = total.sum()
        self._lists = ExitList(grouped, starts)
        self._window = (n, stop)


class FrontierScan(NamedTuple):
    """A large set of new positions, not listed: those whose byte in ``values`` is n, found a span at a time
    by the jobs that read it (a list of a five-piece table's biggest S_n, a hundred million positions and
    more where two queens mate at once, would hold 0.4 GB, and twice that while it was put together)."""

    values: np.ndarray
    n: int
    size: int


#: A frontier: the new positions of a ply, listed (sorted int32 indices) or, when many, a FrontierScan.
Frontier = Union[np.ndarray, FrontierScan]


def spans(total: int, step: int) -> List[Tuple[int, int]]:
    """``(start, stop)`` pieces of ``range(total)``, ``step`` long (the last may be shorter)."""
    return spans_of(0, total, step)


def spans_of(begin: int, end: int, step: int) -> List[Tuple[int, int]]:
    """``(start, stop)`` pieces of ``range(begin, end)``, ``step`` long (the last may be shorter)."""
    return [(start, min(start + step, end)) for start in range(begin, end, step)]


def indices_equal(values: np.ndarray, n: int, threads: Optional[Threads] = None, chunk: int = 1 << 24) -> np.ndarray:
    """Sorted int32 indices where ``values == n``, found chunk by chunk (no table-sized temporaries)."""
    def find(span: Tuple[int, int]) -> np.ndarray:
        return np.flatnonzero(values[span[0] : span[1]] == n).astype(np.int32) + np.int32(span[0])

    parts = (threads or Threads(1)).map(find, spans(values.size, chunk))
    return np.concatenate(parts) if parts else np.empty(0, np.int32)
