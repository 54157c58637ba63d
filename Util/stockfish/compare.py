"""The AI against Stockfish (thesis chapter 6).

From one start position the thesis plays two games:

* **AI game**: White is the AI (it moves from S_n into S_(n-1)), Black is
  Stockfish, defending as well as it can.
* **Stockfish game**: Stockfish plays both sides.

Their difference mixes two things: how well each White attacks, and how
differently Stockfish defends against the two.  So a third game compares
like with like:

* **Stockfish against the best defence**: Stockfish plays White, Black
  plays the table's longest defence (:func:`table_defence`).  Against that
  same defence the AI needs exactly n plies, so the plies Stockfish needs
  beyond n measure the attacker alone.

All games are counted in plies until mate.  A game also ends at stalemate,
insufficient material, threefold repetition, the fifty-move rule or a ply
cap; a Stockfish game that ends so is a *Stockfish failure*.  The AI
promised mate in at most n plies: every AI game is checked against that
promise, whatever Black plays.

Stockfish is Debian's ``stockfish`` binary driven by the PyPI ``stockfish``
wrapper, one guarded process per worker (:mod:`Util.stockfish.oracle`): a
position where the engine hangs or crashes is recorded as failed.
"""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional

import chess

from ..sequence import SnSequence
# StockfishMissing and find_stockfish are imported from here too, as before the engine had its own module
from .oracle import EngineFailure, EngineSettings, GuardedStockfish, StockfishMissing, find_stockfish  # noqa: F401


# ---- games ----------------------------------------------------------------------------------

@dataclass
class ComparedGame:
    """One game of the comparison from a start position: the moves (UCI) and how it ended (a game against
    the AI is ``Util.play.session.PlaySession``)."""

    start_fen: str
    moves: List[str] = field(default_factory=list)
    end: str = ""

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def mated(self) -> bool:
        return self.end == "checkmate"

    def san(self) -> str:
        board = chess.Board(self.start_fen)
        return board.variation_san([chess.Move.from_uci(m) for m in self.moves])


def comparison_game_end(board: chess.Board, ply_cap: int, plies: int) -> Optional[str]:
    """Why a comparison game is over: the rules of chess (:func:`Util.play.outcomes.game_end`) or the ply cap."""
    from ..play.outcomes import game_end

    return game_end(board) or (f"ply cap ({ply_cap})" if plies >= ply_cap else None)


def ai_game(board: chess.Board, sequence: SnSequence, engine: GuardedStockfish, ply_cap: int = 300) -> ComparedGame:
    """The AI (White, from S_n into S_(n-1)) against Stockfish (Black) from ``board``."""
    board = board.copy(stack=False)
    game = ComparedGame(board.fen())
    while not (end := comparison_game_end(board, ply_cap, game.plies)):
        if board.turn == chess.WHITE:
            n = _n_of(sequence, board)
            _, move = _ai_move(board, n, sequence)
            if move is None:
                game.end = f"AI has no move from S_{n}"
                return game
        else:
            move = engine.best_move(board)
        board.push(move)
        game.moves.append(move.uci())
    game.end = end
    return game


def _n_of(sequence: SnSequence, board: chess.Board) -> int:
    try:
        return sequence.find_board(board)
    except ValueError:  # material no table covers (White has lost everything)
        return -1


def _ai_move(board: chess.Board, n: int, sequence: SnSequence):
    from ..sequence import find_next_move

    return find_next_move(board, n, sequence) if n > 0 else (-1, None)


def table_defence(board: chess.Board, sequence: SnSequence) -> Optional[chess.Move]:
    """Black's best defence by the table: a move into no S_n (White cannot force mate: a draw) if
    there is one, else a move that keeps mate furthest away; ties go to python-chess's first move.
    None if Black has no move."""
    def distance(move: chess.Move) -> int:
        board.push(move)
        try:
            n = _n_of(sequence, board)
        finally:
            board.pop()
        return 10_000 if n < 0 else n

    return max(board.legal_moves, key=distance, default=None)


def against_best_defence(board: chess.Board, sequence: SnSequence, engine: Optional[GuardedStockfish],
                         ply_cap: int = 300) -> ComparedGame:
    """White (Stockfish, or the AI where ``engine`` is None) against the table's best defence."""
    board = board.copy(stack=False)
    game = ComparedGame(board.fen())
    while not (end := comparison_game_end(board, ply_cap, game.plies)):
        if board.turn == chess.BLACK:
            move = table_defence(board, sequence)
        elif engine is None:
            move = _ai_move(board, _n_of(sequence, board), sequence)[1]
        else:
            move = engine.best_move(board)
        if move is None:
            game.end = "White has no move from the table"
            return game
        board.push(move)
        game.moves.append(move.uci())
    game.end = end
    return game


def stockfish_game(board: chess.Board, engine: GuardedStockfish, ply_cap: int = 300) -> ComparedGame:
    """Stockfish against itself from ``board``."""
    board = board.copy(stack=False)
    game = ComparedGame(board.fen())
    while not (end := comparison_game_end(board, ply_cap, game.plies)):
        move = engine.best_move(board)
        board.push(move)
        game.moves.append(move.uci())
    game.end = end
    return game


# ---- one position ---------------------------------------------------------------------------

@dataclass
class PositionResult:
    """Both games from one start position of S_n."""

    fen: str
    n: int
    ai: Optional[ComparedGame] = None
    stockfish: Optional[ComparedGame] = None
    ai_best: Optional[ComparedGame] = None  # the AI against the table's best defence
    stockfish_best: Optional[ComparedGame] = None  # Stockfish against the same defence
    failure: str = ""  # why the position could not be compared (engine crash or hang)

    @property
    def promise_kept(self) -> bool:
        """The AI mated within the n plies it promised (vacuously true if it did not play)."""
        return self.ai is None or (self.ai.mated and self.ai.plies <= self.n)

    @property
    def stockfish_extra_plies(self) -> Optional[int]:
        """Against the best defence: how many plies more than n Stockfish needed to mate (0: as fast as
        the AI); None where it did not mate or the game was not played."""
        game = self.stockfish_best
        return game.plies - self.n if game is not None and game.mated else None

    @property
    def verdict(self) -> str:
        """``failed``, ``stockfish failed``, ``equal``, ``ai better`` or ``stockfish better``."""
        if self.failure or self.ai is None or self.stockfish is None:
            return "failed"
        if not self.stockfish.mated:
            return "stockfish failed"
        if self.ai.plies == self.stockfish.plies:
            return "equal"
        return "ai better" if self.ai.plies < self.stockfish.plies else "stockfish better"


def compare_position(board: chess.Board, sequence: SnSequence, engine: GuardedStockfish,
                     ply_cap: int = 300) -> PositionResult:
    """Play both games from ``board``; an engine failure is recorded, not raised."""
    result = PositionResult(board.fen(), _n_of(sequence, board))
    try:
        result.ai = ai_game(board, sequence, engine, ply_cap)
        result.stockfish = stockfish_game(board, engine, ply_cap)
        result.ai_best = against_best_defence(board, sequence, None, ply_cap)
        result.stockfish_best = against_best_defence(board, sequence, engine, ply_cap)
    except EngineFailure as failure:
        result.failure = str(failure)
    return result


# ---- many positions -------------------------------------------------------------------------

VERDICTS = ("equal", "ai better", "stockfish better", "stockfish failed", "failed")


@dataclass
class ComparisonReport:
    """The results of one scenario, summarised as in the thesis."""

    scenario: str
    material: str
    settings: EngineSettings
    ply_cap: int
    results: List[PositionResult] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1

    def count(self, verdict: str) -> int:
        return sum(r.verdict == verdict for r in self.results)

    def share(self, verdict: str) -> float:
        return 100.0 * self.count(verdict) / len(self.results) if self.results else float("nan")

    def average_fewer(self, verdict: str) -> float:
        """Where one side was better: on average how many per cent fewer plies it needed (thesis formula)."""
        ratios = []
        for r in self.results:
            if r.verdict == verdict == "ai better":
                ratios.append(1 - r.ai.plies / r.stockfish.plies)
            elif r.verdict == verdict == "stockfish better":
                ratios.append(1 - r.stockfish.plies / r.ai.plies)
        return 100.0 * sum(ratios) / len(ratios) if ratios else 0.0

    @property
    def breaches(self) -> List[PositionResult]:
        """Games in which the AI needed more plies than its n promised (must be empty)."""
        return [r for r in self.results if not r.promise_kept]

    @property
    def compared_against_best(self) -> List[PositionResult]:
        """Positions whose two games against the table's best defence were played."""
        return [r for r in self.results if r.ai_best is not None and r.stockfish_best is not None]

    @property
    def stockfish_failures(self) -> int:
        """Games in which Stockfish, as White, did not mate: against itself or against the best defence."""
        return (self.count("stockfish failed")
                + sum(1 for r in self.compared_against_best if not r.stockfish_best.mated))

    def best_defence_lines(self) -> List[str]:
        """The like-with-like comparison: both attackers against the table's best defence."""
        played = self.compared_against_best
        if not played:
            return ["against the table's best defence: no games"]
        exact_ai = sum(r.ai_best.mated and r.ai_best.plies == r.n for r in played)
        extra = [r.stockfish_extra_plies for r in played if r.stockfish_extra_plies is not None]
        optimal = sum(e == 0 for e in extra)
        failed = len(played) - len(extra)
        mean_extra = sum(extra) / len(extra) if extra else float("nan")
        return [
            f"against the table's best defence (the same defence for both attackers), {len(played)} positions:",
            f"  AI mated in exactly n plies: {exact_ai} of {len(played)}",
            f"  Stockfish mated in n plies (as fast as possible): {100.0 * optimal / len(played):.2f} %",
            f"  Stockfish needed on average {mean_extra:.2f} plies more than n where it mated "
            f"(at most {max(extra) if extra else 0})",
            f"  Stockfish failed to mate against it: {100.0 * failed / len(played):.2f} %",
        ]

    @property
    def positions_per_minute(self) -> float:
        return 60.0 * len(self.results) / self.seconds if self.seconds else float("nan")

    def text(self) -> str:
        lines = [
            f"{self.scenario} ({self.material}): {len(self.results)} positions",
            f"Stockfish: {self.settings.describe()} per move, {self.workers} engine(s) in parallel; "
            f"games end at mate, stalemate, insufficient material, threefold repetition, the fifty-move rule "
            f"or {self.ply_cap} plies",
            f"equal: {self.share('equal'):.2f} %",
            f"AI better: {self.share('ai better'):.2f} %",
            f"Stockfish better: {self.share('stockfish better'):.2f} %",
            f"Stockfish failed to mate: {self.share('stockfish failed'):.2f} %",
            f"not compared (engine failure): {self.count('failed')}",
            f"where the AI was better, it needed on average {self.average_fewer('ai better'):.2f} % fewer plies",
            f"where Stockfish was better, it needed on average {self.average_fewer('stockfish better'):.2f} % fewer plies",
            f"AI promise (mate within n plies) broken: {len(self.breaches)}"
            + (" <-- THE TABLES OR THE AI ARE WRONG" if self.breaches else ""),
            *self.best_defence_lines(),
            f"{self.seconds:.1f} s, {self.positions_per_minute:.1f} positions per minute",
        ]
        return "\n".join(lines)

    def write(self, folder: os.PathLike = "Tests", stem: Optional[str] = None) -> Path:
        """Write the summary (``.txt``) and the per-position results (``.csv``); returns the .txt path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        stem = stem or f"{self.scenario}_{self.material}_{time.strftime('%Y-%m-%d_%H-%M-%S')}"
        (folder / f"{stem}.txt").write_text(self.text() + "\n", encoding="utf-8")
        with open(folder / f"{stem}.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["fen", "n", "ai_plies", "ai_end", "stockfish_plies", "stockfish_end", "verdict",
                             "promise_kept", "failure", "ai_moves", "stockfish_moves",
                             "ai_vs_best_defence_plies", "stockfish_vs_best_defence_plies",
                             "stockfish_vs_best_defence_end", "stockfish_vs_best_defence_moves"])
            for r in self.results:
                writer.writerow([r.fen, r.n, r.ai.plies if r.ai else "", r.ai.end if r.ai else "",
                                 r.stockfish.plies if r.stockfish else "", r.stockfish.end if r.stockfish else "",
                                 r.verdict, r.promise_kept, r.failure,
                                 " ".join(r.ai.moves) if r.ai else "", " ".join(r.stockfish.moves) if r.stockfish else "",
                                 r.ai_best.plies if r.ai_best else "",
                                 r.stockfish_best.plies if r.stockfish_best else "",
                                 r.stockfish_best.end if r.stockfish_best else "",
                                 " ".join(r.stockfish_best.moves) if r.stockfish_best else ""])
        return folder / f"{stem}.txt"


def open_engine_in_worker() -> None:
    from ..runtime.parallel import WORKER_STATE

    WORKER_STATE["engine"] = GuardedStockfish(WORKER_STATE["settings"], WORKER_STATE["path"])


def _compare_chunk(fens: List[str]) -> List[PositionResult]:
    from ..runtime.parallel import WORKER_STATE

    engine, sequence = WORKER_STATE["engine"], WORKER_STATE["sequence"]
    return [compare_position(chess.Board(fen), sequence, engine, WORKER_STATE["ply_cap"]) for fen in fens]


def compare_positions(scenario: str, fens: Iterable[str], sequence: SnSequence, settings: EngineSettings = EngineSettings(),
                      *, ply_cap: int = 300, workers: Optional[int] = None, path: Optional[os.PathLike] = None,
                      progress: bool = True) -> ComparisonReport:
    """Compare the AI and Stockfish from each position, one engine per worker (default: all cores)."""
    from ..runtime.parallel import core_count, map_chunks

    path = find_stockfish(path)
    fens = list(fens)
    chunks = [fens[i : i + 2] for i in range(0, len(fens), 2)]
    workers = min(workers or core_count(), max(1, len(chunks)))
    report = ComparisonReport(scenario, sequence.material.name, settings, ply_cap, workers=workers)
    start = time.perf_counter()
    state = {"settings": settings, "path": path, "sequence": sequence, "ply_cap": ply_cap}
    try:
        for results in map_chunks(_compare_chunk, chunks, state=state, setup=open_engine_in_worker,
                                  teardown=close_engine_of_this_process,
                                  workers=workers, sizes=[len(c) for c in chunks], desc=scenario,
                                  unit=" positions", progress=progress):
            report.results += results
    finally:
        close_engine_of_this_process()
    report.seconds = time.perf_counter() - start
    return report


def close_engine_of_this_process() -> None:
    """Stop the engine this process started, if any, and wait for it: the teardown of each forked worker, and the
    caller's cleanup when the work ran here (one worker)."""
    from ..runtime.parallel import WORKER_STATE

    engine = WORKER_STATE.pop("engine", None)
    if engine is not None:
        engine.close()


def by_n(report: ComparisonReport) -> Dict[int, List[PositionResult]]:
    """The results grouped by the n of their start position."""
    groups: Dict[int, List[PositionResult]] = {}
    for r in report.results:
        groups.setdefault(r.n, []).append(r)
    return dict(sorted(groups.items()))


# ---- the thesis's four scenarios ------------------------------------------------------------

def compare_fen_stockfish(fen: str, sequence: SnSequence, settings: EngineSettings = EngineSettings(),
                          ply_cap: int = 300, path: Optional[os.PathLike] = None) -> PositionResult:
    """Both games from one position (a FEN), with one engine in this process.

    ValueError for a FEN python-chess rejects or calls an illegal position.
    """
    board = chess.Board(fen)
    if not board.is_valid():
        raise ValueError(f"{fen} is not a legal position ({board.status()!r}); nothing was sent to Stockfish")
    with GuardedStockfish(settings, path) as engine:
        return compare_position(board, sequence, engine, ply_cap)


def _fens(sequence: SnSequence, boards) -> List[str]:
    from ..board.integer import to_board

    return [to_board(int(b), sequence.piece_list).fen() for b in boards]


def test_random_boards(count: int, sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
                       seed: int = 0, **options) -> ComparisonReport:
    """``count`` random positions drawn from all S_n together (S_0 left out: nothing to play)."""
    import numpy as np

    from ..validation.move_checks import boards_to_check

    every = np.concatenate([boards_to_check(sequence, n) for n in range(1, len(sequence))])
    chosen = np.random.default_rng(seed).choice(every, size=min(count, every.size), replace=False)
    return compare_positions("random_boards", _fens(sequence, np.sort(chosen)), sequence, settings, **options)


test_random_boards.__test__ = False  # the thesis's name; not a pytest test


def compare_sequence_stockfish(sequence_index: int, sequence: SnSequence, settings: EngineSettings = EngineSettings(),
                               *, sample: Optional[int] = None, seed: int = 0, **options) -> ComparisonReport:
    """Every position of S_``sequence_index`` (one per symmetry class), or a seeded ``sample`` of them."""
    from ..validation.move_checks import boards_to_check

    boards = boards_to_check(sequence, sequence_index, sample=sample, seed=seed)
    return compare_positions(f"S_{sequence_index}", _fens(sequence, boards), sequence, settings, **options)


def compare_all_sequences(sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
                          sample: Optional[int] = None, seed: int = 0, **options) -> ComparisonReport:
    """Every S_n (n >= 1) in one report; ``sample`` positions per S_n where given."""
    from ..validation.move_checks import boards_to_check

    fens = []
    for n in range(1, len(sequence)):
        fens += _fens(sequence, boards_to_check(sequence, n, sample=sample, seed=seed + n))
    return compare_positions("all_S_n", fens, sequence, settings, **options)


# ---- what the reports say -------------------------------------------------------------------

def conclusions(reports: List[ComparisonReport]) -> List[str]:
    """The chapter's conclusions as sentences computed from its reports, so that they cannot
    contradict the numbers printed above them: each pooled count is followed, where there are several
    reports, by its parts report by report, which the reports' own lines give."""
    results = [r for report in reports for r in report.results]
    if not results:
        return ["No positions were compared."]
    played = [r for r in results if r.ai is not None]
    broken = sum(not r.promise_kept for r in results)
    lines = [f"The AI kept its promise in {len(played) - broken} of {len(played)} games against Stockfish's "
             f"defence: mate within n plies, whatever Black played." if not broken else
             f"The AI broke its promise in {broken} of {len(played)} games: the tables or the AI are wrong."]
    thesis = [r for r in results if r.verdict != "failed"]
    if thesis:
        said = {v: _count(reports, lambda r, v=v: r.verdict == v) for v in ("ai better", "equal", "stockfish better")}
        lines.append(f"The thesis's comparison (AI game vs Stockfish game): the AI game was "
                     f"shorter in {said['ai better']}, as long in {said['equal']}, longer in "
                     f"{said['stockfish better']}. Black is Stockfish in both games, but it defends differently "
                     f"against the two attackers, so this mixes attack and defence.")
    best = [r for r in results if r.stockfish_best is not None]
    if best:
        extra = [r.stockfish_extra_plies for r in best if r.stockfish_extra_plies is not None]
        optimal = _count(reports, lambda r: r.stockfish_extra_plies == 0)
        lines.append(f"Against the same, best defence the AI always needs exactly n plies. Stockfish needed exactly n "
                     f"in {optimal} positions"
                     + (f" and on average {sum(extra) / len(extra):.2f} plies more than n in the {len(extra)} where "
                        f"it mated."
                        if extra else "."))
    white_games = ([r.stockfish for r in results if r.stockfish is not None]
                   + [r.stockfish_best for r in best])
    failed = sum(not g.mated for g in white_games)
    ends = sorted({g.end for g in white_games if not g.mated})
    lines.append(f"Stockfish failed to mate in {failed} of the {len(white_games)} games it played as White"
                 + (f" (they ended by {', '.join(ends)}); against itself "
                    f"{_count(reports, lambda r: r.stockfish is not None and not r.stockfish.mated)}, against the "
                    f"best defence {_count(reports, lambda r: r.stockfish_best is not None and not r.stockfish_best.mated)}."
                    if failed else f": at {reports[0].settings.describe()} a move it always found the mate in the end."))
    return lines


def _count(reports: List[ComparisonReport], holds) -> str:
    """How many positions of all ``reports`` ``holds`` for, of how many, with the share to two decimals (as
    the reports print theirs) and, for several reports, the count in each: ``"207 of 320 (64.69 %; 82 + 43 +
    82)"``."""
    counts = [sum(1 for r in report.results if holds(r)) for report in reports]
    positions = sum(len(report.results) for report in reports)
    share = 100.0 * sum(counts) / positions if positions else float("nan")
    parts = f"; {' + '.join(map(str, counts))}" if len(reports) > 1 else ""
    return f"{sum(counts)} of {positions} ({share:.2f} %{parts})"
