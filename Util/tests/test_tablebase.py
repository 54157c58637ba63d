"""The Tablebase: single positions probed from block files, against Gaviota and Syzygy, and refusals of
positions no table holds and of damaged files."""

import shutil
import threading

import chess
import pytest

from Util.probing.block_table import BlockTable
from Util.files.blocks import ChessAIFileError
from Util.board.material import Material
from Util.sequence import SnSequence
from Util.tablebase import MissingTableError, PositionError, Tablebase, open_tablebase
from Util.tests.boards import en_passant_boards, random_boards
from Util.tests.materials import EVERY_TABLE

SAMPLE = 100


@pytest.mark.parametrize("material", EVERY_TABLE)
def test_probe_dtm_is_gaviotas_on_every_table(material, table_folder, tablebase, python_gaviota):
    """Random legal positions of every 3- and 4-piece table, half of them with the colours the other way
    round (read from the same file turned round), both sides to move."""
    table_folder(material)
    swapped = Material.parse(material).swapped.name
    boards = random_boards(material, SAMPLE // 2, seed=3) + random_boards(swapped, SAMPLE // 2, seed=4)
    wrong = [(b.fen(), tablebase.probe_dtm(b), python_gaviota.probe_dtm(b)) for b in boards
             if tablebase.probe_dtm(b) != python_gaviota.probe_dtm(b)]
    assert wrong == []


@pytest.mark.parametrize("material", EVERY_TABLE)
def test_probe_wdl_is_syzygys_on_every_table(material, table_folder, tablebase, syzygy):
    """Won, drawn, lost where Syzygy says so (its cursed wins and blessed losses are wins and losses to a
    table without the fifty-move rule)."""
    table_folder(material)
    boards = random_boards(material, SAMPLE, seed=5)
    wrong = [(b.fen(), tablebase.probe_wdl(b), syzygy.probe_wdl(b)) for b in boards
             if tablebase.probe_wdl(b) != (syzygy.probe_wdl(b) > 0) - (syzygy.probe_wdl(b) < 0)]
    assert wrong == []


def test_en_passant_is_followed_as_gaviota_follows_it(table_folder, tablebase, python_gaviota):
    table_folder("KPvKP")
    boards = en_passant_boards(150, seed=11)
    assert all(tablebase.probe_dtm(b) == python_gaviota.probe_dtm(b) for b in boards)
    without = [b.copy() for b in boards]
    for board in without:
        board.ep_square = None
    changed = sum(tablebase.probe_dtm(a) != tablebase.probe_dtm(b) for a, b in zip(boards, without))
    assert changed > 0  # the sample holds positions whose value en passant changes


@pytest.mark.parametrize("material", ["KQvKR", "KPvKP", "KRvKN"])
def test_every_move_is_valued_as_gaviota_values_the_position_after_it(material, table_folder, tablebase,
                                                                      python_gaviota):
    """probe_moves: one entry per legal move, each valued from the side to move after it (captures and
    promotions read other tables), the best for the mover first."""
    table_folder(material)
    for board in random_boards(material, 12, seed=7):
        probes = tablebase.probe_moves(board)
        assert sorted(p.uci for p in probes) == sorted(m.uci() for m in board.legal_moves)
        for probe in probes:
            after = board.copy()
            after.push(probe.move)
            assert probe.checkmate == after.is_checkmate()
            expected = 0 if after.is_checkmate() or after.is_stalemate() else python_gaviota.probe_dtm(after)
            assert probe.dtm == expected, (board.fen(), probe.uci)
        if probes:
            best = probes[0]
            assert tablebase.probe_wdl(board) == -best.wdl
            if tablebase.probe_dtm(board) > 0:  # a win: the best move mates fastest
                assert abs(best.dtm) + 1 == tablebase.probe_dtm(board)


def test_positions_no_table_holds_are_refused_with_the_reason(table_folder, tablebase):
    table_folder("KQvK")
    with pytest.raises(PositionError, match="castling"):
        tablebase.probe_dtm(chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"))
    with pytest.raises(PositionError, match="six pieces are computed without pawns"):
        tablebase.probe_dtm(chess.Board("4k3/8/8/8/8/8/PPP5/1Q2K3 w - - 0 1"))
    with pytest.raises(PositionError, match="not a legal position.*opposite check"):
        tablebase.probe_dtm(chess.Board("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"))  # Black, not to move, in check
    assert tablebase.get_dtm(chess.Board("4k3/8/8/8/8/8/PPP5/1Q2K3 w - - 0 1"), default="none") == "none"
    assert tablebase.probe_dtm(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == 0  # two kings: a draw


def test_a_missing_table_names_the_command_that_computes_it(tmp_path):
    with open_tablebase(tmp_path) as empty:
        board = chess.Board("4k3/8/8/8/8/8/8/3QK2r w - - 0 1")
        with pytest.raises(MissingTableError, match="KQvKR.*python -m Util calculate KQvKR") as raised:
            empty.probe_dtm(board)
        assert isinstance(raised.value, KeyError) and raised.value.material == Material.parse("KQvKR")
        assert empty.get_dtm(board) is None and empty.get_wdl(board, default=7) == 7
    with pytest.raises(FileNotFoundError, match="no such folder"):
        open_tablebase(tmp_path / "nowhere")


def test_the_cache_stays_within_its_limit_and_probes_stay_right(table_folder, python_gaviota):
    """A cache of two blocks (and of none) gives the same answers as Gaviota while holding at most that."""
    folder = table_folder("KBNvK")
    boards = random_boards("KBNvK", 60, seed=13)
    for limit in (2 * 32768, 0):
        with Tablebase(folder, cache_bytes=limit) as small:
            assert [small.probe_dtm(b) for b in boards] == [python_gaviota.probe_dtm(b) for b in boards]
            assert small.cache.bytes <= limit and len(small.cache) <= limit // 32768


def test_threads_share_one_tablebase(table_folder):
    folder = table_folder("KQvKR")
    boards = random_boards("KQvKR", 400, seed=17)
    with Tablebase(folder, cache_bytes=4 * 32768) as shared:
        expected = [shared.probe_dtm(b.copy()) for b in boards]
        shared.cache.clear()
        answers = [None] * 4

        def probe(k: int) -> None:
            answers[k] = [shared.probe_dtm(b.copy()) for b in boards]

        threads = [threading.Thread(target=probe, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(found == expected for found in answers)


def _copy(table_folder, material, tmp_path):
    source = table_folder(material) / f"{material}.chessAI"
    target = tmp_path / f"{material}.chessAI"
    shutil.copy(source, target)
    return target


def _member_start(path, name):
    import zipfile

    from Util.files.blocks import BlockFile

    with BlockFile(path) as file, zipfile.ZipFile(path) as archive:
        return file._data_start(archive.getinfo(name))


def test_a_flipped_byte_in_a_block_is_named_and_only_that_block_refused(table_folder, tmp_path, python_gaviota):
    path = _copy(table_folder, "KQvKR", tmp_path)
    data = bytearray(path.read_bytes())
    data[_member_start(path, "dtm_white.blocks") + 10] ^= 0x40  # inside White's block 0
    path.write_bytes(bytes(data))
    # kings on a1 and c1: index 2 * 64**2 + ..., in the first 32 K entries
    in_block_0 = chess.Board("7r/8/8/8/3Q4/8/8/K1k5 w - - 0 1")
    elsewhere = [chess.Board("7r/8/8/8/3Q4/8/8/K1k5 b - - 0 1"), chess.Board("7r/8/8/8/3K4/8/Q7/6k1 w - - 0 1")]
    with Tablebase(tmp_path) as damaged:
        with pytest.raises(ChessAIFileError, match=rf"{path}: block 0 of dtm_white does not match its CRC-32"):
            damaged.probe_dtm(in_block_0)
        assert [damaged.probe_dtm(b) for b in elsewhere] == [python_gaviota.probe_dtm(b) for b in elsewhere]


def test_truncated_files_and_indices_pointing_outside_are_refused_at_opening(table_folder, tmp_path):
    path = _copy(table_folder, "KQvKR", tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) * 2 // 3])
    board = chess.Board("7r/8/8/8/3Q4/8/8/K1k5 w - - 0 1")
    with Tablebase(tmp_path) as broken, pytest.raises(ChessAIFileError, match=f"{path}: not a readable ZIP"):
        broken.probe_dtm(board)
    path.write_bytes(whole)
    data = bytearray(whole)
    index = _member_start(path, "dtm_white.index")
    data[index + 8 : index + 16] = (1 << 40).to_bytes(8, "little")  # block 1 starts far past the file
    path.write_bytes(bytes(data))
    with Tablebase(tmp_path) as broken, pytest.raises(ChessAIFileError, match="dtm_white.index"):
        broken.probe_dtm(board)  # the ZIP's CRC-32 of the index member
    _rewrite_index(path, whole, lambda offsets: offsets.__setitem__(1, 1 << 40))
    with Tablebase(tmp_path) as broken, pytest.raises(ChessAIFileError, match="index of dtm_white points outside"):
        broken.probe_dtm(board)  # an index written so, with every checksum made to match


def _rewrite_index(path, whole, change):
    """``path`` rebuilt from the file ``whole`` with White's block offsets changed by ``change`` and the
    ZIP CRC-32 and the header's SHA-256 of the index made to match."""
    import hashlib
    import json
    import zipfile

    import numpy as np

    original = path.with_suffix(".original")
    original.write_bytes(whole)
    with zipfile.ZipFile(original) as old:
        members = {info.filename: old.read(info) for info in old.infolist()}
    index = members["dtm_white.index"]
    blocks = (len(index) - 8) // 12
    offsets = np.frombuffer(index, "<u8", count=blocks + 1).copy()
    change(offsets)
    members["dtm_white.index"] = offsets.tobytes() + index[8 * (blocks + 1):]
    header = json.loads(members["header.json"])
    header["dtm_white"]["sha256"] = hashlib.sha256(members["dtm_white.index"]).hexdigest()
    members["header.json"] = json.dumps(header).encode()
    with zipfile.ZipFile(path, "w") as new:
        for name, data in members.items():
            new.writestr(name, data)
    original.unlink()


def test_a_file_of_another_material_under_a_materials_name_is_refused(table_folder, tmp_path):
    shutil.copy(table_folder("KRvK") / "KRvK.chessAI", tmp_path / "KQvK.chessAI")
    with Tablebase(tmp_path) as mixed, pytest.raises(ChessAIFileError, match="holds KRvK, not KQvK"):
        mixed.probe_dtm(chess.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"))


def test_files_of_the_older_format_are_still_read(store, tmp_path, python_gaviota, capsys):
    from Util.files.chessai import save_table_version_3
    from Util.calculation.boards import board_counts

    table = store.get("KRvK")
    save_table_version_3(table, tmp_path / "KRvK.chessAI", board_counts(table))
    boards = random_boards("KRvK", 40, seed=19)
    with Tablebase(tmp_path) as old:
        assert [old.probe_dtm(b) for b in boards] == [python_gaviota.probe_dtm(b) for b in boards]
    assert "python -m Util convert" in capsys.readouterr().err


def test_random_starts_from_a_block_file_have_the_outcome_asked_for(table_folder, python_gaviota):
    """random_start over a file read block by block (no side decoded whole): the side to move wins or
    loses in a distance in the range asked for, as Gaviota says."""
    with Tablebase(table_folder("KQvKR")) as own:  # not the shared one, whose sides other tests may decode
        check_random_starts(SnSequence.from_store(own, "KQvKR"), python_gaviota)


def check_random_starts(sequence, python_gaviota):
    from Util.play.random_starts import random_start

    for seed in range(6):
        white_to_move, outcome = seed % 2 == 0, ("win", "loss")[seed // 3 % 2]
        board = random_start(sequence, white_to_move=white_to_move, outcome=outcome, min_plies=9, max_plies=31,
                             seed=seed)
        dtm = python_gaviota.probe_dtm(board)
        assert board.turn == white_to_move and 9 <= abs(dtm) <= 31 and (dtm > 0) == (outcome == "win"), board.fen()
    assert not sequence.table._sides  # no side was decoded whole


def test_convert_rewrites_older_files_and_keeps_their_answers(store, tmp_path, python_gaviota):
    import subprocess
    import sys

    from Util.files.chessai import save_table_version_3
    from Util.calculation.boards import board_counts_by_winner

    table = store.get("KQvKR")
    save_table_version_3(table, tmp_path / "KQvKR.chessAI", *board_counts_by_winner(table))
    before = (tmp_path / "KQvKR.chessAI").stat().st_size
    done = subprocess.run([sys.executable, "-m", "Util", "convert", "--results", str(tmp_path)],
                          capture_output=True, text=True, check=True)
    assert f"KQvKR.chessAI: format 1-3 -> 4, {before:,} -> " in done.stdout
    again = subprocess.run([sys.executable, "-m", "Util", "convert", "--results", str(tmp_path), "KQvKR"],
                           capture_output=True, text=True, check=True)
    assert "already format 4" in again.stdout
    boards = random_boards("KQvKR", 40, seed=23)
    with Tablebase(tmp_path) as converted:
        assert isinstance(converted.table("KQvKR"), BlockTable)
        assert [converted.probe_dtm(b) for b in boards] == [python_gaviota.probe_dtm(b) for b in boards]
