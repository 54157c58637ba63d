"""What each search feature is worth: the engine searched with one feature switched off at a time, on
Win At Chess at a fixed number of nodes a position (solved: the best move the suite names is played)
and on fixed positions to a fixed depth (nodes needed).  Fixed nodes, not time, so the figures do not
depend on how busy the machine is::

    python -m Util.whole_game_lab.feature_worth [--nodes 20000] [--positions 300] [--depth 8]

Needs the shared suites' ``wac.epd`` (``$SUITES_PATH`` or ``../shared/suites``).
"""

from __future__ import annotations

import argparse
import time
from typing import List, Tuple

import chess
from tqdm.auto import tqdm

from ..whole_game.kernels.work import FEATURE_NAMES
from .perft_check import suites_folder
from ..whole_game.search import Limits, Searcher

DEPTH_POSITIONS = (
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)


def wac(count: int) -> List[Tuple[chess.Board, List[chess.Move]]]:
    """The first ``count`` Win At Chess positions with their best moves."""
    found = []
    for line in (suites_folder() / "wac.epd").read_text().splitlines()[:count]:
        board, ops = chess.Board.from_epd(line)
        found.append((board, ops.get("bm", [])))
    return found


def measure(searcher: Searcher, positions, nodes: int, depth: int) -> Tuple[int, int, float]:
    """(WAC solved, nodes to reach ``depth`` on the depth positions, seconds in all)."""
    start = time.perf_counter()
    solved = 0
    for board, best in positions:
        searcher.new_game()
        solved += searcher.search(board, Limits(nodes=nodes)).pv[0] in best
    to_depth = 0
    for fen in DEPTH_POSITIONS:
        searcher.new_game()
        to_depth += searcher.search(chess.Board(fen), Limits(depth=depth)).nodes
    return solved, to_depth, time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args(argv)
    positions = wac(args.positions)
    print(f"WAC solved at {args.nodes:,} nodes a position (of {len(positions)}); nodes to depth {args.depth} "
          f"on {len(DEPTH_POSITIONS)} positions")
    searcher = Searcher(hash_mb=16)
    for name in tqdm(("(all on)",) + FEATURE_NAMES + ("aspiration windows",), desc="features"):
        if name != "(all on)":
            searcher.set_feature(name, False)
        solved, to_depth, seconds = measure(searcher, positions, args.nodes, args.depth)
        tqdm.write(f"{'without ' + name if name != '(all on)' else name:40s} WAC {solved:3d}  "
                   f"nodes to depth {to_depth:>11,}  ({seconds:.0f} s)")
        if name != "(all on)":
            searcher.set_feature(name, True)


if __name__ == "__main__":
    main()
