"""The search: negamax alpha-beta with principal variation search, a transposition table, null-move
pruning, reverse futility, futility, late-move and SEE pruning, late-move reductions (less for moves with a
good history), internal iterative reduction, check extension, quiescence search and mate scores by distance.

A kernel has no objects: what a search keeps between nodes lives in the position's arrays (``bb``, ``st``,
see :mod:`.position`), the transposition table ``tt`` (:mod:`.tt`) and the
working array ``work`` (:mod:`.work`), whose stop flag another thread sets; it is polled every
:data:`POLL` + 1 nodes.  Moves are unpacked by :mod:`.move`'s accessors, table entries by :mod:`.tt`'s.

Scores (:mod:`.score`) are centipawns for the side to move; a mate in n plies from the root scores
``MATE - n`` (being mated ``-(MATE - n)``); a draw 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluation import evaluate
from .move import EN_PASSANT, from_square, from_to, promotion_of, kind_of, to_square
from .movegen import generate
from .ordering import BAD_CAPTURE, HISTORY_MAX, SEE_VALUES, pick, score_moves, see, update_history
from .position import (BOARD, EMPTY, HALFMOVE, KEYS, PLY, SIDE, UNDO, in_check, insufficient_material,
                       is_repetition, make_move, make_null, unmake_move, unmake_null)
from .score import DRAW, INFINITE, MATE, MATE_BOUND
from .tables import NO_PROBE, probe
from .tt import (EXACT, LOWER, UPPER, entry_bound, entry_depth, entry_move, entry_score, tt_holds, tt_index,
                 tt_store)
from .work import (CHECK_EXTENSION, COUNTERS, CURRENT, FEATURES, FUTILITY, HISTORY, IIR, KILLERS, KILLERS_HISTORY,
                   LATE_MOVE_PRUNING, LATE_MOVE_REDUCTIONS, MAX_PLY, MOVES, NODE_LIMIT, NODES, NULL_MOVE, PARAMS, PV,
                   PV_LENGTH, PVS, QUIESCENCE, QUIESCENCE_PRUNING, REVERSE_FUTILITY, SCORES, SEE_PRUNING, SELDEPTH,
                   STOP, TT_CUTS)

POLL = 1023
FEW_MOVES = 4  # no null move with this many legal moves or fewer: zugzwang is likely
# Recursive kernels are compiled for these types when the module loads (types inferred through recursion
# do not come back reliably from numba's cache): bits, state, tables, tt, work, then integers.
ARRAYS = "uint64[::1], int64[::1], uint64[::1], uint64[::1], int64[::1]"
#: Futility pruning: at depth d (1..3) a quiet move is not tried when the static evaluation plus
#: FUTILITY_MARGIN[d] cannot reach alpha (centipawns).
FUTILITY_MARGIN = np.array([0, 150, 250, 350], np.int64)
#: The most a cut-off moves a history score (a depth's square, capped).
HISTORY_BONUS_MAX = 400
#: A capture scored below this by the ordering loses material by its exchange (see :mod:`.ordering`).
LOSING_CAPTURE = BAD_CAPTURE + (1 << 20)
LMR = np.array([[0 if d < 3 or i < 3 else int(0.8 + np.log(d) * np.log(i) / 2.3) for i in range(64)]
                for d in range(32)], np.int64)  # by depth and move number


@njit(cache=True, nogil=True, inline="always")
def is_quiet(st, move):
    """Whether ``move`` neither captures nor promotes (on the position before it is made)."""
    return st[BOARD + to_square(move)] == EMPTY and promotion_of(move) == 0 and kind_of(move) != EN_PASSANT


@njit(cache=True, nogil=True)
def count_node(work, ply):
    work[NODES] += 1
    if work[NODES] & POLL == 0 and work[NODE_LIMIT] and work[NODES] >= work[NODE_LIMIT]:
        work[STOP] = 1
    if ply > work[SELDEPTH]:
        work[SELDEPTH] = ply


@njit("int64(uint64[::1], int64[::1], uint64[::1], int64[::1], int64, int64, int64)", cache=True, nogil=True)
def quiesce(bb, st, tables, work, alpha, beta, ply):
    """Captures (and queen promotions) until the position is quiet; every evasion when in check."""
    count_node(work, ply)
    check = in_check(bb, st, tables)
    best = -INFINITE
    stand = 0
    if not check:
        stand = evaluate(bb, st, tables, work, PARAMS)
        if ply >= MAX_PLY - 1 or stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
    elif ply >= MAX_PLY - 1:
        return evaluate(bb, st, tables, work, PARAMS)
    base = ply * 256
    n = generate(bb, st, tables, work, MOVES + base, False)
    if n == 0:
        return -MATE + ply if check else best
    for i in range(base, base + n):
        move = work[MOVES + i]
        victim = st[BOARD + to_square(move)]
        work[SCORES + i] = 64 * (SEE_VALUES[victim % 6] if victim != EMPTY else 100) - st[BOARD + from_square(move)] % 6
    for i in range(base, base + n):
        move = pick(work, i, base + n)
        if not check and work[FEATURES + QUIESCENCE_PRUNING]:
            victim = st[BOARD + to_square(move)]
            gain = SEE_VALUES[victim % 6] if victim != EMPTY else 100
            if promotion_of(move) == 0 and stand + gain + 200 <= alpha:
                continue  # delta pruning: even winning the piece leaves us below alpha
            if SEE_VALUES[st[BOARD + from_square(move)] % 6] > gain and see(bb, st, tables, work, move) < 0:
                continue  # a losing capture
        make_move(bb, st, tables, move)
        score = -quiesce(bb, st, tables, work, -beta, -alpha, ply + 1)
        unmake_move(bb, st, move)
        if work[STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


@njit(f"int64({ARRAYS}, int64, int64, int64, int64, int64)", cache=True, nogil=True)
def negamax(bb, st, tables, tt, work, alpha, beta, depth, ply, null_ok):
    """The score of the position within (alpha, beta), searched ``depth`` plies deep (more in checks and
    quiescence; ``null_ok`` 0 after a null move, else 1); the principal variation below ply ``ply`` is left
    in ``work[PV + ply * MAX_PLY:]``."""
    work[PV_LENGTH + ply] = ply
    # the flags passed down as variables: a constant argument would make numba type a second, literal
    # version of this kernel, which its cache cannot bring back
    off = ply - ply
    on = off + 1
    if ply > 0:
        if st[HALFMOVE] >= 100 or is_repetition(bb, st) or insufficient_material(bb):
            return DRAW
        # mate distance pruning: no line from here mates sooner than one already found
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        tb_score = probe(bb, st, work, ply)  # our tables' value instead of a search
        if tb_score != NO_PROBE:
            return tb_score
    check = in_check(bb, st, tables)
    if check and work[FEATURES + CHECK_EXTENSION]:
        depth += 1
    if depth <= 0:
        if not work[FEATURES + QUIESCENCE] and not check:
            count_node(work, ply)
            return evaluate(bb, st, tables, work, PARAMS)
        return quiesce(bb, st, tables, work, alpha, beta, ply)
    count_node(work, ply)
    if work[STOP]:
        return 0
    if ply >= MAX_PLY - 1:
        return evaluate(bb, st, tables, work, PARAMS)
    pv_node = beta - alpha > 1
    key = bb[KEYS + st[PLY]]
    index = tt_index(tt, key)
    tt_move = 0
    data = tt[index + 1]
    if tt_holds(tt, index, key, data):
        tt_move = entry_move(data)
        if entry_depth(data) >= depth and not pv_node and ply > 0 and work[FEATURES + TT_CUTS]:
            tt_score = entry_score(data, ply)
            bound = entry_bound(data)
            if bound == EXACT or (bound == LOWER and tt_score >= beta) or (bound == UPPER and tt_score <= alpha):
                return tt_score
    # internal iterative reduction: a node without a table move is searched a ply less (its move
    # ordering is poor, and the next iteration comes back with a move)
    if depth >= 4 and tt_move == 0 and work[FEATURES + IIR]:
        depth -= 1
    side = st[SIDE]
    base = ply * 256
    n = -1
    futile = False
    if not check and not pv_node:
        static = evaluate(bb, st, tables, work, PARAMS)
        futile = (depth <= 3 and static + FUTILITY_MARGIN[depth] <= alpha and abs(alpha) < MATE_BOUND
                  and work[FEATURES + FUTILITY])
        # reverse futility: far enough above beta that a few plies will not bring it back
        if (depth <= 5 and static - 85 * depth >= beta and abs(beta) < MATE_BOUND
                and work[FEATURES + REVERSE_FUTILITY]):
            return static
        # null move: passing still holds beta, so a real move will (not without pieces or with few moves:
        # zugzwang; nor when beta is being mated: proving a mate is where zugzwang lives, and the reduced
        # search hides quiet mates).  The moves generated for the count are the ones searched below.
        pieces = bb[side * 6 + 1] | bb[side * 6 + 2] | bb[side * 6 + 3] | bb[side * 6 + 4]
        if (null_ok and depth >= 3 and static >= beta and beta > -MATE_BOUND and pieces
                and work[FEATURES + NULL_MOVE]):
            n = generate(bb, st, tables, work, MOVES + base, True)
        if n > FEW_MOVES:
            work[CURRENT + ply] = 0
            make_null(bb, st, tables)
            score = -negamax(bb, st, tables, tt, work, -beta, -beta + 1, depth - 4 - depth // 4, ply + 1, off)
            unmake_null(st)
            if work[STOP]:
                return 0
            if score >= beta:
                return beta if score >= MATE_BOUND else score
    if n < 0:
        n = generate(bb, st, tables, work, MOVES + base, True)
    if n == 0:
        return -MATE + ply if check else DRAW
    score_moves(bb, st, tables, work, ply, n, tt_move, side)
    best = -INFINITE
    best_move = 0
    original_alpha = alpha
    for i in range(n):
        move = pick(work, base + i, base + n)
        quiet = is_quiet(st, move)
        order = work[SCORES + base + i]
        work[CURRENT + ply] = move
        make_move(bb, st, tables, move)
        gives_check = in_check(bb, st, tables)
        if not pv_node and not check and not gives_check and best > -MATE_BOUND:
            # late move pruning: at the last plies, quiet moves far down the list are not tried;
            # futility pruning: nor any quiet move when the static evaluation is far below alpha;
            # SEE pruning: nor a capture that loses material, at the last two plies
            if ((quiet and depth <= 3 and i >= 4 + 4 * depth * depth and work[FEATURES + LATE_MOVE_PRUNING])
                    or (quiet and futile)
                    or (not quiet and depth <= 2 and order < LOSING_CAPTURE and work[FEATURES + SEE_PRUNING])):
                unmake_move(bb, st, move)
                continue
        if i == 0 or not work[FEATURES + PVS]:
            score = -negamax(bb, st, tables, tt, work, -beta, -alpha, depth - 1, ply + 1, on)
        else:
            reduction = 0
            if (quiet and not check and not gives_check and depth >= 3 and i >= 3
                    and work[FEATURES + LATE_MOVE_REDUCTIONS]):
                reduction = LMR[min(depth, 31), min(i, 63)]
                if pv_node:
                    reduction -= 1
                if order >= (1 << 26):
                    reduction -= 1  # a killer or the countermove
                elif work[FEATURES + KILLERS_HISTORY]:
                    # by the move's history, up or down (rounded towards zero)
                    reduction -= order // (HISTORY_MAX // 2) if order >= 0 else -(-order // (HISTORY_MAX // 2))
                reduction = max(0, min(reduction, depth - 2))
            score = -negamax(bb, st, tables, tt, work, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1, on)
            if score > alpha and reduction > 0:
                score = -negamax(bb, st, tables, tt, work, -alpha - 1, -alpha, depth - 1, ply + 1, on)
            if alpha < score < beta:
                score = -negamax(bb, st, tables, tt, work, -beta, -alpha, depth - 1, ply + 1, on)
        unmake_move(bb, st, move)
        if work[STOP]:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                row, below = PV + ply * MAX_PLY, PV + (ply + 1) * MAX_PLY
                work[row + ply] = move
                end = work[PV_LENGTH + ply + 1]
                for j in range(ply + 1, end):
                    work[row + j] = work[below + j]
                work[PV_LENGTH + ply] = max(end, ply + 1)
                if score >= beta:
                    if quiet and work[FEATURES + KILLERS_HISTORY]:
                        if work[KILLERS + 2 * ply] != move:
                            work[KILLERS + 2 * ply + 1] = work[KILLERS + 2 * ply]
                            work[KILLERS + 2 * ply] = move
                        # the move that cut gains, the quiet moves tried before it lose as much
                        bonus = min(depth * depth, HISTORY_BONUS_MAX)
                        update_history(work, HISTORY + side * 4096 + from_to(move), bonus)
                        for j in range(base, base + i):
                            tried = work[MOVES + j]
                            if is_quiet(st, tried):
                                update_history(work, HISTORY + side * 4096 + from_to(tried), -bonus)
                        if ply > 0 and work[CURRENT + ply - 1]:
                            work[COUNTERS + side * 4096 + from_to(work[CURRENT + ply - 1])] = move
                    break
    bound = LOWER if best >= beta else (EXACT if best > original_alpha else UPPER)
    tt_store(tt, key, best_move, best, depth, bound, ply)
    return best


@njit(f"UniTuple(int64, 2)({ARRAYS}, int64[::1], int64[::1], int64, int64, int64, int64)", cache=True,
      nogil=True)
def search_root(bb, st, tables, tt, work, root_moves, root_nodes, n, alpha, beta, depth):
    """One iteration at the root over ``root_moves[:n]`` (ordered by the last iteration: its best first,
    the rest by the nodes they took); returns (score, best move or 0 if none was searched in full).
    ``root_moves`` is reordered for the next iteration."""
    work[PV_LENGTH] = 0
    on = n - n + 1  # not a constant: see negamax
    best = -INFINITE
    best_move = 0
    best_index = -1
    original_alpha = alpha
    for i in range(n):
        move = root_moves[i]
        before = work[NODES]
        work[CURRENT] = move
        make_move(bb, st, tables, move)
        if i == 0:
            score = -negamax(bb, st, tables, tt, work, -beta, -alpha, depth - 1, on, on)
        else:
            score = -negamax(bb, st, tables, tt, work, -alpha - 1, -alpha, depth - 1, on, on)
            if score > alpha and not work[STOP]:
                score = -negamax(bb, st, tables, tt, work, -beta, -alpha, depth - 1, on, on)
        unmake_move(bb, st, move)
        root_nodes[i] = work[NODES] - before
        if work[STOP]:
            break
        if score > best:
            best = score
            best_move = move
            best_index = i
            if score > alpha:
                alpha = score
                work[PV] = move
                end = work[PV_LENGTH + 1]
                for j in range(1, end):
                    work[PV + j] = work[PV + MAX_PLY + j]
                work[PV_LENGTH] = max(end, 1)
            if score >= beta:
                break
    if best_index > 0:
        # the best move first, the others by the size of their trees
        move, nodes = root_moves[best_index], root_nodes[best_index]
        for j in range(best_index, 0, -1):
            root_moves[j] = root_moves[j - 1]
            root_nodes[j] = root_nodes[j - 1]
        root_moves[0], root_nodes[0] = move, nodes
    for i in range(2, n):
        move, nodes = root_moves[i], root_nodes[i]
        j = i
        while j > 1 and root_nodes[j - 1] < nodes:
            root_moves[j] = root_moves[j - 1]
            root_nodes[j] = root_nodes[j - 1]
            j -= 1
        root_moves[j], root_nodes[j] = move, nodes
    if best_move and not work[STOP]:
        bound = LOWER if best >= beta else (EXACT if best > original_alpha else UPPER)
        tt_store(tt, bb[KEYS + st[PLY]], best_move, best, depth, bound, 0)
    return best, best_move
