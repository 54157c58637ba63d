"""Our tables against Syzygy, through python-chess: won, drawn and lost where Syzygy's WDL says so.

* :func:`sample_against_syzygy`: random legal boards through the public API;
* :func:`compare_with_syzygy`: every S_n called won for its winner, and how far DTZ lies from n (notebook 06);
* :func:`zeroing_example`: a board where DTZ is 1 but mate is further;
* :func:`syzygy_draws`: our draws are Syzygy's draws.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import chess
import chess.syzygy

from ..board.random_boards import random_legal_board, random_legal_boards
from ..sequence import SnSequence
from .comparison import AgreementPerN, Comparison, board_chunks, sample_boards
from .references import find_reference_folder, open_syzygy

__all__ = ["sample_against_syzygy", "SyzygyComparison", "compare_with_syzygy", "zeroing_example", "DrawCheck",
           "syzygy_draws"]


def sample_against_syzygy(sequence: SnSequence, syzygy: chess.syzygy.Tablebase, count: int, seed: int = 2) -> Comparison:
    """Won, lost and drawn exactly where Syzygy's WDL says so (cursed wins and blessed losses included):
    odd n, the side to move wins; even n, it loses; no n, a draw."""

    def agrees(ours: int, wdl: int, board: chess.Board) -> bool:
        result = 0 if ours < 0 else (1 if ours % 2 else -1)
        return result == (wdl > 0) - (wdl < 0)

    return sample_boards(sequence, "syzygy", count, seed, syzygy.probe_wdl, agrees, sequence.value)


@dataclass
class SyzygyComparison(AgreementPerN):
    """WDL agreement per n, and how far Syzygy's DTZ lies from n on a sample."""

    dtz_minus_n: Dict[int, int] = field(default_factory=dict)  # |DTZ| - n -> boards, for n >= 1
    dtz_at_mate: Dict[int, int] = field(default_factory=dict)  # DTZ -> boards, for the checkmates (n = 0)

    def dtz_line(self) -> str:
        """``|DTZ| - n`` over the sampled boards with n >= 1, then the DTZ python-chess gives the sampled
        checkmates (it reports -1 for a side to move that is already mated, where n = 0)."""
        total = sum(self.dtz_minus_n.values())
        parts = ", ".join(f"{d:+d}: {c}" for d, c in sorted(self.dtz_minus_n.items()))
        mates = ", ".join(f"{d:+d}: {c}" for d, c in sorted(self.dtz_at_mate.items()))
        return (f"{self.material}: |DTZ| - n over {total} sampled boards with n >= 1 -> {parts or 'none'}; "
                f"DTZ of the {sum(self.dtz_at_mate.values())} sampled checkmates (n = 0) -> {mates or 'none'}")


def _open_syzygy_in_worker() -> None:
    from ..runtime.parallel import WORKER_STATE

    WORKER_STATE["syzygy"] = open_syzygy(WORKER_STATE["syzygy_folder"])


def _syzygy_chunk(chunk):
    from ..runtime.parallel import WORKER_STATE
    from ..board.integer import to_board

    n, boards, dtz_every = chunk
    syzygy, material = WORKER_STATE["syzygy"], WORKER_STATE["material"]
    winner = WORKER_STATE.get("winner", chess.WHITE)
    agreed, mismatches, dtz = 0, [], {}
    for k, board_int in enumerate(boards.tolist()):
        board = to_board(board_int, material.piece_list)
        wdl = syzygy.probe_wdl(board)
        if (wdl > 0) if board.turn == winner else (wdl < 0):
            agreed += 1
        elif len(mismatches) < 20:
            mismatches.append((board.fen(), n, wdl))
        if dtz_every and k % dtz_every == 0:
            key = syzygy.probe_dtz(board) if n == 0 else abs(syzygy.probe_dtz(board)) - n
            dtz[key] = dtz.get(key, 0) + 1
    return n, len(boards), agreed, mismatches, dtz


def compare_with_syzygy(sequence: SnSequence, folder: Optional[os.PathLike] = None, *, every_board: bool = False,
                        sample: Optional[int] = None, seed: int = 0, dtz_every: int = 50,
                        workers: Optional[int] = None, progress: bool = True) -> SyzygyComparison:
    """Syzygy's WDL calls every board of every S_n won for the sequence's winner (White, or Black for
    ``sequence.black``); DTZ is compared with n on every ``dtz_every``-th board (a DTZ probe costs
    milliseconds; 0 turns it off).

    Syzygy is probed through python-chess (tens of microseconds a board), so
    by default one board per symmetry class is checked.
    """
    from ..runtime.parallel import map_chunks

    folder = Path(folder) if folder else find_reference_folder("syzygy", sequence.material)
    probe = open_syzygy(folder)
    try:  # fail here, with python-chess's message naming the missing table, not in a worker
        board = random_legal_board(sequence.material, random.Random(seed), turn=chess.WHITE)
        probe.probe_wdl(board)
    finally:
        probe.close()
    name = sequence.material.name + ("" if sequence.winner == chess.WHITE else " (Black mates)")
    result = SyzygyComparison(name, "syzygy")
    start = time.perf_counter()
    chunks = [(n, boards, dtz_every) for n, boards in board_chunks(sequence, every_board, sample, seed)]
    state = {"syzygy_folder": folder, "material": sequence.material, "winner": sequence.winner}
    for n, checked, agreed, mismatches, dtz in map_chunks(
        _syzygy_chunk, chunks, state=state, setup=_open_syzygy_in_worker, workers=workers,
        sizes=[c[1].size for c in chunks], desc=f"{sequence.material} vs Syzygy", progress=progress,
    ):
        result.add(n, checked, agreed, mismatches)
        counts = result.dtz_at_mate if n == 0 else result.dtz_minus_n
        for key, count in dtz.items():
            counts[key] = counts.get(key, 0) + count
    result.seconds = time.perf_counter() - start
    return result


def zeroing_example(sequence: SnSequence, folder: Optional[os.PathLike] = None, min_n: int = 5,
                    per_n: int = 200, seed: int = 0) -> Optional[Tuple[chess.Board, int, int, chess.Move]]:
    """A board where Syzygy's DTZ is 1 but mate is further: ``(board, n, DTZ, move)`` with the winner to
    move in S_n (n >= ``min_n``, the largest n first, up to ``per_n`` stored boards of each) and ``move`` a
    pawn move or capture that keeps the win by our table (n - 1 after it, the distance to mate going on)
    and zeroes Syzygy's count; None if the sampled boards have none."""
    from ..board.integer import to_board
    from .move_checks import boards_to_check

    with open_syzygy(Path(folder) if folder else find_reference_folder("syzygy", sequence.material)) as syzygy:
        for n in range(len(sequence) - 1, min_n - 1, -1):
            if n % 2 == 0:
                continue
            for board_int in boards_to_check(sequence, n, sample=per_n, seed=seed + n).tolist():
                board = to_board(board_int, sequence.piece_list)
                if syzygy.probe_dtz(board) != 1:
                    continue
                for move in board.legal_moves:
                    if board.is_zeroing(move):
                        child = board.copy(stack=False)
                        child.push(move)
                        if sequence.find_board(child) == n - 1:
                            return board, n, 1, move
    return None


@dataclass
class DrawCheck:
    """Random legal boards our table calls a draw, each asked of Syzygy's WDL (which must say 0)."""

    material: str
    drawn: int  # boards among the random ones that our table calls a draw
    drawn_by_syzygy: int  # of those, the ones Syzygy calls a draw too
    sampled: int  # random legal boards drawn in all
    mismatches: List[str] = field(default_factory=list)  # FENs of the first boards that disagree

    def line(self) -> str:
        return (f"{self.material} vs syzygy, draws: {self.drawn:,} of {self.sampled:,} random legal boards are draws "
                f"in our table, {self.drawn - self.drawn_by_syzygy:,} of them not a draw for Syzygy")


def syzygy_draws(sequence: SnSequence, folder: Optional[os.PathLike] = None, count: int = 2000,
                 seed: int = 5) -> DrawCheck:
    """The draws of our table checked against Syzygy: ``count`` random legal boards (half with White to move),
    kept where our signed DTM is 0 and the side to move is not checkmated, each probed for WDL 0 (a win the
    fifty-move rule spoils, WDL +-1, is a win for DTM, so it must not be among our draws)."""
    folder = Path(folder) if folder else find_reference_folder("syzygy", sequence.material)
    boards = (random_legal_boards(sequence.material, count // 2, random.Random(seed), turn=chess.WHITE)
              + random_legal_boards(sequence.material, count - count // 2, random.Random(seed + 1), turn=chess.BLACK))
    drawn = [b for b in boards if sequence.dtm(b) == 0 and not b.is_checkmate()]
    with open_syzygy(folder) as tablebase:
        wrong = [b.fen() for b in drawn if tablebase.probe_wdl(b) != 0]
    return DrawCheck(sequence.material.name, len(drawn), len(drawn) - len(wrong), len(boards), wrong[:5])
