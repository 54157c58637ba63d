"""The thesis's API: load_s_n_sequence, find_situation_in_sequence, find_next_move; and the rules beyond the thesis."""

import random

import chess
import pytest

from Util.board.integer import to_board
from Util.calculation.store import calculate
from Util.sequence import find_next_move, find_situation_in_sequence, load_s_n_sequence
from Util.validation.references import gaviota_n
from Util.board.random_boards import random_legal_boards


def test_load_by_path_and_by_name(tmp_path, monkeypatch):
    path = calculate("KQvK", tmp_path / "KQvK.chessAI", progress=False)
    by_path = load_s_n_sequence(path)
    monkeypatch.setattr("Util.sequence.RESULTS_DIR", tmp_path)
    by_name = load_s_n_sequence("KQvK")
    assert by_path.board_counts == by_name.board_counts
    assert len(by_path) == 21  # S_0 .. S_20


def test_sets_support_membership_len_and_iteration(sequence_of, gaviota):
    sequence = sequence_of("KRvK")
    for n in (0, 1, 2, 17, 31, 32):
        s_n = sequence[n]
        boards = list(s_n)
        assert len(boards) == len(s_n) > 0
        assert len(set(boards)) == len(boards)
        for board_int in boards[:: max(1, len(boards) // 40)]:
            assert board_int in s_n
            assert find_situation_in_sequence(board_int, sequence) == n
            board = to_board(board_int, sequence.piece_list)
            assert board.is_valid()
            assert gaviota_n(gaviota, board) == n
    assert 12345 not in sequence[3]
    assert "not a board" not in sequence[3]
    with pytest.raises(IndexError, match="runs from 0 to 32"):
        sequence[33]


def test_s_0_is_exactly_the_checkmates(sequence_of):
    sequence = sequence_of("KQvK")
    mates = list(sequence[0])
    assert mates and all(to_board(b, sequence.piece_list).is_checkmate() for b in mates)


@pytest.mark.parametrize("material", ["KQvK", "KRvK", "KBNvK", "KPvK", "KRPvK"])
def test_ai_moves_into_the_next_lower_set_and_mates_in_n(material, sequence_of, gaviota):
    """Play from the deepest positions: Black defends with the longest Gaviota line, the AI must mate in exactly n."""
    sequence = sequence_of(material)
    deepest = max(n for n in sequence.board_counts if n % 2 == 1)
    start = to_board(next(iter(sequence[deepest])), sequence.piece_list)
    board, n = start.copy(), deepest
    while n > 0:
        n_next, move = find_next_move(board, n, sequence)
        assert n_next == n - 1 and move in board.legal_moves
        board.push(move)
        assert gaviota_n(gaviota, board) == n - 1
        n -= 1
        if n == 0:
            break
        replies = list(board.legal_moves)
        board.push(max(replies, key=lambda m: _after(board, m, gaviota)))
        n -= 1
        assert gaviota_n(gaviota, board) == n
    assert board.is_checkmate()
    assert len(board.move_stack) == deepest


def _after(board, move, gaviota):
    board.push(move)
    try:
        return gaviota_n(gaviota, board)
    finally:
        board.pop()


def test_no_move_from_positions_in_no_s_n(sequence_of):
    sequence = sequence_of("KQvK")
    drawn = chess.Board("8/8/8/8/8/8/1k6/KQ6 w - - 0 1")  # the black king takes the queen next
    drawn.turn = chess.BLACK
    assert sequence.find_board(drawn) == -1
    assert find_next_move(chess.Board("8/8/8/8/8/2k5/8/KQ6 b - - 0 1"), 5, sequence) == (-1, None)


def test_black_king_captures_lead_into_the_smaller_table(sequence_of, gaviota):
    """Positions where Black can take a piece: their n accounts for the game going on in the smaller table."""
    sequence = sequence_of("KQRvK")
    checked = 0
    for board in random_legal_boards(sequence.material, 6000, random.Random(11), turn=False):
        captures = [m for m in board.legal_moves if board.is_capture(m)]
        if not captures:
            continue
        assert sequence.find_board(board) == gaviota_n(gaviota, board), board.fen()
        checked += 1
    assert checked > 100


@pytest.mark.slow  # 40,000 random boards, each move probed in Gaviota
@pytest.mark.big
def test_under_promotion_is_chosen_where_only_it_wins_fastest(sequence_of, gaviota):
    """Find, with Gaviota alone, positions where every fastest mate starts with an under-promotion."""
    sequence = sequence_of("KPvK")
    found = 0
    for board in random_legal_boards(sequence.material, 40000, random.Random(5), turn=True):
        pawn = next(iter(board.pieces(chess.PAWN, chess.WHITE)))
        if chess.square_rank(pawn) != 6:
            continue
        n = gaviota_n(gaviota, board)
        if n < 0:
            continue
        best = [m for m in board.legal_moves if _after(board, m, gaviota) == n - 1]
        if best and all(m.promotion not in (None, chess.QUEEN) for m in best):
            assert sequence.find_board(board) == n
            n_next, move = find_next_move(board, n, sequence)
            assert (n_next, move) != (-1, None) and move in best, board.fen()
            found += 1
    assert found > 0, "no under-promotion position found in the sample"


def test_values_of_many_boards_equal_value_of_each(sequence_of, python_gaviota):
    """The batch lookup used by the one-ply check: every child of KPvKP positions (captures into KPvK
    and KvKP with the colours swapped, promotions, double steps that allow en passant) gets the value
    value() gives it, and that value is Gaviota's."""
    sequence = sequence_of("KPvKP")
    children = []
    for fen in ("8/8/8/8/1p6/8/P7/K1k5 w - - 0 1", "8/2p5/8/1P6/8/8/8/K1k5 b - - 0 1",
                "8/8/8/8/8/1k6/p6P/2K5 b - - 0 1", "k7/8/8/8/8/8/1p4P1/K7 w - - 0 1"):
        board = chess.Board(fen)
        for move in board.legal_moves:
            child = board.copy(stack=False)
            child.push(move)
            children.append(child)
    assert any(child.has_legal_en_passant() for child in children)
    assert sequence.values(children).tolist() == [sequence.value(child) for child in children]
    for child, value in zip(children, sequence.values(children).tolist()):
        dtm = python_gaviota.probe_dtm(child)
        assert (value < 0 and dtm == 0) or (value == abs(dtm) and (dtm > 0) == (value % 2 == 1)) \
            or (value == 0 and child.is_checkmate()), (child.fen(), value, dtm)
