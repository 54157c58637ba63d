"""One byte of a table changed on purpose, to show that the checks of notebook 06 would catch it.

A check that never fails proves little; these helpers make a table wrong in one stored position (its n
moved to another S_m, or to "in no S_n") and run each check on that position: the rules of chess by
python-chess's moves (:mod:`Util.validation.move_checks`), Gaviota's depth to mate and Syzygy's win/draw/loss.
The table the checks ran on in full is never touched: the change is made in a copy.
"""

from __future__ import annotations

import os
from typing import Dict, Tuple

import chess
import chess.gaviota
import chess.syzygy
import numpy as np

from ..board.integer import integer_squares, to_board
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from .move_checks import boards_to_check, check_boards_in_correct_sequence, every_move_of_sequence_in_lower
from ..sequence import SnSequence


class _WithCorruptedTable:
    """A store that answers with the corrupted table for its material and asks the real store for the others."""

    def __init__(self, store, table: DtmTable) -> None:
        self.store, self.corrupted = store, table

    def table(self, material):
        return self.corrupted if material == self.corrupted.material else self.store.table(material)

    def add(self, table) -> None:
        if table.material != self.corrupted.material:
            self.store.add(table)


def corrupt_one_byte(sequence: SnSequence, n: int, value: int) -> Tuple[SnSequence, chess.Board]:
    """A copy of ``sequence`` (a table with a lone black king) in which the first stored position of S_n has
    ``value`` instead of n (UNKNOWN, 255: in no S_n, a draw); returns it and that position's board."""
    table = sequence.table
    board_int = int(boards_to_check(sequence, n)[0])
    squares = integer_squares(board_int, sequence.material.piece_count)
    copy = DtmTable(table.material, np.array(table.dtm_white), np.array(table.dtm_black))
    values = copy.dtm_white if board_int & 1 else copy.dtm_black
    values[table.layout.encode_canonical([np.array([s]) for s in squares])] = value
    corrupted = SnSequence(copy, dict(sequence.board_counts), store=_WithCorruptedTable(sequence.store, copy))
    return corrupted, to_board(board_int, sequence.piece_list)


def checks_on_one_board(sequence: SnSequence, board: chess.Board, gaviota_folder: os.PathLike,
                        syzygy_folder: os.PathLike) -> Dict[str, bool]:
    """Each check of notebook 06 on one board of ``sequence``: True where the check finds the board wrong."""
    from ..board.integer import to_integer

    n = sequence.find_board(board)
    board_int = to_integer(board, sequence.piece_list)
    found = {}
    if n >= 0:
        found["every move leads lower"] = not every_move_of_sequence_in_lower(sequence, n, [board_int]).ok
        found["longest forced line = n"] = not check_boards_in_correct_sequence(sequence, n, [board_int]).ok
    else:  # in no S_n: the move checks look only at the boards in some S_n
        found["every move leads lower"] = found["longest forced line = n"] = False
    with chess.gaviota.open_tablebase(str(gaviota_folder)) as gaviota:
        dtm = gaviota.probe_dtm(board)  # 0: a draw (or already mate, n = 0)
        found["Gaviota DTM = n, and the matching rate"] = abs(dtm) != n if n >= 0 else dtm != 0
    with chess.syzygy.open_tablebase(str(syzygy_folder)) as syzygy:
        wdl = syzygy.probe_wdl(board)
        found["Syzygy WDL (wins, and draws)"] = (wdl == 0) != (n < 0)
    return found


#: The value of a position in no S_n, for :func:`corrupt_one_byte`.
DRAW = UNKNOWN
