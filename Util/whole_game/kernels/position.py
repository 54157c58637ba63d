"""A position as two arrays, and moves made and taken back in place.  (Two arrays, not one per idea: numba
counts references to every array a kernel takes, on each call, and a search makes millions of calls.)

``bb`` (uint64[:data:`POS_SIZE`], the position's bits) holds

* at 0..14 the pieces' bitboards by piece code (white pawn, knight, bishop, rook, queen, king =
  0..5, black's 6..11), then white's men (12), black's (13), all (14);
* at :data:`KEYS` the Polyglot key of every position of the game since the last position loaded,
  ``bb[KEYS + st[PLY]]`` the current one.

``st`` (int64[:data:`STATE_SIZE`], its state) holds

* at 0..5 the side to move (0 white), castling rights (bits 1 white king side,
  2 white queen side, 4 black king side, 8 black queen side, as Polyglot's order), the en passant square
  (-1 when none, and kept only when a pawn of the side to move stands beside the pawn that moved two, as
  Polyglot hashes it), the halfmove clock, the ply (index of the current key), and the files of the
  castling rooks (:data:`ROOK_FILES`: three bits each, in the rights' order; a and h in chess, any two
  files around the king in Chess960);
* at :data:`BOARD` the piece code on each of the 64 squares, :data:`EMPTY` where none;
* at :data:`RIGHTS_MASK` the castling rights kept when a move leaves or reaches each square (the king's
  square clears both of its side's, a castling rook's its own);
* at :data:`UNDO` + 4 * ply what the move made from that ply destroys: piece captured, rights, en passant
  square, halfmove clock.

Moves are packed ints (:mod:`.move`).  Castling, in chess and in Chess960 alike, moves the king to the g-
or c-file and the rook to the f- or d-file (the move's ``to`` is the king's square); the king and the rook
may start on each other's or on their own final squares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboards import (KING, KNIGHT, PAWN_ATTACKS, ZOBRIST_CASTLE, ZOBRIST_EP, ZOBRIST_PIECE, ZOBRIST_TURN,
                        bishop_attacks, bit, lsb, rook_attacks)
from .move import CASTLING, DOUBLE, EN_PASSANT, from_square, kind_of, promotion_of, to_square

PAWN, KNIGHT_TYPE, BISHOP, ROOK, QUEEN, KING_TYPE = range(6)
EMPTY = 12
WHITE_MEN, BLACK_MEN, ALL_MEN = 12, 13, 14
SIDE, CASTLE, EP, HALFMOVE, PLY, ROOK_FILES = range(6)
MAX_HISTORY = 1024
KEYS = 16
POS_SIZE = KEYS + MAX_HISTORY
BOARD = 8
RIGHTS_MASK = BOARD + 64
UNDO = RIGHTS_MASK + 64
STATE_SIZE = UNDO + 4 * MAX_HISTORY
#: The castling rights' bits: king side, queen side of the side to move, once shifted by 2 * side.
KING_SIDE, QUEEN_SIDE = 1, 2
#: Where castling takes the king and the rook (files).
KING_SIDE_KING, KING_SIDE_ROOK, QUEEN_SIDE_KING, QUEEN_SIDE_ROOK = 6, 5, 2, 3


@njit(cache=True, nogil=True, inline="always")
def castling_rook(st, side, king_to):
    """The square the castling rook of ``side`` starts on, for the castling that takes the king to
    ``king_to``."""
    right = 0 if king_to & 7 == KING_SIDE_KING else 1
    return (56 if side else 0) + ((st[ROOK_FILES] >> (3 * (2 * side + right))) & 7)


@njit(cache=True, nogil=True, inline="always")
def castled_rook(king_to):
    """The square the rook stands on after the castling that takes the king to ``king_to``."""
    return (king_to & 56) + (KING_SIDE_ROOK if king_to & 7 == KING_SIDE_KING else QUEEN_SIDE_ROOK)


@njit(cache=True, nogil=True, inline="always")
def toggle(bb, piece, square, colour_men):
    b = bit(square)
    bb[piece] ^= b
    bb[colour_men] ^= b
    bb[ALL_MEN] ^= b


@njit(cache=True, nogil=True)
def attackers(bb, tables, square, occupied, by):
    """The men of colour ``by`` that attack ``square`` with ``occupied`` the board's men."""
    o = by * 6
    return ((tables[PAWN_ATTACKS + (1 - by) * 64 + square] & bb[o]) | (tables[KNIGHT + square] & bb[o + 1])
            | (tables[KING + square] & bb[o + 5])
            | (bishop_attacks(tables, square, occupied) & (bb[o + 2] | bb[o + 4]))
            | (rook_attacks(tables, square, occupied) & (bb[o + 3] | bb[o + 4])))


@njit(cache=True, nogil=True)
def in_check(bb, st, tables):
    side = st[SIDE]
    return attackers(bb, tables, lsb(bb[side * 6 + 5]), bb[ALL_MEN], 1 - side) != 0


@njit(cache=True, nogil=True)
def compute_key(bb, st, tables):
    """The Polyglot key of the position, from scratch."""
    key = np.uint64(0)
    for square in range(64):
        if st[BOARD + square] != EMPTY:
            key ^= tables[ZOBRIST_PIECE + st[BOARD + square] * 64 + square]
    key ^= tables[ZOBRIST_CASTLE + st[CASTLE]]
    if st[EP] >= 0:
        key ^= tables[ZOBRIST_EP + (st[EP] & 7)]
    if st[SIDE] == 0:
        key ^= tables[ZOBRIST_TURN]
    return key


@njit(cache=True, nogil=True)
def make_move(bb, st, tables, move):
    """Plays a legal move in place (the key, clock and history follow)."""
    frm, to = from_square(move), to_square(move)
    promotion, kind = promotion_of(move), kind_of(move)
    side = st[SIDE]
    ply = st[PLY]
    key = bb[KEYS + ply]
    piece = st[BOARD + frm]
    captured = st[BOARD + to] if kind != CASTLING else EMPTY  # the king may go to its own rook's square
    st[UNDO + 4 * ply + 0] = captured
    st[UNDO + 4 * ply + 1] = st[CASTLE]
    st[UNDO + 4 * ply + 2] = st[EP]
    st[UNDO + 4 * ply + 3] = st[HALFMOVE]
    if st[EP] >= 0:
        key ^= tables[ZOBRIST_EP + (st[EP] & 7)]
        st[EP] = -1
    st[HALFMOVE] += 1
    own, enemy = WHITE_MEN + side, WHITE_MEN + 1 - side
    if kind == EN_PASSANT:
        square = to - 8 if side == 0 else to + 8
        pawn = st[BOARD + square]
        toggle(bb, pawn, square, enemy)
        st[BOARD + square] = EMPTY
        key ^= tables[ZOBRIST_PIECE + pawn * 64 + square]
    elif captured != EMPTY:
        toggle(bb, captured, to, enemy)
        key ^= tables[ZOBRIST_PIECE + captured * 64 + to]
        st[HALFMOVE] = 0
    rook_from = rook_to = frm
    rook = side * 6 + ROOK
    if kind == CASTLING:  # both men lifted before either is put down: their squares may overlap
        rook_from, rook_to = castling_rook(st, side, to), castled_rook(to)
        toggle(bb, rook, rook_from, own)
        st[BOARD + rook_from] = EMPTY
        key ^= tables[ZOBRIST_PIECE + rook * 64 + rook_from] ^ tables[ZOBRIST_PIECE + rook * 64 + rook_to]
    toggle(bb, piece, frm, own)
    key ^= tables[ZOBRIST_PIECE + piece * 64 + frm]
    st[BOARD + frm] = EMPTY
    placed = piece if promotion == 0 else side * 6 + promotion
    toggle(bb, placed, to, own)
    key ^= tables[ZOBRIST_PIECE + placed * 64 + to]
    st[BOARD + to] = placed
    if kind == CASTLING:
        toggle(bb, rook, rook_to, own)
        st[BOARD + rook_to] = rook
    if piece % 6 == PAWN:
        st[HALFMOVE] = 0
        if kind == DOUBLE:
            passed = (frm + to) >> 1
            if tables[PAWN_ATTACKS + side * 64 + passed] & bb[(1 - side) * 6]:
                st[EP] = passed
                key ^= tables[ZOBRIST_EP + (passed & 7)]
    rights = st[CASTLE]
    kept = rights & st[RIGHTS_MASK + frm] & st[RIGHTS_MASK + to]
    if kept != rights:
        key ^= tables[ZOBRIST_CASTLE + rights] ^ tables[ZOBRIST_CASTLE + kept]
        st[CASTLE] = kept
    st[SIDE] = 1 - side
    key ^= tables[ZOBRIST_TURN]
    st[PLY] = ply + 1
    bb[KEYS + ply + 1] = key


@njit(cache=True, nogil=True)
def unmake_move(bb, st, move):
    """Takes back ``move``, the last move made."""
    frm, to = from_square(move), to_square(move)
    promotion, kind = promotion_of(move), kind_of(move)
    ply = st[PLY] - 1
    st[PLY] = ply
    side = 1 - st[SIDE]
    st[SIDE] = side
    st[CASTLE] = st[UNDO + 4 * ply + 1]
    st[EP] = st[UNDO + 4 * ply + 2]
    st[HALFMOVE] = st[UNDO + 4 * ply + 3]
    own, enemy = WHITE_MEN + side, WHITE_MEN + 1 - side
    placed = st[BOARD + to]
    piece = placed if promotion == 0 else side * 6 + PAWN
    rook = side * 6 + ROOK
    rook_from = rook_to = frm
    if kind == CASTLING:  # both men lifted before either is put back
        rook_from, rook_to = castling_rook(st, side, to), castled_rook(to)
        toggle(bb, rook, rook_to, own)
        st[BOARD + rook_to] = EMPTY
    toggle(bb, placed, to, own)
    st[BOARD + to] = EMPTY
    toggle(bb, piece, frm, own)
    st[BOARD + frm] = piece
    if kind == CASTLING:
        toggle(bb, rook, rook_from, own)
        st[BOARD + rook_from] = rook
    captured = st[UNDO + 4 * ply + 0]
    if kind == EN_PASSANT:
        square = to - 8 if side == 0 else to + 8
        pawn = (1 - side) * 6 + PAWN
        toggle(bb, pawn, square, enemy)
        st[BOARD + square] = pawn
    elif captured != EMPTY:
        toggle(bb, captured, to, enemy)
        st[BOARD + to] = captured


@njit(cache=True, nogil=True)
def make_null(bb, st, tables):
    """Passes the move (null-move pruning); the clock is set to 0 so no repetition is seen across it."""
    ply = st[PLY]
    key = bb[KEYS + ply]
    st[UNDO + 4 * ply + 2] = st[EP]
    st[UNDO + 4 * ply + 3] = st[HALFMOVE]
    if st[EP] >= 0:
        key ^= tables[ZOBRIST_EP + (st[EP] & 7)]
        st[EP] = -1
    st[HALFMOVE] = 0
    st[SIDE] = 1 - st[SIDE]
    bb[KEYS + ply + 1] = key ^ tables[ZOBRIST_TURN]
    st[PLY] = ply + 1


@njit(cache=True, nogil=True)
def unmake_null(st):
    ply = st[PLY] - 1
    st[PLY] = ply
    st[SIDE] = 1 - st[SIDE]
    st[EP] = st[UNDO + 4 * ply + 2]
    st[HALFMOVE] = st[UNDO + 4 * ply + 3]


@njit(cache=True, nogil=True)
def is_repetition(bb, st):
    """The current position stood before since the last capture or pawn move (twice counts, as a search
    takes it: a position repeated once can be repeated again)."""
    ply = st[PLY]
    key = bb[KEYS + ply]
    stop = max(ply - st[HALFMOVE], 0)
    i = ply - 4
    while i >= stop:
        if bb[KEYS + i] == key:
            return True
        i -= 2
    return False


@njit(cache=True, nogil=True)
def insufficient_material(bb):
    """Neither side can mate: bare kings, or a single knight or bishop, or bishops all on one colour."""
    if bb[0] | bb[6] | bb[3] | bb[9] | bb[4] | bb[10]:
        return False
    knights = bb[1] | bb[7]
    bishops = bb[2] | bb[8]
    if knights == 0:
        light = np.uint64(0x55AA55AA55AA55AA)
        return (bishops & light) == 0 or (bishops & ~light) == 0
    return bishops == 0 and (knights & (knights - np.uint64(1))) == 0
