"""The exit seeds of a compact calculation: by side and ply, the positions a capture decides, compressed.

The compact engine keeps no exit byte per position (see
:mod:`Util.retrograde_kernels.compact_kernels`): the first pass lists, per span
of indices, the positions whose best capture wins or loses, with its e, and
:class:`Seeds` keeps them by (side, e), each span's list of relative indices
as Zstandard-compressed differences (a dense list of a billion positions
takes a few hundred megabytes so).  Ply e reads its seeds span by span.
"""

from __future__ import annotations

import threading
from typing import Dict, Iterator, List, Tuple

import numpy as np
import zstandard

from ..retrograde_kernels.sorting import bucket_by_value

__all__ = ["Seeds"]

_local = threading.local()


def _compressor() -> zstandard.ZstdCompressor:
    if not hasattr(_local, "compressor"):
        _local.compressor = zstandard.ZstdCompressor(level=1)
        _local.decompressor = zstandard.ZstdDecompressor()
    return _local.compressor


class Seeds:
    """The seeds of both sides: ``add`` a span's (from the first pass, any thread), ``at(side, e)`` the
    positions of one ply, in pieces of ascending indices (int64)."""

    def __init__(self) -> None:
        self._parts: List[Dict[int, List[Tuple[int, int, bytes]]]] = [{}, {}]
        self._lock = threading.Lock()

    def add(self, side: int, start: int, relative: np.ndarray, value: np.ndarray) -> None:
        """The seeds of the span beginning at ``start``: ``relative`` indices (int32, ascending) and their
        exit values (uint8)."""
        if not relative.size:
            return
        grouped, starts = bucket_by_value(relative.astype(np.int32), value.astype(np.uint8))
        compressor = _compressor()
        found = []
        for e in np.flatnonzero(np.diff(starts[:257])).tolist():
            part = grouped[starts[e] : starts[e + 1]]
            deltas = np.diff(part, prepend=np.int32(0)).astype(np.uint32)
            found.append((e, (start, part.size, compressor.compress(deltas.tobytes()))))
        with self._lock:
            for e, item in found:
                self._parts[side].setdefault(e, []).append(item)

    def at(self, side: int, e: int) -> Iterator[np.ndarray]:
        """The seeds of ``side`` at ply ``e``, span by span (int64 indices, ascending within a span)."""
        _compressor()
        for start, count, data in sorted(self._parts[side].get(e, [])):
            deltas = np.frombuffer(_local.decompressor.decompress(data, max_output_size=4 * count), np.uint32)
            yield np.cumsum(deltas, dtype=np.int64) + start

    def count(self, side: int, e: int) -> int:
        return sum(count for _, count, _ in self._parts[side].get(e, []))

    @property
    def last(self) -> int:
        """The largest e of any seed, -1 if none."""
        return max([max(parts) for parts in self._parts if parts], default=-1)

    @property
    def nbytes(self) -> int:
        """Memory the compressed seeds hold."""
        return sum(len(data) for parts in self._parts for items in parts.values() for _, _, data in items)

    def drop_below(self, n: int) -> None:
        """Forget the seeds of plies before n (done)."""
        with self._lock:
            for parts in self._parts:
                for e in [e for e in parts if e < n]:
                    del parts[e]

    # ---- as plain arrays, for a checkpoint --------------------------------------------------------
    def to_arrays(self) -> Dict[str, np.ndarray]:
        """The seeds as arrays: per item (side, e, start, count) and the compressed bytes joined."""
        items, blobs = [], []
        for side, parts in enumerate(self._parts):
            for e, entries in sorted(parts.items()):
                for start, count, data in entries:
                    items.append((side, e, start, count, len(data)))
                    blobs.append(data)
        return {"seed_items": np.array(items, dtype=np.int64).reshape(-1, 5),
                "seed_bytes": np.frombuffer(b"".join(blobs), dtype=np.uint8)}

    @classmethod
    def from_arrays(cls, items: np.ndarray, data: np.ndarray) -> "Seeds":
        seeds, at, blob = cls(), 0, data.tobytes()
        for side, e, start, count, size in items.tolist():
            seeds._parts[side].setdefault(e, []).append((start, count, blob[at : at + size]))
            at += size
        return seeds
