"""Gaviota DTM probes through Debian's C library ``libgaviotatb`` (ctypes).

python-chess's Gaviota prober costs 20-90 µs a position (Board objects,
pure-Python decompression unless pointed at the C library).  Checking
every position of a table needs millions of probes, so this module calls
the C function ``tb_probe_hard`` directly with plain square numbers.

Answers are given as the thesis's n: plies until White mates, 0 for a
checkmated black king, -1 where White cannot force mate
(:meth:`NativeGaviota.white_mates_in`); or, for pieces on both sides, as
our DTM byte: n plies to mate, odd when the side to move mates, even when
it is mated, -1 for a draw (:meth:`NativeGaviota.dtm_plies`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Sequence

LIBRARY_CANDIDATES = ("/usr/lib/libgaviotatb.so.1", "/usr/lib/x86_64-linux-gnu/libgaviotatb.so.1", "libgaviotatb.so.1")
_PIECE_CODES = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}
_NO_SQUARE = 64
_DRAW, _WHITE_MATES, _BLACK_MATES = 0, 1, 2
_CP4 = 4


class GaviotaUnavailable(RuntimeError):
    """The C library or the table files are missing; the message says how to get them."""


def _load_library() -> ctypes.CDLL:
    for name in LIBRARY_CANDIDATES:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise GaviotaUnavailable(
        "Gaviota's C library is not installed; on Debian run: apt-get install libgaviotatb1"
    )


class NativeGaviota:
    """A Gaviota prober over one folder of ``*.gtb.cp4`` files.

    The C library keeps global state, so only one folder can be open per
    process; opening a second NativeGaviota restarts it on the new folder.
    """

    def __init__(self, folder: os.PathLike, cache_mb: int = 64):
        folder = Path(folder)
        if not any(folder.glob("*.gtb.cp4")):
            raise GaviotaUnavailable(f"no Gaviota tables (*.gtb.cp4) in {folder}")
        lib = _load_library()
        lib.tb_init.restype = ctypes.c_char_p
        lib.tb_restart.restype = ctypes.c_char_p
        lib.tbpaths_init.restype = ctypes.c_void_p
        lib.tbpaths_add.restype = ctypes.c_void_p
        lib.tbpaths_add.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
        lib.tb_init.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
        lib.tb_restart.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
        paths = lib.tbpaths_add(lib.tbpaths_init(), str(folder).encode())
        (lib.tb_restart if lib.tb_is_initialized() else lib.tb_init)(0, _CP4, paths)
        lib.tbcache_init(ctypes.c_size_t(cache_mb * 1024 * 1024), 0)
        self._lib = lib
        self.folder = folder
        self._white_sq = (ctypes.c_uint * 17)()
        self._black_sq = (ctypes.c_uint * 17)()
        self._white_pc = (ctypes.c_ubyte * 17)()
        self._black_pc = (ctypes.c_ubyte * 17)()
        self._info = ctypes.c_uint()
        self._plies = ctypes.c_uint()
        self._probe = lib.tb_probe_hard

    def set_material(self, white_letters: str, black_letters: str = "") -> None:
        """Prepare the piece codes for positions of ``K + white_letters`` against ``K + black_letters``."""
        for codes, squares, letters in ((self._white_pc, self._white_sq, "K" + white_letters),
                                        (self._black_pc, self._black_sq, "K" + black_letters.upper())):
            for i, c in enumerate(letters):
                codes[i] = _PIECE_CODES[c]
            codes[len(letters)] = 0
            squares[len(letters)] = _NO_SQUARE
        self._count = len(white_letters) + 1
        self._black_count = len(black_letters) + 1

    def _probe_squares(self, white_squares: Sequence[int], black_squares: Sequence[int], white_to_move: bool,
                       ep_square: int = _NO_SQUARE) -> None:
        for i in range(self._count):
            self._white_sq[i] = white_squares[i]
        for i in range(self._black_count):
            self._black_sq[i] = black_squares[i]
        ok = self._probe(
            0 if white_to_move else 1, ep_square, 0,
            self._white_sq, self._black_sq, self._white_pc, self._black_pc,
            ctypes.byref(self._info), ctypes.byref(self._plies),
        )
        if not ok or self._info.value not in (_DRAW, _WHITE_MATES, _BLACK_MATES):
            raise GaviotaUnavailable(f"Gaviota in {self.folder} has no answer for this position (table missing?)")

    def white_mates_in(self, white_squares: Sequence[int], black_king: int, white_to_move: bool) -> int:
        """Plies until White mates with best play on both sides (the thesis's n), or -1 if White cannot.

        0 means Black to move is checkmated.  ``white_squares`` lists the white
        king first, then the pieces given to :meth:`set_material`, in that
        order.  Raises GaviotaUnavailable if the table cannot answer.
        """
        self._probe_squares(white_squares, [black_king], white_to_move)
        return int(self._plies.value) if self._info.value == _WHITE_MATES else -1

    def dtm_plies(self, white_squares: Sequence[int], black_squares: Sequence[int], white_to_move: bool,
                  ep_square: int = _NO_SQUARE) -> int:
        """Plies to mate with best play, whoever mates (odd: the side to move mates; even: it is mated;
        0: it is checkmated), or -1 for a draw.  Kings first in both square lists."""
        self._probe_squares(white_squares, black_squares, white_to_move, ep_square)
        return -1 if self._info.value == _DRAW else int(self._plies.value)
