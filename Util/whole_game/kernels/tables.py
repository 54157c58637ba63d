"""Our endgame tables probed inside the search: a position of few enough pieces is valued by its table
(win, draw or loss with the distance to mate) instead of being searched.

The tables live in the search's working array ``work`` (:mod:`.work`), loaded there by the driver: at
:data:`~.work.TB` the most pieces of a loaded table (0: none loaded) and the number of rows, then one row
per material as it stands on the board (a table serves both colour orders, so two rows may share one
table):

==========  ==============================================================================================
SIGNATURE   the board's piece counts, :func:`signature` (kings left out)
DATA        where the table's bytes start in ``work``: the White-to-move array, then the Black-to-move one,
            eight bytes to an int64, little-endian (a numpy ``uint8`` array viewed as ``int64``)
SIZE        entries per side to move
PAWNS       1 if the table has pawns (32 king slots, only the a-h mirror), else 0 (10 slots, all eight
            symmetries)
SWAPPED     1 where the board's colours are the table's exchanged (``KRvKQ`` read in ``KQvKR``): squares
            turned round (``^ 56``) and the side to move exchanged
COUNT       pieces, kings included
CODES       per piece of the table's PIECE_LIST (white king, black king, White's pieces, Black's), the
            board's piece code (:mod:`.position`) to find; identical pieces are next to each other
==========  ==============================================================================================

The index is the table file's stored index (``Util.table.stored_index``): the white king folded onto its
canonical squares by the symmetry ``Util.board.symmetry.folding_transform`` names, identical pieces in
ascending order, and, for a pawnless table whose folded white king stands on the a1-h8 diagonal, the lower
of the position and its mirror in that diagonal.  The byte (``Util.table.values``) is n: odd, the side to
move mates in n plies; even, it is mated in n (0: it is mated now); 255, a draw.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from .bitboards import lsb, popcount
from .position import ALL_MEN, CASTLE, EP, HALFMOVE, SIDE
from .score import MATE
from .work import FEATURES, TABLEBASE_PROBES, TB, TB_HITS, TB_ROW

#: What :func:`probe` returns when the table does not decide the position: search it.
NO_PROBE = -(1 << 40)
PIECES, ROWS = TB, TB + 1
SQUARES, MIRRORED = TB + 4, TB + 10  # scratch: a position's squares, and their diagonal mirror
FIRST_ROW = TB + 16
SIGNATURE, DATA, SIZE, PAWNS, SWAPPED, COUNT, CODES = range(7)
DRAW_BYTE = 255
#: A fifty-move rule: the halfmove clock at which the search calls the game drawn.
FIFTY_MOVES = 100


def symmetry_rows() -> np.ndarray:
    """The eight symmetries of the board as ``[row, square]``: row 0 the identity, then those of
    ``Util.board.symmetry.Swap_Type`` in its order (the tests check it equals that module's ``TRANSFORMS``;
    the kernels import nothing of the package)."""
    def transpose(x: int) -> int:
        return ((x >> 3) | (x << 3)) & 63

    maps = (lambda x: x, lambda x: x ^ 56, lambda x: x ^ 7, lambda x: transpose(x) ^ 56, lambda x: x ^ 63,
            lambda x: transpose(x) ^ 7, transpose, lambda x: transpose(x) ^ 63)
    return np.array([[f(x) for x in range(64)] for f in maps], np.int64)


def folding_maps() -> np.ndarray:
    """``[pawns, white king's square, square]``: where the symmetry that brings the white king onto its
    canonical squares (files a-d with pawns, the a1-d1-d4 triangle without) takes each square; of two that
    qualify, the lower row, as ``folding_transform`` chooses."""
    rows = symmetry_rows()
    maps = np.zeros((2, 64, 64), np.int64)
    for pawns, allowed in ((0, range(8)), (1, (0, 2))):
        for king in range(64):
            for row in allowed:
                target = rows[row, king]
                if (target & 7) <= 3 and (pawns or (target >> 3) <= (target & 7)):
                    maps[pawns, king] = rows[row]
                    break
    return maps


FOLD = folding_maps()
SLOT = np.full((2, 64), -1, np.int64)  # [pawns, canonical square]: the white king's slot
SLOT[1, [s for s in range(64) if s & 7 <= 3]] = np.arange(32)
SLOT[0, [s for s in range(64) if s & 7 <= 3 and s >> 3 <= s & 7]] = np.arange(10)


def signature(white: Sequence[int], black: Sequence[int]) -> int:
    """The key of a material on the board: the counts of White's pawns, knights, bishops, rooks, queens,
    then Black's, three bits each (at most seven of a kind, far more than a table holds)."""
    key = 0
    for i, count in enumerate(list(white) + list(black)):
        key |= count << (3 * i)
    return key


@njit(cache=True, nogil=True)
def board_signature(bb):
    key = 0
    for code in range(5):
        key |= popcount(bb[code]) << (3 * code)
        key |= popcount(bb[code + 6]) << (3 * (code + 5))
    return key


@njit(cache=True, nogil=True)
def stored_index(work, at, count, row, pawns):
    """The index of the folded squares at ``work[at:at + count]``: identical pieces (runs of one piece code
    after the kings) sorted in place, then the white king's slot and the others' squares in base 64."""
    for i in range(3, count):
        if work[row + CODES + i] == work[row + CODES + i - 1]:
            j = i
            while j >= 3 and work[row + CODES + j - 1] == work[row + CODES + j] and work[at + j - 1] > work[at + j]:
                work[at + j - 1], work[at + j] = work[at + j], work[at + j - 1]
                j -= 1
    index = SLOT[pawns, work[at]]
    for i in range(1, count):
        index = index * 64 + work[at + i]
    return index


@njit(cache=True, nogil=True)
def table_byte(bb, st, work, row):
    """The byte of the position in the table of ``work``'s row ``row`` (an offset into ``work``)."""
    count, pawns, swapped = work[row + COUNT], work[row + PAWNS], work[row + SWAPPED]
    mask = np.uint64(0)
    for i in range(count):
        code = work[row + CODES + i]
        if i == 0 or code != work[row + CODES + i - 1]:
            mask = bb[code]
        square = lsb(mask)
        mask &= mask - np.uint64(1)
        work[SQUARES + i] = square ^ 56 if swapped else square
    king = work[SQUARES]
    for i in range(count):
        work[SQUARES + i] = FOLD[pawns, king, work[SQUARES + i]]
    king = work[SQUARES]
    diagonal = pawns == 0 and (king & 7) == (king >> 3)
    if diagonal:
        for i in range(count):
            square = work[SQUARES + i]
            work[MIRRORED + i] = ((square >> 3) | (square << 3)) & 63
    index = stored_index(work, SQUARES, count, row, pawns)
    if diagonal:
        index = min(index, stored_index(work, MIRRORED, count, row, pawns))
    if (st[SIDE] == 1) != (swapped == 1):
        index += work[row + SIZE]
    return (work[work[row + DATA] + (index >> 3)] >> (8 * (index & 7))) & 255


@njit(cache=True, nogil=True)
def probe_tables(bb, st, work, ply):
    """The score of the position ``ply`` plies from the root from its table: a draw 0, a mate in n plies
    ``MATE - ply - n``, mated in n ``-(MATE - ply - n)``; :data:`NO_PROBE` when no loaded table holds it
    (castling rights, an en passant capture possible, another material), or when its mate would come
    only after the fifty-move rule's draw (the table's distances ignore that rule: the search decides)."""
    if st[CASTLE] or st[EP] >= 0:
        return NO_PROBE
    key = board_signature(bb)
    for row in range(FIRST_ROW, FIRST_ROW + TB_ROW * work[ROWS], TB_ROW):
        if work[row + SIGNATURE] == key:
            n = table_byte(bb, st, work, row)
            if n == DRAW_BYTE:
                score = 0
            elif n > 0 and st[HALFMOVE] + n >= FIFTY_MOVES:
                return NO_PROBE
            else:
                score = MATE - ply - n if n & 1 else -(MATE - ply - n)
            work[TB_HITS] += 1
            return score
    return NO_PROBE


@njit(cache=True, nogil=True, inline="always")
def probe(bb, st, work, ply):
    """:func:`probe_tables` when tables are loaded, probes are on and few enough pieces stand on the board;
    else :data:`NO_PROBE` at the cost of two comparisons."""
    if work[PIECES] == 0 or popcount(bb[ALL_MEN]) > work[PIECES] or not work[FEATURES + TABLEBASE_PROBES]:
        return NO_PROBE
    return probe_tables(bb, st, work, ply)
