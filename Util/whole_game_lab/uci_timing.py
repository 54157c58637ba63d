"""How fast the UCI engine answers as a GUI starts it: ``uciok`` and ``readyok`` from the process's start,
and the first ``go`` of a game beside later ones on the same position::

    python -m Util.whole_game_lab.uci_timing [--runs 5] [--depth 6] [--engine ./chessai]

Each run starts the engine afresh, sends ``uci``, ``setoption name OwnBook value false``, ``isready``,
then for each of three positions ``ucinewgame``, ``isready``, ``position fen ...``, ``go depth D`` twice
over (the second round the same positions from an empty hash again): the first ``go`` of the process
against the same search later.  Times are wall seconds measured here around the answers; the medians of
the runs are printed.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import threading
import time
from typing import Dict, List

from ..folders import REPO_ROOT

__all__ = ["POSITIONS", "time_engine"]

#: Middlegames searched to the depth given.
POSITIONS = ("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
             "r2q1rk1/1bppbppp/p4n2/n2Np3/Pp2P3/1B1P1N2/1PP2PPP/R1BQ1RK1 w - - 0 1",
             "rnb2rk1/1pq1bppp/p3pn2/3p4/3NPP2/2N1B3/PPP1B1PP/R3QRK1 w - - 0 1")


def time_engine(command: List[str], depth: int) -> Dict[str, float]:
    """One run: seconds to ``uciok`` and then to ``readyok``, and of each ``go`` (``go 1`` .. ``go 6``,
    ``go 4`` the first position's second search)."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()

    def say(*words: str) -> None:
        process.stdin.write("".join(word + "\n" for word in words))
        process.stdin.flush()

    def until(prefix: str) -> float:
        while not lines.get(timeout=900).startswith(prefix):
            pass
        return time.perf_counter()

    found: Dict[str, float] = {}
    start = time.perf_counter()
    say("uci")
    found["uciok"] = until("uciok") - start
    say("setoption name OwnBook value false", "isready")
    found["readyok"] = until("readyok") - start - found["uciok"]
    for number, fen in enumerate(POSITIONS * 2, 1):
        say("ucinewgame", "isready")
        until("readyok")
        say(f"position fen {fen}")
        asked = time.perf_counter()
        say(f"go depth {depth}")
        found[f"go {number}"] = until("bestmove") - asked
    say("quit")
    process.wait(timeout=60)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--engine", default=str(REPO_ROOT / "chessai"), help="the engine's program")
    args = parser.parse_args(argv)
    runs = [time_engine([args.engine], args.depth) for _ in range(args.runs)]
    for key in runs[0]:
        values = [run[key] for run in runs]
        print(f"{key:8s} median {1000 * statistics.median(values):8.1f} ms  "
              f"(runs: {', '.join(f'{1000 * v:.0f}' for v in values)})")
    firsts = [run["go 1"] / run["go 4"] for run in runs]
    print(f"first go / the same search later: median {statistics.median(firsts):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
