"""The thesis's mirror(): each symmetry agrees with python-chess's transforms and keeps Gaviota's verdict."""

import random

import chess
import pytest

from Util.board.material import Material
from Util.board.symmetry import Swap_Type, mirror
from Util.validation.references import gaviota_n
from Util.board.random_boards import random_legal_boards

PYTHON_CHESS = {
    Swap_Type.VERTICAL: chess.flip_vertical,
    Swap_Type.HORIZONTAL: chess.flip_horizontal,
    Swap_Type.ROTATE_180: lambda bb: chess.flip_vertical(chess.flip_horizontal(bb)),
    Swap_Type.DIAGONAL: chess.flip_diagonal,
    Swap_Type.ANTI_DIAGONAL: chess.flip_anti_diagonal,
}


@pytest.mark.parametrize("swap", list(PYTHON_CHESS))
def test_mirror_matches_python_chess(swap):
    board = chess.Board("8/8/2k5/8/8/3B4/1N6/K7 w - - 0 1")
    assert mirror(board, swap).board_fen() == board.transform(PYTHON_CHESS[swap]).board_fen()


def test_rotations_are_four_quarter_turns():
    board = chess.Board("8/8/2k5/8/8/3B4/1N6/K7 b - - 0 1")
    turned = board
    for _ in range(4):
        turned = mirror(turned, Swap_Type.ROTATE_RIGHT)
    assert turned.board_fen() == board.board_fen() and turned.turn == board.turn
    assert mirror(mirror(board, Swap_Type.ROTATE_LEFT), Swap_Type.ROTATE_RIGHT).board_fen() == board.board_fen()


def test_every_symmetry_keeps_the_depth_to_mate_without_pawns(gaviota):
    for board in random_legal_boards(Material.parse("KBNvK"), 40, random.Random(3), turn=True):
        assert {gaviota_n(gaviota, mirror(board, swap)) for swap in Swap_Type} == {gaviota_n(gaviota, board)}


@pytest.mark.parametrize("identical_groups", [(), ((2, 3),), ((1, 2, 3),)])
def test_diagonal_twins_are_the_entries_whose_mirror_sorts_lower(identical_groups):
    """The entries of a diagonal white-king slot that a file stores blank (``Layout``'s diagonal rule), by
    their definition, entry by entry, with python-chess's squares: pieces 1-3 on any squares (6 bits each,
    piece 1 highest), identical pieces ascending, and the position mirrored in the a1-h8 diagonal (identical
    pieces put in order again) lower."""
    from Util.table.index_scheme import _diagonal_rule

    def mirrored(square):
        return chess.square(chess.square_rank(square), chess.square_file(square))

    expected_offsets, expected_twins = [], []
    for offset in range(64 ** 3):
        squares = {1: offset >> 12, 2: (offset >> 6) & 63, 3: offset & 63}
        if any(squares[a] >= squares[b] for group in identical_groups for a, b in zip(group, group[1:])):
            continue
        twin_squares = {i: mirrored(s) for i, s in squares.items()}
        for group in identical_groups:
            for i, s in zip(group, sorted(twin_squares[i] for i in group)):
                twin_squares[i] = s
        twin = (twin_squares[1] << 12) | (twin_squares[2] << 6) | twin_squares[3]
        if twin < offset:
            expected_offsets.append(offset)
            expected_twins.append(twin)
    offsets, twins = _diagonal_rule(4, identical_groups)
    assert offsets.tolist() == expected_offsets and twins.tolist() == expected_twins
