"""What the engine decides before or around its search, against external truth where there is one: the
Syzygy root move against Syzygy's own WDL and DTZ, our tables first where they hold the position, the
win/draw/loss model, and the time a move is given (the move overhead kept back once)."""

from __future__ import annotations

import random

import chess
import pytest

from Util.board.random_boards import random_legal_board
from Util.validation.references import reference_folder
from Util.whole_game.player import Player
from Util.whole_game.syzygy import TB_WIN, open_syzygy, syzygy_root_move
from Util.whole_game.timeman import DEFAULT_MOVES_TO_GO, MIN_THINK, Limits, SearchClock, time_budget
from Util.whole_game.wdl import exact_wdl, wdl_of_score


@pytest.mark.parametrize("material", ["KRvK", "KQvKR", "KPvK", "KBNvK", "KRPvKR"])
def test_the_syzygy_move_keeps_the_result_and_makes_progress(syzygy, material):
    """On random positions (halfmove clock 0): the move's result is the position's, and a win comes a ply
    nearer its next capture or pawn move (or is one)."""
    if material == "KRPvKR" and not (reference_folder("syzygy") / "KRPvKR.rtbw").exists():
        pytest.skip("no five-piece Syzygy tables here")
    tables = open_syzygy(str(reference_folder("syzygy")))
    rng = random.Random(material)
    try:
        for _ in range(12):
            board = random_legal_board(material, rng, playable=True)
            wdl, dtz = syzygy.probe_wdl(board), syzygy.probe_dtz(board)
            choice = syzygy_root_move(board, tables)
            assert choice is not None and choice.move in board.legal_moves
            zeroing = board.is_zeroing(choice.move)
            after = board.copy()
            after.push(choice.move)
            assert (-syzygy.probe_wdl(after) if not after.is_checkmate() else 2) == wdl == choice.wdl, board.fen()
            if wdl > 0 and not after.is_checkmate() and not zeroing:
                assert abs(syzygy.probe_dtz(after)) <= abs(dtz), board.fen()  # no ply wasted (DTZ may round)
            assert (choice.score_cp > TB_WIN - 200) == (wdl == 2) and (choice.score_cp == 0) == (wdl == 0)
    finally:
        tables.close()


def test_the_fifty_move_rule_turns_a_late_win_into_a_draw(syzygy):
    fen = "8/8/4k3/8/8/8/8/R3K3 w - - {} 1"
    tables = open_syzygy(str(reference_folder("syzygy")))
    try:
        assert syzygy_root_move(chess.Board(fen.format(0)), tables).wdl == 2
        late = syzygy_root_move(chess.Board(fen.format(90)), tables)  # 27 plies to mate, 10 before the rule
        assert late.wdl == 1 and late.score_cp == 0
    finally:
        tables.close()


def test_our_tables_come_first_syzygy_next_then_the_search(syzygy, linked_tables, tmp_path):
    ours = linked_tables("KRvK")
    folder = str(reference_folder("syzygy"))
    with Player(book=None, tablebase=ours, syzygy=folder) as player:
        assert player.get_move(chess.Board("8/8/4k3/8/8/8/8/R3K3 w - - 0 1")).source == "tablebase"
        result = player.get_move(chess.Board("8/8/4k3/8/8/8/8/Q3K3 w - - 0 1"))  # KQvK: not in `ours`
        assert result.source == "syzygy" and result.wdl == (1000, 0, 0)
        from Util.whole_game.search import Limits as SearchLimits

        assert player.get_move(chess.Board(), SearchLimits(depth=2), use_book=False).source == "search"
    with pytest.raises(ValueError, match="holds no Syzygy table"):
        Player(book=None, tablebase=None, syzygy=str(tmp_path))
    messages = []
    Player(book=None, tablebase=None, syzygy=str(tmp_path / "nowhere"), on_error=messages.append).close()
    assert "is not a folder" in messages[0]


def test_the_wdl_model():
    assert wdl_of_score(100) == (500, 500, 0)  # a pawn up wins half the games
    assert wdl_of_score(0)[0] == wdl_of_score(0)[2]
    chances = [wdl_of_score(cp) for cp in range(-600, 601, 25)]
    assert all(sum(c) == 1000 and min(c) >= 0 for c in chances)
    assert [c[0] for c in chances] == sorted(c[0] for c in chances)
    assert [c[2] for c in chances] == sorted((c[2] for c in chances), reverse=True)
    assert wdl_of_score(mate=2) == exact_wdl(1) == (1000, 0, 0) and wdl_of_score(mate=-1) == (0, 0, 1000)
    assert exact_wdl(0) == (0, 1000, 0)


def test_the_move_overhead_is_kept_back_once():
    clock, increment, overhead = 10.0, 0.1, 0.05
    soft, hard = time_budget(Limits(wtime=clock, btime=1.0, winc=increment, binc=increment), chess.WHITE, overhead)
    to_go = DEFAULT_MOVES_TO_GO  # when the GUI does not say
    share = (clock + increment * (to_go - 1)) / to_go
    assert soft == pytest.approx(share - overhead)
    assert hard == pytest.approx(min(4 * soft, 0.5 * clock - overhead))
    without = time_budget(Limits(wtime=clock, winc=increment), chess.WHITE, 0.0)
    assert without.soft - soft == pytest.approx(overhead)  # once, not once per move to go
    assert time_budget(Limits(movetime=1.0), chess.BLACK, overhead) == (pytest.approx(0.95), pytest.approx(0.95))


def test_a_clock_nearly_out_still_gives_a_move_its_least_time_and_black_reads_its_own_clock():
    budget = time_budget(Limits(wtime=0.04, btime=60.0, winc=0.0), chess.WHITE, 0.05)
    assert budget == (MIN_THINK, MIN_THINK)
    assert time_budget(Limits(wtime=0.04, btime=60.0), chess.BLACK, 0.05).soft > 1.0
    last = time_budget(Limits(wtime=10.0, movestogo=1), chess.WHITE, 0.05)
    assert last.soft == pytest.approx(0.7 * 10.0 - 0.05)  # the next time control brings more
    assert time_budget(Limits(infinite=True, wtime=10.0), chess.WHITE) == (None, None)


def test_a_pondering_clock_has_no_bound_until_ponderhit():
    clock = SearchClock((None, None), pondering=True)
    assert not clock.past_hard() and clock.pondering
    clock.start(time_budget(Limits(wtime=0.0), chess.WHITE, 0.0))
    assert not clock.pondering and clock.hard == MIN_THINK
