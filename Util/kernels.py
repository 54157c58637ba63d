"""The engine's inner loops, compiled: one position at a time, at the speed of C.

:mod:`Util.retrograde` states the algorithm; this module runs its three
hot steps with numba (plain Python loops compiled to machine code, which
release the interpreter lock so the engine's threads use every core):

* **marking wins** (:func:`mark_wins`): un-make each move of the side to
  move from a frontier position; every predecessor still undecided gets n;
* **marking losses** (:func:`mark_losses`): the same predecessors are only
  candidates; one gets n when its forward check (:func:`_keep_losing`)
  finds that every move leads into a position won by the other side in
  n - 1 at the latest, with one in exactly n - 1; or (:func:`count_losses`)
  when its counter of moves not yet refuted reaches zero;
* **pulling** (:func:`pull_wins`, :func:`pull_losses`, :func:`mates`):
  the same forward looks, over a range of indices instead of a frontier.

The whole-array numpy version needed an index array per move and piece;
here one position's moves live in a few registers, and a forward check
stops at the first move that escapes.  Everything a kernel needs to know
about a material is in a :class:`KernelLayout` (plain arrays, so one
compiled kernel serves every material).  Compiled code is cached on disk
(``cache=True``): only the first run on a machine compiles.

Moves generated here are exactly those of :mod:`Util.moves`: no captures
and no promotions (those are the exits, :mod:`Util.exits`), no double step
beside an enemy pawn (:mod:`Util.en_passant`), the white king folded back
onto its canonical squares by symmetry.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .exits import ILLEGAL, NO_EXIT, UNKNOWN
from .geometry import KING_STEP, KNIGHT_STEP, RAYS
from .layout import Layout
from .material import Material
from .moves import EP_NEIGHBOURS
from .symmetry import TRANSFORMS, Swap_Type

#: Piece kinds, as the kernels number them.
KING, KNIGHT, BISHOP, ROOK, QUEEN, WHITE_PAWN, BLACK_PAWN = range(7)
_KIND_OF_LETTER = {"K": KING, "k": KING, "N": KNIGHT, "n": KNIGHT, "B": BISHOP, "b": BISHOP,
                   "R": ROOK, "r": ROOK, "Q": QUEEN, "q": QUEEN, "P": WHITE_PAWN, "p": BLACK_PAWN}
#: The order in which a forward check tries pieces: few moves first, so a failing check stops early.  Pawns
#: (one or two moves) before kings: KRPvKR's White loss checks 13 % faster than with the king first.
_CHECK_ORDER = "PKNBRQ"
_DIAGONAL_ROW = 1 + list(Swap_Type).index(Swap_Type.DIAGONAL)


def _geometry() -> tuple:
    """``(steps, rays, bit, ep_neighbours)``: steps[kind, square, d] for kings and knights, rays[kind,
    square, d, k] for sliders (-1: off the board), the bit of each square, and the squares beside it."""
    steps = np.full((2, 64, 8), -1, dtype=np.int64)
    steps[KING], steps[KNIGHT] = KING_STEP, KNIGHT_STEP
    rays = np.full((5, 64, 8, 7), -1, dtype=np.int64)
    for letter, kind in (("B", BISHOP), ("R", ROOK), ("Q", QUEEN)):
        rays[kind, :, : RAYS[letter].shape[1]] = RAYS[letter]
    bit = np.array([1 << s for s in range(64)], dtype=np.uint64)
    return steps, rays, bit, EP_NEIGHBOURS.copy()


_STEPS, _RAYS, _BIT, _EP_NEIGHBOURS = _geometry()


def _twin_rows() -> np.ndarray:
    """``rows[r]``: the TRANSFORMS row doing row r, then the mirror in the a1-h8 diagonal."""
    composed = TRANSFORMS[_DIAGONAL_ROW][TRANSFORMS.astype(np.int64)]
    return np.array([next(k for k, row in enumerate(TRANSFORMS) if (row == c).all()) for c in composed],
                    dtype=np.int64)


def _king_tables() -> tuple:
    """The white king's index arithmetic, one row without pawns (0) and one with (1): ``square_of_slot``,
    ``slot_of_square`` (-1 off the canonical squares), ``fold_row`` (the TRANSFORMS row that folds a
    king standing there) and ``diagonal_square`` (a king folded there has a twin entry; pawnless only)."""
    square_of_slot = np.full((2, 32), -1, dtype=np.int64)
    slot_of_square, fold_row = np.zeros((2, 64), dtype=np.int64), np.zeros((2, 64), dtype=np.int64)
    diagonal_square = np.zeros((2, 64), dtype=np.bool_)
    for pawns, material in ((0, Material("Q")), (1, Material("P"))):
        layout = Layout(material)
        square_of_slot[pawns, : len(layout.king_squares)] = layout.square_of_slot
        slot_of_square[pawns], fold_row[pawns] = layout.slot_of_square, layout.fold
    diagonal_square[0] = [(s & 7) == (s >> 3) for s in range(64)]
    return square_of_slot, slot_of_square, fold_row, diagonal_square


_SQUARE_OF_SLOT, _SLOT_OF_SQUARE, _FOLD_ROW, _DIAGONAL_SQUARE = _king_tables()
_TRANSFORMS = TRANSFORMS.astype(np.int64)
_TWIN_ROW = _twin_rows()


def _packed(values: Sequence[int], bits: int = 4) -> int:
    """Small non-negative numbers in one integer, ``bits`` each, the first lowest."""
    return sum(v << (bits * k) for k, v in enumerate(values))


class KernelLayout(NamedTuple):
    """A :class:`Layout` as a few integers, for the kernels (see Util.layout for the index).

    Integers, not arrays: numba counts references to every array a
    compiled function is handed, with an atomic instruction that two cores
    then fight over; a handful of integers costs nothing.  Everything that
    depends only on whether there are pawns is in this module's tables.
    """

    count: int  # pieces, kings included
    pawns: int  # 1 if there are pawns (the white king then folds onto files a-d), else 0
    kinds: int  # per piece (PIECE_LIST order) 4 bits: KING ... BLACK_PAWN
    colours: int  # per piece 1 bit: 0 White, 1 Black
    white_pieces: int  # White's pieces in check order, 4 bits each as piece + 1, 0 ends the list
    black_pieces: int
    white_pawns: int  # White's pawns, the same way (for en passant)
    black_pawns: int
    en_passant: int  # 1 if both sides have pawns
    #: The group of identical pieces, 4 bits each as piece + 1 (0: none).  Five pieces hold one at most.
    identical: int
    #: Lowest DTM byte of the loss counters, while they live in the DTM arrays (see count_losses);
    #: UNKNOWN when they do not.  Every byte from it up, ILLEGAL excepted, is an undecided position.
    floor: int = UNKNOWN

    @classmethod
    def of(cls, layout: Layout) -> "KernelLayout":
        letters = layout.letters
        order = [sorted(layout.pieces_of[s], key=lambda i: _CHECK_ORDER.index(letters[i].upper())) for s in (0, 1)]
        pawns = [[i for i in layout.pieces_of[s] if letters[i] in "Pp"] for s in (0, 1)]
        groups = layout.identical_groups
        if len(groups) > 1:
            raise ValueError(f"{layout.material}: the kernels handle one group of identical pieces, not {len(groups)}")
        return cls(
            count=len(letters),
            pawns=int(layout.material.has_pawns),
            kinds=_packed([_KIND_OF_LETTER[c] for c in letters]),
            colours=_packed([0 if c.isupper() else 1 for c in letters], bits=1),
            white_pieces=_packed([i + 1 for i in order[0]]),
            black_pieces=_packed([i + 1 for i in order[1]]),
            white_pawns=_packed([i + 1 for i in pawns[0]]),
            black_pawns=_packed([i + 1 for i in pawns[1]]),
            en_passant=int(layout.en_passant_possible),
            identical=_packed([i + 1 for i in (groups[0] if groups else [])]),
        )


@njit(nogil=True, cache=True, inline="always")
def kind_of(kinds, i):
    """The kind of piece ``i`` from a packed ``kinds`` (KernelLayout.kinds)."""
    return (kinds >> (4 * i)) & 15


@njit(nogil=True, cache=True, inline="always")
def colour_of(colours, i):
    return (colours >> i) & 1


@njit(nogil=True, cache=True, inline="always")
def stride(count, i):
    """Index step per square of piece ``i`` of ``count`` (piece 0's is per king slot)."""
    return np.int64(1) << (6 * (count - 1 - i))


@njit(nogil=True, cache=True, inline="always")
def _listed(packed, k):
    """Entry ``k`` of a packed piece list, -1 past its end."""
    return ((packed >> (4 * k)) & 15) - 1


@njit(nogil=True, cache=True, inline="always")
def _piece(lay, side, k):
    """``side``'s k-th piece in check order, -1 past the last."""
    return _listed(lay.white_pieces if side == 0 else lay.black_pieces, k)


# ---- one position: squares, occupancy, moves ------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def _decode(index, lay, squares):
    """Fill ``squares`` (PIECE_LIST order) with the position of ``index``."""
    rest = index
    for i in range(lay.count - 1, 0, -1):
        squares[i] = rest & 63
        rest >>= 6
    squares[0] = _SQUARE_OF_SLOT[lay.pawns, rest]


@njit(nogil=True, cache=True, inline="always")
def _occupancy(squares, count):
    occ = np.uint64(0)
    for i in range(count):
        occ |= _BIT[squares[i]]
    return occ


@njit(nogil=True, cache=True, inline="always")
def _enemy_pawns(lay, side, squares):
    """Bitboard of the other side's pawns where en passant is possible at all, else 0."""
    bits = np.uint64(0)
    if lay.en_passant:
        pawns = lay.black_pawns if side == 0 else lay.white_pawns
        for k in range(4):
            i = _listed(pawns, k)
            if i < 0:
                break
            bits |= _BIT[squares[i]]
    return bits


@njit(nogil=True, cache=True, inline="always")
def _free(occ, target):
    return target >= 0 and (occ & _BIT[target]) == 0


@njit(nogil=True, cache=True)
def _targets(kind, square, occ, backward, enemy_pawns, out):
    """Fill ``out`` with the free squares a piece of ``kind`` on ``square`` moves to (or, ``backward``,
    came from); return how many.  Pawns: no promotion, no double step beside an enemy pawn."""
    if kind != WHITE_PAWN and kind != BLACK_PAWN:
        return _append_squares(kind, square, occ, out, 0, 0, 1)
    count = 0
    rank = square >> 3 if kind == WHITE_PAWN else 7 - (square >> 3)
    step = 8 if kind == WHITE_PAWN else -8
    if backward:
        step = -step
    if (rank >= 2) if backward else (rank <= 5):
        one = square + step
        if _free(occ, one):
            out[count] = one
            count += 1
            two = one + step
            landing = square if backward else two
            if rank == (3 if backward else 1) and _free(occ, two) and (enemy_pawns & _EP_NEIGHBOURS[landing]) == 0:
                out[count] = two
                count += 1
    return count


@njit(nogil=True, cache=True, inline="always")
def _append_squares(kind, square, occ, out, m, base, step):
    """Append ``base + t * step`` to ``out[m:]`` for each free square t that a piece of ``kind`` (not a
    pawn) on ``square`` moves to, which are the squares it came from too; return the new end.  With
    ``base`` 0 and ``step`` 1 the squares themselves; with a piece's index arithmetic, the indices."""
    if kind == KING or kind == KNIGHT:
        for d in range(8):
            t = _STEPS[kind, square, d]
            if _free(occ, t):
                out[m] = base + t * step
                m += 1
        return m
    for d in range(8 if kind == QUEEN else 4):  # a bishop's or rook's four rays come first
        for k in range(7):
            t = _RAYS[kind, square, d, k]
            if not _free(occ, t):
                break
            out[m] = base + t * step
            m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def _encode(lay, squares, king_square, row):
    """Index of the position ``squares`` with the white king on ``king_square``, transformed by ``row``
    (which must bring that king onto a canonical square)."""
    index = _SLOT_OF_SQUARE[lay.pawns, _TRANSFORMS[row, king_square]] * stride(lay.count, 0)
    for i in range(1, lay.count):
        index += _TRANSFORMS[row, squares[i]] * stride(lay.count, i)
    return index


@njit(nogil=True, cache=True, inline="always")
def _moved(lay, index, squares, piece, target):
    """Index after ``piece`` of the position (``index``, ``squares``) goes to ``target``."""
    if piece != 0:
        return index + (target - squares[piece]) * stride(lay.count, piece)
    slot = _SLOT_OF_SQUARE[lay.pawns, target]
    if slot >= 0:
        return index + (slot - _SLOT_OF_SQUARE[lay.pawns, squares[0]]) * stride(lay.count, 0)
    return _encode(lay, squares, target, _FOLD_ROW[lay.pawns, target])


@njit(nogil=True, cache=True, inline="always")
def _unmoved_twin(lay, squares, piece, target):
    """After an un-move of the white king to ``target``: the index of the mirror entry in the a1-h8
    diagonal where the folded king stands on it (pawnless tables keep both entries), else -1."""
    if piece != 0:
        return -1
    row = _FOLD_ROW[lay.pawns, target]
    if not _DIAGONAL_SQUARE[lay.pawns, _TRANSFORMS[row, target]]:
        return -1
    return _encode(lay, squares, target, _TWIN_ROW[row])


# ---- a position's entries: one does the work of all ---------------------------------------------------
# Two identical pieces stand in a position's two entries (three in its six), which always hold the same
# value.  The plies un-move only from the entry whose identical pieces stand on ascending squares (the
# sorted entry), list each predecessor as its sorted entry, and give a value to all entries of a position
# at once (_mark_others).  Un-moving from the other entries would list the other entries of the same
# predecessors, exactly as often (swapping identical pieces commutes with every move, and no position is
# its own swap): so every counter and every forward check comes out as before, done for one entry
# instead of two (six).  The other entries are only ever written, never counted or checked.
#
# A pawnless position whose white king stands on the a1-h8 diagonal has a second entry too, its mirror
# in that diagonal.  The kernels that only ask whether a position has some move into a set (marking
# wins, forward checks) also take one of these, the first entry (the lowest index of all of a
# position's entries).  The counters do not: a position can be its own mirror, and its un-moves then
# list both entries of a predecessor where the mirror entries of the position listed one each, so a
# count would come out differently; the counters keep both mirror entries, each counted (and White's count
# a king's move onto the diagonal twice: see "How often an un-move reaches a position" below).

#: ``_OTHER_ORDERS[g][k]``: for a group of g identical pieces, its k-th order other than the ascending one
#: (piece j of the group takes the square of piece _OTHER_ORDERS[g][k][j]).
_OTHER_ORDERS = np.array([[[0, 0, 0]] * 5, [[0, 0, 0]] * 5, [[1, 0, 0]] + [[0, 0, 0]] * 4,
                          [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]], dtype=np.int64)


@njit(nogil=True, cache=True, inline="always")
def _square_in(lay, index, piece):
    """The square of ``piece`` in the position of ``index`` (not the white king, piece 0)."""
    return (index >> (6 * (lay.count - 1 - piece))) & 63


@njit(nogil=True, cache=True, inline="always")
def _group_size(lay):
    """How many identical pieces the group has (0: no group)."""
    return 0 if lay.identical == 0 else (2 if _listed(lay.identical, 2) < 0 else 3)


@njit(nogil=True, cache=True, inline="always")
def _is_sorted(lay, index):
    """Whether the identical pieces of ``index`` stand on ascending squares (always, without a group)."""
    if lay.identical == 0:
        return True
    x, y = _square_in(lay, index, _listed(lay.identical, 0)), _square_in(lay, index, _listed(lay.identical, 1))
    c = _listed(lay.identical, 2)
    return x < y and (c < 0 or y < _square_in(lay, index, c))


@njit(nogil=True, cache=True, inline="always")
def _sorted_entry(lay, index):
    """The sorted entry of the position of ``index`` (``index`` itself without a group)."""
    if lay.identical == 0:
        return index
    a, b, c = _listed(lay.identical, 0), _listed(lay.identical, 1), _listed(lay.identical, 2)
    x, y = _square_in(lay, index, a), _square_in(lay, index, b)
    if c < 0:
        return index if x < y else index + (y - x) * stride(lay.count, a) + (x - y) * stride(lay.count, b)
    z = _square_in(lay, index, c)
    low, high = min(x, min(y, z)), max(x, max(y, z))
    middle = x + y + z - low - high
    return (index + (low - x) * stride(lay.count, a) + (middle - y) * stride(lay.count, b)
            + (high - z) * stride(lay.count, c))


@njit(nogil=True, cache=True, inline="always")
def _other_entry(lay, index, k):
    """The position of ``index`` with its identical pieces in their k-th other order (k below
    _group_size's orders minus one: 1 for two pieces, 5 for three)."""
    g = _group_size(lay)
    moved = index
    for j in range(g):
        piece = _listed(lay.identical, j)
        source = _listed(lay.identical, _OTHER_ORDERS[g, k, j])
        moved += (_square_in(lay, index, source) - _square_in(lay, index, piece)) * stride(lay.count, piece)
    return moved


@njit(nogil=True, cache=True, inline="always")
def _other_entries(lay):
    """How many entries a position has besides its sorted one: 0, 1 (two identical pieces) or 5 (three)."""
    g = _group_size(lay)
    return 0 if g == 0 else (1 if g == 2 else 5)


@njit(nogil=True, cache=True, inline="always")
def _has_mirror(lay, index):
    """Whether the white king of ``index`` stands on the a1-h8 diagonal of a pawnless table (the position
    then has its mirror in that diagonal as another entry)."""
    return _DIAGONAL_SQUARE[lay.pawns, _SQUARE_OF_SLOT[lay.pawns, index >> (6 * (lay.count - 1))]]


@njit(nogil=True, cache=True, inline="always")
def _mirror_entry(lay, index):
    """The entry of ``index``'s position mirrored in the a1-h8 diagonal (its white king stays: it must
    stand on that diagonal)."""
    mirrored = index >> (6 * (lay.count - 1)) << (6 * (lay.count - 1))
    for i in range(1, lay.count):
        mirrored += _TRANSFORMS[_DIAGONAL_ROW, _square_in(lay, index, i)] * stride(lay.count, i)
    return mirrored


@njit(nogil=True, cache=True, inline="always")
def _first_entry(lay, index):
    """The lowest index among the entries of ``index``'s position: identical pieces swapped, mirrored."""
    first = _sorted_entry(lay, index)
    if _has_mirror(lay, index):
        first = min(first, _sorted_entry(lay, _mirror_entry(lay, index)))
    return first


@njit(nogil=True, cache=True, inline="always")
def _entry_to_use(lay, index, mirrors):
    """The entry that stands for ``index``'s position: the first (``mirrors``) or the sorted one."""
    return _first_entry(lay, index) if mirrors else _sorted_entry(lay, index)


# ---- blocks of positions: fetch their values together ---------------------------------------------
# A position's values lie anywhere in arrays of up to a gigabyte, so each look-up waits for memory.
# Looked up one position at a time, every wait is paid in full; gathered for a block of positions first
# (a loop of independent reads, as numpy's fancy indexing does), the waits overlap.  So every kernel
# collects a block of positions, fetches what it needs for all of them, and keeps the survivors.

#: Positions whose predecessors are gathered in one block.
BLOCK = 64
#: Un-moves of one side in one position, diagonal twins included (at most 3 queens and a king: 89).
MAX_UNMOVES = 128
#: Positions in one block, and moves of one piece for all of them (a queen has at most 27).
_CANDIDATES = BLOCK * MAX_UNMOVES
_CHILDREN = _CANDIDATES * 27


@njit(nogil=True, cache=True)
def _buffers():
    """Scratch for one kernel call: squares, targets, candidates, their values, children and owners."""
    return (np.empty(8, dtype=np.int64), np.empty(32, dtype=np.int64), np.empty(_CANDIDATES, dtype=np.int64),
            np.empty(_CANDIDATES, dtype=np.int64), np.empty(_CHILDREN, dtype=np.int64),
            np.empty(_CHILDREN, dtype=np.int32), np.empty(_CHILDREN, dtype=np.uint8))


@njit(nogil=True, cache=True, inline="always")
def _append_moves(lay, side, f, backward, squares, out, cand, m):
    """Append to ``cand[m:]`` the positions one move of ``side`` after position ``f`` (the other side to
    move), or, ``backward``, one move before it (``side`` to move; where the white king un-moves onto
    the a1-h8 diagonal, both twin entries).  Only moves that stay in the table.  Returns the new end."""
    _decode(f, lay, squares)
    occ = _occupancy(squares, lay.count)
    enemy = _enemy_pawns(lay, side, squares)
    for k in range(5):
        piece = _piece(lay, side, k)
        if piece < 0:
            break
        kind = kind_of(lay.kinds, piece)
        if piece != 0 and kind != WHITE_PAWN and kind != BLACK_PAWN:
            m = _append_piece_moves(lay, kind, piece, f, squares[piece], occ, cand, m)
            continue
        for j in range(_targets(kind, squares[piece], occ, backward, enemy, out)):
            cand[m] = _moved(lay, f, squares, piece, out[j])
            m += 1
            twin = _unmoved_twin(lay, squares, piece, out[j]) if backward else -1
            if twin >= 0:
                cand[m] = twin
                m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def _append_piece_moves(lay, kind, piece, f, square, occ, cand, m):
    """_append_moves for one piece that is neither the white king nor a pawn (its moves and un-moves are
    the same squares, and the index only changes in its own field): each index written as its square is
    found, not listed by _targets first (KRBPvK's White win ply 13, 98 M un-moves: 0.57 -> 0.48 s)."""
    step = stride(lay.count, piece)
    return _append_squares(kind, square, occ, cand, m, f - square * step, step)


@njit(nogil=True, cache=True, inline="always")
def _block_predecessors(lay, side, frontier, start, squares, out, cand, mirrors, as_entries=True):
    """Fill ``cand`` with the predecessors (``side`` to move) of the block of ``frontier`` positions that
    begins at ``start``; return how many.  Of one entry per position only, each predecessor as that entry:
    the first entry (``mirrors``, for kernels that ask whether a position has a move into a set) or the
    sorted one (for counters: see "a position's entries" above).  Not ``as_entries``: each predecessor as
    the un-move gives it, to be made its entry by _as_entries once the undecided are kept (all entries of a
    position are decided together, so any one says whether it is)."""
    m = 0
    for f in frontier[start : start + BLOCK]:
        if f != _entry_to_use(lay, f, mirrors):
            continue
        first = m
        m = _append_moves(lay, side, f, True, squares, out, cand, m)
        if as_entries:
            _as_entries(lay, cand, first, m, mirrors)
    return m


@njit(nogil=True, cache=True, inline="always")
def _as_entries(lay, cand, first, m, mirrors):
    """Replace ``cand[first:m]`` by the entries that stand for their positions (see _entry_to_use)."""
    if lay.identical or (mirrors and lay.pawns == 0):
        for k in range(first, m):
            cand[k] = _entry_to_use(lay, cand[k], mirrors)


@njit(nogil=True, cache=True, inline="always")
def _undecided(value, floor):
    """Whether a DTM byte is an undecided position: UNKNOWN, or a loss counter (bytes from
    ``floor`` up, ILLEGAL excepted; see count_losses)."""
    return value == UNKNOWN or (value >= floor and value != ILLEGAL)


@njit(nogil=True, cache=True, inline="always")
def _keep_undecided(cand, m, values, fetched, floor):
    """Keep the first ``m`` candidates undecided in ``values`` (in place; their bytes stay in ``fetched``);
    return how many."""
    for k in range(m):
        fetched[k] = values[cand[k]]
    kept = 0
    for k in range(m):
        if _undecided(fetched[k], floor):
            cand[kept], fetched[kept] = cand[k], fetched[k]
            kept += 1
    return kept


@njit(nogil=True, cache=True, inline="always")
def _keep_unchecked(cand, m, checked):
    """Keep the candidates not checked before in this ply, and mark them checked.  Two threads setting
    bits of one byte at once may lose a bit, which only repeats a check."""
    kept = 0
    for k in range(m):
        q = cand[k]
        byte, bit = q >> 3, np.uint8(1 << (q & 7))
        if not checked[byte] & bit:
            checked[byte] |= bit
            cand[kept] = q
            kept += 1
    return kept


@njit(nogil=True, cache=True, inline="always")
def _start_value(exit_byte, index, ep_parent, ep_worst):
    """The largest DTM the opponent gets through a capture, promotion or en passant double step (-1:
    none; UNKNOWN: one escapes)."""
    e = np.int64(exit_byte)
    worst = -1 if e == NO_EXIT else (e - 1 if e % 2 == 0 else UNKNOWN)
    if ep_parent.size:
        k = np.searchsorted(ep_parent, index)
        if k < ep_parent.size and ep_parent[k] == index:
            worst = max(worst, np.int64(ep_worst[k]))
    return worst


@njit(nogil=True, cache=True)
def _keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers):
    """Keep the candidates (``side`` to move) that lose in n: every legal move leads into ``other``'s
    value n - 1 at the latest, and one exactly.  With n = 0: those without a legal move.

    Piece by piece (kings and knights first, sliders last), the children of all
    survivors are fetched together; a candidate drops out at the first piece
    with a move that escapes."""
    squares, out, _, worst, child, owner, fetched = buffers
    for k in range(m):
        fetched[k] = exit_value[cand[k]]
    kept = 0
    for k in range(m):
        w = _start_value(fetched[k], cand[k], ep_parent, ep_worst)
        if w <= n - 1:
            cand[kept], worst[kept] = cand[k], w
            kept += 1
    m = kept
    for k in range(5):
        piece = _piece(lay, side, k)
        if piece < 0 or m == 0:
            break
        c = 0
        kind = kind_of(lay.kinds, piece)
        for a in range(m):
            _decode(cand[a], lay, squares)
            occ = _occupancy(squares, lay.count)
            first = c
            if piece != 0 and kind != WHITE_PAWN and kind != BLACK_PAWN:
                c = _append_piece_moves(lay, kind, piece, cand[a], squares[piece], occ, child, c)
            else:
                enemy = _enemy_pawns(lay, side, squares)
                for j in range(_targets(kind, squares[piece], occ, False, enemy, out)):
                    child[c] = _moved(lay, cand[a], squares, piece, out[j])
                    c += 1
            owner[first:c] = a
        for j in range(c):
            fetched[j] = other[child[j]]
        for j in range(c):
            value = np.int64(fetched[j])
            if value != ILLEGAL and value > worst[owner[j]]:
                worst[owner[j]] = value
        kept = 0
        for a in range(m):
            if worst[a] <= n - 1:
                cand[kept], worst[kept] = cand[a], worst[a]
                kept += 1
        m = kept
    kept = 0
    for a in range(m):
        if worst[a] == n - 1:
            cand[kept] = cand[a]
            kept += 1
    return kept


@njit(nogil=True, cache=True, inline="always")
def _record(found, count, value):
    """Write ``value`` at ``found[count]`` if it fits; the new count (which may exceed found.size: the
    caller then reads the new positions back from the DTM array instead)."""
    if count < found.size:
        found[count] = value
    return count + 1


@njit(nogil=True, cache=True, inline="always")
def _mark_entry(lay, r, mine, n, found, count):
    """Give n to entry r if still undecided, and record it; the new count."""
    if _undecided(mine[r], lay.floor):
        mine[r] = n
        count = _record(found, count, r)
    return count


@njit(nogil=True, cache=True, inline="always")
def _mark_others(lay, q, mine, n, found, count):
    """Give n to the other entries of position q (identical pieces in other orders, the mirror in the
    a1-h8 diagonal) still undecided; record them; the new count."""
    for k in range(_other_entries(lay)):
        count = _mark_entry(lay, _other_entry(lay, q, k), mine, n, found, count)
    if _has_mirror(lay, q):
        mirror = _mirror_entry(lay, q)
        count = _mark_entry(lay, mirror, mine, n, found, count)
        for k in range(_other_entries(lay)):
            count = _mark_entry(lay, _other_entry(lay, mirror, k), mine, n, found, count)
    return count


@njit(nogil=True, cache=True, inline="always")
def _mark(lay, cand, m, mine, n, found, count):
    """Give n to the first ``m`` candidates still undecided (a block may hold one twice), and to their other
    entries; record them."""
    others = lay.identical != 0 or lay.pawns == 0  # asked once: see count_losses
    for k in range(m):
        q = cand[k]
        if _undecided(mine[q], lay.floor):
            mine[q] = n
            count = _record(found, count, q)
            if others:
                count = _mark_others(lay, q, mine, n, found, count)
    return count


# ---- counters of the moves that still escape ------------------------------------------------------
# A loss candidate is usually re-checked in ply after ply, each time one more of its children is won by
# the opponent (98 % of the checks of KRPvKR's loss plies find an escape).  A counter per position
# instead: set for every position before ply 1 (set_first_counters: its legal moves, none yet won by the
# opponent), or where that was not done (a resumed calculation) when a ply first reaches the position
# (_set_counters), and counted down by every un-move into it; at zero every move loses.
#
# The counter lives in the position's own DTM byte, which holds nothing else while it is undecided: up to
# ply n every value is at most n, so the bytes just below ILLEGAL are free.  Counter c (the moves not yet
# refuted, plus one) is the byte ILLEGAL - c; the byte below the lowest counter (``lay.floor``) means
# NEVER (an exit wins or draws: no loss).  Every other kernel sees these bytes as undecided (_undecided),
# and a byte above n - 1 is an escape to a forward check, as UNKNOWN is.  So the counters cost no memory
# (a separate byte per position would add half a gigabyte to a five-piece pawn table) and no extra
# look-up (the byte is fetched to see whether the position is undecided anyway).
#
# One writer per counter: Black's un-moves leave White's pieces where they are, so the predecessors of
# frontier positions with the white king on different canonical squares (slots) are different positions.
# White's un-moves leave the black king where it is, or move it with the whole board by a symmetry (the
# white king crossing into another canonical square): predecessors of frontier positions whose black
# kings stand on squares no symmetry maps onto each other are different positions.  The engine hands each
# thread whole groups of these and runs nothing else meanwhile (_Engine._owner_jobs).  So a counter is
# counted down by a plain read and write, without a branch: twice as fast as the atomic compare-and-swap
# that two threads counting one position at once would need (one Black loss ply of KQPvKR, 4 M frontier
# positions, one thread: 1.34 s with compare-and-swap, 0.54 s counting without).
#
# How often an un-move reaches a position: the un-moves from every sorted entry of a frontier position
# must count each move into it down exactly once.  Black's un-moves and White's other than the king's
# list one entry per un-move, which they do.  A white king's un-move that folds it onto the a1-h8
# diagonal of a pawnless table lists both twin entries of the predecessor (so that the win plies find
# both), and then a move of the predecessor's king into a position whose king folds onto the diagonal is
# found from both of that position's twin entries, each un-move crediting it once: it counts twice.
# Counting over all symmetries g of the table, the credits to entry E from a move E -> B are the g that
# take B to a sorted entry: two where the king of B folds onto the diagonal (the fold, and the fold then
# the mirror), else one; a move of another piece from an E on the diagonal reaches it from one of B's
# twins only, its un-moves listing no twin.  So White's counters give such a king move two
# (_append_diagonal_king_moves), every other move one; the tables come out byte for byte as with forward
# checks.


def counter_floor(most_moves: int) -> int:
    """``lay.floor`` for a side with at most ``most_moves`` moves that stay in the table."""
    return ILLEGAL - (most_moves + 1) - 1


@njit(nogil=True, cache=True, inline="always")
def _exit_escapes(exit_byte):
    """Whether a capture or promotion wins or draws (an odd exit byte: a mate, or DRAW), so that the
    position never loses: its counter is NEVER."""
    e = np.int64(exit_byte)
    return e != NO_EXIT and e % 2 == 1


@njit(nogil=True, cache=True, inline="always")
def _append_diagonal_king_moves(lay, q, squares, out, child, c):
    """Append to ``child[c:]`` once more each move of the white king of position q (``squares``, decoded)
    that folds it onto the a1-h8 diagonal of a pawnless table; return the new end.  White's counters count
    such a move twice: the white king's un-moves into a position reach it from both diagonal twins of the
    position after the move (see "How often an un-move reaches a position" above)."""
    if lay.pawns:
        return c
    occ = _occupancy(squares, lay.count)
    for j in range(_targets(KING, squares[0], occ, False, np.uint64(0), out)):
        t = out[j]
        if _DIAGONAL_SQUARE[0, _TRANSFORMS[_FOLD_ROW[0, t], t]]:
            child[c] = _moved(lay, q, squares, 0, t)
            c += 1
    return c


@njit(nogil=True, cache=True)
def _set_counters(lay, side, n, cand, m, fetched, mine, other, exit_value, buffers):
    """Set the counters of the first ``m`` candidates (``side`` to move) reached for the first time in
    loss ply n (``fetched`` UNKNOWN): NEVER where an exit wins or draws for it, else 1 + the number of its
    legal moves not into a position the opponent won before this ply (value odd and below n - 1): those
    into this ply's frontier are counted down right after.

    As in _keep_losing, the children of all of them are listed first and then fetched together, so that
    their memory waits overlap: a counter costs a look-up per move (up to 22 for a king and rook), and
    one at a time this was over half of KRPvKR's loss plies."""
    squares, out, _, left, child, owner, _ = buffers
    c = 0
    for k in range(m):
        left[k] = -1
        if fetched[k] != UNKNOWN:
            continue
        q = cand[k]
        if _exit_escapes(exit_value[q]):
            mine[q] = lay.floor
            continue
        left[k] = 0
        first = c
        c = _append_moves(lay, side, q, False, squares, out, child, c)
        if side == 0:
            c = _append_diagonal_king_moves(lay, q, squares, out, child, c)
        owner[first:c] = k
    for j in range(c):
        v = np.int64(other[child[j]])
        left[owner[j]] += (v != ILLEGAL) & ((v % 2 == 0) | (v >= n - 1))
    for k in range(m):
        if left[k] >= 0:  # a block may hold a position twice: both found the same count
            mine[cand[k]] = ILLEGAL - 1 - left[k]


@njit(nogil=True, cache=True)
def set_first_counters(lay, start, stop, mine, other, exit_value, in_check, found):
    """Before the first loss ply, when White has won nothing yet: the counter of every undecided position
    with Black to move in ``range(start, stop)`` (multiples of 64), as _set_counters would set it there:
    NEVER where an exit wins or draws, else 1 + the number of its legal moves.  With ``in_check`` (the
    check bits, as for :func:`mates`; empty where the mates are already marked): a position in check
    with no move at all, no capture nor promotion either, is checkmate instead: it gets 0 (and its other
    entries, as :func:`mates` gives it), recorded in ``found``.  Returns how many.

    64 indices at a time, those that differ only in the last piece's square (as
    kernel_rules.classify_span): the black king's moves are found once for all 64 (the last piece only
    blocks one of them, and the index with the king on the last piece's square is ILLEGAL anyway), and
    Black's other piece, if it has one, is always the last piece (White has at least as many), so its
    moves are the only ones found per index.  The look-ups run along the arrays, index after index."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    king_step = np.empty(8, dtype=np.int64)
    last = lay.count - 1
    last_is_black = colour_of(lay.colours, last) == 1
    mates_too, count = in_check.size > 0, 0
    for base in range(start, stop, 64):
        _decode(base, lay, squares)
        prefix = _occupancy(squares, last)
        enemy = _enemy_pawns(lay, 1, squares) if last_is_black else np.uint64(0)
        king = squares[1]
        kings = _targets(KING, king, prefix, False, enemy, out)
        for j in range(kings):
            king_step[j] = (out[j] - king) * stride(lay.count, 1)
        for q in range(base, base + 64):
            if mine[q] != UNKNOWN or not _is_sorted(lay, q):  # the plies count only sorted entries
                continue
            if _exit_escapes(exit_value[q]):
                mine[q] = lay.floor
                continue
            left = 0
            for j in range(kings):
                left += other[q + king_step[j]] != ILLEGAL
            if last_is_black:
                s = q - base
                for j in range(_targets(kind_of(lay.kinds, last), s, prefix | _BIT[s], False, enemy, out)):
                    left += other[q + out[j] - s] != ILLEGAL
            if left == 0 and mates_too and exit_value[q] == NO_EXIT and (in_check[q >> 3] >> (7 - (q & 7))) & 1:
                # checkmate: the first of its entries marks them all (another entry of it, left alone here,
                # may be in another thread's span, and gets 0, never a counter)
                if q == _first_entry(lay, q):
                    mine[q] = 0
                    count = _record(found, count, q)
                    count = _mark_others(lay, q, mine, 0, found, count)
                continue
            mine[q] = ILLEGAL - 1 - left
    return count


@njit(nogil=True, cache=True, inline="always")
def _white_run_moves(lay, squares, backward, out, delta, row, weight, blocked):
    """White's moves (``backward``: its un-moves) in the 64 positions that differ only in the square s of
    the last piece, Black's (``squares``: the others'; the last entry is overwritten).  For each move:
    ``delta``, the index step (added to the position's index), or, where the white king leaves its
    canonical squares and the whole board folds, the index without s, s to be added as ``_TRANSFORMS[row,
    s]`` (``row`` -1 otherwise); ``weight``, what it counts for (2 for a king's move onto the a1-h8
    diagonal of a pawnless table, see _append_diagonal_king_moves; 1 else); and ``blocked``, the squares
    of s on which the move is not made (a slider's path, the middle of a pawn's double step, a black pawn
    beside a double step's landing square, which makes it an en passant double step).  Where s is the
    target itself the position at the other end is illegal, which the caller's arrays say.  Returns how
    many moves.  Pawns never un-move in a table without them; with them the king never needs weight 2."""
    last = lay.count - 1
    last_is_pawn = kind_of(lay.kinds, last) == BLACK_PAWN
    occ = _occupancy(squares, last)
    m = 0
    for k in range(5):
        piece = _piece(lay, 0, k)
        if piece < 0:
            break
        kind, square = kind_of(lay.kinds, piece), squares[piece]
        if kind == KING:
            for j in range(_targets(KING, square, occ, False, np.uint64(0), out)):
                t = out[j]
                fold = _FOLD_ROW[lay.pawns, t]
                row[m], blocked[m] = -1, np.uint64(0)
                weight[m] = 2 if lay.pawns == 0 and _DIAGONAL_SQUARE[0, _TRANSFORMS[fold, t]] else 1
                if _SLOT_OF_SQUARE[lay.pawns, t] >= 0:
                    delta[m] = (_SLOT_OF_SQUARE[lay.pawns, t] - _SLOT_OF_SQUARE[lay.pawns, square]) * stride(lay.count, 0)
                else:  # the whole board folds: the black piece's square too, looked up per index
                    squares[last] = 0
                    delta[m] = _encode(lay, squares, t, fold) - _TRANSFORMS[fold, 0]
                    row[m] = fold
                m += 1
        elif kind == WHITE_PAWN:
            # the double step's landing square: where the pawn lands forwards, where it stands backwards
            for j in range(_targets(kind, square, occ, backward, np.uint64(0), out)):
                t = out[j]
                delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, 0
                if t == square + 16 or t == square - 16:
                    landing = square if backward else t
                    blocked[m] = _BIT[(square + t) >> 1] | (_EP_NEIGHBOURS[landing] if last_is_pawn else np.uint64(0))
                m += 1
        elif kind == KNIGHT:
            for d in range(8):
                t = _STEPS[KNIGHT, square, d]
                if _free(occ, t):
                    delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, 0
                    m += 1
        else:
            for d in range(8 if kind == QUEEN else 4):
                path = np.uint64(0)
                for r in range(7):
                    t = _RAYS[kind, square, d, r]
                    if not _free(occ, t):
                        break
                    delta[m], row[m], weight[m], blocked[m] = (t - square) * stride(lay.count, piece), -1, 1, path
                    path |= _BIT[t]
                    m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def _append_run_moves(f, s, m, delta, row, blocked, cand, c):
    """Append to ``cand[c:]`` the index at the other end of each of a run's ``m`` moves (_white_run_moves)
    from its position ``f``, whose last piece stands on ``s``, that ``s`` does not block; the new end."""
    bit = _BIT[s]
    for j in range(m):
        if not blocked[j] & bit:
            cand[c] = delta[j] + f if row[j] < 0 else delta[j] + _TRANSFORMS[row[j], s]
            c += 1
    return c


@njit(nogil=True, cache=True)
def set_white_counters(lay, n, start, stop, mine, other, exit_value):
    """Before loss ply n: the counters of the positions with White to move in ``range(start, stop)``
    (multiples of 64) that are still UNKNOWN, as _set_counters would set them there (``mine`` White's
    array, ``other`` Black's; Black has a piece besides its king, which is then the last piece).

    As in set_first_counters, White's moves are found once for the 64 indices that differ only in the
    black piece's square s (_white_run_moves), with what each needs of s."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    for base in range(start, stop, 64):
        _decode(base, lay, squares)
        if not _is_sorted(lay, base):  # identical pieces are White's: the same for all 64
            continue
        m = _white_run_moves(lay, squares, False, out, delta, row, weight, blocked)
        for q in range(base, base + 64):
            if mine[q] != UNKNOWN:
                continue
            if _exit_escapes(exit_value[q]):
                mine[q] = lay.floor
                continue
            s = q - base
            bit = _BIT[s]
            left = 0
            for j in range(m):
                if blocked[j] & bit:
                    continue
                v = np.int64(other[delta[j] + q if row[j] < 0 else delta[j] + _TRANSFORMS[row[j], s]])
                left += weight[j] * ((v != ILLEGAL) & ((v % 2 == 0) | (v >= n - 1)))
            mine[q] = ILLEGAL - 1 - left


@njit(nogil=True, cache=True)
def count_white_runs(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """count_losses for White (``side`` 0) over sorted ``frontier`` positions, for a table with pawns,
    without identical pieces, in which Black has a piece (the last): White's un-moves are found once for
    the frontier positions of one run of 64 indices, which differ only in the black piece's square
    (_white_run_moves), instead of for every one; a block's predecessors are then counted down exactly
    as count_losses counts them (``checked`` is not needed)."""
    buffers = _buffers()  # _count_down's; the run's squares and moves apart (_set_counters writes into buffers)
    cand = buffers[2]
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    count, run, m, c = 0, np.int64(-1), 0, 0
    for k in range(frontier.size):
        if c > _CANDIDATES - MAX_UNMOVES or (k % BLOCK == 0 and c):
            count, c = _count_down(lay, side, n, cand, c, mine, other, exit_value, ep_parent, ep_worst, buffers,
                                   found, count, False), 0
        f = frontier[k]
        base = f - (f & 63)
        if base != run:
            run = base
            _decode(base, lay, squares)
            m = _white_run_moves(lay, squares, True, out, delta, row, weight, blocked)
        c = _append_run_moves(f, f - base, m, delta, row, blocked, cand, c)
    return _count_down(lay, side, n, cand, c, mine, other, exit_value, ep_parent, ep_worst, buffers, found,
                       count, False)


@njit(nogil=True, cache=True)
def count_losses(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Count down the counters of the undecided predecessors (``side`` to move; see "One writer per
    counter" above) of the ``frontier`` positions, one per un-move; give n to those whose last escaping
    move this was, unless a capture, promotion or en passant loses later for them (those are confirmed at
    their own ply)."""
    buffers = _buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    # whether positions may have other entries, asked once: inlined where it is never needed, _mark_others
    # still cost KRBPvK's Black loss plies 12 % (one ply, 4 M frontier positions: 0.55 -> 0.48 s)
    others = lay.identical != 0 or lay.pawns == 0
    for start in range(0, frontier.size, BLOCK):
        m = _block_predecessors(lay, side, frontier, start, squares, out, cand, False)
        count = _count_down(lay, side, n, cand, m, mine, other, exit_value, ep_parent, ep_worst, buffers, found,
                            count, others)
    return count


@njit(nogil=True, cache=True, inline="always")
def _count_down(lay, side, n, cand, m, mine, other, exit_value, ep_parent, ep_worst, buffers, found, count, others):
    """count_losses for the first ``m`` predecessors in ``cand`` (one per un-move, in a block); the new count."""
    fetched = buffers[6]
    m = _keep_undecided(cand, m, mine, fetched, lay.floor)
    _set_counters(lay, side, n, cand, m, fetched, mine, other, exit_value, buffers)
    last = 0
    for k in range(m):
        q = cand[k]
        byte = np.int64(mine[q])  # not fetched[k]: a block may hold q twice
        # A counter above 1 counts down; NEVER and a counter at 1 stay.  Without a branch (one that is
        # often mispredicted cost more than the rest of the loop): the byte is written back unchanged,
        # and q is kept only where this was its last escaping move (once per block: it stays at 1).
        mine[q] = byte + ((byte > lay.floor) & (byte < ILLEGAL - 1))
        cand[last] = q
        last += byte == ILLEGAL - 2
    # their exit bytes fetched together, as the values were (one at a time, each waited for memory)
    for k in range(last):
        fetched[k] = exit_value[cand[k]]
    for k in range(last):
        q = cand[k]
        if _start_value(fetched[k], q, ep_parent, ep_worst) <= n - 1:
            mine[q] = n
            count = _record(found, count, q)
            if others:
                count = _mark_others(lay, q, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def clear_counters(values, start, stop, floor):
    """Turn the counters in ``values[start:stop]`` back into UNKNOWN (they start again, or stop)."""
    for index in range(start, stop):
        if values[index] >= floor and values[index] < ILLEGAL:
            values[index] = UNKNOWN


@njit(nogil=True, cache=True)
def count_undecided(values, start, stop, floor):
    """How many of ``values[start:stop]`` are undecided (see _undecided)."""
    count = 0
    for index in range(start, stop):
        if _undecided(values[index], floor):
            count += 1
    return count


# ---- the kernels -------------------------------------------------------------------------------
# Each returns how many positions it gave a value, recorded in ``found`` (see _record).  Two threads
# may find one position at once; the engine removes such repeats.

@njit(nogil=True, cache=True)
def mark_wins(lay, side, n, frontier, mine, other, found):
    """Give n to every undecided predecessor (``side`` to move) of the ``frontier`` positions (``other``
    is not needed: it is there so that all win kernels take the same arrays)."""
    buffers = _buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    for start in range(0, frontier.size, BLOCK):
        m = _block_predecessors(lay, side, frontier, start, squares, out, cand, True, False)
        m = _keep_undecided(cand, m, mine, fetched, lay.floor)
        _as_entries(lay, cand, 0, m, True)
        count = _mark(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def mark_wins_runs(lay, side, n, frontier, mine, other, found):
    """mark_wins for a table with pawns, without identical pieces, in which Black has a piece (the last
    one), over sorted ``frontier`` positions: those of one run of 64 indices (which differ only in that
    piece's square) share most un-moves, found once per run.  White's all (_white_run_moves); Black's
    king's, its piece's from its own square."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    delta, row = np.empty(MAX_UNMOVES, dtype=np.int64), np.empty(MAX_UNMOVES, dtype=np.int64)
    blocked, weight = np.empty(MAX_UNMOVES, dtype=np.uint64), np.empty(MAX_UNMOVES, dtype=np.int64)
    targets = np.empty(32, dtype=np.int64)
    last = lay.count - 1
    kind = kind_of(lay.kinds, last)
    buffers = _buffers()
    cand, fetched = buffers[2], buffers[6]
    count, run, m, c = 0, np.int64(-1), 0, 0
    occ, enemy = np.uint64(0), np.uint64(0)
    for k in range(frontier.size):
        if c > _CANDIDATES - MAX_UNMOVES or (k % BLOCK == 0 and c):  # a block's predecessors: fetch, mark
            c = _keep_undecided(cand, c, mine, fetched, lay.floor)
            count, c = _mark(lay, cand, c, mine, n, found, count), 0
        f = frontier[k]
        base = f - (f & 63)
        if base != run:
            run = base
            _decode(base, lay, squares)
            occ = _occupancy(squares, last)
            enemy = _enemy_pawns(lay, 1, squares)
            if side == 0:
                m = _white_run_moves(lay, squares, True, out, delta, row, weight, blocked)
            else:  # the black king's un-moves; one onto the piece's square leads to an ILLEGAL index
                m = _targets(KING, squares[1], occ, True, np.uint64(0), out)
                for j in range(m):
                    delta[j], row[j], blocked[j] = (out[j] - squares[1]) * stride(lay.count, 1), -1, np.uint64(0)
        s = f - base
        c = _append_run_moves(f, s, m, delta, row, blocked, cand, c)
        if side == 1:
            if kind == BLACK_PAWN:
                for j in range(_targets(kind, s, occ, True, enemy, targets)):
                    cand[c] = base + targets[j]
                    c += 1
            else:
                c = _append_squares(kind, s, occ, cand, c, base, 1)
    c = _keep_undecided(cand, c, mine, fetched, lay.floor)
    return _mark(lay, cand, c, mine, n, found, count)


@njit(nogil=True, cache=True)
def mark_losses(lay, side, n, frontier, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to the undecided predecessors (``side`` to move) of the ``frontier`` positions that lose
    in n (see :func:`_keep_losing`); ``checked`` holds one bit per position, cleared each ply, so that a
    candidate reached from many frontier positions is checked once."""
    buffers = _buffers()
    squares, out, cand, _, _, _, fetched = buffers
    count = 0
    for start in range(0, frontier.size, BLOCK):
        m = _block_predecessors(lay, side, frontier, start, squares, out, cand, True, False)
        m = _keep_undecided(cand, m, mine, fetched, lay.floor)
        _as_entries(lay, cand, 0, m, True)
        m = _keep_unchecked(cand, m, checked)
        m = _keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = _mark(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def confirm_losses(lay, side, n, candidates, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to those of the ``candidates`` (``side`` to move) that lose in n."""
    buffers = _buffers()
    cand, fetched = buffers[2], buffers[6]
    count = 0
    for start in range(0, candidates.size, _CANDIDATES):
        m = 0
        for q in candidates[start : start + _CANDIDATES]:
            if q == _first_entry(lay, q):  # _mark gives the value to the other entries
                cand[m] = q
                m += 1
        m = _keep_undecided(cand, m, mine, fetched, lay.floor)
        m = _keep_unchecked(cand, m, checked)
        m = _keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = _mark(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def pull_wins(lay, side, n, start, stop, mine, other, found):
    """Give n to the undecided positions in ``range(start, stop)`` (``side`` to move) with a move into
    ``other``'s value n - 1."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    moves = np.empty(MAX_UNMOVES, dtype=np.int64)
    count = 0
    for index in range(start, stop):
        if not _undecided(mine[index], lay.floor) or index != _first_entry(lay, index):
            continue
        for j in range(_append_moves(lay, side, index, False, squares, out, moves, 0)):
            if other[moves[j]] == n - 1:
                mine[index] = n
                count = _mark_others(lay, index, mine, n, found, _record(found, count, index))
                break
    return count


@njit(nogil=True, cache=True)
def pull_losses(lay, side, n, start, stop, mine, other, exit_value, ep_parent, ep_worst, checked, found):
    """Give n to the undecided positions in ``range(start, stop)`` (``side`` to move) that lose in n
    (``checked`` is not needed: every position comes once)."""
    buffers = _buffers()
    cand = buffers[2]
    count = 0
    for block in range(start, stop, _CANDIDATES):
        m = 0
        for index in range(block, min(block + _CANDIDATES, stop)):
            if _undecided(mine[index], lay.floor) and index == _first_entry(lay, index):
                cand[m] = index
                m += 1
        m = _keep_losing(lay, side, n, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = _mark(lay, cand, m, mine, n, found, count)
    return count


@njit(nogil=True, cache=True)
def mates(lay, side, start, stop, in_check, mine, other, exit_value, ep_parent, ep_worst, found):
    """Give 0 to the checkmates (``side`` to move) in ``range(start, stop)``: in check (``in_check``: bits
    packed big-endian, as numpy.packbits) with no legal move."""
    buffers = _buffers()
    cand = buffers[2]
    count = 0
    for block in range(start, stop, _CANDIDATES):
        m, end = 0, min(block + _CANDIDATES, stop)
        for byte in range(block >> 3, (end + 7) >> 3):
            bits = in_check[byte]
            if bits == 0:  # most positions are not in check: eight of them passed at once
                continue
            for bit in range(8):
                index = (byte << 3) + bit
                if (bits >> (7 - bit)) & 1 and block <= index < end and index == _first_entry(lay, index):
                    cand[m] = index
                    m += 1
        m = _keep_losing(lay, side, 0, cand, m, other, exit_value, ep_parent, ep_worst, buffers)
        count = _mark(lay, cand, m, mine, 0, found, count)
    return count


# ---- the exits, grouped by the ply they decide ---------------------------------------------------
@njit(nogil=True, cache=True)
def bucket_by_value(index, value):
    """``(grouped, starts)``: ``index`` (int32) reordered by ``value`` (uint8), keeping the order within
    a value, and ``starts[v]`` where value v begins (257 entries).  A counting sort: one int32 copy."""
    starts = np.zeros(257, dtype=np.int64)
    for v in value:
        starts[np.int64(v) + 1] += 1
    for v in range(256):
        starts[v + 1] += starts[v]
    at = starts[:256].copy()
    grouped = np.empty(index.size, dtype=np.int32)
    for k in range(index.size):
        v = np.int64(value[k])
        grouped[at[v]] = index[k]
        at[v] += 1
    return grouped, starts


@njit(nogil=True, cache=True)
def sort_distinct(positions, bits):
    """``positions`` (int32) in ascending order, each once (a new array): each sets its bit in ``bits``
    (uint64, all zero, one bit per index), then the words from the lowest to the highest are read in
    order and zeroed, so that ``bits`` is all zero again.  Linear: a list of 10 % of the table costs
    a tenth of np.sort's time."""
    if positions.size == 0:
        return positions.copy()
    low, high = np.int64(positions[0]), np.int64(positions[0])
    for q in positions:
        q = np.int64(q)
        bits[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
        low, high = min(low, q), max(high, q)
    out = np.empty(positions.size, dtype=np.int32)
    m = 0
    for w in range(low >> 6, (high >> 6) + 1):
        word = bits[w]
        if word == 0:
            continue
        bits[w] = 0
        while word != 0:
            if m == out.size:
                raise ValueError("sort_distinct: the bitmap was not all zero")
            out[m] = (w << 6) + np.int64(trailing_zeros(word))
            m += 1
            word &= word - np.uint64(1)
    return out[:m]


@njit(nogil=True, cache=True)
def group_exit_bytes(values, start, stop, low, high, offsets, grouped):
    """Write each index k in ``range(start, stop)`` with ``low <= values[k] < high`` to ``grouped`` at
    ``offsets[values[k] - low]``, counting that offset up: the indices grouped by value, in order."""
    at = offsets.copy()
    for k in range(start, stop):
        v = np.int64(values[k])
        if low <= v < high:
            grouped[at[v - low]] = k
            at[v - low] += 1


# ---- one position's moves, for tests and tools -----------------------------------------------
@njit(nogil=True, cache=True)
def children(lay, side, index):
    """Indices (the other side to move) after each move of ``side`` in position ``index`` that stays in
    the table, illegal ones included (the engine's arrays mark those ILLEGAL)."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    found = np.empty(MAX_UNMOVES, dtype=np.int64)
    return found[: _append_moves(lay, side, index, False, squares, out, found, 0)]


@njit(nogil=True, cache=True)
def parents(lay, side, index):
    """Indices (``side`` to move) of the positions from which a move of ``side`` that stays in the table
    leads to position ``index``, both diagonal twins where the white king un-moves onto the diagonal."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    found = np.empty(MAX_UNMOVES, dtype=np.int64)
    return found[: _append_moves(lay, side, index, True, squares, out, found, 0)]


@njit(nogil=True, cache=True)
def weighed_byte_counts(values, weights):
    """``counts[b]``: the sum of ``weights[i % weights.size]`` over the i with ``values[i] == b`` (uint8
    values; ``weights.size`` a power of two).  np.bincount widens every byte to 64 bits first, and its
    weights are floats: this is five times faster.  Four lanes of counts, so that a long run of one byte
    does not wait on its own count."""
    lanes = np.zeros((4, 256), dtype=np.int64)
    mask = weights.size - 1
    end = values.size - values.size % 4
    for i in range(0, end, 4):
        lanes[0, values[i]] += weights[i & mask]
        lanes[1, values[i + 1]] += weights[(i + 1) & mask]
        lanes[2, values[i + 2]] += weights[(i + 2) & mask]
        lanes[3, values[i + 3]] += weights[(i + 3) & mask]
    for i in range(end, values.size):
        lanes[0, values[i]] += weights[i & mask]
    return lanes.sum(axis=0)


def warm_up() -> None:
    """Load every kernel's compiled code (compile it, the first time on a machine: about half a minute),
    so that a timed calculation measures the calculation.  The tiny positions used here change nothing."""
    from .kernel_rules import classify_span

    lay = KernelLayout.of(Layout(Material("Q")))
    size = 10 * 64 ** 2
    values, other, exit_value = (np.full(size, UNKNOWN, dtype=np.uint8) for _ in range(3))
    bits, found = np.zeros(size // 8, dtype=np.uint8), np.empty(16, dtype=np.int32)
    ep_parent, ep_worst = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int16)
    one = np.zeros(1, dtype=np.int64)
    classify_span(lay, 0, 8, values, other, bits, bits)
    mark_wins(lay, 0, 1, one, values, other, found)
    mark_losses(lay, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    confirm_losses(lay, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    pull_wins(lay, 0, 1, 0, 8, values, other, found)
    pull_losses(lay, 1, 2, 0, 8, values, other, exit_value, ep_parent, ep_worst, bits, found)
    mates(lay, 1, 0, 8, bits, values, other, exit_value, ep_parent, ep_worst, found)
    counting = lay._replace(floor=counter_floor(8))
    count_losses(counting, 1, 2, one, values, other, exit_value, ep_parent, ep_worst, bits, found)
    set_first_counters(counting, 0, 64, values, other, exit_value, bits, found)
    both_sides = 10 * 64 ** 3  # KQvKR's entries
    set_white_counters(KernelLayout.of(Layout(Material("Q", "R")))._replace(floor=counter_floor(43)), 2, 0, 64,
                             *(np.full(both_sides, value, np.uint8) for value in (UNKNOWN, UNKNOWN, NO_EXIT)))
    clear_counters(values, 0, 8, counting.floor)
    # the run kernels on no frontier at all: loaded without a table's worth of arrays (8 MB each here)
    with_pawns, none = KernelLayout.of(Layout(Material("P", "P")))._replace(floor=counter_floor(10)), one[:0]
    for side in (0, 1):
        mark_wins_runs(with_pawns, side, 1, none, values, other, found)
    count_white_runs(with_pawns, 0, 2, none, values, other, exit_value, ep_parent, ep_worst, bits, found)
    count_undecided(values, 0, 8, counting.floor)
    group_exit_bytes(values, 0, 8, 1, 3, np.zeros(2, np.int64), found)
    weighed_byte_counts(values, one)
    bucket_by_value(np.zeros(1, np.int32), np.zeros(1, np.uint8))
    sort_distinct(np.zeros(1, np.int32), np.zeros(1, np.uint64))
    from .kernel_exits import warm_up as warm_up_exits

    warm_up_exits()
