"""Every root move with a score of its own: the search run once after each legal move.

The search (:class:`~Util.whole_game.search.Searcher`) finds one best move; a weaker level choosing among
several good moves, and an analysis showing several lines (lichess's ``multiPv``), need a score for each.
:func:`rank_root_moves` plays each legal move on a copy and searches the opponent's reply to a fixed depth
(the searcher's transposition table shared between them, so later moves cost less), then turns the
opponent's score round.  That is ``len(moves)`` small searches instead of one: affordable at the shallow
depths a weak level searches, and the price of several lines in an analysis.

Under a clock, :func:`rank_root_moves_deepening` ranks all moves one ply deeper each round and keeps the
last round that scored every move: a ranking cut short would compare only the moves generated first.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import chess

__all__ = ["MATE_VALUE", "RankedMove", "rank_root_moves", "rank_root_moves_deepening", "value_of"]

#: :func:`value_of` a mate in 0 moves; mates rank above every centipawn score.
MATE_VALUE = 100_000


@dataclass(frozen=True)
class RankedMove:
    """A root move, its score for the side to move (``cp`` centipawns, or ``mate`` in moves: +n it mates
    in n counting this move, -n it is mated in n), the depth searched after it in plies, and its line."""

    move: chess.Move
    cp: Optional[int]
    mate: Optional[int]
    depth: int
    nodes: int = 0
    pv: List[chess.Move] = field(default_factory=list)

    @property
    def value(self) -> int:
        """One number to sort by: centipawns, or a mate as +-(:data:`MATE_VALUE` - moves)."""
        return value_of(self.cp, self.mate)


def value_of(cp: Optional[int], mate: Optional[int]) -> int:
    """Centipawns, or for a mate in n moves ``MATE_VALUE - n`` (being mated in n: ``-MATE_VALUE + n``,
    so that the longer defence ranks higher)."""
    if mate is not None:
        return MATE_VALUE - mate if mate > 0 else -MATE_VALUE - mate
    return cp or 0


def _turned(info) -> tuple:
    """(cp, mate) for the side that moved into the position ``info`` scored for its opponent."""
    if info.score_mate is None:
        return -(info.score_cp or 0), None
    mate = info.score_mate
    # the opponent mated in n (-n) means we mate with our (n + 1)-th move, counting the one just made
    return None, (-mate + 1 if mate <= 0 else -mate)


def rank_root_moves(board: chess.Board, searcher, depth: int, *, nodes: Optional[int] = None,
                    stop: Optional[threading.Event] = None, deadline: Optional[float] = None) -> List[RankedMove]:
    """Each legal move of ``board`` scored by a search of ``depth`` plies after it (``nodes`` caps each of
    those searches), best first.  A move that mates at once is a mate in 1, one that stalemates 0.  When
    ``stop`` is set, or ``time.perf_counter()`` passes ``deadline``, the moves not yet searched are left
    out (the list may then be empty).  ValueError when ``board`` has no legal move."""
    from .search import Limits

    moves = list(board.legal_moves)
    if not moves:
        raise ValueError(f"{board.fen()}: no legal move, the game is over")
    ranked = []
    for move in moves:
        if (stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() >= deadline):
            break
        after = board.copy()
        after.push(move)
        if after.is_checkmate():
            ranked.append(RankedMove(move, None, 1, 1, 0, [move]))
            continue
        if after.is_stalemate() or after.is_insufficient_material() or after.can_claim_draw():
            ranked.append(RankedMove(move, 0, None, 1, 0, [move]))
            continue
        info = searcher.search(after, Limits(depth=max(depth, 1), nodes=nodes), stop=stop)
        if stop is not None and stop.is_set():
            break  # an interrupted search's score is not comparable with the others
        cp, mate = _turned(info)
        ranked.append(RankedMove(move, cp, mate, info.depth + 1, info.nodes, [move] + list(info.pv)))
    ranked.sort(key=lambda r: -r.value)
    return ranked


def rank_root_moves_deepening(board: chess.Board, searcher, depth: int, *, nodes: Optional[int] = None,
                              stop: Optional[threading.Event] = None,
                              seconds: Optional[float] = None) -> Tuple[List[RankedMove], int, int]:
    """(ranking, plies searched after each move, nodes in all): :func:`rank_root_moves` at 1, 2, ...
    ``depth`` plies, the last round that scored every legal move.  A round interrupted by ``stop`` or by the
    end of ``seconds`` is dropped, so the ranking is empty (and the plies 0) when not even the first round
    finished.  ``seconds``: no round is begun that would likely end after them (each round costs about
    three times the one before), and none goes on past them.  ValueError when ``board`` has no legal move."""
    started = time.perf_counter()
    legal = board.legal_moves.count()
    best: List[RankedMove] = []
    searched, total = 0, 0
    for plies in range(1, max(depth, 1) + 1):
        ranked = rank_root_moves(board, searcher, plies, nodes=nodes, stop=stop,
                                 deadline=None if seconds is None else started + seconds)
        total += sum(r.nodes for r in ranked)
        if len(ranked) < legal or (stop is not None and stop.is_set()):
            break
        best, searched = ranked, plies
        if seconds is not None and time.perf_counter() - started > seconds / 3:
            break
    return best, searched, total
