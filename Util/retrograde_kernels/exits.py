"""The exits of :mod:`Util.rules.exits`, compiled: the exit byte of one position at a time.

The first pass of the engine gives every position its exit byte: the best
result a capture or promotion gives the side to move, looked up in the
smaller table that move leads into.  :class:`Util.rules.exits.ExitFinder` states
it on whole numpy arrays (and still serves the few en passant captures);
this module does the same per position with numba, for the whole table.
On numpy arrays the pass built temporary arrays for every move kind and
pair of pieces, over every position; compiled, a position's few captures
are found in registers, and the look-ups into the smaller tables are made
for a block of positions at once, so that their waits for memory overlap.

Everything the kernel must know about a move kind (which piece moves, which
is taken, whether a pawn promotes, and how the position after it is looked
up in its table) is worked out once in Python (:func:`exit_moves`), as one
row of integers per move kind.
"""

from __future__ import annotations

import itertools
from typing import List, NamedTuple

import numpy as np
from numba import njit
from numba.typed import List as TypedList

from ..table.dtm_table import DtmTable
from ..table.values import DRAW, ILLEGAL, NO_EXIT
from ..rules.exits import PromotionSlice, SubTables, child_moves
from ..table.index_scheme import Layout
from ..board.material import Material
from .board import (BIT, BLACK_PAWN, FOLD_ROW, KIND_OF_LETTER, SLOT_OF_SQUARE, TRANSFORM_ROWS, WHITE_PAWN,
                    PackedLayout, colour_of, decode, kind_of, occupancy_of, pack_small, stride)
from .legality import ADJACENT, ATTACKS, attacks

# The columns of a move-kind row (see exit_moves).
(MOVER, CAPTURED, GROUP_END, PROMOTES, TABLE, WHITE_TO_MOVE, FLIP, COUNT, PAWNS, KINDS, COLOURS, PART_SHIFT,
 PART_RANK, ORDER) = range(14)
#: Columns of one row: ORDER is followed by one column per piece of the position after the move.
ROW_WIDTH = ORDER + 5


class ExitMoves(NamedTuple):
    """The move kinds of one side that leave the table: ``rows`` (int64, one per kind, columns as named
    above) and ``tables``, the DTM arrays they lead into (``rows[:, TABLE]`` indexes them)."""

    rows: np.ndarray
    tables: List[np.ndarray]


def exit_moves(layout: Layout, side: int, subtables: SubTables) -> ExitMoves:
    """Every kind of capture or promotion of ``side`` (0 White, 1 Black) in ``layout``'s material
    (:func:`Util.rules.exits.child_moves`), and how the position after it is found in its table: the same
    moves as ExitFinder.values.

    A row says: piece ``MOVER`` goes to the square of piece ``CAPTURED`` (or, -1, a pawn steps forward),
    taking it (the rows up to ``GROUP_END`` have the same mover and captured piece: one test whether the
    move is possible serves them all); ``PROMOTES`` 1: only for a pawn on its seventh rank, which becomes the piece in the child's
    letters, 0: only for a piece that does not promote.  The position after it has ``COUNT`` pieces;
    child piece k stands where parent piece ``ORDER + k`` stood (the mover: on its target), every square
    XOR ``FLIP`` (56 where the child's table is stored with the colours the other way round, which turns
    the board round).  Its letters (``KINDS``, ``COLOURS`` packed as in PackedLayout) and ``PAWNS`` are
    those of the stored table, in which ``WHITE_TO_MOVE`` says who is to move.  Where only the part of
    that table that promotions reach is kept (a :class:`Util.rules.exits.PromotionSlice`), ``PART_SHIFT`` and
    ``PART_RANK`` are its shift and rank (else -1).
    """
    rows, tables, table_ids = [], [], {}
    for _, group in itertools.groupby(child_moves(layout, side), key=lambda move: (move.mover, move.captured)):
        group = list(group)
        group_end = len(rows) + len(group)
        for move in group:
            table, key = subtables.tables[move.stored], (move.stored, move.white_to_move)
            if key not in table_ids:
                table_ids[key] = len(tables)
                tables.append(_looked_up(table, move.white_to_move))
            part_shift, part_rank = (table.shift, table.rank) if isinstance(table, PromotionSlice) else (-1, -1)
            if part_shift >= 0 and (table.white_to_move, table.piece, table.rank) != (
                    move.white_to_move, move.promoted_piece, move.promoted_rank):
                raise ValueError(f"{move.stored}: the part kept is not the one this promotion reaches")
            stored_letters = Layout(move.stored).letters
            row = [move.mover, move.captured, group_end, int(move.piece is not None), table_ids[key],
                   int(move.white_to_move), move.flip, len(move.parents), int(move.stored.has_pawns),
                   pack_small([KIND_OF_LETTER[c] for c in stored_letters]),
                   pack_small([0 if c.isupper() else 1 for c in stored_letters], bits=1), part_shift, part_rank]
            rows.append(row + move.parents + [0] * (ROW_WIDTH - ORDER - len(move.parents)))
    return ExitMoves(np.array(rows, dtype=np.int64).reshape(-1, ROW_WIDTH), tables)


def _looked_up(table, white_to_move: bool) -> np.ndarray:
    """The array that the kernel reads for one side to move of a sub-table (or of the part kept)."""
    if isinstance(table, PromotionSlice):
        return table.values
    return table.dtm_white if white_to_move else table.dtm_black


class ExitPass:
    """The compiled exit bytes of one side of one material (see :func:`exit_bytes`)."""

    def __init__(self, layout: Layout, side: int, subtables: SubTables):
        moves = exit_moves(layout, side, subtables)
        self.lay, self.rows = PackedLayout.of(layout), moves.rows
        # One type for every array in the list: a table read from a file is read-only, so all are viewed so.
        views = [table.view() for table in moves.tables] or [np.empty(0, dtype=np.uint8)]
        self.tables = TypedList()
        for view in views:
            view.flags.writeable = False
            self.tables.append(view)

    def __call__(self, start: int, stop: int, legal: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Exit bytes of the indices ``range(start, stop)`` into ``out`` (NO_EXIT where ``legal``, the
        side's DTM array, holds ILLEGAL); returns how many legal positions have each exit byte."""
        counts = np.zeros(256, dtype=np.int64)
        if exit_bytes(self.lay, start, stop, legal, self.rows, self.tables, out, counts):
            raise RuntimeError("a capture or promotion leads into a mate longer than 252 plies: the DTM bytes "
                               "cannot hold it")
        return counts


@njit(nogil=True, cache=True, inline="always")
def exit_rank(value):
    """How good an exit byte is for the mover (as Util.rules.exits.outcome_rank): a faster mate higher, then a
    draw, then a slower defeat; NO_EXIT lowest."""
    if value == NO_EXIT:
        return -1
    if value == DRAW:
        return 512
    if value % 2 == 1:
        return 1024 - value
    return value


@njit(nogil=True, cache=True, inline="always")
def _stored_index(squares, count, pawns):
    """Index of the position ``squares`` in a table of ``count`` pieces (with pawns or not), folded by
    symmetry onto its canonical white-king squares (as Layout.encode_canonical)."""
    row = FOLD_ROW[pawns, squares[0]]
    index = SLOT_OF_SQUARE[pawns, TRANSFORM_ROWS[row, squares[0]]] * stride(count, 0)
    for i in range(1, count):
        index += TRANSFORM_ROWS[row, squares[i]] * stride(count, i)
    return index


#: Positions whose children are looked up together: the look-ups of a block wait for memory side by side.
BLOCK = 1024


def _attack_lists() -> np.ndarray:
    """``lists[0, kind, a]``: the squares a piece of ``kind`` on a attacks on an empty board;
    ``lists[1, kind, b]``: the squares from which it attacks b; -1 after the last."""
    lists = np.full((2, ATTACKS.shape[0], 64, 28), -1, dtype=np.int64)
    for kind in range(ATTACKS.shape[0]):
        for square in range(64):
            for towards, found in enumerate((ATTACKS[kind, square], ATTACKS[kind, :, square])):
                lists[towards, kind, square, : np.count_nonzero(found)] = np.flatnonzero(found)
    return lists


_ATTACK_LISTS = _attack_lists()
#: The squares of the relative seventh rank, from which a pawn of each colour promotes (by kind).
_SEVENTH_RANK = np.zeros(BLACK_PAWN + 1, dtype=np.uint64)
_SEVENTH_RANK[WHITE_PAWN], _SEVENTH_RANK[BLACK_PAWN] = np.uint64(0xFF << 48), np.uint64(0xFF << 8)
_ALL_SQUARES = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(nogil=True, cache=True, inline="always")
def _attack_set(kind, square, occ, towards):
    """The squares a piece of ``kind`` on ``square`` attacks (``towards`` 0), or from which it attacks
    ``square`` (``towards`` 1), ``occ`` occupied (the moving piece itself never stands between)."""
    found = np.uint64(0)
    for k in range(28):
        other = _ATTACK_LISTS[towards, kind, square, k]
        if other < 0:
            break
        if attacks(kind, other, square, occ) if towards else attacks(kind, square, other, occ):
            found |= BIT[other]
    return found


@njit(nogil=True, cache=True, inline="always")
def _last_piece_squares(lay, squares, occ_others, rows, r):
    """A superset of the squares of the last piece on which move kind ``r`` (a group leader) is possible
    (_target not -1), the other pieces standing on ``squares`` (``occ_others``: their occupancy).  A
    piece added to the board only ever blocks a move, so where the last piece takes no part, the move is
    possible on no square if it is not possible without it; where it is the piece taken, it must stand
    on a square the mover attacks; where it moves, on a square from which it attacks the piece taken, or
    (a promoting step) on its seventh rank."""
    last = lay.count - 1
    mover, captured = rows[r, MOVER], rows[r, CAPTURED]
    kind = kind_of(lay.kinds, mover)
    if captured < 0:  # a pawn's step: an exit only where it promotes
        if mover == last:
            return _SEVENTH_RANK[kind]
        if not promotes(lay, squares, mover) or occ_others & BIT[squares[mover] + (8 if kind == WHITE_PAWN else -8)]:
            return np.uint64(0)
        return _ALL_SQUARES
    if captured == last:
        return _attack_set(kind, squares[mover], occ_others, 0)
    if mover == last:
        return _attack_set(kind, squares[captured], occ_others, 1)
    return _ALL_SQUARES if attacks(kind, squares[mover], squares[captured], occ_others) else np.uint64(0)


@njit(nogil=True, cache=True, inline="always")
def capture_target(lay, squares, occ, rows, r):
    """Where the mover of move kind ``r`` lands if the move is possible in the position ``squares``
    (a capture: the captured piece is attacked; a pawn's step: the square ahead is free), else -1."""
    mover, captured = rows[r, MOVER], rows[r, CAPTURED]
    source, kind = squares[mover], kind_of(lay.kinds, mover)
    if captured >= 0:
        return squares[captured] if attacks(kind, source, squares[captured], occ) else -1
    target = source + (8 if kind == WHITE_PAWN else -8)
    return -1 if occ & BIT[target] else target


@njit(nogil=True, cache=True, inline="always")
def promotes(lay, squares, mover):
    """1 if piece ``mover`` is a pawn on its seventh rank (its moves promote), else 0."""
    kind = kind_of(lay.kinds, mover)
    if kind == WHITE_PAWN:
        return 1 if squares[mover] >> 3 == 6 else 0
    if kind == BLACK_PAWN:
        return 1 if squares[mover] >> 3 == 1 else 0
    return 0


@njit(nogil=True, cache=True, inline="always")
def mover_safe(kinds, colours, child, count, white_to_move):
    """Whether the position ``child``, reached by a capture or promotion from a legal position, is legal
    (as legality.status) with White (``white_to_move``) or Black to move: the kings apart, and the
    king of the side that just moved attacked by no enemy piece.  The rest of status holds for every such
    position: the squares are distinct, no pawn stands on a back rank, and the king to move is checked at
    most twice, never by two pieces on one line through it (by the moved piece, and along the line
    through the square it left).  Half the cost of the full status, which was a third of the exit pass."""
    if ADJACENT[child[0], child[1]]:
        return False
    king = child[1] if white_to_move else child[0]
    enemy = 0 if white_to_move else 1
    occ = occupancy_of(child, count)
    for i in range(2, count):
        if colour_of(colours, i) == enemy and attacks(kind_of(kinds, i), child[i], king, occ):
            return False
    return True


@njit(nogil=True, cache=True, inline="always")
def child_index(squares, rows, child, r, target):
    """The index, in its table, of the position after move kind ``r`` (the mover to ``target``), or -1
    where that position is illegal (the mover's king left in check)."""
    mover, count = rows[r, MOVER], rows[r, COUNT]
    for k in range(count):
        parent = rows[r, ORDER + k]
        child[k] = (target if parent == mover else squares[parent]) ^ rows[r, FLIP]
    if not mover_safe(rows[r, KINDS], rows[r, COLOURS], child, count, rows[r, WHITE_TO_MOVE]):
        return -1
    index = _stored_index(child, count, rows[r, PAWNS])
    shift = rows[r, PART_SHIFT]
    if shift < 0:
        return index
    # kept: only the entries with the promoted piece on its rank (Util.rules.exits.PromotionSlice.index)
    file = ((index >> shift) & 63) - 8 * rows[r, PART_RANK]
    return ((index >> (shift + 6)) << (shift + 3)) | (file << shift) | (index & ((1 << shift) - 1))


@njit(nogil=True, cache=True)
def exit_bytes(lay, start, stop, legal, rows, tables, out, counts):
    """Write the exit byte of each index in ``range(start, stop)`` to ``out[index - start]`` (NO_EXIT
    where ``legal[index]`` is ILLEGAL) and count the legal ones per byte in ``counts``.  ``rows`` and
    ``tables``: the side's move kinds (:func:`exit_moves`).  Returns True if a child's mate is too long
    for a byte (253 plies or more).

    A block of positions at a time: first every child's index, then their values (independent reads of
    tables of up to half a gigabyte, which overlap), then each position's best."""
    squares, child = np.empty(8, dtype=np.int64), np.empty(8, dtype=np.int64)
    size = BLOCK * rows.shape[0]
    owner, table_of, child_at = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    value = np.empty(size, dtype=np.uint8)
    row_squares = np.zeros(rows.shape[0], dtype=np.uint64)
    too_long = False
    last = lay.count - 1
    run, occ_others, possible = np.int64(-1), np.uint64(0), np.uint64(0)
    for block in range(start, stop, BLOCK):
        end = min(block + BLOCK, stop)
        m = 0
        for index in range(block, end):
            out[index - start] = NO_EXIT
            if legal[index] == ILLEGAL:
                continue
            if index >> 6 != run:  # 64 indices differ only in the last piece: the others decoded once
                run = index >> 6
                decode(index, lay, squares)
                occ_others = occupancy_of(squares, last)
                # where the last piece may stand for each move kind to be possible: most positions have
                # no capture or promotion, and are passed by one test of a bit
                possible = np.uint64(0)
                r = 0
                while r < rows.shape[0]:
                    row_squares[r] = _last_piece_squares(lay, squares, occ_others, rows, r)
                    possible |= row_squares[r]
                    r = rows[r, GROUP_END]
            bit = BIT[index & 63]
            if not possible & bit:
                continue
            squares[last] = index & 63
            occ = occ_others | bit
            r = 0
            while r < rows.shape[0]:
                target = capture_target(lay, squares, occ, rows, r) if row_squares[r] & bit else -1
                if target >= 0:
                    promoting = promotes(lay, squares, rows[r, MOVER])
                    for kind in range(r, rows[r, GROUP_END]):
                        if rows[kind, PROMOTES] == promoting:
                            q = child_index(squares, rows, child, kind, target)
                            if q >= 0:
                                owner[m], table_of[m], child_at[m] = index - start, rows[kind, TABLE], q
                                m += 1
                r = rows[r, GROUP_END]
        for t in range(len(tables)):  # one table at a time: fetching a table from the list costs atomics
            table = tables[t]
            for k in range(m):
                if table_of[k] == t:
                    value[k] = table[child_at[k]]
        for k in range(m):
            v = np.int64(value[k])
            if v == DRAW:
                exit_value = DRAW
            else:
                if v >= 253:
                    too_long = True
                exit_value = v + 1
            if exit_rank(exit_value) > exit_rank(np.int64(out[owner[k]])):
                out[owner[k]] = exit_value
        for index in range(block, end):
            if legal[index] != ILLEGAL:
                counts[out[index - start]] += 1
    return too_long


def warm_up_exits() -> None:
    """Load (the first time on a machine: compile) the exit kernel on a tiny table."""
    layout = Layout(Material("Q"))
    kvk = np.full(10 * 64, DRAW, dtype=np.uint8)
    exits = ExitPass(layout, 1, SubTables({Material(""): DtmTable(Material(""), kvk, kvk)}))
    legal = np.full(8, ILLEGAL, dtype=np.uint8)
    exits(0, 8, legal, np.empty(8, dtype=np.uint8))
