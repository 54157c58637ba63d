"""Checks the compiled perft against every published count of the shared suites' ``perft.tsv`` and
``perftsuite.epd``, or with ``--chess960`` of ``chess960.perft`` (the 960 Chess960 positions of the Chess
Programming Wiki and Ethereal, depths 1-6), and prints its speed::

    python -m Util.whole_game_lab.perft_check [SUITES_FOLDER] [--max-nodes N]
    python -m Util.whole_game_lab.perft_check --chess960 [--max-depth 6] [--positions 960]

SUITES_FOLDER defaults to ``$SUITES_PATH`` or ``../shared/suites`` beside the repository; counts above
``--max-nodes`` (default 10^9, about a minute each; 0 for all, though the deepest lines, up to 10^21
leaves, take longer than anyone can wait) are left out and counted.  The Chess960 check prints a line
per depth as it ends (all 960 positions at depth 6 are 5 * 10^11 leaves: hours on one core).  Exits 1
if any count differs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

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


#: Seconds between the progress lines of a long depth.
PROGRESS_SECONDS = 300


def chess960_counts(folder: Path) -> List[Tuple[str, Dict[int, int]]]:
    """``(Shredder-FEN, {depth: leaves})`` of every position of ``chess960.perft`` (``epd`` then ``perft D
    N`` lines)."""
    positions: List[Tuple[str, Dict[int, int]]] = []
    with open(folder / "chess960.perft", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("epd "):
                positions.append((line[4:].strip(), {}))
            elif line.startswith("perft "):
                _, depth, nodes = line.split()
                positions[-1][1][int(depth)] = int(nodes)
    return positions


def check_chess960(folder: Path, max_depth: int, count: Optional[int] = None) -> int:
    """Perft of the first ``count`` (default all) Chess960 positions at depths 1..``max_depth``, depth by
    depth, each against its published count (a progress line each :data:`PROGRESS_SECONDS`); the number
    of counts that differ."""
    positions = chess960_counts(folder)[:count]
    wrong = 0
    for depth in range(1, max_depth + 1):
        start, leaves, checked = time.perf_counter(), 0, 0
        said = start
        for fen, counts in positions:
            if time.perf_counter() - said > PROGRESS_SECONDS:
                said = time.perf_counter()
                print(f"  depth {depth}: {checked}/{len(positions)} positions, {leaves:,} leaves, "
                      f"{said - start:.0f} s", flush=True)
            if depth not in counts:
                continue
            found = perft(chess.Board(fen, chess960=True), depth)
            checked += 1
            leaves += found
            if found != counts[depth]:
                wrong += 1
                print(f"WRONG {fen} depth {depth}: {found}, published {counts[depth]}", flush=True)
        seconds = time.perf_counter() - start
        print(f"Chess960 depth {depth}: {checked} positions, {leaves:,} leaves in {seconds:.1f} s "
              f"({leaves / max(seconds, 1e-9) / 1e6:.1f} million/s), {wrong} wrong so far", flush=True)
    return wrong


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=None)
    parser.add_argument("--max-nodes", type=int, default=10 ** 9)
    parser.add_argument("--chess960", action="store_true", help="check chess960.perft instead")
    parser.add_argument("--max-depth", type=int, default=6, help="with --chess960: the deepest depth (1-6)")
    parser.add_argument("--positions", type=int, default=None, help="with --chess960: the first N positions")
    args = parser.parse_args(argv)
    folder = args.folder or suites_folder()
    if args.chess960:
        return 1 if check_chess960(folder, args.max_depth, args.positions) else 0
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
