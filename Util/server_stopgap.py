"""TEMPORARY stand-in for ``Util.tablebase`` (the random-access reader that is landing on main): the same
names and contract, built on today's whole-table ``Util.sequence`` so the server can be written and tested
before it lands.  Delete this module when ``Util.server`` imports ``Util.tablebase``."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import chess

from .calculation import TableStore, default_path
from .material import Material, MaterialError, material_of_board
from .sequence import SnSequence


class MissingTableError(KeyError):
    def __init__(self, material: Material):
        self.material = material
        super().__init__(f"no table for {material}: compute it with `python -m Util calculate {material}`")

    def __str__(self) -> str:
        return self.args[0]


class PositionError(ValueError):
    pass


@dataclass(frozen=True)
class MoveProbe:
    move: chess.Move
    san: str
    dtm: int
    wdl: int
    checkmate: bool
    stalemate: bool
    insufficient_material: bool
    zeroing: bool
    conversion: bool


class _FolderStore(TableStore):
    def compute(self, material):  # a missing file is an error here, never hours of computing
        raise MissingTableError(material)


class Tablebase:
    def __init__(self, folder: os.PathLike):
        self.folder = Path(folder)
        self._store = _FolderStore(self.folder, progress=False)
        self._sequences = {}
        self._lock = threading.RLock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def close(self) -> None:
        pass

    def materials(self) -> List[Material]:
        found = []
        for path in sorted(self.folder.glob("*.chessAI")):
            try:
                found.append(Material.parse(path.stem))
            except MaterialError:
                pass
        return found

    def sequence(self, material) -> SnSequence:
        material = (material if isinstance(material, Material) else Material.parse(str(material))).canonical
        with self._lock:
            if material not in self._sequences:
                if not default_path(material, self.folder).exists():
                    raise MissingTableError(material)
                self._sequences[material] = SnSequence.from_store(self._store, material)
            return self._sequences[material]

    def _check(self, board: chess.Board) -> Material:
        if chess.popcount(board.occupied) > 5:
            raise PositionError(f"{chess.popcount(board.occupied)} pieces: the tables hold at most five")
        if board.castling_rights:
            raise PositionError("castling rights: the tables hold positions without them")
        if not board.is_valid():
            raise PositionError(f"not a legal position (python-chess status {board.status()!r})")
        return material_of_board(board)

    def probe_dtm(self, board: chess.Board) -> int:
        material = self._check(board)
        if chess.popcount(board.occupied) == 2:
            return 0
        with self._lock:
            return self.sequence(material).dtm(board)

    def get_dtm(self, board: chess.Board, default=None):
        try:
            return self.probe_dtm(board)
        except (MissingTableError, PositionError):
            return default

    def probe_wdl(self, board: chess.Board) -> int:
        dtm = self.probe_dtm(board)
        if dtm == 0:
            return -1 if board.is_checkmate() else 0
        return 1 if dtm > 0 else -1

    def probe_moves(self, board: chess.Board) -> List[MoveProbe]:
        self._check(board)
        found = []
        for move in board.legal_moves:
            san = board.san(move)
            zeroing, conversion = board.is_zeroing(move), board.is_capture(move) or bool(move.promotion)
            board.push(move)
            try:
                dtm = self.probe_dtm(board)
                wdl = -1 if board.is_checkmate() else (0 if dtm == 0 else (1 if dtm > 0 else -1))
                found.append(MoveProbe(move, san, dtm, wdl, board.is_checkmate(), board.is_stalemate(),
                                       board.is_insufficient_material(), zeroing, conversion))
            finally:
                board.pop()

        def rank(p: MoveProbe):
            if p.wdl < 0:
                return (0, 0 if p.checkmate else -p.dtm)
            if p.wdl == 0:
                return (1, 0)
            return (2, -p.dtm)

        return sorted(found, key=rank)


def open_tablebase(folder: os.PathLike, cache_bytes: int = 64 << 20) -> Tablebase:
    return Tablebase(folder)
