"""A whole game against the engine in a notebook (chapter 7): :class:`WholeGameWidget`.

The board that takes moves (:mod:`Util.notebook.board_widget`, drag or click) beside a box for a typed move, as
the seed notebook's console game asked for one (SAN ``Nf3`` or UCI ``g1f3``), around a
:class:`~Util.whole_game.player.Player` or :class:`~Util.whole_game.levels.LevelPlayer`.  The engine
answers at once (the kernel is busy for its thinking time); the status says where its move came from
(book, tables, search with depth and score).  Its state lives in ipywidgets, so a script drives it as a
person does (:meth:`WholeGameWidget.type_move`), and a saved notebook shows a static copy.
"""

from __future__ import annotations

import html
from typing import List, Optional

import chess
import ipywidgets as widgets

from .board_widget import ChessBoardWidget, move_from_board
from .copies import ERROR_STYLE, OK_STYLE, StaticCopy, board_picture, board_text, html_line, plain_text
from .play_widget import beside_or_below
from ..whole_game.console import describe_reply, describe_result, parse_move

__all__ = ["WholeGameWidget"]


class WholeGameWidget:
    """Board, status line, move box, "New game" and the move list; ``player`` answers each move within
    ``limits`` (a :class:`~Util.whole_game.search.Limits`)."""

    def __init__(self, player, person: chess.Color = chess.WHITE, limits=None, board: Optional[chess.Board] = None,
                 size: int = 320) -> None:
        self.player, self.person, self.limits, self.size = player, person, limits, size
        self.start = (board or chess.Board()).copy()
        self.game = self.start.copy()
        self.board = ChessBoardWidget(size=size, layout=widgets.Layout(flex="0 0 auto", width=f"{size}px"))
        self.status, self.message, self.moves = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.text = widgets.Text(description="Move:", continuous_update=False, placeholder="e.g. e4 or g1f3",
                                 style={"description_width": "initial"}, layout=widgets.Layout(width="16em"))
        self.new_game_button = widgets.Button(description="New game", icon="refresh", layout=widgets.Layout(width="auto"))
        self.text.observe(lambda change: self.type_move(change["new"]) if change["new"] else None, names="value")
        self.board.observe(self._on_board_move, names=["move", "refused"])
        self.new_game_button.on_click(lambda _button: self.new_game())
        self.box = beside_or_below(self.board, [self.text, self.new_game_button], [self.status, self.message, self.moves])
        self._static = StaticCopy()
        self._engine_turn()

    def _ipython_display_(self) -> None:
        self._static.show(self.box, self._parts(), self._text())

    def _parts(self) -> List[str]:
        picture = board_picture(self.game, self.size, self.person == chess.BLACK)
        return [picture, self.status.value, self.message.value, self.moves.value]

    def _text(self) -> str:
        parts = [self.status.value, self.message.value, self.moves.value]
        return "\n".join([board_text(self.game, self.person == chess.BLACK)] + [plain_text(p) for p in parts if p])

    def type_move(self, text: str) -> bool:
        """Play the person's move typed as ``text``; then the engine's reply.  False (and the reason shown)
        for a move that is not legal or not the person's turn."""
        self.text.value = ""
        if self.game.is_game_over(claim_draw=True) or self.game.turn != self.person:
            self.message.value = html_line("it is not your turn", ERROR_STYLE)
            self.refresh()
            return False
        try:
            move = parse_move(self.game, text)
        except ValueError as error:
            self.message.value = html_line(str(error), ERROR_STYLE)
            self.refresh()
            return False
        self.game.push(move)
        self.message.value = ""
        self._engine_turn()
        return True

    def _on_board_move(self, change) -> None:
        played, refused = self.board.move, self.board.refused
        self.board.done()
        if played:
            move = move_from_board(self.game, played)
            if move is not None:
                self.type_move(move.uci())
        elif refused:
            self.message.value = html_line(f"{refused[:2]}-{refused[2:4]} is not a legal move here", ERROR_STYLE)

    def _engine_turn(self) -> None:
        if not self.game.is_game_over(claim_draw=True) and self.game.turn != self.person:
            result = self.player.get_move(self.game, self.limits)
            self.message.value = html_line(describe_reply(self.game, result), OK_STYLE)
            self.game.push(result.move)
        self.refresh()

    def new_game(self) -> None:
        self.game = self.start.copy()
        self.player.new_game()
        self.message.value = ""
        self._engine_turn()

    def refresh(self) -> None:
        game = self.game
        over = game.is_game_over(claim_draw=True)
        self.board.show(game, movable=not over and game.turn == self.person, flipped=self.person == chess.BLACK)
        turn = "your move" if game.turn == self.person else "the AI to move"
        self.status.value = html_line(describe_result(game) if over else turn, "font-weight:bold")
        self.moves.value = html.escape(chess.Board(self.start.fen()).variation_san(game.move_stack))
        self.text.disabled = over
        self._static.update(self.box, self._parts(), self._text())
