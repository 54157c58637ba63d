"""The one-stream ``.chessAI`` files of format versions 1-3, the thesis's format: read, and written for
checkpoints (``<file>.partial``) and for programs that read only these versions.

A ZIP (deflate, or stored for a checkpoint) holding one pickle of plain values (dict, str, int, bytes),
never objects:

==================  ========================================================
``format``          ``"chessAI"``
``version``         1, 2 or 3 (see :data:`PICKLE_VERSION`)
``kind``            ``"table"`` (or ``"checkpoint"`` for a ``.partial`` file)
``material``        ``"KBNvK"``
``piece_list``      ``"KkBN"``, ``"KkQr"``: the thesis's PIECE_LIST as piece symbols
``index_scheme``    :data:`INDEX_SCHEME` (see :mod:`Util.table.index_scheme`)
``dtm_white``       bytes: uint8 per index, White to move: n plies to mate,
                    odd when the side to move mates, even when it is mated;
                    255 = draw (duplicates of identical pieces also 255:
                    see PICKLE_VERSION)
``dtm_black``       bytes: the same with Black to move
``board_counts``    ``{n: number of boards in S_n}`` (White mates)
``board_counts_black``  (version 3) the same for the S_n in which Black mates
``sha256``          hex digest of ``dtm_white + dtm_black``
``n_done``          (checkpoints only) the last finished ply
==================  ========================================================

Reading never runs code from the file: the unpickler refuses every global name, so a pickle that would
build an object is rejected before anything runs.  Each side's data is written and read a piece at a
time, never whole (a five-piece side is half a gigabyte).  Every problem is reported as
:class:`~Util.files.blocks.ChessAIFileError` naming the file and what is wrong; writes go to a temporary
file renamed into place.  :mod:`Util.files.chessai` reads these files and those of version 4 alike.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import queue
import struct
import threading
import zipfile
from pathlib import Path
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..board.material import Material, MaterialError
from ..table.dtm_table import DtmTable
from ..table.index_scheme import Layout
from ..table.values import UNKNOWN, to_unknown_from
from .blocks import BLOCK_FORMAT_VERSION, ChessAIFileError, material_hint, written_atomically
from .inflate import open_member

__all__ = ["PICKLE_VERSION", "INDEX_SCHEME", "Counts", "StoredSide", "LateCounts", "save_table_version_3",
           "save_checkpoint", "read_payload", "checked_arrays", "checked_counts", "load_checkpoint"]

#: 1: every entry stored.  2: entries that repeat another entry's value (identical
#: pieces out of square order; without pawns, the mirror of a position with the
#: white king on the a1-h8 diagonal) are stored as 255 and restored when read.
#: Restoring a version-1 file changes nothing, so both versions are read alike.
#: 3: Black may have pieces too (piece list ``"KkQr"``), so either side may mate:
#: an even n with White to move is a Black win; ``board_counts_black`` counts those
#: sets.  Tables with a lone black king are still written as version 2, byte for
#: byte as before, so that readers of version 2 keep reading them.
PICKLE_VERSION = 3
INDEX_SCHEME = "wk-fold-64"
#: Fixed ZIP timestamp, so that equal tables give byte-identical files.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: zlib's level for the one-stream files of versions 2-3 (its default).
_DEFLATE_LEVEL = 6
#: Largest pickle accepted (two 5-piece pawn tables plus room): guards against ZIP bombs.
_MAX_PAYLOAD = 2 * 32 * 64**4 + (1 << 24)


#: Bytes of S_n data read per step: a side's data is read a piece at a time, never whole.
_READ_PIECE = 1 << 24
_SIDE_KEYS = ("dtm_white", "dtm_black")


class _SideRead(NamedTuple):
    """One side's S_n data as read: its stored bytes (an array, or None where that side was not wanted)
    and how many there were."""

    values: Optional[np.ndarray]
    size: int


#: What the unpickler puts in the payload where a side's data was (replaced by a _SideRead once it ends).
_SIDE_PLACEHOLDER = object()


class _PlainUnpickler(pickle._Unpickler):
    """pickle's own (Python) unpickler, admitting only pickle's built-in plain types: any global (a class,
    a function) is refused.  The bytes of each side's S_n data are read a piece at a time, through the
    checksum and into an array where that side is wanted, past it otherwise: a five-piece pawn table
    holds 537 MB per side, and reading one side as two bytes objects and a copy took three times that
    (4.6 GB at once for KPPvKP's eight promotion tables, read two at a time)."""

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file, sides: Tuple[bool, ...] = (True, False)) -> None:
        super().__init__(file)
        self.wanted = {"dtm_white": True in sides, "dtm_black": False in sides}
        self.sides: Dict[str, _SideRead] = {}
        self.digest = hashlib.sha256()  # of both sides' data, White's first, as written

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"it asks to load {module}.{name}, and .chessAI files hold no code or objects")

    def _bytes(self, size: int) -> None:
        """Push ``size`` bytes; those after the key of a side's data are that side's, read as above."""
        if size > _MAX_PAYLOAD:
            raise pickle.UnpicklingError(f"a bytes object of {size} bytes, more than any table has")
        key = self.stack[-1] if self.stack else None
        if not isinstance(key, str) or key not in self.wanted or key in self.sides:
            self.append(self.read(size))
            return
        if key == "dtm_black" and "dtm_white" not in self.sides:
            raise pickle.UnpicklingError("Black's S_n data comes before White's")
        values = np.empty(size, dtype=np.uint8) if self.wanted[key] else None
        done = 0
        while done < size:
            piece = self.read(min(_READ_PIECE, size - done))
            if not piece:
                raise EOFError("the S_n data ends early")
            self.digest.update(piece)
            if values is not None:
                values[done : done + len(piece)] = np.frombuffer(piece, dtype=np.uint8)
            done += len(piece)
        self.sides[key] = _SideRead(values, size)
        self.append(_SIDE_PLACEHOLDER)

    def _load_short_binbytes(self) -> None:
        self._bytes(self.read(1)[0])

    def _load_binbytes(self) -> None:
        self._bytes(struct.unpack("<I", self.read(4))[0])

    def _load_binbytes8(self) -> None:
        self._bytes(struct.unpack("<Q", self.read(8))[0])

    dispatch[pickle.SHORT_BINBYTES[0]] = _load_short_binbytes
    dispatch[pickle.BINBYTES[0]] = _load_binbytes
    dispatch[pickle.BINBYTES8[0]] = _load_binbytes8

    def payload(self) -> Tuple[object, str]:
        """The unpickled payload, each side's data in it as a _SideRead; and the checksum of the data."""
        payload = self.load()
        if isinstance(payload, dict):
            for key in _SIDE_KEYS:
                if payload.get(key) is _SIDE_PLACEHOLDER:
                    payload[key] = self.sides[key]
        return payload, self.digest.hexdigest()


def _set_level(info: zipfile.ZipInfo, level: int) -> None:
    """Give one ZIP member its deflate level (``compress_level`` from Python 3.13, ``_compresslevel`` before)."""
    setattr(info, "compress_level" if hasattr(info, "compress_level") else "_compresslevel", level)


def _write_atomic(path: Path, payload: dict, compression: int, level: Optional[int] = None) -> None:
    """Pickle ``payload`` into a one-member ZIP at ``path``, through a temporary file renamed into place."""
    with written_atomically(path) as raw, zipfile.ZipFile(raw, "w") as archive:
        info = zipfile.ZipInfo(payload["material"] + ".pickle", date_time=_ZIP_DATE)
        info.compress_type = compression
        if level is not None:
            _set_level(info, level)
        info.external_attr = 0o644 << 16
        with archive.open(info, "w") as member:  # pickled straight into the archive: no 1 GB copy first
            _StreamingPickler(member, protocol=4).dump(payload)


class StoredSide:
    """One side's data as the file stores it (repeated entries blanked; ``n_done``, for a checkpoint saved
    from the engine's own arrays after ply n_done: every byte above it written as UNKNOWN, for none is a
    value yet: ILLEGAL, and the loss counters), made a piece at a time while it is written, so that
    saving a 5-piece table needs no copy of its gigabyte.  The pieces also go into
    ``digest``, the checksum of both sides.  A finished table holds no ILLEGAL: there the same byte is
    the deepest S_n, 254 (KPPvKP)."""

    def __init__(self, layout: Layout, values: np.ndarray, digest, n_done: Optional[int] = None) -> None:
        self.layout, self.values, self.digest, self.n_done = layout, values, digest, n_done

    def __len__(self) -> int:
        return self.values.size

    def pieces(self) -> Iterator[np.ndarray]:
        per_slot = 64 ** (self.layout.piece_count - 1)
        total = self.values.size // per_slot
        # about 16 MB a piece, and at least eight pieces where the side has eight slots: the writer
        # compresses one while the next is made (see _PiecesAhead)
        slots = max(1, min((1 << 24) // per_slot, total // 8))
        for first in range(0, total, slots):
            part = np.asarray(self.values[first * per_slot : (first + slots) * per_slot], dtype=np.uint8)
            part = self.layout.blank_duplicates(part, UNKNOWN, first_slot=first)
            if self.n_done is not None:
                to_unknown_from(part, self.n_done + 1)
            if self.digest is not None:
                self.digest.update(part)
            yield part


class _Checksum:
    """The payload's ``sha256``: known once both sides are written, which the pickle does before it."""

    def __init__(self, digest) -> None:
        self.digest = digest


class LateCounts:
    """Board counts that the pickle writes when it reaches them, after the S_n data: ``get()`` gives the
    dict (the counts themselves, or what the function given returns), so that they can still be counted
    on other threads while that data is compressed."""

    def __init__(self, counts: "Counts") -> None:
        self.get = counts if callable(counts) else lambda: counts


class _PiecesAhead:
    """The pieces of ``sides`` (StoredSide), one side after the other, made on a thread of their own at
    most ``ahead`` pieces ahead of the writer: blanking and checksumming a piece runs on another core
    while this one deflates the piece before (zlib and hashlib let go of the interpreter lock).  The
    checksum still sees the pieces in order, on that one thread."""

    _END = object()  # after each side's last piece

    def __init__(self, sides: List["StoredSide"], ahead: int = 1) -> None:
        self._queue: "queue.Queue" = queue.Queue(ahead)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._make, args=(sides,), name="pieces-ahead", daemon=True)
        self._thread.start()

    def _make(self, sides: List["StoredSide"]) -> None:
        try:
            for side in sides:
                for piece in side.pieces():
                    if not self._put(piece):
                        return
                if not self._put(self._END):
                    return
        except BaseException as error:  # handed to the writer, which raises it
            self._put(error)

    def _put(self, item) -> bool:
        """Queue ``item``, waiting for room unless the writer has stopped (then False)."""
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def next_side(self) -> Iterator[np.ndarray]:
        """The pieces of the next side."""
        while True:
            item = self._queue.get()
            if item is self._END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


class _StreamingPickler(pickle._Pickler):
    """pickle's own (Python) pickler, which writes a :class:`StoredSide` exactly as it writes the
    ``bytes`` of that data (so the file is the same byte for byte), but a piece at a time, each made
    while the one before is written (_PiecesAhead)."""

    dispatch = dict(pickle._Pickler.dispatch)

    def dump(self, obj) -> None:
        # a dict is pickled in its own order, so the sides are written in the order found here
        sides = [value for value in obj.values() if isinstance(value, StoredSide)] if isinstance(obj, dict) else []
        self._ahead = _PiecesAhead(sides)
        try:
            super().dump(obj)
        finally:
            self._ahead.close()

    def _save_stored_side(self, side: StoredSide) -> None:
        size = len(side)
        if size < self.framer._FRAME_SIZE_TARGET:  # small: inside a frame, as pickle does it
            self.save_bytes(b"".join(part.tobytes() for part in self._ahead.next_side()))
            return
        header = (pickle.BINBYTES + struct.pack("<I", size) if size <= 0xFFFFFFFF
                  else pickle.BINBYTES8 + struct.pack("<Q", size))
        self.framer.commit_frame(force=True)  # what pickle does before a large bytes object
        self.framer.file_write(header)
        for part in self._ahead.next_side():
            self.framer.file_write(memoryview(part))
        self.memoize(side)

    def _save_checksum(self, checksum: _Checksum) -> None:
        self.save(checksum.digest.hexdigest())

    def _save_counts(self, counts: LateCounts) -> None:
        self.save({int(n): int(c) for n, c in counts.get().items()})

    dispatch[StoredSide] = _save_stored_side
    dispatch[_Checksum] = _save_checksum
    dispatch[LateCounts] = _save_counts


def _arrays_payload(material: Material, dtm_white: np.ndarray, dtm_black: np.ndarray,
                    n_done: Optional[int] = None) -> dict:
    layout, digest = Layout(material), hashlib.sha256()
    return {
        "format": "chessAI",
        "version": 2 if material.lone_black_king else PICKLE_VERSION,
        "material": material.name,
        "piece_list": material.letters,
        "index_scheme": INDEX_SCHEME,
        "dtm_white": StoredSide(layout, dtm_white, digest, n_done),
        "dtm_black": StoredSide(layout, dtm_black, digest, n_done),
        "sha256": _Checksum(digest),
    }


Counts = Union[Dict[int, int], Callable[[], Dict[int, int]]]

def save_table_version_3(table: DtmTable, path: os.PathLike, board_counts: Dict[int, int],
                         board_counts_black: Optional[Dict[int, int]] = None) -> Path:
    """Write ``table`` as the one-stream pickle files of versions 2-3 were written (version 2 for a lone
    black king), for programs that read only those; :func:`save_table` writes the current version."""
    payload = _arrays_payload(table.material, table.dtm_white, table.dtm_black)
    payload["kind"] = "table"
    payload["board_counts"] = LateCounts(board_counts)
    if not table.material.lone_black_king:
        payload["board_counts_black"] = LateCounts(board_counts_black or {})
    path = Path(path)
    _write_atomic(path, payload, zipfile.ZIP_DEFLATED, _DEFLATE_LEVEL)
    return path


def save_checkpoint(path: os.PathLike, material: Material, n_done: int, dtm_white, dtm_black) -> None:
    """Write a resumable checkpoint (stored uncompressed: speed matters more than size here)."""
    payload = _arrays_payload(material, dtm_white, dtm_black, n_done)
    payload["kind"] = "checkpoint"
    payload["n_done"] = int(n_done)
    _write_atomic(Path(path), payload, zipfile.ZIP_STORED)


def read_payload(path: Path, sides: Tuple[bool, ...] = (True, False)) -> Tuple[dict, str]:
    """The file's payload, each side's data in it as a _SideRead (only ``sides`` kept, True: White to
    move), and the checksum of the data as read; every problem as ChessAIFileError."""
    def fail(reason: str) -> ChessAIFileError:
        return ChessAIFileError(f"{path}: {reason}")

    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file; compute it with: python -m Util calculate {material_hint(path)}")
    try:
        with open(path, "rb") as raw, zipfile.ZipFile(raw) as archive:
            members = archive.infolist()
            if len(members) != 1 or not members[0].filename.endswith(".pickle"):
                raise fail("not a .chessAI file: the archive must hold exactly one .pickle")
            if members[0].file_size > _MAX_PAYLOAD:
                raise fail(f"refused: the archive claims {members[0].file_size} bytes, more than any table has")
            # unpickled as it is read (no copy of the whole pickle), inflated by ISA-L (Util.files.inflate)
            payload, data_sha256 = _PlainUnpickler(open_member(archive, members[0], raw), sides).payload()
    except zipfile.BadZipFile as error:
        raise fail(f"not a readable ZIP archive ({error}); the file is truncated, corrupt or of another kind") from None
    except pickle.UnpicklingError as error:
        raise fail(f"refused: {error}") from None
    except (EOFError, OSError, zipfile.LargeZipFile, NotImplementedError) as error:
        raise fail(f"the archive cannot be read ({error})") from None
    except Exception as error:  # a damaged pickle can fail in many ways
        raise fail(f"the pickle inside is damaged ({type(error).__name__}: {error})") from None
    if not isinstance(payload, dict) or payload.get("format") != "chessAI":
        raise fail("not a .chessAI file (no chessAI format marker inside)")
    version = payload.get("version")
    if not isinstance(version, int) or version < 1:
        raise fail(f"unknown format version {version!r}")
    if version > PICKLE_VERSION:
        raise fail(
            f"written in format version {version} by a newer version of this project; "
            f"this one reads versions up to {BLOCK_FORMAT_VERSION}: update the project"
        )
    return payload, data_sha256


def checked_arrays(path: Path, payload: dict, data_sha256: str,
                    wins: bool = True) -> Tuple[Material, np.ndarray, np.ndarray, tuple]:
    """Material, the DTM arrays of the sides read (duplicates restored; a side not read is an empty
    array) and the n in which White and Black mate that occur in them, after every check.  Without
    ``wins`` those n are found only where a check needs them (a lone black king never mates), and
    ``(None, None)`` is returned for them: counting them costs 0.35 s per side of a five-piece table."""
    def fail(reason: str) -> ChessAIFileError:
        return ChessAIFileError(f"{path}: {reason}")

    try:
        material = Material.parse(str(payload.get("material")))
    except MaterialError as error:
        raise fail(f"names no valid material ({error})") from None
    if payload.get("piece_list") != material.letters or payload.get("index_scheme") != INDEX_SCHEME:
        raise fail("its piece list or index scheme does not match its material")
    if not material.is_canonical:
        raise fail(f"{material} is stored as {material.canonical} (the side with more or stronger pieces is White)")
    if not material.lone_black_king and payload["version"] < 3:
        raise fail(f"format version {payload['version']} cannot hold {material}, where Black has pieces")
    white, black = payload.get("dtm_white"), payload.get("dtm_black")
    if not isinstance(white, _SideRead) or not isinstance(black, _SideRead):
        raise fail("the S_n data is missing")
    layout = Layout(material)
    size = layout.size
    if white.size != size or black.size != size:
        raise fail(f"the S_n data has the wrong size for {material} (expected {size} entries per side)")
    if data_sha256 != payload.get("sha256"):
        raise fail("the S_n data does not match its checksum: the file was altered or damaged")
    arrays = []
    for side in (white, black):
        if side.values is not None:
            layout.restore_duplicates(side.values)
        arrays.append(side.values if side.values is not None else np.empty(0, np.uint8))
    dtm_white, dtm_black = arrays
    if not wins and not material.lone_black_king:
        return material, dtm_white, dtm_black, (None, None)
    white_n, black_n = _values_present(dtm_white), _values_present(dtm_black)
    white_wins = {n for n in white_n if n % 2} | {n for n in black_n if n % 2 == 0}
    black_wins = {n for n in white_n if n % 2 == 0} | {n for n in black_n if n % 2}
    if material.lone_black_king and black_wins:
        raise fail("the S_n data breaks the rule that odd n are White to move and even n Black to move")
    return material, dtm_white, dtm_black, (white_wins, black_wins)


def _values_present(values: np.ndarray, chunk: int = 1 << 20) -> set:
    """The n (not UNKNOWN) that occur in ``values``; counted a megabyte at a time, which is several
    times faster than one bincount over a 5-piece table (and needs no table-sized temporary)."""
    counts = np.zeros(256, dtype=np.int64)
    for start in range(0, values.size, chunk):
        counts += np.bincount(values[start : start + chunk], minlength=256)
    return set(np.flatnonzero(counts).tolist()) - {UNKNOWN}


def checked_counts(path: Path, payload: dict, key: str, present: set) -> Dict[int, int]:
    counts = payload.get(key)
    if not isinstance(counts, dict) or not all(isinstance(k, int) and isinstance(v, int) for k, v in counts.items()):
        raise ChessAIFileError(f"{path}: the board counts are missing or malformed")
    if set(counts) != present:
        raise ChessAIFileError(f"{path}: the board counts do not match the S_n data: the file was altered")
    return counts


def load_checkpoint(path: os.PathLike, material: Material) -> Optional[Tuple[int, np.ndarray, np.ndarray]]:
    """``(n_done, dtm_white, dtm_black)`` from a checkpoint of ``material``; ChessAIFileError if unusable."""
    path = Path(path)
    payload, data_sha256 = read_payload(path)
    if payload.get("kind") != "checkpoint" or not isinstance(payload.get("n_done"), int):
        raise ChessAIFileError(f"{path}: not a checkpoint of a calculation")
    found, dtm_white, dtm_black, _ = checked_arrays(path, payload, data_sha256, wins=False)
    if found != material:
        raise ChessAIFileError(f"{path}: a checkpoint of {found}, not of {material}")
    return payload["n_done"], dtm_white, dtm_black
