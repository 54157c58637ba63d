"""Levels: a low level plays legal moves, worse than full strength by Stockfish's judgement, and never gives
a piece away (by a static exchange count made with python-chess's legal moves, not the engine's)."""

import threading

import chess
import chess.engine
import pytest

from Util.tests.parts import missing_part
from Util.whole_game.levels import LEVELS, LevelPlayer, level_for_elo, parse_level
from Util.whole_game_lab.match import default_openings_file, read_openings
from Util.whole_game.player import Player
from Util.whole_game.root_moves import rank_root_moves, rank_root_moves_deepening
from Util.whole_game.search import Limits

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900,
          chess.KING: 10_000}
#: Positions of the shared openings (Black or White to move, a few moves in).
COUNT = 16


def see(board: chess.Board, move: chess.Move) -> int:
    """Static exchange on the move's square: what the mover wins (negative: loses) if both sides then
    capture there with their least valuable man while it pays (legal captures only: pins count)."""
    target = move.to_square
    captured = board.piece_at(target)
    gains = [VALUES[captured.piece_type] if captured else (100 if board.is_en_passant(move) else 0)]
    on_square = VALUES[move.promotion or board.piece_type_at(move.from_square)]
    after = board.copy(stack=False)
    after.push(move)
    while True:
        captures = [m for m in after.legal_moves if m.to_square == target]
        if not captures:
            break
        capture = min(captures, key=lambda m: VALUES[after.piece_type_at(m.from_square)])
        gains.append(on_square - gains[-1])
        on_square = VALUES[after.piece_type_at(capture.from_square)]
        after.push(capture)
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0]


def test_see_counts_as_a_person_would():
    board = chess.Board("4k3/8/3p4/4p3/8/8/8/4KQ2 w - - 0 1")
    assert see(board, chess.Move.from_uci("f1f6")) == 0  # a quiet move to a safe square
    assert see(board, chess.Move.from_uci("f1e2")) == 0
    board = chess.Board("4k3/8/3p4/8/8/8/8/4KQ2 w - - 0 1")
    assert see(board, chess.Move.from_uci("f1e5")) == -900  # the queen put where a pawn takes it
    board = chess.Board("4k3/8/3p4/4p3/8/8/8/4KR2 w - - 0 1")
    assert see(board, chess.Move.from_uci("f1f5")) == 0


@pytest.fixture(scope="module")
def positions():
    path = default_openings_file()
    if not path.exists():
        pytest.skip(f"{path}: the shared openings are not here (set SUITES_PATH to the shared suites)")
    return [chess.Board(fen) for fen in read_openings(path, 0, COUNT)]


@pytest.fixture(scope="module")
def player():
    with Player(book=None, tablebase=None) as opened:
        yield opened


def test_levels_are_ordered_and_named():
    assert len(LEVELS) >= 8 and [level.number for level in LEVELS] == list(range(1, len(LEVELS) + 1))
    assert [level.elo for level in LEVELS] == sorted(level.elo for level in LEVELS)
    assert [level.margin for level in LEVELS] == sorted((level.margin for level in LEVELS), reverse=True)
    assert LEVELS[-1].margin == 0 and LEVELS[-1].depth is None and LEVELS[-1].tables
    assert level_for_elo(100) is LEVELS[0] and level_for_elo(5000) is LEVELS[-1]
    assert level_for_elo(LEVELS[3].elo + 1) is LEVELS[3]
    assert parse_level(1).label == f"level 1 (about {LEVELS[0].elo}, {LEVELS[0].scale} scale)"
    for level in LEVELS:  # each label measured, inside its interval, on one scale, from at least 40 games
        assert level.measured and level.elo_low <= level.elo <= level.elo_high and level.games >= 40, level
        assert level.scale == LEVELS[0].scale
    with pytest.raises(ValueError, match="from 1 to"):
        parse_level(0)


def test_rank_root_moves_agrees_with_a_mate_in_one(player):
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    ranked = rank_root_moves(board, player.searcher, 2)
    assert ranked[0].move == chess.Move.from_uci("a1a8") and ranked[0].mate == 1
    assert len(ranked) == board.legal_moves.count()


def test_a_ranking_under_a_clock_scores_every_move_or_none(player):
    """A round cut short is dropped: the ranking holds every legal move (here at the full depth asked),
    and a stop set before the first round gives an empty ranking rather than the first moves generated."""
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8")
    ranked, plies, nodes = rank_root_moves_deepening(board, player.searcher, 2)
    assert plies == 2 and nodes > 0
    assert {r.move for r in ranked} == set(board.legal_moves)
    stopped = threading.Event()
    stopped.set()
    assert rank_root_moves_deepening(board, player.searcher, 3, stop=stopped) == ([], 0, 0)


def test_a_level_short_of_time_answers_with_a_one_ply_search(player):
    """With almost nothing on its clock a low level plays the search's one-ply move, a legal one, instead of
    a second full budget."""
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8")
    level = LevelPlayer(player, LEVELS[5], rng=3)
    result = level.get_move(board, Limits(wtime=0.001, btime=0.001), use_book=False)
    assert result.move in board.legal_moves and result.source == "search" and result.depth == 1


def test_a_level_plays_with_the_weights_it_was_measured_with_and_gives_them_back(player):
    """Levels 1 to 7 were measured with the hand-set weights and play with them; full strength plays with
    the player's own weights again (the engine's, or a ``WeightsFile``'s), on the same shared searcher."""
    from dataclasses import replace

    from Util.whole_game.evaluation import DEFAULT_WEIGHTS, HAND_SET_WEIGHTS, parameters
    from Util.whole_game.kernels.work import PARAMS

    assert HAND_SET_WEIGHTS != DEFAULT_WEIGHTS
    searcher = player.searcher
    in_use = lambda: searcher.work[PARAMS:PARAMS + len(parameters())]  # noqa: E731
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8")
    own = replace(DEFAULT_WEIGHTS, tempo=DEFAULT_WEIGHTS.tempo + 7)  # as a WeightsFile would give
    searcher.set_weights(own)
    try:
        for level, expected in ((LEVELS[2], HAND_SET_WEIGHTS), (LEVELS[-1], own)):
            assert LevelPlayer(player, level, rng=1).get_move(board, Limits(depth=2), use_book=False).move in board.legal_moves
            assert (in_use() == parameters(expected)).all(), level.number
    finally:
        searcher.set_weights(DEFAULT_WEIGHTS)


def test_the_lowest_level_errs_plausibly(positions, player):
    """Level 1 plays a legal move everywhere, never one that loses more than an exchange on its square, and,
    by Stockfish's judgement (depth 12), loses more on average than full strength at depth 8."""
    stockfish_path = "/usr/games/stockfish"
    try:
        stockfish = chess.engine.SimpleEngine.popen_uci(stockfish_path)
    except FileNotFoundError:
        missing_part(f"stockfish ({stockfish_path})")
    weak = LevelPlayer(player, LEVELS[0], rng=1)
    strong = LevelPlayer(player, LEVELS[-1])
    losses = {"weak": [], "strong": []}
    differ = 0
    try:
        for board in positions:
            weak_move = weak.get_move(board, use_book=False).move
            strong_move = strong.get_move(board, Limits(depth=8), use_book=False).move
            assert weak_move in board.legal_moves
            assert see(board, weak_move) > -200, (board.fen(), weak_move)
            differ += weak_move != strong_move
            best = stockfish.analyse(board, chess.engine.Limit(depth=12))["score"].relative.score(mate_score=10_000)
            for name, move in (("weak", weak_move), ("strong", strong_move)):
                after = board.copy()
                after.push(move)
                score = stockfish.analyse(after, chess.engine.Limit(depth=12))["score"].relative
                losses[name].append(max(0, best + score.score(mate_score=10_000)))
    finally:
        stockfish.quit()
    weak_loss = sum(losses["weak"]) / len(positions)
    strong_loss = sum(losses["strong"]) / len(positions)
    print(f"level 1 differs in {differ} of {len(positions)}; mean loss {weak_loss:.0f} cp against {strong_loss:.0f} cp")
    assert differ >= len(positions) // 3, differ
    assert weak_loss > strong_loss + 15, (weak_loss, strong_loss)
    assert weak_loss < 250, losses["weak"]  # mistakes, not a piece thrown away
