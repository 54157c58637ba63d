"""Board pictures for the notebooks (chess.svg), one or several in a row.

Every function returns an object that Jupyter shows as a picture; its
``.data`` is the SVG or HTML text, so tests can look inside.
"""

from __future__ import annotations

import html
from typing import Iterable, Optional, Sequence, Tuple

import chess
import chess.svg
from IPython.display import HTML, SVG

HIGHLIGHT = "#7fbf7f80"
BLOCKED = "#e0606080"


def board_svg(board: chess.Board, *, squares: Iterable[int] = (), blocked: Iterable[int] = (),
              arrows: Sequence[Tuple[int, int]] = (), size: int = 260, flipped: bool = False) -> SVG:
    """The board with ``squares`` shaded green, ``blocked`` red, and arrows (from, to).

    The last move and a king in check are marked as python-chess does.
    """
    fill = {s: HIGHLIGHT for s in squares}
    fill.update({s: BLOCKED for s in blocked})
    lastmove = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    return SVG(chess.svg.board(board, fill=fill, arrows=[chess.svg.Arrow(a, b) for a, b in arrows],
                               lastmove=lastmove, check=check, size=size, flipped=flipped))


def king_squares_svg(has_pawns: bool, size: int = 200) -> SVG:
    """An empty board with the squares shaded on which the engine keeps the white king: the
    triangle a1-d1-d4 (10 squares) without pawns, the files a-d (32 squares) with them."""
    from ..board.symmetry import canonical_king_squares

    fill = {square: HIGHLIGHT for square in canonical_king_squares(has_pawns)}
    return SVG(chess.svg.board(chess.Board(None), fill=fill, size=size))


def destinations(board: chess.Board, square: int) -> list:
    """Squares the piece on ``square`` can move to, as if it were its side's turn."""
    piece = board.piece_at(square)
    if piece is None:
        raise ValueError(f"no piece on {chess.square_name(square)}")
    probe = board.copy(stack=False)
    probe.turn = piece.color
    return sorted({move.to_square for move in probe.legal_moves if move.from_square == square})


def piece_moves_svg(board: chess.Board, square: int, size: int = 260) -> SVG:
    """The board with every square the piece on ``square`` can reach shaded."""
    return board_svg(board, squares=destinations(board, square), size=size)


def boards_row(items: Iterable[Tuple[object, str]], size: int = 200) -> HTML:
    """Several boards side by side, each with a caption: items are ``(board or SVG, caption)``."""
    cells = []
    for picture, caption in items:
        svg = picture.data if isinstance(picture, SVG) else board_svg(picture, size=size).data
        cells.append(
            f'<div style="display:inline-block;margin:4px;text-align:center;vertical-align:top">'
            f'{svg}<div style="font-family:monospace;font-size:12px">{html.escape(caption)}</div></div>'
        )
    return HTML("".join(cells))


def html_table(header: Sequence[str], rows: Iterable[Sequence[object]], caption: Optional[str] = None) -> HTML:
    """A small HTML table (right-aligned numbers)."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td style="text-align:right">{html.escape(str(v))}</td>' for v in row) + "</tr>"
        for row in rows
    )
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return HTML(f"<table>{title}<tr>{head}</tr>{body}</table>")
