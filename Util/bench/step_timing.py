"""The backward step and the engine side by side: the same sets, and the time each takes for the same task.

The task is always "S_0 .. S_max_n of one material" (every S_n when ``max_n`` is None), so that a
ratio of two times compares like with like: :func:`backward_seconds` times the plain-Python backward
step of :mod:`Util.calculation.backward_step` (with or without folding by symmetry), :func:`engine_seconds` the
engine on one thread, stopped after the same ply.  :func:`sets_that_differ` compares the sets.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable, List, Optional, Tuple

from ..calculation.backward_step import BackwardSolution, integer_to_key, solve
from ..calculation.store import TableStore
from ..engine import compute_table
from ..board.material import Material


class _PlyLimit(Exception):
    """Raised from the engine's ``on_ply`` to stop it once the task's last ply is done."""


def median_seconds(run: Callable[[], object], repeats: int = 3) -> Tuple[float, List[float]]:
    """The median time of ``repeats`` calls of ``run`` in seconds, and every time measured."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def engine_seconds(material: Material, max_n: Optional[int] = None, threads: int = 1, repeats: int = 3,
                   store: Optional[TableStore] = None) -> Tuple[float, List[float]]:
    """The engine's time for S_0 .. S_max_n of ``material`` on ``threads`` threads (median of ``repeats``),
    the tables its captures and promotions lead into loaded or computed beforehand (not timed)."""
    subtables = (store or TableStore(progress=False)).subtables_of(material)

    def stop_after_max_n(n: int, _new: int) -> None:
        if max_n is not None and n >= max_n:
            raise _PlyLimit

    def run() -> None:
        try:
            compute_table(material, dict(subtables), on_ply=stop_after_max_n, threads=threads)
        except _PlyLimit:
            pass

    return median_seconds(run, repeats)


def backward_seconds(material: Material, max_n: Optional[int] = None, fold: bool = True,
                     repeats: int = 1) -> Tuple[float, BackwardSolution]:
    """The plain-Python backward step's time for S_0 .. S_max_n (median of ``repeats``) and its solution."""
    solutions = []
    seconds, _ = median_seconds(lambda: solutions.append(solve(material, max_n=max_n, fold=fold)), repeats)
    return seconds, solutions[-1]


def solution_from_sequence(sequence, max_n: Optional[int] = None) -> BackwardSolution:
    """An :class:`Util.sequence.SnSequence` (the engine's table) as a BackwardSolution, S_0 .. S_max_n (all
    when None): to feed the backward step of a pawn table with the tables its promotions lead into."""
    piece_list = sequence.piece_list
    last = len(sequence) if max_n is None else min(len(sequence), max_n + 1)
    sets = [{integer_to_key(int(b), piece_list) for b in sequence[n]} for n in range(last)]
    return BackwardSolution(sequence.material, sets, 0.0, {n: len(s) for n, s in enumerate(sets)})


def sets_that_differ(solution: BackwardSolution, sequence, max_n: Optional[int] = None) -> List[int]:
    """The n (up to ``max_n``, if the backward step stopped there) whose S_n differ between the backward step
    and the engine's table of the same material, compared as board integers; an S_n that only one of them
    has counts as differing.  [] when every set agrees."""
    largest = max(len(solution.sets), len(sequence)) if max_n is None else max_n + 1
    return [n for n in range(largest)
            if (solution.board_integers(n) if n < len(solution.sets) else set())
            != ({int(b) for b in sequence[n]} if n < len(sequence) else set())]


def speedup_text(slow_seconds: float, fast_runs: List[float], slow_runs: Optional[List[float]] = None) -> str:
    """How many times faster, from times measured on the same task: the ratio of the medians to two
    significant figures, and the range the single runs allow ("about 760 (690 to 830)"; "one run each" when
    both sides were timed once: then only the text beside the table can say how much the machine's noise is)."""
    slow_runs = slow_runs or [slow_seconds]
    middle = slow_seconds / statistics.median(fast_runs)
    if len(slow_runs) == len(fast_runs) == 1:
        return f"about {_two_figures(middle):,} (one run each)"
    low, high = min(slow_runs) / max(fast_runs), max(slow_runs) / min(fast_runs)
    return f"about {_two_figures(middle):,} ({_two_figures(low):,} to {_two_figures(high):,})"


def _two_figures(x: float):
    """``x`` rounded to two significant figures (an int from 10 on)."""
    from math import floor, log10

    if x <= 0:
        return 0
    rounded = round(x, 1 - int(floor(log10(x))))
    return int(rounded) if rounded >= 10 else rounded
