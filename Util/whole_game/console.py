"""``python -m Util play``: the seed notebook's console game, a person against the AI.

The board is printed (the person's side at the bottom), the legal moves are
listed, and the person types a move in UCI (``e2e4``, ``e7e8q``) or SAN (``e4``,
``Nf3``, ``O-O``); anything else is explained and asked again.  The AI answers
with its book, its tables or its search (``--time`` seconds a move) and says
which.  At the end the result is named (checkmate, stalemate, repetition, the
fifty-move rule, insufficient material) and the person is asked whether to
play again.  ``quit`` (or the end of the input) leaves at any time; ``undo``
takes back the last pair of moves.
"""

from __future__ import annotations

from typing import Callable, Optional

import chess

__all__ = ["board_text", "describe_reply", "describe_result", "parse_move", "play_console", "play_game"]

TERMINATION_NAMES = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "the seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "the fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}


class QuitGame(Exception):
    """The person typed ``quit`` or the input ended."""


def board_text(board: chess.Board, bottom: chess.Color = chess.WHITE) -> str:
    """The board as text with ranks on the left and files below, ``bottom``'s side nearest the reader."""
    ranks = range(7, -1, -1) if bottom == chess.WHITE else range(8)
    files = range(8) if bottom == chess.WHITE else range(7, -1, -1)
    lines = []
    for rank in ranks:
        pieces = (board.piece_at(chess.square(file, rank)) for file in files)
        lines.append(f"{rank + 1} " + " ".join(piece.symbol() if piece else "." for piece in pieces))
    lines.append("  " + " ".join(chess.FILE_NAMES[file] for file in files))
    return "\n".join(lines)


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """The legal move ``text`` names in UCI or SAN; ValueError saying what was wrong otherwise."""
    text = text.strip()
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        move = None
    if move is not None and move in board.legal_moves:
        return move
    try:
        return board.parse_san(text)
    except chess.AmbiguousMoveError:
        raise ValueError(f"'{text}' could be several moves: name the piece's file or rank too (e.g. Nbd2)") from None
    except ValueError:
        raise ValueError(f"'{text}' is not a legal move here; type one of the moves listed, in SAN (Nf3) or "
                         f"UCI (g1f3)") from None


def describe_result(board: chess.Board) -> str:
    """The end of the game in words, e.g. ``Checkmate: Black wins`` or ``Draw by stalemate``."""
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "The game is not over"
    reason = TERMINATION_NAMES.get(outcome.termination, outcome.termination.name.lower())
    if outcome.winner is None:
        return f"Draw by {reason} ({outcome.result()})"
    return f"{reason.capitalize()}: {chess.COLOR_NAMES[outcome.winner].capitalize()} wins ({outcome.result()})"


def describe_reply(board: chess.Board, result) -> str:
    """The AI's move in ``board`` (before it) and where it came from, for a person: ``"AI plays Nf6
    (opening book, weight 31 of 120)"``, ``"AI plays Qg7# (endgame table: mate in 1)"``, ``"AI plays e5
    (search: depth 12, +0.35 pawns, 812,004 nodes in 1.0 s)"``, with the result's ``note`` if it has one (a
    table that was missing); scores from the AI's side."""
    san = board.san(result.move)
    if result.source == "book":
        return f"AI plays {san} (opening book, weight {result.book.weight} of {result.book.total_weight})"
    if result.score_mate is not None:
        score = f"mate in {result.score_mate}" if result.score_mate > 0 else f"mated in {-result.score_mate}"
    else:
        score = f"{(result.score_cp or 0) / 100:+.2f} pawns"
    if result.source == "tablebase":
        return f"AI plays {san} (endgame table: {score if result.score_mate is not None else 'draw'})"
    note = f"; {result.note}" if result.note else ""
    return (f"AI plays {san} (search: depth {result.depth}, {score}, {result.nodes:,} nodes in "
            f"{result.time:.1f} s{note})")


def _ask_move(board: chess.Board, ask: Callable[[str], str], say: Callable[[str], None]) -> Optional[chess.Move]:
    """The person's move; None for ``undo``.  QuitGame on ``quit`` or the end of the input."""
    say("Legal moves: " + " ".join(sorted(board.san(move) for move in board.legal_moves)))
    while True:
        try:
            text = ask("Your move: ").strip()
        except EOFError:
            raise QuitGame from None
        if text.lower() in ("quit", "exit", "resign"):
            raise QuitGame
        if text.lower() == "undo":
            return None
        if not text:
            continue
        try:
            return parse_move(board, text)
        except ValueError as error:
            say(str(error))


def play_game(player, human: chess.Color, limits, ask: Callable[[str], str] = input,
              say: Callable[[str], None] = print, board: Optional[chess.Board] = None) -> chess.Board:
    """One game from ``board`` (default: the start) until it ends; the final board.  QuitGame if the person
    leaves."""
    board = board or chess.Board()
    while board.outcome(claim_draw=True) is None:
        say("")
        say(board_text(board, human))
        if board.turn == human:
            move = _ask_move(board, ask, say)
            if move is None:
                if len(board.move_stack) >= 2:
                    board.pop()
                    board.pop()
                else:
                    say("Nothing to take back yet")
                continue
            board.push(move)
        else:
            say("AI is thinking ...")
            result = player.get_move(board, limits)
            say(describe_reply(board, result))
            board.push(result.move)
    say("")
    say(board_text(board, human))
    say(describe_result(board))
    return board


def play_console(human: chess.Color = chess.WHITE, seconds: float = 3.0, player=None,
                 ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> int:
    """Games against the AI until the person declines another; exit status 0.  ``player``: a
    :class:`~Util.whole_game.player.Player` (default: the default book and tables)."""
    from .player import Player
    from .search import Limits

    player = player or Player(on_error=say)
    limits = Limits(movetime=seconds)
    say(f"You play {chess.COLOR_NAMES[human]}; the AI thinks {seconds:g} s a move. Type moves in SAN (Nf3) or "
        f"UCI (g1f3); 'undo' takes back a pair of moves, 'quit' leaves.")
    try:
        while True:
            player.new_game()
            play_game(player, human, limits, ask, say)
            try:
                again = ask("Play again? [y/n] ").strip().lower()
            except EOFError:
                again = "n"
            if not again.startswith("y"):
                return 0
    except QuitGame:
        say("Goodbye")
        return 0
    finally:
        player.close()
