"""The Python API of the whole game (Util/whole_game/player.py): out of book and tables, the search."""

from __future__ import annotations

import chess
import pytest

from Util.whole_game.player import Player, best_move, get_move
from Util.whole_game.search import Limits


def test_out_of_book_the_search_answers():
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")  # Qxf7# on
    result = best_move(board, Limits(depth=3), book=None, tablebase=None)
    assert result.source == "search"
    assert result.move == chess.Move.from_uci("f3f7")
    assert result.score_mate == 1 and result.score == chess.engine.Mate(1)
    assert result.pv[0] == result.move and result.depth >= 1 and result.nodes > 0


def test_the_seeds_get_move_and_a_player_kept_for_a_game():
    board = chess.Board()
    with Player(book=None, tablebase=None) as player:
        for _ in range(4):
            move = player.get_move(board, Limits(depth=2)).move
            assert move in board.legal_moves
            board.push(move)
    assert get_move(board, Limits(depth=1), book=None, tablebase=None) in board.legal_moves


def test_a_finished_game_is_refused():
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    with pytest.raises(ValueError, match="checkmate"):
        best_move(mated, Limits(depth=1), book=None, tablebase=None)


def test_missing_book_or_tables_are_named_or_left_out(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such opening book"):
        Player(book=tmp_path / "none.bin", tablebase=None)
    with pytest.raises(FileNotFoundError, match="no such folder of tables"):
        Player(book=None, tablebase=tmp_path / "none")
    said = []
    with Player(book=tmp_path / "none.bin", tablebase=tmp_path / "none", on_error=said.append) as player:
        assert player.book is None and player.tablebase is None
    assert len(said) == 2 and all("playing without it" in line for line in said)
