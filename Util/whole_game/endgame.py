"""Our own tables as the engine's endgame: at six pieces or fewer, the move the table says is best.

::

    from Util.whole_game.endgame import get_tablebase_move, open_endgame_tables

    tables = open_endgame_tables()                 # S_n_Results/ ($CHESSAI_RESULTS), or None if absent
    choice = get_tablebase_move(board, tables)     # None: no table for this position, search instead
    choice.move, choice.dtm, choice.mate           # dtm in plies (+: we mate), mate in moves as UCI says it

The choice is :meth:`Util.tablebase.Tablebase.probe_moves`'s first move:
in a won position the one that mates fastest (so, move after move, the mate
comes in exactly the position's depth to mate against any defence, and in
it against the best one), in a drawn position one that keeps the draw, in a
lost one the one that is mated latest.  The depth to mate is Gaviota's, that
of the thesis: it knows no fifty-move rule.

A position with castling rights, more than six pieces, or whose table (or a
table a capture or promotion from it leads to) is not in the folder is
answered with None: the search plays it.  A missing table is never computed
in the middle of a move (:func:`probe_tablebase_move` says which one is
missing and how to compute it).

Inside the search the same tables value the positions that captures and
promotions bring down to their material (:class:`SearchTables` loads them
whole under a memory budget; ``Util.whole_game.kernels.tables`` probes them).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple, Union

import chess
import numpy as np

from ..board.material import PIECE_ORDER, Material
from ..files.chessai import ChessAIFileError, load_table
from ..folders import RESULTS_DIR
from ..table.index_scheme import Layout
from ..tablebase import MissingTableError, PositionError, Tablebase, open_tablebase

__all__ = ["DEFAULT_SEARCH_TABLES_MB", "FOUR_PIECE_TABLES_MB", "MAX_PIECES", "SEARCH_MAX_PIECES", "SearchTables",
           "TablebaseMove", "get_tablebase_move", "mate_in_moves", "open_endgame_tables", "probe_tablebase_move",
           "reachable_materials"]

#: The most pieces (kings included) a table of ours holds: six (the compact tables, probed block by block).
MAX_PIECES = 6
#: The most pieces of a table the search holds whole (:class:`SearchTables`): the index of five pieces; a
#: six-piece table (7.6 GB for KRNvKNN) is only probed at the root.
SEARCH_MAX_PIECES = 5
#: Plies of the principal variation followed through the tables (each ply costs one probe per legal move).
PV_PLIES = 12
#: Megabytes that hold every table up to four pieces that a position of five or six leads into (a
#: five-piece table, 336 MB or more, needs more): what to give the search to probe those.
FOUR_PIECE_TABLES_MB = 256
#: Megabytes of tables the search holds by default: none. A match from six-man positions of real games
#: found no gain from the tables inside the search (docs/engine.md), and they cost memory and loading.
DEFAULT_SEARCH_TABLES_MB = 0
#: Tables are loaded for the search only from a root with at most this many pieces more than a table:
#: the captures a search of a game's time sees outside its quiescence (where tables are not probed);
#: from further away the loading (charged to the move's clock) would seldom pay.
SEARCH_CAPTURES = 2
#: Materials no side can win, which the search calls drawn before it would ask a table.
DRAWN = ("KBvK", "KNvK")


@dataclass(frozen=True)
class TablebaseMove:
    """The table's best move for a position and the position's value: ``dtm`` the signed depth to mate in
    plies (+n: the side to move mates in n; -n: it is mated in n; 0: a draw), ``wdl`` 1/0/-1, ``mate`` the
    same in moves as UCI's ``score mate`` gives it (None for a draw), ``pv`` best play from the position
    (the move first) as far as :data:`PV_PLIES` or the mate."""

    move: chess.Move
    san: str
    dtm: int
    wdl: int
    pv: List[chess.Move] = field(default_factory=list)

    @property
    def mate(self) -> Optional[int]:
        return mate_in_moves(self.dtm) if self.dtm else None


def mate_in_moves(dtm: int) -> int:
    """UCI's ``mate N`` of a signed depth to mate in plies: +n plies (n odd) is mate in (n + 1) / 2 moves,
    -n plies (n even) is being mated in n / 2 moves.  0 (a draw) gives 0."""
    return (dtm + 1) // 2 if dtm > 0 else -((-dtm) // 2)


def open_endgame_tables(directory: Union[str, os.PathLike, None] = None) -> Optional[Tablebase]:
    """The tables in ``directory``, or None when it is not given and the default folder
    (:data:`Util.folders.RESULTS_DIR`: S_n_Results/, or $CHESSAI_RESULTS) does not exist.  A folder named
    but missing raises FileNotFoundError saying how to fill it."""
    if directory is None:
        if not Path(RESULTS_DIR).is_dir():
            return None
        directory = RESULTS_DIR
    return open_tablebase(directory)


def in_table_range(board: chess.Board) -> bool:
    """Few enough pieces and no castling right: a position our tables may hold."""
    return chess.popcount(board.occupied) <= MAX_PIECES and not board.castling_rights


def get_tablebase_move(board: chess.Board, tablebase: Optional[Tablebase],
                       pv_plies: int = PV_PLIES) -> Optional[TablebaseMove]:
    """The table's best move for ``board`` with the position's value, or None when ``tablebase`` is None,
    the game is over, or no table of the folder holds the position (then the search plays)."""
    return probe_tablebase_move(board, tablebase, pv_plies)[0]


def probe_tablebase_move(board: chess.Board, tablebase: Optional[Tablebase], pv_plies: int = PV_PLIES
                         ) -> Tuple[Optional[TablebaseMove], Optional[MissingTableError]]:
    """(:func:`get_tablebase_move`'s answer, the :class:`MissingTableError` of the table the probe needed and
    the folder lacks, or None).  A table is never computed here, even by a folder made with
    ``compute_missing``: a five-piece table takes a minute, far too long for a move; the error names the
    command that computes it."""
    if tablebase is None or not in_table_range(board):
        return None, None
    tablebase = tablebase.without_computing()
    try:
        probes = tablebase.probe_moves(board)
    except MissingTableError as missing:
        return None, missing
    except PositionError:
        return None, None
    if not probes:
        return None, None
    best = probes[0]
    if best.checkmate:
        dtm = 1
    elif best.wdl < 0:
        dtm = -best.dtm + 1      # the opponent is mated in |dtm| plies after the move
    elif best.wdl == 0:
        dtm = 0
    else:
        dtm = -(best.dtm + 1)    # every move loses: we are mated one ply later than after the best one
    return TablebaseMove(best.move, best.san, dtm, (dtm > 0) - (dtm < 0),
                         _principal_variation(board, tablebase, best.move, pv_plies)), None


def _principal_variation(board: chess.Board, tablebase: Tablebase, first: chess.Move, plies: int) -> List[chess.Move]:
    """``first`` and the tables' best replies after it, up to ``plies`` moves or the end of the game."""
    line = [first]
    board = board.copy(stack=False)
    board.push(first)
    while len(line) < plies and not board.is_game_over():
        try:
            probes = tablebase.probe_moves(board)
        except (MissingTableError, PositionError):
            break
        line.append(probes[0].move)
        board.push(probes[0].move)
    return line


def reachable_materials(board: chess.Board, max_pieces: int = SEARCH_MAX_PIECES) -> Set[Material]:
    """The materials (as on the board: White's pieces, Black's) of at most ``max_pieces`` pieces, kings
    included, that captures and promotions can bring ``board`` to, its own included; bare kings left out."""
    letters = {colour: "".join(chess.piece_symbol(board.piece_type_at(s)).upper()
                               for s in chess.scan_forward(board.occupied_co[colour] & ~board.kings))
               for colour in chess.COLORS}
    start: Set[Tuple[str, str]] = set()
    pieces = [(True, c) for c in letters[chess.WHITE]] + [(False, c) for c in letters[chess.BLACK]]
    for k in range(1, max_pieces - 1):
        for kept in combinations(pieces, k):
            start.add(tuple("".join(sorted((c for white, c in kept if white == side), key=PIECE_ORDER.index))
                            for side in (True, False)))
    found, frontier = set(start), list(start)
    while frontier:  # promotions, then captures of what they made
        white, black = frontier.pop()
        for side, mine in enumerate((white, black)):
            for i, letter in enumerate(mine):
                rest = mine[:i] + mine[i + 1:]
                after = [rest] if letter != "P" else [rest] + [rest + q for q in "QRBN"]
                for new in after:
                    new = "".join(sorted(new, key=PIECE_ORDER.index))
                    pair = (new, black) if side == 0 else (white, new)
                    if pair not in found and (pair[0] or pair[1]):
                        found.add(pair)
                        frontier.append(pair)
    return {Material(white, black) for white, black in found}


class SearchTables:
    """The tables of ``directory`` that a search probes, each read whole (both sides to move, one byte an
    entry, as :class:`Util.table.dtm_table.DtmTable` holds them) and kept from search to search of a game,
    at most ``memory_mb`` megabytes in all: a table that would go beyond is not probed inside the search
    (the root's probe, :func:`get_tablebase_move`, still reads it block by block)."""

    def __init__(self, directory: Union[str, os.PathLike], memory_mb: int = FOUR_PIECE_TABLES_MB) -> None:
        if memory_mb < 0:
            raise ValueError(f"memory_mb must be 0 or more (0: no tables in the search), not {memory_mb}")
        self.directory = Path(directory)
        self.budget = memory_mb * 2 ** 20
        #: canonical material -> its bytes, the White-to-move array then the Black-to-move one
        self.loaded: Dict[Material, np.ndarray] = {}
        #: what went wrong reading a file, per material (the search goes on without it)
        self.problems: Dict[Material, str] = {}
        self.material_seen: Tuple[int, ...] = ()
        self.finished: Dict[Material, np.ndarray] = {}  # loaded in the background, not yet taken
        self.lock = threading.Lock()
        self.loader: Optional[threading.Thread] = None

    @property
    def used(self) -> int:
        """Bytes of tables held (and loaded in the background, not yet taken)."""
        with self.lock:
            return sum(values.nbytes for held in (self.loaded, self.finished) for values in held.values())

    def prepare(self, board: chess.Board, background: bool = False) -> bool:
        """Holds the tables ``board`` can reach (:func:`reachable_materials`) by at most
        :data:`SEARCH_CAPTURES` captures, loading those of more pieces first (the nearest) while they fit,
        and lets go of the others (captures and promotions cannot be undone: a game never comes back to
        them); True if what is held changed.  With ``background`` (a game on a clock) the tables are read
        by a thread while this search goes on without them; a later call takes them."""
        changed = self.take_finished()
        count = chess.popcount(board.occupied)
        pieces = tuple(len(board.pieces(kind, colour)) for colour in chess.COLORS for kind in chess.PIECE_TYPES)
        busy = self.loader is not None and self.loader.is_alive()
        if count > SEARCH_MAX_PIECES + SEARCH_CAPTURES or not self.budget or pieces == self.material_seen or busy:
            return changed
        self.material_seen = pieces  # the same material again (the next move of a quiet phase): nothing to do
        wanted = {m.canonical for m in reachable_materials(board)
                  if count - m.piece_count <= SEARCH_CAPTURES and m.canonical.name not in DRAWN}
        for material in set(self.loaded) - wanted:
            del self.loaded[material]
            changed = True
        missing = sorted(wanted - set(self.loaded), key=lambda m: (-m.piece_count, Layout(m).size, m.name))
        if background:
            self.loader = threading.Thread(target=self.load_all, args=(missing,), daemon=True)
            self.loader.start()
            return changed
        self.load_all(missing)
        return self.take_finished() or changed

    def take_finished(self) -> bool:
        """Moves the tables loaded since the last call into :attr:`loaded`; True if there were any."""
        with self.lock:
            taken = bool(self.finished)
            self.loaded.update(self.finished)
            self.finished.clear()
        return taken

    def load_all(self, materials: List[Material]) -> None:
        for material in materials:
            self.load(material)

    def load(self, material: Material) -> bool:
        """Loads the table of ``material`` (canonical) if its file is in the folder, can be read and fits
        in what is left of the budget; True if it did (it is held once :meth:`take_finished` takes it)."""
        path = self.directory / f"{material.name}.chessAI"
        if material in self.problems or not path.exists() or self.used + 2 * Layout(material).size > self.budget:
            return False
        try:
            table, _ = load_table(path)
        except (ChessAIFileError, OSError, ValueError) as error:
            self.problems[material] = str(error)
            return False
        with self.lock:
            self.finished[material] = np.concatenate((table.dtm_white, table.dtm_black))
        return True
