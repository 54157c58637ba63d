"""The thesis's look-up API: S_n sequences, finding a board's n, the AI's move.

``load_s_n_sequence(filename)`` returns an :class:`SnSequence`; item n is
the set S_n of board integers (:mod:`Util.board_int`), supporting
``board_int in s_n``, ``len(s_n)`` (distinct boards) and iteration.
A membership test folds the board by symmetry and reads one byte from the
table, so it costs microseconds, not a search.
"""

from __future__ import annotations

import os
from collections.abc import Sequence as SequenceABC
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

import chess
import numpy as np

from .board_int import BoardIntError, board_squares, integer_squares
from .calculation import RESULTS_DIR, TableStore
from .chessai_file import load_table
from .expansion import board_counts, boards_in_s_n
from .material import Material, MaterialError, material_of_board
from .retrograde import UNKNOWN, DtmTable


class SnSet:
    """One S_n: the boards (as integers) that are mated in exactly n plies."""

    def __init__(self, sequence: "SnSequence", n: int):
        self.sequence, self.n = sequence, n

    def __contains__(self, board_int: object) -> bool:
        try:
            return self.sequence.find_integer(board_int) == self.n  # type: ignore[arg-type]
        except BoardIntError:
            return False

    def __len__(self) -> int:
        return self.sequence.board_counts.get(self.n, 0)

    def __iter__(self) -> Iterator[int]:
        return (int(x) for x in boards_in_s_n(self.sequence.table, self.n))

    def __repr__(self) -> str:
        return f"<S_{self.n} of {self.sequence.material}: {len(self)} boards>"


class SnSequence(SequenceABC):
    """All S_n of one material: ``sequence[n]`` is S_n, ``len(sequence)`` is the largest n plus one."""

    def __init__(self, table: DtmTable, board_counts: Dict[int, int], store: Optional[TableStore] = None,
                 path: Optional[Path] = None):
        self.table = table
        self.material: Material = table.material
        self.piece_list = self.material.piece_list
        self.board_counts = board_counts
        self.path = path
        self.store = store or TableStore(path.parent if path else None)
        self.store.add(table)

    @classmethod
    def from_store(cls, store: TableStore, material) -> "SnSequence":
        """The sequence of ``material`` from a store (loaded from its folder or computed in memory)."""
        table = store.get(material)
        return cls(table, board_counts(table), store=store)

    def __len__(self) -> int:
        return max(self.board_counts, default=-1) + 1

    def __getitem__(self, n):  # type: ignore[override]
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(len(self)))]
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(f"S_{n} does not exist for {self.material}: n runs from 0 to {len(self) - 1}")
        return SnSet(self, n)

    def find_integer(self, board_int: int) -> int:
        """n of the S_n holding this board integer of this material, or -1."""
        if not isinstance(board_int, (int, np.integer)) or isinstance(board_int, bool):
            raise BoardIntError(f"a board integer must be an int, not {type(board_int).__name__}")
        count = self.material.piece_count
        if board_int < 0 or int(board_int) >> (6 * count + 1):
            raise BoardIntError(f"{board_int} is no board integer of {self.material}")
        squares = integer_squares(int(board_int), count)
        return _lookup(self.table, squares, bool(board_int & 1))

    def find_board(self, board: chess.Board) -> int:
        """n of the S_n holding this board, of any material with a lone black king; -1 if in none."""
        material = material_of_board(board)
        table = self.table if material == self.material else self.store.get(material)
        return _lookup(table, board_squares(board, material.piece_list), board.turn == chess.WHITE)


def _lookup(table: DtmTable, squares, white_to_move: bool) -> int:
    if len(set(squares)) != len(squares):  # only from a board integer; a board never has that
        return -1
    value = int(table.dtm([np.array([s]) for s in squares], white_to_move)[0])
    return -1 if value == UNKNOWN else value


def load_s_n_sequence(filename: os.PathLike) -> SnSequence:
    """Load a ``.chessAI`` file: a path, or a material name looked up in ``S_n_Results/``."""
    path = Path(filename)
    if not path.exists() and path.suffix != ".chessAI":
        candidate = RESULTS_DIR / f"{path.name}.chessAI"
        try:
            candidate = RESULTS_DIR / f"{Material.parse(path.name).name}.chessAI"
        except MaterialError:
            pass
        path = candidate if candidate.exists() else path
    table, counts = load_table(path)
    return SnSequence(table, counts, path=path)


def find_situation_in_sequence(board_int: int, s_n_sequence: SnSequence) -> int:
    """n with ``board_int`` in S_n, or -1 (the thesis's function)."""
    try:
        return s_n_sequence.find_integer(board_int)
    except BoardIntError:
        return -1


def find_next_move(board: chess.Board, s_index: int, s_n_sequence: SnSequence) -> Tuple[int, Optional[chess.Move]]:
    """A legal White move from S_``s_index`` into S_(``s_index``-1): ``(s_index - 1, move)``, else ``(-1, None)``.

    Promotions count too: the child is then looked up in the promoted
    material's table.  Moves are tried in python-chess's order, so the
    answer is deterministic.
    """
    if s_index <= 0 or board.turn != chess.WHITE:
        return -1, None
    target = s_index - 1
    for move in board.legal_moves:
        board.push(move)
        try:
            found = s_n_sequence.find_board(board)
        finally:
            board.pop()
        if found == target:
            return target, move
    return -1, None
