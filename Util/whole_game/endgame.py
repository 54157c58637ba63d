"""Our own tables as the engine's endgame: at five pieces or fewer, the move the table says is best.

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

A position with castling rights, more than five pieces, or whose table (or a
table a capture or promotion from it leads to) is not in the folder is
answered with None: the search plays it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Union

import chess

from ..folders import RESULTS_DIR
from ..tablebase import MissingTableError, PositionError, Tablebase, open_tablebase

__all__ = ["MAX_PIECES", "TablebaseMove", "get_tablebase_move", "mate_in_moves", "open_endgame_tables"]

#: The most pieces (kings included) a table of ours holds.
MAX_PIECES = 5
#: Plies of the principal variation followed through the tables (each ply costs one probe per legal move).
PV_PLIES = 12


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
    if tablebase is None or not in_table_range(board):
        return None
    try:
        probes = tablebase.probe_moves(board)
    except (MissingTableError, PositionError):
        return None
    if not probes:
        return None
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
                         _principal_variation(board, tablebase, best.move, pv_plies))


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
