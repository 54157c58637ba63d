"""A rating on a published scale from matches against engines rated on it: the maximum-likelihood fit of
the logistic Elo model, the opponents' ratings held fixed (the anchors).

::

    from Util.whole_game_lab.rating import Pairing, fit_rating

    fit = fit_rating([Pairing("Phalanx XXV", 2644, wins=40, draws=20, losses=40),
                      Pairing("Glaurung 2.2", 2780, wins=30, draws=20, losses=50)])
    fit.rating, fit.low, fit.high      # the rating and its 95 % interval

Each game scores 1, 1/2 or 0; against an opponent rated ``r`` a player rated ``R`` is expected to score
``E = 1 / (1 + 10 ** ((r - R) / 400))``.  The fitted ``R`` solves ``sum(points - games * E) = 0`` (the
maximum of the likelihood of the points, draws counting half, as Ordo and BayesElo's simple mode do).
Its 95 % interval comes from the sandwich estimate of the variance: each pairing's observed spread of
game scores (draws make it smaller than ``E (1 - E)``) over the slope of the expected score, so that
it agrees with the usual ``± Elo`` of a single match.  The anchors' own uncertainty on their list is not
included (the interval is the games' only).  A pairing of all wins or all losses still takes part (it
pushes the fit), but a fit of nothing but such pairings has no finite answer: ValueError.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, List, Sequence

__all__ = ["Pairing", "RatingFit", "expected_score", "fit_rating"]

Z_95 = 1.959963984540054
SLOPE = math.log(10) / 400  # d/dR of the logistic's exponent


@dataclass(frozen=True)
class Pairing:
    """Our games against one anchor rated ``rating``: +``wins`` =``draws`` -``losses`` (ours)."""

    name: str
    rating: float
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def spread(self) -> float:
        """The observed variance of one game's score in this pairing."""
        mean = self.points / self.games
        return (self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean ** 2) / self.games

    def implied(self) -> float:
        """The rating this pairing alone gives (±inf for a clean sweep either way)."""
        score = self.points / self.games
        if score <= 0:
            return -math.inf
        if score >= 1:
            return math.inf
        return self.rating - 400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class RatingFit:
    """The fitted rating, its 95 % interval and the pairings it rests on."""

    rating: float
    low: float
    high: float
    pairings: tuple

    @property
    def games(self) -> int:
        return sum(p.games for p in self.pairings)


def expected_score(rating: float, opponent: float) -> float:
    """The logistic model's expected score of a player rated ``rating`` against one rated ``opponent``."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def fit_rating(pairings: Iterable[Pairing]) -> RatingFit:
    """The maximum-likelihood rating of the games ``pairings`` (see the module's docstring).  ValueError
    when there is no game, or every game was won (or every one lost): no finite rating fits."""
    played: List[Pairing] = [p for p in pairings if p.games > 0]
    if not played:
        raise ValueError("no game to fit a rating to")
    points = sum(p.points for p in played)
    games = sum(p.games for p in played)
    if points in (0, games):
        raise ValueError(f"{points:g} points of {games} games: every game went one way, no finite rating fits")
    low, high = min(p.rating for p in played) - 2000, max(p.rating for p in played) + 2000
    for _ in range(200):  # bisection: the expected points rise with the rating
        middle = (low + high) / 2
        if sum(p.games * expected_score(middle, p.rating) for p in played) < points:
            low = middle
        else:
            high = middle
    rating = (low + high) / 2
    slope = sum(p.games * SLOPE * _e1e(rating, p.rating) for p in played)
    variance = sum(p.games * p.spread for p in played) / slope ** 2
    margin = Z_95 * math.sqrt(variance)
    return RatingFit(rating, rating - margin, rating + margin, tuple(played))


def _e1e(rating: float, opponent: float) -> float:
    e = expected_score(rating, opponent)
    return e * (1 - e)


def table(fit: RatingFit, names: Sequence[str] = ()) -> str:
    """The pairings and the fit as a Markdown table (for docs and the command's output)."""
    rows = ["| opponent | its rating | games | result (ours) | score | implied |", "|---|---|---|---|---|---|"]
    for p in fit.pairings:
        implied = p.implied()
        shown = f"{implied:.0f}" if math.isfinite(implied) else ("above" if implied > 0 else "below")
        rows.append(f"| {p.name} | {p.rating:.0f} | {p.games} | +{p.wins} ={p.draws} -{p.losses} | "
                    f"{100 * p.points / p.games:.1f} % | {shown} |")
    rows.append(f"| **fit** | | {fit.games} | | | **{fit.rating:.0f}** (95 %: {fit.low:.0f}..{fit.high:.0f}) |")
    return "\n".join(rows)
