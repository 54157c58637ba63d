"""The retrograde check of a compact table, compiled: each position's value is the best over its moves.

For every position asked (a sample, or all), one ply forward: its legal
quiet moves into the table itself, its captures into the five-piece tables
(:mod:`Util.retrograde_kernels.exits`), and the rule of depth to mate: with a
move into a loss of the opponent in v, the side to move mates in the least
such v + 1; else with a draw among them it draws; else (every move loses) it
is mated in the largest v + 1; with no legal move it is checkmated (0) in
check, else stalemated (a draw).  An index no position uses must hold no
value.  This is a check of the plies (the counting, the seeds, the long
mates listed apart), not of the moves' rules, which both share: those are
checked against python-chess (``verify --one-ply``) and, below five pieces,
by the other engine and Gaviota.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import DRAW, ILLEGAL
from .compact_board import decode, is_canonical_entry, occupancy
from .compact_kernels import quiet_moves
from .exits import GROUP_END, TABLE, capture_target, child_index
from .legality import status

#: n of a draw in the check's arithmetic.
_DRAW = -1


@njit(nogil=True, cache=True, inline="always")
def true_value(values, index, tail, tail_index, tail_n):
    """The n of entry ``index`` (``_DRAW`` for a draw or counter, -2 for no position): its byte, or where
    the byte says "tail" the n listed for it."""
    byte = np.int64(values[index])
    if byte < tail:
        return byte
    if byte == tail or byte == tail + 1:
        k = np.searchsorted(tail_index, index)
        if k < tail_index.size and tail_index[k] == index:
            return tail_n[k]
        return -3  # a tail byte without its listed n: wrong
    if byte == ILLEGAL:
        return -2
    return _DRAW


@njit(nogil=True, cache=True)
def check_positions(lay, side, indices, mine, other, tail, mine_tail, mine_n, other_tail, other_n, rows, tables,
                    blank_is_both, bad, expected_of_bad):
    """Check each of ``indices`` (``side`` to move; ``mine`` its bytes, ``other`` the other side's, each with
    its long mates ``*_tail`` / ``*_n``); write those that fail into ``bad`` and what the rule gives into
    ``expected_of_bad`` (up to their size).  ``blank_is_both``: the bytes were read from a file, which
    stores no position and a draw alike.  Returns how many failed."""
    squares, folded, child = np.empty(8, np.int64), np.empty(8, np.int64), np.empty(8, np.int64)
    children = np.empty(128, np.int64)
    failures = 0
    for index in indices:
        decode(index, lay, squares)
        stored = true_value(mine, index, tail, mine_tail, mine_n)
        legal = is_canonical_entry(lay, index, squares, folded)
        in_check = False
        if legal:
            white_ok, black_ok, white_check, black_check = status(lay.kinds, lay.colours, squares, lay.count)
            legal = white_ok if side == 0 else black_ok
            in_check = white_check if side == 0 else black_check
        if not legal:
            expected = -2
        else:
            occ = occupancy(squares, lay.count)
            listed = quiet_moves(lay, side, squares, occ, folded, children)[1]
            best_win, longest_loss, draws, moves = 1 << 30, -1, False, listed
            for k in range(listed):
                v = true_value(other, children[k], tail, other_tail, other_n)
                if v == _DRAW:
                    draws = True
                elif v < 0:
                    best_win = -(1 << 40)  # a move into no position, or a broken tail: fails below
                elif v % 2 == 0:
                    best_win = min(best_win, v + 1)
                else:
                    longest_loss = max(longest_loss, v + 1)
            r = 0
            while r < rows.shape[0]:
                target = capture_target(lay, squares, occ, rows, r)
                if target >= 0:
                    for kind in range(r, rows[r, GROUP_END]):
                        q = child_index(squares, rows, child, kind, target)
                        if q >= 0:
                            moves += 1
                            v = np.int64(tables[rows[kind, TABLE]][q])
                            if v == DRAW:
                                draws = True
                            elif v % 2 == 0:
                                best_win = min(best_win, v + 1)
                            else:
                                longest_loss = max(longest_loss, v + 1)
                r = rows[r, GROUP_END]
            if moves == 0:
                expected = 0 if in_check else _DRAW
            elif best_win < (1 << 30):
                expected = best_win
            elif draws:
                expected = _DRAW
            else:
                expected = longest_loss
        if blank_is_both and expected == -2 and stored == _DRAW:
            continue
        if expected != stored:
            if failures < bad.size:
                bad[failures], expected_of_bad[failures] = index, expected
            failures += 1
    return failures
