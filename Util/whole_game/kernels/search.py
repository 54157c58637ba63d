"""The search: negamax alpha-beta with principal variation search, a transposition table, null-move
pruning, late-move reductions, check extension, quiescence search, and mate scores by distance.

Everything a search keeps between nodes lives in arrays (a numba kernel has no objects):

* ``tt_keys`` uint64[N], ``tt_data`` uint64[N] (N a power of two): the transposition table, an entry's
  data packing the move (17 bits), score + 32768 (16 bits), depth + 1 (8 bits) and bound (2 bits);
* ``ctx`` int64[:data:`CTX_SIZE`]: nodes searched, the stop flag (set by another thread, polled every
  :data:`POLL` nodes), the node limit (0: none), the deepest ply reached;
* ``killers`` int32[MAX_PLY, 2], ``history`` int32[2 * 4096] (by side and from/to);
* ``moves``, ``scores`` int32[MAX_PLY, 256]: each ply's move list; ``pv`` int32[MAX_PLY, MAX_PLY] and
  ``pv_length`` int32[MAX_PLY]: the principal variation found below each ply.

Scores are centipawns for the side to move; a mate in n plies from the root scores ``MATE - n`` (its
loss ``-(MATE - n)``); a draw 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluation import evaluate
from .movegen import generate
from .ordering import BAD_CAPTURE, GOOD_CAPTURE, SEE_VALUES, pick, score_moves, see
from .position import (ALL_MEN, EMPTY, HALFMOVE, PLY, SIDE, in_check, insufficient_material, is_repetition,
                       make_move, make_null, unmake_move, unmake_null)

MATE = 32000
MATE_BOUND = MATE - 1000  # scores beyond are mates
INFINITE = 32500
MAX_PLY = 96
NODES, STOP, NODE_LIMIT, SELDEPTH = range(4)
CTX_SIZE = 8
POLL = 1023
EXACT, LOWER, UPPER = 1, 2, 3
U = np.uint64


@njit(cache=True, nogil=True, inline="always")
def tt_store(tt_keys, tt_data, key, move, score, depth, bound, ply):
    index = np.int64(key & U(len(tt_keys) - 1))
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    old = tt_data[index]
    if tt_keys[index] == key:
        if move == 0:
            move = np.int64(old & U(0x1FFFF))
        if bound != EXACT and np.int64((old >> U(33)) & U(255)) - 1 > depth + 2:
            return
    tt_keys[index] = key
    tt_data[index] = (U(move) | (U(score + 32768) << U(17)) | (U(depth + 1) << U(33)) | (U(bound) << U(41)))


@njit(cache=True, nogil=True)
def quiesce(bb, board, st, keys, undo, tables, params, ctx, moves, scores, alpha, beta, ply):
    """Captures (and queen promotions) until the position is quiet; every evasion when in check."""
    ctx[NODES] += 1
    if ctx[NODES] & POLL == 0 and ctx[NODE_LIMIT] and ctx[NODES] >= ctx[NODE_LIMIT]:
        ctx[STOP] = 1
    if ply > ctx[SELDEPTH]:
        ctx[SELDEPTH] = ply
    check = in_check(bb, st, tables)
    best = -INFINITE
    stand = 0
    if not check:
        stand = evaluate(bb, st, tables, params)
        if ply >= MAX_PLY - 1 or stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
    elif ply >= MAX_PLY - 1:
        return evaluate(bb, st, tables, params)
    row, row_scores = moves[ply], scores[ply]
    n = generate(bb, board, st, tables, row, False)
    if n == 0:
        return -MATE + ply if check else best
    for i in range(n):
        move = row[i]
        victim = board[(move >> 6) & 63]
        row_scores[i] = 64 * (SEE_VALUES[victim % 6] if victim != EMPTY else 100) - board[move & 63] % 6
    for i in range(n):
        move = pick(row, row_scores, i, n)
        if not check:
            victim = board[(move >> 6) & 63]
            gain = SEE_VALUES[victim % 6] if victim != EMPTY else 100
            if (move >> 12) & 7 == 0 and stand + gain + 200 <= alpha:
                continue  # delta pruning: even winning the piece leaves us below alpha
            if SEE_VALUES[board[move & 63] % 6] > gain and see(bb, board, tables, move) < 0:
                continue  # a losing capture
        make_move(bb, board, st, keys, undo, tables, move)
        score = -quiesce(bb, board, st, keys, undo, tables, params, ctx, moves, scores, -beta, -alpha, ply + 1)
        unmake_move(bb, board, st, undo, move)
        if ctx[STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


@njit(cache=True, nogil=True)
def negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history, moves, scores,
            pv, pv_length, alpha, beta, depth, ply, null_ok):
    """The score of the position within (alpha, beta), searched ``depth`` plies deep (more in checks and
    quiescence); the principal variation is left in ``pv[ply, ply:pv_length[ply]]``."""
    pv_length[ply] = ply
    if ply > 0:
        if st[HALFMOVE] >= 100 or is_repetition(st, keys) or insufficient_material(bb):
            return 0
        # mate distance pruning: no line from here mates sooner than one already found
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
    check = in_check(bb, st, tables)
    if check:
        depth += 1
    if depth <= 0:
        return quiesce(bb, board, st, keys, undo, tables, params, ctx, moves, scores, alpha, beta, ply)
    ctx[NODES] += 1
    if ctx[NODES] & POLL == 0 and ctx[NODE_LIMIT] and ctx[NODES] >= ctx[NODE_LIMIT]:
        ctx[STOP] = 1
    if ctx[STOP]:
        return 0
    if ply >= MAX_PLY - 1:
        return evaluate(bb, st, tables, params)
    pv_node = beta - alpha > 1
    key = keys[st[PLY]]
    index = np.int64(key & U(len(tt_keys) - 1))
    tt_move = 0
    if tt_keys[index] == key:
        data = tt_data[index]
        tt_move = np.int64(data & U(0x1FFFF))
        tt_depth = np.int64((data >> U(33)) & U(255)) - 1
        if tt_depth >= depth and not pv_node and ply > 0:
            tt_score = np.int64((data >> U(17)) & U(0xFFFF)) - 32768
            if tt_score > MATE_BOUND:
                tt_score -= ply
            elif tt_score < -MATE_BOUND:
                tt_score += ply
            bound = np.int64((data >> U(41)) & U(3))
            if bound == EXACT or (bound == LOWER and tt_score >= beta) or (bound == UPPER and tt_score <= alpha):
                return tt_score
    side = st[SIDE]
    static = 0
    if not check and not pv_node:
        static = evaluate(bb, st, tables, params)
        # reverse futility: far enough above beta that a few plies will not bring it back
        if depth <= 5 and static - 85 * depth >= beta and abs(beta) < MATE_BOUND:
            return static
        # null move: passing still holds beta, so a real move will (not in pawn endings: zugzwang)
        pieces = bb[side * 6 + 1] | bb[side * 6 + 2] | bb[side * 6 + 3] | bb[side * 6 + 4]
        if null_ok and depth >= 3 and static >= beta and pieces:
            reduction = 3 + depth // 4
            make_null(st, keys, undo, tables)
            score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history,
                             moves, scores, pv, pv_length, -beta, -beta + 1, depth - 1 - reduction, ply + 1, False)
            unmake_null(st, undo)
            if ctx[STOP]:
                return 0
            if score >= beta:
                return beta if score >= MATE_BOUND else score
    row, row_scores = moves[ply], scores[ply]
    n = generate(bb, board, st, tables, row, True)
    if n == 0:
        return -MATE + ply if check else 0
    score_moves(bb, board, tables, row, row_scores, n, tt_move, killers, ply, history, side)
    best = -INFINITE
    best_move = 0
    original_alpha = alpha
    for i in range(n):
        move = pick(row, row_scores, i, n)
        quiet = board[(move >> 6) & 63] == EMPTY and (move >> 12) & 7 == 0 and (move >> 15) & 3 != 2
        # late move pruning: at the last plies, quiet moves far down the list are not tried
        if (not pv_node and not check and quiet and depth <= 3 and i >= 4 + 4 * depth * depth
                and best > -MATE_BOUND):
            continue
        make_move(bb, board, st, keys, undo, tables, move)
        gives_check = in_check(bb, st, tables)
        if i == 0:
            score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history,
                             moves, scores, pv, pv_length, -beta, -alpha, depth - 1, ply + 1, True)
        else:
            reduction = 0
            if depth >= 3 and i >= 3 and quiet and not check and not gives_check:
                reduction = int(0.8 + np.log(depth) * np.log(i) / 2.3)
                if pv_node:
                    reduction -= 1
                if row_scores[i] >= (1 << 26):
                    reduction -= 1  # a killer
                reduction = max(0, min(reduction, depth - 2))
            score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history,
                             moves, scores, pv, pv_length, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1, True)
            if score > alpha and reduction > 0:
                score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers,
                                 history, moves, scores, pv, pv_length, -alpha - 1, -alpha, depth - 1, ply + 1, True)
            if alpha < score < beta:
                score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers,
                                 history, moves, scores, pv, pv_length, -beta, -alpha, depth - 1, ply + 1, True)
        unmake_move(bb, board, st, undo, move)
        if ctx[STOP]:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                pv[ply, ply] = move
                for j in range(ply + 1, pv_length[ply + 1]):
                    pv[ply, j] = pv[ply + 1, j]
                pv_length[ply] = max(pv_length[ply + 1], ply + 1)
                if score >= beta:
                    if quiet:
                        if killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        slot = side * 4096 + (move & 4095)
                        history[slot] += depth * depth
                        if history[slot] > (1 << 24):
                            for j in range(len(history)):
                                history[j] //= 2
                    break
    bound = LOWER if best >= beta else (EXACT if best > original_alpha else UPPER)
    tt_store(tt_keys, tt_data, key, best_move, best, depth, bound, ply)
    return best


@njit(cache=True, nogil=True)
def search_root(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history, moves, scores,
                pv, pv_length, root_moves, root_nodes, n, alpha, beta, depth):
    """One iteration at the root over ``root_moves[:n]`` (ordered by the last iteration: its best first,
    the rest by the nodes they took); returns (score, best move or 0 if none was searched in full).
    ``root_moves`` is reordered for the next iteration."""
    pv_length[0] = 0
    best = -INFINITE
    best_move = 0
    best_index = -1
    for i in range(n):
        move = root_moves[i]
        before = ctx[NODES]
        make_move(bb, board, st, keys, undo, tables, move)
        if i == 0:
            score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history,
                             moves, scores, pv, pv_length, -beta, -alpha, depth - 1, 1, True)
        else:
            score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers, history,
                             moves, scores, pv, pv_length, -alpha - 1, -alpha, depth - 1, 1, True)
            if score > alpha and not ctx[STOP]:
                score = -negamax(bb, board, st, keys, undo, tables, params, tt_keys, tt_data, ctx, killers,
                                 history, moves, scores, pv, pv_length, -beta, -alpha, depth - 1, 1, True)
        unmake_move(bb, board, st, undo, move)
        root_nodes[i] = ctx[NODES] - before
        if ctx[STOP]:
            break
        if score > best:
            best = score
            best_move = move
            best_index = i
            if score > alpha:
                alpha = score
                pv[0, 0] = move
                for j in range(1, pv_length[1]):
                    pv[0, j] = pv[1, j]
                pv_length[0] = max(pv_length[1], 1)
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
    if best_move and not ctx[STOP]:
        bound = LOWER if best >= beta else (EXACT if best > -INFINITE else UPPER)
        tt_store(tt_keys, tt_data, keys[st[PLY]], best_move, best, depth, bound, 0)
    return best, best_move
