"""Load every kernel's compiled code once, before anything is timed (:func:`warm_up`).
"""

from __future__ import annotations

import numpy as np

from ..dtm_values import NO_EXIT, UNKNOWN
from ..layout import Layout
from ..material import Material
from .board import PackedLayout
from .counters import (clear_counters, count_losses, count_undecided, count_white_runs, counter_floor,
                       set_first_counters, set_white_counters)
from .exits import warm_up_exits
from .legality import mark_legality
from .plies import confirm_losses, mark_losses, mark_wins, mark_wins_runs, mates, pull_losses, pull_wins
from .sorting import bucket_by_value, group_exit_bytes, sort_distinct, weighed_byte_counts

def warm_up() -> None:
    """Load every kernel's compiled code (compile it, the first time on a machine: about half a minute),
    so that a timed calculation measures the calculation.  The tiny positions used here change nothing."""
    lay = PackedLayout.of(Layout(Material("Q")))
    size = 10 * 64 ** 2
    values, other, exit_value = (np.full(size, UNKNOWN, dtype=np.uint8) for _ in range(3))
    bits, found = np.zeros(size // 8, dtype=np.uint8), np.empty(16, dtype=np.int32)
    ep_parent, ep_worst = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int16)
    one = np.zeros(1, dtype=np.int64)
    mark_legality(lay, 0, 8, values, other, bits, bits)
    mark_wins(lay, 0, 1, one, values, other, found)
    mark_losses(lay, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    confirm_losses(lay, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    pull_wins(lay, 0, 1, 0, 8, values, other, found)
    pull_losses(lay, 1, 2, 0, 8, values, other, exit_value, ep_parent, ep_worst, bits, found)
    mates(lay, 1, 0, 8, bits, values, other, exit_value, ep_parent, ep_worst, found)
    counting = lay._replace(floor=counter_floor(8))
    count_losses(counting, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    set_first_counters(counting, 0, 64, values, other, exit_value, bits, found)
    both_sides = 10 * 64 ** 3  # KQvKR's entries
    set_white_counters(PackedLayout.of(Layout(Material("Q", "R")))._replace(floor=counter_floor(43)), 2, 0, 64,
                             *(np.full(both_sides, value, np.uint8) for value in (UNKNOWN, UNKNOWN, NO_EXIT)))
    clear_counters(values, 0, 8, counting.floor)
    # the run kernels on no frontier at all: loaded without a table's worth of arrays (8 MB each here)
    with_pawns, none = PackedLayout.of(Layout(Material("P", "P")))._replace(floor=counter_floor(10)), one[:0]
    for side in (0, 1):
        mark_wins_runs(with_pawns, side, 1, none, values, other, found)
    count_white_runs(with_pawns, 0, 2, none, values, other, exit_value, ep_parent, ep_worst, bits, found)
    count_undecided(values, 0, 8, counting.floor)
    group_exit_bytes(values, 0, 8, 1, 3, np.zeros(2, np.int64), found)
    weighed_byte_counts(values, one)
    bucket_by_value(np.zeros(1, np.int32), np.zeros(1, np.uint8))
    sort_distinct(np.zeros(1, np.int32), np.zeros(1, np.uint64))
    warm_up_exits()
