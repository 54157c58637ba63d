"""Test suites: how many positions of an EPD file an engine solves at a given time a position.

``python -m Util match --suite ../shared/suites/wac.epd --time 1`` runs our
engine (``--engine`` another) on every position of the file and prints
``solved/total``.  A position of an EPD file is solved when the engine's move
is one of its ``bm`` moves and none of its ``am`` moves.  A file of bare FENs
named ``mateN...`` (the shared ``mate1.fen`` .. ``mate4.fen``) is a mate
suite: solved when the move begins a mate in at most N, as the position after
it proves: checkmate for N = 1, else Stockfish at full strength (when
installed) finds the mate within N - 1 more moves of ours; without Stockfish,
the engine's own ``score mate`` is taken (said in the summary).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

import chess
import chess.engine

from .opponents import EngineSpec, open_engine

__all__ = ["SuitePosition", "SuiteResult", "read_suite", "run_suite"]


@dataclass(frozen=True)
class SuitePosition:
    """One position of a suite: the board, the moves that solve it (``best``), those that fail it
    (``avoid``), the mate length of a mate suite, and its ``id``."""

    board: chess.Board
    best: List[chess.Move] = field(default_factory=list)
    avoid: List[chess.Move] = field(default_factory=list)
    mate_in: Optional[int] = None
    name: str = ""


@dataclass
class SuiteResult:
    solved: int = 0
    total: int = 0
    failed: List[str] = field(default_factory=list)
    mates_checked_by: str = ""

    def line(self, seconds: float) -> str:
        share = 100 * self.solved / self.total if self.total else 0.0
        return f"solved {self.solved}/{self.total} ({share:.1f} %) at {seconds:g} s a position"


def read_suite(path: Path) -> List[SuitePosition]:
    """The positions of an EPD file (``bm``/``am``/``id`` operations) or of a mate file of bare FENs (its
    name ``mateN...``).  FileNotFoundError, or ValueError naming the line that cannot be read."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such suite; the shared ones are in ../shared/suites (wac.epd, "
                                f"bk.epd, mate1.fen ...)")
    mate = re.match(r"mate(\d+)", path.name)
    positions = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if mate:
                board = chess.Board(line)
                positions.append(SuitePosition(board, mate_in=int(mate.group(1)), name=f"{path.name}:{number}"))
                continue
            board, ops = chess.Board.from_epd(line)
        except ValueError as error:
            raise ValueError(f"{path} line {number}: cannot be read ({error})") from None
        best, avoid = list(ops.get("bm", [])), list(ops.get("am", []))
        if not best and not avoid:
            raise ValueError(f"{path} line {number}: no bm or am operation, so nothing to judge the move by")
        positions.append(SuitePosition(board, best, avoid, name=str(ops.get("id", f"{path.name}:{number}"))))
    return positions


def _mate_proven(board: chess.Board, move: chess.Move, mate_in: int, checker, reported) -> bool:
    after = board.copy(stack=False)
    after.push(move)
    if after.is_checkmate():
        return True
    if mate_in == 1:
        return False
    if checker is None:
        return reported is not None and reported.is_mate() and 0 < reported.mate() <= mate_in
    # after our move the defender is mated within mate_in - 1 moves: Stockfish's Mate(-k), k <= mate_in - 1
    score = checker.analyse(after, chess.engine.Limit(depth=2 * mate_in + 6))["score"].relative
    return score.is_mate() and -score.mate() <= mate_in - 1 and score.mate() < 0


def run_suite(spec: EngineSpec, path: Path, seconds: float, progress: bool = True,
              verbose: bool = False) -> SuiteResult:
    """Run the engine of ``spec`` on every position of the suite at ``seconds`` a position."""
    from tqdm.auto import tqdm

    positions = read_suite(path)
    result = SuiteResult()
    engine = open_engine(spec)
    checker = None
    if any(p.mate_in and p.mate_in > 1 for p in positions) and shutil.which("stockfish", path="/usr/games:/usr/bin"):
        checker = chess.engine.SimpleEngine.popen_uci(shutil.which("stockfish", path="/usr/games:/usr/bin"))
        result.mates_checked_by = "Stockfish"
    elif any(p.mate_in and p.mate_in > 1 for p in positions):
        result.mates_checked_by = "the engine's own mate score (Stockfish not installed)"
    try:
        for position in tqdm(positions, desc=Path(path).name, unit="position", disable=not progress):
            info = engine.play(position.board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_SCORE,
                               game=position.name)
            move = info.move
            if position.mate_in:
                reported = info.info.get("score").relative if info.info.get("score") else None
                solved = move is not None and _mate_proven(position.board, move, position.mate_in, checker, reported)
            else:
                solved = move is not None and (not position.best or move in position.best) and move not in position.avoid
            result.total += 1
            result.solved += solved
            if not solved:
                result.failed.append(position.name)
            if verbose:
                san = position.board.san(move) if move else "(none)"
                tqdm.write(f"{position.name}: {san} {'solved' if solved else 'not solved'}")
    finally:
        engine.quit()
        if checker is not None:
            checker.quit()
    return result
