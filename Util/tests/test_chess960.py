"""Chess960 in the compiled rules, against external truth: perft against the published counts of
``chess960.perft`` (the Chess Programming Wiki's and Ethereal's 960 positions), legal moves against
python-chess along random games from the 960 starting positions, castling's special cases (king or rook
already on its final square, each on the other's) included."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from Util.whole_game.kernels.movegen import MAX_MOVES, generate
from Util.whole_game.kernels.position import KEYS, PLY, make_move, unmake_move
from Util.whole_game.perft import divide, perft
from Util.whole_game.position import from_move, tables, to_arrays, to_move
from Util.whole_game_lab.perft_check import chess960_counts, suites_folder


@pytest.fixture(scope="module")
def published():
    folder = suites_folder()
    if not (folder / "chess960.perft").exists():
        pytest.skip(f"no chess960.perft in {folder} (set SUITES_PATH to the shared suites folder)")
    return chess960_counts(folder)


def test_perft_equals_published_counts_of_a_handful_of_positions(published):
    assert len(published) == 960
    for number in (0, 1, 117, 359, 518, 744, 959):
        fen, counts = published[number]
        board = chess.Board(fen, chess960=True)
        for depth in (1, 2, 3):
            assert perft(board, depth) == counts[depth], (number, fen, depth)
    fen, counts = published[359]
    assert perft(chess.Board(fen, chess960=True), 4) == counts[4]


@pytest.mark.slow
@pytest.mark.big
def test_perft_equals_published_counts_of_all_960_positions_to_depth_4(published):
    """All 960 positions, depths 1-4 (5.8 * 10^8 leaves; the full depth-6 check is
    ``python -m Util.whole_game_lab.perft_check --chess960``)."""
    wrong = [(fen, depth) for fen, counts in published for depth in (1, 2, 3, 4)
             if perft(chess.Board(fen, chess960=True), depth) != counts[depth]]
    assert wrong == []


def legal_list(a, board: chess.Board) -> list:
    moves = np.zeros(MAX_MOVES, np.int32)
    n = generate(a.bb, a.st, tables(), moves, 0, True)
    return [to_move(int(m), board) for m in moves[:n]]


@pytest.mark.parametrize("fen, castlings", [
    ("1r2k1r1/pppppppp/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", {"e1b1", "e1g1"}),  # rooks inside the corners
    ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", {"e1b1"}),                 # g1 attacked by the g8 rook
    ("k7/8/8/8/8/8/8/4RKR1 w GE - 0 1", {"f1e1", "f1g1"}),    # king side: king and rook change squares
    ("6k1/8/8/8/8/8/8/R5KR w HA - 0 1", {"g1a1", "g1h1"}),    # king already on g1: only the rook moves
    ("k7/8/8/8/8/8/8/5RKR w HF - 0 1", {"g1f1"}),             # king side blocked by the other rook on f1
    ("1k6/8/8/8/8/8/8/RK6 w A - 0 1", {"b1a1"}),              # queen side: king to c1, rook to d1
    ("k7/8/8/8/8/8/8/2RK4 w C - 0 1", {"d1c1"}),              # queen side: king and rook change squares
    ("k7/8/8/8/8/8/8/qRK5 w B - 0 1", set()),                 # the castling rook shields the king: pinned
    ("k7/8/8/8/8/8/8/r1RK4 w C - 0 1", set()),                # the king would stand on c1 in the a1 rook's line
])
def test_castling_cases_equal_python_chess(fen, castlings):
    board = chess.Board(fen, chess960=True)
    listed = legal_list(to_arrays(board, history=False), board)
    assert set(listed) == set(board.legal_moves)
    assert {move.uci() for move in listed if board.is_castling(move)} == castlings
    assert dict(divide(board, 2)) == {move: _count_after(board, move) for move in board.legal_moves}


def _count_after(board: chess.Board, move: chess.Move) -> int:
    board.push(move)
    try:
        return board.legal_moves.count()
    finally:
        board.pop()


def test_legal_moves_and_keys_along_random_chess960_games():
    """From random starting positions of the 960, moves are made in the kernels and on python-chess side by
    side: the legal moves agree at every position, the key kept move by move equals the key computed from
    scratch, and taking every move back restores the arrays.  Castling is played whenever it is legal."""
    rng = random.Random(960)
    castled = positions = 0
    for game in range(60):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        a = to_arrays(board, history=False)
        start_bb, start_st = a.bb.copy(), a.st.copy()
        made = []
        for _ in range(rng.randint(20, 100)):
            assert set(legal_list(a, board)) == set(board.legal_moves), board.fen()
            assert a.bb[KEYS + a.st[PLY]] == to_arrays(board, history=False).key, board.fen()
            positions += 1
            if board.is_game_over(claim_draw=False):
                break
            legal = list(board.legal_moves)
            castling = [m for m in legal if board.is_castling(m)]
            move = rng.choice(castling) if castling else rng.choice(legal)
            castled += board.is_castling(move)
            code = from_move(board, move)
            assert to_move(code, board) == move
            make_move(a.bb, a.st, tables(), code)
            made.append(code)
            board.push(move)
        for code in reversed(made):
            unmake_move(a.bb, a.st, code)
        assert (a.bb[:KEYS + 1] == start_bb[:KEYS + 1]).all() and (a.st[:136] == start_st[:136]).all()
    assert positions > 2000 and castled >= 40
