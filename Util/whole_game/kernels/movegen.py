"""Legal move generation: checks and pins are found first, so every move written is legal and no move is
made to test it (the king's own moves test their target square with the king taken off the board; en
passant, which can uncover a rank, is tested in full).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboards import (BETWEEN, FULL, KING, KNIGHT, LINE, PAWN_ATTACKS, U0, bishop_attacks, bit, lsb,
                        popcount, rook_attacks)
from .move import CASTLING, DOUBLE, EN_PASSANT, NORMAL, QUEEN_PROMOTION, encode
from .position import (ALL_MEN, BOARD, CASTLE, EMPTY, EP, KING_SIDE, KING_SIDE_KING, QUEEN_SIDE, QUEEN_SIDE_KING, SIDE,
                       WHITE_MEN, attackers, castled_rook, castling_rook)

MAX_MOVES = 256
U1 = np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def add_targets(moves, n, frm, targets):
    while targets:
        to = lsb(targets)
        targets &= targets - U1
        moves[n] = encode(frm, to, 0, NORMAL)
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def add_pawn_move(moves, n, frm, to, kind, all_promotions):
    if to >= 56 or to < 8:
        moves[n] = encode(frm, to, QUEEN_PROMOTION, NORMAL)
        n += 1
        if all_promotions:
            for promotion in (1, 2, 3):
                moves[n] = encode(frm, to, promotion, NORMAL)
                n += 1
    else:
        moves[n] = encode(frm, to, 0, kind)
        n += 1
    return n


@njit(cache=True, nogil=True)
def generate(bb, st, tables, moves, base, quiets):
    """Writes the legal moves into ``moves[base:]`` and returns their number.  With ``quiets`` False
    (quiescence) only captures and queen promotions, unless the side to move is in check (then every
    evasion)."""
    us = st[SIDE]
    them = 1 - us
    o, e = us * 6, them * 6
    occupied = bb[ALL_MEN]
    own, enemy = bb[WHITE_MEN + us], bb[WHITE_MEN + them]
    king = lsb(bb[o + 5])
    checkers = attackers(bb, tables, king, occupied, them)
    everything = quiets or checkers != 0
    n = base
    # the king
    targets = tables[KING + king] & ~own
    if not everything:
        targets &= enemy
    without_king = occupied ^ bit(king)
    while targets:
        to = lsb(targets)
        targets &= targets - U1
        if attackers(bb, tables, to, without_king, them) == 0:
            moves[n] = encode(king, to, 0, NORMAL)
            n += 1
    if checkers & (checkers - U1):
        return n - base
    mask = FULL
    if checkers:
        mask = checkers | tables[BETWEEN + king * 64 + lsb(checkers)]
    target = mask & ~own
    if not everything:
        target &= enemy
    # pinned men: one of ours alone between the king and an enemy slider
    pinned = U0
    snipers = ((rook_attacks(tables, king, enemy) & (bb[e + 3] | bb[e + 4]))
               | (bishop_attacks(tables, king, enemy) & (bb[e + 2] | bb[e + 4])))
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - U1
        between = tables[BETWEEN + king * 64 + s] & occupied
        if between and not (between & (between - U1)) and (between & own):
            pinned |= between
    # knights (a pinned knight cannot move)
    men = bb[o + 1] & ~pinned
    while men:
        frm = lsb(men)
        men &= men - U1
        n = add_targets(moves, n, frm, tables[KNIGHT + frm] & target)
    men = bb[o + 2] | bb[o + 4]
    while men:
        frm = lsb(men)
        men &= men - U1
        t = bishop_attacks(tables, frm, occupied) & target
        if pinned & bit(frm):
            t &= tables[LINE + king * 64 + frm]
        n = add_targets(moves, n, frm, t)
    men = bb[o + 3] | bb[o + 4]
    while men:
        frm = lsb(men)
        men &= men - U1
        t = rook_attacks(tables, frm, occupied) & target
        if pinned & bit(frm):
            t &= tables[LINE + king * 64 + frm]
        n = add_targets(moves, n, frm, t)
    # pawns
    forward = 8 if us == 0 else -8
    start_low, start_high = (8, 16) if us == 0 else (48, 56)
    ep = st[EP]
    men = bb[o]
    while men:
        frm = lsb(men)
        men &= men - U1
        allowed = mask
        if pinned & bit(frm):
            allowed &= tables[LINE + king * 64 + frm]
        captures = tables[PAWN_ATTACKS + us * 64 + frm] & enemy & allowed
        while captures:
            to = lsb(captures)
            captures &= captures - U1
            n = add_pawn_move(moves, n, frm, to, 0, everything)
        to = frm + forward
        if st[BOARD + to] == EMPTY:
            promoting = to >= 56 or to < 8
            if (everything or promoting) and (bit(to) & allowed):
                n = add_pawn_move(moves, n, frm, to, 0, everything)
            if everything and start_low <= frm < start_high:
                two = to + forward
                if st[BOARD + two] == EMPTY and (bit(two) & allowed):
                    moves[n] = encode(frm, two, 0, DOUBLE)
                    n += 1
        if ep >= 0 and (tables[PAWN_ATTACKS + us * 64 + frm] & bit(ep)):
            taken = ep - forward
            after = (occupied ^ bit(frm) ^ bit(taken)) | bit(ep)
            threats = ((tables[KNIGHT + king] & bb[e + 1])
                       | (tables[PAWN_ATTACKS + us * 64 + king] & bb[e] & ~bit(taken))
                       | (bishop_attacks(tables, king, after) & (bb[e + 2] | bb[e + 4]))
                       | (rook_attacks(tables, king, after) & (bb[e + 3] | bb[e + 4])))
            if threats == 0:
                moves[n] = encode(frm, ep, 0, EN_PASSANT)
                n += 1
    # castling (the rights say the king and rook stand on their squares)
    if quiets and checkers == 0:
        rights = st[CASTLE] >> (2 * us)
        home = 0 if us == 0 else 56
        for right, king_file in ((KING_SIDE, KING_SIDE_KING), (QUEEN_SIDE, QUEEN_SIDE_KING)):
            if rights & right and castling_allowed(bb, st, tables, king, home + king_file, occupied, them):
                moves[n] = encode(king, home + king_file, 0, CASTLING)
                n += 1
    return n - base


@njit(cache=True, nogil=True)
def castling_allowed(bb, st, tables, king, king_to, occupied, them):
    """Whether the side to move, not in check, may castle its king from ``king`` to ``king_to`` (its right
    given): every square the king and the rook cross or reach is empty but for the two of them, no square
    the king crosses is attacked, nor its last square once the rook has moved (Chess960's rules, which
    are chess's when the king starts on e1 and the rooks on a1 and h1)."""
    rook_from = castling_rook(st, st[SIDE], king_to)
    rook_to = castled_rook(king_to)
    others = occupied ^ bit(king) ^ bit(rook_from)
    crossed = (tables[BETWEEN + king * 64 + king_to] | bit(king_to) | tables[BETWEEN + rook_from * 64 + rook_to]
               | bit(rook_to))
    if crossed & others:
        return False
    path = tables[BETWEEN + king * 64 + king_to]
    without_king = occupied ^ bit(king)
    while path:
        square = lsb(path)
        path &= path - U1
        if attackers(bb, tables, square, without_king, them):
            return False
    return attackers(bb, tables, king_to, others | bit(rook_to), them) == 0
