"""Our S_n against Gaviota DTM (exact n) and Syzygy WDL (won or not), for every 3- and 4-piece table.

2,000 random legal positions per side to move and table, looked up through
the public API (board -> symmetry fold -> table), so the whole path is checked.
"""

import pytest

from Util.tests.materials import EVERY_TABLE
from Util.validation.gaviota_checks import exhaustive_against_gaviota, sample_against_gaviota
from Util.validation.syzygy_checks import sample_against_syzygy

SAMPLE = 2000


@pytest.mark.parametrize("material", EVERY_TABLE)
def test_exact_dtm_equals_gaviota(material, sequence_of, gaviota):
    result = sample_against_gaviota(sequence_of(material), gaviota, SAMPLE)
    assert result.checked == 2 * SAMPLE
    assert result.mismatches == [], result.mismatches[:5]


@pytest.mark.parametrize("material", EVERY_TABLE)
def test_won_exactly_where_syzygy_says_white_wins(material, sequence_of, syzygy):
    result = sample_against_syzygy(sequence_of(material), syzygy, SAMPLE)
    assert result.checked == 2 * SAMPLE
    assert result.mismatches == [], result.mismatches[:5]


@pytest.mark.parametrize("material", ["KQvK", "KRvK", "KPvK"])
def test_every_position_of_three_piece_tables(material, store, gaviota):
    result = exhaustive_against_gaviota(store.get(material), gaviota)
    assert result.checked > 50_000
    assert result.mismatches == [], result.mismatches[:5]


def test_longest_mates_are_the_known_ones(store):
    """Longest mates with White to move, agreed by independent generators (shared/notes/generators.md)."""
    known = {"KQvK": 19, "KRvK": 31, "KPvK": 55, "KBNvK": 65, "KBBvK": 37}
    for material, plies in known.items():
        dtm_white = store.get(material).dtm_white
        assert int(dtm_white[dtm_white != 255].max()) == plies, material
