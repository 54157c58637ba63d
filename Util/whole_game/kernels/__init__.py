"""The whole-game engine's compiled kernels (numba): attack tables, positions, moves, keys, evaluation,
search and perft.  They import nothing of the package above them.

numba's cache checks only the source file of each kernel, not those of the kernels it calls, so after an
edit of one file (a pull, a merge) another file's cached machine code would still hold the old callee
inlined, or call it with the old layout.  On import, the kernels' cache is therefore dropped whenever any
kernel source differs from the one it was compiled from (a digest of all of them is kept beside it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def drop_stale_cache(folder: Path = Path(__file__).parent) -> bool:
    """Deletes the cached machine code of these kernels if any source changed since it was written;
    True if it did.  A folder that cannot be written is left alone (numba then compiles in memory)."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.glob("*.py")))).hexdigest()
    cache = folder / "__pycache__"
    stamp = cache / "kernel_sources.sha256"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return False
        dropped = False
        for path in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            path.unlink()
            dropped = True
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
        return dropped
    except OSError:
        return False


drop_stale_cache()
