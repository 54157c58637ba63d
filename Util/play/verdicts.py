"""What every move of a position leads to, and what a person's move did compared with the best one.

The tables know, for every position, who mates and in how many plies.  So for every legal move they know
its outcome for the side that plays it:

* :func:`move_outcomes`: each legal move with its outcome (win, draw or loss for the mover) and distance in
  plies, best first, as syzygy-tables.info lists them: the fastest win, then draws, then the longest
  defence;
* :func:`judge_move` / :func:`verdict`: what one move did compared with the best one: a best move, an
  inaccuracy or mistake (the same result, mate further away or sooner) or a blunder (a worse result), with
  the outcome before and after it, each counted from its own position;
* :func:`move_comment`: the PGN comment of a move;
* :func:`hardest_best_move`: the AI's move on either side (a best move, and among those the one that leaves
  the opponent the hardest task), used by the notebook game and the server.

A move's distance (:class:`MoveOutcome`) counts from the position before the move: "win: mates in 4 (7
plies)" means the mover mates 7 plies from now with this move and best play afterwards.  The words are
:mod:`Util.play.words`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import chess

from ..sequence import SnSequence
from .outcomes import DRAW, LOSS, WIN
from .words import after_move_words, comment_text, move_outcome_words, outcome_words, verdict_label, \
    verdict_sentence

__all__ = ["WIN", "DRAW", "LOSS", "MoveOutcome", "position_outcome", "position_words", "move_outcomes",
           "BEST", "SLOWER", "WORSE", "MISTAKE_PLIES", "GRADES", "GRADE_COLOURS", "GRADE_MARKS", "Judgement",
           "judge_move", "verdict", "move_comment", "hardest_best_move"]


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
        """``"win: mates in 4 (7 plies)"``, ``"draw"`` or ``"loss: mated in 6 (12 plies)"`` (a mover's
        move counts as half a move: 7 plies are 4 moves)."""
        return move_outcome_words(self.result, self.plies)


def position_outcome(board: chess.Board, sequence: SnSequence) -> tuple:
    """``(result, plies)`` of the position for the side to move (plies None for a draw); a side already
    checkmated has lost in 0 plies."""
    value = sequence.value(board)
    if value < 0:
        return DRAW, None
    return (WIN if value % 2 == 1 else LOSS), value


def position_words(board: chess.Board, sequence: SnSequence) -> str:
    """:func:`~Util.play.words.outcome_words` of ``board`` by the table: ``"White mates in 7 (14 plies)"``
    or ``"Draw"``."""
    result, plies = position_outcome(board, sequence)
    return outcome_words(board.turn, plies or 0, result)


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


#: The kinds of a person's move (:attr:`Judgement.kind`): a best move; one that keeps the result but
#: only delays mate (or hastens being mated); one that worsens the result (win -> draw or loss,
#: draw -> loss).
BEST, SLOWER, WORSE = "best", "slower", "result"
#: A move that keeps the result but gives away this many plies or more (mate delayed, or hastened for the
#: defender) is a "mistake", one that gives away fewer an "inaccuracy"; a worse result is a "blunder".
#: Ten plies are five moves of the mating side: a slip of a move or two is an inaccuracy, hanging a piece
#: (KQvKR's rook left en prise hastens mate by tens of plies) a mistake.
MISTAKE_PLIES = 10
#: The grades of a move (:attr:`Judgement.grade`), from best to worst.
GRADES = ("best", "inaccuracy", "mistake", "blunder")
#: The colour each grade is shown in (green, orange, deep orange, red), always with its words beside it.
GRADE_COLOURS = {"best": "#1a7f37", "inaccuracy": "#c76a00", "mistake": "#d84315", "blunder": "#c62828"}
#: The mark a move list puts after a move of that grade, as chess annotators (and lichess) do.
GRADE_MARKS = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True)
class Judgement:
    """What one move did: its ``kind`` (:data:`BEST`, :data:`SLOWER` or :data:`WORSE`), a ``label`` in
    words (``"best move"``, ``"inaccuracy: only delays mate, by 2 plies"``, ``"mistake: hastens mate, by 40
    plies"``, ``"blunder: turns the win into a draw"``; :data:`MISTAKE_PLIES` draws the line),
    the position's outcome ``before`` the move and ``after`` it (each counted from its own position, as
    the status line counts), and the whole ``sentence``."""

    san: str
    kind: str
    label: str
    before: str
    after: str
    best_san: str
    best_after: str

    @property
    def best(self) -> bool:
        return self.kind == BEST

    @property
    def colour(self) -> str:
        return GRADE_COLOURS[self.grade]

    @property
    def grade(self) -> str:
        """``"best"``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` (the label's first word)."""
        return "best" if self.kind == BEST else self.label.split(":")[0]

    @property
    def sentence(self) -> str:
        """``"Kd7 — best move. Before it: White mates in 7 (14 plies); after it: White mates in 7 (13
        plies)."``; a worse move also names the best one and where it leads."""
        if self.kind == BEST:
            return verdict_sentence(self.san, self.label, self.before, self.after)
        return verdict_sentence(self.san, self.label, self.before, self.after, self.best_san, self.best_after)


def _after_words(mover: chess.Color, outcome: MoveOutcome) -> str:
    return after_move_words(mover, outcome.result, outcome.plies)


def judge_move(board: chess.Board, move: chess.Move, sequence: Optional[SnSequence],
               outcomes: Optional[List[MoveOutcome]] = None) -> Judgement:
    """How ``move`` (legal in ``board``) compares with the best move (``outcomes``: :func:`move_outcomes`
    of ``board``, if already known; then ``sequence`` may be None)."""
    outcomes = outcomes or move_outcomes(board, sequence)
    best = outcomes[0]
    played = next(o for o in outcomes if o.move == move)
    mover = board.turn
    lost = 0
    if played.rank == best.rank:
        kind, grade = BEST, "best"
    elif played.result < best.result:
        kind, grade = WORSE, "blunder"
    else:
        kind, lost = SLOWER, abs(played.plies - best.plies)
        grade = "mistake" if lost >= MISTAKE_PLIES else "inaccuracy"
    label = verdict_label(best.result, played.result, lost, grade)
    before = outcome_words(mover, best.plies or 0, best.result)
    return Judgement(played.san, kind, label, before, _after_words(mover, played), best.san,
                     _after_words(mover, best))


def verdict(board: chess.Board, move: chess.Move, sequence: SnSequence) -> str:
    """What ``move`` (legal in ``board``) did, in a sentence (see :func:`judge_move`)."""
    return judge_move(board, move, sequence).sentence


def move_comment(board: chess.Board, move: chess.Move, sequence: Optional[SnSequence],
                 outcomes: Optional[List[MoveOutcome]] = None) -> str:
    """A PGN comment for ``move`` (legal in ``board``): the outcome of the position after it, in the page's
    words (``"White mates in 12 (23 plies)"``, ``"Draw"``, ``"White has won: checkmate"``), and ``"; left
    the best line (Qb7 was better)"`` where a better move was there (a worse result, or the same one
    further from the best distance).  ``outcomes``: :func:`move_outcomes` of ``board``, if already known
    (then ``sequence`` may be None)."""
    outcomes = outcomes or move_outcomes(board, sequence)
    played = next(o for o in outcomes if o.move == move)
    best = outcomes[0]
    return comment_text(_after_words(board.turn, played), None if played.rank == best.rank else best.san)


def hardest_best_move(board: chess.Board, sequence: SnSequence) -> MoveOutcome:
    """The AI's choice on either side: a best move (the fastest mate, else a draw, else the longest
    defence) and among those the one that leaves the opponent the fewest replies keeping its own best
    result: the hardest task.  Ties go to python-chess's first move.

    In a draw the fight goes on as long as the opponent can still go wrong: first come moves that
    let no drawing reply leave the AI without mating material (no offered trade into a dead draw),
    then moves that repeat no earlier position of the game, then the fewest drawing replies."""
    outcomes = move_outcomes(board, sequence)
    best = [o for o in outcomes if o.rank == outcomes[0].rank]
    if len(best) == 1:
        return best[0]
    mover = board.turn

    def difficulty(outcome: MoveOutcome) -> tuple:
        board.push(outcome.move)
        try:
            replies = move_outcomes(board, sequence)
            good = [r for r in replies if r.rank == replies[0].rank]
            if outcome.result != DRAW:
                return (len(good),)
            return (any(_leaves_no_mating_material(board, r.move, mover) for r in good),
                    board.is_repetition(2), len(good))
        finally:
            board.pop()

    return min(best, key=difficulty)


def _leaves_no_mating_material(board: chess.Board, move: chess.Move, side: chess.Color) -> bool:
    board.push(move)
    try:
        return board.has_insufficient_material(side)
    finally:
        board.pop()
