"""The thesis's look-up API: S_n sequences, finding a board's n, the AI's move.

``load_s_n_sequence(filename)`` returns an :class:`SnSequence`; item n is
the set S_n of board integers (:mod:`Util.board.integer`), supporting
``board_int in s_n``, ``len(s_n)`` (distinct boards) and iteration.
A membership test folds the board by symmetry and reads one byte from the
table, so it costs microseconds, not a search.

With pieces on both sides either side may mate.  ``sequence[n]`` are the
thesis's sets, in which White mates; ``sequence.black[n]`` are the same
sets with the colours exchanged: odd n, Black to move mates in n plies;
even n, White to move is mated in n plies.  ``sequence.dtm(board)`` gives
the signed depth to mate exactly as python-chess's ``chess.gaviota``
reports it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence as SequenceABC
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Tuple

import chess
import numpy as np

from .board.integer import BoardIntError, board_squares, integer_squares
from .folders import RESULTS_DIR
from .board.material import Material, MaterialError, material_of_board
from .tablebase import Tablebase, dtm_with_en_passant

if TYPE_CHECKING:
    from .table.dtm_table import DtmTable
    from .table.protocols import PositionTable, TableSource

__all__ = ["SnSet", "SnSequence", "load_s_n_sequence", "find_situation_in_sequence", "find_next_move"]


class SnSet:
    """One S_n: the boards (as integers) in which the sequence's winner mates in exactly n plies."""

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
        from .calculation.boards import boards_in_s_n  # the scan's machinery, which a probe does not need

        return (int(x) for x in boards_in_s_n(self.sequence.table, self.n, self.sequence.winner == chess.WHITE))

    def __repr__(self) -> str:
        return f"<S_{self.n} of {self.sequence.material}: {len(self)} boards>"


class SnSequence(SequenceABC):
    """All S_n of one material in which ``winner`` mates: ``sequence[n]`` is S_n, ``len(sequence)`` is the
    largest n plus one.  ``sequence.black`` is the sequence of the sets in which Black mates."""

    def __init__(self, table: "PositionTable", board_counts: Dict[int, int], store: Optional["TableSource"] = None,
                 path: Optional[Path] = None, board_counts_black: Optional[Dict[int, int]] = None,
                 winner: chess.Color = chess.WHITE):
        """``table``: a :class:`~Util.table.protocols.PositionTable` (a :class:`Util.table.dtm_table.DtmTable` or a
        :class:`Util.probing.block_table.BlockTable`); ``store``: a :class:`~Util.table.protocols.TableSource`, where
        the tables that captures and promotions lead into come from (a :class:`Util.tablebase.Tablebase`, or a
        :class:`Util.calculation.store.TableStore` that computes them); by default a Tablebase over the
        folder of ``path`` (or ``S_n_Results``) that computes a missing table in memory."""
        self.table = table
        self.material: Material = table.material
        self.piece_list = self.material.piece_list
        self.winner = winner
        self.counts_by_winner = {chess.WHITE: board_counts, chess.BLACK: board_counts_black or {}}
        self.board_counts = self.counts_by_winner[winner]
        self.path = path
        self.store = store or Tablebase(path.parent if path else RESULTS_DIR, compute_missing=True)
        self.store.add(table)

    @classmethod
    def from_store(cls, store: "TableSource", material) -> "SnSequence":
        """The sequence of ``material`` from a store: a :class:`Util.tablebase.Tablebase` (its file read
        block by block, the counts from its header) or a :class:`Util.calculation.store.TableStore` (loaded
        whole or computed in memory, the boards counted)."""
        white, black = store.counts(material)
        return cls(store.table(material), white, store=store, board_counts_black=black)

    def for_winner(self, winner: chess.Color) -> "SnSequence":
        """The sequence of the same table whose S_n are those in which ``winner`` mates."""
        if winner == self.winner:
            return self
        return SnSequence(self.table, self.counts_by_winner[chess.WHITE], self.store, self.path,
                          self.counts_by_winner[chess.BLACK], winner)

    @property
    def white(self) -> "SnSequence":
        """The thesis's sets: White mates."""
        return self.for_winner(chess.WHITE)

    @property
    def black(self) -> "SnSequence":
        """The sets in which Black mates (odd n: Black to move mates in n; even n: White to move is mated)."""
        return self.for_winner(chess.BLACK)

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

    def _for_me(self, value: int, turn: chess.Color) -> int:
        """``value`` (n, odd when the side to move mates) if this sequence's winner is the one who mates."""
        if value < 0:
            return -1
        mates = turn if value % 2 == 1 else not turn
        return value if mates == self.winner else -1

    def find_integer(self, board_int: int) -> int:
        """n of the S_n holding this board integer of this material, or -1."""
        if not isinstance(board_int, (int, np.integer)) or isinstance(board_int, bool):
            raise BoardIntError(f"a board integer must be an int, not {type(board_int).__name__}")
        count = self.material.piece_count
        if board_int < 0 or int(board_int) >> (6 * count + 1):
            raise BoardIntError(f"{board_int} is no board integer of {self.material}")
        squares = integer_squares(int(board_int), count)
        white_to_move = bool(board_int & 1)
        return self._for_me(_lookup(self.table, squares, white_to_move), chess.WHITE if white_to_move else chess.BLACK)

    def find_board(self, board: chess.Board) -> int:
        """n of the S_n (in which this sequence's winner mates) holding this board, of any material the
        store has or can compute, either colour order; -1 if in none."""
        return self._for_me(self.value(board), board.turn)

    def value(self, board: chess.Board) -> int:
        """The board's n whoever mates (odd: the side to move mates; even: it is mated), -1 for a draw.
        A board whose en passant capture is legal gets the value with that capture (see :meth:`dtm`)."""
        if any(True for _ in board.generate_legal_ep()):
            signed = self.dtm(board)
            if signed == 0:
                return 0 if board.is_checkmate() else -1
            return abs(signed)
        return self._value_without_ep(board)

    def values(self, boards: List[chess.Board]) -> np.ndarray:
        """:meth:`value` of many boards (int64), with one table lookup per material and side to move
        instead of one per board: tens of times faster for thousands of boards."""
        out = np.empty(len(boards), dtype=np.int64)
        tables: Dict[tuple, Tuple["DtmTable", bool]] = {}  # pieces on the board -> table, colours swapped
        groups: Dict[tuple, Tuple["DtmTable", list]] = {}
        for i, board in enumerate(boards):
            if board.ep_square is not None and any(True for _ in board.generate_legal_ep()):
                out[i] = self.value(board)
                continue
            squares = _squares_by_letter(board)
            key = tuple((letter, len(found)) for letter, found in squares.items())
            if key not in tables:
                material = material_of_board(board)
                table = self.table if material == self.material else self.store.table(material)
                tables[key] = table, material != table.material
            table, swapped = tables[key]
            white_to_move = board.turn == chess.WHITE
            if swapped:  # looked up as the mirrored board: colours and ranks exchanged
                squares = {letter.swapcase(): sorted(sq ^ 56 for sq in found) for letter, found in squares.items()}
                white_to_move = not white_to_move
            _, items = groups.setdefault((table.material.name, white_to_move), (table, []))
            items.append((i, [squares[letter].pop(0) for letter in table.material.letters]))
        for (_, white_to_move), (table, items) in groups.items():
            where = np.array([i for i, _ in items])
            squares = np.array([s for _, s in items], dtype=np.int64).reshape(len(items), -1)
            found = table.dtm([squares[:, piece] for piece in range(squares.shape[1])], white_to_move)
            out[where] = np.where(found == table.unknown, -1, found.astype(np.int64))
        return out

    def _value_without_ep(self, board: chess.Board) -> int:
        if isinstance(self.store, Tablebase) and self.store.serves(self.table):
            return self.store.probe_value(board)  # its lookup plan per material: a few microseconds
        material = material_of_board(board)
        table = self.table if material == self.material else self.store.table(material)
        if material != table.material:  # stored with the colours the other way round
            board = board.mirror()
        return _lookup(table, board_squares(board, table.material.piece_list), board.turn == chess.WHITE)

    def best_line(self, board: chess.Board) -> List[chess.Move]:
        """The moves of best play from ``board`` to mate: the side that mates always takes a fastest mate,
        the other side a longest defence, so each move goes from n into n-1 (through captures and
        promotions too).  Empty for a draw or a finished game.  Moves are tried in python-chess's order."""
        board, line = board.copy(stack=False), []
        n = self.value(board)
        while n > 0:
            for move in board.legal_moves:
                board.push(move)
                if self.value(board) == n - 1:
                    line.append(move)
                    break
                board.pop()
            else:
                raise RuntimeError(f"{board.fen()}: no move leads from n = {n} to {n - 1}; the table is inconsistent")
            n -= 1
        return line

    def dtm(self, board: chess.Board) -> int:
        """Signed depth to mate as python-chess's ``chess.gaviota`` gives it: +n when the side to move
        mates in n plies, -n when it is mated in n, 0 for a draw or a checkmated side to move.

        A legal en passant capture is one more move of the position: as in
        python-chess, the value without it is combined with each capture's.
        """
        return dtm_with_en_passant(board, self._value_without_ep)


def _lookup(table: "DtmTable", squares, white_to_move: bool) -> int:
    """The table's n of one position (odd: the side to move mates), -1 for a draw."""
    if len(set(squares)) != len(squares):  # only from a board integer; a board never has that
        return -1
    value = table.value(squares, white_to_move)
    return -1 if value == table.unknown else value


def load_s_n_sequence(filename: os.PathLike) -> SnSequence:
    """Open a ``.chessAI`` file: a path, or a material name looked up in ``S_n_Results/``.  A file of
    format 4 is read block by block as positions are looked up (a few milliseconds to open, whatever
    its size); the tables that captures and promotions lead into are taken from the same folder."""
    path = Path(filename)
    if not path.exists() and path.suffix != ".chessAI":
        candidate = RESULTS_DIR / f"{path.name}.chessAI"
        try:
            candidate = RESULTS_DIR / f"{Material.parse(path.name).canonical.name}.chessAI"
        except MaterialError:
            pass
        path = candidate if candidate.exists() else path
    tablebase = Tablebase(path.parent, compute_missing=True)
    table = tablebase.open_file(path)
    white, black = tablebase.counts(table.material)
    return SnSequence(table, white, store=tablebase, path=path, board_counts_black=black)


def find_situation_in_sequence(board_int: int, s_n_sequence: SnSequence) -> int:
    """n with ``board_int`` in S_n, or -1 (the thesis's function)."""
    try:
        return s_n_sequence.find_integer(board_int)
    except BoardIntError:
        return -1


def find_next_move(board: chess.Board, s_index: int, s_n_sequence: SnSequence) -> Tuple[int, Optional[chess.Move]]:
    """A legal move of the winner from S_``s_index`` into S_(``s_index``-1): ``(s_index - 1, move)``, else
    ``(-1, None)``.  The winner is White (the thesis), or Black for ``s_n_sequence.black``.

    Promotions count too: the child is then looked up in the promoted
    material's table.  Moves are tried in python-chess's order, so the
    answer is deterministic.
    """
    if s_index <= 0 or board.turn != s_n_sequence.winner:
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


def _squares_by_letter(board: chess.Board) -> Dict[str, List[int]]:
    """Each kind of piece on the board (``"K"``, ``"r"``, ...) with its squares in ascending order."""
    squares = {}
    for color in chess.COLORS:
        for piece_type in chess.PIECE_TYPES:
            mask = board.pieces_mask(piece_type, color)
            if mask:
                letter = chess.piece_symbol(piece_type)
                squares[letter.upper() if color else letter] = list(chess.scan_forward(mask))
    return squares
