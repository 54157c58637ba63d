"""The jobs of a ply: pieces of a frontier, spans of the index space, and how the threads share them.

Within one ply the frontier's pieces are independent: marking only ever
writes n into positions still unknown, and the forward check of a
candidate reads only the other side's array, in which this ply writes
nothing but values that make the check fail whether it reads them or the
UNKNOWN before them.  So the pieces run on threads, one per core (the
compiled kernels release the interpreter lock).  Two threads may find the
same position: a win ply's new S_n is put in index order with repeats
removed (the loss ply after it counts down once per position found), a loss
ply's is handed on as the threads found it (the win ply after it marks each
predecessor once, however often and in whatever order it comes), so the
result does not depend on the order in which the threads ran.  The counters
are the exception: counted down without atomic steps, each by one thread
only, so those jobs take whole groups of positions whose predecessors no
other group shares (Black's un-moves leave the white king where it is;
White's leave the black king where it is, or fold it with the board) and
nothing runs beside them (:func:`owner_jobs`).
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Callable, List, Optional, Tuple

import numpy as np

from ..table.dtm_table import CHUNK
from ..table.values import ILLEGAL, undecided
from ..retrograde_kernels.sorting import sort_distinct
from ..table.index_scheme import Layout
from .frontiers import Frontier, FrontierScan, spans, spans_of
from .state import BLACK, WHITE, WorkingTable

#: A job: runs a kernel on its part, records the positions it marks in the buffer it is given, returns how many.
Job = Callable[[np.ndarray], int]


def run_ply_jobs(table: WorkingTable, side: int, n: int, frontier: Frontier, direct: List[np.ndarray], pull, push,
                 confirm, arrays: tuple, one_writer: bool = False, runs=None) -> Tuple[Frontier, bool]:
    """The jobs of one side's ply, run on all threads: ``push`` from the frontier's pieces (or ``pull``
    over spans of the undecided positions when that is less work), and ``confirm`` the positions
    ``direct`` decided by a move into another table at this ply.  Each kernel takes its positions,
    then ``arrays``, then the buffer for what it finds.  Returns the new positions, and whether it pulled.

    ``one_writer``: ``push`` writes without atomic steps (kernels.counters.count_losses), so its jobs take
    whole owner groups (owner_jobs) and the confirming jobs run after them, not beside them.  ``runs``: a
    kernel that does ``push``'s work finding the un-moves once per run of 64 indices, used instead of
    ``push`` where the frontier is left in the array (a FrontierScan: dense, and found in order)."""
    pulled = pulling_is_cheaper(table, side, frontier, n % 2 == 1)
    one_writer = one_writer and not pulled
    if pulled:
        jobs = [partial(pull, *span, *arrays) for span in table.index_spans]
    elif one_writer:
        jobs = owner_jobs(table, side, push, frontier, arrays, runs)
    elif isinstance(frontier, FrontierScan):
        jobs = [partial(on_span, runs or push, frontier, a, b, *arrays) for a, b in table.index_spans]
    else:
        jobs = [partial(on_piece, push, frontier, a, b, *arrays)
                for a, b in spans(frontier.size, table.batch(frontier.size))]
    confirming = [partial(on_piece, confirm, positions, a, b, *arrays)
                  for positions in direct for a, b in spans(positions.size, table.batch(positions.size))]
    phases = [jobs, confirming] if one_writer else [jobs + confirming]
    return collect(table, phases, table.dtm[side], n, as_found=n % 2 == 0), pulled


def pulling_is_cheaper(table: WorkingTable, side: int, frontier: Frontier, win: bool) -> bool:
    """Fewer undecided positions than frontier positions (only counted for a large frontier: see
    EnginePolicy.pull_gate_win and pull_gate_loss), or as EnginePolicy.always_pull says."""
    if table.policy.always_pull is not None:
        return table.policy.always_pull
    large = frontier.size * table.policy.pull_gate(win) > table.size
    return large and table.count_undecided(table.dtm[side]) < frontier.size


def owner_jobs(table: WorkingTable, side: int, push, frontier: Frontier, arrays: tuple, runs=None) -> List[Job]:
    """``push`` over the frontier, each job over whole owner groups (see owner_keys), so that no two
    jobs reach the same predecessor through ``side``'s un-moves (the largest jobs first, so that the
    threads finish together); ``runs`` instead, if given, where the frontier is a FrontierScan."""
    layout = table.layout
    if isinstance(frontier, FrontierScan):
        groups = sorted(owner_spans(layout, side), key=lambda group: -sum(b - a for a, b in group))
        return [partial(on_spans, runs or push, frontier, group, *arrays) for group in groups]
    keys = owner_keys(layout, side, frontier)
    if side == WHITE:  # Black's keys (white-king slots) already ascend with the index
        order = np.argsort(keys, kind="stable")
        frontier, keys = frontier[order], keys[order]
    bounds = np.searchsorted(keys, np.arange(65, dtype=np.int64))
    # neighbouring groups share a job until it holds its share of the frontier: a small table's ply does
    # not pay for a job per group
    share, cuts = -(-frontier.size // (4 * table.threads.count)), [0]
    for g in range(64):
        if bounds[g + 1] - bounds[cuts[-1]] >= share or g == 63:
            cuts.append(g + 1)
    parts = [(int(bounds[a]), int(bounds[b])) for a, b in zip(cuts, cuts[1:]) if bounds[b] > bounds[a]]
    batch = table.batch(frontier.size)
    return [partial(on_pieces, push, frontier, spans_of(start, stop, batch), *arrays)
            for start, stop in sorted(parts, key=lambda part: part[0] - part[1])]


def collect(table: WorkingTable, phases: List[List[Job]], values: np.ndarray, n: int,
            as_found: bool = False) -> Frontier:
    """Run the jobs on all threads, one phase after the other; the new positions they marked n in
    ``values``.

    Each job records what it marks in a buffer and returns how many.  A
    large set (more than the table's list_limit) is left in ``values`` (a
    FrontierScan), where the next ply's jobs find it: no list.  A smaller
    one is listed: ``as_found``, the buffers one after the other, as the
    jobs found them (for a loss ply, whose positions only the next win ply
    reads: it marks each predecessor once however often it comes, in any
    order); else in index order, each position once (a position two threads
    found at once comes twice), as a loss ply's jobs need them (see
    owner_jobs).
    """
    limit = table.list_limit
    total, lock = [0], threading.Lock()

    def run(job: Job) -> Optional[np.ndarray]:
        found = np.empty(limit, dtype=np.int32)  # pages are only touched where written
        count = job(found)
        with lock:
            total[0] += count
            small = total[0] <= limit
        return found[:count].copy() if small else None

    found = [part for jobs in phases for part in table.threads.map(run, jobs)]
    if total[0] > limit:
        if n == ILLEGAL:  # the deepest ply (see Plies.deepest_ply) cannot be read back from the array
            raise RuntimeError(f"{table.material}: {total[0]} positions at ply {n}, more than it can list")
        return FrontierScan(values, n, table.count_equal(values, n))
    merged = np.concatenate(found) if found else np.empty(0, np.int32)
    if as_found:
        return merged
    if merged.size * table.policy.bitmap_sort > values.size:  # the bits of table.checked: all zero between plies
        return sort_distinct(merged, table.checked.view(np.uint64))
    merged.sort()
    return merged[np.r_[True, merged[1:] != merged[:-1]]] if merged.size else merged


def owner_keys(layout: Layout, side: int, positions: np.ndarray) -> np.ndarray:
    """The owner group (0-63) of each position (the other side to move): positions of different groups
    have no predecessor in common through ``side``'s un-moves.  Black's un-moves leave the white king
    where it is: the group is its slot.  White's leave the black king where it is, or move it with the
    whole board by one of the table's symmetries (the white king crossing into another canonical
    region): the group is the lowest square the symmetries take the black king to."""
    if side == BLACK:
        return positions // layout.strides[0]
    return layout.square_orbit[(positions // layout.strides[1]) & 63]


def owner_spans(layout: Layout, side: int) -> List[List[Tuple[int, int]]]:
    """Per owner group (see owner_keys), the spans of the index space that hold its positions."""
    per_slot, per_square = int(layout.strides[0]), int(layout.strides[1])
    slots = range(len(layout.king_squares))
    if side == BLACK:
        return [spans_of(s * per_slot, (s + 1) * per_slot, CHUNK) for s in slots]
    orbit = layout.square_orbit
    return [[(s * per_slot + square * per_square, s * per_slot + (square + 1) * per_square)
             for s in slots for square in np.flatnonzero(orbit == group)] for group in np.unique(orbit)]


def on_piece(kernel: Callable[..., int], positions: np.ndarray, start: int, stop: int, *arrays_and_found) -> int:
    """``kernel`` on ``positions[start:stop]`` as int64, converted only when the job runs: a frontier or
    list of exits of tens of millions is never copied whole."""
    return kernel(positions[start:stop].astype(np.int64), *arrays_and_found)


def on_span(kernel: Callable[..., int], frontier: FrontierScan, start: int, stop: int, *arrays_and_found) -> int:
    """``kernel`` on the positions of ``frontier`` in ``range(start, stop)``, found when the job runs."""
    positions = np.flatnonzero(frontier.values[start:stop] == frontier.n)
    if not positions.size:
        return 0
    return kernel(positions + start, *arrays_and_found)


def on_spans(kernel: Callable[..., int], frontier: FrontierScan, spans: List[Tuple[int, int]], *arrays_and_found) -> int:
    """on_span over each of ``spans`` in turn, in one job (the positions found share its buffer)."""
    return one_after_another(partial(on_span, kernel, frontier), spans, arrays_and_found)


def on_pieces(kernel: Callable[..., int], positions: np.ndarray, pieces: List[Tuple[int, int]],
               *arrays_and_found) -> int:
    """on_piece over each of ``pieces`` in turn, in one job (the positions found share its buffer)."""
    return one_after_another(partial(on_piece, kernel, positions), pieces, arrays_and_found)


def one_after_another(run: Callable[..., int], spans: List[Tuple[int, int]], arrays_and_found: tuple) -> int:
    """``run(start, stop, *arrays, found)`` for each span, each recording into the rest of ``found``; the
    total count (which, as a kernel's, may exceed the buffer: see kernels.entries.record)."""
    *arrays, found = arrays_and_found
    count = 0
    for start, stop in spans:
        count += run(start, stop, *arrays, found[min(count, found.size):])
    return count


def mark_undecided(values: np.ndarray, n: int, floor: int, positions: np.ndarray, *arrays_and_found) -> int:
    """Give n to those ``positions`` still undecided in ``values`` (UNKNOWN, or a loss counter: a byte from
    ``floor`` up but ILLEGAL); record them in the buffer (the last argument; the others are the kernels'
    arrays, unused here) and return how many."""
    found = arrays_and_found[-1]
    positions = positions[undecided(values[positions], floor)]
    values[positions] = n
    found[: positions.size] = positions[: found.size]
    return positions.size
