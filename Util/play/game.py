"""Games against the AI (thesis chapter 4).

* :func:`create_board` builds the start position from the thesis's
  ``WHITE_POSITIONS`` / ``BLACK_POSITIONS`` dictionaries and names every
  mistake in them.
* :class:`PlaySession` is one game: the person plays either side (Black,
  defending, in the thesis) by typing moves (UCI ``e7e6`` or SAN ``Ke6``) or
  dragging them on the board; the AI answers from its S_n tables: the
  thesis's ``find_next_move`` where only White has pieces, else
  :func:`Util.play.trainer.hardest_best_move`.  A rejected entry changes nothing.  The game is written as it goes by
  :class:`Util.play.records.GameHistory`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

import chess
import chess.pgn

from ..folders import RESULTS_DIR
from ..board.material import Material, MaterialError, material_of_board
from .outcomes import termination_message
from .records import PLAYER_NAME, GameHistory, PlainMessage, plies_text
from ..sequence import SnSequence, find_next_move, load_s_n_sequence
from ..probing.table_folder import MissingTableError

if TYPE_CHECKING:
    from .trainer import Judgement

__all__ = ["SetupError", "MissingTableError", "TableMissing", "create_board", "board_from_fen", "person_colour",
           "table_for", "table_named", "describe_n", "example_move", "parse_player_move", "type_a_move",
           "numbered_san", "best_defence", "keep_material_move", "AiReply", "PlaySession"]

_SQUARE = re.compile(r"^[a-h][1-8]$")
_NAMES = {"king": chess.KING, "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP,
          "knight": chess.KNIGHT, "pawn": chess.PAWN}


class SetupError(PlainMessage, ValueError):
    """The start position given in WHITE_POSITIONS / BLACK_POSITIONS is not usable; the message says why."""


#: No ``.chessAI`` table for the material of the position: the tablebase's one exception for a missing table,
#: under the name the notebooks of chapter 4 know.
TableMissing = MissingTableError


# ---- set-up ---------------------------------------------------------------------------------

def _piece_type(key) -> int:
    if isinstance(key, int) and chess.PAWN <= key <= chess.KING:
        return key
    if isinstance(key, str):
        text = key.strip().lower()
        if text in _NAMES:
            return _NAMES[text]
        if len(text) == 1 and text in "kqrbnp":
            return chess.PIECE_SYMBOLS.index(text)
    raise SetupError(f"{key!r} is not a piece; use chess.KING, chess.QUEEN, ... (or 'K', 'Q', 'queen', ...)")


def create_board(white_positions: Dict, black_positions: Dict, white_to_move: bool = True) -> chess.Board:
    """The position described by the thesis's dictionaries (piece type -> list of square names).

    SetupError names the first problem: a malformed square, two pieces on
    one square, a missing or second king, black pieces besides the king,
    kings touching, or another reason python-chess calls the position
    illegal.  There is no fallback position.
    """
    board = chess.Board(None)
    owner: Dict[int, str] = {}
    for colour, name, positions in ((chess.WHITE, "WHITE_POSITIONS", white_positions),
                                    (chess.BLACK, "BLACK_POSITIONS", black_positions)):
        for key, squares in positions.items():
            piece_type = _piece_type(key)
            if isinstance(squares, str):
                squares = [squares]
            for text in squares:
                label = f"{name}[{chess.piece_name(piece_type)}]"
                if not isinstance(text, str) or not _SQUARE.match(text.strip().lower()):
                    raise SetupError(f"{text!r} in {label} is not a square; write a file a-h and a rank 1-8, "
                                     "like 'e4'")
                square = chess.parse_square(text.strip().lower())
                piece = chess.Piece(piece_type, colour)
                if square in owner:
                    raise SetupError(f"two pieces on {chess.square_name(square)}: {owner[square]} and "
                                     f"{'white' if colour else 'black'} {chess.piece_name(piece_type)}")
                owner[square] = f"{'white' if colour else 'black'} {chess.piece_name(piece_type)}"
                board.set_piece_at(square, piece)
    _check_kings_and_material(board)
    board.turn = white_to_move
    if not board.is_valid():
        raise SetupError(f"the position is not legal: {_status_text(board.status())} ({board.fen()})")
    return board


def board_from_fen(fen: str) -> chess.Board:
    """The start position given as FEN (any material with both kings); SetupError says what is wrong."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise SetupError(f"START_FEN {fen!r} is not a FEN ({error}); write it like "
                         "'8/8/8/4k3/8/8/8/KQ6 w - - 0 1'") from None
    if not board.is_valid():
        raise SetupError(f"START_FEN {fen!r} is not a legal position: {_status_text(board.status())}")
    return board


def person_colour(play_as: str) -> chess.Color:
    """The side a person plays, from ``"white"`` or ``"black"`` (the notebook's PLAY_AS)."""
    text = str(play_as).strip().lower()
    if text not in ("white", "black"):
        raise SetupError(f"PLAY_AS is {play_as!r}; write \"white\" or \"black\"")
    return chess.WHITE if text == "white" else chess.BLACK


def _check_kings_and_material(board: chess.Board) -> None:
    for colour, name in ((chess.WHITE, "WHITE_POSITIONS"), (chess.BLACK, "BLACK_POSITIONS")):
        kings = len(board.pieces(chess.KING, colour))
        if kings != 1:
            raise SetupError(f"{name} needs exactly one king, it has {kings}")
    extra = [chess.piece_name(p.piece_type) for p in board.piece_map().values()
             if p.color == chess.BLACK and p.piece_type != chess.KING]
    if extra:
        raise SetupError(f"Black may only have its king (the AI plays against a lone king); remove the black "
                         f"{', '.join(extra)} from BLACK_POSITIONS")
    white, black = board.king(chess.WHITE), board.king(chess.BLACK)
    if chess.square_distance(white, black) <= 1:
        raise SetupError(f"the kings touch ({chess.square_name(white)} and {chess.square_name(black)}); "
                         "kings must have a square between them")


_STATUS = {
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or last rank",
    chess.STATUS_OPPOSITE_CHECK: "the side that is not to move is in check",
    chess.STATUS_TOO_MANY_CHECKERS: "the king is in check from more than two pieces",
    chess.STATUS_IMPOSSIBLE_CHECK: "this double check cannot arise in a game",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "White has more than 16 pieces",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "White has more than 8 pawns",
}


def _status_text(status: chess.Status) -> str:
    reasons = [text for flag, text in _STATUS.items() if status & flag]
    return "; ".join(reasons) or f"python-chess reports {status!r}"


def table_for(board: chess.Board, results_dir: os.PathLike = RESULTS_DIR, file: Optional[str] = None) -> SnSequence:
    """The S_n sequence for the board's material: ``file`` if given, else ``<results_dir>/<MATERIAL>.chessAI``.

    MissingTableError (also known here as TableMissing) says which file to compute and how.
    """
    try:
        material = material_of_board(board)
    except MaterialError as error:
        raise SetupError(str(error)) from None
    path = Path(results_dir) / f"{Material.parse(file).name if file else material.name}.chessAI"
    if file and Material.parse(file) != material:
        raise SetupError(f"FILE is {Material.parse(file).name}, but the position has the material {material.name}; "
                         f"set FILE = \"{material.name}\" or change the pieces")
    return _load_or_explain(material, path)


def table_named(material_name: str, results_dir: os.PathLike = RESULTS_DIR) -> SnSequence:
    """The S_n sequence of a material given by name (either colour order); MissingTableError says how to
    compute it, SetupError names a malformed material."""
    try:
        material = Material.parse(material_name).canonical
    except (MaterialError, ValueError) as error:
        raise SetupError(f"{material_name!r} is not a material ({error}); write it like 'KBNvK'") from None
    return _load_or_explain(material, Path(results_dir) / f"{material.name}.chessAI")


def _load_or_explain(material: Material, path: Path) -> SnSequence:
    if not path.exists():
        raise MissingTableError(material, path.parent, f"(or in notebook 02: TABLES = [\"{material.name}\"])")
    return load_s_n_sequence(path)


# ---- one game -------------------------------------------------------------------------------

def describe_n(n: int) -> str:
    """What the AI's n means, in words."""
    if n < 0:
        return "in no S_n: White cannot force mate (a draw with best defence)"
    if n == 0:
        return "S_0: Black is checkmated"
    moves = (n + 1) // 2
    return (f"S_{n}: the AI mates in {plies_text(n)} ({moves} move{'s' if moves != 1 else ''} of White) against "
            "the best defence, sooner if the defence errs")


def example_move(board: chess.Board) -> Optional[Tuple[str, str]]:
    """A legal move of ``board`` as ``(SAN, UCI)`` for a message's example (the first python-chess lists);
    None if there is none."""
    move = next(iter(board.legal_moves), None)
    return None if move is None else (board.san(move), move.uci())


def _how_to_write(board: chess.Board) -> str:
    example = example_move(board)
    if example is None:
        return "there is no legal move here"
    return f"write UCI like {example[1]} (from-square, to-square) or SAN like {example[0]}"


def parse_player_move(board: chess.Board, text: str) -> chess.Move:
    """The legal move meant by ``text`` (UCI ``e7e6`` or SAN ``Ke6``); ValueError with a helpful message,
    its examples legal moves of ``board``."""
    entry = text.strip()
    if not entry:
        raise ValueError(type_a_move(board))
    try:
        move = chess.Move.from_uci(entry.lower())
    except ValueError:
        move = None
    if move is not None:
        if move in board.legal_moves:
            return move
        raise ValueError(f"{entry} is not legal here. Legal moves: {_legal_list(board)}.")
    try:
        return board.parse_san(entry)
    except chess.IllegalMoveError:
        lowercase = _lowercase_san(board, entry)
        if lowercase is not None:
            return lowercase
        raise ValueError(f"{entry} is not legal here. Legal moves: {_legal_list(board)}.") from None
    except chess.AmbiguousMoveError:
        raise ValueError(f"{entry} is ambiguous; write the move in UCI, like {_ambiguous_uci(board, entry)}.") from None
    except ValueError:
        lowercase = _lowercase_san(board, entry)
        if lowercase is not None:
            return lowercase
        raise ValueError(f"'{entry}' is no move: {_how_to_write(board)}.") from None


def type_a_move(board: chess.Board) -> str:
    """What to type, with a legal move of ``board`` as the example: ``"Type a move in SAN (Kd3) or UCI
    (e2e4), or drag a piece on the board."``"""
    example = next(iter(board.legal_moves), None)
    if example is None:
        return "No legal move here: the game is over."
    return (f"Type a move in SAN ({board.san(example)}) or UCI ({example.uci()}), or drag a piece on the board, "
            "then press Enter.")


def numbered_san(board: chess.Board, moves: List[chess.Move]) -> List[str]:
    """``moves`` (played in turn from ``board``) in SAN, each with its move number where a reader needs it:
    ``["12. Kd3", "Kc5"]``, or ``["12... Kc5", "13. Kd3"]`` when Black moves first."""
    board, texts = board.copy(), []
    for k, move in enumerate(moves):
        number = board.fullmove_number
        if board.turn == chess.WHITE:
            texts.append(f"{number}. {board.san(move)}")
        else:
            texts.append(f"{number}... {board.san(move)}" if k == 0 else board.san(move))
        board.push(move)
    return texts


def _lowercase_san(board: chess.Board, entry: str) -> Optional[chess.Move]:
    """The move meant by SAN typed in lowercase (``kd8`` for ``Kd8``), None if there is none.

    Only entries that are no legal SAN as typed get here, so ``bxc3`` stays
    the b-pawn's capture, as SAN has it; ``bc1`` (no pawn can go there) is the
    bishop's move.  ValueError if the capitalised move is well formed but illegal.
    """
    if not entry or entry[0] not in "kqrbn":
        return None
    capitalised = entry[0].upper() + entry[1:]
    try:
        return board.parse_san(capitalised)
    except chess.IllegalMoveError:
        raise ValueError(f"{entry} is not legal here. Legal moves: {_legal_list(board)}.") from None
    except chess.AmbiguousMoveError:
        raise ValueError(f"{capitalised} is ambiguous; write the move in UCI, like {_ambiguous_uci(board, capitalised)}.") from None
    except ValueError:
        return None


def _ambiguous_uci(board: chess.Board, san: str) -> str:
    """The UCI of the moves an ambiguous SAN may mean (``"b1d2 or f3d2"``)."""
    target = san.rstrip("+#")[-2:]
    pieces = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}
    kind = pieces.get(san[:1], chess.PAWN)
    meant = [m.uci() for m in board.legal_moves if chess.square_name(m.to_square) == target
             and board.piece_type_at(m.from_square) == kind]
    return " or ".join(meant) or example_move(board)[1]


def _legal_list(board: chess.Board) -> str:
    return ", ".join(f"{board.san(m)} ({m.uci()})" for m in board.legal_moves)


def best_defence(session: "PlaySession") -> chess.Move:
    """The scripted player of the demonstration: the best move of the side to move by the table (the
    fastest mate, else a draw, else the move that keeps mate furthest away); ties go to python-chess's
    first move.  As Black against a lone-king table's AI: the move that keeps mate furthest away."""
    from .trainer import move_outcomes

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
        self.last_verdict: Optional[str] = None  # what the person's last move did (see Util.play.trainer.verdict)
        self.comments: List[str] = []  # one per move played: who mates in how many after it (the PGN's comments)
        #: per move of the person: its ply in the game and its Judgement (None where the tables cannot say)
        self.judged: List[Tuple[int, Optional["Judgement"]]] = []
        self.last_judgement: Optional["Judgement"] = None
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
        from .trainer import is_mutual_zugzwang, position_words

        colour = "White" if self.board.turn == chess.WHITE else "Black"
        side = f"{colour} (AI)" if self.board.turn == self.ai else f"{colour} ({self.player})"
        try:
            words = position_words(self.board, self.sequence)
        except (MaterialError, ValueError, FileNotFoundError):
            return f"{side} to move."
        text = f"{side} to move. {words}."
        if self.thesis_ai:
            n = self.n
            text += f" The position is in S_{n}." if n >= 0 else " The position is in no S_n."
        if is_mutual_zugzwang(self.board, self.sequence):
            text += " A mutual zugzwang: whoever is to move here would rather pass."
        return text

    def _play(self, move: chess.Move, record: bool, outcomes: Optional[list] = None) -> None:
        """Push ``move`` with its PGN comment; rewrite the files if ``record``.  ``outcomes``: those of the
        position before the move, if known (see :meth:`_outcomes`)."""
        from .trainer import move_comment

        outcomes = outcomes or self._outcomes()
        self.comments.append(move_comment(self.board, move, self.sequence, outcomes) if outcomes else "")
        self.board.push(move)
        if record:
            self.history.record(self.board, self.comments)

    def _outcomes(self) -> Optional[list]:
        """:func:`Util.play.trainer.move_outcomes` of the position; None where a table it needs is not there."""
        from .trainer import move_outcomes

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
        (:func:`Util.play.trainer.move_outcomes`)."""
        from .trainer import move_outcomes

        return move_outcomes(self.board, self.sequence)

    def _judge(self, move: chess.Move, outcomes: Optional[list]):
        """The :class:`Util.play.trainer.Judgement` of the person's ``move``; None where the tables cannot say."""
        from .trainer import judge_move

        return judge_move(self.board, move, self.sequence, outcomes) if outcomes else None

    def summary(self) -> str:
        """The person's game in a few words: moves played, how many were best, and the moves that were not
        best, inaccuracies, mistakes and blunders (``"12... Kc5 (blunder: turns the draw into a loss)"``)."""
        played, best = len(self.judged), sum(1 for _, j in self.judged if j is not None and j.best)
        head = f"You played {played} move{'s' if played != 1 else ''}, {best} of them best."
        worse = [f"{text} ({j.label})" for text, j in self.marked_moves() if j is not None and not j.best]
        return head + ("" if not worse else " Moves that were not best: " + "; ".join(worse) + ".")

    def marked_moves(self) -> List[Tuple[str, Optional["Judgement"]]]:
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
        from .trainer import GRADE_MARKS

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
        from .trainer import hardest_best_move

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
    from .trainer import move_outcomes

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
