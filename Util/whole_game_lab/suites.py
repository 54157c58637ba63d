"""Test suites: how many positions of an EPD file an engine solves at a given time (or number of nodes)
a position.

``python -m Util match --suite ../shared/suites/wac.epd --time 1`` runs our
engine (``--first`` another) on every position of the file and prints
``solved/total``; ``--nodes 300000`` instead of ``--time`` gives each position
a number of nodes, so the result does not depend on how busy the machine is.
A position of an EPD file is solved when the engine's move is one of its
``bm`` moves and none of its ``am`` moves.  A file of bare FENs
named ``mateN...`` (the shared ``mate1.fen`` .. ``mate4.fen``) is a mate
suite: solved when the move begins a mate in at most N against every defence,
which python-chess's move generation checks by trying every line (no engine's
word is taken for it; mate in 4 takes seconds a position).  Of the mates
solved, those the engine also scored as a mate in at most N are counted apart:
a mating move played on a score in centipawns was found by luck of the
evaluation, not seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

import chess
import chess.engine

from .opponents import EngineSpec, open_engine

__all__ = ["SuitePosition", "SuiteResult", "budget_limit", "budget_text", "forced_mate", "mate_solved", "read_suite",
           "run_suite"]


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
    """Positions solved of those tried, the names of those failed, and (mate suites only) how many of the
    solved ones the engine scored as a mate in at most N (None for an EPD suite)."""
    solved: int = 0
    total: int = 0
    failed: List[str] = field(default_factory=list)
    mates_seen: Optional[int] = None

    def line(self, budget: str) -> str:
        """One line, ``budget`` saying what each position had (such as "1 s" or "300,000 nodes")."""
        share = 100 * self.solved / self.total if self.total else 0.0
        seen = "" if self.mates_seen is None else f", {self.mates_seen} of them scored as the mate"
        return f"solved {self.solved}/{self.total} ({share:.1f} %) at {budget} a position{seen}"


def budget_limit(seconds: Optional[float] = None, nodes: Optional[int] = None) -> chess.engine.Limit:
    """The limit of one position: ``nodes`` when given, else ``seconds``.  ValueError when neither is a
    positive number."""
    if nodes is not None:
        if nodes < 1:
            raise ValueError(f"nodes must be 1 or more, not {nodes}")
        return chess.engine.Limit(nodes=nodes)
    if seconds is None or seconds <= 0:
        raise ValueError(f"seconds must be a positive number, not {seconds}")
    return chess.engine.Limit(time=seconds)


def budget_text(limit: chess.engine.Limit) -> str:
    """What ``limit`` gives a position, in words: "300,000 nodes" or "1 s"."""
    return f"{limit.nodes:,} nodes" if limit.nodes is not None else f"{limit.time:g} s"


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


def run_suite(spec: EngineSpec, path: Path, seconds: Optional[float] = None, progress: bool = True,
              verbose: bool = False, nodes: Optional[int] = None) -> SuiteResult:
    """Run the engine of ``spec`` on every position of the suite at ``nodes`` a position when given, else
    ``seconds``; ``verbose`` writes one line a position (the move, the engine's score, depth and nodes)."""
    from tqdm.auto import tqdm

    limit = budget_limit(seconds, nodes)
    positions = read_suite(path)
    result = SuiteResult(mates_seen=0 if positions and positions[0].mate_in else None)
    engine = open_engine(spec)
    try:
        for position in tqdm(positions, desc=Path(path).name, unit="position", disable=not progress):
            played = engine.play(position.board, limit, game=position.name, info=chess.engine.INFO_BASIC |
                                 chess.engine.INFO_SCORE)
            move = played.move
            if position.mate_in:
                solved = move is not None and mate_solved(position.board, move, position.mate_in)
                mate = _mate_score(played.info.get("score"))
                result.mates_seen += solved and mate is not None and 0 < mate <= position.mate_in
            else:
                solved = move is not None and (not position.best or move in position.best) and move not in position.avoid
            result.total += 1
            result.solved += solved
            if not solved:
                result.failed.append(position.name)
            if verbose:
                tqdm.write(_position_line(position, move, solved, played.info))
    finally:
        engine.quit()
    return result


def _mate_score(score: Optional[chess.engine.PovScore]) -> Optional[int]:
    """Mate in moves for the side to move (negative: it is mated), None for centipawns or no score."""
    return None if score is None else score.relative.mate()


def _position_line(position: SuitePosition, move: Optional[chess.Move], solved: bool, info: dict) -> str:
    san = position.board.san(move) if move else "(none)"
    score, nodes = info.get("score"), info.get("nodes")
    mate = _mate_score(score)
    said = "no score" if score is None else f"mate {mate}" if mate is not None else f"{score.relative.score()} cp"
    spent = "" if nodes is None else f", {nodes:,} nodes"
    return (f"{position.name}: {san} {'solved' if solved else 'not solved'} "
            f"({said}, depth {info.get('depth', '?')}{spent})")
