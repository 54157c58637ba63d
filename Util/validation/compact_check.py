"""The retrograde check of a six-piece table: every position (or a sample) one ply forward, compiled.

``python -m Util verify KRNvKNN --retrograde`` checks a sample (a million
positions of each side to move, random indices; seconds), ``--exhaustive``
every index (each entry's moves looked up: about the work of the table's
plies).  The rule and what it proves: :mod:`Util.retrograde_kernels.compact_verify`.
The table is read from its file (format 5) into the engine's bytes, the
mates of n from the engine's tail on listed beside them; the five-piece
tables the captures lead into are read whole.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
from numba.typed import List as TypedList

from ..board.material import Material
from ..calculation.store import TableStore
from ..files.blocks import BlockFile
from ..retrograde.compact import counter_floor_of
from ..retrograde_kernels.compact_board import CompactPacked, decode
from ..retrograde_kernels.compact_verify import check_positions
from ..retrograde_kernels.exits import exit_moves
from ..rules.exits import SubTables
from ..runtime.parallel import core_count
from ..table.compact_index import CompactLayout
from ..table.compact_table import CompactTable
from ..table.index_scheme import Layout
from ..table.values import UNKNOWN

__all__ = ["RetrogradeResult", "load_compact_table", "retrograde_check"]

#: Indices per job of the check.
_SPAN = 1 << 20


@dataclass
class RetrogradeResult:
    """What the check found: positions checked, failures, and the first few (index, side, stored, expected)."""

    material: Material
    checked: int
    failures: int
    examples: List[Tuple[int, int, int, int]]

    def line(self) -> str:
        return (f"{self.material}: {self.checked:,} positions checked one ply forward (retrograde consistency), "
                f"{self.failures} failures")


def load_compact_table(path: Path) -> CompactTable:
    """A format-5 file read whole into the compact engine's bytes (values from the tail on listed apart;
    draws and unused entries both UNKNOWN)."""
    with BlockFile(path) as file:
        material = file.material
        tail = (counter_floor_of(material) - 2) & ~1
        bytes_, tails = [], []
        for side in (0, 1):
            out = np.empty(file.entries, np.uint8)
            found: Dict[int, List[np.ndarray]] = {}

            def decode_blocks(first: int, side=side, out=out) -> List[Tuple[np.ndarray, np.ndarray]]:
                listed = []
                for number in range(first, min(first + 64, file.blocks)):
                    start = number * file.block_entries
                    values = np.frombuffer(file.block(side, number), file.dtype).astype(np.int64)
                    part = out[start : start + values.size]
                    part[:] = np.where(values < tail, values, UNKNOWN)
                    long = np.flatnonzero((values >= tail) & (values != file.blank))
                    if long.size:
                        part[long] = tail + (values[long] & 1)
                        listed.append((long + start, values[long]))
                return listed

            with ThreadPoolExecutor(core_count()) as pool:
                for listed in pool.map(decode_blocks, range(0, file.blocks, 64)):
                    for index, n in listed:
                        for value in np.unique(n).tolist():
                            found.setdefault(value, []).append(index[n == value])
            bytes_.append(out)
            tails.append({n: np.concatenate(parts) for n, parts in found.items()})
    return CompactTable(material, bytes_, tail, tails)


def retrograde_check(table: CompactTable, store: TableStore, sample: Optional[int] = 1_000_000,
                     from_file: bool = True, seed: int = 0) -> RetrogradeResult:
    """Check ``sample`` random indices of each side to move (None: every index) of ``table``; the five-piece
    tables its captures lead into come from ``store``."""
    material = table.material
    lay = CompactPacked.of(CompactLayout(material), counter_floor_of(material))
    subtables = store.subtables_of(material)
    rng = np.random.default_rng(seed)
    tails = []
    for side in (0, 1):
        items = sorted(table.tails[side].items())
        index = np.concatenate([p for _, p in items]) if items else np.empty(0, np.int64)
        n = np.concatenate([np.full(p.size, k, np.int64) for k, p in items]) if items else np.empty(0, np.int64)
        order = np.argsort(index, kind="stable")
        tails.append((np.ascontiguousarray(index[order]), np.ascontiguousarray(n[order])))
    checked = failures = 0
    examples: List[Tuple[int, int, int, int]] = []
    size = table.layout.size
    for side in (0, 1):
        moves = exit_moves(Layout(material), side, SubTables(subtables))
        tables = TypedList()
        for array in moves.tables or [np.empty(1, np.uint8)]:
            view = array.view()
            view.flags.writeable = False
            tables.append(view)
        if sample is None:
            jobs = [np.arange(a, min(a + _SPAN, size), dtype=np.int64) for a in range(0, size, _SPAN)]
        else:
            picked = np.sort(rng.integers(0, size, sample))
            jobs = [picked[a : a + _SPAN // 16] for a in range(0, picked.size, _SPAN // 16)]

        def run(indices: np.ndarray, side=side, rows=moves.rows, tables=tables) -> Tuple[int, np.ndarray, np.ndarray]:
            bad, expected = np.empty(5, np.int64), np.empty(5, np.int64)
            count = check_positions(lay, side, indices, table.bytes_[side], table.bytes_[1 - side], table.tail,
                                    *tails[side], *tails[1 - side], rows, tables, from_file, bad, expected)
            return count, bad[: min(count, 5)], expected[: min(count, 5)]

        with ThreadPoolExecutor(core_count()) as pool:
            for indices, (count, bad, expected) in zip(jobs, pool.map(run, jobs)):
                checked += indices.size
                failures += count
                for index, value in zip(bad.tolist(), expected.tolist()):
                    if len(examples) < 10:
                        examples.append((index, side, table.value_of(side, index), value))
    return RetrogradeResult(material, checked, failures, examples)


def describe(material: Material, index: int) -> List[int]:
    """The squares of an entry (PIECE_LIST order), to name a failing position."""
    squares = np.empty(8, np.int64)
    decode(index, CompactPacked.of(CompactLayout(material)), squares)
    return squares[: material.piece_count].tolist()
