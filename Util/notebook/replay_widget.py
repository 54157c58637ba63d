"""Chapter 5's replay: a history file of ``Played_Games/`` move by move, as a widget or as the thesis's slide show."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import List, Optional

import chess
import chess.pgn
import ipywidgets as widgets
from IPython.display import SVG, display

from ..play.records import HistoryError, describe_game, history_files, read_history, replay_positions
from .copies import (ERROR_STYLE, OK_STYLE, StaticCopy, board_picture, board_text, html_line,
                            plain_text)


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
        self._static = StaticCopy()
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
        return [html_line(chosen), self.board_view.value, self.caption.value, self.message.value, self.strip()]

    def strip(self, boards: int = 8, size: int = 110) -> str:
        """The game at a glance, for a page that cannot play the replay: up to ``boards`` small boards at
        evenly spaced plies from the start to the last, each captioned with its ply and move ("" before a game)."""
        last = len(self.positions) - 1
        if last < 1:
            return ""
        plies = sorted({round(i * last / (boards - 1)) for i in range(boards)})
        cells = "".join(
            '<div style="display:inline-block;margin:2px;text-align:center;font-size:smaller">'
            f'{board_picture(self.positions[ply], size)}<br>'
            f'{html.escape("start" if ply == 0 else f"ply {ply}: {self.sans[ply - 1]}")}</div>' for ply in plies)
        heading = f'<div>The game at a glance (plies {", ".join(map(str, plies))}):</div>'
        return f'<div class="chessai-replay-strip">{heading}{cells}</div>'

    def _static_text(self) -> str:
        return "\n".join([board_text(self.positions[self.slider.value])] +
                         [plain_text(p) for p in (self.caption.value, self.message.value) if p])

    def refresh_files(self) -> None:
        """List the games of the folder, one per game, the person's newest first (see history_files)."""
        files = history_files(self.games_dir)
        self.chooser.options = [(describe_game(p), str(p)) for p in files]
        if files:
            self.chooser.value = str(files[0])  # the newest game
        else:
            self.message.value = html_line(f"No games in {self.games_dir} yet: play one in notebook 03.", ERROR_STYLE)

    def load(self, file_name) -> bool:
        """Show a history file from its start; a broken file is reported (file and line) and nothing changes."""
        try:
            start, moves = read_history(file_name)
        except HistoryError as problem:
            self.message.value = html_line(str(problem), ERROR_STYLE)
            return False
        self.positions = replay_positions(start, moves)
        self.sans = [before.san(move) for before, move in zip(self.positions, moves)]
        self.comments = _pgn_comments(Path(file_name), moves)
        self.message.value = html_line(f"{Path(file_name).name}: {len(moves)} {'ply' if len(moves) == 1 else 'plies'}",
                                   OK_STYLE)
        self.play.value = self.slider.value = 0
        self.play.max = self.slider.max = len(moves)
        self.show(0)
        return True

    def step(self, delta: int) -> None:
        """Move ``delta`` plies on (back, if negative), stopping at the start and at the last ply."""
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def show(self, ply: int) -> None:
        """Show the position after ``ply`` plies (0: the start; at most the game's length)."""
        board = self.positions[ply]
        self.board_view.value = board_picture(board, self.size)
        if ply == 0:
            self.caption.value = html_line("start position")
        else:
            self.caption.value = html_line(f"ply {ply} of {len(self.positions) - 1}: {self._move_text(ply)}")
        self._static.update(self.box, self._static_parts(), self._static_text())

    def _move_text(self, ply: int) -> str:
        text = self.sans[ply - 1] if ply - 1 < len(self.sans) else ""
        comment = self.comments[ply - 1] if ply - 1 < len(self.comments) else ""
        return f"{text} ({comment})" if comment else text


def _pgn_comments(path: Path, moves: List[chess.Move]) -> List[str]:
    """The comments after each move in the game's PGN (beside a history file, or the file itself), if it
    holds the same moves; else none.  Games of notebook 03 say there who mates in how many moves (plies)."""
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
