"""Chapter 4's chooser: a random game of a computed table, of the kind asked for, started in the game's widget."""

from __future__ import annotations

from pathlib import Path

import chess
import ipywidgets as widgets

from ..folders import RESULTS_DIR
from ..play.session import PlaySession
from ..play.setup import person_colour, table_named
from ..probing.table_folder import MissingTableError
from ..play.random_starts import distances_text, has_draws, random_start, start_refusal
from ..play.verdicts import position_words
from .copies import ERROR_STYLE, HELP_STYLE, OK_STYLE, StaticCopy, html_line, plain_text


class GameChooser:
    """Pick a computed table, the side to play and what the side to move should get, and start a random
    game of that kind in a :class:`PlayWidget` ("KBNvK, White to move, mate in at least 50 plies").  A
    line says which distances the table holds for that side to move, and a choice it cannot give is
    refused with that line (nothing is clamped).

    ``game`` is the :class:`Util.notebook.play_widget.PlayWidget` a new game goes to (anything with its
    ``session`` and ``play(session)``)."""

    def __init__(self, game, results_dir=RESULTS_DIR, games_dir="Played_Games"):
        self.game, self.results_dir, self.games_dir = game, Path(results_dir), Path(games_dir)
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
        self._static = StaticCopy()
        self.show_ranges()

    @staticmethod
    def _labelled(text: str, control: widgets.Widget) -> widgets.HBox:
        return widgets.HBox([widgets.Label(text, layout=widgets.Layout(margin="0 4px 0 1em")), control],
                            layout=widgets.Layout(align_items="center"))

    def _ipython_display_(self) -> None:
        self._static.show(self.box, [html_line(self.describe())], self.describe())

    def describe(self) -> str:
        """The chooser in a sentence: its choices and what they give now (its static copy)."""
        tables = ", ".join(self.material.options) or "none"
        return (f"Random game chooser: tables {tables}; chosen {self.material.value or 'none'}, "
                f"I play {self.play_as.value}, {self.to_move.value.capitalize()} to move gets a "
                f"{self.outcome.value} in at least {self.min_plies.value} "
                f"{'ply' if self.min_plies.value == 1 else 'plies'}. {plain_text(self.ranges.value)}")

    def _sequence(self):
        name = self.material.value
        if name not in self._sequences:
            self._sequences[name] = table_named(name, self.results_dir)
        return self._sequences[name]

    def _has_draws(self, sequence, white_to_move: bool) -> bool:
        key = (sequence.material.name, white_to_move)
        if key not in self._draws:
            self._draws[key] = has_draws(sequence, white_to_move)
        return self._draws[key]

    def show_ranges(self) -> None:
        """Say which distances exist for the chosen table and side to move."""
        if not self.material.value:
            self.ranges.value = ""
            return
        try:
            sequence = self._sequence()
        except (ValueError, MissingTableError) as problem:
            self.ranges.value = html_line(str(problem), ERROR_STYLE)
            return
        white = self.to_move.value == "white"
        self.ranges.value = html_line(distances_text(sequence, white, self._has_draws(sequence, white)), HELP_STYLE)

    def start(self) -> bool:
        """Draw the position and start the game; a message says why not (the game is then unchanged)."""
        if not self.material.value:
            self.message.value = html_line(f"No tables in {self.results_dir}: compute one first, for example "
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
        except (ValueError, MissingTableError) as problem:
            self.message.value = html_line(str(problem), ERROR_STYLE)
            return False
        self.game.play(PlaySession(board, sequence, self.games_dir, self.game.session.player,
                                   person=person_colour(self.play_as.value)))
        self.message.value = html_line(f"Started {sequence.material.name}, {'White' if white else 'Black'} to move: "
                                   f"{position_words(board, sequence)} (FEN {board.fen()}). The game is above.",
                                   OK_STYLE)
        return True
