"""``python -m Util verify``'s work: tables checked whole against Gaviota, or one ply deep with python-chess's
moves where Gaviota has no table (the five-piece ones), one line per table and a total.

The command line (``Util/cli.py``) reads the options and calls :func:`verify_tables`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

from ..board.material import Material
from ..calculation.store import TableStore, all_materials
from ..sequence import SnSequence
from .comparison import Comparison
from .gaviota_checks import exhaustive_against_gaviota
from .gaviota_native import GaviotaUnavailable, NativeGaviota
from .one_ply import one_ply_check
from .references import ReferenceMissing, find_reference_folder

__all__ = ["verify_tables", "verify_retrograde", "longest_position", "one_ply_materials"]


def one_ply_materials() -> List[str]:
    """The tables ``verify --one-ply`` checks by default: the 75 five-piece tables with pieces on both sides."""
    return [m.name for m in all_materials(5) if m.piece_count == 5 and m.black]


def verify_tables(materials: Sequence, results: Optional[Path], gaviota: Optional[Path] = None,
                  one_ply: Optional[int] = None, progress: bool = True) -> int:
    """Check each of ``materials`` (names or Materials; tables in ``results``, missing ones computed in
    memory) and print what each check found, its first mismatches, and a total; the exit status: 0, 1 on
    any mismatch, 2 when the Gaviota library or a Gaviota table is missing (the reason on standard error).

    ``one_ply``: instead of Gaviota, up to that many stored positions of every n and side to move, checked
    one ply deep; ``gaviota``: the folder of ``*.gtb.cp4`` files (default: for each table the first folder
    that holds its file)."""
    store = TableStore(results, progress=progress)
    if one_ply:
        check, what = _one_ply_check(store, one_ply), "checked one ply deep with python-chess's moves"
    else:
        materials = [Material.parse(m).canonical if isinstance(m, str) else m for m in materials]
        try:
            check = _gaviota_check(store, materials, gaviota)
        except (GaviotaUnavailable, ReferenceMissing) as error:
            print(f"verify: {error}", file=sys.stderr)
            return 2
        what = "checked against Gaviota"
    failures = total = 0
    for material in materials:
        result = check(material)
        print(result.line(), flush=True)
        for fen, ours, theirs in result.mismatches[:5]:
            print(f"    {fen}: ours {ours}, {result.reference} {theirs}")
        failures += len(result.mismatches)
        total += result.checked
    print(f"verify: {total} positions {what}, {failures} mismatches")
    return 1 if failures else 0


def _one_ply_check(store: TableStore, per_value: int) -> Callable[[object], Comparison]:
    def check(material) -> Comparison:
        try:
            return one_ply_check(SnSequence(store.get(material), {}, store=store), per_value=per_value)
        finally:
            store.forget_larger_than(4)  # a five-piece table holds up to 1 GB: keep the small ones only
    return check


def _gaviota_check(store: TableStore, materials: List[Material],
                   gaviota: Optional[Path]) -> Callable[[Material], Comparison]:
    """The check of one table against Gaviota; GaviotaUnavailable or ReferenceMissing at once (before any
    table is checked) when the library or a table's Gaviota file is missing."""
    from ..tablebase import Tablebase

    # each table's Gaviota file: in ``gaviota``, else the first folder that has it (./gaviota first)
    folders = {m: gaviota or find_reference_folder("gaviota", m) for m in materials}
    first = folders[materials[0]]
    opened = {first: NativeGaviota(first)}  # fails here, with the reason, if the library is missing
    files = Tablebase(store.results_dir, compute_missing=False)

    def check(material: Material) -> Comparison:
        """A table in the folder is read as a probe reads it (block by block, through the stored index);
        a missing one is computed in memory."""
        folder = folders[material]
        if folder not in opened:  # the C library holds one folder at a time: opening one closes the last
            opened.clear()
            opened[folder] = NativeGaviota(folder)
        on_file = files.path_of(material).exists()
        return exhaustive_against_gaviota(files.table(material) if on_file else store.get(material), opened[folder])
    return check


def verify_retrograde(materials: Sequence[str], results: Optional[Path], sample: Optional[int]) -> int:
    """``verify --retrograde``: the retrograde check of each compact table named (its file in ``results``),
    ``sample`` random positions of each side to move (None: every one); one line each, the first failures,
    a total.  Exit status 0, 1 on a failure, 2 for a table that is not there or not compact."""
    import time

    from ..folders import RESULTS_DIR
    from ..files.blocks import COMPACT_FORMAT_VERSION, BlockFile, ChessAIFileError
    from .compact_check import describe, load_compact_table, retrograde_check

    folder = Path(results or RESULTS_DIR)
    store = TableStore(folder, progress=False)
    failures = total = 0
    for name in materials:
        material = Material.parse(name).canonical
        path = folder / f"{material.name}.chessAI"
        try:
            with BlockFile(path, material) as file:
                if file.version < COMPACT_FORMAT_VERSION:
                    print(f"verify: {path} is not a compact table (format {file.version}); check it against "
                          f"Gaviota (verify {material}) or one ply deep (verify {material} --one-ply N)", file=sys.stderr)
                    return 2
        except (FileNotFoundError, ChessAIFileError) as error:
            print(f"verify: {error}", file=sys.stderr)
            return 2
        started = time.perf_counter()
        result = retrograde_check(load_compact_table(path), store, sample)
        print(f"{result.line()} in {time.perf_counter() - started:.0f} s", flush=True)
        for index, side, stored, expected in result.examples[:5]:
            print(f"    entry {index} ({'White' if side == 0 else 'Black'} to move, squares "
                  f"{describe(material, index)}): stored {stored}, the moves give {expected}")
        failures += result.failures
        total += result.checked
    print(f"verify: {total} positions checked one ply forward, {failures} failures")
    return 1 if failures else 0


def longest_position(path: Path) -> Tuple[str, int]:
    """``(fen, n)`` of a position with the largest n of a compact table's file: the one its header names, or
    (a file written before headers named it) the first found in its blocks."""
    import chess
    import numpy as np

    from ..files.blocks import BlockFile
    from ..table.compact_index import CompactLayout

    with BlockFile(path) as file:
        material = file.material
        longest = file.header.get("longest")
        if longest:
            side, (index, n) = max(enumerate([longest["dtm_white"], longest["dtm_black"]]), key=lambda s: s[1][1])
        else:
            best = max([*file.counts("board_counts"), *file.counts("board_counts_black")])
            side, index, n = -1, -1, best
            for s in (0, 1):
                for number in range(file.blocks):
                    values = np.frombuffer(file.block(s, number), file.dtype)
                    hit = np.flatnonzero(values == best)
                    if hit.size:
                        side, index = s, number * file.block_entries + int(hit[0])
                        break
                if index >= 0:
                    break
    squares = [int(s[0]) for s in CompactLayout(material).decode(np.array([index]))]
    board = chess.Board(None)
    for letter, square in zip(material.letters, squares):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = side == 0
    return board.fen(), n

