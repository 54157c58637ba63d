"""The two interfaces, held against the classes that implement them, and the one missing-table exception."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from Util.probing.block_table import BlockTable
from Util.calculation.store import TableStore
from Util.table.dtm_table import DtmTable
from Util.play.setup import table_named
from Util.sequence import SnSequence
from Util.probing.table_folder import MissingTableError, TableFolder
from Util.table.protocols import PositionTable, TableSource
from Util.tablebase import Tablebase


def test_both_kinds_of_table_answer_a_position_alike(table_folder):
    """DtmTable (the file read whole) and BlockTable (read block by block) are PositionTables and give
    every position the same value."""
    table_folder("KQvK")
    whole = TableStore(table_folder.folder, progress=False).table("KQvK")
    blocks = TableFolder(table_folder.folder).table("KQvK")
    assert isinstance(whole, DtmTable) and isinstance(blocks, BlockTable)
    for table in (whole, blocks):
        assert isinstance(table, PositionTable)
    squares = [np.arange(64) % 64, (np.arange(64) + 18) % 64, (np.arange(64) * 7 + 3) % 64]
    for white_to_move in (True, False):
        assert (whole.dtm(squares, white_to_move) == blocks.dtm(squares, white_to_move)).all()
    assert whole.value([chess.E1, chess.E8, chess.D1], True) == blocks.value([chess.E1, chess.E8, chess.D1], True)
    assert whole.max_n == blocks.max_n > 0


def test_every_source_of_tables_is_a_table_source(table_folder):
    """TableStore, TableFolder and Tablebase are TableSources, and a sequence from each finds a board alike
    (KQvK: White to move mates, so the n is odd)."""
    table_folder("KQvK")
    board = chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    found = []
    for source in (TableStore(table_folder.folder, progress=False), TableFolder(table_folder.folder),
                   Tablebase(table_folder.folder)):
        assert isinstance(source, TableSource)
        found.append(SnSequence.from_store(source, "KQvK").find_board(board))
    assert found[0] == found[1] == found[2] and found[0] % 2 == 1


def test_one_exception_for_a_missing_table(tmp_path):
    """The folder, the tablebase and the game report a missing table with one class, which is a KeyError
    (a store by material) and a FileNotFoundError (a file), naming the file and the command."""
    assert issubclass(MissingTableError, KeyError) and issubclass(MissingTableError, FileNotFoundError)
    with pytest.raises(MissingTableError) as from_folder:
        TableFolder(tmp_path).table("KRvK")
    with pytest.raises(MissingTableError) as from_game:
        table_named("KRvK", tmp_path)
    for raised in (from_folder.value, from_game.value):
        assert str(tmp_path / "KRvK.chessAI") in str(raised)
        assert f"python -m Util calculate KRvK --results {tmp_path}" in str(raised)
