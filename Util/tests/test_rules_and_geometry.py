"""Geometry tables and legality against python-chess, the independent rules engine."""

import random

import chess
import numpy as np
import pytest

from Util.rules.geometry import BETWEEN, KNIGHT_ATTACKS, LINE, WHITE_PAWN_ATTACKS
from Util.rules.legality import black_to_move_legal_and_check, white_to_move_legal


def test_lines_between_and_attacks_match_python_chess():
    for a in range(64):
        for b in range(64):
            assert int(LINE[a, b]) == (chess.ray(a, b) if a != b else 0)
            if a != b:
                assert int(BETWEEN[a, b]) == chess.between(a, b)
            assert KNIGHT_ATTACKS[a, b] == bool(chess.BB_KNIGHT_ATTACKS[a] & chess.BB_SQUARES[b])
            assert WHITE_PAWN_ATTACKS[a, b] == bool(chess.BB_PAWN_ATTACKS[chess.WHITE][a] & chess.BB_SQUARES[b])


@pytest.mark.parametrize("letters", ["KkQ", "KkP", "KkBN", "KkRRP", "KkQRB", "KkBBN", "KkPPP"])
def test_legality_equals_python_chess_is_valid(letters):
    rng = random.Random(letters)
    count = 6000
    squares = [np.array([rng.randrange(64) for _ in range(count)]) for _ in letters]
    white_ok = white_to_move_legal(letters, squares)
    black_ok, in_check = black_to_move_legal_and_check(letters, squares)
    seen_double_check = 0
    for k in range(count):
        placed = [int(s[k]) for s in squares]
        if len(set(placed)) < len(placed):
            assert not white_ok[k] and not black_ok[k]
            continue
        board = chess.Board(None)
        for square, letter in zip(placed, letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = chess.WHITE
        assert white_ok[k] == board.is_valid(), board.fen()
        board.turn = chess.BLACK
        assert black_ok[k] == board.is_valid(), board.fen()
        if black_ok[k]:
            assert in_check[k] == board.is_check(), board.fen()
            seen_double_check += len(board.checkers()) == 2
    assert white_ok.sum() > count // 10 and black_ok.sum() > count // 10
    if len(letters) > 3:  # two pieces that can give check: the sample holds double checks, and they were compared
        assert seen_double_check > 0


def test_impossible_double_check_is_rejected_like_python_chess():
    # Queen e8 and rook e1 check the king on e5 from both ends of one file: no single move does that.
    board = chess.Board("4Q3/8/8/4k3/8/8/8/K3R3 b - - 0 1")
    assert len(board.checkers()) == 2 and not board.is_valid()
    squares = [np.array([chess.A1]), np.array([chess.E5]), np.array([chess.E8]), np.array([chess.E1])]
    ok, _ = black_to_move_legal_and_check("KkQR", squares)
    assert not ok[0]
