"""The static evaluation: a weighted sum of named terms, each with a middlegame and an endgame value,
blended by the material left (PeSTO's tapering: 24 phase units at the start, knight and bishop 1, rook 2,
queen 4).  The numbers come in one int64 array (``params``, offsets below) that the Python side fills from
its named weights; the result is in centipawns for the side to move.

Terms, each seen from both sides: material; piece positions (piece-square tables); mobility (squares a
piece attacks that no enemy pawn guards, rooks on open and half-open files, knights and bishops on
outposts); king-zone safety (enemy attacks on the squares around the king, growing with the square of
their weight, and the pawns sheltering it); attacked pieces (men attacked and not defended, or attacked
by a pawn); pawn structure (doubled, isolated and passed pawns, and in the endgame the kings' distances
to a passed pawn's stop square), and the bishop pair.  The factors (percent) weigh material, attacked
pieces, positions own/opponent, king safety own/opponent, mobility and pawns as the seed's factors did;
"own" is the side to move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboards import (FILE_A, FILE_H, FULL, KING, KNIGHT, U0, bishop_attacks, bit, lsb, popcount,
                        rook_attacks)
from .position import SIDE

VALUE_MG, VALUE_EG = 0, 6
PST_MG, PST_EG = 12, 12 + 384  # by piece type * 64 + square, from white's side (black's mirrored)
MOBILITY_MG, MOBILITY_EG = 780, 786
KING_ATTACK = 792  # weight of each piece type's attack on the enemy king's zone
SHIELD = 798  # middlegame value of each pawn sheltering the king
DOUBLED, ISOLATED = 799, 801  # mg, eg each
PASSED_MG, PASSED_EG = 803, 811  # by relative rank
BISHOP_PAIR = 819  # mg, eg
HANGING = 821  # by piece type: a man attacked and not defended
PAWN_THREAT = 827  # mg, eg: a piece attacked by a pawn
TEMPO = 829
FACTORS = 830
F_MATERIAL, F_ATTACKED, F_POSITION_OWN, F_POSITION_OPPONENT, F_KING_OWN, F_KING_OPPONENT, F_MOBILITY, F_PAWNS = (
    range(8))
# added after the factors, so that the offsets above stay as they were
ROOK_OPEN, ROOK_HALF_OPEN = 838, 840  # mg, eg: a rook on a file without pawns / without own pawns
OUTPOST = 842  # mg, eg: a knight or bishop on an outpost (see side_terms)
# eg, by the pawn's relative rank, per square of the king's distance (king moves) to the square in front
# of a passed pawn: the enemy king's, then the own king's
PASSED_ENEMY_KING, PASSED_OWN_KING = 844, 852
PARAMS_SIZE = 860
PHASE_UNITS = np.array([0, 1, 1, 2, 4, 0], np.int64)
U1, U7, U8, U9, U16, U32 = (np.uint64(n) for n in (1, 7, 8, 9, 16, 32))


@njit(cache=True, nogil=True, inline="always")
def pawn_attacks(pawns, colour):
    if colour == 0:
        return ((pawns & ~FILE_A) << U7) | ((pawns & ~FILE_H) << U9)
    return ((pawns & ~FILE_A) >> U9) | ((pawns & ~FILE_H) >> U7)


@njit(cache=True, nogil=True, inline="always")
def fill_up(b):
    b |= b << U8
    b |= b << U16
    return b | (b << U32)


@njit(cache=True, nogil=True, inline="always")
def fill_down(b):
    b |= b >> U8
    b |= b >> U16
    return b | (b >> U32)


@njit(cache=True, nogil=True, inline="always")
def east(b):
    return (b & ~FILE_H) << U1


@njit(cache=True, nogil=True, inline="always")
def west(b):
    return (b & ~FILE_A) >> U1


@njit(cache=True, nogil=True, inline="always")
def distance(a, b):
    """The king moves from square ``a`` to square ``b`` (Chebyshev distance, 0 to 7)."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


@njit(cache=True, nogil=True)
def side_terms(bb, tables, params, base, c):
    """Colour ``c``'s terms: (material, positions, mobility, pressure on the enemy king, own king shelter,
    pawn structure) each as mg, eg, then the phase units of its pieces and the squares it attacks."""
    o = c * 6
    e = 6 - o
    occupied = bb[14]
    own = bb[12 + c]
    enemy_pawn_guard = pawn_attacks(bb[e], 1 - c)
    free = ~own & ~enemy_pawn_guard
    enemy_king = lsb(bb[e + 5])
    zone = tables[KING + enemy_king] | bit(enemy_king)
    flip = 0 if c == 0 else 56
    material_mg = material_eg = position_mg = position_eg = mobility_mg = mobility_eg = 0
    pressure = attackers = phase = 0
    for kind in range(6):
        men = bb[o + kind]
        count = popcount(men)
        material_mg += count * params[base + VALUE_MG + kind]
        material_eg += count * params[base + VALUE_EG + kind]
        phase += count * PHASE_UNITS[kind]
        row_mg, row_eg = base + PST_MG + kind * 64, base + PST_EG + kind * 64
        while men:
            square = lsb(men) ^ flip
            men &= men - np.uint64(1)
            position_mg += params[row_mg + square]
            position_eg += params[row_eg + square]
    attacked = pawn_attacks(bb[o], c) | tables[KING + lsb(bb[o + 5])]
    own_pawn_files = fill_up(fill_down(bb[o]))
    pawn_files = own_pawn_files | fill_up(fill_down(bb[e]))
    open_rooks = popcount(bb[o + 3] & ~pawn_files)
    half_open_rooks = popcount(bb[o + 3] & ~own_pawn_files) - open_rooks
    mobility_mg += open_rooks * params[base + ROOK_OPEN] + half_open_rooks * params[base + ROOK_HALF_OPEN]
    mobility_eg += open_rooks * params[base + ROOK_OPEN + 1] + half_open_rooks * params[base + ROOK_HALF_OPEN + 1]
    # span: the squares behind the enemy pawns (from their side) on their files.  An outpost is a square on
    # the enemy's half, guarded by an own pawn, that no enemy pawn can ever attack: not in the span of the
    # files beside it
    if c == 0:
        enemy_half = np.uint64(0xFFFFFFFF00000000)
        span = fill_down(bb[e] >> U8)
    else:
        enemy_half = np.uint64(0x00000000FFFFFFFF)
        span = fill_up(bb[e] << U8)
    outpost = enemy_half & pawn_attacks(bb[o], c) & ~(east(span) | west(span))
    outposts = popcount((bb[o + 1] | bb[o + 2]) & outpost)
    mobility_mg += outposts * params[base + OUTPOST]
    mobility_eg += outposts * params[base + OUTPOST + 1]
    for kind in range(1, 5):
        men = bb[o + kind]
        if men == 0:
            continue
        weight_mg, weight_eg = params[base + MOBILITY_MG + kind], params[base + MOBILITY_EG + kind]
        weight_king = params[base + KING_ATTACK + kind]
        while men:
            square = lsb(men)
            men &= men - np.uint64(1)
            if kind == 1:
                reach = tables[KNIGHT + square]
            elif kind == 2:
                reach = bishop_attacks(tables, square, occupied)
            elif kind == 3:
                reach = rook_attacks(tables, square, occupied)
            else:
                reach = bishop_attacks(tables, square, occupied) | rook_attacks(tables, square, occupied)
            attacked |= reach
            count = popcount(reach & free)
            mobility_mg += weight_mg * count
            mobility_eg += weight_eg * count
            hits = popcount(reach & zone)
            if hits:
                pressure += weight_king * hits
                attackers += 1
    if attackers < 2:
        pressure //= 2
    king_mg = -min(pressure * pressure // 16, 600)
    king_eg = -pressure
    # the pawns in front of the own king (its file and the two beside it, the next two ranks)
    king = lsb(bb[o + 5])
    file, rank = king & 7, king >> 3
    files = FILE_A << np.uint64(file)
    if file > 0:
        files |= FILE_A << np.uint64(file - 1)
    if file < 7:
        files |= FILE_A << np.uint64(file + 1)
    if c == 0:
        front = (FULL << np.uint64(8 * (rank + 1))) & ~(FULL << np.uint64(min(8 * (rank + 3), 63))) if rank < 7 else U0
    else:
        front = (FULL >> np.uint64(8 * (8 - rank))) & ~(FULL >> np.uint64(min(8 * (10 - rank), 63))) if rank > 0 else U0
    shelter = popcount(bb[o] & files & front) * params[base + SHIELD]
    # pawn structure, all pawns at once: a file fill finds the isolated, the enemy pawns' span on their
    # file and the two beside it the passed, a fill behind each pawn the doubled
    pawns = bb[o]
    isolated = popcount(pawns & ~(east(own_pawn_files) | west(own_pawn_files)))
    if c == 0:
        doubled = popcount(pawns & fill_down(pawns >> U8))
    else:
        doubled = popcount(pawns & fill_up(pawns << U8))
    passed = pawns & ~(span | east(span) | west(span))
    pawns_mg = isolated * params[base + ISOLATED] + doubled * params[base + DOUBLED]
    pawns_eg = isolated * params[base + ISOLATED + 1] + doubled * params[base + DOUBLED + 1]
    while passed:
        square = lsb(passed)
        passed &= passed - np.uint64(1)
        relative = square >> 3 if c == 0 else 7 - (square >> 3)
        pawns_mg += params[base + PASSED_MG + relative]
        pawns_eg += params[base + PASSED_EG + relative]
        stop = square + 8 if c == 0 else square - 8  # a passed pawn stands on ranks 2 to 7
        pawns_eg += params[base + PASSED_ENEMY_KING + relative] * distance(enemy_king, stop)
        pawns_eg += params[base + PASSED_OWN_KING + relative] * distance(king, stop)
    if popcount(bb[o + 2]) >= 2:
        material_mg += params[base + BISHOP_PAIR]
        material_eg += params[base + BISHOP_PAIR + 1]
    return (material_mg, material_eg, position_mg, position_eg, mobility_mg, mobility_eg, king_mg, king_eg,
            shelter, pawns_mg, pawns_eg, phase, attacked)


@njit(cache=True, nogil=True)
def threats(bb, params, base, c, own_attacks, enemy_attacks):
    """Colour ``c``'s men attacked and undefended, and its pieces attacked by pawns (mg, eg; negative)."""
    o = c * 6
    hanging = enemy_attacks & ~own_attacks
    by_pawns = pawn_attacks(bb[6 - o], 1 - c)
    mg = eg = 0
    for kind in range(5):
        count = popcount(bb[o + kind] & hanging)
        mg -= count * params[base + HANGING + kind]
        eg -= count * params[base + HANGING + kind]
        if kind > 0:
            count = popcount(bb[o + kind] & by_pawns)
            mg -= count * params[base + PAWN_THREAT]
            eg -= count * params[base + PAWN_THREAT + 1]
    return mg, eg


@njit(cache=True, nogil=True)
def evaluate(bb, st, tables, params, base):
    """Centipawns for the side to move; the parameters at ``params[base:]``."""
    us = st[SIDE]
    a = side_terms(bb, tables, params, base, us)
    b = side_terms(bb, tables, params, base, 1 - us)
    ta = threats(bb, params, base, us, a[12], b[12])
    tb = threats(bb, params, base, 1 - us, b[12], a[12])
    f = FACTORS
    mg = (params[base + f + F_MATERIAL] * (a[0] - b[0]) + params[base + f + F_POSITION_OWN] * a[2]
          - params[base + f + F_POSITION_OPPONENT] * b[2] + params[base + f + F_MOBILITY] * (a[4] - b[4])
          + params[base + f + F_KING_OWN] * (b[6] + a[8]) - params[base + f + F_KING_OPPONENT] * (a[6] + b[8])
          + params[base + f + F_PAWNS] * (a[9] - b[9]) + params[base + f + F_ATTACKED] * (ta[0] - tb[0]))
    eg = (params[base + f + F_MATERIAL] * (a[1] - b[1]) + params[base + f + F_POSITION_OWN] * a[3]
          - params[base + f + F_POSITION_OPPONENT] * b[3] + params[base + f + F_MOBILITY] * (a[5] - b[5])
          + params[base + f + F_KING_OWN] * b[7] - params[base + f + F_KING_OPPONENT] * a[7]
          + params[base + f + F_PAWNS] * (a[10] - b[10]) + params[base + f + F_ATTACKED] * (ta[1] - tb[1]))
    phase = min(a[11] + b[11], 24)
    return (mg * phase + eg * (24 - phase)) // 2400 + params[base + TEMPO]
