"""``python -m Util uci``: the engine behind the Universal Chess Interface, for GUIs, lichess-bot and
python-chess's :mod:`chess.engine`.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption name N [value V]``,
``position startpos|fen FEN [moves m1 m2 ...]``, ``go`` with ``wtime btime winc
binc movestogo movetime depth nodes infinite`` (times in milliseconds), ``go
perft N`` (Stockfish's: one line per root move, a blank line, ``Nodes
searched: N``), ``stop``, ``quit``, and ``d`` (the board, as Stockfish prints it).
The search runs in a thread of its own so that ``stop``, ``isready`` and
``quit`` are answered while it thinks (``go perft`` is answered before the
next command is read).  Input that is wrong (an unknown
command, an illegal move, a FEN that is not one) is answered with ``info
string`` saying what was wrong; the engine never stops on it.

Options: ``Hash`` (MB), ``OwnBook``, ``BookFile`` (a Polyglot book; empty: the
default one), ``TablebasePath`` (a folder of ``.chessAI`` tables; empty: the
default results folder), ``TablebaseMemory`` (MB of those tables held in
memory and probed inside the search; 0: the tables only at the root),
``Move Overhead`` (ms kept back from every clock for the GUI and the pipe),
``WeightsFile`` (the evaluation's weights as JSON, as ``python -m
Util.whole_game_lab.tuning --out FILE`` writes them; empty: the default weights).
The compiled search is loaded in the background from
the start, so that ``uciok`` comes at once and ``readyok`` once it is loaded.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable, Dict, List, Optional, TextIO, Tuple

import chess

from .. import folders
from .endgame import DEFAULT_SEARCH_TABLES_MB
from .levels import LEVELS
from .opening_book import find_default_book

__all__ = ["ENGINE_NAME", "UciEngine", "format_info", "limits_from_go", "option_lines", "parse_go", "parse_position", "parse_setoption", "perft_lines",
           "run_uci"]

ENGINE_NAME = "chessAI"
AUTHOR = "the chessAI developers"
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "perft", "mate")
MILLISECONDS = ("wtime", "btime", "winc", "binc", "movetime")
#: UCI_Elo's range: the labels of the weakest and the strongest level (Util.whole_game.levels.LEVELS).
ELO_RANGE = (LEVELS[0].elo, LEVELS[-1].elo)
SPIN_RANGES = {"Hash": (1, 4096), "TablebaseMemory": (0, 4096), "Move Overhead": (0, 5000), "UCI_Elo": ELO_RANGE}
DEFAULT_OPTIONS: Dict[str, object] = {"Hash": 64, "OwnBook": True, "BookFile": "", "TablebasePath": "",
                                      "TablebaseMemory": DEFAULT_SEARCH_TABLES_MB, "Move Overhead": 30,
                                      "UCI_LimitStrength": False, "UCI_Elo": ELO_RANGE[1], "WeightsFile": ""}


def format_info(info) -> str:
    """One ``info`` line of a :class:`~Util.whole_game.search.SearchInfo` (``time`` in seconds)."""
    milliseconds = max(0, int(info.time * 1000))
    score = f"mate {info.score_mate}" if info.score_mate is not None else f"cp {info.score_cp or 0}"
    nps = int(info.nodes / info.time) if info.time > 0 else 0
    pv = " ".join(move.uci() for move in info.pv)
    return (f"info depth {info.depth} seldepth {info.seldepth} score {score} nodes {info.nodes} nps {nps} "
            f"tbhits {info.tbhits} time {milliseconds}" + (f" pv {pv}" if pv else ""))


def option_lines(book, tables) -> List[str]:
    """The ``option`` lines of the answer to ``uci``, with the default book and tables folder."""
    return ["option name Hash type spin default 64 min 1 max 4096",
            "option name OwnBook type check default true",
            f"option name BookFile type string default {book or '<empty>'}",
            f"option name TablebasePath type string default {tables}",
            f"option name TablebaseMemory type spin default {DEFAULT_SEARCH_TABLES_MB} min 0 max 4096",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name UCI_LimitStrength type check default false",
            f"option name UCI_Elo type spin default {ELO_RANGE[1]} min {ELO_RANGE[0]} max {ELO_RANGE[1]}",
            "option name WeightsFile type string default <empty>"]


def parse_setoption(options: Dict[str, object], words: List[str]) -> Tuple[str, object]:
    """``(name, value)`` of ``setoption name NAME [value VALUE]`` for one of ``options`` (names matched
    without regard to case; numbers clamped to the option's range; a ``WeightsFile`` read to check it).
    ValueError saying what is wrong."""
    text = " ".join(words)
    if not text.startswith("name "):
        raise ValueError("setoption needs: setoption name NAME [value VALUE]")
    name, _, value = text[5:].partition(" value ")
    known = {key.lower(): key for key in options}
    if name.strip().lower() not in known:
        raise ValueError(f"unknown option '{name.strip()}'; the options are {', '.join(options)}")
    name, value = known[name.strip().lower()], value.strip()
    if isinstance(options[name], bool):
        if value.lower() not in ("true", "false"):
            raise ValueError(f"option {name} takes true or false, not '{value}'")
        return name, value.lower() == "true"
    if isinstance(options[name], int):
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"option {name} takes a whole number, not '{value}'") from None
        low, high = SPIN_RANGES[name]
        return name, min(max(number, low), high)
    value = "" if value in ("", "<empty>") else value
    if name == "WeightsFile" and value:
        from .evaluation import read_weights

        try:
            read_weights(value)  # a file that is not weights is refused now, not at the next go
        except (OSError, ValueError) as error:
            raise ValueError(f"{error}; WeightsFile unchanged") from None
    return name, value


def use_weights(player, path: str) -> None:
    """Has ``player``'s search evaluate with the weights of the JSON file ``path`` (empty: leaves it)."""
    if path:
        from .evaluation import read_weights

        player.searcher.set_weights(read_weights(path))


def parse_position(words: List[str]) -> Tuple[chess.Board, str]:
    """The board of ``position startpos|fen FEN [moves ...]`` and, if a move was illegal, what was wrong
    (the board is then the position before that move, as Stockfish keeps it).  ValueError when the start
    position is not given or not a legal FEN."""
    if not words or words[0] not in ("startpos", "fen"):
        raise ValueError("position needs: position startpos|fen FEN [moves m1 m2 ...]")
    moves_at = words.index("moves") if "moves" in words else len(words)
    if words[0] == "startpos":
        board = chess.Board()
    else:
        fen = " ".join(words[1:moves_at])
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"not a FEN '{fen}' ({error})") from None
        if board.status() != chess.STATUS_VALID:
            raise ValueError(f"FEN '{fen}' is not a legal position ({board.status()!r})")
    for text in words[moves_at + 1:]:
        try:
            board.push(board.parse_uci(text))
        except ValueError:
            return board, f"illegal move '{text}' in {board.fen()}; position set up to the move before"
    return board, ""


def parse_go(words: List[str]) -> Tuple[Dict[str, float], bool]:
    """The numbers of a ``go`` command (as given: milliseconds for times) and whether it is infinite.
    ValueError naming a parameter that is unknown or lacks its number."""
    numbers: Dict[str, float] = {}
    infinite = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "infinite":
            infinite = True
        elif word == "searchmoves":
            break  # not supported: all moves are searched
        elif word in GO_NUMBERS and i + 1 < len(words):
            try:
                numbers[word] = float(words[i + 1])
            except ValueError:
                raise ValueError(f"go {word} needs a number, not '{words[i + 1]}'") from None
            i += 1
        elif word != "ponder":
            raise ValueError(f"go: unknown or incomplete parameter '{word}'")
        i += 1
    return numbers, infinite


def limits_from_go(numbers: Dict[str, float], infinite: bool, overhead: float):
    """The search's :class:`~Util.whole_game.search.Limits` (seconds) of ``go``'s numbers (milliseconds),
    ``overhead`` seconds kept back from the clocks and the move time (at most three quarters of them)."""
    from .search import Limits

    given: Dict[str, object] = {}
    for key, value in numbers.items():
        if key in MILLISECONDS:
            value = value / 1000
            if key in ("wtime", "btime", "movetime"):
                value = max(value - overhead, value / 4)
            given[key] = value
        elif key in ("depth", "nodes", "movestogo"):
            given[key] = int(value)
    return Limits(infinite=infinite, **given)


def perft_lines(board: chess.Board, depth: int) -> List[str]:
    """Stockfish's ``go perft`` answer: ``move: leaves`` per root move, a blank line, ``Nodes searched: N``."""
    if depth < 1:
        return ["info string go perft needs a depth of 1 or more"]
    from .perft import divide

    start = time.perf_counter()
    counts = divide(board, depth)
    lines = [f"{move.uci()}: {count}" for move, count in counts] + ["", f"Nodes searched: {sum(c for _, c in counts)}"]
    seconds = time.perf_counter() - start
    return lines + [f"info string perft {depth}: {sum(c for _, c in counts)} leaves in {seconds:.3f} s"]


class UciEngine:
    """The protocol's state: options, position, the search thread.  ``write`` receives each output line."""

    def __init__(self, write: Callable[[str], None], player_factory: Optional[Callable[..., object]] = None) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._player_factory = player_factory
        self._player = None
        self.board = chess.Board()
        self.options: Dict[str, object] = dict(DEFAULT_OPTIONS)
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._infinite = False
        self._loaded = threading.Event()
        self._load_error: Optional[Exception] = None
        self._loader = threading.Thread(target=self._load, daemon=True)
        self._loader.start()

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def _load(self) -> None:
        """Load the search's compiled kernels while the GUI is still talking (a one-ply search loads or
        compiles every one of them), so that the first move of a game is not charged for it."""
        try:
            from .search import Limits, Searcher

            Searcher(hash_mb=1).search(chess.Board(), Limits(depth=1))
        except Exception as error:  # reported once a search is asked for
            self._load_error = error
        finally:
            self._loaded.set()

    # -- the commands ----------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Answer one input line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None:
            self.say(f"info string unknown command '{command}'; this engine knows uci, isready, ucinewgame, "
                     f"setoption, position, go, stop, quit, d")
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
        if self._thread is None or not self._thread.is_alive():
            self._loaded.wait()
            if self._load_error is not None:
                self.say(f"info string the search could not be loaded: {self._load_error}")
            elif (problem := open_early(self)) is not None:
                self.say(f"info string {problem}")
        self.say("readyok")

    def cmd_debug(self, _) -> None:
        pass

    def cmd_ponderhit(self, _) -> None:
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
        self.options[name] = value
        if name != "Move Overhead":
            self._close_player()  # opened again, with the new option, at the next go

    def cmd_position(self, words: List[str]) -> None:
        try:
            self.board, problem = parse_position(words)
        except ValueError as error:
            self.say(f"info string {error}; position unchanged")
            return
        if problem:
            self.say(f"info string {problem}")

    def cmd_d(self, _) -> None:
        for row in str(self.board).splitlines():
            self.say(row)
        self.say(f"Fen: {self.board.fen()}")

    def cmd_go(self, words: List[str]) -> None:
        if self._thread is not None and self._thread.is_alive():
            if self._infinite:
                self.say("info string already searching (go infinite); send stop first")
                return
            self._thread.join()  # as Stockfish does: the search under way finishes first
        try:
            numbers, infinite = parse_go(words)
        except ValueError as error:
            self.say(f"info string {error}")
            return
        if "perft" in numbers:  # answered before the next command is read, as Stockfish does
            for line in perft_lines(self.board.copy(), int(numbers["perft"])):
                self.say(line)
            return
        self._stop.clear()
        self._infinite = infinite
        self.player()  # opened here, before the next command can change the options
        self._thread = threading.Thread(target=self._search, args=(self.board.copy(), numbers, infinite), daemon=True)
        self._thread.start()

    def cmd_stop(self, _) -> None:
        self._finish_search()

    def cmd_quit(self, _) -> bool:
        self._finish_search()
        self._close_player()
        return False

    # -- the work, in the search thread -----------------------------------------------------------
    def _search(self, board: chess.Board, numbers: Dict[str, float], infinite: bool) -> None:
        legal = list(board.legal_moves)
        if not legal:
            self.say(f"info string no legal move: the game is over "
                     f"({'checkmate' if board.is_check() else 'stalemate'})")
            self._wait_if_infinite(infinite)
            self.say("bestmove (none)")
            return
        move = legal[0]
        try:
            player = self.player()
            result = player.get_move(board, limits_from_go(numbers, infinite, float(self.options["Move Overhead"]) / 1000), on_info=lambda i: self.say(format_info(i)),
                                     stop=self._stop, use_book=bool(self.options["OwnBook"]) and not infinite)
            move = result.move
            if result.source == "book":
                self.say(f"info string book move {move.uci()} (weight {result.book.weight} of "
                         f"{result.book.total_weight}, {result.book.alternatives} book moves)")
            elif result.source == "tablebase":
                self.say(format_info(result))
                self.say(f"info string tablebase move {move.uci()}")
            if result.note:
                self.say(f"info string {result.note}")
        except Exception as error:
            self.say(f"info string search failed ({type(error).__name__}: {error}); playing {move.uci()}")
        self._wait_if_infinite(infinite)
        self.say(f"bestmove {move.uci()}")

    def _wait_if_infinite(self, infinite: bool) -> None:
        """``go infinite`` answers only after ``stop``, even when the answer is known at once."""
        if infinite:
            self._stop.wait()

    # -- helpers ----------------------------------------------------------------------------------
    def player(self):
        """The player of the current options, opened on first use (a book or folder that cannot be opened
        is reported and left out)."""
        if self._player is None:
            from .player import DEFAULT, Player

            factory = self._player_factory or Player
            book = (self.options["BookFile"] or DEFAULT) if self.options["OwnBook"] else None
            tables = self.options["TablebasePath"] or DEFAULT
            self._player = factory(book=book, tablebase=tables, hash_mb=int(self.options["Hash"]),
                                   tablebase_mb=int(self.options["TablebaseMemory"]),
                                   on_error=lambda message: self.say(f"info string {message}"))
            use_weights(self._player, str(self.options["WeightsFile"]))
            if self.options["UCI_LimitStrength"]:
                from .levels import LevelPlayer, level_for_elo

                self._player = LevelPlayer(self._player, level_for_elo(int(self.options["UCI_Elo"])))
        return self._player

    def _finish_search(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def _close_player(self) -> None:
        if self._player is not None:
            self._player.close()
            self._player = None


def open_early(engine: UciEngine) -> Optional[str]:
    """Opens ``engine``'s player (its book, tables and hash) at ``isready``, before a game's clock runs,
    instead of on the first move's time.  What went wrong, or None; the first ``go`` tries again."""
    try:
        engine.player()
    except Exception as error:
        return f"the player could not be opened: {type(error).__name__}: {error}"
    return None


def run_uci(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, results=None, book=None) -> int:
    """Read commands from ``stdin`` until ``quit`` or its end; exit status 0.  ``results``, ``book``: the
    TablebasePath and BookFile options' starting values (default: the default folder and book)."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = UciEngine(write)
    engine.options.update(TablebasePath=str(results or ""), BookFile=str(book or ""))
    for line in stdin:
        if not engine.handle(line):
            break
    else:
        engine.cmd_quit([])
    return 0
