"""What every move of a position leads to: hints, verdicts on a person's moves, mutual zugzwangs.

The tables know, for every position, who mates and in how many plies.  So
for every legal move they know its outcome for the side that plays it:

* :func:`move_outcomes`: each legal move with its outcome (win, draw or
  loss for the mover) and distance in plies, best first, as
  syzygy-tables.info lists them: the fastest win, then draws, then the
  longest defence;
* :func:`verdict`: what one move did compared with the best one: kept the
  result at the best distance, kept it but lost some plies, or changed it;
* :func:`mutual_zugzwangs`: how many boards of a table are mutual
  zugzwangs, where the side to move does worse than if the other side were
  to move (KPvKP's key positions).

Distances are counted from the position before the move: "win in 7" means
the mover mates in 7 plies with this move and best play afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import chess
import numpy as np

from .exits import UNKNOWN
from .retrograde import DtmTable
from .sequence import SnSequence

#: Outcomes for the side that moves.
WIN, DRAW, LOSS = 1, 0, -1
_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True)
class MoveOutcome:
    """One legal move and where it leads, for the side that plays it."""

    move: chess.Move
    san: str
    result: int  # WIN, DRAW or LOSS for the mover
    plies: Optional[int]  # mate (win) or being mated (loss) in this many plies, counted before the move; None: draw

    @property
    def rank(self) -> tuple:
        """Sort key, best first: fast wins, then draws, then slow losses."""
        if self.result == WIN:
            return (0, self.plies)
        if self.result == DRAW:
            return (1, 0)
        return (2, -self.plies)

    def describe(self) -> str:
        """``"win, mate in 7 plies"``, ``"draw"`` or ``"loss, mated in 12 plies"``."""
        if self.result == DRAW:
            return "draw"
        plies = f"{self.plies} ply" if self.plies == 1 else f"{self.plies} plies"
        return f"win, mate in {plies}" if self.result == WIN else f"loss, mated in {plies}"


def position_outcome(board: chess.Board, sequence: SnSequence) -> tuple:
    """``(result, plies)`` of the position for the side to move (plies None for a draw); a side already
    checkmated has lost in 0 plies."""
    value = sequence.value(board)
    if value < 0:
        return DRAW, None
    return (WIN if value % 2 == 1 else LOSS), value


def move_outcomes(board: chess.Board, sequence: SnSequence) -> List[MoveOutcome]:
    """Every legal move of ``board`` with its outcome for the side to move, best first (ties in
    python-chess's move order).  Captures and promotions are looked up in their tables through
    ``sequence``'s store."""
    outcomes = []
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        try:
            if board.is_checkmate():
                result, plies = WIN, 1
            else:
                child_result, child_plies = position_outcome(board, sequence)
                result = -child_result
                plies = None if child_plies is None else child_plies + 1
        finally:
            board.pop()
        outcomes.append(MoveOutcome(move, san, result, plies))
    return sorted(outcomes, key=lambda o: o.rank)


def verdict(board: chess.Board, move: chess.Move, sequence: SnSequence) -> str:
    """What ``move`` (legal in ``board``) did, in a sentence: the best result at the best distance, the
    same result but k plies worse than the best move (named), or a worse result (named)."""
    outcomes = move_outcomes(board, sequence)
    best = outcomes[0]
    played = next(o for o in outcomes if o.move == move)
    if played.result < best.result:
        return (f"{played.san} changed the result: {_WORDS[best.result]} -> {_WORDS[played.result]} "
                f"({played.describe()}); {best.san} kept the {_WORDS[best.result]} ({best.describe()}).")
    if played.rank == best.rank:
        return f"{played.san}: a best move ({played.describe()})."
    lost = abs(played.plies - best.plies)
    what = "slower" if played.result == WIN else "shorter defence"
    return (f"{played.san} kept the {_WORDS[played.result]} but is {lost} {'ply' if lost == 1 else 'plies'} "
            f"{what} than {best.san} ({played.describe()} instead of {best.plies}).")


def _result_for_white(dtm: np.ndarray, white_to_move: bool) -> np.ndarray:
    """+1 where White wins, -1 where it loses, 0 for a draw (or no legal position), from one DTM array."""
    value = dtm.astype(np.int16)
    mover_wins = np.where(value == UNKNOWN, 0, np.where(value % 2 == 1, 1, -1))
    return mover_wins if white_to_move else -mover_wins


def _zugzwang_entries(table: DtmTable, chunk: int = 1 << 22):
    """Per chunk of the index: the entries whose placement is a mutual zugzwang (both sides to move legal,
    White to move worse for White than Black to move)."""
    from .rules import legality

    layout, letters = table.layout, table.material.letters
    for start in range(0, table.dtm_white.size, chunk):
        white = _result_for_white(table.dtm_white[start : start + chunk], True)
        black = _result_for_white(table.dtm_black[start : start + chunk], False)
        index = start + np.flatnonzero(white < black)
        if index.size:
            white_ok, black_ok = legality(letters, layout.decode(index))[:2]
            yield index[white_ok & black_ok]


def mutual_zugzwangs(table: DtmTable) -> int:
    """How many boards of ``table`` are mutual zugzwangs: White to move does worse for White than Black
    to move (a draw instead of a win, a loss instead of a draw or win), so whoever is to move would
    rather pass.  Both sides to move must be legal positions; counted in boards, as ``stats`` counts."""
    from .expansion import _board_weights

    return sum(int(_board_weights(table.layout, index).sum()) for index in _zugzwang_entries(table))


def mutual_zugzwang_examples(table: DtmTable, limit: int = 5) -> List[chess.Board]:
    """Up to ``limit`` mutual zugzwangs of ``table`` (White to move), in index order."""
    from .board_int import to_board
    from .board_int import encode_integers

    found: List[chess.Board] = []
    for index in _zugzwang_entries(table):
        squares = table.layout.decode(index[: limit - len(found)])
        for board_int in encode_integers(squares, True).tolist():
            found.append(to_board(board_int, table.material.piece_list))
        if len(found) >= limit:
            break
    return found


def is_mutual_zugzwang(board: chess.Board, sequence: SnSequence) -> bool:
    """Whether ``board``'s placement is a mutual zugzwang (see :func:`mutual_zugzwangs`): both sides to
    move legal, and White to move worse for White than Black to move."""
    other = board.copy(stack=False)
    other.turn = not board.turn
    other.ep_square = None
    if not (board.is_valid() and other.is_valid()):
        return False
    white, black = (board, other) if board.turn == chess.WHITE else (other, board)
    white_result = position_outcome(white, sequence)[0]
    black_result_for_white = -position_outcome(black, sequence)[0]
    return white_result < black_result_for_white


def outcome_phrase(board: chess.Board, sequence: SnSequence) -> str:
    """What the side to move gets with best play on both sides: ``"mates in 13 plies"``, ``"is mated in
    8 plies"`` or ``"draws"``."""
    result, plies = position_outcome(board, sequence)
    if result == DRAW:
        return "draws"
    count = f"{plies} ply" if plies == 1 else f"{plies} plies"
    return f"mates in {count}" if result == WIN else f"is mated in {count}"


def describe_outcome(board: chess.Board, sequence: SnSequence) -> str:
    """The position's outcome in words: ``"White to move mates in 13 plies"``, ``"Black to move is mated
    in 8 plies"`` or ``"a draw"``."""
    phrase = outcome_phrase(board, sequence)
    if phrase == "draws":
        return "a draw"
    return f"{'White' if board.turn == chess.WHITE else 'Black'} to move {phrase}"


def move_comment(board: chess.Board, move: chess.Move, sequence: SnSequence) -> str:
    """A PGN comment for ``move`` (legal in ``board``): who mates in how many plies after it (``"White
    mates in 23"``, ``"draw"``, ``"checkmate"``), and ``"; left the best line (Qb7 was better)"`` where a
    better move was there (a worse result, or the same one further from the best distance)."""
    outcomes = move_outcomes(board, sequence)
    played = next(o for o in outcomes if o.move == move)
    mover = "White" if board.turn == chess.WHITE else "Black"
    other = "Black" if mover == "White" else "White"
    if played.result == WIN and played.plies == 1:
        text = "checkmate"
    elif played.result == DRAW:
        text = "draw"
    else:
        winner = mover if played.result == WIN else other
        text = f"{winner} mates in {played.plies - 1}"
    best = outcomes[0]
    if played.rank != best.rank:
        text += f"; left the best line ({best.san} was better)"
    return text
