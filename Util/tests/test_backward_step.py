"""The plain-Python backward step: its un-moves against python-chess's moves, its S_n against the engine's."""

import random

import chess
import pytest

from Util.calculation.backward_step import (check_black_determinism, integer_to_key, key_to_board, key_to_integer,
                                position_key, predecessors, solve, un_promotions)
from Util.board.integer import to_integer
from Util.board.material import Material
from Util.sequence import SnSequence
from Util.bench.step_timing import sets_that_differ, solution_from_sequence


def sample_boards(store, name, count, seed):
    """``count`` boards of the engine's S_1 .. S_9 of ``name``, both sides to move, drawn at random."""
    sequence = SnSequence.from_store(store, name)
    rng = random.Random(seed)
    boards = []
    for n in range(1, 10):
        members = sorted(int(b) for b in sequence[n])
        boards += [key_to_board(integer_to_key(b, sequence.piece_list)) for b in rng.sample(members, count)]
    return boards


@pytest.mark.parametrize("name", ["KQvK", "KPvK"])
def test_un_moves_are_exactly_python_chess_moves_backwards(store, name):
    # every legal non-capture move is un-made by predecessors, and every predecessor has a legal move back
    for board in sample_boards(store, name, 6, seed=len(name)):
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            if board.is_capture(move) or move.promotion:
                continue
            assert position_key(board) in {position_key(b) for b in predecessors(child)}, (board.fen(), move.uci())
        for before in predecessors(board):
            reached = set()
            for move in before.legal_moves:
                before.push(move)
                reached.add(position_key(before))
                before.pop()
            assert position_key(board) in reached, (before.fen(), board.fen())


def test_un_promotion_is_a_promotion_backwards():
    board = chess.Board("1Q6/8/8/8/8/1k6/8/1K6 b - - 0 1")  # KQvK, Black to move, the queen on b8
    before = list(un_promotions(board))
    assert [b.fen() for b in before] == ["8/1P6/8/8/8/1k6/8/1K6 w - - 0 1"]
    assert before[0].push_san("b8=Q") and position_key(before[0]) == position_key(board)


def test_keys_and_board_integers_agree_with_to_integer():
    piece_list = Material.parse("KBBvK").piece_list
    board = chess.Board("8/8/8/3k4/8/8/8/KB3B2 w - - 0 1")
    key = position_key(board)
    assert key_to_integer(key, piece_list) == to_integer(board, piece_list)
    assert integer_to_key(to_integer(board, piece_list), piece_list) == key
    assert key_to_board(key).fen() == board.fen()


def test_black_escapes_by_capturing_the_queen():
    board = chess.Board("8/8/8/8/8/1k6/2Q5/K7 b - - 0 1")  # Kxc2 leaves two bare kings
    decided = set()
    for move in board.legal_moves:
        if not board.is_capture(move):
            child = board.copy()
            child.push(move)
            decided.add(position_key(child))
    assert len(decided) == 2 and not check_black_determinism(board, decided)
    decided.add(position_key(chess.Board("8/8/8/8/8/8/2k5/K7 w - - 0 1")))  # as if the capture led lower too
    assert check_black_determinism(board, decided)


def test_kqvk_equals_the_engine_set_for_set_and_folding_changes_nothing(store):
    engine = SnSequence.from_store(store, "KQvK")
    folded = solve(Material.parse("KQvK"), max_n=5)
    assert sets_that_differ(folded, engine, 5) == [] and folded.sizes[0] == 364
    unfolded = solve(Material.parse("KQvK"), max_n=2, fold=False)
    assert unfolded.sets == folded.sets[:3]


def test_kpvk_fed_by_the_promoted_tables_equals_the_engine(store):
    # KPvK has no checkmate: its S_n begin with un-promotions from KQvK's and KRvK's S_0
    last = 13
    promoted = {Material.parse(name): solution_from_sequence(SnSequence.from_store(store, name), last)
                for name in ("KQvK", "KRvK", "KBvK", "KNvK")}
    backward = solve(Material.parse("KPvK"), promoted, max_n=last)
    assert backward.sizes[0] == 0 and backward.sizes[1] > 0
    assert sets_that_differ(backward, SnSequence.from_store(store, "KPvK"), last) == []


def test_solve_says_what_it_cannot_do():
    with pytest.raises(ValueError, match="lone black king"):
        solve(Material.parse("KQvKR"))
    with pytest.raises(ValueError, match="KQvK, KRvK, KBvK, KNvK"):
        solve(Material.parse("KPvK"))
