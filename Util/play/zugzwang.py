"""Mutual zugzwangs: positions where the side to move does worse than if the other side were to move.

KPvKP's key positions are of this kind: whoever is to move would rather pass.  :func:`mutual_zugzwangs`
counts them in a whole table (in boards, mirror images too), :func:`mutual_zugzwang_positions` in stored
positions, :func:`mutual_zugzwang_examples` shows some, :func:`is_mutual_zugzwang` asks of one board, and
:func:`opposition_in_front_of_pawn` names the classic pattern among them.
"""

from __future__ import annotations

from typing import List

import chess
import numpy as np

from ..sequence import SnSequence
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from .verdicts import position_outcome

__all__ = ["mutual_zugzwangs", "mutual_zugzwang_positions", "opposition_in_front_of_pawn",
           "mutual_zugzwang_examples", "is_mutual_zugzwang"]


def _result_for_white(dtm: np.ndarray, white_to_move: bool) -> np.ndarray:
    """+1 where White wins, -1 where it loses, 0 for a draw (or no legal position), from one DTM array."""
    value = dtm.astype(np.int16)
    mover_wins = np.where(value == UNKNOWN, 0, np.where(value % 2 == 1, 1, -1))
    return mover_wins if white_to_move else -mover_wins


def _zugzwang_entries(table: DtmTable, chunk: int = 1 << 22):
    """Per chunk of the index: the entries whose placement is a mutual zugzwang (both sides to move legal,
    White to move worse for White than Black to move)."""
    from ..rules.legality import legality

    layout, letters = table.layout, table.material.letters
    for start in range(0, table.dtm_white.size, chunk):
        white = _result_for_white(table.dtm_white[start : start + chunk], True)
        black = _result_for_white(table.dtm_black[start : start + chunk], False)
        index = start + np.flatnonzero(white < black)
        if index.size:
            white_ok, black_ok = legality(letters, layout.decode(index))[:2]
            yield index[white_ok & black_ok]


def mutual_zugzwangs(table: DtmTable) -> int:
    """How many boards of ``table`` are mutual zugzwangs: White to move does worse for White than Black
    to move (a draw instead of a win, a loss instead of a draw or win), so whoever is to move would
    rather pass.  Both sides to move must be legal positions; counted in boards, as ``stats`` counts."""
    from ..calculation.boards import board_weights

    return sum(int(board_weights(table.layout, index).sum()) for index in _zugzwang_entries(table))


def mutual_zugzwang_positions(table: DtmTable) -> int:
    """How many stored positions of ``table`` are mutual zugzwangs: one per symmetry class (the white king
    on its canonical squares), where :func:`mutual_zugzwangs` counts every board, mirror images too."""
    return sum(int(index.size) for index in _zugzwang_entries(table))


def opposition_in_front_of_pawn(board: chess.Board) -> bool:
    """Whether ``board`` has White's king directly in front of a white pawn and Black's king two squares
    further up the same file (the kings in opposition in front of the pawn).  False without a white pawn."""
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    if white_king is None or black_king is None or chess.square_rank(white_king) > 5:
        return False
    return (black_king == white_king + 16
            and any(white_king == pawn + 8 for pawn in board.pieces(chess.PAWN, chess.WHITE)))


def mutual_zugzwang_examples(table: DtmTable, limit: int = 5) -> List[chess.Board]:
    """Up to ``limit`` mutual zugzwangs of ``table`` (White to move), in index order."""
    from ..board.integer import to_board
    from ..board.integer import encode_integers

    found: List[chess.Board] = []
    for index in _zugzwang_entries(table):
        squares = table.layout.decode(index[: limit - len(found)])
        for board_int in encode_integers(squares, True).tolist():
            found.append(to_board(board_int, table.material.piece_list))
        if len(found) >= limit:
            break
    return found


def is_mutual_zugzwang(board: chess.Board, sequence: SnSequence) -> bool:
    """Whether ``board``'s placement is a mutual zugzwang (see :func:`mutual_zugzwangs`): both sides to
    move legal, and White to move worse for White than Black to move."""
    other = board.copy(stack=False)
    other.turn = not board.turn
    other.ep_square = None
    if not (board.is_valid() and other.is_valid()):
        return False
    white, black = (board, other) if board.turn == chess.WHITE else (other, board)
    white_result = position_outcome(white, sequence)[0]
    black_result_for_white = -position_outcome(black, sequence)[0]
    return white_result < black_result_for_white
