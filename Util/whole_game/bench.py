"""``bench``: fixed positions searched to a fixed depth, each from an empty hash, as Stockfish's ``bench``
does: the total node count identifies a build (a change of the search or the evaluation changes it, a
change elsewhere does not), and nodes a second measure the machine.

::

    ./chessai bench            # or: python -m Util uci bench; in a UCI session: bench [DEPTH]
    python -m Util bench --engine

It prints one line a position, then ``Total time (ms)``, ``Nodes searched`` and ``Nodes/second`` in
Stockfish's words (OpenBench and fishtest-style testers read them).  The count does not depend on the
machine or its load: one thread, no clock, no book, no tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, List, Optional

import chess

__all__ = ["BENCH_DEPTH", "BENCH_HASH_MB", "BENCH_POSITIONS", "BenchResult", "run_bench"]

#: Plies each position is searched; a few seconds in all on one core.
BENCH_DEPTH = 8
#: The transposition table's size, cleared before each position.
BENCH_HASH_MB = 16
#: Openings, middlegames (quiet and tactical), and endgames with few and many pieces.
BENCH_POSITIONS: List[str] = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bn1rk1/ppp1qppp/3pp3/3P4/2P1n3/2B2NP1/PP2PPBP/2RQK2R w K - 0 1",
    "r2q1rk1/1bppbppp/p4n2/n2Np3/Pp2P3/1B1P1N2/1PP2PPP/R1BQ1RK1 w - - 0 1",
    "rnb2rk1/1pq1bppp/p3pn2/3p4/3NPP2/2N1B3/PPP1B1PP/R3QRK1 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 8 11",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 0 13",
    "6k1/5pp1/4p2p/8/2r5/4P1P1/5PKP/1R6 w - - 0 35",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2R5/4P3/3K4/5r2 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 40",
    "4r1k1/1p3ppp/p7/3b4/8/1P3N2/P1P2PPP/3R2K1 b - - 1 25",
    "1r4k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
]


@dataclass(frozen=True)
class BenchResult:
    """Nodes searched in all and the seconds it took."""
    nodes: int
    seconds: float

    @property
    def nps(self) -> int:
        """Nodes a second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


def run_bench(depth: int = BENCH_DEPTH, say: Optional[Callable[[str], None]] = print,
              positions: Optional[List[str]] = None, hash_mb: int = BENCH_HASH_MB) -> BenchResult:
    """Searches each of ``positions`` (default :data:`BENCH_POSITIONS`) to ``depth`` plies from an empty
    transposition table and history, saying a line a position and the totals to ``say``.  ValueError
    for a depth below 1."""
    from .search import Limits, Searcher

    if depth < 1:
        raise ValueError(f"bench depth must be 1 or more, not {depth}")
    say = say or (lambda line: None)
    fens = BENCH_POSITIONS if positions is None else positions
    searcher = Searcher(hash_mb=hash_mb)
    nodes, seconds = 0, 0.0
    for number, fen in enumerate(fens, 1):
        searcher.new_game()
        start = time.perf_counter()
        info = searcher.search(chess.Board(fen), Limits(depth=depth))
        seconds += time.perf_counter() - start
        nodes += info.nodes
        say(f"Position {number}/{len(fens)}: {fen}: depth {info.depth}, {info.nodes} nodes, best "
            f"{info.pv[0].uci() if info.pv else '(none)'}")
    result = BenchResult(nodes, seconds)
    say("")
    say("===========================")
    say(f"Total time (ms) : {int(seconds * 1000)}")
    say(f"Nodes searched  : {nodes}")
    say(f"Nodes/second    : {result.nps}")
    return result
