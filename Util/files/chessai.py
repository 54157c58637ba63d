"""The ``.chessAI`` file: every S_n of one material, written and read whole.

A table is written in format version 4 (:mod:`Util.files.blocks`): a ZIP
archive of stored members, the S_n bytes of each side to move in
independently compressed blocks with an index, so that one position can be
read without the rest (:mod:`Util.tablebase`).  This module writes tables
and reads them whole (what a calculation does with the tables it leads
into), in every version:

- **4** (written): header.json and blocks, see :mod:`Util.files.blocks`.
- **1-3** (read; version 3 also written for checkpoints): as in the thesis,
  a ZIP (deflate) holding one pickle of plain values, see :mod:`Util.files.pickled`.

``python -m Util convert`` rewrites files of versions 1-3 as version 4.
Reading never runs code from the file; every problem is reported as
:class:`ChessAIFileError` naming the file and what is wrong.  Writes go
to a temporary file that is renamed into place, so a crash never leaves
half a file.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Dict, Optional, Tuple

import numpy as np

from ..board.material import Material
from ..table.dtm_table import DtmTable
from ..table.index_scheme import Layout
from ..table.compact_index import COMPACT_SCHEME
from .blocks import (BLOCK_FORMAT_VERSION, COMPACT_FORMAT_VERSION, BlockFile, ChessAIFileError, is_block_file,
                     write_block_file)
from .pickled import (INDEX_SCHEME, PICKLE_VERSION, Counts, LateCounts, StoredSide, checked_arrays, checked_counts,
                      load_checkpoint, read_payload, save_checkpoint, save_table_version_3)

__all__ = ["ChessAIFileError", "PICKLE_VERSION", "FORMAT_VERSION", "INDEX_SCHEME", "Counts", "save_table",
           "save_compact_table",
           "save_table_version_3", "save_checkpoint", "looks_finished", "load_table", "load_table_with_counts",
           "load_sides", "load_checkpoint", "convert_file"]

#: The version of the tables this project writes.
FORMAT_VERSION = BLOCK_FORMAT_VERSION


def save_table(table: DtmTable, path: os.PathLike, board_counts: Counts,
               board_counts_black: Optional[Counts] = None) -> Path:
    """Write ``table`` to ``path`` in format version 4 (:mod:`Util.files.blocks`), atomically; returns
    the path.  ``board_counts``: boards per S_n in which White mates; ``board_counts_black``: in which
    Black mates (needed when Black has pieces).  Either may be a function that returns them: it is called
    once the S_n data is written, so that they can be counted meanwhile (see
    calculation.calculate_table)."""
    material = table.material
    if not material.lone_black_king and board_counts_black is None:
        raise ValueError(f"{material}: Black has pieces, so the counts of Black's S_n are needed too")
    layout = Layout(material)
    header = {"kind": "table", "material": material.name, "piece_list": material.letters,
              "index_scheme": INDEX_SCHEME, "entries_per_side": layout.size}

    def counts() -> Dict[str, Dict[int, int]]:
        found = {"board_counts": LateCounts(board_counts).get()}
        if board_counts_black is not None:
            found["board_counts_black"] = LateCounts(board_counts_black).get()
        return found

    sides = [StoredSide(layout, values, None).pieces() for values in (table.dtm_white, table.dtm_black)]
    return write_block_file(path, header, sides, counts)

#: Entries of a compact table handed to the writer at a time.
_COMPACT_PIECE = 1 << 22


def save_compact_table(table, path: os.PathLike, board_counts: Counts, board_counts_black: Counts) -> Path:
    """Write a :class:`Util.table.compact_table.CompactTable` (six pieces) to ``path`` in format version 5,
    atomically: values of one byte where every n is below 254, else of two.  The board counts as for
    :func:`save_table` (they give the largest n, so they are needed first)."""
    material, layout = table.material, table.layout
    counts = {"board_counts": LateCounts(board_counts).get(), "board_counts_black": LateCounts(board_counts_black).get()}
    largest = max([*counts["board_counts"], *counts["board_counts_black"]], default=-1)
    value_bytes = 2 if largest >= 254 else 1
    header = {"kind": "table", "material": material.name, "piece_list": material.letters,
              "index_scheme": COMPACT_SCHEME, "entries_per_side": layout.size,
              "longest": {name: table.longest(side) for side, name in enumerate(("dtm_white", "dtm_black"))}}

    def pieces(side: int):
        for start in range(0, layout.size, _COMPACT_PIECE):
            values = table.values(side, start, min(start + _COMPACT_PIECE, layout.size))
            yield values.astype(np.uint8) if value_bytes == 1 else values.astype("<u2").view(np.uint8)

    return write_block_file(path, header, [pieces(0), pieces(1)], lambda: counts, version=COMPACT_FORMAT_VERSION,
                            value_bytes=value_bytes)


def looks_finished(path: os.PathLike, material: Material) -> bool:
    """Whether ``path`` holds a finished table of ``material``, judged from the ZIP directory alone
    (milliseconds, where loading a five-piece table takes ten seconds and more): one member named for
    the material, holding at least both sides' data.  Tables are written to a temporary file and
    renamed, so a file of this shape was written to the end; damage inside is found when it is loaded
    (:func:`load_table`)."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (OSError, zipfile.BadZipFile):
        return False
    names = {info.filename for info in members}
    if "header.json" in names:  # version 4
        try:
            BlockFile(path, material).close()
            return True
        except (ChessAIFileError, OSError):
            return False
    return (len(members) == 1 and members[0].filename == f"{material.name}.pickle"
            and members[0].file_size >= 2 * Layout(material).size)


def load_table(path: os.PathLike) -> Tuple[DtmTable, Dict[int, int]]:
    """Read a table file; returns the table and its board counts per n (the S_n in which White mates)."""
    table, counts, _ = load_table_with_counts(path)
    return table, counts


def load_table_with_counts(path: os.PathLike) -> Tuple[DtmTable, Dict[int, int], Dict[int, int]]:
    """Read a table file; returns the table and the board counts per n of White's and of Black's S_n."""
    path = Path(path)
    if is_block_file(path):
        return _load_blocks(path, (True, False))
    payload, data_sha256 = read_payload(path)
    if payload.get("kind") != "table":
        raise ChessAIFileError(f"{path}: this is a {payload.get('kind')!r} file, not a finished table")
    material, dtm_white, dtm_black, (white_wins, black_wins) = checked_arrays(path, payload, data_sha256)
    counts = checked_counts(path, payload, "board_counts", white_wins)
    counts_black = checked_counts(path, payload, "board_counts_black", black_wins) if not material.lone_black_king else {}
    return DtmTable(material, dtm_white, dtm_black), counts, counts_black


def load_sides(path: os.PathLike, sides: Tuple[bool, ...]) -> DtmTable:
    """Only the arrays of ``sides`` (True: White to move) of a table file, the others empty: what a
    calculation reads of a table it leads into (a promotion reads one side of a 5-piece table, which
    halves the work of loading it).  Checked as :func:`load_table` checks, except the board counts,
    which need both sides' values."""
    path = Path(path)
    if is_block_file(path):
        return _load_blocks(path, sides)[0]
    payload, data_sha256 = read_payload(path, sides)
    if payload.get("kind") != "table":
        raise ChessAIFileError(f"{path}: this is a {payload.get('kind')!r} file, not a finished table")
    material, dtm_white, dtm_black, _ = checked_arrays(path, payload, data_sha256, wins=False)
    return DtmTable(material, dtm_white, dtm_black)


def _load_blocks(path: Path, sides: Tuple[bool, ...]) -> Tuple[DtmTable, Dict[int, int], Dict[int, int]]:
    """A version-4 file read whole (only ``sides``, True: White to move; the others empty), its blocks
    decoded on all cores, every block checked; with the board counts."""
    from concurrent.futures import ThreadPoolExecutor

    from ..runtime.parallel import core_count

    with BlockFile(path) as file, ThreadPoolExecutor(core_count()) as threads:
        if file.version >= COMPACT_FORMAT_VERSION:
            raise ChessAIFileError(f"{path}: a six-piece table in the compact index (format 5), read position by "
                                   f"position (python -m Util probe, Util.tablebase), not whole")
        material, layout = file.material, Layout(file.material)
        if file.entries != layout.size:
            raise ChessAIFileError(f"{path}: the S_n data has the wrong size for {material} "
                                   f"(expected {layout.size} entries per side)")
        arrays = []
        for side, white_to_move in enumerate((True, False)):
            if white_to_move in sides:
                values = file.side_array(side, threads)
                layout.restore_duplicates(values)
            else:
                values = np.empty(0, np.uint8)
            arrays.append(values)
        return DtmTable(material, *arrays), file.counts("board_counts"), file.counts("board_counts_black")

def convert_file(path: os.PathLike) -> Tuple[int, int, bool]:
    """Rewrite a table file of format 1-3 as format 4, in place (atomically); a file of format 4 is left as
    it is.  Returns the sizes before and after in bytes, and whether it was converted."""
    path = Path(path)
    before = path.stat().st_size
    if is_block_file(path):
        BlockFile(path).close()  # a damaged one is named
        return before, before, False
    table, counts, counts_black = load_table_with_counts(path)
    save_table(table, path, counts, None if table.material.lone_black_king else counts_black)
    return before, path.stat().st_size, True
