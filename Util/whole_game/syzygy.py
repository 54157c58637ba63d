"""Syzygy tables at the root: with up to seven pieces, the move that keeps the position's result under the
fifty-move rule, through python-chess's prober (:mod:`chess.syzygy`; UCI's ``SyzygyPath``).

::

    from Util.whole_game.syzygy import open_syzygy, syzygy_root_move

    tables = open_syzygy("/path/to/syzygy")          # folders separated by ':' or ';'
    choice = syzygy_root_move(board, tables)         # None: no table holds the position, search it
    choice.move, choice.wdl, choice.dtz, choice.pv

Every legal move is probed after it is made: its WDL (win, cursed win, draw, blessed loss, loss, from the
side to move's view) and its DTZ (plies to the next capture or pawn move).  The choice keeps the best
result: a win the fifty-move rule lets through (a capture or pawn move first, as it starts the count
again, then the fewest plies to the next), then a win the rule turns into a draw, a draw, and of losses the
longest.  Playing the least DTZ move after move wins every won position (python-chess's docs:
"minmaxing the DTZ50'' values guarantees winning a won position"); DTZ can be one ply off, so a win at
exactly a hundred plies may be lost to the rule.  Where our own tables (:mod:`.endgame`) hold the position,
their depth to mate is played instead (the player asks them first).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

import chess
import chess.syzygy

__all__ = ["MAX_SYZYGY_PIECES", "TB_WIN", "SyzygyMove", "open_syzygy", "syzygy_root_move"]

#: The most pieces (kings included) of a Syzygy table.
MAX_SYZYGY_PIECES = 7
#: The score (centipawns) of a table win without a distance to mate: below every mate score, above
#: every evaluation; a win nearer its next capture or pawn move scores higher (``TB_WIN - plies``).
TB_WIN = 20000
#: Plies of the principal variation followed through the tables (each ply probes every legal move twice:
#: tens of milliseconds in Python).
PV_PLIES = 2
#: The fifty-move rule in plies.
FIFTY_MOVES = 100


@dataclass(frozen=True)
class SyzygyMove:
    """The tables' move: ``wdl`` from the side to move's view (2 win, 1 win the fifty-move rule makes a
    draw, 0 draw, -1, -2 the same for a loss), ``dtz`` plies to the next capture or pawn move (signed as
    ``wdl``; 0 for a draw), ``probes`` the positions probed, ``pv`` the move and the tables' replies."""
    move: chess.Move
    wdl: int
    dtz: int
    probes: int
    pv: List[chess.Move] = field(default_factory=list)

    @property
    def score_cp(self) -> int:
        """:data:`TB_WIN` less the plies to the next capture or pawn move for a win, its negative for a loss,
        0 for a draw (a cursed win or a blessed loss included: the rule draws it)."""
        if self.wdl in (-1, 0, 1):
            return 0
        return (TB_WIN - abs(self.dtz)) * (1 if self.wdl > 0 else -1)


def open_syzygy(paths: str) -> Optional[chess.syzygy.Tablebase]:
    """The Syzygy tables of the folders ``paths`` names (separated by ``:`` or ``;``, UCI's way); None for
    an empty text.  ValueError naming a folder that does not exist or holds no table."""
    folders = [part.strip() for part in re.split(r"[;" + re.escape(os.pathsep) + "]", paths or "") if part.strip()]
    if not folders:
        return None
    tablebase = chess.syzygy.Tablebase()
    for folder in folders:
        if not Path(folder).is_dir():
            tablebase.close()
            raise ValueError(f"SyzygyPath: {folder} is not a folder; give folders of .rtbw/.rtbz files "
                             f"separated by '{os.pathsep}'")
        if tablebase.add_directory(folder) == 0:
            tablebase.close()
            raise ValueError(f"SyzygyPath: {folder} holds no Syzygy table (.rtbw/.rtbz files)")
    return tablebase


def _rank(board: chess.Board, move: chess.Move, tablebase: chess.syzygy.Tablebase) -> Tuple[tuple, int, int, int]:
    """(sort key, higher is better; wdl; dtz; probes) of ``move``, all from the mover's view."""
    zeroing = board.is_zeroing(move)
    board.push(move)
    try:
        if board.is_checkmate():
            return (3, 0, 0), 2, 1, 0
        wdl = -tablebase.probe_wdl(board)
        dtz = -tablebase.probe_dtz(board)
    finally:
        board.pop()
    counter = 0 if zeroing else board.halfmove_clock + 1
    plies = abs(dtz)
    if wdl == 2 and counter + plies > FIFTY_MOVES:
        wdl = 1  # won on the board, drawn by the rule before the next capture or pawn move
    elif wdl == -2 and counter + plies > FIFTY_MOVES:
        wdl = -1
    if wdl > 0:
        key = (wdl, 1 if zeroing else 0, -plies)
    elif wdl < 0:
        key = (wdl, 0 if zeroing else 1, plies)
    else:
        key = (0, 0, 0)
    return key, wdl, (plies + 1) * (1 if wdl > 0 else -1) if wdl else 0, 2


def syzygy_root_move(board: chess.Board, tablebase: Optional[chess.syzygy.Tablebase],
                     pv_plies: int = PV_PLIES) -> Optional[SyzygyMove]:
    """The tables' move for ``board`` (see the module's docstring), or None when ``tablebase`` is None, the
    position has castling rights or more than :data:`MAX_SYZYGY_PIECES` pieces, the game is over, or a
    table it needs is missing (then the search plays)."""
    if (tablebase is None or board.castling_rights or chess.popcount(board.occupied) > MAX_SYZYGY_PIECES
            or board.is_game_over()):
        return None
    work = board.copy(stack=False)
    try:
        ranked = [(_rank(work, move, tablebase), move) for move in list(work.legal_moves)]
    except (chess.syzygy.MissingTableError, KeyError, IndexError):
        return None
    (key, wdl, dtz, _), move = max(ranked, key=lambda item: item[0][0])
    probes = sum(item[0][3] for item in ranked)
    pv = [move]
    work.push(move)
    while len(pv) < pv_plies and not work.is_game_over():
        try:
            reply = max(((_rank(work, m, tablebase)[0], m) for m in list(work.legal_moves)), key=lambda r: r[0])[1]
        except (chess.syzygy.MissingTableError, KeyError, IndexError):
            break
        pv.append(reply)
        work.push(reply)
    return SyzygyMove(move, wdl, dtz, probes, pv)
