"""The double steps after which en passant is possible: found among a few candidates, as among all."""

import numpy as np
import pytest

from Util.rules.en_passant import double_step_candidates, find_double_steps
from Util.table.values import UNKNOWN
from Util.kernels.board import PackedLayout
from Util.kernels.legality import mark_legality
from Util.table.index_scheme import Layout
from Util.board.material import Material


def _legal(layout: Layout) -> list:
    """Per side to move, whether each index is a legal position (the compiled first pass's rule)."""
    values = [np.full(layout.size, UNKNOWN, dtype=np.uint8) for _ in range(2)]
    none = np.empty(0, dtype=np.uint8)
    mark_legality(PackedLayout.of(layout), 0, layout.size, *values, none, none)
    return [v != 254 for v in values]


@pytest.mark.parametrize("name", ["KPvKP", pytest.param("KNPvKP", marks=[pytest.mark.slow, pytest.mark.big])])
def test_candidates_hold_every_double_step(name):
    """find_double_steps over the legal candidates finds exactly what it finds over every legal position
    (KPvKP: all of them; the five-piece table: a random tenth, whose double steps must all be among the
    candidates)."""
    layout = Layout(Material.parse(name))
    legal = _legal(layout)
    rng = np.random.default_rng(3)
    found_any = False
    for side in (0, 1):
        candidates = double_step_candidates(layout, side)
        assert np.all(np.diff(candidates) > 0)  # sorted, distinct
        everything = np.flatnonzero(legal[side])
        if layout.piece_count == 5:
            everything = np.sort(rng.choice(everything, everything.size // 10, replace=False))
        parent, child, pawn = find_double_steps(layout, side, everything, layout.decode(everything))
        assert np.isin(parent, candidates).all()
        if layout.piece_count == 4:
            legal_candidates = candidates[legal[side][candidates]]
            again = find_double_steps(layout, side, legal_candidates, layout.decode(legal_candidates))
            for ours, theirs in zip(again, (parent, child, pawn)):
                assert np.array_equal(ours, theirs)
        assert candidates.size < layout.size // 100  # two fields fixed: about one index in 300 per pair of pawns
        found_any |= parent.size > 0
    assert found_any
