"""The first pass: every index visited once, before the plies.

It marks the indices that are no legal position ILLEGAL (both sides to
move) and sets the in-check bits (:mod:`Util.retrograde_kernels.legality`); it gives
every position of a side that can lose its exit byte, the best result of a
capture or promotion into a smaller table (:mod:`Util.retrograde_kernels.exits`), and
lists, per ply, the positions such a move decides; and it finds the en
passant double steps (:mod:`Util.rules.en_passant`).  It is the only pass that
reads the sub-tables: with ``release_subtables`` it lets them go as soon
as it can.
"""

from __future__ import annotations

from functools import partial
from typing import Dict, List, Optional, Tuple

import numpy as np

from ..table.values import DRAW, ILLEGAL, NO_EXIT
from ..rules.en_passant import DoubleSteps, capture_exits, double_step_candidates, find_double_steps
from ..rules.exits import ExitFinder, SubTables
from ..retrograde_kernels.exits import ExitPass
from ..retrograde_kernels.legality import mark_legality
from ..board.material import Material
from ..rules.moves import successors
from .frontiers import ExitList, ExitScan
from .state import BLACK, SIDES, WHITE, WorkingTable

#: The exits of one side to move: listed by ply, or read from its exit bytes a window of plies at a time.
Exits = "ExitList | ExitScan"


class FirstPass:
    """Legality, exit bytes and en passant double steps of every index of ``table``."""

    def __init__(self, table: WorkingTable, subtables: Dict[Material, object]):
        self.table = table
        self.exits: Optional[ExitFinder] = ExitFinder(table.layout, SubTables(subtables))
        self.exit_pass: List[Optional[ExitPass]] = [None, None]  # during the pass only
        self.double_step_candidates: List[Optional[np.ndarray]] = [None, None]  # during the pass only

    def run(self, release_subtables: bool = False) -> Tuple[Exits, Exits]:
        """Legality of every index, and the exits into other tables (per side to move).

        With ``release_subtables``, a large table does it side by side: legality first, then one side's
        exits, then the sub-tables that only that side's moves lead into (the promotion tables of a White
        pawn: 0.7 GB for KRPvKR) are let go before the other side's exit bytes fill their half gigabyte,
        then the other side's exits and the tables only its moves lead into.  The side with the larger
        such tables goes first (see side_by_side_order).  Where both sides have pawns, each side's en
        passant captures (after the other side's double steps) are valued in that side's half, once the
        tables of its other exits are gone: KPPvKP's first pass then peaks at 2.74 GB, not 3.31 GB (with
        stand-in sub-tables of the same size)."""
        table, layout = self.table, self.table.layout
        spans = table.index_spans
        if layout.en_passant_possible:  # found before the threads ask for them
            self.double_step_candidates = [double_step_candidates(layout, side) for side in SIDES]
        self.exit_pass = [ExitPass(layout, side, self.exits.subtables) if self.exits.has_exits(side) else None
                          for side in SIDES]
        if release_subtables and layout.size >= table.policy.side_by_side_from:
            table.threads.map(self.mark_legality, spans)
            by_side = {}
            for side in self.side_by_side_order():
                by_side[side] = table.threads.map(partial(self.side_exits, side), spans)
                self.exit_pass[side] = None  # it holds the sub-tables' arrays too
                if not layout.en_passant_possible:
                    self.release_subtables_only_read_by(side)
                    continue
                # side's en passant captures (after the other side's double steps) read one table more
                self.release_subtables_only_read_by(side, keep=table.material.without("P", side == BLACK).canonical)
                self.find_double_steps(1 - side, table.threads.map(partial(self.double_steps_in, 1 - side), spans))
            parts = [list(pair) for pair in zip(by_side[WHITE], by_side[BLACK])]
        else:
            parts = table.threads.map(self.whole_span, spans)
            if layout.en_passant_possible:
                for side in SIDES:
                    self.find_double_steps(side, [p[2 + side] for p in parts])
        self.exit_pass, self.double_step_candidates = [None, None], [None, None]
        if layout.en_passant_possible:
            for side in SIDES:  # needs every position's legality and both sides' exit bytes
                steps = table.double_steps[side]
                steps.child_moves = self.has_move(1 - side, steps.child)
        exits = []
        for side in SIDES:
            if table.exit_value[side] is not None:  # the exit bytes are kept: read the exits from them
                span_counts = np.array([p[side][1] for p in parts])
                exits.append(ExitScan(table.exit_value[side], span_counts, spans, table.threads))
                continue
            indices, values = [p[side][0] for p in parts], [p[side][1] for p in parts]
            for p in parts:
                p[side] = None
            exits.append(ExitList.of(indices, values))
        return tuple(exits)

    def release_subtables(self) -> None:
        """Let go of the sub-tables (after :meth:`run`, the only pass that reads them)."""
        self.exits.subtables.tables.clear()
        self.exits = None

    def side_by_side_order(self) -> List[int]:
        """First the side whose moves alone lead into the larger sub-tables: they are let go before the other
        side's exit bytes fill their half gigabyte, which lowers the peak (KQQvKP's Black promotions lead into
        four pawnless five-piece tables; figures in docs/performance.md)."""
        tables, material = self.exits.subtables.tables, self.table.material
        reads = [{child.canonical for child, white_moved in material.moves_out() if white_moved == (side == WHITE)}
                 for side in SIDES]
        alone = [sum(table_bytes(tables[m]) for m in reads[side] - reads[1 - side] if m in tables) for side in SIDES]
        return sorted(SIDES, key=lambda side: -alone[side])

    def find_double_steps(self, side: int, parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
        """``side``'s double steps after which en passant is possible (``parts``: per chunk, see
        find_double_steps), with the value of that capture; whether the defender has other moves is found
        once the first pass is through (it needs every position's legality)."""
        parent, child, pawn = (np.concatenate([p[k] for p in parts]) for k in range(3))
        parts.clear()
        exit_value = capture_exits(self.table.layout, self.exits, side, child, pawn)
        self.table.double_steps[side] = DoubleSteps.of([(parent, child, exit_value)])

    def double_steps_in(self, side: int, span: Tuple[int, int]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """find_double_steps over the legal positions in ``span`` with ``side`` to move (of those that can
        have one: double_step_candidates, found once per side)."""
        layout = self.table.layout
        candidates = self.double_step_candidates[side]
        if candidates is None:
            candidates = self.double_step_candidates[side] = double_step_candidates(layout, side)
        low, high = np.searchsorted(candidates, span)
        index = candidates[low:high]
        index = index[self.table.dtm[side][index] != ILLEGAL]
        return find_double_steps(layout, side, index, layout.decode(index))

    def has_move(self, side: int, index: np.ndarray) -> np.ndarray:
        """Whether ``side`` has a legal move in each position (``side`` to move); values need not be known."""
        table = self.table
        other = table.dtm[1 - side]
        found = table.exit_value[side][index] != NO_EXIT
        for rows, child in successors(table.layout, side, index):
            found[rows] |= other[child] != ILLEGAL
        steps = table.double_steps[side]
        for rows, step in steps.rows_of(index):
            found[rows] |= other[steps.child[step]] != ILLEGAL
        return found

    def whole_span(self, span: Tuple[int, int]) -> List[Tuple[np.ndarray, np.ndarray]]:
        """Legality, check and exit byte of the indices in ``span``; per side, the exits (index, value)
        that decide a position at some ply, or where the exit bytes are kept, (None, how many positions
        have each exit byte); then, where en passant is possible, each side's double steps."""
        self.mark_legality(span)
        if not any(self.exits.has_exits(side) for side in SIDES):
            return [self.no_exits(side) for side in SIDES]
        found = [self.side_exits(side, span) for side in SIDES]
        if self.table.layout.en_passant_possible:
            found += [self.double_steps_in(side, span) for side in SIDES]
        return found

    def mark_legality(self, span: Tuple[int, int]) -> None:
        """Mark the illegal indices of ``span`` ILLEGAL (both sides to move) and set the in-check bits."""
        table = self.table
        none = np.empty(0, np.uint8)
        checks = [table.in_check[s] if table.can_lose[s] else none for s in SIDES]
        mark_legality(table.packed, *span, *table.dtm, *checks)

    def no_exits(self, side: int) -> Tuple[np.ndarray, np.ndarray]:
        return (None, np.zeros(256, np.int64)) if self.table.can_lose[side] else (np.empty(0, np.int32),
                                                                                 np.empty(0, np.uint8))

    def side_exits(self, side: int, span: Tuple[int, int]) -> Tuple[np.ndarray, np.ndarray]:
        """``side``'s exits from the legal positions in ``span`` (legality already marked): written to the
        exit bytes where those are kept (then ``(None, counts per byte)``), else ``(indices, values)`` of
        those that decide a position."""
        exit_pass, table = self.exit_pass[side], self.table
        if exit_pass is None:
            return self.no_exits(side)
        start, stop = span
        if table.can_lose[side]:
            return None, exit_pass(start, stop, table.dtm[side], table.exit_value[side][start:stop])
        value = np.empty(stop - start, dtype=np.uint8)
        exit_pass(start, stop, table.dtm[side], value)
        deciding = np.flatnonzero((value != NO_EXIT) & (value != DRAW))
        return (deciding + start).astype(np.int32), value[deciding]

    def release_subtables_only_read_by(self, side: int, keep: Optional[Material] = None) -> None:
        """Let go of the sub-tables that only ``side``'s moves lead into (no exit of the other side reads
        them), except ``keep``."""
        other_reads = {child.canonical for child, white_moved in self.table.material.moves_out()
                       if white_moved != (side == WHITE)} | {keep}
        tables = self.exits.subtables.tables
        for material in [m for m in tables if m not in other_reads]:
            del tables[material]


def table_bytes(table) -> int:
    """Memory held by a sub-table's arrays (a DtmTable, or the PromotionSlice of one)."""
    arrays = [getattr(table, name, None) for name in ("values", "dtm_white", "dtm_black")]
    return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
