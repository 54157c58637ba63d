"""Endgames with pieces on both sides: names, both winners, colour-swapped look-ups, en passant.

The both-sided four-piece tables are sampled against Gaviota and Syzygy in
test_against_references (DEFAULT_MATERIALS holds all 35 tables); here the
parts that only both-sided tables have are checked against python-chess's
own Gaviota prober, which resolves en passant itself.
"""


import chess
import pytest

from Util.calculation.store import TableStore, all_materials, calculation_order
from Util.board.material import Material, MaterialError
from Util.tests.boards import en_passant_boards, random_boards


@pytest.mark.parametrize("name, canonical", [
    ("KQvK", "KQvK"), ("KvKQ", "KQvK"), ("KRvKQ", "KQvKR"), ("KQvKR", "KQvKR"), ("KPvKNN", "KNNvKP"),
    ("KNvKBN", "KBNvKN"), ("KPvKP", "KPvKP"), ("kbvkr", "KRvKB"),
])
def test_a_material_and_its_colour_swap_share_one_table(name, canonical):
    assert Material.parse(name).canonical.name == canonical


def test_more_than_six_pieces_is_refused_with_the_count():
    Material.parse("KQRvKRR")  # six pieces: the compact engine's
    with pytest.raises(MaterialError, match="5 pieces besides the kings"):
        Material.parse("KQRvKRRN")


def test_there_are_145_tables_up_to_five_pieces():
    """Gaviota and Syzygy have 5 three-piece, 30 four-piece and 110 five-piece tables."""
    assert [len(all_materials(k)) for k in (3, 4, 5)] == [5, 35, 145]
    assert all(m.is_canonical for m in all_materials(5))


def test_calculation_order_puts_every_table_after_those_it_needs():
    order = calculation_order(["KRvKQ", "KPvKP"])
    assert order.index(Material.parse("KQvK")) < order.index(Material.parse("KQvKR"))
    for position, material in enumerate(order):
        assert all(order.index(d) < position for d in material.dependencies() if d.piece_count > 2)


@pytest.mark.parametrize("material", ["KvKQ", "KRvKQ", pytest.param("KPvKR", marks=[pytest.mark.slow, pytest.mark.big]), "KNvKP"])
def test_boards_with_the_colours_swapped_get_gaviotas_signed_dtm(material, sequence_of, python_gaviota):
    """A KRvKQ board is looked up in KQvKR's table turned round; the answer must be python-chess's."""
    sequence = sequence_of(Material.parse(material).canonical.name)
    boards = random_boards(material, 150, seed=len(material))
    wrong = [(b.fen(), sequence.dtm(b), python_gaviota.probe_dtm(b)) for b in boards
             if sequence.dtm(b) != python_gaviota.probe_dtm(b)]
    assert wrong == []


def test_the_sets_in_which_black_mates(sequence_of, python_gaviota):
    """In KQvKR Black mates too (a rook against a badly placed king): ``sequence.black[n]`` holds those
    boards, Black to move for odd n, White to move (and mated) for even n, as Gaviota says."""
    from Util.board.integer import to_board

    sequence = sequence_of("KQvKR").black
    assert sequence.winner == chess.BLACK and len(sequence) > 4
    for n in (0, 1, 2, 3, 13):
        boards = [to_board(x, sequence.piece_list) for x in list(iter(sequence[n]))[:: max(1, len(sequence[n]) // 20)]]
        assert boards, n
        for board in boards:
            assert board.turn == (chess.BLACK if n % 2 else chess.WHITE)
            assert python_gaviota.probe_dtm(board) == (n if n % 2 else -n), board.fen()
            assert sequence.find_board(board) == n and sequence.white.find_board(board) == -1


@pytest.mark.slow  # python-chess's Gaviota prober on many boards
@pytest.mark.big
def test_en_passant_positions_get_gaviotas_value(sequence_of, python_gaviota):
    """Including positions where taking en passant is the only thing that saves the game."""
    sequence = sequence_of("KPvKP")
    saved = 0
    for board in en_passant_boards(300, seed=5):
        assert sequence.dtm(board) == python_gaviota.probe_dtm(board), board.fen()
        without = board.copy()
        without.ep_square = None
        if sequence.dtm(without) < 0 <= sequence.dtm(board):
            saved += 1
            assert python_gaviota.probe_dtm(without) < 0
    assert saved >= 5  # the sample holds positions that only en passant saves


def test_a_double_step_is_judged_with_the_reply_en_passant(sequence_of, python_gaviota):
    """White to move before a double step beside a black pawn: its value (from the table) is Gaviota's,
    which counts Black's reply en passant."""
    sequence = sequence_of("KPvKP")
    checked = 0
    for board in en_passant_boards(200, seed=9):
        parent = board.copy()
        pushed = chess.square(chess.square_file(board.ep_square), 3 if board.turn == chess.BLACK else 4)
        start = pushed - 16 if board.turn == chess.BLACK else pushed + 16
        parent.remove_piece_at(pushed)
        parent.set_piece_at(start, chess.Piece(chess.PAWN, not board.turn))
        parent.turn, parent.ep_square = not board.turn, None
        if parent.is_valid():
            assert sequence.dtm(parent) == python_gaviota.probe_dtm(parent), parent.fen()
            checked += 1
    assert checked > 100


def test_one_ply_check_passes_on_tables_and_catches_a_shifted_value(store, tmp_path):
    """The check used for the five-piece tables with pieces on both sides: on KPvKP (en passant, both
    winners) it finds nothing, and on a copy with one set's n changed it finds those positions."""

    from Util.table.dtm_table import DtmTable
    from Util.sequence import SnSequence
    from Util.validation.one_ply import one_ply_check

    table = store.get("KPvKP")
    result = one_ply_check(SnSequence(table, {}, store=store), per_value=12)
    assert result.checked > 1000 and result.mismatches == []
    broken = table.dtm_black.copy()
    broken[broken == 12] = 14  # Black to move, mated in 12, filed as mated in 14
    own = TableStore(tmp_path, progress=False)  # the broken table must not replace the session's KPvKP
    for material in table.material.dependencies():
        own.add(store.get(material))
    # 40 of the boards now filed under 14: each is one of the 10137 changed ones with odds 0.35, so all
    # 40 miss them with odds 1e-8
    changed = one_ply_check(SnSequence(DtmTable(table.material, table.dtm_white, broken), {}, store=own),
                            per_value=40)
    assert any(n == 14 for _, n, _ in changed.mismatches)


def test_the_one_ply_sample_holds_every_value_in_its_quota(store):
    """Two passes instead of one per value: every value of KQvKR's arrays is sampled, each index holds
    its value, none twice, and a value with fewer boards than the quota is taken whole."""
    import numpy as np

    from Util.table.values import UNKNOWN
    from Util.validation.one_ply import samples_by_value

    table = store.get("KQvKR")
    rare = 0
    for side, array in enumerate((table.dtm_white, table.dtm_black)):
        counts = np.bincount(array, minlength=256)
        samples = samples_by_value(array, 5, np.random.default_rng(side), table.layout, side)
        assert sorted(samples) == [int(v) for v in np.flatnonzero(counts)]
        for value, index in samples.items():
            assert np.unique(index).size == index.size and (array[index] == value).all()
            if value != UNKNOWN:
                assert index.size == min(5, counts[value]), (side, value)
        rare += sum(0 < counts[v] < 5 for v in samples)
    assert rare == 2  # two values of White to move have 4 boards each: taken whole


def test_gaviota_checks_of_notebook_06_cover_both_winners(sequence_of):
    """compare_with_gaviota looks at the sets of both winners of KQvKR, matchrate at boards won by either
    side; both must agree with Gaviota."""
    from Util.validation.gaviota_checks import compare_with_gaviota
    from Util.validation.matchrate import matchrate
    from Util.validation.references import reference_folder

    folder = reference_folder("gaviota")
    if not (folder / "kqkr.gtb.cp4").exists():
        pytest.skip(f"Gaviota reference unavailable: no kqkr.gtb.cp4 in {folder} (set GAVIOTA_PATH)")
    sequence = sequence_of("KQvKR")
    versus = compare_with_gaviota(sequence, folder, sample=40, progress=False, workers=1)
    black_n = set(sequence.black.board_counts)
    assert versus.ok and set(versus.checked) == set(sequence.board_counts) | black_n
    rate = matchrate(sequence, folder, sample=4000, progress=False, workers=1)
    assert rate.rate == 100.0 and rate.ours_but_not_gaviota == 0 and rate.gaviota_won > 3000
