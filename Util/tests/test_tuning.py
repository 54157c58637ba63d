"""The tuning script (Texel's method): weights to JSON and back, the batch evaluation against the
one-position one, a fit on Stockfish-labelled positions that recovers from bad weights on positions it
did not see, and the weights reaching the engine through the UCI option and the match's engine spec."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path

import chess
import numpy as np
import pytest

from Util.tests.parts import missing_part
from Util.whole_game.evaluation import (DEFAULT_WEIGHTS, evaluate, parameters, piece_square_tables, read_weights,
                                        weights_from_json, weights_to_json)
from Util.whole_game_lab.match import default_openings_file, read_openings
from Util.whole_game_lab.opponents import engine_spec
from Util.whole_game_lab.tuning import (FACTOR_NAMES, Labelled, PositionSet, QuietCheck, fit, fit_k, loss,
                                    label_pgn, open_stockfish, read_cache, append_cache, tunable_names, value_of,
                                    with_value)
from Util.whole_game.uci import UciEngine

#: White has one legal move (Kg1 or the like) and after it Black has no capture, no promotion and no check
#: to give: a one-ply search scores it as minus the static evaluation of the position after that move.
ONE_MOVE_FEN = "8/3r4/8/p1k3p1/8/8/2q5/3n3K w - - 2 94"
ODD_WEIGHTS = replace(DEFAULT_WEIGHTS, material=0.55, mobility=2.0, positions_opponent=0.4,
                      piece_values=((90, 120),) + DEFAULT_WEIGHTS.piece_values[1:], tempo=7)


def openings(count: int):
    path = default_openings_file()
    if not path.is_file():
        pytest.skip(f"the shared openings {path} are missing: set SUITES_PATH to the shared suites' folder")
    return read_openings(path, 0, count)


def test_weights_survive_json():
    mg, eg = piece_square_tables()
    with_tables = replace(ODD_WEIGHTS, tables={"mg": mg + 3, "eg": eg - 2})
    for weights in (DEFAULT_WEIGHTS, ODD_WEIGHTS, with_tables):
        back = weights_from_json(weights_to_json(weights))
        assert back == weights
        assert np.array_equal(parameters(back), parameters(weights))
    assert not np.array_equal(parameters(with_tables), parameters(ODD_WEIGHTS))
    assert weights_from_json('{"mobility": 1.5}') == replace(DEFAULT_WEIGHTS, mobility=1.5)  # the rest default


@pytest.mark.parametrize("text, words", [('{"mobilty": 1.5}', "unknown key(s) mobilty"),
                                         ('{"doubled": [1, 2, 3]}', "doubled must have the shape"),
                                         ('{"material": "high"}', "material must have the shape"),
                                         ("[1, 2]", "expected a JSON object"), ("{material", "not JSON")])
def test_bad_weights_are_refused_with_the_reason(text, words, tmp_path):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        weights_from_json(text)
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=str(path)):
        read_weights(path)
    with pytest.raises(FileNotFoundError, match="not found"):
        read_weights(tmp_path / "none.json")


def test_parameters_are_named_and_set_one_by_one():
    assert tunable_names("factors") == list(FACTOR_NAMES)
    names = tunable_names("all")
    assert "piece_values[1][0]" in names and "piece_values[5][0]" not in names and "tempo" in names
    changed = with_value(DEFAULT_WEIGHTS, "piece_values[1][0]", 333.4)
    assert value_of(changed, "piece_values[1][0]") == 333 and changed.piece_values[1][1] == DEFAULT_WEIGHTS.piece_values[1][1]
    assert value_of(with_value(DEFAULT_WEIGHTS, "mobility", 1.234), "mobility") == 1.23
    with pytest.raises(ValueError, match="factors, values or all"):
        tunable_names("everything")


def test_the_batch_evaluation_equals_evaluate(tmp_path):
    rng = random.Random(3)
    boards = []
    for fen in openings(40):
        board = chess.Board(fen)
        for _ in range(rng.randint(0, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_valid() and any(board.legal_moves):
            boards.append(board)
    labelled = [Labelled(board.fen(), 0.5, str(i), "test") for i, board in enumerate(boards)]
    path = tmp_path / "cache.tsv"
    append_cache(path, labelled)
    assert read_cache(path) == labelled
    positions = PositionSet(read_cache(path))
    for weights in (DEFAULT_WEIGHTS, ODD_WEIGHTS):
        assert list(positions.evaluations(weights)) == [evaluate(board, weights) for board in boards]


@pytest.fixture(scope="module")
def stockfish_labelled():
    """Opening positions, and the same with one man (not a king) taken away, the quiet ones labelled by
    Stockfish at depth 8: the material differs, so the fit has something to learn."""
    fens = openings(70)
    try:
        engine = open_stockfish()
    except FileNotFoundError as error:
        missing_part(str(error))
    quiet = QuietCheck()
    rng = random.Random(7)
    labelled = []
    try:
        for number, fen in enumerate(fens):
            board = chess.Board(fen)
            lighter = board.copy()
            men = [s for s in chess.SQUARES if lighter.piece_type_at(s) not in (None, chess.KING)]
            lighter.remove_piece_at(rng.choice(men))
            for position in (board, lighter):
                if position.is_valid() and quiet(position):
                    score = engine.analyse(position, chess.engine.Limit(depth=8))["score"].relative
                    if not score.is_mate():
                        labelled.append(Labelled(position.fen(), 1 / (1 + 10 ** (-score.score() / 400)),
                                                 f"opening {number}", "sf d8"))
    finally:
        engine.quit()
    return PositionSet(labelled)


def test_the_fit_recovers_stockfish_judgement_from_bad_weights(stockfish_labelled):
    train, test = stockfish_labelled.split(0.3, seed=1)
    assert len(train) > 50 and len(test) > 20
    k = fit_k(train.evaluations(DEFAULT_WEIGHTS), train.labels)
    assert 0.2 < k < 3  # our centipawns are roughly Stockfish's
    bad = replace(DEFAULT_WEIGHTS, **{name: 3.0 if name == "mobility" else 0.3 for name in FACTOR_NAMES})
    fitted, train_loss = fit(train, k, bad, FACTOR_NAMES, progress=False)
    bad_test, fitted_test = (loss(test.evaluations(w), test.labels, k) for w in (bad, fitted))
    assert train_loss < loss(train.evaluations(bad), train.labels, k)
    assert fitted_test < 0.8 * bad_test  # on positions the fit never saw
    assert fitted.material > 0.6  # a man up counts again


def uci_score(weights_file: str) -> int:
    """The ``info score cp`` of ``go depth 1`` on :data:`ONE_MOVE_FEN` by the engine with ``WeightsFile``."""
    lines = []
    engine = UciEngine(lines.append)
    for command in ("setoption name OwnBook value false", "setoption name Hash value 1", f"setoption name WeightsFile value {weights_file}",
                    f"position fen {ONE_MOVE_FEN}", "go depth 1"):
        engine.handle(command)
    deadline = time.monotonic() + 60
    while not any(line.startswith("bestmove") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.01)
    engine.handle("quit")
    scores = [int(line.split(" score cp ")[1].split()[0]) for line in lines if " score cp " in line]
    assert scores, lines
    return scores[-1]


def test_the_uci_option_evaluates_with_the_file(tmp_path):
    board = chess.Board(ONE_MOVE_FEN)
    (only,) = board.legal_moves
    board.push(only)
    assert not board.is_check() and not any(board.is_capture(m) or m.promotion for m in board.legal_moves)
    path = tmp_path / "odd.json"
    path.write_text(weights_to_json(ODD_WEIGHTS))
    assert evaluate(board, ODD_WEIGHTS) != evaluate(board)
    assert uci_score(str(path)) == -evaluate(board, ODD_WEIGHTS)
    assert uci_score("") == -evaluate(board)
    lines = []
    UciEngine(lines.append).handle(f"setoption name WeightsFile value {tmp_path / 'none.json'}")
    assert "not found" in lines[-1] and "WeightsFile unchanged" in lines[-1]


def test_the_match_spec_names_the_weights(tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(weights_to_json(ODD_WEIGHTS))
    spec = engine_spec(f"ours:weights={path}")
    assert spec.options["WeightsFile"] == str(path.resolve()) and spec.name == "chessAI (tuned)"
    assert spec.command == engine_spec("ours").command and "WeightsFile" not in engine_spec("ours").options
    with pytest.raises(FileNotFoundError, match="none.json"):
        engine_spec(f"ours:weights={tmp_path / 'none.json'}")
    with pytest.raises(ValueError, match="ours:weights=FILE"):
        engine_spec("ours:depth=3")


def test_games_label_their_positions_with_the_result_for_the_side_to_move(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
                    '[Result "*"]\n\n1. e4 e5 *\n\n'
                    '[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n')
    labelled = list(label_pgn([path], every=1, skip=0))
    first = [item for item in labelled if item.group == "games.pgn game 1"]
    board, before_each_move = chess.Board(), []
    for san in ("f3", "e5", "g4", "Qh4#"):
        before_each_move.append(board.fen())
        board.push_san(san)
    assert [item.fen for item in first] == before_each_move  # all quiet; the mate ends the game
    assert [item.label for item in first] == [0.0, 1.0, 0.0, 1.0]  # Black won
    assert not any(item.group == "games.pgn game 2" for item in labelled)  # no result, no label
    assert {item.label for item in labelled if item.group == "games.pgn game 3"} == {0.5}
