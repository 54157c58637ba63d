"""Blocks of positions, compiled: their predecessors, and the forward check of loss candidates.

The plies (:mod:`Util.retrograde_kernels.plies`) gather the predecessors of a block of
frontier positions (:func:`block_predecessors`), keep those still undecided
(:func:`keep_undecided`), and, for a loss, those whose every move leads into
a position the opponent wins (:func:`keep_losing`, the forward check).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import ILLEGAL, NO_EXIT, UNKNOWN
from .board import (BLACK_PAWN, MAX_UNMOVES, WHITE_PAWN, append_moves, append_piece_moves, decode, enemy_pawns,
                    index_after_move, kind_of, occupancy_of, piece_in_check_order, target_squares)
from .entries import entry_to_use, is_undecided

# ---- blocks of positions: fetch their values together ---------------------------------------------
# A position's values lie anywhere in arrays of up to a gigabyte, so each look-up waits for memory.
# Looked up one position at a time, every wait is paid in full; gathered for a block of positions first
# (a loop of independent reads, as numpy's fancy indexing does), the waits overlap.  So every kernel
# collects a block of positions, fetches what it needs for all of them, and keeps the survivors.

#: Positions whose predecessors are gathered in one block.
BLOCK = 64
#: Positions in one block, and moves of one piece for all of them (a queen has at most 27).
CANDIDATES = BLOCK * MAX_UNMOVES
_CHILDREN = CANDIDATES * 27


@njit(nogil=True, cache=True)
def scratch_buffers():
    """Scratch for one kernel call: squares, targets, candidates, their values, children and owners."""
    return (np.empty(8, dtype=np.int64), np.empty(32, dtype=np.int64), np.empty(CANDIDATES, dtype=np.int64),
            np.empty(CANDIDATES, dtype=np.int64), np.empty(_CHILDREN, dtype=np.int64),
            np.empty(_CHILDREN, dtype=np.int32), np.empty(_CHILDREN, dtype=np.uint8))


@njit(nogil=True, cache=True, inline="always")
def block_predecessors(lay, side, frontier, start, squares, out, cand, mirrors, as_entries=True):
    """Fill ``cand`` with the predecessors (``side`` to move) of the block of ``frontier`` positions that
    begins at ``start``; return how many.  Of one entry per position only, each predecessor as that entry:
    the first entry (``mirrors``, for kernels that ask whether a position has a move into a set) or the
    sorted one (for counters: see "a position's entries" above).  Not ``as_entries``: each predecessor as
    the un-move gives it, to be made its entry by replace_by_entries once the undecided are kept (all entries of a
    position are decided together, so any one says whether it is)."""
    m = 0
    for f in frontier[start : start + BLOCK]:
        if f != entry_to_use(lay, f, mirrors):
            continue
        first = m
        m = append_moves(lay, side, f, True, squares, out, cand, m)
        if as_entries:
            replace_by_entries(lay, cand, first, m, mirrors)
    return m


@njit(nogil=True, cache=True, inline="always")
def replace_by_entries(lay, cand, first, m, mirrors):
    """Replace ``cand[first:m]`` by the entries that stand for their positions (see entry_to_use)."""
    if lay.identical or (mirrors and lay.pawns == 0):
        for k in range(first, m):
            cand[k] = entry_to_use(lay, cand[k], mirrors)


@njit(nogil=True, cache=True, inline="always")
def keep_undecided(cand, m, values, fetched, floor):
    """Keep the first ``m`` candidates undecided in ``values`` (in place; their bytes stay in ``fetched``);
    return how many."""
    for k in range(m):
        fetched[k] = values[cand[k]]
    kept = 0
    for k in range(m):
        if is_undecided(fetched[k], floor):
            cand[kept], fetched[kept] = cand[k], fetched[k]
            kept += 1
    return kept


@njit(nogil=True, cache=True, inline="always")
def keep_unchecked(cand, m, checked):
    """Keep the candidates not checked before in this ply, and mark them checked.  Two threads setting
    bits of one byte at once may lose a bit, which only repeats a check."""
    kept = 0
    for k in range(m):
        q = cand[k]
        byte, bit = q >> 3, np.uint8(1 << (q & 7))
        if not checked[byte] & bit:
            checked[byte] |= bit
            cand[kept] = q
            kept += 1
    return kept


@njit(nogil=True, cache=True, inline="always")
def start_value(exit_byte, index, ep_parent, ep_worst):
    """The largest DTM the opponent gets through a capture, promotion or en passant double step (-1:
    none; UNKNOWN: one escapes)."""
    e = np.int64(exit_byte)
    worst = -1 if e == NO_EXIT else (e - 1 if e % 2 == 0 else UNKNOWN)
    if ep_parent.size:
        k = np.searchsorted(ep_parent, index)
        if k < ep_parent.size and ep_parent[k] == index:
            worst = max(worst, np.int64(ep_worst[k]))
    return worst


@njit(nogil=True, cache=True)
def keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers):
    """Keep the candidates (``side`` to move) that lose in n: every legal move leads into ``other``'s
    value n - 1 at the latest, and one exactly.  With n = 0: those without a legal move.

    Piece by piece (kings and knights first, sliders last), the children of all
    survivors are fetched together; a candidate drops out at the first piece
    with a move that escapes."""
    squares, out, _, worst, child, owner, fetched = buffers
    for k in range(m):
        fetched[k] = exit_value[cand[k]]
    kept = 0
    for k in range(m):
        w = start_value(fetched[k], cand[k], ep_parent, ep_worst)
        if w <= n - 1:
            cand[kept], worst[kept] = cand[k], w
            kept += 1
    m = kept
    for k in range(5):
        piece = piece_in_check_order(lay, side, k)
        if piece < 0 or m == 0:
            break
        c = 0
        kind = kind_of(lay.kinds, piece)
        for a in range(m):
            decode(cand[a], lay, squares)
            occ = occupancy_of(squares, lay.count)
            first = c
            if piece != 0 and kind != WHITE_PAWN and kind != BLACK_PAWN:
                c = append_piece_moves(lay, kind, piece, cand[a], squares[piece], occ, child, c)
            else:
                enemy = enemy_pawns(lay, side, squares)
                for j in range(target_squares(kind, squares[piece], occ, False, enemy, out)):
                    child[c] = index_after_move(lay, cand[a], squares, piece, out[j])
                    c += 1
            owner[first:c] = a
        for j in range(c):
            fetched[j] = other[child[j]]
        for j in range(c):
            value = np.int64(fetched[j])
            if value != ILLEGAL and value > worst[owner[j]]:
                worst[owner[j]] = value
        kept = 0
        for a in range(m):
            if worst[a] <= n - 1:
                cand[kept], worst[kept] = cand[a], worst[a]
                kept += 1
        m = kept
    kept = 0
    for a in range(m):
        if worst[a] == n - 1:
            cand[kept] = cand[a]
            kept += 1
    return kept
