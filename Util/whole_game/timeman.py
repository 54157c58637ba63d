"""Time management: how long one move may think, from what ``go`` gives (the clocks, the increments, the
moves to the next time control, a fixed move time) and the move overhead.

::

    from Util.whole_game.timeman import Limits, time_budget

    budget = time_budget(Limits(wtime=10.0, btime=10.0, winc=0.1, binc=0.1), chess.WHITE, overhead=0.03)
    budget.soft, budget.hard      # seconds: no new depth late in soft (NEW_DEPTH_SHARE), stop at hard
    clock = SearchClock(budget)   # what the search reads; clock.start(budget) at ponderhit

The **move overhead** (UCI's ``Move Overhead``, :data:`DEFAULT_MOVE_OVERHEAD` for callers of the search)
is the time a move spends outside the search: our own work around it and the pipes to the GUI, which
the GUI's clock charges.  It is kept back once, for the move being played: the clock after it must
stay positive.  (Subtracting it for every move still to play, as Stockfish does, starves the search
when the overhead is large beside the clock.)

From a clock of ``t`` seconds, an increment ``i`` and ``n`` moves to go (:data:`DEFAULT_MOVES_TO_GO` when
not given, at most :data:`MAX_MOVES_TO_GO`), the move's share is ``(t + i (n - 1)) / n``, and the soft limit
that share, never more than :data:`SOFT_SHARE` of the clock; the hard limit a few soft limits, never
more than :data:`HARD_SHARE` of the clock.  Both lose the overhead; neither falls below
:data:`MIN_THINK` (a move must be searched to be played: the search always completes depth 1).  With
``movestogo 1`` the move may use most of the clock, since the next control brings more.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import NamedTuple, Optional

import chess

__all__ = ["DEFAULT_MOVE_OVERHEAD", "DEFAULT_MOVES_TO_GO", "NEW_DEPTH_SHARE", "Budget", "Limits", "SearchClock", "Watchdog", "time_budget"]

#: Seconds kept back from the clock for a move's way to the board when the caller gives none.
DEFAULT_MOVE_OVERHEAD = 0.05
#: The moves a clock is shared over when ``movestogo`` is not given, and the most it is shared over.
DEFAULT_MOVES_TO_GO, MAX_MOVES_TO_GO = 25, 50
#: Never plan to use more than this share of the clock left on one move, nor think past this share of it.
SOFT_SHARE, HARD_SHARE = 0.4, 0.5
#: The hard limit, in soft limits.
HARD_PER_SOFT = 4
#: No new depth is begun after this share of the soft limit (the next one would most likely not end by it).
NEW_DEPTH_SHARE = 0.7
#: The share of the clock a move may use before the last move of a time control (``movestogo 1``).
LAST_MOVE_SHARE = 0.7
#: The least time a move is given, in seconds, whatever the clock says.
MIN_THINK = 0.002
#: How often the watchdog looks at a search's clock, in seconds.
WATCH_INTERVAL = 0.001


@dataclass(frozen=True)
class Limits:
    """What bounds a search; times in seconds, None where not given (no bound at all: depth 88); a depth
    or node limit below 1 counts as 1.  ``infinite``: only a stop ends it (``go infinite``, ``go
    ponder``)."""
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None
    wtime: Optional[float] = None
    btime: Optional[float] = None
    winc: Optional[float] = None
    binc: Optional[float] = None
    movestogo: Optional[int] = None
    infinite: bool = False


class Budget(NamedTuple):
    """Seconds from the start of a search: no new depth is begun after ``soft``; the search stops at
    ``hard``.  None: no bound of that kind."""
    soft: Optional[float]
    hard: Optional[float]


def time_budget(limits: Limits, turn: chess.Color, overhead: float = DEFAULT_MOVE_OVERHEAD) -> Budget:
    """The :class:`Budget` of a search under ``limits`` for the side ``turn``, ``overhead`` seconds kept
    back once (see the module's docstring).  (None, None) when no time is given or the search is
    infinite."""
    if limits.infinite:
        return Budget(None, None)
    hard = None
    if limits.movetime is not None:
        hard = max(limits.movetime - overhead, MIN_THINK)
    clock = limits.wtime if turn == chess.WHITE else limits.btime
    if clock is None:
        return Budget(hard, hard)
    increment = (limits.winc if turn == chess.WHITE else limits.binc) or 0.0
    to_go = min(max(limits.movestogo or DEFAULT_MOVES_TO_GO, 1), MAX_MOVES_TO_GO)
    if to_go == 1:
        soft = cap = max(LAST_MOVE_SHARE * clock - overhead, MIN_THINK)
    else:
        share = (clock + increment * (to_go - 1)) / to_go
        soft = max(min(share, SOFT_SHARE * clock) - overhead, MIN_THINK)
        cap = max(min(HARD_PER_SOFT * soft, HARD_SHARE * clock - overhead), MIN_THINK)
    return Budget(soft, cap if hard is None else min(hard, cap))


class SearchClock:
    """The time of one search as its watcher and its iterative deepening read it: a :class:`Budget` counted
    from ``started`` (``time.perf_counter()`` seconds).  While ``pondering`` the search has no bound;
    :meth:`start` (``ponderhit``) gives it one from then on, the search going on where it is."""

    def __init__(self, budget: Budget, started: Optional[float] = None, pondering: bool = False) -> None:
        self.started = time.perf_counter() if started is None else started
        self.soft, self.hard = budget
        self.pondering = pondering

    def elapsed(self) -> float:
        """Seconds since the clock started (since ``ponderhit`` after pondering)."""
        return time.perf_counter() - self.started

    def past_hard(self) -> bool:
        hard = self.hard
        return hard is not None and self.elapsed() >= hard

    def start(self, budget: Budget) -> None:
        """Counts ``budget`` from now on: the opponent played the move pondered on."""
        self.started = time.perf_counter()
        self.soft, self.hard = budget
        self.pondering = False


class Watchdog:
    """Stops searches at their clock's hard limit, or when the caller's ``stop`` is set, from one thread
    of its own for the life of a searcher: a search hands it a job, so no thread is started (and waited
    for) on a move's time.  The search's kernel polls the flag the watchdog raises (``flag[index] = 1``)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._job: Optional[list] = None
        self._thread: Optional[threading.Thread] = None

    def watch(self, flag, index: int, clock: SearchClock, stop: Optional[threading.Event]) -> list:
        """Watches a search from now on, not yet armed (its first depth is never cut); the job to
        :meth:`arm` and :meth:`release`."""
        job = [flag, index, clock, stop, False]
        with self._condition:
            self._job = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="search watchdog")
                self._thread.start()
            self._condition.notify()
        return job

    def arm(self, job: list) -> None:
        """From now on the job's clock and stop may end its search (its first depth is done)."""
        job[4] = True

    def release(self, job: list) -> None:
        """The search is over: its flag is never raised after this returns."""
        with self._condition:
            if self._job is job:
                self._job = None

    def _run(self) -> None:
        while True:
            with self._condition:
                while self._job is None:
                    self._condition.wait()
                flag, index, clock, stop, armed = self._job
                if armed and ((stop is not None and stop.is_set()) or clock.past_hard()):
                    flag[index] = 1
                    self._job = None
                    continue
            time.sleep(WATCH_INTERVAL)
