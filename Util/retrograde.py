"""The retrograde engine: all S_n sets of one material as two DTM arrays.

The thesis computes S_(n+1) from S_n by un-making moves.  We do the same,
but on integer indices in numpy arrays instead of sets of Boards:

* ``dtm_white[i]`` / ``dtm_black[i]``: n of the S_n that holds position i
  with White / Black to move, or :data:`UNKNOWN` (255) where the position
  is in no S_n (a draw, or not a legal position).
* **Odd n (White to move):** un-make every White move from the positions
  that entered S_(n-1) last ply; the undecided legal ones are in S_n.
  One good move is enough.
* **Even n (Black to move):** un-make the black king's moves from S_(n-1);
  a candidate is in S_n only if *every* legal black move leads into a
  set already found (checked forward: at most 8 king moves).
* **Other materials.** A black king capture leads into a smaller table
  and a promotion into another table; these tables are finished first and
  their values enter this table as "exits" at the ply they decide.

Only the newest S_n (the frontier) is touched each ply, never the whole
array, which is what makes it fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .geometry import KING_ADJACENT, KING_STEP, KNIGHT_STEP, RANK_OF, RAYS
from .layout import Layout
from .material import PIECE_ORDER, PROMOTION_LETTERS, Material
from .rules import black_to_move_legal_and_check, occupancy, white_to_move_legal

#: DTM value of a position that is in no S_n.
UNKNOWN = 255
#: Positions handled per step when a pass touches the whole index space.
CHUNK = 1 << 20


@dataclass
class DtmTable:
    """The S_n sets of one material: a DTM value in plies per position and side to move."""

    material: Material
    dtm_white: np.ndarray
    dtm_black: np.ndarray
    layout: Layout = field(init=False)

    def __post_init__(self) -> None:
        self.layout = Layout(self.material)

    @property
    def max_n(self) -> int:
        """The largest n with a non-empty S_n, or -1 if White never wins."""
        values = [int(a[a != UNKNOWN].max()) for a in (self.dtm_white, self.dtm_black) if (a != UNKNOWN).any()]
        return max(values, default=-1)

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM values (UNKNOWN where not won) of positions given by their squares in PIECE_LIST order."""
        array = self.dtm_white if white_to_move else self.dtm_black
        return array[self.layout.encode_canonical(squares)]


# --------------------------------------------------------------------------
# Moves forwards and backwards on index arrays
# --------------------------------------------------------------------------

#: Bit of each square, and at index -1 (off the board) all bits, so that "free" is one AND.
_BIT_OR_BLOCKED = np.append(np.array([1 << s for s in range(64)], dtype=np.uint64), np.uint64(2**64 - 1))


def _is_empty(occ: np.ndarray, target: np.ndarray) -> np.ndarray:
    """target is on the board (>= 0) and the square is free."""
    return (occ & _BIT_OR_BLOCKED[target]) == 0


def _retro_targets(letter: str, square: np.ndarray, occ: np.ndarray):
    """Yield ``(rows, origin)``: positions ``rows`` whose white ``letter`` on ``square`` may have come from ``origin``."""
    if letter in ("K", "N"):
        table = KING_STEP if letter == "K" else KNIGHT_STEP
        for d in range(8):
            origin = table[square, d].astype(np.int64)
            rows = np.flatnonzero(_is_empty(occ, origin))
            yield rows, origin[rows]
    elif letter == "P":
        rank = RANK_OF[square]
        one = np.where(rank >= 2, square.astype(np.int64) - 8, -1)
        one_ok = _is_empty(occ, one)
        rows = np.flatnonzero(one_ok)
        yield rows, one[rows]
        two = np.where((rank == 3) & one_ok, square.astype(np.int64) - 16, -1)
        rows = np.flatnonzero(_is_empty(occ, two))
        yield rows, two[rows]
    else:
        rays = RAYS[letter]
        for d in range(rays.shape[1]):
            rows = np.arange(square.size)
            for k in range(7):
                origin = rays[square[rows], d, k].astype(np.int64)
                keep = _is_empty(occ[rows], origin)
                rows, origin = rows[keep], origin[keep]
                if not rows.size:
                    break
                yield rows, origin


def white_predecessors(layout: Layout, frontier: np.ndarray) -> np.ndarray:
    """Indices (White to move, possibly repeated or illegal) of positions one White move before ``frontier``."""
    squares = layout.decode(frontier)
    occ = occupancy(squares)
    found = []
    for i, letter in enumerate(layout.letters):
        if i == 1:
            continue
        for rows, origin in _retro_targets(letter, squares[i], occ):
            if not rows.size:
                continue
            if i == 0:  # the white king may leave the canonical squares: fold again
                moved = [s[rows] for s in squares]
                moved[0] = origin
                folded = layout.encode_canonical(moved)
                found += [folded, layout.diagonal_twins(folded)]
            else:
                found.append(frontier[rows] + (origin - squares[i][rows]) * layout.strides[i])
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


def black_predecessors(layout: Layout, frontier: np.ndarray) -> np.ndarray:
    """Indices (Black to move, possibly repeated or illegal) one black king move before ``frontier``."""
    squares = layout.decode(frontier)
    occ = occupancy(squares)
    king = squares[1]
    found = []
    for d in range(8):
        origin = KING_STEP[king, d].astype(np.int64)
        ok = _is_empty(occ, origin)
        found.append(frontier[ok] + (origin[ok] - king[ok]) * layout.strides[1])
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


@dataclass
class _Exits:
    """Positions whose value also depends on a move into another table: index and DTM through that move."""

    index: np.ndarray  # int32 (every table has fewer than 2**31 indices)
    value: np.ndarray  # uint8: the n this position would get through the exit (UNKNOWN = none / saves Black)

    @classmethod
    def of(cls, indices: List[np.ndarray], values: List[np.ndarray]) -> "_Exits":
        """From per-chunk pieces (int32 indices, uint8 values)."""
        if not indices:
            return cls(np.empty(0, np.int32), np.empty(0, np.uint8))
        return cls(np.concatenate(indices), np.concatenate(values))

    def at(self, n: int) -> np.ndarray:
        return self.index[self.value == n].astype(np.int64)

    @property
    def last(self) -> int:
        finite = self.value[self.value != UNKNOWN]
        return int(finite.max()) if finite.size else -1


#: Bits of ``_Engine.flags``: one byte per index instead of three boolean arrays.
_VALID_WHITE, _VALID_BLACK, _IN_CHECK = 1, 2, 4


class _Engine:
    """One table's computation; see the module docstring."""

    def __init__(self, material: Material, subtables: Dict[Material, DtmTable]):
        self.material = material
        self.layout = Layout(material)
        self.subtables = subtables
        size = self.layout.size
        self.flags = np.zeros(size, dtype=np.uint8)  # _VALID_WHITE | _VALID_BLACK | _IN_CHECK per index
        self.dtm_white = np.full(size, UNKNOWN, dtype=np.uint8)
        self.dtm_black = np.full(size, UNKNOWN, dtype=np.uint8)
        self._owner = np.zeros(size, dtype=np.uint8)  # scratch for _distinct; contents never matter

    # ---- whole-space passes, done once -------------------------------------------------
    def classify(self) -> Tuple[_Exits, _Exits]:
        """Legality of every index, and the exits into other tables."""
        letters = self.layout.letters
        capture_idx, capture_val, promo_idx, promo_val = [], [], [], []
        for start in range(0, self.layout.size, CHUNK):
            index = np.arange(start, min(start + CHUNK, self.layout.size), dtype=np.int64)
            squares = self.layout.decode(index)
            white_ok = white_to_move_legal(letters, squares)
            black_ok, check = black_to_move_legal_and_check(letters, squares)
            self.flags[index] = (white_ok * _VALID_WHITE) | (black_ok * _VALID_BLACK) | ((check & black_ok) * _IN_CHECK)
            b = index[black_ok]
            worst = self._capture_values(b, [s[black_ok] for s in squares])
            has = worst >= 0
            capture_idx.append(b[has].astype(np.int32))
            capture_val.append(np.minimum(worst[has].astype(np.int64) + 1, UNKNOWN).astype(np.uint8))
            if self.material.has_pawns:
                w = index[white_ok]
                best = self._promotion_values(w, [s[white_ok] for s in squares])
                has = best != UNKNOWN
                promo_idx.append(w[has].astype(np.int32))
                promo_val.append(best[has].astype(np.uint8))
        captures = _Exits.of(capture_idx, capture_val)
        promos = _Exits.of(promo_idx, promo_val)
        return captures, promos

    def _capture_children(self, squares: List[np.ndarray], i: int, target: np.ndarray):
        """Sub-table, squares and legality after the black king takes piece i on ``target``."""
        sub = self.subtables[self.material.without(self.layout.letters[i])]
        child = [s for j, s in enumerate(squares) if j != i]
        child[1] = target
        legal = white_to_move_legal(sub.layout.letters, child)
        return sub, child, legal

    def _capture_values(self, index: np.ndarray, squares: List[np.ndarray]) -> np.ndarray:
        """Per Black-to-move position: the largest sub-table DTM over legal captures (-1: no capture)."""
        worst = np.full(index.shape, -1, dtype=np.int16)
        for i in range(2, self.layout.piece_count):
            rows = np.flatnonzero(KING_ADJACENT[squares[i], squares[1]])
            if rows.size:
                worst[rows] = np.maximum(worst[rows], self._capture_move_values(squares, rows, squares[i][rows]))
        return worst

    def _promotion_values(self, index: np.ndarray, squares: List[np.ndarray]) -> np.ndarray:
        """Per White-to-move position: 1 + the best DTM reachable by promoting (UNKNOWN: none wins)."""
        best = np.full(index.shape, UNKNOWN, dtype=np.int64)
        occ = occupancy(squares)
        letters = self.layout.letters
        for i, letter in enumerate(letters):
            if letter != "P":
                continue
            ready = RANK_OF[squares[i]] == 6
            ready &= _is_empty(occ, squares[i].astype(np.int64) + 8)
            if not ready.any():
                continue
            part = [s[ready] for s in squares]
            part[i] = part[i] + 8
            for piece in PROMOTION_LETTERS:
                target = self.material.promoted(piece)
                new_white = sorted(
                    [(letters[j] if j != i else piece, j) for j in range(2, len(letters))],
                    key=lambda pair: PIECE_ORDER.index(pair[0]),
                )
                child = part[:2] + [part[j] for _, j in new_white]
                values = self.subtables[target].dtm(child, white_to_move=False).astype(np.int64)
                values = np.where(values == UNKNOWN, UNKNOWN, values + 1)
                best[ready] = np.minimum(best[ready], values)
        return best

    # ---- black moves forwards, for mates and the "every move loses" check ---------------
    def black_move_values(self, index: np.ndarray) -> np.ndarray:
        """Per position (Black to move): the worst (largest) DTM Black can reach; -1 if no legal move.

        UNKNOWN means some legal move escapes (into no S_n known so far).
        """
        squares = self.layout.decode(index)
        king = squares[1].astype(np.int64)
        white_pieces = occupancy(squares[2:]) if self.layout.piece_count > 2 else np.zeros(index.shape, np.uint64)
        worst = np.full(index.shape, -1, dtype=np.int16)
        for d in range(8):
            target = KING_STEP[king, d].astype(np.int64)
            takes = (white_pieces & _BIT_OR_BLOCKED[target]) != 0
            quiet = (target >= 0) & ~takes
            child = np.where(quiet, index + (target - king) * self.layout.strides[1], 0)
            legal = quiet & self._valid(child, _VALID_WHITE)
            np.maximum(worst, np.where(legal, self.dtm_white[child].astype(np.int16), np.int16(-1)), out=worst)
            takes &= target >= 0
            if takes.any():
                rows = np.flatnonzero(takes)
                worst[rows] = np.maximum(worst[rows], self._capture_move_values(squares, rows, target[rows]))
        return worst

    def _capture_move_values(self, squares: List[np.ndarray], rows: np.ndarray, target: np.ndarray) -> np.ndarray:
        """DTM after the black king takes the white piece on ``target`` (-1 where the capture is illegal)."""
        values = np.full(rows.shape, -1, dtype=np.int16)
        for i in range(2, self.layout.piece_count):
            mine = squares[i][rows] == target
            if not mine.any():
                continue
            part = [s[rows[mine]] for s in squares]
            sub, child, legal = self._capture_children(part, i, target[mine])
            values[mine] = np.where(legal, sub.dtm(child, white_to_move=True).astype(np.int16), np.int16(-1))
        return values

    # ---- the plies ---------------------------------------------------------------------
    def mates(self) -> np.ndarray:
        mated = []
        for start in range(0, self.layout.size, CHUNK):  # in chunks: all checks at once would need GBs
            checked = start + np.flatnonzero(self.flags[start : start + CHUNK] & _IN_CHECK)
            mated.append(checked[self.black_move_values(checked) < 0])
        return np.concatenate(mated)

    def _valid(self, index: np.ndarray, flag: int) -> np.ndarray:
        return (self.flags[index] & flag) != 0

    def _distinct(self, index: np.ndarray) -> np.ndarray:
        """``index`` almost without repeats (in no particular order).

        Each entry writes its position (modulo 256, to keep the scratch array
        at one byte per index) into a scratch slot; whichever write numpy
        keeps, one entry per value finds its own position there.  Two equal
        entries a multiple of 256 apart may both survive; that only repeats a
        little work, and :meth:`_ply` removes repeats from the new S_n.
        Cheaper than sorting, which dominated the 5-piece profile.
        """
        positions = np.arange(index.size, dtype=np.int64).astype(np.uint8)
        self._owner[index] = positions
        return index[self._owner[index] == positions]

    def _ply(self, n: int, frontier: np.ndarray, predecessors, exits: _Exits, mark, side: np.ndarray) -> np.ndarray:
        """S_n: ``mark`` the predecessors of the frontier (in batches) and the exits deciding at n.

        Returns the new frontier, sorted, as int32.  A small S_n is collected
        from the batches; a large one (more than 1/256 of the table) is read
        back from ``side`` (the DTM array just marked), which needs neither
        the pieces in memory at once nor a sort.
        """
        limit = max(1 << 20, self.layout.size >> 8)
        found: Optional[List[np.ndarray]] = []
        count = 0
        for part in _batches(frontier):
            new = mark(n, predecessors(self.layout, part))
            count += new.size
            found = found if found is not None and count <= limit else None
            if found is not None:
                found.append(new.astype(np.int32))
        new = mark(n, exits.at(n))
        if found is None or count + new.size > limit:
            return _indices_equal(side, n)
        found.append(new.astype(np.int32))
        merged = np.sort(np.concatenate(found))
        return merged[np.r_[True, merged[1:] != merged[:-1]]] if merged.size else merged

    def white_ply(self, n: int, frontier: np.ndarray, promotions: _Exits) -> np.ndarray:
        return self._ply(n, frontier, white_predecessors, promotions, self._mark_white, self.dtm_white)

    def black_ply(self, n: int, frontier: np.ndarray, captures: _Exits) -> np.ndarray:
        return self._ply(n, frontier, black_predecessors, captures, self._mark_black, self.dtm_black)

    def _mark_white(self, n: int, candidates: np.ndarray) -> np.ndarray:
        candidates = candidates[self._valid(candidates, _VALID_WHITE) & (self.dtm_white[candidates] == UNKNOWN)]
        candidates = self._distinct(candidates)
        self.dtm_white[candidates] = n
        return candidates

    def _mark_black(self, n: int, candidates: np.ndarray) -> np.ndarray:
        """Candidates whose every move leads into a set found already; a failed one may come again later."""
        candidates = candidates[self._valid(candidates, _VALID_BLACK) & (self.dtm_black[candidates] == UNKNOWN)]
        candidates = self._distinct(candidates)
        candidates = candidates[self.black_move_values(candidates) == n - 1]
        self.dtm_black[candidates] = n
        return candidates


def _batches(frontier: np.ndarray, size: int = 1 << 18):
    """The frontier in slices (as int64 for the index arithmetic), so that the predecessors of one
    slice fit in memory."""
    for start in range(0, frontier.size, size):
        yield frontier[start : start + size].astype(np.int64)


def _indices_equal(values: np.ndarray, n: int, chunk: int = 1 << 24) -> np.ndarray:
    """Sorted int32 indices where ``values == n``, found chunk by chunk (no table-sized temporaries)."""
    parts = [np.flatnonzero(values[start : start + chunk] == n).astype(np.int32) + np.int32(start)
             for start in range(0, values.size, chunk)]
    return np.concatenate(parts) if parts else np.empty(0, np.int32)


ProgressCallback = Callable[[int, int], None]
CheckpointCallback = Callable[[int, np.ndarray, np.ndarray], None]


def compute_table(
    material: Material,
    subtables: Dict[Material, DtmTable],
    *,
    resume: Optional[Tuple[int, np.ndarray, np.ndarray]] = None,
    on_ply: Optional[ProgressCallback] = None,
    checkpoint: Optional[CheckpointCallback] = None,
) -> DtmTable:
    """Compute every S_n of ``material``.

    ``subtables`` must hold every material of ``material.dependencies()``.
    ``resume=(n_done, dtm_white, dtm_black)`` continues a calculation whose
    plies up to ``n_done`` were finished (from a checkpoint).  ``on_ply(n,
    size_of_S_n)`` is called after each ply, ``checkpoint(n, dtm_white,
    dtm_black)`` too, so the caller may save progress.
    """
    missing = [str(m) for m in material.dependencies() if m not in subtables]
    if missing:
        raise ValueError(f"{material} needs the tables {', '.join(missing)} first")
    engine = _Engine(material, subtables)
    captures, promotions = engine.classify()
    if resume is None:
        frontier = engine.mates().astype(np.int32)
        engine.dtm_black[frontier] = 0
        n_done = 0
        if on_ply:
            on_ply(0, frontier.size)
        if checkpoint:
            checkpoint(0, engine.dtm_white, engine.dtm_black)
    else:
        n_done, dtm_white, dtm_black = resume
        engine.dtm_white[:] = dtm_white
        engine.dtm_black[:] = dtm_black
        side = engine.dtm_black if n_done % 2 == 0 else engine.dtm_white
        frontier = _indices_equal(side, n_done)
    last_exit = max(captures.last, promotions.last)
    n = n_done + 1
    while frontier.size or n <= last_exit:
        if n % 2:
            frontier = engine.white_ply(n, frontier, promotions)
        else:
            frontier = engine.black_ply(n, frontier, captures)
        if on_ply:
            on_ply(n, frontier.size)
        if checkpoint:
            checkpoint(n, engine.dtm_white, engine.dtm_black)
        n += 1
    return DtmTable(material, engine.dtm_white, engine.dtm_black)
