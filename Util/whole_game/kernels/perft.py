"""Perft: the number of leaf positions of the legal move tree to a depth (the last ply counted, not made)."""

from __future__ import annotations

from numba import njit

from .movegen import generate
from .position import make_move, unmake_move


@njit(cache=True, nogil=True)
def perft(bb, st, tables, moves, depth, ply):
    """Leaves ``depth`` plies below the position; ``moves`` an int32 scratch array of 256 moves a ply."""
    base = ply * 256
    n = generate(bb, st, tables, moves, base, True)
    if depth <= 1:
        return n if depth == 1 else 1
    total = 0
    for i in range(base, base + n):
        make_move(bb, st, tables, moves[i])
        total += perft(bb, st, tables, moves, depth - 1, ply + 1)
        unmake_move(bb, st, moves[i])
    return total
