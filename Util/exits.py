"""Exits: moves that leave the table, into smaller tables that are finished first.

A capture removes a piece, a promotion changes one: either move leads
into another material's table, which is computed before this one and only
looked up here.  For every position and side to move the engine needs the
best result such a move gives the mover, as one byte:

* ``NO_EXIT`` (0): the side to move has no legal capture or promotion;
* odd ``e``: the best one mates in ``e`` plies (the child is lost in e-1);
* even ``e``: every one is mated, the slowest in ``e`` plies;
* ``DRAW`` (255): the best one draws.

A child table may be stored with the colours the other way round (``Rxq``
in KQvKR leaves KRvK with Black to move and White a lone king: the table
KRvK seen from the other side): :class:`SubTables` looks such positions up
with the board turned round and the colours exchanged, which keeps the
value: odd n is always a win for the side to move.

:class:`ExitFinder` states the rule on numpy arrays; the engine's first pass
runs it compiled, position by position (:mod:`Util.kernel_exits`, tested
equal to this), and uses this one for the few en passant captures.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .layout import Layout
from .material import PIECE_ORDER, PROMOTION_LETTERS, Material
from .moves import is_empty, pawn_direction, relative_rank
from .rules import gives_check, legal_with, occupancy

#: Exit byte of a position without a capture or promotion.
NO_EXIT = 0
#: DTM byte of a position that is in no S_n (a draw, or not a legal position).
UNKNOWN = 255
#: Exit byte (and DTM byte) of a draw.
DRAW = UNKNOWN
#: DTM byte, inside the engine only, of an index that is no legal position with that side to move.
#: Legality then costs no extra look-up: "undecided and legal" is one comparison with UNKNOWN.
#: Outside the engine (tables, checkpoints) such indices hold UNKNOWN.
ILLEGAL = 254


def outcome_rank(value: np.ndarray) -> np.ndarray:
    """Sort key of exit bytes for the mover: a faster mate ranks higher, then a draw, then a slower
    defeat; NO_EXIT lowest."""
    v = value.astype(np.int16)
    return np.where(v == NO_EXIT, -1, np.where(v == DRAW, 512, np.where(v & 1 == 1, 1024 - v, v)))


def better(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The better exit byte of two, for the side to move."""
    return np.where(outcome_rank(a) >= outcome_rank(b), a, b)


class SubTables:
    """Finished tables by canonical material, looked up in either orientation."""

    def __init__(self, tables: Dict[Material, "object"]):
        self.tables = tables

    def values(self, material: Material, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM bytes of positions of ``material`` (squares in its PIECE_LIST order)."""
        canonical = material.canonical
        table = self.tables[canonical]
        if material == canonical:
            return table.dtm(squares, white_to_move)
        # Turn the board round (a1 <-> a8) and exchange the colours: the black king becomes the white one.
        flipped = [np.asarray(s).astype(np.int64) ^ 56 for s in squares]
        whites = len(material.white)
        ordered = [flipped[1], flipped[0]] + flipped[2 + whites :] + flipped[2 : 2 + whites]
        return table.dtm(ordered, not white_to_move)


def _child_order(letters: List[str]) -> Tuple[Material, List[int]]:
    """Material of the pieces ``letters`` (kings first) and the order that lists them as its PIECE_LIST."""
    whites = sorted((i for i in range(2, len(letters)) if letters[i].isupper()),
                    key=lambda i: PIECE_ORDER.index(letters[i]))
    blacks = sorted((i for i in range(2, len(letters)) if letters[i].islower()),
                    key=lambda i: PIECE_ORDER.index(letters[i].upper()))
    material = Material("".join(letters[i] for i in whites), "".join(letters[i].upper() for i in blacks))
    return material, [0, 1] + whites + blacks


class ExitFinder:
    """The exit byte of positions of one material, for either side to move."""

    def __init__(self, layout: Layout, subtables: SubTables):
        self.layout = layout
        self.subtables = subtables

    def has_exits(self, side: int) -> bool:
        """Can ``side`` ever capture or promote in this material?"""
        return len(self.layout.pieces_of[1 - side]) > 1 or any(self.layout.letters[i] in "Pp"
                                                                 for i in self.layout.pieces_of[side])

    def values(self, side: int, squares: List[np.ndarray]) -> np.ndarray:
        """Exit byte of each position (``side`` to move; the positions must be legal so)."""
        letters = self.layout.letters
        best = np.zeros(np.shape(squares[0]), dtype=np.uint8)
        occ = occupancy(squares)
        enemies = [j for j in self.layout.pieces_of[1 - side] if j >= 2]
        for i in self.layout.pieces_of[side]:
            pawn = letters[i] in "Pp"
            for j in enemies:
                rows = np.flatnonzero(gives_check(letters[i], squares[i], squares[j], occ))
                if rows.size:
                    promoting = pawn & (relative_rank(letters[i], squares[i][rows]) == 6)
                    for keep, pieces in ((~promoting, (None,)), (promoting, PROMOTION_LETTERS)):
                        part = rows[keep]
                        if part.size:
                            value = self._best_child(side, squares, part, i, squares[j][part], j, pieces)
                            best[part] = better(best[part], value)
            if pawn:
                ahead = squares[i].astype(np.int64) + pawn_direction(letters[i])
                rows = np.flatnonzero((relative_rank(letters[i], squares[i]) == 6) & is_empty(occ, ahead))
                if rows.size:
                    value = self._best_child(side, squares, rows, i, ahead[rows], None, PROMOTION_LETTERS)
                    best[rows] = better(best[rows], value)
        return best

    def move_value(self, side: int, squares: List[np.ndarray], mover: int, target: np.ndarray,
                   captured: int) -> np.ndarray:
        """Exit byte of one capture per position (no promotion): piece ``mover`` to ``target``, taking
        piece ``captured`` (which need not stand on ``target``: en passant)."""
        return self._best_child(side, squares, np.arange(target.size), mover, target, captured, (None,))

    def _best_child(self, side: int, squares: List[np.ndarray], rows: np.ndarray, mover: int, target: np.ndarray,
                    captured: Optional[int], pieces: Sequence[Optional[str]]) -> np.ndarray:
        """Best exit byte over the moves of piece ``mover`` to ``target`` (taking piece ``captured``),
        promoting to each of ``pieces`` (None: no promotion)."""
        best = np.zeros(rows.size, dtype=np.uint8)
        for piece in pieces:
            letters = list(self.layout.letters)
            if piece is not None:
                letters[mover] = piece if side == 0 else piece.lower()
            part = [s[rows].astype(np.int64) for s in squares]
            part[mover] = target
            keep = [k for k in range(len(letters)) if k != captured]
            material, order = _child_order([letters[k] for k in keep])
            child = [part[keep[k]] for k in order]
            child_letters = "".join(letters[keep[k]] for k in order)
            legal = legal_with(child_letters, child, white_to_move=side == 1)
            value = self.subtables.values(material, child, white_to_move=side == 1).astype(np.int16)
            if (value[legal & (value != DRAW)] >= 253).any():
                raise RuntimeError(f"{material}: mates longer than 252 plies do not fit the DTM bytes")
            exit_value = np.where(value == DRAW, DRAW, value + 1).astype(np.uint8)
            best = better(best, np.where(legal, exit_value, NO_EXIT).astype(np.uint8))
        return best
