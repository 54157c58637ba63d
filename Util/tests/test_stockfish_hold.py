"""Can Stockfish hold a drawn position? Hold games against the real engine, checked with Gaviota's DTM."""

from __future__ import annotations

import csv

import chess
import chess.polyglot
import pytest

from Util.stockfish import compare as sc
from Util.stockfish import hold as sh
from Util.play.outcomes import game_end
from Util.tests.parts import missing_part
from Util.play.verdicts import hardest_best_move
from Util.play.random_starts import random_start


@pytest.fixture(scope="module")
def stockfish_path():
    try:
        return sc.find_stockfish()
    except sc.StockfishMissing as missing:
        missing_part(f"Stockfish unavailable: {missing}")


def _replay(result: sh.HoldResult, python_gaviota):
    """Each position of the game with Gaviota's DTM for the side to move (0: draw)."""
    board = chess.Board(result.fen)
    yield board, python_gaviota.probe_dtm(board)
    for uci in result.game.moves:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        board.push(move)
        yield board, (python_gaviota.probe_dtm(board) if not board.is_game_over() else None)


@pytest.mark.slow  # Stockfish plays whole games
@pytest.mark.stockfish
@pytest.mark.parametrize("depth", [1, 10])
def test_hold_games_agree_with_gaviota_move_by_move(depth, sequence_of, stockfish_path, python_gaviota, tmp_path):
    """Weak (depth 1) and strong (depth 10) defence of KRvKB draws: the AI never gives the draw away,
    the first losing move Stockfish plays is the recorded slip, and a lost game ends in the AI's mate."""
    sequence = sequence_of("KRvKB")
    report = sh.hold_draws(6, sequence, sc.EngineSettings(depth=depth, timeout_s=20), seed=depth,
                           ply_cap=120, path=stockfish_path, progress=False)
    assert len(report.played) == 6
    for result in report.results:
        slip = None
        for ply, (board, dtm) in enumerate(_replay(result, python_gaviota)):
            if ply == 0:
                assert dtm == 0 and board.turn == chess.BLACK  # a draw, Stockfish (Black) to move
                assert any(python_gaviota.probe_dtm(_after(board, m)) > 0 for m in board.legal_moves)  # a trap
                # and play goes on: no move of Stockfish's ends the game (no hanging rook to take)
                assert not any(_after(board, m).is_game_over() for m in board.legal_moves), result.fen
            elif slip is None and dtm != 0 and dtm is not None:
                assert board.turn == chess.WHITE and dtm > 0, (result.fen, ply, dtm)  # only Black ever errs
                slip = ply
        assert result.slipped_at == slip, (result.fen, result.slipped_at, slip)
        if result.lost_on_board:
            assert slip is not None and result.game.end == "checkmate"
        if slip is None:
            assert result.held
    # the report's arithmetic
    lost = sum(r.lost_on_board for r in report.results)
    assert f"Stockfish held the draw: {6 - lost} of 6" in report.text()
    assert f"lost {lost} (" in sh.hold_sentence(report)
    for result in report.played:  # every losing move, in the report and in the sentence alike
        if result.slipped_at is not None:
            board = chess.Board(result.fen)
            for uci in result.game.moves[: result.slipped_at - 1]:
                board.push_uci(uci)
            move = f"ply {result.slipped_at} ({board.fullmove_number}...{board.san(chess.Move.from_uci(result.game.moves[result.slipped_at - 1]))})"
            assert move in report.text() and move in sh.hold_sentence(report), move
    # how the games ended, and the moves that brought a position back, counted here by Zobrist hashes
    assert sorted(p for plies in report.endings().values() for p in plies) == sorted(r.game.plies for r in report.played)
    repeats = {True: 0, False: 0}
    for result in report.played:
        board = chess.Board(result.fen)
        seen = {chess.polyglot.zobrist_hash(board)}
        for uci in result.game.moves:
            by_stockfish = board.turn == result.stockfish_colour
            board.push_uci(uci)
            key = chess.polyglot.zobrist_hash(board)
            repeats[by_stockfish] += key in seen
            seen.add(key)
        end = game_end(board)
        assert result.game.end == end if end else result.game.end.startswith("ply cap")
    assert report.repeating_moves() == (repeats[False], repeats[True])
    assert f"the AI's {repeats[False]}, Stockfish's {repeats[True]}" in report.text()
    path = report.write(tmp_path, stem="hold")
    with open(path.with_suffix(".csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["fen"] for row in rows] == [r.fen for r in report.results]
    assert [row["held"] for row in rows] == [str(r.held) for r in report.results]


def _after(board: chess.Board, move: chess.Move) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move)
    return child


def test_the_ai_presses_a_draw_without_offering_a_dead_trade(sequence_of):
    """White Ka2 Rc2, Black Ke3 Be2: Rxe2+ Kxe2 would leave two bare kings. Of the drawing moves, the AI
    takes one after which every drawing reply still leaves White a rook."""
    sequence = sequence_of("KRvKB")
    board = chess.Board("8/8/8/8/8/4k3/K1R1b3/8 w - - 0 1")
    chosen = hardest_best_move(board, sequence)
    assert sequence.value(_after(board, chosen.move)) < 0  # still a draw
    assert chosen.move != chess.Move.from_uci("c2e2")
    child = _after(board, chosen.move)
    for reply in child.legal_moves:
        grandchild = _after(child, reply)
        if sequence.value(grandchild) < 0:
            assert not grandchild.has_insufficient_material(chess.WHITE), (chosen.san, child.san(reply))


def test_a_start_where_a_move_ends_the_game_is_not_one_to_hold(sequence_of):
    """Black to move takes the hanging rook (Kxb2): two kings and a bishop, no mate possible, the game is
    over after one ply. python-chess says so, and such a draw is no start for a hold game."""
    sequence = sequence_of("KRvKB")
    board = chess.Board("7K/8/8/8/8/2k5/1R6/5b2 b - - 0 1")
    assert sequence.value(board) < 0  # a draw by the table
    taken = _after(board, chess.Move.from_uci("c3b2"))
    assert taken.is_insufficient_material()
    assert chess.Move.from_uci("c3b2") in sh.moves_that_end_the_game(board)
    assert not sh.is_a_start_to_hold(board, sequence)


def test_a_position_that_is_not_a_draw_is_refused(sequence_of, stockfish_path):
    sequence = sequence_of("KRvKB")
    with sc.GuardedStockfish(sc.EngineSettings(depth=4), stockfish_path) as engine:
        with pytest.raises(ValueError, match="not a draw"):
            sh.hold_game(random_start(sequence, white_to_move=False, outcome="loss", seed=1), sequence, engine)
        with pytest.raises(ValueError, match="it is White.s move"):
            sh.hold_game(chess.Board("8/8/8/8/8/4k3/K1R1b3/8 w - - 0 1"), sequence, engine)
