"""The evaluation's weights as one named value (:class:`Weights`, :data:`DEFAULT_WEIGHTS`), turned into the
kernels' parameter array by :func:`parameters`, and :func:`evaluate` for a python-chess board; weights are
written to and read from JSON by :func:`weights_to_json`, :func:`weights_from_json` and :func:`read_weights`
(the tuning script :mod:`.tuning` writes them, the UCI option ``WeightsFile`` reads them).

The factors are the seed's (material, attacked pieces, piece positions own and opponent's, king-zone safety
own and opponent's, mobility) plus pawn structure, as multiples of the base values (1.0 = as tuned).  The
base values (centipawns, middlegame / endgame) are this project's own: piece-square tables built from a
few rules (advance the pawns, centralise the minor pieces and the king in the endgame, keep the king in
its corner in the middlegame, rooks on the seventh), and piece values, mobility per square and the rest
fitted to Stockfish's static evaluation by :mod:`Util.whole_game_lab.texel` (the values set by hand
before are :data:`HAND_SET_WEIGHTS`).  The terms added after the first fit (:data:`ADDED_TERMS_OFF`:
rooks on open and half-open files, outposts, the kings' distances to passed pawns) have no hand-set
values: they are 0 in :data:`HAND_SET_WEIGHTS` and in weights files written before them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Dict, Tuple, Union

import chess
import numpy as np

from .kernels import evaluation as k
from .kernels.evaluation import evaluate as evaluate_kernel
from .position import tables, to_arrays


def centrality(square: int) -> float:
    """0 in a corner to 6 on the four centre squares."""
    file, rank = square & 7, square >> 3
    return 7.0 - abs(file - 3.5) - abs(rank - 3.5)


def piece_square_tables() -> Tuple[np.ndarray, np.ndarray]:
    """(middlegame, endgame) tables, 6 piece types x 64 squares from white's side, in centipawns."""
    mg = np.zeros((6, 64), np.int32)
    eg = np.zeros((6, 64), np.int32)
    for square in range(64):
        file, rank = square & 7, square >> 3
        c = centrality(square)
        centre_file = 3.5 - abs(file - 3.5)  # 0.5 at the edge, 3.5 in the centre
        if 1 <= rank <= 6:
            mg[0, square] = 4 * (rank - 1) + (6 * (rank - 1) if 2 <= file <= 5 and rank <= 4 else 0) \
                - (12 if file in (3, 4) and rank == 1 else 0)
            eg[0, square] = 9 * (rank - 1)
        mg[1, square] = 7 * c - 24 - (10 if rank == 0 else 0)
        eg[1, square] = 5 * c - 18
        mg[2, square] = 3 * c - 8 + (8 if file == rank or file + rank == 7 else 0) - (8 if rank == 0 else 0)
        eg[2, square] = 3 * c - 10
        mg[3, square] = 2 * centre_file + (18 if rank == 6 else 0) - (8 if rank == 0 and file in (0, 7) else 0)
        eg[3, square] = 6 if rank == 6 else 0
        mg[4, square] = 2 * c - 8 - (6 if rank == 0 else 0)
        eg[4, square] = 4 * c - 12
        shelter = {0: 20, 1: 28, 2: 8, 3: -6, 4: 0, 5: -6, 6: 30, 7: 18}[file]
        mg[5, square] = shelter if rank == 0 else (shelter // 2 - 14 if rank == 1 else -34 - 10 * rank)
        eg[5, square] = 9 * c - 30
    return mg, eg


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights: factors multiplying each named term (1.0 as tuned, 0 leaves the term out),
    then the base values in centipawns as (middlegame, endgame) where they differ."""
    material: float = 1.0
    attacked_pieces: float = 1.0
    positions_own: float = 1.0
    positions_opponent: float = 1.0
    king_safety_own: float = 1.0
    king_safety_opponent: float = 1.0
    mobility: float = 1.0
    pawn_structure: float = 1.0
    # the base values below are fitted (Texel's method on Stockfish's static evaluations, the piece-square
    # tables kept, refitted with the later terms; docs/engine.md gives the commands)
    piece_values: Tuple[Tuple[int, int], ...] = ((77, 95), (359, 331), (367, 357), (448, 632), (1081, 1050),
                                                 (0, 0))
    mobility_per_square: Tuple[Tuple[int, int], ...] = ((0, 0), (10, 6), (10, 0), (6, 2), (3, 7), (0, 0))
    king_attack: Tuple[int, ...] = (0, 3, 3, 4, 6, 0)
    shelter_pawn: int = 28
    doubled: Tuple[int, int] = (-14, -9)
    isolated: Tuple[int, int] = (-18, -18)
    passed: Tuple[Tuple[int, int], ...] = ((0, 0), (10, 77), (-16, 30), (2, 26), (21, 59), (71, 122), (75, 130),
                                           (0, 0))
    bishop_pair: Tuple[int, int] = (30, 66)
    hanging: Tuple[int, ...] = (20, 23, 24, 30, 45, 0)
    pawn_threat: Tuple[int, int] = (51, 31)
    tempo: int = 18
    rook_open_file: Tuple[int, int] = (40, 14)  # a rook on a file without pawns
    rook_half_open_file: Tuple[int, int] = (18, 17)  # a rook on a file without own pawns but with enemy ones
    outpost: Tuple[int, int] = (42, -16)  # a knight or bishop on the enemy's half, pawn-guarded, no enemy pawn can attack
    # endgame, by the passed pawn's rank (0 to 7, from its side), per king move from the square in front of it
    passed_enemy_king: Tuple[int, ...] = (0, 1, 6, 17, 22, 32, 52, 0)
    passed_own_king: Tuple[int, ...] = (0, -9, -6, -14, -19, -24, -27, 0)
    tables: Dict[str, np.ndarray] = field(default=None, compare=False, hash=False)


#: The weights the engine plays with.
DEFAULT_WEIGHTS = Weights()
#: The terms added after the first fitted values, each at 0 (the evaluation without them).
ADDED_TERMS_OFF: Dict[str, Tuple[int, ...]] = {
    "rook_open_file": (0, 0), "rook_half_open_file": (0, 0), "outpost": (0, 0),
    "passed_enemy_king": (0,) * 8, "passed_own_king": (0,) * 8}
#: The base values as they were set by hand before the fit: levels 1 to 7 play with them, because their
#: labels were measured so (:mod:`.levels`).
HAND_SET_WEIGHTS = Weights(piece_values=((88, 115), (325, 300), (345, 320), (480, 540), (1000, 1010), (0, 0)),
                           mobility_per_square=((0, 0), (4, 4), (5, 5), (3, 5), (2, 3), (0, 0)), shelter_pawn=9,
                           doubled=(-10, -22), isolated=(-12, -14),
                           passed=((0, 0), (4, 10), (6, 16), (12, 32), (24, 56), (44, 96), (70, 140), (0, 0)),
                           bishop_pair=(28, 50), hanging=(8, 24, 24, 32, 40, 0), pawn_threat=(36, 28), tempo=12,
                           **ADDED_TERMS_OFF)


def parameters(weights: Weights = DEFAULT_WEIGHTS) -> np.ndarray:
    """The kernels' int64 parameter array of ``weights`` (factors as percent)."""
    p = np.zeros(k.PARAMS_SIZE, np.int64)
    for kind, (mg, eg) in enumerate(weights.piece_values):
        p[k.VALUE_MG + kind], p[k.VALUE_EG + kind] = mg, eg
    mg_tables, eg_tables = piece_square_tables()
    if weights.tables:
        mg_tables, eg_tables = weights.tables["mg"], weights.tables["eg"]
    p[k.PST_MG:k.PST_MG + 384] = np.asarray(mg_tables).ravel()
    p[k.PST_EG:k.PST_EG + 384] = np.asarray(eg_tables).ravel()
    for kind, (mg, eg) in enumerate(weights.mobility_per_square):
        p[k.MOBILITY_MG + kind], p[k.MOBILITY_EG + kind] = mg, eg
    p[k.KING_ATTACK:k.KING_ATTACK + 6] = weights.king_attack
    p[k.SHIELD] = weights.shelter_pawn
    p[k.DOUBLED:k.DOUBLED + 2] = weights.doubled
    p[k.ISOLATED:k.ISOLATED + 2] = weights.isolated
    for rank, (mg, eg) in enumerate(weights.passed):
        p[k.PASSED_MG + rank], p[k.PASSED_EG + rank] = mg, eg
    p[k.BISHOP_PAIR:k.BISHOP_PAIR + 2] = weights.bishop_pair
    p[k.HANGING:k.HANGING + 6] = weights.hanging
    p[k.PAWN_THREAT:k.PAWN_THREAT + 2] = weights.pawn_threat
    p[k.TEMPO] = weights.tempo
    p[k.ROOK_OPEN:k.ROOK_OPEN + 2] = weights.rook_open_file
    p[k.ROOK_HALF_OPEN:k.ROOK_HALF_OPEN + 2] = weights.rook_half_open_file
    p[k.OUTPOST:k.OUTPOST + 2] = weights.outpost
    p[k.PASSED_ENEMY_KING:k.PASSED_ENEMY_KING + 8] = weights.passed_enemy_king
    p[k.PASSED_OWN_KING:k.PASSED_OWN_KING + 8] = weights.passed_own_king
    factors = (weights.material, weights.attacked_pieces, weights.positions_own, weights.positions_opponent,
               weights.king_safety_own, weights.king_safety_opponent, weights.mobility, weights.pawn_structure)
    p[k.FACTORS:k.FACTORS + 8] = [round(100 * f) for f in factors]
    return p


def weights_from_parameters(p: np.ndarray) -> Weights:
    """The :class:`Weights` whose :func:`parameters` are ``p`` (the inverse of :func:`parameters`; the
    piece-square tables always given as ``tables``)."""
    p = np.asarray(p, np.int64)
    pairs = lambda mg, eg, n: tuple((int(p[mg + i]), int(p[eg + i])) for i in range(n))  # noqa: E731
    factors = [float(p[k.FACTORS + i]) / 100 for i in range(8)]
    return Weights(
        *factors,
        piece_values=pairs(k.VALUE_MG, k.VALUE_EG, 6),
        mobility_per_square=pairs(k.MOBILITY_MG, k.MOBILITY_EG, 6),
        king_attack=tuple(int(v) for v in p[k.KING_ATTACK:k.KING_ATTACK + 6]),
        shelter_pawn=int(p[k.SHIELD]),
        doubled=(int(p[k.DOUBLED]), int(p[k.DOUBLED + 1])),
        isolated=(int(p[k.ISOLATED]), int(p[k.ISOLATED + 1])),
        passed=pairs(k.PASSED_MG, k.PASSED_EG, 8),
        bishop_pair=(int(p[k.BISHOP_PAIR]), int(p[k.BISHOP_PAIR + 1])),
        hanging=tuple(int(v) for v in p[k.HANGING:k.HANGING + 6]),
        pawn_threat=(int(p[k.PAWN_THREAT]), int(p[k.PAWN_THREAT + 1])),
        tempo=int(p[k.TEMPO]),
        rook_open_file=(int(p[k.ROOK_OPEN]), int(p[k.ROOK_OPEN + 1])),
        rook_half_open_file=(int(p[k.ROOK_HALF_OPEN]), int(p[k.ROOK_HALF_OPEN + 1])),
        outpost=(int(p[k.OUTPOST]), int(p[k.OUTPOST + 1])),
        passed_enemy_king=tuple(int(v) for v in p[k.PASSED_ENEMY_KING:k.PASSED_ENEMY_KING + 8]),
        passed_own_king=tuple(int(v) for v in p[k.PASSED_OWN_KING:k.PASSED_OWN_KING + 8]),
        tables={"mg": p[k.PST_MG:k.PST_MG + 384].reshape(6, 64).astype(np.int32),
                "eg": p[k.PST_EG:k.PST_EG + 384].reshape(6, 64).astype(np.int32)})


def evaluate(board: chess.Board, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The static evaluation of ``board`` in centipawns for the side to move (no search: a position with
    a capture pending is taken as it stands)."""
    a = to_arrays(board, history=False)
    return int(evaluate_kernel(a.bb, a.st, tables(), parameters(weights), 0))


def weights_to_json(weights: Weights) -> str:
    """``weights`` as a JSON object, one key per field of :class:`Weights` (pairs as two-element lists;
    the piece-square tables only when ``weights.tables`` replaces the built-in ones)."""
    data = {}
    for f in fields(Weights):
        value = getattr(weights, f.name)
        if f.name == "tables":
            if value:
                data["tables"] = {phase: np.asarray(value[phase]).tolist() for phase in ("mg", "eg")}
            continue
        data[f.name] = value
    return "{\n" + ",\n".join(f" {json.dumps(name)}: {json.dumps(value)}" for name, value in data.items()) + "\n}"


def _tupled(value):
    """JSON's lists as the tuples :class:`Weights` holds (nested as deep as they come)."""
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def weights_from_json(text: str) -> Weights:
    """The :class:`Weights` of a JSON object as :func:`weights_to_json` writes it; keys left out keep
    their defaults, but for a file written before the terms of :data:`ADDED_TERMS_OFF` (every other key
    given, none of those) they are 0, so that it evaluates as it did.  ValueError naming the key for an
    unknown key, or a value of the wrong shape."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"weights: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ValueError("weights: expected a JSON object of field names to values")
    known = {f.name for f in fields(Weights)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"weights: unknown key(s) {', '.join(unknown)}; the keys are {', '.join(sorted(known))}")
    given = {}
    for name, value in data.items():
        default = getattr(DEFAULT_WEIGHTS, name)
        if name == "tables":
            tables_ = {phase: np.asarray(value.get(phase), np.int32) for phase in ("mg", "eg")} \
                if isinstance(value, dict) else {}
            if not tables_ or any(t.shape != (6, 64) for t in tables_.values()):
                raise ValueError("weights: tables must be {\"mg\": 6 x 64 numbers, \"eg\": 6 x 64 numbers}")
            given[name] = tables_
            continue
        value = _tupled(value)
        if np.shape(value) != np.shape(default) or not np.issubdtype(np.asarray(value).dtype, np.number):
            raise ValueError(f"weights: {name} must have the shape of its default {default!r}, not {value!r}")
        given[name] = type(default)(value) if isinstance(default, (int, float)) else value
    if known - set(data) - {"tables"} == set(ADDED_TERMS_OFF):
        given.update(ADDED_TERMS_OFF)
    return replace(DEFAULT_WEIGHTS, **given)


def read_weights(path: Union[str, os.PathLike]) -> Weights:
    """The :class:`Weights` in the JSON file ``path`` (see :func:`weights_from_json`).  FileNotFoundError
    or ValueError, naming the file, when it is missing or not weights."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"weights file {path} not found (write one with python -m Util.whole_game_lab.tuning --out FILE)")
    try:
        return weights_from_json(path.read_text())
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
