"""Notebook 05's machinery against the real Stockfish (Debian's binary through the PyPI wrapper)."""

from __future__ import annotations

import csv
import os
import signal

import chess
import pytest

from Util.stockfish import compare as sc
from Util.stockfish import oracle as stockfish_engine
from Util.runtime.parallel import core_count
from Util.tests.parts import missing_part

FAST = sc.EngineSettings(depth=8, timeout_s=20)


@pytest.fixture(scope="module")
def stockfish_path():
    try:
        return sc.find_stockfish()
    except sc.StockfishMissing as missing:
        missing_part(f"Stockfish unavailable: {missing}")


def _assert_honest(report, positions):
    assert len(report.results) == positions
    assert sum(report.count(v) for v in sc.VERDICTS) == positions
    assert abs(sum(report.share(v) for v in sc.VERDICTS) - 100.0) < 1e-9
    assert report.count("failed") == 0 and report.breaches == []
    for r in report.results:
        assert r.ai.mated and r.ai.plies <= r.n, (r.fen, r.n, r.ai.plies, r.ai.end)  # the AI's promise
        board = chess.Board(r.fen)
        for uci in r.ai.moves:
            assert chess.Move.from_uci(uci) in board.legal_moves
            board.push_uci(uci)
        assert board.is_checkmate()
        # against the table's best defence the AI needs exactly n (Gaviota's DTM, checked in chapter 6)
        # and nobody can mate faster; every Black move there is the longest defence python-chess can verify
        assert r.ai_best.mated and r.ai_best.plies == r.n, (r.fen, r.n, r.ai_best.plies)
        assert r.stockfish_best.plies >= r.n or not r.stockfish_best.mated
        assert r.stockfish_extra_plies is None or r.stockfish_extra_plies >= 0
        if r.verdict == "stockfish failed":
            assert not r.stockfish.mated and r.stockfish.end
        elif r.verdict in ("equal", "ai better", "stockfish better"):
            assert r.stockfish.mated


@pytest.mark.slow  # Stockfish plays whole games
@pytest.mark.stockfish
@pytest.mark.parametrize("material", ["KQvK", "KRvK"])
def test_the_four_scenarios(material, sequence_of, stockfish_path, tmp_path):
    sequence = sequence_of(material)
    fen = {"KQvK": "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "KRvK": "8/8/8/3K4/8/5R2/2k5/8 b - - 0 1"}[material]
    one = sc.compare_fen_stockfish(fen, sequence, FAST, path=stockfish_path)
    assert one.n == sequence.find_board(chess.Board(fen)) > 0
    assert one.ai.mated and one.ai.plies <= one.n and one.stockfish.end

    reports = [
        (sc.test_random_boards(6, sequence, FAST, seed=4, path=stockfish_path, progress=False), 6),
        (sc.compare_sequence_stockfish(7, sequence, FAST, sample=4, path=stockfish_path, progress=False), 4),
        (sc.compare_all_sequences(sequence, FAST, sample=1, path=stockfish_path, progress=False), len(sequence) - 1),
    ]
    for report, positions in reports:
        _assert_honest(report, positions)
        assert report.workers == min(core_count(), (positions + 1) // 2)  # one engine per core
        assert report.positions_per_minute > 0
        path = report.write(tmp_path)
        text = path.read_text()
        assert "depth 8 per move" in text and "300 plies" in text and "broken: 0" in text
        assert f"AI better: {report.share('ai better'):.2f} %" in text
        assert f"AI mated in exactly n plies: {positions} of {positions}" in text
        rows = list(csv.DictReader(open(path.with_suffix(".csv"), encoding="utf-8")))
        assert len(rows) == positions
        assert all(int(row["ai_plies"]) <= int(row["n"]) for row in rows)
    assert {r.n for r in reports[1][0].results} == {7}
    said = sc.conclusions([report for report, _ in reports])
    games_as_white = 2 * sum(positions for _, positions in reports)
    failures = sum(report.stockfish_failures for report, _ in reports)
    assert said[0].startswith("The AI kept its promise in") and f"in {failures} of the {games_as_white} games" in said[-1]
    assert sorted(r.n for r in reports[2][0].results) == list(range(1, len(sequence)))


def test_the_reports_arithmetic():
    """The thesis's percentages on hand-made games: 1 - better/worse, averaged where one side was better."""
    def result(n, ai, sf, sf_end="checkmate"):
        return sc.PositionResult("8/8/8/8/8/8/8/8 w - - 0 1", n, sc.ComparedGame("", ["a"] * ai, "checkmate"),
                                 sc.ComparedGame("", ["a"] * sf, sf_end))
    report = sc.ComparisonReport("t", "KQvK", FAST, 300, [result(9, 5, 10), result(9, 8, 8), result(9, 9, 6),
                                                          result(9, 9, 40, "threefold repetition")])
    assert report.share("ai better") == report.share("equal") == report.share("stockfish better") == 25.0
    assert report.share("stockfish failed") == 25.0
    assert report.average_fewer("ai better") == pytest.approx(50.0)
    assert report.average_fewer("stockfish better") == pytest.approx(100 * (1 - 6 / 9))
    broken = sc.ComparisonReport("t", "KQvK", FAST, 300, [result(4, 5, 5)])
    assert len(broken.breaches) == 1 and "THE TABLES OR THE AI ARE WRONG" in broken.text()
    assert sc.conclusions([broken])[0] == "The AI broke its promise in 1 of 1 games: the tables or the AI are wrong."
    # the conclusion about failures follows the numbers: one failed game of four is said, none is not
    said = sc.conclusions([report])[-1]
    assert said.startswith("Stockfish failed to mate in 1 of the 4 games it played as White (they ended by "
                           "threefold repetition)")


def test_the_figure_names_the_engines_and_counts_whole_games():
    """Notebook 05's figure of one S_n: the verdicts as a reader says them ("AI better", not the key "ai
    better"), and the histogram's counts of games on whole numbers only."""
    import matplotlib

    matplotlib.use("Agg")
    from Util.notebook.plots import plot_stockfish_comparison

    def result(ai, sf):
        return sc.PositionResult("8/8/8/8/8/8/8/8 w - - 0 1", 9, sc.ComparedGame("", ["a"] * ai, "checkmate"),
                                 sc.ComparedGame("", ["a"] * sf, "checkmate"))
    report = sc.ComparisonReport("t", "KQvK", FAST, 300, [result(5, 9), result(9, 9), result(9, 7)])
    figure = plot_stockfish_comparison(report)
    histogram, shares = figure.axes
    assert [label.get_text() for label in shares.get_yticklabels()] == ["equal", "AI better", "Stockfish better"]
    ticks = [tick for tick in histogram.get_yticks() if histogram.get_ylim()[0] <= tick <= histogram.get_ylim()[1]]
    assert ticks and all(float(tick).is_integer() for tick in ticks), ticks
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_the_table_defence_holds_out_longest(sequence_of):
    sequence = sequence_of("KQvK")
    board = chess.Board("8/8/8/8/8/1k6/2Q5/K7 b - - 0 1")  # the queen hangs: taking it is a draw
    assert sc.table_defence(board, sequence) == chess.Move.from_uci("b3c2")
    board = chess.Board("8/8/8/3k4/8/8/8/KQ6 b - - 0 1")
    move = sc.table_defence(board, sequence)
    n = sequence.find_board(board)
    board.push(move)
    assert sequence.find_board(board) == n - 1  # the longest defence: from S_n into S_(n-1)


@pytest.mark.slow  # waits for a watchdog to kill a Stockfish process
@pytest.mark.stockfish
def test_a_hung_engine_is_killed_restarted_and_the_run_goes_on(sequence_of, stockfish_path):
    slow = sc.EngineSettings(depth=None, move_time_ms=10_000, timeout_s=0.5)
    report = sc.compare_positions("hang", ["8/8/8/3K4/8/5R2/2k5/8 b - - 0 1", "8/8/8/8/3k4/8/7R/3K4 b - - 0 1"],
                                  sequence_of("KRvK"), slow, workers=1, path=stockfish_path, progress=False)
    assert [r.verdict for r in report.results] == ["failed", "failed"]
    assert all("did not answer within 0.5 s" in r.failure for r in report.results)
    assert report.seconds < 10


def test_a_crashed_engine_is_restarted(stockfish_path):
    board = chess.Board("8/8/8/3K4/8/5R2/2k5/8 w - - 0 1")
    with sc.GuardedStockfish(FAST, stockfish_path) as engine:
        first = engine.pid
        os.kill(first, signal.SIGKILL)
        with pytest.raises(sc.EngineFailure, match="crashed"):
            engine.best_move(board)
        assert engine.restarts == 1 and engine.pid != first
        assert engine.best_move(board) in board.legal_moves


def test_an_invalid_position_is_never_sent(stockfish_path, sequence_of):
    with pytest.raises(ValueError, match=r"8/8/8/8/8/1k6/2Q5/K7 w - - 0 1 is not a legal position \(.*OPPOSITE_CHECK"):
        sc.compare_fen_stockfish("8/8/8/8/8/1k6/2Q5/K7 w - - 0 1", sequence_of("KQvK"), FAST, path=stockfish_path)
    touching = chess.Board("8/8/8/8/8/8/2kK4/7R w - - 0 1")
    with sc.GuardedStockfish(FAST, stockfish_path) as engine:
        pid = engine.pid
        with pytest.raises(ValueError, match="not sending an invalid position"):
            engine.best_move(touching)
        assert engine.pid == pid and engine.restarts == 0


def test_a_missing_binary_says_how_to_install(monkeypatch, tmp_path):
    with pytest.raises(sc.StockfishMissing, match=r"apt-get install stockfish"):
        sc.find_stockfish(tmp_path / "stockfish")
    monkeypatch.setenv("STOCKFISH_PATH", str(tmp_path / "nothing"))
    with pytest.raises(sc.StockfishMissing, match=r"STOCKFISH_PATH \(.*nothing\) is not an executable"):
        sc.find_stockfish()
    monkeypatch.delenv("STOCKFISH_PATH")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(stockfish_engine, "KNOWN_LOCATIONS", (str(tmp_path / "games" / "stockfish"),))
    with pytest.raises(sc.StockfishMissing, match="no Stockfish binary found on the PATH"):
        sc.find_stockfish()


@pytest.mark.slow  # Stockfish plays whole games
@pytest.mark.stockfish
def test_a_table_with_pieces_on_both_sides(sequence_of, stockfish_path):
    """KQvKR: the AI attacks against Stockfish's rook, and defends with the table's rook against Stockfish."""
    sequence = sequence_of("KQvKR")
    report = sc.compare_sequence_stockfish(15, sequence, FAST, sample=2, path=stockfish_path, progress=False)
    _assert_honest(report, 2)
    assert all(r.stockfish_best.mated is False or r.stockfish_best.plies >= 15 for r in report.results)
