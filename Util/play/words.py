"""Every phrase a person reads about a position, a move or a table: the one voice of the notebooks, the
game files and the server.

* distances: :func:`plies_text` (``"7 plies"``), :func:`moves_and_plies` (``"4 (7 plies)"``), ranges
  (:func:`plies_ranges` ``"1–5, 9"``, :func:`moves_ranges` ``"1 or 7–9 moves"``);
* a position: :func:`outcome_words` (``"White mates in 29 (57 plies)"``), :func:`status_line` (the page's
  status), :func:`game_status` (the notebook game's), :func:`termination_message` and :func:`ending_words`
  (why a game is over), :func:`describe_n` (the thesis's S_n),
  :func:`illegal_reasons` (why python-chess calls a position illegal);
* a move: :func:`move_outcome_words` (``"win: mates in 4 (7 plies)"``), :func:`page_move_words` (the
  trainer page's ``"Win · mates in 3 (5 plies)"``), the verdict's :func:`verdict_label` and
  :func:`verdict_sentence`, the PGN comment (:func:`comment_text`);
* a table: :func:`distances_sentence` (the notebook's chooser) and :func:`distances_line` (the page's).

Results are for the side named: 1 a win, 0 a draw, -1 a loss (``Util.play.outcomes.WIN``, ``DRAW``,
``LOSS``).  A distance in plies counts half-moves; "mates in N" counts moves of the mating side, plies / 2
rounded up (7 plies are 4 moves).
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional

import chess

from .outcomes import DRAW, LOSS, WIN, game_end

__all__ = ["RESULT_WORDS", "STATUS_WORDS", "plies_text", "moves_and_plies", "plies_ranges", "moves_ranges",
           "outcome_words", "in_sentence", "after_move_words", "move_outcome_words", "page_move_words",
           "verdict_label", "verdict_sentence", "comment_text", "termination_message", "status_line",
           "game_status", "ending_words", "describe_n", "illegal_reasons", "distances_sentence", "distances_line"]

#: A result for the side named, in a word.
RESULT_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}

#: Why python-chess calls a position illegal (``chess.Board.status()``'s flags), as a sentence part.
STATUS_WORDS = [
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than eight pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than eight pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than sixteen pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than sixteen pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "the castling rights do not fit the board"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en passant square is impossible here"),
    (chess.STATUS_OPPOSITE_CHECK, "the side that is not to move is in check"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the king is in check from more than two pieces"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "this check cannot arise from a move (the checkers stand so that no last "
                                    "move gives it)"),
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_RACE_CHECK, "both kings are in check"),
    (chess.STATUS_RACE_OVER, "the race is over"),
    (chess.STATUS_RACE_MATERIAL, "race material"),
]

#: Why a game is over (:func:`Util.play.outcomes.game_end`'s word), in a sentence for the player.
_END_MESSAGES = {
    "stalemate": "Stalemate: the side to move has no legal move but is not in check. Draw.",
    "insufficient material": "Insufficient material: no side can ever mate. Draw.",
    "fivefold repetition": "Fivefold repetition: the same position for the fifth time. Draw.",
    "75-move rule": "75-move rule: 75 moves each without a capture or pawn move. Draw.",
    "threefold repetition": "Threefold repetition: the same position for the third time; the AI claims the draw.",
    "fifty-move rule": "Fifty-move rule: 50 moves each without a capture or pawn move; the AI claims the draw.",
}


def _colour(colour: chess.Color) -> str:
    return "White" if colour == chess.WHITE else "Black"


# ---- distances ---------------------------------------------------------------------------------------------

def plies_text(count: int) -> str:
    """``'1 ply'``, ``'7 plies'``."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def moves_and_plies(plies: int) -> str:
    """``"29 (57 plies)"``: a distance in moves of the mating side (plies / 2, rounded up) and in plies."""
    return f"{math.ceil(plies / 2)} ({plies_text(plies)})"


def _runs(values: List[int], step: int) -> List[str]:
    """Sorted ``values`` as runs in steps of ``step``: ``[1, 3, 5, 9]``, step 2 -> ``["1–5", "9"]``."""
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + step:
            j += 1
        parts.append(f"{values[i]}–{values[j]}" if j > i else f"{values[i]}")
        i = j + 1
    return parts


def plies_ranges(plies: List[int]) -> str:
    """``[1, 3, 5, 9]`` -> ``"1–5, 9"``: distances of one kind go in steps of two plies; ``[]`` -> ``""``."""
    return ", ".join(_runs(plies, 2))


def moves_ranges(plies: List[int]) -> str:
    """``[2, 14, 16, 18]`` -> ``"1 or 7–9 moves"``: the distances in moves of the mating side (plies / 2,
    rounded up), gaps and all.  ``plies`` must not be empty."""
    moves = sorted({math.ceil(p / 2) for p in plies})
    parts = _runs(moves, 1)
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    return f"{text} move{'' if moves == [1] else 's'}"


# ---- a position ----------------------------------------------------------------------------------------------

def outcome_words(turn: chess.Color, dtm: int, wdl: int) -> str:
    """A position's outcome as a player says it: ``"White mates in 29 (57 plies)"``, ``"Draw"``, ``"White
    has won: checkmate"``.  ``turn``: the side to move; ``dtm``: plies to mate (its sign is ignored);
    ``wdl``: 1 the side to move wins, 0 draw, -1 it loses."""
    if wdl == 0:
        return "Draw"
    plies = abs(dtm)
    if plies == 0:
        return f"{_colour(not turn)} has won: checkmate"
    winner = turn if wdl > 0 else not turn
    return f"{_colour(winner)} mates in {moves_and_plies(plies)}"


def in_sentence(words: str) -> str:
    """:func:`outcome_words` inside a sentence: ``"draw"`` for its ``"Draw"``."""
    return "draw" if words == "Draw" else words


def termination_message(board: chess.Board) -> Optional[str]:
    """Why the game is over, in a sentence for the player (``"Checkmate: White wins."``); None while it
    goes on (the rules: :func:`Util.play.outcomes.game_end`)."""
    end = game_end(board)
    if end == "checkmate":
        return f"Checkmate: {_colour(not board.turn)} wins."
    return _END_MESSAGES.get(end) if end else None


def status_line(board: chess.Board, dtm: int, wdl: int) -> str:
    """What the trainer page says about a position: who is to move and what best play gives
    (``"White to move. White mates in 7 (13 plies)"``), or how the game ended there.  ``dtm`` and ``wdl``
    as for :func:`outcome_words`."""
    if board.is_checkmate():
        return f"Checkmate: {_colour(not board.turn)} has won"
    if board.is_stalemate():
        return f"Stalemate: {_colour(board.turn)} has no move; a draw"
    if board.is_insufficient_material():
        return "Draw: neither side can mate"
    return f"{_colour(board.turn)} to move. {outcome_words(board.turn, dtm, wdl)}"


def game_status(turn: chess.Color, who: str, outcome: Optional[str] = None, s_n: Optional[int] = None,
                zugzwang: bool = False) -> str:
    """The notebook game's status line: ``"Black (Player) to move. White mates in 7 (14 plies)."``.
    ``who``: who plays the side to move (``"AI"`` or the person's name); ``outcome``: :func:`outcome_words`
    of the position (None where no table can say); ``s_n``: the thesis's n of the position in its own
    game (-1: in no S_n; None: not said); ``zugzwang``: the position is a mutual zugzwang."""
    text = f"{_colour(turn)} ({who}) to move."
    if outcome is None:
        return text
    text += f" {outcome}."
    if s_n is not None:
        text += f" The position is in S_{s_n}." if s_n >= 0 else " The position is in no S_n."
    if zugzwang:
        text += " A mutual zugzwang: whoever is to move here would rather pass."
    return text


def ending_words(board: chess.Board, you: Optional[chess.Color]) -> Optional[str]:
    """How the game ended in ``board``, said to the person playing ``you`` (``"You won: checkmate"``,
    ``"Draw: stalemate"``; without ``you``, the winner is named as :func:`status_line` names it); None
    while checkmate, stalemate and a lack of mating material have not ended it."""
    if board.is_checkmate():
        if you is None:
            return status_line(board, 0, -1)
        return "You won: checkmate" if you != board.turn else "You lost: checkmate"
    if board.is_stalemate():
        return "Draw: stalemate"
    if board.is_insufficient_material():
        return "Draw: neither side can mate"
    return None


def describe_n(n: int) -> str:
    """What the thesis's n (White mates in n plies; -1: in no S_n) means, in words."""
    if n < 0:
        return "in no S_n: White cannot force mate (a draw with best defence)"
    if n == 0:
        return "S_0: Black is checkmated"
    moves = (n + 1) // 2
    return (f"S_{n}: the AI mates in {plies_text(n)} ({moves} move{'s' if moves != 1 else ''} of White) against "
            "the best defence, sooner if the defence errs")


def illegal_reasons(status: chess.Status) -> str:
    """Why python-chess's ``status`` (of ``chess.Board.status()``) is not ``STATUS_VALID``: its reasons
    joined by ``"; "`` (``"the side that is not to move is in check"``); a flag without words is named as
    python-chess names it."""
    reasons = [words for flag, words in STATUS_WORDS if status & flag]
    return "; ".join(reasons) or f"python-chess reports {status!r}"


# ---- a move --------------------------------------------------------------------------------------------------

def move_outcome_words(result: int, plies: Optional[int]) -> str:
    """A move's outcome for the side that plays it, counted from before the move: ``"win: mates in 4 (7
    plies)"``, ``"draw"`` or ``"loss: mated in 6 (12 plies)"`` (``plies`` is None for a draw)."""
    if result == DRAW:
        return "draw"
    count = moves_and_plies(plies)
    return f"win: mates in {count}" if result == WIN else f"loss: mated in {count}"


def after_move_words(mover: chess.Color, result: int, plies: Optional[int]) -> str:
    """:func:`outcome_words` of the position after a move of ``mover`` whose outcome for ``mover`` is
    ``result`` in ``plies`` (counted before the move; None for a draw): counted from there, one ply fewer."""
    after = None if plies is None else plies - 1
    return outcome_words(not mover, after or 0, -result)


def page_move_words(category: str, dtm: Optional[int], checkmate: bool = False, stalemate: bool = False,
                    insufficient_material: bool = False) -> str:
    """A move of lichess's ``/standard`` answer for the side that plays it, as the trainer page's move list
    shows it: ``"Win · mates in 3 (5 plies)"``, ``"Win · checkmate"``, ``"Loss · mated in 2 (4 plies)"``,
    ``"Draw · stalemate"``, ``"Draw · no mating material"``, ``"Draw"``.

    The arguments are the move's fields: its ``category`` and ``dtm`` are those of the position after it,
    for the opponent, so a move whose category is ``"loss"`` wins; the distance counts the move itself
    (``abs(dtm) + 1`` plies, 1 for a mate)."""
    if category == "draw":
        why = "stalemate" if stalemate else "no mating material" if insufficient_material else ""
        return f"Draw · {why}" if why else "Draw"
    count = 1 if checkmate else abs(dtm) + 1
    if category == "loss":
        return "Win · checkmate" if checkmate else f"Win · mates in {moves_and_plies(count)}"
    return f"Loss · mated in {moves_and_plies(count)}"


def verdict_label(best_result: int, played_result: int, lost_plies: int, grade: str) -> str:
    """What a move did, compared with the best one, in a few words: ``"best move"``, ``"inaccuracy: only
    delays mate, by 2 plies"``, ``"mistake: hastens mate, by 40 plies"``, ``"blunder: turns the win into a
    draw"``.  ``grade``: ``"best"``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"``; ``lost_plies``: how
    much further (or sooner) mate is than with the best move, for a move of the same result."""
    if grade == "best":
        return "best move"
    if grade == "blunder":
        return f"blunder: turns the {RESULT_WORDS[best_result]} into a {RESULT_WORDS[played_result]}"
    action = "only delays mate" if played_result == WIN else "hastens mate"
    return f"{grade}: {action}, by {plies_text(lost_plies)}"


def verdict_sentence(san: str, label: str, before: str, after: str, best_san: Optional[str] = None,
                     best_after: Optional[str] = None) -> str:
    """``"Kd7 — best move. Before it: White mates in 7 (14 plies); after it: White mates in 7 (13 plies)."``;
    with ``best_san`` (a move that was not best), also the best move and where it leads.  ``before``,
    ``after`` and ``best_after`` are :func:`outcome_words`."""
    text = f"{san} — {label}. Before it: {in_sentence(before)}; after it: {in_sentence(after)}"
    if best_san is not None:
        text += f"; after {best_san} (best): {in_sentence(best_after)}"
    return text + "."


def comment_text(after: str, better_san: Optional[str] = None) -> str:
    """A move's PGN comment: the outcome after it (:func:`outcome_words`), and ``"; left the best line (Qb7
    was better)"`` where ``better_san`` was the better move."""
    return after if better_san is None else f"{after}; left the best line ({better_san} was better)"


# ---- a table -------------------------------------------------------------------------------------------------

def distances_sentence(material: str, white_to_move: bool, found: Dict[str, Dict[int, int]], draws: bool) -> str:
    """What a random start of a table can give, as the notebook's chooser says it: ``"KQvK, White to move:
    White mates in 1–10 moves (1–19 plies); draws exist; Black never mates"``.  ``found``: the plies of
    ``"win"`` and ``"loss"`` for the side to move (``Util.play.random_starts.distances``); ``draws``:
    whether a drawn position was found."""
    mover, other = ("White", "Black") if white_to_move else ("Black", "White")
    parts = []
    for winner, plies in ((mover, list(found["win"])), (other, list(found["loss"]))):
        if plies:
            parts.append(f"{winner} mates in {moves_ranges(plies)} ({plies_ranges(plies)} "
                         f"{'ply' if plies == [1] else 'plies'})")
    parts.append("draws exist" if draws else "no draw found")
    parts += [f"{winner} never mates" for winner, key in ((mover, "win"), (other, "loss")) if not found[key]]
    return f"{material}, {mover} to move: " + "; ".join(parts)


def distances_line(material: str, side: chess.Color, win: List[int], loss: List[int]) -> str:
    """The distances of a table as the trainer page says them: ``"In KQvK with White to move, White mates
    in 1–19 plies; White is never mated."``.  ``win``: the sorted plies in which the side to move mates;
    ``loss``: those in which it is mated."""
    mover = _colour(side)
    mates = f"mates in {plies_ranges(win)} plies" if win else "never mates"
    mated = f"is mated in {plies_ranges(loss)} plies" if loss else "is never mated"
    return f"In {material} with {mover} to move, {mover} {mates}; {mover} {mated}."
