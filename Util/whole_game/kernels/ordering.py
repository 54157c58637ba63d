"""Move ordering and the static exchange evaluation (SEE): captures by the value they win, then killers, the
countermove and the history of quiet moves that cut off before."""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboards import KING, KNIGHT, PAWN_ATTACKS, bishop_attacks, bit, lsb, rook_attacks
from .move import EN_PASSANT, QUEEN_PROMOTION, from_square, from_to, kind_of, promotion_of, to_square
from .position import ALL_MEN, BOARD, EMPTY
from .work import CAPTURE_ORDERING, COUNTERMOVES, COUNTERS, CURRENT, FEATURES, GAINS, HISTORY, KILLERS, MOVES, SCORES

SEE_VALUES = np.array([100, 320, 330, 500, 950, 20000, 0], np.int64)
TT_MOVE_SCORE = 1 << 30
GOOD_CAPTURE = 1 << 28
KILLER_1, KILLER_2, COUNTER = (1 << 27), (1 << 27) - 1, (1 << 27) - 2
#: History scores stay within ± this (each update moves a score towards its bound by its share of the way).
HISTORY_MAX = 16384
BAD_CAPTURE = -(1 << 28)


@njit(cache=True, nogil=True)
def see(bb, st, tables, work, move):
    """The material the move wins when both sides capture on its square while they gain (centipawns)."""
    frm, to = from_square(move), to_square(move)
    promotion = promotion_of(move)
    occupied = bb[ALL_MEN]
    target = st[BOARD + to]
    if kind_of(move) == EN_PASSANT:
        work[GAINS + 0] = SEE_VALUES[0]
        occupied ^= bit(to - 8 if st[BOARD + frm] < 6 else to + 8)
    else:
        work[GAINS + 0] = SEE_VALUES[target % 6] if target != EMPTY else 0
    mover = st[BOARD + frm] % 6
    if promotion:
        work[GAINS + 0] += SEE_VALUES[promotion] - SEE_VALUES[0]
        mover = promotion
    side = 1 - st[BOARD + frm] // 6
    occupied ^= bit(frm)
    bishops = bb[2] | bb[8] | bb[4] | bb[10]
    rooks = bb[3] | bb[9] | bb[4] | bb[10]
    depth = 0
    while True:
        o = side * 6
        # the least valuable man of ``side`` attacking ``to`` through the pieces gone so far
        found = -1
        for kind in range(6):
            if kind == 0:
                men = tables[PAWN_ATTACKS + (1 - side) * 64 + to] & bb[o]
            elif kind == 1:
                men = tables[KNIGHT + to] & bb[o + 1]
            elif kind == 2:
                men = bishop_attacks(tables, to, occupied) & bb[o + 2]
            elif kind == 3:
                men = rook_attacks(tables, to, occupied) & bb[o + 3]
            elif kind == 4:
                men = (bishop_attacks(tables, to, occupied) | rook_attacks(tables, to, occupied)) & bb[o + 4]
            else:
                men = tables[KING + to] & bb[o + 5]
            men &= occupied
            if men:
                found = kind
                occupied ^= bit(lsb(men))
                break
        if found < 0 or depth >= 32:
            break
        depth += 1
        work[GAINS + depth] = SEE_VALUES[mover] - work[GAINS + depth - 1]
        mover = found
        side = 1 - side
        if found == 5:
            # the king may take only if nothing defends; look once more for the other side
            o2 = side * 6
            defended = ((tables[PAWN_ATTACKS + (1 - side) * 64 + to] & bb[o2]) | (tables[KNIGHT + to] & bb[o2 + 1])
                        | (bishop_attacks(tables, to, occupied) & (bishops & (bb[o2 + 2] | bb[o2 + 4])))
                        | (rook_attacks(tables, to, occupied) & (rooks & (bb[o2 + 3] | bb[o2 + 4])))
                        | (tables[KING + to] & bb[o2 + 5])) & occupied
            if defended:
                depth -= 1
            break
    while depth > 0:
        work[GAINS + depth - 1] = -max(-work[GAINS + depth - 1], work[GAINS + depth])
        depth -= 1
    return work[GAINS + 0]


@njit(cache=True, nogil=True)
def score_moves(bb, st, tables, work, ply, n, tt_move, side):
    """Scores ply ``ply``'s ``n`` moves for ordering: the table's move, winning and equal captures by
    victim then attacker (MVV-LVA), queen promotions, the two killers, the countermove (the quiet move
    that last refuted the opponent's last move), quiet moves by history, losing captures last."""
    base = ply * 256
    killer_1, killer_2 = work[KILLERS + 2 * ply], work[KILLERS + 2 * ply + 1]
    counter = -1
    if ply > 0 and work[FEATURES + COUNTERMOVES]:
        previous = work[CURRENT + ply - 1]
        if previous:
            counter = work[COUNTERS + side * 4096 + from_to(previous)]
    for i in range(base, base + n):
        move = work[MOVES + i]
        if move == tt_move:
            work[SCORES + i] = TT_MOVE_SCORE
            continue
        to = to_square(move)
        victim = st[BOARD + to]
        promotion = promotion_of(move)
        if not work[FEATURES + CAPTURE_ORDERING]:
            work[SCORES + i] = 0
        elif victim != EMPTY or kind_of(move) == EN_PASSANT or promotion == QUEEN_PROMOTION:
            value = SEE_VALUES[victim % 6] if victim != EMPTY else (100 if promotion != QUEEN_PROMOTION else 0)
            attacker = st[BOARD + from_square(move)] % 6
            order = 64 * (value // 10) - attacker + (8000 if promotion == QUEEN_PROMOTION else 0)
            if SEE_VALUES[attacker] <= value or see(bb, st, tables, work, move) >= 0:
                work[SCORES + i] = GOOD_CAPTURE + order
            else:
                work[SCORES + i] = BAD_CAPTURE + order
        elif move == killer_1:
            work[SCORES + i] = KILLER_1
        elif move == killer_2:
            work[SCORES + i] = KILLER_2
        elif move == counter:
            work[SCORES + i] = COUNTER
        elif promotion:
            work[SCORES + i] = BAD_CAPTURE - 1000 + promotion
        else:
            work[SCORES + i] = work[HISTORY + side * 4096 + from_to(move)]


@njit(cache=True, nogil=True, inline="always")
def update_history(work, slot, bonus):
    """Moves the history score at ``slot`` by ``bonus`` (negative: a malus), less the nearer it is to
    :data:`HISTORY_MAX` in that direction (history "gravity": old successes fade)."""
    work[slot] += bonus - work[slot] * abs(bonus) // HISTORY_MAX


@njit(cache=True, nogil=True, inline="always")
def pick(work, start, end):
    """Swaps the best-scored move of ``start..end`` (indices into the ply's rows) to ``start`` and returns
    it: a selection sort done lazily, as a cut-off often comes after the first moves."""
    best = start
    for j in range(start + 1, end):
        if work[SCORES + j] > work[SCORES + best]:
            best = j
    if best != start:
        work[MOVES + start], work[MOVES + best] = work[MOVES + best], work[MOVES + start]
        work[SCORES + start], work[SCORES + best] = work[SCORES + best], work[SCORES + start]
    return work[MOVES + start]
