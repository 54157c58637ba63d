"""Test suites: how many positions of an EPD file an engine solves at a given time a position.

``python -m Util match --suite ../shared/suites/wac.epd --time 1`` runs our
engine (``--engine`` another) on every position of the file and prints
``solved/total``.  A position of an EPD file is solved when the engine's move
is one of its ``bm`` moves and none of its ``am`` moves.  A file of bare FENs
named ``mateN...`` (the shared ``mate1.fen`` .. ``mate4.fen``) is a mate
suite: solved when the move begins a mate in at most N against every defence,
which python-chess's move generation checks by trying every line (no engine's
word is taken for it; mate in 4 takes seconds a position).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

import chess
import chess.engine

from .opponents import EngineSpec, open_engine

__all__ = ["SuitePosition", "SuiteResult", "forced_mate", "mate_solved", "read_suite", "run_suite"]


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


def forced_mate(board: chess.Board, moves: int) -> bool:
    """Whether the side to move can force checkmate within ``moves`` moves, by trying every line with
    python-chess's move generation (no engine is trusted with it)."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if moves > 1 and not board.is_game_over() and all(_mated_after(board, reply, moves - 1)
                                                               for reply in list(board.legal_moves)):
                return True
        finally:
            board.pop()
    return False


def _mated_after(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return forced_mate(board, moves)
    finally:
        board.pop()


def mate_solved(board: chess.Board, move: chess.Move, mate_in: int) -> bool:
    """Whether ``move`` begins a mate in at most ``mate_in`` moves against any defence."""
    after = board.copy(stack=False)
    after.push(move)
    if after.is_checkmate():
        return True
    if mate_in == 1 or after.is_game_over():
        return False
    return all(_mated_after(after, reply, mate_in - 1) for reply in list(after.legal_moves))


def run_suite(spec: EngineSpec, path: Path, seconds: float, progress: bool = True,
              verbose: bool = False) -> SuiteResult:
    """Run the engine of ``spec`` on every position of the suite at ``seconds`` a position."""
    from tqdm.auto import tqdm

    positions = read_suite(path)
    result = SuiteResult()
    engine = open_engine(spec)
    try:
        for position in tqdm(positions, desc=Path(path).name, unit="position", disable=not progress):
            info = engine.play(position.board, chess.engine.Limit(time=seconds), game=position.name)
            move = info.move
            if position.mate_in:
                solved = move is not None and mate_solved(position.board, move, position.mate_in)
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
    return result
