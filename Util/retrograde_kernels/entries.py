"""A position's entries, compiled: one entry does the work of all, and all get their value at once.

See the comment below for which entries a position has and which one the
plies work from; :func:`mark_candidates` gives a value to a block of
positions and to all their entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import ILLEGAL, UNKNOWN
from .board import DIAGONAL_ROW, DIAGONAL_SQUARE, SQUARE_OF_SLOT, TRANSFORM_ROWS, listed_piece, stride

# ---- a position's entries: one does the work of all ---------------------------------------------------
# Two identical pieces stand in a position's two entries (three in its six), which always hold the same
# value.  The plies un-move only from the entry whose identical pieces stand on ascending squares (the
# sorted entry), list each predecessor as its sorted entry, and give a value to all entries of a position
# at once (mark_other_entries).  Un-moving from the other entries would list the other entries of the same
# predecessors, exactly as often (swapping identical pieces commutes with every move, and no position is
# its own swap): so every counter and every forward check comes out as before, done for one entry
# instead of two (six).  The other entries are only ever written, never counted or checked.
#
# A pawnless position whose white king stands on the a1-h8 diagonal has a second entry too, its mirror
# in that diagonal.  The kernels that only ask whether a position has some move into a set (marking
# wins, forward checks) also take one of these, the first entry (the lowest index of all of a
# position's entries).  The counters do not: a position can be its own mirror, and its un-moves then
# list both entries of a predecessor where the mirror entries of the position listed one each, so a
# count would come out differently; the counters keep both mirror entries, each counted (and White's count
# a king's move onto the diagonal twice: see "How often an un-move reaches a position" below).

#: ``_OTHER_ORDERS[g][k]``: for a group of g identical pieces, its k-th order other than the ascending one
#: (piece j of the group takes the square of piece _OTHER_ORDERS[g][k][j]).
_OTHER_ORDERS = np.array([[[0, 0, 0]] * 5, [[0, 0, 0]] * 5, [[1, 0, 0]] + [[0, 0, 0]] * 4,
                          [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]], dtype=np.int64)


@njit(nogil=True, cache=True, inline="always")
def square_in(lay, index, piece):
    """The square of ``piece`` in the position of ``index`` (not the white king, piece 0)."""
    return (index >> (6 * (lay.count - 1 - piece))) & 63


@njit(nogil=True, cache=True, inline="always")
def _group_size(lay):
    """How many identical pieces the group has (0: no group)."""
    return 0 if lay.identical == 0 else (2 if listed_piece(lay.identical, 2) < 0 else 3)


@njit(nogil=True, cache=True, inline="always")
def is_sorted_entry(lay, index):
    """Whether the identical pieces of ``index`` stand on ascending squares (always, without a group)."""
    if lay.identical == 0:
        return True
    x, y = square_in(lay, index, listed_piece(lay.identical, 0)), square_in(lay, index, listed_piece(lay.identical, 1))
    c = listed_piece(lay.identical, 2)
    return x < y and (c < 0 or y < square_in(lay, index, c))


@njit(nogil=True, cache=True, inline="always")
def sorted_entry(lay, index):
    """The sorted entry of the position of ``index`` (``index`` itself without a group)."""
    if lay.identical == 0:
        return index
    a, b, c = listed_piece(lay.identical, 0), listed_piece(lay.identical, 1), listed_piece(lay.identical, 2)
    x, y = square_in(lay, index, a), square_in(lay, index, b)
    if c < 0:
        return index if x < y else index + (y - x) * stride(lay.count, a) + (x - y) * stride(lay.count, b)
    z = square_in(lay, index, c)
    low, high = min(x, min(y, z)), max(x, max(y, z))
    middle = x + y + z - low - high
    return (index + (low - x) * stride(lay.count, a) + (middle - y) * stride(lay.count, b)
            + (high - z) * stride(lay.count, c))


@njit(nogil=True, cache=True, inline="always")
def other_entry(lay, index, k):
    """The position of ``index`` with its identical pieces in their k-th other order (k below
    _group_size's orders minus one: 1 for two pieces, 5 for three)."""
    g = _group_size(lay)
    moved = index
    for j in range(g):
        piece = listed_piece(lay.identical, j)
        source = listed_piece(lay.identical, _OTHER_ORDERS[g, k, j])
        moved += (square_in(lay, index, source) - square_in(lay, index, piece)) * stride(lay.count, piece)
    return moved


@njit(nogil=True, cache=True, inline="always")
def other_entry_count(lay):
    """How many entries a position has besides its sorted one: 0, 1 (two identical pieces) or 5 (three)."""
    g = _group_size(lay)
    return 0 if g == 0 else (1 if g == 2 else 5)


@njit(nogil=True, cache=True, inline="always")
def has_mirror(lay, index):
    """Whether the white king of ``index`` stands on the a1-h8 diagonal of a pawnless table (the position
    then has its mirror in that diagonal as another entry)."""
    return DIAGONAL_SQUARE[lay.pawns, SQUARE_OF_SLOT[lay.pawns, index >> (6 * (lay.count - 1))]]


@njit(nogil=True, cache=True, inline="always")
def mirror_entry(lay, index):
    """The entry of ``index``'s position mirrored in the a1-h8 diagonal (its white king stays: it must
    stand on that diagonal)."""
    mirrored = index >> (6 * (lay.count - 1)) << (6 * (lay.count - 1))
    for i in range(1, lay.count):
        mirrored += TRANSFORM_ROWS[DIAGONAL_ROW, square_in(lay, index, i)] * stride(lay.count, i)
    return mirrored


@njit(nogil=True, cache=True, inline="always")
def first_entry(lay, index):
    """The lowest index among the entries of ``index``'s position: identical pieces swapped, mirrored."""
    first = sorted_entry(lay, index)
    if has_mirror(lay, index):
        first = min(first, sorted_entry(lay, mirror_entry(lay, index)))
    return first


@njit(nogil=True, cache=True, inline="always")
def entry_to_use(lay, index, mirrors):
    """The entry that stands for ``index``'s position: the first (``mirrors``) or the sorted one."""
    return first_entry(lay, index) if mirrors else sorted_entry(lay, index)


@njit(nogil=True, cache=True, inline="always")
def is_undecided(value, floor):
    """Whether a DTM byte is an undecided position: UNKNOWN, or a loss counter (bytes from
    ``floor`` up, ILLEGAL excepted; see count_losses)."""
    return value == UNKNOWN or (value >= floor and value != ILLEGAL)


@njit(nogil=True, cache=True, inline="always")
def record(found, count, value):
    """Write ``value`` at ``found[count]`` if it fits; the new count (which may exceed found.size: the
    caller then reads the new positions back from the DTM array instead)."""
    if count < found.size:
        found[count] = value
    return count + 1


@njit(nogil=True, cache=True, inline="always")
def _mark_entry(lay, r, mine, n, found, count):
    """Give n to entry r if still undecided, and record it; the new count."""
    if is_undecided(mine[r], lay.floor):
        mine[r] = n
        count = record(found, count, r)
    return count


@njit(nogil=True, cache=True, inline="always")
def mark_other_entries(lay, q, mine, n, found, count):
    """Give n to the other entries of position q (identical pieces in other orders, the mirror in the
    a1-h8 diagonal) still undecided; record them; the new count."""
    for k in range(other_entry_count(lay)):
        count = _mark_entry(lay, other_entry(lay, q, k), mine, n, found, count)
    if has_mirror(lay, q):
        mirror = mirror_entry(lay, q)
        count = _mark_entry(lay, mirror, mine, n, found, count)
        for k in range(other_entry_count(lay)):
            count = _mark_entry(lay, other_entry(lay, mirror, k), mine, n, found, count)
    return count


@njit(nogil=True, cache=True, inline="always")
def mark_candidates(lay, cand, m, mine, n, found, count):
    """Give n to the first ``m`` candidates still undecided (a block may hold one twice), and to their other
    entries; record them."""
    others = lay.identical != 0 or lay.pawns == 0  # asked once: see count_losses
    for k in range(m):
        q = cand[k]
        if is_undecided(mine[q], lay.floor):
            mine[q] = n
            count = record(found, count, q)
            if others:
                count = mark_other_entries(lay, q, mine, n, found, count)
    return count
