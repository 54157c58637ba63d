"""Our tables inside the whole-game search (Util/whole_game/kernels/tables.py, endgame.SearchTables): the
compiled probe gives the table file's value (Tablebase.probe_dtm) and Gaviota's, a search one capture away
from a table mates in Gaviota's distance, and without tables the search is the old one node for node."""

from __future__ import annotations

import random
import time

import chess
import pytest

from Util.bench.calculation import DEFAULT_MATERIALS
from Util.board.material import Material
from Util.board.random_boards import random_legal_board
from Util.board.symmetry import TRANSFORMS, folding_transform
from Util.tablebase import Tablebase
from Util.whole_game.endgame import DEFAULT_SEARCH_TABLES_MB, SearchTables, reachable_materials
from Util.whole_game_lab.game_bench import SEARCH_POSITIONS
from Util.whole_game.kernels import tables as kernel
from Util.whole_game.kernels.score import MATE
from Util.whole_game.position import to_arrays
from Util.whole_game.search import Limits, Searcher

#: Materials computed for this file: a lone king against each kind of piece (colour orders both ways),
#: a pawn, and identical pieces (whose king also stands on the a1-h8 diagonal, the stored index's mirror).
MATERIALS = ("KRvK", "KQvK", "KPvK", "KRRvK")
#: Both colour orders of each: the board's colours as the table's and exchanged.
PROBED = MATERIALS + ("KvKR", "KvKQ", "KvKP", "KvKRR")


@pytest.fixture(scope="module")
def folder(linked_tables):
    return linked_tables(*MATERIALS)


@pytest.fixture(scope="module")
def searcher(folder):
    """A searcher with every table of ``folder`` loaded."""
    endgame = SearchTables(folder)
    for material in MATERIALS:
        assert endgame.load(Material.parse(material))
    endgame.take_finished()
    searcher = Searcher(hash_mb=4)
    searcher.set_tables(endgame)
    return searcher


def expected_score(dtm: int, board: chess.Board) -> int:
    """The search's score at ply 0 of a position of signed depth to mate ``dtm`` (Gaviota's convention)."""
    if dtm == 0:
        return -MATE if board.is_checkmate() else 0
    return MATE - dtm if dtm > 0 else -(MATE + dtm)


def probed(searcher: Searcher, board: chess.Board) -> int:
    a = to_arrays(board, history=False)
    return int(kernel.probe_tables(a.bb, a.st, searcher.work, 0))


def test_the_kernels_symmetries_are_the_packages():
    assert (kernel.symmetry_rows() == TRANSFORMS).all()
    for pawns in (False, True):
        rows = folding_transform(pawns)
        assert all((kernel.FOLD[int(pawns), king] == TRANSFORMS[rows[king]]).all() for king in range(64))
    assert kernel.MATE == MATE


@pytest.mark.parametrize("material", PROBED)
def test_probe_equals_the_table_file(material, folder, searcher):
    """Random legal positions (either side to move, the white king anywhere: every symmetry folded) valued
    by the compiled probe as Tablebase.probe_dtm reads the file."""
    rng = random.Random(material)
    with Tablebase(folder) as tablebase:
        for _ in range(2000):
            board = random_legal_board(material, rng)
            assert probed(searcher, board) == expected_score(tablebase.probe_dtm(board), board), board.fen()


@pytest.mark.slow
@pytest.mark.big
@pytest.mark.parametrize("material", DEFAULT_MATERIALS)
def test_probe_equals_every_table_file(material, table_folder):
    """Every table up to four pieces (computed in the session, as the full run's other checks do), both
    colour orders: the compiled probe reads what Tablebase.probe_dtm reads."""
    folder = table_folder(material)
    endgame = SearchTables(folder)
    assert endgame.load(Material.parse(material).canonical) and endgame.take_finished()
    searcher = Searcher(hash_mb=1)
    searcher.set_tables(endgame)
    rng = random.Random(material)
    with Tablebase(folder) as tablebase:
        for colours in {Material.parse(material), Material.parse(material).swapped}:
            for _ in range(500):
                board = random_legal_board(colours, rng)
                assert probed(searcher, board) == expected_score(tablebase.probe_dtm(board), board), board.fen()


@pytest.mark.parametrize("material", PROBED)
def test_probe_equals_gaviota(material, searcher, python_gaviota):
    rng = random.Random(f"gaviota {material}")
    for _ in range(300):
        board = random_legal_board(material, rng)
        assert probed(searcher, board) == expected_score(python_gaviota.probe_dtm(board), board), board.fen()


def test_no_probe_where_the_table_cannot_answer(searcher):
    """Castling rights, a capture en passant, another material, and a mate the fifty-move rule comes
    before: searched, not probed."""
    assert probed(searcher, chess.Board("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1")) == kernel.NO_PROBE
    assert probed(searcher, chess.Board("8/8/8/8/8/4k3/8/R3K1r1 w - - 0 1")) == kernel.NO_PROBE  # KRvKR
    en_passant = chess.Board("8/8/8/8/3pP3/8/8/K1k5 b - e3 0 1")  # KPvKP: no table loaded anyway
    assert probed(searcher, en_passant) == kernel.NO_PROBE
    late = chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 90 80")
    assert probed(searcher, late) == kernel.NO_PROBE
    late.halfmove_clock = 0
    assert probed(searcher, late) > kernel.NO_PROBE


def test_tables_held_follow_the_game(folder):
    """A search's tables are those within two captures of its root, loaded once (on a clock, while the
    search goes on: the next search has them) and let go of when the game can no longer reach them; what
    does not fit in the budget is left out."""
    endgame = SearchTables(folder)
    assert endgame.prepare(chess.Board("8/8/4k3/8/8/8/1PR5/K7 w - - 0 1"))  # KRPvK
    assert {m.name for m in endgame.loaded} == {"KRvK", "KPvK", "KQvK", "KRRvK"}
    assert not endgame.prepare(chess.Board("8/8/4k3/8/8/8/1PR5/1K6 b - - 1 1"))
    assert endgame.prepare(chess.Board("8/8/4k3/8/8/8/2R5/K7 w - - 0 1")) and set(endgame.loaded) == {Material.parse("KRvK")}
    behind = SearchTables(folder)
    assert not behind.prepare(chess.Board("8/8/4k3/8/8/8/1PR5/K7 w - - 0 1"), background=True)
    behind.loader.join()
    assert behind.prepare(chess.Board("8/8/4k3/8/8/8/1PR5/K7 w - - 0 1"), background=True)
    assert {m.name for m in behind.loaded} == {"KRvK", "KPvK", "KQvK", "KRRvK"}
    small = SearchTables(folder, memory_mb=1)  # KPvK takes 0.5 MB, KRRvK 5 MB
    small.prepare(chess.Board("8/8/4k3/8/8/8/1PR5/K7 w - - 0 1"))
    assert Material.parse("KRRvK") not in small.loaded and Material.parse("KPvK") in small.loaded


def test_reachable_materials():
    """Captures and promotions down to four pieces from KPvKR: by the rules, these and no others."""
    board = chess.Board("8/8/8/8/8/8/1P6/K1k4r w - - 0 1")
    names = {m.name for m in reachable_materials(board, 4)}
    assert names == {"KPvKR", "KPvK", "KvKR", "KQvKR", "KRvKR", "KBvKR", "KNvKR", "KQvK", "KRvK", "KBvK",
                     "KNvK"}


@pytest.mark.parametrize("exchanged", [False, True])
def test_a_capture_into_a_table_is_seen_as_its_mate(exchanged, folder, python_gaviota):
    """One piece more than a loaded table (KRvKN, not computed here): the search with tables reports the
    table's distance + 1 as a mate and plays the move Gaviota says keeps it; without them it sees no mate
    at that depth."""
    board = chess.Board("3n4/8/5k2/K7/8/8/8/3R4 w - - 0 1")  # Rxd8 into KRvK: Gaviota's only mate in 29 plies
    if exchanged:
        board = board.mirror()
    dtm = python_gaviota.probe_dtm(board)
    with_tables = Searcher(hash_mb=4)
    with_tables.set_tables(SearchTables(folder))
    info = with_tables.search(board, Limits(depth=4))
    assert info.score_mate == (dtm + 1) // 2 and info.tbhits > 0
    board.push(info.pv[0])
    assert python_gaviota.probe_dtm(board) == -(dtm - 1)
    board.pop()
    assert Searcher(hash_mb=4).search(board, Limits(depth=4)).score_mate is None


def test_a_lost_table_is_avoided(folder, python_gaviota):
    """KRvKN with Black to move: every move but one loses the knight into a lost KRvK (Gaviota); with the
    tables those lines score as mates against Black, and the search plays the move that keeps the draw."""
    board = chess.Board("7n/8/8/6R1/7K/8/2k5/8 b - - 0 1")
    assert python_gaviota.probe_dtm(board) == 0
    searcher = Searcher(hash_mb=4)
    searcher.set_tables(SearchTables(folder))
    info = searcher.search(board, Limits(depth=5))
    assert info.score_mate is None and info.tbhits > 0
    board.push(info.pv[0])
    assert python_gaviota.probe_dtm(board) == 0


@pytest.mark.parametrize("name, fen", SEARCH_POSITIONS + [("KRPvKR", "8/8/4k3/8/2R5/4P3/3K4/5r2 w - - 0 1")])
def test_without_tables_the_search_is_the_old_one(name, fen, tmp_path, folder):
    """No table in the folder, or probes switched off: the same nodes at a fixed depth as a searcher never
    given tables."""
    board = chess.Board(fen)
    plain = Searcher(hash_mb=4).search(board, Limits(depth=6))
    empty = Searcher(hash_mb=4)
    empty.set_tables(SearchTables(tmp_path))
    switched_off = Searcher(hash_mb=4)
    switched_off.set_tables(SearchTables(folder))
    switched_off.set_feature("tablebase probes", False)
    for searcher in (empty, switched_off):
        info = searcher.search(board, Limits(depth=6))
        assert (info.nodes, info.score_cp, info.pv[0], info.tbhits) == (plain.nodes, plain.score_cp, plain.pv[0], 0)


@pytest.mark.parametrize("memory", [64, 0])
def test_uci_option_and_tbhits(memory, folder, python_gaviota):
    """UCI offers TablebaseMemory; with tables the info lines count hits (tbhits), the score is Gaviota's
    mate through the capture and the move keeps it; with 0 MB the search runs without them."""
    from Util.whole_game.uci import UciEngine

    board = chess.Board("3n4/8/5k2/K7/8/8/8/3R4 w - - 0 1")
    lines = []
    engine = UciEngine(lines.append)
    engine.options.update(TablebasePath=str(folder), OwnBook=False)
    for command in ("uci", f"setoption name TablebaseMemory value {memory}", f"position fen {board.fen()}",
                    "go depth 4"):
        engine.handle(command)
    deadline = time.monotonic() + 60
    while not any(line.startswith("bestmove") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.05)
    engine.handle("quit")
    assert any(line.startswith(f"option name TablebaseMemory type spin default {DEFAULT_SEARCH_TABLES_MB} ") for line in lines)
    last = [line.split() for line in lines if line.startswith("info depth")][-1]
    score = last[last.index("score") + 1:last.index("score") + 3]
    if memory == 0:
        assert int(last[last.index("tbhits") + 1]) == 0 and score[0] == "cp"
        return
    dtm = python_gaviota.probe_dtm(board)
    assert int(last[last.index("tbhits") + 1]) > 0 and score == ["mate", str((dtm + 1) // 2)]
    board.push_uci([line for line in lines if line.startswith("bestmove")][0].split()[1])
    assert python_gaviota.probe_dtm(board) == -(dtm - 1)
