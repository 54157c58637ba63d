"""Notebook 03's hint table as a widget (anywidget): every legal move best first, coloured by its
result for the side that plays it; a click on a row chooses the move.

The rows come from :func:`Util.play.verdicts.move_outcomes`; a click sets
:attr:`HintTable.chosen` to the move's UCI, which the owner plays and then
clears with :meth:`HintTable.done`.  The JavaScript is our bundle
``web/dist/hints.js`` (from ``web/src/hints.js``, built by
``bash scripts/setup.sh``).
"""

from __future__ import annotations

import html
from typing import List

import anywidget
import traitlets

from .board_widget import read_bundle, with_metadata
from ..play.outcomes import DRAW, WIN
from ..play.verdicts import MoveOutcome

_RESULT = {WIN: "win", DRAW: "draw"}


def hint_rows(outcomes: List[MoveOutcome]) -> List[dict]:
    """The table's rows: UCI, SAN, the outcome in words and ``"win"``/``"draw"``/``"loss"`` (its colour)."""
    return [{"uci": o.move.uci(), "san": o.san, "outcome": o.describe(), "result": _RESULT.get(o.result, "loss")}
            for o in outcomes]


class HintTable(anywidget.AnyWidget):
    """The moves of a position with their outcomes; empty ``rows``: nothing is shown."""

    _esm = read_bundle("hints.js")
    _css = read_bundle("hints.css")

    #: One dict per move, best first (see :func:`hint_rows`).
    rows = traitlets.List().tag(sync=True)
    #: The second column's heading, e.g. "outcome for White".
    heading = traitlets.Unicode("outcome").tag(sync=True)
    #: The UCI of the row the person clicked; "" when dealt with.
    chosen = traitlets.Unicode("").tag(sync=True)

    def to_html(self) -> str:
        """The table as static HTML (the saved copy of a headless run)."""
        if not self.rows:
            return ""
        cells = "".join(f'<tr class="{r["result"]}"><td>{html.escape(r["san"])}</td>'
                        f'<td>{html.escape(r["outcome"])}</td></tr>' for r in self.rows)
        return (f'<table class="chessai-hints"><tr><th>move</th><th>{html.escape(self.heading)}</th></tr>'
                f"{cells}</table>")

    def _repr_mimebundle_(self, **kwargs) -> tuple:
        """The live table and, for a reader of the saved notebook, the same table as static HTML."""
        data, metadata = with_metadata(super()._repr_mimebundle_(**kwargs))
        data["text/html"] = self.to_html() or "<p>(no hints shown)</p>"
        return data, metadata

    def done(self) -> None:
        """Say the chosen move was dealt with."""
        self.chosen = ""
