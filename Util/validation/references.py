"""Checking our S_n against the tablebases the chess world trusts.

* **Gaviota DTM** gives, for every position, the plies to mate with best
  play: it must equal our n exactly (-1 where White cannot force mate).
* **Syzygy WDL** tells won from drawn: a position is in some S_n exactly
  when Syzygy says White wins it.  Cursed wins count as wins, since depth
  to mate ignores the fifty-move rule.

Where the tables live: ``GAVIOTA_PATH`` and ``SYZYGY_PATH`` (environment),
by default ``../shared/tablebases/{gaviota,syzygy}`` beside the repository.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import chess
import chess.syzygy
import numpy as np

from ..folders import REPO_ROOT
from .gaviota_native import NativeGaviota
from ..board.integer import board_squares
from ..board.material import Material, material_of_board
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from ..rules.legality import black_to_move_legal_and_check, legal_with, white_to_move_legal
from ..sequence import SnSequence

_DEFAULTS = {"gaviota": "GAVIOTA_PATH", "syzygy": "SYZYGY_PATH"}


def reference_folder(kind: str) -> Path:
    """Folder of the ``gaviota`` or ``syzygy`` reference tables (may not exist)."""
    default = REPO_ROOT.parent / "shared" / "tablebases" / kind
    return Path(os.environ.get(_DEFAULTS[kind], default))


class ReferenceMissing(FileNotFoundError):
    """No folder holds the reference table a check needs; the message says where to get it."""


_WHERE_TO_GET = {
    "gaviota": "Debian's package gaviotatb has the 3-piece tables (scripts/setup.sh links them into ./gaviota); "
               "the 4-piece *.gtb.cp4 files are on the Gaviota download mirrors (search 'gaviota tablebases cp4')",
    "syzygy": "download the *.rtbw and *.rtbz files from https://tablebase.lichess.ovh/tables/standard/3-4-5/",
}


def reference_file(kind: str, material: Material) -> str:
    """The file name a reference uses for a material: ``kbnk.gtb.cp4`` or ``KBNvK.rtbw``."""
    material = material.canonical
    if kind == "gaviota":
        return f"k{material.white.lower()}k{material.black.lower()}.gtb.cp4"
    return f"{material.name}.rtbw"


def find_reference_folder(kind: str, material: Material, folders: Optional[List[os.PathLike]] = None) -> Path:
    """The first folder that holds ``kind``'s table of ``material``.

    By default ``./gaviota`` or ``./syzygy`` in the repository (as in the
    thesis), then ``GAVIOTA_PATH`` / ``SYZYGY_PATH`` or ``../shared/tablebases``.
    ReferenceMissing names the file, the folders tried and where to get it.
    """
    candidates = [Path(f) for f in folders] if folders else [REPO_ROOT / kind, reference_folder(kind)]
    name = reference_file(kind, material)
    for folder in candidates:
        if (folder / name).exists():
            return folder
    tried = ", ".join(str(f) for f in candidates)
    raise ReferenceMissing(f"no {kind} table {name} for {material} in {tried}; {_WHERE_TO_GET[kind]}, "
                           f"put it into ./{kind} or set {_DEFAULTS[kind]}")


@dataclass
class Comparison:
    """Outcome of checking one table against one reference."""

    material: str
    reference: str
    checked: int = 0
    mismatches: List[Tuple[str, int, int]] = field(default_factory=list)  # (fen, ours, reference)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.checked > 0 and not self.mismatches

    def line(self) -> str:
        rate = self.checked / self.seconds if self.seconds else float("nan")
        return (f"{self.material:8} {self.reference:8} {self.checked:10d} positions  "
                f"{len(self.mismatches):6d} mismatches  {self.seconds:8.1f} s  {rate:10.0f} /s")


def random_legal_boards(material: Material, count: int, white_to_move: bool, seed: int) -> List[chess.Board]:
    """``count`` random positions of ``material`` that python-chess calls valid."""
    rng = random.Random(seed)
    letters = material.letters
    boards = []
    while len(boards) < count:
        squares = rng.sample(range(64), len(letters))
        board = chess.Board(None)
        for square, letter in zip(squares, letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = white_to_move
        if board.is_valid():
            boards.append(board)
    return boards


def gaviota_value(gaviota: NativeGaviota, board: chess.Board) -> int:
    """Gaviota's answer for a board as our DTM byte: n, odd when the side to move mates, even when it is
    mated; -1 for a draw."""
    material = material_of_board(board)
    squares = board_squares(board, material.piece_list)
    gaviota.set_material(material.white, material.black)
    whites = [squares[0]] + squares[2 : 2 + len(material.white)]
    blacks = [squares[1]] + squares[2 + len(material.white) :]
    return gaviota.dtm_plies(whites, blacks, board.turn == chess.WHITE)


def gaviota_n(gaviota: NativeGaviota, board: chess.Board) -> int:
    """Gaviota's answer for a board as the thesis's n (-1 where White cannot force mate)."""
    material = material_of_board(board)
    squares = board_squares(board, material.piece_list)
    gaviota.set_material(material.white)
    return gaviota.white_mates_in([squares[0]] + squares[2:], squares[1], board.turn == chess.WHITE)


def _sample(sequence: SnSequence, reference: str, count: int, seed: int,
            answer: Callable[[chess.Board], int], agrees: Callable[[int, int, chess.Board], bool],
            ours_of: Optional[Callable[[chess.Board], int]] = None) -> Comparison:
    """Random legal boards, both sides to move, looked up through the public API and compared."""
    ours_of = ours_of or sequence.find_board
    result = Comparison(sequence.material.name, reference)
    start = time.perf_counter()
    for white_to_move in (True, False):
        for board in random_legal_boards(sequence.material, count, white_to_move, seed):
            ours, theirs = ours_of(board), answer(board)
            result.checked += 1
            if not agrees(ours, theirs, board):
                result.mismatches.append((board.fen(), ours, theirs))
    result.seconds = time.perf_counter() - start
    return result


def sample_against_gaviota(sequence: SnSequence, gaviota: NativeGaviota, count: int, seed: int = 1) -> Comparison:
    """Our n equals Gaviota's depth to mate exactly, whoever mates (both -1 for a draw)."""
    return _sample(sequence, "gaviota", count, seed, lambda board: gaviota_value(gaviota, board),
                   lambda ours, theirs, board: ours == theirs, sequence.value)


def sample_against_syzygy(sequence: SnSequence, syzygy: chess.syzygy.Tablebase, count: int, seed: int = 2) -> Comparison:
    """Won, lost and drawn exactly where Syzygy's WDL says so (cursed wins and blessed losses included):
    odd n, the side to move wins; even n, it loses; no n, a draw."""

    def agrees(ours: int, wdl: int, board: chess.Board) -> bool:
        result = 0 if ours < 0 else (1 if ours % 2 else -1)
        return result == (wdl > 0) - (wdl < 0)

    return _sample(sequence, "syzygy", count, seed, syzygy.probe_wdl, agrees, sequence.value)


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
                    result.mismatches.append((_fen(layout.letters, [c[k] for c in columns], white_to_move),
                                              int(ours[k]), theirs))
            result.checked += len(columns[0])
    result.seconds = time.perf_counter() - start
    return result


def _fen(letters: str, squares: List[int], white_to_move: bool) -> str:
    board = chess.Board(None)
    for square, letter in zip(squares, letters):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = white_to_move
    return board.fen()


def open_syzygy(folder: Optional[Path] = None) -> chess.syzygy.Tablebase:
    return chess.syzygy.open_tablebase(str(folder or reference_folder("syzygy")))


# ---- whole tables, per n (notebook 06) -----------------------------------------------------

@dataclass
class AgreementPerN:
    """How many boards of each S_n a reference agrees with."""

    material: str
    reference: str
    checked: Dict[int, int] = field(default_factory=dict)
    agreed: Dict[int, int] = field(default_factory=dict)
    mismatches: List[Tuple[str, int, int]] = field(default_factory=list)  # (fen, our n, reference's answer)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.checked.values())

    @property
    def ok(self) -> bool:
        return self.total > 0 and sum(self.agreed.values()) == self.total

    def line(self) -> str:
        wrong = self.total - sum(self.agreed.values())
        rate = self.total / self.seconds if self.seconds else float("nan")
        return (f"{self.material} vs {self.reference}: {self.total:,} boards in {len(self.checked)} S_n, "
                f"{wrong:,} disagree; {self.seconds:.1f} s, about {float(f'{rate:.2g}'):,.0f} boards/s")

    def add(self, n: int, checked: int, agreed: int, mismatches) -> None:
        self.checked[n] = self.checked.get(n, 0) + checked
        self.agreed[n] = self.agreed.get(n, 0) + agreed
        self.mismatches.extend(mismatches[: max(0, 20 - len(self.mismatches))])


_CHUNK = 1 << 16


def _board_chunks(sequence: SnSequence, every_board: bool, sample: Optional[int], seed: int):
    """``(n, board integers)`` pieces of every S_n, at most ``_CHUNK`` boards each."""
    from .move_checks import boards_to_check

    chunks = []
    for n in range(len(sequence)):
        boards = boards_to_check(sequence, n, every_board=every_board, sample=sample, seed=seed + n)
        chunks += [(n, boards[i : i + _CHUNK]) for i in range(0, boards.size, _CHUNK)]
    return chunks


def _squares_of(boards: np.ndarray, piece_count: int) -> List[List[int]]:
    """Columns of squares (PIECE_LIST order) of board integers."""
    return [((boards >> (1 + 6 * (piece_count - 1 - i))) & 63).tolist() for i in range(piece_count)]


def _open_gaviota_in_worker() -> None:
    from ..runtime.parallel import WORKER_STATE

    WORKER_STATE["gaviota"] = NativeGaviota(WORKER_STATE["gaviota_folder"], cache_mb=WORKER_STATE["cache_mb"])


def _gaviota_chunk(chunk) -> Tuple[int, int, int, list]:
    from ..runtime.parallel import WORKER_STATE

    n, boards = chunk
    gaviota, material = WORKER_STATE["gaviota"], WORKER_STATE["material"]
    gaviota.set_material(material.white, material.black)
    whites, blacks = _sides_of(material)
    columns = _squares_of(boards, material.piece_count)
    agreed, mismatches = 0, []
    for k, board_int in enumerate(boards.tolist()):
        white_to_move = bool(board_int & 1)
        theirs = gaviota.dtm_plies([columns[i][k] for i in whites], [columns[i][k] for i in blacks], white_to_move)
        if theirs == n:
            agreed += 1
        elif len(mismatches) < 20:
            mismatches.append((_fen(material.letters, [c[k] for c in columns], white_to_move), n, theirs))
    return n, len(boards), agreed, mismatches


def _sides_of(material: Material) -> Tuple[List[int], List[int]]:
    """PIECE_LIST positions of White's pieces and of Black's, kings first."""
    letters = material.letters
    return ([i for i, c in enumerate(letters) if c.isupper()], [i for i, c in enumerate(letters) if c.islower()])


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
    chunks = _board_chunks(sequence, every_board, sample, seed)
    if not sequence.material.lone_black_king:
        chunks += _board_chunks(sequence.for_winner(not sequence.winner), every_board, sample, seed)
    state = {"gaviota_folder": folder, "cache_mb": cache_mb, "material": sequence.material}
    for n, checked, agreed, mismatches in map_chunks(
        _gaviota_chunk, chunks, state=state, setup=_open_gaviota_in_worker, workers=workers,
        sizes=[c[1].size for c in chunks], desc=f"{sequence.material} vs Gaviota", progress=progress,
    ):
        result.add(n, checked, agreed, mismatches)
    result.seconds = time.perf_counter() - start
    return result


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
    whites, blacks = _sides_of(material)
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
            examples.append(_fen(material.letters, [c[k] for c in columns], white_to_move))
    return len(columns[0]), won, matched, extra, examples


def _sampled_boards_chunk(chunk):
    from ..runtime.parallel import WORKER_STATE

    white_to_move, count, seed = chunk
    table: DtmTable = WORKER_STATE["table"]
    boards = random_legal_boards(table.material, count, white_to_move, seed)
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
        function, chunks, state=state, setup=_open_gaviota_in_worker, workers=workers, sizes=sizes,
        desc=f"{sequence.material} matching rate", unit=" boards", progress=progress,
    ):
        result.legal += legal
        result.gaviota_won += won
        result.matched += matched
        result.ours_but_not_gaviota += extra
        result.examples += examples[: max(0, 10 - len(result.examples))]
    result.seconds = time.perf_counter() - start
    return result


# ---- Syzygy --------------------------------------------------------------------------------

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
        board = next(iter(random_legal_boards(sequence.material, 1, True, seed)))
        probe.probe_wdl(board)
    finally:
        probe.close()
    name = sequence.material.name + ("" if sequence.winner == chess.WHITE else " (Black mates)")
    result = SyzygyComparison(name, "syzygy")
    start = time.perf_counter()
    chunks = [(n, boards, dtz_every) for n, boards in _board_chunks(sequence, every_board, sample, seed)]
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


# ---- reports --------------------------------------------------------------------------------

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
    boards = (random_legal_boards(sequence.material, count // 2, True, seed)
              + random_legal_boards(sequence.material, count - count // 2, False, seed + 1))
    drawn = [b for b in boards if sequence.dtm(b) == 0 and not b.is_checkmate()]
    with open_syzygy(folder) as tablebase:
        wrong = [b.fen() for b in drawn if tablebase.probe_wdl(b) != 0]
    return DrawCheck(sequence.material.name, len(drawn), len(drawn) - len(wrong), len(boards), wrong[:5])


def write_report(material: str, lines: List[str], folder: os.PathLike = "Tests") -> Path:
    """Write the validation results of one table to ``<folder>/validation_<material>.txt``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"validation_{material}.txt"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    path.write_text(f"Validation of {material} ({stamp})\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path
