"""One ``go`` of the UCI engine: its search (run by the engine's search thread), the ``info`` lines, ponder
and ``ponderhit``, and the ``bestmove``.

Every ``go`` ends with an ``info`` line that has a score, depth, nodes, nps, time and pv for the move
played, then ``bestmove`` (with ``ponder`` and the expected reply when the line has one), whatever the time
given: the search always completes depth 1, a book move is scored by a one-ply search after it, a table's
move carries the table's value.  ``go infinite`` and ``go ponder`` answer only after ``stop`` (or
``ponderhit``), even when the answer is known at once.  ``go ponder``: the position given already holds
the move the engine expects from its opponent; the search runs without a time limit on the opponent's
time, and ``ponderhit`` (the opponent played it) gives it the clock's budget from that moment on
(:class:`~.timeman.SearchClock`), the search going on where it is.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

import chess

from .timeman import Budget, Limits, SearchClock, time_budget
from .wdl import wdl_of_score

__all__ = ["GO_NUMBERS", "GoSearch", "format_info", "limits_from_go", "parse_go"]

GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "perft", "mate")
MILLISECONDS = ("wtime", "btime", "winc", "binc", "movetime")


def parse_go(words: List[str]) -> Tuple[Dict[str, float], bool, bool]:
    """The numbers of a ``go`` command (as given: milliseconds for times), whether it is infinite, and
    whether it ponders.  ValueError naming a parameter that is unknown or lacks its number."""
    numbers: Dict[str, float] = {}
    infinite = ponder = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "infinite":
            infinite = True
        elif word == "ponder":
            ponder = True
        elif word == "searchmoves":
            break  # not supported: all moves are searched
        elif word in GO_NUMBERS and i + 1 < len(words):
            try:
                numbers[word] = float(words[i + 1])
            except ValueError:
                raise ValueError(f"go {word} needs a number, not '{words[i + 1]}'") from None
            i += 1
        else:
            raise ValueError(f"go: unknown or incomplete parameter '{word}'")
        i += 1
    return numbers, infinite, ponder


def limits_from_go(numbers: Dict[str, float], infinite: bool = False) -> Limits:
    """The search's :class:`~.timeman.Limits` (seconds) of ``go``'s numbers (milliseconds), as given: the
    move overhead is kept back by :func:`~.timeman.time_budget`, once."""
    given: Dict[str, object] = {}
    for key, value in numbers.items():
        if key in MILLISECONDS:
            given[key] = max(value, 0.0) / 1000
        elif key in ("depth", "nodes", "movestogo"):
            given[key] = int(value)
    return Limits(infinite=infinite, **given)


def format_info(info, wdl: Optional[Tuple[int, int, int]] = None, multipv: Optional[int] = None) -> str:
    """One ``info`` line of a search's result (``depth``, ``seldepth``, ``score_cp`` or ``score_mate``,
    ``nodes``, ``time`` in seconds, ``pv``, ``tbhits``), with ``wdl`` per mille and the line's number."""
    milliseconds = max(0, int(info.time * 1000))
    score = f"mate {info.score_mate}" if info.score_mate is not None else f"cp {info.score_cp or 0}"
    nps = int(info.nodes / info.time) if info.time > 0 else 0
    pv = " ".join(move.uci() for move in info.pv)
    return (f"info depth {info.depth} seldepth {info.seldepth}" + (f" multipv {multipv}" if multipv else "")
            + f" score {score}" + (" wdl {} {} {}".format(*wdl) if wdl else "")
            + f" nodes {info.nodes} nps {nps} tbhits {getattr(info, 'tbhits', 0)} time {milliseconds}"
            + (f" pv {pv}" if pv else ""))


class GoSearch:
    """One ``go``: :meth:`run` in the engine's search thread (which lives as long as the engine, so that
    no thread is started on a move's time), :meth:`ponderhit` or :meth:`stop` from the protocol's thread.
    ``say`` writes a line; ``options`` are the engine's at the ``go``."""

    def __init__(self, say: Callable[[str], None], player, board: chess.Board, numbers: Dict[str, float],
                 infinite: bool, ponder: bool, options: Dict[str, object]) -> None:
        self._say, self.player, self.board, self.options = say, player, board, options
        self.infinite, self.ponder = infinite, ponder
        self.limits = limits_from_go(numbers, infinite)
        self.overhead = float(options["Move Overhead"]) / 1000
        self.stopped, self.released = threading.Event(), threading.Event()
        self.answered, self.finished = threading.Event(), threading.Event()
        budget = Budget(None, None) if ponder or infinite else time_budget(self.limits, board.turn, self.overhead)
        self.clock = SearchClock(budget, pondering=ponder)
        self.last_info: Optional[Tuple[str, Optional[chess.Move]]] = None

    @property
    def alive(self) -> bool:
        return not self.finished.is_set()

    def ponderhit(self) -> None:
        """The opponent played the move pondered on: from now on the clock counts."""
        if self.ponder and self.clock.pondering:
            self.clock.start(time_budget(self.limits, self.board.turn, self.overhead))
        self.released.set()

    def stop(self) -> None:
        """Ends the search (its best move so far is played) and waits for ``bestmove``."""
        self.stopped.set()
        self.released.set()
        self.finished.wait()

    def join(self) -> None:
        self.finished.wait()

    # -- in the search's thread ---------------------------------------------------------------------
    def say_info(self, info, multipv: Optional[int] = None) -> None:
        wdl = getattr(info, "wdl", None) or wdl_of_score(info.score_cp, info.score_mate)
        line = format_info(info, wdl if self.options["UCI_ShowWDL"] else None, multipv)
        if multipv in (None, 1):
            self.last_info = (line, info.pv[0] if info.pv else None)
        self._say(line)

    def run(self) -> None:
        """The search, its lines and ``bestmove``; :attr:`finished` once done, whatever happened."""
        try:
            self._run()
        finally:
            self.finished.set()

    def _run(self) -> None:
        legal = list(self.board.legal_moves)
        if not legal:
            self._say(f"info string no legal move: the game is over "
                      f"({'checkmate' if self.board.is_check() else 'stalemate'})")
            self._hold()
            self._answer("bestmove (none)")
            return
        result = None
        try:
            result = self._think()
        except Exception as error:  # a bug of ours must not lose the game: say it, play a legal move
            self._say(f"info string search failed ({type(error).__name__}: {error}); playing {legal[0].uci()}")
        if result is None:
            from .player import MoveResult

            result = MoveResult(legal[0], "search", score_cp=0, depth=1, seldepth=1, pv=[legal[0]])
        if self.last_info is None or self.last_info[1] != result.move:
            self.say_info(result)  # the move played has its own scored line
        self._hold()
        self._answer(f"bestmove {result.move.uci()}" + self._ponder_move(result))

    def _answer(self, line: str) -> None:
        """The last line of the ``go``; the GUI may send the next one at once, which then waits for this
        thread's end instead of being refused as a second search."""
        self.answered.set()
        self._say(line)

    def _hold(self) -> None:
        """``go infinite`` and ``go ponder`` answer only after ``stop`` or ``ponderhit``."""
        if self.infinite or self.ponder:
            self.released.wait()

    def _ponder_move(self, result) -> str:
        """`` ponder MOVE`` when the line goes on with a legal reply, else nothing."""
        if len(result.pv) < 2:
            return ""
        after = self.board.copy(stack=False)
        after.push(result.move)
        return f" ponder {result.pv[1].uci()}" if after.is_legal(result.pv[1]) else ""

    def _think(self):
        from .player import Player

        lines = int(self.options["MultiPV"])
        self.player.searcher.move_overhead = self.overhead
        use_book = bool(self.options["OwnBook"]) and not self.infinite
        if lines > 1 and not self.options["UCI_LimitStrength"]:
            return self._lines(lines)
        if isinstance(self.player, Player):
            result = self.player.get_move(self.board, self.limits, on_info=self.say_info, stop=self.stopped,
                                          use_book=use_book, clock=self.clock)
        else:  # a level thinks only on its own clock: it waits for ponderhit, then searches
            self._hold()
            if self.stopped.is_set():
                return None
            result = self.player.get_move(self.board, self.limits, on_info=self.say_info, stop=self.stopped,
                                          use_book=use_book)
        if result.source == "book":
            self._say(f"info string book move {result.move.uci()} (weight {result.book.weight} of "
                      f"{result.book.total_weight}, {result.book.alternatives} book moves)")
            result = self._scored_book_move(result)
        elif result.source in ("tablebase", "syzygy"):
            self._say(f"info string {'tablebase' if result.source == 'tablebase' else 'Syzygy'} move "
                      f"{result.move.uci()}")
        if result.note:
            self._say(f"info string {result.note}")
        return result

    def _scored_book_move(self, result):
        """The book's move with the score of a one-ply search after it."""
        from dataclasses import replace

        started = time.perf_counter()
        after = self.board.copy()
        after.push(result.move)
        if after.is_game_over():
            return replace(result, score_cp=0, depth=1, seldepth=1)
        info = self.player.searcher.search(after, Limits(depth=1))
        cp = None if info.score_cp is None else -info.score_cp
        mate = None if info.score_mate is None else -info.score_mate
        return replace(result, score_cp=cp, score_mate=mate, depth=1, seldepth=info.seldepth + 1, nodes=info.nodes,
                       time=time.perf_counter() - started, pv=[result.move] + list(info.pv))

    def _lines(self, lines: int):
        """``MultiPV`` above 1: every root move scored (:mod:`.multipv`), the best ``lines`` shown each round."""
        from .multipv import search_lines
        from .player import MoveResult

        started = time.perf_counter()
        searcher = self.player.searcher

        def show(ranked, depth: int, nodes: int) -> None:
            elapsed = time.perf_counter() - started
            for number, line in enumerate(ranked[:lines], 1):
                self.say_info(MoveResult(line.move, "search", line.cp, line.mate, depth, depth, nodes, elapsed,
                                         list(line.pv)), multipv=number)

        ranked, depth, nodes = search_lines(self.board, searcher, self.limits, clock=self.clock, stop=self.stopped,
                                            on_round=show)
        best = ranked[0]
        return MoveResult(best.move, "search", best.cp, best.mate, depth, depth, nodes,
                          time.perf_counter() - started, list(best.pv))
