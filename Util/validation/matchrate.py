"""The thesis's matching rate: of the boards Gaviota calls won, the share that lies in some S_n of the same
winner (and the boards in an S_n that Gaviota does not call won), over every legal board or a sample.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

import chess
import numpy as np

from ..board.integer import board_squares
from ..board.material import Material
from ..board.random_boards import random_legal_boards
from ..rules.legality import black_to_move_legal_and_check, white_to_move_legal
from ..sequence import SnSequence
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from .comparison import fen_of, sides_of
from .gaviota_checks import open_gaviota_in_worker
from .gaviota_native import NativeGaviota
from .references import find_reference_folder

__all__ = ["MatchRate", "matchrate"]


@dataclass
class MatchRate:
    """Of the boards Gaviota calls won for White, how many lie in some S_n (and the reverse)."""

    material: str
    legal: int = 0
    gaviota_won: int = 0
    matched: int = 0
    ours_but_not_gaviota: int = 0
    examples: List[str] = field(default_factory=list)  # FENs of boards that break the match
    seconds: float = 0.0
    sampled: bool = False

    @property
    def rate(self) -> float:
        return 100.0 * self.matched / self.gaviota_won if self.gaviota_won else float("nan")

    def line(self) -> str:
        scope = "sampled" if self.sampled else "all"
        return (f"{self.material}: matching rate {self.rate:.4f} % ({self.matched:,} of {self.gaviota_won:,} boards "
                f"Gaviota calls won, {scope} {self.legal:,} legal boards); {self.ours_but_not_gaviota} boards in an "
                f"S_n that Gaviota does not call won; {self.seconds:.1f} s")


def _all_boards_chunk(chunk) -> Tuple[int, int, int, int, list]:
    """Every legal board with the white king on one square and one side to move."""
    from ..runtime.parallel import WORKER_STATE

    white_king, white_to_move = chunk
    table: DtmTable = WORKER_STATE["table"]
    layout, count = table.layout, table.material.piece_count
    rest = np.arange(64 ** (count - 1), dtype=np.int64)
    squares = [np.full(rest.shape, white_king, dtype=np.int8)]
    squares += [((rest >> (6 * (count - 2 - i))) & 63).astype(np.int8) for i in range(count - 1)]
    keep = np.ones(rest.shape, dtype=bool)
    for group in layout.identical_groups:  # each board once: identical pieces in square order
        for a, b in zip(group, group[1:]):
            keep &= squares[a] < squares[b]
    squares = [s[keep] for s in squares]
    legal = (white_to_move_legal(layout.letters, squares) if white_to_move
             else black_to_move_legal_and_check(layout.letters, squares)[0])
    squares = [s[legal] for s in squares]
    return _match_boards(squares, table.dtm(squares, white_to_move), white_to_move, table.material)


def _match_boards(squares, ours: np.ndarray, white_to_move: bool, material: Material):
    """Of these boards: how many Gaviota calls won (by either side), how many of those are in an S_n of
    the same winner, how many are in an S_n but drawn for Gaviota, and examples of disagreement."""
    from ..runtime.parallel import WORKER_STATE

    gaviota = WORKER_STATE["gaviota"]
    gaviota.set_material(material.white, material.black)
    whites, blacks = sides_of(material)
    columns = [s.tolist() for s in squares]
    ours = ours.tolist()
    won = matched = extra = 0
    examples = []
    for k in range(len(columns[0])):
        theirs = gaviota.dtm_plies([columns[i][k] for i in whites], [columns[i][k] for i in blacks], white_to_move)
        mine = -1 if ours[k] == UNKNOWN else ours[k]
        won += theirs >= 0
        same = (theirs >= 0) == (mine >= 0) and (theirs < 0 or theirs % 2 == mine % 2)
        matched += theirs >= 0 and same
        extra += theirs < 0 <= mine
        if not same and len(examples) < 10:
            examples.append(fen_of(material.letters, [c[k] for c in columns], white_to_move))
    return len(columns[0]), won, matched, extra, examples


def _sampled_boards_chunk(chunk):
    from ..runtime.parallel import WORKER_STATE

    white_to_move, count, seed = chunk
    table: DtmTable = WORKER_STATE["table"]
    boards = random_legal_boards(table.material, count, random.Random(seed),
                                 turn=chess.WHITE if white_to_move else chess.BLACK)
    squares = [np.array(column) for column in zip(*(board_squares(b, table.material.piece_list) for b in boards))]
    return _match_boards(squares, table.dtm(squares, white_to_move), white_to_move, table.material)


def matchrate(sequence: SnSequence, folder: Optional[os.PathLike] = None, *, sample: Optional[int] = None,
              seed: int = 0, workers: Optional[int] = None, progress: bool = True) -> MatchRate:
    """The share of legal boards Gaviota calls won that lie in some S_n (the thesis's ``matchrate``): for
    White, or, where Black has pieces, for either side, in an S_n of the same winner.

    Every legal board of the material, both sides to move; or, with
    ``sample``, that many random legal boards per side to move.
    """
    from ..runtime.parallel import map_chunks

    folder = Path(folder) if folder else find_reference_folder("gaviota", sequence.material)
    NativeGaviota(folder)
    table = sequence.table
    if sample is None:
        chunks = [(king, side) for side in (True, False) for king in range(64)]
        function, sizes = _all_boards_chunk, [64 ** (table.material.piece_count - 1)] * len(chunks)
    else:
        pieces = max(1, sample // 20000)
        chunks = [(side, -(-sample // pieces), seed + 2 * k + side) for side in (True, False) for k in range(pieces)]
        function, sizes = _sampled_boards_chunk, [c[1] for c in chunks]
    result = MatchRate(sequence.material.name, sampled=sample is not None)
    start = time.perf_counter()
    state = {"gaviota_folder": folder, "cache_mb": 256, "table": table}
    for legal, won, matched, extra, examples in map_chunks(
        function, chunks, state=state, setup=open_gaviota_in_worker, workers=workers, sizes=sizes,
        desc=f"{sequence.material} matching rate", unit=" boards", progress=progress,
    ):
        result.legal += legal
        result.gaviota_won += won
        result.matched += matched
        result.ours_but_not_gaviota += extra
        result.examples += examples[: max(0, 10 - len(result.examples))]
    result.seconds = time.perf_counter() - start
    return result
