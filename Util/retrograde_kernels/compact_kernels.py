"""The compact engine's loops, compiled: the first pass, the plies, the seeds, the board counts.

One byte per position and side to move, in the compact index
(:mod:`Util.retrograde_kernels.compact_board`):

=====================  =========================================================
``0 .. tail - 1``      decided: the position's n
``tail``, ``tail + 1`` decided at ply ``tail`` or later (even, odd n): the n
                       itself is listed beside the array (Util.retrograde.compact)
``floor .. 253``       undecided, and it may still lose: a counter c = 254 - byte
                       of its moves not yet refuted (the exit a move too)
``254`` (ILLEGAL)      no position (illegal, or an entry no position uses)
``255`` (UNKNOWN)      undecided, and it never loses: an exit wins or draws for
                       it, or the other side has only its king
=====================  =========================================================

**The exits as moves.**  The first pass finds each position's best capture
(:mod:`Util.retrograde_kernels.exits`, looked up in the five-piece table it
leads into) and keeps no byte for it: where the capture wins in e plies
the position is a *win seed* of ply e (it mates in e unless a quiet move
mates sooner); where every capture loses, the slowest in e plies, the
capture is one more move in the counter and the position a *loss seed* of
ply e, which counts it down at ply e as a move into a position the opponent
won at e - 1.  So the exits cost no byte per position, only the list of
seeds by ply (Util.retrograde.compact keeps it compressed).

**Counters with symmetric positions.**  One entry per position: a position
that is its own mirror (both kings and every other piece on the a1-h8
diagonal or mirrored in it) has moves in mirror pairs that lead into one
entry, and un-moves from that entry find it once.  So a counter counts a
move into a position that is its own mirror twice, and an un-move found
from any position counts down the predecessor by 2 when the predecessor is
its own mirror, else by 1: summed over the symmetries of the board both come
to the same (test_compact_engine checks every table against the other engine).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..table.values import DRAW, ILLEGAL, NO_EXIT, UNKNOWN
from .board import BIT, KING, KNIGHT, QUEEN, STEP_SQUARES, kind_of
from .compact_board import (MAX_UNMOVES, PAIRS, SLIDE, canonical, decode, is_canonical_entry, may_be_symmetric,
                            occupancy, unmoves, DIAG)
from .exits import GROUP_END, TABLE, capture_target, child_index, exit_rank
from .legality import ADJACENT, attacks, status
from ..rules.geometry import BETWEEN, LINE, LINE_KIND

#: Positions whose un-moves (or captures) are gathered before their bytes are fetched together.
BLOCK = 64
_BETWEEN = BETWEEN.copy()
_LINE = LINE.copy()
_LINE_KIND = LINE_KIND.astype(np.int64)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(nogil=True, cache=True, inline="always")
def record(found, count, value):
    """Write ``value`` at ``found[count]`` if it fits; the new count (which may exceed found.size)."""
    if count < found.size:
        found[count] = value
    return count + 1


@njit(nogil=True, cache=True, inline="always")
def is_undecided(byte, floor):
    return byte == UNKNOWN or (byte >= floor and byte < ILLEGAL)


# ---- the first pass ---------------------------------------------------------------------------------

@njit(nogil=True, cache=True, inline="always")
def _slides_along(kind, line_kind):
    """Whether a piece of ``kind`` moves along a line of ``line_kind`` (1: rank or file, 2: diagonal)."""
    return kind == QUEEN or (kind == 3 and line_kind == 1) or (kind == 2 and line_kind == 2)


@njit(nogil=True, cache=True)
def quiet_moves(lay, side, squares, occ, folded, children):
    """``(count, listed)``: the legal moves of ``side`` (to move) that capture nothing, each counted once,
    or twice where the position after it is its own mirror (see the module's docstring); and, where
    ``children`` is not empty, the entry after each move written there (``listed`` of them: the
    retrograde check's forward look, compact_verify)."""
    king, enemy_king = squares[side], squares[1 - side]
    checkers, checker = 0, -1
    pinned = np.uint64(0)
    pin_lines = np.zeros(lay.count, dtype=np.uint64)
    for e in range(2, lay.count):
        if ((lay.colours >> e) & 1) == side:
            continue
        kind, source = kind_of(lay.kinds, e), squares[e]
        if attacks(kind, source, king, occ):
            checkers += 1
            checker = source
        elif (kind == 2 or kind == 3 or kind == QUEEN) and _slides_along(kind, _LINE_KIND[source, king]):
            between = _BETWEEN[source, king] & occ
            if between != 0 and (between & (between - np.uint64(1))) == 0:
                for p in range(2, lay.count):
                    if ((lay.colours >> p) & 1) == side and BIT[squares[p]] == between:
                        pinned |= between
                        pin_lines[p] = _LINE[source, king]
    total, listed = 0, 0
    wanted = children.size > 0
    if checkers < 2:
        symmetric_kings = may_be_symmetric(squares[0], squares[1])
        block = _ALL if checkers == 0 else _BETWEEN[checker, king]
        for p in range(2, lay.count):
            if ((lay.colours >> p) & 1) != side:
                continue
            kind, source = kind_of(lay.kinds, p), squares[p]
            allowed = block & (pin_lines[p] if pinned & BIT[source] else _ALL)
            for d in range(8):
                for k in range(7):
                    if kind == KNIGHT:
                        if k > 0:
                            break
                        t = STEP_SQUARES[KNIGHT, source, d]
                    elif kind == QUEEN or d < 4:
                        t = SLIDE[kind, source, d, k]
                    else:
                        break
                    if t < 0 or occ & BIT[t]:
                        break
                    if allowed & BIT[t]:
                        weight = 1
                        if symmetric_kings or wanted:
                            squares[p] = t
                            index, symmetric = canonical(lay, squares, folded)
                            weight = 2 if symmetric else 1
                            squares[p] = source
                            if wanted:
                                children[listed] = index
                                listed += 1
                        total += weight
    without_king = occ ^ BIT[king]
    for d in range(8):
        t = STEP_SQUARES[KING, king, d]
        if t < 0 or occ & BIT[t] or ADJACENT[t, enemy_king]:
            continue
        after = without_king | BIT[t]
        safe = True
        for e in range(2, lay.count):
            if ((lay.colours >> e) & 1) != side and attacks(kind_of(lay.kinds, e), squares[e], t, after):
                safe = False
                break
        if safe:
            weight = 1
            if wanted or (may_be_symmetric(t, enemy_king) if side == 0 else may_be_symmetric(squares[0], t)):
                squares[side] = t
                index, symmetric = canonical(lay, squares, folded)
                weight = 2 if symmetric else 1
                squares[side] = king
                if wanted:
                    children[listed] = index
                    listed += 1
            total += weight
    return total, listed


@njit(nogil=True, cache=True, inline="always")
def _side_bytes(lay, side, can_lose, block, end, start, decoded, ok, checked, out, rows, tables, seed_at, seed_value,
                seeds, buffers):
    """first_pass's work for one side to move over one block of decoded positions; ``(seeds, largest)``."""
    squares, folded, child, owner, table_of, child_at, value, moves, best, no_children = buffers
    m, largest = 0, 0
    for index in range(block, end):
        k = index - block
        best[k] = -1  # no position
        if not ok[k, side]:
            continue
        for i in range(lay.count):
            squares[i] = decoded[k, i]
        occ = occupancy(squares, lay.count)
        moves[k] = quiet_moves(lay, side, squares, occ, folded, no_children)[0]
        best[k] = NO_EXIT
        r = 0
        while r < rows.shape[0]:
            target = capture_target(lay, squares, occ, rows, r)
            if target >= 0:
                for kind in range(r, rows[r, GROUP_END]):
                    q = child_index(squares, rows, child, kind, target)
                    if q >= 0:
                        owner[m], table_of[m], child_at[m] = k, rows[kind, TABLE], q
                        m += 1
            r = rows[r, GROUP_END]
    for t in range(len(tables)):  # the look-ups of a block together: their waits for memory overlap
        table = tables[t]
        for j in range(m):
            if table_of[j] == t:
                value[j] = table[child_at[j]]
    for j in range(m):
        v = np.int64(value[j])
        e = DRAW if v == DRAW else v + 1
        if exit_rank(e) > exit_rank(best[owner[j]]):
            best[owner[j]] = e
    for index in range(block, end):
        k = index - block
        e = best[k]
        if e < 0:
            out[index - start] = ILLEGAL
            continue
        if e == NO_EXIT and moves[k] == 0:
            out[index - start] = 0 if checked[k, side] else UNKNOWN  # checkmate; stalemate
            continue
        if e != NO_EXIT and e != DRAW and (can_lose or e % 2 == 1):
            seed_at[seeds], seed_value[seeds] = index - start, e
            seeds += 1
        if not can_lose or e == DRAW or e % 2 == 1:
            out[index - start] = UNKNOWN
            continue
        counter = moves[k] + (1 if e != NO_EXIT else 0)
        largest = max(largest, counter)
        out[index - start] = max(ILLEGAL - counter, lay.floor)
    return seeds, largest


@njit(nogil=True, cache=True)
def first_pass(lay, can_lose_white, can_lose_black, start, stop, out_white, out_black, rows_white, tables_white,
               rows_black, tables_black, at_white, value_white, at_black, value_black):
    """The byte of every index of ``range(start, stop)``, with White and with Black to move, into
    ``out_white`` / ``out_black[index - start]`` (see the module's docstring), and each side's seeds into
    ``at_*`` (the index minus ``start``) and ``value_*`` (the exit: odd e wins, even e loses).  ``rows_*``,
    ``tables_*``: each side's captures and the tables they lead into (exits.exit_moves).  A block of
    positions is decoded and its legality found once for both sides.  Returns ``(White's seeds, Black's
    seeds, largest counter)``; a counter that does not fit (above 254 - ``lay.floor``) is for the caller to
    refuse."""
    squares, folded = np.empty(8, np.int64), np.empty(8, np.int64)
    decoded, ok, checked = np.empty((BLOCK, 8), np.int64), np.empty((BLOCK, 2), np.bool_), np.empty((BLOCK, 2), np.bool_)
    size = BLOCK * max(1, max(rows_white.shape[0], rows_black.shape[0]))
    buffers = (np.empty(8, np.int64), np.empty(8, np.int64), np.empty(8, np.int64), np.empty(size, np.int64),
               np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.uint8), np.empty(BLOCK, np.int64),
               np.empty(BLOCK, np.int64), np.empty(0, np.int64))
    seeds_white, seeds_black, largest = 0, 0, 0
    for block in range(start, stop, BLOCK):
        end = min(block + BLOCK, stop)
        for index in range(block, end):
            k = index - block
            decode(index, lay, squares)
            ok[k, 0] = ok[k, 1] = False
            if not is_canonical_entry(lay, index, squares, folded):
                continue
            white_ok, black_ok, white_check, black_check = status(lay.kinds, lay.colours, squares, lay.count)
            ok[k, 0], ok[k, 1], checked[k, 0], checked[k, 1] = white_ok, black_ok, white_check, black_check
            for i in range(lay.count):
                decoded[k, i] = squares[i]
        seeds_white, most = _side_bytes(lay, 0, can_lose_white, block, end, start, decoded, ok, checked, out_white,
                                        rows_white, tables_white, at_white, value_white, seeds_white, buffers)
        largest = max(largest, most)
        seeds_black, most = _side_bytes(lay, 1, can_lose_black, block, end, start, decoded, ok, checked, out_black,
                                        rows_black, tables_black, at_black, value_black, seeds_black, buffers)
        largest = max(largest, most)
    return seeds_white, seeds_black, largest


# ---- the plies --------------------------------------------------------------------------------------

@njit(nogil=True, cache=True)
def mark_wins(lay, side, code, positions, mine, found):
    """Give ``code`` to every undecided predecessor (``side`` to move) of ``positions`` (the other side's
    losses of the ply before); record them.  Returns how many."""
    squares, folded = np.empty(8, np.int64), np.empty(8, np.int64)
    cand, weight = np.empty(BLOCK * MAX_UNMOVES, np.int64), np.empty(BLOCK * MAX_UNMOVES, np.int64)
    fetched = np.empty(BLOCK * MAX_UNMOVES, np.uint8)
    count = 0
    for start in range(0, positions.size, BLOCK):
        m = 0
        for f in positions[start : start + BLOCK]:
            decode(f, lay, squares)
            m = unmoves(lay, side, f, squares, folded, cand, weight, m)
        for k in range(m):
            fetched[k] = mine[cand[k]]
        for k in range(m):
            if is_undecided(fetched[k], lay.floor):
                p = cand[k]
                if mine[p] != code:  # a block may hold a predecessor twice
                    mine[p] = code
                    count = record(found, count, p)
    return count


@njit(nogil=True, cache=True)
def count_losses(lay, side, code, positions, mine, found, errors):
    """Count down the counter of every predecessor (``side`` to move) of ``positions`` (the other side's
    wins of the ply before), by its weight; give ``code`` to those whose last move this was, and record
    them.  Only one thread may count a predecessor (Util.retrograde.compact's owner groups).  Returns how
    many; ``errors[0]`` counts counters that went below zero (none, if the counts are right)."""
    squares, folded = np.empty(8, np.int64), np.empty(8, np.int64)
    cand, weight = np.empty(BLOCK * MAX_UNMOVES, np.int64), np.empty(BLOCK * MAX_UNMOVES, np.int64)
    fetched = np.empty(BLOCK * MAX_UNMOVES, np.uint8)
    count = 0
    for start in range(0, positions.size, BLOCK):
        m = 0
        for f in positions[start : start + BLOCK]:
            decode(f, lay, squares)
            m = unmoves(lay, side, f, squares, folded, cand, weight, m)
        for k in range(m):  # their memory waits overlap here; the counting below reads each byte again
            fetched[k] = mine[cand[k]]
        for k in range(m):
            p = cand[k]
            byte = np.int64(mine[p])
            if byte >= lay.floor and byte < ILLEGAL:
                byte += weight[k]
                if byte >= ILLEGAL:
                    errors[0] += byte > ILLEGAL
                    mine[p] = code
                    count = record(found, count, p)
                else:
                    mine[p] = byte
    return count


@njit(nogil=True, cache=True)
def seed_wins(lay, code, positions, mine, found):
    """Give ``code`` to the undecided ``positions`` (win seeds of this ply); record them."""
    count = 0
    for p in positions:
        if is_undecided(mine[p], lay.floor):
            mine[p] = code
            count = record(found, count, p)
    return count


@njit(nogil=True, cache=True)
def seed_losses(lay, code, positions, mine, found, errors):
    """Count down each of ``positions`` (loss seeds of this ply) once; give ``code`` to those it brings to
    zero, and record them."""
    count = 0
    for p in positions:
        byte = np.int64(mine[p])
        if byte >= lay.floor and byte < ILLEGAL:
            byte += 1
            if byte >= ILLEGAL:
                errors[0] += byte > ILLEGAL
                mine[p] = code
                count = record(found, count, p)
            else:
                mine[p] = byte
    return count


@njit(nogil=True, cache=True)
def find_equal(values, start, stop, code, found):
    """The indices of ``range(start, stop)`` whose byte is ``code``, into ``found``; how many."""
    count = 0
    for index in range(start, stop):
        if values[index] == code:
            found[count] = index
            count += 1
    return count


# ---- after the plies --------------------------------------------------------------------------------

@njit(nogil=True, cache=True)
def board_counts(lay, values, start, stop, tail, counts):
    """Add to ``counts[v]`` the boards of each entry of ``range(start, stop)`` whose byte v is below
    ``tail`` (an n): 8 per position, 4 for one that is its own mirror (the board's eight symmetries give
    it four distinct boards)."""
    squares, folded = np.empty(8, np.int64), np.empty(8, np.int64)
    for index in range(start, stop):
        v = values[index]
        if v >= tail:
            continue
        pair = index // lay.stride0
        boards = 8
        if DIAG[PAIRS[lay.pawns, pair, 0]] and DIAG[PAIRS[lay.pawns, pair, 1]]:
            decode(index, lay, squares)
            if canonical(lay, squares, folded)[1]:
                boards = 4
        counts[v] += boards


@njit(nogil=True, cache=True)
def boards_of(lay, positions, out):
    """The boards each of ``positions`` stands for (8, or 4 for a position that is its own mirror)."""
    squares, folded = np.empty(8, np.int64), np.empty(8, np.int64)
    for k in range(positions.size):
        index = positions[k]
        pair = index // lay.stride0
        out[k] = 8
        if DIAG[PAIRS[lay.pawns, pair, 0]] and DIAG[PAIRS[lay.pawns, pair, 1]]:
            decode(index, lay, squares)
            if canonical(lay, squares, folded)[1]:
                out[k] = 4
