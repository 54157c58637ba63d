"""Reading a ZIP member with ISA-L: the bytes zipfile reads, and zipfile's refusals of damaged members."""

import zipfile

import numpy as np
import pytest

from Util.files.inflate import open_member


def _table_like_bytes(size: int) -> bytes:
    rng = np.random.default_rng(11)
    return np.where(rng.random(size) < 0.8, 255, rng.integers(0, 60, size)).astype(np.uint8).tobytes()


def _archive(path, data: bytes, compression: int) -> None:
    with zipfile.ZipFile(path, "w", compression) as archive:
        archive.writestr(zipfile.ZipInfo("T.pickle", date_time=(1980, 1, 1, 0, 0, 0)), data, compression)


def _read_all(path, sizes) -> bytes:
    """The member read through open_member in reads of the sizes in ``sizes`` (cycled)."""
    with open(path, "rb") as raw, zipfile.ZipFile(raw) as archive:
        reader = open_member(archive, archive.infolist()[0], raw)
        parts, k = [], 0
        while True:
            part = reader.read(sizes[k % len(sizes)])
            if not part:
                return b"".join(parts)
            parts.append(bytes(part))
            k += 1


@pytest.mark.parametrize("compression", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
@pytest.mark.parametrize("size", [0, 1000, pytest.param(3 << 22, marks=[pytest.mark.slow, pytest.mark.big])])
def test_reads_what_zipfile_reads(tmp_path, compression, size):
    data = _table_like_bytes(size)
    path = tmp_path / "t.zip"
    _archive(path, data, compression)
    with zipfile.ZipFile(path) as archive:
        assert archive.read("T.pickle") == data
    assert _read_all(path, [1, 70000, 1 << 24, 5]) == data
    assert _read_all(path, [-1]) == data


def test_reads_lines_as_a_file_does(tmp_path):
    data = b"first\nsecond\n" + _table_like_bytes(5000) + b"\nlast"
    path = tmp_path / "t.zip"
    _archive(path, data, zipfile.ZIP_DEFLATED)
    with open(path, "rb") as raw, zipfile.ZipFile(raw) as archive:
        reader = open_member(archive, archive.infolist()[0], raw)
        assert reader.readline() == b"first\n"
        assert reader.readline() == b"second\n"
        assert reader.read(5000) == data[13 : 5013]


def _damaged_copy(path, tmp_path, at_fraction: float):
    """A copy of ``path`` with one byte of the member's data changed, ``at_fraction`` of the way in."""
    with zipfile.ZipFile(path) as archive:
        info = archive.infolist()[0]
    raw = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename)
    raw[start + int(at_fraction * info.compress_size)] ^= 0x5A
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(bytes(raw))
    return damaged


def test_a_changed_stored_byte_fails_the_crc_as_zipfile_finds(tmp_path):
    path = tmp_path / "t.zip"
    _archive(path, _table_like_bytes(100000), zipfile.ZIP_STORED)
    damaged = _damaged_copy(path, tmp_path, 0.5)
    with zipfile.ZipFile(damaged) as archive, pytest.raises(zipfile.BadZipFile, match="CRC"):
        archive.read("T.pickle")
    with pytest.raises(zipfile.BadZipFile, match="CRC"):
        _read_all(damaged, [4096])


def test_damaged_deflate_data_is_refused(tmp_path):
    path = tmp_path / "t.zip"
    _archive(path, _table_like_bytes(1 << 20), zipfile.ZIP_DEFLATED)
    damaged = _damaged_copy(path, tmp_path, 0.3)
    with pytest.raises(zipfile.BadZipFile):
        _read_all(damaged, [1 << 16])


def test_a_member_larger_than_its_stated_size_is_refused(tmp_path):
    """The directory's size is the cap (a ZIP bomb cannot make the reader produce more)."""
    data = bytes(1 << 20)
    path = tmp_path / "t.zip"
    _archive(path, data, zipfile.ZIP_DEFLATED)
    with zipfile.ZipFile(path) as archive:
        info = archive.infolist()[0]
    info.file_size = 1000
    with open(path, "rb") as raw, zipfile.ZipFile(raw) as archive:
        reader = open_member(archive, info, raw)
        with pytest.raises(zipfile.BadZipFile, match="stated size"):
            reader.read(-1)


@pytest.mark.parametrize("compression", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_data_that_ends_early_is_refused(tmp_path, compression):
    path = tmp_path / "t.zip"
    _archive(path, _table_like_bytes(1 << 20), compression)
    with open(path, "rb") as raw, zipfile.ZipFile(raw) as archive:
        info = archive.infolist()[0]
        info.compress_size -= 1000  # the member's data stops before its deflate stream (or stated size) ends
        with pytest.raises((EOFError, zipfile.BadZipFile), match="ends early|not the stated"):
            open_member(archive, info, raw).read(-1)
