"""A move packed into one int, and the named accessors that unpack it (one place decodes a move).

::

    from | to << 6 | promotion << 12 | kind << 15

``from`` and ``to`` are squares (a1 = 0 .. h8 = 63, python-chess's numbering); ``promotion`` the piece type
promoted to, 1 knight .. 4 queen (0: none); ``kind`` :data:`DOUBLE` (a pawn's double step),
:data:`EN_PASSANT`, :data:`CASTLING` (``to`` is the king's square after castling: g- or c-file), 0 otherwise.
A move takes :data:`MOVE_BITS` bits; :data:`NO_MOVE` (0) is none.  :func:`from_to` (the low 12 bits) indexes
the history tables.
"""

from __future__ import annotations

from numba import njit

#: The kinds of move.
NORMAL, DOUBLE, EN_PASSANT, CASTLING = 0, 1, 2, 3
#: The piece types a pawn promotes to, as ``promotion`` holds them.
KNIGHT_PROMOTION, BISHOP_PROMOTION, ROOK_PROMOTION, QUEEN_PROMOTION = 1, 2, 3, 4
NO_MOVE = 0
#: Bits of a packed move, and their mask.
MOVE_BITS = 17
MOVE_MASK = (1 << MOVE_BITS) - 1
#: The from and to squares together: 4096 values, the history tables' index.
FROM_TO_SIZE = 4096


@njit(cache=True, nogil=True, inline="always")
def encode(frm, to, promotion, kind):
    """The packed move."""
    return frm | (to << 6) | (promotion << 12) | (kind << 15)


@njit(cache=True, nogil=True, inline="always")
def from_square(move):
    return move & 63


@njit(cache=True, nogil=True, inline="always")
def to_square(move):
    return (move >> 6) & 63


@njit(cache=True, nogil=True, inline="always")
def promotion_of(move):
    """The piece type promoted to (1 knight .. 4 queen), 0 for none."""
    return (move >> 12) & 7


@njit(cache=True, nogil=True, inline="always")
def kind_of(move):
    """:data:`NORMAL`, :data:`DOUBLE`, :data:`EN_PASSANT` or :data:`CASTLING`."""
    return (move >> 15) & 3


@njit(cache=True, nogil=True, inline="always")
def from_to(move):
    """The from and to squares as one index below :data:`FROM_TO_SIZE` (the history tables')."""
    return move & (FROM_TO_SIZE - 1)
