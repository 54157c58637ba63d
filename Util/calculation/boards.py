"""From table entries back to real boards.

A table entry stands for every board that folds onto it by symmetry.  The
thesis's S_n holds the real boards (it stores each mirror image too), so
``len(S_n)`` and iterating over S_n must count and list real boards, each
exactly once.

A board ``b`` folds onto entry ``e = T_s(b)`` where ``s`` is chosen by b's
white-king square alone.  Conversely, from an entry ``e`` the boards
folding onto it are ``T_s^-1(e)`` for each allowed symmetry ``s`` that the
fold would choose for that board, where the board lists identical pieces
in ascending square order (the board-integer convention).
"""

from __future__ import annotations

from typing import Dict, Iterator, Tuple

import numpy as np

from ..board.integer import encode_integers
from ..table.index_scheme import Layout
from ..runtime.parallel import Threads
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from ..board.symmetry import INVERSE, TRANSFORMS

BATCH = 1 << 20


def _preimages(layout: Layout, index: np.ndarray) -> Iterator[Tuple[int, np.ndarray, list]]:
    """For each allowed symmetry s: (s, mask of entries with a board T_s^-1(e), that board's squares)."""
    squares = layout.decode(index)
    for s in layout.transforms:
        inverse = INVERSE[s]
        board = [TRANSFORMS[inverse, sq].astype(np.int64) for sq in squares]
        ok = layout.fold[board[0]] == s
        for group in layout.identical_groups:
            for a, b in zip(group, group[1:]):
                ok &= board[a] < board[b]
        yield s, ok, board


def board_weights(layout: Layout, index: np.ndarray) -> np.ndarray:
    """How many real boards fold onto each entry: the symmetries s whose preimage T_s^-1(e) the fold
    maps back with s, and (with identical pieces) lists them in ascending order.

    The first condition depends only on the white king's slot, so only the
    identical pieces' squares are decoded.
    """
    slot = index // layout.strides[0]
    king = layout.square_of_slot[slot].astype(np.int64)
    weight = np.zeros(index.shape, dtype=np.int64)
    pieces = {i: (index // layout.strides[i]) & 63 for group in layout.identical_groups for i in group}
    for s in layout.transforms:
        ok = layout.fold[TRANSFORMS[INVERSE[s], king]] == s
        for group in layout.identical_groups:
            for a, b in zip(group, group[1:]):
                ok &= TRANSFORMS[INVERSE[s], pieces[a]] < TRANSFORMS[INVERSE[s], pieces[b]]
        weight += ok
    return weight


def board_counts(table: DtmTable) -> Dict[int, int]:
    """``{n: number of distinct real boards in S_n}`` for every non-empty S_n (White mates)."""
    return board_counts_by_winner(table)[0]


def board_counts_by_winner(table: DtmTable) -> Tuple[Dict[int, int], Dict[int, int]]:
    """Board counts of the S_n in which White mates and of those in which Black mates.

    A value n in the White-to-move array is a White win when odd (White
    mates in n) and a Black win when even; in the Black-to-move array the
    other way round.
    """
    layout = table.layout
    per_slot = int(layout.strides[0])
    # An entry's weight depends on its white king's slot and on the squares of the identical pieces, the
    # lowest-numbered of which is ``first``: so on the slot and the index modulo ``period`` alone.  Each
    # slot's weights for one period are found once, and a slot is one weighed count.
    first = min((min(group) for group in layout.identical_groups), default=layout.piece_count)
    period = int(layout.strides[first]) * 64 if first < layout.piece_count else 1

    from ..retrograde_kernels.sorting import weighed_byte_counts  # here, not at the top: numba's import would slow every probe

    def count(job: Tuple[np.ndarray, int]) -> np.ndarray:  # one slot, by index range: no table-sized temporaries
        array, slot = job
        start = slot * per_slot
        weights = board_weights(layout, start + np.arange(period)).astype(np.int64)
        return weighed_byte_counts(array[start : start + per_slot], weights)[:UNKNOWN]

    per_side = []
    with Threads() as threads:
        for array in (table.dtm_white, table.dtm_black):
            jobs = [(array, slot) for slot in range(array.size // per_slot)]
            per_side.append(np.sum(threads.map(count, jobs), axis=0) if jobs else np.zeros(UNKNOWN, np.int64))
    n = np.arange(UNKNOWN)
    white_wins = np.where(n % 2 == 1, per_side[0], per_side[1])
    black_wins = np.where(n % 2 == 1, per_side[1], per_side[0])
    return ({int(k): int(white_wins[k]) for k in np.flatnonzero(white_wins)},
            {int(k): int(black_wins[k]) for k in np.flatnonzero(black_wins)})


def boards_in_s_n(table: DtmTable, n: int, white_wins: bool = True) -> np.ndarray:
    """Sorted board integers (see :mod:`Util.board.integer`) of every board in S_n (of the S_n in which
    White mates, or with ``white_wins=False`` those in which Black mates)."""
    white_to_move = (n % 2 == 1) == white_wins
    array = table.dtm_white if white_to_move else table.dtm_black
    entries = np.flatnonzero(array == n)
    found = []
    for start in range(0, entries.size, BATCH):
        index = entries[start : start + BATCH]
        for _, ok, board in _preimages(table.layout, index):
            found.append(encode_integers([sq[ok] for sq in board], white_to_move))
    return np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)


def compact_board_counts_by_winner(table) -> Tuple[Dict[int, int], Dict[int, int]]:
    """:func:`board_counts_by_winner` of a :class:`Util.table.compact_table.CompactTable`: each entry is one
    position, which stands for 8 boards, or 4 where it is its own mirror (the kernel decides)."""
    from ..retrograde_kernels.compact_board import CompactPacked
    from ..retrograde_kernels.compact_kernels import board_counts as count_boards, boards_of

    lay = CompactPacked.of(table.layout)
    step = 1 << 22
    per_side = []
    with Threads() as threads:
        for side, values in enumerate(table.bytes_):
            def count(start: int, values=values) -> np.ndarray:
                counts = np.zeros(256, np.int64)
                count_boards(lay, values, start, min(start + step, values.size), table.tail, counts)
                return counts
            totals = dict(enumerate(np.sum(threads.map(count, range(0, values.size, step)), axis=0).tolist()))
            for n, positions in table.tails[side].items():
                weights = np.empty(positions.size, np.int64)
                boards_of(lay, positions, weights)
                totals[n] = totals.get(n, 0) + int(weights.sum())
            per_side.append({n: c for n, c in totals.items() if c})
    white_wins = {n: c for side, counts in enumerate(per_side) for n, c in counts.items() if (n % 2 == 1) == (side == 0)}
    black_wins = {n: c for side, counts in enumerate(per_side) for n, c in counts.items() if (n % 2 == 1) == (side == 1)}
    return dict(sorted(white_wins.items())), dict(sorted(black_wins.items()))
