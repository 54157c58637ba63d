"""Probe any position up to six pieces from a folder of ``.chessAI`` files, as python-chess probes Gaviota.

::

    from Util.tablebase import open_tablebase

    with open_tablebase("S_n_Results") as tablebase:
        tablebase.probe_dtm(board)       # +n: the side to move mates in n plies; -n: it is mated in n
        tablebase.probe_wdl(board)       # 1 win, 0 draw, -1 loss for the side to move
        tablebase.probe_moves(board)     # every legal move with its outcome, best first

A probe finds the material's file (either colour order: ``KvKQ`` is read as
``KQvK`` with the board mirrored), reads the one block that holds the
position and keeps decoded blocks in a least-recently-used cache with a
byte limit (``cache_bytes``).  Files are opened when first needed and read
with ``os.pread``; nothing is loaded whole.  A legal en passant capture is
one more move of the position, combined with the stored value exactly as
``chess.gaviota`` does.  One :class:`Tablebase` may be shared between
threads.

Files of format versions 1-3 (one deflate stream) are still read, whole,
with a note that ``python -m Util convert`` makes them random-access.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Union

import chess

from .probing.block_cache import DEFAULT_CACHE_BYTES
from .folders import RESULTS_DIR
from .board.material import Material, MaterialError, beyond_the_tables, material_of_board
from .probing.table_folder import MissingTableError, Table, TableFolder

__all__ = ["MissingTableError", "MoveProbe", "PositionError", "Table", "Tablebase", "dtm_with_en_passant",
           "open_tablebase"]


#: The most pieces (kings included) a table holds: six, in the compact tables of format 5.
MAX_BOARD_PIECES = 6


class PositionError(ValueError):
    """A position no table holds: more than six pieces, castling rights, or not a legal position."""


@dataclass(frozen=True)
class MoveProbe:
    """One legal move and the position after it, valued from the side to move *after* the move (as
    lichess's tablebase API gives it): ``dtm`` and ``wdl`` negative where the move wins."""

    move: chess.Move
    san: str
    dtm: int
    wdl: int
    checkmate: bool
    stalemate: bool
    insufficient_material: bool
    zeroing: bool
    conversion: bool

    @property
    def uci(self) -> str:
        return self.move.uci()

    def rank(self) -> tuple:
        """Sorts best first for the side that plays the move: fastest win, then draws, then the longest
        loss."""
        if self.wdl < 0 or self.checkmate:
            return (0, abs(self.dtm), self.uci)
        if self.wdl == 0:
            return (1, 0, self.uci)
        return (2, -self.dtm, self.uci)



class Tablebase(TableFolder):
    """The tables in ``directory`` (a :class:`Util.probing.table_folder.TableFolder`), probed position by position;
    see the module's docstring.  ``cache_bytes``: limit of the cache of decoded blocks shared by all
    tables."""

    def __init__(self, directory: Union[str, os.PathLike] = RESULTS_DIR, *,
                 cache_bytes: int = DEFAULT_CACHE_BYTES, compute_missing: bool = False) -> None:
        super().__init__(directory, cache_bytes=cache_bytes, compute_missing=compute_missing)
        self._pieces: dict = {}  # counts of each piece on the board -> (table, colours swapped, _lookup_plan)

    def add(self, table: Table) -> None:
        super().add(table)
        self._pieces.clear()

    def close(self) -> None:
        super().close()
        self._pieces.clear()

    def probe_value(self, board: chess.Board) -> int:
        """The stored n of ``board`` as it stands, ignoring en passant (odd: the side to move mates; even:
        it is mated), or -1 for a draw.  MissingTableError, PositionError as :meth:`probe_dtm`."""
        white, black = board.occupied_co
        pawns, knights, bishops, rooks, queens = board.pawns, board.knights, board.bishops, board.rooks, board.queens
        counts = ((pawns & white).bit_count(), (knights & white).bit_count(), (bishops & white).bit_count(),
                  (rooks & white).bit_count(), (queens & white).bit_count(), (pawns & black).bit_count(),
                  (knights & black).bit_count(), (bishops & black).bit_count(), (rooks & black).bit_count(),
                  (queens & black).bit_count())
        found = self._pieces.get(counts)
        if found is None:
            material, swapped, plan = _lookup_plan(_material(board))
            if material is None:
                return -1  # two bare kings
            found = self._pieces[counts] = (self.table(material), swapped, plan)
        table, swapped, plan = found
        squares = []
        for piece_type, colour, rank in plan:
            mask = board.pieces_mask(piece_type, colour)
            for _ in range(rank):
                mask &= mask - 1
            square = chess.lsb(mask)
            squares.append(square ^ 56 if swapped else square)
        value = table.value(squares, board.turn != swapped)
        return -1 if value == table.unknown else value

    def probe_dtm(self, board: chess.Board) -> int:
        """Signed depth to mate in plies, as ``chess.gaviota.probe_dtm``: +n when the side to move mates
        in n, -n when it is mated in n, 0 for a draw or when the side to move is checkmated.

        PositionError for castling rights, more than six pieces or an illegal position;
        MissingTableError when the table (of the position, or of one an en passant capture leads to)
        is not in the folder.
        """
        _check(board)
        return self._dtm_of_legal(board)

    def _dtm_of_legal(self, board: chess.Board) -> int:
        """:meth:`probe_dtm` of a board already known to be one a table holds."""
        return dtm_with_en_passant(board, self.probe_value)

    def get_dtm(self, board: chess.Board, default: Optional[int] = None) -> Optional[int]:
        """:meth:`probe_dtm`, or ``default`` where the table is missing or the position is not one a
        table holds."""
        try:
            return self.probe_dtm(board)
        except (MissingTableError, PositionError):
            return default

    def probe_wdl(self, board: chess.Board) -> int:
        """1 if the side to move wins, 0 for a draw, -1 if it loses (a checkmate on the board too), as
        ``chess.gaviota.probe_wdl``."""
        dtm = self.probe_dtm(board)
        if dtm == 0 and board.is_checkmate():
            return -1
        return (dtm > 0) - (dtm < 0)

    def get_wdl(self, board: chess.Board, default: Optional[int] = None) -> Optional[int]:
        """:meth:`probe_wdl`, or ``default`` where the table is missing or the position is not one of
        a table (too many pieces, illegal)."""
        try:
            return self.probe_wdl(board)
        except (MissingTableError, PositionError):
            return default

    def probe_moves(self, board: chess.Board) -> List[MoveProbe]:
        """Every legal move with the value of the position after it, best first for the side to move."""
        _check(board)
        probes = []
        for move in list(board.legal_moves):
            zeroing = board.is_zeroing(move)
            conversion = board.is_capture(move) or move.promotion is not None
            san = board.san_and_push(move)  # one push for the SAN, its check suffix and the probe
            try:
                checkmate = san.endswith("#")
                stalemate = not checkmate and not board.is_check() and not any(board.generate_legal_moves())
                insufficient = board.is_insufficient_material()
                # the position after a legal move is one a table holds: no need to check it again
                dtm = 0 if checkmate or stalemate else self._dtm_of_legal(board)
            finally:
                board.pop()
            wdl = -1 if checkmate else (dtm > 0) - (dtm < 0)
            probes.append(MoveProbe(move, san, dtm, wdl, checkmate, stalemate, insufficient, zeroing, conversion))
        return sorted(probes, key=MoveProbe.rank)

    def __enter__(self) -> "Tablebase":
        return self


def open_tablebase(directory: Union[str, os.PathLike] = RESULTS_DIR, *,
                   cache_bytes: int = DEFAULT_CACHE_BYTES) -> Tablebase:
    """A :class:`Tablebase` over ``directory`` (use it in a ``with`` block, or ``close()`` it)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory}: no such folder of tables; compute tables into it with: "
                                f"python -m Util calculate KQvK --results {directory}")
    return Tablebase(directory, cache_bytes=cache_bytes)


def _check(board: chess.Board) -> None:
    """PositionError unless the board is one a table can hold: no castling rights, at most six pieces, one
    king each, no pawn on the first or last rank, the side not to move not in check (checks that cannot
    arise from a move are held, as in Gaviota)."""
    if board.castling_rights:
        raise PositionError(f"{board.fen()}: castling rights ({board.castling_xfen()}); the tables hold positions "
                            f"without castling: write '-' in the FEN's castling field")
    count = chess.popcount(board.occupied)
    if count > MAX_BOARD_PIECES:
        raise PositionError(f"{board.fen()}: {count} pieces; the tables hold at most six, kings included")
    white_king, black_king = (board.kings & board.occupied_co[colour] for colour in (chess.WHITE, chess.BLACK))
    if chess.popcount(white_king) != 1 or chess.popcount(black_king) != 1:
        raise PositionError(f"{board.fen()}: not a legal position (each side needs exactly one king)")
    reason = beyond_the_tables(material_of_board(board)) if count == MAX_BOARD_PIECES else None
    if reason:  # six pieces that no table here holds (pawns; four identical pieces)
        raise PositionError(f"{board.fen()}: {reason}")
    if board.pawns & chess.BB_BACKRANKS:
        raise PositionError(f"{board.fen()}: not a legal position (a pawn on the first or last rank)")
    if board.is_attacked_by(board.turn, chess.lsb(black_king if board.turn == chess.WHITE else white_king)):
        raise PositionError(f"{board.fen()}: not a legal position (opposite check: the side not to move is in "
                            f"check)")


def _lookup_plan(material: Material) -> tuple:
    """How a board of ``material`` is looked up: ``(stored material, colours swapped, plan)``, where the
    plan gives, per piece of the stored material's PIECE_LIST, the python-chess piece type and colour to
    find on the board and how many lower squares of that piece to skip (identical pieces).  ``(None,
    False, ())`` for two bare kings."""
    if not material.white and not material.black:
        return None, False, ()
    canonical = material.canonical
    swapped = canonical != material
    plan, seen = [], {}
    for letter in canonical.letters:
        rank = seen.get(letter, 0)
        seen[letter] = rank + 1
        plan.append((chess.PIECE_SYMBOLS.index(letter.lower()), letter.isupper() != swapped, rank))
    return canonical, swapped, tuple(plan)


def _material(board: chess.Board) -> Material:
    try:
        return material_of_board(board)
    except MaterialError as error:
        raise PositionError(f"{board.fen()}: {error}") from None


def dtm_with_en_passant(board: chess.Board, stored_value: Callable[[chess.Board], int]) -> int:
    """The signed depth to mate of ``board`` (as ``chess.gaviota.probe_dtm``) from ``stored_value``, which
    gives a board's stored n ignoring en passant (odd: the side to move mates; even: it is mated; -1 for a
    draw).  A legal en passant capture is one more move, which the stored value does not know: each one's
    result is combined with it as python-chess does (the faster win, or the longer defence)."""
    dtm = _signed(stored_value(board))
    for move in board.generate_legal_ep():
        board.push(move)
        try:
            if board.is_checkmate():
                child = 1
            else:
                child = -_signed(stored_value(board))
                child += 1 if child > 0 else -1 if child < 0 else 0
        finally:
            board.pop()
        dtm = min(dtm, child) if dtm * child > 0 else max(dtm, child)
    return dtm


def _signed(value: int) -> int:
    """A stored n (odd: the side to move mates) as a signed depth to mate; 0 for draws and checkmate."""
    if value <= 0:
        return 0
    return value if value % 2 == 1 else -value
