"""The retrograde engine: all S_n sets of one material as two DTM arrays.

The thesis computes S_(n+1) from S_n by un-making moves.  We do the same,
but on integer indices in numpy arrays instead of sets of Boards:

* ``dtm_white[i]`` / ``dtm_black[i]``: n of the S_n that holds position i
  with White / Black to move, or :data:`UNKNOWN` (255) where the position
  is in no S_n (a draw, or not a legal position).
* **Odd n (White to move):** un-make every White move from the positions
  that entered S_(n-1) last ply; the undecided legal ones are in S_n.
  One good move is enough.  When S_(n-1) is larger than the set of White
  positions still undecided (the middle plies of big tables), each of
  those looks forward instead, for a move into S_(n-1): less work, same set.
* **Even n (Black to move):** un-make the black king's moves from S_(n-1);
  a candidate is in S_n only if *every* legal black move leads into a
  set already found (checked forward: at most 8 king moves).
* **Other materials.** A black king capture leads into a smaller table
  and a promotion into another table; these tables are finished first and
  their values enter this table as "exits" at the ply they decide.

Only the newest S_n (the frontier) is touched each ply, never the whole
array, which is what makes it fast.

**Both cores.**  Within one ply the frontier's pieces are independent:
marking only ever writes n into positions still unknown, and the forward
check of a black candidate reads only the other side's array, which this
ply does not change.  So the pieces run on threads, one per core (numpy
releases the interpreter lock inside its loops).  Two threads may find the
same position; the new S_n is deduplicated, so the result does not depend
on the order in which the threads ran.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .geometry import KING_ADJACENT, KING_STEP, KNIGHT_STEP, RANK_OF, RAYS
from .layout import Layout
from .material import PIECE_ORDER, PROMOTION_LETTERS, Material
from .parallel import Threads, core_count
from .rules import legality, occupancy, white_to_move_legal

#: DTM value of a position that is in no S_n.
UNKNOWN = 255
#: Positions handled per step when a pass touches the whole index space.
CHUNK = 1 << 20
#: Largest piece of a frontier handed to one thread (its predecessors must fit in memory).
BATCH = 1 << 18


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


#: ``_RAY_STEPS[letter][d, k]``: per square, the square k+1 steps away in direction d (-1: off the board),
#: as contiguous int64 rows: a flat take is several times faster than indexing RAYS[letter][s, d, k].
_RAY_STEPS = {letter: np.ascontiguousarray(rays.transpose(1, 2, 0)).astype(np.int64) for letter, rays in RAYS.items()}
#: The same for one king or knight step: ``_STEPS[letter][d]`` is a 64-entry row.
_STEPS = {"K": np.ascontiguousarray(KING_STEP.T).astype(np.int64), "N": np.ascontiguousarray(KNIGHT_STEP.T).astype(np.int64)}


def _piece_moves(letter: str, square: np.ndarray, occ: np.ndarray, backward: bool = True):
    """Yield ``(rows, other)``: in positions ``rows`` the white ``letter`` on ``square`` may have come from
    ``other`` (``backward``), or may go to ``other``.  Only pawns move differently backwards; a pawn
    push to the last rank is a promotion, which the engine handles as an exit, so it is left out."""
    if letter in ("K", "N"):
        for step in _STEPS[letter]:
            origin = np.take(step, square)
            rows = np.flatnonzero(_is_empty(occ, origin))
            yield rows, origin[rows]
    elif letter == "P":
        rank = RANK_OF[square]
        step, first, double_from = (-8, rank >= 2, 3) if backward else (8, rank <= 5, 1)
        one = np.where(first, square.astype(np.int64) + step, -1)
        one_ok = _is_empty(occ, one)
        rows = np.flatnonzero(one_ok)
        yield rows, one[rows]
        two = np.where((rank == double_from) & one_ok, square.astype(np.int64) + 2 * step, -1)
        rows = np.flatnonzero(_is_empty(occ, two))
        yield rows, two[rows]
    else:
        rays = _RAY_STEPS[letter]
        for d in range(rays.shape[0]):
            rows = np.arange(square.size)
            for k in range(7):
                origin = np.take(rays[d, k], square[rows])
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
        base = frontier - squares[i].astype(np.int64) * layout.strides[i]  # the index without piece i
        for rows, origin in _piece_moves(letter, squares[i], occ):
            if not rows.size:
                continue
            if i == 0:
                moved = _king_moved(layout, squares, frontier, rows, origin)
                # a king on the a1-h8 diagonal: both mirror entries are kept, so both get the value
                found += [moved, layout.diagonal_twins(moved)]
            else:
                found.append(base[rows] + origin * layout.strides[i])
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


def _king_moved(layout: Layout, squares: List[np.ndarray], index: np.ndarray, rows: np.ndarray,
                target: np.ndarray) -> np.ndarray:
    """Indices of positions ``index[rows]`` with the white king put on ``target`` (one per row).

    A king that stays on the canonical squares only changes its slot; one
    that leaves them is folded back by symmetry.
    """
    slot = layout.slot_of_square[target]
    stays = slot >= 0
    moved = np.empty(rows.size, dtype=np.int64)
    kept = rows[stays]
    moved[stays] = index[kept] + (slot[stays] - layout.slot_of_square[squares[0][kept]]) * layout.strides[0]
    leaving = rows[~stays]
    if leaving.size:
        pieces = [s[leaving] for s in squares]
        pieces[0] = target[~stays]
        moved[~stays] = layout.encode_canonical(pieces)
    return moved


def black_predecessors(layout: Layout, frontier: np.ndarray) -> np.ndarray:
    """Indices (Black to move, possibly repeated or illegal) one black king move before ``frontier``."""
    squares = layout.decode(frontier)
    occ = occupancy(squares)
    king = squares[1]
    found = []
    for d in range(8):
        origin = np.take(_STEPS["K"][d], king)
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


#: DTM value, inside the engine only, of an index that is no legal position with that side to move.
#: Legality then costs no extra look-up: "undecided and legal" is one comparison with UNKNOWN.
#: Outside the engine (tables, checkpoints) such indices hold UNKNOWN.
ILLEGAL = 254


class _Engine:
    """One table's computation; see the module docstring."""

    def __init__(self, material: Material, subtables: Dict[Material, DtmTable], threads: Threads):
        self.material = material
        self.threads = threads
        self.layout = Layout(material)
        self.subtables = subtables
        size = self.layout.size
        self._in_check = np.zeros(-(-size // 8), dtype=np.uint8)  # one bit per index, until the mates are found
        # Black to move: 0 = no legal capture, else 1 + the largest sub-table DTM a capture reaches
        # (UNKNOWN: a capture escapes).  Found once, so the forward checks need not redo captures.
        self.capture_exit = np.zeros(size, dtype=np.uint8)
        self.dtm_white = np.full(size, UNKNOWN, dtype=np.uint8)
        self.dtm_black = np.full(size, UNKNOWN, dtype=np.uint8)
        self._owner = np.zeros(size, dtype=np.uint8)  # scratch for _distinct; contents never matter

    # ---- whole-space passes, done once -------------------------------------------------
    def classify(self) -> Tuple[_Exits, _Exits]:
        """Legality of every index, and the exits into other tables."""
        parts = self.threads.map(self._classify_range, _spans(self.layout.size, CHUNK))
        captures = _Exits.of([p[0] for p in parts], [p[1] for p in parts])
        promotions = _Exits.of([p[2] for p in parts], [p[3] for p in parts])
        return captures, promotions

    def _classify_range(self, span: Tuple[int, int]) -> Tuple[np.ndarray, ...]:
        """Legality, check and capture exit of the indices in ``span``; their capture exits and promotion
        exits (index, value)."""
        letters = self.layout.letters
        index = np.arange(*span, dtype=np.int64)
        squares = self.layout.decode(index)
        white_ok, black_ok, check = legality(letters, squares)
        self.dtm_white[index] = np.where(white_ok, UNKNOWN, ILLEGAL)
        self.dtm_black[index] = np.where(black_ok, UNKNOWN, ILLEGAL)
        self._in_check[span[0] // 8 : -(-span[1] // 8)] = np.packbits(check & black_ok)
        b = index[black_ok]
        worst = self._capture_values(b, [s[black_ok] for s in squares])
        has = worst >= 0
        capture_index = b[has].astype(np.int32)
        capture_value = np.minimum(worst[has].astype(np.int64) + 1, UNKNOWN).astype(np.uint8)
        self.capture_exit[capture_index] = capture_value
        if not self.material.has_pawns:
            return capture_index, capture_value, np.empty(0, np.int32), np.empty(0, np.uint8)
        w = index[white_ok]
        best = self._promotion_values(w, [s[white_ok] for s in squares])
        has = best != UNKNOWN
        return capture_index, capture_value, w[has].astype(np.int32), best[has].astype(np.uint8)

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
            target = np.take(_STEPS["K"][d], king)
            takes = (white_pieces & _BIT_OR_BLOCKED[target]) != 0
            quiet = (target >= 0) & ~takes
            child = np.where(quiet, index + (target - king) * self.layout.strides[1], 0)
            value = self.dtm_white[child]
            legal = quiet & (value != ILLEGAL)
            np.maximum(worst, np.where(legal, value.astype(np.int16), np.int16(-1)), out=worst)
        exit_value = self.capture_exit[index].astype(np.int16)
        return np.maximum(worst, np.where(exit_value == UNKNOWN, exit_value, exit_value - 1))

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
        def mated(span: Tuple[int, int]) -> np.ndarray:  # in chunks: all checks at once would need GBs
            bits = np.unpackbits(self._in_check[span[0] // 8 : -(-span[1] // 8)], count=span[1] - span[0])
            checked = span[0] + np.flatnonzero(bits)
            return checked[self.black_move_values(checked) < 0]

        return np.concatenate(self.threads.map(mated, _spans(self.layout.size, CHUNK)))

    def forget_checks(self) -> None:
        """Free the in-check bits: only the mates need them."""
        self._in_check = None

    def take_values(self, dtm_white: np.ndarray, dtm_black: np.ndarray) -> None:
        """Adopt the values of a checkpoint (UNKNOWN there leaves this engine's ILLEGAL marks alone)."""
        for mine, theirs in ((self.dtm_white, dtm_white), (self.dtm_black, dtm_black)):
            for start, stop in _spans(mine.size, CHUNK):
                known = theirs[start:stop] != UNKNOWN
                mine[start:stop][known] = theirs[start:stop][known]

    def publish(self) -> None:
        """Turn ILLEGAL into UNKNOWN in place, at the end (chunk by chunk, on all threads)."""
        def clear(job: Tuple[np.ndarray, Tuple[int, int]]) -> None:
            part = job[0][job[1][0] : job[1][1]]
            part[part == ILLEGAL] = UNKNOWN

        self.threads.map(clear, [(a, span) for a in (self.dtm_white, self.dtm_black) for span in _spans(a.size, CHUNK)])

    def _distinct(self, index: np.ndarray) -> np.ndarray:
        """``index`` almost without repeats (in no particular order).

        Each entry writes its position (modulo 256, to keep the scratch array
        at one byte per index) into a scratch slot; whichever write numpy
        keeps, one entry per value finds its own position there.  Two equal
        entries a multiple of 256 apart may both survive; that only repeats a
        little work, and :meth:`_collect` removes repeats from the new S_n.
        Threads share the scratch: a value may then survive in two threads
        (again only repeated work), but never in none, because the thread that
        wrote a slot last reads it after its own write.  Cheaper than
        sorting, which dominated the 5-piece profile.
        """
        positions = np.arange(index.size, dtype=np.int64).astype(np.uint8)
        self._owner[index] = positions
        return index[self._owner[index] == positions]

    def white_ply(self, n: int, frontier: np.ndarray, promotions: _Exits) -> np.ndarray:
        """S_n for odd n: the undecided positions with a move into S_(n-1) (or a promotion deciding at n).

        Usually found backwards, from the frontier S_(n-1).  When S_(n-1)
        is larger than what is still undecided (the middle plies of a
        5-piece table, where most positions are decided in a few plies),
        the undecided positions look forwards instead: less work.
        """
        if self._pulling_is_cheaper(frontier):
            jobs = [partial(self._pull_white, n, span) for span in _spans(self.layout.size, CHUNK)]
        else:
            jobs = self._push_jobs(n, frontier, white_predecessors, self._mark_white)
        jobs += self._push_jobs(n, promotions.at(n), None, self._mark_white)
        return self._collect(jobs, self.dtm_white, n)

    def _pulling_is_cheaper(self, frontier: np.ndarray) -> bool:
        """Fewer undecided White-to-move positions than frontier positions (only counted for a large frontier)."""
        return frontier.size * 8 > self.layout.size and self._count(self.dtm_white, UNKNOWN) < frontier.size

    def black_ply(self, n: int, frontier: np.ndarray, captures: _Exits) -> np.ndarray:
        """S_n for even n: predecessors of S_(n-1) (and capture exits) whose every move loses by n."""
        jobs = self._push_jobs(n, frontier, black_predecessors, self._mark_black)
        jobs += self._push_jobs(n, captures.at(n), None, self._mark_black)
        return self._collect(jobs, self.dtm_black, n)

    def _push_jobs(self, n: int, positions: np.ndarray, predecessors, mark) -> List[Callable[[], np.ndarray]]:
        """Jobs that ``mark`` the predecessors of ``positions`` (the positions themselves if None), piece by piece."""
        def job(start: int, stop: int) -> np.ndarray:
            part = positions[start:stop].astype(np.int64)
            return mark(n, part if predecessors is None else predecessors(self.layout, part))

        return [partial(job, *span) for span in _spans(positions.size, self._batch(positions.size))]

    def _collect(self, jobs: List[Callable[[], np.ndarray]], side: np.ndarray, n: int) -> np.ndarray:
        """Run the jobs on all threads; the new S_n (sorted int32 indices) they marked in ``side``.

        A small S_n is collected from the jobs; a large one (more than 1/256
        of the table) is read back from ``side``, which needs neither the
        pieces in memory at once nor a sort.
        """
        limit = max(1 << 20, self.layout.size >> 8)
        count, lock = [0], threading.Lock()

        def run(job: Callable[[], np.ndarray]) -> Optional[np.ndarray]:
            new = job()
            with lock:
                count[0] += new.size
                small = count[0] <= limit
            return new.astype(np.int32) if small else None

        found = self.threads.map(run, jobs)
        if count[0] > limit:
            return _indices_equal(side, n, self.threads)
        merged = np.sort(np.concatenate(found)) if found else np.empty(0, np.int32)
        return merged[np.r_[True, merged[1:] != merged[:-1]]] if merged.size else merged

    def _batch(self, size: int) -> int:
        """Piece size: at most BATCH, small enough that every thread gets a few pieces."""
        return max(1 << 12, min(BATCH, -(-size // (4 * self.threads.count))))

    def _count(self, values: np.ndarray, n: int) -> int:
        """How many entries of ``values`` equal n (chunk by chunk, on all threads)."""
        return sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0] : span[1]] == n)),
                                    _spans(values.size, CHUNK)))

    def _pull_white(self, n: int, span: Tuple[int, int]) -> np.ndarray:
        """Mark n on the undecided White-to-move positions in ``span`` that have a move into S_(n-1)."""
        undecided = span[0] + np.flatnonzero(self.dtm_white[span[0] : span[1]] == UNKNOWN)
        squares = self.layout.decode(undecided)
        occ = occupancy(squares)
        wins = np.zeros(undecided.size, dtype=bool)
        for i, letter in enumerate(self.layout.letters):
            if i == 1:
                continue
            base = undecided - squares[i].astype(np.int64) * self.layout.strides[i]
            for rows, target in _piece_moves(letter, squares[i], occ, backward=False):
                if i == 0:
                    child = _king_moved(self.layout, squares, undecided, rows, target)
                else:
                    child = base[rows] + target * self.layout.strides[i]
                wins[rows[self.dtm_black[child] == n - 1]] = True
        new = undecided[wins]
        self.dtm_white[new] = n
        return new

    def _mark_white(self, n: int, candidates: np.ndarray) -> np.ndarray:
        candidates = candidates[self.dtm_white[candidates] == UNKNOWN]
        candidates = self._distinct(candidates)
        self.dtm_white[candidates] = n
        return candidates

    def _mark_black(self, n: int, candidates: np.ndarray) -> np.ndarray:
        """Candidates whose every move leads into a set found already; a failed one may come again later."""
        candidates = candidates[self.dtm_black[candidates] == UNKNOWN]
        candidates = self._distinct(candidates)
        candidates = candidates[self.black_move_values(candidates) == n - 1]
        self.dtm_black[candidates] = n
        return candidates


def _spans(total: int, step: int) -> List[Tuple[int, int]]:
    """``(start, stop)`` pieces of ``range(total)``, ``step`` long (the last may be shorter)."""
    return [(start, min(start + step, total)) for start in range(0, total, step)]


def _indices_equal(values: np.ndarray, n: int, threads: Optional[Threads] = None, chunk: int = 1 << 24) -> np.ndarray:
    """Sorted int32 indices where ``values == n``, found chunk by chunk (no table-sized temporaries)."""
    def find(span: Tuple[int, int]) -> np.ndarray:
        return np.flatnonzero(values[span[0] : span[1]] == n).astype(np.int32) + np.int32(span[0])

    parts = (threads or Threads(1)).map(find, _spans(values.size, chunk))
    return np.concatenate(parts) if parts else np.empty(0, np.int32)


ProgressCallback = Callable[[int, int], None]
#: ``checkpoint(n, dtm_white, dtm_black)``: ply n is finished.  The arrays are the engine's own (read them,
#: never change them); an entry ILLEGAL there means "in no S_n", as UNKNOWN does (save_checkpoint knows).
CheckpointCallback = Callable[[int, np.ndarray, np.ndarray], None]


def compute_table(
    material: Material,
    subtables: Dict[Material, DtmTable],
    *,
    resume: Optional[Tuple[int, np.ndarray, np.ndarray]] = None,
    on_ply: Optional[ProgressCallback] = None,
    checkpoint: Optional[CheckpointCallback] = None,
    threads: Optional[int] = None,
) -> DtmTable:
    """Compute every S_n of ``material``.

    ``subtables`` must hold every material of ``material.dependencies()``.
    ``resume=(n_done, dtm_white, dtm_black)`` continues a calculation whose
    plies up to ``n_done`` were finished (from a checkpoint).  ``on_ply(n,
    size_of_S_n)`` is called after each ply, ``checkpoint(n, dtm_white,
    dtm_black)`` too, so the caller may save progress (see CheckpointCallback:
    no copies are made, a 5-piece table with a pawn has 1 GB of them).  ``threads``: how many
    cores to use (default: all this process may run on); the result is the
    same for any number.
    """
    missing = [str(m) for m in material.dependencies() if m not in subtables]
    if missing:
        raise ValueError(f"{material} needs the tables {', '.join(missing)} first")
    pool = Threads(threads or core_count())
    try:
        return _run(_Engine(material, subtables, pool), resume, on_ply, checkpoint)
    finally:
        pool.close()


def _run(engine: _Engine, resume, on_ply, checkpoint) -> DtmTable:
    """The plies of :func:`compute_table`, from the mates (or the checkpoint) to the last S_n."""
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
        engine.take_values(dtm_white, dtm_black)
        side = engine.dtm_black if n_done % 2 == 0 else engine.dtm_white
        frontier = _indices_equal(side, n_done, engine.threads)
    engine.forget_checks()
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
        if n == ILLEGAL:
            raise RuntimeError(f"{engine.material}: mates longer than {ILLEGAL - 1} plies do not fit the DTM arrays")
    engine.publish()
    return DtmTable(engine.material, engine.dtm_white, engine.dtm_black)
