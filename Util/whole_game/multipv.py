"""Several best lines at once (UCI's ``MultiPV``): every root move scored by a search after it, one ply
deeper each round, as ``/api/cloud-eval`` computes its lines (:mod:`.root_moves`).

::

    ranked, depth, nodes = search_lines(board, searcher, Limits(movetime=2.0), on_round=show)

A round scores every legal move; it is reported through ``on_round`` (the ranking, best first, the depth
in plies counting the root move, the nodes so far) and kept only when complete, so a ranking never
compares moves searched to different depths.  The rounds stop at the depth asked, at the node count
asked, when the next round would likely end after the soft time limit (a round costs about three times
the one before), or, once the first round is done, at the hard limit or the caller's ``stop``.
"""

from __future__ import annotations

import threading
from typing import Callable, List, Optional, Tuple

import chess

from .root_moves import RankedMove, rank_root_moves
from .timeman import Limits, SearchClock, time_budget

__all__ = ["MAX_ROUNDS", "search_lines"]

#: The most rounds (plies after the root move) of an unbounded search.
MAX_ROUNDS = 60
#: A round costs about this many times the round before.
ROUND_GROWTH = 3


def search_lines(board: chess.Board, searcher, limits: Limits, *, clock: Optional[SearchClock] = None,
                 stop: Optional[threading.Event] = None,
                 on_round: Optional[Callable[[List[RankedMove], int, int], None]] = None
                 ) -> Tuple[List[RankedMove], int, int]:
    """(every legal move ranked best first by the last complete round, its depth in plies counting the
    root move, nodes in all) of ``board`` under ``limits`` (``clock``: the time, when the caller changes it
    meanwhile, as pondering does).  ValueError when ``board`` has no legal move."""
    legal = board.legal_moves.count()
    if legal == 0:
        raise ValueError(f"{board.fen()}: no legal move, the game is over")
    clock = clock or SearchClock(time_budget(limits, board.turn, searcher.move_overhead))
    halt, done, first_round = threading.Event(), threading.Event(), threading.Event()

    def watch() -> None:
        while not done.wait(0.001):
            if first_round.is_set() and ((stop is not None and stop.is_set()) or clock.past_hard()):
                halt.set()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    best: List[RankedMove] = []
    searched, nodes = 0, 0
    rounds = MAX_ROUNDS if limits.depth is None else max(limits.depth - 1, 1)
    try:
        for plies in range(1, rounds + 1):
            ranked = rank_root_moves(board, searcher, plies, stop=halt)
            nodes += sum(r.nodes for r in ranked)
            if len(ranked) < legal or halt.is_set():
                break
            best, searched = ranked, plies
            first_round.set()
            if on_round is not None:
                on_round(best, searched + 1, nodes)
            if limits.nodes is not None and nodes >= limits.nodes:
                break
            soft = clock.soft
            if soft is not None and clock.elapsed() * ROUND_GROWTH > soft:
                break
    finally:
        done.set()
        watcher.join()
    return best, searched + 1, nodes
