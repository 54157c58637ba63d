"""Bitboards: squares numbered as python-chess's (a1 = 0, h8 = 63), attack tables of every piece and the
sliders' magic tables, all in ONE uint64 array (``tables``) so that each kernel takes a single argument for
them; the offsets into it are the module's upper-case constants.

Magic numbers are found here with a fixed pseudo-random sequence, so the tables are the same on every run;
finding them and filling the tables takes a few tens of milliseconds, compiled.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U0 = np.uint64(0)
U1 = np.uint64(1)
#: Magic numbers (rooks a1..h8, then bishops) found by :func:`fill_magics` from its fixed sequence.
MAGICS = (
    0x1080004008801020, 0x840092002c03000, 0x1900200010400900, 0x880100008000480,
    0x4200100420080200, 0x8100020100080400, 0x200040110886200, 0x200008040220411,
    0x404800084400220, 0x401000402000, 0x86001081220440, 0x408800800100280,
    0xa001201040820, 0x8848800200840080, 0x4001000100040200, 0x442000102105084,
    0x9080010020804100, 0x40404000201009, 0x808010002009, 0x2200090021d00100,
    0x8008008040080, 0x4004002010040, 0x11040008015042, 0xa0001768104,
    0x800080204009, 0x2010004140002001, 0x9800200280100080, 0x1000100080080080,
    0x442000a00049020, 0x2100040080020080, 0x800120400900148, 0x10040a00128541,
    0x2800804000800030, 0x1010002000400041, 0x4000200011004100, 0x610008410800800,
    0x400802402800800, 0xc100020080800400, 0x2000802000401, 0x182085882000401,
    0x220204000808000, 0x2860100040024022, 0x1002004110040, 0x99101042000a0020,
    0x4080004008080, 0x10040002008080, 0x2012004881020004, 0x8300842444820011,
    0x88403882010200, 0x820400080210100, 0x110910040a00300, 0x801100280080480,
    0x242009008200600, 0x1002000489500200, 0x40800200010080, 0x91800041000080,
    0x209300488001, 0x4c1002414824001, 0x20020000b001041, 0x7000100004200901,
    0x8002002004100802, 0x30010002084c0007, 0x888221800813004, 0x4000002840840112,
    0xa010041108003100, 0x6082020a002900, 0x6810010619200000, 0x8281a0520000408,
    0x1104001000400, 0x18901008048400, 0x40a0210245280, 0x200210808a402,
    0x9140048410821200, 0x800091010820041, 0x20504804832202c0, 0x100091401081000,
    0x8021011140000012, 0x810020804450400, 0x208b0542109008a2, 0x80084a08040204,
    0x40e2a80811244c, 0x2505022008008108, 0x430220100420040, 0x10a040420220040,
    0x1105000290400000, 0x93001200822120, 0x4000a62048043004, 0x280120048a015004,
    0x6090002a020814, 0x44042000240800d0, 0x1102800040a4400, 0x1004080080220040,
    0x1001011004024, 0x10044000805040, 0x914041200820100, 0x4821012821480,
    0x24040500c05021, 0x88611002080200, 0x116080a00040020, 0x4000020080080080,
    0x2450450140840040, 0x880201484100, 0x222020404020092, 0x8081110600002e00,
    0x2842101105000801, 0x1100809008001025, 0x20202221c0400, 0x422014022009020,
    0x210046102100c00, 0xc004008082029102, 0xaa461801101200, 0x404080080201108,
    0x20542108c205002, 0x410544804100100, 0x40910841100000, 0x400200042021100,
    0x4204850400c0, 0x200100410a42102, 0x1040020801210102, 0x805040410420000,
    0x2884804130100200, 0x800c262201242000, 0x1058000194108800, 0x14221054420204,
    0x104000012a02200, 0x200881003300100, 0x140400202840100, 0x402020801010201)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_1 = np.uint64(0xFF)
RANK_2 = np.uint64(0xFF00)
RANK_7 = np.uint64(0x00FF000000000000)
RANK_8 = np.uint64(0xFF00000000000000)

# Offsets into the tables array.
KNIGHT = 0
KING = 64
PAWN_ATTACKS = 128  # 2 * 64: [colour * 64 + square], colour 0 white
BETWEEN = 256  # 64 * 64: squares strictly between two squares on a line, else 0
LINE = BETWEEN + 4096  # 64 * 64: the whole line through two squares, else 0
ROOK_MASK = LINE + 4096
ROOK_MAGIC = ROOK_MASK + 64
ROOK_SHIFT = ROOK_MAGIC + 64
ROOK_OFFSET = ROOK_SHIFT + 64
BISHOP_MASK = ROOK_OFFSET + 64
BISHOP_MAGIC = BISHOP_MASK + 64
BISHOP_SHIFT = BISHOP_MAGIC + 64
BISHOP_OFFSET = BISHOP_SHIFT + 64
ZOBRIST_PIECE = BISHOP_OFFSET + 64  # 12 * 64, by the engine's piece code (colour * 6 + type)
ZOBRIST_CASTLE = ZOBRIST_PIECE + 768  # 16, by the rights' bits
ZOBRIST_EP = ZOBRIST_CASTLE + 16  # 8, by file
ZOBRIST_TURN = ZOBRIST_EP + 8  # white to move
ROOK_TABLE = ZOBRIST_TURN + 8
ROOK_ENTRIES = 102400
BISHOP_TABLE = ROOK_TABLE + ROOK_ENTRIES
BISHOP_ENTRIES = 5248
TABLES_SIZE = BISHOP_TABLE + BISHOP_ENTRIES


@intrinsic
def lsb(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (one machine instruction)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@njit(cache=True, nogil=True, inline="always")
def bit(square):
    return U1 << np.uint64(square)


@njit(cache=True, nogil=True, inline="always")
def rook_attacks(tables, square, occupied):
    index = ((occupied & tables[ROOK_MASK + square]) * tables[ROOK_MAGIC + square]) >> tables[ROOK_SHIFT + square]
    return tables[ROOK_TABLE + np.int64(tables[ROOK_OFFSET + square]) + np.int64(index)]


@njit(cache=True, nogil=True, inline="always")
def bishop_attacks(tables, square, occupied):
    index = (((occupied & tables[BISHOP_MASK + square]) * tables[BISHOP_MAGIC + square])
             >> tables[BISHOP_SHIFT + square])
    return tables[BISHOP_TABLE + np.int64(tables[BISHOP_OFFSET + square]) + np.int64(index)]


@njit(cache=True, nogil=True)
def slide(square, occupied, deltas, edges):
    """Attacks of a slider along ``deltas`` (file, rank steps), stopping at the first piece; with ``edges``
    False the last square before the board's edge is left out (a magic mask)."""
    result = U0
    f0, r0 = square % 8, square // 8
    for d in range(4):
        df, dr = deltas[d, 0], deltas[d, 1]
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            if not edges and not (0 <= f + df < 8 and 0 <= r + dr < 8):
                break
            b = bit(r * 8 + f)
            result |= b
            if occupied & b:
                break
            f += df
            r += dr
    return result


@njit(cache=True, nogil=True)
def next_random(state):
    """xorshift64*: the magic search's fixed pseudo-random sequence (state is a 1-element uint64 array)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True, nogil=True)
def fill_magics(tables, deltas, mask_at, magic_at, shift_at, offset_at, table_at, state, known):
    """Fills each square's attack table with its magic number: ``known[square]`` when it works (no
    collision), else one found by trial."""
    occupancies = np.empty(4096, np.uint64)
    attacks = np.empty(4096, np.uint64)
    used = np.empty(4096, np.uint64)
    epoch = np.zeros(4096, np.int64)
    offset = 0
    trial = 0
    for square in range(64):
        mask = slide(square, U0, deltas, False)
        bits = popcount(mask)
        size = 1 << bits
        # every subset of the mask (Carry-Rippler enumeration)
        subset = U0
        for i in range(size):
            occupancies[i] = subset
            attacks[i] = slide(square, subset, deltas, True)
            subset = (subset - mask) & mask
        shift = np.uint64(64 - bits)
        first = True
        while True:
            if first and known[square] != U0:
                magic = known[square]
            else:
                magic = next_random(state) & next_random(state) & next_random(state)
                if popcount((mask * magic) >> np.uint64(56)) < 6:
                    continue
            first = False
            trial += 1
            ok = True
            for i in range(size):
                index = np.int64((occupancies[i] * magic) >> shift)
                if epoch[index] < trial:
                    epoch[index] = trial
                    used[index] = attacks[i]
                elif used[index] != attacks[i]:
                    ok = False
                    break
            if ok:
                break
        tables[mask_at + square] = mask
        tables[magic_at + square] = magic
        tables[shift_at + square] = shift
        tables[offset_at + square] = np.uint64(offset)
        for i in range(size):
            index = np.int64((occupancies[i] * magic) >> shift)
            tables[table_at + offset + index] = attacks[i]
        offset += size
    return offset


@njit(cache=True, nogil=True)
def fill_steps(tables):
    """Knight, king and pawn attacks, the squares between two squares and the lines through them."""
    knight = np.array([[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]])
    king = np.array([[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]])
    for square in range(64):
        f, r = square % 8, square // 8
        for k in range(8):
            for table, steps in ((KNIGHT, knight), (KING, king)):
                nf, nr = f + steps[k, 0], r + steps[k, 1]
                if 0 <= nf < 8 and 0 <= nr < 8:
                    tables[table + square] |= bit(nr * 8 + nf)
        for colour in range(2):
            nr = r + 1 - 2 * colour
            for df in (-1, 1):
                if 0 <= nr < 8 and 0 <= f + df < 8:
                    tables[PAWN_ATTACKS + colour * 64 + square] |= bit(nr * 8 + f + df)
    for a in range(64):
        for b in range(64):
            if a == b:
                continue
            fa, ra, fb, rb = a % 8, a // 8, b % 8, b // 8
            df, dr = fb - fa, rb - ra
            if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
                continue
            sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
            between = U0
            f, r = fa + sf, ra + sr
            while f != fb or r != rb:
                between |= bit(r * 8 + f)
                f += sf
                r += sr
            tables[BETWEEN + a * 64 + b] = between
            line = bit(a)
            f, r = fa + sf, ra + sr
            while 0 <= f < 8 and 0 <= r < 8:
                line |= bit(r * 8 + f)
                f += sf
                r += sr
            f, r = fa - sf, ra - sr
            while 0 <= f < 8 and 0 <= r < 8:
                line |= bit(r * 8 + f)
                f -= sf
                r -= sr
            tables[LINE + a * 64 + b] = line


@njit(cache=True, nogil=True)
def fill_zobrist(tables, polyglot):
    """The keys of Polyglot's 781 random numbers, arranged by the engine's piece codes: Polyglot numbers a
    piece kind as 2 * type + (1 if white), the engine as colour * 6 + type (white 0)."""
    for piece in range(12):
        colour, kind = piece // 6, piece % 6
        for square in range(64):
            tables[ZOBRIST_PIECE + piece * 64 + square] = polyglot[64 * (2 * kind + 1 - colour) + square]
    for rights in range(16):
        key = U0
        for i in range(4):
            if rights & (1 << i):
                key ^= polyglot[768 + i]
        tables[ZOBRIST_CASTLE + rights] = key
    for file in range(8):
        tables[ZOBRIST_EP + file] = polyglot[772 + file]
    tables[ZOBRIST_TURN] = polyglot[780]


def build_tables(polyglot: np.ndarray, magics: np.ndarray = None) -> np.ndarray:
    """The tables array, with ``polyglot`` Polyglot's 781 random numbers (uint64); ``magics`` (128 uint64,
    rooks' then bishops', default :data:`MAGICS`, zeros to search them all again)."""
    magics = np.array(MAGICS, np.uint64) if magics is None else magics
    tables = np.zeros(TABLES_SIZE, np.uint64)
    fill_steps(tables)
    state = np.array([0x9E3779B97F4A7C15], np.uint64)
    rook = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], np.int64)
    bishop = np.array([[1, 1], [-1, 1], [1, -1], [-1, -1]], np.int64)
    assert fill_magics(tables, rook, ROOK_MASK, ROOK_MAGIC, ROOK_SHIFT, ROOK_OFFSET, ROOK_TABLE, state,
                        magics[:64]) == ROOK_ENTRIES
    assert fill_magics(tables, bishop, BISHOP_MASK, BISHOP_MAGIC, BISHOP_SHIFT, BISHOP_OFFSET, BISHOP_TABLE,
                       state, magics[64:]) == BISHOP_ENTRIES
    fill_zobrist(tables, np.asarray(polyglot, np.uint64))
    return tables
