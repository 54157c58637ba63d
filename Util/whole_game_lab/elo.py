"""The Elo difference a match result measures, its 95 % interval and the likelihood of superiority.

::

    from Util.whole_game_lab.elo import match_result

    result = match_result(wins=60, draws=20, losses=20)
    result.elo, result.elo_low, result.elo_high   # +147.2 Elo, the 95 % interval around it
    result.los                                    # 0.9999...: chance the first player is the stronger

The Elo difference is that of the logistic model, ``-400 log10(1/s - 1)`` for a
score fraction ``s``; its interval comes from the normal approximation of the
mean score per game (the games' own spread of 1, 1/2 and 0 around it), mapped
through the same curve, as cutechess-cli and most engine testers report it.
The likelihood of superiority ignores draws: ``Φ((W - L) / sqrt(W + L))``.
A score of 0 or 1 has no finite Elo: the difference is then -inf or +inf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["MatchResult", "elo_difference", "likelihood_of_superiority", "match_result"]

#: The two-sided 95 % quantile of the standard normal distribution.
Z_95 = 1.959963984540054


def elo_difference(score: float) -> float:
    """Elo difference of a player who scores the fraction ``score`` (0..1) of the points; ±inf at 0 and 1.

    ValueError outside 0..1."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score {score}: a fraction of the points must lie between 0 and 1")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """The chance that the player with ``wins`` against ``losses`` (draws do not count) is the stronger;
    0.5 when no game was decided."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@dataclass(frozen=True)
class MatchResult:
    """A match from the first player's side: games won, drawn, lost; Elo and its 95 % interval."""

    wins: int
    draws: int
    losses: int
    score: float      # fraction of the points, 0..1
    elo: float
    elo_low: float
    elo_high: float
    los: float        # likelihood of superiority, 0..1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def line(self) -> str:
        """``+W =D -L, score 62.5 %, Elo +88 ± 70 (95 %: +18..+162), LOS 99.3 %`` (one line, for people)."""
        points = self.wins + self.draws / 2
        margin = (self.elo_high - self.elo_low) / 2
        plus_minus = f" ± {margin:.0f}" if math.isfinite(margin) else ""  # no ± for an interval without end
        return (f"+{self.wins} ={self.draws} -{self.losses}, score {points:g}/{self.games} "
                f"({100 * self.score:.1f} %), Elo {_signed(self.elo)}{plus_minus} "
                f"(95 %: {_signed(self.elo_low)}..{_signed(self.elo_high)}), LOS {100 * self.los:.1f} %")


def match_result(wins: int, draws: int, losses: int) -> MatchResult:
    """The :class:`MatchResult` of ``wins``, ``draws`` and ``losses``.  ValueError if there is no game or a
    count is negative."""
    if min(wins, draws, losses) < 0:
        raise ValueError(f"+{wins} ={draws} -{losses}: counts of games cannot be negative")
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no game played: an Elo difference needs at least one game")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    margin = Z_95 * math.sqrt(variance / games)
    low, high = max(0.0, score - margin), min(1.0, score + margin)
    return MatchResult(wins, draws, losses, score, elo_difference(score), elo_difference(low),
                       elo_difference(high), likelihood_of_superiority(wins, losses))


def _signed(elo: float) -> str:
    return "+inf" if elo == math.inf else "-inf" if elo == -math.inf else f"{round(elo) + 0:+d}"

