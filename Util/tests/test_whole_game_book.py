"""The opening book (Util/whole_game/opening_book.py) against the book as python-chess reads it."""

from __future__ import annotations

import collections
import random

import chess
import chess.polyglot
import pytest

from Util.whole_game.opening_book import OpeningBook, find_default_book, import_opening_book


@pytest.fixture(scope="module")
def book_path():
    path = find_default_book()
    if path is None or not path.is_file():
        pytest.skip("no Polyglot book: apt-get install gnuchess-book (or set CHESSAI_BOOK)")
    return path


def reference_weights(path, board) -> dict:
    """The book's moves for ``board`` and their weights, read by python-chess alone."""
    with chess.polyglot.open_reader(path) as reader:
        return {entry.move: entry.weight for entry in reader.find_all(board)}


def test_first_move_is_one_of_the_books(book_path):
    expected = reference_weights(book_path, chess.Board())
    assert len(expected) > 1
    with import_opening_book(book_path, rng=7) as book:
        for _ in range(20):
            choice = book.get_opening_move(chess.Board())
            assert choice.move in expected
            assert choice.weight == expected[choice.move]
            assert choice.total_weight == sum(expected.values())


def test_draws_follow_the_weights(book_path):
    """3000 seeded draws from the start: each move's frequency within 3 points of its weight's share."""
    expected = reference_weights(book_path, chess.Board())
    total = sum(expected.values())
    with OpeningBook(book_path, rng=random.Random(2024)) as book:
        counts = collections.Counter(book.get_opening_move(chess.Board()).move for _ in range(3000))
    for move, weight in expected.items():
        assert abs(counts[move] / 3000 - weight / total) < 0.03, move


def test_a_seed_repeats_the_draws(book_path):
    board = chess.Board()
    board.push_san("e4")
    with OpeningBook(book_path, rng=5) as first, OpeningBook(book_path, rng=5) as second:
        assert [first.get_opening_move(board).move for _ in range(10)] == \
               [second.get_opening_move(board).move for _ in range(10)]


def test_out_of_book_is_none(book_path):
    board = chess.Board("8/8/3k4/8/8/3K4/8/7R w - - 0 60")
    with OpeningBook(book_path) as book:
        assert reference_weights(book_path, board) == {}
        assert book.get_opening_move(board) is None


def test_player_reports_a_book_move(book_path):
    from Util.whole_game.player import best_move

    board = chess.Board()
    board.push_san("d4")
    result = best_move(board, book=book_path, tablebase=None)
    assert result.source == "book"
    assert result.move in reference_weights(book_path, board)
    assert result.score is None and result.pv == [result.move]


def test_bad_books_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="gnuchess-book"):
        import_opening_book(tmp_path / "missing.bin")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="not a Polyglot book"):
        import_opening_book(empty)
