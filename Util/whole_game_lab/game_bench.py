"""``python -m Util bench --perft`` and ``bench --search``: the whole-game engine's speed beside others'.

``--perft``: leaves a second of our compiled perft, of Stockfish's ``go perft``
(Debian's ``/usr/games/stockfish``, one thread) and of python-chess's move
generation, on the same positions in the same run; the counts of ours and
Stockfish's at our depth are compared (a mismatch is printed).  Stockfish is
timed one ply deeper (at our depth its answer takes a few milliseconds, which
the pipe's latency would dominate), python-chess one ply less (it is some
hundred times slower); leaves a second are comparable across depths.

``--search``: nodes a second and depth reached in ``--seconds`` per position
(default 5) by our search and by sunfish (PyPI, through its UCI interface), on
fixed positions.  Each figure is the median of ``--repeat`` runs (default 3).
The machine is shared: run it when it is quiet, and quote medians.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Callable, List, Tuple

import chess

__all__ = ["PERFT_POSITIONS", "SEARCH_POSITIONS", "add_bench_options", "python_chess_perft", "run_game_bench",
           "stockfish_perft"]

#: (name, FEN, depth for ours and Stockfish): the Chess Programming Wiki's perft positions.
PERFT_POSITIONS: List[Tuple[str, str, int]] = [
    ("start", chess.STARTING_FEN, 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
]
#: (name, FEN) searched by ``--search``: the start, Kiwipete, a quiet middlegame, an endgame.
SEARCH_POSITIONS: List[Tuple[str, str]] = [
    ("start", chess.STARTING_FEN),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("middlegame", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
]
STOCKFISH = "/usr/games/stockfish"


def add_bench_options(parser) -> None:
    """``--engine``, ``--depth``, ``--perft``, ``--search``, ``--seconds``, ``--repeat`` on ``bench``'s parser."""
    parser.add_argument("--perft", action="store_true",
                        help="instead: the whole-game engine's perft in leaves/s beside Stockfish's 'go perft' and "
                             "python-chess's, same positions, same run")
    parser.add_argument("--engine", action="store_true",
                        help="instead: the engine's bench (fixed positions to a fixed depth: the node count that "
                             "identifies a build, and nodes/s), as ./chessai bench prints it")
    parser.add_argument("--depth", type=int, default=None, help="with --engine: plies a position (default 8)")
    parser.add_argument("--search", action="store_true",
                        help="instead: the whole-game engine's nodes/s and depth on fixed positions beside sunfish's")
    parser.add_argument("--seconds", type=float, default=5.0, help="with --search: seconds a position (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="with --perft/--search: runs, median shown (default 3)")


def _median_time(run: Callable[[], int], repeat: int) -> Tuple[int, float]:
    """``(count, median seconds)`` of ``repeat`` calls of ``run``."""
    times, count = [], 0
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - start)
    return count, statistics.median(times)


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """Leaves ``depth`` plies below ``board`` by python-chess's legal move generation (the last ply counted,
    not played)."""
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


class _Stockfish:
    """Debian's Stockfish over a pipe, for ``go perft``: timed from the command to ``Nodes searched``."""

    def __init__(self, program: str = STOCKFISH) -> None:
        self.process = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._send("uci")
        self._until("uciok")

    def _send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _until(self, prefix: str) -> str:
        for line in self.process.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"stockfish ended before '{prefix}'")

    def perft(self, fen: str, depth: int) -> int:
        self._send(f"position fen {fen}")
        self._send("isready")
        self._until("readyok")
        self._send(f"go perft {depth}")
        return int(self._until("Nodes searched").split(":")[1])

    def close(self) -> None:
        self._send("quit")
        self.process.wait(timeout=10)


def stockfish_perft(fen: str, depth: int, repeat: int = 3) -> Tuple[int, float]:
    """``(leaves, median seconds)`` of Stockfish's ``go perft`` (process start not counted)."""
    engine = _Stockfish()
    try:
        return _median_time(lambda: engine.perft(fen, depth), repeat)
    finally:
        engine.close()


def run_perft_bench(repeat: int) -> int:
    from pathlib import Path

    from ..whole_game.perft import perft

    perft(chess.Board(), 2)  # the compiled kernels loaded (from numba's cache) before the clock starts
    have_stockfish = Path(STOCKFISH).exists()
    print(f"{'position':12} {'depth':>5} {'leaves':>11} {'ours/s':>12} {'stockfish/s':>12} {'ratio':>6} "
          f"{'py-chess/s':>11} {'ours/py':>8}   (Stockfish at depth + 1, python-chess at depth - 1; median of "
          f"{repeat})", flush=True)
    status = 0
    for name, fen, depth in PERFT_POSITIONS:
        ours, ours_s = _median_time(lambda: perft(chess.Board(fen), depth), repeat)
        line = f"{name:12} {depth:5} {ours:11,} {ours / ours_s:12,.0f}"
        if have_stockfish:
            same, _ = stockfish_perft(fen, depth, 1)
            theirs, theirs_s = stockfish_perft(fen, depth + 1, repeat)
            line += f" {theirs / theirs_s:12,.0f} {ours / ours_s / (theirs / theirs_s):6.3f}"
            if same != ours:
                line += f"  MISMATCH: stockfish counts {same:,}"
                status = 1
        else:
            line += f" {'(none)':>12} {'':>6}"
        board = chess.Board(fen)
        python, python_s = _median_time(lambda: python_chess_perft(board, depth - 1), 1)
        line += f" {python / python_s:11,.0f} {ours / ours_s / (python / python_s):8.0f}"
        print(line, flush=True)
    if not have_stockfish:
        print(f"(no Stockfish at {STOCKFISH}: apt-get install stockfish)")
    return status


def _sunfish_search(fen: str, seconds: float) -> Tuple[int, int, float]:
    """``(nodes, depth, seconds)`` of sunfish's search of ``fen`` for ``seconds``, from its last info line."""
    import chess.engine

    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "sunfish"], stderr=subprocess.DEVNULL)
    try:
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds))
    finally:
        engine.quit()
    return int(info.get("nodes", 0)), int(info.get("depth", 0)), float(info.get("time", seconds))


def run_search_bench(seconds: float, repeat: int) -> int:
    from ..whole_game.search import Limits, Searcher

    try:
        import sunfish  # noqa: F401
        have_sunfish = True
    except ImportError:
        have_sunfish = False
    searcher = Searcher()
    searcher.search(chess.Board(), Limits(depth=2))  # kernels loaded before the clock starts
    print(f"{'position':12} {'ours nodes/s':>13} {'depth':>6} {'sunfish nodes/s':>16} {'depth':>6} {'ratio':>7}"
          f"   ({seconds:g} s a position, median of {repeat})", flush=True)
    for name, fen in SEARCH_POSITIONS:
        rates, depths = [], []
        for _ in range(max(1, repeat)):
            searcher.new_game()
            info = searcher.search(chess.Board(fen), Limits(movetime=seconds))
            rates.append(info.nodes / max(info.time, 1e-9))
            depths.append(info.depth)
        line = f"{name:12} {statistics.median(rates):13,.0f} {statistics.median(depths):6g}"
        if have_sunfish:
            theirs = [_sunfish_search(fen, seconds) for _ in range(max(1, repeat))]
            rate = statistics.median(nodes / max(t, 1e-9) for nodes, _, t in theirs)
            line += (f" {rate:16,.0f} {statistics.median(d for _, d, _ in theirs):6g} "
                     f"{statistics.median(rates) / max(rate, 1e-9):7.1f}")
        print(line, flush=True)
    if not have_sunfish:
        print("(sunfish not installed: .venv/bin/pip install --no-deps sunfish==2026.1)")
    return 0


def run_game_bench(args) -> int:
    """``bench --perft`` / ``bench --search``: exit status 1 if a perft count differs from Stockfish's."""
    if args.repeat < 1 or args.seconds <= 0:
        print("bench: --repeat must be 1 or more and --seconds positive", file=sys.stderr)
        return 2
    status = 0
    if args.perft:
        status = run_perft_bench(args.repeat)
    if args.search:
        status = max(status, run_search_bench(args.seconds, args.repeat))
    return status
