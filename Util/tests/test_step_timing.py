"""The engine's steps timed apart (notebook 02): the interpreted engine does the compiled engine's work,
and the speed-ups are the ratios of the printed times, rounded no finer than the runs' spread allows."""

import re

import pytest

from Util.bench.interpreted import interpreted_engine_seconds, new_per_ply
from Util.bench.step_timing import StepTime, noise_figures, ratio_text
from Util.board.material import Material


@pytest.mark.slow  # the engine as plain Python, in a process of its own
def test_the_engine_with_numba_switched_off_finds_the_same_positions_in_every_ply(store):
    kqk = Material.parse("KQvK")
    median, runs, found = interpreted_engine_seconds(kqk, 3, store.results_dir, repeats=1)
    _, compiled = new_per_ply(kqk, 3, store.subtables_of(kqk))
    assert len(runs) == 1 and median == runs[0] > 0
    assert found == compiled and len(found) == 4 and all(found)


def test_a_speed_up_is_the_ratio_of_the_printed_medians():
    slow, fast = StepTime("slow", [2.114, 2.16, 2.2]), StepTime("fast", [1.555, 1.293, 1.42])
    text = ratio_text(slow, fast)
    middle, low, high = (float(x) for x in re.fullmatch(r"about ([\d.]+) \(([\d.]+) to ([\d.]+)\)", text).groups())
    assert slow.seconds == 2.16 and fast.seconds == 1.42
    assert abs(middle - 2.16 / 1.42) < 0.05  # 1.52 to two figures
    assert low <= middle <= high and abs(low - 2.114 / 1.555) < 0.05 and abs(high - 2.2 / 1.293) < 0.05


@pytest.mark.parametrize("middle, low, high, figures", [
    (760, 720, 840, 2),    # half the range is 60: the tens stand
    (760, 300, 1200, 1),   # half the range is 450: only the hundreds
    (1.5, 1.36, 1.67, 2),  # half the range 0.15: the tenths stand
    (4.0, 4.0, 4.0, 2),    # no spread: two figures, no more
    (12000, 11999, 12001, 2),  # a tiny spread never gives more than two
])
def test_figures_stop_at_the_noise(middle, low, high, figures):
    assert noise_figures(middle, low, high) == figures
