"""The whole-game engine's rules against external truth: perft against published counts, legal moves and
position keys against python-chess (its move generator and ``chess.polyglot.zobrist_hash``) along random
games, made and taken back in the compiled kernels."""

from __future__ import annotations

import random

import chess
import chess.polyglot
import numpy as np
import pytest

from Util.whole_game.kernels.movegen import MAX_MOVES, generate
from Util.whole_game.kernels.position import KEYS, PLY, make_move, unmake_move
from Util.whole_game.perft import divide, perft
from Util.whole_game_lab.perft_check import published_counts, suites_folder
from Util.whole_game.position import from_move, tables, to_arrays, to_move

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# the chessprogramming wiki's perft positions 1 to 6 (published counts)
PUBLISHED = [
    (chess.STARTING_FEN, 4, 197281),
    (KIWIPETE, 3, 97862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890),
]
# positions rich in castling, en passant and promotions to start the random games from
STARTS = [chess.STARTING_FEN, KIWIPETE, PUBLISHED[2][0], PUBLISHED[3][0], "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
          "r3k2r/8/8/3pPp2/8/8/8/R3K2R w KQkq d6 0 1", "8/P1k5/8/1pP5/8/8/5Kp1/8 w - b6 0 1"]


@pytest.mark.parametrize("fen, depth, nodes", PUBLISHED)
def test_perft_equals_published_counts(fen, depth, nodes):
    assert perft(chess.Board(fen), depth) == nodes


def test_perft_equals_the_shared_suites_quick_lines():
    folder = suites_folder()
    if not (folder / "perft.tsv").exists():
        pytest.skip(f"no perft.tsv in {folder} (set SUITES_PATH to the shared suites folder)")
    lines = [line for line in published_counts(folder) if line[2] <= 50_000]
    assert len(lines) > 100
    wrong = [(fen, depth, nodes, perft(chess.Board(fen), depth)) for fen, depth, nodes in lines
             if perft(chess.Board(fen), depth) != nodes]
    assert wrong == []


def test_divide_splits_perft_by_root_move():
    board = chess.Board(KIWIPETE)
    counts = dict(divide(board, 2))
    assert set(counts) == set(board.legal_moves)
    assert counts[chess.Move.from_uci("e1g1")] == 43  # Stockfish's `go perft 2` line for castling
    assert sum(counts.values()) == 2039


def test_perft_rejects_a_negative_depth_and_an_invalid_board():
    with pytest.raises(ValueError, match="depth"):
        perft(chess.Board(), -1)
    with pytest.raises(ValueError, match="invalid position"):
        perft(chess.Board("8/8/8/8/8/8/8/K7 w - - 0 1"), 1)


def legal_set(a) -> set:
    moves = np.zeros(MAX_MOVES, np.int32)
    n = generate(a.bb, a.st, tables(), moves, 0, True)
    listed = [to_move(int(m)) for m in moves[:n]]
    assert len(listed) == len(set(listed)), "a move listed twice"
    return set(listed)


def test_legal_moves_and_keys_equal_python_chess_along_random_games():
    """Moves are made in the kernels and on a python-chess board side by side; at every position the legal
    moves and the Polyglot key agree, and taking every move back restores the arrays exactly.  Half the
    time a special move (castling, en passant, promotion) is played when there is one."""
    rng = random.Random(2026)
    seen = {"castling": 0, "en passant": 0, "promotion": 0, "check": 0}
    positions = 0
    for game in range(120):
        board = chess.Board(STARTS[game % len(STARTS)])
        a = to_arrays(board, history=False)
        start_bb, start_st = a.bb.copy(), a.st.copy()
        made = []
        for _ in range(rng.randint(20, 120)):
            assert legal_set(a) == set(board.legal_moves), board.fen()
            assert a.bb[KEYS + a.st[PLY]] == chess.polyglot.zobrist_hash(board), board.fen()
            positions += 1
            seen["check"] += board.is_check()
            if board.is_game_over(claim_draw=False) or a.st[PLY] >= 500:
                break
            legal = list(board.legal_moves)
            special = [m for m in legal if board.is_en_passant(m) or board.is_castling(m) or m.promotion]
            move = rng.choice(special if special and rng.random() < 0.5 else legal)
            seen["castling"] += board.is_castling(move)
            seen["en passant"] += board.is_en_passant(move)
            seen["promotion"] += move.promotion is not None
            code = from_move(board, move)
            make_move(a.bb, a.st, tables(), code)
            made.append(code)
            board.push(move)
        for code in reversed(made):
            unmake_move(a.bb, a.st, code)
        a.bb[KEYS + len(made) + 1:] = 0  # keys of later plies are history, not position
        assert (a.bb[:KEYS + 1] == start_bb[:KEYS + 1]).all() and (a.st[:72] == start_st[:72]).all()
    assert positions > 5000
    assert min(seen.values()) >= 10, seen


def test_keys_of_boards_loaded_from_fens_equal_polyglot():
    """Keys computed from scratch (the en passant file only when a pawn can take, as Polyglot hashes it)."""
    for fen in STARTS + [line[0] for line in PUBLISHED]:
        board = chess.Board(fen)
        assert to_arrays(board).key == chess.polyglot.zobrist_hash(board)
    # the keys the Polyglot book format specification lists for its example moves (en passant after f7f5)
    board = chess.Board()
    assert to_arrays(board).key == 0x463B96181691FC9C
    for uci, key in [("e2e4", 0x823C9B50FD114196), ("d7d5", 0x0756B94461C50FB0), ("e4e5", 0x662FAFB965DB29D4),
                     ("f7f5", 0x22A48B5A8E47FF78)]:
        board.push_uci(uci)
        assert to_arrays(board).key == key
