"""Six-piece tables into files: the compact engine, its progress, its checkpoints.

``calculate("KRNvKNN")`` comes here (:func:`calculate_compact_table`): the
five-piece tables the captures lead into are loaded from the folder (or
computed) by the :class:`Util.calculation.store.TableStore`, the compact engine
(:func:`Util.retrograde.compact.compute_compact_table`) computes the table,
and :func:`Util.files.chessai.save_compact_table` writes it in format 5.

**Progress.**  The first pass prints its share done every 5 %, with the time
so far and what is left of it; each ply prints a line: plies done, positions decided (of the
legal ones), time so far, and an estimate of what is left (the plies' new
positions shrink by a rate that the last plies show; the estimate is what
that rate leaves, at the last plies' pace).

**Checkpoints.**  After a ply, once the work since the last save is
CHECKPOINT_SAVES_APART times what a save costs, the calculation's state
(both byte arrays in Zstandard blocks, the long mates listed, the seeds left)
goes to ``<file>.partial``, a folder; a run started again resumes there, and
writes the file an uninterrupted run writes.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, Optional, Tuple

import numpy as np
import zstandard

from ..board.material import Material
from ..files.chessai import save_compact_table
from ..retrograde.compact import CompactProgress, CompactState, compute_compact_table
from ..retrograde.seeds import Seeds
from ..runtime.parallel import core_count
from ..table.compact_table import CompactTable
from .boards import compact_board_counts_by_winner

__all__ = ["COMPACT_FROM_PIECES", "calculate_compact_table", "save_state", "load_state", "ProgressLine"]

#: Tables of this many pieces are computed in the compact index.
COMPACT_FROM_PIECES = 6
#: As store.CHECKPOINT_SAVES_APART: a save costs at most 1/40 of the run.
CHECKPOINT_SAVES_APART = 40
_PIECE = 1 << 24


class ProgressLine:
    """``on_ply`` of a compact calculation: one line per ply on ``stream`` (see the module's docstring)."""

    def __init__(self, material: Material, stream=sys.stderr, every: float = 0.0) -> None:
        self.material, self.stream, self.every = material, stream, every
        self.legal = 0
        self.history: list = []
        self._last = -1e9

    def __call__(self, progress: CompactProgress) -> None:
        self.history.append(progress)
        self.legal = progress.legal
        if progress.seconds - self._last < self.every:
            return
        self._last = progress.seconds
        print(self.line(progress), file=self.stream, flush=True)

    def first_pass(self, done: int, total: int, seconds: float) -> None:
        """The first pass's line: spans done of all, time so far, and what is left at that pace."""
        left = seconds / done * (total - done)
        print(f"{self.material}: first pass {100 * done / total:.0f} % ({done} of {total} spans), {seconds:.0f} s so "
              f"far, about {left / 60:.0f} min left of it", file=self.stream, flush=True)

    def estimate_left(self) -> Optional[float]:
        """Seconds left, from the new positions of the last plies and their pace (None: too early).  Plies are
        taken in pairs (a win ply and a loss ply find very different numbers): the last two pairs against the
        two before give the rate at which they shrink."""
        recent = self.history[-8:]
        if len(recent) < 8 or not recent[-1].new:
            return None
        olds, news = sum(p.new for p in recent[:4]), sum(p.new for p in recent[4:])
        seconds = (recent[-1].seconds - recent[3].seconds) / max(1, news)
        undecided = self.legal - recent[-1].decided
        if news >= olds:
            left = undecided  # still growing: at most the rest
        else:
            per_pair = (news / max(1, olds)) ** 0.5
            left = (recent[-1].new + recent[-2].new) * per_pair / (1 - per_pair)
        return seconds * min(left, undecided)

    def line(self, progress: CompactProgress) -> str:
        share = 100 * progress.decided / max(1, self.legal)
        left = self.estimate_left()
        estimate = f", about {left / 60:.0f} min left" if left is not None else ""
        return (f"{self.material}: ply {progress.n}, {progress.new:,} new, {progress.decided:,} of {self.legal:,} "
                f"legal positions decided ({share:.1f} %), {progress.seconds + progress.first_pass_seconds:.0f} s "
                f"so far (first pass {progress.first_pass_seconds:.0f} s){estimate}")


def calculate_compact_table(material: Material, path: Path, store, *, progress: bool = True,
                            checkpoint_seconds: float = 60.0, fresh: bool = False,
                            threads: Optional[int] = None) -> Tuple[Path, CompactTable, Dict[int, int], Dict[int, int]]:
    """Compute ``material`` (six pieces) into ``path`` (format 5), resuming from ``<path>.partial`` unless
    ``fresh``; returns the path, the table and its board counts (White's mates, Black's)."""
    partial = path.with_name(path.name + ".partial")
    if fresh and partial.exists():
        shutil.rmtree(partial)
    resume = None
    if partial.exists():
        try:
            resume = load_state(partial, material)
            print(f"{material}: resuming after ply {resume.n_done} from {partial}", file=sys.stderr)
        except (OSError, ValueError, KeyError) as error:
            print(f"note: {partial}: {error}; starting {material} from scratch", file=sys.stderr)
    subtables = {} if resume is not None else store.subtables_of(material)
    line = ProgressLine(material, stream=sys.stderr if progress else open(os.devnull, "w"))
    last_save, save_cost = [time.monotonic()], [0.0]

    def checkpoint(state: CompactState) -> None:
        if checkpoint_seconds < 0:
            return
        wait = max(checkpoint_seconds, CHECKPOINT_SAVES_APART * save_cost[0]) if checkpoint_seconds > 0 else 0.0
        if time.monotonic() - last_save[0] >= wait:
            began = time.monotonic()
            save_state(partial, material, state)
            last_save[0] = time.monotonic()
            save_cost[0] = last_save[0] - began

    table = compute_compact_table(material, subtables, threads=threads, on_ply=line, checkpoint=checkpoint,
                                  resume=resume, release_subtables=True, on_first_pass=line.first_pass)
    counts, counts_black = compact_board_counts_by_winner(table)
    save_compact_table(table, path, counts, counts_black)
    if partial.exists():
        shutil.rmtree(partial)
    return path, table, counts, counts_black


# ---- the state on disk ---------------------------------------------------------------------------------

def save_state(folder: Path, material: Material, state: CompactState) -> None:
    """Write ``state`` into ``folder`` (replaced atomically: written beside it, then renamed)."""
    temporary = folder.with_name(folder.name + ".new")
    if temporary.exists():
        shutil.rmtree(temporary)
    temporary.mkdir(parents=True)
    for side, values in enumerate(state.bytes_):
        _write_array(temporary / f"bytes_{side}.zst", values)
    tails = {f"tail_{side}_{n}": positions for side, tails in enumerate(state.tails) for n, positions in tails.items()}
    np.savez(temporary / "tails.npz", **tails, **state.seeds.to_arrays())
    (temporary / "state.json").write_text(json.dumps({"material": material.name, "n_done": state.n_done,
                                                      "entries": int(state.bytes_[0].size)}))
    old = folder.with_name(folder.name + ".old")
    if folder.exists():
        folder.rename(old)
    temporary.rename(folder)
    if old.exists():
        shutil.rmtree(old)


def load_state(folder: Path, material: Material) -> CompactState:
    """The state ``save_state`` wrote (ValueError if it is not of ``material``)."""
    meta = json.loads((folder / "state.json").read_text())
    if meta["material"] != material.name:
        raise ValueError(f"a checkpoint of {meta['material']}, not {material}")
    arrays = [_read_array(folder / f"bytes_{side}.zst", meta["entries"]) for side in (0, 1)]
    with np.load(folder / "tails.npz") as saved:
        tails: list = [{}, {}]
        for key in saved.files:
            if key.startswith("tail_"):
                _, side, n = key.split("_")
                tails[int(side)][int(n)] = saved[key]
        seeds = Seeds.from_arrays(saved["seed_items"], saved["seed_bytes"])
    return CompactState(meta["n_done"], arrays, tails, seeds)


def _write_array(path: Path, values: np.ndarray) -> None:
    """``values`` (uint8) in Zstandard frames of 16 M bytes, compressed on all cores, with their sizes."""
    compressor_of = {}

    def compress(start: int) -> bytes:
        import threading

        key = threading.get_ident()
        if key not in compressor_of:
            compressor_of[key] = zstandard.ZstdCompressor(level=1)
        return compressor_of[key].compress(values[start : start + _PIECE].tobytes())

    with ThreadPoolExecutor(core_count()) as pool, open(path, "wb") as out:
        sizes = []
        for frame in pool.map(compress, range(0, values.size, _PIECE)):
            out.write(frame)
            sizes.append(len(frame))
    np.save(path.with_suffix(".sizes.npy"), np.array(sizes, np.int64))


def _read_array(path: Path, entries: int) -> np.ndarray:
    sizes = np.load(path.with_suffix(".sizes.npy"))
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    values = np.empty(entries, np.uint8)
    data = path.read_bytes()

    def decompress(k: int) -> None:
        frame = zstandard.ZstdDecompressor().decompress(data[offsets[k] : offsets[k + 1]], max_output_size=_PIECE)
        values[k * _PIECE : k * _PIECE + len(frame)] = np.frombuffer(frame, np.uint8)

    with ThreadPoolExecutor(core_count()) as pool:
        list(pool.map(decompress, range(len(sizes))))
    return values
