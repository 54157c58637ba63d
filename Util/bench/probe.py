"""``python -m Util bench --probe``: what one answer from the tables costs.

Prints, for the tables in a folder:

- **command line**: ``python -m Util probe --dtm`` of one position of each
  five-piece table (of the first few, ``--count`` decides), start-up
  included, as whole processes: seconds and peak resident memory;
- **in one process**: random legal positions spread over every table in
  the folder, probed warm (the block already decoded in the cache) and cold
  (no cache: each probe reads its block with ``pread`` and decodes it; the
  file is in the operating system's page cache), median and 90th
  percentile in microseconds;
- **beside Gaviota**: the same random three- and four-piece positions
  probed by python-chess's prober over Debian's ``libgaviotatb`` and by a
  Tablebase, each given the same cache, each position once (so every probe
  of a new block is cold);
- **a trainer game**: starting a game in a five-piece table in a fresh
  process (the table opened, the AI's first reply, the hints of every
  legal move, the tables that captures and promotions lead into included):
  seconds and peak memory;
- **sizes**: the files' total.

Timings drift with the machine's load: run it more than once, and read
medians.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional, Sequence

import chess

from ..board.material import Material
from ..board.random_boards import random_legal_board
from ..tablebase import Tablebase

#: The cache both probers are given in the side-by-side run.
SIDE_BY_SIDE_CACHE = 4 << 20


def random_boards(material: Material, count: int, rng: random.Random) -> List[chess.Board]:
    """Legal positions of ``material`` (either colour order at random), either side to move."""
    return [random_legal_board(material if rng.random() < 0.5 else material.swapped, rng) for _ in range(count)]


def spread_boards(materials: Sequence[Material], count: int, seed: int = 1) -> List[chess.Board]:
    """``count`` positions, the same number from each material, shuffled."""
    rng = random.Random(seed)
    per = max(1, count // max(1, len(materials)))
    boards = [board for material in materials for board in random_boards(material, per, rng)]
    rng.shuffle(boards)
    return boards


def seconds_per_probe(probe: Callable[[chess.Board], int], boards: Sequence[chess.Board]) -> List[float]:
    """Each probe's time in seconds."""
    times = []
    clock = time.perf_counter
    for board in boards:
        start = clock()
        probe(board)
        times.append(clock() - start)
    return times


def _micro(times: Sequence[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered) * 1e6:7.1f} us, 90% {ordered[int(len(ordered) * 0.9)] * 1e6:7.1f} us "
            f"({len(ordered)} probes)")


def whole_process(command: List[str]) -> tuple:
    """``(seconds, peak MB, stdout)`` of a command run to its end (peak resident memory as the kernel
    counts it for the child, what ``/usr/bin/time -f %M`` prints)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    out = child.stdout.read() if child.stdout else ""
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {child.stderr.read() if child.stderr else ''}")
    return seconds, usage.ru_maxrss / 1024, out.strip()


def bench_command_line(directory: Path, materials: Sequence[Material], count: int) -> None:
    print("command line: python -m Util probe --dtm TABLE FEN (whole process, start-up included)")
    seconds, peak, _ = whole_process([sys.executable, "-c", "import chess"])
    print(f"  python -c 'import chess' (the floor) {seconds:5.2f} s {peak:6.0f} MB")
    rng = random.Random(2)
    for material in materials[:count]:
        board = random_boards(material, 1, rng)[0]
        path = directory / f"{material.name}.chessAI"
        seconds, peak, answer = whole_process([sys.executable, "-m", "Util", "probe", "--dtm", str(path), board.fen()])
        print(f"  {material.name:36} {seconds:5.2f} s {peak:6.0f} MB   {board.fen()} -> {answer}", flush=True)


def bench_in_process(directory: Path, materials: Sequence[Material], count: int) -> None:
    boards = spread_boards(materials, count, seed=3)
    print(f"in one process: {len(boards)} random legal positions over {len(materials)} tables")
    with Tablebase(directory, cache_bytes=0) as uncached:
        for board in boards[:50]:
            uncached.probe_dtm(board)  # files opened first, so that what follows times probes only
        print(f"  cold (no cache; block read and decoded): {_micro(seconds_per_probe(uncached.probe_dtm, boards))}")
    with Tablebase(directory, cache_bytes=1 << 30) as cached:
        for board in boards:
            cached.probe_dtm(board)
        print(f"  warm (block in the cache):               {_micro(seconds_per_probe(cached.probe_dtm, boards))}")


def bench_beside_gaviota(directory: Path, gaviota_dir: Path, count: int) -> None:
    import chess.gaviota

    from ..validation.gaviota_native import LIBRARY_CANDIDATES

    materials = [m for m in _materials(directory) if m.piece_count <= 4 and (m.white or m.black)]
    library = next((name for name in LIBRARY_CANDIDATES if Path(name).exists()), None)
    if not materials or library is None or not any(gaviota_dir.glob("*.gtb.cp4")):
        print(f"beside Gaviota: skipped (needs 3-4-piece tables in {directory}, Gaviota's files in {gaviota_dir} "
              f"and libgaviotatb1)")
        return
    boards = spread_boards(materials, count, seed=4)
    native = chess.gaviota.open_tablebase_native(str(gaviota_dir), libgtb=library)
    native._tbcache_restart(SIDE_BY_SIDE_CACHE, 0)
    print(f"beside Gaviota: the same {len(boards)} positions over {len(materials)} tables, each probed once, "
          f"both with a cache of {SIDE_BY_SIDE_CACHE >> 20} MiB")
    try:
        theirs = seconds_per_probe(native.probe_dtm, boards)
        with Tablebase(directory, cache_bytes=SIDE_BY_SIDE_CACHE) as ours_base:
            ours = seconds_per_probe(ours_base.probe_dtm, boards)
            disagree = sum(ours_base.probe_dtm(b) != native.probe_dtm(b) for b in boards)
    finally:
        native.close()
    print(f"  python-chess + libgaviotatb: {_micro(theirs)}, mean {statistics.fmean(theirs) * 1e6:.1f} us")
    print(f"  Tablebase:                   {_micro(ours)}, mean {statistics.fmean(ours) * 1e6:.1f} us")
    print(f"  answers that differ: {disagree}")


def bench_trainer(directory: Path, materials: Sequence[Material], count: int) -> None:
    print("a trainer game in a fresh process: open, the AI's reply, the hints (whole process)")
    for material in materials[:count]:
        code = ("import sys, chess; from Util.play.session import PlaySession; from Util.play.setup import table_named;"
                "from Util.play.random_starts import random_start;"
                f"s = table_named({material.name!r}, {str(directory)!r});"
                "b = chess.Board(sys.argv[1]);"
                "g = PlaySession(b, s, games_dir='/tmp', person=not b.turn);"
                "print(len(g.hints()), 'hints')")
        board = random_boards(material, 1, random.Random(5))[0]
        seconds, peak, out = whole_process([sys.executable, "-c", code, board.fen()])
        print(f"  {material.name:8} {seconds:5.2f} s {peak:6.0f} MB   {board.fen()}: {out}", flush=True)


def _materials(directory: Path) -> List[Material]:
    with Tablebase(directory) as tablebase:
        return tablebase.materials()


def run_probe_bench(directory: Path, count: int = 2000, gaviota_dir: Optional[Path] = None, five: int = 8) -> None:
    materials = [m for m in _materials(directory) if m.white or m.black]
    if not materials:
        print(f"bench --probe: no tables in {directory}; compute some with: python -m Util calculate --all "
              f"--results {directory}")
        return
    five_piece = [m for m in materials if m.piece_count == 5]
    sizes = sum((directory / f"{m.name}.chessAI").stat().st_size for m in materials)
    print(f"{len(materials)} tables in {directory}, {sizes / 2**20:.1f} MiB in all")
    if five_piece:
        bench_command_line(directory, five_piece, five)
    bench_in_process(directory, materials, count)
    if gaviota_dir is not None:
        bench_beside_gaviota(directory, gaviota_dir, count)
    if five_piece:
        bench_trainer(directory, five_piece, five)
