"""The tablebases the chess world trusts, as this project's references: where they are, and one board asked
of them.

* **Gaviota DTM** gives, for every position, the plies to mate with best play: it must equal our n exactly
  (-1 where White cannot force mate).
* **Syzygy WDL** tells won from drawn: a position is in some S_n exactly when Syzygy says White wins it.
  Cursed wins count as wins, since depth to mate ignores the fifty-move rule.

Where the tables live: ``GAVIOTA_PATH`` and ``SYZYGY_PATH`` (environment), by default
``../shared/tablebases/{gaviota,syzygy}`` beside the repository; :func:`find_reference_folder` also looks in
``./gaviota`` and ``./syzygy``.  The checks are in :mod:`~Util.validation.gaviota_checks`,
:mod:`~Util.validation.syzygy_checks` and :mod:`~Util.validation.matchrate`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import chess
import chess.syzygy

from ..board.integer import board_squares
from ..board.material import Material, material_of_board
from ..folders import REPO_ROOT
from .gaviota_native import NativeGaviota

__all__ = ["reference_folder", "ReferenceMissing", "reference_file", "find_reference_folder", "gaviota_value",
           "gaviota_n", "open_syzygy"]

_DEFAULTS = {"gaviota": "GAVIOTA_PATH", "syzygy": "SYZYGY_PATH"}


def reference_folder(kind: str) -> Path:
    """Folder of the ``gaviota`` or ``syzygy`` reference tables (may not exist)."""
    default = REPO_ROOT.parent / "shared" / "tablebases" / kind
    return Path(os.environ.get(_DEFAULTS[kind], default))


class ReferenceMissing(FileNotFoundError):
    """No folder holds the reference table a check needs; the message says where to get it."""


_WHERE_TO_GET = {
    "gaviota": "Debian's package gaviotatb has the 3-piece tables (scripts/setup.sh links them into ./gaviota); "
               "the 4-piece *.gtb.cp4 files are on the Gaviota download mirrors (search 'gaviota tablebases cp4')",
    "syzygy": "download the *.rtbw and *.rtbz files from https://tablebase.lichess.ovh/tables/standard/3-4-5/",
}


def reference_file(kind: str, material: Material) -> str:
    """The file name a reference uses for a material: ``kbnk.gtb.cp4`` or ``KBNvK.rtbw``."""
    material = material.canonical
    if kind == "gaviota":
        return f"k{material.white.lower()}k{material.black.lower()}.gtb.cp4"
    return f"{material.name}.rtbw"


def find_reference_folder(kind: str, material: Material, folders: Optional[List[os.PathLike]] = None) -> Path:
    """The first folder that holds ``kind``'s table of ``material``.

    By default ``./gaviota`` or ``./syzygy`` in the repository (as in the
    thesis), then ``GAVIOTA_PATH`` / ``SYZYGY_PATH`` or ``../shared/tablebases``.
    ReferenceMissing names the file, the folders tried and where to get it.
    """
    candidates = [Path(f) for f in folders] if folders else [REPO_ROOT / kind, reference_folder(kind)]
    name = reference_file(kind, material)
    for folder in candidates:
        if (folder / name).exists():
            return folder
    tried = ", ".join(str(f) for f in candidates)
    raise ReferenceMissing(f"no {kind} table {name} for {material} in {tried}; {_WHERE_TO_GET[kind]}, "
                           f"put it into ./{kind} or set {_DEFAULTS[kind]}")


def gaviota_value(gaviota: NativeGaviota, board: chess.Board) -> int:
    """Gaviota's answer for a board as our DTM byte: n, odd when the side to move mates, even when it is
    mated; -1 for a draw."""
    material = material_of_board(board)
    squares = board_squares(board, material.piece_list)
    gaviota.set_material(material.white, material.black)
    whites = [squares[0]] + squares[2 : 2 + len(material.white)]
    blacks = [squares[1]] + squares[2 + len(material.white) :]
    return gaviota.dtm_plies(whites, blacks, board.turn == chess.WHITE)


def gaviota_n(gaviota: NativeGaviota, board: chess.Board) -> int:
    """Gaviota's answer for a board as the thesis's n (-1 where White cannot force mate)."""
    material = material_of_board(board)
    squares = board_squares(board, material.piece_list)
    gaviota.set_material(material.white)
    return gaviota.white_mates_in([squares[0]] + squares[2:], squares[1], board.turn == chess.WHITE)


def open_syzygy(folder: Optional[Path] = None) -> chess.syzygy.Tablebase:
    """python-chess's Syzygy prober on ``folder`` (default :func:`reference_folder` ``("syzygy")``); close it
    after use (it is a context manager)."""
    return chess.syzygy.open_tablebase(str(folder or reference_folder("syzygy")))
