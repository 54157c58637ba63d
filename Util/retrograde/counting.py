"""The counting policy: when the loss plies count down, and when they check forward instead.

A loss candidate is mated in n only if *every* legal move leads into a
mate already found.  Checked forward, a candidate reached in ply after ply
is checked again each time; a counter of the moves not yet refuted, counted
down by every un-move into it, checks it once.  The counters live in the
candidates' own DTM bytes (see :mod:`Util.retrograde_kernels.counters`), so they cost
no memory, but they must give way before the plies' values reach their
bytes.  Black's are set for every position before ply 1; White's only once
its forward checks have cost what setting them would (:meth:`LossCounters.white_counts_down`).
"""

from __future__ import annotations

import time
from functools import partial
from typing import Optional

import numpy as np

from ..table.values import UNKNOWN
from ..retrograde_kernels import counters as counter_kernels
from ..table.index_scheme import Layout
from .frontiers import Frontier
from .jobs import collect
from .state import BLACK, SIDES, WHITE, WorkingTable

#: Moves of a piece that stay in the table, at most (a pawn's captures and promotions leave it).
MOST_MOVES = {"K": 8, "Q": 27, "R": 14, "B": 13, "N": 8, "P": 2}


def most_moves(layout: Layout, side: int) -> int:
    """The most moves ``side`` can have in one position of ``layout`` that stay in the table."""
    return sum(MOST_MOVES[layout.letters[i].upper()] for i in layout.pieces_of[side])


class LossCounters:
    """Whether, and whose, loss counters are in the DTM bytes of ``table``."""

    def __init__(self, table: WorkingTable):
        self.table = table
        policy = table.policy
        # the loss counters live in the DTM bytes from this byte up (see kernels.counters), from the first
        # ply until the values come near them; White's count a king's move onto the diagonal twice
        self.floor = policy.counter_floor if policy.counter_floor is not None else counter_kernels.counter_floor(
            max(most_moves(table.layout, WHITE) + 8, most_moves(table.layout, BLACK)))
        # see white_counts_down: what White's loss plies have spent checking forward, what its pass would cost
        self.white_checking_seconds = 0.0
        self.white_pass_seconds = policy.pass_seconds_per_index * table.size
        self.white_last_check_seconds = 0.0  # White's last loss ply that checked forward
        self.white_all_counted = False

    @property
    def on(self) -> bool:
        """Whether the loss counters are in the DTM bytes (kernels.counters.count_losses)."""
        return self.table.packed.floor < UNKNOWN

    def start(self, n: int) -> None:
        """Before ply n: loss counters from now on, as long as the values stay below their bytes; cleared
        and stopped once ply n could reach them (only the longest tables, such as KPPvKP)."""
        table = self.table
        if not any(table.can_lose) or not table.policy.loss_counters:
            return
        fits = n < self.floor - 1
        if self.on and not fits:
            for side in SIDES:
                self.clear(side)
        table.packed = table.packed._replace(floor=self.floor if fits else UNKNOWN)

    def set_first_counters(self, mates: Optional[partial] = None) -> Optional[Frontier]:
        """Before ply 1 of a new calculation: Black's loss counters of every undecided position, in one pass
        in index order (kernels.counters.set_first_counters), instead of each when a ply first reaches it.
        ``mates``: Black's mates are not marked yet (the function that would mark them): the pass marks
        them and returns them."""
        table = self.table
        self.start(1)
        if not self.on or not table.can_lose[BLACK]:
            return mates() if mates else None
        black, white, exit_value = table.dtm[BLACK], table.dtm[WHITE], table.exit_value[BLACK]
        in_check = table.in_check[BLACK] if mates else np.empty(0, np.uint8)
        jobs = [partial(counter_kernels.set_first_counters, table.packed, *span, black, white, exit_value, in_check)
                for span in table.index_spans]
        started = time.perf_counter()
        found = collect(table, [jobs], black, 0, as_found=True)
        self.white_pass_seconds = table.policy.white_pass_ratio * (time.perf_counter() - started)
        return found if mates else None

    def white_counts_down(self, n: int) -> bool:
        """Whether White's loss ply n counts down (kernels.counters.count_losses) rather than checking forward.

        Black's counters are set for every position before ply 1, and that pass pays in every table.
        White's would not: where White seldom loses, its forward checks stop at the first move that
        escapes, and the pass costs more than they do (KRPvKN: White's loss plies 0.2 s, the pass 3.5 s).
        Where White loses often (KBPvKQ, 174 M positions) every check of a candidate runs through most of
        its moves, ply after ply, and counters save most of it (White's loss plies 77 s, with counters
        22 s and the pass 3 s).  Which table is which shows only on the way, so White checks forward
        until that, with a few more plies like the last one (EnginePolicy.white_lookahead), would cost as
        much as the pass (as one rents skis until the rent would have bought them, and buys a little
        earlier when the rent keeps rising), then one pass sets the counters of all undecided positions
        (kernels.counters.set_white_counters), and White counts from then on: never much more than the
        cheaper way.  The table is the same whenever the pass comes; only the time depends on it."""
        if not self.on:
            return False
        if not self.white_all_counted and self.white_pass_is_due(n):
            table = self.table
            white, black, exit_value = table.dtm[WHITE], table.dtm[BLACK], table.exit_value[WHITE]
            table.threads.map(lambda span: counter_kernels.set_white_counters(table.packed, n, *span, white, black,
                                                                              exit_value), table.index_spans)
            self.white_all_counted = True
        return self.white_all_counted

    def white_pass_is_due(self, n: int) -> bool:
        """Whether White's counters are to be set before its loss ply n (see white_counts_down)."""
        policy = self.table.policy
        if policy.white_counters_from is not None:
            return n >= policy.white_counters_from
        forecast = self.white_checking_seconds + policy.white_lookahead * self.white_last_check_seconds
        return forecast >= self.white_pass_seconds

    def add_white_checking(self, seconds: float) -> None:
        """White's loss ply checked forward for ``seconds``: the rent paid (see white_counts_down)."""
        self.white_last_check_seconds = seconds
        self.white_checking_seconds += seconds

    def clear(self, side: int) -> None:
        """Turn ``side``'s loss counters back into UNKNOWN."""
        table = self.table
        if side == WHITE:  # forward checks until the next White loss ply sets them all again
            self.white_all_counted = False
        if not table.can_lose[side]:
            return
        values, floor = table.dtm[side], table.packed.floor
        table.threads.map(lambda span: counter_kernels.clear_counters(values, *span, floor), table.index_spans)
