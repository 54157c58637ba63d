"""Which pieces are on the board: parsing and naming endgame material.

A *material* is the white king plus one to three white pieces against a
lone black king.  It is named Syzygy-style, strongest piece first:
``KQvK``, ``KBNvK``, ``KRRPvK``.  The thesis's ``PIECE_LIST`` for a
material is ``[K, k, *white pieces]`` in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Tuple

import chess

#: Piece letters in Syzygy order (strongest first).
PIECE_ORDER = "QRBNP"
MAX_WHITE_PIECES = 3
PROMOTION_LETTERS = "QRBN"

_MATERIAL_RE = re.compile(r"^K([QRBNP]*)VK$")


class MaterialError(ValueError):
    """A material name or piece list that this project cannot compute."""


@dataclass(frozen=True)
class Material:
    """White's non-king pieces, as letters in Syzygy order (``"BN"`` for KBNvK)."""

    white: str

    def __post_init__(self) -> None:
        if any(c not in PIECE_ORDER for c in self.white):
            raise MaterialError(f"unknown piece letter in {self.white!r}; use Q, R, B, N, P")
        if "".join(sorted(self.white, key=PIECE_ORDER.index)) != self.white:
            raise MaterialError(f"pieces {self.white!r} are not in the order {PIECE_ORDER}")

    @classmethod
    def parse(cls, name: str) -> "Material":
        """Parse ``"KBNvK"`` (any piece order, case of the letters ignored)."""
        text = name.strip()
        if text.lower().endswith(".chessai"):
            text = text[: -len(".chessAI")]
        match = _MATERIAL_RE.match(text.upper())
        if not match:
            raise MaterialError(
                f"{name!r} is not a material name; write it like KQvK, KBNvK or KRRPvK "
                "(white king, up to three white pieces from Q R B N P, 'v', black king)"
            )
        white = match.group(1)
        if len(white) > MAX_WHITE_PIECES:
            raise MaterialError(f"{name!r} has {len(white)} white pieces besides the king; at most {MAX_WHITE_PIECES} are supported")
        return cls("".join(sorted(white, key=PIECE_ORDER.index)))

    @property
    def name(self) -> str:
        return f"K{self.white}vK"

    def __str__(self) -> str:
        return self.name

    @property
    def piece_count(self) -> int:
        """All pieces on the board, both kings included."""
        return 2 + len(self.white)

    @property
    def has_pawns(self) -> bool:
        return "P" in self.white

    @property
    def piece_list(self) -> Tuple[chess.Piece, ...]:
        """The thesis's ``PIECE_LIST``: white king, black king, then White's pieces."""
        return (chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)) + tuple(
            chess.Piece.from_symbol(c) for c in self.white
        )

    def without(self, letter: str) -> "Material":
        """The material after the black king captures one piece ``letter``."""
        i = self.white.index(letter)
        return Material(self.white[:i] + self.white[i + 1 :])

    def promoted(self, letter: str) -> "Material":
        """The material after one pawn promotes to ``letter``."""
        rest = self.white.replace("P", "", 1) + letter
        return Material("".join(sorted(rest, key=PIECE_ORDER.index)))

    def dependencies(self) -> Tuple["Material", ...]:
        """Materials a game of this material can turn into in one move, in a fixed order."""
        deps = [self.without(c) for c in dict.fromkeys(self.white)]
        if self.has_pawns:
            deps += [self.promoted(c) for c in PROMOTION_LETTERS]
        return tuple(dict.fromkeys(deps))


def material_of_board(board: chess.Board) -> Material:
    """The material of a python-chess board; MaterialError if Black has more than a king."""
    if board.occupied_co[chess.BLACK] != board.kings & board.occupied_co[chess.BLACK] or board.king(chess.BLACK) is None:
        raise MaterialError("Black must have exactly its king and nothing else")
    if board.king(chess.WHITE) is None:
        raise MaterialError("White has no king")
    letters = "".join(
        chess.piece_symbol(p.piece_type).upper()
        for sq, p in board.piece_map().items()
        if p.color == chess.WHITE and p.piece_type != chess.KING
    )
    if len(letters) > MAX_WHITE_PIECES:
        raise MaterialError(f"White has {len(letters)} pieces besides the king; at most {MAX_WHITE_PIECES} are supported")
    return Material("".join(sorted(letters, key=PIECE_ORDER.index)))
