"""The thesis's Syzygy finding in KBBvK, n by n: its n-or-n+1 test fails on every board from S_2 on, because
Syzygy stores KBBvK's DTZ rounded to whole moves (n - 1), while Gaviota's DTM is n on every board."""

import pytest

from Util.notebook.validation_steps import DTZ_HEADER, merged_dtz_rows
from Util.validation.dtz_per_n import dtz_and_dtm_per_n, first_n_where_the_rule_always_fails
from Util.validation.references import reference_folder


@pytest.mark.slow  # probes every S_n of KBBvK in both references
def test_kbbvk_fails_the_thesis_test_from_s_2_on_and_gaviota_agrees_everywhere(sequence_of, gaviota, syzygy):
    kbbvk = sequence_of("KBBvK")
    rows = dtz_and_dtm_per_n(kbbvk, reference_folder("syzygy"), reference_folder("gaviota"), per_n=4)
    assert [r.n for r in rows] == list(range(1, len(kbbvk)))
    assert all(r.gaviota_is_n == r.sampled > 0 for r in rows)
    assert rows[0].dtz_is_n == rows[0].sampled  # mate in one: nothing to round
    assert all(r.dtz_is_n_minus_1 == r.thesis_rule_fails == r.sampled for r in rows[1:])
    assert first_n_where_the_rule_always_fails(rows) == 2
    merged = merged_dtz_rows(rows)
    assert [m[0] for m in merged] == ["S_1", f"S_2 .. S_{len(kbbvk) - 1}"] and len(merged[0]) == len(DTZ_HEADER)
    assert merged[1][1] == f"{sum(r.sampled for r in rows[1:]):,}"


def test_a_table_where_black_mates_too_is_refused(sequence_of):
    with pytest.raises(ValueError, match="Black has pieces"):
        dtz_and_dtm_per_n(sequence_of("KQvKR"), "unused", "unused")
