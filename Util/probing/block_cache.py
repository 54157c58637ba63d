"""A least-recently-used cache of decoded blocks with a limit in bytes, safe to share between threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Hashable

#: The default limit: 64 MiB, 2,048 blocks of 32 K entries (Gaviota's example program gives its
#: caches 32 MiB).
DEFAULT_CACHE_BYTES = 64 << 20


class BlockCache:
    """Decoded blocks by key, the least recently used dropped first once they hold more than
    ``limit_bytes`` (0: nothing is kept).  ``get(key, load)`` returns the cached block or calls
    ``load()`` (outside the lock, so threads decode different blocks at once) and keeps its result."""

    def __init__(self, limit_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        if limit_bytes < 0:
            raise ValueError(f"the cache limit is {limit_bytes} bytes; give 0 or more")
        self.limit_bytes = limit_bytes
        self.bytes = 0
        self.hits = self.misses = 0
        self._blocks: "OrderedDict[Hashable, bytes]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, load: Callable[[], bytes]) -> bytes:
        with self._lock:
            block = self._blocks.get(key)
            if block is not None:
                self._blocks.move_to_end(key)
                self.hits += 1
                return block
            self.misses += 1
        block = load()
        if len(block) <= self.limit_bytes:
            with self._lock:
                if key not in self._blocks:
                    self._blocks[key] = block
                    self.bytes += len(block)
                    while self.bytes > self.limit_bytes:
                        _, dropped = self._blocks.popitem(last=False)
                        self.bytes -= len(dropped)
        return block

    def clear(self) -> None:
        with self._lock:
            self._blocks.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._blocks)
