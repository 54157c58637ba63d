"""Hints, verdicts and mutual zugzwangs, checked against Gaviota (distances) and Syzygy (results)."""

from __future__ import annotations

import random

import chess
import pytest

from Util.board.random_boards import random_legal_board
from Util.play.outcomes import DRAW, LOSS, WIN
from Util.play.zugzwang import is_mutual_zugzwang, mutual_zugzwang_examples, mutual_zugzwangs
from Util.play.verdicts import move_outcomes, verdict


def random_board(material: str, rng: random.Random) -> chess.Board:
    """A random legal position of ``material`` (``"KQvKR"``), either side to move, the game not over."""
    return random_legal_board(material, rng, playable=True)


def expected_outcome(board: chess.Board, move: chess.Move, gaviota) -> tuple:
    """The mover's (result, plies) after ``move`` by python-chess's Gaviota prober."""
    board.push(move)
    try:
        if board.is_checkmate():
            return WIN, 1
        dtm = gaviota.probe_dtm(board)  # for the side to move after the move
    finally:
        board.pop()
    if dtm == 0:
        return DRAW, None
    return (WIN, -dtm + 1) if dtm < 0 else (LOSS, dtm + 1)


@pytest.mark.parametrize("material", ["KQvKR", "KRvKP", "KPvKP", "KBNvK"])
def test_every_move_has_gaviotas_outcome(material, sequence_of, python_gaviota):
    sequence, rng = sequence_of(material), random.Random(7)
    for _ in range(12):
        board = random_board(material, rng)
        outcomes = move_outcomes(board, sequence)
        assert sorted(o.move.uci() for o in outcomes) == sorted(m.uci() for m in board.legal_moves)
        assert [o.rank for o in outcomes] == sorted(o.rank for o in outcomes)  # best first
        for o in outcomes:
            assert (o.result, o.plies) == expected_outcome(board, o.move, python_gaviota), (board.fen(), o.san)


def test_verdicts_name_the_best_move_and_count_each_distance_from_its_own_position(sequence_of):
    from Util.play.verdicts import BEST, GRADE_COLOURS, GRADES, SLOWER, WORSE, judge_move, position_words

    sequence = sequence_of("KQvK")
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    outcomes = move_outcomes(board, sequence)
    best = outcomes[0]
    after = board.copy()
    after.push(best.move)
    # "before it" is the position's own outcome, "after it" the outcome of the position the move leaves,
    # each as the status line says it of that position
    assert verdict(board, best.move, sequence) == (f"{best.san} — best move. Before it: {position_words(board, sequence)}; "
                                                   f"after it: {position_words(after, sequence)}.")
    assert position_words(board, sequence) == f"White mates in {(best.plies + 1) // 2} ({best.plies} plies)"
    assert judge_move(board, best.move, sequence).kind == BEST
    slower = next(o for o in outcomes if o.result == WIN and o.plies > best.plies)
    judged = judge_move(board, slower.move, sequence)
    lost = slower.plies - best.plies
    grade = "mistake" if lost >= 10 else "inaccuracy"  # trainer.MISTAKE_PLIES
    assert judged.kind == SLOWER and judged.label == f"{grade}: only delays mate, by {lost} plies"
    assert judged.sentence.endswith(f"after {best.san} (best): White mates in {(best.plies) // 2} "
                                    f"({best.plies - 1} plies).")
    assert f"after it: White mates in {slower.plies // 2} ({slower.plies - 1} plies)" in judged.sentence
    board = chess.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
    assert board.is_valid()
    blunder = judge_move(board, chess.Move.from_uci("b1c2"), sequence)  # the king takes it
    assert blunder.kind == WORSE and blunder.label == "blunder: turns the win into a draw"
    assert blunder.grade == "blunder" and judged.grade == grade
    assert "after it: draw;" in blunder.sentence  # mid-sentence: lower case
    assert len({GRADE_COLOURS[g] for g in GRADES}) == 4  # green, orange, deep orange, red
    assert blunder.colour == GRADE_COLOURS["blunder"] and judged.colour == GRADE_COLOURS[grade]


def test_a_defender_who_hastens_mate_or_loses_a_draw_gets_the_matching_kind(sequence_of):
    from Util.play.verdicts import BEST, SLOWER, WORSE, judge_move
    from Util.play.outcomes import LOSS

    sequence = sequence_of("KQvK")
    board = chess.Board("8/8/8/8/3k4/Q7/8/4K3 b - - 0 1")  # Black defends
    outcomes = move_outcomes(board, sequence)
    assert outcomes[0].result == LOSS
    for outcome in outcomes:
        judged = judge_move(board, outcome.move, sequence, outcomes)
        if outcome.rank == outcomes[0].rank:
            assert judged.kind == BEST
        else:
            shorter = outcomes[0].plies - outcome.plies
            grade = "mistake" if shorter >= 10 else "inaccuracy"  # trainer.MISTAKE_PLIES
            assert judged.kind == SLOWER and judged.label == f"{grade}: hastens mate, by {shorter} plies"
    from Util.play.outcomes import DRAW
    from Util.play.random_starts import random_start

    sequence = sequence_of("KRvKR")
    for seed in range(40):  # a drawn position in which some move loses (most have one: a rook left hanging)
        board = random_start(sequence, white_to_move=True, outcome="draw", seed=seed)
        outcomes = move_outcomes(board, sequence)
        losing = [o for o in outcomes if o.result == LOSS]
        if losing:
            break
    assert outcomes[0].result == DRAW and losing, "no drawn KRvKR position with a losing move in 40 seeds"
    judged = judge_move(board, losing[0].move, sequence, outcomes)
    assert judged.kind == WORSE and judged.label == "blunder: turns the draw into a loss"
    assert judged.sentence.split("Before it: ")[1].startswith("draw; after it: Black mates in ")


def test_the_chooser_ranges_come_from_the_table(sequence_of):
    """The distances the chooser offers are those the table holds (every board counted), and a choice
    out of them is refused with that range."""
    from Util.play.random_starts import distances, distances_text, start_refusal

    sequence = sequence_of("KQvK")
    values = {True: set(), False: set()}
    for white_to_move in (True, False):
        table = sequence.table.dtm_white if white_to_move else sequence.table.dtm_black
        import numpy as np
        from Util.table.values import UNKNOWN
        present = set(int(v) for v in np.unique(np.asarray(table)) if v != UNKNOWN)
        values[white_to_move] = present
    found = distances(sequence, True)
    # White to move in KQvK only ever mates: odd plies, those the table holds
    assert list(found["win"]) == sorted(v for v in values[True] if v % 2 == 1) and not found["loss"]
    high = max(found["win"])
    assert distances_text(sequence, True, draws=False) == \
        f"KQvK, White to move: White mates in 1–{(high + 1) // 2} moves (1–{high} plies); no draw found; Black never mates"
    black = distances(sequence, False)
    assert list(black["loss"]) == sorted(v for v in values[False] if v % 2 == 0 and v > 0) and not black["win"]
    refusal = start_refusal(sequence, True, "win", high + 6)
    assert refusal == f"No win for White to move in at least {high + 6} plies: KQvK has them in 1–{high} plies."
    assert start_refusal(sequence, True, "win", high) is None
    assert start_refusal(sequence, False, "win", 1) == \
        "Black to move never gets a win in KQvK: choose another outcome or side to move."
    assert start_refusal(sequence, False, "draw", 0) is None  # Black to move: stalemates and captures


def test_distances_in_moves_show_the_gaps_the_plies_show():
    from Util.play.words import moves_ranges, plies_ranges

    assert (moves_ranges([2, 14, 16, 18]), plies_ranges([2, 14, 16, 18])) == ("1 or 7–9 moves", "2, 14–18")
    assert moves_ranges([1, 3, 5]) == "1–3 moves" and moves_ranges([1]) == "1 move"
    assert moves_ranges([1, 7, 11, 12]) == "1, 4 or 6 moves"


@pytest.mark.slow  # every board of several tables against Syzygy
@pytest.mark.big
def test_mutual_zugzwangs_agree_with_syzygy(sequence_of, store, syzygy):
    """The per-board test against Syzygy's win/draw/loss on random KPvKP boards and on a classic one;
    the table's count against the per-board test over every KPvK placement."""
    sequence, rng = sequence_of("KPvKP"), random.Random(3)
    examples = mutual_zugzwang_examples(store.get("KPvKP"), limit=30)

    def by_syzygy(board: chess.Board) -> bool:
        other = board.copy(stack=False)
        other.turn = not board.turn
        if not (board.is_valid() and other.is_valid()):
            return False
        white, black = (board, other) if board.turn else (other, board)
        white_wdl, black_wdl = syzygy.probe_wdl(white), syzygy.probe_wdl(black)
        return (white_wdl > 0) - (white_wdl < 0) < (black_wdl < 0) - (black_wdl > 0)

    assert len(examples) == 30
    for board in examples + [random_board("KPvKP", rng) for _ in range(100)]:
        assert is_mutual_zugzwang(board, sequence) == by_syzygy(board), board.fen()
    assert all(is_mutual_zugzwang(board, sequence) for board in examples)

    # every KPvK placement with the pawn on files a-d; the mirror image (files e-h) is a zugzwang alike
    count = 0
    for w, p, b in ((w, p, b) for w in range(64) for p in range(8, 56) if p % 8 < 4 for b in range(64)):
        if len({w, p, b}) < 3:
            continue
        if chess.square_distance(w, b) < 2:
            continue
        board = chess.Board(None)
        board.set_piece_map({w: chess.Piece(chess.KING, True), p: chess.Piece(chess.PAWN, True),
                             b: chess.Piece(chess.KING, False)})
        count += by_syzygy(board)
    assert mutual_zugzwangs(store.get("KPvK")) == 2 * count > 0


@pytest.mark.parametrize("material, white_to_move, outcome, low, high", [
    ("KBNvK", True, "win", 50, None), ("KQvKR", False, "loss", 30, 40), ("KQvKR", True, "loss", 1, None),
    ("KQvKR", True, "draw", 0, None), ("KPvKP", False, "win", 1, 20),
])
def test_random_starts_have_what_was_asked_by_gaviota(material, white_to_move, outcome, low, high, sequence_of,
                                                      python_gaviota):
    from Util.play.random_starts import random_start

    sequence = sequence_of(material)
    for seed in range(3):
        board = random_start(sequence, white_to_move=white_to_move, outcome=outcome, min_plies=low,
                             max_plies=high, seed=seed)
        assert board.turn == white_to_move and board.is_valid()
        dtm = python_gaviota.probe_dtm(board)
        if outcome == "draw":
            assert dtm == 0 and not board.is_checkmate()
        else:
            assert (dtm > 0) == (outcome == "win") and low <= abs(dtm) <= (high or 10 ** 6), (board.fen(), dtm)


def test_random_start_says_when_there_is_none(sequence_of):
    from Util.play.random_starts import random_start

    with pytest.raises(ValueError, match=r"KQvK: no position where Black to move mates"):
        random_start(sequence_of("KQvK"), white_to_move=False, outcome="win")
