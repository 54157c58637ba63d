"""Notebooks 03 and 04: set-up, the game driven through its widgets as a person does, history files, replay."""

from __future__ import annotations

import os
import re
import stat

import chess
import chess.pgn
import pytest

from Util.calculation.store import calculate
from Util.play.session import PlaySession, best_defence
from Util.play.setup import SetupError, create_board, table_for
from Util.probing.table_folder import MissingTableError
from Util.play.words import termination_message
from Util.play.records import HistoryError, history_text, read_history
from Util.notebook.play_widget import PlayWidget, ReplayWidget

START_WHITE = {chess.KING: ["e1"], chess.QUEEN: ["a6"]}
START_BLACK = {chess.KING: ["e7"]}


def text_of(widget) -> str:
    return re.sub(r"<[^>]+>", "", widget.value).replace("&#x27;", "'")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    for material in ("KQvK", "KPvK"):
        calculate(material, results_dir=folder, progress=False)
    return folder


@pytest.fixture()
def game(results, tmp_path):
    board = create_board(START_WHITE, START_BLACK)
    return PlayWidget(PlaySession(board, table_for(board, results), tmp_path / "games"))


@pytest.mark.parametrize("white, black, message", [
    ({chess.KING: ["e1"], chess.QUEEN: ["i9"]}, START_BLACK, r"'i9' in WHITE_POSITIONS\[queen\] is not a square"),
    ({chess.KING: ["e1"], chess.QUEEN: ["e7"]}, START_BLACK, r"two pieces on e7: white queen and black king"),
    ({chess.QUEEN: ["a6"]}, START_BLACK, r"WHITE_POSITIONS needs exactly one king, it has 0"),
    (START_WHITE, {chess.KING: []}, r"BLACK_POSITIONS needs exactly one king, it has 0"),
    (START_WHITE, {chess.KING: ["e2"]}, r"the kings touch \(e1 and e2\)"),
    ({chess.KING: ["e1"], chess.QUEEN: ["e6"]}, START_BLACK, r"side that is not to move is in check"),
    ({chess.KING: ["e1"], chess.PAWN: ["a8"]}, START_BLACK, r"pawn stands on the first or last rank"),
    (START_WHITE, {chess.KING: ["e7"], chess.ROOK: ["a1"]}, r"Black may only have its king"),
    ({"K": "e1", "knight": ["a6"]}, {"k": ["e7"]}, None),
])
def test_every_setup_mistake_is_named(white, black, message):
    if message is None:
        assert create_board(white, black).fen() == "8/4k3/N7/8/8/8/8/4K3 w - - 0 1"
        return
    with pytest.raises(SetupError, match=message):
        create_board(white, black)


def test_a_missing_table_says_what_to_compute(results):
    board = create_board({chess.KING: ["e1"], chess.ROOK: ["a6"]}, START_BLACK)
    with pytest.raises(MissingTableError, match=r"no table for KRvK: .*KRvK\.chessAI does not exist; compute it with: "
                                           r"python -m Util calculate KRvK --results .* \(or in notebook 02"):
        table_for(board, results)
    with pytest.raises(SetupError, match=r"FILE is KQvK, but the position has the material KRvK"):
        table_for(board, results, "KQvK")


def test_moves_typed_as_a_person_does(game):
    session = game.session
    assert "The AI played Qg6, from S_15 into S_14" in text_of(game.message)
    assert text_of(game.status) == "Black (Player) to move. White mates in 7 (14 plies). The position is in S_14."
    assert game.text.placeholder == "your move, e.g. Kf8 or e7f8"  # a legal move of this position
    for entry, complaint in (("e7e6", "e7e6 is not legal here. Legal moves: Kf8 (e7f8), Kd8 (e7d8), Kd7 (e7d7)."),
                             ("Ke6", "Ke6 is not legal here."), ("hello", "'hello' is no move"),
                             ("e7e9", "'e7e9' is no move"), ("ke6", "ke6 is not legal here.")):
        before = session.board.fen()
        game.text.value = entry  # what pressing Enter does
        assert complaint in text_of(game.message)
        assert session.board.fen() == before
        assert game.text.value == entry  # left in the box to be corrected
    # its examples are legal moves here (the placeholder's), not the thesis's e7e6 / Ke6 of another position
    game.text.value = "hello"
    assert text_of(game.message) == "'hello' is no move: write UCI like e7f8 (from-square, to-square) or SAN like Kf8."
    # the AI's first move is not a game of the person's yet: no file until the person moves
    assert not session.history.written and not session.games_dir.exists()
    game.text.value = "Kd7"  # SAN
    assert re.match(r"You played Kd7\. The AI played \S+, from S_13 into S_12\.",
                    text_of(game.message))
    assert game.text.value == "" and session.history.path.exists()
    game.text.value = session.board.legal_moves.__iter__().__next__().uci()  # UCI
    assert "You played" in text_of(game.message) and len(session.board.move_stack) == 5
    king = chess.square_name(session.board.king(chess.BLACK))
    lowercase = next(m for m in session.board.legal_moves)
    game.text.value = "k" + chess.square_name(lowercase.to_square)  # lowercase SAN, as typed in a hurry
    assert f"You played K{chess.square_name(lowercase.to_square)}" in text_of(game.message), king
    start, moves = read_history(session.history.path)
    assert moves == session.board.move_stack and start == session.start and len(moves) == 7
    with open(session.history.pgn_path, encoding="utf-8") as handle:
        pgn = chess.pgn.read_game(handle)
    assert list(pgn.mainline_moves()) == session.board.move_stack
    assert pgn.headers["FEN"] == session.start.fen() and pgn.headers["White"].startswith("Endgame AI")
    assert pgn.headers["Result"] == "*" and re.fullmatch(r"\d{4}\.\d\d\.\d\d", pgn.headers["Date"])


def test_hints_and_verdicts(game, results):
    from Util.play.verdicts import move_outcomes, verdict

    session = game.session
    game.hint_button.click()
    shown = [(row["san"], row["outcome"]) for row in game.hints.rows]
    expected = move_outcomes(session.board, session.sequence)
    assert shown == [(o.san, o.describe()) for o in expected] and len(shown) == session.board.legal_moves.count()
    assert shown[0][1] == "loss: mated in 7 (14 plies)"  # from S_14 Black's best holds out all 14 plies
    assert {row["result"] for row in game.hints.rows} == {"loss"} and game.hints.heading == "outcome for Black"
    assert re.findall(r"<td>([^<]+)</td><td>([^<]+)</td>", game.hints.to_html()) == shown  # the static copy
    kd7 = next(row for row in game.hints.rows if row["san"] == "Kd7")
    game.hints.chosen = kd7["uci"]  # a click on the row, as the browser sends it
    assert text_of(game.verdict) == ("Your move: Kd7 — best move. Before it: White mates in 7 (14 plies); "
                                     "after it: White mates in 7 (13 plies).")
    assert "#1a7f37" in game.verdict.value  # in green
    assert session.board.move_stack[1].uci() == "e7d7" and game.hints.chosen == ""
    assert game.hints.rows == []  # the table was about the position before the move
    board = session.board.copy()
    worst = move_outcomes(board, session.sequence)[-1]
    game.text.value = worst.san
    assert text_of(game.verdict) == f"Your move: {verdict(board, worst.move, session.sequence)}"
    game.new_game_button.click()
    assert game.verdict.value == ""


def test_the_button_and_an_empty_box(game):
    game.SAME_SUBMISSION_S = 0.0
    moves_before = len(game.session.board.move_stack)
    game.execute_button.click()
    said = "Type a move in SAN (Kf8) or UCI (e7f8), or drag a piece on the board, then press Enter."
    assert text_of(game.message) == said and len(game.session.board.move_stack) == moves_before
    game.message.value = ""
    game.text._handle_custom_msg({"event": "submit"}, [])  # Enter in the empty box, as the browser sends it
    assert text_of(game.message) == said and len(game.session.board.move_stack) == moves_before


def test_clicking_the_button_after_a_rejected_entry_does_not_repeat_it(game):
    game.text.value = "Ke6"  # leaving the box for the button sends the entry ...
    complaint = game.message.value
    game.execute_button.click()  # ... and then the click arrives: the same submission, not a second one
    assert game.message.value == complaint and game.text.value == "Ke6"
    game.text.value = "Kd7"  # corrected in the box
    assert "You played Kd7" in text_of(game.message)


def test_lowercase_san():
    from Util.play.typed_moves import parse_player_move

    board = chess.Board("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1")
    assert parse_player_move(board, "kf2") == chess.Move.from_uci("e1f2")
    assert parse_player_move(board, "bc1") == chess.Move.from_uci("d2c1")  # no pawn reaches c1: the bishop
    assert parse_player_move(board, "bxc3") == chess.Move.from_uci("b2c3")  # correct SAN: the b-pawn takes
    assert parse_player_move(board, "Bxc3") == chess.Move.from_uci("d2c3")
    with pytest.raises(ValueError, match=r"ke2 is not legal here\. Legal moves: "):
        parse_player_move(board, "ke2")  # the knight guards e2


def test_a_new_game_without_moves_writes_nothing(results, tmp_path):
    board = create_board(START_WHITE, START_BLACK)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path / "games"))
    game.new_game_button.click()
    game.new_game_button.click()
    assert not (tmp_path / "games").exists()
    assert "saved to" in text_of(game.files) and "from your first move on" in text_of(game.files)


def test_the_game_list_puts_the_persons_games_first(results, tmp_path):
    from Util.play.records import DEMONSTRATION_FOLDER, describe_game, history_files

    board = create_board(START_WHITE, START_BLACK)
    sequence = table_for(board, results)
    demo = PlaySession(board, sequence, tmp_path / DEMONSTRATION_FOLDER)
    while not demo.over:
        demo.submit(best_defence(demo).uci())
    person = PlaySession(board, sequence, tmp_path)
    person.submit("Kd7")
    files = history_files(tmp_path)
    assert files == [person.history.path, demo.history.path]  # one entry per game, the person's first
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d · KQvK · 3 plies · unfinished", describe_game(files[0]))
    assert describe_game(files[1]).endswith("· KQvK · 15 plies · 1-0 checkmate · demonstration")
    person.history.path.unlink()  # a game with only its PGN left is still listed, once
    assert history_files(tmp_path) == [person.history.pgn_path, demo.history.path]


def test_a_game_to_mate_then_new_game(game):
    session = game.session
    while not session.over:
        game.text.value = best_defence(session).uci()
    first_file = session.history.path
    assert len(session.board.move_stack) == 15  # the announced n: best defence cannot delay it
    assert text_of(game.status) == "Checkmate: White wins." and game.text.disabled
    assert "Checkmate: White wins." in text_of(game.message)
    game.text.value = "e8d8"
    assert "The game is over" in text_of(game.message)
    assert read_history(first_file)[1] == session.board.move_stack
    assert '[Result "1-0"]' in session.history.pgn_path.read_text()
    game.new_game_button.click()
    assert session.board.fen() == "8/4k3/6Q1/8/8/8/8/4K3 b - - 1 1" and not session.history.written
    assert read_history(first_file)[1] != session.board.move_stack  # the finished game's file is kept
    assert not game.text.disabled and text_of(game.message).startswith("New game. The AI played Qg6")


def test_capturing_the_queen_ends_the_game(results, tmp_path):
    board = create_board({chess.KING: ["a1"], chess.QUEEN: ["d7"]}, START_BLACK, white_to_move=False)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path))
    assert "in no S_n" in text_of(game.status)
    game.text.value = "Kxd7"
    assert "Insufficient material: no side can ever mate. Draw." in text_of(game.message)
    assert read_history(game.session.history.path)[1] == [chess.Move.from_uci("e7d7")]
    assert game.session.history.path.read_text().splitlines()[1] == "1. ... e7d7"


def test_in_no_s_n_the_ai_keeps_its_material(results, tmp_path):
    board = create_board({chess.KING: ["e1"], chess.PAWN: ["e4"]}, {chess.KING: ["e6"]}, white_to_move=True)
    session = PlaySession(board, table_for(board, results), tmp_path)
    reply = session.last_reply
    assert reply.n_before == -1 and "no forced mate here (a draw); it keeps its material" in reply.text
    pawn = next(iter(session.board.pieces(chess.PAWN, chess.WHITE)))
    assert not session.board.is_attacked_by(chess.BLACK, pawn) or session.board.is_attacked_by(chess.WHITE, pawn)


@pytest.mark.parametrize("fen, message", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Stalemate"),
    ("8/8/8/8/8/2k5/8/K7 w - - 0 1", "Insufficient material"),
    ("8/8/8/3k4/8/8/8/KQ6 w - - 150 90", "75-move rule"),
    ("8/8/8/3k4/8/8/8/KQ6 w - - 100 60", "Fifty-move rule"),
])
def test_every_termination_has_its_message(fen, message):
    assert termination_message(chess.Board(fen)).startswith(message)


def test_repetitions_have_their_messages():
    board = chess.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")
    for _ in range(2):
        for uci in ("a1a2", "d5d6", "a2a1", "d6d5"):
            board.push_uci(uci)
    assert termination_message(board).startswith("Threefold repetition")
    for _ in range(2):
        for uci in ("a1a2", "d5d6", "a2a1", "d6d5"):
            board.push_uci(uci)
    assert termination_message(board).startswith("Fivefold repetition")


def test_replay_of_what_was_written(game, tmp_path):
    session = game.session
    while not session.over:
        game.text.value = best_defence(session).uci()
    replay = ReplayWidget(session.games_dir)
    assert [value for _, value in replay.chooser.options] == [str(session.history.path)]  # one entry per game
    assert replay.chooser.options[0][0].endswith("· KQvK · 15 plies · 1-0 checkmate")
    for path in (session.history.path, session.history.pgn_path):
        assert replay.load(path)
        assert replay.slider.max == 15 and text_of(replay.caption) == "start position"
        replay.step(+1)
        assert text_of(replay.caption) == "ply 1 of 15: Qg6 (White mates in 7 (14 plies))"  # the PGN's comment, the page's words
        replay.slider.value = 15
        assert text_of(replay.caption) == "ply 15 of 15: Qh8# (White has won: checkmate)" and "lastmove" in replay.board_view.value
        replay.step(+1)
        assert replay.slider.value == 15
        replay.previous_button.click()
        assert replay.slider.value == 14
        # the saved copy's text: the position shown, White at the bottom, its coordinates beside it
        lines = replay._static_text().splitlines()
        assert lines[8] == "  a b c d e f g h"
        assert [line[2:] for line in lines[:8]] == str(replay.positions[14]).splitlines()
    # game records get the permissions a plain open() gives, not mkstemp's private 0600
    umask = os.umask(0)
    os.umask(umask)
    for path in (session.history.path, session.history.pgn_path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


def test_one_ply_is_said_in_the_singular(tmp_path):
    from Util.play.words import describe_n

    assert "mates in 1 ply (1 move of White)" in describe_n(1) and "mates in 3 plies" in describe_n(3)
    board = chess.Board("8/4k3/Q7/8/8/8/8/4K3 w - - 0 1")
    board.push_uci("a6g6")
    path = tmp_path / "one_ply.txt"
    path.write_text(history_text(board))
    replay = ReplayWidget(tmp_path)
    assert replay.load(path) and text_of(replay.message).endswith("one_ply.txt: 1 ply")


@pytest.mark.parametrize("content, message", [
    ("", r"line 1: empty"),
    ("not a fen\n", r"line 1: not a FEN"),
    ("8/4k3/Q7/8/8/8/8/4K3 w - - 0 1\n1. a6g6 e7e6\n", r"line 2: e7e6 is not legal in 8/4k3/6Q1"),
    ("8/4k3/Q7/8/8/8/8/4K3 w - - 0 1\n1. a6g6 e7f8\n3. g6h7\n", r"line 3: move number 3\. where 2\. was expected"),
    ("8/4k3/Q7/8/8/8/8/4K3 w - - 0 1\n1 a6g6 e7f8\n", r"line 2: '1 a6g6 e7f8' is not 'N\. <white move> <black move>'"),
    ("8/4k3/Q7/8/8/8/8/4K3 w - - 0 1\n1. a6g6 Kf8\n", r"line 2: 'Kf8' is not a move in UCI"),
])
def test_a_broken_history_names_file_and_line(tmp_path, content, message):
    path = tmp_path / "Move-History_broken.txt"
    path.write_text(content)
    with pytest.raises(HistoryError, match=re.escape(str(path)) + ", " + message):
        read_history(path)
    replay = ReplayWidget(tmp_path)
    assert not replay.load(path) and str(path) in text_of(replay.message)


def test_a_broken_pgn_is_named(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text('[FEN "8/4k3/Q7/8/8/8/8/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Qg6 Ke6 *\n')
    with pytest.raises(HistoryError, match=re.escape(str(path)) + ": .*Ke6"):
        read_history(path)


def test_history_format_round_trips_black_first():
    board = chess.Board("8/4k3/Q7/8/8/8/8/4K3 b - - 0 1")
    for uci in ("e7f8", "a6c8", "f8f7"):
        board.push_uci(uci)
    assert history_text(board) == "8/4k3/Q7/8/8/8/8/4K3 b - - 0 1\n1. ... e7f8\n2. a6c8 f8f7\n"


@pytest.mark.parametrize("material, fen, person", [
    ("KQvK", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", chess.WHITE),   # practise the win: the AI defends as Black
    ("KQvKR", "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1", chess.WHITE),  # the rook defends
    ("KQvKR", "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1", chess.BLACK),  # the AI attacks, the person defends
])
def test_either_side_best_play_mates_in_exactly_n(material, fen, person, sequence_of, tmp_path):
    """The person's side played with the table's best moves through the box: mate after exactly n plies,
    whichever side the person plays, and the AI never shortens its defence or lengthens its attack."""
    sequence = sequence_of(material)
    board = chess.Board(fen)
    n = sequence.value(board)
    assert n > 0 and n % 2 == 1  # White to move mates in n
    game = PlayWidget(PlaySession(board, sequence, tmp_path, person=person))
    session = game.session
    assert session.ai == (not person)
    while not session.over:
        game.text.value = best_defence(session).uci()
    assert session.board.is_checkmate() and len(session.board.move_stack) == n
    assert text_of(game.status) == "Checkmate: White wins."
    with open(session.history.pgn_path, encoding="utf-8") as handle:
        headers = chess.pgn.read_headers(handle)
    assert (headers["White"] == "Player") == (person == chess.WHITE)


def test_the_ai_as_black_holds_out_longest_and_the_status_speaks_of_the_person(sequence_of, tmp_path):
    from Util.play.verdicts import move_outcomes

    sequence = sequence_of("KQvK")
    session = PlaySession(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), sequence, tmp_path, person=chess.WHITE)
    assert session.last_reply is None  # White (the person) moves first
    assert session.status() == "White (Player) to move. White mates in 9 (17 plies)."
    session.submit("Qb7")
    before = session.board.copy()
    before.pop()
    outcomes = move_outcomes(before, sequence)
    chosen = next(o for o in outcomes if o.move == session.last_reply.move)
    assert chosen.rank == outcomes[0].rank and chosen.result == -1  # a longest defence of Black's


def test_start_fen_and_play_as_are_checked():
    from Util.play.setup import board_from_fen, person_colour

    assert board_from_fen("8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1").piece_at(chess.C3).symbol() == "r"
    with pytest.raises(SetupError, match=r"START_FEN 'hello' is not a FEN"):
        board_from_fen("hello")
    with pytest.raises(SetupError, match=r"is not a legal position: the side that is not to move is in check"):
        board_from_fen("8/8/8/3k4/8/8/8/K2Q4 w - - 0 1")  # Black in check, White to move
    assert person_colour("White") == chess.WHITE and person_colour("black") == chess.BLACK
    with pytest.raises(SetupError, match=r"PLAY_AS is 'red'; write \"white\" or \"black\""):
        person_colour("red")


def test_take_back_comments_and_flip(results, tmp_path):
    board = create_board(START_WHITE, START_BLACK)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path))
    session = game.session
    game.take_back_button.click()
    assert "Nothing to take back: you have not moved yet." in text_of(game.message)
    assert len(session.board.move_stack) == 1 and not session.history.written  # unchanged, still no file
    game.text.value = "Kd7"
    after_first = session.board.fen()
    game.text.value = "Kd8" if "Kd8" in [session.board.san(m) for m in session.board.legal_moves] else \
        session.board.san(next(iter(session.board.legal_moves)))
    assert len(session.board.move_stack) == 5
    game.take_back_button.click()
    assert session.board.fen() == after_first and "Your move again." in text_of(game.message)
    start, moves = read_history(session.history.path)
    assert moves == session.board.move_stack  # the files follow the take-back
    with open(session.history.pgn_path, encoding="utf-8") as handle:
        pgn = chess.pgn.read_game(handle)
    comments = [node.comment for node in pgn.mainline()]
    # the page's words: moves of the mating side, then plies (the status line says "White mates in 7 (14 plies)")
    assert comments == ["White mates in 7 (14 plies)", "White mates in 7 (13 plies)", "White mates in 6 (12 plies)"]
    picture = game.board_view.value
    game.flip_button.click()
    assert game.board_view.value != picture
    game.flip_button.click()
    assert game.board_view.value == picture


def test_the_pgn_marks_a_move_that_left_the_best_line_and_the_replay_shows_it(results, tmp_path):
    from Util.play.verdicts import move_outcomes

    board = create_board({chess.KING: ["e1"], chess.QUEEN: ["a3"]}, {chess.KING: ["d4"]}, white_to_move=False)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path))
    session = game.session
    while not session.over:
        outcomes = move_outcomes(session.board, session.sequence)
        game.text.value = outcomes[-1].san  # the quickest way to be mated
    with open(session.history.pgn_path, encoding="utf-8") as handle:
        comments = [node.comment for node in chess.pgn.read_game(handle).mainline()]
    assert comments[-1] == "White has won: checkmate"
    left = [c for c in comments if "left the best line" in c]
    assert comments[0] == "White mates in 6 (11 plies); left the best line (Ke5 was better)"  # Kc4: 12 plies, not 16
    assert all(re.fullmatch(r"White mates in \d+ \(\d+ plies?\); left the best line \(K\w+ was better\)", c) for c in left)
    replay = ReplayWidget(tmp_path)
    assert replay.load(session.history.path)
    replay.slider.value = 1
    assert text_of(replay.caption) == f"ply 1 of {len(comments)}: Kc4 ({comments[0]})"


def test_the_ai_picks_the_best_move_that_leaves_the_fewest_good_replies(sequence_of):
    from Util.play.verdicts import hardest_best_move, move_outcomes

    sequence = sequence_of("KQvKR")
    for fen in ("8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1", "8/8/8/3k4/8/2r5/8/KQ6 b - - 0 1", "8/8/3k4/8/8/8/1r6/KQ6 w - - 0 1"):
        board = chess.Board(fen)
        outcomes = move_outcomes(board, sequence)
        chosen = hardest_best_move(board, sequence)
        assert chosen.rank == outcomes[0].rank

        def good(move):
            board.push(move)
            replies = move_outcomes(board, sequence)
            board.pop()
            return sum(r.rank == replies[0].rank for r in replies) if replies else 0

        assert good(chosen.move) == min(good(o.move) for o in outcomes if o.rank == outcomes[0].rank)


def test_the_summary_counts_best_moves_and_names_the_mistakes(results, tmp_path):
    from Util.play.verdicts import move_outcomes

    board = create_board({chess.KING: ["e1"], chess.QUEEN: ["a3"]}, {chess.KING: ["d4"]}, white_to_move=False)
    session = PlaySession(board, table_for(board, results), tmp_path)
    message = ""
    while not session.over:
        message = session.submit(move_outcomes(session.board, session.sequence)[-1].san)  # always the worst
    best = sum(1 for _, judgement in session.judged if judgement.best)
    assert message.endswith(session.summary())
    assert session.summary().startswith(f"You played {len(session.judged)} moves, {best} of them best. "
                                        "Moves that were not best: 1... Kc4 (inaccuracy: hastens mate, by 4 plies)")


def test_the_status_says_when_the_position_is_a_mutual_zugzwang(sequence_of, store, tmp_path):
    from Util.play.zugzwang import is_mutual_zugzwang, mutual_zugzwang_examples

    sequence = sequence_of("KPvK")
    zugzwang = mutual_zugzwang_examples(store.get("KPvK"), limit=1)[0]  # White to move
    assert is_mutual_zugzwang(zugzwang, sequence)
    session = PlaySession(zugzwang, sequence, tmp_path, person=chess.WHITE)
    assert session.status().endswith("A mutual zugzwang: whoever is to move here would rather pass.")
    ordinary = PlaySession(chess.Board("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"), sequence, tmp_path, person=chess.WHITE)
    assert "zugzwang" not in ordinary.status()


def test_a_random_game_of_a_chosen_kind_from_the_page(results, tmp_path):
    from Util.notebook.play_widget import GameChooser

    board = create_board(START_WHITE, START_BLACK)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path / "games"))
    chooser = GameChooser(game, results, tmp_path / "games")
    assert set(chooser.material.options) >= {"KQvK", "KPvK"} and chooser.material.value == "KQvK"
    chooser.material.value, chooser.play_as.value, chooser.to_move.value = "KQvK", "white", "white"
    chooser.outcome.value, chooser.min_plies.value = "win", 15
    assert chooser.start()
    session = game.session
    n = session.sequence.find_board(session.board)
    assert session.person == chess.WHITE and session.board.turn == chess.WHITE and n >= 15 and n % 2 == 1
    assert text_of(game.status) == f"White (Player) to move. White mates in {(n + 1) // 2} ({n} plies)."
    chooser.to_move.value, chooser.outcome.value = "black", "win"  # a lone king never mates
    assert not chooser.start()
    assert text_of(chooser.message) == "Black to move never gets a win in KQvK: choose another outcome or side to move."
    assert game.session is session  # unchanged


def test_take_back_names_the_moves_in_numbered_san(game):
    session = game.session
    game.text.value = "Kd7"
    reply = session.board.move_stack[-1]
    before_reply = session.board.copy()
    before_reply.pop()
    game.take_back_button.click()
    assert text_of(game.message) == f"Took back 1... Kd7 and 2. {before_reply.san(reply)}. Your move again."
    from Util.play.typed_moves import numbered_san

    start = chess.Board("8/8/8/8/3k4/Q7/8/4K3 b - - 0 12")
    moves = [chess.Move.from_uci("d4c4"), chess.Move.from_uci("a3d6")]
    assert numbered_san(start, moves) == ["12... Kc4", "13. Qd6"]
    start.turn = chess.WHITE
    assert numbered_san(start, [chess.Move.from_uci("a3d6"), chess.Move.from_uci("d4c4")]) == ["12. Qd6+", "Kc4"]


def test_the_move_list_and_the_summary_mark_mistakes_in_colour_and_words(results, tmp_path):
    from Util.play.verdicts import GRADE_COLOURS, SLOWER, move_outcomes

    board = create_board({chess.KING: ["e1"], chess.QUEEN: ["a3"]}, {chess.KING: ["d4"]}, white_to_move=False)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path))
    session = game.session
    game.text.value = "Kc4"  # holds out 12 plies where Ke5 holds out 16: an inaccuracy
    reply = session.board.san(session.board.pop())
    session.board.push(session.board.parse_san(reply))
    assert session.move_list() == f"1... Kc4?! 2. {reply}"
    assert session.last_judgement.kind == SLOWER
    assert f'color:{GRADE_COLOURS["inaccuracy"]}' in game.verdict.value and "inaccuracy: hastens mate, by 4 plies" in \
        text_of(game.verdict)
    marked = re.search(r'<span class="slower inaccuracy" style="color:([^;]+);[^"]*" title="([^"]+)">([^<]+)</span>',
                       game.moves.value)
    assert marked and marked.group(1) == GRADE_COLOURS["inaccuracy"] and marked.group(3) == "1... Kc4?!"
    assert marked.group(2).startswith("Kc4 — inaccuracy")  # the verdict as the tooltip
    game.text.value = move_outcomes(session.board, session.sequence)[0].san  # a best move: unmarked
    assert re.search(r"2\. \S+ K\w+ 3\. ", text_of(game.moves))
    while not session.over:
        game.text.value = move_outcomes(session.board, session.sequence)[-1].san
    summary = game.summary.value
    assert text_of(game.summary).startswith(f"You played {len(session.judged)} moves, ")
    assert f'<li style="color:{GRADE_COLOURS["inaccuracy"]}"><b>1... Kc4?!</b> inaccuracy: hastens mate, by 4 plies</li>' \
        in summary
    assert session.summary() not in text_of(game.message)  # said once, in its own coloured line


def test_the_chooser_says_which_distances_exist_and_refuses_others_with_them(results, tmp_path):
    from Util.play.setup import table_named
    from Util.play.random_starts import distances, distances_text
    from Util.notebook.play_widget import GameChooser

    board = create_board(START_WHITE, START_BLACK)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path / "games"))
    chooser = GameChooser(game, results, tmp_path / "games")
    sequence = table_named("KQvK", results)
    assert text_of(chooser.ranges) == distances_text(sequence, True)
    wins = list(distances(sequence, True)["win"])
    assert text_of(chooser.ranges).startswith(f"KQvK, White to move: White mates in 1–{(wins[-1] + 1) // 2} moves "
                                              f"(1–{wins[-1]} plies)")
    chooser.to_move.value = "black"  # the line follows the choice
    assert text_of(chooser.ranges) == distances_text(sequence, False) and "draws exist" in text_of(chooser.ranges)
    chooser.material.value = "KPvK"
    assert text_of(chooser.ranges).startswith("KPvK, Black to move: White mates in ")
    chooser.material.value, chooser.to_move.value, chooser.outcome.value = "KQvK", "white", "win"
    chooser.play_as.value = "white"  # the person moves first: the start is the position drawn
    chooser.min_plies.value = 400  # not clamped: refused, with the range
    session = game.session
    assert not chooser.start() and chooser.min_plies.value == 400 and game.session is session
    # the reason and the range in one sentence, the field named as its label names it
    assert text_of(chooser.message) == f"No win for White to move in at least 400 plies: KQvK has them in 1–{wins[-1]} plies."
    chooser.outcome.value = "draw"  # a draw has no distance: the field is off
    assert chooser.min_plies.disabled
    chooser.outcome.value = "win"
    assert not chooser.min_plies.disabled
    chooser.min_plies.value = wins[-1]
    assert chooser.start() and game.session.sequence.value(game.session.board) == wins[-1]
    assert text_of(chooser.message).startswith(
        f"Started KQvK, White to move: White mates in {(wins[-1] + 1) // 2} ({wins[-1]} plies)")


def test_each_widget_carries_a_static_copy_a_reader_of_the_saved_notebook_can_read(game, results, tmp_path):
    from Util.notebook.hint_widget import HintTable
    from Util.notebook.play_widget import GameChooser

    data = game._static.bundle(game.box, game._static_parts(), game._static_text())
    assert "application/vnd.jupyter.widget-view+json" in data  # the live view, for JupyterLab and Voilà
    assert "<svg" in data["text/html"] and "White mates in 7 (14 plies)" in data["text/html"]
    # the person plays Black: Black at the bottom, in the text too, with the coordinates beside the squares
    turned = game.session.board.transform(chess.flip_vertical).transform(chess.flip_horizontal)
    board_lines = data["text/plain"].splitlines()[:9]
    assert [line[:2] for line in board_lines[:8]] == [f"{rank} " for rank in range(1, 9)]
    assert board_lines[8] == "  h g f e d c b a"
    assert [line[2:] for line in board_lines[:8]] == str(turned).splitlines()
    assert "Moves: 1. Qg6" in data["text/plain"]
    game.show_hints()
    data = game._static.bundle(game.box, game._static_parts(), game._static_text())
    assert '<table class="chessai-hints">' in data["text/html"] and "Kd7: loss: mated in 7 (14 plies)" in data["text/plain"]
    chooser = GameChooser(game, results, tmp_path / "games")
    data = chooser._static.bundle(chooser.box, [], chooser.describe())
    assert data["text/plain"].startswith("Random game chooser: tables ") and "KQvK, White to move: White mates" in \
        data["text/plain"] and "VBox" not in data["text/plain"]
    table = HintTable()
    table.rows, table.heading = game.hints.rows, game.hints.heading
    html = table._repr_mimebundle_()[0]["text/html"]
    assert html == game.hints.to_html() and html.count("<tr class=") == 3


def test_a_pawn_promoted_to_a_knight_on_the_board(sequence_of, tmp_path):
    from Util.play.verdicts import move_outcomes

    sequence = sequence_of("KPvK")
    board = chess.Board("8/P7/8/8/8/4k3/8/4K3 w - - 0 1")
    game = PlayWidget(PlaySession(board, sequence, tmp_path, person=chess.WHITE))
    knight = next(o for o in move_outcomes(board, sequence) if o.move.promotion == chess.KNIGHT)
    game.board.move = "a7a8n"  # what the board sends once the person picked the knight
    assert game.session.board.move_stack[0] == chess.Move.from_uci("a7a8n")
    assert text_of(game.message).startswith("You played a8=N.")
    assert game.session.last_judgement.san == "a8=N" and game.session.last_judgement.kind != "best"
    assert knight.result != 1  # a knight cannot mate alone: the verdict calls it what it is
    assert "blunder: turns the win into a draw" in text_of(game.verdict)


def test_a_new_attempt_replaces_an_old_error(game):
    """After a red complaint, the next attempt says its own thing: a legal move on the board, an illegal
    drop (the board puts the piece back), Enter in the emptied box."""
    game.text.value = "hello"
    assert "'hello' is no move" in text_of(game.message)
    game.board.refused = "e7e5"  # the king dropped two squares away
    assert text_of(game.message).startswith("e7e5 is not legal here. Legal moves: Kf8 (e7f8)")
    assert game.board.refused == "" and len(game.session.board.move_stack) == 1  # dealt with, nothing played
    game.text.value = "hello"
    game.board.move = "e7d7"  # then a legal move on the board
    assert text_of(game.message).startswith("You played Kd7. The AI played") and "no move" not in text_of(game.message)


@pytest.mark.parametrize("person, flipped", [(chess.BLACK, True), (chess.WHITE, False)])
def test_the_board_shows_the_persons_side_at_the_bottom(results, tmp_path, person, flipped):
    """In the thesis's game (the person Black against the AI's queen) as in any other: the person's side at
    the bottom; a game the chooser starts does the same."""
    board = create_board(START_WHITE, START_BLACK, white_to_move=person == chess.WHITE)
    game = PlayWidget(PlaySession(board, table_for(board, results), tmp_path / "games", person=person))
    assert game.flipped == flipped and game.board.orientation == ("black" if flipped else "white")
    other = not person
    game.play(PlaySession(board, table_for(board, results), tmp_path / "games", person=other))
    assert game.board.orientation == ("white" if flipped else "black")
