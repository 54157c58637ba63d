"""One whole game of our engine against another, every move labelled with where it came from (chapter 7).

::

    from Util.whole_game_lab.annotated_game import play_annotated_game

    game = play_annotated_game(player, engine, chess.WHITE, Limits(nodes=20_000), chess.engine.Limit(nodes=500))
    game.move_text()          # "1. e4 {book} e5 2. Nf3 {book} Nc6 ... 24. Qg6 {table: mate in 8} ..."
    game.phases()             # [("book", 1, 9, 5), ("search", 11, 129, 60), ("tablebase", 131, 145, 8)]
    game.table_check(tables)  # what the table said where it took over, and whether the game ended so

Our moves come from a :class:`~Util.whole_game.player.Player` (book, tables, search; its ``MoveResult``
says which), the other side's from a started ``chess.engine.SimpleEngine``.  With node limits on both
sides (and one thread each) the game is the same every time it is played with the same programs, settings
and tables: it does not depend on how busy the machine is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import chess
import chess.engine

from ..board.material import material_of_board
from ..whole_game.endgame import MAX_PIECES

__all__ = ["AnnotatedGame", "Ply", "TableCheck", "play_annotated_game"]


@dataclass(frozen=True)
class Ply:
    """One move: ``number`` counts plies from 1; ``ours`` whether our engine played it; ``source`` "book",
    "tablebase" or "search" for ours, "opponent" for the other side's; ``label`` the annotation;
    ``score_cp``/``score_mate`` from the mover's side (None where none was given); ``depth`` in plies (for a
    table move, the depth to mate); ``dtm`` our table's signed depth to mate before the move, from our side
    (None off the tables); ``note`` what our engine said beside the move (a missing table); ``pieces`` on
    the board before the move, and its ``material`` (``KQPvK``; "" above five pieces)."""

    number: int
    san: str
    move: chess.Move
    ours: bool
    source: str
    label: str
    score_cp: Optional[int] = None
    score_mate: Optional[int] = None
    depth: int = 0
    dtm: Optional[int] = None
    note: str = ""
    pieces: int = 32
    material: str = ""


@dataclass(frozen=True)
class TableCheck:
    """Where the table took over (``ply``, ``material``, ``dtm`` from our side, in plies) and how the game
    ended from there: ``plies`` played to the end, ``given_away`` plies by which the opponent's replies
    shortened a mate (0: it defended as long as the table says possible), ``as_the_table_says`` whether the
    result is the table's (a mate after exactly ``dtm - given_away`` plies; a draw kept to a drawn end)."""

    ply: int
    material: str
    dtm: int
    plies: int
    given_away: int
    as_the_table_says: bool


@dataclass
class AnnotatedGame:
    """The game: ``plies`` in order, the final ``board``, ``result`` ("1-0", ...), ``termination`` in words,
    ``opponent`` (its UCI name), ``our_colour``."""

    plies: List[Ply]
    board: chess.Board
    result: str
    termination: str
    opponent: str
    our_colour: chess.Color
    start: chess.Board = field(default_factory=chess.Board)

    def move_text(self, ours_only: bool = True) -> str:
        """The moves in SAN with each label in braces (``ours_only``: only our moves'), as in a PGN."""
        board = self.start.copy()
        parts = []
        for ply in self.plies:
            if board.turn == chess.WHITE:
                parts.append(f"{board.fullmove_number}.")
            elif not parts:
                parts.append(f"{board.fullmove_number}...")
            parts.append(ply.san + (f" {{{ply.label}}}" if ply.ours or not ours_only else ""))
            board.push(ply.move)
        return " ".join(parts)

    def phases(self) -> List[Tuple[str, int, int, int]]:
        """``(source, first ply, last ply, our moves)`` for each run of our moves from one source."""
        runs: List[List] = []
        for ply in self.plies:
            if not ply.ours:
                continue
            if runs and runs[-1][0] == ply.source:
                runs[-1][2] = ply.number
                runs[-1][3] += 1
            else:
                runs.append([ply.source, ply.number, ply.number, 1])
        return [tuple(run) for run in runs]

    def first_note(self) -> Optional[Ply]:
        """Our first move with a note (a table that was missing), or None."""
        return next((ply for ply in self.plies if ply.ours and ply.note), None)

    def board_before(self, number: int) -> chess.Board:
        """The position before ply ``number`` (1-based)."""
        board = self.start.copy()
        for ply in self.plies[:number - 1]:
            board.push(ply.move)
        return board

    def table_check(self, tablebase) -> Optional[TableCheck]:
        """The check of the table phase against ``tablebase`` (a :class:`~Util.tablebase.Tablebase`), or None
        if no move of ours came from a table."""
        first = next((ply for ply in self.plies if ply.ours and ply.source == "tablebase"), None)
        if first is None:
            return None
        board = self.board_before(first.number)
        dtm = tablebase.probe_dtm(board)
        given_away = 0
        for ply in self.plies[first.number - 1:]:
            if not ply.ours and not board.is_game_over():
                before = tablebase.get_dtm(board)  # the opponent to move: mated in -before plies at best
                board.push(ply.move)
                after = 0 if board.is_checkmate() else tablebase.get_dtm(board)
                if before is not None and after is not None and before < 0:
                    given_away += (-before - 1) - after
            else:
                board.push(ply.move)
        plies = len(self.plies) - first.number + 1
        outcome = self.board.outcome(claim_draw=True)
        if dtm > 0:
            ends_so = outcome is not None and outcome.winner == self.our_colour and plies == dtm - given_away
        elif dtm == 0:
            ends_so = outcome is not None and outcome.winner is None
        else:
            ends_so = outcome is not None and outcome.winner == (not self.our_colour)
        return TableCheck(first.number, first.material, dtm, plies, given_away, ends_so)


def _score(score: Optional[chess.engine.PovScore], colour: chess.Color) -> Tuple[Optional[int], Optional[int]]:
    if score is None:
        return None, None
    pov = score.pov(colour)
    return pov.score(), pov.mate()


def _label_ours(result) -> str:
    if result.source == "book":
        return f"book, weight {result.book.weight} of {result.book.total_weight}"
    if result.source == "tablebase":
        if result.score_mate is None:
            return "table: draw"
        return f"table: mate in {result.score_mate}" if result.score_mate > 0 else f"table: mated in {-result.score_mate}"
    score = (f"mate in {result.score_mate}" if result.score_mate is not None and result.score_mate > 0
             else f"mated in {-result.score_mate}" if result.score_mate is not None
             else f"{(result.score_cp or 0) / 100:+.2f}")
    return f"search: depth {result.depth}, {score}"


def play_annotated_game(player, engine: chess.engine.SimpleEngine, our_colour: chess.Color, our_limits,
                        their_limit: chess.engine.Limit, start: Optional[chess.Board] = None,
                        max_plies: int = 600) -> AnnotatedGame:
    """Plays ``player`` (ours, ``our_limits`` a :class:`~Util.whole_game.search.Limits`) against ``engine``
    (``their_limit``) from ``start`` (default: the start position) until the rules end the game (draws
    claimed at once) or ``max_plies``; returns the :class:`AnnotatedGame`."""
    board = (start or chess.Board()).copy()
    first = board.copy()
    player.new_game()
    plies: List[Ply] = []
    key = object()  # a new game for the engine: it clears its hash once
    while board.outcome(claim_draw=True) is None and len(plies) < max_plies:
        number, pieces = len(plies) + 1, chess.popcount(board.occupied)
        material = str(material_of_board(board)) if pieces <= MAX_PIECES else ""
        if board.turn == our_colour:
            result = player.get_move(board, our_limits)
            dtm = None
            if result.source == "tablebase":
                dtm = 0 if result.score_mate is None else (result.depth if result.score_mate > 0 else -result.depth)
            ply = Ply(number, board.san(result.move), result.move, True, result.source, _label_ours(result),
                      result.score_cp, result.score_mate, result.depth, dtm, result.note, pieces, material)
        else:
            played = engine.play(board, their_limit, game=key, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
            cp, mate = _score(played.info.get("score"), board.turn)
            depth = int(played.info.get("depth", 0))
            score = f"mate in {mate}" if mate else f"{(cp or 0) / 100:+.2f}"
            ply = Ply(number, board.san(played.move), played.move, False, "opponent", f"depth {depth}, {score}",
                      cp, mate, depth, None, "", pieces, material)
        plies.append(ply)
        board.push(ply.move)
    outcome = board.outcome(claim_draw=True)
    termination = outcome.termination.name.lower().replace("_", " ") if outcome else f"stopped after {max_plies} plies"
    name = engine.id.get("name", "the opponent")
    return AnnotatedGame(plies, board, outcome.result() if outcome else "*", termination, name, our_colour, first)
