"""``python -m Util bench``: time, memory and size of computing tables.

Each table is computed from scratch in a fresh process, so its peak memory
is its own.  As in every tablebase generator, the tables a game can turn
into (after a capture or a promotion) are finished first, in another
process and untimed, and the measured run loads them from their files.
The seconds start once the compiled kernels are loaded (see
:func:`Util.retrograde.compute.load_engine`); ``/usr/bin/time python -m Util calculate X``
gives the whole process.

With ``results`` (``bench --results DIR``) the tables it leads into are read
from that folder of computed tables instead (the heaviest five-piece tables
need dozens of others, most of an hour's work); the folder is only read, the
measured table is written to a temporary folder.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Iterable, List, Optional

from ..board.material import Material

#: The thesis's tables: every 3- and 4-piece table with a lone black king.
LONE_KING_MATERIALS = [
    "KQvK", "KRvK", "KBvK", "KNvK", "KPvK",
    "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK", "KRRvK", "KRBvK", "KRNvK", "KRPvK",
    "KBBvK", "KBNvK", "KBPvK", "KNNvK", "KNPvK", "KPPvK",
]
#: Four-piece tables with a piece on each side (Syzygy's names).
BOTH_SIDES_MATERIALS = [
    "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP", "KRvKR", "KRvKB", "KRvKN", "KRvKP",
    "KBvKB", "KBvKN", "KBvKP", "KNvKN", "KNvKP", "KPvKP",
]
#: The tables of the benchmark and of ``verify`` when none are named: all 35 with 3 and 4 pieces.
DEFAULT_MATERIALS = LONE_KING_MATERIALS + BOTH_SIDES_MATERIALS
#: The heaviest five-piece tables with pieces on both sides (``bench --five``): two pieces and a pawn
#: against one, pawns on both sides, and the longest pawnless one.
FIVE_PIECE_MATERIALS = ["KBNvKN", "KRPvKR", "KQPvKQ", "KPPvKP"]
HEADER = f"{'material':10} {'seconds':>8} {'peak MB':>8} {'positions':>12} {'max n':>6} {'file KB':>8}"


def _prepare(material: str, folder: str) -> None:
    """Write every table that ``material`` depends on (recursively) into ``folder``."""
    from ..calculation.store import calculate

    def ensure(needed: Material) -> None:
        for dependency in needed.dependencies():
            ensure(dependency)
        path = Path(folder) / f"{needed.name}.chessAI"
        if needed.name != material and not path.exists():
            calculate(needed, path, progress=False, checkpoint_seconds=1e9)

    ensure(Material.parse(material))


def _measure(material: str, folder: str, results: Optional[str], queue) -> None:
    from ..calculation.store import calculate
    from ..files.chessai import load_table_with_counts
    from ..retrograde.compute import load_engine

    load_engine()  # the engine's modules and compiled kernels (0.5-1 s per process): start-up, not calculation
    start = time.perf_counter()
    path = calculate(material, Path(folder) / f"{material}.chessAI", results_dir=results or folder, progress=False,
                     checkpoint_seconds=1e9)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    table, counts, counts_black = load_table_with_counts(path)
    queue.put((seconds, peak_mb, sum(counts.values()) + sum(counts_black.values()), table.max_n,
               path.stat().st_size / 1024))


def bench_row(material: str, results: Optional[os.PathLike] = None) -> str:
    """One line of the benchmark table for ``material``; its sub-tables from the folder ``results`` if
    given (a missing one is computed in memory, timed), else computed first into a temporary folder."""
    name = Material.parse(material).canonical.name
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with tempfile.TemporaryDirectory() as folder:
        if results is None:
            preparation = context.Process(target=_prepare, args=(name, folder))
            preparation.start()
            preparation.join()
        worker = context.Process(target=_measure, args=(name, folder, str(results) if results else None, queue))
        worker.start()
        worker.join()
        if worker.exitcode != 0:
            return f"{name:10} failed (exit code {worker.exitcode})"
        seconds, peak_mb, positions, max_n, size_kb = queue.get()
    return f"{name:10} {seconds:8.2f} {peak_mb:8.0f} {positions:12d} {max_n:6d} {size_kb:8.0f}"


def run_bench(materials: Iterable[str], results: Optional[os.PathLike] = None) -> List[str]:
    print(HEADER, flush=True)
    rows = []
    for material in materials:
        rows.append(bench_row(material, results))
        print(rows[-1], flush=True)
    return rows


#: ``bench --six``: a six-piece table (its five-piece sub-tables read from ``--results DIR``).
SIX_HEADER = (f"{'material':10} {'seconds':>8} {'peak MB':>8} {'entries':>14} {'legal':>14} {'entries/s':>11} "
              f"{'max n':>6} {'file MB':>8}")


def _measure_six(material: str, folder: str, results: str, queue) -> None:
    from ..calculation.store import calculate
    from ..files.blocks import BlockFile
    from ..retrograde.compute import load_engine
    from ..table.compact_index import CompactLayout
    from ..retrograde_kernels import compact_kernels  # noqa: F401  (compiled before the clock starts)

    load_engine()
    start, cpu = time.perf_counter(), time.process_time()
    path = calculate(material, Path(folder) / f"{material}.chessAI", results_dir=results, progress=False,
                     checkpoint_seconds=1e9)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with BlockFile(path) as file:
        max_n = max([*file.counts("board_counts"), *file.counts("board_counts_black")], default=-1)
    queue.put((seconds, cpu, peak_mb, 2 * CompactLayout(Material.parse(material)).size, max_n,
               path.stat().st_size / 2 ** 20))


def six_bench_row(material: str, results: os.PathLike) -> str:
    """One line of ``bench --six``: the table computed in a fresh process (sub-tables from ``results``), its
    seconds, peak resident memory, entries (both sides) and entries a second; the CPU seconds on stderr."""
    import sys

    name = Material.parse(material).canonical.name
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with tempfile.TemporaryDirectory(dir=results) as folder:
        worker = context.Process(target=_measure_six, args=(name, folder, str(results), queue))
        worker.start()
        worker.join()
        if worker.exitcode != 0:
            return f"{name:10} failed (exit code {worker.exitcode})"
        seconds, cpu, peak_mb, entries, max_n, size_mb = queue.get()
    print(f"{name}: {cpu:.0f} CPU seconds", file=sys.stderr)
    return (f"{name:10} {seconds:8.0f} {peak_mb:8.0f} {entries:14,d} {'':>14} {entries / seconds:11,.0f} "
            f"{max_n:6d} {size_mb:8.0f}")
