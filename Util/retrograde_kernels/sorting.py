"""Sorting and counting bytes, compiled: the exits grouped by the ply they decide, a ply's new
positions in order, and the counts of each byte value.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros


# ---- the exits, grouped by the ply they decide ---------------------------------------------------
@njit(nogil=True, cache=True)
def bucket_by_value(index, value):
    """``(grouped, starts)``: ``index`` (int32) reordered by ``value`` (uint8), keeping the order within
    a value, and ``starts[v]`` where value v begins (257 entries).  A counting sort: one int32 copy."""
    starts = np.zeros(257, dtype=np.int64)
    for v in value:
        starts[np.int64(v) + 1] += 1
    for v in range(256):
        starts[v + 1] += starts[v]
    at = starts[:256].copy()
    grouped = np.empty(index.size, dtype=np.int32)
    for k in range(index.size):
        v = np.int64(value[k])
        grouped[at[v]] = index[k]
        at[v] += 1
    return grouped, starts


@njit(nogil=True, cache=True)
def sort_distinct(positions, bits):
    """``positions`` (int32) in ascending order, each once (a new array): each sets its bit in ``bits``
    (uint64, all zero, one bit per index), then the words from the lowest to the highest are read in
    order and zeroed, so that ``bits`` is all zero again.  Linear: a list of 10 % of the table costs
    a tenth of np.sort's time."""
    if positions.size == 0:
        return positions.copy()
    low, high = np.int64(positions[0]), np.int64(positions[0])
    for q in positions:
        q = np.int64(q)
        bits[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
        low, high = min(low, q), max(high, q)
    out = np.empty(positions.size, dtype=np.int32)
    m = 0
    for w in range(low >> 6, (high >> 6) + 1):
        word = bits[w]
        if word == 0:
            continue
        bits[w] = 0
        while word != 0:
            if m == out.size:
                raise ValueError("sort_distinct: the bitmap was not all zero")
            out[m] = (w << 6) + np.int64(trailing_zeros(word))
            m += 1
            word &= word - np.uint64(1)
    return out[:m]


@njit(nogil=True, cache=True)
def group_exit_bytes(values, start, stop, low, high, offsets, grouped):
    """Write each index k in ``range(start, stop)`` with ``low <= values[k] < high`` to ``grouped`` at
    ``offsets[values[k] - low]``, counting that offset up: the indices grouped by value, in order."""
    at = offsets.copy()
    for k in range(start, stop):
        v = np.int64(values[k])
        if low <= v < high:
            grouped[at[v - low]] = k
            at[v - low] += 1


@njit(nogil=True, cache=True)
def weighed_byte_counts(values, weights):
    """``counts[b]``: the sum of ``weights[i % weights.size]`` over the i with ``values[i] == b`` (uint8
    values; ``weights.size`` a power of two).  np.bincount widens every byte to 64 bits first, and its
    weights are floats: this is five times faster.  Four lanes of counts, so that a long run of one byte
    does not wait on its own count."""
    lanes = np.zeros((4, 256), dtype=np.int64)
    mask = weights.size - 1
    end = values.size - values.size % 4
    for i in range(0, end, 4):
        lanes[0, values[i]] += weights[i & mask]
        lanes[1, values[i + 1]] += weights[(i + 1) & mask]
        lanes[2, values[i + 2]] += weights[(i + 2) & mask]
        lanes[3, values[i + 3]] += weights[(i + 3) & mask]
    for i in range(end, values.size):
        lanes[0, values[i]] += weights[i & mask]
    return lanes.sum(axis=0)
