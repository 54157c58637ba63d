"""One game against the AI (thesis chapter 4).

:class:`PlaySession` is one game: the person plays either side (Black, defending, in the thesis) by typing
moves (UCI ``e7e6`` or SAN ``Ke6``, :mod:`Util.play.typed_moves`) or dragging them on the board; the AI
answers from its S_n tables: the thesis's ``find_next_move`` where only White has pieces (with
:func:`keep_material_move` where it cannot force mate), else :func:`Util.play.verdicts.hardest_best_move`.
A rejected entry changes nothing.  The game is written as it goes by :class:`Util.play.records.GameHistory`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

import chess

from ..board.material import MaterialError
from ..sequence import SnSequence, find_next_move
from .records import PLAYER_NAME, GameHistory
from .typed_moves import numbered_san, parse_player_move
from .verdicts import GRADE_MARKS, Judgement, hardest_best_move, judge_move, move_comment, move_outcomes, \
    position_words
from .words import game_status, termination_message
from .zugzwang import is_mutual_zugzwang

__all__ = ["best_defence", "keep_material_move", "AiReply", "PlaySession", "play_with_one_slower_move"]


def best_defence(session: "PlaySession") -> chess.Move:
    """The scripted player of the demonstration: the best move of the side to move by the table (the
    fastest mate, else a draw, else the move that keeps mate furthest away); ties go to python-chess's
    first move.  As Black against a lone-king table's AI: the move that keeps mate furthest away."""
    return move_outcomes(session.board, session.sequence)[0].move


def keep_material_move(board: chess.Board) -> Optional[chess.Move]:
    """A sensible move where the AI cannot force mate: no stalemate, and no piece left en prise if possible."""
    moves = list(board.legal_moves)
    if not moves:
        return None

    def safe(move: chess.Move) -> Tuple[int, int]:
        board.push(move)
        try:
            stalemate = board.is_stalemate()
            hanging = sum(1 for sq, p in board.piece_map().items()
                          if p.color == chess.WHITE and p.piece_type != chess.KING
                          and board.is_attacked_by(chess.BLACK, sq) and not board.is_attacked_by(chess.WHITE, sq))
            return (int(stalemate), hanging)
        finally:
            board.pop()

    return min(moves, key=safe)


@dataclass
class AiReply:
    """What the AI did: its move (None if the game was over), its n before the move, and a sentence."""

    move: Optional[chess.Move]
    n_before: int
    text: str


class PlaySession:
    """One game: the person plays one side (Black, as in the thesis, or White), the AI the other side
    from its tables."""

    def __init__(self, start: chess.Board, sequence: SnSequence, games_dir: os.PathLike = "Played_Games",
                 player: str = PLAYER_NAME, person: chess.Color = chess.BLACK):
        self.start = start.copy(stack=False)
        self.sequence = sequence
        self.games_dir = Path(games_dir)
        self.player = player
        self.person = person
        self.new_game()

    @property
    def ai(self) -> chess.Color:
        return not self.person

    @property
    def thesis_ai(self) -> bool:
        """The thesis's game: the AI is White against a lone black king."""
        return self.ai == chess.WHITE and self.sequence.material.lone_black_king

    def new_game(self) -> None:
        """Back to the start position, with a new history (written once the person moves)."""
        self.board = self.start.copy(stack=False)
        self.history = GameHistory(self.board, self.games_dir, self.player, self.person)
        self.last_reply: Optional[AiReply] = None
        self.last_verdict: Optional[str] = None  # what the person's last move did (see Util.play.verdicts.verdict)
        self.comments: List[str] = []  # one per move played: who mates in how many after it (the PGN's comments)
        #: per move of the person: its ply in the game and its Judgement (None where the tables cannot say)
        self.judged: List[Tuple[int, Optional[Judgement]]] = []
        self.last_judgement: Optional[Judgement] = None
        if self.board.turn == self.ai and not self.over:
            self.last_reply = self.ai_move()

    @property
    def over(self) -> bool:
        return termination_message(self.board) is not None

    @property
    def n(self) -> int:
        """The board's n (plies to mate), -1 if White cannot force mate."""
        try:
            return self.sequence.find_board(self.board)
        except (MaterialError, ValueError):
            return -1

    def status(self) -> str:
        """Whose move it is and what the position is worth, as a player says it: ``"Black (Player) to move.
        White mates in 7 (14 plies)."`` (counted from this position; in the thesis's game the S_n too)."""
        ending = termination_message(self.board)
        if ending:
            return ending
        who = "AI" if self.board.turn == self.ai else self.player
        try:
            words = position_words(self.board, self.sequence)
        except (MaterialError, ValueError, FileNotFoundError):
            return game_status(self.board.turn, who)
        return game_status(self.board.turn, who, words, self.n if self.thesis_ai else None,
                           is_mutual_zugzwang(self.board, self.sequence))

    def _play(self, move: chess.Move, record: bool, outcomes: Optional[list] = None) -> None:
        """Push ``move`` with its PGN comment; rewrite the files if ``record``.  ``outcomes``: those of the
        position before the move, if known (see :meth:`_outcomes`)."""
        outcomes = outcomes or self._outcomes()
        self.comments.append(move_comment(self.board, move, self.sequence, outcomes) if outcomes else "")
        self.board.push(move)
        if record:
            self.history.record(self.board, self.comments)

    def _outcomes(self) -> Optional[list]:
        """:func:`Util.play.verdicts.move_outcomes` of the position; None where a table it needs is not there."""
        try:
            return move_outcomes(self.board, self.sequence)
        except (MaterialError, ValueError, FileNotFoundError):
            return None

    def take_back(self) -> str:
        """Undo the person's last move and the AI's reply to it; the history file and the PGN follow.
        ValueError (the game unchanged) if the person has not moved yet."""
        start_turn = self.start.turn
        person_moves = [k for k in range(len(self.board.move_stack))
                        if (start_turn if k % 2 == 0 else not start_turn) == self.person]
        if not person_moves:
            raise ValueError("Nothing to take back: you have not moved yet.")
        undone = []
        while len(self.board.move_stack) > person_moves[-1]:
            undone.append(self.board.pop())
            self.comments.pop()
        if self.judged:
            self.judged.pop()
        self.last_reply, self.last_verdict, self.last_judgement = None, None, None
        self.history.record(self.board, self.comments)
        return f"Took back {' and '.join(numbered_san(self.board, list(reversed(undone))))}. Your move again."

    def hints(self) -> list:
        """Every legal move of the side to move with its outcome, best first
        (:func:`Util.play.verdicts.move_outcomes`)."""
        return move_outcomes(self.board, self.sequence)

    def _judge(self, move: chess.Move, outcomes: Optional[list]):
        """The :class:`Util.play.verdicts.Judgement` of the person's ``move``; None where the tables cannot say."""
        return judge_move(self.board, move, self.sequence, outcomes) if outcomes else None

    def summary(self) -> str:
        """The person's game in a few words: moves played, how many were best, and the moves that were not
        best, inaccuracies, mistakes and blunders (``"12... Kc5 (blunder: turns the draw into a loss)"``)."""
        played, best = len(self.judged), sum(1 for _, j in self.judged if j is not None and j.best)
        head = f"You played {played} move{'s' if played != 1 else ''}, {best} of them best."
        worse = [f"{text} ({j.label})" for text, j in self.marked_moves() if j is not None and not j.best]
        return head + ("" if not worse else " Moves that were not best: " + "; ".join(worse) + ".")

    def marked_moves(self) -> List[Tuple[str, Optional[Judgement]]]:
        """Every move of the game in SAN, each with its number (``"12. Kd3"``, ``"12... Kc5"``), with the
        judgement of the person's moves (None for the AI's)."""
        judged, board, out = dict(self.judged), self.start.copy(stack=False), []
        for ply, move in enumerate(self.board.move_stack):
            number, san = board.fullmove_number, board.san(move)
            out.append((f"{number}. {san}" if board.turn == chess.WHITE else f"{number}... {san}", judged.get(ply)))
            board.push(move)
        return out

    def move_list(self) -> str:
        """The game's moves as a reader writes them, the person's worse moves marked (``?!`` an
        inaccuracy, ``?`` a mistake, ``??`` a blunder): ``"1. Qg6 Kd8 2. Kd2?! ..."``."""
        parts = []
        for ply, (text, judgement) in enumerate(self.marked_moves()):
            if "... " in text and ply > 0:
                text = text.split("... ", 1)[1]  # Black's move after White's: no number
            parts.append(text + (GRADE_MARKS[judgement.grade] if judgement else ""))
        return " ".join(parts)

    def ai_move(self) -> AiReply:
        """The AI plays one move: in the thesis's game from S_n into S_(n-1), or a material-keeping move;
        otherwise its best move by the table (the fastest mate, else a move that keeps the draw, else the
        longest defence)."""
        if not self.thesis_ai:
            return self._best_ai_move()
        n = self.n
        if n > 0:
            _, move = find_next_move(self.board, n, self.sequence)
            note = f"from S_{n} into S_{n - 1}"
        else:
            move, note = keep_material_move(self.board), "no forced mate here (a draw); it keeps its material"
        if move is None:
            return AiReply(None, n, "The AI has no move.")
        san = self.board.san(move)
        self._play(move, record=self.history.written)  # before the person's first move, no file yet
        return AiReply(move, n, f"The AI played {san}, {note}.")

    def _best_ai_move(self) -> AiReply:
        if not any(True for _ in self.board.legal_moves):
            return AiReply(None, -1, "The AI has no move.")
        best = hardest_best_move(self.board, self.sequence)
        n = self.sequence.value(self.board)
        self._play(best.move, record=self.history.written)
        return AiReply(best.move, n, f"The AI played {best.san}.")

    def submit(self, text: str) -> str:
        """The person's entry: play it and the AI's answer, or explain why not (the game is then unchanged)."""
        if self.over:
            raise ValueError(f"The game is over ({termination_message(self.board)}) Press 'New game' to play again.")
        if self.board.turn != self.person:
            raise ValueError("It is the AI's turn.")
        move = parse_player_move(self.board, text)
        san = self.board.san(move)
        outcomes = self._outcomes()  # once, for the verdict and the PGN comment
        self.last_judgement = self._judge(move, outcomes)
        self.last_verdict = self.last_judgement.sentence if self.last_judgement else None
        self.judged.append((len(self.board.move_stack), self.last_judgement))
        self._play(move, record=True, outcomes=outcomes)
        message = f"You played {san}."
        if not self.over:
            self.last_reply = self.ai_move()
            message += " " + self.last_reply.text
        ending = termination_message(self.board)
        return message + (" " + ending + " " + self.summary() if ending else "")


def play_with_one_slower_move(session: PlaySession) -> PlaySession:
    """Play ``session`` to its end as a scripted person who plays the first move that is not best when
    there is one, and the table's best move (:func:`best_defence`) otherwise: a game with exactly one move that
    left the best line, for showing how a game file marks it.  Returns the session."""
    slower_played = False
    while not session.over:
        outcomes = move_outcomes(session.board, session.sequence)  # best first
        slower = [o.move for o in outcomes if o.rank != outcomes[0].rank]
        if slower and not slower_played:
            move, slower_played = slower[0], True
        else:
            move = best_defence(session)
        session.submit(move.uci())
    return session
