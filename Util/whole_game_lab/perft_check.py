"""Checks the compiled perft against every published count of the shared suites' ``perft.tsv`` and
``perftsuite.epd``, and prints its speed::

    python -m Util.whole_game_lab.perft_check [SUITES_FOLDER] [--max-nodes N]

SUITES_FOLDER defaults to ``$SUITES_PATH`` or ``../shared/suites`` beside the repository; counts above
``--max-nodes`` (default 10^9, about a minute each; 0 for all, though the deepest lines, up to 10^21
leaves, take longer than anyone can wait) are left out and counted.  Exits 1 if any count differs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Iterator, Tuple

import chess

from ..whole_game.perft import perft


def suites_folder() -> Path:
    """``$SUITES_PATH``, else the first ``shared/suites`` found beside the repository or above it."""
    if os.environ.get("SUITES_PATH"):
        return Path(os.environ["SUITES_PATH"])
    for parent in Path(__file__).resolve().parents[2:5]:
        if (parent / "shared" / "suites").is_dir():
            return parent / "shared" / "suites"
    return Path(__file__).resolve().parents[3] / "shared" / "suites"


def published_counts(folder: Path) -> Iterator[Tuple[str, int, int]]:
    """``(fen, depth, leaves)`` of every line of ``perft.tsv`` and ``perftsuite.epd``."""
    with open(folder / "perft.tsv", encoding="utf-8") as lines:
        next(lines)
        for line in lines:
            if line.strip():
                fen, depth, nodes = line.rstrip("\n").split("\t")
                yield fen, int(depth), int(nodes)
    with open(folder / "perftsuite.epd", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                fields = [f.strip() for f in line.split(";")]
                for field in fields[1:]:
                    depth, nodes = field.split()
                    yield fields[0], int(depth[1:]), int(nodes)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=None)
    parser.add_argument("--max-nodes", type=int, default=10 ** 9)
    args = parser.parse_args(argv)
    folder = args.folder or suites_folder()
    checked = wrong = leaves = skipped = 0
    seconds = 0.0
    for fen, depth, nodes in published_counts(folder):
        if args.max_nodes and nodes > args.max_nodes:
            skipped += 1
            continue
        start = time.perf_counter()
        found = perft(chess.Board(fen), depth)
        seconds += time.perf_counter() - start
        checked += 1
        leaves += found
        if found != nodes:
            wrong += 1
            print(f"WRONG {fen} depth {depth}: {found}, published {nodes}", flush=True)
    print(f"{checked - wrong}/{checked} counts exact; {leaves:,} leaves in {seconds:.1f} s "
          f"({leaves / max(seconds, 1e-9) / 1e6:.1f} million/s); {skipped} counts above {args.max_nodes:,} left out")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
