"""python-chess boards as the kernels' arrays, and the kernels' moves as python-chess moves.

:func:`tables` builds the attack and key tables once per process; :class:`Arrays` holds one position (and
the keys of the game before it, for repetitions) as the kernels take it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, NamedTuple, Optional

import chess
import chess.polyglot
import numpy as np

from .kernels.bitboards import build_tables
from .kernels.move import CASTLING, DOUBLE, EN_PASSANT, NORMAL, encode, from_square, kind_of, promotion_of, to_square
from .kernels.position import (BOARD, CASTLE, EMPTY, EP, HALFMOVE, KEYS, KING_SIDE_KING, MAX_HISTORY, PLY,
                               POS_SIZE, QUEEN_SIDE_KING, RIGHTS_MASK, ROOK_FILES, SIDE, STATE_SIZE, compute_key)


@lru_cache(maxsize=1)
def tables() -> np.ndarray:
    """The kernels' tables (attacks, magics, Polyglot's random numbers), built once per process."""
    return build_tables(np.array(chess.polyglot.POLYGLOT_RANDOM_ARRAY, dtype=np.uint64))


class Arrays(NamedTuple):
    """One position as the kernels take it (see :mod:`.kernels.position` for the arrays' layout)."""
    bb: np.ndarray
    st: np.ndarray

    @property
    def key(self) -> int:
        """The position's Polyglot key."""
        return int(self.bb[KEYS + self.st[PLY]])


def piece_code(piece: chess.Piece) -> int:
    return (0 if piece.color == chess.WHITE else 6) + piece.piece_type - 1


def capturable_ep(board: chess.Board):
    """The en passant square when a pawn of the side to move stands ready to take there (Polyglot's rule),
    else None."""
    square = board.ep_square
    if square is None:
        return None
    beside = chess.BB_PAWN_ATTACKS[not board.turn][square] & board.pawns & board.occupied_co[board.turn]
    return square if beside else None


def to_arrays(board: chess.Board, history: bool = True) -> Arrays:
    """The arrays of ``board``; with ``history`` the keys of the positions before it since the last capture
    or pawn move (from ``board.move_stack``) come first, so the kernels see repetitions of the game.

    Chess960 positions are taken as they are (their castling rooks from python-chess's rights).  Raises
    ValueError for a board python-chess calls invalid (no king, side not to move in check, ...), its
    status naming what is wrong; a check it calls impossible is accepted."""
    # a check python-chess calls impossible (two sliders, ...) is still a position the kernels handle
    status = board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK
    if status != chess.STATUS_VALID:
        raise ValueError(f"invalid position {board.fen()!r}: {status!r}; give a legal position")
    bb = np.zeros(POS_SIZE, np.uint64)
    st = np.zeros(STATE_SIZE, np.int64)
    st[BOARD:BOARD + 64] = EMPTY
    for square, piece in board.piece_map().items():
        code = piece_code(piece)
        st[BOARD + square] = code
        bb[code] |= np.uint64(1 << square)
        bb[12 + code // 6] |= np.uint64(1 << square)
    bb[14] = bb[12] | bb[13]
    st[SIDE] = 0 if board.turn == chess.WHITE else 1
    set_castling(board, st)
    ep = capturable_ep(board)
    st[EP] = -1 if ep is None else ep
    st[HALFMOVE] = board.halfmove_clock
    earlier: List[int] = []
    if history:
        copy = board.copy()
        while copy.move_stack and len(earlier) < min(board.halfmove_clock, MAX_HISTORY // 2):
            copy.pop()
            earlier.append(chess.polyglot.zobrist_hash(copy))
    bb[KEYS:KEYS + len(earlier)] = earlier[::-1]
    st[PLY] = len(earlier)
    bb[KEYS + st[PLY]] = compute_key(bb, st, tables())
    return Arrays(bb, st)


def set_castling(board: chess.Board, st: np.ndarray) -> None:
    """The castling rights of ``board`` into ``st``: the rights' bits, the rooks' files, and the rights each
    square keeps when a move leaves or reaches it (see :mod:`.kernels.position`)."""
    st[RIGHTS_MASK:RIGHTS_MASK + 64] = 15
    rights, files = 0, 0
    for side, color in ((0, chess.WHITE), (1, chess.BLACK)):
        king = board.king(color)
        rooks = board.clean_castling_rights() & chess.BB_BACKRANKS & board.occupied_co[color]
        for square in chess.scan_forward(rooks):
            right = 0 if chess.square_file(square) > chess.square_file(king) else 1  # king side: bit 0
            bit = 1 << (2 * side + right)
            rights |= bit
            files |= chess.square_file(square) << (3 * (2 * side + right))
            st[RIGHTS_MASK + square] &= ~bit
            st[RIGHTS_MASK + king] &= ~bit
    st[CASTLE], st[ROOK_FILES] = rights, files


def to_move(move: int, board: Optional[chess.Board] = None) -> chess.Move:
    """The python-chess move of a kernel move; on a Chess960 ``board`` (the position it is played in) a
    castling is the king taking its rook, as python-chess and UCI_Chess960 write it."""
    promotion = promotion_of(move)
    frm, to = from_square(move), to_square(move)
    if kind_of(move) == CASTLING and board is not None and board.chess960:
        king_side = chess.square_file(to) == KING_SIDE_KING
        rooks = board.clean_castling_rights() & chess.BB_RANKS[chess.square_rank(frm)] & board.occupied_co[board.turn]
        for rook in chess.scan_forward(rooks):
            if (chess.square_file(rook) > chess.square_file(frm)) == king_side:
                return chess.Move(frm, rook)
    return chess.Move(frm, to, promotion + 1 if promotion else None)


def from_move(board: chess.Board, move: chess.Move) -> int:
    """The kernel move of a legal python-chess move on ``board``."""
    kind = NORMAL
    to = move.to_square
    if board.is_castling(move):
        kind = CASTLING
        home = chess.square_rank(move.from_square) * 8
        to = home + (KING_SIDE_KING if board.is_kingside_castling(move) else QUEEN_SIDE_KING)
    elif board.is_en_passant(move):
        kind = EN_PASSANT
    elif board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        kind = DOUBLE
    promotion = move.promotion - 1 if move.promotion else 0
    return int(encode(move.from_square, to, promotion, kind))
