"""The kernels of one ply, compiled: marking wins and losses from a frontier, or pulling over a range.

* **marking wins** (:func:`mark_wins`): un-make each move of the side to
  move from a frontier position; every predecessor still undecided gets n;
* **marking losses** (:func:`mark_losses`): the same predecessors are only
  candidates; one gets n when its forward check (:func:`~Util.retrograde_kernels.blocks.keep_losing`)
  finds that every move leads into a position won by the other side in
  n - 1 at the latest, with one in exactly n - 1; or (:func:`count_losses`)
  when its counter of moves not yet refuted reaches zero;
* **pulling** (:func:`pull_wins`, :func:`pull_losses`, :func:`mates`):
  the same forward looks, over a range of indices instead of a frontier.

The whole-array numpy version needed an index array per move and piece;
here one position's moves live in a few registers, and a forward check
stops at the first move that escapes.  :mod:`Util.retrograde.plies` says which
kernel runs on which positions, ply by ply.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .blocks import (BLOCK, CANDIDATES, replace_by_entries, block_predecessors, keep_losing, keep_unchecked, keep_undecided,
                     scratch_buffers)
from .board import (BLACK_PAWN, KING, MAX_UNMOVES, append_moves, append_squares, decode, enemy_pawns, kind_of,
                    occupancy_of, stride, target_squares)
from .counters import append_run_moves, white_run_moves
from .entries import first_entry, is_undecided, mark_candidates, mark_other_entries, record

# ---- the kernels -------------------------------------------------------------------------------
# Each returns how many positions it gave a value, recorded in ``found`` (see record).  Two threads
# may find one position at once; the engine removes such repeats.

@njit(nogil=True, cache=True)
def mark_wins(lay, side, n, frontier, mine, other, found):
    """Give n to every undecided predecessor (``side`` to move) of the ``frontier`` positions (``other``
    is not needed: it is there so that all win kernels take the same arrays)."""
    buffers = scratch_buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    for start in range(0, frontier.size, BLOCK):
        m = block_predecessors(lay, side, frontier, start, squares, out, cand, True, False)
        m = keep_undecided(cand, m, mine, fetched, lay.floor)
        replace_by_entries(lay, cand, 0, m, True)
        count = mark_candidates(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def mark_wins_runs(lay, side, n, frontier, mine, other, found):
    """mark_wins for a table with pawns, without identical pieces, in which Black has a piece (the last
    one), over sorted ``frontier`` positions: those of one run of 64 indices (which differ only in that
    piece's square) share most un-moves, found once per run.  White's all (white_run_moves); Black's
    king's, its piece's from its own square."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    targets = np.empty(32, dtype=np.int64)
    last = lay.count - 1
    kind = kind_of(lay.kinds, last)
    buffers = scratch_buffers()
    cand, fetched = buffers[2], buffers[6]
    count, run, m, c = 0, np.int64(-1), 0, 0
    occ, enemy = np.uint64(0), np.uint64(0)
    for k in range(frontier.size):
        if c > CANDIDATES - MAX_UNMOVES or (k % BLOCK == 0 and c):  # a block's predecessors: fetch, mark
            c = keep_undecided(cand, c, mine, fetched, lay.floor)
            count, c = mark_candidates(lay, cand, c, mine, n, found, count), 0
        f = frontier[k]
        base = f - (f & 63)
        if base != run:
            run = base
            decode(base, lay, squares)
            occ = occupancy_of(squares, last)
            enemy = enemy_pawns(lay, 1, squares)
            if side == 0:
                m = white_run_moves(lay, squares, True, out, delta, row, weight, blocked)
            else:  # the black king's un-moves; one onto the piece's square leads to an ILLEGAL index
                m = target_squares(KING, squares[1], occ, True, np.uint64(0), out)
                for j in range(m):
                    delta[j], row[j], blocked[j] = (out[j] - squares[1]) * stride(lay.count, 1), -1, np.uint64(0)
        s = f - base
        c = append_run_moves(f, s, m, delta, row, blocked, cand, c)
        if side == 1:
            if kind == BLACK_PAWN:
                for j in range(target_squares(kind, s, occ, True, enemy, targets)):
                    cand[c] = base + targets[j]
                    c += 1
            else:
                c = append_squares(kind, s, occ, cand, c, base, 1)
    c = keep_undecided(cand, c, mine, fetched, lay.floor)
    return mark_candidates(lay, cand, c, mine, n, found, count)


@njit(nogil=True, cache=True)
def mark_losses(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to the undecided predecessors (``side`` to move) of the ``frontier`` positions that lose
    in n (see :func:`keep_losing`); ``checked`` holds one bit per position, cleared each ply, so that a
    candidate reached from many frontier positions is checked once."""
    buffers = scratch_buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    for start in range(0, frontier.size, BLOCK):
        m = block_predecessors(lay, side, frontier, start, squares, out, cand, True, False)
        m = keep_undecided(cand, m, mine, fetched, lay.floor)
        replace_by_entries(lay, cand, 0, m, True)
        m = keep_unchecked(cand, m, checked)
        m = keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = mark_candidates(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def confirm_losses(lay, side, n, candidates, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to those of the ``candidates`` (``side`` to move) that lose in n."""
    buffers = scratch_buffers()
    cand, fetched = buffers[2], buffers[6]
    count = 0
    for start in range(0, candidates.size, CANDIDATES):
        m = 0
        for q in candidates[start : start + CANDIDATES]:
            if q == first_entry(lay, q):  # mark_candidates gives the value to the other entries
                cand[m] = q
                m += 1
        m = keep_undecided(cand, m, mine, fetched, lay.floor)
        m = keep_unchecked(cand, m, checked)
        m = keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = mark_candidates(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def pull_wins(lay, side, n, start, stop, mine, other, found):
    """Give n to the undecided positions in ``range(start, stop)`` (``side`` to move) with a move into
    ``other``'s value n - 1."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    moves = np.empty(MAX_UNMOVES, dtype=np.int64)
    count = 0
    for index in range(start, stop):
        if not is_undecided(mine[index], lay.floor) or index != first_entry(lay, index):
            continue
        for j in range(append_moves(lay, side, index, False, squares, out, moves, 0)):
            if other[moves[j]] == n - 1:
                mine[index] = n
                count = mark_other_entries(lay, index, mine, n, found, record(found, count, index))
                break
    return count


@njit(nogil=True, cache=True)
def pull_losses(lay, side, n, start, stop, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to the undecided positions in ``range(start, stop)`` (``side`` to move) that lose in n
    (``checked`` is not needed: every position comes once)."""
    buffers = scratch_buffers()
    cand = buffers[2]
    count = 0
    for block in range(start, stop, CANDIDATES):
        m = 0
        for index in range(block, min(block + CANDIDATES, stop)):
            if is_undecided(mine[index], lay.floor) and index == first_entry(lay, index):
                cand[m] = index
                m += 1
        m = keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = mark_candidates(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def mates(lay, side, start, stop, in_check, mine, other, exit_value, ep_parent, ep_worst, found):
    """Give 0 to the checkmates (``side`` to move) in ``range(start, stop)``: in check (``in_check``: bits
    packed big-endian, as numpy.packbits) with no legal move."""
    buffers = scratch_buffers()
    cand = buffers[2]
    count = 0
    for block in range(start, stop, CANDIDATES):
        m, end = 0, min(block + CANDIDATES, stop)
        for byte in range(block >> 3, (end + 7) >> 3):
            bits = in_check[byte]
            if bits == 0:  # most positions are not in check: eight of them passed at once
                continue
            for bit in range(8):
                index = (byte << 3) + bit
                if (bits >> (7 - bit)) & 1 and block <= index < end and index == first_entry(lay, index):
                    cand[m] = index
                    m += 1
        m = keep_losing(lay, side, 0, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = mark_candidates(lay, cand, m, mine, 0, found, count)
    return count
