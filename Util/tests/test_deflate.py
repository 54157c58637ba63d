"""Deflate on all cores: one stream that zlib inflates to the input, whatever the pieces and threads."""

import zlib

import numpy as np
import pytest

from Util.deflate import WINDOW, ParallelDeflate


def _table_like_bytes(size: int) -> bytes:
    """Bytes as a table has them: long runs of one value, stretches of small numbers, repeats further
    back than deflate's window."""
    rng = np.random.default_rng(7)
    block = np.where(rng.random(size // 4) < 0.7, 255, rng.integers(0, 40, size // 4)).astype(np.uint8)
    return np.concatenate([block, np.full(size // 4, 254, np.uint8), block, block[::-1]]).tobytes()


def _deflated(data: bytes, writes, **options) -> bytes:
    """``data`` through a ParallelDeflate, handed over in writes of the sizes in ``writes`` (cycled)."""
    compressor, out, start, k = ParallelDeflate(4, **options), [], 0, 0
    while start < len(data):
        step = writes[k % len(writes)]
        out.append(compressor.compress(memoryview(data)[start : start + step]))
        start, k = start + step, k + 1
    out.append(compressor.flush())
    return b"".join(out)


@pytest.mark.parametrize("piece", [WINDOW, 3 * WINDOW + 5, 1 << 20])
def test_the_pieces_joined_inflate_to_the_input(piece):
    data = _table_like_bytes(1 << 20)
    stream = _deflated(data, [5000, 70000, 1], piece=piece, threads=2)
    assert zlib.decompress(stream, -zlib.MAX_WBITS) == data
    assert len(stream) < len(data) // 3  # the dictionaries keep matches across pieces


def test_the_output_depends_on_the_input_only():
    """Not on how it is handed over, nor on the number of threads (a file saved twice is the same)."""
    data = _table_like_bytes(1 << 19)
    first = _deflated(data, [len(data)], piece=WINDOW * 2, threads=1)
    assert _deflated(data, [999, 123456], piece=WINDOW * 2, threads=2) == first
    assert _deflated(data, [1 << 16], piece=WINDOW * 2, threads=3) == first


def test_one_piece_is_exactly_what_zlib_makes():
    data = _table_like_bytes(1 << 16)
    zlib_compressor = zlib.compressobj(4, zlib.DEFLATED, -zlib.MAX_WBITS)
    assert _deflated(data, [4096], piece=1 << 20) == zlib_compressor.compress(data) + zlib_compressor.flush()


def test_empty_input_is_an_empty_stream():
    assert zlib.decompress(_deflated(b"", [1]), -zlib.MAX_WBITS) == b""


def test_pieces_smaller_than_the_window_are_refused():
    with pytest.raises(ValueError, match="window"):
        ParallelDeflate(4, piece=WINDOW - 1)


def test_isal_pieces_joined_are_one_stream_zlib_inflates():
    """The large tables in which Black has pieces are deflated by ISA-L: zlib must read them as one stream."""
    from isal import isal_zlib

    data = _table_like_bytes(1 << 20)
    compressor = ParallelDeflate(1, piece=3 * WINDOW + 5, threads=2, library=isal_zlib)
    stream = compressor.compress(data) + compressor.flush()
    assert zlib.decompress(stream, -zlib.MAX_WBITS) == data
    assert len(stream) < len(data) // 3
