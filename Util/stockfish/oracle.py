"""Stockfish as a move oracle: Debian's ``stockfish`` binary driven by the PyPI ``stockfish`` wrapper.

:func:`find_stockfish` finds the binary (an explicit path or ``STOCKFISH_PATH`` must work; otherwise the
PATH and the places Debian and Homebrew install it), and :class:`GuardedStockfish` runs one process.  The
wrapper blocks on the engine's output and has no time-out, so every call has a watchdog: if the engine does
not answer within ``EngineSettings.timeout_s`` seconds, the watchdog kills it, the wrapper's read fails,
the engine is restarted and the call raises :class:`EngineFailure`.
"""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import chess

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
