"""The retrograde engine: all S_n sets of one material as two DTM arrays.

The thesis computes S_(n+1) from S_n by un-making moves.  We do the same,
but on integer indices in numpy arrays instead of sets of Boards:

* ``dtm_white[i]`` / ``dtm_black[i]``: n of the S_n that holds position i
  with White / Black to move, or :data:`UNKNOWN` (255) where the position
  is in no S_n (a draw, or not a legal position).  Odd n: the side to move
  mates in n plies; even n: it is mated in n plies.  With a lone black king
  (the thesis's case) odd n only occur with White to move, even n only
  with Black to move; with pieces on both sides either side may mate.
* **Odd n (the side to move mates):** un-make every move of the side to
  move from the other side's positions that were found mated in n-1 last
  ply; the undecided legal ones mate in n.  One good move is enough.  When
  that frontier is larger than the set of positions still undecided (the
  middle plies of big tables), each of those looks forward instead, for a
  move into the frontier: less work, same set.
* **Even n (the side to move is mated):** un-make the moves of the side to
  move from the other side's positions found mating in n-1; a candidate is
  mated in n only if *every* legal move leads into a mate already found
  (checked forward).  Black's candidates keep a counter instead: the moves
  not yet refuted, counted for every position in one pass before ply 1 (or,
  after a resume, when a ply first reaches it) and counted down by every
  un-move into it, so a position reached in ply after ply is not checked
  forward again each time.  White's do the same once its loss plies have
  found many losses (before, the forward checks cost less than the pass:
  :meth:`_Engine.white_counts`).  The counter is kept in the position's own
  DTM byte, free while it is undecided (see
  :func:`Util.kernels.count_losses`), so counting costs no memory.
* Each ply does both: White to move and Black to move each get their value
  n from the other side's positions of value n-1.  A bare king never mates,
  so with a lone black king half of this is skipped, and the thesis's
  tables cost what they did.
* **Other materials.** A capture leads into a smaller table and a promotion
  into another table; these tables are finished first and their values
  enter this table as "exits" (:mod:`Util.exits`) at the ply they decide.
  A double step beside an enemy pawn allows the capture en passant on the
  next move only; those few moves are evaluated on their own
  (:mod:`Util.en_passant`).

Only the newest S_n (the frontier) is touched each ply, never the whole
array, which is what makes it fast.  (A frontier of more than 1/256 of the
table is not listed: the next ply's jobs find it in the DTM array.)  The
loops over single positions (un-make the moves of a frontier position,
check a candidate's moves forwards) run compiled, in :mod:`Util.kernels`, and so does the first pass
over every position (legality, :mod:`Util.kernel_rules`; exits,
:mod:`Util.kernel_exits`); this module says what they are asked to do, ply
by ply.

**Both cores.**  Within one ply the frontier's pieces are independent:
marking only ever writes n into positions still unknown, and the forward
check of a candidate reads only the other side's array, in which this ply
writes nothing but values that make the check fail whether it reads them
or the UNKNOWN before them.  So the pieces run on threads, one per core (the
compiled kernels release the interpreter lock).  Two threads may find the
same position: a win ply's new S_n is put in index order with repeats
removed (the loss ply after it counts down once per position found), a
loss ply's is handed on as the threads found it (the win ply after it marks
each predecessor once, however often and in whatever order it comes), so
the result does not depend on the order in which the threads ran.  The
counters are the exception:
counted down without atomic steps, each by one thread only, so those jobs
take whole groups of positions whose predecessors no other group shares
(Black's un-moves leave the white king where it is; White's leave the black
king where it is, or fold it with the board) and nothing runs beside them
(:meth:`_Engine._owner_jobs`).

**One entry per position.**  Identical pieces in two orders, and the mirror
in the a1-h8 diagonal where a pawnless table's white king stands on it, give
a position several entries with one value.  The plies work from one of them
and write the value into all (see "a position's entries" in
:mod:`Util.kernels`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from .en_passant import DoubleSteps, capture_exits, double_step_candidates, find_double_steps
from .exits import DRAW, ILLEGAL, NO_EXIT, UNKNOWN, ExitFinder, SubTables, to_unknown_from, undecided
from .layout import Layout
from .material import Material
from .moves import successors
from .parallel import Threads, core_count

#: Sides to move, as indices: ``engine.dtm[WHITE]``, PIECE_LIST position of that side's king.
WHITE, BLACK = 0, 1
SIDES = (WHITE, BLACK)
#: Positions handled per step when a pass touches the whole index space.
CHUNK = 1 << 20
#: From this many indices per side on (five pieces with a pawn), the first pass goes side by side when it
#: may let sub-tables go (see _Engine.classify): one more decoding pass, for most of a gigabyte less at the
#: peak.
SIDE_BY_SIDE = 1 << 27
#: The deepest S_n a byte holds: n = 254 (255 is UNKNOWN).  Inside the engine 254 is ILLEGAL, so this
#: last ply is done apart (see _Engine.deepest_ply).  Only KPPvKP needs it among the 145 tables.
DEEPEST = ILLEGAL
#: A win ply's new positions, when listed, are put in order (and a position two threads found at once
#: kept once) by setting their bits in a bitmap and reading it back (kernels.sort_distinct) once they are
#: more than 1/BITMAP_SORT of the table; fewer, numpy sorts them (26 ns a position, but no pass over the
#: bitmap).  KBNvK's list of 41 k: 0.29 ms instead of 0.74 ms (np.sort) or 0.82 ms (reading the DTM array
#: back, as before); 300 k: 0.83 ms instead of 2.7 ms.
BITMAP_SORT = 2048
#: A ply counts its side's undecided positions, to see whether pulling would be less work, only when its
#: frontier holds more than 1/PULL_GATE[win] of the table: a loss ply from 1/8 (a loss ply that pulls stops
#: the counters, which then start again), a win ply from 1/16 (a pulled position stops at its first move
#: into the frontier: KBNvK 0.52 -> 0.50 s, KQRvKR 25.0 -> 22.7 s; KBBNvK and KQRPvK the same).
PULL_GATE = {False: 8, True: 16}
#: Largest piece of a frontier handed to one thread (its predecessors must fit in memory).
BATCH = 1 << 18
#: White's counters for every position cost this many times Black's (a pass over all positions, both,
#: but White has the folding king and its sliders' paths to look at: KRPvKQ 3.5 s against 2.2 s), or, where
#: Black's were not timed (a resumed calculation), this many seconds per position and side.
WHITE_PASS_RATIO, PASS_SECONDS_PER_INDEX = 1.6, 6.5e-9
#: White's counters are set once its forward checks so far, and this many more plies like the last, would
#: cost what the pass costs (see _Engine.white_counts): KRPvKQ's checks grow by half a ply (0.6, 0.9, 1.4,
#: 2.1 s), and waiting for what they had cost to reach the pass took two plies of 3.5 s more.
WHITE_LOOKAHEAD = 3


@dataclass
class DtmTable:
    """The S_n sets of one material: a DTM value in plies per position and side to move."""

    material: Material
    dtm_white: np.ndarray
    dtm_black: np.ndarray
    layout: Layout = field(init=False)

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


@dataclass
class _Exits:
    """Positions whose value also depends on a move into another table, grouped by the ply that move
    decides: ``index[starts[n] : starts[n + 1]]`` are those decided at ply n (int32 indices)."""

    index: np.ndarray
    starts: np.ndarray  # int64, 257 entries

    @classmethod
    def of(cls, indices: List[np.ndarray], values: List[np.ndarray]) -> "_Exits":
        """From per-chunk pieces (int32 indices, uint8 exit values; values that decide nothing left out)."""
        from .kernels import bucket_by_value

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


class _ExitScan:
    """The same as :class:`_Exits`, read from a side's exit bytes when asked, for a window of plies at a
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
        self._window, self._lists = (0, 0), _Exits(np.empty(0, np.int32), np.zeros(257, np.int64))

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
            self._lists = _Exits(np.empty(0, np.int32), np.zeros(257, np.int64))
            return
        # Straight into one array grouped by value: each thread writes the indices of its part at its own
        # offsets (no per-chunk lists to concatenate and sort: a third of the memory at the peak of a
        # five-piece pawn table).
        from .kernels import group_exit_bytes

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
        self._lists = _Exits(grouped, starts)
        self._window = (n, stop)


class _Scan(NamedTuple):
    """A large set of new positions, not listed: those whose byte in ``values`` is n, found a span at a time
    by the jobs that read it (a list of a five-piece table's biggest S_n, a hundred million positions and
    more where two queens mate at once, would hold 0.4 GB, and twice that while it was put together)."""

    values: np.ndarray
    n: int
    size: int


#: A frontier: the new positions of a ply, listed (sorted int32 indices) or, when many, a _Scan.
Frontier = Union[np.ndarray, _Scan]


class _Engine:
    """One table's computation; see the module docstring."""

    def __init__(self, material: Material, subtables: Dict[Material, DtmTable], threads: Threads,
                 values: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        self.material = material
        self.threads = threads
        self.layout = Layout(material)
        self.exits = ExitFinder(self.layout, SubTables(subtables))
        size = self.layout.size
        # A bare king never mates: with a lone black king (the thesis's case) White never loses.
        self.can_win = (bool(material.white), bool(material.black))
        self.can_lose = (self.can_win[1], self.can_win[0])
        # A resumed calculation continues in the checkpoint's own arrays (classify only adds the ILLEGAL
        # marks): a copy beside them would add a gigabyte to a five-piece pawn table's first pass.
        self.dtm = values or (_filled(size, UNKNOWN, threads), _filled(size, UNKNOWN, threads))
        # Per side that can lose: one check bit per index (until the mates are found), and the exit byte
        # (see Util.exits), found once so that the forward checks need not redo captures.
        self._in_check = [np.zeros(-(-size // 8), dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self.exit_value = [np.zeros(size, dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self.double_steps = [DoubleSteps.empty(), DoubleSteps.empty()]  # see Util.en_passant
        self._double_step_candidates: List[Optional[np.ndarray]] = [None, None]  # during classify only
        # imported here, not at the top: numba's import would cost every probe 0.4 s
        from . import kernel_exits, kernel_rules, kernels
        self.kernels, self.kernel_rules, self.kernel_exits = kernels, kernel_rules, kernel_exits
        self._exit_pass: List[Optional["kernel_exits.ExitPass"]] = [None, None]  # during classify only
        self.kernel_layout = kernels.KernelLayout.of(self.layout)
        # one bit per index: the loss candidates already checked in this ply (see kernels._keep_unchecked);
        # all zero between plies, when _collect may borrow it to sort a win ply's positions
        self._checked = np.zeros(-(-size // 64) * 8, dtype=np.uint8) if any(self.can_lose) else None
        # the loss counters live in the DTM bytes from this byte up (see kernels.count_losses), from the
        # first ply until the values come near them; White's count a king's move onto the diagonal twice
        self.counter_floor = kernels.counter_floor(max(_most_moves(self.layout, WHITE) + 8,
                                                       _most_moves(self.layout, BLACK)))
        # see white_counts: what White's loss plies have spent checking forward, what its pass would cost
        self._white_checking_seconds, self._white_pass_seconds = 0.0, PASS_SECONDS_PER_INDEX * size
        self._white_last_check_seconds = 0.0  # White's last loss ply that checked forward
        self._white_all_counted = False
        # the kernels that find un-moves once per 64 frontier indices apply (kernels.count_white_runs,
        # kernels.mark_wins_runs): pawns (no diagonal twins), one entry per position, Black's piece last
        self._runs = material.has_pawns and bool(material.black) and not self.layout.identical_groups
        self._pulled = False

    def release_subtables(self) -> None:
        """Let go of the sub-tables (after :meth:`classify`, the only pass that reads them)."""
        self.exits.subtables.tables.clear()
        self.exits = None

    @property
    def dtm_white(self) -> np.ndarray:
        return self.dtm[WHITE]

    @property
    def dtm_black(self) -> np.ndarray:
        return self.dtm[BLACK]

    # ---- whole-space passes, done once -------------------------------------------------
    def classify(self, release_subtables: bool = False) -> Tuple["_Exits | _ExitScan", "_Exits | _ExitScan"]:
        """Legality of every index, and the exits into other tables (per side to move).

        With ``release_subtables``, a large table does it side by side: legality first, then one side's
        exits, then the sub-tables that only that side's moves lead into (the promotion tables of a White
        pawn: 0.7 GB for KRPvKR) are let go before the other side's exit bytes fill their half gigabyte,
        then the other side's exits and the tables only its moves lead into.  The side with the larger
        such tables goes first (see _side_by_side_order).  Where both sides have pawns, each side's en
        passant captures (after the other side's double steps) are valued in that side's half, once the
        tables of its other exits are gone: KPPvKP's first pass then peaks at 2.74 GB, not 3.31 GB (with
        stand-in sub-tables of the same size)."""
        spans = self._index_spans
        if self.layout.en_passant_possible:  # found before the threads ask for them
            self._double_step_candidates = [double_step_candidates(self.layout, side) for side in SIDES]
        self._exit_pass = [self.kernel_exits.ExitPass(self.layout, side, self.exits.subtables)
                           if self.exits.has_exits(side) else None for side in SIDES]
        if release_subtables and self.layout.size >= SIDE_BY_SIDE:
            self.threads.map(self._legality_range, spans)
            by_side = {}
            for side in self._side_by_side_order():
                by_side[side] = self.threads.map(partial(self._side_exits, side), spans)
                self._exit_pass[side] = None  # it holds the sub-tables' arrays too
                if not self.layout.en_passant_possible:
                    self._release_subtables_only(side)
                    continue
                # side's en passant captures (after the other side's double steps) read one table more
                self._release_subtables_only(side, keep=self.material.without("P", side == BLACK).canonical)
                self._find_double_steps(1 - side, self.threads.map(partial(self._double_steps_range, 1 - side), spans))
            parts = [list(pair) for pair in zip(by_side[WHITE], by_side[BLACK])]
        else:
            parts = self.threads.map(self._classify_range, spans)
            if self.layout.en_passant_possible:
                for side in SIDES:
                    self._find_double_steps(side, [p[2 + side] for p in parts])
        self._exit_pass, self._double_step_candidates = [None, None], [None, None]
        if self.layout.en_passant_possible:
            for side in SIDES:  # needs every position's legality and both sides' exit bytes
                steps = self.double_steps[side]
                steps.child_moves = self.has_move(1 - side, steps.child)
        exits = []
        for side in SIDES:
            if self.exit_value[side] is not None:  # the exit bytes are kept: read the exits from them
                span_counts = np.array([p[side][1] for p in parts])
                exits.append(_ExitScan(self.exit_value[side], span_counts, spans, self.threads))
                continue
            indices, values = [p[side][0] for p in parts], [p[side][1] for p in parts]
            for p in parts:
                p[side] = None
            exits.append(_Exits.of(indices, values))
        return tuple(exits)

    def _side_by_side_order(self) -> List[int]:
        """First the side whose moves alone lead into the larger sub-tables: they are let go before the other
        side's exit bytes fill their half gigabyte (KQQvKP: Black's promotions lead into four pawnless
        five-piece tables, 0.48 GB; with Black first its run peaks at 2.76 GB instead of 3.10 GB)."""
        tables = self.exits.subtables.tables
        reads = [{child.canonical for child, white_moved in self.material.moves_out() if white_moved == (side == WHITE)}
                 for side in SIDES]
        alone = [sum(_table_bytes(tables[m]) for m in reads[side] - reads[1 - side] if m in tables) for side in SIDES]
        return sorted(SIDES, key=lambda side: -alone[side])

    def _find_double_steps(self, side: int, parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
        """``side``'s double steps after which en passant is possible (``parts``: per chunk, see
        find_double_steps), with the value of that capture; whether the defender has other moves is found
        once the first pass is through (it needs every position's legality)."""
        parent, child, pawn = (np.concatenate([p[k] for p in parts]) for k in range(3))
        parts.clear()
        exit_value = capture_exits(self.layout, self.exits, side, child, pawn)
        self.double_steps[side] = DoubleSteps.of([(parent, child, exit_value)])

    def _double_steps_range(self, side: int, span: Tuple[int, int]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """find_double_steps over the legal positions in ``span`` with ``side`` to move (of those that can
        have one: double_step_candidates, found once per side)."""
        candidates = self._double_step_candidates[side]
        if candidates is None:
            candidates = self._double_step_candidates[side] = double_step_candidates(self.layout, side)
        low, high = np.searchsorted(candidates, span)
        index = candidates[low:high]
        index = index[self.dtm[side][index] != ILLEGAL]
        return find_double_steps(self.layout, side, index, self.layout.decode(index))

    def has_move(self, side: int, index: np.ndarray) -> np.ndarray:
        """Whether ``side`` has a legal move in each position (``side`` to move); values need not be known."""
        other = self.dtm[1 - side]
        found = self.exit_value[side][index] != NO_EXIT
        for rows, child in successors(self.layout, side, index):
            found[rows] |= other[child] != ILLEGAL
        steps = self.double_steps[side]
        for rows, step in steps.rows_of(index):
            found[rows] |= other[steps.child[step]] != ILLEGAL
        return found

    def _classify_range(self, span: Tuple[int, int]) -> List[Tuple[np.ndarray, np.ndarray]]:
        """Legality, check and exit byte of the indices in ``span``; per side, the exits (index, value)
        that decide a position at some ply, or where the exit bytes are kept, (None, how many positions
        have each exit byte); then, where en passant is possible, each side's double steps."""
        self._legality_range(span)
        if not any(self.exits.has_exits(side) for side in SIDES):
            return [self._no_exits(side) for side in SIDES]
        found = [self._side_exits(side, span) for side in SIDES]
        if self.layout.en_passant_possible:
            found += [self._double_steps_range(side, span) for side in SIDES]
        return found

    def _legality_range(self, span: Tuple[int, int]) -> None:
        """Mark the illegal indices of ``span`` ILLEGAL (both sides to move) and set the in-check bits."""
        none = np.empty(0, np.uint8)
        checks = [self._in_check[s] if self.can_lose[s] else none for s in SIDES]
        self.kernel_rules.classify_span(self.kernel_layout, *span, *self.dtm, *checks)

    def _no_exits(self, side: int) -> Tuple[np.ndarray, np.ndarray]:
        return (None, np.zeros(256, np.int64)) if self.can_lose[side] else (np.empty(0, np.int32),
                                                                           np.empty(0, np.uint8))

    def _side_exits(self, side: int, span: Tuple[int, int]) -> Tuple[np.ndarray, np.ndarray]:
        """``side``'s exits from the legal positions in ``span`` (legality already marked): written to the
        exit bytes where those are kept (then ``(None, counts per byte)``), else ``(indices, values)`` of
        those that decide a position."""
        exit_pass = self._exit_pass[side]
        if exit_pass is None:
            return self._no_exits(side)
        start, stop = span
        if self.can_lose[side]:
            return None, exit_pass(start, stop, self.dtm[side], self.exit_value[side][start:stop])
        value = np.empty(stop - start, dtype=np.uint8)
        exit_pass(start, stop, self.dtm[side], value)
        deciding = np.flatnonzero((value != NO_EXIT) & (value != DRAW))
        return (deciding + start).astype(np.int32), value[deciding]

    def _release_subtables_only(self, side: int, keep: Optional[Material] = None) -> None:
        """Let go of the sub-tables that only ``side``'s moves lead into (no exit of the other side reads
        them), except ``keep``."""
        other_reads = {child.canonical for child, white_moved in self.material.moves_out()
                       if white_moved != (side == WHITE)} | {keep}
        tables = self.exits.subtables.tables
        for material in [m for m in tables if m not in other_reads]:
            del tables[material]

    # ---- moves forwards, for mates and the "every move loses" check ---------------------
    def en_passant_worst(self, side: int) -> Tuple[np.ndarray, np.ndarray]:
        """``(parents, worst)``: the positions (``side`` to move, sorted, distinct) with a double step
        beside an enemy pawn, and the largest value the opponent gets through one of them (as far as
        decided: UNKNOWN if one escapes, -1 if none is legal).  The forward checks start from it."""
        steps = self.double_steps[side]
        if not steps.parent.size:
            return np.empty(0, np.int64), np.empty(0, np.int16)
        value = steps.defender_wins_in(self.dtm[1 - side], self.kernel_layout.floor)
        starts = np.flatnonzero(np.r_[True, steps.parent[1:] != steps.parent[:-1]])
        return steps.parent[starts], np.maximum.reduceat(value, starts).astype(np.int16)

    # ---- the plies ---------------------------------------------------------------------
    def mates(self, side: int) -> Frontier:
        """Give 0 to the positions (``side`` to move) that are checkmate: in check, and no legal move.
        Returns them."""
        if not self.can_lose[side]:
            return np.empty(0, np.int32)
        lay, mine, other = self.kernel_layout, self.dtm[side], self.dtm[1 - side]
        in_check, exit_value, ep = self._in_check[side], self.exit_value[side], self.en_passant_worst(side)
        jobs = [partial(self.kernels.mates, lay, side, *span, in_check, mine, other, exit_value, *ep)
                for span in self._index_spans]
        return self._collect([jobs], mine, 0, as_found=True)

    def forget_checks(self) -> None:
        """Free the in-check bits: only the mates need them."""
        self._in_check = [None, None]

    def publish(self) -> None:
        """Turn ILLEGAL (and the loss counters left) into UNKNOWN in place, at the end (chunk by chunk, on
        all threads)."""
        above = min(self.kernel_layout.floor, ILLEGAL)

        def clear(job: Tuple[np.ndarray, Tuple[int, int]]) -> None:
            to_unknown_from(job[0][job[1][0] : job[1][1]], above)

        self.threads.map(clear, [(a, span) for a in self.dtm for span in self._index_spans])

    def ply(self, side: int, n: int, frontier: Frontier, exits: _Exits) -> Frontier:
        """The positions (``side`` to move) that get value n: for odd n those that mate in n, for even n
        those mated in n.  ``frontier``: the other side's positions that got n-1 last ply."""
        if n % 2:
            if not self.can_win[side]:
                return np.empty(0, np.int32)
            return self.win_ply(side, n, frontier, exits)
        if not self.can_lose[side]:
            return np.empty(0, np.int32)
        return self.loss_ply(side, n, frontier, exits)

    def win_ply(self, side: int, n: int, frontier: Frontier, exits: _Exits) -> Frontier:
        """Odd n: the undecided positions with a move into the other side's losses in n-1 (or an exit or
        en passant double step that mates in n).

        Usually found backwards, from the frontier.  When the frontier is
        larger than what is still undecided (the middle plies of a 5-piece
        table, where most positions are decided in a few plies), the
        undecided positions look forwards instead: less work.
        """
        lay, mine, other = self.kernel_layout, self.dtm[side], self.dtm[1 - side]
        steps = self.double_steps[side]
        direct = [exits.at(n)]
        if steps.parent.size:
            direct.append(steps.parent[steps.defender_loses_in(other, lay.floor) == n - 1])
        return self._ply(side, n, frontier, direct,
                         pull=partial(self.kernels.pull_wins, lay, side, n),
                         push=partial(self.kernels.mark_wins, lay, side, n),
                         confirm=partial(_mark_undecided, mine, n, lay.floor),
                         arrays=(mine, other),
                         runs=partial(self.kernels.mark_wins_runs, lay, side, n) if self._runs else None)

    def loss_ply(self, side: int, n: int, frontier: Frontier, exits: _Exits) -> Frontier:
        """Even n: predecessors of the frontier (and exits or en passant double steps losing in n) whose
        every move loses by n.

        The predecessors are counted down (:func:`Util.kernels.count_losses`) while the counters fit the
        bytes, else checked forward.  After a ply that pulls instead, the counters start again."""
        lay, mine, other = self.kernel_layout, self.dtm[side], self.dtm[1 - side]
        steps, exit_value = self.double_steps[side], self.exit_value[side]
        ep = self.en_passant_worst(side)
        direct = [exits.at(n)]
        if steps.parent.size:
            direct.append(steps.parent[steps.defender_wins_in(other, lay.floor) == n - 1])
        counting = self.white_counts(n) if side == WHITE else self.counting
        started = time.perf_counter()
        checked = self._checked  # all zero here: cleared after the forward checks that set bits
        checks = not counting or any(positions.size for positions in direct)
        push = partial(self.kernels.count_losses if counting else self.kernels.mark_losses, lay, side, n)
        runs = None
        if counting and side == WHITE and self._runs:  # see kernels.count_white_runs
            runs = partial(self.kernels.count_white_runs, lay, side, n)
        found = self._ply(side, n, frontier, direct,
                          pull=partial(self.kernels.pull_losses, lay, side, n), push=push,
                          confirm=partial(self.kernels.confirm_losses, lay, side, n),
                          arrays=(mine, other, exit_value, *ep, checked), one_writer=counting, runs=runs)
        if checks:
            self.threads.map(lambda span: checked[span[0] : span[1]].fill(0), _spans(checked.size, CHUNK))
        if counting and self._pulled:  # un-moves not counted: start again
            self._clear_counters(side)
        if side == WHITE and not counting:
            self._white_last_check_seconds = time.perf_counter() - started
            self._white_checking_seconds += self._white_last_check_seconds
        return found

    @property
    def counting(self) -> bool:
        """Whether the loss counters are in the DTM bytes (kernels.count_losses)."""
        return self.kernel_layout.floor < UNKNOWN

    def start_counting(self, n: int) -> None:
        """Before ply n: loss counters from now on, as long as the values stay below their bytes; cleared
        and stopped once ply n could reach them (only the longest tables, such as KPPvKP)."""
        if not any(self.can_lose):
            return
        fits = n < self.counter_floor - 1
        if self.counting and not fits:
            for side in SIDES:
                self._clear_counters(side)
        self.kernel_layout = self.kernel_layout._replace(floor=self.counter_floor if fits else UNKNOWN)

    def first_ply(self) -> List[Frontier]:
        """Ply 0, each side's checkmates; then, before ply 1, Black's loss counters (set_first_counters).
        Where White never loses (Black has only its king), the counters' pass finds Black's mates too: a
        position in check without a move (KBNvK: 14 -> 8 ms for the two).  Elsewhere the mates come first, so
        that the counters' pass is timed alone: White's loss plies weigh their forward checks against it
        (white_counts)."""
        white = self.mates(WHITE)
        if self.can_lose[WHITE]:
            black = self.mates(BLACK)
            self.set_first_counters()
            return [white, black]
        return [white, self.set_first_counters(with_mates=True)]

    def set_first_counters(self, with_mates: bool = False) -> Optional[Frontier]:
        """Before ply 1 of a new calculation: Black's loss counters of every undecided position, in one pass
        in index order (kernels.set_first_counters), instead of each when a ply first reaches it.
        ``with_mates``: Black's mates are not marked yet: the pass marks them and returns them."""
        self.start_counting(1)
        if not self.counting or not self.can_lose[BLACK]:
            return self.mates(BLACK) if with_mates else None
        black, white, exit_value = self.dtm[BLACK], self.dtm[WHITE], self.exit_value[BLACK]
        in_check = self._in_check[BLACK] if with_mates else np.empty(0, np.uint8)
        jobs = [partial(self.kernels.set_first_counters, self.kernel_layout, *span, black, white, exit_value, in_check)
                for span in self._index_spans]
        started = time.perf_counter()
        mates = self._collect([jobs], black, 0, as_found=True)
        self._white_pass_seconds = WHITE_PASS_RATIO * (time.perf_counter() - started)
        return mates if with_mates else None

    def white_counts(self, n: int) -> bool:
        """Whether White's loss ply n counts down (kernels.count_losses) rather than checking forward.

        Black's counters are set for every position before ply 1, and that pass pays in every table.
        White's would not: where White seldom loses, its forward checks stop at the first move that
        escapes, and the pass costs more than they do (KRPvKN: White's loss plies 0.2 s, the pass 3.5 s).
        Where White loses often (KBPvKQ, 174 M positions) every check of a candidate runs through most of
        its moves, ply after ply, and counters save most of it (White's loss plies 77 s, with counters
        22 s and the pass 3 s).  Which table is which shows only on the way, so White checks forward
        until that, with a few more plies like the last one (WHITE_LOOKAHEAD), would cost as much as the
        pass (as one rents skis until the rent would have bought them, and buys a little earlier when the
        rent keeps rising), then one pass sets the counters of all undecided positions
        (kernels.set_white_counters), and White counts from then on: never much more than the cheaper way.
        The table is the same whenever the pass comes; only the time depends on it."""
        if not self.counting:
            return False
        if not self._white_all_counted and self._white_check_forecast() >= self._white_pass_seconds:
            white, black, exit_value = self.dtm[WHITE], self.dtm[BLACK], self.exit_value[WHITE]
            self.threads.map(lambda span: self.kernels.set_white_counters(self.kernel_layout, n, *span, white, black, exit_value),
                             self._index_spans)
            self._white_all_counted = True
        return self._white_all_counted

    def _white_check_forecast(self) -> float:
        """Seconds White's forward checks will have cost by WHITE_LOOKAHEAD plies from now, if each costs
        what the last one did."""
        return self._white_checking_seconds + WHITE_LOOKAHEAD * self._white_last_check_seconds

    def _clear_counters(self, side: int) -> None:
        """Turn ``side``'s loss counters back into UNKNOWN."""
        if side == WHITE:  # forward checks until the next White loss ply sets them all again
            self._white_all_counted = False
        if not self.can_lose[side]:
            return
        values, floor = self.dtm[side], self.kernel_layout.floor
        self.threads.map(lambda span: self.kernels.clear_counters(values, *span, floor), self._index_spans)

    def deepest_ply(self, frontiers: List[Frontier], exits) -> List[np.ndarray]:
        """Ply 254, the deepest a byte holds (KPPvKP reaches it: Black to move, mated in 127 moves).  Its n
        is the engine's ILLEGAL, so the positions it finds are handed back (per side to move, to be given
        254 once the arrays are published) and set UNKNOWN again at once, so that the other side's check
        sees them as what they are, undecided this ply: a move into them escapes.  Raises if some position
        would mate in 255 plies, a value no byte holds."""
        found = []
        for side in SIDES:
            new = self.ply(side, DEEPEST, frontiers[1 - side], exits[side])
            self.dtm[side][new] = UNKNOWN
            found.append(new)
        for side in SIDES:
            if self.can_win[side] and found[1 - side].size:
                longer = self.kernels.mark_wins(self.kernel_layout, side, DEEPEST + 1, found[1 - side].astype(np.int64),
                                                self.dtm[side], self.dtm[1 - side], np.empty(1, np.int32))
                # an undecided parent of a double step into such a position: perhaps a mate in 255 (not
                # worked out further: the defender might also capture en passant), so refused as well
                steps = self.double_steps[side]
                longer += np.count_nonzero(np.isin(steps.child, found[1 - side])
                                           & (self.dtm[side][steps.parent] == UNKNOWN))
                if longer:
                    raise RuntimeError(f"{self.material}: mates longer than {DEEPEST} plies do not fit the DTM bytes")
        return found

    def _pulling_is_cheaper(self, side: int, frontier: Frontier, win: bool) -> bool:
        """Fewer undecided positions than frontier positions (only counted for a large frontier: see
        PULL_GATE)."""
        large = frontier.size * PULL_GATE[win] > self.layout.size
        return large and self._count_undecided(self.dtm[side]) < frontier.size

    def _ply(self, side: int, n: int, frontier: Frontier, direct: List[np.ndarray], pull, push, confirm,
             arrays: tuple, one_writer: bool = False, runs=None) -> Frontier:
        """The jobs of one side's ply, run on all threads: ``push`` from the frontier's pieces (or ``pull``
        over spans of the undecided positions when that is less work), and ``confirm`` the positions
        ``direct`` decided by a move into another table at this ply.  Each kernel takes its positions,
        then ``arrays``, then the buffer for what it finds.  Returns the new positions.

        ``one_writer``: ``push`` writes without atomic steps (kernels.count_losses), so its jobs take whole
        owner groups (_owner_jobs) and the confirming jobs run after them, not beside them.  ``runs``: a
        kernel that does ``push``'s work finding the un-moves once per run of 64 indices, used instead of
        ``push`` where the frontier is left in the array (a _Scan: dense, and found in order)."""
        self._pulled = self._pulling_is_cheaper(side, frontier, n % 2 == 1)
        one_writer = one_writer and not self._pulled
        if self._pulled:
            jobs = [partial(pull, *span, *arrays) for span in self._index_spans]
        elif one_writer:
            jobs = self._owner_jobs(side, push, frontier, arrays, runs)
        elif isinstance(frontier, _Scan):
            jobs = [partial(_on_span, runs or push, frontier, a, b, *arrays) for a, b in self._index_spans]
        else:
            jobs = [partial(_on_piece, push, frontier, a, b, *arrays)
                    for a, b in _spans(frontier.size, self._batch(frontier.size))]
        confirming = [partial(_on_piece, confirm, positions, a, b, *arrays)
                      for positions in direct for a, b in _spans(positions.size, self._batch(positions.size))]
        phases = [jobs, confirming] if one_writer else [jobs + confirming]
        return self._collect(phases, self.dtm[side], n, as_found=n % 2 == 0)

    def _owner_jobs(self, side: int, push, frontier: Frontier, arrays: tuple, runs=None) -> List[Callable[[np.ndarray], int]]:
        """``push`` over the frontier, each job over whole owner groups (see owner_keys), so that no two
        jobs reach the same predecessor through ``side``'s un-moves (the largest jobs first, so that the
        threads finish together); ``runs`` instead, if given, where the frontier is a _Scan."""
        if isinstance(frontier, _Scan):
            groups = sorted(_owner_spans(self.layout, side), key=lambda spans: -sum(b - a for a, b in spans))
            return [partial(_on_spans, runs or push, frontier, spans, *arrays) for spans in groups]
        keys = owner_keys(self.layout, side, frontier)
        if side == WHITE:  # Black's keys (white-king slots) already ascend with the index
            order = np.argsort(keys, kind="stable")
            frontier, keys = frontier[order], keys[order]
        bounds = np.searchsorted(keys, np.arange(65, dtype=np.int64))
        # neighbouring groups share a job until it holds its share of the frontier: a small table's ply does
        # not pay for a job per group (KPvK: 0.06 s with 32 jobs a ply, 0.05 s before)
        share, cuts = -(-frontier.size // (4 * self.threads.count)), [0]
        for g in range(64):
            if bounds[g + 1] - bounds[cuts[-1]] >= share or g == 63:
                cuts.append(g + 1)
        parts = [(int(bounds[a]), int(bounds[b])) for a, b in zip(cuts, cuts[1:]) if bounds[b] > bounds[a]]
        batch = self._batch(frontier.size)
        return [partial(_on_pieces, push, frontier, _spans_of(start, stop, batch), *arrays)
                for start, stop in sorted(parts, key=lambda part: part[0] - part[1])]

    def _collect(self, phases: List[List[Callable[[np.ndarray], int]]], values: np.ndarray, n: int,
                 as_found: bool = False) -> Frontier:
        """Run the jobs on all threads, one phase after the other; the new positions they marked n in
        ``values``.

        Each job records what it marks in a buffer and returns how many.  A
        large set (more than list_limit) is left in ``values`` (a _Scan),
        where the next ply's jobs find it: no list.  A smaller one is listed:
        ``as_found``, the buffers one after the other, as the jobs found them
        (for a loss ply, whose positions only the next win ply reads: it marks
        each predecessor once however often it comes, in any order); else in
        index order, each position once (a position two threads found at once
        comes twice), as a loss ply's jobs need them (see _owner_jobs).
        """
        limit = self.list_limit
        total, lock = [0], threading.Lock()

        def run(job: Callable[[np.ndarray], int]) -> Optional[np.ndarray]:
            found = np.empty(limit, dtype=np.int32)  # pages are only touched where written
            count = job(found)
            with lock:
                total[0] += count
                small = total[0] <= limit
            return found[:count].copy() if small else None

        found = [part for jobs in phases for part in self.threads.map(run, jobs)]
        if total[0] > limit:
            if n == ILLEGAL:  # the deepest ply (see deepest_ply) cannot be read back from the array
                raise RuntimeError(f"{self.material}: {total[0]} positions at ply {n}, more than it can list")
            return _Scan(values, n, self._count_equal(values, n))
        merged = np.concatenate(found) if found else np.empty(0, np.int32)
        if as_found:
            return merged
        if merged.size * BITMAP_SORT > values.size:  # the bits of _checked: all zero between plies
            return self.kernels.sort_distinct(merged, self._checked.view(np.uint64))
        merged.sort()
        return merged[np.r_[True, merged[1:] != merged[:-1]]] if merged.size else merged

    def _batch(self, size: int) -> int:
        """Piece size: at most BATCH, small enough that every thread gets a few pieces."""
        return max(1 << 12, min(BATCH, -(-size // (4 * self.threads.count))))

    def frontier(self, side: int, n: int) -> Frontier:
        """The positions (``side`` to move) whose value is n: listed, or a _Scan where they are many."""
        values = self.dtm[side]
        count = self._count_equal(values, n)
        return _Scan(values, n, count) if count > self.list_limit else _indices_equal(values, n, self.threads)

    @property
    def list_limit(self) -> int:
        """The most new positions of one ply that are listed: 1/256 of the table, at least a million."""
        return max(1 << 20, self.layout.size >> 8)

    @property
    def _span_step(self) -> int:
        """Indices per job of a pass over the whole index space: CHUNK, or in a small table less, so that each
        thread gets about four (KBNvK's 2.6 M indices in three chunks left one thread idle for a third of each
        pass).  A multiple of 64, as the kernels that take 64 indices at a time need."""
        return min(CHUNK, max(1 << 14, (-(-self.layout.size // (4 * self.threads.count)) + 63) // 64 * 64))

    @property
    def _index_spans(self) -> List[Tuple[int, int]]:
        """The jobs of a pass over the whole index space (see _span_step)."""
        return _spans(self.layout.size, self._span_step)

    def _count_equal(self, values: np.ndarray, n: int) -> int:
        """How many entries of ``values`` equal n (chunk by chunk, on all threads)."""
        return sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0] : span[1]] == n)),
                                    self._index_spans))

    def _count_undecided(self, values: np.ndarray) -> int:
        """How many entries of ``values`` are undecided (chunk by chunk, on all threads)."""
        floor = self.kernel_layout.floor
        return sum(self.threads.map(lambda span: self.kernels.count_undecided(values, *span, floor),
                                    self._index_spans))


def owner_keys(layout: Layout, side: int, positions: np.ndarray) -> np.ndarray:
    """The owner group (0-63) of each position (the other side to move): positions of different groups
    have no predecessor in common through ``side``'s un-moves.  Black's un-moves leave the white king
    where it is: the group is its slot.  White's leave the black king where it is, or move it with the
    whole board by one of the table's symmetries (the white king crossing into another canonical
    region): the group is the lowest square the symmetries take the black king to."""
    if side == BLACK:
        return positions // layout.strides[0]
    return layout.square_orbit[(positions // layout.strides[1]) & 63]


def _owner_spans(layout: Layout, side: int) -> List[List[Tuple[int, int]]]:
    """Per owner group (see owner_keys), the spans of the index space that hold its positions."""
    per_slot, per_square = int(layout.strides[0]), int(layout.strides[1])
    slots = range(len(layout.king_squares))
    if side == BLACK:
        return [_spans_of(s * per_slot, (s + 1) * per_slot, CHUNK) for s in slots]
    orbit = layout.square_orbit
    return [[(s * per_slot + square * per_square, s * per_slot + (square + 1) * per_square)
             for s in slots for square in np.flatnonzero(orbit == group)] for group in np.unique(orbit)]


def return_freed_memory() -> None:
    """Ask the C library to give freed heap memory back to the system (glibc's malloc_trim; elsewhere
    nothing happens).  Worth it before the engine allocates its gigabytes, and after each ply of a
    five-piece table (a few milliseconds; 0.1-0.3 GB less at the peak of KRPvKR)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _on_piece(kernel: Callable[..., int], positions: np.ndarray, start: int, stop: int, *arrays_and_found) -> int:
    """``kernel`` on ``positions[start:stop]`` as int64, converted only when the job runs: a frontier or
    list of exits of tens of millions is never copied whole."""
    return kernel(positions[start:stop].astype(np.int64), *arrays_and_found)


def _on_span(kernel: Callable[..., int], frontier: _Scan, start: int, stop: int, *arrays_and_found) -> int:
    """``kernel`` on the positions of ``frontier`` in ``range(start, stop)``, found when the job runs."""
    positions = np.flatnonzero(frontier.values[start:stop] == frontier.n)
    if not positions.size:
        return 0
    return kernel(positions + start, *arrays_and_found)


def _on_spans(kernel: Callable[..., int], frontier: _Scan, spans: List[Tuple[int, int]], *arrays_and_found) -> int:
    """_on_span over each of ``spans`` in turn, in one job (the positions found share its buffer)."""
    return _one_after_another(partial(_on_span, kernel, frontier), spans, arrays_and_found)


def _on_pieces(kernel: Callable[..., int], positions: np.ndarray, pieces: List[Tuple[int, int]],
               *arrays_and_found) -> int:
    """_on_piece over each of ``pieces`` in turn, in one job (the positions found share its buffer)."""
    return _one_after_another(partial(_on_piece, kernel, positions), pieces, arrays_and_found)


def _one_after_another(run: Callable[..., int], spans: List[Tuple[int, int]], arrays_and_found: tuple) -> int:
    """``run(start, stop, *arrays, found)`` for each span, each recording into the rest of ``found``; the
    total count (which, as a kernel's, may exceed the buffer: see kernels._record)."""
    *arrays, found = arrays_and_found
    count = 0
    for start, stop in spans:
        count += run(start, stop, *arrays, found[min(count, found.size):])
    return count


def _mark_undecided(values: np.ndarray, n: int, floor: int, positions: np.ndarray, *arrays_and_found) -> int:
    """Give n to those ``positions`` still undecided in ``values`` (UNKNOWN, or a loss counter: a byte from
    ``floor`` up but ILLEGAL); record them in the buffer (the last argument; the others are the kernels'
    arrays, unused here) and return how many."""
    found = arrays_and_found[-1]
    positions = positions[undecided(values[positions], floor)]
    values[positions] = n
    found[: positions.size] = positions[: found.size]
    return positions.size

def _table_bytes(table) -> int:
    """Memory held by a sub-table's arrays (a DtmTable, or the PromotionSlice of one)."""
    arrays = [getattr(table, name, None) for name in ("values", "dtm_white", "dtm_black")]
    return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))


#: Moves of a piece that stay in the table, at most (a pawn's captures and promotions leave it).
_MOST_MOVES = {"K": 8, "Q": 27, "R": 14, "B": 13, "N": 8, "P": 2}


def _most_moves(layout: Layout, side: int) -> int:
    """The most moves ``side`` can have in one position of ``layout`` that stay in the table."""
    return sum(_MOST_MOVES[layout.letters[i].upper()] for i in layout.pieces_of[side])


def _filled(size: int, value: int, threads: Threads) -> np.ndarray:
    """``np.full(size, value, np.uint8)``, filled on all threads: the first touch of a five-piece table's
    pages is most of the cost (KRPvKR's two arrays: 1.9 s on one thread)."""
    values = np.empty(size, dtype=np.uint8)
    threads.map(lambda span: values[span[0] : span[1]].fill(value), _spans(size, CHUNK))
    return values


def _spans(total: int, step: int) -> List[Tuple[int, int]]:
    """``(start, stop)`` pieces of ``range(total)``, ``step`` long (the last may be shorter)."""
    return _spans_of(0, total, step)


def _spans_of(begin: int, end: int, step: int) -> List[Tuple[int, int]]:
    """``(start, stop)`` pieces of ``range(begin, end)``, ``step`` long (the last may be shorter)."""
    return [(start, min(start + step, end)) for start in range(begin, end, step)]


def _indices_equal(values: np.ndarray, n: int, threads: Optional[Threads] = None, chunk: int = 1 << 24) -> np.ndarray:
    """Sorted int32 indices where ``values == n``, found chunk by chunk (no table-sized temporaries)."""
    def find(span: Tuple[int, int]) -> np.ndarray:
        return np.flatnonzero(values[span[0] : span[1]] == n).astype(np.int32) + np.int32(span[0])

    parts = (threads or Threads(1)).map(find, _spans(values.size, chunk))
    return np.concatenate(parts) if parts else np.empty(0, np.int32)


ProgressCallback = Callable[[int, int], None]
#: ``checkpoint(n, dtm_white, dtm_black)``: ply n is finished.  The arrays are the engine's own (read them,
#: never change them); an entry above n there is no value yet (ILLEGAL, or a loss counter)
#: and means "in no S_n", as UNKNOWN does (save_checkpoint knows).
CheckpointCallback = Callable[[int, np.ndarray, np.ndarray], None]


def compute_table(
    material: Material,
    subtables: Dict[Material, DtmTable],
    *,
    resume: Optional[Tuple[int, np.ndarray, np.ndarray]] = None,
    on_ply: Optional[ProgressCallback] = None,
    checkpoint: Optional[CheckpointCallback] = None,
    threads: Optional[int] = None,
    release_subtables: bool = False,
) -> DtmTable:
    """Compute every S_n of ``material``.

    ``subtables`` must hold every material of ``material.dependencies()``.
    ``resume=(n_done, dtm_white, dtm_black)`` continues a calculation whose
    plies up to ``n_done`` were finished (from a checkpoint; UNKNOWN where
    undecided or illegal). The engine continues in those two arrays, without
    a copy, so they are the result's arrays afterwards.  ``on_ply(n,
    size_of_S_n)`` is called after each ply, ``checkpoint(n, dtm_white,
    dtm_black)`` too, so the caller may save progress (see CheckpointCallback:
    no copies are made, a 5-piece table with a pawn has 1 GB of them).  ``threads``: how many
    cores to use (default: all this process may run on); the result is the
    same for any number.  ``release_subtables``: empty the ``subtables`` dict once
    the first pass has read them (the sub-tables of a 5-piece pawn table hold
    most of a gigabyte, and the plies never read them again).
    """
    missing = [str(m) for m in material.dependencies() if m not in subtables]
    if missing:
        raise ValueError(f"{material} needs the tables {', '.join(missing)} first")
    pool = Threads(threads or core_count())
    try:
        engine = _Engine(material, subtables, pool, values=_checkpoint_values(material, resume))
        if release_subtables:
            subtables = None
        return _run(engine, resume, on_ply, checkpoint, release_subtables)
    finally:
        pool.close()


def _checkpoint_values(material: Material, resume) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """The arrays of ``resume`` (see :func:`compute_table`), checked to fit ``material``; None without."""
    if resume is None:
        return None
    size = Layout(material).size
    arrays = tuple(resume[1:])
    for array in arrays:
        if array.dtype != np.uint8 or array.shape != (size,) or not array.flags.writeable:
            raise ValueError(f"the checkpoint's arrays do not fit {material}: {size} writable uint8 entries "
                             f"per side expected, got {array.dtype} {array.shape}")
    return arrays


def _run(engine: _Engine, resume, on_ply, checkpoint, release_subtables: bool = False) -> DtmTable:
    """The plies of :func:`compute_table`, from the mates (or the checkpoint) to the last S_n.

    Ply n gives both sides to move their value n, each from the other
    side's positions that got n-1 in the ply before.
    """
    exits = engine.classify(release_subtables)
    if release_subtables:
        engine.release_subtables()
    if resume is None:
        frontiers = engine.first_ply()
        n_done = 0
        if on_ply:
            on_ply(0, sum(f.size for f in frontiers))
        if checkpoint:  # the counters in the arrays are saved as UNKNOWN (see save_checkpoint)
            checkpoint(0, engine.dtm_white, engine.dtm_black)
    else:
        n_done = resume[0]
        frontiers = [engine.frontier(side, n_done) for side in SIDES]
    engine.forget_checks()
    last_exit = max(e.last for e in exits)
    n = n_done + 1
    deepest = None
    while any(f.size for f in frontiers) or n <= last_exit:
        engine.start_counting(n)
        if n == DEEPEST:
            frontiers = deepest = engine.deepest_ply(frontiers, exits)
        else:
            frontiers = [engine.ply(side, n, frontiers[1 - side], exits[side]) for side in SIDES]
        if on_ply:
            on_ply(n, sum(f.size for f in frontiers))
        if n == DEEPEST:
            break
        if checkpoint:
            checkpoint(n, engine.dtm_white, engine.dtm_black)
        if engine.layout.size >= SIDE_BY_SIDE:
            return_freed_memory()  # a ply's scratch, freed by the threads, would stay in their heaps
        n += 1
    engine.publish()
    if deepest is not None:
        for side in SIDES:
            engine.dtm[side][deepest[side]] = DEEPEST
    return DtmTable(engine.material, engine.dtm_white, engine.dtm_black)
