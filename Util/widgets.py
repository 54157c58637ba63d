"""The notebook controls for playing (chapter 4) and replaying (chapter 5).

:class:`PlayWidget` is a board that takes moves (:mod:`Util.board_widget`)
beside the thesis's input box and "Execute Move" button, both around one
:class:`Util.game.PlaySession`; :class:`ReplayWidget` steps through
a history file.  Both keep their state in ipywidgets, so tests can drive
them exactly as a person does: set the text (as pressing Enter does),
set the board's move (as a drag does), click a button or a hint's row.

Each widget is displayed with a static copy of what it shows beside its
live view in one output (a ``text/html`` and a ``text/plain`` of the same
bundle: the board as SVG, the status, the move list, the hint table; the
chooser as a sentence), so the saved notebook reads where widgets cannot be
drawn: without a kernel, or on GitHub.  A headless run (:mod:`Util.headless`)
keeps that copy up to date as its game goes on; in front of a person it
shows the game as displayed, since updating it would redraw the live board.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import chess
import chess.svg
import ipywidgets as widgets
from IPython.display import HTML, SVG, display

from .board_widget import ChessBoardWidget, move_from_board, with_metadata
from .game import PlaySession, example_move, type_a_move
from .game_records import HistoryError, describe_game, history_files, read_history, replay_positions
from .headless import is_headless
from .hint_widget import HintTable, hint_rows
from .trainer import KIND_COLOURS, KIND_MARKS, Judgement

OK_STYLE = "color:#1a6b1a"
ERROR_STYLE = "color:#b00020;font-weight:bold"
HELP_STYLE = "color:#444"


def board_picture(board: chess.Board, size: int = 320, flipped: bool = False) -> str:
    """SVG of the board with its last move and a king in check marked (``flipped``: Black at the bottom)."""
    lastmove = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    return chess.svg.board(board, lastmove=lastmove, check=check, size=size, flipped=flipped)


def _html(text: str, style: str = "") -> str:
    import html

    return f'<div style="{style}">{html.escape(text)}</div>'


class _StaticCopy:
    """The output of a widget: its live view and a static copy (``text/html``, ``text/plain``) in one
    bundle; a headless run updates the copy as the widget changes."""

    def __init__(self) -> None:
        self._handle = None

    def show(self, box: widgets.Widget, html_parts: List[str], text: str) -> None:
        self._handle = display(self.bundle(box, html_parts, text), raw=True, display_id=True)

    def update(self, box: widgets.Widget, html_parts: List[str], text: str) -> None:
        if self._handle is not None and is_headless():
            self._handle.update(self.bundle(box, html_parts, text), raw=True)

    @staticmethod
    def bundle(box: widgets.Widget, html_parts: List[str], text: str) -> dict:
        data = with_metadata(box._repr_mimebundle_())[0]
        note = _html("(a saved copy of the widget, for readers without a running notebook)",
                     "color:#888;font-size:smaller")
        data["text/html"] = '<div class="chessai-static-copy">' + "".join(html_parts) + note + "</div>"
        data["text/plain"] = text
        return data


def _plain(markup: str) -> str:
    """The text of a bit of HTML (for the ``text/plain`` copy)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def judgement_html(judgement: Judgement, prefix: str = "") -> str:
    """A verdict in its colour (green best, orange inaccuracy, red mistake), its words first."""
    import html

    colour = KIND_COLOURS[judgement.kind]
    return (f'<div class="chessai-verdict {judgement.kind}" style="color:{colour};border-left:4px solid {colour};'
            f'padding-left:6px"><b>{html.escape(prefix + judgement.san + " — " + judgement.label)}</b>'
            f'{html.escape(judgement.sentence[len(judgement.san + " — " + judgement.label):])}</div>')


def move_list_html(marked: List[tuple]) -> str:
    """The game's moves, numbered, in SAN; the person's inaccuracies (``?!``, orange) and mistakes
    (``??``, red) marked in colour and by sign, their verdict as the tooltip."""
    import html

    if not marked:
        return ""
    items = []
    for ply, (text, judgement) in enumerate(marked):
        if "... " in text and ply > 0:
            text = text.split("... ", 1)[1]
        if judgement is None or judgement.best:
            items.append(html.escape(text))
        else:
            items.append(f'<span class="{judgement.kind}" style="color:{KIND_COLOURS[judgement.kind]};'
                         f'font-weight:bold" title="{html.escape(judgement.sentence)}">'
                         f'{html.escape(text + KIND_MARKS[judgement.kind])}</span>')
    legend = ('<span style="color:#888;font-size:smaller"> (?! an inaccuracy: same result, mate further or sooner; '
              '?? a mistake: a worse result)</span>' if any(j and not j.best for _, j in marked) else "")
    return '<div class="chessai-movelist"><b>Moves:</b> ' + " ".join(items) + legend + "</div>"


def summary_html(session: PlaySession) -> str:
    """The end of a game: :meth:`PlaySession.summary`, each mistake in its colour."""
    import html

    judgements = [j for _, j in session.judged if j is not None]
    best = sum(1 for j in judgements if j.best)
    played = len(session.judged)
    worse = [(text, j) for text, j in session.marked_moves() if j is not None and not j.best]
    head = f"You played {played} move{'s' if played != 1 else ''}, {best} of them best."
    if not worse:
        return f'<div class="chessai-summary"><b>{html.escape(head)}</b></div>'
    items = "".join(f'<li style="color:{KIND_COLOURS[j.kind]}"><b>{html.escape(text + KIND_MARKS[j.kind])}</b> '
                    f'{html.escape(j.label)}</li>' for text, j in worse)
    return f'<div class="chessai-summary"><b>{html.escape(head)}</b> Mistakes:<ul>{items}</ul></div>'


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
        self._static = _StaticCopy()
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
        lines = [str(board.transform(chess.flip_vertical).transform(chess.flip_horizontal)) if self.flipped
                 else str(board), self.session.status()]
        lines += [_plain(part) for part in (self.message.value, self.verdict.value, self.moves.value,
                                            self.summary.value) if part]
        lines += [f"{row['san']}: {row['outcome']}" for row in self.hints.rows]
        return "\n".join(lines)

    def refresh(self) -> None:
        board = self.session.board
        self.board_view.value = board_picture(board, self.size, self.flipped)
        self.board.show(board, movable=not self.session.over and board.turn == self.session.person,
                        flipped=self.flipped)
        if board.fen() != self._hints_fen:  # the table was about another position
            self.hints.rows = []
        self.status.value = _html(self.session.status(), "font-weight:bold")
        self.moves.value = move_list_html(self.session.marked_moves())
        self.summary.value = summary_html(self.session) if self.session.over and self.session.judged else ""
        self.text.disabled = self.execute_button.disabled = self.session.over
        example = example_move(board)
        self.text.placeholder = (f"your move, e.g. {example[0]} or {example[1]}"
                                 if example and not self.session.over else "")
        history = self.session.history
        self.files.value = _html(f"history: {history.path}  |  PGN: {history.pgn_path.name}" if history.written
                                 else f"the game is saved to {history.folder}/ from your first move on", "color:#666")
        self._static.update(self.box, self._static_parts(), self._static_text())

    def _show_reply(self) -> None:
        reply = self.session.last_reply
        self.message.value = _html(reply.text, OK_STYLE) if reply else ""

    def submit(self, text: str) -> None:
        """Play the entry (and the AI's answer), or show why not; the game is unchanged then, and a
        rejected entry stays in the box to be corrected."""
        self._last_submission, self._last_entry = time.monotonic(), text
        try:
            said = self.session.submit(text)
            if self.session.over:  # the summary has its own line, in colour
                said = said.removesuffix(" " + self.session.summary())
            self.message.value = _html(said, OK_STYLE)
            self._set_text("")
            judgement = self.session.last_judgement
            self.verdict.value = judgement_html(judgement, "Your move: ") if judgement else ""
        except ValueError as problem:
            self.message.value = _html(str(problem), ERROR_STYLE)
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
            self.message.value = _html(self.session.take_back(), OK_STYLE)
            self.verdict.value = ""
        except ValueError as problem:
            self.message.value = _html(str(problem), ERROR_STYLE)
        self.refresh()

    def flip(self) -> None:
        """Turn the board round."""
        self.flipped = not self.flipped
        self.refresh()

    def show_hints(self) -> None:
        """Show every legal move of the side to move with its outcome, best first, as a table whose rows
        play the move when clicked."""
        if self.session.over:
            self.message.value = _html("The game is over: no moves to show.", ERROR_STYLE)
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
            self.message.value = _html("The game is over: press 'New game', or start another one below.", HELP_STYLE)
        else:
            self.message.value = _html(type_a_move(self.session.board), HELP_STYLE)
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
        self.message.value = _html("New game." + (f" {reply.text}" if reply else ""), OK_STYLE)
        self.refresh()


class GameChooser:
    """Pick a computed table, the side to play and what the side to move should get, and start a random
    game of that kind in a :class:`PlayWidget` ("KBNvK, White to move, mate in at least 50 plies").  A
    line says which distances the table holds for that side to move, and a choice it cannot give is
    refused with that line (nothing is clamped)."""

    def __init__(self, game: PlayWidget, results_dir="S_n_Results", games_dir="Played_Games"):
        from .game import TableMissing

        self.game, self.results_dir, self.games_dir = game, Path(results_dir), Path(games_dir)
        self._missing = TableMissing
        self._sequences: dict = {}
        self._draws: dict = {}
        tables = sorted(p.name.split(".")[0] for p in self.results_dir.glob("*.chessAI"))
        # labels beside their controls, each control as wide as it needs (the default widths wrap the labels)
        label, toggle = {"description_width": "initial"}, {"description_width": "initial", "button_width": "5em"}
        self.material = widgets.Dropdown(options=tables, description="Table:", style=label,
                                         layout=widgets.Layout(width="12em"),
                                         value=game.session.sequence.material.name
                                         if game.session.sequence.material.name in tables else None)
        # each label a widget of its own beside its buttons: a toggle's own description sits above them
        self.play_as = widgets.ToggleButtons(options=["white", "black"], style=toggle,
                                             layout=widgets.Layout(width="auto"),
                                             value="white" if game.session.person == chess.WHITE else "black")
        self.to_move = widgets.ToggleButtons(options=["white", "black"], style=toggle,
                                             layout=widgets.Layout(width="auto"),
                                             value="white" if game.session.start.turn == chess.WHITE else "black")
        self.outcome = widgets.Dropdown(options=["win", "draw", "loss"], description="The side to move gets:",
                                        style=label, layout=widgets.Layout(width="16em"),
                                        tooltip="the result of the side to move with best play")
        self.min_plies = widgets.IntText(value=1, description="in at least (plies):", style=label,
                                         layout=widgets.Layout(width="16em"))
        self.start_button = widgets.Button(description="Random game", icon="random",
                                           tooltip="a random position of this kind, then play it")
        self.ranges = widgets.HTML()  # which distances the table holds for the side to move
        self.message = widgets.HTML()
        self.start_button.on_click(lambda _button: self.start())
        for control in (self.material, self.to_move):
            control.observe(lambda _change: self.show_ranges(), names="value")
        # a draw has no distance
        self.outcome.observe(lambda change: setattr(self.min_plies, "disabled", change["new"] == "draw"),
                             names="value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.box = widgets.VBox([widgets.HTML("<b>Another game:</b> a random position of a table"),
                                 widgets.HBox([self.material, self._labelled("I play:", self.play_as),
                                               self._labelled("To move:", self.to_move)], layout=wrap),
                                 widgets.HBox([self.outcome, self.min_plies, self.start_button], layout=wrap),
                                 self.ranges, self.message])
        self._static = _StaticCopy()
        self.show_ranges()

    @staticmethod
    def _labelled(text: str, control: widgets.Widget) -> widgets.HBox:
        return widgets.HBox([widgets.Label(text, layout=widgets.Layout(margin="0 4px 0 1em")), control],
                            layout=widgets.Layout(align_items="center"))

    def _ipython_display_(self) -> None:
        self._static.show(self.box, [_html(self.describe())], self.describe())

    def describe(self) -> str:
        """The chooser in a sentence: its choices and what they give now (its static copy)."""
        tables = ", ".join(self.material.options) or "none"
        return (f"Random game chooser: tables {tables}; chosen {self.material.value or 'none'}, "
                f"I play {self.play_as.value}, {self.to_move.value.capitalize()} to move gets a "
                f"{self.outcome.value} in at least {self.min_plies.value} "
                f"{'ply' if self.min_plies.value == 1 else 'plies'}. {_plain(self.ranges.value)}")

    def _sequence(self):
        from .game import table_named

        name = self.material.value
        if name not in self._sequences:
            self._sequences[name] = table_named(name, self.results_dir)
        return self._sequences[name]

    def _has_draws(self, sequence, white_to_move: bool) -> bool:
        from .trainer import has_draws

        key = (sequence.material.name, white_to_move)
        if key not in self._draws:
            self._draws[key] = has_draws(sequence, white_to_move)
        return self._draws[key]

    def show_ranges(self) -> None:
        """Say which distances exist for the chosen table and side to move."""
        from .trainer import distances_text

        if not self.material.value:
            self.ranges.value = ""
            return
        try:
            sequence = self._sequence()
        except (ValueError, self._missing) as problem:
            self.ranges.value = _html(str(problem), ERROR_STYLE)
            return
        white = self.to_move.value == "white"
        self.ranges.value = _html(distances_text(sequence, white, self._has_draws(sequence, white)), HELP_STYLE)

    def start(self) -> bool:
        """Draw the position and start the game; a message says why not (the game is then unchanged)."""
        from .game import person_colour
        from .trainer import position_words, random_start, start_refusal

        if not self.material.value:
            self.message.value = _html(f"No tables in {self.results_dir}: compute one first, for example "
                                       "'python -m Util calculate KQvK'.", ERROR_STYLE)
            return False
        white = self.to_move.value == "white"
        try:
            sequence = self._sequence()
            refusal = start_refusal(sequence, white, self.outcome.value, self.min_plies.value,
                                    self._has_draws(sequence, white))
            if refusal:
                raise ValueError(refusal)
            board = random_start(sequence, white_to_move=white, outcome=self.outcome.value,
                                 min_plies=self.min_plies.value)
        except (ValueError, self._missing) as problem:
            self.message.value = _html(str(problem), ERROR_STYLE)
            return False
        self.game.play(PlaySession(board, sequence, self.games_dir, self.game.session.player,
                                   person=person_colour(self.play_as.value)))
        self.message.value = _html(f"Started {sequence.material.name}, {'White' if white else 'Black'} to move: "
                                   f"{position_words(board, sequence)} (FEN {board.fen()}). The game is above.",
                                   OK_STYLE)
        return True


class ReplayWidget:
    """A history file, move by move: file chooser, play/pause, slider, previous/next."""

    def __init__(self, games_dir="Played_Games", size: int = 320, interval_ms: int = 800):
        self.games_dir, self.size = Path(games_dir), size
        self.positions: List[chess.Board] = [chess.Board(None)]
        self.sans: List[str] = []
        self.comments: List[str] = []
        self.chooser = widgets.Dropdown(description="Game:", layout=widgets.Layout(width="34em"))
        self.refresh_button = widgets.Button(description="Refresh list", icon="refresh")
        self.play = widgets.Play(interval=interval_ms, min=0, max=0, step=1, description="play")
        self.slider = widgets.IntSlider(min=0, max=0, description="ply")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.previous_button = widgets.Button(description="◀ previous")
        self.next_button = widgets.Button(description="next ▶")
        self.board_view = widgets.HTML()
        self.caption = widgets.HTML()
        self.message = widgets.HTML()
        self._static = _StaticCopy()
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.chooser.observe(lambda change: change["new"] and self.load(change["new"]), names="value")
        self.previous_button.on_click(lambda _b: self.step(-1))
        self.next_button.on_click(lambda _b: self.step(+1))
        self.refresh_button.on_click(lambda _b: self.refresh_files())
        self.box = widgets.VBox([
            widgets.HBox([self.chooser, self.refresh_button]),
            widgets.HBox([self.play, self.previous_button, self.slider, self.next_button]),
            self.board_view, self.caption, self.message,
        ])
        self.refresh_files()

    def _ipython_display_(self) -> None:
        self._static.show(self.box, self._static_parts(), self._static_text())

    def _static_parts(self) -> List[str]:
        chosen = dict((value, label) for label, value in self.chooser.options).get(self.chooser.value, "")
        return [_html(chosen), self.board_view.value, self.caption.value, self.message.value]

    def _static_text(self) -> str:
        return "\n".join([str(self.positions[self.slider.value])] +
                         [_plain(p) for p in (self.caption.value, self.message.value) if p])

    def refresh_files(self) -> None:
        """List the games of the folder, one per game, the person's newest first (see history_files)."""
        files = history_files(self.games_dir)
        self.chooser.options = [(describe_game(p), str(p)) for p in files]
        if files:
            self.chooser.value = str(files[0])  # the newest game
        else:
            self.message.value = _html(f"No games in {self.games_dir} yet: play one in notebook 03.", ERROR_STYLE)

    def load(self, file_name) -> bool:
        """Show a history file from its start; a broken file is reported (file and line) and nothing changes."""
        try:
            start, moves = read_history(file_name)
        except HistoryError as problem:
            self.message.value = _html(str(problem), ERROR_STYLE)
            return False
        self.positions = replay_positions(start, moves)
        self.sans = [before.san(move) for before, move in zip(self.positions, moves)]
        self.comments = _pgn_comments(Path(file_name), moves)
        self.message.value = _html(f"{Path(file_name).name}: {len(moves)} {'ply' if len(moves) == 1 else 'plies'}",
                                   OK_STYLE)
        self.play.value = self.slider.value = 0
        self.play.max = self.slider.max = len(moves)
        self.show(0)
        return True

    def step(self, delta: int) -> None:
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def show(self, ply: int) -> None:
        board = self.positions[ply]
        self.board_view.value = board_picture(board, self.size)
        if ply == 0:
            self.caption.value = _html("start position")
        else:
            self.caption.value = _html(f"ply {ply} of {len(self.positions) - 1}: {self._move_text(ply)}")
        self._static.update(self.box, self._static_parts(), self._static_text())

    def _move_text(self, ply: int) -> str:
        text = self.sans[ply - 1] if ply - 1 < len(self.sans) else ""
        comment = self.comments[ply - 1] if ply - 1 < len(self.comments) else ""
        return f"{text} ({comment})" if comment else text


def _pgn_comments(path: Path, moves: List[chess.Move]) -> List[str]:
    """The comments after each move in the game's PGN (beside a history file, or the file itself), if it
    holds the same moves; else none.  Games of notebook 03 say there who mates in how many moves (plies)."""
    import chess.pgn

    pgn = path.with_suffix(".pgn")
    if not pgn.exists():
        return []
    try:
        with open(pgn, encoding="utf-8") as handle:
            game = chess.pgn.read_game(handle)
    except (OSError, ValueError):
        return []
    if game is None or list(game.mainline_moves()) != list(moves):
        return []
    return [node.comment for node in game.mainline()]


def start_replay(file_name, delay: float = 1.0, size: int = 320) -> Optional[chess.Board]:
    """The thesis's replay: show the game move by move, ``delay`` seconds apart; returns the final board."""
    start, moves = read_history(file_name)
    board = start.copy()
    handle = display(SVG(board_picture(board, size)), display_id=True)
    for move in moves:
        time.sleep(delay)
        board.push(move)
        handle.update(SVG(board_picture(board, size)))
    print("Finished!")
    return board
