"""Measuring the levels' Elo: each level plays Stockfish at a ``UCI_Elo`` near its label.

::

    python -m Util.whole_game_lab.calibration --levels 1-8 --games 4 --tc 10+0.1
    python -m Util.whole_game_lab.calibration uci 3          # level 3 as a UCI engine (for any GUI or match)

For each level, the match runner of :mod:`.match` plays it against Debian's
Stockfish limited to the ``UCI_Elo`` rung nearest the level's label (Stockfish
15.1 accepts 1350 to 2850), from the shared openings in colour-swapped pairs,
one game at a time, on a real clock.  The level's Elo is the rung's plus the
match's difference, with the match's 95 % interval.  Stockfish's ``UCI_Elo``
is calibrated by its authors at 120 s + 1 s games against other engines (CCRL
40/4 scale); at shorter controls it is a rougher yardstick, and a few games
give an interval of hundreds of points: the table says how many games each
figure rests on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .elo import MatchResult
from ..whole_game.levels import LEVELS, LevelPlayer
from .match import TimeControl, default_openings_file, play_match, read_openings
from .opponents import EngineSpec, engine_spec

__all__ = ["STOCKFISH_ELO_RANGE", "level_spec", "measure_level", "rung_for", "run_level_uci"]

#: Milliseconds both sides keep back from their clocks: on a shared machine a move's wall time exceeds
#: its thinking time, and a game lost on time measures the machine, not the level.
MOVE_OVERHEAD_MS = 300
#: The ``UCI_Elo`` values Stockfish 15.1 accepts.
STOCKFISH_ELO_RANGE = (1350, 2850)


def rung_for(elo: int) -> int:
    """The Stockfish ``UCI_Elo`` nearest ``elo`` that it accepts."""
    return min(max(elo, STOCKFISH_ELO_RANGE[0]), STOCKFISH_ELO_RANGE[1])


def level_spec(number: int) -> EngineSpec:
    """Level ``number`` as a UCI engine (this module's ``uci`` command), its book off: the openings come
    from the match."""
    return EngineSpec(f"chessAI level {number}", "uci",
                      [sys.executable, "-m", "Util.whole_game_lab.calibration", "uci", str(number)],
                      {"OwnBook": False, "Move Overhead": MOVE_OVERHEAD_MS})


def stockfish_rung(rung: int) -> EngineSpec:
    """Stockfish at ``UCI_Elo`` ``rung``, keeping :data:`MOVE_OVERHEAD_MS` back from its clock as we do."""
    spec = engine_spec(f"stockfish:{rung}")
    return EngineSpec(spec.name, spec.protocol, spec.command, {**spec.options, "Move Overhead": MOVE_OVERHEAD_MS})


def measure_level(number: int, games: int, control: TimeControl, start: int = 0, rung: Optional[int] = None,
                  pgn: Optional[Path] = None) -> tuple:
    """(rung, MatchResult) of level ``number`` against Stockfish at ``rung`` (default: the rung nearest the
    level's label), ``games`` games (rounded up to pairs) from opening ``start`` on."""
    rung = rung or rung_for(LEVELS[number - 1].elo)
    openings = read_openings(default_openings_file(), start, max(1, (games + 1) // 2))
    result = play_match(level_spec(number), stockfish_rung(rung), openings, control, pgn_path=pgn)
    return rung, result


def _levels(text: str) -> List[int]:
    numbers = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers += range(int(low), int(high or low) + 1)
    for number in numbers:
        if not 1 <= number <= len(LEVELS):
            raise SystemExit(f"--levels: level {number} does not exist (1 to {len(LEVELS)})")
    return numbers


def run_level_uci(number: int) -> int:
    """Level ``number`` as a UCI engine on stdin/stdout until ``quit``."""
    import threading

    from ..whole_game.player import Player
    from ..whole_game.uci import UciEngine

    level = LEVELS[number - 1]
    # the kernels load while the match sets up (uciok must come at once); the first move waits for them
    loading = threading.Thread(target=lambda: __import__("Util.whole_game.search"), daemon=True)
    loading.start()

    def make_player(**options):
        loading.join()
        return LevelPlayer(Player(**options), level)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    engine = UciEngine(write, player_factory=make_player)
    for line in sys.stdin:
        if not engine.handle(line):
            break
    else:
        engine.cmd_quit([])
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["uci"]:
        return run_level_uci(int(argv[1]) if len(argv) > 1 else len(LEVELS))
    parser = argparse.ArgumentParser(prog="python -m Util.whole_game_lab.calibration",
                                     description="each level against Stockfish's UCI_Elo ladder")
    parser.add_argument("--levels", default=f"1-{len(LEVELS)}", help="e.g. 1-8 or 1,3,5")
    parser.add_argument("--games", type=int, default=10, help="games per level (pairs, colours swapped)")
    parser.add_argument("--tc", default="10+0.1", help="BASE+INCREMENT seconds")
    parser.add_argument("--start", type=int, default=0, help="first opening of the shared file")
    parser.add_argument("--pgn", type=Path, default=Path("Tests") / "levels.pgn")
    args = parser.parse_args(argv)
    control = TimeControl.parse(args.tc)
    rows = []
    for number in _levels(args.levels):
        rung, result = measure_level(number, args.games, control, args.start, pgn=args.pgn)
        rows.append((number, rung, result))
        print(_row(number, rung, result), flush=True)
    print(f"\n{args.tc} games, one at a time; Stockfish 15.1 at the UCI_Elo shown; 95 % intervals")
    return 0


def _row(number: int, rung: int, result: MatchResult) -> str:
    low, high = rung + result.elo_low, rung + result.elo_high
    return (f"level {number} (label {LEVELS[number - 1].elo}): vs Stockfish UCI_Elo {rung}: {result.line()} "
            f"-> about {rung + result.elo:.0f} Elo (95 %: {low:.0f}..{high:.0f}), {result.games} games")


if __name__ == "__main__":
    sys.exit(main())
