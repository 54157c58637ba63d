"""The thesis's integer representation of a board (``to_integer`` / ``to_board``).

A board of the pieces in ``PIECE_LIST`` becomes one Python int: the square
(0-63, a1 = 0) of each piece in PIECE_LIST order, 6 bits each, the first
piece in the highest bits, followed by one bit for the side to move
(1 = White)::

    board_int = (((sq_0 << 6 | sq_1) << 6 | ...) << 1) | white_to_move

Identical pieces (two bishops of one colour) take their squares in
ascending order, so every board has exactly one integer.
"""

from __future__ import annotations

from typing import List, Sequence

import chess
import numpy as np

__all__ = ["BoardIntError", "board_squares", "to_integer", "integer_squares", "to_board", "encode_integers",
           "board_int_bits", "integer_fields"]


class BoardIntError(ValueError):
    """A board that does not fit the piece list, or an int that is no board of it."""


def _letters(piece_list: Sequence[chess.Piece]) -> List[str]:
    return [p.symbol() for p in piece_list]


def board_squares(board: chess.Board, piece_list: Sequence[chess.Piece]) -> List[int]:
    """The square of each piece of ``piece_list``, identical pieces in ascending order.

    BoardIntError if the board holds other pieces than the list.
    """
    letters = _letters(piece_list)
    by_letter = {}
    for square, piece in sorted(board.piece_map().items()):
        by_letter.setdefault(piece.symbol(), []).append(square)
    want = {c: letters.count(c) for c in letters}
    have = {c: len(s) for c, s in by_letter.items()}
    if want != have:
        raise BoardIntError(
            f"the board has pieces {_describe(have)} but the piece list is {_describe(want)}; "
            "use the table (piece list) of the board's material"
        )
    taken = {c: 0 for c in want}
    squares = []
    for c in letters:
        squares.append(by_letter[c][taken[c]])
        taken[c] += 1
    return squares


def to_integer(board: chess.Board, piece_list: Sequence[chess.Piece]) -> int:
    """The board's integer for ``piece_list``; BoardIntError if the board holds other pieces."""
    value = 0
    for square in board_squares(board, piece_list):
        value = (value << 6) | square
    return (value << 1) | int(board.turn == chess.WHITE)


def integer_squares(board_int: int, piece_count: int) -> List[int]:
    """The squares stored in a board integer, in piece-list order (no checks)."""
    rest = board_int >> 1
    squares = []
    for _ in range(piece_count):
        squares.append(rest & 63)
        rest >>= 6
    return squares[::-1]


def to_board(board_int: int, piece_list: Sequence[chess.Piece]) -> chess.Board:
    """The board of an integer made by :func:`to_integer`; BoardIntError if it is none."""
    letters = _letters(piece_list)
    if not isinstance(board_int, (int, np.integer)) or isinstance(board_int, bool):
        raise BoardIntError(f"a board integer must be an int, not {type(board_int).__name__}")
    board_int = int(board_int)
    if board_int < 0 or board_int >> (6 * len(letters) + 1):
        raise BoardIntError(
            f"{board_int} does not fit {len(letters)} pieces (it must lie in 0..2**{6 * len(letters) + 1}-1)"
        )
    squares = integer_squares(board_int, len(letters))
    if len(set(squares)) != len(squares):
        raise BoardIntError(f"{board_int} puts two pieces on one square ({_square_list(letters, squares)})")
    for c in set(letters):
        same = [s for s, d in zip(squares, letters) if d == c]
        if same != sorted(same):
            raise BoardIntError(
                f"{board_int} lists identical pieces {c} out of square order; to_integer never makes it"
            )
    board = chess.Board(None)
    for square, c in zip(squares, letters):
        board.set_piece_at(square, chess.Piece.from_symbol(c))
    board.turn = bool(board_int & 1)
    return board


def _describe(counts: dict) -> str:
    return "".join(c * n for c, n in sorted(counts.items())) or "none"


def _square_list(letters, squares) -> str:
    return ", ".join(f"{c}{chess.square_name(s)}" for c, s in zip(letters, squares))


def encode_integers(squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
    """Vectorised :func:`to_integer` for squares already in piece-list order (identical pieces sorted).

    Returns Python-int-compatible int64 values (at most 5 pieces: 31 bits).
    """
    value = np.zeros(np.shape(squares[0]), dtype=np.int64)
    for s in squares:
        value = (value << 6) | np.asarray(s, dtype=np.int64)
    return (value << 1) | int(white_to_move)


def board_int_bits(piece_list: Sequence[chess.Piece]) -> int:
    """How many bits a board integer of ``piece_list`` has: 6 per piece and 1 for the side to move
    (25 for KBNvK).  Printed with this many digits, leading zeros included, it lines up with
    :func:`integer_fields`."""
    return 6 * len(piece_list) + 1


def integer_fields(board_int: int, piece_list: Sequence[chess.Piece]) -> List[tuple]:
    """The parts of a board integer, for explaining it: ``(piece, square name, 6 bits)`` per piece,
    then ``("turn", "white"/"black", 1 bit)``."""
    board = to_board(board_int, piece_list)  # validates
    squares = integer_squares(int(board_int), len(piece_list))
    rows = [(p.symbol(), chess.square_name(s), format(s, "06b")) for p, s in zip(piece_list, squares)]
    rows.append(("turn", "white" if board.turn else "black", str(int(board.turn))))
    return rows
