"""Board integers (the thesis's to_integer / to_board)."""

import random

import chess
import pytest

from Util.board.integer import BoardIntError, to_board, to_integer
from Util.board.material import Material
from Util.board.random_boards import random_legal_boards


def _pack(squares, white_to_move=True):
    value = 0
    for square in squares:
        value = value << 6 | square
    return value << 1 | int(white_to_move)


@pytest.mark.parametrize("name", ["KQvK", "KBNvK", "KBBvK", "KRRPvK", "KPPPvK"])
def test_round_trip_and_uniqueness(name):
    material = Material.parse(name)
    seen = {}
    for white_to_move in (True, False):
        for board in random_legal_boards(material, 300, random.Random(7), turn=white_to_move):
            value = to_integer(board, material.piece_list)
            assert value.bit_length() <= 6 * material.piece_count + 1
            back = to_board(value, material.piece_list)
            assert back.board_fen() == board.board_fen() and back.turn == board.turn
            assert seen.setdefault(value, board.fen()) == board.fen()


def test_layout_is_six_bits_per_piece_then_turn():
    material = Material.parse("KQvK")
    board = chess.Board("8/8/8/8/8/8/8/KQ5k w - - 0 1")  # K a1=0, k h1=7, Q b1=1
    assert to_integer(board, material.piece_list) == _pack([chess.A1, chess.H1, chess.B1])
    board.turn = chess.BLACK
    assert to_integer(board, material.piece_list) & 1 == 0


def test_identical_pieces_are_ordered_by_square():
    material = Material.parse("KBBvK")
    board = chess.Board("8/8/8/8/3k4/8/2B5/K1B5 w - - 0 1")
    assert to_integer(board, material.piece_list) == _pack([chess.A1, chess.D4, chess.C1, chess.C2])
    out_of_order = _pack([chess.A1, chess.D4, chess.C2, chess.C1])
    with pytest.raises(BoardIntError, match="out of square order"):
        to_board(out_of_order, material.piece_list)


def test_wrong_material_and_bad_integers_are_refused_with_reasons():
    material = Material.parse("KBNvK")
    with pytest.raises(BoardIntError, match="piece list"):
        to_integer(chess.Board("8/8/8/8/3k4/8/8/KQ6 w - - 0 1"), material.piece_list)
    with pytest.raises(BoardIntError, match="does not fit"):
        to_board(1 << 40, material.piece_list)
    with pytest.raises(BoardIntError, match="two pieces on one square"):
        to_board(0, material.piece_list)
    with pytest.raises(BoardIntError, match="must be an int"):
        to_board("12", material.piece_list)
