"""``python -m Util play``: the console game as a person meets it, and its parts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import pytest

from Util.whole_game.console import board_text, describe_result, parse_move
from Util.whole_game.opening_book import find_default_book

ROOT = Path(__file__).resolve().parents[2]


def test_moves_are_read_in_san_and_uci():
    board = chess.Board()
    assert parse_move(board, "Nf3") == parse_move(board, "g1f3") == chess.Move.from_uci("g1f3")
    with pytest.raises(ValueError, match="not a legal move"):
        parse_move(board, "e2e5")
    with pytest.raises(ValueError, match="not a legal move"):
        parse_move(board, "hello")
    two_knights = chess.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(ValueError, match="several moves"):
        parse_move(two_knights, "Nd2")
    assert parse_move(two_knights, "Nbd2") == chess.Move.from_uci("b1d2")


def test_results_are_named():
    fools_mate = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert describe_result(fools_mate) == "Checkmate: Black wins (0-1)"
    assert describe_result(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == "Draw by stalemate (1/2-1/2)"
    assert describe_result(chess.Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1")).startswith("Draw by insufficient")


def test_the_board_turns_for_black():
    text = board_text(chess.Board(), chess.BLACK).splitlines()
    assert text[0].startswith("1 R N B K Q") and text[-1].strip() == "h g f e d c b a"


@pytest.mark.skipif(find_default_book() is None, reason="no opening book (apt-get install gnuchess-book): the "
                                                         "AI's first reply would need the search")
def test_a_person_plays_in_the_console():
    """Wrong input is explained and asked again; the AI answers from its book; quit leaves cleanly."""
    typed = "xyz\ne2e5\ne4\nquit\n"
    run = subprocess.run([sys.executable, "-m", "Util", "play", "--time", "0.2"], cwd=ROOT, input=typed,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Legal moves: " in out and " Nf3 " in out
    assert "'xyz' is not a legal move" in out and "'e2e5' is not a legal move" in out
    assert "AI plays" in out and "(opening book" in out
    assert out.rstrip().endswith("Goodbye")
