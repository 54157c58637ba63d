"""The compiled kernels against python-chess: legality, moves and un-moves of single positions."""

import random

import chess
import numpy as np
import pytest

from Util.board.integer import board_squares
from Util.retrograde_kernels.board import KIND_OF_LETTER, PackedLayout, children, pack_small, parents
from Util.retrograde_kernels.legality import status
from Util.table.index_scheme import Layout
from Util.board.material import Material
from Util.board.random_boards import random_legal_boards

PAWNLESS_SYMMETRIES = (chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal)


def _plain(board: chess.Board) -> str:
    """The board's pieces and side to move, as they stand (no symmetry)."""
    return board.board_fen() + (" w" if board.turn else " b")


def _orbit(board: chess.Board) -> set:
    """The plain strings of every board that the tables treat as the same position (symmetry, piece order):
    with pawns the board and its mirror image, without them all eight of the square's symmetries.  Two
    boards are one position exactly when one's plain string is in the other's orbit: the checks below,
    repeated thousands of times, transform the one board they look for, not every board they compare."""
    has_pawns = bool(board.pawns)
    variants = [board.transform(lambda b: b)]
    for flip in (chess.flip_horizontal,) if has_pawns else PAWNLESS_SYMMETRIES:
        variants += [v.transform(flip) for v in variants]
    return {_plain(v) for v in variants}


def _key(board: chess.Board) -> str:
    """The same string for all boards that the tables treat as one position (symmetry, piece order)."""
    return min(_orbit(board))


def _board(layout: Layout, index: int, white_to_move: bool) -> chess.Board:
    squares = [int(s[0]) for s in layout.decode(np.array([index]))]
    board = chess.Board(None)
    for square, letter in zip(squares, layout.letters):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = white_to_move
    return board


def _index(layout: Layout, board: chess.Board) -> int:
    squares = board_squares(board, layout.material.piece_list)
    return int(layout.encode_canonical([np.array([s]) for s in squares])[0])


def _stays_in_table(board: chess.Board, move: chess.Move) -> bool:
    """Not a capture, not a promotion, not a double step beside an enemy pawn (those three are the
    engine's exits and en passant lists, not its ordinary moves)."""
    if board.is_capture(move) or move.promotion:
        return False
    if board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        enemy = board.pieces(chess.PAWN, not board.turn)
        beside = [s for s in (move.to_square - 1, move.to_square + 1) if 0 <= s < 64 and s >> 3 == move.to_square >> 3]
        if any(s in enemy for s in beside):
            return False
    return True


@pytest.mark.slow  # position by position against python-chess
@pytest.mark.big
@pytest.mark.parametrize("name", ["KQvK", "KBBvK", "KBNvK", "KQvKR", "KPvKP", "KRPvKR", "KBPvKN"])
def test_moves_and_unmoves_match_python_chess(name):
    material = Material.parse(name)
    layout, lay = Layout(material), PackedLayout.of(Layout(material))
    checked_parents = 0
    for white_to_move in (True, False):
        side = 0 if white_to_move else 1
        for board in random_legal_boards(material, 25, random.Random(hash(name) % 1000 + side),
                                         turn=white_to_move):
            index = _index(layout, board)
            ours = {_key(b) for b in (_board(layout, int(c), not white_to_move) for c in children(lay, side, index))
                    if b.is_valid()}
            moves = [m for m in board.legal_moves if _stays_in_table(board, m)]
            theirs, orbit = set(), _orbit(board)
            for move in moves:
                board.push(move)
                theirs.add(_key(board))
                # every such move is found backwards from the position after it
                before = {_plain(_board(layout, int(q), white_to_move))
                          for q in parents(lay, side, _index(layout, board))}
                board.pop()
                assert before & orbit, (board.fen(), move.uci())
                checked_parents += 1
            assert ours == theirs, board.fen()
    assert checked_parents > 40


@pytest.mark.slow  # position by position against python-chess
@pytest.mark.big
@pytest.mark.parametrize("name", ["KBNvK", "KQvKR", "KPvKP", "KRPvKR"])
def test_every_legal_parent_has_the_move_forwards(name):
    material = Material.parse(name)
    layout, lay = Layout(material), PackedLayout.of(Layout(material))
    for white_to_move in (True, False):
        side = 0 if white_to_move else 1
        # the positions after a move of ``side``: the other side to move
        for after in random_legal_boards(material, 12, random.Random(7 + side), turn=not white_to_move):
            orbit = _orbit(after)
            for q in parents(lay, side, _index(layout, after)):
                before = _board(layout, int(q), white_to_move)
                if not before.is_valid():
                    continue  # un-moves may lead to impossible positions; the engine's arrays mark them ILLEGAL
                found = set()
                for move in before.legal_moves:
                    if _stays_in_table(before, move):
                        before.push(move)
                        found.add(_plain(before))
                        before.pop()
                assert found & orbit, (before.fen(), after.fen())


@pytest.mark.parametrize("letters", ["KkQ", "KkPp", "KkQr", "KkRPr", "KkBNn", "KkQRb", "KkPPp"])
def test_compiled_legality_equals_python_chess_is_valid(letters):
    rng = random.Random(letters)
    kinds = pack_small([KIND_OF_LETTER[c] for c in letters])
    colours = pack_small([0 if c.isupper() else 1 for c in letters], bits=1)
    legal_seen = 0
    for _ in range(2000):
        squares = np.array(rng.sample(range(64), len(letters)), dtype=np.int64)
        board = chess.Board(None)
        for square, letter in zip(squares, letters):
            board.set_piece_at(int(square), chess.Piece.from_symbol(letter))
        white_ok, black_ok, white_check, black_check = status(kinds, colours, squares, len(letters))
        board.turn = chess.WHITE
        assert white_ok == board.is_valid(), board.fen()
        if white_ok:
            assert white_check == board.is_check(), board.fen()
        board.turn = chess.BLACK
        assert black_ok == board.is_valid(), board.fen()
        if black_ok:
            assert black_check == board.is_check(), board.fen()
        legal_seen += white_ok + black_ok
    assert legal_seen > 500


@pytest.mark.slow  # position by position against python-chess
@pytest.mark.big
@pytest.mark.parametrize("name", ["KQvK", "KPvK", "KQvKR", "KBvKP", "KPvKP", "KBNvK", "KRPvKR", "KQRvKB"])
def test_first_pass_legality_equals_status_position_by_position(name):
    """mark_legality (64 indices at a time, only the last piece looked at per index) marks ILLEGAL and sets
    the check bits exactly where status (checked against python-chess above) says so, at every index of
    a table; for five pieces, a slice across many values of every piece."""
    from Util.retrograde_kernels.legality import mark_legality

    layout = Layout(Material.parse(name))
    lay = PackedLayout.of(layout)
    size = min(layout.size, 1 << 21)
    start = 8 * ((layout.size - size) // 16)  # from the middle, a multiple of 8 as the kernel wants
    values = [np.full(size, 7, dtype=np.uint8) for _ in range(2)]  # 7: a value, left where legal
    checks = [np.zeros(-(-layout.size // 8), dtype=np.uint8) for _ in range(2)]
    whole = [np.zeros(layout.size, dtype=np.uint8) for _ in range(2)] if size < layout.size else values
    mark_legality(lay, start, start + size, *whole, *checks)
    index = np.arange(start, start + size)
    squares = np.stack(layout.decode(index), axis=1)
    expected = np.array([status(lay.kinds, lay.colours, row, lay.count) for row in squares])
    for side in (0, 1):
        legal = whole[side][start : start + size] != 254
        assert np.array_equal(legal, expected[:, side])
        bits = np.unpackbits(checks[side])[start : start + size].astype(bool)
        assert np.array_equal(bits, expected[:, side] & expected[:, 2 + side])
        assert (whole[side][start : start + size][legal] == (7 if size == layout.size else 0)).all()
    assert expected[:, 0].any() and not expected[:, 0].all() and expected[:, 3].any()


@pytest.mark.parametrize("name", ["KQvK", "KPvK", "KQvKR", "KRvKP", "KPvKP", "KBNvK", "KNvKP", "KPvKR", "KNvKB"])
def test_compiled_exit_bytes_equal_the_numpy_exits(name, store):
    """Every legal position's exit byte (best capture or promotion, looked up in the smaller table) from
    the compiled pass equals Util.rules.exits.ExitFinder's, for both sides to move: captures by either side,
    a king's captures, promotions with and without a capture, children stored with the colours swapped."""
    from Util.table.values import NO_EXIT, UNKNOWN
    from Util.rules.exits import ExitFinder, SubTables
    from Util.retrograde_kernels.exits import ExitPass
    from Util.retrograde_kernels.legality import mark_legality
    from Util.retrograde_kernels.board import PackedLayout

    material = Material.parse(name)
    layout = Layout(material)
    subtables = SubTables(dict(store.subtables_of(material)))
    finder = ExitFinder(layout, subtables)
    legal = [np.full(layout.size, UNKNOWN, dtype=np.uint8) for _ in range(2)]  # classify marks the ILLEGAL ones
    none = np.empty(0, dtype=np.uint8)
    mark_legality(PackedLayout.of(layout), 0, layout.size, *legal, none, none)
    found_exits = False
    for side in (0, 1):
        if not finder.has_exits(side):
            continue
        compiled = np.empty(layout.size, dtype=np.uint8)
        counts = ExitPass(layout, side, subtables)(0, layout.size, legal[side], compiled)
        rows = np.flatnonzero(legal[side] != 254)
        expected = finder.values(side, layout.decode(rows))
        assert np.array_equal(compiled[rows], expected)
        assert (compiled[legal[side] == 254] == NO_EXIT).all()
        assert np.array_equal(counts, np.bincount(expected, minlength=256))
        found_exits |= bool((expected != NO_EXIT).any())
    assert found_exits


def _engine_before_ply_one(name: str, store):
    """The working table of ``name`` (one thread) after the first pass and the mates, Black's counters set."""
    from Util.retrograde.compute import start_calculation
    from Util.runtime.parallel import Threads

    material = Material.parse(name)
    calculation = start_calculation(material, store.subtables_of(material), Threads(1))
    calculation.first_pass.run()
    for side in (0, 1):
        calculation.plies.mates(side)
    calculation.counters.set_first_counters()
    return calculation.table


def _counted_and_never(engine, values: np.ndarray) -> tuple:
    """The indices holding a counter in ``values``, and those holding NEVER (both plenty)."""
    from Util.table.values import ILLEGAL

    floor = engine.packed.floor
    counted = np.flatnonzero((values > floor) & (values < ILLEGAL))
    never = np.flatnonzero(values == floor)
    assert counted.size > 1000 and never.size > 100
    return counted, never


@pytest.mark.parametrize("name", ["KQvK", "KBBvK", "KBNvK"])
def test_the_counters_pass_finds_blacks_mates_where_white_never_loses(name, store):
    """With a lone black king, Black's mates come out of the counters' pass (Plies.first_ply, on two
    threads): every entry python-chess calls checkmate gets 0 (the diagonal twins of KQvK, the swapped
    bishops of KBBvK included), and the arrays are those of the mates kernel followed by the pass."""
    from Util.retrograde.compute import start_calculation
    from Util.runtime.parallel import Threads

    material = Material.parse(name)
    calculation = start_calculation(material, store.subtables_of(material), Threads(2))
    calculation.first_pass.run()
    white_mates, black_mates = calculation.plies.first_ply()
    fused = calculation.table
    apart = _engine_before_ply_one(name, store)
    assert white_mates.size == 0
    assert np.array_equal(fused.dtm[0], apart.dtm[0]) and np.array_equal(fused.dtm[1], apart.dtm[1])
    zero = np.flatnonzero(fused.dtm[1] == 0)
    assert np.array_equal(np.unique(black_mates), zero) and zero.size > 0
    layout = fused.layout
    for index in np.random.default_rng(5).choice(zero, min(zero.size, 300), replace=False):
        assert _board(layout, int(index), white_to_move=False).is_checkmate()
    in_check = np.flatnonzero(np.unpackbits(fused.in_check[1])[: layout.size] & (fused.dtm[1] != 0) & (fused.dtm[1] < 254))
    for index in np.random.default_rng(6).choice(in_check, 300, replace=False):
        board = _board(layout, int(index), white_to_move=False)
        assert board.is_check() and not board.is_checkmate(), board.fen()


@pytest.mark.parametrize("name", ["KQvKR", "KRvKP", "KPvKP", "KBNvK", "KRPvK", "KBBvK"])
def test_first_counters_count_the_legal_moves(name, store):
    """Before ply 1 every undecided position with Black to move gets its counter in one pass: 1 + its legal
    moves that stay in the table (python-chess's legal moves less captures, promotions and double steps
    beside an enemy pawn), or NEVER (the byte below the lowest counter) where a capture or promotion
    draws or wins for Black."""
    from Util.table.values import ILLEGAL

    engine = _engine_before_ply_one(name, store)
    values = engine.dtm[1]
    counted, never = _counted_and_never(engine, values)
    rng = np.random.default_rng(7)
    for index in rng.choice(counted, 300, replace=False):
        board = _board(engine.layout, int(index), white_to_move=False)
        staying = [move for move in board.legal_moves if _stays_in_table(board, move)]
        assert ILLEGAL - int(values[index]) == 1 + len(staying), board.fen()
    exit_value = engine.exit_value[1]
    assert (exit_value[never] % 2 == 1).all() and (exit_value[counted] % 2 == 0).all()


@pytest.mark.parametrize("name", ["KQvKR", "KRvKP", "KPvKP", "KNvKB", "KBvKN"])
def test_white_counters_count_the_legal_moves(name, store):
    """White's counters, set in one pass (kernels.set_white_counters): 1 + its legal moves that stay in the
    table, where a king's move that folds it onto the a1-h8 diagonal of a pawnless table counts twice
    (both diagonal twins of the position after it lead back by a king's un-move), or NEVER where a
    capture or promotion draws or wins for White."""
    from Util.table.values import ILLEGAL
    from Util.retrograde_kernels.counters import set_white_counters
    from Util.board.symmetry import TRANSFORMS

    engine = _engine_before_ply_one(name, store)
    material, values = engine.material, engine.dtm[0]
    set_white_counters(engine.packed, 2, 0, values.size, values, engine.dtm[1], engine.exit_value[0])
    counted, never = _counted_and_never(engine, values)
    layout, doubled = engine.layout, 0
    rng = np.random.default_rng(11)
    for index in rng.choice(counted, 400, replace=False):
        board = _board(layout, int(index), white_to_move=True)
        weight = 0
        for move in board.legal_moves:
            if not _stays_in_table(board, move):
                continue
            folded = int(TRANSFORMS[layout.fold[move.to_square], move.to_square])
            twice = move.from_square == board.king(chess.WHITE) and not material.has_pawns and folded % 9 == 0
            weight += 2 if twice else 1
            doubled += twice
        assert ILLEGAL - int(values[index]) == 1 + weight, board.fen()
    exit_value = engine.exit_value[0]
    assert (exit_value[never] % 2 == 1).all() and (exit_value[counted] % 2 == 0).all()
    assert doubled > 0 or material.has_pawns
    # a counter set when a ply first reaches the position (after a resume) comes out the same
    from Util.table.values import UNKNOWN
    from Util.retrograde_kernels.blocks import scratch_buffers
    from Util.retrograde_kernels.counters import set_counters

    sample = np.concatenate([rng.choice(counted, 40, replace=False), rng.choice(never, 20, replace=False)])
    buffers = scratch_buffers()
    cand, fetched = buffers[2], buffers[6]
    cand[: sample.size], fetched[: sample.size] = sample, UNKNOWN
    by_pass = values[sample].copy()
    values[sample] = UNKNOWN
    set_counters(engine.packed, 0, 2, cand, sample.size, fetched, values, engine.dtm[1], exit_value, buffers)
    assert np.array_equal(values[sample], by_pass)


@pytest.mark.parametrize("name", ["KBBvK", "KBBNvK", "KPPvKP", "KNNNvK"])
def test_the_entries_of_one_position_with_identical_pieces(name):
    """A position with two (three) identical pieces has two (six) entries: python-chess sees one board in
    all of them, exactly one has the identical pieces on ascending squares (the one the plies un-move
    from), and every entry leads to that one."""
    from itertools import permutations

    from Util.retrograde_kernels.entries import is_sorted_entry, other_entry, other_entry_count, sorted_entry

    layout = Layout(Material.parse(name))
    lay = PackedLayout.of(layout)
    group = layout.identical_groups[0]
    checked = 0
    for index in _random_positions(layout, 200):
        squares = [int(s[0]) for s in layout.decode(np.array([index]))]
        board = _key(_board(layout, index, True))
        entries = {index} | {int(other_entry(lay, index, k)) for k in range(other_entry_count(lay))}
        assert len(entries) == len(list(permutations(group)))
        assert {_key(_board(layout, e, True)) for e in entries} == {board}
        in_order = [e for e in entries if is_sorted_entry(lay, e)]
        assert len(in_order) == 1
        sorted_squares = [int(s[0]) for s in layout.decode(np.array(in_order))]
        assert [sorted_squares[i] for i in group] == sorted(squares[i] for i in group)
        assert {int(sorted_entry(lay, e)) for e in entries} == set(in_order)
        checked += 1
    assert checked == 200


@pytest.mark.parametrize("name", ["KBNvK", "KBBvK", "KQvKR", "KRBBvK"])
def test_a_king_on_the_diagonal_gives_a_mirror_entry(name):
    """Without pawns, a white king on the a1-h8 diagonal gives each position a mirror entry (and its
    identical pieces swapped): python-chess sees one board in all of them, and every one of them names
    the lowest as the first entry, the one the plies take for all."""
    from Util.retrograde_kernels.entries import first_entry, has_mirror, mirror_entry, other_entry, other_entry_count

    layout = Layout(Material.parse(name))
    lay = PackedLayout.of(layout)
    on_diagonal = 0
    for index in _random_positions(layout, 400):
        king = int(layout.decode(np.array([index]))[0][0])
        assert bool(has_mirror(lay, index)) == (king % 9 == 0)  # a1, b2, c3, d4
        mirrors = {index, int(mirror_entry(lay, index))} if has_mirror(lay, index) else {index}
        entries = mirrors | {int(other_entry(lay, e, k)) for e in mirrors for k in range(other_entry_count(lay))}
        assert len({_key(_board(layout, e, True)) for e in entries}) == 1
        assert {int(first_entry(lay, e)) for e in entries} == {min(entries)}
        on_diagonal += len(mirrors) == 2
    assert on_diagonal > 50


def _random_positions(layout: Layout, count: int) -> list:
    """``count`` random indices of ``layout`` with no two pieces on one square."""
    rng = np.random.default_rng(layout.size % 1000)
    found = []
    while len(found) < count:
        index = int(rng.integers(layout.size))
        squares = [int(s[0]) for s in layout.decode(np.array([index]))]
        if len(set(squares)) == len(squares):
            found.append(index)
    return found


def test_a_table_without_identical_pieces_has_one_entry_per_position():
    from Util.retrograde_kernels.entries import first_entry, is_sorted_entry, other_entry_count, sorted_entry

    lay = PackedLayout.of(Layout(Material.parse("KRBNvK")))
    assert other_entry_count(lay) == 0
    assert all(is_sorted_entry(lay, i) and sorted_entry(lay, i) == i for i in (0, 12345, 987654321))
    pawns = PackedLayout.of(Layout(Material.parse("KRPvKR")))
    assert all(first_entry(pawns, i) == i for i in (0, 12345, 987654321))


@pytest.mark.parametrize("size, period", [(0, 1), (7, 1), (1 << 16, 1), (4099, 64), (1 << 15, 4096)])
def test_weighed_byte_counts_are_numpys_weighed_bincount(size, period):
    from Util.retrograde_kernels.sorting import weighed_byte_counts

    rng = np.random.default_rng(size + period)
    values = np.where(rng.random(size) < 0.5, 255, rng.integers(0, 40, size)).astype(np.uint8)
    weights = rng.integers(0, 9, period).astype(np.int64)
    expected = np.bincount(values, weights=np.resize(weights, size), minlength=256).round().astype(np.int64)
    assert np.array_equal(weighed_byte_counts(values, weights), expected)
