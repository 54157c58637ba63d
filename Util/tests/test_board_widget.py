"""Notebook 03's board widget (Util/notebook/board_widget.py) on the Python side: what it gives chessground, and a
move made on it taking the same path through the game as a typed one (the browser test drags it by mouse)."""

from __future__ import annotations

import os
import re
import warnings

import chess
import pytest

from Util.notebook.board_widget import (BUNDLE_DIR, ChessBoardWidget, StaleBundleWarning, legal_destinations, move_from_board,
                                read_bundle)
from Util.calculation.store import calculate
from Util.play.session import PlaySession
from Util.play.setup import create_board, table_for
from Util.play.records import read_history
from Util.notebook.play_widget import PlayWidget

POSITIONS = [
    chess.STARTING_FEN,
    "8/P3k3/8/8/8/8/8/4K3 w - - 0 1",  # a promotion: four moves to one square
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # castling
    "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KQ2 b - - 0 1",
]


def text_of(widget) -> str:
    return re.sub(r"<[^>]+>", "", widget.value).replace("&#x27;", "'")


@pytest.mark.parametrize("fen", POSITIONS)
def test_the_board_offers_exactly_python_chess_legal_moves(fen):
    board = chess.Board(fen)
    dests = legal_destinations(board)
    offered = {(chess.parse_square(a), chess.parse_square(b)) for a, to in dests.items() for b in to}
    assert offered == {(m.from_square, m.to_square) for m in board.legal_moves}
    assert all(len(to) == len(set(to)) for to in dests.values())
    # and every square pair offered means one legal move
    for a, to in dests.items():
        for b in to:
            assert move_from_board(board, a + b) in board.legal_moves


def test_a_pawn_reaching_the_last_rank_becomes_a_queen_and_bad_moves_are_none():
    board = chess.Board("8/P3k3/8/8/8/8/8/4K3 w - - 0 1")
    assert move_from_board(board, "a7a8") == chess.Move.from_uci("a7a8q")
    assert move_from_board(board, "a7a8n") == chess.Move.from_uci("a7a8n")  # a typed under-promotion stays
    assert move_from_board(board, "a7a6") is None and move_from_board(board, "zz") is None


def test_show_gives_the_position_last_move_check_and_side():
    board = chess.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")
    board.push_uci("f1f8")
    widget = ChessBoardWidget()
    widget.show(board, movable=True, flipped=True)
    assert widget.fen == board.fen() and widget.last_move == "f1f8" and widget.check
    assert widget.orientation == "black" and widget.legal == legal_destinations(board)
    widget.show(board, movable=False)
    assert widget.legal == {} and widget.orientation == "white"


def test_the_bundle_is_ours_and_built():
    if not (BUNDLE_DIR / "widget.js").exists():
        pytest.fail("web/dist/widget.js is missing: run 'bash scripts/setup.sh' (it bundles web/src/widget.js)")
    assert ChessBoardWidget._esm == (BUNDLE_DIR / "widget.js").read_text(encoding="utf-8")
    assert "cg-wrap" in ChessBoardWidget._css  # chessground's own style sheet, bundled
    assert "https://" not in re.sub(r"https://(www\.)?(github\.com|lichess\.org)\S*", "", ChessBoardWidget._esm)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    calculate("KQvK", results_dir=folder, progress=False)
    return folder


def _game(results, games) -> PlayWidget:
    board = create_board({chess.KING: ["e1"], chess.QUEEN: ["a6"]}, {chess.KING: ["e7"]})
    return PlayWidget(PlaySession(board, table_for(board, results), games))


def test_a_move_on_the_board_takes_the_typed_moves_path(results, tmp_path):
    typed, dragged = _game(results, tmp_path / "typed"), _game(results, tmp_path / "dragged")
    # before the person moves, the board shows the AI's first move and offers the black king's moves
    assert dragged.board.last_move == "a6g6" and dragged.board.fen == dragged.session.board.fen()
    assert dragged.board.legal == {"e7": ["f8", "d8", "d7"]}
    typed.text.value = "Kd7"
    dragged.board.move = "e7d7"  # what the browser sends when the king is dragged from e7 to d7
    for game in (typed, dragged):
        assert re.match(r"You played Kd7\. The AI played", text_of(game.message))
    assert text_of(dragged.verdict) == text_of(typed.verdict) and text_of(dragged.verdict).startswith("Your move: ")
    assert text_of(dragged.status) == text_of(typed.status)
    start, moves = read_history(dragged.session.history.path)
    assert [m.uci() for m in moves] == [m.uci() for m in read_history(typed.session.history.path)[1]]
    assert moves[1].uci() == "e7d7" and len(moves) == 3
    # the AI's reply is on the board, the move is dealt with, and the black king may move again
    board = dragged.session.board
    assert dragged.board.fen == board.fen() and dragged.board.last_move == moves[2].uci()
    assert dragged.board.move == "" and dragged.board.legal == legal_destinations(board)
    assert set(dragged.board.legal) == {chess.square_name(board.king(chess.BLACK))}


def test_a_refused_board_move_changes_nothing_and_is_cleared(results, tmp_path):
    game = _game(results, tmp_path)
    before = game.session.board.fen()
    game.board.move = "e7e6"  # next to the queen's g6: not legal (a stale board could send it)
    assert "e7e6 is not legal here" in text_of(game.message)
    assert game.session.board.fen() == before and game.board.fen == before and game.board.move == ""
    assert not game.session.history.written


def test_a_bundle_older_than_its_sources_is_warned_about_once(tmp_path):
    """A checkout whose web/src changed after the last build: one warning naming the newer file and the
    command that rebuilds; none once rebuilt."""
    dist, src = tmp_path / "dist", tmp_path / "src"
    dist.mkdir(), src.mkdir()
    (dist / "widget.js").write_text("export default {};")
    (src / "widget.js").write_text("// newer")
    (src / "hints.js").write_text("// as old as the bundle")
    os.utime(dist / "widget.js", (1_000_000, 1_000_000))
    os.utime(src / "hints.js", (1_000_000, 1_000_000))
    with pytest.warns(StaleBundleWarning, match=r"widget\.js is older than widget\.js in .*src.*'bash scripts/setup\.sh'"):
        assert read_bundle("widget.js", dist, src) == "export default {};"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_bundle("widget.js", dist, src)  # once is enough
        # a bundle that names its sources (as esbuild's do) is judged by those alone: src/widget.js, newer,
        # is not one of the hint table's
        (dist / "hints.js").write_text("// src/hints.js\nexport default {};")
        os.utime(dist / "hints.js", (1_000_000, 1_000_000))
        read_bundle("hints.js", dist, src)
