"""The .chessAI file written and read whole: round trip, determinism, the older one-stream versions, and
refusal of broken, foreign or hostile files.  (Probing single blocks: test_tablebase.py.)"""

import json
import pickle
import zipfile

import numpy as np
import pytest

from Util.files.blocks import NEWEST_VERSION
from Util.files.chessai import (FORMAT_VERSION, ChessAIFileError, load_sides, load_table, load_table_with_counts,
                               save_table, save_table_version_3)
from Util.calculation.boards import board_counts, board_counts_by_winner
from Util.board.material import Material


@pytest.fixture(scope="module")
def kqk_file(tmp_path_factory, store):
    table = store.get("KQvK")
    path = tmp_path_factory.mktemp("files") / "KQvK.chessAI"
    save_table(table, path, board_counts(table))
    return path


@pytest.fixture(scope="module")
def kqk_file_version_2(tmp_path_factory, store):
    """KQvK as the one-stream pickle file that every version before 4 wrote."""
    table = store.get("KQvK")
    path = tmp_path_factory.mktemp("old_files") / "KQvK.chessAI"
    save_table_version_3(table, path, board_counts(table))
    return path


def _header(path):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("header.json"))


def _payload(path):
    with zipfile.ZipFile(path) as archive:
        return pickle.loads(archive.read(archive.infolist()[0]))


def _write(path, payload_bytes, name="KQvK.pickle"):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, payload_bytes)


@pytest.mark.parametrize("material", ["KQvK", "KBBvK", pytest.param("KPPvK", marks=[pytest.mark.slow, pytest.mark.big])])
def test_round_trip_keeps_every_value(material, store, tmp_path):
    """Including the entries the file leaves out (identical pieces, diagonal mirrors) and restores."""
    original = store.get(material)
    path = save_table(original, tmp_path / f"{material}.chessAI", board_counts(original))
    table, counts = load_table(path)
    assert np.array_equal(table.dtm_white, original.dtm_white)
    assert np.array_equal(table.dtm_black, original.dtm_black)
    assert counts == board_counts(original)
    header = _header(path)
    assert header["version"] == FORMAT_VERSION == 4 and header["piece_list"] == "Kk" + material[1:-2]
    old = save_table_version_3(original, tmp_path / "old" / f"{material}.chessAI", board_counts(original))
    assert _payload(old)["version"] == 2  # lone black king: the version every reader before 3 read
    assert np.array_equal(load_table(old)[0].dtm_white, original.dtm_white)


@pytest.mark.parametrize("material", ["KQvKR", "KPvKP"])
def test_tables_with_black_pieces_round_trip_with_both_winners(material, store, tmp_path):
    original = store.get(material)
    white, black = board_counts_by_winner(original)
    path = save_table(original, tmp_path / f"{material}.chessAI", white, black)
    table, counts, counts_black = load_table_with_counts(path)
    assert np.array_equal(table.dtm_white, original.dtm_white)
    assert np.array_equal(table.dtm_black, original.dtm_black)
    assert (counts, counts_black) == (white, black)
    assert counts and counts_black  # both sides mate somewhere in these tables
    assert _header(path)["piece_list"] == Material.parse(material).letters
    old = save_table_version_3(original, tmp_path / "old" / f"{material}.chessAI", white, black)
    assert _payload(old)["version"] == 3
    table, counts, counts_black = load_table_with_counts(old)
    assert np.array_equal(table.dtm_black, original.dtm_black) and (counts, counts_black) == (white, black)


def test_the_deepest_value_is_kept_in_a_table_and_illegal_dropped_in_a_checkpoint(store, tmp_path):
    """Byte 254 is the deepest S_n in a finished table (KPPvKP's Black to move, mated in 254 plies) and
    the engine's ILLEGAL mark in a checkpoint saved from its arrays: the file keeps the one and writes
    UNKNOWN for the other."""
    from Util.files.chessai import load_checkpoint, save_checkpoint
    from Util.table.dtm_table import DtmTable
    from Util.table.values import DEEPEST, ILLEGAL, UNKNOWN

    original = store.get("KQvKR")
    deep = np.flatnonzero(original.dtm_black == 2)[:5]  # legal positions, all distinct in the file
    black = original.dtm_black.copy()
    black[deep] = DEEPEST
    table = DtmTable(original.material, original.dtm_white, black)
    white_counts, black_counts = board_counts_by_winner(table)
    assert DEEPEST in white_counts  # Black to move, mated: an S_n in which White mates
    path = save_table(table, tmp_path / "KQvKR.chessAI", white_counts, black_counts)
    assert np.array_equal(load_table(path)[0].dtm_black[deep], np.full(deep.size, DEEPEST))
    checkpoint = tmp_path / "KQvKR.chessAI.partial"
    save_checkpoint(checkpoint, original.material, 7, original.dtm_white, black)
    n_done, _, black_read = load_checkpoint(checkpoint, original.material)
    assert n_done == 7 and DEEPEST == ILLEGAL and (black_read[deep] == UNKNOWN).all()


@pytest.mark.parametrize("material", ["KBBvK", "KQvKR", "KPvKP"])
def test_one_side_is_read_as_the_whole_file_holds_it(material, store, tmp_path):
    """What a calculation reads of a sub-table: one side to move, the same values (diagonal mirrors and
    identical pieces restored), the other side empty."""
    original = store.get(material)
    path = save_table(original, tmp_path / f"{material}.chessAI", *board_counts_by_winner(original))
    for white_to_move in (True, False):
        table = load_sides(path, (white_to_move,))
        wanted, other = (table.dtm_white, table.dtm_black) if white_to_move else (table.dtm_black, table.dtm_white)
        assert np.array_equal(wanted, original.dtm_white if white_to_move else original.dtm_black)
        assert other.size == 0
    both = load_sides(path, (True, False))
    assert np.array_equal(both.dtm_white, original.dtm_white) and np.array_equal(both.dtm_black, original.dtm_black)


@pytest.mark.parametrize("piece", [1000, 4096])
def test_a_side_read_a_piece_at_a_time_is_the_side_written(piece, store, tmp_path, monkeypatch):
    """The reader takes each side's data in pieces (so a 5-piece side never exists twice in memory):
    pieces that end anywhere inside the data, and the checksum over them, give the table written."""
    from Util.files import pickled

    original = store.get("KQvKR")
    path = save_table_version_3(original, tmp_path / "KQvKR.chessAI", *board_counts_by_winner(original))
    monkeypatch.setattr(pickled, "_READ_PIECE", piece)
    table, _, _ = load_table_with_counts(path)
    assert np.array_equal(table.dtm_white, original.dtm_white)
    assert np.array_equal(table.dtm_black, original.dtm_black)
    assert np.array_equal(load_sides(path, (False,)).dtm_black, original.dtm_black)


def test_counts_given_late_are_written_as_counts_given_at_once(store, tmp_path):
    """Board counts handed over as functions (counted on other threads while the S_n data is deflated) are
    asked for only after that data, and give the very file that the counts themselves give."""
    original = store.get("KQvKR")
    white, black = board_counts_by_winner(original)
    at_once = save_table(original, tmp_path / "at_once" / "KQvKR.chessAI", white, black)
    asked = []

    def late(counts):
        def get():
            asked.append(counts)
            return counts
        return get

    later = save_table(original, tmp_path / "late" / "KQvKR.chessAI", late(white), late(black))
    assert asked == [white, black]
    assert later.read_bytes() == at_once.read_bytes()
    assert load_table_with_counts(later)[1:] == (white, black)


@pytest.mark.parametrize("material", ["KQvK", "KBNvK", "KQvKR"])
def test_pieces_made_ahead_give_the_one_shot_stream(material, store, tmp_path):
    """The one-stream file (versions 2-3; checkpoints are written so too): a side is written in pieces,
    each blanked and checksummed on another thread while the piece before is deflated (KBNvK: ten a
    side).  The member must still be exactly zlib's one stream of the whole pickle, as pickle.dumps of
    the plain payload gives it: the bytes every earlier version wrote."""
    import zlib

    from Util.files import pickled

    original = store.get(material)
    counts = board_counts_by_winner(original)
    path = save_table_version_3(original, tmp_path / f"{material}.chessAI", *counts[: 1 if original.material.lone_black_king else 2])
    with zipfile.ZipFile(path) as archive:
        info = archive.infolist()[0]
        with open(path, "rb") as raw:
            raw.seek(info.header_offset + 26)
            name_length, extra_length = np.frombuffer(raw.read(4), "<u2")
            raw.seek(info.header_offset + 30 + int(name_length) + int(extra_length))
            stored = raw.read(info.compress_size)
        payload = pickle.loads(archive.read(info))
    plain = pickle.dumps(payload, protocol=4)
    level = pickled._DEFLATE_LEVEL
    one_shot = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    assert stored == one_shot.compress(plain) + one_shot.flush()


def test_a_failure_while_making_the_pieces_reaches_the_writer_and_leaves_no_file(store, tmp_path, monkeypatch):
    """An error on the thread that makes the pieces is raised by save_table; no file, no temporary file,
    and that thread is gone."""
    import threading

    from Util.table.index_scheme import Layout

    original = store.get("KBNvK")
    blank = Layout.blank_duplicates
    calls = []

    def failing(self, values, value, first_slot=0):
        calls.append(first_slot)
        if len(calls) == 3:
            raise MemoryError("no room for the third piece")
        return blank(self, values, value, first_slot=first_slot)

    monkeypatch.setattr(Layout, "blank_duplicates", failing)
    before = threading.active_count()
    with pytest.raises(MemoryError, match="third piece"):
        save_table(original, tmp_path / "KBNvK.chessAI", board_counts(original))
    assert list(tmp_path.iterdir()) == []
    assert threading.active_count() == before


def test_sides_in_the_wrong_order_are_refused(kqk_file_version_2, tmp_path):
    """The checksum is of White's data, then Black's, read as they come: a file that holds them the other
    way round (no writer does) is refused with that reason, not taken for damaged."""
    payload = _payload(kqk_file_version_2)
    white = payload.pop("dtm_white")
    swapped = {**payload, "dtm_white": white}  # now after Black's data (and after the checksum too)
    path = tmp_path / "KQvK.chessAI"
    _write(path, pickle.dumps(swapped))
    with pytest.raises(ChessAIFileError, match="Black's S_n data comes before White's"):
        load_table(path)


def test_blocks_that_end_anywhere_give_the_table_written(store, tmp_path, monkeypatch):
    """Blocks of a size that divides no piece the writer is handed (pieces of whole white-king slots):
    blocks are cut across pieces, the last one is short, and the table read back is the one written."""
    from Util.files import blocks as chessai_blocks

    original = store.get("KQvKR")
    white, black = board_counts_by_winner(original)
    monkeypatch.setattr(chessai_blocks, "BLOCK_ENTRIES", 1000)
    path = save_table(original, tmp_path / "KQvKR.chessAI", white, black)
    header = _header(path)
    assert header["block_entries"] == 1000 and header["dtm_white"]["blocks"] == -(-original.dtm_white.size // 1000)
    table, counts, counts_black = load_table_with_counts(path)
    assert np.array_equal(table.dtm_white, original.dtm_white)
    assert np.array_equal(table.dtm_black, original.dtm_black)


def test_the_file_opens_with_standard_tools(kqk_file, store):
    """A ZIP whose members are stored: zipfile tests every member's CRC-32, the header is plain JSON, and
    each side's blocks member is a Zstandard stream whose frames decode, one after the other, to the
    side's stored bytes (duplicates blank)."""
    import zstandard

    from Util.table.index_scheme import Layout
    from Util.table.values import UNKNOWN

    original = store.get("KQvK")
    with zipfile.ZipFile(kqk_file) as archive:
        assert archive.testzip() is None
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        blocks = archive.read("dtm_white.blocks")
    reader = zstandard.ZstdDecompressor().stream_reader(blocks, read_across_frames=True)
    stored = np.frombuffer(reader.read(), dtype=np.uint8)
    assert np.array_equal(stored, Layout(original.material).blank_duplicates(original.dtm_white, UNKNOWN))
    assert _header(kqk_file)["board_counts"] == {str(n): c for n, c in sorted(board_counts(original).items())}


def test_version_1_files_are_still_read(store, tmp_path):
    """Version 1 stored every entry; a version-2 reader must give the same table."""
    import hashlib

    original = store.get("KBBvK")
    white, black = original.dtm_white.tobytes(), original.dtm_black.tobytes()
    payload = {"format": "chessAI", "version": 1, "kind": "table", "material": "KBBvK", "piece_list": "KkBB",
               "index_scheme": "wk-fold-64", "dtm_white": white, "dtm_black": black,
               "sha256": hashlib.sha256(white + black).hexdigest(), "board_counts": board_counts(original)}
    old = tmp_path / "KBBvK.chessAI"
    _write(old, pickle.dumps(payload), name="KBBvK.pickle")
    table, _ = load_table(old)
    assert np.array_equal(table.dtm_white, original.dtm_white)
    assert np.array_equal(table.dtm_black, original.dtm_black)


def test_saving_twice_gives_identical_bytes_and_leaves_no_temporary_files(kqk_file, store, tmp_path):
    table = store.get("KQvK")
    again = tmp_path / "again.chessAI"
    save_table(table, again, board_counts(table))
    assert again.read_bytes() == kqk_file.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["again.chessAI"]


@pytest.mark.parametrize("version", [4, 2])
def test_truncated_file_is_refused(version, kqk_file, kqk_file_version_2, tmp_path):
    good = kqk_file if version == 4 else kqk_file_version_2
    broken = tmp_path / "KQvK.chessAI"
    broken.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(ChessAIFileError, match=f"{broken}.*(ZIP|archive)"):
        load_table(broken)


@pytest.mark.parametrize("version", [4, 2])
def test_flipped_byte_is_refused(version, kqk_file, kqk_file_version_2, tmp_path):
    good = kqk_file if version == 4 else kqk_file_version_2
    data = bytearray(good.read_bytes())
    data[len(data) // 3] ^= 0xFF
    broken = tmp_path / "KQvK.chessAI"
    broken.write_bytes(bytes(data))
    with pytest.raises(ChessAIFileError, match=str(broken)):
        load_table(broken)


def test_foreign_files_are_refused(tmp_path):
    text = tmp_path / "notes.chessAI"
    text.write_text("just some text")
    with pytest.raises(ChessAIFileError, match="not a readable ZIP"):
        load_table(text)
    other_zip = tmp_path / "other.chessAI"
    _write(other_zip, pickle.dumps({"hello": "world"}))
    with pytest.raises(ChessAIFileError, match="no chessAI format marker"):
        load_table(other_zip)
    with pytest.raises(FileNotFoundError, match="python -m Util calculate"):
        load_table(tmp_path / "missing.chessAI")


class _RunsCode:
    """A pickle that would create a file when loaded, if the loader let it run code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_pickle_that_would_run_code_is_refused_before_running(tmp_path):
    marker = tmp_path / "was_run"
    hostile = tmp_path / "KQvK.chessAI"
    _write(hostile, pickle.dumps({"format": "chessAI", "version": 1, "kind": "table", "x": _RunsCode(marker)}))
    with pytest.raises(ChessAIFileError, match="refused: it asks to load io.open"):
        load_table(hostile)
    assert not marker.exists()


def test_tampered_values_with_a_valid_zip_are_refused(kqk_file_version_2, tmp_path):
    payload = _payload(kqk_file_version_2)
    white = bytearray(payload["dtm_white"])
    white[white.index(3)] = 5  # move one board from S_3 to S_5
    payload["dtm_white"] = bytes(white)
    tampered = tmp_path / "KQvK.chessAI"
    _write(tampered, pickle.dumps(payload))
    with pytest.raises(ChessAIFileError, match="checksum"):
        load_table(tampered)
    with pytest.raises(ChessAIFileError, match="checksum"):  # also when only the untouched side is wanted
        load_sides(tampered, (False,))


def test_newer_format_version_says_to_update(kqk_file, kqk_file_version_2, tmp_path):
    payload = _payload(kqk_file_version_2)
    payload["version"] = 3 + 1  # a pickle of a version this reader does not know
    newer = tmp_path / "KQvK.chessAI"
    _write(newer, pickle.dumps(payload))
    with pytest.raises(ChessAIFileError, match="newer version.*update"):
        load_table(newer)
    newer_blocks = tmp_path / "blocks" / "KQvK.chessAI"
    _rewrite_header(kqk_file, newer_blocks, version=NEWEST_VERSION + 1)  # newer than the compact format 5
    with pytest.raises(ChessAIFileError, match="newer version.*update"):
        load_table(newer_blocks)


def _rewrite_header(source, target, **changes):
    """A copy of a version-4 file with header fields changed (a valid ZIP: the CRC-32s are new)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "header.json":
                data = json.dumps({**json.loads(data), **changes}).encode()
            new.writestr(info, data)


@pytest.mark.parametrize("version", [4, 2])
def test_a_finished_table_is_told_from_its_zip_directory(version, kqk_file, kqk_file_version_2, tmp_path):
    """``calculate --all`` skips a table whose file looks finished without reading its data; a truncated
    file, another material's file, a small archive or no file at all do not look finished."""
    from Util.files.chessai import looks_finished

    kqk_file = kqk_file if version == 4 else kqk_file_version_2
    kqk = Material.parse("KQvK")
    assert looks_finished(kqk_file, kqk)
    assert not looks_finished(kqk_file, Material.parse("KRvK"))  # the file names KQvK inside
    truncated = tmp_path / "KQvK.chessAI"
    truncated.write_bytes(kqk_file.read_bytes()[: kqk_file.stat().st_size // 2])
    assert not looks_finished(truncated, kqk)
    small = tmp_path / "small.chessAI"
    _write(small, pickle.dumps({"format": "chessAI"}))
    assert not looks_finished(small, kqk)
    assert not looks_finished(tmp_path / "missing.chessAI", kqk)
