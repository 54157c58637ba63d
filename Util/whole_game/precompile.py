"""Compiles the whole-game engine's kernels into numba's cache (``python -m Util.whole_game.precompile``,
which the setup runs), so that later processes load them in a moment instead of compiling for minutes:
perft and its divide, the evaluation, and a short search (every kernel the search calls).

:func:`warm_up` does the same in a running process (loads or compiles); it returns the seconds it took.
"""

from __future__ import annotations

import time

import chess

from .evaluation import evaluate
from .perft import divide, perft
from .search import Limits, Searcher

#: Positions that reach every branch of the kernels: castling, en passant, promotions, checks, mates.
POSITIONS = (
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
)


def warm_up() -> float:
    """Loads (or compiles, the first time) every kernel the engine runs; seconds taken."""
    start = time.perf_counter()
    searcher = Searcher(hash_mb=1)
    for fen in POSITIONS:
        board = chess.Board(fen)
        perft(board, 2)
        divide(board, 1)
        evaluate(board)
        searcher.search(board, Limits(depth=3))
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"whole-game engine: kernels ready in {warm_up():.1f} s")
