"""A table read block by block from its file: what probing one position needs, and no more.

:class:`BlockTable` answers like :class:`Util.table.dtm_table.DtmTable` (``dtm``,
``dtm_white``, ``dtm_black``, ``layout``, ``material``), but reads each
value from one decoded block (:class:`Util.files.blocks.BlockFile`)
through a shared :class:`Util.probing.block_cache.BlockCache`.  Asking for a whole
side (``dtm_white``) decodes every block once and keeps the array: that is
for scans (statistics, iterating over an S_n), not for probes.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from typing import Dict, Optional, Sequence

import numpy as np

from .block_cache import BlockCache
from ..files.blocks import COMPACT_FORMAT_VERSION, BlockFile
from ..table.compact_index import CompactLayout, compact_index_of
from ..table.index_scheme import Layout
from ..board.material import Material
from ..runtime.parallel import core_count
from ..table.stored_index import stored_index_of, stored_indices

__all__ = ["BlockTable"]


class BlockTable:
    """The S_n values of one material, read from a file of version 4 or 5 on demand.  ``unknown`` is the
    value of a draw: 255, or 65,535 in a compact table whose values take two bytes (version 5)."""

    def __init__(self, file: BlockFile, cache: Optional[BlockCache] = None) -> None:
        self.file = file
        self.material: Material = file.material
        self.cache = cache if cache is not None else BlockCache()
        self._key = id(file)  # names this file's blocks in a cache that several tables share
        self.board_counts: Dict[int, int] = file.counts("board_counts")
        self.board_counts_black: Dict[int, int] = file.counts("board_counts_black")
        #: a compact table (version 5, six pieces): one entry per position, values of ``value_bytes``
        self.compact = file.version >= COMPACT_FORMAT_VERSION
        self._stored_index = compact_index_of(self.material) if self.compact else stored_index_of(self.material)
        self.unknown: int = file.blank
        self._wide = file.value_bytes == 2
        self._sides: Dict[bool, np.ndarray] = {}
        self._sides_lock = threading.Lock()

    @cached_property
    def layout(self):
        """The index scheme: :class:`Layout`, or :class:`CompactLayout` for a compact table."""
        return CompactLayout(self.material) if self.compact else Layout(self.material)

    def block(self, white_to_move: bool, number: int) -> bytes:
        """One decoded block (duplicates blank), from the cache or the file."""
        side = 0 if white_to_move else 1
        return self.cache.get((self._key, side, number), lambda: self.file.block(side, number))

    def value(self, squares: Sequence[int], white_to_move: bool) -> int:
        """The DTM byte of one position (UNKNOWN for a draw), given by its distinct squares in PIECE_LIST
        order (any symmetry, identical pieces in any order)."""
        number, at = divmod(self._stored_index.of(squares), self.file.block_entries)
        side = 0 if white_to_move else 1
        block = self.cache.get((self._key, side, number), lambda: self.file.block(side, number))
        if self._wide:
            return block[2 * at] | (block[2 * at + 1] << 8)
        return block[at]

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM values (UNKNOWN for a draw) of positions given by their squares in PIECE_LIST order, read
        block by block (each block needed decoded once)."""
        if white_to_move in self._sides:
            return self._sides[white_to_move][self.layout.encode_canonical(squares)]
        index = self.layout.encode_canonical(squares) if self.compact else stored_indices(self.layout, squares)
        out = np.empty(index.size, dtype=self.file.dtype)
        numbers = index // self.file.block_entries
        for number in np.unique(numbers).tolist():
            where = numbers == number
            block = np.frombuffer(self.block(white_to_move, number), dtype=self.file.dtype)
            out[where] = block[index[where] - number * self.file.block_entries]
        return out

    def side(self, white_to_move: bool) -> np.ndarray:
        """Every entry of one side, duplicates restored (decoded once, then kept)."""
        with self._sides_lock:
            if white_to_move not in self._sides:
                with ThreadPoolExecutor(core_count()) as threads:
                    values = self.file.side_array(0 if white_to_move else 1, threads)
                if not self.compact:  # a compact table has no repeated entries
                    self.layout.restore_duplicates(values)
                self._sides[white_to_move] = values
            return self._sides[white_to_move]

    @property
    def dtm_white(self) -> np.ndarray:
        return self.side(True)

    @property
    def dtm_black(self) -> np.ndarray:
        return self.side(False)

    @property
    def max_n(self) -> int:
        """The largest n with a non-empty S_n, or -1 if neither side can ever mate."""
        return max([*self.board_counts, *self.board_counts_black], default=-1)

    def __repr__(self) -> str:
        return f"<BlockTable {self.material} from {self.file.path}>"

