"""The engine's index of positions for one material.

A position of ``N`` pieces (PIECE_LIST order: white king, black king,
White's other pieces, Black's other pieces) gets the index::

    slot(wk) * 64**(N-1) + bk * 64**(N-2) + sq_2 * 64**(N-3) + ... + sq_(N-1)

where ``slot`` numbers the canonical white-king squares (10 without pawns,
32 with).  A position whose white king stands elsewhere is first moved by a
symmetry (:mod:`Util.board.symmetry`).  Squares that collide or break the rules
are simply left unused, so moving piece ``i`` from ``s`` to ``t`` changes
the index by ``(t - s) * stride[i]``: plain arithmetic, no tables.

Identical pieces (``KBBvK``) appear in both orders; both entries always
carry the same value.  One DTM array per side to move holds the values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import List, Sequence, Tuple

import numpy as np

from ..board.material import Material
from ..board.symmetry import TRANSFORMS, Swap_Type, allowed_transforms, canonical_king_squares, folding_transform

__all__ = ["Layout"]

_TRANSFORMS_FLAT = TRANSFORMS.ravel()


@dataclass(frozen=True)
class Layout:
    """Index arithmetic for one material."""

    material: Material
    king_squares: tuple = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "king_squares", canonical_king_squares(self.material.has_pawns))

    @property
    def piece_count(self) -> int:
        return self.material.piece_count

    @cached_property
    def strides(self) -> np.ndarray:
        """Index step per square of each piece (piece 0's is per king slot)."""
        n = self.piece_count
        return np.array([64 ** (n - 1 - i) for i in range(n)], dtype=np.int64)

    @property
    def size(self) -> int:
        """Entries per side to move."""
        return len(self.king_squares) * 64 ** (self.piece_count - 1)

    @cached_property
    def slot_of_square(self) -> np.ndarray:
        """``slot_of_square[sq]``: slot of a canonical white-king square, -1 elsewhere."""
        table = np.full(64, -1, dtype=np.int64)
        table[list(self.king_squares)] = np.arange(len(self.king_squares))
        return table

    @cached_property
    def square_of_slot(self) -> np.ndarray:
        return np.array(self.king_squares, dtype=np.int8)

    @cached_property
    def fold(self) -> np.ndarray:
        """``fold[wk]``: the symmetry (row of TRANSFORMS) that canonicalises a position by its white king."""
        return folding_transform(self.material.has_pawns)

    @cached_property
    def _fold_start(self) -> np.ndarray:
        """``_fold_start[wk]``: where the folding row begins in the flattened TRANSFORMS."""
        return self.fold.astype(np.int64) * 64

    @property
    def transforms(self) -> tuple:
        return allowed_transforms(self.material.has_pawns)

    @cached_property
    def square_orbit(self) -> np.ndarray:
        """``square_orbit[sq]``: the lowest square the table's symmetries take ``sq`` to (int64), which
        names the set of squares a piece on ``sq`` can be moved to by folding a position."""
        return TRANSFORMS[list(self.transforms)].astype(np.int64).min(axis=0)

    @cached_property
    def letters(self) -> str:
        """Piece symbols in PIECE_LIST order: ``"Kk"``, White's pieces, Black's (lower case)."""
        return self.material.letters

    @cached_property
    def en_passant_possible(self) -> bool:
        """Both sides have pawns."""
        return "P" in self.material.white and "P" in self.material.black

    @cached_property
    def pieces_of(self) -> tuple:
        """``pieces_of[side]``: PIECE_LIST positions of that side's pieces, king first (side 0 = White)."""
        white = tuple(i for i, c in enumerate(self.letters) if c.isupper())
        black = tuple(i for i, c in enumerate(self.letters) if c.islower())
        return white, black

    @cached_property
    def identical_groups(self) -> List[List[int]]:
        """Positions in PIECE_LIST of pieces that are the same type (groups of two or more)."""
        groups = {}
        for i, c in enumerate(self.letters):
            if i >= 2:
                groups.setdefault(c, []).append(i)
        return [g for g in groups.values() if len(g) > 1]

    def decode(self, index: np.ndarray) -> List[np.ndarray]:
        """Squares (int8 arrays, PIECE_LIST order) of the positions with these indices."""
        index = np.asarray(index, dtype=np.int64)
        squares = []
        rest = index
        for i in range(self.piece_count - 1, 0, -1):
            squares.append((rest & 63).astype(np.int8))
            rest = rest >> 6
        squares.append(self.square_of_slot[rest])
        return squares[::-1]

    @cached_property
    def diagonal_slot(self) -> np.ndarray:
        """``diagonal_slot[slot]``: the canonical king square is on the a1-h8 diagonal (pawnless only).

        Such positions have two entries (a position and its mirror in that
        diagonal); the engine keeps both and gives them the same value.
        """
        squares = np.array(self.king_squares)
        on_diagonal = (squares & 7) == (squares >> 3)
        return on_diagonal & (not self.material.has_pawns)

    def diagonal_twins(self, index: np.ndarray) -> np.ndarray:
        """For the entries whose king is on the diagonal, the index of their mirror entry."""
        index = np.asarray(index, dtype=np.int64)
        index = index[self.diagonal_slot[index // self.strides[0]]]
        squares = self.decode(index)
        row = 1 + list(Swap_Type).index(Swap_Type.DIAGONAL)
        mirrored = [TRANSFORMS[row, s].astype(np.int64) for s in squares]
        twin = self.slot_of_square[mirrored[0]] * self.strides[0]
        for i in range(1, self.piece_count):
            twin = twin + mirrored[i] * self.strides[i]
        return twin

    def encode_canonical(self, squares: Sequence[np.ndarray]) -> np.ndarray:
        """Index of each position given by its squares (PIECE_LIST order), folding by symmetry first."""
        squares = [np.asarray(s, dtype=np.int64) for s in squares]
        row_start = self._fold_start[squares[0]]  # a flat take is 2-3x faster than TRANSFORMS[rows, s]
        folded = [np.take(_TRANSFORMS_FLAT, row_start + s) for s in squares]
        index = self.slot_of_square[folded[0]] * self.strides[0]
        for i in range(1, self.piece_count):
            index = index + folded[i].astype(np.int64) * self.strides[i]
        return index

    # ---- entries that repeat another entry's value (left out of files) -------------------
    def _identical_swaps(self) -> List[tuple]:
        """Axis pairs of a sorting network over each group of identical pieces (axis i = piece i)."""
        swaps = []
        for group in self.identical_groups:
            if len(group) == 2:
                swaps.append((group[0], group[1]))
            else:  # three identical pieces
                a, b, c = group
                swaps += [(a, b), (b, c), (a, b)]
        return swaps

    def _axis_values(self, axis: int) -> np.ndarray:
        """Square numbers 0..63 shaped to broadcast along ``axis`` of the index array."""
        shape = [1] * self.piece_count
        shape[axis] = 64
        return np.arange(64).reshape(shape)

    @property
    def _shape(self) -> tuple:
        return (len(self.king_squares),) + (64,) * (self.piece_count - 1)

    def _diagonal_twins(self):
        """Yield ``(start, offsets, twins)`` for each white-king slot on the a1-h8 diagonal (pawnless
        only): the entries ``start + offsets`` repeat the entries ``start + twins``.

        Those entries have the identical pieces ascending, and their diagonal
        mirror (identical pieces put in order again) sorts lower.  The rule
        does not depend on the slot, so it is found once for all of them.
        """
        if self.material.has_pawns:
            return
        offsets, twins = _diagonal_rule(self.piece_count, tuple(map(tuple, self.identical_groups)))
        per_slot = 64 ** (self.piece_count - 1)
        for slot in np.flatnonzero(self.diagonal_slot):
            yield int(slot) * per_slot, offsets, twins

    def blank_duplicates(self, values: np.ndarray, blank: int, first_slot: int = 0) -> np.ndarray:
        """A copy of ``values`` with every entry that repeats another set to ``blank``.

        ``values`` holds the entries of whole white-king slots, from slot
        ``first_slot`` on (all of them by default), so a table can be blanked
        piece by piece.  :meth:`restore_duplicates` undoes it.  Files store the
        blanked copy: the blanks compress to almost nothing.
        """
        out = values.copy()
        per_slot = 64 ** (self.piece_count - 1)
        slots = out.size // per_slot
        view = out.reshape((slots,) + self._shape[1:])
        for a, b in self._identical_swaps():
            view[np.broadcast_to(self._axis_values(a) > self._axis_values(b), view.shape)] = blank
        for start, offsets, _ in self._diagonal_twins():
            if first_slot * per_slot <= start < (first_slot + slots) * per_slot:
                out[start - first_slot * per_slot + offsets] = blank
        return out

    def restore_duplicates(self, values: np.ndarray) -> None:
        """Fill the entries blanked by :meth:`blank_duplicates` from the entries they repeat (in place)."""
        for start, offsets, twins in self._diagonal_twins():
            values[start + offsets] = values[start + twins]
        view = values.reshape(self._shape)
        for a, b in reversed(self._identical_swaps()):
            swapped = np.where(self._axis_values(a) > self._axis_values(b), view.swapaxes(a, b), view)
            view[...] = swapped


@lru_cache(maxsize=8)  # every group of identical pieces in five: at most 150 MB
def _diagonal_rule(piece_count: int, identical_groups: Tuple[Tuple[int, ...], ...]) -> Tuple[np.ndarray, np.ndarray]:
    """Within one diagonal white-king slot: ``(offsets, twins)`` (int32, ascending offsets) of the entries
    that repeat a lower one.

    An offset holds the squares of pieces 1..N-1 (6 bits each, piece 1
    highest), so comparing offsets compares positions piece by piece.  An
    entry is listed where its identical pieces stand in ascending order and
    its mirror in the a1-h8 diagonal (identical pieces put in order again),
    its twin, is lower.

    The twin is a sum of one term per piece (per group of identical pieces:
    their mirrored squares in order), so each term is worked out over 64
    squares (64**k for a group of k) and the sums are formed by broadcasting:
    no mirror looked up per entry (five pieces: 0.04 s, where looking up
    each of the 16.8 M entries' squares took 1.2 s, once in every process
    that reads or writes a pawnless five-piece table).
    """
    mirror = TRANSFORMS[1 + list(Swap_Type).index(Swap_Type.DIAGONAL)].astype(np.int32)
    pieces = range(1, piece_count)
    shift = {i: 6 * (piece_count - 1 - i) for i in pieces}
    grouped = {i for group in identical_groups for i in group}
    groups = [tuple(sorted(group)) for group in identical_groups] + [(i,) for i in pieces if i not in grouped]
    squares = np.arange(64, dtype=np.int32)

    def spread(term: np.ndarray, group: Tuple[int, ...]) -> np.ndarray:
        """``term``, indexed by the squares of ``group``'s pieces, as an array over all pieces' squares."""
        shape = [1] * len(pieces)
        for i in group:
            shape[i - 1] = 64
        return term.reshape(shape)

    offset_terms = [spread(squares << shift[i], (i,)) for i in pieces]
    twin_terms, ascending_terms = [], []
    for group in groups:
        grid = np.stack(np.meshgrid(*[squares] * len(group), indexing="ij"))
        mirrored = np.sort(mirror[grid], axis=0)
        twin_terms.append(spread(sum(mirrored[k] << shift[i] for k, i in enumerate(group)), group))
        if len(group) > 1:
            ascending_terms.append(spread(np.all(np.diff(grid, axis=0) > 0, axis=0), group))
    offsets, twins = [], []
    step = max(1, (1 << 21) // 64 ** (len(pieces) - 1))  # squares of piece 1 per part: about 2 M entries
    for first in range(0, 64, step):
        def part(term: np.ndarray) -> np.ndarray:
            return term[first : first + step] if term.shape[0] == 64 else term

        offset, twin = sum(map(part, offset_terms)), sum(map(part, twin_terms))
        repeat = twin < offset
        for ascending in ascending_terms:
            repeat &= part(ascending)
        repeats = np.flatnonzero(repeat)
        offsets.append(offset.ravel()[repeats])
        twins.append(twin.ravel()[repeats])
    return np.concatenate(offsets), np.concatenate(twins)
