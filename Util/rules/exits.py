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
runs it compiled, position by position (:mod:`Util.retrograde_kernels.exits`, tested
equal to this), and uses this one for the few en passant captures.

A promotion puts the new piece on the last rank, so of a table with pawns
that only promotions lead into, an eighth is ever read
(:class:`PromotionSlice`): where both sides have a pawn, that keeps the
first pass of a five-piece table from holding eight promotion tables of
half a gigabyte each.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..table.values import DRAW, NO_EXIT, better
from ..table.index_scheme import Layout
from ..board.material import PIECE_ORDER, PROMOTION_LETTERS, Material
from .moves import is_empty, pawn_direction, relative_rank
from .legality import gives_check, legal_with, occupancy

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


class ChildMove(NamedTuple):
    """One kind of capture or promotion of ``side`` and the table it leads into.

    Piece ``mover`` goes to the square of piece ``captured`` (-1: a pawn
    steps forward), taking it, and becomes ``piece`` (None: no promotion).
    The position after it is stored in the table of ``stored`` with
    ``white_to_move``; its piece k stands where parent piece ``parents[k]``
    stood (the mover: on its target), every square XOR ``flip`` (56 where
    the table is stored with the colours the other way round, which turns
    the board round).
    """

    mover: int
    captured: int
    piece: Optional[str]
    stored: Material
    white_to_move: bool
    flip: int
    parents: List[int]

    @property
    def promoted_rank(self) -> int:
        """For a promotion: the rank (0-7) of the new piece in the stored table.  The side that just moved
        is the one not to move there, and its pawns promote on its last rank: the eighth for White."""
        return 0 if self.white_to_move else 7

    @property
    def promoted_piece(self) -> int:
        """For a promotion: the new piece's number in the stored table's piece list."""
        return self.parents.index(self.mover)


def child_moves(layout: Layout, side: int) -> Iterator[ChildMove]:
    """Every kind of capture or promotion of ``side`` (0 White, 1 Black) in ``layout``'s material, in a
    fixed order: per mover, per captured piece (then a pawn's step), the move without promotion (if
    there is one) and then each promotion, Q R B N."""
    letters = layout.letters
    enemies = [j for j in layout.pieces_of[1 - side] if j >= 2]
    for mover in layout.pieces_of[side]:
        pawn = letters[mover] in "Pp"
        for captured in enemies + ([-1] if pawn else []):
            pieces = [None] + (list(PROMOTION_LETTERS) if pawn else [])
            if captured < 0:
                pieces = pieces[1:]  # a pawn's step without promotion stays in the table
            for piece in pieces:
                child = list(letters)
                if piece is not None:
                    child[mover] = piece if side == 0 else piece.lower()
                keep = [k for k in range(len(letters)) if k != captured]
                material, order = _child_order([child[k] for k in keep])
                parents = [keep[k] for k in order]
                white_to_move = side == 1
                if not material.is_canonical:  # the board turned round, the colours exchanged
                    whites = len(material.white)
                    parents = [parents[1], parents[0]] + parents[2 + whites :] + parents[2 : 2 + whites]
                    white_to_move = not white_to_move
                yield ChildMove(mover, captured, piece, material.canonical, white_to_move,
                                0 if material.is_canonical else 56, parents)


def promotion_slices(material: Material) -> Dict[Material, Tuple[bool, int, int]]:
    """The tables with pawns that ``material``'s moves reach only by promotions: per such table
    (canonical), ``(white_to_move, piece, rank)`` of the part those promotions read (see
    :class:`PromotionSlice`).  A table that other moves reach too, or promotions in two parts, is left
    out: it is read whole."""
    layout = Layout(material)
    parts: Dict[Material, set] = {}
    for side in (0, 1):
        for move in child_moves(layout, side):
            part = (move.white_to_move, move.promoted_piece, move.promoted_rank) if move.piece else None
            parts.setdefault(move.stored, set()).add(part)
    return {m: next(iter(p)) for m, p in parts.items() if m.has_pawns and len(p) == 1 and None not in p}


class PromotionSlice:
    """The part of a finished table with pawns that promotions lead into: one side to move, and only
    the positions with the new piece (``piece`` in the table's piece list) on the promotion ``rank``.

    A table with pawns folds only left to right, so that piece keeps its
    rank in the stored index: its 6-bit field holds 8 of 64 squares, and
    the part is an eighth of the side of a five-piece table, and so are
    the four promotion tables of a pawn with pieces on both sides.  Looked up like a
    DtmTable (``dtm``), or, compiled, by :meth:`index`'s arithmetic.
    """

    def __init__(self, table, white_to_move: bool, piece: int, rank: int):
        self.material, self.layout = table.material, table.layout
        self.white_to_move, self.piece, self.rank = white_to_move, piece, rank
        #: the bit position of the piece's square in a full index
        self.shift = 6 * (self.layout.piece_count - 1 - piece)
        side = table.dtm_white if white_to_move else table.dtm_black
        self.values = np.ascontiguousarray(side.reshape(-1, 64, 1 << self.shift)[:, 8 * rank : 8 * rank + 8]).ravel()

    def index(self, full: np.ndarray) -> np.ndarray:
        """Where entry ``full`` of the whole side (the piece on the rank) is kept in ``values``."""
        low = full & ((1 << self.shift) - 1)
        file = ((full >> self.shift) & 63) - 8 * self.rank
        return ((full >> (self.shift + 6)) << (self.shift + 3)) | (file << self.shift) | low

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM values of positions given by their squares in PIECE_LIST order, as DtmTable.dtm (which the
        part must hold: that side to move, the piece on the rank)."""
        full = self.layout.encode_canonical(squares)
        if white_to_move != self.white_to_move or (((full >> self.shift) & 63) >> 3 != self.rank).any():
            raise ValueError(f"{self.material}: a position outside the part that promotions lead into")
        return self.values[self.index(full)]


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
