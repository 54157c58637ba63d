"""The static evaluation: a weighted sum of named terms, each with a middlegame and an endgame value,
blended by the material left (PeSTO's tapering: 24 phase units at the start, knight and bishop 1, rook 2,
queen 4).  The numbers come in one int32 array (``params``, offsets below) that the Python side fills from
its named weights; the result is in centipawns for the side to move.

Terms, each seen from both sides: material; piece positions (piece-square tables); mobility (squares a
piece attacks that no enemy pawn guards); king-zone safety (enemy attacks on the squares around the king,
growing with the square of their weight, and the pawns sheltering it); attacked pieces (men attacked and
not defended, or attacked by a pawn); pawn structure (doubled, isolated and passed pawns), and the bishop
pair.  The factors (percent) weigh material, attacked pieces, positions own/opponent, king safety
own/opponent, mobility and pawns as the seed's factors did; "own" is the side to move.
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
PARAMS_SIZE = 838
PHASE_UNITS = (0, 1, 1, 2, 4, 0)
U7, U8, U9 = np.uint64(7), np.uint64(8), np.uint64(9)


@njit(cache=True, nogil=True, inline="always")
def pawn_attacks(pawns, colour):
    if colour == 0:
        return ((pawns & ~FILE_A) << U7) | ((pawns & ~FILE_H) << U9)
    return ((pawns & ~FILE_A) >> U9) | ((pawns & ~FILE_H) >> U7)


@njit(cache=True, nogil=True)
def side_terms(bb, tables, params, c):
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
    material_mg = material_eg = position_mg = position_eg = mobility_mg = mobility_eg = 0
    pressure = attackers = phase = 0
    attacked = pawn_attacks(bb[o], c)
    flip = 0 if c == 0 else 56
    for kind in range(6):
        men = bb[o + kind]
        while men:
            square = lsb(men)
            men &= men - np.uint64(1)
            material_mg += params[VALUE_MG + kind]
            material_eg += params[VALUE_EG + kind]
            position_mg += params[PST_MG + kind * 64 + (square ^ flip)]
            position_eg += params[PST_EG + kind * 64 + (square ^ flip)]
            phase += PHASE_UNITS[kind]
            if kind == 0:
                continue
            if kind == 1:
                reach = tables[KNIGHT + square]
            elif kind == 2:
                reach = bishop_attacks(tables, square, occupied)
            elif kind == 3:
                reach = rook_attacks(tables, square, occupied)
            elif kind == 4:
                reach = bishop_attacks(tables, square, occupied) | rook_attacks(tables, square, occupied)
            else:
                reach = tables[KING + square]
            attacked |= reach
            if kind == 5:
                continue
            count = popcount(reach & free)
            mobility_mg += params[MOBILITY_MG + kind] * count
            mobility_eg += params[MOBILITY_EG + kind] * count
            hits = popcount(reach & zone)
            if hits:
                pressure += params[KING_ATTACK + kind] * hits
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
    shelter = popcount(bb[o] & files & front) * params[SHIELD]
    # pawn structure
    pawns_mg = pawns_eg = 0
    pawns, enemy_pawns = bb[o], bb[e]
    men = pawns
    while men:
        square = lsb(men)
        men &= men - np.uint64(1)
        file, rank = square & 7, square >> 3
        column = FILE_A << np.uint64(file)
        beside = U0
        if file > 0:
            beside |= FILE_A << np.uint64(file - 1)
        if file < 7:
            beside |= FILE_A << np.uint64(file + 1)
        if popcount(pawns & column) > 1:
            pawns_mg += params[DOUBLED]
            pawns_eg += params[DOUBLED + 1]
        if pawns & beside == 0:
            pawns_mg += params[ISOLATED]
            pawns_eg += params[ISOLATED + 1]
        ahead = (FULL << np.uint64(8 * (rank + 1))) if c == 0 else (FULL >> np.uint64(8 * (8 - rank)))
        if enemy_pawns & (column | beside) & ahead == 0:
            relative = rank if c == 0 else 7 - rank
            pawns_mg += params[PASSED_MG + relative]
            pawns_eg += params[PASSED_EG + relative]
    if popcount(bb[o + 2]) >= 2:
        material_mg += params[BISHOP_PAIR]
        material_eg += params[BISHOP_PAIR + 1]
    return (material_mg, material_eg, position_mg, position_eg, mobility_mg, mobility_eg, king_mg, king_eg,
            shelter, pawns_mg, pawns_eg, phase, attacked)


@njit(cache=True, nogil=True)
def threats(bb, params, c, own_attacks, enemy_attacks):
    """Colour ``c``'s men attacked and undefended, and its pieces attacked by pawns (mg, eg; negative)."""
    o = c * 6
    hanging = enemy_attacks & ~own_attacks
    by_pawns = pawn_attacks(bb[6 - o], 1 - c)
    mg = eg = 0
    for kind in range(5):
        count = popcount(bb[o + kind] & hanging)
        mg -= count * params[HANGING + kind]
        eg -= count * params[HANGING + kind]
        if kind > 0:
            count = popcount(bb[o + kind] & by_pawns)
            mg -= count * params[PAWN_THREAT]
            eg -= count * params[PAWN_THREAT + 1]
    return mg, eg


@njit(cache=True, nogil=True)
def evaluate(bb, st, tables, params):
    """Centipawns for the side to move."""
    us = st[SIDE]
    a = side_terms(bb, tables, params, us)
    b = side_terms(bb, tables, params, 1 - us)
    ta = threats(bb, params, us, a[12], b[12])
    tb = threats(bb, params, 1 - us, b[12], a[12])
    f = FACTORS
    mg = (params[f + F_MATERIAL] * (a[0] - b[0]) + params[f + F_POSITION_OWN] * a[2]
          - params[f + F_POSITION_OPPONENT] * b[2] + params[f + F_MOBILITY] * (a[4] - b[4])
          + params[f + F_KING_OWN] * (b[6] + a[8]) - params[f + F_KING_OPPONENT] * (a[6] + b[8])
          + params[f + F_PAWNS] * (a[9] - b[9]) + params[f + F_ATTACKED] * (ta[0] - tb[0]))
    eg = (params[f + F_MATERIAL] * (a[1] - b[1]) + params[f + F_POSITION_OWN] * a[3]
          - params[f + F_POSITION_OPPONENT] * b[3] + params[f + F_MOBILITY] * (a[5] - b[5])
          + params[f + F_KING_OWN] * b[7] - params[f + F_KING_OPPONENT] * a[7]
          + params[f + F_PAWNS] * (a[10] - b[10]) + params[f + F_ATTACKED] * (ta[1] - tb[1]))
    phase = min(a[11] + b[11], 24)
    return (mg * phase + eg * (24 - phase)) // 2400 + params[TEMPO]
