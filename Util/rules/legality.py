"""Legality of positions, computed on whole numpy arrays of squares.

The rules follow python-chess's ``Board.is_valid()``, so a position is in
an S_n only if python-chess accepts it:

* every piece on its own square, the kings not touching;
* no pawn on the first or eighth rank;
* the side not to move is not in check;
* the side to move has at most two checkers, and two checkers never on one
  line through its king (python-chess's ``STATUS_IMPOSSIBLE_CHECK``).

``letters`` names the pieces in PIECE_LIST order (``"KkBN"``, ``"KkQr"``:
upper case White, lower case Black); ``squares`` holds one int array per
piece.  Side 0 is White, side 1 Black; the king of side s is piece s.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

from .geometry import (BETWEEN, BLACK_PAWN_ATTACKS, KING_ADJACENT, KNIGHT_ATTACKS, LINE, LINE_KIND, RANK_OF,
                       WHITE_PAWN_ATTACKS)

# The square-pair tables flattened: table[a * 64 + b] by np.take is several times faster than table[a, b].
_KNIGHT_ATTACKS = KNIGHT_ATTACKS.ravel()
_PAWN_ATTACKS = {"P": WHITE_PAWN_ATTACKS.ravel(), "p": BLACK_PAWN_ATTACKS.ravel()}
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
    """Whether a ``letter`` (upper case White, lower case Black) on ``square`` attacks ``king``, given the
    occupancy; for kings, whether the squares touch."""
    pair = _pair(square, king)
    upper = letter.upper()
    if upper == "N":
        return np.take(_KNIGHT_ATTACKS, pair)
    if upper == "P":
        return np.take(_PAWN_ATTACKS[letter], pair)
    if upper == "K":
        return np.take(_KING_ADJACENT, pair) & (square != king)
    kind = np.take(_LINE_KIND, pair)  # 0 not aligned, 1 rank or file, 2 diagonal
    aligned = kind != 0 if upper == "Q" else kind == (1 if upper == "R" else 2)
    return aligned & ((np.take(_BETWEEN, pair) & occ) == 0)


def _enemies(letters: str, side: int) -> List[int]:
    """PIECE_LIST positions of the non-king pieces that can check the king of ``side``."""
    return [i for i, c in enumerate(letters) if i >= 2 and c.isupper() == (side == 1)]


def checkers(letters: str, squares: Sequence[np.ndarray], side: int = 1, occ=None) -> List[np.ndarray]:
    """One bool array per enemy non-king piece of ``side`` (default Black): does it check that king?"""
    occ = occupancy(squares) if occ is None else occ
    return [gives_check(letters[i], squares[i], squares[side], occ) for i in _enemies(letters, side)]


def basic_legal(letters: str, squares: Sequence[np.ndarray]) -> np.ndarray:
    """Distinct squares, kings apart, no pawn on a back rank."""
    ok = ~np.take(_KING_ADJACENT, _pair(squares[0], squares[1]))
    for i in range(len(squares)):
        for j in range(max(i + 1, 2), len(squares)):
            ok &= squares[i] != squares[j]
        if letters[i] in "Pp":
            rank = RANK_OF[squares[i]]
            ok &= (rank != 0) & (rank != 7)
    return ok


def legality(letters: str, squares: Sequence[np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(legal with White to move, legal with Black to move, White in check, Black in check)``."""
    basic = basic_legal(letters, squares)
    occ = occupancy(squares)
    white_checks, black_checks = checkers(letters, squares, 0, occ), checkers(letters, squares, 1, occ)
    white_in_check = np.any(white_checks, axis=0) if white_checks else np.zeros_like(basic)
    black_in_check = np.any(black_checks, axis=0) if black_checks else np.zeros_like(basic)
    white_ok = basic & ~black_in_check & _possible_checks(letters, squares, white_checks, 0)
    black_ok = basic & ~white_in_check & _possible_checks(letters, squares, black_checks, 1)
    return white_ok, black_ok, white_in_check, black_in_check


def legal_with(letters: str, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
    """Positions valid with White (``white_to_move``) or Black to move."""
    return legality(letters, squares)[0 if white_to_move else 1]


def white_to_move_legal(letters: str, squares: Sequence[np.ndarray]) -> np.ndarray:
    """Positions that are valid with White to move."""
    return legal_with(letters, squares, True)


def black_to_move_legal_and_check(letters: str, squares: Sequence[np.ndarray]):
    """``(legal, in_check)`` for positions with Black to move."""
    white_ok, black_ok, white_in_check, black_in_check = legality(letters, squares)
    return black_ok, black_in_check


def _possible_checks(letters: str, squares: Sequence[np.ndarray], checks: List[np.ndarray], side: int) -> np.ndarray:
    """No more than two checkers on the king of ``side``, and never two on one line through it."""
    ok = np.ones(np.shape(squares[0]), dtype=bool)
    if len(checks) < 2:
        return ok
    ok &= np.sum(checks, axis=0) <= 2
    king_bit = np.left_shift(np.uint64(1), squares[side].astype(np.uint64))
    enemies = _enemies(letters, side)
    for a in range(len(enemies)):
        for b in range(a + 1, len(enemies)):
            pair = _pair(squares[enemies[a]], squares[enemies[b]])
            on_one_line = (np.take(_LINE, pair) & king_bit) != 0
            ok &= ~(checks[a] & checks[b] & on_one_line)
    return ok
