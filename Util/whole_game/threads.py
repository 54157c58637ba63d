"""More threads for one search (Lazy SMP): helper threads search the same root at the same time as the
main search, each on its own copy of the position and of the working array (its own killers, history,
node count and stop flag) but all in the one transposition table, so that what one finds the others read.
The compiled search releases the GIL, so the threads run on as many cores.

The main search (:meth:`.search.Searcher.search`) decides the move, its score and the time; a helper
deepens one ply at a time with a full window, every other helper one ply ahead of the main search (so
that its entries are the deeper ones the main search needs next), until the main search ends and stops
it.  A node limit counts the main search's nodes only.  The helpers' threads are started once, with
their searcher, and wait between searches, so that no thread is started on a move's time::

    helpers = Helpers()
    helpers.start(1, tt, work, arrays, root_moves, max_depth)   # one helper, while the main search runs
    helpers.stop()                                              # returns once every helper is idle
    helpers.nodes()                                             # the helpers' nodes of that search
    helpers.close()                                             # their threads end
"""

from __future__ import annotations

import queue
import threading
from typing import List, Optional

import numpy as np

from .kernels.evaluation import PARAMS_SIZE
from .kernels.score import INFINITE
from .kernels.search import search_root
from .kernels.work import NODE_LIMIT, NODES, PARAMS, STOP, TB_HITS
from .position import Arrays, tables

__all__ = ["Helper", "Helpers"]

#: The working array's words a searcher may change between searches (the counters, killers, history,
#: features and evaluation parameters); the tables' bytes after them change only with a new array.
HEAD = PARAMS + PARAMS_SIZE


class Helper:
    """One helper thread: idle until :meth:`start`, searching until :meth:`stop`.  ``skew`` 1: it begins
    one ply deeper than the main search."""

    def __init__(self, skew: int) -> None:
        self.skew = skew
        self.work: Optional[np.ndarray] = None
        self._source: Optional[np.ndarray] = None
        self._jobs: "queue.SimpleQueue" = queue.SimpleQueue()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._run, daemon=True, name="search helper")
        self._thread.start()

    def start(self, tt: np.ndarray, work: np.ndarray, a: Arrays, root: np.ndarray, max_depth: int) -> None:
        """Searches position ``a``'s moves ``root`` (ordered) up to ``max_depth`` plies in ``tt``, with a
        copy of the main search's working array ``work`` (as it is now: counters cleared)."""
        self._idle.wait()
        if self.work is None or self._source is not work:
            self.work, self._source = work.copy(), work
        else:
            self.work[:HEAD] = work[:HEAD]
        self.work[NODE_LIMIT] = 0
        self._idle.clear()
        self._jobs.put((tt, a.bb.copy(), a.st.copy(), root.copy(), max_depth))

    def stop(self) -> None:
        """Ends the search under way, if any; returns when the thread is idle."""
        if self.work is not None:
            self.work[STOP] = 1
        self._idle.wait()

    def close(self) -> None:
        """Stops, and ends the thread."""
        self.stop()
        self._jobs.put(None)
        self._thread.join()

    def _run(self) -> None:
        t = tables()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            tt, bb, st, root, max_depth = job
            try:
                root_nodes = np.zeros(len(root), np.int64)
                for depth in range(1 + self.skew, max_depth + 1):
                    search_root(bb, st, t, tt, self.work, root, root_nodes, len(root), -INFINITE, INFINITE, depth)
                    if self.work[STOP]:
                        break
            finally:
                self._idle.set()


class Helpers:
    """The helper threads of one searcher, as many as the last :meth:`start` asked for."""

    def __init__(self) -> None:
        self._helpers: List[Helper] = []

    def start(self, count: int, tt: np.ndarray, work: np.ndarray, a: Arrays, root: np.ndarray,
              max_depth: int) -> None:
        """Starts ``count`` helpers (0: none) on ``root`` in ``a``, up to ``max_depth`` plies (see
        :meth:`Helper.start`), starting or ending threads to have that many."""
        while len(self._helpers) > count:
            self._helpers.pop().close()
        while len(self._helpers) < count:
            self._helpers.append(Helper(skew=(len(self._helpers) + 1) % 2))
        for helper in self._helpers:
            helper.start(tt, work, a, root, max_depth)

    def stop(self) -> None:
        """Stops every helper; returns when none is searching."""
        for helper in self._helpers:
            if helper.work is not None:
                helper.work[STOP] = 1
        for helper in self._helpers:
            helper.stop()

    def nodes(self) -> int:
        """The nodes the helpers searched since their last start."""
        return sum(int(helper.work[NODES]) for helper in self._helpers if helper.work is not None)

    def tbhits(self) -> int:
        """The positions they valued by a table since their last start."""
        return sum(int(helper.work[TB_HITS]) for helper in self._helpers if helper.work is not None)

    def close(self) -> None:
        """Ends every helper's thread."""
        while self._helpers:
            self._helpers.pop().close()
