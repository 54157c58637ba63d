"""The static copy every notebook widget keeps beside its live view, and the small pieces of HTML it is made of.

A widget is displayed as one output bundle: its live view (the ipywidgets state) and a ``text/html`` and
``text/plain`` copy of what it shows (the board as SVG, the status, the move list ...), so the saved
notebook reads where widgets cannot be drawn: without a kernel, or on GitHub.  A headless run
(:mod:`Util.runtime.headless`) keeps that copy up to date as its game goes on; in front of a person it shows the
widget as first displayed, since updating it would redraw the live board.
"""

from __future__ import annotations

import html
import re
from typing import List

import chess
import chess.svg
import ipywidgets as widgets
from IPython.display import display

from .board_widget import with_metadata
from ..runtime.headless import is_headless

OK_STYLE = "color:#1a6b1a"
ERROR_STYLE = "color:#b00020;font-weight:bold"
HELP_STYLE = "color:#444"


def board_picture(board: chess.Board, size: int = 320, flipped: bool = False) -> str:
    """SVG of the board with its last move and a king in check marked (``flipped``: Black at the bottom)."""
    lastmove = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    return chess.svg.board(board, lastmove=lastmove, check=check, size=size, flipped=flipped)


def board_text(board: chess.Board, flipped: bool = False) -> str:
    """The board as text with its coordinates (ranks on the left, files below), as python-chess prints it
    (``K`` White's king, ``k`` Black's, ``.`` an empty square); ``flipped``: Black at the bottom."""
    ranks = range(8) if flipped else range(7, -1, -1)
    files = range(7, -1, -1) if flipped else range(8)
    lines = [f"{rank + 1} " + " ".join(_symbol(board.piece_at(chess.square(file, rank))) for file in files)
             for rank in ranks]
    return "\n".join(lines + ["  " + " ".join(chess.FILE_NAMES[file] for file in files)])


def _symbol(piece) -> str:
    return piece.symbol() if piece else "."


def html_line(text: str, style: str = "") -> str:
    """``text`` escaped, as one block of HTML in ``style`` (CSS)."""
    return f'<div style="{style}">{html.escape(text)}</div>'


class StaticCopy:
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
        note = html_line("(a saved copy of the widget, for readers without a running notebook)",
                         "color:#888;font-size:smaller")
        data["text/html"] = '<div class="chessai-static-copy">' + "".join(html_parts) + note + "</div>"
        data["text/plain"] = text
        return data


def plain_text(markup: str) -> str:
    """The text of a bit of HTML (for the ``text/plain`` copy)."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()
