"""The engine's answer does not depend on how many threads share a ply."""

import numpy as np
import pytest

from Util.table.values import UNKNOWN
from Util.retrograde import EnginePolicy, compute_table
from Util.board.material import Material


def test_one_thread_and_three_threads_give_the_same_table(store):
    """KRPvK has every kind of move: captures into KRvK and KPvK, promotions into four tables, double
    pushes."""
    material = Material.parse("KRPvK")
    subtables = {m: store.get(m) for m in material.dependencies()}
    single = compute_table(material, subtables, threads=1)
    several = compute_table(material, subtables, threads=3)
    assert np.array_equal(single.dtm_white, several.dtm_white)
    assert np.array_equal(single.dtm_black, several.dtm_black)
    assert single.max_n > 20  # a real table, not two empty ones


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KQvK", "KPvK", "KQvKR", "KPvKP"])
def test_white_plies_found_forwards_equal_those_found_backwards(material, store):
    """The engine finds a ply of wins backwards from the other side's losses or, when that is less work,
    forwards from the undecided positions.  Forced to go forwards every ply, it must give the table
    checked against Gaviota and Syzygy in test_against_references.  The forward kernels (pull_wins,
    pull_losses) differ only by the layout (pawnless with twin entries, or pawns with en passant) and by who
    wins: both sides win in KQvKR and KPvKP, one of each layout; KQvK and KPvK add the three-piece layouts.
    Going forwards every ply costs a scan of every undecided position per ply, so the larger one-sided
    tables (KBNvK, KRPvK) would run the same kernels on the same kinds of layout at many times the cost."""
    reference = store.get(material)
    subtables = {m: store.get(m) for m in Material.parse(material).dependencies()}
    forwards = compute_table(Material.parse(material), subtables, policy=EnginePolicy(always_pull=True))
    assert np.array_equal(forwards.dtm_white, reference.dtm_white)
    assert np.array_equal(forwards.dtm_black, reference.dtm_black)


def test_sub_tables_loaded_from_files_give_the_same_table(store, tmp_path):
    """A calculation reads only one side of each sub-table from its file (White to move after a capture,
    Black after a promotion); the result must equal the table computed with whole sub-tables."""
    from Util.calculation.store import TableStore
    from Util.files.chessai import save_table
    from Util.calculation.boards import board_counts

    material = Material.parse("KRPvK")
    for dependency in material.dependencies():
        table = store.get(dependency)
        save_table(table, tmp_path / f"{dependency.name}.chessAI", board_counts(table))
    from_files = TableStore(tmp_path, progress=False).compute(material)
    reference = store.get(material)
    assert np.array_equal(from_files.dtm_white, reference.dtm_white)
    assert np.array_equal(from_files.dtm_black, reference.dtm_black)


def test_a_saving_store_writes_each_table_it_computes_and_times_it(store, tmp_path):
    """Notebook 02's store (save=True) writes every table it computes, the tables KPvK's promotions and
    captures lead into too, so that the chapters after it load them; a store opened on the folder later
    computes nothing."""
    from Util.calculation.store import TableStore
    from Util.files.chessai import load_table

    saving = TableStore(tmp_path, progress=False, save=True)
    saving.get("KPvK")
    names = ["KBvK", "KNvK", "KPvK", "KQvK", "KRvK"]
    assert sorted(p.stem for p in tmp_path.glob("*.chessAI")) == names  # two bare kings need no file
    for name in names:
        table, _ = load_table(tmp_path / f"{name}.chessAI")
        assert np.array_equal(table.dtm_white, store.get(name).dtm_white), name
        assert saving.seconds[Material.parse(name)] > 0, name
    later = TableStore(tmp_path, progress=False, save=True)
    later.get("KPvK")
    assert later.seconds == {}


@pytest.mark.parametrize("material", ["KQPvK", "KRvKP", "KRPvK", "KPvKP"])
def test_the_first_pass_side_by_side_gives_the_same_table_and_lets_go_early(material, store, monkeypatch):
    """Five-piece tables go through the first pass one side at a time, dropping the sub-tables only one
    side's moves lead into (a White pawn's promotion tables) before the other side's exit bytes are
    written; where both sides have pawns (KPvKP), each side's en passant captures are valued in its own
    half. Forced onto four-piece tables here, it must give the very same arrays."""
    from Util.retrograde import first_pass

    expected = store.get(material)
    subtables = store.subtables_of(Material.parse(material))  # each with only the sides the engine reads
    dropped = []
    release = first_pass.FirstPass.release_subtables_only_read_by

    def spy(first, side, keep=None):  # watches what goes, changes nothing
        before = set(first.exits.subtables.tables)
        release(first, side, keep)
        dropped.append((side, sorted(m.name for m in before - set(first.exits.subtables.tables))))

    monkeypatch.setattr(first_pass.FirstPass, "release_subtables_only_read_by", spy)
    table = compute_table(Material.parse(material), dict(subtables), release_subtables=True,
                          policy=EnginePolicy(side_by_side_from=0))
    assert np.array_equal(table.dtm_white, expected.dtm_white)
    assert np.array_equal(table.dtm_black, expected.dtm_black)
    moves_out = Material.parse(material).moves_out()
    by_white = {child.canonical.name for child, white_moved in moves_out if white_moved}
    by_black = {child.canonical.name for child, white_moved in moves_out if not white_moved}
    # after each side's exits, what only its moves reach (but the table of its en passant captures, if any)
    en_passant = ({Material.parse(material).without("P", white).canonical.name for white in (False, True)}
                  if material == "KPvKP" else set())
    # the side whose moves alone reach the larger tables goes first (KRvKP: Black's promotions)
    alone = {0: by_white - by_black, 1: by_black - by_white}
    size = {side: sum(first_pass.table_bytes(subtables[Material.parse(m)]) for m in alone[side]) for side in alone}
    order = sorted(alone, key=lambda side: -size[side])
    assert order == ([1, 0] if material == "KRvKP" else [0, 1])
    assert dropped == [(side, sorted(alone[side] - en_passant)) for side in order]
    promotions = {m for m in by_white - by_black if len(m) == len(material)}  # as many pieces: promotions
    white, black = material.split("v")
    # a White pawn's promotion tables go, unless a Black pawn's promotions lead into them too (KPvKP: KQvKP)
    assert bool(promotions) == ("P" in white and "P" not in black)


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KQvKR", "KRvKP", "KPvKP", "KQvKQ", "KBNvK"])
def test_counting_black_losses_gives_the_same_table_as_checking_forward(material, store, monkeypatch):
    """Black's loss plies count each candidate's moves down (kernels.counters.count_losses), the counters kept in
    Black's own DTM bytes just below ILLEGAL.  Checking every candidate forward instead must give the same
    arrays, and so must counting that stops half way, where the values would reach the counters' bytes
    (as in KPPvKP, 254 plies deep): pawnless tables with diagonal twins, pawns, en passant (KPvKP)."""
    from Util.table.values import ILLEGAL
    from Util.retrograde_kernels import counters

    calls = []
    count_losses = counters.count_losses

    def spy(*args):
        calls.append((args[0].floor, args[2]))  # the layout's counter floor, n
        return count_losses(*args)

    monkeypatch.setattr(counters, "count_losses", spy)  # watches the calls
    subtables = dict(store.subtables_of(Material.parse(material)))
    counted = compute_table(Material.parse(material), subtables)
    assert calls, "Black's loss plies did not count"
    assert all(floor < ILLEGAL for floor, _ in calls)

    calls.clear()
    checked = compute_table(Material.parse(material), subtables, policy=EnginePolicy(loss_counters=False))
    assert not calls
    assert np.array_equal(checked.dtm_white, counted.dtm_white)
    assert np.array_equal(checked.dtm_black, counted.dtm_black)

    stop = counted.max_n // 2  # counters in bytes from here up: they must give way before ply stop - 1
    stopped = compute_table(Material.parse(material), subtables, policy=EnginePolicy(counter_floor=stop))
    assert calls and max(n for _, n in calls) < stop - 1 < counted.max_n
    assert np.array_equal(stopped.dtm_white, counted.dtm_white)
    assert np.array_equal(stopped.dtm_black, counted.dtm_black)


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KBNvK", "KQvKR", "KPvKP"])
def test_large_frontiers_are_read_from_the_values_and_give_the_same_table(material, store, monkeypatch):
    """A ply's new positions are listed only when few; many (a five-piece table's biggest S_n) stay in the
    DTM array, and the next ply's jobs find them a span at a time.  Forced on every ply of a small table,
    resumed from a checkpoint too, that must give the very same arrays."""
    from Util.retrograde import counting, jobs, plies
    from Util.retrograde.frontiers import FrontierScan

    material = Material.parse(material)
    subtables = dict(store.subtables_of(material))
    saved = {}  # the checkpoints of the listed run, to resume from below: one calculation gives both
    listed = compute_table(material, subtables, checkpoint=lambda n, w, b: saved.setdefault(n, (w.copy(), b.copy())))
    scans = []
    collect = jobs.collect

    def spy(table, phases, values, n, **options):  # watches what the jobs hand on
        found = collect(table, phases, values, n, **options)
        scans.append((isinstance(found, FrontierScan), found.size))
        return found

    for module in (jobs, plies, counting):
        monkeypatch.setattr(module, "collect", spy)
    scanned = compute_table(material, subtables, policy=EnginePolicy(list_limit=0))
    assert scans and all(is_scan for is_scan, size in scans if size)  # an empty ply stays an empty list
    assert np.array_equal(scanned.dtm_white, listed.dtm_white)
    assert np.array_equal(scanned.dtm_black, listed.dtm_black)
    n_done = listed.max_n // 2
    white, black = (np.where(a > n_done, UNKNOWN, a).astype(np.uint8) for a in saved[n_done])
    resumed = compute_table(material, subtables, resume=(n_done, white, black))
    assert np.array_equal(resumed.dtm_white, listed.dtm_white)
    assert np.array_equal(resumed.dtm_black, listed.dtm_black)


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KQvK", "KQvKR", "KPvKP"])
def test_the_deepest_ply_is_done_apart_and_a_deeper_mate_is_refused(material, store, monkeypatch):
    """Ply 254 (KPPvKP needs it) has the engine's ILLEGAL as its n, so it runs apart (Plies.deepest_ply):
    its positions are hidden from the other side's check and written after publishing.  Made the deepest
    ply of a small table (its own last ply, an even one: Black mated), that path must give the same table;
    made the even ply before, there are mates longer than it, which must be refused."""
    from Util.retrograde.plies import Plies

    material = Material.parse(material)
    subtables = {m: store.get(m) for m in material.dependencies()}
    expected = store.get(material)  # the session's table, computed once (and checked against the references)
    deepest = expected.max_n
    assert deepest % 2 == 0 and (expected.dtm_black == deepest).any()
    calls = []
    deepest_ply = Plies.deepest_ply
    monkeypatch.setattr(Plies, "deepest_ply", lambda *args: calls.append(1) or deepest_ply(*args))  # watches
    table = compute_table(material, dict(subtables), policy=EnginePolicy(deepest_ply=deepest))
    assert calls == [1]
    assert np.array_equal(table.dtm_white, expected.dtm_white)
    assert np.array_equal(table.dtm_black, expected.dtm_black)
    with pytest.raises(RuntimeError, match=f"mates longer than {deepest - 2} plies"):
        compute_table(material, dict(subtables), policy=EnginePolicy(deepest_ply=deepest - 2))


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KQvKR", "KPvKP"])
def test_resuming_in_a_checkpoints_arrays_gives_the_same_table(material, store):
    """A resumed calculation continues in the checkpoint's own arrays (no copy beside them).  Stopped
    after ply 7 of a table where both sides mate (and, in KPvKP, en passant is possible), with the
    arrays as a file stores them (UNKNOWN for illegal and undecided, repeats blanked and restored), it
    must end with the uninterrupted table."""
    from Util.table.values import ILLEGAL, UNKNOWN
    from Util.table.index_scheme import Layout

    material = Material.parse(material)
    layout = Layout(material)
    subtables = {m: store.get(m) for m in material.dependencies()}
    saved = {}

    def checkpoint(n, dtm_white, dtm_black):
        if n == 7:
            for key, values in (("white", dtm_white), ("black", dtm_black)):
                stored = layout.blank_duplicates(values, UNKNOWN)
                stored[stored == ILLEGAL] = UNKNOWN
                layout.restore_duplicates(stored)
                saved[key] = stored

    expected = compute_table(material, subtables, checkpoint=checkpoint)
    assert (saved["white"] < 7).any() and (saved["black"] < 7).any()
    resumed = compute_table(material, subtables, resume=(7, saved["white"], saved["black"]))
    assert resumed.dtm_white is saved["white"]  # continued in place
    assert np.array_equal(resumed.dtm_white, expected.dtm_white)
    assert np.array_equal(resumed.dtm_black, expected.dtm_black)


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("material", ["KPvKP", "KPPvK"])
def test_promotion_tables_kept_in_part_give_the_same_table(material, store):
    """Of a table with pawns that only promotions lead into, the calculation keeps the eighth its
    promotions read (the new piece on the promotion rank, one side to move).  Every entry of that part
    must be the whole table's, and the table computed from the parts must equal the one computed from
    whole sub-tables (KPvKP: promotions of both colours into the same table KQvKP)."""
    from Util.rules.exits import PromotionSlice, promotion_slices

    material = Material.parse(material)
    parts = store.subtables_of(material)
    kept = {m: part for m, part in parts.items() if isinstance(part, PromotionSlice)}
    assert set(kept) == set(promotion_slices(material)) and kept
    for m, part in kept.items():
        whole = store.get(m)
        side = whole.dtm_white if part.white_to_move else whole.dtm_black
        full = np.arange(side.size, dtype=np.int64)
        on_rank = full[((full >> part.shift) & 63) >> 3 == part.rank]
        assert part.values.size * 8 == side.size == on_rank.size * 8
        assert np.array_equal(part.values[part.index(on_rank)], side[on_rank])
        off_rank = [s[:1] for s in whole.layout.decode(full[((full >> part.shift) & 63) >> 3 != part.rank])]
        with pytest.raises(ValueError, match="outside the part"):
            part.dtm(off_rank, part.white_to_move)
    whole_subtables = {m: store.get(m) for m in material.dependencies()}
    expected = compute_table(material, whole_subtables)
    from_parts = store.get(material)  # the store computes each table from these parts (subtables_of)
    assert np.array_equal(from_parts.dtm_white, expected.dtm_white)
    assert np.array_equal(from_parts.dtm_black, expected.dtm_black)


@pytest.mark.parametrize("side", [0, 1])
def test_counting_jobs_take_whole_owner_groups(side, store):
    """The counters are counted down without atomic steps, so no two jobs of a ply may reach one
    predecessor: each job takes the frontier positions of whole owner groups (white-king slots for
    Black's un-moves, black-king squares up to symmetry for White's), listed or left in the values, no
    group is split between two jobs, and together the jobs take every position."""
    from Util.runtime.parallel import Threads
    from Util.retrograde.frontiers import FrontierScan
    from Util.retrograde.jobs import owner_jobs, owner_keys
    from Util.retrograde.policy import EnginePolicy
    from Util.retrograde.state import WorkingTable

    material = Material.parse("KQvKR")
    engine = WorkingTable(material, Threads(2), EnginePolicy())
    rng = np.random.default_rng(3)
    listed = np.unique(rng.integers(0, engine.layout.size, 50_000)).astype(np.int32)
    values = np.zeros(engine.layout.size, dtype=np.uint8)
    values[listed] = 9
    for frontier in (listed, FrontierScan(values, 9, listed.size)):
        taken = []

        def kernel(positions, found):
            taken[-1].append(positions)
            return 0

        for job in owner_jobs(engine, side, kernel, frontier, ()):
            taken.append([])
            job(np.empty(16, np.int32))
        per_job = [np.concatenate(parts) for parts in taken if parts]
        job_of_group = {}
        for job, positions in enumerate(per_job):
            for group in np.unique(owner_keys(engine.layout, side, positions)):
                assert job_of_group.setdefault(int(group), job) == job, "a group split between two jobs"
        assert len(job_of_group) == (len(engine.layout.king_squares) if side else 10) and len(per_job) > 1
        assert np.array_equal(np.sort(np.concatenate(per_job)), listed)


@pytest.mark.parametrize("name", ["KQvKR", "KRPvKN"])
def test_every_move_stays_in_its_owner_group(name):
    """What makes the owner groups safe, checked with python-chess's moves: all positions that one move of
    a side leads to (folded by symmetry as the table stores them) are in one owner group for that side,
    so an un-move from a position of one group never reaches a predecessor that one of another group
    reaches."""
    import random

    import chess

    from Util.board.integer import board_squares
    from Util.table.index_scheme import Layout
    from Util.retrograde.jobs import owner_keys
    from Util.board.random_boards import random_legal_boards

    material = Material.parse(name)
    layout = Layout(material)
    folds = 0
    for white_to_move in (True, False):
        for board in random_legal_boards(material, 300, random.Random(5), turn=white_to_move):
            keys = set()
            for move in board.legal_moves:
                if board.is_capture(move) or move.promotion:
                    continue
                after = board.copy()
                after.push(move)
                index = layout.encode_canonical([np.array([s]) for s in board_squares(after, material.piece_list)])
                keys.add(int(owner_keys(layout, 0 if white_to_move else 1, index)[0]))
                moved_king = board.piece_type_at(move.from_square) == chess.KING and white_to_move
                folds += moved_king and layout.fold[move.to_square] != layout.fold[move.from_square]
            assert len(keys) <= 1, board.fen()
    assert folds > 0


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("name", ["KNvKP", "KQvKR"])
def test_white_counters_set_at_any_ply_give_the_same_table(name, store, monkeypatch):
    """White's loss plies check forward until that has taken as long as setting all counters in one pass
    would (LossCounters.white_counts_down), then make the pass and count down from then on: the table is
    the same whether the pass comes at White's first loss ply, at a later one or never."""
    from Util.retrograde_kernels import counters

    material = Material.parse(name)
    expected = store.get(material)
    subtables = {m: store.get(m) for m in material.dependencies()}
    set_white_counters, passes = counters.set_white_counters, []

    def spy(lay, n, *args):  # watches at which ply the pass runs
        passes.append(n)
        return set_white_counters(lay, n, *args)

    monkeypatch.setattr(counters, "set_white_counters", spy)
    for pass_from in (10 ** 6, 2, 8):
        passes.clear()
        table = compute_table(material, subtables, policy=EnginePolicy(white_counters_from=pass_from))
        assert np.array_equal(table.dtm_white, expected.dtm_white) and np.array_equal(table.dtm_black, expected.dtm_black)
        assert passes[:1] == ([] if pass_from == 10 ** 6 else [pass_from])


@pytest.mark.slow  # tables computed again by another path
@pytest.mark.big
@pytest.mark.parametrize("name", ["KNvKP", "KRvKP", "KQvKP", "KPvKP", "KBvKP"])
def test_plies_by_runs_of_64_give_the_same_table(name, store, monkeypatch):
    """With pawns and a black piece, the plies over a frontier left in the array find the un-moves once
    per run of 64 indices instead of per frontier position: both sides' win plies
    (kernels.plies.mark_wins_runs) and White's counting loss plies (kernels.counters.count_white_runs).
    Forced on every such ply (every frontier left in the array, White's counters set at its first loss
    ply), the table equals the one whose frontiers are all listed."""
    from Util.retrograde_kernels import counters, plies

    material = Material.parse(name)
    subtables = {m: store.get(m) for m in material.dependencies()}
    listed = store.get(material)  # the session's table, computed once with the engine's own choices
    calls = []
    counting, marking = counters.count_white_runs, plies.mark_wins_runs

    def counting_runs(*args):
        calls.append("White counts")
        return counting(*args)

    def marking_runs(lay, side, *args):
        calls.append(f"side {side} wins")
        return marking(lay, side, *args)

    monkeypatch.setattr(counters, "count_white_runs", counting_runs)  # watches the calls
    monkeypatch.setattr(plies, "mark_wins_runs", marking_runs)
    scanned = compute_table(material, subtables, policy=EnginePolicy(white_counters_from=0, list_limit=0))
    assert {"White counts", "side 0 wins", "side 1 wins"} <= set(calls)
    assert np.array_equal(scanned.dtm_white, listed.dtm_white)
    assert np.array_equal(scanned.dtm_black, listed.dtm_black)


@pytest.mark.parametrize("name", ["KBNvK", "KQvKR", "KPvKP"])
def test_new_positions_sorted_either_way_give_the_same_table(name, store):
    """A win ply's new positions are put in order by numpy's sort or, when they are many, through a bitmap
    (kernels.sorting.sort_distinct, which borrows the forward checks' bits: they must be all zero between plies).
    Either way every ply must give the table checked against Gaviota and Syzygy in
    test_against_references (KQvKR and KPvKP check forward in White's loss plies and set those bits)."""
    material = Material.parse(name)
    subtables = {m: store.get(m) for m in material.dependencies()}
    reference = store.get(name)
    for bitmap_sort in (1 << 40, 1):  # never through the bitmap; every listed win ply through it
        table = compute_table(material, subtables, policy=EnginePolicy(bitmap_sort=bitmap_sort))
        assert np.array_equal(table.dtm_white, reference.dtm_white)
        assert np.array_equal(table.dtm_black, reference.dtm_black)


@pytest.mark.parametrize("size", [0, 1, 5, 1000, 200_000])
def test_sort_distinct_orders_and_drops_repeats_and_leaves_the_bits_zero(size):
    """kernels.sorting.sort_distinct gives what np.unique gives, the first and last index of a word included, and
    leaves its bitmap as it found it, all zero (the engine lends it the forward checks' bits)."""
    from Util.retrograde_kernels.sorting import sort_distinct

    rng = np.random.default_rng(size)
    table = 1 << 18
    positions = rng.integers(0, table, size).astype(np.int32)
    positions = np.r_[positions, positions[: size // 3], [0, 63, 64, table - 1][: min(size, 4)]].astype(np.int32)
    rng.shuffle(positions)
    bits = np.zeros(table // 64, np.uint64)
    ordered = sort_distinct(positions, bits)
    assert ordered.dtype == np.int32
    assert np.array_equal(ordered, np.unique(positions))
    assert not bits.any()


def test_sort_distinct_refuses_a_bitmap_that_was_not_all_zero():
    """A bit left set (by a ply that did not clear its forward checks' bits) would add a position no job
    found: sort_distinct raises rather than write past the end of its list."""
    from Util.retrograde_kernels.sorting import sort_distinct

    bits = np.zeros(64, np.uint64)
    bits[500 >> 6] = np.uint64(1) << np.uint64(500 & 63)
    with pytest.raises(ValueError, match="not all zero"):
        sort_distinct(np.array([1000, 0], np.int32), bits)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_exit_scan_lists_each_ply_as_the_exit_bytes_hold_it(threads):
    """ExitScan lists the positions of each ply's exit byte a window of plies at a time, from counts
    made per span in the first pass; what it lists must be exactly where the bytes hold that value."""
    from Util.table.values import DRAW, NO_EXIT
    from Util.runtime.parallel import Threads
    from Util.retrograde.frontiers import ExitScan

    rng = np.random.default_rng(threads)
    values = rng.choice(np.array([NO_EXIT, DRAW, 1, 2, 3, 4, 7, 8, 40, 41, 200], np.uint8), 100_000,
                        p=[0.5, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.04, 0.03, 0.02, 0.01])
    cuts = np.sort(rng.choice(np.arange(1, values.size), 9, replace=False))
    spans = list(zip(np.r_[0, cuts].tolist(), np.r_[cuts, values.size].tolist()))
    span_counts = np.array([np.bincount(values[a:b], minlength=256) for a, b in spans])
    with Threads(threads) as pool:
        scan = ExitScan(values, span_counts, spans, pool, budget=6_000)  # a few plies per window
        assert scan.last == 200
        for n in range(1, 255):
            assert np.array_equal(scan.at(n), np.flatnonzero(values == n)), n


def test_max_n_is_the_largest_value_of_either_side(store, monkeypatch):
    """max_n goes through the arrays chunk by chunk (255, a draw, counts as nothing); KQvK's longest mate
    is Black to move, mated in 10 moves (20 plies), KRvK's in 16 (32 plies); KNvK has no S_n at all."""
    from Util.table import dtm_table

    monkeypatch.setattr(dtm_table, "CHUNK", 1 << 12)  # several chunks per table, the last one shorter
    for name, longest in (("KQvK", 20), ("KRvK", 32), ("KNvK", -1)):
        assert store.get(name).max_n == longest
    for name in ("KQvKR", "KPvKP"):
        table = store.get(name)
        masked = max(int(a[a != UNKNOWN].max()) for a in (table.dtm_white, table.dtm_black))
        assert table.max_n == masked
