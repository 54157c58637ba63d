"""The engine's answer does not depend on how many threads share a ply."""

import numpy as np
import pytest

from Util.material import Material
from Util.retrograde import _Engine, compute_table


def test_one_thread_and_three_threads_give_the_same_table(store):
    """KPPvK has every kind of move: captures into KPvK, promotions into four tables, double pushes."""
    material = Material.parse("KPPvK")
    subtables = {m: store.get(m) for m in material.dependencies()}
    single = compute_table(material, subtables, threads=1)
    several = compute_table(material, subtables, threads=3)
    assert np.array_equal(single.dtm_white, several.dtm_white)
    assert np.array_equal(single.dtm_black, several.dtm_black)
    assert single.max_n > 50  # a real table, not two empty ones


@pytest.mark.parametrize("material", ["KBNvK", "KRPvK", "KQvKR", "KPvKP"])
def test_white_plies_found_forwards_equal_those_found_backwards(material, store, monkeypatch):
    """The engine finds a ply of wins backwards from the other side's losses or, when that is less work,
    forwards from the undecided positions.  Forced to go forwards every ply, it must give the table
    checked against Gaviota and Syzygy in test_against_references (both sides win in KQvKR and KPvKP)."""
    reference = store.get(material)
    subtables = {m: store.get(m) for m in Material.parse(material).dependencies()}
    monkeypatch.setattr(_Engine, "_pulling_is_cheaper", lambda self, side, frontier: True)
    forwards = compute_table(Material.parse(material), subtables)
    assert np.array_equal(forwards.dtm_white, reference.dtm_white)
    assert np.array_equal(forwards.dtm_black, reference.dtm_black)


def test_sub_tables_loaded_from_files_give_the_same_table(store, tmp_path):
    """A calculation reads only one side of each sub-table from its file (White to move after a capture,
    Black after a promotion); the result must equal the table computed with whole sub-tables."""
    from Util.calculation import TableStore
    from Util.chessai_file import save_table
    from Util.expansion import board_counts

    material = Material.parse("KRPvK")
    for dependency in material.dependencies():
        table = store.get(dependency)
        save_table(table, tmp_path / f"{dependency.name}.chessAI", board_counts(table))
    from_files = TableStore(tmp_path, progress=False).compute(material)
    reference = store.get(material)
    assert np.array_equal(from_files.dtm_white, reference.dtm_white)
    assert np.array_equal(from_files.dtm_black, reference.dtm_black)
