"""Probe any position up to five pieces from a folder of ``.chessAI`` files, as python-chess probes Gaviota.

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
import sys
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Tuple, Union

import chess

from .block_cache import DEFAULT_CACHE_BYTES, BlockCache
from .block_table import BlockTable
from .chessai_blocks import BlockFile, is_block_file
from .dtm_values import UNKNOWN
from .folders import RESULTS_DIR
from .material import Material, MaterialError, material_of_board

if TYPE_CHECKING:
    from .dtm_table import DtmTable



class MissingTableError(KeyError):
    """The table of a material is not in the folder; the message names the command that computes it."""

    def __init__(self, material: Material, directory: Path) -> None:
        self.material, self.directory = material, directory
        #: The command that computes the table into ``directory``.
        self.command = f"python -m Util calculate {material}"
        if Path(directory).resolve() != RESULTS_DIR.resolve():
            self.command += f" --results {directory}"
        super().__init__(f"no table for {material} in {directory}: compute it with: {self.command}")

    def __str__(self) -> str:
        return str(self.args[0])


class PositionError(ValueError):
    """A position no table holds: more than five pieces, castling rights, or not a legal position."""


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


#: A table as a Tablebase serves it: read block by block, or whole (an older file, or computed in memory).
Table = Union[BlockTable, "DtmTable"]


class Tablebase:
    """The tables in ``directory``; see the module's docstring.  ``cache_bytes``: limit of the cache of
    decoded blocks shared by all tables."""

    def __init__(self, directory: Union[str, os.PathLike] = RESULTS_DIR, *,
                 cache_bytes: int = DEFAULT_CACHE_BYTES, compute_missing: bool = False) -> None:
        self.directory = Path(directory)
        self.cache = BlockCache(cache_bytes)
        self.compute_missing = compute_missing
        self._tables: Dict[Material, Table] = {}
        self._counts: Dict[Material, Tuple[Dict[int, int], Dict[int, int]]] = {}
        self._pieces: Dict[tuple, tuple] = {}  # counts of each piece on the board -> _lookup_plan
        self._lock = threading.Lock()
        self._store = None

    # ---- tables ----------------------------------------------------------------------------------
    def path_of(self, material: Material) -> Path:
        return self.directory / f"{material.canonical.name}.chessAI"

    def table(self, material: Union[Material, str]) -> Table:
        """The table of ``material`` (either colour order; the stored one is the canonical material).
        MissingTableError if its file is not in the folder (unless ``compute_missing``)."""
        if isinstance(material, str):
            material = Material.parse(material)
        material = material.canonical
        table = self._tables.get(material)
        if table is None:
            with self._lock:
                table = self._tables.get(material)
                if table is None:
                    table = self._tables[material] = self._open(material)
        return table

    def _open(self, material: Material) -> Table:
        if not material.white and not material.black:  # two bare kings: a draw, whatever the squares
            import numpy as np

            from .layout import Layout
            from .dtm_table import DtmTable

            draws = np.full(Layout(material).size, UNKNOWN, dtype=np.uint8)
            self._counts[material] = {}, {}
            return DtmTable(material, draws, draws)
        path = self.path_of(material)
        if not path.exists():
            if self.compute_missing:
                return self._computed(material)
            raise MissingTableError(material, self.directory)
        return self._read(path, material)

    def _read(self, path: Path, material: Optional[Material]) -> Table:
        """The table in ``path`` (of ``material``, where given): format 4 opened for probing, an older
        file read whole."""
        if is_block_file(path) or not zipfile.is_zipfile(path):  # BlockFile names what is wrong
            return BlockTable(BlockFile(path, material), self.cache)
        from .chessai_file import ChessAIFileError, load_table_with_counts

        print(f"note: {path} is in an older format and is read whole; python -m Util convert "
              f"--results {path.parent} makes it random-access", file=sys.stderr)
        table, white, black = load_table_with_counts(path)
        if material is not None and table.material != material:
            raise ChessAIFileError(f"{path}: holds {table.material}, not {material}")
        self._counts[table.material] = white, black
        return table

    def open_file(self, path: Union[str, os.PathLike]) -> Table:
        """The table in the file ``path`` (any name), served from now on for its material."""
        table = self._read(Path(path), None)
        self.add(table)
        return table

    def counts(self, material: Union[Material, str]) -> Tuple[Dict[int, int], Dict[int, int]]:
        """Boards per n of the S_n in which White mates and of those in which Black mates, as stored."""
        table = self.table(material)
        if isinstance(table, BlockTable):
            return table.board_counts, table.board_counts_black
        if table.material not in self._counts:  # computed in memory
            from .expansion import board_counts_by_winner

            self._counts[table.material] = board_counts_by_winner(table)
        return self._counts[table.material]

    def _computed(self, material: Material):
        from .calculation import TableStore  # the engine: only where a table must be computed

        if self._store is None:
            self._store = TableStore(self.directory, progress=False)
        return self._store.get(material)

    def add(self, table: Table) -> None:
        """Serve ``table`` (computed in memory, say) for its material."""
        with self._lock:
            self._tables[table.material] = table
            self._pieces.clear()

    def serves(self, table: Table) -> bool:
        """Whether ``table`` is the one this tablebase gives for its material."""
        return self._tables.get(table.material) is table

    def materials(self) -> List[Material]:
        """The materials whose files are in the folder, fewest pieces first."""
        found = []
        for path in self.directory.glob("*.chessAI"):
            try:
                found.append(Material.parse(path.name[: -len(".chessAI")]))
            except MaterialError:
                continue
        return sorted(found, key=lambda m: (m.piece_count, m.name))

    # ---- probes ----------------------------------------------------------------------------------
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
        return -1 if value == UNKNOWN else value

    def probe_dtm(self, board: chess.Board) -> int:
        """Signed depth to mate in plies, as ``chess.gaviota.probe_dtm``: +n when the side to move mates
        in n, -n when it is mated in n, 0 for a draw or when the side to move is checkmated.

        PositionError for castling rights, more than five pieces or an illegal position;
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

    def close(self) -> None:
        with self._lock:
            for table in self._tables.values():
                if isinstance(table, BlockTable):
                    table.file.close()
            self._tables.clear()
            self._pieces.clear()
        self.cache.clear()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Tablebase {self.directory}: cache {self.cache.bytes} of {self.cache.limit_bytes} bytes>"


def open_tablebase(directory: Union[str, os.PathLike] = RESULTS_DIR, *,
                   cache_bytes: int = DEFAULT_CACHE_BYTES) -> Tablebase:
    """A :class:`Tablebase` over ``directory`` (use it in a ``with`` block, or ``close()`` it)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory}: no such folder of tables; compute tables into it with: "
                                f"python -m Util calculate KQvK --results {directory}")
    return Tablebase(directory, cache_bytes=cache_bytes)


def _check(board: chess.Board) -> None:
    """PositionError unless the board is one a table can hold: no castling rights, at most five pieces, one
    king each, no pawn on the first or last rank, the side not to move not in check (checks that cannot
    arise from a move are held, as in Gaviota)."""
    if board.castling_rights:
        raise PositionError(f"{board.fen()}: castling rights ({board.castling_xfen()}); the tables hold positions "
                            f"without castling: write '-' in the FEN's castling field")
    count = chess.popcount(board.occupied)
    if count > 5:
        raise PositionError(f"{board.fen()}: {count} pieces; the tables hold at most five, kings included")
    white_king, black_king = (board.kings & board.occupied_co[colour] for colour in (chess.WHITE, chess.BLACK))
    if chess.popcount(white_king) != 1 or chess.popcount(black_king) != 1:
        raise PositionError(f"{board.fen()}: not a legal position (each side needs exactly one king)")
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
