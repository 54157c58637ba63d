"""The retrograde engine: all S_n sets of one material as two DTM arrays.

The thesis computes S_(n+1) from S_n by un-making moves.  We do the same,
but on integer indices in numpy arrays instead of sets of Boards:

* ``dtm_white[i]`` / ``dtm_black[i]``: n of the S_n that holds position i
  with White / Black to move, or :data:`UNKNOWN` (255) where the position
  is in no S_n (a draw, or not a legal position).  Odd n: the side to move
  mates in n plies; even n: it is mated in n plies.  With a lone black king
  (the thesis's case) odd n only occur with White to move, even n only
  with Black to move; with pieces on both sides either side may mate.
* **Odd n (the side to move mates):** un-make every move of the side to
  move from the other side's positions that were found mated in n-1 last
  ply; the undecided legal ones mate in n.  One good move is enough.  When
  that frontier is larger than the set of positions still undecided (the
  middle plies of big tables), each of those looks forward instead, for a
  move into the frontier: less work, same set.
* **Even n (the side to move is mated):** un-make the moves of the side to
  move from the other side's positions found mating in n-1; a candidate is
  mated in n only if *every* legal move leads into a mate already found
  (checked forward).
* Each ply does both: White to move and Black to move each get their value
  n from the other side's positions of value n-1.  A bare king never mates,
  so with a lone black king half of this is skipped, and the thesis's
  tables cost what they did.
* **Other materials.** A capture leads into a smaller table and a promotion
  into another table; these tables are finished first and their values
  enter this table as "exits" (:mod:`Util.exits`) at the ply they decide.
  A double step beside an enemy pawn allows the capture en passant on the
  next move only; those few moves are evaluated on their own
  (:mod:`Util.en_passant`).

Only the newest S_n (the frontier) is touched each ply, never the whole
array, which is what makes it fast.

**Both cores.**  Within one ply the frontier's pieces are independent:
marking only ever writes n into positions still unknown, and the forward
check of a candidate reads only the other side's array, in which this ply
writes nothing but values that make the check fail whether it reads them
or the UNKNOWN before them.  So the pieces run on threads, one per core (numpy
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

from .en_passant import DoubleSteps, capture_exits, find_double_steps
from .exits import DRAW, ILLEGAL, NO_EXIT, UNKNOWN, ExitFinder, SubTables
from .layout import Layout
from .material import Material
from .moves import predecessors, successors, successors_masked
from .parallel import Threads, core_count
from .rules import legality

#: Sides to move, as indices: ``engine.dtm[WHITE]``, PIECE_LIST position of that side's king.
WHITE, BLACK = 0, 1
SIDES = (WHITE, BLACK)
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
        """The largest n with a non-empty S_n, or -1 if neither side can ever mate."""
        values = [int(a[a != UNKNOWN].max()) for a in (self.dtm_white, self.dtm_black) if (a != UNKNOWN).any()]
        return max(values, default=-1)

    def dtm(self, squares: Sequence[np.ndarray], white_to_move: bool) -> np.ndarray:
        """DTM values (UNKNOWN for a draw) of positions given by their squares in PIECE_LIST order."""
        array = self.dtm_white if white_to_move else self.dtm_black
        return array[self.layout.encode_canonical(squares)]


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




class _Engine:
    """One table's computation; see the module docstring."""

    def __init__(self, material: Material, subtables: Dict[Material, DtmTable], threads: Threads):
        self.material = material
        self.threads = threads
        self.layout = Layout(material)
        self.exits = ExitFinder(self.layout, SubTables(subtables))
        size = self.layout.size
        # A bare king never mates: with a lone black king (the thesis's case) White never loses.
        self.can_win = (bool(material.white), bool(material.black))
        self.can_lose = (self.can_win[1], self.can_win[0])
        self.dtm = (np.full(size, UNKNOWN, dtype=np.uint8), np.full(size, UNKNOWN, dtype=np.uint8))
        # Per side that can lose: one check bit per index (until the mates are found), and the exit byte
        # (see Util.exits), found once so that the forward checks need not redo captures.
        self._in_check = [np.zeros(-(-size // 8), dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self.exit_value = [np.zeros(size, dtype=np.uint8) if self.can_lose[s] else None for s in SIDES]
        self._owner = np.zeros(size, dtype=np.uint8)  # scratch for _distinct; contents never matter
        self.double_steps = [DoubleSteps.empty(), DoubleSteps.empty()]  # see Util.en_passant
        # forward checks try the pieces with few moves first: kings and knights, pawns, then sliders
        self._check_order = [sorted(self.layout.pieces_of[s], key=lambda i: "KkNnPpBbRrQq".index(self.layout.letters[i]))
                             for s in SIDES]

    @property
    def dtm_white(self) -> np.ndarray:
        return self.dtm[WHITE]

    @property
    def dtm_black(self) -> np.ndarray:
        return self.dtm[BLACK]

    # ---- whole-space passes, done once -------------------------------------------------
    def classify(self) -> Tuple[_Exits, _Exits]:
        """Legality of every index, and the exits into other tables (per side to move)."""
        parts = self.threads.map(self._classify_range, _spans(self.layout.size, CHUNK))
        if self.layout.en_passant_possible:
            self._find_double_steps([p[2:] for p in parts])
        return tuple(_Exits.of([p[s][0] for p in parts], [p[s][1] for p in parts]) for s in SIDES)

    def _find_double_steps(self, parts) -> None:
        """The double steps after which en passant is possible, with the value of that capture and whether
        the defender has other moves (which needs every position's legality: so after classify)."""
        for side in SIDES:
            parent, child, pawn = (np.concatenate([p[side][k] for p in parts]) for k in range(3))
            exit_value = capture_exits(self.layout, self.exits, side, child, pawn)
            steps = DoubleSteps.of([(parent, child, exit_value)])
            steps.child_moves = self.has_move(1 - side, steps.child)
            self.double_steps[side] = steps

    def has_move(self, side: int, index: np.ndarray) -> np.ndarray:
        """Whether ``side`` has a legal move in each position (``side`` to move); values need not be known."""
        other = self.dtm[1 - side]
        found = self.exit_value[side][index] != NO_EXIT
        for rows, child in successors(self.layout, side, index):
            found[rows] |= other[child] != ILLEGAL
        steps = self.double_steps[side]
        for rows, step in steps.rows_of(index):
            found[rows] |= other[steps.child[step]] != ILLEGAL
        return found

    def _classify_range(self, span: Tuple[int, int]) -> List[Tuple[np.ndarray, np.ndarray]]:
        """Legality, check and exit byte of the indices in ``span``; per side, the exits (index, value)
        that decide a position at some ply."""
        index = np.arange(*span, dtype=np.int64)
        squares = self.layout.decode(index)
        legal = legality(self.layout.letters, squares)
        found = []
        for side in SIDES:
            ok, check = legal[side], legal[2 + side]
            self.dtm[side][index] = np.where(ok, UNKNOWN, ILLEGAL)
            if self.can_lose[side]:
                self._in_check[side][span[0] // 8 : -(-span[1] // 8)] = np.packbits(check & ok)
            if not self.exits.has_exits(side):
                found.append((np.empty(0, np.int32), np.empty(0, np.uint8)))
                continue
            rows = index[ok]
            value = self.exits.values(side, [s[ok] for s in squares])
            if self.can_lose[side]:
                self.exit_value[side][rows] = value
            deciding = (value != NO_EXIT) & (value != DRAW)
            found.append((rows[deciding].astype(np.int32), value[deciding]))
        if self.layout.en_passant_possible:
            found += [find_double_steps(self.layout, side, index[legal[side]], [s[legal[side]] for s in squares])
                      for side in SIDES]
        return found

    # ---- moves forwards, for mates and the "every move loses" check ---------------------
    def move_values(self, side: int, index: np.ndarray, stop_above: Optional[int] = None) -> np.ndarray:
        """Per position (``side`` to move): the largest DTM the opponent gets over ``side``'s legal moves;
        -1 if there is no legal move.

        UNKNOWN means some legal move escapes (into no S_n known so far, or
        an exit that draws or wins).  With ``stop_above``, a position is
        dropped (and reported as UNKNOWN) as soon as one move gives more:
        the forward checks only ask "exactly n - 1?" or "no move?", and most
        candidates fail on an early move, so the moves of the later pieces
        are generated only for the few still alive.
        """
        other = self.dtm[1 - side]
        exit_value = self.exit_value[side][index].astype(np.int16)
        worst = np.where(exit_value == NO_EXIT, -1, np.where(exit_value & 1 == 0, exit_value - 1, UNKNOWN))
        worst = worst.astype(np.int16)
        steps = self.double_steps[side]
        for rows, step in steps.rows_of(index):
            worst[rows] = np.maximum(worst[rows], steps.defender_wins_in(other, step))
        alive = np.arange(index.size)
        for piece in self._check_order[side]:
            if stop_above is not None:
                alive = alive[worst[alive] <= stop_above]
            if not alive.size:
                break
            local = worst[alive]  # the survivors' values, updated in one compact array per piece
            for rows, child in successors_masked(self.layout, side, index[alive], (piece,)):
                value = other[child].astype(np.int16)
                if rows.dtype == bool:
                    np.maximum(local, np.where(rows & (value != ILLEGAL), value, np.int16(-1)), out=local)
                else:
                    local[rows] = np.maximum(local[rows], np.where(value == ILLEGAL, np.int16(-1), value))
            worst[alive] = local
        if stop_above is not None:
            worst[worst > stop_above] = UNKNOWN
        return worst

    # ---- the plies ---------------------------------------------------------------------
    def mates(self, side: int) -> np.ndarray:
        """Positions (``side`` to move) that are checkmate."""
        def mated(span: Tuple[int, int]) -> np.ndarray:  # in chunks: all checks at once would need GBs
            bits = np.unpackbits(self._in_check[side][span[0] // 8 : -(-span[1] // 8)], count=span[1] - span[0])
            checked = span[0] + np.flatnonzero(bits)
            return checked[self.move_values(side, checked, stop_above=-1) < 0]

        if not self.can_lose[side]:
            return np.empty(0, np.int64)
        return np.concatenate(self.threads.map(mated, _spans(self.layout.size, CHUNK)))

    def forget_checks(self) -> None:
        """Free the in-check bits: only the mates need them."""
        self._in_check = [None, None]

    def take_values(self, dtm_white: np.ndarray, dtm_black: np.ndarray) -> None:
        """Adopt the values of a checkpoint (UNKNOWN there leaves this engine's ILLEGAL marks alone)."""
        for mine, theirs in zip(self.dtm, (dtm_white, dtm_black)):
            for start, stop in _spans(mine.size, CHUNK):
                known = theirs[start:stop] != UNKNOWN
                mine[start:stop][known] = theirs[start:stop][known]

    def publish(self) -> None:
        """Turn ILLEGAL into UNKNOWN in place, at the end (chunk by chunk, on all threads)."""
        def clear(job: Tuple[np.ndarray, Tuple[int, int]]) -> None:
            part = job[0][job[1][0] : job[1][1]]
            part[part == ILLEGAL] = UNKNOWN

        self.threads.map(clear, [(a, span) for a in self.dtm for span in _spans(a.size, CHUNK)])

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

    def ply(self, side: int, n: int, frontier: np.ndarray, exits: _Exits) -> np.ndarray:
        """The positions (``side`` to move) that get value n: for odd n those that mate in n, for even n
        those mated in n.  ``frontier``: the other side's positions that got n-1 last ply."""
        if n % 2:
            if not self.can_win[side]:
                return np.empty(0, np.int32)
            return self.win_ply(side, n, frontier, exits)
        if not self.can_lose[side]:
            return np.empty(0, np.int32)
        return self.loss_ply(side, n, frontier, exits)

    def win_ply(self, side: int, n: int, frontier: np.ndarray, exits: _Exits) -> np.ndarray:
        """Odd n: the undecided positions with a move into the other side's losses in n-1 (or an exit
        mating in n).

        Usually found backwards, from the frontier.  When the frontier is
        larger than what is still undecided (the middle plies of a 5-piece
        table, where most positions are decided in a few plies), the
        undecided positions look forwards instead: less work.
        """
        steps = self.double_steps[side]
        return self._ply(side, n, frontier, exits, self._pull_wins, self._mark_win,
                         lambda: steps.parent[steps.defender_loses_in(self.dtm[1 - side]) == n - 1])

    def _pulling_is_cheaper(self, side: int, frontier: np.ndarray) -> bool:
        """Fewer undecided positions than frontier positions (only counted for a large frontier)."""
        return frontier.size * 8 > self.layout.size and self._count(self.dtm[side], UNKNOWN) < frontier.size

    def loss_ply(self, side: int, n: int, frontier: np.ndarray, exits: _Exits) -> np.ndarray:
        """Even n: predecessors of the frontier (and exits losing in n) whose every move loses by n."""
        steps = self.double_steps[side]
        return self._ply(side, n, frontier, exits, self._pull_losses, self._mark_loss,
                         lambda: steps.parent[steps.defender_wins_in(self.dtm[1 - side]) == n - 1])

    def _ply(self, side: int, n: int, frontier: np.ndarray, exits: _Exits, pull, mark,
             en_passant_parents: Callable[[], np.ndarray]) -> np.ndarray:
        """The jobs of one side's ply, run: ``mark`` the predecessors of the frontier (or ``pull`` over the
        undecided positions when that is less work), the exits deciding at n, and the parents of double
        steps whose position after them (with en passant) got n-1."""
        if self._pulling_is_cheaper(side, frontier):
            jobs = [partial(pull, side, n, span) for span in _spans(self.layout.size, CHUNK)]
        else:
            jobs = self._push_jobs(side, n, frontier, True, mark)
        jobs += self._push_jobs(side, n, exits.at(n), False, mark)
        if self.double_steps[side].parent.size:
            jobs += self._push_jobs(side, n, en_passant_parents(), False, mark)
        return self._collect(jobs, self.dtm[side], n)

    def _push_jobs(self, side: int, n: int, positions: np.ndarray, backwards: bool,
                   mark) -> List[Callable[[], np.ndarray]]:
        """Jobs that ``mark`` the predecessors of ``positions`` (the positions themselves unless
        ``backwards``), piece by piece."""
        def job(start: int, stop: int) -> np.ndarray:
            part = positions[start:stop].astype(np.int64)
            return mark(side, n, predecessors(self.layout, side, part) if backwards else part)

        return [partial(job, *span) for span in _spans(positions.size, self._batch(positions.size))]

    def _collect(self, jobs: List[Callable[[], np.ndarray]], values: np.ndarray, n: int) -> np.ndarray:
        """Run the jobs on all threads; the new positions (sorted int32 indices) they marked in ``values``.

        A small set is collected from the jobs; a large one (more than 1/256
        of the table) is read back from ``values``, which needs neither the
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
            return _indices_equal(values, n, self.threads)
        merged = np.sort(np.concatenate(found)) if found else np.empty(0, np.int32)
        return merged[np.r_[True, merged[1:] != merged[:-1]]] if merged.size else merged

    def _batch(self, size: int) -> int:
        """Piece size: at most BATCH, small enough that every thread gets a few pieces."""
        return max(1 << 12, min(BATCH, -(-size // (4 * self.threads.count))))

    def _count(self, values: np.ndarray, n: int) -> int:
        """How many entries of ``values`` equal n (chunk by chunk, on all threads)."""
        return sum(self.threads.map(lambda span: int(np.count_nonzero(values[span[0] : span[1]] == n)),
                                    _spans(values.size, CHUNK)))

    def _pull_wins(self, side: int, n: int, span: Tuple[int, int]) -> np.ndarray:
        """Mark n on the undecided positions in ``span`` (``side`` to move) with a move into a loss in n-1."""
        mine, other = self.dtm[side], self.dtm[1 - side]
        undecided = span[0] + np.flatnonzero(mine[span[0] : span[1]] == UNKNOWN)
        wins = np.zeros(undecided.size, dtype=bool)
        for rows, child in successors(self.layout, side, undecided):
            wins[rows[other[child] == n - 1]] = True
        new = undecided[wins]
        mine[new] = n
        return new

    def _pull_losses(self, side: int, n: int, span: Tuple[int, int]) -> np.ndarray:
        """Mark n on the undecided positions in ``span`` (``side`` to move) whose every move loses by n."""
        undecided = span[0] + np.flatnonzero(self.dtm[side][span[0] : span[1]] == UNKNOWN)
        new = undecided[self.move_values(side, undecided, stop_above=n - 1) == n - 1]
        self.dtm[side][new] = n
        return new

    def _mark_win(self, side: int, n: int, candidates: np.ndarray) -> np.ndarray:
        values = self.dtm[side]
        candidates = candidates[values[candidates] == UNKNOWN]
        candidates = self._distinct(candidates)
        values[candidates] = n
        return candidates

    def _mark_loss(self, side: int, n: int, candidates: np.ndarray) -> np.ndarray:
        """Candidates whose every move leads into a set found already; a failed one may come again later."""
        values = self.dtm[side]
        candidates = candidates[values[candidates] == UNKNOWN]
        candidates = self._distinct(candidates)
        candidates = candidates[self.move_values(side, candidates, stop_above=n - 1) == n - 1]
        values[candidates] = n
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
    """The plies of :func:`compute_table`, from the mates (or the checkpoint) to the last S_n.

    Ply n gives both sides to move their value n, each from the other
    side's positions that got n-1 in the ply before.
    """
    exits = engine.classify()
    if resume is None:
        frontiers = [engine.mates(side).astype(np.int32) for side in SIDES]
        for side in SIDES:
            engine.dtm[side][frontiers[side]] = 0
        n_done = 0
        if on_ply:
            on_ply(0, sum(f.size for f in frontiers))
        if checkpoint:
            checkpoint(0, engine.dtm_white, engine.dtm_black)
    else:
        n_done, dtm_white, dtm_black = resume
        engine.take_values(dtm_white, dtm_black)
        frontiers = [_indices_equal(engine.dtm[side], n_done, engine.threads) for side in SIDES]
    engine.forget_checks()
    last_exit = max(e.last for e in exits)
    n = n_done + 1
    while any(f.size for f in frontiers) or n <= last_exit:
        frontiers = [engine.ply(side, n, frontiers[1 - side], exits[side]) for side in SIDES]
        if on_ply:
            on_ply(n, sum(f.size for f in frontiers))
        if checkpoint:
            checkpoint(n, engine.dtm_white, engine.dtm_black)
        n += 1
        if n == ILLEGAL:
            raise RuntimeError(f"{engine.material}: mates longer than {ILLEGAL - 1} plies do not fit the DTM arrays")
    engine.publish()
    return DtmTable(engine.material, engine.dtm_white, engine.dtm_black)
