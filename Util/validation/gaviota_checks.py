"""Our tables against Gaviota's depth to mate, which must equal our n exactly (-1 for a draw).

* :func:`sample_against_gaviota`: random legal boards through the public API;
* :func:`exhaustive_against_gaviota`: every legal entry of a table, both sides to move (``python -m Util
  verify``);
* :func:`compare_with_gaviota`: every board of every S_n, on all cores (the thesis's
  ``compare_with_gaviota``, notebook 06).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional, Tuple

import numpy as np

from ..sequence import SnSequence
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from ..rules.legality import legal_with
from .comparison import AgreementPerN, Comparison, board_chunks, fen_of, sample_boards, sides_of, squares_of
from .gaviota_native import NativeGaviota
from .references import find_reference_folder, gaviota_value

__all__ = ["sample_against_gaviota", "exhaustive_against_gaviota", "open_gaviota_in_worker", "compare_with_gaviota"]


def sample_against_gaviota(sequence: SnSequence, gaviota: NativeGaviota, count: int, seed: int = 1) -> Comparison:
    """Our n equals Gaviota's depth to mate exactly, whoever mates (both -1 for a draw)."""
    return sample_boards(sequence, "gaviota", count, seed, lambda board: gaviota_value(gaviota, board),
                   lambda ours, theirs, board: ours == theirs, sequence.value)


def exhaustive_against_gaviota(table: DtmTable, gaviota: NativeGaviota, chunk: int = 1 << 18) -> Comparison:
    """Every legal entry of the table (every position up to symmetry), both sides to move: our DTM byte
    (n, odd when the side to move mates, even when it is mated; -1 for a draw) equals Gaviota's."""
    material, layout = table.material, table.layout
    result = Comparison(material.name, "gaviota")
    start = time.perf_counter()
    gaviota.set_material(material.white, material.black)
    probe = gaviota.dtm_plies
    white_pieces, black_pieces = layout.pieces_of
    for white_to_move in (True, False):
        for first in range(0, layout.size, chunk):
            index = np.arange(first, min(first + chunk, layout.size), dtype=np.int64)
            squares = layout.decode(index)
            legal = legal_with(layout.letters, squares, white_to_move)
            # looked up as a probe looks them up (a file read block by block: through the stored index)
            ours = table.dtm([s[legal] for s in squares], white_to_move).astype(np.int64)
            ours[ours == UNKNOWN] = -1
            columns = [s[legal].tolist() for s in squares]
            whites = list(zip(*(columns[i] for i in white_pieces)))
            blacks = list(zip(*(columns[i] for i in black_pieces)))
            for k in range(len(columns[0])):
                theirs = probe(whites[k], blacks[k], white_to_move)
                if theirs != ours[k]:
                    result.mismatches.append((fen_of(layout.letters, [c[k] for c in columns], white_to_move),
                                              int(ours[k]), theirs))
            result.checked += len(columns[0])
    result.seconds = time.perf_counter() - start
    return result


def open_gaviota_in_worker() -> None:
    """A worker process's own Gaviota prober on the folder its state names (the C library is not shared)."""
    from ..runtime.parallel import WORKER_STATE

    WORKER_STATE["gaviota"] = NativeGaviota(WORKER_STATE["gaviota_folder"], cache_mb=WORKER_STATE["cache_mb"])


def _gaviota_chunk(chunk) -> Tuple[int, int, int, list]:
    from ..runtime.parallel import WORKER_STATE

    n, boards = chunk
    gaviota, material = WORKER_STATE["gaviota"], WORKER_STATE["material"]
    gaviota.set_material(material.white, material.black)
    whites, blacks = sides_of(material)
    columns = squares_of(boards, material.piece_count)
    agreed, mismatches = 0, []
    for k, board_int in enumerate(boards.tolist()):
        white_to_move = bool(board_int & 1)
        theirs = gaviota.dtm_plies([columns[i][k] for i in whites], [columns[i][k] for i in blacks], white_to_move)
        if theirs == n:
            agreed += 1
        elif len(mismatches) < 20:
            mismatches.append((fen_of(material.letters, [c[k] for c in columns], white_to_move), n, theirs))
    return n, len(boards), agreed, mismatches


def compare_with_gaviota(sequence: SnSequence, folder: Optional[os.PathLike] = None, *, every_board: bool = True,
                         sample: Optional[int] = None, seed: int = 0, workers: Optional[int] = None,
                         cache_mb: int = 256, progress: bool = True) -> AgreementPerN:
    """Gaviota's depth to mate equals n for every board of every S_n (the thesis's ``compare_with_gaviota``);
    where Black has pieces, of the S_n in which Black mates too (counted under the same n).

    ``every_board``: mirror images too (else one board per symmetry class);
    ``sample``: at most this many boards per S_n.  Runs on all cores
    through Debian's C prober (GaviotaUnavailable says how to get it).
    Boards are probed in table order, which keeps Gaviota's block cache warm.
    """
    from ..runtime.parallel import map_chunks

    folder = Path(folder) if folder else find_reference_folder("gaviota", sequence.material)
    NativeGaviota(folder)  # fail here, with the reason, rather than in a worker
    result = AgreementPerN(sequence.material.name, "gaviota")
    start = time.perf_counter()
    chunks = board_chunks(sequence, every_board, sample, seed)
    if not sequence.material.lone_black_king:
        chunks += board_chunks(sequence.for_winner(not sequence.winner), every_board, sample, seed)
    state = {"gaviota_folder": folder, "cache_mb": cache_mb, "material": sequence.material}
    for n, checked, agreed, mismatches in map_chunks(
        _gaviota_chunk, chunks, state=state, setup=open_gaviota_in_worker, workers=workers,
        sizes=[c[1].size for c in chunks], desc=f"{sequence.material} vs Gaviota", progress=progress,
    ):
        result.add(n, checked, agreed, mismatches)
    result.seconds = time.perf_counter() - start
    return result
