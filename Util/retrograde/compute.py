"""compute_table: every S_n of one material, as the thesis computes them, on index arrays.

The thesis computes S_(n+1) from S_n by un-making moves.  We do the same,
on integer indices in numpy arrays instead of sets of Boards: first one
pass over every index (legality, and the moves into smaller tables: the
first pass), then S_0 (the checkmates), then ply after ply, each side to
move getting its S_n from the other side's S_(n-1), until a ply finds
nothing new and no move into another table decides anything later.  Only
the newest S_n (the frontier) is touched each ply, never the whole array,
which is what makes it fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, NamedTuple, Optional, Tuple

import numpy as np

from ..table.dtm_table import DtmTable
from ..table.index_scheme import Layout
from ..board.material import Material
from ..runtime.memory import return_freed_memory
from ..runtime.parallel import Threads, core_count
from .policy import EnginePolicy

if TYPE_CHECKING:  # the modules that import numba are loaded when a calculation starts
    from .counting import LossCounters
    from .first_pass import FirstPass
    from .plies import Plies
    from .state import WorkingTable

ProgressCallback = Callable[[int, int], None]
#: ``checkpoint(n, dtm_white, dtm_black)``: ply n is finished.  The arrays are the engine's own (read them,
#: never change them); an entry above n there is no value yet (ILLEGAL, or a loss counter)
#: and means "in no S_n", as UNKNOWN does (save_checkpoint knows).
CheckpointCallback = Callable[[int, np.ndarray, np.ndarray], None]
#: What a resumed calculation starts from: ``(n_done, dtm_white, dtm_black)``.
Resume = Tuple[int, np.ndarray, np.ndarray]


def compute_table(
    material: Material,
    subtables: Dict[Material, DtmTable],
    *,
    resume: Optional[Resume] = None,
    on_ply: Optional[ProgressCallback] = None,
    checkpoint: Optional[CheckpointCallback] = None,
    threads: Optional[int] = None,
    release_subtables: bool = False,
    policy: EnginePolicy = EnginePolicy(),
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
    most of a gigabyte, and the plies never read them again).  ``policy``: the
    engine's choices of path (see :class:`EnginePolicy`); the result is the same for any.
    """
    missing = [str(m) for m in material.dependencies() if m not in subtables]
    if missing:
        raise ValueError(f"{material} needs the tables {', '.join(missing)} first")
    pool = Threads(threads or core_count())
    try:
        calculation = start_calculation(material, subtables, pool, policy, checkpoint_values(material, resume))
        if release_subtables:
            subtables = None
        return retrograde_analysis(calculation, resume, on_ply, checkpoint, release_subtables)
    finally:
        pool.close()


class Calculation(NamedTuple):
    """The parts of one table's calculation, around the table they fill."""

    table: "WorkingTable"
    first_pass: "FirstPass"
    counters: "LossCounters"
    plies: "Plies"


def start_calculation(material: Material, subtables: Dict[Material, DtmTable], threads: Threads,
                      policy: EnginePolicy = EnginePolicy(),
                      values: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Calculation:
    """The parts of a calculation of ``material`` (in ``values``, a checkpoint's arrays, if given)."""
    WorkingTable, FirstPass, LossCounters, Plies = _parts()
    table = WorkingTable(material, threads, policy, values)
    counters = LossCounters(table)
    return Calculation(table, FirstPass(table, subtables), counters, Plies(table, counters))


def _parts() -> tuple:
    """The classes of a calculation's parts, imported when first needed: they import numba, which would
    cost every probe 0.4 s."""
    from .counting import LossCounters
    from .first_pass import FirstPass
    from .plies import Plies
    from .state import WorkingTable

    return WorkingTable, FirstPass, LossCounters, Plies


def load_engine() -> None:
    """Import the engine's modules and load every compiled kernel (Util.retrograde_kernels.precompile.warm_up): what
    the first calculation of a process would do, done before anything is timed."""
    from ..retrograde_kernels.precompile import warm_up

    _parts()
    warm_up()


def retrograde_analysis(calculation: Calculation, resume: Optional[Resume] = None,
                        on_ply: Optional[ProgressCallback] = None, checkpoint: Optional[CheckpointCallback] = None,
                        release_subtables: bool = False) -> DtmTable:
    """The thesis's algorithm: the first pass, S_0 (or the checkpoint), then S_n from S_(n-1), ply after
    ply, both sides to move each from the other side's positions that got n-1 in the ply before."""
    table, plies, counters = calculation.table, calculation.plies, calculation.counters
    policy, sides = table.policy, (0, 1)
    exits = calculation.first_pass.run(release_subtables)  # legality; moves into smaller tables, by ply
    if release_subtables:
        calculation.first_pass.release_subtables()
    if resume is None:
        frontiers = plies.first_ply()  # S_0: the checkmates
        n_done = 0
        if on_ply:
            on_ply(0, sum(f.size for f in frontiers))
        if checkpoint:  # the counters in the arrays are saved as UNKNOWN (see save_checkpoint)
            checkpoint(0, table.dtm_white, table.dtm_black)
    else:
        n_done = resume[0]
        frontiers = [table.frontier(side, n_done) for side in sides]
    table.forget_checks()
    last_exit = max(e.last for e in exits)
    n, deepest = n_done + 1, None
    while any(f.size for f in frontiers) or n <= last_exit:  # S_n from S_(n-1), until nothing is new
        counters.start(n)
        if n == policy.deepest_ply:
            frontiers = deepest = plies.deepest_ply(frontiers, exits)
        else:
            frontiers = [plies.ply(side, n, frontiers[1 - side], exits[side]) for side in sides]
        if on_ply:
            on_ply(n, sum(f.size for f in frontiers))
        if n == policy.deepest_ply:
            break
        if checkpoint:
            checkpoint(n, table.dtm_white, table.dtm_black)
        if table.size >= policy.side_by_side_from:
            return_freed_memory()  # a ply's scratch, freed by the threads, would stay in their heaps
        n += 1
    plies.finish()
    if deepest is not None:
        for side in sides:
            table.dtm[side][deepest[side]] = policy.deepest_ply
    return DtmTable(table.material, table.dtm_white, table.dtm_black)


def checkpoint_values(material: Material, resume: Optional[Resume]) -> Optional[Tuple[np.ndarray, np.ndarray]]:
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
