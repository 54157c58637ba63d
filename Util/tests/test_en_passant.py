"""The double steps after which en passant is possible: found among a few candidates, as among all."""

import numpy as np
import pytest

from Util.rules.en_passant import double_step_candidates, find_double_steps
from Util.table.values import UNKNOWN
from Util.retrograde_kernels.board import PackedLayout
from Util.retrograde_kernels.legality import mark_legality
from Util.table.index_scheme import Layout
from Util.board.material import Material


#: The five-piece table is sampled in blocks of this many consecutive indices: in KNPvKP's order (KkNPp) a
#: block fixes the kings and runs through sixteen squares of the knight and every placement of both pawns.
BLOCK = 1 << 16


def _legal(layout: Layout, starts: np.ndarray) -> list:
    """Per side to move, the legal positions (sorted indices) among the blocks of :data:`BLOCK` indices that
    begin at ``starts`` (the compiled first pass's rule)."""
    values = [np.empty(layout.size, dtype=np.uint8) for _ in range(2)]  # only the blocks' pages are touched
    none = np.empty(0, dtype=np.uint8)
    packed = PackedLayout.of(layout)
    found = [[], []]
    for start in (int(s) for s in starts):
        stop = min(start + BLOCK, layout.size)
        for side in (0, 1):
            values[side][start:stop] = UNKNOWN
        mark_legality(packed, start, stop, *values, none, none)
        for side in (0, 1):
            found[side].append(start + np.flatnonzero(values[side][start:stop] != 254))
    return [np.concatenate(f) for f in found]


@pytest.mark.parametrize("name", ["KPvKP", pytest.param("KNPvKP", marks=[pytest.mark.slow, pytest.mark.big])])
def test_candidates_hold_every_double_step(name):
    """find_double_steps over the legal candidates finds exactly what it finds over every legal position
    (KPvKP: all of them; the five-piece table: a random tenth of its blocks of :data:`BLOCK` indices, about
    54 million indices, whose legal positions' double steps must all be among the candidates)."""
    layout = Layout(Material.parse(name))
    rng = np.random.default_rng(3)
    blocks = np.arange(0, layout.size, BLOCK)
    if layout.piece_count == 5:
        blocks = blocks[rng.random(blocks.size) < 0.1]
    legal = _legal(layout, blocks)
    found_any = False
    for side in (0, 1):
        candidates = double_step_candidates(layout, side)
        assert np.all(np.diff(candidates) > 0)  # sorted, distinct
        everything = legal[side]
        parent, child, pawn = find_double_steps(layout, side, everything, layout.decode(everything))
        assert np.isin(parent, candidates).all()
        if layout.piece_count == 4:
            legal_candidates = candidates[np.isin(candidates, everything)]
            again = find_double_steps(layout, side, legal_candidates, layout.decode(legal_candidates))
            for ours, theirs in zip(again, (parent, child, pawn)):
                assert np.array_equal(ours, theirs)
        assert candidates.size < layout.size // 100  # two fields fixed: about one index in 300 per pair of pawns
        found_any |= parent.size > 0
    assert found_any
