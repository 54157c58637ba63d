"""The strength lab: the rating fit against anchors, the XBoard-as-UCI bridge with Debian's Phalanx, the
match records' counting, and the Texel coefficients' exactness."""

from __future__ import annotations

import io
import math
import random
import shutil
import textwrap

import chess
import numpy as np
import pytest

from Util.whole_game.evaluation import DEFAULT_WEIGHTS, parameters, weights_from_parameters
from Util.whole_game.kernels import evaluation as ev
from Util.whole_game_lab.elo import match_result
from Util.whole_game_lab.rating import Pairing, expected_score, fit_rating


def test_a_single_pairing_fits_the_anchor_plus_the_match_difference():
    result = match_result(wins=40, draws=30, losses=30)
    fit = fit_rating([Pairing("anchor", 2500, 40, 30, 30)])
    assert fit.rating == pytest.approx(2500 + result.elo, abs=0.01)
    # the sandwich interval of one pairing is the match's own interval, mapped to the rating
    assert fit.high - fit.low == pytest.approx(result.elo_high - result.elo_low, rel=0.1)


def test_the_fit_solves_the_likelihood_equation_between_two_anchors():
    pairings = [Pairing("weak", 2400, 60, 20, 20), Pairing("strong", 2800, 10, 20, 70)]
    fit = fit_rating(pairings)
    expected = sum(p.games * expected_score(fit.rating, p.rating) for p in pairings)
    assert expected == pytest.approx(sum(p.points for p in pairings), abs=1e-6)
    assert 2400 < fit.rating < 2800 and fit.low < fit.rating < fit.high


def test_a_fit_of_nothing_but_wins_is_refused():
    with pytest.raises(ValueError, match="one way"):
        fit_rating([Pairing("a", 2000, 10, 0, 0), Pairing("b", 2200, 5, 0, 0)])


def test_parameters_and_back_are_the_same_weights():
    p = parameters(DEFAULT_WEIGHTS)
    assert np.array_equal(parameters(weights_from_parameters(p)), p)


def test_texel_coefficients_predict_the_evaluation_of_changed_weights():
    from Util.whole_game_lab.texel import coefficients, tunable_indices
    from Util.whole_game_lab.tuning import Labelled, PositionSet

    rng = random.Random(3)
    boards = []
    for _ in range(12):
        board = chess.Board()
        for _ in range(rng.randint(4, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board)
    # and positions with the later terms: rooks on open and half-open files, an outpost, passed pawns of
    # every rank from 2 to 7 with the kings at a distance, in pawn endings and with pieces on
    boards += [chess.Board(fen) for fen in ("r4rk1/pp2pppp/8/8/8/8/PP3PPP/3RR1K1 w - - 0 1",
                                            "4k3/pp3ppp/8/3N4/4P3/8/PP3PPP/4K3 b - - 0 1",
                                            "8/1P6/2P5/3P1k2/8/5P2/6PK/8 w - - 0 1",
                                            "7k/p6p/8/1p6/6p1/2p2pR1/2r5/K7 b - - 0 1",
                                            "3r2k1/1P3pp1/8/8/4N3/8/5PPP/R5K1 w - - 0 1")]
    positions = PositionSet([Labelled(b.fen(), 0.5, str(i), "test") for i, b in enumerate(boards)])
    tunable = tunable_indices()
    base, indptr, indices, data = coefficients(positions, DEFAULT_WEIGHTS, tunable)
    change = np.array([rng.choice((-24, 0, 24, 48)) for _ in tunable], np.float64)
    predicted = base + np.array([sum(data[k] * change[indices[k]] for k in range(indptr[n], indptr[n + 1]))
                                 for n in range(len(positions))])
    params = parameters(DEFAULT_WEIGHTS)
    params[tunable] += change.astype(np.int64)
    actual = positions.evaluations(weights_from_parameters(params))
    # whole multiples of 24 centipawns move the evaluation by whole centipawns: the prediction is exact
    assert np.allclose(predicted, actual, atol=1e-6)
    read = set(tunable[np.unique(indices)])
    later = [ev.ROOK_OPEN, ev.ROOK_OPEN + 1, ev.ROOK_HALF_OPEN, ev.ROOK_HALF_OPEN + 1, ev.OUTPOST, ev.OUTPOST + 1]
    later += [by_rank + rank for by_rank in (ev.PASSED_ENEMY_KING, ev.PASSED_OWN_KING) for rank in range(1, 7)]
    assert set(later) <= set(tunable) and set(later) <= read, sorted(set(later) - read)


def test_texel_fit_keeps_the_tables_when_asked_and_moves_the_rest(capsys):
    from Util.whole_game_lab.texel import fit, tunable_indices
    from Util.whole_game_lab.tuning import Labelled

    in_tables = lambda i: any(start <= i < start + 384 for start in (ev.PST_MG, ev.PST_EG))  # noqa: E731
    assert any(in_tables(i) for i in tunable_indices())
    without = tunable_indices(tables=False)
    assert not any(in_tables(i) for i in without) and len(without) > 20
    rng = random.Random(5)
    labelled = []
    for n in range(40):
        board = chess.Board()
        for _ in range(rng.randint(10, 30)):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                board.pop()
                break
        # White is always winning: the fit must move the weights that see White's advantages
        labelled.append(Labelled(board.fen(), 0.9 if board.turn == chess.WHITE else 0.1, f"line {n}", "test"))
    fitted = fit(labelled, DEFAULT_WEIGHTS, epochs=20, rate=2.0, tables=False)
    for phase in ("mg", "eg"):
        assert np.array_equal(fitted.tables[phase], parameters(DEFAULT_WEIGHTS)[getattr(ev, f"PST_{phase.upper()}"):][:384]
                              .reshape(6, 64))
    assert not np.array_equal(parameters(fitted)[without], parameters(DEFAULT_WEIGHTS)[without])
    assert "held out: loss" in capsys.readouterr().out


def test_match_records_count_wins_draws_losses_and_time_losses(tmp_path):
    from Util.whole_game_lab.calibration import count_games

    pgn = tmp_path / "m.pgn"
    pgn.write_text(textwrap.dedent("""\
        [White "chessAI"]
        [Black "other"]
        [Result "1-0"]
        [Termination "normal"]

        1. e4 e5 1-0

        [White "other"]
        [Black "chessAI"]
        [Result "1-0"]
        [Termination "time forfeit"]

        1. e4 e5 1-0

        [White "other"]
        [Black "chessAI"]
        [Result "1/2-1/2"]
        [Termination "normal"]

        1. e4 e5 1/2-1/2

        [White "chessAI"]
        [Black "other"]
        [Result "1-0"]
        [Termination "time forfeit"]

        1. e4 e5 1-0

        [White "other"]
        [Black "chessAI"]
        [Result "0-1"]
        [Termination "abandoned"]

        1. e4 e5 0-1

        [White "chessAI"]
        [Black "other"]
        [Result "0-1"]
        [Termination "illegal move"]

        1. e4 e5 0-1
        """))
    counts = count_games(pgn, "chessAI")
    assert counts == {"wins": 3, "draws": 1, "losses": 2, "time_ours": 1, "time_opponent": 1, "crash_ours": 0,
                      "crash_opponent": 1, "illegal_ours": 1, "illegal_opponent": 0,
                      "abandoned_wins": 1, "abandoned_draws": 0, "abandoned_losses": 0}


def test_the_report_shows_crashes_apart_and_the_score_without_them(tmp_path, monkeypatch):
    """A record older than its ``crashes`` field is recounted from its PGN; the games a program abandoned are
    counted apart and the result is also given without them."""
    import json

    from Util.whole_game_lab import calibration

    pgn = "".join(f'[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n[Termination "{t}"]\n\n1. e4 e5 {r}\n\n'
                  for w, b, r, t in [("chessAI", "gnu", "1-0", "abandoned"), ("gnu", "chessAI", "1-0", "normal"),
                                     ("chessAI", "gnu", "1/2-1/2", "normal"), ("gnu", "chessAI", "0-1", "normal")])
    (tmp_path / "m.pgn").write_text(pgn)
    record = {"engines": {"ours": {"name": "chessAI"}, "opponent": {"name": "phalanx", "version": "Phalanx XXV",
                                                                    "rating": 2644, "options": {}}},
              "games": 4, "wins": 2, "draws": 1, "losses": 1, "time_losses": {"ours": 0, "opponent": 0},
              "elo": 87.6, "elo_low": -300.0, "elo_high": 500.0}
    (tmp_path / "m.json").write_text(json.dumps(record))
    monkeypatch.setattr(calibration, "MATCHES_DIR", tmp_path)
    text = calibration.report()
    assert "| Phalanx XXV (phalanx) | ? | 4 | +2 =1 -1 | 87.6 (-300.0..500.0) | 0/0 | 0/1 |" in text
    assert "without the 1 game a program abandoned (our result in them +1 =0 -0): +1 =1 -1, Elo 0.0" in text


@pytest.mark.skipif(shutil.which("phalanx", path="/usr/games:/usr/bin") is None, reason="apt-get install phalanx")
def test_phalanx_answers_uci_through_the_bridge():
    from Util.whole_game_lab.xboard_uci import main

    board = chess.Board()
    board.push_uci("e2e4")
    out = io.StringIO()
    commands = io.StringIO("uci\nisready\nucinewgame\nposition startpos moves e2e4\n"
                           "go wtime 3000 btime 3000 winc 100 binc 100\nquit\n")
    phalanx = shutil.which("phalanx", path="/usr/games:/usr/bin")
    assert main([phalanx, "-b-", "-l-"], stdin=commands, stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert "uciok" in lines and "readyok" in lines
    assert any(line.startswith("id name Phalanx") for line in lines)
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1 and chess.Move.from_uci(best[0].split()[1]) in board.legal_moves
    info = lines[lines.index(best[0]) - 1]
    assert info.startswith("info depth") and math.isfinite(float(info.split()[2]))


@pytest.mark.parametrize("argv, says", [
    (["gauntlet", "stockfish-2000", "--their-overhead", "300"], "more starves Stockfish"),
    (["gauntlet", "phalanx", "--their-overhead", "50"], "phalanx has no Move Overhead option"),
])
def test_their_overhead_is_refused_where_it_would_starve_or_does_not_exist(argv, says, capsys):
    """No opponent gets a Move Overhead above 100 ms, and one without the option is told so; nothing is played."""
    from Util.whole_game_lab import calibration

    with pytest.raises(SystemExit) as stop:
        calibration.main(argv)
    assert stop.value.code == 2
    assert says in capsys.readouterr().err


def test_stockfish_takes_the_overhead_it_is_given():
    from Util.whole_game_lab.calibration import stockfish

    assert "option.Move Overhead=100" in stockfish(2000, 100).fastchess
    assert stockfish(2000).options["Move Overhead"] == 10


def test_the_report_fits_the_newest_build_from_its_own_matches(tmp_path, monkeypatch):
    """Two builds (bench counts) played Phalanx: the rating is the newest build's alone, and both rows are listed."""
    import json

    from Util.whole_game_lab import calibration

    for slug, bench, date, (w, d, l) in (("old", 701981, "2026-11-28 03:00 UTC", (10, 0, 30)),
                                         ("new", 856087, "2026-11-28 10:18 UTC", (30, 0, 10))):
        record = {"date": date, "bench": bench, "engines": {"ours": {"name": "chessAI"}, "opponent": {
                      "name": "phalanx", "version": "Phalanx XXV", "rating": 2644, "options": {}}},
                  "games": 40, "wins": w, "draws": d, "losses": l, "time_losses": {"ours": 0, "opponent": 0},
                  "crashes": {"ours": 0, "opponent": 0}, "illegal_moves": {"ours": 0, "opponent": 0}, "elo": 0.0, "elo_low": 0.0, "elo_high": 0.0}
        (tmp_path / f"{slug}.json").write_text(json.dumps(record))
    monkeypatch.setattr(calibration, "MATCHES_DIR", tmp_path)
    text = calibration.report()
    assert "the newest build, bench 856087" in text
    fitted = fit_rating([Pairing("Phalanx XXV", 2644, 30, 0, 10)])
    assert f"**{fitted.rating:.0f}**" in text and "| 701981 | 40 | +10 =0 -30 |" in text


def test_texel_reads_a_packed_pgn_as_the_plain_one(tmp_path):
    import gzip

    from Util.whole_game_lab.texel import open_text

    text = '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    (tmp_path / "g.pgn").write_text(text)
    with gzip.open(tmp_path / "g.pgn.gz", "wt") as packed:
        packed.write(text)
    with open_text(tmp_path / "g.pgn") as plain, open_text(tmp_path / "g.pgn.gz") as unpacked:
        assert plain.read() == unpacked.read() == text
