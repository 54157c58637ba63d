"""The bytes of a DTM array and of an exit, and the rules they follow.

A table holds one byte per position and side to move: n, the S_n that
holds the position (odd n: the side to move mates in n plies; even n: it
is mated in n plies), or :data:`UNKNOWN` where it is in no S_n (a draw, or
no legal position).  Inside the engine two more meanings live in the same
byte: :data:`ILLEGAL` marks an index that is no legal position, and the
bytes just below it hold the loss counters of undecided positions (see
:mod:`Util.retrograde_kernels.counters`).  The exit byte of a position (see
:mod:`Util.rules.exits`) uses the same numbers for the best capture or promotion,
with :data:`NO_EXIT` where there is none and :data:`DRAW` where it draws.

This module imports nothing of the project: every layer may read it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["NO_EXIT", "UNKNOWN", "DRAW", "ILLEGAL", "DEEPEST", "to_unknown_from", "undecided", "outcome_rank",
           "better"]

#: Exit byte of a position without a capture or promotion.
NO_EXIT = 0
#: DTM byte of a position that is in no S_n (a draw, or not a legal position).
UNKNOWN = 255
#: Exit byte (and DTM byte) of a draw.
DRAW = UNKNOWN
#: DTM byte, inside the engine only, of an index that is no legal position with that side to move.
#: Legality then costs no extra look-up: "undecided and legal" is one comparison with UNKNOWN.
#: Outside the engine (tables, checkpoints) such indices hold UNKNOWN.
ILLEGAL = 254
#: The deepest S_n a byte holds: n = 254, the byte that is ILLEGAL inside the engine (which therefore does
#: that last ply apart).  Only KPPvKP needs it among the 145 tables up to five pieces.
DEEPEST = ILLEGAL


def to_unknown_from(values: np.ndarray, low: int) -> None:
    """Write UNKNOWN over every byte of ``values`` from ``low`` up (in place).  UNKNOWN is the largest
    byte, so a maximum does it: several times faster than assigning through a boolean mask."""
    np.maximum(values, (values >= low).view(np.uint8) * np.uint8(UNKNOWN), out=values)


def undecided(values: np.ndarray, floor: int = UNKNOWN) -> np.ndarray:
    """Which of the engine's DTM bytes are undecided positions: UNKNOWN, or a loss counter (bytes from
    ``floor`` up, ILLEGAL excepted; see :mod:`Util.retrograde_kernels.counters`)."""
    return (values == UNKNOWN) | ((values >= floor) & (values != ILLEGAL))


def outcome_rank(value: np.ndarray) -> np.ndarray:
    """Sort key of exit bytes for the mover: a faster mate ranks higher, then a draw, then a slower
    defeat; NO_EXIT lowest."""
    v = value.astype(np.int16)
    return np.where(v == NO_EXIT, -1, np.where(v == DRAW, 512, np.where(v & 1 == 1, 1024 - v, v)))


def better(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The better exit byte of two, for the side to move."""
    return np.where(outcome_rank(a) >= outcome_rank(b), a, b)
