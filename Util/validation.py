"""Checking our S_n against the tablebases the chess world trusts.

* **Gaviota DTM** gives, for every position, the plies to mate with best
  play: it must equal our n exactly (-1 where White cannot force mate).
* **Syzygy WDL** tells won from drawn: a position is in some S_n exactly
  when Syzygy says White wins it.  Cursed wins count as wins, since depth
  to mate ignores the fifty-move rule.

Where the tables live: ``GAVIOTA_PATH`` and ``SYZYGY_PATH`` (environment),
by default ``../shared/tablebases/{gaviota,syzygy}`` beside the repository.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Optional, Tuple

import chess
import chess.syzygy
import numpy as np

from .gaviota_native import NativeGaviota
from .board_int import board_squares
from .material import Material, material_of_board
from .retrograde import UNKNOWN, DtmTable
from .rules import black_to_move_legal_and_check, white_to_move_legal
from .sequence import SnSequence

REPO_ROOT = Path(__file__).resolve().parent.parent
_DEFAULTS = {"gaviota": "GAVIOTA_PATH", "syzygy": "SYZYGY_PATH"}


def reference_folder(kind: str) -> Path:
    """Folder of the ``gaviota`` or ``syzygy`` reference tables (may not exist)."""
    default = REPO_ROOT.parent / "shared" / "tablebases" / kind
    return Path(os.environ.get(_DEFAULTS[kind], default))


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


def random_legal_boards(material: Material, count: int, white_to_move: bool, seed: int) -> List[chess.Board]:
    """``count`` random positions of ``material`` that python-chess calls valid."""
    rng = random.Random(seed)
    letters = "Kk" + material.white
    boards = []
    while len(boards) < count:
        squares = rng.sample(range(64), len(letters))
        board = chess.Board(None)
        for square, letter in zip(squares, letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = white_to_move
        if board.is_valid():
            boards.append(board)
    return boards


def gaviota_n(gaviota: NativeGaviota, board: chess.Board) -> int:
    """Gaviota's answer for a board as the thesis's n (-1 where White cannot force mate)."""
    material = material_of_board(board)
    squares = board_squares(board, material.piece_list)
    gaviota.set_material(material.white)
    return gaviota.white_mates_in([squares[0]] + squares[2:], squares[1], board.turn == chess.WHITE)


def _sample(sequence: SnSequence, reference: str, count: int, seed: int,
            answer: Callable[[chess.Board], int], agrees: Callable[[int, int, chess.Board], bool]) -> Comparison:
    """Random legal boards, both sides to move, looked up through the public API and compared."""
    result = Comparison(sequence.material.name, reference)
    start = time.perf_counter()
    for white_to_move in (True, False):
        for board in random_legal_boards(sequence.material, count, white_to_move, seed):
            ours, theirs = sequence.find_board(board), answer(board)
            result.checked += 1
            if not agrees(ours, theirs, board):
                result.mismatches.append((board.fen(), ours, theirs))
    result.seconds = time.perf_counter() - start
    return result


def sample_against_gaviota(sequence: SnSequence, gaviota: NativeGaviota, count: int, seed: int = 1) -> Comparison:
    """Our n equals Gaviota's depth to mate exactly (both -1 where White cannot force mate)."""
    return _sample(sequence, "gaviota", count, seed, lambda board: gaviota_n(gaviota, board),
                   lambda ours, theirs, board: ours == theirs)


def sample_against_syzygy(sequence: SnSequence, syzygy: chess.syzygy.Tablebase, count: int, seed: int = 2) -> Comparison:
    """In some S_n exactly when Syzygy's WDL says White wins (cursed wins included)."""

    def agrees(ours: int, wdl: int, board: chess.Board) -> bool:
        white_wins = wdl > 0 if board.turn == chess.WHITE else wdl < 0
        return (ours >= 0) == white_wins

    return _sample(sequence, "syzygy", count, seed, syzygy.probe_wdl, agrees)


def exhaustive_against_gaviota(table: DtmTable, gaviota: NativeGaviota, chunk: int = 1 << 18) -> Comparison:
    """Every legal entry of the table (every position up to symmetry), both sides to move."""
    material, layout = table.material, table.layout
    result = Comparison(material.name, "gaviota")
    start = time.perf_counter()
    gaviota.set_material(material.white)
    probe = gaviota.white_mates_in
    for white_to_move, array in ((True, table.dtm_white), (False, table.dtm_black)):
        for first in range(0, layout.size, chunk):
            index = np.arange(first, min(first + chunk, layout.size), dtype=np.int64)
            squares = layout.decode(index)
            if white_to_move:
                legal = white_to_move_legal(layout.letters, squares)
            else:
                legal = black_to_move_legal_and_check(layout.letters, squares)[0]
            ours = array[index[legal]].astype(np.int64)
            ours[ours == UNKNOWN] = -1
            columns = [s[legal].tolist() for s in squares]
            white_columns = [columns[0]] + columns[2:]
            for k, (black_king, *white) in enumerate(zip(columns[1], *white_columns)):
                theirs = probe(white, black_king, white_to_move)
                if theirs != ours[k]:
                    result.mismatches.append((_fen(layout.letters, [c[k] for c in columns], white_to_move),
                                              int(ours[k]), theirs))
            result.checked += len(columns[0])
    result.seconds = time.perf_counter() - start
    return result


def _fen(letters: str, squares: List[int], white_to_move: bool) -> str:
    board = chess.Board(None)
    for square, letter in zip(squares, letters):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = white_to_move
    return board.fen()


def open_syzygy(folder: Optional[Path] = None) -> chess.syzygy.Tablebase:
    return chess.syzygy.open_tablebase(str(folder or reference_folder("syzygy")))
