"""Our tables as the engine's endgame (Util/whole_game/endgame.py), judged by Gaviota and Stockfish."""

from __future__ import annotations

import shutil

import chess
import chess.engine
import pytest

from Util.whole_game.endgame import get_tablebase_move, mate_in_moves
from Util.whole_game.player import Player

STOCKFISH = shutil.which("stockfish", path="/usr/games:/usr/bin")


@pytest.fixture(scope="module")
def krk(table_folder):
    """A folder with KRvK (and what it leads into), computed for the test session."""
    return table_folder("KRvK")


def test_mate_in_moves_as_uci_says_it():
    assert [mate_in_moves(d) for d in (1, 3, 31, -2, -30)] == [1, 2, 16, -1, -15]


@pytest.mark.parametrize("fen", [
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",       # a won KRvK, White to move
    "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",       # the same, Black defending
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",        # mate in one
    "8/8/8/8/8/2k5/1R6/K7 b - - 0 1",       # the rook hangs: Black draws by taking it
])
def test_value_and_move_as_gaviota_says(fen, krk, tablebase, python_gaviota):
    """The position's depth to mate is Gaviota's, and after the chosen move the position is worth exactly
    one ply less (the fastest win, the longest defence, or the draw kept)."""
    board = chess.Board(fen)
    choice = get_tablebase_move(board, tablebase)
    assert choice.dtm == python_gaviota.probe_dtm(board)
    board.push(choice.move)
    after = 0 if board.is_checkmate() else python_gaviota.probe_dtm(board)
    if choice.dtm > 0:
        assert after == -(choice.dtm - 1)
    elif choice.dtm < 0:
        assert after == -choice.dtm - 1
    else:
        assert after == 0 and not board.is_checkmate()


def test_player_reports_the_table(krk, tablebase, python_gaviota):
    board = chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    with Player(book=None, tablebase=tablebase) as player:
        result = player.get_move(board)
    assert result.source == "tablebase"
    assert result.score_mate == (python_gaviota.probe_dtm(board) + 1) // 2
    assert result.pv[0] == result.move and len(result.pv) > 4


def test_no_table_falls_back(tmp_path):
    """A folder without the position's table: no table move (the search plays); too many pieces too."""
    from Util.tablebase import open_tablebase

    with open_tablebase(tmp_path) as empty:
        assert get_tablebase_move(chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), empty) is None
        assert get_tablebase_move(chess.Board(), empty) is None
    assert get_tablebase_move(chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), None) is None


def test_a_missing_table_is_named_not_computed_during_a_move(linked_tables):
    """A folder that computes missing tables (as notebooks open theirs) still never computes one in the middle
    of a move: the search plays, the move says which table is missing and the command that computes it, and
    no file is written.  The same for a level that makes mistakes."""
    from Util.tablebase import Tablebase
    from Util.whole_game.console import describe_reply
    from Util.whole_game.levels import LEVELS, LevelPlayer
    from Util.whole_game.search import Limits

    folder = linked_tables("KQvK", "KRvK")  # not KQvKR
    board = chess.Board("8/8/3k4/8/8/2r5/8/1Q2K3 w - - 0 1")
    with Tablebase(folder, compute_missing=True) as tables:
        with Player(book=None, tablebase=tables) as player:
            result = player.get_move(board, Limits(depth=3))
            assert result.source == "search" and result.move in board.legal_moves
            assert "no table for KQvKR" in result.note and "python -m Util calculate KQvKR" in result.note
            assert "python -m Util calculate KQvKR" in describe_reply(board, result)
            level = next(level for level in LEVELS if level.tables and level.margin > 0)
            mistaken = LevelPlayer(player, level, rng=1).get_move(board, Limits(depth=3))
            assert mistaken.source == "search" and "no table for KQvKR" in mistaken.note
        assert not (folder / "KQvKR.chessAI").exists()
        assert tables.compute_missing  # the folder itself still computes when asked outside a move


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish not installed (apt-get install stockfish)")
def test_converts_against_stockfish_in_the_depth_to_mate(krk, tablebase, python_gaviota):
    """From a KRvK position 31 plies from mate, our tables against Stockfish at full strength: every move of
    ours takes exactly one ply off Gaviota's depth to mate, so the mate comes after exactly DTM plies when
    Stockfish defends best, and sooner by exactly the plies its weaker replies gave away."""
    board = chess.Board("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
    dtm = python_gaviota.probe_dtm(board)
    assert dtm > 20
    plies = shortened = 0
    with Player(book=None, tablebase=tablebase) as player, chess.engine.SimpleEngine.popen_uci(STOCKFISH) as fish:
        while not board.is_game_over():
            before = python_gaviota.probe_dtm(board)
            if board.turn == chess.WHITE:
                result = player.get_move(board)
                assert result.source == "tablebase"
                board.push(result.move)
                assert board.is_checkmate() or python_gaviota.probe_dtm(board) == -(before - 1)
            else:
                board.push(fish.play(board, chess.engine.Limit(depth=16)).move)
                shortened += (-before - 1) - python_gaviota.probe_dtm(board)  # plies a weaker defence gave away
            plies += 1
    assert board.is_checkmate() and board.turn == chess.BLACK
    assert plies == dtm - shortened


def test_uci_reports_the_tables_mate(krk, python_gaviota):
    """Over UCI with TablebasePath set: ``score mate N`` as Gaviota gives it, and the table's move."""
    import subprocess
    import sys
    from pathlib import Path

    fen = "8/8/8/3k4/8/8/8/R3K3 b - - 0 1"
    commands = f"uci\nsetoption name TablebasePath value {krk}\nisready\nposition fen {fen}\ngo movetime 500\nquit\n"
    run = subprocess.run([sys.executable, "-m", "Util", "uci"], input=commands, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    lines = run.stdout.splitlines()
    dtm = python_gaviota.probe_dtm(chess.Board(fen))
    assert any(f" score mate {mate_in_moves(dtm)} " in line for line in lines if line.startswith("info depth"))
    assert any(line.startswith("info string tablebase move") for line in lines)
    board = chess.Board(fen)
    board.push_uci(lines[-1].split()[1])
    assert python_gaviota.probe_dtm(board) == -dtm - 1  # the longest defence


def test_uci_says_which_table_is_missing(linked_tables):
    """Over UCI, a position whose table is not in the folder is searched, and an ``info string`` names the
    missing table and the command that computes it."""
    import subprocess
    import sys
    from pathlib import Path

    folder = linked_tables("KQvK", "KRvK")  # not KQvKR
    fen = "8/8/3k4/8/8/2r5/8/1Q2K3 w - - 0 1"
    commands = f"uci\nsetoption name TablebasePath value {folder}\nisready\nposition fen {fen}\ngo depth 3\nquit\n"
    run = subprocess.run([sys.executable, "-m", "Util", "uci"], input=commands, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    lines = run.stdout.splitlines()
    assert any(line.startswith("info string no table for KQvKR") and "python -m Util calculate KQvKR" in line
               for line in lines), lines
    assert chess.Move.from_uci(lines[-1].split()[1]) in chess.Board(fen).legal_moves
    assert not (folder / "KQvKR.chessAI").exists()
