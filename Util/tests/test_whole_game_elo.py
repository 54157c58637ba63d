"""The match statistics of Util/whole_game_lab/elo.py against values computed another way."""

from __future__ import annotations

import math
import statistics

import pytest

from Util.whole_game_lab.elo import elo_difference, likelihood_of_superiority, match_result


def expected_score(elo: float) -> float:
    """The logistic model's expected score of a player ``elo`` points stronger (the textbook formula)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_by_bisection(score: float) -> float:
    """The Elo whose expected score is ``score``, found by bisection on :func:`expected_score`."""
    low, high = -2000.0, 2000.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if expected_score(middle) < score else (low, middle)
    return (low + high) / 2


def test_an_even_score_is_no_difference():
    assert elo_difference(0.5) == 0.0
    assert match_result(10, 5, 10).elo == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("elo", [200.0, -100.0, 400.0, 35.0])
def test_elo_inverts_the_expected_score(elo):
    """200 Elo stronger expects 0.7597 of the points (1 / (1 + 10^-0.5)): the difference read back is 200."""
    assert elo_difference(expected_score(elo)) == pytest.approx(elo, abs=1e-6)


def test_textbook_values():
    assert expected_score(200) == pytest.approx(0.7597, abs=1e-4)
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.0) == -math.inf and elo_difference(1.0) == math.inf
    with pytest.raises(ValueError):
        elo_difference(1.5)


def test_interval_from_the_games_own_spread():
    """+60 =20 -20: the 95 % interval is the mean score ± 1.96 standard errors of the 100 games' points,
    each bound turned into Elo by bisection."""
    wins, draws, losses = 60, 20, 20
    points = [1.0] * wins + [0.5] * draws + [0.0] * losses
    mean = statistics.fmean(points)
    error = math.sqrt(statistics.pvariance(points) / len(points))
    result = match_result(wins, draws, losses)
    assert result.score == pytest.approx(0.7)
    assert result.elo == pytest.approx(elo_by_bisection(mean), abs=1e-6)
    assert result.elo_low == pytest.approx(elo_by_bisection(mean - 1.96 * error), abs=0.05)
    assert result.elo_high == pytest.approx(elo_by_bisection(mean + 1.96 * error), abs=0.05)
    assert result.elo_low < result.elo < result.elo_high
    assert "+60 =20 -20" in result.line()


def test_likelihood_of_superiority():
    """60 wins to 40 losses are two standard deviations above even: Φ(2) = 0.97725 (normal table)."""
    assert likelihood_of_superiority(60, 40) == pytest.approx(0.97725, abs=1e-5)
    assert likelihood_of_superiority(40, 60) == pytest.approx(1 - 0.97725, abs=1e-5)
    assert likelihood_of_superiority(0, 0) == 0.5
    assert match_result(0, 10, 0).los == 0.5


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="no game"):
        match_result(0, 0, 0)
    with pytest.raises(ValueError, match="negative"):
        match_result(-1, 0, 3)
