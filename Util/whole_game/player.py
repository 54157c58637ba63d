"""The whole-game AI as one call: the book's move, else the table's, else the search's.

::

    import chess
    from Util.whole_game.player import Player, best_move

    result = best_move(chess.Board(), movetime=1.0)      # opens the default book and tables, searches 1 s
    result.move, result.source                           # e2e4, "book"

    player = Player(book="my.bin", tablebase="S_n_Results")   # kept open for a game
    result = player.get_move(board, Limits(wtime=60, btime=60, winc=1, binc=1))
    result.score_cp, result.score_mate, result.depth, result.pv, result.nodes

As in the seed notebook's ``get_move``: while the position is in the opening
book, a move drawn from it by the book's weights; at five pieces or fewer
with the table in the results folder, the table's best move (the mate in
exactly the depth to mate, the draw kept, the longest defence; a table not in
the folder is never computed during a move: the search plays, and
``MoveResult.note`` names the table and the command that computes it); at up to
seven pieces with ``syzygy`` tables (:mod:`.syzygy`), their move that keeps the
result under the fifty-move rule; otherwise the
iterative-deepening search of :mod:`Util.whole_game.search` under the limits,
which values the positions that reach a table's material by the table
(``tablebase_mb`` megabytes of tables held in memory; 0: none).
The search is imported on first use: it loads compiled kernels.

``book`` and ``tablebase`` take :data:`DEFAULT` (the default book if one is
installed, the default results folder if it exists), None (none), a path (it
must exist) or an opened :class:`~Util.whole_game.opening_book.OpeningBook` /
:class:`~Util.tablebase.Tablebase`.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple, Union

import chess
import chess.engine

from ..tablebase import Tablebase
from .endgame import DEFAULT_SEARCH_TABLES_MB, SearchTables, open_endgame_tables, probe_tablebase_move
from .opening_book import BookMove, OpeningBook, find_default_book, import_opening_book
from .syzygy import open_syzygy, syzygy_root_move
from .wdl import exact_wdl

__all__ = ["DEFAULT", "DEFAULT_MOVETIME", "MoveResult", "Player", "best_move", "get_move"]

#: Use the default book / results folder if present (the arguments' default).
DEFAULT = "default"
#: Seconds a move may take when no limit is given.
DEFAULT_MOVETIME = 1.0
SOURCES = ("book", "tablebase", "syzygy", "search")


@dataclass(frozen=True)
class MoveResult:
    """A move and how it was found.  ``source``: "book", "tablebase" (ours), "syzygy" or "search".  Scores
    are from the side to move: ``score_cp`` in centipawns, or ``score_mate`` in moves (+n: it mates in n,
    -n: it is mated in n); both None for a book move; ``wdl`` the exact (wins, draws, losses) per mille
    when tables know them, else None.  ``depth``/``seldepth`` in plies (0 for a book move; for a table
    move, the depth to mate), ``nodes`` searched, ``time`` in seconds, ``pv`` from the move on,
    ``tbhits`` the positions of the search valued by a table; ``note`` what a person should know about
    the move, e.g. that the position's table is missing (with the command that computes it), else ""."""

    move: chess.Move
    source: str
    score_cp: Optional[int] = None
    score_mate: Optional[int] = None
    depth: int = 0
    seldepth: int = 0
    nodes: int = 0
    time: float = 0.0
    pv: List[chess.Move] = field(default_factory=list)
    book: Optional[BookMove] = None
    tbhits: int = 0
    note: str = ""
    wdl: Optional[Tuple[int, int, int]] = None

    @property
    def score(self) -> Optional[chess.engine.Score]:
        """The score as python-chess's :class:`chess.engine.Cp` or :class:`chess.engine.Mate`, None for a
        book move."""
        if self.score_mate is not None:
            return chess.engine.Mate(self.score_mate)
        if self.score_cp is not None:
            return chess.engine.Cp(self.score_cp)
        return None


def _opened_book(book: Any, rng) -> Optional[OpeningBook]:
    if book is None or book is False:
        return None
    if isinstance(book, OpeningBook):
        return book
    if book == DEFAULT:
        found = find_default_book()
        return import_opening_book(found, rng=rng) if found else None
    return import_opening_book(book, rng=rng)


def _opened_tables(tablebase: Any) -> Optional[Tablebase]:
    if tablebase is None or tablebase is False:
        return None
    if isinstance(tablebase, Tablebase):
        return tablebase
    return open_endgame_tables(None if tablebase == DEFAULT else tablebase)


class Player:
    """The engine for a game or a session: its book, tables and searcher (with its transposition table)
    kept between moves.  ``hash_mb``: the searcher's table size in MB, when it makes its own, and
    ``tablebase_mb`` the megabytes of tables it probes inside the search (0: none); ``syzygy``: folders
    of Syzygy tables (separated by ``:``) probed at the root; ``rng``: the book's random source (a seed
    or a :class:`random.Random`, for repeatable openings); ``on_error``: told of a book or folder that
    cannot be opened, which is then left out (without it, that raises); ``threads``: the threads of the
    searcher it makes (above 1: Lazy SMP, see :mod:`Util.whole_game.threads`)."""

    def __init__(self, *, book: Union[str, os.PathLike, OpeningBook, None] = DEFAULT,
                 tablebase: Union[str, os.PathLike, Tablebase, None] = DEFAULT, searcher: Any = None,
                 hash_mb: int = 64, tablebase_mb: int = DEFAULT_SEARCH_TABLES_MB, rng=None,
                 on_error: Optional[Callable[[str], None]] = None, syzygy: Optional[str] = None,
                 threads: int = 1) -> None:
        if tablebase_mb < 0:
            raise ValueError(f"tablebase_mb must be 0 or more (0: no tables inside the search), not {tablebase_mb}")
        if threads < 1:
            raise ValueError(f"threads must be 1 or more, not {threads}")
        self._own = []
        self.book = self._open(_opened_book, book, rng, on_error=on_error)
        self.tablebase = self._open(_opened_tables, tablebase, on_error=on_error)
        self.syzygy = self._open(open_syzygy, syzygy, on_error=on_error) if syzygy else None
        self.hash_mb = hash_mb
        self.tablebase_mb = tablebase_mb
        self.threads = threads
        self._searcher = searcher
        self._own_searcher = False

    def _open(self, opener, given, *args, on_error):
        """``opener(given, *args)``, kept to be closed if it opened something; with ``on_error``, a book or
        folder that cannot be opened is reported to it and left out (None) instead of raising."""
        try:
            opened = opener(given, *args)
        except (FileNotFoundError, ValueError) as error:
            if on_error is None:
                raise
            on_error(f"{error}; playing without it")
            return None
        if opened is not None and opened is not given:
            self._own.append(opened)
        return opened

    @property
    def searcher(self):
        """The search (:class:`Util.whole_game.search.Searcher`), made on first use, with the tables of the
        results folder to probe inside it."""
        if self._searcher is None:
            from .search import Searcher

            self._searcher = Searcher(hash_mb=self.hash_mb, threads=self.threads)
            self._own_searcher = True
            if self.tablebase is not None and self.tablebase_mb > 0:
                self._searcher.set_tables(SearchTables(self.tablebase.directory, self.tablebase_mb))
        return self._searcher

    def new_game(self) -> None:
        """Forget what the searcher learnt of the last game (its transposition table)."""
        if self._searcher is not None:
            self._searcher.new_game()

    def get_move(self, board: chess.Board, limits=None, *, on_info: Optional[Callable] = None,
                 stop: Optional[threading.Event] = None, use_book: bool = True, clock=None) -> MoveResult:
        """The move to play in ``board`` (not changed): see the module's docstring.  ``limits`` a
        :class:`Util.whole_game.search.Limits` (default: :data:`DEFAULT_MOVETIME` seconds); ``on_info`` is
        called with each :class:`~Util.whole_game.search.SearchInfo` the search reports; ``stop`` ends
        the search early (its best move so far is played); ``clock`` a
        :class:`~Util.whole_game.timeman.SearchClock` the caller changes meanwhile (pondering).
        ``use_book=False`` skips the book (analysis).

        ValueError when the game is over (no legal move) or the position is not valid."""
        status = board.status()
        if status != chess.STATUS_VALID:
            raise ValueError(f"{board.fen()}: not a valid position ({status!r})")
        if not any(board.generate_legal_moves()):
            raise ValueError(f"{board.fen()}: no legal move, the game is over "
                             f"({'checkmate' if board.is_check() else 'stalemate'})")
        if use_book and self.book is not None:
            choice = self.book.get_opening_move(board)
            if choice is not None:
                return MoveResult(choice.move, "book", pv=[choice.move], book=choice)
        table_move, missing = probe_tablebase_move(board, self.tablebase)
        if table_move is not None:
            return MoveResult(table_move.move, "tablebase", score_cp=0 if table_move.dtm == 0 else None,
                              score_mate=table_move.mate, depth=abs(table_move.dtm), seldepth=abs(table_move.dtm),
                              pv=table_move.pv, wdl=exact_wdl(table_move.dtm))
        choice = syzygy_root_move(board, self.syzygy)
        if choice is not None:
            return MoveResult(choice.move, "syzygy", score_cp=choice.score_cp, depth=1, seldepth=len(choice.pv),
                              pv=choice.pv, tbhits=choice.probes,
                              wdl=exact_wdl(choice.wdl if abs(choice.wdl) == 2 else 0))  # the rule draws 1 and -1
        if limits is None:
            from .search import Limits

            limits = Limits(movetime=DEFAULT_MOVETIME)
        info = self.searcher.search(board.copy(), limits, on_info=on_info, stop=stop, clock=clock)
        move = info.pv[0] if info.pv else None
        if move is None or move not in board.legal_moves:
            raise RuntimeError(f"{board.fen()}: the search returned no legal move ({info})")
        return MoveResult(move, "search", info.score_cp, info.score_mate, info.depth, info.seldepth, info.nodes,
                          info.time, list(info.pv), tbhits=info.tbhits, note=missing_table_note(missing))

    def close(self) -> None:
        """Close the book and tables this player opened itself, and end its own searcher's helper threads."""
        for opened in self._own:
            opened.close()
        self._own.clear()
        if self._own_searcher:
            self._searcher.close()

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def missing_table_note(missing) -> str:
    """What a person is told when the table of a position was missing (``missing``, a
    :class:`~Util.tablebase.MissingTableError`, or None: nothing)."""
    return f"{missing}; the search played instead" if missing is not None else ""


def best_move(board: chess.Board, limits=None, *, book=DEFAULT, tablebase=DEFAULT, searcher=None,
              movetime: Optional[float] = None, rng=None) -> MoveResult:
    """One move for ``board`` by a :class:`Player` made for it (book and tables opened and closed here):
    ``limits`` a :class:`~Util.whole_game.search.Limits`, or ``movetime`` seconds."""
    if limits is None and movetime is not None:
        from .search import Limits

        limits = Limits(movetime=movetime)
    with Player(book=book, tablebase=tablebase, searcher=searcher, rng=rng) as player:
        return player.get_move(board, limits)


def get_move(board: chess.Board, limits=None, **options) -> chess.Move:
    """The seed's ``get_move``: just the move of :func:`best_move`."""
    return best_move(board, limits, **options).move
