"""The evaluation's later terms (rooks on open and half-open files, knights and bishops on outposts, the
kings' distances to a passed pawn's stop square in the endgame), each against a count made with
python-chess: switching a term on moves the compiled evaluation by exactly its value times that count;
and weights files written before these terms still load, with the terms off."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import chess
import pytest

from Util.whole_game.evaluation import (ADDED_TERMS_OFF, DEFAULT_WEIGHTS, HAND_SET_WEIGHTS, Weights, evaluate,
                                        read_weights, weights_from_json, weights_to_json)

#: The engine's weights with the later terms off: the terms' effects are measured against it.
WITHOUT = replace(DEFAULT_WEIGHTS, **ADDED_TERMS_OFF)
#: Phase units of knight, bishop, rook and queen (24 at the start: the middlegame weighs phase / 24).
UNITS = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}

#: White: Rd1 on an open file, Re1 on a half-open one; Black's rooks behind their own pawns.
ROOKS = "r4rk1/pp2pppp/8/8/8/8/PP3PPP/3RR1K1 w - - 0 1"
#: White's rooks behind their own pawns; Black: Rd8 on an open file, Rh8 behind its own pawn.
ROOKS_BLACK = "2kr3r/ppp3pp/8/8/8/4P3/PP3PPP/R4RK1 w - - 0 1"
#: Nd5 guarded by e4 with no black pawn on the c- or e-file that could come to attack it: an outpost.
OUTPOST = "4k3/pp3ppp/8/3N4/4P3/8/PP3PPP/4K3 w - - 0 1"
#: The same with a black pawn on c7 (c6 would attack d5): no outpost.
NO_OUTPOST = "4k3/ppp2ppp/8/3N4/4P3/8/PP3PPP/4K3 w - - 0 1"
#: Guarded by c4 instead, with a black pawn on e7 (e6 would attack d5): no outpost either.
NO_OUTPOST_E = "4k3/pp2pppp/8/3N4/2P5/8/PP3PPP/4K3 w - - 0 1"
#: The black pawn on c4 has passed d5 and can never attack it: an outpost again.
OUTPOST_PASSED_BY = "4k3/pp3ppp/8/3N4/2p1P3/8/PP3PPP/4K3 w - - 0 1"
#: A bishop on d5 not guarded by a pawn, a knight on d4 on its own half: neither is an outpost.
NOT_GUARDED, OWN_HALF = "4k3/pp3ppp/8/3B4/8/8/PP3PPP/4K3 w - - 0 1", "4k3/pp3ppp/8/8/3N4/4P3/PP3PPP/4K3 w - - 0 1"
#: Pawn endings, no pieces (phase 0): a passed pawn on f2 (stop f3: black king b6 4 moves away, white
#: king g1 2), one on f6 (stop f7: black king b3 4 moves away, white king g1 6), and two blocked pawns.
PASSED_LOW, PASSED_HIGH = "8/8/1k6/8/8/8/5P2/6K1 w - - 0 1", "8/8/5P2/8/8/1k6/8/6K1 w - - 0 1"
BLOCKED = "8/5p2/1k6/8/8/8/5P2/6K1 w - - 0 1"


def phase(board: chess.Board) -> int:
    return min(24, sum(units * len(board.pieces(kind, colour)) for kind, units in UNITS.items()
                       for colour in chess.COLORS))


def ahead(square: int, of: int, colour: chess.Color) -> bool:
    """Whether ``square`` is on a rank in front of ``of`` as ``colour`` moves."""
    return chess.square_rank(square) > chess.square_rank(of) if colour else chess.square_rank(square) < chess.square_rank(of)


def counts(board: chess.Board, colour: chess.Color):
    """(rooks on open files, rooks on half-open files, outposts, [(relative rank, enemy king's distance,
    own king's distance) of each passed pawn]) of ``colour``, by python-chess."""
    own, theirs = board.pieces(chess.PAWN, colour), board.pieces(chess.PAWN, not colour)
    own_files, their_files = {chess.square_file(s) for s in own}, {chess.square_file(s) for s in theirs}
    rook_files = [chess.square_file(s) for s in board.pieces(chess.ROOK, colour)]
    open_ = sum(f not in own_files | their_files for f in rook_files)
    half_open = sum(f not in own_files and f in their_files for f in rook_files)
    outposts = 0
    for square in board.pieces(chess.KNIGHT, colour) | board.pieces(chess.BISHOP, colour):
        relative = chess.square_rank(square) if colour else 7 - chess.square_rank(square)
        guarded = bool(board.attackers(colour, square) & own)
        attackable = any(abs(chess.square_file(p) - chess.square_file(square)) == 1 and ahead(p, square, colour)
                         for p in theirs)
        outposts += relative >= 4 and guarded and not attackable
    passed = []
    for pawn in own:
        if not any(abs(chess.square_file(p) - chess.square_file(pawn)) <= 1 and ahead(p, pawn, colour) for p in theirs):
            stop = pawn + 8 if colour else pawn - 8
            passed.append((chess.square_rank(pawn) if colour else 7 - chess.square_rank(pawn),
                           chess.square_distance(board.king(not colour), stop),
                           chess.square_distance(board.king(colour), stop)))
    return open_, half_open, outposts, passed


def moved_by(board: chess.Board, **terms) -> int:
    """How much switching ``terms`` on moves the evaluation of ``board`` (side to move)."""
    return evaluate(board, replace(WITHOUT, **terms)) - evaluate(board, WITHOUT)


def net(board: chess.Board, pick) -> int:
    """``pick(counts)`` of the side to move minus the opponent's."""
    return pick(counts(board, board.turn)) - pick(counts(board, not board.turn))


@pytest.mark.parametrize("fen, us, them", [(ROOKS, (1, 1), (0, 0)), (ROOKS_BLACK, (0, 0), (1, 0))])
def test_a_rook_on_an_open_or_half_open_file_adds_its_value(fen, us, them):
    # the position and its mirror image (colours swapped, the other side to move): both sides' code
    for board in (chess.Board(fen), chess.Board(fen).mirror()):
        assert counts(board, board.turn)[:2] == us and counts(board, not board.turn)[:2] == them
        p = phase(board)
        # a value of 24 in one phase moves the blended evaluation by a whole number of centipawns
        assert moved_by(board, rook_open_file=(24, 0)) == (us[0] - them[0]) * p
        assert moved_by(board, rook_open_file=(0, 24)) == (us[0] - them[0]) * (24 - p)
        assert moved_by(board, rook_half_open_file=(24, 0)) == (us[1] - them[1]) * p
        assert moved_by(board, rook_half_open_file=(0, 24)) == (us[1] - them[1]) * (24 - p)
        assert moved_by(board, rook_open_file=(30, 30), rook_half_open_file=(7, 7)) == \
            30 * (us[0] - them[0]) + 7 * (us[1] - them[1])


@pytest.mark.parametrize("fen, outposts", [(OUTPOST, 1), (NO_OUTPOST, 0), (NO_OUTPOST_E, 0), (OUTPOST_PASSED_BY, 1),
                                           (NOT_GUARDED, 0), (OWN_HALF, 0)])
def test_a_knight_or_bishop_on_an_outpost_adds_its_value(fen, outposts):
    for board in (chess.Board(fen), chess.Board(fen).mirror()):  # the minor piece is the side to move's
        assert net(board, lambda c: c[2]) == outposts
        p = phase(board)
        assert moved_by(board, outpost=(24, 0)) == outposts * p
        assert moved_by(board, outpost=(0, 24)) == outposts * (24 - p)
        assert moved_by(board, outpost=(40, 40)) == outposts * 40


@pytest.mark.parametrize("fen, passed", [(PASSED_LOW, [(1, 4, 2)]), (PASSED_HIGH, [(5, 4, 6)]), (BLOCKED, [])])
def test_the_kings_distances_to_a_passed_pawns_stop_square_count_by_rank(fen, passed):
    values = tuple(24 * (rank + 1) for rank in range(8))  # a different value for each rank
    for board in (chess.Board(fen), chess.Board(fen).mirror()):
        assert counts(board, board.turn)[3] == passed and counts(board, not board.turn)[3] == []
        assert phase(board) == 0  # pawn endings: the endgame value counts whole
        enemy = sum(values[rank] * d for rank, d, _ in passed)
        own = sum(values[rank] * d for rank, _, d in passed)
        assert moved_by(board, passed_enemy_king=values) == enemy
        assert moved_by(board, passed_own_king=values) == own
        assert moved_by(board, passed_enemy_king=values, passed_own_king=tuple(-v for v in values)) == enemy - own
    # with queens on (phase 8 of 24) a third of it is gone: the middlegame has no such term
    board = chess.Board("4k3/8/8/8/8/8/5P2/Q3K1Q1 w - - 0 1")
    assert phase(board) == 8 and counts(board, chess.WHITE)[3] == [(1, 5, 2)]
    assert moved_by(board, passed_enemy_king=(24,) * 8) == 5 * (24 - 8)


def test_the_terms_equal_python_chess_counts_in_played_positions():
    rng = random.Random(7)
    values = dict(rook_open_file=(24, 48), rook_half_open_file=(72, 24), outpost=(48, 96),
                  passed_enemy_king=tuple(24 * r for r in range(8)), passed_own_king=tuple(-24 * (8 - r) for r in range(8)))
    seen = [0, 0, 0, 0]
    for game in range(30):
        board = chess.Board()
        for _ in range(rng.randint(10, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.is_check():
            continue
        p = phase(board)
        expected = 0
        for colour, sign in ((board.turn, 1), (not board.turn, -1)):
            open_, half_open, outposts, passed = counts(board, colour)
            mg = open_ * values["rook_open_file"][0] + half_open * values["rook_half_open_file"][0] \
                + outposts * values["outpost"][0]
            eg = open_ * values["rook_open_file"][1] + half_open * values["rook_half_open_file"][1] \
                + outposts * values["outpost"][1] + sum(values["passed_enemy_king"][r] * e + values["passed_own_king"][r] * o
                                                         for r, e, o in passed)
            expected += sign * (mg * p + eg * (24 - p)) // 24
            seen = [s + bool(n) for s, n in zip(seen, (open_, half_open, outposts, passed))]
        assert moved_by(board, **values) == expected, board.fen()
    assert all(seen), f"the random positions should show every term at least once: {seen}"


def test_weights_files_written_before_the_terms_load_with_them_off(tmp_path):
    data = json.loads(weights_to_json(replace(DEFAULT_WEIGHTS, tempo=5)))
    old = json.dumps({name: value for name, value in data.items() if name not in ADDED_TERMS_OFF})
    path = tmp_path / "old.json"
    path.write_text(old)
    assert read_weights(path) == weights_from_json(old) == replace(DEFAULT_WEIGHTS, tempo=5, **ADDED_TERMS_OFF)
    # a file naming only some keys keeps the engine's values for the rest, the new terms among them
    assert weights_from_json('{"tempo": 5}') == replace(DEFAULT_WEIGHTS, tempo=5)
    assert weights_from_json('{"outpost": [9, 8]}').outpost == (9, 8)
    with pytest.raises(ValueError, match="passed_own_king must have the shape"):
        weights_from_json('{"passed_own_king": [1, 2]}')


def test_the_hand_set_weights_have_the_terms_off():
    for name, off in ADDED_TERMS_OFF.items():
        assert getattr(HAND_SET_WEIGHTS, name) == off
        assert len(getattr(Weights(), name)) == len(off)
    board = chess.Board(ROOKS)
    assert evaluate(board, HAND_SET_WEIGHTS) == evaluate(board, replace(HAND_SET_WEIGHTS, **ADDED_TERMS_OFF))
