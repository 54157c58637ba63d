"""Win, draw and loss chances of a score, per mille (UCI's ``UCI_ShowWDL``: ``info ... wdl W D L``).

::

    from Util.whole_game.wdl import wdl_of_score

    wdl_of_score(cp=100)          # (500, 500, 0): a pawn up wins half the games
    wdl_of_score(mate=3)          # (1000, 0, 0)

A score in centipawns ``s`` for the side to move gives ``W(s) = 1 / (1 + exp(-(s - A) / B))`` wins and
``L(s) = W(-s)`` losses, the rest draws: a logistic model, as Stockfish's.  ``A`` = :data:`WIN_HALF_CP`: a
pawn up wins half the games, the normalisation Stockfish's scores follow; ``B`` = :data:`SPREAD_CP`,
fitted with ``A`` to Stockfish 15.1's own figures at move 32 on 80 positions of the shared openings
(``PYTHONPATH=. .venv/bin/python scripts/fit_wdl_model.py``: A = 100 cp, B = 18 cp, 3 per mille off on
average).  It is Stockfish's reading of a score, not fitted to this engine's games.  A mate score
is certain; a table's value is exact (:func:`exact_wdl`).
"""

from __future__ import annotations

import math
from typing import Optional, Tuple

__all__ = ["SPREAD_CP", "WIN_HALF_CP", "exact_wdl", "wdl_of_score"]

#: The score (centipawns) that wins half the games.
WIN_HALF_CP = 100
#: How fast the chances change with the score (centipawns).
SPREAD_CP = 18
PER_MILLE = 1000


def _share(cp: float) -> float:
    x = -(cp - WIN_HALF_CP) / SPREAD_CP
    return 0.0 if x > 700 else 1.0 / (1.0 + math.exp(x))


def wdl_of_score(cp: Optional[int] = None, mate: Optional[int] = None) -> Tuple[int, int, int]:
    """(wins, draws, losses) per mille for the side to move, summing to 1000: for ``mate`` in moves (+ it
    mates, - it is mated; 0: it is mated now) certain; else for ``cp`` centipawns by the model."""
    if mate is not None:
        return exact_wdl(1 if mate > 0 else -1)
    wins = round(PER_MILLE * _share(cp or 0))
    losses = round(PER_MILLE * _share(-(cp or 0)))
    return wins, PER_MILLE - wins - losses, losses


def exact_wdl(result: int) -> Tuple[int, int, int]:
    """(1000, 0, 0) for a won position (``result`` > 0), (0, 1000, 0) drawn, (0, 0, 1000) lost: what a
    table or a mate knows."""
    return (PER_MILLE, 0, 0) if result > 0 else (0, 0, PER_MILLE) if result < 0 else (0, PER_MILLE, 0)
