"""``python -m Util uci`` (or the executable ``./chessai``): the engine behind the Universal Chess
Interface, for GUIs, fastchess, cutechess-cli, lichess-bot and python-chess's :mod:`chess.engine`.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption name N [value V]``, ``position startpos|fen
FEN [moves m1 m2 ...]``, ``go`` with ``wtime btime winc binc movestogo movetime depth nodes infinite
ponder`` (times in milliseconds), ``ponderhit``, ``stop``, ``quit``, and Stockfish's ``go perft N`` (one
line per root move, a blank line, ``Nodes searched: N``), ``bench [DEPTH]`` (:mod:`.bench`) and ``d`` (the
board).  The search runs in a thread of its own (:mod:`.uci_go`; one for the engine's life, so
that no thread is started on the clock) so that ``stop``, ``ponderhit``, ``isready`` and ``quit`` are
answered while it thinks; ``go perft`` and ``bench`` are answered before the
next command is read.  Input that is wrong (an unknown command, an illegal move, a FEN that is not one)
is answered with ``info string`` saying what was wrong; the engine never stops on it.

The options are :mod:`.uci_options`'s; ``Threads`` above 1 searches with helper threads sharing the
hash (Lazy SMP, :mod:`.threads`): the main thread's move and score are played, ``nodes`` counts every
thread's, and ``stop``, ``ponderhit``'s clock and the time limits end them all before ``bestmove``.

The compiled search is loaded in the background from the start, so that ``uciok`` comes at once;
``isready`` waits for it and opens the book, the tables and the hash, so that the first ``go`` after
``readyok`` is as fast as the next ones.  Command-line words are one
command run before quitting, as Stockfish's: ``./chessai bench``.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Callable, Dict, List, Optional, TextIO, Tuple

import chess

from .. import folders
from .opening_book import find_default_book
from .uci_go import GoSearch, format_info, limits_from_go, parse_go
from .uci_options import DEFAULT_OPTIONS, option_lines, parse_setoption

__all__ = ["AUTHOR", "DEFAULT_OPTIONS", "ENGINE_NAME", "UciEngine", "format_info", "limits_from_go",
           "option_lines", "parse_go", "parse_position", "parse_setoption", "perft_lines", "run_uci"]

ENGINE_NAME = "chessAI"
AUTHOR = "the chessAI developers"
#: Options a new value of which needs the player opened again (its book, tables, hash, weights, level).
REOPEN = ("Hash", "Threads", "OwnBook", "BookFile", "TablebasePath", "TablebaseMemory", "SyzygyPath",
          "WeightsFile", "UCI_LimitStrength", "UCI_Elo")


def parse_position(words: List[str], chess960: bool = False) -> Tuple[chess.Board, str]:
    """The board of ``position startpos|fen FEN [moves ...]`` and, if a move was illegal, what was wrong
    (the board is then the position before that move, as Stockfish keeps it).  ``chess960``: castling
    rights in Shredder-FEN (``HAha``) or X-FEN (``KQkq``), castling moves as the king taking its rook.
    ValueError when the start position is not given or not a legal FEN."""
    if not words or words[0] not in ("startpos", "fen"):
        raise ValueError("position needs: position startpos|fen FEN [moves m1 m2 ...]")
    moves_at = words.index("moves") if "moves" in words else len(words)
    if words[0] == "startpos":
        board = chess.Board(chess960=chess960)
    else:
        fen = " ".join(words[1:moves_at])
        try:
            board = chess.Board(fen, chess960=chess960)
        except ValueError as error:
            raise ValueError(f"not a FEN '{fen}' ({error})") from None
        if board.status() != chess.STATUS_VALID:
            from ..play.words import illegal_reasons  # the words /standard and /api/move say it in

            raise ValueError(f"FEN '{fen}' is not a legal position: {illegal_reasons(board.status())}" + (
                "" if chess960 else "; a Chess960 position needs setoption name UCI_Chess960 value true"))
    for text in words[moves_at + 1:]:
        try:
            board.push(board.parse_uci(text))
        except ValueError:
            return board, f"illegal move '{text}' in {board.fen()}; position set up to the move before"
    return board, ""


def play_new_moves(board: chess.Board, known: List[str], words: List[str]) -> Optional[str]:
    """When ``words`` (of a ``position`` command) are ``known``'s (those that set up ``board``) and moves
    more, as a game's next position is, plays only those on ``board``: a long game's moves are not played
    again on the GUI's clock.  None when ``words`` are another position; else what was wrong ('' if
    nothing: an illegal move leaves ``board`` at the position before it)."""
    if not (known and len(words) > len(known) and words[:len(known)] == known
            and ("moves" in known or words[len(known)] == "moves")):
        return None
    for text in words[len(known) + ("moves" not in known):]:
        try:
            board.push(board.parse_uci(text))
        except ValueError:
            return f"illegal move '{text}' in {board.fen()}; position set up to the move before"
    return ""


def perft_lines(board: chess.Board, depth: int) -> List[str]:
    """Stockfish's ``go perft`` answer: ``move: leaves`` per root move, a blank line, ``Nodes searched: N``."""
    if depth < 1:
        return ["info string go perft needs a depth of 1 or more"]
    from .perft import divide

    start = time.perf_counter()
    counts = divide(board, depth)
    total = sum(count for _, count in counts)
    lines = [f"{board.uci(move)}: {count}" for move, count in counts] + ["", f"Nodes searched: {total}"]
    seconds = time.perf_counter() - start
    return lines + [f"info string perft {depth}: {total} leaves in {seconds:.3f} s"]


def use_weights(player, path: str) -> None:
    """Has ``player``'s search evaluate with the weights of the JSON file ``path`` (empty: leaves it)."""
    if path:
        from .evaluation import read_weights

        player.searcher.set_weights(read_weights(path))


class UciEngine:
    """The protocol's state: options, position, the search under way.  ``write`` receives each output
    line; ``player_factory`` makes the player from the options (default :class:`~.player.Player`)."""

    def __init__(self, write: Callable[[str], None], player_factory: Optional[Callable[..., object]] = None) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._log = DebugLog()
        self._player_factory = player_factory
        self._player = None
        self.board = chess.Board()
        self._position: List[str] = []  # the words of the last position command, while self.board is it
        self.options: Dict[str, object] = dict(DEFAULT_OPTIONS)
        self._go: Optional[GoSearch] = None
        self._loaded = threading.Event()
        self._load_error: Optional[Exception] = None
        self._jobs: "queue.Queue[GoSearch]" = queue.Queue()
        threading.Thread(target=self._load, daemon=True).start()
        threading.Thread(target=self._search_thread, daemon=True, name="search").start()

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)
            self._log.add(">>", line)

    def _load(self) -> None:
        self._load_error = load_search()
        self._loaded.set()

    def _search_thread(self) -> None:
        """Runs each ``go`` handed to it, one after the other, for the life of the engine."""
        while True:
            self._jobs.get().run()

    def handle(self, line: str) -> bool:
        """Answer one input line; False after ``quit``."""
        with self._lock:
            self._log.add("<<", line)
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None:
            self.say(f"info string unknown command '{command}'; this engine knows uci, isready, ucinewgame, "
                     f"setoption, position, go, ponderhit, stop, quit, bench, d")
            return True
        try:
            return handler(rest) is not False
        except Exception as error:  # a bug of ours must not end the engine: say it and go on
            self.say(f"info string error in '{line.strip()}': {type(error).__name__}: {error}")
            return True

    def cmd_uci(self, _) -> None:
        self.say(f"id name {ENGINE_NAME}")
        self.say(f"id author {AUTHOR}")
        for line in option_lines(self.options["BookFile"] or find_default_book(),
                                 self.options["TablebasePath"] or folders.RESULTS_DIR):
            self.say(line)
        self.say("uciok")

    def cmd_isready(self, _) -> None:
        if not self.searching:
            self._loaded.wait()
            if self._load_error is not None:
                self.say(f"info string the search could not be loaded: {self._load_error}")
            elif (problem := open_early(self)) is not None:
                self.say(f"info string {problem}")
        self.say("readyok")

    def cmd_debug(self, _) -> None:
        pass

    def cmd_ucinewgame(self, _) -> None:
        self._finish_search()
        if self._player is not None:
            self._player.new_game()

    def cmd_setoption(self, words: List[str]) -> None:
        try:
            name, value = parse_setoption(self.options, words)
        except ValueError as error:
            self.say(f"info string {error}")
            return
        self._finish_search()  # a search under way ends with the options it began with
        if name == "Clear Hash":
            if self._player is not None:
                self._player.new_game()
            return
        self.options[name] = value
        if name == "Debug Log File":
            with self._lock:
                problem = self._log.open(str(value))
            if problem:
                self.say(f"info string {problem}")
        if name == "UCI_Chess960":
            self.board.chess960 = bool(value)
            self._position = []
        if name in REOPEN:
            self._close_player()  # opened again, with the new option, at the next isready or go

    def cmd_position(self, words: List[str]) -> None:
        grown = play_new_moves(self.board, self._position, words)
        if grown is not None:  # the last position and moves more: only those were played
            self._position = words if not grown else []
            if grown:
                self.say(f"info string {grown}")
            return
        try:
            self.board, problem = parse_position(words, bool(self.options["UCI_Chess960"]))
        except ValueError as error:
            self.say(f"info string {error}; position unchanged")
            return
        self._position = [] if problem else words
        if problem:
            self.say(f"info string {problem}")

    def cmd_d(self, _) -> None:
        for row in str(self.board).splitlines():
            self.say(row)
        self.say(f"Fen: {self.board.fen()}")

    def cmd_go(self, words: List[str]) -> None:
        if self.searching:
            if (self._go.infinite or self._go.ponder) and not self._go.answered.is_set():
                self.say("info string already searching (go infinite or ponder); send stop first")
                return
            self._go.join()  # as Stockfish does: the search under way finishes first
        try:
            numbers, infinite, ponder = parse_go(words)
        except ValueError as error:
            self.say(f"info string {error}")
            return
        if "perft" in numbers:  # answered before the next command is read, as Stockfish does
            for line in perft_lines(self.board.copy(), int(numbers["perft"])):
                self.say(line)
            return
        try:
            player = self.player()  # opened here, before the next command can change the options
        except Exception as error:  # still a bestmove: the GUI waits for one
            self.say(f"info string the player could not be opened: {type(error).__name__}: {error}")
            player = None
        self._go = GoSearch(self.say, player, self.board.copy(), numbers, infinite, ponder, dict(self.options))
        self._jobs.put(self._go)

    def cmd_ponderhit(self, _) -> None:
        if self._go is not None:
            self._go.ponderhit()

    def cmd_stop(self, _) -> None:
        self._finish_search()

    def cmd_bench(self, words: List[str]) -> None:
        """``bench [DEPTH]``: Stockfish's benchmark (:mod:`.bench`), answered before the next command."""
        from .bench import BENCH_DEPTH, run_bench

        self._finish_search()
        try:
            depth = int(words[0]) if words else BENCH_DEPTH
            run_bench(depth, say=self.say)
        except ValueError as error:
            self.say(f"info string bench [DEPTH]: {error}")

    def cmd_quit(self, _) -> bool:
        self._finish_search()
        self._close_player()
        with self._lock:
            self._log.open("")
        return False

    @property
    def searching(self) -> bool:
        return self._go is not None and self._go.alive

    def player(self):
        """The player of the current options, opened on first use (a book or folder that cannot be opened
        is reported and left out)."""
        if self._player is None:
            self._player = open_player(self.options, self._player_factory, self.say)
        return self._player

    def _finish_search(self) -> None:
        if self._go is not None:
            self._go.stop()
            self._go = None

    def _close_player(self) -> None:
        if self._player is not None:
            self._player.close()
            self._player = None


def load_search() -> Optional[Exception]:
    """Loads the compiled kernels while the GUI is still talking (a one-ply search loads every one the
    search calls), so that no move of a game is charged for it; what went wrong, or None."""
    try:
        from . import multipv, syzygy  # noqa: F401  (imported here, not on a move's time)
        from .search import Limits, Searcher

        Searcher(hash_mb=1).search(chess.Board(), Limits(depth=1))
    except Exception as error:  # reported once a search is asked for
        return error
    return None


class DebugLog:
    """UCI's ``Debug Log File``, as Stockfish's: every line in and out added to a file, after the milliseconds
    since the engine started and ``<<`` (in) or ``>>`` (out)."""

    def __init__(self) -> None:
        self._file: Optional[TextIO] = None
        self._started = time.perf_counter()

    def open(self, path: str) -> str:
        """Logs to ``path`` from now on (empty: no more); what went wrong, or ''."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if path:
            try:
                self._file = open(path, "a", encoding="utf-8")
            except OSError as error:
                return f"Debug Log File: {error}; no log written"
        return ""

    def add(self, direction: str, line: str) -> None:
        if self._file is not None:
            self._file.write(f"{1000 * (time.perf_counter() - self._started):10.1f} {direction} {line.rstrip()}\n")
            self._file.flush()


def open_player(options: Dict[str, object], factory: Optional[Callable[..., object]], say: Callable[[str], None]):
    """The player the UCI ``options`` describe, made by ``factory`` (default :class:`~.player.Player`), a
    level's when ``UCI_LimitStrength`` is on; what cannot be opened is said and left out."""
    from .player import DEFAULT, Player

    book = (options["BookFile"] or DEFAULT) if options["OwnBook"] else None
    tables = options["TablebasePath"] or DEFAULT
    extra = {"syzygy": str(options["SyzygyPath"])} if options["SyzygyPath"] else {}
    player = (factory or Player)(book=book, tablebase=tables, hash_mb=int(options["Hash"]),
                                 threads=int(options["Threads"]),
                                 tablebase_mb=int(options["TablebaseMemory"]),
                                 on_error=lambda message: say(f"info string {message}"), **extra)
    use_weights(player, str(options["WeightsFile"]))
    if options["UCI_LimitStrength"]:
        from .levels import LevelPlayer, level_for_elo

        player = LevelPlayer(player, level_for_elo(int(options["UCI_Elo"])))
    return player


def open_early(engine: UciEngine) -> Optional[str]:
    """Opens ``engine``'s player (its book, tables and hash, the hash's pages written once) at ``isready``,
    before a game's clock runs, instead of on the first move's time.  What went wrong, or None; the first
    ``go`` tries again."""
    try:
        searcher = engine.player().searcher
        searcher.tt.fill(0)  # the pages of a new hash are mapped on first write: now, not in the search
    except Exception as error:
        return f"the player could not be opened: {type(error).__name__}: {error}"
    return None


def run_uci(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, results=None, book=None,
            command: Optional[List[str]] = None) -> int:
    """Read commands from ``stdin`` until ``quit`` or its end; exit status 0.  ``results``, ``book``: the
    TablebasePath and BookFile options' starting values (default: the default folder and book).
    ``command``: words of one command run instead (``bench``), then quit."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = UciEngine(write)
    engine.options.update(TablebasePath=str(results or ""), BookFile=str(book or ""))
    lines = [" ".join(command)] if command else stdin
    for line in lines:
        if not engine.handle(line):
            break
    else:
        if command and engine._go is not None:
            engine._go.join()
        engine.cmd_quit([])
    return 0
