"""The transposition table: what the search learnt of a position, found again by its key.

``tt`` is a uint64 array of 2 N slots, N a power of two: the position's key xor its entry at ``2 i``, the
entry at ``2 i + 1``, ``i`` the key's low bits (one entry a slot: a new position replaces the old one, unless
the old one is the same position searched much deeper).  The threads of one search share the table
(:mod:`Util.whole_game.threads`) without a lock: a slot that one thread read while another wrote it holds
the key of one entry and the other entry, and the xor makes it read as a miss (:func:`tt_holds`), never
as another position's entry.  An entry packs

* the best move, :data:`~.move.MOVE_BITS` bits (:mod:`.move`; 0: none);
* the score + :data:`SCORE_OFFSET`, 16 bits from bit :data:`SCORE_SHIFT`: a mate is stored as its distance
  from the position itself, not from the root, so that it reads right at any ply;
* the depth + 1, 8 bits from :data:`DEPTH_SHIFT`;
* the bound, 2 bits from :data:`BOUND_SHIFT`: :data:`EXACT`, :data:`LOWER` (the score is at least this),
  :data:`UPPER` (at most).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .move import MOVE_MASK
from .score import MATE_BOUND

EXACT, LOWER, UPPER = 1, 2, 3
SCORE_SHIFT, DEPTH_SHIFT, BOUND_SHIFT = 17, 33, 41
SCORE_OFFSET = 32768
#: An old entry of the same position at least this much deeper than a new bound is kept.
KEEP_DEEPER = 2
U = np.uint64


@njit(cache=True, nogil=True, inline="always")
def tt_index(tt, key):
    """The slot of ``key``: its key at ``tt[i]``, its entry at ``tt[i + 1]``."""
    return 2 * np.int64(key & U((len(tt) >> 1) - 1))


@njit(cache=True, nogil=True, inline="always")
def tt_holds(tt, index, key, data):
    """Whether slot ``index``, read as ``data``, is position ``key``'s entry."""
    return tt[index] ^ data == key


@njit(cache=True, nogil=True, inline="always")
def entry_move(data):
    return np.int64(data & U(MOVE_MASK))


@njit(cache=True, nogil=True, inline="always")
def entry_depth(data):
    return np.int64((data >> U(DEPTH_SHIFT)) & U(255)) - 1


@njit(cache=True, nogil=True, inline="always")
def entry_bound(data):
    return np.int64((data >> U(BOUND_SHIFT)) & U(3))


@njit(cache=True, nogil=True, inline="always")
def entry_score(data, ply):
    """The stored score as seen ``ply`` plies from the root (a mate's distance counted from the root)."""
    score = np.int64((data >> U(SCORE_SHIFT)) & U(0xFFFF)) - SCORE_OFFSET
    if score > MATE_BOUND:
        score -= ply
    elif score < -MATE_BOUND:
        score += ply
    return score


@njit(cache=True, nogil=True)
def tt_store(tt, key, move, score, depth, bound, ply):
    """Keeps what a search of ``depth`` plies found of the position ``key``, ``ply`` plies from the root
    (``move`` 0: the old entry's move is kept for the same position)."""
    index = tt_index(tt, key)
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    old = tt[index + 1]
    if tt_holds(tt, index, key, old):
        if move == 0:
            move = entry_move(old)
        if bound != EXACT and entry_depth(old) > depth + KEEP_DEEPER:
            return
    data = (U(move) | (U(score + SCORE_OFFSET) << U(SCORE_SHIFT)) | (U(depth + 1) << U(DEPTH_SHIFT))
            | (U(bound) << U(BOUND_SHIFT)))
    tt[index] = key ^ data
    tt[index + 1] = data
