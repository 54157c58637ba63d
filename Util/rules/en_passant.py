"""En passant: the one move whose value depends on the move before it.

After a pawn's double step lands beside an enemy pawn, that pawn may take
it en passant, on this move only.  The position after the double step is
then not the table's position of the same pieces: it has one move more.
Its value for the side that moves next (the *defender* here, ``o``) is the
better of

* the table's value of the same pieces (``tv``), which covers every other
  move, and
* the en passant capture, which leaves the table: its exit byte ``e``
  (:mod:`Util.rules.exits`), found once like every other exit.

If the en passant capture is the only move (``tv`` stems from a position
without moves: checkmate or stalemate), its value is the position's value.

The engine therefore leaves these double steps out of its ordinary moves
and un-moves (:mod:`Util.rules.moves`) and keeps them in a short list instead,
one entry per double step: the position before it (``parent``), the table
position after it (``child``), ``e``, and whether the child has other moves.
Each ply it evaluates the whole list, which is a small fraction of a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

import numpy as np

from ..table.values import DRAW, ILLEGAL, NO_EXIT, UNKNOWN, better, undecided
from .exits import ExitFinder
from ..table.index_scheme import Layout
from .moves import EP_NEIGHBOURS, is_empty, pawn_direction, relative_rank
from .legality import occupancy


@dataclass
class DoubleSteps:
    """The double steps of one side after which the other side may take en passant (sorted by parent)."""

    parent: np.ndarray  # int64 indices, side to move
    child: np.ndarray  # int64 indices, the other side to move
    exit: np.ndarray  # uint8: the other side's best en passant capture (NO_EXIT: none is legal)
    child_moves: np.ndarray  # bool: the other side has a move besides en passant in the child

    @classmethod
    def empty(cls) -> "DoubleSteps":
        return cls(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.uint8), np.empty(0, bool))

    @classmethod
    def of(cls, parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray]]) -> "DoubleSteps":
        if not parts:
            return cls.empty()
        parent, child, exit_value = (np.concatenate([p[k] for p in parts]) for k in range(3))
        order = np.argsort(parent, kind="stable")
        return cls(parent[order], child[order], exit_value[order], np.ones(parent.size, dtype=bool))

    # ---- the value of the position after the double step, as far as it is decided ------------
    def defender_wins_in(self, values: np.ndarray, floor: int = UNKNOWN, steps=slice(None)) -> np.ndarray:
        """Per double step (``steps`` of them): n if the defender (to move after it) mates in n, as far as
        decided, else UNKNOWN; -1 where the double step is illegal.  ``values``: the defender's DTM array
        in the engine (undecided: UNKNOWN, or a loss counter from byte ``floor`` up; illegal: ILLEGAL)."""
        table = _table_values(values, self.child[steps], floor)
        e = self.exit[steps].astype(np.int16)
        odd_table = np.where((table & 1 == 1) & (table < ILLEGAL), table, UNKNOWN)
        odd_exit = np.where((e & 1 == 1) & (e != DRAW), e, UNKNOWN)
        wins = np.where(self.child_moves[steps], np.minimum(odd_table, odd_exit), odd_exit)
        return np.where(table == ILLEGAL, -1, wins)

    def defender_loses_in(self, values: np.ndarray, floor: int = UNKNOWN) -> np.ndarray:
        """Per double step: n if the defender is mated in n whatever it does (as far as decided); else -1."""
        table = _table_values(values, self.child, floor)
        e = self.exit.astype(np.int16)
        table_loses = (table & 1 == 0) & (table < ILLEGAL)
        exit_loses = (e == NO_EXIT) | ((e & 1 == 0) & (e != DRAW))
        with_moves = np.where(table_loses & exit_loses, np.maximum(table, e), -1)
        only_capture = np.where(e == NO_EXIT, np.where(table_loses, table, -1), np.where(exit_loses, e, -1))
        return np.where(self.child_moves, with_moves, only_capture)

    def rows_of(self, index: np.ndarray) -> List[Tuple[np.ndarray, np.ndarray]]:
        """``(rows, steps)`` pairs: position ``index[rows]`` is the parent of double step ``steps``."""
        start = np.searchsorted(self.parent, index, side="left")
        stop = np.searchsorted(self.parent, index, side="right")
        pairs = []
        for k in range(int((stop - start).max()) if index.size else 0):
            rows = np.flatnonzero(stop - start > k)
            pairs.append((rows, start[rows] + k))
        return pairs


def _table_values(values: np.ndarray, child: np.ndarray, floor: int) -> np.ndarray:
    """The engine's bytes of the positions ``child`` (int16), a loss counter (kernels.count_losses: from
    ``floor`` up, ILLEGAL excepted) read as the UNKNOWN it stands for."""
    table = values[child].astype(np.int16)
    table[undecided(table, floor)] = UNKNOWN
    return table


def double_step_candidates(layout: Layout, side: int) -> np.ndarray:
    """The indices (sorted, distinct, int64) in which a pawn of ``side`` stands on its starting rank and an
    enemy pawn beside the square two ahead of it: the only ones in which :func:`find_double_steps` can
    find a double step (whether the squares between are free, and the position legal, it checks itself).

    Built from the index's fields, not searched: two fields are fixed, so they are about one index in
    three hundred per pair of pawns (KRPvKP: 1.8 million of 537 million per side), and the first pass
    looks at these only."""
    letters, strides = layout.letters, [int(s) for s in layout.strides]
    ranges = [np.arange(len(layout.king_squares), dtype=np.int64) * strides[0]]
    ranges += [np.arange(64, dtype=np.int64) * strides[k] for k in range(1, layout.piece_count)]
    parts = []
    for i in [i for i in layout.pieces_of[side] if letters[i] in "Pp"]:
        for j in [j for j in layout.pieces_of[1 - side] if letters[j] in "Pp"]:
            rest = [r for k, r in enumerate(ranges) if k not in (i, j)]
            base = rest[0]
            for r in rest[1:]:
                base = np.add.outer(base, r).ravel()
            step = pawn_direction(letters[i])
            for start in np.flatnonzero(relative_rank(letters[i], np.arange(64)) == 1):
                landing = int(start) + 2 * step
                for beside in np.flatnonzero((int(EP_NEIGHBOURS[landing]) >> np.arange(64)) & 1):
                    parts.append(base + int(start) * strides[i] + int(beside) * strides[j])
    if not parts:
        return np.empty(0, np.int64)
    found = np.sort(np.concatenate(parts))  # np.unique hashes first: ten times slower here
    return found[np.r_[True, found[1:] != found[:-1]]]


def find_double_steps(layout: Layout, side: int, index: np.ndarray,
                      squares: List[np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(parent, child, pawn)`` of the double steps of ``side`` in the positions ``index`` (legal with
    ``side`` to move) that land beside an enemy pawn; ``pawn`` is the PIECE_LIST position of the pawn."""
    letters = layout.letters
    occ = occupancy(squares)
    enemy = occupancy([squares[j] for j in layout.pieces_of[1 - side] if letters[j] in "Pp"])
    parents, children, pawns = [], [], []
    for i in layout.pieces_of[side]:
        if letters[i] not in "Pp":
            continue
        square = squares[i].astype(np.int64)
        step = pawn_direction(letters[i])
        start = relative_rank(letters[i], squares[i]) == 1
        one = np.where(start, square + step, -1)
        two = np.where(start & is_empty(occ, one), square + 2 * step, -1)
        rows = np.flatnonzero(is_empty(occ, two))
        rows = rows[(enemy[rows] & EP_NEIGHBOURS[two[rows]]) != 0]
        parents.append(index[rows])
        children.append(index[rows] + 2 * step * int(layout.strides[i]))
        pawns.append(np.full(rows.size, i, dtype=np.int8))
    if not parents:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int8)
    return np.concatenate(parents), np.concatenate(children), np.concatenate(pawns)


def capture_exits(layout: Layout, exits: ExitFinder, side: int, child: np.ndarray, pawn: np.ndarray) -> np.ndarray:
    """Exit byte of the other side's best en passant capture after the double step of ``pawn`` (of
    ``side``) that gave the positions ``child``; NO_EXIT where none is legal."""
    defender = 1 - side
    letters = layout.letters
    squares = [s.astype(np.int64) for s in layout.decode(child)]
    best = np.zeros(child.size, dtype=np.uint8)
    for i in np.unique(pawn):
        mine = np.flatnonzero(pawn == i)
        landed = squares[i][mine]
        passed = landed - pawn_direction(letters[i])  # the square the pawn skipped: the capturing pawn goes there
        for j in layout.pieces_of[defender]:
            if letters[j] not in "Pp":
                continue
            rows = mine[(EP_NEIGHBOURS[landed] >> squares[j][mine].astype(np.uint64)) & np.uint64(1) == 1]
            if not rows.size:
                continue
            part = [s[rows] for s in squares]
            target = passed[np.searchsorted(mine, rows)]
            best[rows] = better(best[rows], exits.move_value(defender, part, j, target, int(i)))
    return best
