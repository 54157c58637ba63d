"""Setting up a game against the AI (thesis chapter 4): the start position and the table it needs.

* :func:`create_board` builds the start position from the thesis's ``WHITE_POSITIONS`` /
  ``BLACK_POSITIONS`` dictionaries and names every mistake in them; :func:`board_from_fen` reads a FEN;
  :func:`person_colour` reads the notebook's PLAY_AS.
* :func:`table_for` / :func:`table_named` load the S_n sequence of the start's material;
  ``MissingTableError`` says how to compute a missing one.

Each mistake is a :class:`SetupError` whose message says what to change.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, Optional

import chess

from ..board.material import Material, MaterialError, material_of_board
from ..folders import RESULTS_DIR
from ..probing.table_folder import MissingTableError
from ..sequence import SnSequence, load_s_n_sequence
from .records import PlainMessage
from .words import illegal_reasons

__all__ = ["SetupError", "create_board", "board_from_fen", "person_colour", "table_for", "table_named"]

_SQUARE = re.compile(r"^[a-h][1-8]$")
_NAMES = {"king": chess.KING, "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP,
          "knight": chess.KNIGHT, "pawn": chess.PAWN}


class SetupError(PlainMessage, ValueError):
    """The start position given in WHITE_POSITIONS / BLACK_POSITIONS is not usable; the message says why."""


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
        raise SetupError(f"the position is not legal: {illegal_reasons(board.status())} ({board.fen()})")
    return board


def board_from_fen(fen: str) -> chess.Board:
    """The start position given as FEN (any material with both kings); SetupError says what is wrong."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise SetupError(f"START_FEN {fen!r} is not a FEN ({error}); write it like "
                         "'8/8/8/4k3/8/8/8/KQ6 w - - 0 1'") from None
    if not board.is_valid():
        raise SetupError(f"START_FEN {fen!r} is not a legal position: {illegal_reasons(board.status())}")
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


def table_for(board: chess.Board, results_dir: os.PathLike = RESULTS_DIR, file: Optional[str] = None) -> SnSequence:
    """The S_n sequence for the board's material: ``file`` if given, else ``<results_dir>/<MATERIAL>.chessAI``.

    MissingTableError says which file to compute and how.
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
