"""Notebook 06's checks: a correct table passes all of them, and each kind of corruption is caught.

The corruptions are made on copies of real tables (KQvK, KRvK): a board put
into the wrong S_n, a board removed, a drawn board added.  Each test names
the checks that must catch it, and why.
"""

from __future__ import annotations

import chess
import numpy as np
import pytest

from Util.calculation.store import TableStore
from Util.calculation.boards import board_counts
from Util.validation.move_checks import (
    check_boards_in_correct_sequence,
    check_every_s_n,
    every_move_of_sequence_in_lower,
    find_move_count,
)
from Util.table.dtm_table import DtmTable
from Util.table.values import UNKNOWN
from Util.sequence import SnSequence
from Util.validation.references import ReferenceMissing, find_reference_folder, reference_folder
from Util.validation.gaviota_checks import compare_with_gaviota
from Util.validation.syzygy_checks import compare_with_syzygy
from Util.validation.matchrate import matchrate
from Util.board.material import Material
from Util.rules.legality import black_to_move_legal_and_check


def _failures(results) -> list:
    return [(r.n, fen, why) for r in results for fen, why in r.offenders]


@pytest.fixture(scope="module")
def gaviota_folder(gaviota):
    return gaviota.folder


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
# KQvK: test_notebooks' run of notebook 06 makes the same checks on every board of it.
# KPvK: the one-ply check and Gaviota on every board. Its longest-forced-line check is made by notebook 06's
# run (test_notebooks: 400 boards of each S_n, which through the shared memo expands nearly every board below
# them, the same work again); Gaviota's DTM = n on every board proves each board's n, and KRvK runs that
# check of the checker on every board.
@pytest.mark.parametrize("material, longest_line", [("KRvK", True), ("KPvK", False)])
def test_correct_tables_pass_every_check_in_full(material, longest_line, sequence_of, gaviota_folder):
    sequence = sequence_of(material)
    lower = check_every_s_n(every_move_of_sequence_in_lower, sequence, progress=False)
    assert _failures(lower) == [] and len(lower) == len(sequence) and sum(r.checked for r in lower) > 50_000
    if longest_line:
        counted = check_every_s_n(check_boards_in_correct_sequence, sequence, progress=False)
        assert _failures(counted) == [] and sum(r.checked for r in counted) == sum(r.checked for r in lower)
    every = compare_with_gaviota(sequence, gaviota_folder, workers=2, progress=False)
    assert every.ok and every.total == sum(sequence.board_counts.values())
    rate = matchrate(sequence, gaviota_folder, workers=2, progress=False)
    assert rate.rate == 100.0 and rate.ours_but_not_gaviota == 0
    assert rate.gaviota_won == every.total  # every won board is in an S_n, and only those


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
def test_four_piece_samples_pass(sequence_of, gaviota_folder, syzygy):
    for material in ("KBNvK", "KBBvK", "KRPvK"):
        sequence = sequence_of(material)
        for n in range(0, min(len(sequence), 30), 3):
            lower = every_move_of_sequence_in_lower(sequence, n, _sample(sequence, n, 60))
            assert lower.ok, lower.line()
        for n in range(0, 5):  # the longest line plays out the whole subtree below: kept small here
            counted = check_boards_in_correct_sequence(sequence, n, _sample(sequence, n, 30))
            assert counted.ok, counted.line()
        assert compare_with_gaviota(sequence, gaviota_folder, sample=300, progress=False).ok
        assert matchrate(sequence, gaviota_folder, sample=3000, progress=False).rate == 100.0
        syzygy_result = compare_with_syzygy(sequence, syzygy_folder(), sample=40, dtz_every=0, progress=False)
        assert syzygy_result.ok, syzygy_result.mismatches[:3]


def _sample(sequence, n, count):
    from Util.validation.move_checks import boards_to_check

    return boards_to_check(sequence, n, sample=count, seed=n)


def syzygy_folder():
    return reference_folder("syzygy")


def test_find_move_count_plays_the_thesis_example(sequence_of):
    """The thesis's example (KRvK, Black to move): the longest forced line is the board's n."""
    board = chess.Board("8/8/8/3K4/8/5R2/2k5/8 b - - 0 1")
    sequence = sequence_of("KRvK")
    n = sequence.find_board(board)
    assert n > 0 and find_move_count(board, sequence) == n
    stalemate = chess.Board("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and find_move_count(stalemate, sequence_of("KQvK")) is None


# ---- corruptions ---------------------------------------------------------------------------

def _corrupted(sequence: SnSequence, tmp_path, change) -> SnSequence:
    """A copy of the sequence's table with ``change(dtm_white, dtm_black, layout)`` applied, in its own store."""
    white, black = sequence.table.dtm_white.copy(), sequence.table.dtm_black.copy()
    board = change(white, black, sequence.table.layout)
    table = DtmTable(sequence.material, white, black)
    return SnSequence(table, board_counts(table), store=TableStore(tmp_path, progress=False)), board


def _entry(array, layout, value, off_diagonal=True, pick=0):
    """An index holding ``value`` whose white king is off the a1-h8 diagonal (so it has no twin entry)."""
    index = np.flatnonzero(array == value)
    squares = layout.decode(index)
    if off_diagonal:
        index = index[(squares[0] & 7) != (squares[0] >> 3)]
    return int(index[pick])


def _white_board_moved(from_n, to_n):
    """A change for :func:`_corrupted`: one White-to-move board of S_from_n claimed to be in S_to_n."""

    def change(white, black, layout):
        index = _entry(white, layout, from_n)
        white[index] = to_n
        return _fen_of(layout, index, True)

    return change


def _fen_of(layout, index, white_to_move):
    squares = [int(s[0]) for s in layout.decode(np.array([index]))]
    board = chess.Board(None)
    for square, letter in zip(squares, layout.letters):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = white_to_move
    return board.fen()


def _run_all(sequence, gaviota_folder, up_to):
    """Which checks fail, and the FENs each names; the move checks look at S_0 .. S_up_to (a corruption
    at n is seen at n and by the boards one or two plies above it), the references at every board."""
    caught = {}
    for check in (every_move_of_sequence_in_lower, check_boards_in_correct_sequence):
        bad = _failures(check_every_s_n(check, sequence, progress=False, up_to=up_to))
        if bad:
            caught[check.__name__] = {fen for _, fen, _ in bad}
    versus = compare_with_gaviota(sequence, gaviota_folder, progress=False)
    if not versus.ok:
        caught["compare_with_gaviota"] = {fen for fen, _, _ in versus.mismatches}
    rate = matchrate(sequence, gaviota_folder, progress=False)
    if rate.rate != 100.0 or rate.ours_but_not_gaviota:
        caught["matchrate"] = set(rate.examples)
    return caught


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
def test_a_board_moved_to_a_higher_n_is_caught(sequence_of, gaviota_folder, tmp_path):
    """A White-to-move board of S_5 claimed to be in S_7: it still has a move into a lower S_m, so
    the first check passes it; but the quickest forced line is 5 plies, and Gaviota says 5."""

    sequence, fen = _corrupted(sequence_of("KQvK"), tmp_path, _white_board_moved(5, 7))
    caught = _run_all(sequence, gaviota_folder, up_to=9)
    assert fen in caught["check_boards_in_correct_sequence"]
    assert fen in caught["compare_with_gaviota"]
    assert fen not in caught.get("every_move_of_sequence_in_lower", set())
    assert "matchrate" not in caught  # still won, still in some S_n: this check cannot see it


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
def test_a_board_moved_to_a_lower_n_is_caught(sequence_of, gaviota_folder, tmp_path):
    """A White-to-move board of S_7 claimed to be in S_5: no move of it reaches S_4 or lower."""

    sequence, fen = _corrupted(sequence_of("KRvK"), tmp_path, _white_board_moved(7, 5))
    caught = _run_all(sequence, gaviota_folder, up_to=9)
    assert fen in caught["every_move_of_sequence_in_lower"]
    assert fen in caught["check_boards_in_correct_sequence"]
    assert fen in caught["compare_with_gaviota"]


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
def test_a_removed_board_is_caught(sequence_of, gaviota_folder, tmp_path):
    """A Black-to-move board of S_6 taken out of every S_n: its Black parents in S_8 now have a move
    into no S_n, and Gaviota calls a board won that is in no S_n (matching rate below 100 %)."""

    def change(white, black, layout):
        index = _entry(black, layout, 6)
        black[index] = UNKNOWN
        return _fen_of(layout, index, False)

    sequence, fen = _corrupted(sequence_of("KQvK"), tmp_path, change)
    caught = _run_all(sequence, gaviota_folder, up_to=10)
    assert fen in caught["matchrate"]
    assert "every_move_of_sequence_in_lower" in caught
    assert "check_boards_in_correct_sequence" in caught
    assert "compare_with_gaviota" not in caught  # it only looks at boards that are in some S_n


@pytest.mark.slow  # every board checked by python-chess's move generation
@pytest.mark.big
def test_a_drawn_board_added_is_caught(sequence_of, gaviota_folder, tmp_path):
    """A drawn Black-to-move board (Black takes the queen, or stalemate) put into S_8."""

    def change(white, black, layout):
        index = np.flatnonzero(black == UNKNOWN)
        squares = layout.decode(index)
        legal, _ = black_to_move_legal_and_check(layout.letters, squares)  # legal, in no S_n: a draw
        off_diagonal = (squares[0] & 7) != (squares[0] >> 3)
        index = int(index[legal & off_diagonal][0])
        black[index] = 8
        return _fen_of(layout, index, False)

    sequence, fen = _corrupted(sequence_of("KQvK"), tmp_path, change)
    caught = _run_all(sequence, gaviota_folder, up_to=10)
    assert fen in caught["every_move_of_sequence_in_lower"]
    assert fen in caught["check_boards_in_correct_sequence"]
    assert fen in caught["compare_with_gaviota"]
    assert fen in caught["matchrate"]  # in an S_n although Gaviota does not call it won


def test_a_missing_reference_table_is_named(tmp_path):
    with pytest.raises(ReferenceMissing, match=r"no gaviota table kbnk\.gtb\.cp4 for KBNvK in .*GAVIOTA_PATH"):
        find_reference_folder("gaviota", Material.parse("KBNvK"), [tmp_path])
    with pytest.raises(ReferenceMissing, match=r"KQvK\.rtbw .*lichess"):
        find_reference_folder("syzygy", Material.parse("KQvK"), [tmp_path])
