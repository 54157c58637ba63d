"""The loss counters, compiled: the moves of an undecided position that still escape, counted down.

See the comment below: how the counters live in the DTM bytes, why one
thread writes each, and how often an un-move reaches a position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import ILLEGAL, NO_EXIT, UNKNOWN
from .blocks import BLOCK, CANDIDATES, block_predecessors, keep_undecided, scratch_buffers, start_value
from .board import (BIT, BLACK_PAWN, DIAGONAL_SQUARE, EP_NEIGHBOUR_BITS, FOLD_ROW, KING, KNIGHT, MAX_UNMOVES, QUEEN,
                    RAY_SQUARES, SLOT_OF_SQUARE, STEP_SQUARES, TRANSFORM_ROWS, WHITE_PAWN, append_moves, colour_of,
                    decode, encode, enemy_pawns, index_after_move, is_free, kind_of, occupancy_of,
                    piece_in_check_order, stride, target_squares)
from .entries import first_entry, is_sorted_entry, is_undecided, mark_other_entries, record

# ---- counters of the moves that still escape ------------------------------------------------------
# A loss candidate is usually re-checked in ply after ply, each time one more of its children is won by
# the opponent (98 % of the checks of KRPvKR's loss plies find an escape).  A counter per position
# instead: set for every position before ply 1 (set_first_counters: its legal moves, none yet won by the
# opponent), or where that was not done (a resumed calculation) when a ply first reaches the position
# (set_counters), and counted down by every un-move into it; at zero every move loses.
#
# The counter lives in the position's own DTM byte, which holds nothing else while it is undecided: up to
# ply n every value is at most n, so the bytes just below ILLEGAL are free.  Counter c (the moves not yet
# refuted, plus one) is the byte ILLEGAL - c; the byte below the lowest counter (``lay.floor``) means
# NEVER (an exit wins or draws: no loss).  Every other kernel sees these bytes as undecided (is_undecided),
# and a byte above n - 1 is an escape to a forward check, as UNKNOWN is.  So the counters cost no memory
# (a separate byte per position would add half a gigabyte to a five-piece pawn table) and no extra
# look-up (the byte is fetched to see whether the position is undecided anyway).
#
# One writer per counter: Black's un-moves leave White's pieces where they are, so the predecessors of
# frontier positions with the white king on different canonical squares (slots) are different positions.
# White's un-moves leave the black king where it is, or move it with the whole board by a symmetry (the
# white king crossing into another canonical square): predecessors of frontier positions whose black
# kings stand on squares no symmetry maps onto each other are different positions.  The engine hands each
# thread whole groups of these and runs nothing else meanwhile (Util.retrograde.jobs.owner_jobs).  So a counter is
# counted down by a plain read and write, without a branch: twice as fast as the atomic compare-and-swap
# that two threads counting one position at once would need (one Black loss ply of KQPvKR, 4 M frontier
# positions, one thread: 1.34 s with compare-and-swap, 0.54 s counting without).
#
# How often an un-move reaches a position: the un-moves from every sorted entry of a frontier position
# must count each move into it down exactly once.  Black's un-moves and White's other than the king's
# list one entry per un-move, which they do.  A white king's un-move that folds it onto the a1-h8
# diagonal of a pawnless table lists both twin entries of the predecessor (so that the win plies find
# both), and then a move of the predecessor's king into a position whose king folds onto the diagonal is
# found from both of that position's twin entries, each un-move crediting it once: it counts twice.
# Counting over all symmetries g of the table, the credits to entry E from a move E -> B are the g that
# take B to a sorted entry: two where the king of B folds onto the diagonal (the fold, and the fold then
# the mirror), else one; a move of another piece from an E on the diagonal reaches it from one of B's
# twins only, its un-moves listing no twin.  So White's counters give such a king move two
# (_append_diagonal_king_moves), every other move one; the tables come out byte for byte as with forward
# checks.


def counter_floor(most_moves: int) -> int:
    """``lay.floor`` for a side with at most ``most_moves`` moves that stay in the table."""
    return ILLEGAL - (most_moves + 1) - 1


@njit(nogil=True, cache=True, inline="always")
def _exit_escapes(exit_byte):
    """Whether a capture or promotion wins or draws (an odd exit byte: a mate, or DRAW), so that the
    position never loses: its counter is NEVER."""
    e = np.int64(exit_byte)
    return e != NO_EXIT and e % 2 == 1


@njit(nogil=True, cache=True, inline="always")
def _append_diagonal_king_moves(lay, q, squares, out, child, c):
    """Append to ``child[c:]`` once more each move of the white king of position q (``squares``, decoded)
    that folds it onto the a1-h8 diagonal of a pawnless table; return the new end.  White's counters count
    such a move twice: the white king's un-moves into a position reach it from both diagonal twins of the
    position after the move (see "How often an un-move reaches a position" above)."""
    if lay.pawns:
        return c
    occ = occupancy_of(squares, lay.count)
    for j in range(target_squares(KING, squares[0], occ, False, np.uint64(0), out)):
        t = out[j]
        if DIAGONAL_SQUARE[0, TRANSFORM_ROWS[FOLD_ROW[0, t], t]]:
            child[c] = index_after_move(lay, q, squares, 0, t)
            c += 1
    return c


@njit(nogil=True, cache=True)
def set_counters(lay, side, n, cand, m, fetched, mine, other, exit_value, buffers):
    """Set the counters of the first ``m`` candidates (``side`` to move) reached for the first time in
    loss ply n (``fetched`` UNKNOWN): NEVER where an exit wins or draws for it, else 1 + the number of its
    legal moves not into a position the opponent won before this ply (value odd and below n - 1): those
    into this ply's frontier are counted down right after.

    As in keep_losing, the children of all of them are listed first and then fetched together, so that
    their memory waits overlap: a counter costs a look-up per move (up to 22 for a king and rook), and
    one at a time this was over half of KRPvKR's loss plies."""
    squares, out, _, left, child, owner, _ = buffers
    c = 0
    for k in range(m):
        left[k] = -1
        if fetched[k] != UNKNOWN:
            continue
        q = cand[k]
        if _exit_escapes(exit_value[q]):
            mine[q] = lay.floor
            continue
        left[k] = 0
        first = c
        c = append_moves(lay, side, q, False, squares, out, child, c)
        if side == 0:
            c = _append_diagonal_king_moves(lay, q, squares, out, child, c)
        owner[first:c] = k
    for j in range(c):
        v = np.int64(other[child[j]])
        left[owner[j]] += (v != ILLEGAL) & ((v % 2 == 0) | (v >= n - 1))
    for k in range(m):
        if left[k] >= 0:  # a block may hold a position twice: both found the same count
            mine[cand[k]] = ILLEGAL - 1 - left[k]


@njit(nogil=True, cache=True)
def set_first_counters(lay, start, stop, mine, other, exit_value, in_check, found):
    """Before the first loss ply, when White has won nothing yet: the counter of every undecided position
    with Black to move in ``range(start, stop)`` (multiples of 64), as set_counters would set it there:
    NEVER where an exit wins or draws, else 1 + the number of its legal moves.  With ``in_check`` (the
    check bits, as for :func:`mates`; empty where the mates are already marked): a position in check
    with no move at all, no capture nor promotion either, is checkmate instead: it gets 0 (and its other
    entries, as :func:`mates` gives it), recorded in ``found``.  Returns how many.

    64 indices at a time, those that differ only in the last piece's square (as
    legality.mark_legality): the black king's moves are found once for all 64 (the last piece only
    blocks one of them, and the index with the king on the last piece's square is ILLEGAL anyway), and
    Black's other piece, if it has one, is always the last piece (White has at least as many), so its
    moves are the only ones found per index.  The look-ups run along the arrays, index after index."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    king_step = np.empty(8, dtype=np.int64)
    last = lay.count - 1
    last_is_black = colour_of(lay.colours, last) == 1
    mates_too, count = in_check.size > 0, 0
    for base in range(start, stop, 64):
        decode(base, lay, squares)
        prefix = occupancy_of(squares, last)
        enemy = enemy_pawns(lay, 1, squares) if last_is_black else np.uint64(0)
        king = squares[1]
        kings = target_squares(KING, king, prefix, False, enemy, out)
        for j in range(kings):
            king_step[j] = (out[j] - king) * stride(lay.count, 1)
        for q in range(base, base + 64):
            if mine[q] != UNKNOWN or not is_sorted_entry(lay, q):  # the plies count only sorted entries
                continue
            if _exit_escapes(exit_value[q]):
                mine[q] = lay.floor
                continue
            left = 0
            for j in range(kings):
                left += other[q + king_step[j]] != ILLEGAL
            if last_is_black:
                s = q - base
                for j in range(target_squares(kind_of(lay.kinds, last), s, prefix | BIT[s], False, enemy, out)):
                    left += other[q + out[j] - s] != ILLEGAL
            if left == 0 and mates_too and exit_value[q] == NO_EXIT and (in_check[q >> 3] >> (7 - (q & 7))) & 1:
                # checkmate: the first of its entries marks them all (another entry of it, left alone here,
                # may be in another thread's span, and gets 0, never a counter)
                if q == first_entry(lay, q):
                    mine[q] = 0
                    count = record(found, count, q)
                    count = mark_other_entries(lay, q, mine, 0, found, count)
                continue
            mine[q] = ILLEGAL - 1 - left
    return count


@njit(nogil=True, cache=True, inline="always")
def white_run_moves(lay, squares, backward, out, delta, row, weight, blocked):
    """White's moves (``backward``: its un-moves) in the 64 positions that differ only in the square s of
    the last piece, Black's (``squares``: the others'; the last entry is overwritten).  For each move:
    ``delta``, the index step (added to the position's index), or, where the white king leaves its
    canonical squares and the whole board folds, the index without s, s to be added as ``TRANSFORM_ROWS[row,
    s]`` (``row`` -1 otherwise); ``weight``, what it counts for (2 for a king's move onto the a1-h8
    diagonal of a pawnless table, see _append_diagonal_king_moves; 1 else); and ``blocked``, the squares
    of s on which the move is not made (a slider's path, the middle of a pawn's double step, a black pawn
    beside a double step's landing square, which makes it an en passant double step).  Where s is the
    target itself the position at the other end is illegal, which the caller's arrays say.  Returns how
    many moves.  Pawns never un-move in a table without them; with them the king never needs weight 2."""
    last = lay.count - 1
    last_is_pawn = kind_of(lay.kinds, last) == BLACK_PAWN
    occ = occupancy_of(squares, last)
    m = 0
    for k in range(5):
        piece = piece_in_check_order(lay, 0, k)
        if piece < 0:
            break
        kind, square = kind_of(lay.kinds, piece), squares[piece]
        if kind == KING:
            for j in range(target_squares(KING, square, occ, False, np.uint64(0), out)):
                t = out[j]
                fold = FOLD_ROW[lay.pawns, t]
                row[m], blocked[m] = -1, np.uint64(0)
                weight[m] = 2 if lay.pawns == 0 and DIAGONAL_SQUARE[0, TRANSFORM_ROWS[fold, t]] else 1
                if SLOT_OF_SQUARE[lay.pawns, t] >= 0:
                    delta[m] = (SLOT_OF_SQUARE[lay.pawns, t] - SLOT_OF_SQUARE[lay.pawns, square]) * stride(lay.count, 0)
                else:  # the whole board folds: the black piece's square too, looked up per index
                    squares[last] = 0
                    delta[m] = encode(lay, squares, t, fold) - TRANSFORM_ROWS[fold, 0]
                    row[m] = fold
                m += 1
        elif kind == WHITE_PAWN:
            # the double step's landing square: where the pawn lands forwards, where it stands backwards
            for j in range(target_squares(kind, square, occ, backward, np.uint64(0), out)):
                t = out[j]
                delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, 0
                if t == square + 16 or t == square - 16:
                    landing = square if backward else t
                    blocked[m] = BIT[(square + t) >> 1] | (EP_NEIGHBOUR_BITS[landing] if last_is_pawn else np.uint64(0))
                m += 1
        elif kind == KNIGHT:
            for d in range(8):
                t = STEP_SQUARES[KNIGHT, square, d]
                if is_free(occ, t):
                    delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, 0
                    m += 1
        else:
            for d in range(8 if kind == QUEEN else 4):
                path = np.uint64(0)
                for r in range(7):
                    t = RAY_SQUARES[kind, square, d, r]
                    if not is_free(occ, t):
                        break
                    delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, path
                    path |= BIT[t]
                    m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def append_run_moves(f, s, m, delta, row, blocked, cand, c):
    """Append to ``cand[c:]`` the index at the other end of each of a run's ``m`` moves (white_run_moves)
    from its position ``f``, whose last piece stands on ``s``, that ``s`` does not block; the new end."""
    bit = BIT[s]
    for j in range(m):
        if not blocked[j] & bit:
            cand[c] = delta[j] + f if row[j] < 0 else delta[j] + TRANSFORM_ROWS[row[j], s]
            c += 1
    return c


@njit(nogil=True, cache=True)
def set_white_counters(lay, n, start, stop, mine, other, exit_value):
    """Before loss ply n: the counters of the positions with White to move in ``range(start, stop)``
    (multiples of 64) that are still UNKNOWN, as set_counters would set them there (``mine`` White's
    array, ``other`` Black's; Black has a piece besides its king, which is then the last piece).

    As in set_first_counters, White's moves are found once for the 64 indices that differ only in the
    black piece's square s (white_run_moves), with what each needs of s."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    for base in range(start, stop, 64):
        decode(base, lay, squares)
        if not is_sorted_entry(lay, base):  # identical pieces are White's: the same for all 64
            continue
        m = white_run_moves(lay, squares, False, out, delta, row, weight, blocked)
        for q in range(base, base + 64):
            if mine[q] != UNKNOWN:
                continue
            if _exit_escapes(exit_value[q]):
                mine[q] = lay.floor
                continue
            s = q - base
            bit = BIT[s]
            left = 0
            for j in range(m):
                if blocked[j] & bit:
                    continue
                v = np.int64(other[delta[j] + q if row[j] < 0 else delta[j] + TRANSFORM_ROWS[row[j], s]])
                left += weight[j] * ((v != ILLEGAL) & ((v % 2 == 0) | (v >= n - 1)))
            mine[q] = ILLEGAL - 1 - left


@njit(nogil=True, cache=True)
def count_white_runs(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """count_losses for White (``side`` 0) over sorted ``frontier`` positions, for a table with pawns,
    without identical pieces, in which Black has a piece (the last): White's un-moves are found once for
    the frontier positions of one run of 64 indices, which differ only in the black piece's square
    (white_run_moves), instead of for every one; a block's predecessors are then counted down exactly
    as count_losses counts them (``checked`` is not needed)."""
    buffers = scratch_buffers()  # _count_down's; the run's squares and moves apart (set_counters writes into buffers)
    cand = buffers[2]
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    count, run, m, c = 0, np.int64(-1), 0, 0
    for k in range(frontier.size):
        if c > CANDIDATES - MAX_UNMOVES or (k % BLOCK == 0 and c):
            count, c = _count_down(lay, side, n, cand, c, mine, other, exit_value, ep_parent, ep_worst, buffers,
                                   found, count, False), 0
        f = frontier[k]
        base = f - (f & 63)
        if base != run:
            run = base
            decode(base, lay, squares)
            m = white_run_moves(lay, squares, True, out, delta, row, weight, blocked)
        c = append_run_moves(f, f - base, m, delta, row, blocked, cand, c)
    return _count_down(lay, side, n, cand, c, mine, other, exit_value, ep_parent, ep_worst, buffers, found,
                       count, False)


@njit(nogil=True, cache=True)
def count_losses(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Count down the counters of the undecided predecessors (``side`` to move; see "One writer per
    counter" above) of the ``frontier`` positions, one per un-move; give n to those whose last escaping
    move this was, unless a capture, promotion or en passant loses later for them (those are confirmed at
    their own ply)."""
    buffers = scratch_buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    # whether positions may have other entries, asked once: even inlined where it is never needed,
    # mark_other_entries cost a measurable share of a loss ply (docs/performance.md)
    others = lay.identical != 0 or lay.pawns == 0
    for start in range(0, frontier.size, BLOCK):
        m = block_predecessors(lay, side, frontier, start, squares, out, cand, False)
        count = _count_down(lay, side, n, cand, m, mine, other, exit_value, ep_parent, ep_worst, buffers, found,
                            count, others)
    return count


@njit(nogil=True, cache=True, inline="always")
def _count_down(lay, side, n, cand, m, mine, other, exit_value, ep_parent, ep_worst, buffers, found, count, others):
    """count_losses for the first ``m`` predecessors in ``cand`` (one per un-move, in a block); the new count."""
    fetched = buffers[6]
    m = keep_undecided(cand, m, mine, fetched, lay.floor)
    set_counters(lay, side, n, cand, m, fetched, mine, other, exit_value, buffers)
    last = 0
    for k in range(m):
        q = cand[k]
        byte = np.int64(mine[q])  # not fetched[k]: a block may hold q twice
        # A counter above 1 counts down; NEVER and a counter at 1 stay.  Without a branch (one that is
        # often mispredicted cost more than the rest of the loop): the byte is written back unchanged,
        # and q is kept only where this was its last escaping move (once per block: it stays at 1).
        mine[q] = byte + ((byte > lay.floor) & (byte < ILLEGAL - 1))
        cand[last] = q
        last += byte == ILLEGAL - 2
    # their exit bytes fetched together, as the values were (one at a time, each waited for memory)
    for k in range(last):
        fetched[k] = exit_value[cand[k]]
    for k in range(last):
        q = cand[k]
        if start_value(fetched[k], q, ep_parent, ep_worst) <= n - 1:
            mine[q] = n
            count = record(found, count, q)
            if others:
                count = mark_other_entries(lay, q, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def clear_counters(values, start, stop, floor):
    """Turn the counters in ``values[start:stop]`` back into UNKNOWN (they start again, or stop)."""
    for index in range(start, stop):
        if values[index] >= floor and values[index] < ILLEGAL:
            values[index] = UNKNOWN


@njit(nogil=True, cache=True)
def count_undecided(values, start, stop, floor):
    """How many of ``values[start:stop]`` are undecided (see is_undecided)."""
    count = 0
    for index in range(start, stop):
        if is_undecided(values[index], floor):
            count += 1
    return count
