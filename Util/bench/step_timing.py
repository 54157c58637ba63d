"""The backward step and the engine side by side: the same sets, and the time each takes for the same task.

The task is always "S_0 .. S_max_n of one material" (every S_n when ``max_n`` is None), so that a
ratio of two times compares like with like: :func:`backward_seconds` times the plain-Python backward
step of :mod:`Util.calculation.backward_step` (with or without folding by symmetry), :func:`engine_seconds` the
engine on one thread, stopped after the same ply.  :func:`sets_that_differ` compares the sets.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from ..calculation.backward_step import BackwardSolution, integer_to_key, solve
from ..calculation.store import TableStore
from ..retrograde import compute_table
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
    """How many times faster, from times measured on the same task: ``slow_seconds`` over the median of
    ``fast_runs``, and in brackets the range the single runs allow (the fastest slow run over the slowest
    fast one, and the other way round), all rounded by :func:`noise_figures`: "about 760 (690 to 830)";
    "one run each" when both sides were timed once, since then the noise is not known."""
    slow_runs = slow_runs or [slow_seconds]
    return _ratio_with_range(slow_seconds / statistics.median(fast_runs), slow_runs, fast_runs)


def _ratio_with_range(middle: float, slow_runs: List[float], fast_runs: List[float]) -> str:
    if len(slow_runs) == len(fast_runs) == 1:
        return f"about {_figures(middle, 2):,} (one run each)"
    low, high = min(slow_runs) / max(fast_runs), max(slow_runs) / min(fast_runs)
    decimals = _decimals(middle, noise_figures(middle, low, high))  # the range ends stop at the same place
    return f"about {_places(middle, decimals):,} ({_places(low, decimals):,} to {_places(high, decimals):,})"


def noise_figures(middle: float, low: float, high: float) -> int:
    """The significant figures of ``middle`` that the range ``low`` to ``high`` leaves standing: down to
    the decimal place of the first figure of half the range, one at least and two at most (two when the
    range is empty)."""
    from math import floor, log10

    half = (high - low) / 2
    if half <= 0 or middle <= 0:
        return 2
    return max(1, min(2, int(floor(log10(middle))) - int(floor(log10(half))) + 1))


def _two_figures(x: float):
    """``x`` rounded to two significant figures (an int from 10 on)."""
    return _figures(x, 2)


def _figures(x: float, figures: int):
    """``x`` rounded to ``figures`` significant figures (an int where no decimal is left)."""
    from math import floor, log10

    if x <= 0:
        return 0
    decimals = figures - 1 - int(floor(log10(x)))
    rounded = round(x, decimals)
    return int(rounded) if decimals <= 0 else rounded


def _decimals(x: float, figures: int) -> int:
    """The decimal places that leave ``figures`` significant figures of ``x`` (negative: tens, hundreds)."""
    from math import floor, log10

    return figures - 1 - int(floor(log10(x))) if x > 0 else 0


def _places(x: float, decimals: int):
    """``x`` rounded to ``decimals`` places (an int where no decimal is left)."""
    rounded = round(x, decimals)
    return int(rounded) if decimals <= 0 else rounded


def seconds_text(seconds: float) -> str:
    """A time as printed in the steps' table: three significant figures, at least one decimal
    ("24.2", "4.22", "0.0123"); the ratios are computed from these printed numbers."""
    from math import floor, log10

    return f"{seconds:.{max(1, 2 - int(floor(log10(seconds))))}f}" if seconds > 0 else "0.0"


@dataclass
class StepTime:
    """One way of doing the task and the time of each run, in seconds."""

    way: str
    runs: List[float]

    @property
    def seconds(self) -> float:
        """The median run, as printed (:func:`seconds_text`)."""
        return float(seconds_text(statistics.median(self.runs)))


@dataclass
class StepLadder:
    """The task done one step more each row: each row's speed-up is over the row above, on the same task."""

    task: str
    steps: List[StepTime]
    same_work: bool  # the interpreted and the compiled engine found as many new positions in every ply

    def rows(self) -> List[Tuple[str, str, str, str]]:
        """``(way, runs, median seconds as printed, times faster than the row above)`` per step."""
        return [(step.way, str(len(step.runs)), seconds_text(step.seconds),
                 "" if above is None else ratio_text(above, step))
                for above, step in zip([None, *self.steps], self.steps)]


def ratio_text(slow: StepTime, fast: StepTime) -> str:
    """How many times faster ``fast`` did the task than ``slow``: the ratio of the two printed medians,
    and in brackets the range the single runs allow, rounded as :func:`speedup_text` says."""
    return _ratio_with_range(slow.seconds / fast.seconds, slow.runs, fast.runs)


def step_ladder(material: Material, max_n: int, store: TableStore, repeats: int = 3) -> StepLadder:
    """The engine's steps timed one at a time on S_0 .. S_max_n of ``material``, ``repeats`` runs each
    (the compiled engine five, being short): the backward step on python-chess boards, the same folded
    by symmetry (step 1), the engine's integer index with numba switched off (step 2,
    :mod:`Util.bench.interpreted`), and the engine compiled (step 3), all on one thread.  ``store`` holds (or computes) the tables the captures
    lead into; its folder is where the interpreted engine's process reads them."""
    from .interpreted import interpreted_engine_seconds, new_per_ply

    plain = [backward_seconds(material, max_n, fold=False)[0] for _ in range(repeats)]
    folded = [backward_seconds(material, max_n, fold=True)[0] for _ in range(repeats)]
    subtables = store.subtables_of(material)
    _, interpreted_runs, interpreted_found = interpreted_engine_seconds(material, max_n, store.results_dir, repeats)
    _, compiled_found = new_per_ply(material, max_n, subtables)  # untimed: the first run loads what it needs
    _, compiled_runs = engine_seconds(material, max_n, threads=1, repeats=max(5, repeats), store=store)
    return StepLadder(f"{material}, S_0 .. S_{max_n}", [
        StepTime("thesis: backward step on python-chess boards", plain),
        StepTime("+ step 1, symmetry: one board per set of mirror images", folded),
        StepTime("+ step 2, integer index: the engine on numpy arrays, loops not compiled", interpreted_runs),
        StepTime("+ step 3, compiled loops: the same engine compiled by numba", compiled_runs),
    ], same_work=interpreted_found == compiled_found)


@dataclass
class WayTimes:
    """One way of computing a table: the time of each run on the clock and in processor seconds (every
    thread of this process)."""

    way: str
    seconds: List[float]
    processor_seconds: List[float]

    def row(self) -> Tuple[str, str, str, str]:
        """``(way, runs, median seconds, median processor seconds)`` as printed."""
        return (self.way, str(len(self.seconds)), seconds_text(statistics.median(self.seconds)),
                seconds_text(statistics.median(self.processor_seconds)))


def refinement_times(material: Material, store: TableStore, repeats: int = 3) -> Tuple[List[WayTimes], object]:
    """The whole table of ``material`` computed three ways, ``repeats`` runs each: as the engine does it
    (on every core, a ply going forwards where that is less work), on one thread, and never forwards.  The
    tables it leads into come from ``store`` (loaded or computed first, not timed).  Returns the times and
    the table (the same whichever way: the engine's tests prove it)."""
    from ..retrograde import EnginePolicy

    subtables = store.subtables_of(material)
    ways = [("as the engine does it: every core, forwards where that is less work", {}),
            ("on one thread", {"threads": 1}),
            ("never forwards", {"policy": EnginePolicy(always_pull=False)})]
    times, table = [], None
    for way, options in ways:
        wall, processor = [], []
        for _ in range(repeats):
            start, start_processor = time.perf_counter(), time.process_time()
            table = compute_table(material, dict(subtables), **options)
            wall.append(time.perf_counter() - start)
            processor.append(time.process_time() - start_processor)
        times.append(WayTimes(way, wall, processor))
    return times, table
