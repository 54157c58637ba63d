"""The layout of a search's working array (int64, one array so that each call of the recursive search
passes few arrays: numba counts references to every array argument on every call).

Offsets: :data:`CTX` (nodes searched, the stop flag set by another thread, the node limit or 0, the deepest
ply reached, positions valued by a table), :data:`KILLERS` (2 a ply), :data:`HISTORY` (by side and from/to),
:data:`COUNTERS` (the quiet move that last refuted a move, by side and that move's from/to),
:data:`CURRENT` (the move being searched at each ply, 0 for a null move), :data:`MOVES` and
:data:`SCORES` (256 a ply), :data:`PV` (:data:`MAX_PLY` a ply) and :data:`PV_LENGTH`, :data:`GAINS` (the
exchange evaluation's scratch), :data:`FEATURES` (1 where a search feature is on, by :data:`FEATURE_NAMES`:
switched off one at a time, they show what each is worth), :data:`TB` (the tables probed inside the search,
see :mod:`.tables`), :data:`PARAMS` (the evaluation's parameters); the tables' bytes, if any, follow the
parameters.
"""

from __future__ import annotations

MAX_PLY = 96
NODES, STOP, NODE_LIMIT, SELDEPTH, TB_HITS = range(5)
CTX = 0
KILLERS = 8
HISTORY = KILLERS + 2 * MAX_PLY
COUNTERS = HISTORY + 2 * 4096
CURRENT = COUNTERS + 2 * 4096
MOVES = CURRENT + MAX_PLY
SCORES = MOVES + 256 * MAX_PLY
PV = SCORES + 256 * MAX_PLY
PV_LENGTH = PV + MAX_PLY * MAX_PLY
GAINS = PV_LENGTH + MAX_PLY
FEATURE_NAMES = ("transposition cut-offs", "null move", "reverse futility", "late move pruning",
                 "late move reductions", "check extension", "quiescence", "killers and history",
                 "capture ordering", "principal variation search", "quiescence pruning", "tablebase probes",
                 "countermoves", "futility pruning", "internal iterative reduction", "SEE pruning")
(TT_CUTS, NULL_MOVE, REVERSE_FUTILITY, LATE_MOVE_PRUNING, LATE_MOVE_REDUCTIONS, CHECK_EXTENSION, QUIESCENCE,
 KILLERS_HISTORY, CAPTURE_ORDERING, PVS, QUIESCENCE_PRUNING, TABLEBASE_PROBES, COUNTERMOVES, FUTILITY,
 IIR, SEE_PRUNING) = range(len(FEATURE_NAMES))
FEATURES = GAINS + 40
#: The tables probed in the search: the most pieces of one (0: none), how many materials, a scratch row of
#: squares, then :data:`TB_MAX_MATERIALS` rows of :data:`TB_ROW` (laid out in :mod:`.tables`).
TB = FEATURES + 24
TB_MAX_MATERIALS, TB_ROW = 128, 12
PARAMS = TB + 16 + TB_MAX_MATERIALS * TB_ROW


def work_size(params_size: int) -> int:
    return PARAMS + params_size
