"""The plies: S_n of both sides to move from the other side's S_(n-1).

* **Odd n (the side to move mates):** un-make every move of the side to
  move from the other side's positions found mated in n-1 last ply; the
  undecided legal ones mate in n.  One good move is enough.  When that
  frontier is larger than the set of positions still undecided (the middle
  plies of big tables), each of those looks forward instead, for a move
  into the frontier: less work, same set.
* **Even n (the side to move is mated):** un-make the moves of the side to
  move from the other side's positions found mating in n-1; a candidate is
  mated in n only if *every* legal move leads into a mate already found:
  checked forward, or counted down (:mod:`Util.retrograde.counting`).
* A move into another table (a capture, a promotion) or an en passant
  double step decides its positions at the ply its value says: those
  positions are confirmed beside the frontier's.

The loops over single positions run compiled (:mod:`Util.retrograde_kernels.plies`);
:mod:`Util.retrograde.jobs` hands their pieces to the threads.
"""

from __future__ import annotations

import time
from functools import partial
from typing import List, Tuple

import numpy as np

from ..table.dtm_table import CHUNK
from ..table.values import ILLEGAL, UNKNOWN, to_unknown_from
from ..retrograde_kernels import counters as counter_kernels
from ..retrograde_kernels import plies as ply_kernels
from .counting import LossCounters
from .first_pass import Exits
from .frontiers import Frontier, spans
from .jobs import collect, mark_undecided, run_ply_jobs
from .state import BLACK, SIDES, WHITE, WorkingTable


class Plies:
    """The plies of ``table``, with its loss ``counters``."""

    def __init__(self, table: WorkingTable, counters: LossCounters):
        self.table, self.counters = table, counters

    def first_ply(self) -> List[Frontier]:
        """Ply 0, each side's checkmates; then, before ply 1, Black's loss counters (set_first_counters).
        Where White never loses (Black has only its king), the counters' pass finds Black's mates too: a
        position in check without a move (KBNvK: 14 -> 8 ms for the two).  Elsewhere the mates come first, so
        that the counters' pass is timed alone: White's loss plies weigh their forward checks against it
        (LossCounters.white_counts_down)."""
        white = self.mates(WHITE)
        if self.table.can_lose[WHITE]:
            black = self.mates(BLACK)
            self.counters.set_first_counters()
            return [white, black]
        return [white, self.counters.set_first_counters(mates=partial(self.mates, BLACK))]

    def mates(self, side: int) -> Frontier:
        """Give 0 to the positions (``side`` to move) that are checkmate: in check, and no legal move.
        Returns them."""
        table = self.table
        if not table.can_lose[side]:
            return np.empty(0, np.int32)
        lay, mine, other = table.packed, table.dtm[side], table.dtm[1 - side]
        in_check, exit_value, ep = table.in_check[side], table.exit_value[side], self.en_passant_worst(side)
        jobs = [partial(ply_kernels.mates, lay, side, *span, in_check, mine, other, exit_value, *ep)
                for span in table.index_spans]
        return collect(table, [jobs], mine, 0, as_found=True)

    def ply(self, side: int, n: int, frontier: Frontier, exits: Exits) -> Frontier:
        """The positions (``side`` to move) that get value n: for odd n those that mate in n, for even n
        those mated in n.  ``frontier``: the other side's positions that got n-1 last ply."""
        if n % 2:
            if not self.table.can_win[side]:
                return np.empty(0, np.int32)
            return self.win_ply(side, n, frontier, exits)
        if not self.table.can_lose[side]:
            return np.empty(0, np.int32)
        return self.loss_ply(side, n, frontier, exits)

    def win_ply(self, side: int, n: int, frontier: Frontier, exits: Exits) -> Frontier:
        """Odd n: the undecided positions with a move into the other side's losses in n-1 (or an exit or
        en passant double step that mates in n): found backwards from the frontier, or, where the frontier
        is larger than what is still undecided, forwards from the undecided positions."""
        table = self.table
        lay, mine, other = table.packed, table.dtm[side], table.dtm[1 - side]
        steps = table.double_steps[side]
        direct = [exits.at(n)]
        if steps.parent.size:
            direct.append(steps.parent[steps.defender_loses_in(other, lay.floor) == n - 1])
        found, _ = run_ply_jobs(table, side, n, frontier, direct,
                                pull=partial(ply_kernels.pull_wins, lay, side, n),
                                push=partial(ply_kernels.mark_wins, lay, side, n),
                                confirm=partial(mark_undecided, mine, n, lay.floor),
                                arrays=(mine, other),
                                runs=partial(ply_kernels.mark_wins_runs, lay, side, n) if table.runs else None)
        return found

    def loss_ply(self, side: int, n: int, frontier: Frontier, exits: Exits) -> Frontier:
        """Even n: predecessors of the frontier (and exits or en passant double steps losing in n) whose
        every move loses by n.

        The predecessors are counted down (kernels.counters.count_losses) while the counters fit the
        bytes, else checked forward.  After a ply that pulls instead, the counters start again."""
        table, counters = self.table, self.counters
        lay, mine, other = table.packed, table.dtm[side], table.dtm[1 - side]
        steps, exit_value = table.double_steps[side], table.exit_value[side]
        ep = self.en_passant_worst(side)
        direct = [exits.at(n)]
        if steps.parent.size:
            direct.append(steps.parent[steps.defender_wins_in(other, lay.floor) == n - 1])
        counting = counters.white_counts_down(n) if side == WHITE else counters.on
        started = time.perf_counter()
        checked = table.checked  # all zero here: cleared after the forward checks that set bits
        checks = not counting or any(positions.size for positions in direct)
        push = partial(counter_kernels.count_losses if counting else ply_kernels.mark_losses, lay, side, n)
        runs = None
        if counting and side == WHITE and table.runs:  # see kernels.counters.count_white_runs
            runs = partial(counter_kernels.count_white_runs, lay, side, n)
        found, pulled = run_ply_jobs(table, side, n, frontier, direct,
                                     pull=partial(ply_kernels.pull_losses, lay, side, n), push=push,
                                     confirm=partial(ply_kernels.confirm_losses, lay, side, n),
                                     arrays=(mine, other, exit_value, *ep, checked), one_writer=counting, runs=runs)
        if checks:
            table.threads.map(lambda span: checked[span[0] : span[1]].fill(0), spans(checked.size, CHUNK))
        if counting and pulled:  # un-moves not counted: start again
            counters.clear(side)
        if side == WHITE and not counting:
            counters.add_white_checking(time.perf_counter() - started)
        return found

    def en_passant_worst(self, side: int) -> Tuple[np.ndarray, np.ndarray]:
        """``(parents, worst)``: the positions (``side`` to move, sorted, distinct) with a double step
        beside an enemy pawn, and the largest value the opponent gets through one of them (as far as
        decided: UNKNOWN if one escapes, -1 if none is legal).  The forward checks start from it."""
        table = self.table
        steps = table.double_steps[side]
        if not steps.parent.size:
            return np.empty(0, np.int64), np.empty(0, np.int16)
        value = steps.defender_wins_in(table.dtm[1 - side], table.packed.floor)
        starts = np.flatnonzero(np.r_[True, steps.parent[1:] != steps.parent[:-1]])
        return steps.parent[starts], np.maximum.reduceat(value, starts).astype(np.int16)

    def deepest_ply(self, frontiers: List[Frontier], exits) -> List[np.ndarray]:
        """Ply 254, the deepest a byte holds (KPPvKP reaches it: Black to move, mated in 127 moves).  Its n
        is the engine's ILLEGAL, so the positions it finds are handed back (per side to move, to be given
        254 once the arrays are finished) and set UNKNOWN again at once, so that the other side's check
        sees them as what they are, undecided this ply: a move into them escapes.  Raises if some position
        would mate in 255 plies, a value no byte holds.  (EnginePolicy.deepest_ply may make another ply
        the deepest, to test this path on a small table.)"""
        table, deepest = self.table, self.table.policy.deepest_ply
        found = []
        for side in SIDES:
            new = self.ply(side, deepest, frontiers[1 - side], exits[side])
            table.dtm[side][new] = UNKNOWN
            found.append(new)
        for side in SIDES:
            if table.can_win[side] and found[1 - side].size:
                longer = ply_kernels.mark_wins(table.packed, side, deepest + 1, found[1 - side].astype(np.int64),
                                               table.dtm[side], table.dtm[1 - side], np.empty(1, np.int32))
                # an undecided parent of a double step into such a position: perhaps a mate in 255 (not
                # worked out further: the defender might also capture en passant), so refused as well
                steps = table.double_steps[side]
                longer += np.count_nonzero(np.isin(steps.child, found[1 - side])
                                           & (table.dtm[side][steps.parent] == UNKNOWN))
                if longer:
                    raise RuntimeError(f"{table.material}: mates longer than {deepest} plies do not fit the DTM bytes")
        return found

    def finish(self) -> None:
        """Turn ILLEGAL (and the loss counters left) into UNKNOWN in place, at the end (chunk by chunk, on
        all threads): the arrays then hold a table's values."""
        table = self.table
        above = min(table.packed.floor, ILLEGAL)

        def clear(job: Tuple[np.ndarray, Tuple[int, int]]) -> None:
            to_unknown_from(job[0][job[1][0] : job[1][1]], above)

        table.threads.map(clear, [(a, span) for a in table.dtm for span in table.index_spans])
