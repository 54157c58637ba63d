"""The retrograde engine: all S_n sets of one material as two DTM arrays (:func:`compute_table`).

Its modules, each building only on those listed before it (and on
:mod:`Util.retrograde_kernels`, the compiled loops, which never import the engine):

* :mod:`~Util.retrograde.policy`: :class:`EnginePolicy`, the engine's choices of
  path (when to pull, when to count, what to list), with today's defaults;
* :mod:`~Util.retrograde.frontiers`: the sets a ply starts from (frontiers, exits);
* :mod:`~Util.retrograde.state`: :class:`~Util.retrograde.state.WorkingTable`, the
  DTM arrays being filled and what the passes keep beside them;
* :mod:`~Util.retrograde.jobs`: a ply's jobs and how the threads share them;
* :mod:`~Util.retrograde.first_pass`: legality, exits and en passant, once per index;
* :mod:`~Util.retrograde.counting`: the loss counters, and when each side counts;
* :mod:`~Util.retrograde.plies`: S_n of both sides from S_(n-1);
* :mod:`~Util.retrograde.compute`: :func:`compute_table`, the thesis's algorithm
  in a screen.

**One entry per position.**  Identical pieces in two orders, and the mirror
in the a1-h8 diagonal where a pawnless table's white king stands on it, give
a position several entries with one value.  The plies work from one of them
and write the value into all (see :mod:`Util.retrograde_kernels.entries`).

**Other materials.**  A capture leads into a smaller table and a promotion
into another table; these tables are finished first and their values enter
this table as "exits" (:mod:`Util.rules.exits`) at the ply they decide.  A double
step beside an enemy pawn allows the capture en passant on the next move
only; those few moves are evaluated on their own (:mod:`Util.rules.en_passant`).
"""

from .compute import CheckpointCallback, ProgressCallback, compute_table
from .policy import EnginePolicy

__all__ = ["CheckpointCallback", "EnginePolicy", "ProgressCallback", "compute_table"]
