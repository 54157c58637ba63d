"""The longest mate of a table played out: the table mates, Stockfish defends.

``python -m Util verify KRNvKNN --longest-line`` takes the position of the
table's largest n (its file's header names it), lets the mating side play the
table's fastest mate, and lets Debian's Stockfish (through python-chess's
``chess.engine``) choose each reply of the defender among the moves the table
says resist longest.  Stockfish is asked freely first, and how often its own
choice was among the table's longest defences is counted.  The game
must end in mate after exactly n plies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence

import chess
import chess.engine

from ..tablebase import Tablebase
from .oracle import find_stockfish

__all__ = ["PlayedLine", "play_longest_line", "play_longest"]


@dataclass
class PlayedLine:
    """The game played out from ``fen``: its moves, whether it ended in mate, and how often Stockfish's free choice
    of a defence was among the table's longest (``agreed``) or one the table says is mated sooner (``sooner``)."""

    fen: str
    n: int
    moves: List[str] = field(default_factory=list)
    mate: bool = False
    agreed: int = 0
    sooner: int = 0

    @property
    def plies(self) -> int:
        return len(self.moves)

    def line(self) -> str:
        return (f"{self.fen}: n = {self.n}; played {self.plies} plies, {'mate' if self.mate else 'no mate'}; "
                f"Stockfish's own choice of defence among the table's longest {self.agreed} times, mated sooner "
                f"{self.sooner} times")


def _ended(board: chess.Board) -> bool:
    """Mate, stalemate or no mating material: the game ends on the board.  The 75-move rule and fivefold
    repetition are not asked (``is_game_over`` would be): depth to mate counts without them, and KRNvKNN's
    longest mate runs 150 plies and more without a capture."""
    return board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()


def play_longest_line(tablebase: Tablebase, fen: str, think_ms: int = 50,
                      stockfish: Optional[str] = None) -> PlayedLine:
    """Play ``fen`` out as the module's docstring says (the side that mates may be the one not to move: n even),
    Stockfish thinking ``think_ms`` a move."""
    board = chess.Board(fen)
    dtm = tablebase.probe_dtm(board)
    if dtm == 0:
        raise ValueError(f"{fen}: a draw (or mate on the board); give a position one side mates from")
    played = PlayedLine(fen, abs(dtm))
    n = abs(dtm)
    winner = board.turn if dtm > 0 else not board.turn
    limit = chess.engine.Limit(time=think_ms / 1000)
    with chess.engine.SimpleEngine.popen_uci(find_stockfish(stockfish), timeout=300) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        while not _ended(board) and played.plies <= n:
            probes = tablebase.probe_moves(board)
            if board.turn == winner:
                move = probes[0].move
            else:
                longest = [p for p in probes if p.dtm == probes[0].dtm and p.wdl == probes[0].wdl]
                own = engine.play(board, limit).move
                if any(p.move == own for p in longest):
                    played.agreed += 1
                else:
                    played.sooner += 1
                move = engine.play(board, limit, root_moves=[p.move for p in longest]).move
            played.moves.append(board.san(move))
            board.push(move)
    played.mate = board.is_checkmate()
    return played


def play_longest(materials: Sequence[str], results: Optional[Path], think_ms: int = 50) -> int:
    """``verify --longest-line``: each compact table's longest mate played out, the table mating and Stockfish
    defending (Util.stockfish.longest_line); the moves and whether the mate came after exactly n plies."""
    from ..board.material import Material
    from ..folders import RESULTS_DIR
    from ..validation.verify import longest_position

    folder = Path(results or RESULTS_DIR)
    failures = 0
    with Tablebase(folder) as tablebase:
        for name in materials:
            material = Material.parse(name).canonical
            fen, n = longest_position(folder / f"{material.name}.chessAI")
            played = play_longest_line(tablebase, fen, think_ms)
            print(played.line())
            print("    " + " ".join(played.moves))
            if not (played.mate and played.plies == n):
                failures += 1
    print(f"verify: {len(materials)} longest lines played, {failures} not mate in exactly n plies")
    return 1 if failures else 0
