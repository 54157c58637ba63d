"""The suite runner's reading of EPD and mate files, its judge of mates and its budgets
(Util/whole_game_lab/suites.py)."""

from __future__ import annotations

import chess
import chess.engine
import pytest

from Util.whole_game_lab.match import TimeControl, read_openings, shared_suites
from Util.whole_game_lab.opponents import engine_spec
from Util.whole_game_lab.suites import budget_limit, budget_text, forced_mate, mate_solved, read_suite, run_suite

SUITES = shared_suites()


def test_mate_judge_on_known_positions():
    """Scholar's mate (Qxf7# mates in one), a back-rank mate in two, and moves that do not mate."""
    scholar = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    assert forced_mate(scholar, 1)
    assert mate_solved(scholar, chess.Move.from_uci("f3f7"), 1)
    assert not mate_solved(scholar, chess.Move.from_uci("c4f7"), 1)
    # Rd8+ Rxd8 Rxd8#: doubled rooks against the back rank (no mate in one: the c8 rook covers d8)
    back_rank = chess.Board("2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1")
    assert not forced_mate(back_rank, 1)
    assert forced_mate(back_rank, 2)
    assert mate_solved(back_rank, chess.Move.from_uci("d2d8"), 2)
    assert not mate_solved(back_rank, chess.Move.from_uci("h2h3"), 2)
    # a shorter mate than asked, or another mating move than the composer's, solves it too
    assert mate_solved(scholar, chess.Move.from_uci("f3f7"), 2)
    assert mate_solved(back_rank, chess.Move.from_uci("d2d8"), 3)


def test_a_budget_is_nodes_or_seconds():
    assert budget_limit(1.0, 300_000) == chess.engine.Limit(nodes=300_000)
    assert budget_text(budget_limit(1.0, 300_000)) == "300,000 nodes"
    assert budget_text(budget_limit(0.5)) == "0.5 s"
    with pytest.raises(ValueError, match="nodes must be 1 or more"):
        budget_limit(1.0, 0)
    with pytest.raises(ValueError, match="positive number"):
        budget_limit(0)


def test_the_command_refuses_a_budget_of_nothing(tmp_path, capsys):
    from Util.cli import main

    suite = tmp_path / "mate1.fen"
    suite.write_text("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4\n")
    assert main(["match", "--suite", str(suite), "--nodes", "0"]) == 2
    assert "nodes must be 1 or more, not 0" in capsys.readouterr().err
    assert main(["match", "--suite", str(suite), "--time", "0"]) == 2
    assert "seconds must be a positive number" in capsys.readouterr().err


@pytest.mark.skipif(not (SUITES / "mate3.fen").exists(), reason=f"no shared suites in {SUITES} (set SUITES_PATH)")
def test_our_engine_solves_mates_at_a_node_budget_through_uci(tmp_path):
    """The runner as the command line drives it (our engine over UCI, ``go nodes``) on a mate-in-2 file of
    the mates in one (a shorter mate solves), the first ten mates in two, and a mate in three, which must
    fail (python-chess finds no mate in two there)."""
    read = lambda name: (SUITES / name).read_text().splitlines()  # noqa: E731
    three = read("mate3.fen")[0]
    assert not forced_mate(chess.Board(three), 2)
    sample = tmp_path / "mate2_sample.fen"
    sample.write_text("\n".join(read("mate1.fen") + read("mate2.fen")[:10] + [three]) + "\n")
    result = run_suite(engine_spec("ours"), sample, progress=False, nodes=50_000)
    assert (result.solved, result.total, result.mates_seen) == (18, 19, 18)
    assert result.failed == ["mate2_sample.fen:19"]
    assert result.line("50,000 nodes").endswith("at 50,000 nodes a position, 18 of them scored as the mate")


@pytest.mark.skipif(not (SUITES / "mate1.fen").exists(), reason=f"no shared suites in {SUITES} (set SUITES_PATH)")
def test_every_mate_in_one_is_one():
    positions = read_suite(SUITES / "mate1.fen")
    assert len(positions) == 8 and all(p.mate_in == 1 for p in positions)
    assert all(forced_mate(p.board, 1) for p in positions)


@pytest.mark.skipif(not (SUITES / "wac.epd").exists(), reason=f"no shared suites in {SUITES} (set SUITES_PATH)")
def test_epd_operations_are_read():
    positions = read_suite(SUITES / "wac.epd")
    assert len(positions) == 300
    first = positions[0]
    assert first.name == "WAC.001" and first.best == [first.board.parse_san("Qg6")]
    assert all(p.best or p.avoid for p in positions)


def test_bad_files_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such suite"):
        read_suite(tmp_path / "none.epd")
    bad = tmp_path / "bad.epd"
    bad.write_text("8/8/8/8/8/8/8/8 w - - id \"x\";\n")
    with pytest.raises(ValueError, match="line 1"):
        read_suite(bad)
    openings = tmp_path / "openings.fen"
    openings.write_text(chess.STARTING_FEN + "\nnot a fen\n")
    with pytest.raises(ValueError, match="line 2"):
        read_openings(openings)


def test_time_controls():
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse("60") == TimeControl(60.0, 0.0)
    with pytest.raises(ValueError, match="BASE\\+INCREMENT"):
        TimeControl.parse("fast")
