"""Computing tables into files: dependencies first, progress, checkpoints, resume.

``calculate("KBNvK")`` writes ``S_n_Results/KBNvK.chessAI``.  Tables that a
game can turn into (after a capture or a promotion) are loaded from the
same folder when a valid file is there, and computed in memory otherwise (and
written there too by a ``TableStore(..., save=True)``, which notebook 02 uses so
that the chapters after it find every table it computed).

While a table is computed, the finished plies are saved to
``<file>.partial``: at most every ``checkpoint_seconds``, and only once the
work since the last save is CHECKPOINT_SAVES_APART times as long as a save
(so saving costs at most 2.5 % of a run).  A calculation that was
killed resumes from there when started again (the thesis's
``resume_from_file``) and writes the same file an uninterrupted run writes.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from ..folders import RESULTS_DIR
from ..files.chessai import ChessAIFileError, load_checkpoint, load_sides, load_table, save_checkpoint, save_table
from ..rules.exits import PromotionSlice, promotion_slices
from .boards import board_counts_by_winner
from ..table.index_scheme import Layout
from ..board.material import PIECE_ORDER, Material, MaterialError, beyond_the_tables
from ..runtime.parallel import Threads
from ..runtime.progress import progress_bar
from ..table.dtm_table import DtmTable
from ..retrograde import compute_table
from ..runtime.memory import return_freed_memory

__all__ = ["MaterialLike", "default_path", "TableStore", "CHECKPOINT_SAVES_APART", "SAVE_SECONDS_PER_BYTE",
           "all_materials", "calculation_order", "calculate", "calculate_table", "write_table", "run_from_start",
           "resume_from_file"]

MaterialLike = Union[str, Material]


def default_path(material: MaterialLike, results_dir: Optional[os.PathLike] = None) -> Path:
    """``S_n_Results/<MATERIAL>.chessAI``."""
    return Path(results_dir or RESULTS_DIR) / f"{_material(material).name}.chessAI"


def _material(material: MaterialLike) -> Material:
    """The canonical material: one table (and file) serves both colour orders (``KRvKQ`` is ``KQvKR``)."""
    return (material if isinstance(material, Material) else Material.parse(material)).canonical


class TableStore:
    """Tables by material, loaded from a folder or computed in memory, each at most once."""

    def __init__(self, results_dir: Optional[os.PathLike] = None, progress: bool = True, save: bool = False,
                 threads: Optional[int] = None):
        self.results_dir = Path(results_dir or RESULTS_DIR)
        self.progress = progress
        #: Write every table this store computes into ``results_dir`` (as :func:`calculate` writes it), so that
        #: whoever opens the folder later loads it instead of computing it again.
        self.save = save
        #: Threads each calculation runs (None: all cores; a worker of a cluster that shares the cores, fewer).
        self.threads = threads
        #: Seconds of each table computed here: its own plies (the tables it leads into are timed apart), plus
        #: writing its file when it was written.
        self.seconds: Dict[Material, float] = {}
        self._tables: Dict[Material, DtmTable] = {}

    def add(self, table: DtmTable) -> None:
        self._tables[table.material] = table

    def table(self, material: MaterialLike) -> DtmTable:
        """The table of ``material``: how :class:`Util.sequence.SnSequence` reads the tables it leads into."""
        return self.get(material)

    def counts(self, material: MaterialLike) -> Tuple[Dict[int, int], Dict[int, int]]:
        """Boards per n of the S_n in which White mates and of those in which Black mates (counted)."""
        from .boards import board_counts_by_winner

        return board_counts_by_winner(self.get(material))

    def get(self, material: MaterialLike) -> DtmTable:
        material = _material(material)
        if material not in self._tables:
            table = self._load(material)
            if table is None:
                table = self.compute(material)
                if self.save and material.piece_count > 2:  # two bare kings need no file (TableFolder knows)
                    self.write(material, default_path(material, self.results_dir))
            self._tables[material] = table
        return self._tables[material]

    def write(self, material: MaterialLike, path: os.PathLike) -> Tuple[Dict[int, int], Dict[int, int]]:
        """Write the table of ``material`` (computed or loaded here) to ``path``; its time is added to
        :attr:`seconds`.  Returns the board counts per n of the S_n in which White mates and of those in which
        Black mates (see :func:`write_table`)."""
        material = _material(material)
        start = time.perf_counter()
        counts = write_table(self._tables[material], Path(path))
        self.seconds[material] = self.seconds.get(material, 0.0) + time.perf_counter() - start
        return counts

    def forget_larger_than(self, pieces: int) -> None:
        """Drop the tables with more than ``pieces`` pieces (they are loaded again when asked for)."""
        for material in [m for m in self._tables if m.piece_count > pieces]:
            del self._tables[material]
        return_freed_memory()

    def _load(self, material: Material, sides: Tuple[bool, ...] = (True, False)) -> Optional[DtmTable]:
        """The table (only the arrays of ``sides``, True: White to move) from its file in the folder; None
        if there is no usable file (a broken one is named)."""
        path = default_path(material, self.results_dir)
        if path.exists():
            try:
                return load_table(path)[0] if len(set(sides)) == 2 else load_sides(path, sides)
            except ChessAIFileError as error:
                print(f"note: {error}; computing {material} in memory instead (python -m Util calculate {material} "
                      f"writes a new file)", file=sys.stderr)
        return None

    def _sides(self, material: Material, sides) -> DtmTable:
        """``material``'s table with only the sides to move the engine reads (White after a capture into a
        lone-king table, Black after a promotion); the others are empty.  A table loaded from its file for
        this alone is not kept: a 5-piece sub-table with a pawn then holds half its memory."""
        table = self._tables.get(material) or self._load(material, sides) or self.get(material)
        return _only(table, sides)

    def subtables_of(self, material: Material) -> Dict[Material, Union[DtmTable, PromotionSlice]]:
        """The sides of the sub-tables that ``material``'s calculation reads, by material.  Those in files
        are read on all cores at once (unzipping, checksums and copies release the interpreter lock), and
        only the sides read are made into arrays; the others are computed.  Of a table with pawns that
        only promotions lead into, only the part they read is kept (see PromotionSlice)."""
        needed = material.sides_read()
        parts = promotion_slices(material)
        on_file = [(m, sides) for m, sides in needed.items()
                   if m not in self._tables and default_path(m, self.results_dir).exists()]

        def kept(m: Material, table: Optional[DtmTable]):
            """A table that only promotions lead into: only the part they read (an eighth of one side)."""
            return PromotionSlice(table, *parts[m]) if table is not None and m in parts else table

        def read(item) -> Tuple[Material, Optional[DtmTable]]:
            return item[0], kept(item[0], self._load(*item))

        large = sum(default_path(m, self.results_dir).stat().st_size for m, _ in on_file) > (1 << 24)
        if large and len(on_file) > 1:
            with Threads() as threads:
                loaded = dict(threads.map(read, on_file))
            return_freed_memory()  # what the reading threads freed stays in their heaps otherwise
        else:  # small files: a pool and a trim would cost more than they save
            loaded = dict(map(read, on_file))
        return {m: loaded.get(m) or kept(m, self._sides(m, sides)) for m, sides in needed.items()}

    def compute(self, material: MaterialLike, checkpoint_path: Optional[Path] = None,
                checkpoint_seconds: float = 10.0) -> DtmTable:
        """Compute ``material`` (its dependencies first), saving progress to ``checkpoint_path``."""
        material = _material(material)
        subtables = self.subtables_of(material)
        resume = None
        if checkpoint_path is not None and checkpoint_path.exists():
            try:
                resume = load_checkpoint(checkpoint_path, material)
            except ChessAIFileError as error:
                print(f"note: {error}; starting {material} from scratch", file=sys.stderr)
        bar = progress_bar(desc=f"{material}: S_n", unit=" ply", disable=not self.progress, leave=False)
        if resume is not None:
            print(f"{material}: resuming after ply {resume[0]} from {checkpoint_path}", file=sys.stderr)
        last_save = [time.monotonic()]

        def on_ply(n: int, new: int) -> None:
            # Only n: the engine's frontier counts index entries, not boards (a folded entry stands for
            # up to eight boards), and counting boards per ply would cost a pass over every frontier.
            bar.update(1)
            bar.set_postfix_str(f"n={n}")

        # Until a save has been timed, it is expected to cost what saving so many bytes took here.
        save_cost = [2 * Layout(material).size * SAVE_SECONDS_PER_BYTE]

        def checkpoint(n: int, dtm_white, dtm_black) -> None:
            # Every checkpoint_seconds, but only once the work since the last save (since the start, for
            # the first) is CHECKPOINT_SAVES_APART times what a save costs: a 5-piece checkpoint writes a
            # GB.  0 asks for every ply, whatever it costs (demonstrations of resuming, tests).
            wait = max(checkpoint_seconds, CHECKPOINT_SAVES_APART * save_cost[0]) if checkpoint_seconds > 0 else 0.0
            if checkpoint_path is not None and time.monotonic() - last_save[0] >= wait:
                started = time.monotonic()
                save_checkpoint(checkpoint_path, material, n, dtm_white, dtm_black)
                last_save[0] = time.monotonic()
                save_cost[0] = last_save[0] - started

        start = time.perf_counter()
        try:
            table = compute_table(material, subtables, resume=resume, on_ply=on_ply, checkpoint=checkpoint,
                                  release_subtables=True, threads=self.threads)
        finally:
            bar.close()
        self.seconds[material] = time.perf_counter() - start
        self._tables[material] = table
        return table


#: A checkpoint comes only after work at least this many times as long as a save: saving progress costs
#: at most 1/40 of the run, and an interruption loses at most that much work (a five-piece pawn table's
#: checkpoint, a gigabyte, takes 2 to 4 s to write here: at most about two minutes of work lost).
CHECKPOINT_SAVES_APART = 40
#: What a checkpoint is expected to cost per byte of S_n data (about 3 s a gigabyte, mostly the disk's)
#: before one is timed, so that the first checkpoint of a large table also waits for work worth its cost.
SAVE_SECONDS_PER_BYTE = 3e-9


def _only(table: DtmTable, sides) -> DtmTable:
    """``table`` with only the arrays of ``sides`` (True: White to move), the others empty."""
    empty = np.empty(0, dtype=np.uint8)
    return DtmTable(table.material, table.dtm_white if True in sides else empty,
                    table.dtm_black if False in sides else empty)


def all_materials(max_pieces: int = 5) -> List[Material]:
    """Every canonical material with 3 to ``max_pieces`` pieces (kings included): 5, 35 and 145 tables
    for 3, 4 and 5 pieces; of six pieces those without pawns the compact engine computes (four identical
    pieces left out too)."""
    found = set()
    for extra in range(1, max_pieces - 1):
        for letters in itertools.combinations_with_replacement(PIECE_ORDER, extra):
            for cut in range(extra + 1):
                for white in itertools.combinations(letters, cut):
                    black = list(letters)
                    for c in white:
                        black.remove(c)
                    material = Material("".join(white), "".join(black)).canonical
                    if extra == 4 and (material.has_pawns or max(map(letters.count, letters)) > 3):
                        continue  # beyond the compact engine (pawns; four identical pieces)
                    found.add(material)
    return sorted(found, key=lambda m: (m.piece_count, bool(m.black), m.has_pawns, m.name))


def check_computable(material: Material) -> None:
    """MaterialError, saying what can be computed, for a table no engine here computes
    (:func:`~Util.board.material.beyond_the_tables`)."""
    reason = beyond_the_tables(material)
    if reason:
        raise MaterialError(reason)


def calculation_order(materials: Optional[Iterable[MaterialLike]] = None, max_pieces: int = 5) -> List[Material]:
    """``materials`` (default: every material up to ``max_pieces`` pieces) and every table they need,
    each after the tables it needs (KvK, a draw computed in a moment, is left out).  MaterialError for a
    material no engine here computes (:func:`check_computable`), before anything is computed."""
    wanted = [_material(m) for m in materials] if materials is not None else all_materials(max_pieces)
    for material in wanted:
        check_computable(material)
    order: List[Material] = []

    def visit(material: Material) -> None:
        if material in order or material.piece_count < 3:
            return
        for dependency in material.dependencies():
            visit(dependency)
        order.append(material)

    for material in wanted:
        visit(material)
    return order


def calculate(material: MaterialLike, out: Optional[os.PathLike] = None, **options) -> Path:
    """Compute every S_n of ``material`` and write the ``.chessAI`` file; returns its path.

    ``options`` are those of :func:`calculate_table` (``results_dir``,
    ``progress``, ``checkpoint_seconds``, ``fresh``, ``store``);
    ``fresh=True`` ignores a checkpoint left by an interrupted run.
    """
    return calculate_table(material, out, **options)[0]


def calculate_table(
    material: MaterialLike,
    out: Optional[os.PathLike] = None,
    *,
    results_dir: Optional[os.PathLike] = None,
    progress: bool = True,
    checkpoint_seconds: float = 10.0,
    fresh: bool = False,
    store: Optional[TableStore] = None,
    compact: Optional[bool] = None,
) -> Tuple[Path, DtmTable, Dict[int, int], Dict[int, int]]:
    """:func:`calculate`, returning also the table and its board counts per n of the S_n in which White
    mates and of those in which Black mates (no need to read the file back).  ``compact``: compute in the
    compact index and write format 5 (None: for six pieces, which only it can hold; True: any pawnless
    table, as the tests do to check it on small ones)."""
    material = _material(material)
    path = Path(out) if out else default_path(material, results_dir)
    store = store or TableStore(results_dir or path.parent, progress=progress)
    if compact or (compact is None and material.piece_count >= 6):  # the compact index: one entry per position (calculation.compact_store)
        from .compact_store import calculate_compact_table

        return calculate_compact_table(material, path, store, progress=progress, fresh=fresh,
                                       checkpoint_seconds=max(checkpoint_seconds, 0.0), threads=store.threads)
    partial = path.with_name(path.name + ".partial")
    if fresh and partial.exists():
        partial.unlink()
    table = store.compute(material, checkpoint_path=partial, checkpoint_seconds=checkpoint_seconds)
    counts, counts_black = store.write(material, path)
    if partial.exists():
        partial.unlink()
    return path, table, counts, counts_black


def write_table(table: DtmTable, path: Path) -> Tuple[Dict[int, int], Dict[int, int]]:
    """Write ``table`` to the ``.chessAI`` file ``path``; returns its board counts per n of the S_n in which
    White mates and of those in which Black mates."""
    # The counts are written after the S_n data: counted on another thread while the writer compresses
    # that data, so the counting costs no time of its own; the file is the same byte for byte.
    with ThreadPoolExecutor(1, thread_name_prefix="board-counts") as pool:
        counting = pool.submit(board_counts_by_winner, table)
        save_table(table, path, lambda: counting.result()[0], lambda: counting.result()[1])
        return counting.result()


def run_from_start(material: MaterialLike, filename: Optional[os.PathLike] = None) -> Path:
    """The thesis's entry point: compute from scratch, ignoring any checkpoint."""
    return calculate(material, filename, fresh=True)


def resume_from_file(material: MaterialLike, filename: Optional[os.PathLike] = None) -> Path:
    """The thesis's resume: continue from the checkpoint if there is one, else start."""
    return calculate(material, filename)


def interrupt_calculation(material: MaterialLike, out: os.PathLike, after_ply: int, poll_seconds: float = 0.02) -> int:
    """Start ``python -m Util calculate`` of ``material`` into ``out`` as a separate process that saves a
    checkpoint after every ply, kill it as soon as the checkpoint holds ply ``after_ply`` (or a later one),
    and return the last ply the checkpoint holds: a demonstration of an interrupted calculation, which
    :func:`resume_from_file` then continues.  RuntimeError if the process ended before that ply (a table too
    small, or an error: its exit code is named)."""
    import subprocess

    material = _material(material)
    partial = Path(out).with_name(Path(out).name + ".partial")

    def checkpoint_ply() -> int:  # -1 while there is none (it is replaced atomically, never half-written)
        return load_checkpoint(partial, material)[0] if partial.exists() else -1

    worker = subprocess.Popen([sys.executable, "-m", "Util", "calculate", material.name, "--out", str(out),
                               "--checkpoint-seconds", "0", "--quiet", "--fresh"])
    while worker.poll() is None and checkpoint_ply() < after_ply:
        time.sleep(poll_seconds)
    worker.kill()
    worker.wait()
    reached = checkpoint_ply()
    if reached < after_ply or Path(out).exists():
        raise RuntimeError(f"{material}: the calculation ended (exit code {worker.returncode}) before it could be "
                           f"interrupted after ply {after_ply}; choose a smaller ply or a larger table")
    return reached
