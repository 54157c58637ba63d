"""``python -m Util calculate``'s work: which tables of a list to compute, in which process, and the line each
one prints.

The command line (``Util/cli.py``) reads the options; :func:`calculate_tables` computes the tables, sub-tables
first, keeping the files already finished (a table named alone is computed again, as the thesis's
``calculate`` does), and with several tables computes each large one in a fresh process of its own
(:data:`APART_FROM_PIECES`).
"""

from __future__ import annotations

import sys
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import List, Optional

from ..board.material import Material
from . import store

__all__ = ["APART_FROM_PIECES", "CalculateOptions", "calculate_tables", "calculate_one", "table_file_ok", "summary"]

#: With several tables (``--all``), each table of this many pieces is computed in a process of its own.
#: One long process ends up holding more than any table needs (what its heaps kept of the tables before),
#: and the five-piece tables are the ones whose peak matters; a fresh process starts clean for a few
#: seconds of start-up (Python, numpy, the compiled kernels).  Figures: docs/performance.md.
APART_FROM_PIECES = 5


@dataclass(frozen=True)
class CalculateOptions:
    """How each table is computed: ``out`` names the file of a single table (None: ``results/MATERIAL.chessAI``),
    ``results`` the folder (None: S_n_Results or $CHESSAI_RESULTS), ``progress`` shows a bar,
    ``checkpoint_seconds`` saves progress that often (0: after every ply)."""

    out: Optional[Path] = None
    results: Optional[Path] = None
    progress: bool = True
    checkpoint_seconds: float = 10.0
    #: Compute pawnless tables of fewer than six pieces in the compact index too (format 5), as six-piece ones are.
    compact: bool = False


def calculate_tables(materials: List[Material], named: set, single: bool, fresh: bool, options: CalculateOptions,
                     apart_from_pieces: int = APART_FROM_PIECES) -> int:
    """Compute ``materials`` (in calculation order, sub-tables first) and print one line each; the exit
    status: 0, or 1 when a table's own process ended abruptly (what it finished is kept).

    ``named``: the tables the person asked for (``fresh`` ignores their checkpoints); ``single``: one table
    was named alone, and is computed again even if its file is there, in this process (so that
    ``/usr/bin/time calculate X`` measures it); the others are kept when their file is finished.  With
    several tables to compute, each of ``apart_from_pieces`` pieces or more runs in a fresh process."""
    to_compute = [m for m in materials if (single and m in named) or not table_file_ok(m, options.results)]
    for material in materials:
        if material not in to_compute:
            print(f"{material}: already computed", flush=True)
            continue
        fresh_here = fresh and material in named
        if options.compact and material not in named:  # sub-tables in the usual index: the engine reads them whole
            options_here = replace(options, compact=False)
        else:
            options_here = options
        if len(to_compute) > 1 and material.piece_count >= apart_from_pieces and not (single and material in named):
            try:
                print(_calculate_apart(material, options_here, fresh_here), flush=True)
            except BrokenProcessPool:
                print(f"calculate: the process computing {material} ended abruptly (killed, or out of memory); "
                      f"what it finished is kept: run the same command again to go on from there", file=sys.stderr)
                return 1
        else:
            print(calculate_one(material, options_here, fresh_here), flush=True)
    return 0


def _calculate_apart(material: Material, options: CalculateOptions, fresh: bool) -> str:
    """:func:`calculate_one` in a fresh process (spawned, so nothing of this one's heap is inherited);
    its summary line.  An error in it is raised here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as worker:
        return worker.submit(calculate_one, material, options, fresh).result()


def calculate_one(material: Material, options: CalculateOptions, fresh: bool) -> str:
    """Compute one table and write its file; the summary line.  The table is let go on return, before
    the next one starts (a 5-piece pawn table would otherwise hold 1 GB through the next one's peak)."""
    path, table, counts, counts_black = store.calculate_table(material, options.out, results_dir=options.results,
                                                              progress=options.progress,
                                                              checkpoint_seconds=options.checkpoint_seconds,
                                                              fresh=fresh, compact=options.compact or None)
    return summary(table, path, counts, counts_black)


def table_file_ok(material: Material, results: Optional[Path] = None) -> bool:
    """Already computed: a finished table file is in the folder (its ZIP directory is checked, not its
    data, so that resuming ``--all`` after a hundred tables does not read a hundred gigabytes)."""
    from ..files.chessai import looks_finished

    return looks_finished(store.default_path(material, results), material)


def summary(table, path: Path, counts: dict, counts_black: dict) -> str:
    """The line ``calculate`` prints for a table written to ``path``: how many boards lie in its S_n."""
    if table.max_n < 0:  # KNvK and the like: no S_n at all
        who = "White cannot" if table.material.lone_black_king else "neither side can"
        return f"{table.material}: 0 boards in any S_n ({who} force mate), written to {path}"
    if table.material.lone_black_king:
        return f"{table.material}: {sum(counts.values())} boards in S_0..S_{table.max_n}, written to {path}"
    return (f"{table.material}: {sum(counts.values())} boards in White's S_n, {sum(counts_black.values())} in "
            f"Black's, n up to {table.max_n}, written to {path}")
