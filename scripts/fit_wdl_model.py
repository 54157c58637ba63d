"""Fits the constants of Util/whole_game/wdl.py to Stockfish's own win/draw/loss figures::

    PYTHONPATH=. .venv/bin/python scripts/fit_wdl_model.py [--positions 80] [--depth 8] [--move 32]

Debian's Stockfish (``UCI_ShowWDL``) analyses every 50th position of the shared openings, its move number
set to ``--move``; the logistic ``W(s) = 1 / (1 + exp(-(s - A) / B))``, ``L(s) = W(-s)`` is fitted to its
scores and per-mille figures by least squares over a grid of A and B (whole centipawns).
"""

from __future__ import annotations

import argparse
import math

import chess
import chess.engine

from Util.whole_game_lab.match import default_openings_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--move", type=int, default=32)
    args = parser.parse_args()
    fens = [line.strip() for line in open(default_openings_file()) if line.strip()][::50][:args.positions]
    points = []
    with chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish") as stockfish:
        stockfish.configure({"Threads": 1, "UCI_ShowWDL": True})
        for fen in fens:
            fields = fen.split()
            fields[-1] = str(args.move)
            info = stockfish.analyse(chess.Board(" ".join(fields)), chess.engine.Limit(depth=args.depth))
            score, wdl = info["score"].relative, info.get("wdl")
            if not score.is_mate() and wdl is not None:
                points.append((score.score(), wdl.relative.wins, wdl.relative.losses))

    def error(a: int, b: int) -> float:
        return sum((1000 / (1 + math.exp(-(cp - a) / b)) - wins) ** 2 + (1000 / (1 + math.exp((cp + a) / b)) - losses) ** 2
                   for cp, wins, losses in points)

    a, b = min(((a, b) for a in range(40, 200, 2) for b in range(10, 120, 2)), key=lambda ab: error(*ab))
    print(f"{len(points)} positions: A = {a} cp, B = {b} cp (root mean square error "
          f"{math.sqrt(error(a, b) / (2 * len(points))):.0f} per mille)")


if __name__ == "__main__":
    main()
