"""The two interfaces the tables are used through, named as ``typing.Protocol``s.

- :class:`PositionTable`: a table you look a position up in.  :class:`~Util.table.dtm_table.DtmTable` holds both
  sides' arrays in memory (a calculation's result, a file read whole); :class:`~Util.probing.block_table.BlockTable`
  reads a file block by block (probing).  :class:`~Util.sequence.SnSequence` wraps either.
- :class:`TableSource`: where tables come from, by material.  :class:`~Util.calculation.store.TableStore` loads or
  computes them whole (a calculation's sub-tables); :class:`~Util.probing.table_folder.TableFolder` opens the files of
  a folder, and :class:`~Util.tablebase.Tablebase` adds probing positions to it.

Both are checked structurally (``isinstance`` works on them): a class need not inherit from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Protocol, Sequence, Tuple, Union, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .index_scheme import Layout
    from ..board.material import Material

__all__ = ["BoardCounts", "PositionTable", "TableSource"]

#: Boards per n of the S_n in which White mates, and of those in which Black mates.
BoardCounts = Tuple[Dict[int, int], Dict[int, int]]


@runtime_checkable
class PositionTable(Protocol):
    """A table you look a position up in: DTM values in plies (``UNKNOWN``, 255, for a draw) per position
    and side to move, positions given by their squares in PIECE_LIST order."""

    material: "Material"

    @property
    def layout(self) -> "Layout":
        """The index scheme of the table's material."""

    @property
    def max_n(self) -> int:
        """The largest n with a non-empty S_n, or -1 if neither side can ever mate."""

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """The values of many positions at once (one array of squares per piece)."""

    def value(self, squares: Sequence[int], white_to_move: bool) -> int:
        """The value of one position."""


@runtime_checkable
class TableSource(Protocol):
    """Where tables come from: the table of a material (either colour order), its board counts, and a
    table computed elsewhere added so that it is not looked for again."""

    def table(self, material: Union["Material", str]) -> PositionTable:
        """The table of ``material``; :class:`~Util.probing.table_folder.MissingTableError` where there is none."""

    def counts(self, material: Union["Material", str]) -> BoardCounts:
        """Boards per n of the S_n in which White mates, and of those in which Black mates."""

    def add(self, table: PositionTable) -> None:
        """Keep ``table`` as the table of its material."""
