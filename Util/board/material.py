"""Which pieces are on the board: parsing and naming endgame material.

A *material* is each side's king plus up to four pieces in all (at most
six pieces on the board; the tables of six are computed in the compact index,
:mod:`Util.table.compact_index`).  It is named Syzygy-style, each side strongest
piece first: ``KQvK``, ``KBNvK``, ``KQvKR``, ``KRPvKR``.  The thesis's
``PIECE_LIST`` for a material is ``[K, k, *white pieces, *black pieces]``
in that order; with a lone black king (the thesis's case) that is
``[K, k, *white pieces]``.

A table is computed once for the *canonical* side order (Syzygy's rule:
the side with more pieces, or with the same number the stronger side, is
White), and serves the material with the colours swapped too: ``KvKQ`` is
``KQvK`` seen from the other side of the board, ``KRvKQ`` is ``KQvKR``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import chess

__all__ = ["PIECE_ORDER", "MAX_IDENTICAL_PIECES", "MAX_PIECES", "beyond_the_tables", "MAX_WHITE_PIECES", "PROMOTION_LETTERS", "MaterialError", "Material",
           "material_of_board"]

#: Piece letters in Syzygy order (strongest first).
PIECE_ORDER = "QRBNP"
#: Pieces besides the two kings: at most four (six pieces on the board).
MAX_PIECES = 4
MAX_WHITE_PIECES = MAX_PIECES
PROMOTION_LETTERS = "QRBN"

_MATERIAL_RE = re.compile(r"^K([QRBNP]*)VK([QRBNP]*)$")


class MaterialError(ValueError):
    """A material name or piece list that this project cannot compute."""


def _ordered(letters: str) -> str:
    return "".join(sorted(letters, key=PIECE_ORDER.index))


@dataclass(frozen=True)
class Material:
    """Each side's non-king pieces, as letters in Syzygy order (``"BN"``, ``""`` for KBNvK)."""

    white: str
    black: str = ""

    def __post_init__(self) -> None:
        for side in (self.white, self.black):
            if any(c not in PIECE_ORDER for c in side):
                raise MaterialError(f"unknown piece letter in {side!r}; use Q, R, B, N, P")
            if _ordered(side) != side:
                raise MaterialError(f"pieces {side!r} are not in the order {PIECE_ORDER}")

    @classmethod
    def parse(cls, name: str) -> "Material":
        """Parse ``"KBNvK"`` or ``"KRvKQ"`` as written (any piece order, case of the letters ignored)."""
        text = name.strip()
        if text.lower().endswith(".chessai"):
            text = text[: -len(".chessAI")]
        match = _MATERIAL_RE.match(text.upper())
        if not match:
            raise MaterialError(
                f"{name!r} is not a material name; write it like KQvK, KBNvK, KQvKR or KRPvKR "
                "(white king and pieces from Q R B N P, 'v', black king and pieces)"
            )
        white, black = match.group(1), match.group(2)
        if len(white) + len(black) > MAX_PIECES:
            raise MaterialError(f"{name!r} has {len(white) + len(black)} pieces besides the kings; "
                                f"at most {MAX_PIECES} (six pieces on the board) are supported")
        return cls(_ordered(white), _ordered(black))

    @property
    def name(self) -> str:
        return f"K{self.white}vK{self.black}"

    def __str__(self) -> str:
        return self.name

    @property
    def piece_count(self) -> int:
        """All pieces on the board, both kings included."""
        return 2 + len(self.white) + len(self.black)

    @property
    def has_pawns(self) -> bool:
        return "P" in self.white or "P" in self.black

    @property
    def lone_black_king(self) -> bool:
        """The thesis's case: Black has only its king, so only White can mate."""
        return not self.black

    @property
    def letters(self) -> str:
        """Piece symbols in PIECE_LIST order: ``"Kk"``, White's pieces, Black's pieces (``"KkQr"``)."""
        return "Kk" + self.white + self.black.lower()

    @property
    def piece_list(self) -> Tuple[chess.Piece, ...]:
        """The thesis's ``PIECE_LIST``: white king, black king, White's pieces, Black's pieces."""
        return tuple(chess.Piece.from_symbol(c) for c in self.letters)

    # ---- the two orientations of one table ------------------------------------------------
    @property
    def swapped(self) -> "Material":
        """The same pieces with the colours exchanged (``KRvKQ`` for ``KQvKR``)."""
        return Material(self.black, self.white)

    @property
    def is_canonical(self) -> bool:
        """White is the side the table is computed for (Syzygy's rule): more pieces, or as many and
        the stronger ones (compared piece by piece in the order Q R B N P)."""
        def key(mine: str, theirs: str):
            return (len(mine), [-PIECE_ORDER.index(c) for c in mine])

        return key(self.white, self.black) >= key(self.black, self.white)

    @property
    def canonical(self) -> "Material":
        """The orientation whose table is computed and stored."""
        return self if self.is_canonical else self.swapped

    # ---- what a game of this material can turn into ---------------------------------------
    def without(self, letter: str, white: bool = True) -> "Material":
        """The material after a piece ``letter`` of White (``white``) or of Black is captured."""
        side = self.white if white else self.black
        i = side.index(letter)
        rest = side[:i] + side[i + 1 :]
        return Material(rest, self.black) if white else Material(self.white, rest)

    def promoted(self, letter: str, white: bool = True) -> "Material":
        """The material after one pawn of White (``white``) or of Black promotes to ``letter``."""
        side = _ordered((self.white if white else self.black).replace("P", "", 1) + letter)
        return Material(side, self.black) if white else Material(self.white, side)

    def moves_out(self) -> Tuple[Tuple["Material", bool], ...]:
        """``(material, white_moved)`` of every capture or promotion (materials as oriented here)."""
        found = []
        for white in (True, False):
            side, other = (self.white, self.black) if white else (self.black, self.white)
            found += [(self.without(c, not white), white) for c in dict.fromkeys(other)]  # ``white`` captures
            if "P" in side:
                for piece in PROMOTION_LETTERS:
                    promoted = self.promoted(piece, white)
                    found.append((promoted, white))
                    found += [(promoted.without(c, not white), white) for c in dict.fromkeys(other)]  # capturing
        return tuple(dict.fromkeys(found))

    def children(self) -> Tuple["Material", ...]:
        """Materials (as oriented here) one capture or promotion away, in a fixed order."""
        return tuple(dict.fromkeys(child for child, _ in self.moves_out()))

    def sides_read(self) -> Dict["Material", Tuple[bool, ...]]:
        """Per dependency (canonical), the sides to move (True = White) its table is read for."""
        sides: Dict[Material, set] = {}
        for child, white_moved in self.moves_out():
            white_to_move = not white_moved if child.is_canonical else white_moved
            sides.setdefault(child.canonical, set()).add(white_to_move)
        return {m: tuple(sorted(v, reverse=True)) for m, v in sides.items()}

    def dependencies(self) -> Tuple["Material", ...]:
        """The tables (canonical) that must be finished before this one, in a fixed order."""
        return tuple(dict.fromkeys(child.canonical for child in self.children()))


#: The most identical pieces (of one kind and colour) a six-piece table may hold: the compact index keeps a
#: group of like pieces in one digit of at most three.
MAX_IDENTICAL_PIECES = 3


def beyond_the_tables(material: Material) -> Optional[str]:
    """Why no table of ``material`` can be computed here (None if one can): six pieces are the compact
    engine's, which has no pawns and at most :data:`MAX_IDENTICAL_PIECES` identical pieces of a colour; up
    to five pieces every material is computed."""
    if material.piece_count < 6:
        return None
    if material.has_pawns:
        return (f"{material.name}: tables of six pieces are computed without pawns (the compact engine); with "
                "pawns up to five pieces")
    letters = material.letters
    if max(map(letters.count, letters)) > MAX_IDENTICAL_PIECES:
        return f"{material.name}: tables of six pieces hold at most {MAX_IDENTICAL_PIECES} identical pieces of a colour"
    return None


def material_of_board(board: chess.Board) -> Material:
    """The material of a python-chess board, as it stands (White's pieces first)."""
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        raise MaterialError("each side needs exactly one king")
    letters = {chess.WHITE: "", chess.BLACK: ""}
    for square, piece in board.piece_map().items():
        if piece.piece_type != chess.KING:
            letters[piece.color] += piece.symbol().upper()
        elif square not in (board.king(chess.WHITE), board.king(chess.BLACK)):
            raise MaterialError("each side needs exactly one king")
    count = len(letters[chess.WHITE]) + len(letters[chess.BLACK])
    if count > MAX_PIECES:
        raise MaterialError(f"the board has {count} pieces besides the kings; at most {MAX_PIECES} are supported")
    return Material(_ordered(letters[chess.WHITE]), _ordered(letters[chess.BLACK]))
