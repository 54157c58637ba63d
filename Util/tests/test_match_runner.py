"""``python -m Util match`` as engine authors run matches: fastchess plays the games (colour-swapped pairs
from the openings, the same Move Overhead of at most 100 ms for all, books off, PGN kept), flag falls are
counted apart, and an xboard engine plays through python-chess under the same rules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

from Util.whole_game_lab.fastchess import find_fastchess, parse_fastchess_output, pv_mismatches
from Util.whole_game_lab.match_rules import MAX_MOVE_OVERHEAD_MS, MatchRules, game_outcomes
from Util.whole_game_lab.opponents import engine_spec, match_options, open_engine

ROOT = Path(__file__).resolve().parents[2]
OPENINGS = ("r1bn1rk1/ppp1qppp/3pp3/3P4/2P1n3/2B2NP1/PP2PPBP/2RQK2R w K - 0 1\n"
            "r2q1rk1/1bppbppp/p4n2/n2Np3/Pp2P3/1B1P1N2/1PP2PPP/R1BQ1RK1 w - - 0 1\n")


def fastchess_or_skip() -> Path:
    try:
        return find_fastchess()
    except FileNotFoundError as error:
        pytest.skip(str(error))


def installed(name: str):
    try:
        return engine_spec(name)
    except FileNotFoundError as error:
        pytest.skip(str(error))


def rules(tmp_path, **given) -> MatchRules:
    openings = tmp_path / "openings.epd"
    openings.write_text(OPENINGS)
    return MatchRules(**{"tc": "1+0.01", "games": 2, "openings": openings, "pgn": tmp_path / "games.pgn", **given})


@pytest.mark.parametrize("change, complaint", [
    ({"move_overhead_ms": MAX_MOVE_OVERHEAD_MS + 1}, "--move-overhead 101: give 0 to 100 ms"),
    ({"concurrency": (os.cpu_count() or 1) + 1}, "at most one game a core|cores"),
    ({"games": 3}, "even number"),
    ({"tc": "ten"}, "BASE\\+INCREMENT"),
    ({"sprt": (5.0, 0.0)}, "ELO0 must be below ELO1"),
])
def test_rules_that_would_make_a_match_unfair_are_refused_with_the_reason(tmp_path, change, complaint):
    with pytest.raises(ValueError, match=complaint):
        rules(tmp_path, **change).check()


def test_the_command_line_refuses_a_large_overhead_before_any_game(tmp_path):
    done = subprocess.run([sys.executable, "-m", "Util", "match", "stockfish", "--first", "stockfish",
                           "--games", "2", "--move-overhead", "300", "--pgn", str(tmp_path / "g.pgn")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--move-overhead 300: give 0 to 100 ms" in done.stderr
    assert not (tmp_path / "g.pgn").exists()


def test_books_learning_threads_and_overhead_are_set_by_each_engines_own_option_names():
    """Read from the engines' own answers to ``uci``: Glaurung's book is ``OwnBook``, Stockfish's overhead
    ``Move Overhead``, Ethereal's ``MoveOverhead``; none gets more than one thread or ponders."""
    checked = 0
    for name, expected in (("glaurung", {"OwnBook": False, "Threads": 1, "Ponder": False}),
                           ("stockfish", {"Move Overhead": 40, "Threads": 1, "Ponder": False}),
                           ("ethereal", {"MoveOverhead": 40, "Threads": 1}),
                           ("toga2", {"OwnBook": False, "Number of Threads": 1})):
        try:
            spec = engine_spec(name)
        except FileNotFoundError:
            continue
        engine = open_engine(spec)
        try:
            chosen = match_options(spec, engine.options, 40)
        finally:
            engine.quit()
        assert expected.items() <= chosen.items(), (name, chosen)
        assert all(value is False for key, value in chosen.items() if "book" in key.lower()), chosen
        checked += 1
    if not checked:
        pytest.skip("none of glaurung, stockfish, ethereal-chess, toga2 is installed")


def test_flag_falls_illegal_moves_and_crashes_are_counted_by_the_engine_that_lost(tmp_path):
    pgn = tmp_path / "games.pgn"
    games = []
    for white, black, result, termination in (("A", "B", "0-1", "time forfeit"), ("B", "A", "0-1", "time forfeit"),
                                              ("A", "B", "1-0", "illegal move"), ("B", "A", "1/2-1/2", "normal"),
                                              ("A", "B", "1-0", "abandoned")):
        game = chess.pgn.Game(headers={"White": white, "Black": black, "Result": result, "Termination": termination})
        games.append(str(game))
    pgn.write_text("\n\n".join(games) + "\n")
    found = game_outcomes(pgn)
    assert (found.games, found.time_forfeits, found.illegal_moves, found.abandoned) == \
        (5, {"A": 1, "B": 1}, {"B": 1}, {"B": 1})
    assert game_outcomes(pgn, skip=2).time_forfeits == {}
    assert found.line(["A", "B"]).startswith("flag falls (games lost on time): A 1, B 1")


@pytest.mark.stockfish
def test_a_fastchess_match_plays_colour_swapped_pairs_and_keeps_the_games(tmp_path):
    """Two games of Stockfish against Stockfish by fastchess, through the command line: one opening with
    both colours, every game in the PGN, fastchess's result parsed, the rules and provenance printed."""
    fastchess_or_skip()
    installed("stockfish")
    openings = tmp_path / "openings.epd"
    openings.write_text(OPENINGS)
    pgn = tmp_path / "games.pgn"
    done = subprocess.run([sys.executable, "-m", "Util", "match", "stockfish:1400", "--first", "stockfish:1600",
                           "--games", "2", "--tc", "1+0.01", "--openings", str(openings), "--pgn", str(pgn),
                           "--time-margin", "50"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    games = []
    with open(pgn) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    assert len(games) == 2
    assert {game.headers["FEN"] for game in games} == {OPENINGS.splitlines()[0]}
    assert [game.headers["White"] for game in games] == ["Stockfish (UCI_Elo 1600)", "Stockfish (UCI_Elo 1400)"]
    report = done.stdout[done.stdout.index("Stockfish (UCI_Elo 1600) vs Stockfish (UCI_Elo 1400): 1+0.01"):]
    assert "Move Overhead 50 ms" in report and "time margin 50 ms" in report
    assert "2 games: +" in report and "flag falls (games lost on time): " in report
    assert "'option.Move Overhead=50'" in report and "timemargin=50" in report and "-repeat" in report
    assert "fastchess alpha" in report and "commit " in report
    found = parse_fastchess_output(done.stdout)
    assert found is not None and found.wins + found.draws + found.losses == 2


def test_fastchess_result_lines_are_read_to_the_last_report():
    output = ("Results of a vs b (10+0.1, 1t, 16MB):\nElo: -34.86 +/- 105.20, nElo: -50.00 +/- 150.00\n"
              "Games: 20, Wins: 8, Losses: 10, Draws: 2, Points: 9.0 (45.00 %)\n"
              "Results of a vs b (10+0.1, 1t, 16MB):\nElo: -35.00 +/- 104.00, nElo: -51.00 +/- 149.00\n"
              "LOS: 25.0 %\nGames: 40, Wins: 16, Losses: 20, Draws: 4, Points: 18.0 (45.00 %)\n"
              "LLR: -0.52 (-17.7%) (-2.94, 2.94) [0.00, 10.00]\n"
              "Warning; Bestmove does not match beginning of last PV - move c3d4 from b\n")
    found = parse_fastchess_output(output)
    assert (found.wins, found.losses, found.draws, found.elo, found.elo_margin) == (16, 20, 4, -35.0, 104.0)
    assert found.sprt_line.startswith("LLR: -0.52") and pv_mismatches(output) == {"b": 1}
    assert parse_fastchess_output("Started game 1 of 2\n") is None


@pytest.mark.slow
@pytest.mark.stockfish
def test_an_xboard_engine_plays_through_python_chess_under_the_same_rules(tmp_path):
    """Phalanx (xboard, its book and learning off by -b- -l-) against Stockfish: the games in the PGN, the
    report saying how xboard's level carries the increment."""
    installed("phalanx")
    installed("stockfish")
    openings = tmp_path / "openings.epd"
    openings.write_text(OPENINGS)
    pgn = tmp_path / "games.pgn"
    done = subprocess.run([sys.executable, "-m", "Util", "match", "phalanx", "--first", "stockfish:1500",
                           "--games", "2", "--tc", "2+0.05", "--openings", str(openings), "--pgn", str(pgn),
                           "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "whole seconds" in done.stdout and "flag falls (games lost on time): " in done.stdout
    assert game_outcomes(pgn).games == 2
    assert engine_spec("phalanx").command[1:] == ["-b-", "-l-"]
