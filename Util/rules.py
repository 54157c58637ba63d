"""Legality of positions, computed on whole numpy arrays of squares.

The rules follow python-chess's ``Board.is_valid()`` for our material
(White: king and pieces, Black: a lone king), so a position is in an S_n
only if python-chess accepts it:

* every piece on its own square, the kings not touching;
* no pawn on the first or eighth rank;
* the side not to move is not in check: with White to move the black
  king must not be attacked;
* with Black to move, at most two checkers, and two checkers never on one
  line through the king (python-chess's ``STATUS_IMPOSSIBLE_CHECK``).

``letters`` names the pieces in PIECE_LIST order (``"KkBN"``); ``squares``
holds one int array per piece.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

from .geometry import BETWEEN, KING_ADJACENT, KNIGHT_ATTACKS, LINE, LINE_KIND, RANK_OF, WHITE_PAWN_ATTACKS

# The square-pair tables flattened: table[a * 64 + b] by np.take is several times faster than table[a, b].
_KNIGHT_ATTACKS, _PAWN_ATTACKS = KNIGHT_ATTACKS.ravel(), WHITE_PAWN_ATTACKS.ravel()
_LINE_KIND, _BETWEEN, _LINE, _KING_ADJACENT = LINE_KIND.ravel(), BETWEEN.ravel(), LINE.ravel(), KING_ADJACENT.ravel()


def _pair(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row of the square pair (a, b) in the flattened tables."""
    return a.astype(np.int64) * 64 + b


def occupancy(squares: Sequence[np.ndarray]) -> np.ndarray:
    """Bitboard (uint64) of the occupied squares of each position."""
    occ = np.zeros(np.shape(squares[0]), dtype=np.uint64)
    for s in squares:
        occ |= np.left_shift(np.uint64(1), np.asarray(s).astype(np.uint64))
    return occ


def gives_check(letter: str, square: np.ndarray, king: np.ndarray, occ: np.ndarray) -> np.ndarray:
    """Whether a white ``letter`` on ``square`` attacks the black king on ``king``, given the occupancy."""
    pair = _pair(square, king)
    if letter == "N":
        return np.take(_KNIGHT_ATTACKS, pair)
    if letter == "P":
        return np.take(_PAWN_ATTACKS, pair)
    kind = np.take(_LINE_KIND, pair)  # 0 not aligned, 1 rank or file, 2 diagonal
    aligned = kind != 0 if letter == "Q" else kind == (1 if letter == "R" else 2)
    return aligned & ((np.take(_BETWEEN, pair) & occ) == 0)


def checkers(letters: str, squares: Sequence[np.ndarray]) -> List[np.ndarray]:
    """One bool array per white non-king piece (letters[2:]): does it check the black king?"""
    occ = occupancy(squares)
    return [gives_check(c, squares[i], squares[1], occ) for i, c in enumerate(letters) if i >= 2]


def basic_legal(letters: str, squares: Sequence[np.ndarray]) -> np.ndarray:
    """Distinct squares, kings apart, no pawn on a back rank."""
    ok = ~np.take(_KING_ADJACENT, _pair(squares[0], squares[1]))
    for i in range(len(squares)):
        for j in range(max(i + 1, 2), len(squares)):
            ok &= squares[i] != squares[j]
        if letters[i] == "P":
            rank = RANK_OF[squares[i]]
            ok &= (rank != 0) & (rank != 7)
    return ok


def white_to_move_legal(letters: str, squares: Sequence[np.ndarray]) -> np.ndarray:
    """Positions that are valid with White to move (the black king is not in check)."""
    ok = basic_legal(letters, squares)
    for check in checkers(letters, squares):
        ok &= ~check
    return ok


def black_to_move_legal_and_check(letters: str, squares: Sequence[np.ndarray]):
    """``(legal, in_check)`` for positions with Black to move."""
    return _black_rules(letters, squares, basic_legal(letters, squares), checkers(letters, squares))


def legality(letters: str, squares: Sequence[np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(legal with White to move, legal with Black to move, Black in check)``, sharing the work."""
    basic = basic_legal(letters, squares)
    checks = checkers(letters, squares)
    white_ok = basic & ~np.any(checks, axis=0) if checks else basic
    black_ok, in_check = _black_rules(letters, squares, basic, checks)
    return white_ok, black_ok, in_check


def _black_rules(letters: str, squares: Sequence[np.ndarray], basic: np.ndarray, checks: List[np.ndarray]):
    ok = basic.copy()
    if not checks:
        return ok, np.zeros_like(ok)
    count = np.sum(checks, axis=0)
    ok &= count <= 2
    king_bit = np.left_shift(np.uint64(1), squares[1].astype(np.uint64))
    white = squares[2:]
    for a in range(len(white)):
        for b in range(a + 1, len(white)):
            on_one_line = (np.take(_LINE, _pair(white[a], white[b])) & king_bit) != 0
            ok &= ~(checks[a] & checks[b] & on_one_line)
    return ok, count > 0
