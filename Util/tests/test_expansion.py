"""len(S_n) and iteration count real boards: checked against enumerating the whole unfolded board space."""

import numpy as np
import pytest

from Util.calculation.boards import board_counts, boards_in_s_n


def _brute_force_counts(table):
    layout = table.layout
    count = layout.piece_count
    raw = np.arange(64**count, dtype=np.int64)
    squares = [(raw >> (6 * (count - 1 - i))) & 63 for i in range(count)]
    keep = np.ones(raw.size, dtype=bool)
    for group in layout.identical_groups:  # a board lists identical pieces in ascending order
        for a, b in zip(group, group[1:]):
            keep &= squares[a] < squares[b]
    index = layout.encode_canonical([s[keep] for s in squares])
    counts = {}
    for array in (table.dtm_white, table.dtm_black):
        per_n = np.bincount(array[index])
        for n in np.flatnonzero(per_n[:255]):
            counts[int(n)] = counts.get(int(n), 0) + int(per_n[n])
    return counts


@pytest.mark.parametrize("material", ["KQvK", "KPvK", "KBBvK", pytest.param("KPPvK", marks=[pytest.mark.slow, pytest.mark.big])])
def test_counts_equal_brute_force(material, store):
    table = store.get(material)
    counts = board_counts(table)
    assert counts == _brute_force_counts(table)
    for n in (min(counts), min(counts) + 1, max(counts)):
        boards = boards_in_s_n(table, n)
        assert boards.size == counts[n] == np.unique(boards).size
