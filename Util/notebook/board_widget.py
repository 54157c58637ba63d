"""The chessground board as a notebook widget (anywidget), for JupyterLab and Voilà.

:class:`ChessBoardWidget` shows a position and lets the person move one of
the pieces given in :attr:`~ChessBoardWidget.legal`, by dragging it or by
clicking it and then its square; it knows no rules itself.  A move comes
back in :attr:`~ChessBoardWidget.move` as UCI (``e7d7``; a pawn reaching the
last rank asks for its piece in a small picker and comes with its letter,
``a7a8n``: see :func:`move_from_board`); the owner plays it and then
calls :meth:`~ChessBoardWidget.done`, which also puts a refused move back.

The JavaScript is our bundle ``web/dist/widget.js`` (and ``widget.css``),
built from ``web/src/widget.js`` by ``bash scripts/setup.sh``; nothing is
fetched at run time.  Without the bundle the widget shows a line saying
what to run, and the notebook still runs.
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import Dict, List, Optional

import anywidget
import chess
import traitlets

from ..folders import WEB_BUNDLE_DIR, WEB_SOURCE_DIR

#: Where scripts/setup.sh puts the bundle (web/dist is not committed).
BUNDLE_DIR = WEB_BUNDLE_DIR
#: The JavaScript and CSS the bundles are built from.
SOURCE_DIR = WEB_SOURCE_DIR

_warned_stale: set = set()


class StaleBundleWarning(UserWarning):
    """A bundle in web/dist is older than a file of web/src: the page runs yesterday's JavaScript."""


def newer_sources(bundle: Path, source_dir: Path = SOURCE_DIR, text: str = "") -> List[str]:
    """The names of the files of ``source_dir`` changed after ``bundle`` was built, sorted: those the
    bundle's ``text`` names (esbuild marks each module ``// src/widget.js``, ``/* src/coords.css */``), or
    every file if it names none.  One stat per file; none if either is missing."""
    named = set(re.findall(r"(?://|/\*) src/([\w.-]+)", text))
    try:
        built = bundle.stat().st_mtime
        return sorted(entry.name for entry in os.scandir(source_dir)
                      if entry.is_file() and (not named or entry.name in named) and entry.stat().st_mtime > built)
    except FileNotFoundError:
        return []


def warn_if_stale(bundle: Path, source_dir: Path = SOURCE_DIR, text: str = "") -> None:
    """Warn (once per bundle) when ``bundle`` (whose content is ``text``) is older than a file of
    ``source_dir`` it was built from, naming the command that rebuilds it."""
    if bundle in _warned_stale:
        return
    newer = newer_sources(bundle, source_dir, text)
    if newer:
        _warned_stale.add(bundle)
        warnings.warn(f"{bundle} is older than {', '.join(newer)} in {source_dir}: the widget runs the old "
                      "JavaScript. Rebuild it with 'bash scripts/setup.sh' (or 'cd web && npm run build'), then "
                      "restart the kernel.", StaleBundleWarning, stacklevel=3)


def read_bundle(name: str, bundle_dir: Path = BUNDLE_DIR, source_dir: Path = SOURCE_DIR) -> str:
    """The text of ``web/dist/<name>`` (a :class:`StaleBundleWarning` if web/src changed after it was
    built); if it is not built, a module (for ``.js``) that says what to run, or an empty style sheet
    (for ``.css``)."""
    path = bundle_dir / name
    if path.exists():
        text = path.read_text(encoding="utf-8")
        warn_if_stale(path, source_dir, text)
        return text
    if not name.endswith(".js"):
        return ""
    return ("export default { render({ el }) { el.textContent = "
            f"\"web/dist/{name} is not built: run 'bash scripts/setup.sh' in the repository, then rerun this cell.\"; }} }};")


def with_metadata(bundle) -> tuple:
    """A widget's ``_repr_mimebundle_`` answer as ``(data, metadata)`` (anywidget gives a pair, ipywidgets a
    dict of data alone, either may give None)."""
    if isinstance(bundle, tuple):
        return dict(bundle[0] or {}), dict(bundle[1] or {})
    return dict(bundle or {}), {}


def legal_destinations(board: chess.Board) -> Dict[str, List[str]]:
    """The legal moves as chessground's dests: from-square name to the names of its to-squares.

    A promotion's to-square appears once, whatever piece it promotes to.
    """
    dests: Dict[str, List[str]] = {}
    for move in board.legal_moves:
        to = dests.setdefault(chess.square_name(move.from_square), [])
        if chess.square_name(move.to_square) not in to:
            to.append(chess.square_name(move.to_square))
    return dests


def move_from_board(board: chess.Board, uci: str) -> Optional[chess.Move]:
    """The legal move the board's ``uci`` (from-square, to-square, and the promotion letter the person
    picked) means; a promotion without its letter becomes a queen.  None if there is no such legal move
    (or ``uci`` is malformed)."""
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        return None
    if move in board.legal_moves:
        return move
    queen = chess.Move(move.from_square, move.to_square, promotion=chess.QUEEN)
    return queen if queen in board.legal_moves else None


class ChessBoardWidget(anywidget.AnyWidget):
    """A board that shows ``fen`` and takes the moves in ``legal``; ``move`` is what the person played."""

    _esm = read_bundle("widget.js")
    _css = read_bundle("widget.css")

    #: The position shown (a full FEN: its side to move is the side that may move).
    fen = traitlets.Unicode(chess.STARTING_FEN).tag(sync=True)
    #: The side at the bottom: "white" or "black".
    orientation = traitlets.Unicode("white").tag(sync=True)
    #: The moves the person may make, {from-square: [to-squares]}; empty: the board takes no move.
    legal = traitlets.Dict().tag(sync=True)
    #: The move marked as last played (UCI), "" for none.
    last_move = traitlets.Unicode("").tag(sync=True)
    #: Whether the side to move is in check (its king is marked).
    check = traitlets.Bool(False).tag(sync=True)
    #: The move the person just made (UCI from-square to-square), set by the browser; "" when dealt with.
    move = traitlets.Unicode("").tag(sync=True)
    #: A move the person tried on the board that is not legal (UCI: a piece dropped or clicked on a square
    #: it cannot go to; the board put it back), set by the browser; "" when dealt with.
    refused = traitlets.Unicode("").tag(sync=True)
    #: The board's width and height in pixels.
    size = traitlets.Int(320).tag(sync=True)

    def show(self, board: chess.Board, movable: bool = True, flipped: bool = False) -> None:
        """Show ``board`` (last move and check marked); the person may move its side to move if ``movable``."""
        with self.hold_sync():
            self.fen = board.fen()
            self.orientation = "black" if flipped else "white"
            self.last_move = board.peek().uci() if board.move_stack else ""
            self.check = board.is_check()
            self.legal = legal_destinations(board) if movable else {}

    def _repr_mimebundle_(self, **kwargs) -> tuple:
        """The live board and, for a reader of the saved notebook, the same position as an SVG board."""
        import chess.svg

        data, metadata = with_metadata(super()._repr_mimebundle_(**kwargs))
        board = chess.Board(self.fen)
        last = chess.Move.from_uci(self.last_move) if self.last_move else None
        data["text/html"] = chess.svg.board(board, lastmove=last, size=self.size,
                                            flipped=self.orientation == "black")
        data["text/plain"] = str(board)
        return data, metadata

    def done(self) -> None:
        """Say the move (or the refused one) was dealt with: the browser shows the position it was last
        given again."""
        self.move = self.refused = ""
