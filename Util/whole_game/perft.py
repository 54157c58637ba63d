"""Perft (the leaves of the legal move tree to a depth) with the compiled move generator, and its divide
(the count below each root move, as Stockfish's ``go perft`` prints it)."""

from __future__ import annotations

from typing import List, Tuple

import chess
import numpy as np

from .kernels.movegen import MAX_MOVES, generate
from .kernels.perft import perft as perft_kernel
from .kernels.position import make_move, unmake_move
from .position import tables, to_arrays, to_move


def perft(board: chess.Board, depth: int) -> int:
    """The number of leaves ``depth`` plies below ``board`` (1 at depth 0).  Raises ValueError for a
    negative depth or an invalid board."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    a = to_arrays(board, history=False)
    moves = np.zeros(max(depth, 1) * MAX_MOVES, np.int32)
    return int(perft_kernel(a.bb, a.st, tables(), moves, depth, 0))


def divide(board: chess.Board, depth: int) -> List[Tuple[chess.Move, int]]:
    """``(root move, leaves below it)`` for each legal move, for a depth of 1 or more."""
    if depth < 1:
        raise ValueError(f"divide needs a depth of 1 or more, not {depth}")
    a = to_arrays(board, history=False)
    t = tables()
    moves = np.zeros(depth * MAX_MOVES, np.int32)
    root = np.zeros(MAX_MOVES, np.int32)
    counts = []
    for move in root[:generate(a.bb, a.st, t, root, 0, True)]:
        make_move(a.bb, a.st, t, move)
        counts.append((to_move(int(move), board), int(perft_kernel(a.bb, a.st, t, moves, depth - 1, 0))))
        unmake_move(a.bb, a.st, move)
    return counts
