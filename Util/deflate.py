"""Deflate on all cores: one deflate stream, made of pieces compressed side by side.

zlib compresses on one core.  A five-piece table's gigabyte takes it about
ten seconds at level 4, a tenth of the whole calculation, while the other
core waits.  :class:`ParallelDeflate` cuts its input into pieces of a fixed
size and deflates them on all cores at once, the way pigz does it:

- each piece is compressed with the 32 KB of input before it as a preset
  dictionary, so it may refer back into the piece before, exactly as one
  stream could (deflate never looks back further than 32 KB);
- each piece but the last ends with a sync flush: its bits are padded to a
  whole byte and no block is marked final, so the next piece simply
  follows; the last piece ends the stream.

The pieces joined are one ordinary deflate stream: any inflater (zipfile,
unzip) reads it.  It is not the stream zlib makes on one core (the pieces
are matched separately, and each flush adds a few bytes), so its bytes
depend on the piece size, but never on timing: the same input always gives
the same output.
"""

from __future__ import annotations

import zlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from types import ModuleType
from typing import Deque, Optional

from .parallel import core_count

#: Input bytes per piece: large enough that the work per piece (about 40 ms at level 4) dwarfs handing it
#: to a thread, small enough that every core has pieces until the end.
PIECE = 1 << 23
#: Deflate's window: how far back a match may reach, so how much of the input before a piece it needs.
WINDOW = 1 << 15


def deflate_piece(piece: bytes, dictionary: bytes, level: int, last: bool, library: ModuleType = zlib) -> bytes:
    """Raw deflate of one piece, primed with ``dictionary`` (the input before it); ends the stream if
    ``last``, else ends on a byte boundary with no final block.  ``library``: zlib, or a module with
    zlib's compressobj (ISA-L's ``isal.isal_zlib``)."""
    if dictionary:
        compressor = library.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=dictionary)
    else:
        compressor = library.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(piece) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


class ParallelDeflate:
    """Behaves as ``library.compressobj(level, zlib.DEFLATED, -15)`` does for zipfile (``compress``, then
    one ``flush``), but deflates pieces of ``piece`` bytes (default :data:`PIECE`) on ``threads`` threads
    (default: all cores; zlib and ISA-L let go of the interpreter lock while they compress).  Waits once
    more than two pieces per thread are in flight, so its memory stays a few pieces whatever the input's
    size.  Input of one piece or less gives exactly the bytes of the library's compressobj."""

    def __init__(self, level: int, piece: Optional[int] = None, threads: Optional[int] = None,
                 library: ModuleType = zlib) -> None:
        piece = piece or PIECE
        if piece < WINDOW:
            raise ValueError(f"pieces of {piece} bytes: they must hold at least deflate's window ({WINDOW})")
        self.level, self.piece, self.library = level, piece, library
        self._threads = max(1, threads or core_count())
        self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="deflate")
        self._buffer = bytearray()
        self._before = b""  # the WINDOW bytes of input before the buffer
        self._in_flight: Deque[Future] = deque()

    def compress(self, data) -> bytes:
        """Take ``data`` (anything with the buffer protocol); return the output finished so far."""
        self._buffer += data
        while len(self._buffer) > self.piece:  # '>': the piece that ends the input is sent by flush
            self._send(bytes(self._buffer[: self.piece]), last=False)
            del self._buffer[: self.piece]
        return self._collect(wait=len(self._in_flight) > 2 * self._threads)

    def flush(self, mode: int = zlib.Z_FINISH) -> bytes:
        """End the stream (only ``Z_FINISH``, as zipfile asks); return the rest of the output."""
        if mode != zlib.Z_FINISH:
            raise ValueError("ParallelDeflate only ends its stream (Z_FINISH)")
        self._send(bytes(self._buffer), last=True)
        self._buffer = bytearray()
        try:
            return self._collect(wait=True, everything=True)
        finally:
            self._pool.shutdown()

    def _send(self, piece: bytes, last: bool) -> None:
        self._in_flight.append(self._pool.submit(deflate_piece, piece, self._before, self.level, last, self.library))
        self._before = piece[-WINDOW:] if len(piece) >= WINDOW else (self._before + piece)[-WINDOW:]

    def _collect(self, wait: bool, everything: bool = False) -> bytes:
        """The outputs of the pieces done, in order: stops at the first not yet done, unless ``wait``
        (then waits for the first, or for all if ``everything``)."""
        out = []
        while self._in_flight and (self._in_flight[0].done() or wait):
            out.append(self._in_flight.popleft().result())
            wait = everything
        return b"".join(out)
