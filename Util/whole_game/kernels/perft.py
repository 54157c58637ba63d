"""Perft: the number of leaf positions of the legal move tree to a depth (the last ply counted, not made)."""

from __future__ import annotations

from numba import njit

from .movegen import generate
from .position import make_move, unmake_move


@njit(cache=True, nogil=True)
def perft(bb, board, st, keys, undo, tables, moves, depth, ply):
    """Leaves ``depth`` plies below the position; ``moves`` a (depth + ply, 256) int32 scratch array."""
    row = moves[ply]
    n = generate(bb, board, st, tables, row, True)
    if depth <= 1:
        return n if depth == 1 else 1
    total = 0
    for i in range(n):
        make_move(bb, board, st, keys, undo, tables, row[i])
        total += perft(bb, board, st, keys, undo, tables, moves, depth - 1, ply + 1)
        unmake_move(bb, board, st, undo, row[i])
    return total
