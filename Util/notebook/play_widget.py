"""The notebook control for playing (chapter 4): :class:`PlayWidget`.

It is a board that takes moves (:mod:`Util.notebook.board_widget`) beside the thesis's input box and
"Execute Move" button, both around one :class:`Util.play.session.PlaySession`.  Its state lives in ipywidgets,
so tests drive it exactly as a person does: set the text (as pressing Enter does), set the board's
move (as a drag does), click a button or a hint's row.  It is displayed with a static copy
(:mod:`Util.notebook.copies`): the board as SVG, the status, the move list and the hint table.

The chapter's other two controls live in their own modules and are importable from here too:
:class:`Util.notebook.chooser.GameChooser` (a random game of a table) and
:class:`Util.notebook.replay_widget.ReplayWidget` / :func:`Util.notebook.replay_widget.start_replay` (chapter 5).
"""

from __future__ import annotations

import html
import time
from typing import List

import chess
import ipywidgets as widgets

from .board_widget import ChessBoardWidget, move_from_board
from ..play.session import PlaySession
from ..play.typed_moves import example_move, type_a_move
from .chooser import GameChooser
from .hint_widget import HintTable, hint_rows
from .replay_widget import ReplayWidget, start_replay
from ..play.verdicts import GRADE_COLOURS, GRADE_MARKS, Judgement
from .copies import (ERROR_STYLE, HELP_STYLE, OK_STYLE, StaticCopy, board_picture, board_text, html_line,
                            plain_text)

__all__ = ["PlayWidget", "GameChooser", "ReplayWidget", "start_replay", "board_picture",
           "judgement_html", "move_list_html", "summary_html", "beside_or_below"]


def judgement_html(judgement: Judgement, prefix: str = "") -> str:
    """A verdict in its colour (green best, orange inaccuracy, deep orange mistake, red blunder), its words
    first."""
    colour = judgement.colour
    return (f'<div class="chessai-verdict {judgement.kind}" style="color:{colour};border-left:4px solid {colour};'
            f'padding-left:6px"><b>{html.escape(prefix + judgement.san + " — " + judgement.label)}</b>'
            f'{html.escape(judgement.sentence[len(judgement.san + " — " + judgement.label):])}</div>')


def move_list_html(marked: List[tuple]) -> str:
    """The game's moves, numbered, in SAN; the person's inaccuracies (``?!``, orange), mistakes (``?``, deep
    orange) and blunders (``??``, red) marked in colour and by sign, their verdict as the tooltip."""
    if not marked:
        return ""
    items = []
    for ply, (text, judgement) in enumerate(marked):
        if "... " in text and ply > 0:
            text = text.split("... ", 1)[1]
        if judgement is None or judgement.best:
            items.append(html.escape(text))
        else:
            items.append(f'<span class="{judgement.kind} {judgement.grade}" style="color:{judgement.colour};'
                         f'font-weight:bold" title="{html.escape(judgement.sentence)}">'
                         f'{html.escape(text + GRADE_MARKS[judgement.grade])}</span>')
    legend = ('<span style="color:#888;font-size:smaller"> (?! an inaccuracy: same result, a few plies given away; '
              '? a mistake: same result, 10 plies or more given away; ?? a blunder: a worse result)</span>'
              if any(j and not j.best for _, j in marked) else "")
    return '<div class="chessai-movelist"><b>Moves:</b> ' + " ".join(items) + legend + "</div>"


def summary_html(session: PlaySession) -> str:
    """The end of a game: :meth:`PlaySession.summary`, each move that was not best in its colour."""
    judgements = [j for _, j in session.judged if j is not None]
    best = sum(1 for j in judgements if j.best)
    played = len(session.judged)
    worse = [(text, j) for text, j in session.marked_moves() if j is not None and not j.best]
    head = f"You played {played} move{'s' if played != 1 else ''}, {best} of them best."
    if not worse:
        return f'<div class="chessai-summary"><b>{html.escape(head)}</b></div>'
    items = "".join(f'<li style="color:{j.colour}"><b>{html.escape(text + GRADE_MARKS[j.grade])}</b> '
                    f'{html.escape(j.label)}</li>' for text, j in worse)
    return f'<div class="chessai-summary"><b>{html.escape(head)}</b> Moves that were not best:<ul>{items}</ul></div>'


def _button(description: str, icon: str, tooltip: str) -> widgets.Button:
    """A button as wide as its words (at the default width five of them need 750px)."""
    return widgets.Button(description=description, icon=icon, tooltip=tooltip, layout=widgets.Layout(width="auto"))


def beside_or_below(board: widgets.Widget, controls: List[widgets.Widget], column: List[widgets.Widget]):
    """The board with a column beside it: ``column``'s first item, then ``controls`` in a row that wraps,
    then the rest.  Where the window is too narrow for both (the column needs 280px) the column goes
    below the board: nothing is cut off or hidden behind the board."""
    row = widgets.HBox(controls, layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
    side = widgets.VBox(column[:1] + [row] + column[1:],
                        layout=widgets.Layout(margin="0 0 0 1em", flex="1 1 280px", min_width="280px"))
    return widgets.HBox([board, side], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))


class PlayWidget:
    """Board (drag or click a piece), status line, input box with "Execute Move" (Enter submits), "New game",
    messages; a move on the board and a typed one take the same path (:meth:`submit`)."""

    #: After a move, an "Execute Move" click on the emptied box within this many seconds is the same
    #: submission (leaving the box to click the button already sent the text).
    SAME_SUBMISSION_S = 2.0

    def __init__(self, session: PlaySession, size: int = 320):
        self.session, self.size = session, size
        # a fixed size: the box beside it must not squeeze the board (chessground fills what it is given)
        self.board = ChessBoardWidget(size=size, layout=widgets.Layout(flex="0 0 auto", width=f"{size}px"))
        self.board_view = widgets.HTML()  # the board as SVG: the static copy of a headless run
        self.status = widgets.HTML()
        self.message = widgets.HTML()
        self.files = widgets.HTML()
        # wide enough for the placeholder ("your move, e.g. Qxc6+ or c4c5"), narrow enough for a phone
        self.text = widgets.Text(description="Move:", continuous_update=False, style={"description_width": "initial"},
                                 layout=widgets.Layout(width="22em", max_width="100%"))
        self.execute_button = _button("Execute Move", "check", "play the move typed")
        self.new_game_button = _button("New game", "refresh", "start again")
        self.hint_button = _button("Hint", "lightbulb-o", "every legal move with its outcome, best first")
        self.take_back_button = _button("Take back", "undo", "undo your last move and the AI's reply")
        self.flip_button = _button("Flip board", "retweet", "turn the board round")
        # the person's side at the bottom, in the thesis's game too (Black, defending)
        self.flipped = session.person == chess.BLACK
        self.verdict = widgets.HTML()
        self.moves = widgets.HTML()  # the move list: numbered SAN, the person's mistakes marked
        self.summary = widgets.HTML()  # at the end of the game
        # a long list (28 moves) scrolls in place rather than pushing the chooser below it down the page
        self.hints = HintTable(layout=widgets.Layout(max_height="16em", overflow="auto"))
        self._hints_fen = ""  # the position the hint table is about
        self.text.observe(self._on_text, names="value")
        self.text.on_msg(self._on_text_message)
        self.execute_button.on_click(self._on_execute)
        self.new_game_button.on_click(self._on_new_game)
        self.hint_button.on_click(lambda _button: self.show_hints())
        self.take_back_button.on_click(lambda _button: self.take_back())
        self.flip_button.on_click(lambda _button: self.flip())
        self.board.observe(self._on_board_move, names=["move", "refused"])
        self.hints.observe(self._on_hint_chosen, names="chosen")
        self._last_submission, self._last_entry = float("-inf"), ""
        self._static = StaticCopy()
        self.box = beside_or_below(self.board, [self.text, self.execute_button, self.hint_button,
                                                self.take_back_button, self.new_game_button, self.flip_button],
                                   [self.status, self.message, self.verdict, self.hints, self.moves, self.summary,
                                    self.files])
        self._show_reply()
        self.refresh()

    def _ipython_display_(self) -> None:
        self._static.show(self.box, self._static_parts(), self._static_text())

    def _static_parts(self) -> List[str]:
        return [self.board_view.value, self.status.value, self.message.value, self.verdict.value,
                self.hints.to_html(), self.moves.value, self.summary.value]

    def _static_text(self) -> str:
        board = self.session.board
        lines = [board_text(board, self.flipped), self.session.status()]
        lines += [plain_text(part) for part in (self.message.value, self.verdict.value, self.moves.value,
                                            self.summary.value) if part]
        lines += [f"{row['san']}: {row['outcome']}" for row in self.hints.rows]
        return "\n".join(lines)

    def refresh(self) -> None:
        """Show the session as it is now: board, status, move list, the box's example and the static copy."""
        board = self.session.board
        self.board_view.value = board_picture(board, self.size, self.flipped)
        self.board.show(board, movable=not self.session.over and board.turn == self.session.person,
                        flipped=self.flipped)
        if board.fen() != self._hints_fen:  # the table was about another position
            self.hints.rows = []
        self.status.value = html_line(self.session.status(), "font-weight:bold")
        self.moves.value = move_list_html(self.session.marked_moves())
        self.summary.value = summary_html(self.session) if self.session.over and self.session.judged else ""
        self.text.disabled = self.execute_button.disabled = self.session.over
        example = example_move(board)
        self.text.placeholder = (f"your move, e.g. {example[0]} or {example[1]}"
                                 if example and not self.session.over else "")
        history = self.session.history
        self.files.value = html_line(f"history: {history.path}  |  PGN: {history.pgn_path.name}" if history.written
                                 else f"the game is saved to {history.folder}/ from your first move on", "color:#666")
        self._static.update(self.box, self._static_parts(), self._static_text())

    def _show_reply(self) -> None:
        reply = self.session.last_reply
        self.message.value = html_line(reply.text, OK_STYLE) if reply else ""

    def submit(self, text: str) -> None:
        """Play the entry (and the AI's answer), or show why not; the game is unchanged then, and a
        rejected entry stays in the box to be corrected."""
        self._last_submission, self._last_entry = time.monotonic(), text
        try:
            said = self.session.submit(text)
            if self.session.over:  # the summary has its own line, in colour
                said = said.removesuffix(" " + self.session.summary())
            self.message.value = html_line(said, OK_STYLE)
            self._set_text("")
            judgement = self.session.last_judgement
            self.verdict.value = judgement_html(judgement, "Your move: ") if judgement else ""
        except ValueError as problem:
            self.message.value = html_line(str(problem), ERROR_STYLE)
        finally:
            self.refresh()

    def _on_board_move(self, change) -> None:
        # a move, or an illegal drop (``refused``; so is a stale move: the game moved on meanwhile): submit
        # plays it or says why not, in place of the last message (an old complaint too)
        if change["new"]:
            try:
                move = move_from_board(self.session.board, change["new"])
                self.submit(move.uci() if move else change["new"])
            finally:
                self.board.done()

    def _set_text(self, text: str) -> None:
        self.text.unobserve(self._on_text, names="value")
        self.text.value = text
        self.text.observe(self._on_text, names="value")

    def _on_text(self, change) -> None:
        if change["new"].strip():
            self.submit(change["new"])
        else:  # the person emptied the box and pressed Enter (the browser sends the value first)
            self.press_enter_on_empty_box()

    def _on_text_message(self, _widget, content, _buffers) -> None:
        # The browser also sends "submit" on every Enter: the only sign of an Enter in a box that
        # was empty already, since the value did not change.
        if content.get("event") == "submit" and not self.text.value.strip():
            self.press_enter_on_empty_box()

    def take_back(self) -> None:
        """Undo the person's last move and the AI's reply (or say why not)."""
        try:
            self.message.value = html_line(self.session.take_back(), OK_STYLE)
            self.verdict.value = ""
        except ValueError as problem:
            self.message.value = html_line(str(problem), ERROR_STYLE)
        self.refresh()

    def flip(self) -> None:
        """Turn the board round."""
        self.flipped = not self.flipped
        self.refresh()

    def show_hints(self) -> None:
        """Show every legal move of the side to move with its outcome, best first, as a table whose rows
        play the move when clicked."""
        if self.session.over:
            self.message.value = html_line("The game is over: no moves to show.", ERROR_STYLE)
            return
        self.message.value = ""
        self.hints.heading = f'outcome for {"White" if self.session.board.turn else "Black"}'
        self.hints.rows = hint_rows(self.session.hints())
        self._hints_fen = self.session.board.fen()
        self._static.update(self.box, self._static_parts(), self._static_text())

    def _on_hint_chosen(self, change) -> None:
        if change["new"]:
            try:
                self.submit(change["new"])
            finally:
                self.hints.done()

    def press_enter_on_empty_box(self) -> None:
        """What Enter in the empty box does: say what to type (or that the game is over)."""
        if self.session.over:
            self.message.value = html_line("The game is over: press 'New game', or start another one below.", HELP_STYLE)
        else:
            self.message.value = html_line(type_a_move(self.session.board), HELP_STYLE)
        self.refresh()

    def _on_execute(self, _button) -> None:
        recent = time.monotonic() - self._last_submission <= self.SAME_SUBMISSION_S
        if self.text.value.strip():
            # leaving the box to click the button already sent this entry: do not play it twice
            if not (recent and self.text.value == self._last_entry):
                self.submit(self.text.value)
        elif not recent:
            self.submit("")  # explains what to type

    def _on_new_game(self, _button) -> None:
        self.session.new_game()
        self._announce_new_game()

    def play(self, session: PlaySession) -> None:
        """Switch to another game (another start, table or side)."""
        self.session = session
        self.flipped = session.person == chess.BLACK
        self._announce_new_game()

    def _announce_new_game(self) -> None:
        self.verdict.value = ""
        reply = self.session.last_reply
        self.message.value = html_line("New game." + (f" {reply.text}" if reply else ""), OK_STYLE)
        self.refresh()
