"""Moves and un-moves on arrays of table indices, for whole arrays of positions at once.

The engine's hot loops (:mod:`Util.retrograde_kernels`) generate the same moves one
position at a time; this module serves the passes over arrays: captures
and promotions (:mod:`Util.rules.exits`), en passant (:mod:`Util.rules.en_passant`),
and whether a side has a move at all.

Every function here works on many positions at once: ``squares`` holds one
int array per piece (PIECE_LIST order, :mod:`Util.table.index_scheme`), ``occ`` their
occupancy bitboards.  Only moves that stay in the table are generated:
a move onto an occupied square (a capture) and a pawn step onto the last
rank (a promotion) lead into other tables; :mod:`Util.rules.exits` handles them.

Side 0 is White, side 1 Black.  White pawns (``P``) move up the board,
black pawns (``p``) down.  Moving piece ``i`` from ``s`` to ``t`` changes
the index by ``(t - s) * stride[i]``, except the white king, which is
folded back onto its canonical squares by symmetry (:func:`king_moved`).
"""

from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

import numpy as np

from .geometry import KING_STEP, KNIGHT_STEP, RANK_OF, RAYS
from ..table.index_scheme import Layout
from .legality import occupancy

#: Bit of each square, and at index -1 (off the board) all bits, so that "free" is one AND.
_BIT_OR_BLOCKED = np.append(np.array([1 << s for s in range(64)], dtype=np.uint64), np.uint64(2**64 - 1))


def is_empty(occ: np.ndarray, target: np.ndarray) -> np.ndarray:
    """target is on the board (>= 0) and the square is free."""
    return (occ & _BIT_OR_BLOCKED[target]) == 0


#: ``RAY_STEPS[letter][d, k]``: per square, the square k+1 steps away in direction d (-1: off the board),
#: as contiguous int64 rows: a flat take is several times faster than indexing RAYS[letter][s, d, k].
RAY_STEPS = {letter: np.ascontiguousarray(rays.transpose(1, 2, 0)).astype(np.int64) for letter, rays in RAYS.items()}
#: The same for one king or knight step: ``STEPS[letter][d]`` is a 64-entry row.
STEPS = {"K": np.ascontiguousarray(KING_STEP.T).astype(np.int64), "N": np.ascontiguousarray(KNIGHT_STEP.T).astype(np.int64)}


def pawn_direction(letter: str) -> int:
    """Square step of a pawn's move: +8 for White (``P``), -8 for Black (``p``)."""
    return 8 if letter == "P" else -8


def relative_rank(letter: str, square: np.ndarray) -> np.ndarray:
    """Rank counted from the pawn's own side: 1 on its starting rank, 6 one step before promotion."""
    rank = RANK_OF[square]
    return rank if letter == "P" else 7 - rank


#: ``EP_NEIGHBOURS[t]``: the squares beside t on its rank, from where a pawn takes en passant on t.
EP_NEIGHBOURS = np.array([sum(1 << u for u in (t - 1, t + 1) if 0 <= u < 64 and u >> 3 == t >> 3)
                          for t in range(64)], dtype=np.uint64)


def piece_moves(letter: str, square: np.ndarray, occ: np.ndarray, backward: bool = True,
                enemy_pawns: Optional[np.ndarray] = None) -> Iterator[Tuple[np.ndarray, np.ndarray]]:
    """Yield ``(rows, other)``: in positions ``rows`` the ``letter`` on ``square`` may have come from
    ``other`` (``backward``), or may go to ``other``, onto a free square.

    Only pawns move differently backwards.  A pawn step onto the last rank
    (a promotion) is left out.  With ``enemy_pawns`` (their bitboard per
    position), so are the double steps that land beside an enemy pawn: the
    reply en passant makes those moves special (:mod:`Util.rules.en_passant`).
    """
    upper = letter.upper()
    if upper in ("K", "N"):
        for step in STEPS[upper]:
            other = np.take(step, square)
            rows = np.flatnonzero(is_empty(occ, other))
            yield rows, other[rows]
    elif upper == "P":
        yield from _pawn_moves(letter, square, occ, backward, enemy_pawns)
    else:
        rays = RAY_STEPS[upper]
        for d in range(rays.shape[0]):
            rows = np.arange(square.size)
            for k in range(7):
                other = np.take(rays[d, k], square[rows])
                keep = is_empty(occ[rows], other)
                rows, other = rows[keep], other[keep]
                if not rows.size:
                    break
                yield rows, other


def _pawn_moves(letter: str, square: np.ndarray, occ: np.ndarray, backward: bool, enemy_pawns):
    rank = relative_rank(letter, square)
    step = pawn_direction(letter) * (-1 if backward else 1)
    # backwards: a pawn on relative rank >= 2 came from one rank lower; forwards: up to rank 6 (not promoting)
    single = rank >= 2 if backward else rank <= 5
    one = np.where(single, square.astype(np.int64) + step, -1)
    one_ok = is_empty(occ, one)
    rows = np.flatnonzero(one_ok)
    yield rows, one[rows]
    two = np.where((rank == (3 if backward else 1)) & one_ok, square.astype(np.int64) + 2 * step, -1)
    free = is_empty(occ, two)
    if enemy_pawns is not None:
        landing = square if backward else np.maximum(two, 0)
        free &= (enemy_pawns & EP_NEIGHBOURS[landing]) == 0
    rows = np.flatnonzero(free)
    yield rows, two[rows]


def king_moved(layout: Layout, squares: List[np.ndarray], index: np.ndarray, rows: np.ndarray,
               target: np.ndarray) -> np.ndarray:
    """Indices of positions ``index[rows]`` with the white king put on ``target`` (one per row).

    A king that stays on the canonical squares only changes its slot; one
    that leaves them is folded back by symmetry.
    """
    slot = layout.slot_of_square[target]
    stays = slot >= 0
    moved = np.empty(rows.size, dtype=np.int64)
    kept = rows[stays]
    moved[stays] = index[kept] + (slot[stays] - layout.slot_of_square[squares[0][kept]]) * layout.strides[0]
    leaving = rows[~stays]
    if leaving.size:
        pieces = [s[leaving] for s in squares]
        pieces[0] = target[~stays]
        moved[~stays] = layout.encode_canonical(pieces)
    return moved


def enemy_pawn_bits(layout: Layout, side: int, squares: List[np.ndarray]) -> Optional[np.ndarray]:
    """Bitboard of the other side's pawns, where both sides have pawns (en passant is possible); else None."""
    if not layout.en_passant_possible:
        return None
    return occupancy([squares[i] for i in layout.pieces_of[1 - side] if layout.letters[i] in "Pp"])


def _movers(layout: Layout, side: int, index: np.ndarray, squares: List[np.ndarray],
            backward: bool) -> Iterator[Tuple[int, np.ndarray, np.ndarray]]:
    """Yield ``(i, rows, moved)``: piece ``i`` of ``side`` moves (or un-moves) in positions ``index[rows]``,
    giving the positions ``moved``.  Double steps beside an enemy pawn are left out (see piece_moves)."""
    occ = occupancy(squares)
    enemy_pawns = enemy_pawn_bits(layout, side, squares)
    for i in layout.pieces_of[side]:
        base = index - squares[i].astype(np.int64) * layout.strides[i]  # the index without piece i
        for rows, other in piece_moves(layout.letters[i], squares[i], occ, backward, enemy_pawns):
            if not rows.size:
                continue
            if i == 0:
                yield i, rows, king_moved(layout, squares, index, rows, other)
            else:
                yield i, rows, base[rows] + other * layout.strides[i]


def successors(layout: Layout, side: int, index: np.ndarray,
               squares: Optional[List[np.ndarray]] = None) -> Iterator[Tuple[np.ndarray, np.ndarray]]:
    """Yield ``(rows, child)``: positions ``index[rows]`` (``side`` to move) have a move into ``child``
    (the other side to move) that stays in the table."""
    squares = layout.decode(index) if squares is None else squares
    for _, rows, moved in _movers(layout, side, index, squares, False):
        yield rows, moved
