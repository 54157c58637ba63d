"""The AI against Stockfish (thesis chapter 6).

From one start position two games are played:

* **AI game**: White is the AI (it moves from S_n into S_(n-1)), Black is
  Stockfish, defending as well as it can.
* **Stockfish game**: Stockfish plays both sides.

Both games are counted in plies until mate.  A game also ends at stalemate,
insufficient material, threefold repetition, the fifty-move rule or a ply
cap; a Stockfish game that ends so is a *Stockfish failure*.  The AI
promised mate in at most n plies: every AI game is checked against that
promise, whatever Black plays.

Stockfish is Debian's ``stockfish`` binary driven by the PyPI ``stockfish``
wrapper.  The wrapper blocks on the engine's output and has no time-out,
so :class:`GuardedStockfish` puts a watchdog on every call: if the engine
does not answer in time, the watchdog kills it, the wrapper's read fails,
the engine is restarted and the position is recorded as failed.
"""

from __future__ import annotations

import csv
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional

import chess

from .sequence import SnSequence

STOCKFISH_ENV = "STOCKFISH_PATH"
#: Debian installs the binary outside the usual PATH of root.
KNOWN_LOCATIONS = ("/usr/games/stockfish", "/usr/local/bin/stockfish", "/opt/homebrew/bin/stockfish")
INSTALL_HINT = ("install it with 'sudo apt-get install stockfish' (Debian, Ubuntu), 'brew install stockfish' "
                "(macOS) or from https://stockfishchess.org/download/, then set STOCKFISH_PATH to the binary "
                "if it is not found on its own")


class StockfishMissing(FileNotFoundError):
    """No Stockfish binary was found; the message says how to install one."""


class EngineFailure(RuntimeError):
    """Stockfish crashed, hung (and was killed) or answered nonsense; it has been restarted."""


def find_stockfish(path: Optional[os.PathLike] = None) -> str:
    """The Stockfish binary: ``path`` if given, else ``STOCKFISH_PATH``, else the PATH, else /usr/games.

    A path given explicitly (argument or environment) must work: it is
    never silently replaced by another binary.
    """
    explicit = [(path, "the path given")] if path else []
    if os.environ.get(STOCKFISH_ENV):
        explicit.append((os.environ[STOCKFISH_ENV], STOCKFISH_ENV))
    for candidate, source in explicit[:1]:
        if _is_executable(candidate):
            return str(candidate)
        raise StockfishMissing(f"{source} ({candidate}) is not an executable Stockfish binary; {INSTALL_HINT}")
    found = shutil.which("stockfish")
    candidates = ([found] if found else []) + list(KNOWN_LOCATIONS)
    for candidate in candidates:
        if _is_executable(candidate):
            return str(candidate)
    raise StockfishMissing(f"no Stockfish binary found on the PATH or in {', '.join(KNOWN_LOCATIONS)}; {INSTALL_HINT}")


def _is_executable(candidate) -> bool:
    return Path(candidate).is_file() and os.access(candidate, os.X_OK)


@dataclass(frozen=True)
class EngineSettings:
    """How long Stockfish thinks per move: a fixed ``depth`` or ``move_time_ms`` (milliseconds)."""

    depth: Optional[int] = 12
    move_time_ms: Optional[int] = None
    timeout_s: float = 30.0  # a call that takes longer counts as a hang
    threads: int = 1
    hash_mb: int = 16

    def describe(self) -> str:
        if self.move_time_ms is not None:
            return f"{self.move_time_ms} ms a move"
        return f"depth {self.depth}"


class GuardedStockfish:
    """One Stockfish process behind the PyPI wrapper, with a watchdog on every call."""

    def __init__(self, settings: EngineSettings = EngineSettings(), path: Optional[os.PathLike] = None):
        self.settings = settings
        self.path = find_stockfish(path)
        self.restarts = 0
        self._engine = None
        self._start()

    def _start(self) -> None:
        from stockfish import Stockfish

        self._engine = Stockfish(self.path, depth=self.settings.depth or 12,
                                 parameters={"Threads": self.settings.threads, "Hash": self.settings.hash_mb})

    def restart(self) -> None:
        self.close()
        self.restarts += 1
        self._start()

    def close(self) -> None:
        if self._engine is not None:
            process = self._engine._stockfish  # the wrapper's Popen; killing it is the only sure stop
            if process.poll() is None:
                process.kill()
            process.wait()
            self._engine = None

    def __enter__(self) -> "GuardedStockfish":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def pid(self) -> int:
        return self._engine._stockfish.pid

    @property
    def version(self) -> str:
        """The engine's version as it reports it, e.g. ``15.1``."""
        return self._engine.get_stockfish_major_minor_version()

    def best_move(self, board: chess.Board) -> Optional[chess.Move]:
        """Stockfish's move in ``board`` (None if the game is over there).

        ValueError for a position python-chess calls invalid (it is never
        sent to the engine).  EngineFailure if the engine crashes, hangs
        past ``timeout_s`` or answers an illegal move; it is restarted first.
        """
        if not board.is_valid():
            raise ValueError(f"not sending an invalid position to Stockfish: {board.fen()} ({board.status()!r})")
        process = self._engine._stockfish
        watchdog = threading.Timer(self.settings.timeout_s, process.kill)
        watchdog.start()
        try:
            self._engine.set_fen_position(board.fen())
            if self.settings.move_time_ms is not None:
                answer = self._engine.get_best_move_time(self.settings.move_time_ms)
            else:
                answer = self._engine.get_best_move()
        except Exception as error:  # the wrapper raises StockfishException, or OSError on a broken pipe
            hung = not watchdog.is_alive()
            self.restart()
            what = f"did not answer within {self.settings.timeout_s:g} s" if hung else f"crashed ({error})"
            raise EngineFailure(f"Stockfish {what} in {board.fen()}; restarted") from error
        finally:
            watchdog.cancel()
        if answer is None:
            return None
        move = chess.Move.from_uci(answer)
        if move not in board.legal_moves:
            self.restart()
            raise EngineFailure(f"Stockfish answered the illegal move {answer} in {board.fen()}; restarted")
        return move


# ---- games ----------------------------------------------------------------------------------

@dataclass
class Game:
    """One game from a start position: the moves (UCI) and how it ended."""

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


def _game_end(board: chess.Board, ply_cap: int, plies: int) -> Optional[str]:
    """Why a comparison game is over: the rules of chess (:func:`Util.game.game_end`) or the ply cap."""
    from .game import game_end

    return game_end(board) or (f"ply cap ({ply_cap})" if plies >= ply_cap else None)


def ai_game(board: chess.Board, sequence: SnSequence, engine: GuardedStockfish, ply_cap: int = 300) -> Game:
    """The AI (White, from S_n into S_(n-1)) against Stockfish (Black) from ``board``."""
    board = board.copy(stack=False)
    game = Game(board.fen())
    while not (end := _game_end(board, ply_cap, game.plies)):
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
    from .sequence import find_next_move

    return find_next_move(board, n, sequence) if n > 0 else (-1, None)


def stockfish_game(board: chess.Board, engine: GuardedStockfish, ply_cap: int = 300) -> Game:
    """Stockfish against itself from ``board``."""
    board = board.copy(stack=False)
    game = Game(board.fen())
    while not (end := _game_end(board, ply_cap, game.plies)):
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
    ai: Optional[Game] = None
    stockfish: Optional[Game] = None
    failure: str = ""  # why the position could not be compared (engine crash or hang)

    @property
    def promise_kept(self) -> bool:
        """The AI mated within the n plies it promised (vacuously true if it did not play)."""
        return self.ai is None or (self.ai.mated and self.ai.plies <= self.n)

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
                             "promise_kept", "failure", "ai_moves", "stockfish_moves"])
            for r in self.results:
                writer.writerow([r.fen, r.n, r.ai.plies if r.ai else "", r.ai.end if r.ai else "",
                                 r.stockfish.plies if r.stockfish else "", r.stockfish.end if r.stockfish else "",
                                 r.verdict, r.promise_kept, r.failure,
                                 " ".join(r.ai.moves) if r.ai else "", " ".join(r.stockfish.moves) if r.stockfish else ""])
        return folder / f"{stem}.txt"


def _open_engine_in_worker() -> None:
    from .parallel import WORKER_STATE

    WORKER_STATE["engine"] = GuardedStockfish(WORKER_STATE["settings"], WORKER_STATE["path"])


def _compare_chunk(fens: List[str]) -> List[PositionResult]:
    from .parallel import WORKER_STATE

    engine, sequence = WORKER_STATE["engine"], WORKER_STATE["sequence"]
    return [compare_position(chess.Board(fen), sequence, engine, WORKER_STATE["ply_cap"]) for fen in fens]


def compare_positions(scenario: str, fens: Iterable[str], sequence: SnSequence, settings: EngineSettings = EngineSettings(),
                      *, ply_cap: int = 300, workers: Optional[int] = None, path: Optional[os.PathLike] = None,
                      progress: bool = True) -> ComparisonReport:
    """Compare the AI and Stockfish from each position, one engine per worker (default: all cores)."""
    from .parallel import core_count, map_chunks

    path = find_stockfish(path)
    fens = list(fens)
    chunks = [fens[i : i + 2] for i in range(0, len(fens), 2)]
    workers = min(workers or core_count(), max(1, len(chunks)))
    report = ComparisonReport(scenario, sequence.material.name, settings, ply_cap, workers=workers)
    start = time.perf_counter()
    state = {"settings": settings, "path": path, "sequence": sequence, "ply_cap": ply_cap}
    try:
        for results in map_chunks(_compare_chunk, chunks, state=state, setup=_open_engine_in_worker,
                                  workers=workers, sizes=[len(c) for c in chunks], desc=scenario,
                                  unit=" positions", progress=progress):
            report.results += results
    finally:
        _close_engine_of_this_process()
    report.seconds = time.perf_counter() - start
    return report


def _close_engine_of_this_process() -> None:
    """With one worker the engine ran here: stop it (forked workers' engines end with their workers)."""
    from .parallel import WORKER_STATE

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
    from .board_int import to_board

    return [to_board(int(b), sequence.piece_list).fen() for b in boards]


def test_random_boards(count: int, sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
                       seed: int = 0, **options) -> ComparisonReport:
    """``count`` random positions drawn from all S_n together (S_0 left out: nothing to play)."""
    import numpy as np

    from .move_checks import boards_to_check

    every = np.concatenate([boards_to_check(sequence, n) for n in range(1, len(sequence))])
    chosen = np.random.default_rng(seed).choice(every, size=min(count, every.size), replace=False)
    return compare_positions("random_boards", _fens(sequence, np.sort(chosen)), sequence, settings, **options)


test_random_boards.__test__ = False  # the thesis's name; not a pytest test


def compare_sequence_stockfish(sequence_index: int, sequence: SnSequence, settings: EngineSettings = EngineSettings(),
                               *, sample: Optional[int] = None, seed: int = 0, **options) -> ComparisonReport:
    """Every position of S_``sequence_index`` (one per symmetry class), or a seeded ``sample`` of them."""
    from .move_checks import boards_to_check

    boards = boards_to_check(sequence, sequence_index, sample=sample, seed=seed)
    return compare_positions(f"S_{sequence_index}", _fens(sequence, boards), sequence, settings, **options)


def compare_all_sequences(sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
                          sample: Optional[int] = None, seed: int = 0, **options) -> ComparisonReport:
    """Every S_n (n >= 1) in one report; ``sample`` positions per S_n where given."""
    from .move_checks import boards_to_check

    fens = []
    for n in range(1, len(sequence)):
        fens += _fens(sequence, boards_to_check(sequence, n, sample=sample, seed=seed + n))
    return compare_positions("all_S_n", fens, sequence, settings, **options)
