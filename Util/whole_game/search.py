"""The search driver: iterative deepening over the compiled alpha-beta (:mod:`.kernels.search`) with
aspiration windows, the time :mod:`.timeman` gives, and a stop that another thread can give.

The kernel runs without the GIL; the searcher's watchdog (:class:`~.timeman.Watchdog`, one thread for the
searcher's life) sets its stop flag (a shared numpy array the kernel polls every thousand nodes) at the
hard time limit or when the caller's ``stop`` event is set, so a UCI loop keeps reading input meanwhile.  Depth 1 is always completed (a millisecond), so every search has a scored move.
With ``threads`` above 1, helper threads (:mod:`.threads`, Lazy SMP) search the same position in the same
transposition table meanwhile, and stop when the main search ends; the main search's move and score are
played, and the nodes reported are all the threads'.
Each completed depth is reported through ``on_info``; the move of the deepest completed depth is played
(or a better one the interrupted depth found in full).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, List, Optional

import chess
import numpy as np

from .evaluation import DEFAULT_WEIGHTS, Weights, parameters
from .kernels.evaluation import PARAMS_SIZE
from .kernels.movegen import MAX_MOVES, generate
from .kernels.ordering import score_moves
from .kernels.position import KEYS, PLY, SIDE
from .kernels.score import INFINITE, MATE, MATE_BOUND
from .kernels.search import search_root
from .kernels.tt import entry_move, tt_holds, tt_index
from .kernels.tables import CODES, COUNT, DATA, FIRST_ROW, PAWNS, PIECES, ROWS, SIGNATURE, SIZE, SWAPPED, signature
from .kernels.work import (CURRENT, FEATURE_NAMES, FEATURES, HISTORY, KILLERS, MAX_PLY, MOVES, NODE_LIMIT, NODES, PARAMS, PV,
                           PV_LENGTH, SCORES, SELDEPTH, STOP, TB_HITS, TB_MAX_MATERIALS, TB_ROW, work_size)
from .position import Arrays, tables, to_arrays, to_move
from .threads import Helpers
from .timeman import DEFAULT_MOVE_OVERHEAD, NEW_DEPTH_SHARE, Limits, SearchClock, Watchdog, time_budget

if TYPE_CHECKING:
    from ..board.material import Material
    from .endgame import SearchTables

# Limits and time_budget are .timeman's, named here too for the callers of the search
__all__ = ["Limits", "SearchInfo", "Searcher", "mate_in_moves", "table_row", "time_budget"]


@dataclass
class SearchInfo:
    """One completed depth: score in centipawns for the side to move, or mate in moves (+ the side to move
    mates, - it is mated); ``pv[0]`` the move to play; time in seconds."""
    depth: int
    seldepth: int
    score_cp: Optional[int]
    score_mate: Optional[int]
    nodes: int
    time: float
    pv: List[chess.Move]
    tbhits: int = 0


def mate_in_moves(score: int) -> Optional[int]:
    """Mate in moves, signed as UCI says it, for a mate score; None for a score in centipawns."""
    if score > MATE_BOUND:
        return (MATE - score + 1) // 2
    if score < -MATE_BOUND:
        return -((MATE + score + 1) // 2)
    return None


class Searcher:
    """An engine's search with its transposition table and history kept from move to move of a game.

    ``move_overhead`` (seconds) is kept off the clock for the time a move takes to reach the board
    (:func:`~.timeman.time_budget`; UCI sets it from its ``Move Overhead``).  ``threads``: the threads of
    a search (UCI's ``Threads``; above 1, Lazy SMP: see :mod:`.threads`); :meth:`close` ends the helpers'."""

    def __init__(self, hash_mb: int = 64, weights: Weights = DEFAULT_WEIGHTS, threads: int = 1) -> None:
        if hash_mb < 1:
            raise ValueError(f"hash_mb must be 1 or more, not {hash_mb}")
        if threads < 1:
            raise ValueError(f"threads must be 1 or more, not {threads}")
        entries = 1 << max(int(np.log2(hash_mb * 2 ** 20 // 16)), 10)
        self.tt = np.zeros(2 * entries, np.uint64)
        self.work = np.zeros(work_size(PARAMS_SIZE), np.int64)
        self.work[PARAMS:] = parameters(weights)
        self.weights = self.own_weights = weights
        self.work[FEATURES:FEATURES + len(FEATURE_NAMES)] = 1
        self.aspiration = True
        self.move_overhead = DEFAULT_MOVE_OVERHEAD
        self.watchdog = Watchdog()
        self.endgame: Optional["SearchTables"] = None
        self.threads = threads
        self.helpers = Helpers()

    def close(self) -> None:
        """Ends the helper threads (a later search starts them again)."""
        self.helpers.close()

    def set_tables(self, endgame: Optional["SearchTables"]) -> None:
        """Probes ``endgame``'s tables inside the search from now on (None: none), loading them as the
        positions searched need them (feature "tablebase probes")."""
        self.endgame = endgame
        self.load_tables({} if endgame is None else endgame.loaded)

    def load_tables(self, loaded: "dict[Material, np.ndarray]") -> None:
        """Puts the tables ``loaded`` (canonical material -> both sides' bytes) into a new working array,
        after the evaluation's parameters, one row per colour order (see :mod:`.kernels.tables`); each of
        ``loaded``'s arrays is then replaced by its view in the working array, so the bytes are held once."""
        base = PARAMS + PARAMS_SIZE
        words = {material: -(-len(values) // 8) for material, values in loaded.items()}
        work = np.zeros(base + sum(words.values()), np.int64)
        work[:base] = self.work[:base]
        rows, at, pieces = [], base, 0
        for material, values in list(loaded.items()):
            view = work[at:at + words[material]].view(np.uint8)[:len(values)]
            view[:] = values
            loaded[material] = view
            for swapped in ((False, True) if material.swapped != material else (False,)):
                rows.append(table_row(material, at, len(values) // 2, swapped))
            at += words[material]
            pieces = max(pieces, material.piece_count)
        rows = rows[:TB_MAX_MATERIALS]
        work[PIECES], work[ROWS] = (pieces, len(rows)) if rows else (0, 0)
        for i, row in enumerate(rows):
            work[FIRST_ROW + i * TB_ROW:FIRST_ROW + i * TB_ROW + len(row)] = row
        self.work = work

    def set_feature(self, name: str, on: bool) -> None:
        """Switches a search feature (one of ``FEATURE_NAMES``, or "aspiration windows") on or off: off, it
        shows what the feature is worth.  Raises ValueError naming the features for an unknown name."""
        if name == "aspiration windows":
            self.aspiration = on
        elif name in FEATURE_NAMES:
            self.work[FEATURES + FEATURE_NAMES.index(name)] = int(on)
        else:
            raise ValueError(f"unknown search feature {name!r}: one of {', '.join(FEATURE_NAMES)}, "
                             "aspiration windows")

    def new_game(self) -> None:
        """Forgets the transposition table and the history (a new game or position)."""
        self.tt[:] = 0
        self.work[HISTORY:CURRENT] = 0  # the history and the countermoves

    def set_weights(self, weights: Weights) -> None:
        """Evaluates with ``weights`` from now on, its own weights (and forgets what was learnt with the old
        ones; nothing is forgotten when they are the weights it already has)."""
        self.own_weights = weights
        self.lend_weights(None)

    def lend_weights(self, weights: Optional[Weights]) -> None:
        """Evaluates with ``weights`` until told otherwise, or with its own (:meth:`set_weights`') when None:
        what a level that was measured with other weights asks for."""
        weights = self.own_weights if weights is None else weights
        if weights == self.weights:
            return
        self.work[PARAMS:PARAMS + PARAMS_SIZE] = parameters(weights)
        self.weights = weights
        self.new_game()

    def root_moves(self, a: Arrays) -> np.ndarray:
        """The legal moves at the root, ordered as the search orders moves (the table's move first)."""
        w = self.work
        n = generate(a.bb, a.st, tables(), w, MOVES, True)
        key = a.bb[KEYS + a.st[PLY]]
        index = tt_index(self.tt, key)
        data = self.tt[index + 1]
        tt_move = int(entry_move(data)) if tt_holds(self.tt, index, key, data) else 0
        w[KILLERS:KILLERS + 2 * MAX_PLY] = 0
        score_moves(a.bb, a.st, tables(), w, 0, n, tt_move, a.st[SIDE])
        order = np.argsort(-w[SCORES:SCORES + n], kind="stable")
        return w[MOVES:MOVES + n][order].astype(np.int64)

    def search(self, board: chess.Board, limits: Limits, on_info: Optional[Callable[[SearchInfo], None]] = None,
               stop: Optional[threading.Event] = None, clock: Optional[SearchClock] = None) -> SearchInfo:
        """Searches ``board`` (its ``move_stack`` gives the repetitions) within ``limits``; returns the last
        completed depth's info, ``pv[0]`` the move to play.  ``clock``: the time it may take, when the
        caller changes it meanwhile (pondering); by default :func:`~.timeman.time_budget`'s of ``limits``.
        Raises ValueError when the side to move has no legal move (checkmate or stalemate) or the board is
        invalid."""
        started = time.perf_counter()
        on_clock = limits.wtime is not None or limits.btime is not None
        # on a clock, tables are loaded while the search goes on, not on its time
        if self.endgame is not None and self.endgame.prepare(board, background=on_clock):
            self.load_tables(self.endgame.loaded)
        a = to_arrays(board)
        root = self.root_moves(a)
        if len(root) == 0:
            raise ValueError(f"no legal move in {board.fen()!r}: "
                             f"{'checkmate' if board.is_check() else 'stalemate'}")
        if clock is None:
            clock = SearchClock(time_budget(limits, board.turn, self.move_overhead), started)
        ctx = self.work
        ctx[:KILLERS] = 0
        ctx[NODE_LIMIT] = 0 if limits.nodes is None else max(limits.nodes, 1)
        job = self.watchdog.watch(ctx, STOP, clock, stop)
        root_nodes = np.zeros(len(root), np.int64)
        max_depth = MAX_PLY - 8 if limits.depth is None else max(1, min(limits.depth, MAX_PLY - 8))
        best = SearchInfo(0, 0, 0, None, 0, 0.0, [to_move(int(root[0]), board)])
        score = 0
        t = tables()
        try:
            self.helpers.start(self.threads - 1, self.tt, ctx, a, root, max_depth)
            for depth in range(1, max_depth + 1):
                window = 30
                alpha, beta = ((score - window, score + window) if depth >= 4 and self.aspiration
                               else (-INFINITE, INFINITE))
                while True:
                    found, move = search_root(a.bb, a.st, t, self.tt, ctx, root, root_nodes, len(root), alpha,
                                              beta, depth)
                    if ctx[STOP]:
                        break
                    if found <= alpha:
                        alpha = max(found - window, -INFINITE)
                    elif found >= beta:
                        beta = min(found + window, INFINITE)
                    else:
                        break
                    window *= 2
                if ctx[STOP]:
                    if ctx[PV_LENGTH] > 0 and depth > 1:
                        found_better = self.info(board, found, depth, ctx, started, partial=True, last=best)
                        if found_better is not best and on_info:  # said, so the move played has its score
                            found_better.nodes, found_better.time = self.nodes(), time.perf_counter() - started
                            on_info(found_better)
                        best = found_better
                    break
                score = int(found)
                best = self.info(board, score, depth, ctx, started)
                self.watchdog.arm(job)
                if on_info:
                    on_info(best)
                soft = clock.soft
                if soft is not None and clock.elapsed() >= NEW_DEPTH_SHARE * soft:
                    break
                mate = mate_in_moves(score)
                if (mate is not None and not limits.infinite and not clock.pondering and limits.depth is None
                        and depth >= 2 * abs(mate) + 12):
                    break
        finally:
            self.helpers.stop()
            self.watchdog.release(job)
        best.nodes, best.time = self.nodes(), time.perf_counter() - started
        best.tbhits = int(ctx[TB_HITS]) + self.helpers.tbhits()
        return best

    def nodes(self) -> int:
        """The nodes of the last search (or the one under way) in all its threads."""
        return int(self.work[NODES]) + self.helpers.nodes()

    def info(self, board: chess.Board, score: int, depth: int, ctx: np.ndarray, started: float,
             partial: bool = False, last: Optional[SearchInfo] = None) -> SearchInfo:
        """The SearchInfo of the principal variation the kernel left (checked move by move on a copy)."""
        pv: List[chess.Move] = []
        copy = board.copy(stack=False)
        for move in self.work[PV:PV + self.work[PV_LENGTH]]:
            move = to_move(int(move), copy)
            if not copy.is_legal(move):
                break
            pv.append(move)
            copy.push(move)
        mate = mate_in_moves(score)
        if partial:
            if not pv or (last and last.pv and pv[0] == last.pv[0]):
                return last
            # the interrupted depth's own score for its move (searched in full), not the last depth's for
            # another move: a mate in 4 played where a mate in 3 was asked must not read as a mate in 3
            return SearchInfo(last.depth, last.seldepth, None if mate is not None else int(score), mate, 0, 0.0, pv)
        return SearchInfo(depth, int(ctx[SELDEPTH]), None if mate is not None else int(score), mate,
                          self.nodes(), time.perf_counter() - started, pv, int(ctx[TB_HITS]) + self.helpers.tbhits())


def table_row(material: "Material", data: int, size: int, swapped: bool) -> List[int]:
    """The working array's row (:mod:`.kernels.tables`) of the table of canonical ``material`` whose bytes
    start at ``data`` (``size`` entries a side), for the board's colours as the table's or, ``swapped``,
    exchanged."""
    letters = material.letters
    codes = [(0 if letter.isupper() != swapped else 6) + "PNBRQK".index(letter.upper()) for letter in letters]
    white = [sum(1 for c in codes if c == code) for code in range(5)]
    black = [sum(1 for c in codes if c == code + 6) for code in range(5)]
    row = [0] * TB_ROW
    row[SIGNATURE], row[DATA], row[SIZE] = signature(white, black), data, size
    row[PAWNS], row[SWAPPED], row[COUNT] = int(material.has_pawns), int(swapped), len(codes)
    row[CODES:CODES + len(codes)] = codes
    return row
