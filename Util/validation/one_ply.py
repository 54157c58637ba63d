"""One ply deep: stored values checked against their children's, through python-chess's move generation.

For tables that no reference covers (five pieces with pieces on both sides),
a stored n must follow from the values of the positions one legal move away:
n = 0 is checkmate, odd n the fastest child that the opponent loses plus one,
even n the slowest child that the opponent wins plus one, and a draw has no
losing child and some drawing one.
"""

from __future__ import annotations

import time
from typing import Dict, List

import chess
import numpy as np

from ..table.values import UNKNOWN
from ..rules.legality import legal_with
from ..sequence import SnSequence
from .comparison import Comparison


def one_ply_check(sequence: SnSequence, per_value: int = 100, seed: int = 0) -> Comparison:
    """Every sampled position's value follows from its children's, one ply deep, with python-chess's
    moves (for tables that no reference covers, such as the five-piece ones with pieces on both sides).

    Up to ``per_value`` stored positions of every value and side to move,
    draws included, are checked: n = 0 is checkmate; odd n is the fastest
    child the opponent loses (even m) plus one; even n > 0 means every child
    is an opponent's win (odd m) and the slowest is n - 1; a draw has no
    child that the opponent loses, and a drawing child or no move at all.
    Children in other materials are looked up through the sequence's store.
    """
    table, layout = sequence.table, sequence.table.layout
    result = Comparison(table.material.name, "one ply")
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for side, array in enumerate((table.dtm_white, table.dtm_black)):
        boards, stored = [], []
        for value, index in samples_by_value(array, per_value, rng, layout, side).items():
            for squares in zip(*(s.tolist() for s in layout.decode(index))):
                board = chess.Board(None)
                board.set_piece_map({sq: chess.Piece.from_symbol(c) for sq, c in zip(squares, layout.letters)})
                board.turn = side == 0
                boards.append(board)
                stored.append(-1 if value == UNKNOWN else int(value))
        for batch in range(0, len(boards), 2000):  # the children of 2000 positions at a time: bounded memory
            parents = boards[batch : batch + 2000]
            children = [[_child(board, move) for move in board.legal_moves] for board in parents]
            values = sequence.values([c for family in children for c in family]).tolist()
            first = 0
            for board, n, family in zip(parents, stored[batch : batch + 2000], children):
                result.checked += 1
                if not _follows_from_children(board, n, values[first : first + len(family)]):
                    result.mismatches.append((board.fen(), n, -2))
                first += len(family)
    result.seconds = time.perf_counter() - start
    return result


def samples_by_value(array: np.ndarray, count: int, rng, layout, side: int,
                      chunk: int = 1 << 24) -> Dict[int, np.ndarray]:
    """For every value in ``array``: up to ``count`` random indices holding it, sorted (for UNKNOWN:
    legal positions only, i.e. draws).

    Two passes over the array, whatever the number of values: one counts the values; then a uniform
    random subset of two million entries serves every value common enough to appear in it about three
    times ``count`` times (twenty times more for UNKNOWN, whose illegal positions are filtered out
    afterwards), and one more pass collects the rarer values whole.
    """
    counts = np.zeros(256, dtype=np.int64)
    for first in range(0, array.size, chunk):
        counts += np.bincount(array[first : first + chunk], minlength=256)
    picked = np.sort(rng.integers(0, array.size, min(array.size, 1 << 21)))
    picked = picked[np.r_[True, picked[1:] != picked[:-1]]]  # np.unique's hashing is ten times slower
    by_value = _group(picked, array[picked])
    quota = np.full(256, 3.0 * count)
    quota[UNKNOWN] *= 20
    rare = (counts > 0) & (counts * picked.size / array.size < quota)
    if rare.any():
        every = [first + np.flatnonzero(rare[array[first : first + chunk]]) for first in range(0, array.size, chunk)]
        every = np.concatenate(every)
        by_value.update(_group(every, array[every]))
    samples = {}
    for value in (int(v) for v in np.flatnonzero(counts)):
        index = by_value.get(value, picked[:0])
        if value == UNKNOWN and index.size:
            index = index[legal_with(layout.letters, layout.decode(index), side == 0)]
        samples[value] = np.sort(rng.choice(index, min(index.size, count), replace=False)) if index.size else index
    return samples


def _group(index: np.ndarray, values: np.ndarray) -> Dict[int, np.ndarray]:
    order = np.argsort(values, kind="stable")
    index, values = index[order], values[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if values.size else np.empty(0, np.int64)
    return {int(values[a]): index[a:b] for a, b in zip(starts, np.r_[starts[1:], values.size])}


def _child(board: chess.Board, move: chess.Move) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move)
    return child


def _follows_from_children(board: chess.Board, n: int, children: List[int]) -> bool:
    """``n`` of ``board`` agrees with its children's values (``children``, one per legal move)."""
    losses = [m for m in children if m >= 0 and m % 2 == 0]  # the opponent, to move there, is mated
    if n == 0:
        return board.is_checkmate()
    if n < 0:
        return not losses and (not children or -1 in children)
    if n % 2 == 1:
        return bool(losses) and min(losses) + 1 == n
    return bool(children) and all(m >= 0 and m % 2 == 1 for m in children) and max(children) + 1 == n
