"""The one random-board generator: every board it gives is legal for python-chess and of the material asked
for, the side to move is the one asked for, a seed gives the same boards again, and a wish no board meets
is refused with the reason."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from Util.board.material import Material, material_of_board
from Util.board.random_boards import random_legal_board, random_legal_boards

MATERIALS = ["KvK", "KQvK", "KPvKP", "KBNvK", "KQvKR", "KRPvKR", "KPPvKP"]


@pytest.mark.parametrize("name", MATERIALS)
@pytest.mark.parametrize("make_rng", [random.Random, np.random.default_rng], ids=["random", "numpy"])
def test_boards_are_legal_of_the_material_and_the_side_asked_for(name, make_rng):
    material = Material.parse(name)
    for turn in (None, chess.WHITE, chess.BLACK):
        boards = random_legal_boards(name, 60, make_rng(len(name)), turn=turn)
        for board in boards:
            assert board.is_valid(), board.fen()
            assert board.status() == chess.STATUS_VALID
            assert material_of_board(board) == material, board.fen()
            assert not board.castling_rights and board.ep_square is None
            if turn is not None:
                assert board.turn == turn
        if turn is None:  # either side to move, each about half the time
            assert 10 < sum(b.turn == chess.WHITE for b in boards) < 50
        assert len({b.fen() for b in boards}) > 50  # random, not one board again and again


def test_a_seed_gives_the_same_boards_again_and_another_seed_others():
    for make_rng in (random.Random, np.random.default_rng):
        first = [b.fen() for b in random_legal_boards("KQvKR", 30, make_rng(7))]
        again = [b.fen() for b in random_legal_boards(Material.parse("KQvKR"), 30, make_rng(7))]
        other = [b.fen() for b in random_legal_boards("KQvKR", 30, make_rng(8))]
        assert first == again and first != other


def test_the_same_boards_as_the_copies_it_replaced():
    """A caller that seeded ``random.Random`` gets the boards its own loop drew (``rng.sample`` of the
    squares, then a coin for the side to move), so the seeds in tests and benchmarks keep their boards."""
    rng, expected = random.Random(3), []
    while len(expected) < 20:
        board = chess.Board(None)
        for square, letter in zip(rng.sample(range(64), 4), "KkQr"):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            expected.append(board.fen())
    assert [b.fen() for b in random_legal_boards("KQvKR", 20, random.Random(3))] == expected


def test_playable_boards_are_not_over_and_an_impossible_wish_says_why():
    rng = random.Random(1)
    boards = random_legal_boards("KQvK", 300, rng, playable=True)
    assert not any(b.is_game_over() for b in boards)
    assert all(b.is_game_over() for b in random_legal_boards("KNvK", 20, rng))  # no mating material
    with pytest.raises(ValueError, match=r"KNvK: no legal and not over board with White to move in 1,000 random "
                                         r"placements"):
        random_legal_board("KNvK", rng, turn=chess.WHITE, playable=True, tries=1000)
