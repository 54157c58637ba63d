"""The search's scores, in centipawns for the side to move: a draw, the mates, the bounds of a window.

A mate in n plies from the root scores ``MATE - n``, being mated in n ``-(MATE - n)``; every score beyond
``MATE_BOUND`` in size is a mate.  ``INFINITE`` is above every score the search returns.
"""

from __future__ import annotations

#: A draw: stalemate, repetition, the fifty-move rule, insufficient material, a table's draw.
DRAW = 0
#: Mate now (at the root): a mate in n plies scores ``MATE - n``.
MATE = 32000
#: Scores beyond this, in size, are mates (no evaluation comes near it).
MATE_BOUND = MATE - 1000
#: Above every score: the first window of a search.
INFINITE = 32500
