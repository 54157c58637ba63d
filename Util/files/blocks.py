"""The random-access ``.chessAI`` file (format versions 4 and 5): S_n values in independently compressed blocks.

One file per material, a ZIP archive whose members are all *stored*
(uncompressed by ZIP itself), so that any ZIP tool lists, tests
(``unzip -t``) and extracts it, and a reader can find every member's bytes
at a fixed place in the file:

===================  ==========================================================
``header.json``      UTF-8 JSON: ``format`` ("chessAI"), ``version`` (4),
                     ``kind`` ("table"), ``material``, ``piece_list``,
                     ``index_scheme``, ``entries_per_side``, ``block_entries``,
                     ``codec``, ``blank`` (255), ``board_counts`` and
                     ``board_counts_black`` (``{"n": boards}``), and per side
                     (``dtm_white``, ``dtm_black``) its number of ``blocks``
                     and the ``sha256`` of its index member
``dtm_white.index``  ``blocks + 1`` little-endian uint64 offsets into the blocks
                     member (the last one is its size), then ``blocks``
                     little-endian uint32 CRC-32 values, one per compressed block
``dtm_white.blocks`` the compressed blocks, one after the other
``dtm_black.index``  the same for Black to move
``dtm_black.blocks``
===================  ==========================================================

Entry ``i`` of a side (the index scheme of :mod:`Util.table.index_scheme`; one byte,
the DTM value in plies, 255 for a draw) is byte ``i % block_entries`` of
block ``i // block_entries`` once that block is decoded; every block holds
``block_entries`` entries but the last, which holds the rest.  The codec
(:data:`CODECS`) is ``"zstd"``: each block is one Zstandard frame (RFC 8878)
that records its decoded size, so the blocks member as a whole is a valid
``.zst`` stream of the side's bytes (``unzip -p KQvK.chessAI
dtm_white.blocks | zstd -d`` prints them).  Entries that repeat another
entry's value (identical pieces out of order; a pawnless table's mirror in
the a1-h8 diagonal) are stored as ``blank`` (see
:meth:`Util.table.index_scheme.Layout.blank_duplicates`): they compress to almost
nothing, and a reader looks up the entry that is kept
(:func:`Util.table.stored_index.stored_index`).

How the codec and the block size were chosen (measured on this project's
tables; the figures and the command that repeats them are in
``docs/performance.md``): cut into blocks, ISA-L's fast deflate (what
wrote the one-stream files of version 3) made files a sixth larger than
one deflate stream, Zstandard at level 1 smaller than it, and decodes a
block faster; blocks of 32 K entries lose little to larger ones in size,
and decoding one costs far less than the 2 ms a cold probe may take.

**Version 5** is the same file for a table in the compact index of six
pieces (:mod:`Util.table.compact_index`: ``index_scheme`` names it, and every
entry is a position, so nothing is blanked as a repeat): its header adds
``value_bytes``, 1 or 2, the little-endian bytes of each value (KRNvKNN's mates
of up to 523 plies need two), and ``blank`` is then 65,535; a block holds
``block_entries`` values, ``block_entries * value_bytes`` bytes.

Nothing in the file is executed: JSON and arrays of integers only.  A
reader checks the ZIP's own CRC-32 of the header and the index members,
the index's SHA-256 named in the header, that the offsets rise and stay
inside the member, and each block's CRC-32 and decoded size before using
it; every problem is a :class:`ChessAIFileError` naming the file, the
block and what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import threading
import zipfile
from collections import deque
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy as np
import zstandard
from isal import isal_zlib

from ..board.material import Material, MaterialError
from ..runtime.parallel import core_count

#: The format version written by :func:`write_block_file` for tables in the index of five pieces.
BLOCK_FORMAT_VERSION = 4
#: The version of tables in the compact index (:mod:`Util.table.compact_index`, six pieces), whose values
#: may take two bytes (``value_bytes``; n of 254 and more, draws 65535): the same blocks otherwise.
COMPACT_FORMAT_VERSION = 5
#: The newest version this reader knows.
NEWEST_VERSION = COMPACT_FORMAT_VERSION
#: Entries (positions, one byte each) per block.
BLOCK_ENTRIES = 1 << 15
#: Zstandard's level for writing blocks: its fastest ordinary one.
ZSTD_LEVEL = 1
#: The side members, White to move first.
SIDE_NAMES = ("dtm_white", "dtm_black")
#: Blocks handed to a compressing thread at a time.
_BLOCKS_PER_TASK = 64
#: The fixed ZIP timestamp, so that equal tables give byte-identical files.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")


class ChessAIFileError(ValueError):
    """A ``.chessAI`` file that cannot be used; the message names the file and the reason."""


_contexts = threading.local()  # a Zstandard context serves one thread at a time


def _zstd_compress(data) -> bytes:
    if not hasattr(_contexts, "compressor"):
        _contexts.compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
    return _contexts.compressor.compress(data)


def _zstd_decompress(data: bytes, size: int) -> bytes:
    if not hasattr(_contexts, "decompressor"):
        _contexts.decompressor = zstandard.ZstdDecompressor()
    return _contexts.decompressor.decompress(data, max_output_size=size)


#: codec name -> (compress, decompress(data, decoded size)).
CODECS: Dict[str, Tuple[Callable, Callable]] = {"zstd": (_zstd_compress, _zstd_decompress)}


# ---- writing ---------------------------------------------------------------------------------------

def _blocks_of(pieces: Iterable[np.ndarray], block_entries: int) -> Iterator[memoryview]:
    """The bytes of ``pieces`` joined, cut into blocks of ``block_entries`` (the last may be shorter)."""
    held = bytearray()
    for piece in pieces:
        data = memoryview(np.ascontiguousarray(piece, dtype=np.uint8)).cast("B")
        if held:
            take = min(len(data), block_entries - len(held))
            held += data[:take]
            data = data[take:]
            if len(held) < block_entries:
                continue
            yield memoryview(bytes(held))
            held = bytearray()
        whole = len(data) - len(data) % block_entries
        for start in range(0, whole, block_entries):
            yield data[start : start + block_entries]
        held += data[whole:]
    if held:
        yield memoryview(bytes(held))


def _compressed_tasks(blocks: Iterator[memoryview], pool: ThreadPoolExecutor, compress: Callable,
                      ahead: int) -> Iterator[List[bytes]]:
    """Lists of compressed blocks in order, compressed on the pool's threads (Zstandard lets go of the
    interpreter lock), at most ``ahead`` tasks ahead of the writer."""
    def run(task: List[memoryview]) -> List[bytes]:
        return [compress(block) for block in task]

    pending: Deque = deque()
    task: List[memoryview] = []
    for block in blocks:
        task.append(block)
        if len(task) == _BLOCKS_PER_TASK:
            pending.append(pool.submit(run, task))
            task = []
            if len(pending) > ahead:
                yield pending.popleft().result()
    if task:
        pending.append(pool.submit(run, task))
    while pending:
        yield pending.popleft().result()


def _add_member(archive: zipfile.ZipFile, name: str, chunks: Iterable[bytes]) -> None:
    info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    with archive.open(info, "w", force_zip64=True) as member:
        for chunk in chunks:
            member.write(chunk)


@contextmanager
def written_atomically(path: Path) -> Iterator[BinaryIO]:
    """A binary file open for writing that becomes ``path`` (mode 644) only when the block ends without an
    error: written under a temporary name beside it and renamed, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as raw:
            yield raw
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_block_file(path: os.PathLike, header: Dict, sides: List[Iterable[np.ndarray]],
                     counts: Callable[[], Dict[str, Dict[int, int]]], version: int = BLOCK_FORMAT_VERSION,
                     value_bytes: int = 1) -> Path:
    """Write a version-4 file (``version`` 5: a compact table, values of ``value_bytes`` little-endian
    bytes each) atomically (a temporary file renamed into place); returns its path.

    ``header``: the header's fields that describe the table (``material``,
    ``piece_list``, ``index_scheme``, ``entries_per_side``, ``kind``);
    ``sides``: for White to move and Black to move, the side's stored
    bytes (duplicates blanked) as pieces in index order; ``counts``: called
    once the S_n data is written, returns ``{"board_counts": ...,
    "board_counts_black": ...}`` (so that they can be counted meanwhile).
    """
    path = Path(path)
    compress = CODECS["zstd"][0]
    header = dict(header, format="chessAI", version=version, codec="zstd", block_entries=BLOCK_ENTRIES,
                  blank=(1 << (8 * value_bytes)) - 1)
    if version >= COMPACT_FORMAT_VERSION:
        header["value_bytes"] = value_bytes
    threads = core_count()
    with written_atomically(path) as raw, zipfile.ZipFile(raw, "w") as archive, \
            ThreadPoolExecutor(threads, thread_name_prefix="compress-blocks") as pool:
        for name, pieces in zip(SIDE_NAMES, sides):
            sizes: List[int] = []
            crcs: List[int] = []

            def written() -> Iterator[bytes]:
                for task in _compressed_tasks(_blocks_of(pieces, BLOCK_ENTRIES * value_bytes), pool, compress,
                                              2 * threads):
                    for block in task:
                        sizes.append(len(block))
                        crcs.append(isal_zlib.crc32(block))
                        yield block

            _add_member(archive, f"{name}.blocks", written())
            offsets = np.zeros(len(sizes) + 1, dtype="<u8")
            np.cumsum(sizes, out=offsets[1:])
            index = offsets.tobytes() + np.asarray(crcs, dtype="<u4").tobytes()
            _add_member(archive, f"{name}.index", [index])
            header[name] = {"blocks": len(sizes), "sha256": hashlib.sha256(index).hexdigest()}
        for key, value in counts().items():
            header[key] = {str(int(n)): int(c) for n, c in sorted(value.items())}
        _add_member(archive, "header.json", [json.dumps(header, indent=1).encode()])
    return path


# ---- reading ---------------------------------------------------------------------------------------

def material_hint(path: Path) -> str:
    """The material a missing file's name stands for (``KQvK.chessAI``: KQvK), else a placeholder."""
    try:
        return Material.parse(path.name.split(".")[0]).canonical.name
    except ValueError:
        return "<MATERIAL>"


def is_block_file(path: os.PathLike) -> bool:
    """Whether ``path`` is a ZIP archive with a ``header.json`` member (format 4 and later), judged from
    the ZIP directory alone; False for earlier versions, other files and unreadable ones."""
    try:
        with zipfile.ZipFile(path) as archive:
            return "header.json" in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


class BlockFile:
    """One version-4 file, open for reading blocks: ``block(side, number)`` reads, checks and decodes one
    block with ``os.pread`` (thread-safe: no shared file position).  Opening reads only the ZIP
    directory, the header and the two indices (a few hundred kilobytes for a five-piece table).

    ``material``: the material the caller expects (a file of another material is refused).
    """

    def __init__(self, path: os.PathLike, material: Optional[Material] = None) -> None:
        self.path = Path(path)
        self._fd = -1
        try:
            self._open(material)
        except BaseException:
            self.close()
            raise

    def _fail(self, reason: str) -> ChessAIFileError:
        return ChessAIFileError(f"{self.path}: {reason}")

    def _open(self, expected: Optional[Material]) -> None:
        if not self.path.exists():
            hint = expected.name if expected else material_hint(self.path)
            raise FileNotFoundError(f"{self.path}: no such file; compute it with: python -m Util calculate {hint}")
        try:
            with zipfile.ZipFile(self.path) as archive:
                members = {info.filename: info for info in archive.infolist()}
                wanted = ["header.json"] + [f"{s}.{part}" for s in SIDE_NAMES for part in ("index", "blocks")]
                missing = [name for name in wanted if name not in members]
                if missing:
                    raise self._fail(f"not a .chessAI file of format 4: the archive lacks {', '.join(missing)}")
                if any(members[name].compress_type != zipfile.ZIP_STORED for name in wanted):
                    raise self._fail("refused: its members must be stored, not compressed by ZIP")
                header_bytes = archive.read("header.json")  # zipfile checks the member's CRC-32
                indices = [archive.read(f"{side}.index") for side in SIDE_NAMES]
        except zipfile.BadZipFile as error:
            raise self._fail(f"not a readable ZIP archive ({error}); the file is truncated, corrupt or of another kind") from None
        except OSError as error:
            raise self._fail(f"cannot be read ({error})") from None
        try:
            header = json.loads(header_bytes)
        except ValueError as error:
            raise self._fail(f"its header.json is not valid JSON ({error})") from None
        self.header = self._checked_header(header, expected)
        self.entries: int = header["entries_per_side"]
        self.block_entries: int = header["block_entries"]
        self.decompress = CODECS[header["codec"]][1]
        self._fd = os.open(self.path, os.O_RDONLY)
        file_size = os.fstat(self._fd).st_size
        self._offsets: List[np.ndarray] = []
        self._crcs: List[np.ndarray] = []
        self._starts: List[int] = []
        blocks = -(-self.entries // self.block_entries)
        for side, index in zip(SIDE_NAMES, indices):
            if header[side].get("blocks") != blocks or len(index) != 12 * blocks + 8:
                raise self._fail(f"the index of {side} has the wrong size for {self.entries} entries per side")
            if hashlib.sha256(index).hexdigest() != header[side].get("sha256"):
                raise self._fail(f"the index of {side} does not match the header's checksum: the file was altered")
            offsets = np.frombuffer(index, dtype="<u8", count=blocks + 1).astype(np.int64)
            member = members[f"{side}.blocks"]
            if offsets[0] != 0 or np.any(np.diff(offsets) <= 0) or offsets[-1] != member.compress_size:
                raise self._fail(f"the index of {side} points outside its blocks")
            start = self._data_start(member)
            if start + member.compress_size > file_size:
                raise self._fail(f"the blocks of {side} end past the end of the file: the file is truncated")
            self._offsets.append(offsets)
            self._crcs.append(np.frombuffer(index, dtype="<u4", offset=8 * (blocks + 1)).astype(np.int64))
            self._starts.append(start)
        self.blocks = blocks

    def _checked_header(self, header, expected: Optional[Material]) -> Dict:
        if not isinstance(header, dict) or header.get("format") != "chessAI":
            raise self._fail("not a .chessAI file (no chessAI format marker in its header)")
        version = header.get("version")
        if not isinstance(version, int) or version > NEWEST_VERSION:
            raise self._fail(f"written in format version {version!r} by a newer version of this project; "
                             f"this one reads versions up to {NEWEST_VERSION}: update the project")
        value_bytes = header.get("value_bytes", 1) if version >= COMPACT_FORMAT_VERSION else 1
        if value_bytes not in (1, 2):
            raise self._fail(f"gives {value_bytes!r} bytes a value; this reader knows 1 and 2")
        self.version, self.value_bytes = version, value_bytes
        #: The stored value of a draw (and of an entry no position uses).
        self.blank = (1 << (8 * value_bytes)) - 1
        if header.get("kind") != "table":
            raise self._fail(f"this is a {header.get('kind')!r} file, not a finished table")
        try:
            material = Material.parse(str(header.get("material")))
        except MaterialError as error:
            raise self._fail(f"names no valid material ({error})") from None
        if expected is not None and material != expected:
            raise self._fail(f"holds {material}, not {expected}: a file of another material under this name")
        if header.get("codec") not in CODECS:
            raise self._fail(f"uses the codec {header.get('codec')!r}; this reader knows {', '.join(CODECS)}")
        block_entries = header.get("block_entries")
        if not isinstance(block_entries, int) or not 0 < block_entries <= 1 << 24:
            raise self._fail(f"gives an impossible block size {block_entries!r}")
        for key in ("board_counts", "board_counts_black"):
            counts = header.get(key, {})
            if not isinstance(counts, dict) or not all(isinstance(v, int) for v in counts.values()):
                raise self._fail(f"its {key} are malformed")
        for side in SIDE_NAMES:
            if not isinstance(header.get(side), dict):
                raise self._fail(f"its header does not describe {side}")
        self.material = material
        return header

    def _data_start(self, info: zipfile.ZipInfo) -> int:
        """Where a stored member's bytes begin: after its local header, whose name and extra field have
        lengths of their own."""
        local = os.pread(self._fd, _LOCAL_HEADER.size, info.header_offset)
        if len(local) != _LOCAL_HEADER.size or local[:4] != b"PK\003\004":
            raise self._fail(f"the local header of {info.filename} is damaged")
        fields = _LOCAL_HEADER.unpack(local)
        return info.header_offset + _LOCAL_HEADER.size + fields[-2] + fields[-1]

    def counts(self, key: str) -> Dict[int, int]:
        """``board_counts`` (White mates) or ``board_counts_black`` as ``{n: boards}``."""
        return {int(n): c for n, c in self.header.get(key, {}).items()}

    def block_size(self, number: int) -> int:
        """Entries in block ``number``."""
        return min(self.block_entries, self.entries - number * self.block_entries)

    def block(self, side: int, number: int) -> bytes:
        """Block ``number`` of ``side`` (0: White to move), decoded; checked against its CRC-32 and size."""
        offsets = self._offsets[side]
        start, end = int(offsets[number]), int(offsets[number + 1])
        data = os.pread(self._fd, end - start, self._starts[side] + start)
        where = f"block {number} of {SIDE_NAMES[side]}"
        if len(data) != end - start:
            raise self._fail(f"{where} ends past the end of the file: the file is truncated")
        if isal_zlib.crc32(data) != self._crcs[side][number]:
            raise self._fail(f"{where} does not match its CRC-32: the file is damaged")
        size = self.block_size(number)
        try:
            values = self.decompress(data, size)
        except Exception as error:  # a codec fails in its own ways on damaged data
            raise self._fail(f"{where} cannot be decoded ({error})") from None
        if len(values) != size * self.value_bytes:
            raise self._fail(f"{where} decodes to {len(values) // self.value_bytes} entries, not {size}")
        return values

    def side_array(self, side: int, threads: Optional[ThreadPoolExecutor] = None) -> np.ndarray:
        """Every entry of ``side`` as one array (duplicates still blank; uint16 where values take two bytes),
        blocks decoded on ``threads``."""
        dtype = self.dtype
        out = np.empty(self.entries, dtype=dtype)

        def decode(first: int) -> None:
            for number in range(first, min(first + _BLOCKS_PER_TASK, self.blocks)):
                start = number * self.block_entries
                out[start : start + self.block_size(number)] = np.frombuffer(self.block(side, number), dtype)

        firsts = range(0, self.blocks, _BLOCKS_PER_TASK)
        if threads is None:
            for first in firsts:
                decode(first)
        else:
            list(threads.map(decode, firsts))
        return out

    @property
    def dtype(self) -> np.dtype:
        """The values' type: uint8, or little-endian uint16 where they take two bytes."""
        return np.dtype(np.uint8) if self.value_bytes == 1 else np.dtype("<u2")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "BlockFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
