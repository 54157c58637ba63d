"""Load every kernel's compiled code once, before anything is timed (:func:`warm_up`), and compile them all
on a new machine with every core (:func:`compile_on_all_cores`, ``python -m Util.retrograde_kernels.precompile``, which
``scripts/setup.sh`` runs).

numba compiles a kernel the first time it is called and keeps the machine code in ``__pycache__`` beside
the source; later processes load it from there.  Compiling is the slow part (minutes in all, see
``docs/performance.md``), and one process compiles one kernel at a time, so the kernels are loaded in
independent steps that separate processes can take in turn.
"""

from __future__ import annotations

import time
from typing import Callable, List

import numpy as np

from ..table.values import NO_EXIT, UNKNOWN
from ..table.index_scheme import Layout
from ..board.material import Material
from .board import PackedLayout
from .counters import (clear_counters, count_losses, count_undecided, count_white_runs, counter_floor,
                       set_first_counters, set_white_counters)
from .exits import warm_up_exits
from .legality import mark_legality
from .plies import confirm_losses, mark_losses, mark_wins, mark_wins_runs, mates, pull_losses, pull_wins
from .sorting import bucket_by_value, group_exit_bytes, sort_distinct, weighed_byte_counts


class _Tiny:
    """Arrays of a tiny table (KQvK's size) for kernels called on nothing that matters."""

    def __init__(self) -> None:
        self.lay = PackedLayout.of(Layout(Material("Q")))
        size = 10 * 64 ** 2
        self.values, self.other, self.exit_value = (np.full(size, UNKNOWN, dtype=np.uint8) for _ in range(3))
        self.bits, self.found = np.zeros(size // 8, dtype=np.uint8), np.empty(16, dtype=np.int32)
        self.ep_parent, self.ep_worst = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int16)
        self.one = np.zeros(1, dtype=np.int64)
        self.counting = self.lay._replace(floor=counter_floor(8))
        # the run kernels on no frontier at all: loaded without a table's worth of arrays
        self.with_pawns = PackedLayout.of(Layout(Material("P", "P")))._replace(floor=counter_floor(10))

    def losses(self) -> tuple:
        """The arguments every loss kernel takes after its frontier."""
        return (self.values, self.other, self.exit_value, self.ep_parent, self.ep_worst, self.bits, self.found)


def _white_counters() -> None:
    both_sides = 10 * 64 ** 3  # KQvKR's entries
    layout = PackedLayout.of(Layout(Material("Q", "R")))._replace(floor=counter_floor(43))
    set_white_counters(layout, 2, 0, 64, *(np.full(both_sides, value, np.uint8) for value in (UNKNOWN, UNKNOWN,
                                                                                                NO_EXIT)))


def _sorting(t: _Tiny) -> None:
    group_exit_bytes(t.values, 0, 8, 1, 3, np.zeros(2, np.int64), t.found)
    weighed_byte_counts(t.values, t.one)
    bucket_by_value(np.zeros(1, np.int32), np.zeros(1, np.uint8))
    sort_distinct(np.zeros(1, np.int32), np.zeros(1, np.uint64))


#: Independent steps, the slowest to compile first (so that processes taking them in turn end together).
STEPS: List[Callable[[_Tiny], None]] = [
    lambda t: mark_losses(t.lay, 1, 2, t.one, *t.losses()),
    lambda t: count_losses(t.counting, 1, 2, t.one, *t.losses()),
    lambda t: mark_wins(t.lay, 0, 1, t.one, t.values, t.other, t.found),
    lambda t: mates(t.lay, 1, 0, 8, t.bits, t.values, t.other, t.exit_value, t.ep_parent, t.ep_worst, t.found),
    lambda t: count_white_runs(t.with_pawns, 0, 2, t.one[:0], *t.losses()),
    lambda t: [mark_wins_runs(t.with_pawns, side, 1, t.one[:0], t.values, t.other, t.found) for side in (0, 1)],
    lambda t: warm_up_exits(),
    lambda t: _white_counters(),
    lambda t: pull_wins(t.lay, 0, 1, 0, 8, t.values, t.other, t.found),
    lambda t: pull_losses(t.lay, 1, 2, 0, 8, *t.losses()),
    lambda t: confirm_losses(t.lay, 1, 2, t.one, *t.losses()),
    lambda t: set_first_counters(t.counting, 0, 64, t.values, t.other, t.exit_value, t.bits, t.found),
    lambda t: mark_legality(t.lay, 0, 8, t.values, t.other, t.bits, t.bits),
    lambda t: clear_counters(t.values, 0, 8, t.counting.floor),
    lambda t: count_undecided(t.values, 0, 8, t.counting.floor),
    _sorting,
]


def warm_up() -> None:
    """Load every kernel's compiled code (compile it, the first time on a machine), so that a timed
    calculation measures the calculation.  The tiny positions used here change nothing."""
    tiny = _Tiny()
    for step in STEPS:
        step(tiny)


def _run_step(index: int) -> int:
    STEPS[index](_Tiny())
    return index


def compile_on_all_cores(workers: int = 0) -> float:
    """Compile (or load) every kernel in ``workers`` processes (default: one per core) taking the steps in
    turn, so that the cache beside the source holds them all; returns the seconds it took."""
    from ..runtime.parallel import core_count, map_chunks

    start = time.perf_counter()
    steps = list(range(len(STEPS)))
    map_chunks(_run_step, steps, state={}, workers=workers or core_count(), progress=False)
    warm_up()  # in this process too: every kernel is now loaded from the cache, or compiled if one was missed
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"setup: the engine's kernels compiled (or loaded) and cached in Util/retrograde_kernels/__pycache__ in "
          f"{compile_on_all_cores():.0f} s")
