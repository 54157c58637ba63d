"""Reading a ZIP member fast: ISA-L's inflate, read straight from the archive.

A five-piece table's file holds a gigabyte of deflated S_n data, and a
calculation reads up to eight of them (the promotion tables of KRPvKP).
Python's ``zipfile`` inflates with zlib and checks the CRC-32 with zlib's
too.  ISA-L (Intel's storage library, the PyPI package ``isal``) inflates
the same stream to the same bytes about twice as fast and computes the
CRC-32 several times as fast (figures: docs/performance.md).

:func:`open_member` reads a member that ``zipfile`` has found in the
central directory: it finds the data behind the member's local header,
inflates it (or copies it, for a stored member), and checks its size and
CRC-32 at the end exactly as ``zipfile`` does, raising the same
``zipfile.BadZipFile``.  Members ``zipfile`` would decrypt, or that use
another compression, are left to ``zipfile`` itself.
"""

from __future__ import annotations

import struct
import zipfile
from typing import BinaryIO, List, Optional, Tuple

from isal import isal_zlib

#: Compressed bytes read from the file per step.
_READ_STEP = 1 << 22
#: Inflated bytes produced per step at most: a small, highly compressed input cannot balloon at once.
_OUTPUT_STEP = 1 << 24
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_LOCAL_SIGNATURE = b"PK\003\004"


class _MemberReader:
    """A member's data, read as a file: ``read(size)`` and ``readline()``, what an unpickler asks for."""

    def __init__(self, file: BinaryIO, info: zipfile.ZipInfo) -> None:
        self._file, self._info = file, info
        self._compressed_left = info.compress_size
        self._inflater = isal_zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
        self._crc, self._produced = 0, 0
        self._chunk, self._at = b"", 0  # output made but not yet read, and how much of it was read
        self._ended = False
        file.seek(_data_offset(file, info))

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all the rest when negative); fewer only at the end."""
        want = size if size >= 0 else 1 << 62
        parts: List[memoryview] = []
        while want > 0:
            if self._at == len(self._chunk):
                self._chunk, self._at = self._next_output(), 0
                if not self._chunk:
                    break
            piece = memoryview(self._chunk)[self._at : self._at + want]
            self._at += len(piece)
            want -= len(piece)
            parts.append(piece)
        if len(parts) == 1 and len(parts[0]) == len(self._chunk):
            return self._chunk  # a whole piece of output: no copy
        return b"".join(parts)

    def readline(self) -> bytes:
        line = bytearray()
        while not line.endswith(b"\n"):
            byte = self.read(1)
            if not byte:
                break
            line += byte
        return bytes(line)

    def _next_output(self) -> bytes:
        """The next piece of the member's data (empty at its end, once its size and CRC-32 are checked)."""
        while not self._ended:
            output, ended, complete = self._step()
            if output:
                self._produced += len(output)
                if self._produced > self._info.file_size:
                    raise zipfile.BadZipFile(f"member {self._info.filename!r} holds more than its stated size")
                self._crc = isal_zlib.crc32(output, self._crc)
            if ended:
                self._finish(complete)
            if output:
                return output
        return b""

    def _step(self) -> Tuple[bytes, bool, bool]:
        """Some output (perhaps none), whether the data is through, and whether it was complete then."""
        if self._inflater is None:  # stored
            data = self._file.read(min(_READ_STEP, self._compressed_left))
            self._compressed_left -= len(data)
            return data, not data, self._compressed_left == 0
        tail = self._inflater.unconsumed_tail
        if not tail and self._compressed_left > 0:
            tail = self._file.read(min(_READ_STEP, self._compressed_left))
            self._compressed_left = self._compressed_left - len(tail) if tail else -1  # -1: the file ends early
        try:
            output = self._inflater.decompress(tail, _OUTPUT_STEP)
        except isal_zlib.error as error:
            raise zipfile.BadZipFile(f"member {self._info.filename!r}: the deflated data is damaged ({error})") from None
        stuck = not output and not self._inflater.unconsumed_tail and self._compressed_left <= 0
        return output, self._inflater.eof or stuck, self._inflater.eof

    def _finish(self, complete: bool) -> None:
        self._ended = True
        if not complete:
            raise EOFError(f"member {self._info.filename!r}: the compressed data ends early")
        if self._produced != self._info.file_size:
            raise zipfile.BadZipFile(f"member {self._info.filename!r}: {self._produced} bytes, not the stated "
                                     f"{self._info.file_size}")
        if self._crc != self._info.CRC:
            raise zipfile.BadZipFile(f"Bad CRC-32 for file {self._info.filename!r}")


def _data_offset(file: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Where the member's data begins: after its local header, which must agree with the directory."""
    file.seek(info.header_offset)
    header = file.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != _LOCAL_SIGNATURE:
        raise zipfile.BadZipFile("bad magic number for a member's local header")
    fields = _LOCAL_HEADER.unpack(header)
    name_length, extra_length = fields[-2], fields[-1]
    if file.read(name_length) != info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437"):
        raise zipfile.BadZipFile(f"the local header's name differs from the directory's ({info.orig_filename!r})")
    return info.header_offset + _LOCAL_HEADER.size + name_length + extra_length


def open_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, file: Optional[BinaryIO] = None):
    """A file-like reader of ``info``'s data in ``archive`` (``file``: the archive's file, opened for
    reading): inflated with ISA-L where the member is deflated or stored and not encrypted, else
    ``archive.open(info)``.  Raises zipfile.BadZipFile for a wrong size or CRC-32 when the end is
    read, EOFError for data that ends early."""
    fast = info.compress_type in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED) and not info.flag_bits & 0x1
    if not fast or file is None:
        return archive.open(info)
    return _MemberReader(file, info)
