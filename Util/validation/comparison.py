"""What a check against a reference reports, and the boards it checks: the pieces every check shares.

* :class:`Comparison`: one table against one reference, position by position (sampled, exhaustive, or one
  ply deep); :class:`AgreementPerN`: boards agreed per S_n (notebook 06);
* :func:`sample_boards`: random legal boards of both sides to move, asked of our table and a reference;
* :func:`board_chunks`: every S_n's boards in pieces a worker process takes; :func:`squares_of`,
  :func:`sides_of`, :func:`fen_of`: their squares, their sides and a FEN for a mismatch.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import chess
import numpy as np

from ..board.material import Material
from ..board.random_boards import random_legal_boards
from ..sequence import SnSequence

__all__ = ["Comparison", "AgreementPerN", "CHUNK", "sample_boards", "board_chunks", "squares_of", "sides_of",
           "fen_of"]


@dataclass
class Comparison:
    """Outcome of checking one table against one reference."""

    material: str
    reference: str
    checked: int = 0
    mismatches: List[Tuple[str, int, int]] = field(default_factory=list)  # (fen, ours, reference)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.checked > 0 and not self.mismatches

    def line(self) -> str:
        rate = self.checked / self.seconds if self.seconds else float("nan")
        return (f"{self.material:8} {self.reference:8} {self.checked:10d} positions  "
                f"{len(self.mismatches):6d} mismatches  {self.seconds:8.1f} s  {rate:10.0f} /s")


def sample_boards(sequence: SnSequence, reference: str, count: int, seed: int,
            answer: Callable[[chess.Board], int], agrees: Callable[[int, int, chess.Board], bool],
            ours_of: Optional[Callable[[chess.Board], int]] = None) -> Comparison:
    """Random legal boards, both sides to move, looked up through the public API and compared."""
    ours_of = ours_of or sequence.find_board
    result = Comparison(sequence.material.name, reference)
    start = time.perf_counter()
    for white_to_move in (True, False):
        turn = chess.WHITE if white_to_move else chess.BLACK
        for board in random_legal_boards(sequence.material, count, random.Random(seed), turn=turn):
            ours, theirs = ours_of(board), answer(board)
            result.checked += 1
            if not agrees(ours, theirs, board):
                result.mismatches.append((board.fen(), ours, theirs))
    result.seconds = time.perf_counter() - start
    return result


def fen_of(letters: str, squares: List[int], white_to_move: bool) -> str:
    """The FEN of pieces ``letters`` (PIECE_LIST order) on ``squares`` with that side to move."""
    board = chess.Board(None)
    for square, letter in zip(squares, letters):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = white_to_move
    return board.fen()


@dataclass
class AgreementPerN:
    """How many boards of each S_n a reference agrees with."""

    material: str
    reference: str
    checked: Dict[int, int] = field(default_factory=dict)
    agreed: Dict[int, int] = field(default_factory=dict)
    mismatches: List[Tuple[str, int, int]] = field(default_factory=list)  # (fen, our n, reference's answer)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.checked.values())

    @property
    def ok(self) -> bool:
        return self.total > 0 and sum(self.agreed.values()) == self.total

    def line(self) -> str:
        wrong = self.total - sum(self.agreed.values())
        rate = self.total / self.seconds if self.seconds else float("nan")
        return (f"{self.material} vs {self.reference}: {self.total:,} boards in {len(self.checked)} S_n, "
                f"{wrong:,} disagree; {self.seconds:.1f} s, about {float(f'{rate:.2g}'):,.0f} boards/s")

    def add(self, n: int, checked: int, agreed: int, mismatches) -> None:
        self.checked[n] = self.checked.get(n, 0) + checked
        self.agreed[n] = self.agreed.get(n, 0) + agreed
        self.mismatches.extend(mismatches[: max(0, 20 - len(self.mismatches))])


CHUNK = 1 << 16


def board_chunks(sequence: SnSequence, every_board: bool, sample: Optional[int], seed: int):
    """``(n, board integers)`` pieces of every S_n, at most ``CHUNK`` boards each."""
    from .move_checks import boards_to_check

    chunks = []
    for n in range(len(sequence)):
        boards = boards_to_check(sequence, n, every_board=every_board, sample=sample, seed=seed + n)
        chunks += [(n, boards[i : i + CHUNK]) for i in range(0, boards.size, CHUNK)]
    return chunks


def squares_of(boards: np.ndarray, piece_count: int) -> List[List[int]]:
    """Columns of squares (PIECE_LIST order) of board integers."""
    return [((boards >> (1 + 6 * (piece_count - 1 - i))) & 63).tolist() for i in range(piece_count)]


def sides_of(material: Material) -> Tuple[List[int], List[int]]:
    """PIECE_LIST positions of White's pieces and of Black's, kings first."""
    letters = material.letters
    return ([i for i, c in enumerate(letters) if c.isupper()], [i for i, c in enumerate(letters) if c.islower()])
