"""The packed index and one position's moves, compiled.

Everything a kernel must know about a material is in a :class:`PackedLayout`
(:class:`Util.table.index_scheme.Layout`, the index scheme, as a few integers, so that
one compiled kernel serves every material), and the tables of this module:
piece kinds, the squares a piece reaches, the white king's canonical
squares and the symmetries that fold it there.  Here an index is decoded
into its squares, a piece's moves (or un-moves) are listed, and the index
after a move is computed.

Moves generated here are exactly those of :mod:`Util.rules.moves`: no captures
and no promotions (those are the exits, :mod:`Util.rules.exits`), no double step
beside an enemy pawn (:mod:`Util.rules.en_passant`), the white king folded back
onto its canonical squares by symmetry.  Compiled code is cached on disk
(``cache=True``): only the first run on a machine compiles
(:mod:`Util.retrograde_kernels.precompile`).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
from numba import njit

from ..table.values import UNKNOWN
from ..rules.geometry import KING_STEP, KNIGHT_STEP, RAYS
from ..table.index_scheme import Layout
from ..board.material import Material
from ..rules.moves import EP_NEIGHBOURS
from ..board.symmetry import TRANSFORMS, Swap_Type

#: Piece kinds, as the kernels number them.
KING, KNIGHT, BISHOP, ROOK, QUEEN, WHITE_PAWN, BLACK_PAWN = range(7)
KIND_OF_LETTER = {"K": KING, "k": KING, "N": KNIGHT, "n": KNIGHT, "B": BISHOP, "b": BISHOP,
                  "R": ROOK, "r": ROOK, "Q": QUEEN, "q": QUEEN, "P": WHITE_PAWN, "p": BLACK_PAWN}
#: The order in which a forward check tries pieces: few moves first, so a failing check stops early.  Pawns
#: (one or two moves) before kings: KRPvKR's White loss checks 13 % faster than with the king first.
_CHECK_ORDER = "PKNBRQ"
DIAGONAL_ROW = 1 + list(Swap_Type).index(Swap_Type.DIAGONAL)


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


STEP_SQUARES, RAY_SQUARES, BIT, EP_NEIGHBOUR_BITS = _geometry()


def _twin_rows() -> np.ndarray:
    """``rows[r]``: the TRANSFORMS row doing row r, then the mirror in the a1-h8 diagonal."""
    composed = TRANSFORMS[DIAGONAL_ROW][TRANSFORMS.astype(np.int64)]
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


SQUARE_OF_SLOT, SLOT_OF_SQUARE, FOLD_ROW, DIAGONAL_SQUARE = _king_tables()
TRANSFORM_ROWS = TRANSFORMS.astype(np.int64)
TWIN_ROW = _twin_rows()


#: Un-moves of one side in one position, diagonal twins included (at most 3 queens and a king: 89).
MAX_UNMOVES = 128


def pack_small(values: Sequence[int], bits: int = 4) -> int:
    """Small non-negative numbers in one integer, ``bits`` each, the first lowest."""
    return sum(v << (bits * k) for k, v in enumerate(values))


class PackedLayout(NamedTuple):
    """A :class:`Layout` as a few integers, for the kernels (see Util.table.index_scheme for the index).

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
    def of(cls, layout: Layout) -> "PackedLayout":
        letters = layout.letters
        order = [sorted(layout.pieces_of[s], key=lambda i: _CHECK_ORDER.index(letters[i].upper())) for s in (0, 1)]
        pawns = [[i for i in layout.pieces_of[s] if letters[i] in "Pp"] for s in (0, 1)]
        groups = layout.identical_groups
        if len(groups) > 1:
            raise ValueError(f"{layout.material}: the kernels handle one group of identical pieces, not {len(groups)}")
        return cls(
            count=len(letters),
            pawns=int(layout.material.has_pawns),
            kinds=pack_small([KIND_OF_LETTER[c] for c in letters]),
            colours=pack_small([0 if c.isupper() else 1 for c in letters], bits=1),
            white_pieces=pack_small([i + 1 for i in order[0]]),
            black_pieces=pack_small([i + 1 for i in order[1]]),
            white_pawns=pack_small([i + 1 for i in pawns[0]]),
            black_pawns=pack_small([i + 1 for i in pawns[1]]),
            en_passant=int(layout.en_passant_possible),
            identical=pack_small([i + 1 for i in (groups[0] if groups else [])]),
        )


@njit(nogil=True, cache=True, inline="always")
def kind_of(kinds, i):
    """The kind of piece ``i`` from a packed ``kinds`` (PackedLayout.kinds)."""
    return (kinds >> (4 * i)) & 15


@njit(nogil=True, cache=True, inline="always")
def colour_of(colours, i):
    return (colours >> i) & 1


@njit(nogil=True, cache=True, inline="always")
def stride(count, i):
    """Index step per square of piece ``i`` of ``count`` (piece 0's is per king slot)."""
    return np.int64(1) << (6 * (count - 1 - i))


@njit(nogil=True, cache=True, inline="always")
def listed_piece(packed, k):
    """Entry ``k`` of a packed piece list, -1 past its end."""
    return ((packed >> (4 * k)) & 15) - 1


@njit(nogil=True, cache=True, inline="always")
def piece_in_check_order(lay, side, k):
    """``side``'s k-th piece in check order, -1 past the last."""
    return listed_piece(lay.white_pieces if side == 0 else lay.black_pieces, k)


# ---- one position: squares, occupancy, moves ------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def decode(index, lay, squares):
    """Fill ``squares`` (PIECE_LIST order) with the position of ``index``."""
    rest = index
    for i in range(lay.count - 1, 0, -1):
        squares[i] = rest & 63
        rest >>= 6
    squares[0] = SQUARE_OF_SLOT[lay.pawns, rest]


@njit(nogil=True, cache=True, inline="always")
def occupancy_of(squares, count):
    occ = np.uint64(0)
    for i in range(count):
        occ |= BIT[squares[i]]
    return occ


@njit(nogil=True, cache=True, inline="always")
def enemy_pawns(lay, side, squares):
    """Bitboard of the other side's pawns where en passant is possible at all, else 0."""
    bits = np.uint64(0)
    if lay.en_passant:
        pawns = lay.black_pawns if side == 0 else lay.white_pawns
        for k in range(4):
            i = listed_piece(pawns, k)
            if i < 0:
                break
            bits |= BIT[squares[i]]
    return bits


@njit(nogil=True, cache=True, inline="always")
def is_free(occ, target):
    return target >= 0 and (occ & BIT[target]) == 0


@njit(nogil=True, cache=True)
def target_squares(kind, square, occ, backward, enemies, out):
    """Fill ``out`` with the free squares a piece of ``kind`` on ``square`` moves to (or, ``backward``,
    came from); return how many.  Pawns: no promotion, no double step beside an enemy pawn."""
    if kind != WHITE_PAWN and kind != BLACK_PAWN:
        return append_squares(kind, square, occ, out, 0, 0, 1)
    count = 0
    rank = square >> 3 if kind == WHITE_PAWN else 7 - (square >> 3)
    step = 8 if kind == WHITE_PAWN else -8
    if backward:
        step = -step
    if (rank >= 2) if backward else (rank <= 5):
        one = square + step
        if is_free(occ, one):
            out[count] = one
            count += 1
            two = one + step
            landing = square if backward else two
            if rank == (3 if backward else 1) and is_free(occ, two) and (enemies & EP_NEIGHBOUR_BITS[landing]) == 0:
                out[count] = two
                count += 1
    return count


@njit(nogil=True, cache=True, inline="always")
def append_squares(kind, square, occ, out, m, base, step):
    """Append ``base + t * step`` to ``out[m:]`` for each free square t that a piece of ``kind`` (not a
    pawn) on ``square`` moves to, which are the squares it came from too; return the new end.  With
    ``base`` 0 and ``step`` 1 the squares themselves; with a piece's index arithmetic, the indices."""
    if kind == KING or kind == KNIGHT:
        for d in range(8):
            t = STEP_SQUARES[kind, square, d]
            if is_free(occ, t):
                out[m] = base + t * step
                m += 1
        return m
    for d in range(8 if kind == QUEEN else 4):  # a bishop's or rook's four rays come first
        for k in range(7):
            t = RAY_SQUARES[kind, square, d, k]
            if not is_free(occ, t):
                break
            out[m] = base + t * step
            m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def encode(lay, squares, king_square, row):
    """Index of the position ``squares`` with the white king on ``king_square``, transformed by ``row``
    (which must bring that king onto a canonical square)."""
    index = SLOT_OF_SQUARE[lay.pawns, TRANSFORM_ROWS[row, king_square]] * stride(lay.count, 0)
    for i in range(1, lay.count):
        index += TRANSFORM_ROWS[row, squares[i]] * stride(lay.count, i)
    return index


@njit(nogil=True, cache=True, inline="always")
def index_after_move(lay, index, squares, piece, target):
    """Index after ``piece`` of the position (``index``, ``squares``) goes to ``target``."""
    if piece != 0:
        return index + (target - squares[piece]) * stride(lay.count, piece)
    slot = SLOT_OF_SQUARE[lay.pawns, target]
    if slot >= 0:
        return index + (slot - SLOT_OF_SQUARE[lay.pawns, squares[0]]) * stride(lay.count, 0)
    return encode(lay, squares, target, FOLD_ROW[lay.pawns, target])


@njit(nogil=True, cache=True, inline="always")
def _unmoved_twin(lay, squares, piece, target):
    """After an un-move of the white king to ``target``: the index of the mirror entry in the a1-h8
    diagonal where the folded king stands on it (pawnless tables keep both entries), else -1."""
    if piece != 0:
        return -1
    row = FOLD_ROW[lay.pawns, target]
    if not DIAGONAL_SQUARE[lay.pawns, TRANSFORM_ROWS[row, target]]:
        return -1
    return encode(lay, squares, target, TWIN_ROW[row])


@njit(nogil=True, cache=True, inline="always")
def append_moves(lay, side, f, backward, squares, out, cand, m):
    """Append to ``cand[m:]`` the positions one move of ``side`` after position ``f`` (the other side to
    move), or, ``backward``, one move before it (``side`` to move; where the white king un-moves onto
    the a1-h8 diagonal, both twin entries).  Only moves that stay in the table.  Returns the new end."""
    decode(f, lay, squares)
    occ = occupancy_of(squares, lay.count)
    enemy = enemy_pawns(lay, side, squares)
    for k in range(5):
        piece = piece_in_check_order(lay, side, k)
        if piece < 0:
            break
        kind = kind_of(lay.kinds, piece)
        if piece != 0 and kind != WHITE_PAWN and kind != BLACK_PAWN:
            m = append_piece_moves(lay, kind, piece, f, squares[piece], occ, cand, m)
            continue
        for j in range(target_squares(kind, squares[piece], occ, backward, enemy, out)):
            cand[m] = index_after_move(lay, f, squares, piece, out[j])
            m += 1
            twin = _unmoved_twin(lay, squares, piece, out[j]) if backward else -1
            if twin >= 0:
                cand[m] = twin
                m += 1
    return m


@njit(nogil=True, cache=True, inline="always")
def append_piece_moves(lay, kind, piece, f, square, occ, cand, m):
    """append_moves for one piece that is neither the white king nor a pawn (its moves and un-moves are
    the same squares, and the index only changes in its own field): each index written as its square is
    found, not listed by target_squares first, which saves a pass over the un-moves (docs/performance.md)."""
    step = stride(lay.count, piece)
    return append_squares(kind, square, occ, cand, m, f - square * step, step)


# ---- one position's moves, for tests and tools -----------------------------------------------
@njit(nogil=True, cache=True)
def children(lay, side, index):
    """Indices (the other side to move) after each move of ``side`` in position ``index`` that stays in
    the table, illegal ones included (the engine's arrays mark those ILLEGAL)."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    found = np.empty(MAX_UNMOVES, dtype=np.int64)
    return found[: append_moves(lay, side, index, False, squares, out, found, 0)]


@njit(nogil=True, cache=True)
def parents(lay, side, index):
    """Indices (``side`` to move) of the positions from which a move of ``side`` that stays in the table
    leads to position ``index``, both diagonal twins where the white king un-moves onto the diagonal."""
    squares, out = np.empty(lay.count, dtype=np.int64), np.empty(32, dtype=np.int64)
    found = np.empty(MAX_UNMOVES, dtype=np.int64)
    return found[: append_moves(lay, side, index, True, squares, out, found, 0)]
