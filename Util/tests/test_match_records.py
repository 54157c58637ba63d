"""The strength records of docs/matches/ as chapter 7 shows them (Util/whole_game_lab/match_records.py)."""

import json

import chess
import chess.pgn
import pytest

from Util.whole_game_lab.elo import match_result
from Util.whole_game_lab.match_records import interval_text, read_match_records


def _game(moves, headers) -> chess.pgn.Game:
    game = chess.pgn.Game()
    game.headers.update(headers)
    node = game
    for san in moves:
        node = node.add_variation(node.board().parse_san(san))
    return game


def test_a_record_shows_its_basis_and_how_its_games_ended(tmp_path):
    """The fields a chapter shows come from the JSON; the endings come from the PGN beside it, replayed by
    python-chess where fastchess ended a game normally, else its Termination."""
    record = {"date": "2026-12-01", "commit": "abc1234", "fastchess": "1.8.2-alpha", "command": "fastchess ...",
              "tc": "10+0.1", "openings": "openings_chessathome.fen, first 2, colour-swapped",
              "engines": {"ours": {"name": "chessAI", "version": "abc1234", "options": {"Move Overhead": 100}},
                          "opponent": {"name": "Stockfish", "version": "15.1", "options": {"MoveOverhead": 50}}},
              "games": 4, "wins": 1, "draws": 1, "losses": 2, "time_losses": {"ours": 1, "opponent": 0},
              "elo": -88.7, "elo_low": -500.0, "elo_high": 320.0, "load": 1.2}
    (tmp_path / "ours-vs-stockfish.json").write_text(json.dumps(record))
    mate = ["f3", "e5", "g4", "Qh4#"]
    repetition = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
    with open(tmp_path / "ours-vs-stockfish.pgn", "w") as pgn:
        for moves, headers in ((mate, {"Termination": "normal", "Result": "0-1"}),
                               (repetition, {"Termination": "normal", "Result": "1/2-1/2"}),
                               (["e4"], {"Termination": "time forfeit", "Result": "0-1"}),
                               (mate, {"Result": "0-1"})):
            print(_game(moves, headers), file=pgn, end="\n\n")
    (found,) = read_match_records(tmp_path)
    assert found.opponent == "Stockfish 15.1" and found.tc == "10+0.1" and found.games == 4
    assert found.score_line() == "+1 =1 −2"
    assert found.overheads() == {"ours": "100 ms", "opponent": "50 ms"}
    assert found.time_losses() == {"ours": 1, "opponent": 0}
    assert found.endings() == {"checkmate": 2, "threefold repetition": 1, "time forfeit": 1}
    assert found.interval_text() == "-89 (95 %: -500 .. +320); 4 games settle nothing"


def test_no_folder_no_records_and_a_broken_record_is_named(tmp_path):
    assert read_match_records(tmp_path / "absent") == []
    (tmp_path / "broken.json").write_text(json.dumps({"date": "2026-12-01"}))
    with pytest.raises(ValueError, match="broken.json: not a match record, it lacks tc, engines, games"):
        read_match_records(tmp_path)


@pytest.mark.parametrize("wins, draws, losses, expected", [
    (2, 0, 0, "no finite estimate (a score of 100 %); 2 games settle nothing"),
    (0, 0, 3, "no finite estimate (a score of 0 %); 3 games settle nothing"),
    (1, 0, 1, "+0, with a 95 % interval that has no end; 2 games settle nothing"),
    (60, 20, 20, "+147 (95 %: +86 .. +218)"),
])
def test_an_interval_is_never_infinite_and_few_games_say_so(wins, draws, losses, expected):
    result = match_result(wins, draws, losses)
    text = interval_text(result.elo, result.elo_low, result.elo_high, result.games)
    assert text == expected and "inf" not in text
