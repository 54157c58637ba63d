"""Syzygy's DTZ and Gaviota's DTM beside our n, one S_n at a time: where the thesis's Syzygy test went wrong.

The thesis compared Syzygy's DTZ with n and allowed |DTZ| to be n or n + 1 (its note on tables stored
in whole moves).  In KBBvK it found, "from S_2 on", every position misplaced by that rule, and preferred
Gaviota.  :func:`dtz_and_dtm_per_n` repeats that comparison on a sample of every S_n and puts Gaviota's
depth to mate beside it, so that the per-n table shows where the rule fails and that Gaviota agrees
everywhere.  Syzygy rounds DTZ *down* in such tables (a stored d means d or d + 1 plies), so the
thesis's tolerance pointed the wrong way: |DTZ| = n - 1 is what rounding gives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional

import chess

from ..board.integer import to_board
from ..sequence import SnSequence
from .gaviota_native import NativeGaviota
from .move_checks import boards_to_check
from .references import gaviota_n, open_syzygy

__all__ = ["DtzRow", "dtz_and_dtm_per_n", "first_n_where_the_rule_always_fails"]


@dataclass(frozen=True)
class DtzRow:
    """One S_n's sampled stored positions (the winner to move for odd n, the loser for even n)."""

    n: int
    sampled: int
    dtz_is_n: int  # boards with |DTZ| = n
    dtz_is_n_minus_1: int  # boards with |DTZ| = n - 1 (rounded to whole moves)
    dtz_other: int  # boards with any other |DTZ| (a capture or a pawn move zeroes it sooner)
    thesis_rule_fails: int  # boards where |DTZ| is neither n nor n + 1: "misplaced" by the thesis's test
    gaviota_is_n: int  # boards where Gaviota's depth to mate is n

    def cells(self) -> tuple:
        """The row as the notebook's table shows it."""
        return (self.n, self.sampled, self.dtz_is_n, self.dtz_is_n_minus_1, self.dtz_other,
                self.thesis_rule_fails, self.gaviota_is_n)


#: The column names of :meth:`DtzRow.cells`.
HEADER = ("n", "boards sampled", "|DTZ| = n", "|DTZ| = n − 1", "other |DTZ|",
          "thesis's test fails (|DTZ| ≠ n, n + 1)", "Gaviota's DTM = n")


def dtz_and_dtm_per_n(sequence: SnSequence, syzygy_folder: os.PathLike, gaviota_folder: os.PathLike,
                      per_n: int = 40, seed: int = 0) -> List[DtzRow]:
    """For each S_n of ``sequence`` (a table with a lone black king), ``per_n`` stored positions drawn
    with ``seed`` (all where S_n has fewer), each probed for Syzygy's DTZ and Gaviota's DTM.

    n = 0 (checkmate) is left out: nothing is left to count there, and python-chess gives DTZ -1 for it.
    ValueError for a table where Black has pieces (the thesis's n is White's; use ``one_ply_check``).
    """
    if not sequence.material.lone_black_king:
        raise ValueError(f"{sequence.material}: Black has pieces; this compares the thesis's n, in which "
                         f"only White mates")
    gaviota = NativeGaviota(gaviota_folder)
    rows = []
    with open_syzygy(syzygy_folder) as syzygy:
        for n in range(1, len(sequence)):
            boards = [to_board(int(b), sequence.piece_list)
                      for b in boards_to_check(sequence, n, sample=per_n, seed=seed + n)]
            dtz = [abs(syzygy.probe_dtz(board)) for board in boards]
            rows.append(DtzRow(n, len(boards), dtz.count(n), dtz.count(n - 1),
                               sum(d not in (n, n - 1) for d in dtz), sum(d not in (n, n + 1) for d in dtz),
                               sum(gaviota_n(gaviota, board) == n for board in boards)))
    return rows


def first_n_where_the_rule_always_fails(rows: List[DtzRow]) -> Optional[int]:
    """The least n from which on the thesis's test fails on every sampled board of every S_n; None if
    it holds somewhere in the last S_n."""
    first = None
    for row in rows:
        if row.sampled and row.thesis_rule_fails == row.sampled:
            first = row.n if first is None else first
        else:
            first = None
    return first
