"""A folder of ``.chessAI`` files as a set of tables: which file holds a material, opened when first needed.

A :class:`TableFolder` answers "the table of KQvKR" with the file ``KQvKR.chessAI`` of its folder (a material
in either colour order names the same, canonical file).  Files of format 4 are opened for reading block by
block, through one least-recently-used cache of decoded blocks with a byte limit; files of format 1-3 are
read whole, with a note that ``python -m Util convert`` makes them random-access.  A missing file is a
:class:`MissingTableError` naming the command that computes it, or, with ``compute_missing``, is computed
(and saved) by the engine.  Probing positions is :class:`Util.tablebase.Tablebase`'s job, built on this.
"""

from __future__ import annotations

import os
import sys
import threading
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple, Union

from .block_cache import DEFAULT_CACHE_BYTES, BlockCache
from .block_table import BlockTable
from ..files.blocks import BlockFile, is_block_file
from ..table.values import UNKNOWN
from ..folders import RESULTS_DIR
from ..board.material import Material, MaterialError
from ..table.protocols import BoardCounts

if TYPE_CHECKING:
    from ..table.dtm_table import DtmTable

__all__ = ["Table", "BoardCounts", "MissingTableError", "TableFolder"]

#: A table as a folder serves it: read block by block, or whole (an older file, or computed in memory).
Table = Union[BlockTable, "DtmTable"]



class MissingTableError(KeyError, FileNotFoundError):
    """The table of a material is not in the folder; the message names the file and the command that
    computes it (and ``advice``, another way, where the caller knows one).

    The one exception for a missing table, wherever it is looked up: a ``KeyError`` for a store of tables
    by material, a ``FileNotFoundError`` for whoever opens files; the notebooks and the game raise this class too.
    In a notebook only the message is shown, not a traceback (it says what to do)."""

    def __init__(self, material: Material, directory: Path, advice: str = "") -> None:
        self.material, self.directory = material, Path(directory)
        #: The file that would hold the table.
        self.path = self.directory / f"{material.canonical.name}.chessAI"
        #: The command that computes the table into ``directory``.
        self.command = f"python -m Util calculate {material}"
        if self.directory.resolve() != RESULTS_DIR.resolve():
            self.command += f" --results {directory}"
        message = f"no table for {material}: {self.path} does not exist; compute it with: {self.command}"
        super().__init__(message + (f" {advice}" if advice else ""))

    def __str__(self) -> str:
        return str(self.args[0])

    def _render_traceback_(self):
        return [f"{type(self).__name__}: {self}"]


class TableFolder:
    """The tables in ``directory``; see the module's docstring.  ``cache_bytes``: limit of the cache of
    decoded blocks shared by all tables.  Safe to share between threads."""

    def __init__(self, directory: Union[str, os.PathLike] = RESULTS_DIR, *,
                 cache_bytes: int = DEFAULT_CACHE_BYTES, compute_missing: bool = False) -> None:
        self.directory = Path(directory)
        self.cache = BlockCache(cache_bytes)
        self.compute_missing = compute_missing
        self._tables: Dict[Material, Table] = {}
        self._counts: Dict[Material, BoardCounts] = {}
        self._lock = threading.Lock()
        self._store = None
        self._reader: Optional["TableFolder"] = None  # without_computing's folder

    def path_of(self, material: Material) -> Path:
        """The file that holds ``material`` (whether or not it exists)."""
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

            from ..table.dtm_table import DtmTable
            from ..table.index_scheme import Layout

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
        from ..files.chessai import ChessAIFileError, load_table_with_counts

        print(f"note: {path} is in an older format and is read whole; python -m Util convert "
              f"--results {path.parent} makes it random-access", file=sys.stderr)
        table, white, black = load_table_with_counts(path)
        if material is not None and table.material != material:
            raise ChessAIFileError(f"{path}: holds {table.material}, not {material}")
        self._counts[table.material] = white, black
        return table

    def _computed(self, material: Material) -> Table:
        from ..calculation.store import TableStore  # the engine: only where a table must be computed

        if self._store is None:
            self._store = TableStore(self.directory, progress=False)
        return self._store.get(material)

    def without_computing(self) -> "TableFolder":
        """This folder as one that never computes a missing table (itself, unless ``compute_missing``): for a
        probe that must answer at once, such as a move in a game, where a missing table is a
        :class:`MissingTableError` to report, not a minute's work.  Made once, closed with this folder; it
        reads the same files, so a table computed here meanwhile is found there."""
        if not self.compute_missing:
            return self
        with self._lock:
            if self._reader is None:
                self._reader = type(self)(self.directory, cache_bytes=self.cache.limit_bytes)
            return self._reader

    def open_file(self, path: Union[str, os.PathLike]) -> Table:
        """The table in the file ``path`` (any name), served from now on for its material."""
        table = self._read(Path(path), None)
        self.add(table)
        return table

    def counts(self, material: Union[Material, str]) -> BoardCounts:
        """Boards per n of the S_n in which White mates and of those in which Black mates, as stored."""
        table = self.table(material)
        if isinstance(table, BlockTable):
            return table.board_counts, table.board_counts_black
        if table.material not in self._counts:  # computed in memory
            from ..calculation.boards import board_counts_by_winner

            self._counts[table.material] = board_counts_by_winner(table)
        return self._counts[table.material]

    def add(self, table: Table) -> None:
        """Serve ``table`` (computed in memory, say) for its material."""
        with self._lock:
            self._tables[table.material] = table

    def serves(self, table: Table) -> bool:
        """Whether ``table`` is the one this folder gives for its material."""
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

    def close(self) -> None:
        """Close every open file and empty the cache; tables are opened again when next asked for."""
        with self._lock:
            for table in self._tables.values():
                if isinstance(table, BlockTable):
                    table.file.close()
            self._tables.clear()
            reader, self._reader = self._reader, None
        self.cache.clear()
        if reader is not None:
            reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.directory}: cache {self.cache.bytes} of "
                f"{self.cache.limit_bytes} bytes>")
