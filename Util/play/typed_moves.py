"""Moves a person types (thesis chapter 4): UCI ``e7e6`` or SAN ``Ke6``, lowercase SAN too, and what to
say when an entry is no legal move (its examples are legal moves of the position).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import chess

__all__ = ["example_move", "parse_player_move", "type_a_move", "numbered_san"]


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
