"""compute_compact_table: every S_n of a six-piece material in about one byte per position and side.

The same algorithm as :func:`Util.retrograde.compute_table` (first pass, mates,
then ply after ply from the other side's newest positions), on the compact
index (:mod:`Util.table.compact_index`: one entry per position, the kings one
digit, identical pieces one) and with nothing beside the two byte arrays but
the seeds (:mod:`Util.retrograde.seeds`) and the positions of the longest
mates: KRNvKNN's 3.81 G entries per side take 7.6 GB.  The bytes are those of
:mod:`Util.retrograde_kernels.compact_kernels`.

Threads: a win ply's jobs only write n into undecided positions (two
threads writing one position write the same byte, and the list of new
positions is put in order with repeats removed); a loss ply's counters are
counted down by plain writes, so its jobs take whole owner groups of
frontier positions whose predecessors no other group shares (Black's
un-moves keep the white king on its square; White's keep the black king in
its orbit under the board's symmetries), and the loss seeds are counted in a
phase of their own.  The table is byte-identical for any number of threads.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import partial
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np
from numba.typed import List as TypedList

from ..board.material import Material
from ..board.symmetry import TRANSFORMS
from ..rules.exits import SubTables
from ..runtime.parallel import Threads, core_count
from ..table.compact_index import KING_PAIRS, CompactLayout
from ..table.compact_table import CompactTable
from ..table.index_scheme import Layout
from ..table.values import ILLEGAL
from ..retrograde_kernels import compact_kernels as kernels
from ..retrograde_kernels.compact_board import CompactPacked
from ..retrograde_kernels.exits import exit_moves
from .counting import MOST_MOVES
from .seeds import Seeds

__all__ = ["CompactPolicy", "CompactProgress", "CompactState", "compute_compact_table", "counter_floor_of"]

WHITE, BLACK = 0, 1
SIDES = (WHITE, BLACK)


@dataclass(frozen=True)
class CompactPolicy:
    """The compact engine's choices of path, never of result."""

    #: Indices per job of a pass over the whole table.
    span: int = 1 << 22
    #: Frontier positions per job of a ply.
    batch: int = 1 << 16
    #: A ply's new positions are listed up to this many (None: 1/256 of a side, at least a million), and
    #: found again in the array by the next ply when more (only below the tail: above it they are listed).
    list_limit: Optional[int] = None
    #: The lowest byte n may not reach (None: where the counters begin, less two); a test lowers it to run
    #: the listed long mates on a small table.
    tail: Optional[int] = None


class CompactState(NamedTuple):
    """A calculation after ply ``n_done``: both sides' bytes, the listed long mates, the seeds left."""

    n_done: int
    bytes_: List[np.ndarray]
    tails: List[Dict[int, np.ndarray]]
    seeds: Seeds


class CompactProgress(NamedTuple):
    """What ``on_ply`` is told after each ply."""

    n: int
    new: int  # positions (entries) decided by this ply, both sides
    decided: int  # decided so far, both sides (mates included)
    seconds: float  # since the plies started (after the first pass)
    first_pass_seconds: float
    legal: int  # legal positions (entries), both sides


def counter_floor_of(material: Material) -> int:
    """The lowest counter byte: a counter holds the moves of a position, an exit one more, and a move into
    a position that is its own mirror twice (rare: a margin of eight covers it; a larger count is refused)."""
    letters = material.letters
    most = max(sum(MOST_MOVES[c.upper()] for i, c in enumerate(letters) if (i == side or (i >= 2 and c.isupper() == (side == 0))))
               for side in SIDES)
    return ILLEGAL - (most + 9)


def compute_compact_table(material: Material, subtables: Dict[Material, object], *, threads: Optional[int] = None,
                          on_ply: Optional[Callable[[CompactProgress], None]] = None,
                          checkpoint: Optional[Callable[[CompactState], None]] = None,
                          resume: Optional[CompactState] = None, release_subtables: bool = False,
                          policy: CompactPolicy = CompactPolicy(),
                          on_first_pass: Optional[Callable[[int, int, float], None]] = None) -> CompactTable:
    """Every S_n of ``material`` (pawnless) in the compact index.  ``subtables``: every table a capture
    leads into (DtmTables, only the sides read needed).  ``on_ply(progress)`` after each ply,
    ``checkpoint(state)`` too (the arrays are the engine's own: read them, never change them);
    ``resume``: a state to go on from (its first pass is not redone: the bytes hold the counters; ``n_done``
    -1: the first pass is done, no ply).  ``on_first_pass(spans done, spans, seconds)`` now and then during
    the first pass; the state is offered to ``checkpoint`` after it."""
    missing = [str(m) for m in material.dependencies() if m not in subtables]
    if missing and resume is None:
        raise ValueError(f"{material} needs the tables {', '.join(missing)} first")
    pool = Threads(threads or core_count())
    try:
        calculation = _Calculation(material, pool, policy)
        if resume is None:
            calculation.first_pass(subtables, on_first_pass)
            if checkpoint:  # the first pass of a six-piece table is a quarter of its work: kept before the plies
                checkpoint(CompactState(-1, calculation.bytes_, calculation.tails, calculation.seeds))
        else:
            calculation.resume(resume)
        if release_subtables:
            subtables.clear()
        return calculation.plies(on_ply, checkpoint)
    finally:
        pool.close()


class _Scan(NamedTuple):
    """A ply's new positions left in the array: those of side ``side`` whose byte is ``code``."""

    side: int
    code: int
    size: int


Frontier = Union[np.ndarray, _Scan]


class _Calculation:
    def __init__(self, material: Material, threads: Threads, policy: CompactPolicy):
        self.material, self.threads, self.policy = material, threads, policy
        self.layout = CompactLayout(material)
        floor = counter_floor_of(material)
        self.lay = CompactPacked.of(self.layout, floor)
        self.tail = policy.tail if policy.tail is not None else (floor - 2) & ~1
        self.size = self.layout.size
        self.can_win = (bool(material.white), bool(material.black))
        self.can_lose = (self.can_win[1], self.can_win[0])
        self.bytes_: List[np.ndarray] = []
        self.tails: List[Dict[int, np.ndarray]] = [{}, {}]
        self.seeds = Seeds()
        self.n_done = -1
        self.first_pass_seconds = 0.0
        self.legal = 0
        self.list_limit = policy.list_limit or max(1 << 20, self.size >> 8)

    @property
    def spans(self) -> List[Tuple[int, int]]:
        step = self.policy.span
        return [(a, min(a + step, self.size)) for a in range(0, self.size, step)]

    # ---- the first pass ------------------------------------------------------------------------------
    def first_pass(self, subtables: Dict[Material, object], on_progress=None) -> None:
        """Both sides' bytes and seeds, span by span on all threads; ``on_progress(done, total)`` now and then
        (spans)."""
        started = time.perf_counter()
        layout = Layout(self.material)  # the five-piece scheme's Layout: what exit_moves reads of a material
        self.bytes_ = [np.empty(self.size, np.uint8), np.empty(self.size, np.uint8)]
        captures = []
        for side in SIDES:
            moves = exit_moves(layout, side, SubTables(subtables))
            tables = TypedList()
            for table in moves.tables or [np.empty(1, np.uint8)]:
                view = table.view()
                view.flags.writeable = False
                tables.append(view)
            captures += [moves.rows, tables]
        spans, done = self.spans, [0]
        lock = threading.Lock()

        def job(span: Tuple[int, int]) -> Tuple[int, int]:
            start, stop = span
            seeds = [np.empty(stop - start, np.int32), np.empty(stop - start, np.uint8),
                     np.empty(stop - start, np.int32), np.empty(stop - start, np.uint8)]
            white, black, largest = kernels.first_pass(self.lay, *self.can_lose, start, stop,
                                                       self.bytes_[WHITE][start:stop], self.bytes_[BLACK][start:stop],
                                                       *captures, *seeds)
            self.seeds.add(WHITE, start, seeds[0][:white], seeds[1][:white])
            self.seeds.add(BLACK, start, seeds[2][:black], seeds[3][:black])
            legal = sum(int(np.count_nonzero(values[start:stop] != ILLEGAL)) for values in self.bytes_)
            with lock:
                done[0] += 1
                if on_progress and (done[0] % max(1, len(spans) // 20) == 0 or done[0] == len(spans)):
                    on_progress(done[0], len(spans), time.perf_counter() - started)
            return largest, legal

        results = self.threads.map(job, spans)
        largest = max((r[0] for r in results), default=0)
        self.legal = sum(r[1] for r in results)
        if largest > ILLEGAL - self.lay.floor:
            raise RuntimeError(f"{self.material}: a position has {largest} moves to count, more than the "
                               f"{ILLEGAL - self.lay.floor} its counter can hold")
        self.first_pass_seconds = time.perf_counter() - started

    def resume(self, state: CompactState) -> None:
        self.bytes_, self.tails, self.seeds, self.n_done = list(state.bytes_), state.tails, state.seeds, state.n_done
        for values in self.bytes_:
            if values.dtype != np.uint8 or values.shape != (self.size,):
                raise ValueError(f"the checkpoint's arrays do not fit {self.material}: {self.size} bytes per side")
            self.legal += sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0]:span[1]] != ILLEGAL)),
                                               self.spans))

    # ---- the plies -------------------------------------------------------------------------------------
    def code(self, n: int) -> int:
        return n if n < self.tail else self.tail + (n & 1)

    def frontier_of(self, side: int, n: int) -> Frontier:
        """The positions of ``side`` decided at ply n, found in the array (or listed, above the tail)."""
        if n >= self.tail:
            return self.tails[side].get(n, np.empty(0, np.int64))
        return self.collect([partial(self.scan_job, side, self.code(n), span) for span in self.spans], side, n)

    def scan_job(self, side: int, code: int, span: Tuple[int, int], found: np.ndarray) -> int:
        start, stop = span
        positions = np.flatnonzero(self.bytes_[side][start:stop] == code) + start
        found[: min(found.size, positions.size)] = positions[: found.size]
        return positions.size

    def plies(self, on_ply, checkpoint) -> CompactTable:
        started = time.perf_counter()
        n, decided = self.n_done + 1, None
        if n == 0:
            frontiers = [self.frontier_of(side, 0) for side in SIDES]  # the mates
            decided = self.report(on_ply, 0, frontiers, started)
            n = 1
        else:
            frontiers = [self.frontier_of(side, self.n_done) for side in SIDES]
        while any(_size(f) for f in frontiers) or n <= self.seeds.last:
            frontiers = [self.ply(side, n, frontiers[1 - side]) for side in SIDES]
            self.seeds.drop_below(n + 1)
            self.n_done = n
            decided = self.report(on_ply, n, frontiers, started, decided)
            if checkpoint:
                checkpoint(CompactState(n, self.bytes_, self.tails, self.seeds))
            n += 1
        return CompactTable(self.material, self.bytes_, self.tail, self.tails)

    def report(self, on_ply, n: int, frontiers, started: float, decided: Optional[int] = None) -> int:
        new = sum(_size(f) for f in frontiers)
        if decided is None:  # resumed (or ply 0): every decided position so far, counted once
            decided = sum(sum(self.threads.map(lambda span, v=values: int(np.count_nonzero(v[span[0]:span[1]] < self.tail)),
                                               self.spans)) + sum(p.size for p in tails.values())
                          for values, tails in zip(self.bytes_, self.tails))
        else:
            decided += new
        if on_ply:
            on_ply(CompactProgress(n, new, decided, time.perf_counter() - started, self.first_pass_seconds, self.legal))
        return decided

    def ply(self, side: int, n: int, frontier: Frontier) -> Frontier:
        """The positions of ``side`` (to move) that get n: odd n wins, even n losses."""
        win = n % 2 == 1
        if not (self.can_win[side] if win else self.can_lose[side]):
            return np.empty(0, np.int64)
        code, mine = self.code(n), self.bytes_[side]
        errors = np.zeros(1, np.int64)
        if win:
            kernel = partial(kernels.mark_wins, self.lay, side, code)
            jobs = [partial(self.push_job, kernel, frontier, piece, mine) for piece in self.pieces(frontier)]
            phases = [jobs + [partial(self.seed_job, kernels.seed_wins, code, side, n, mine, None)]]
        else:
            kernel = partial(kernels.count_losses, self.lay, side, code)
            jobs = [partial(self.push_job, kernel, frontier, group, mine, errors)
                    for group in _owner_groups(self.layout, side, frontier)]
            phases = [jobs, [partial(self.seed_job, kernels.seed_losses, code, side, n, mine, errors)]]
        found = self.collect([job for phase in phases for job in phase], side, n, phases=phases)
        if errors[0]:
            raise RuntimeError(f"{self.material}: {errors[0]} counters went below zero at ply {n}")
        return found

    def pieces(self, frontier: Frontier) -> List:
        """A win ply's jobs: pieces of a listed frontier, or spans of a frontier left in the array."""
        if isinstance(frontier, _Scan):
            return [("scan", [span]) for span in self.spans]
        step = self.policy.batch
        return [("list", frontier[a : a + step]) for a in range(0, frontier.size, step)]

    def push_job(self, kernel, frontier: Frontier, piece, mine: np.ndarray, *extra_and_found) -> int:
        *extra, found = extra_and_found
        kind, what = piece
        if kind == "list":
            return kernel(what, mine, found, *extra)
        count = 0
        other = self.bytes_[frontier.side]
        for start, stop in what:
            positions = np.flatnonzero(other[start:stop] == frontier.code) + start
            count += kernel(positions, mine, found[min(count, found.size):], *extra)
        return count

    def seed_job(self, kernel, code: int, side: int, n: int, mine: np.ndarray, errors, found: np.ndarray) -> int:
        count = 0
        for positions in self.seeds.at(side, n):
            rest = found[min(count, found.size):]
            count += kernel(self.lay, code, positions, mine, rest) if errors is None else \
                kernel(self.lay, code, positions, mine, rest, errors)
        return count

    def collect(self, jobs, side: int, n: int, phases=None) -> Frontier:
        """Run the jobs (phase after phase), each recording what it finds; the positions, listed (sorted,
        distinct) or, when more than the list limit and below the tail, left in the array."""
        limit = self.list_limit if n < self.tail else max(self.list_limit, self.size >> 4)
        results = []
        for phase in phases or [jobs]:
            def run(job):
                found = np.empty(limit, np.int64)  # pages are touched only where written
                count = job(found)
                return count, found[: min(count, limit)].copy() if count <= limit else None
            results += self.threads.map(run, phase)
        total = sum(count for count, _ in results)
        if total > limit or any(part is None for _, part in results):
            if n >= self.tail:
                raise RuntimeError(f"{self.material}: {total} positions at ply {n}, beyond the byte's values and "
                                   f"more than can be listed; give the calculation a lower list limit's tail")
            values, code = self.bytes_[side], self.code(n)
            count = sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0]:span[1]] == code)),
                                         self.spans))  # span by span: no table-sized temporary
            return _Scan(side, code, count)
        merged = np.concatenate([part for _, part in results]) if results else np.empty(0, np.int64)
        merged = np.unique(merged)
        if n >= self.tail and merged.size:
            self.tails[side][n] = merged
        return merged


def _owner_groups(layout: CompactLayout, side: int, frontier: Frontier) -> List:
    """A loss ply's jobs: the frontier by owner group (see the module's docstring), largest first."""
    pairs = KING_PAIRS[0][: layout.radices[0]]
    if side == BLACK:  # Black's un-moves keep the white king: its square
        key_of_pair = pairs[:, 0]
    else:  # White's keep the black king in its orbit: the lowest square of it
        key_of_pair = TRANSFORMS.astype(np.int64)[:, pairs[:, 1]].min(axis=0)
    stride = layout.strides[0]
    if isinstance(frontier, _Scan):
        groups = []
        for key in np.unique(key_of_pair):
            pair_numbers = np.flatnonzero(key_of_pair == key)
            groups.append(("scan", [(int(p) * stride, (int(p) + 1) * stride) for p in pair_numbers]))
        return groups
    keys = key_of_pair[frontier // stride]
    order = np.argsort(keys, kind="stable")
    ordered, keys = frontier[order], keys[order]
    bounds = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1], True])
    groups = [("list", ordered[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    return sorted(groups, key=lambda g: -g[1].size)


def _size(frontier: Frontier) -> int:
    return frontier.size
