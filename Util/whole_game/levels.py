"""Playing strength in levels, from a beginner's to the engine's full strength.

::

    from Util.whole_game.levels import LEVELS, LevelPlayer, level_for_elo
    from Util.whole_game.player import Player

    with Player() as player:
        weak = LevelPlayer(player, LEVELS[2], rng=7)       # level 3
        result = weak.get_move(board)                      # a MoveResult, as Player.get_move's

A level bounds the search (plies, nodes, seconds) and, below the top two, makes
the mistakes a weaker player makes, as Stockfish's skill levels do: it scores
every legal move by a shallow search after it (:mod:`.root_moves`), keeps those
within ``margin`` centipawns of the best, and plays the one whose score plus a
random error of ``noise`` centipawns (normal, its standard deviation) is the
highest.  Both shrink as the level rises.  A move that throws a piece away
scores a piece below the best and never enters the choice: the mistakes are
the plausible ones, a pawn given, a weaker plan, a tactic not seen because the
search is shallow.  The lowest levels play without the tables (a beginner does
not mate in exactly the depth to mate); every level uses the opening book.

Each level's rating (:attr:`Level.elo`, with its 95 % interval ``elo_low`` ..
``elo_high``) is on the CCRL Blitz scale (:data:`SCALE`), measured at 10 s +
0.1 s by ``python -m Util.whole_game_lab.calibration`` with fastchess:
docs/levels.md gives the games and how the scale is reached.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Optional, Union

import chess

from .endgame import probe_tablebase_move
from .evaluation import HAND_SET_WEIGHTS, Weights
from .player import MoveResult, missing_table_note
from .root_moves import MATE_VALUE, rank_root_moves_deepening

__all__ = ["LEVELS", "Level", "LevelPlayer", "SCALE", "level_for_elo", "parse_level"]

#: The rating list whose scale the levels' ratings are on.
SCALE = "CCRL Blitz"


@dataclass(frozen=True)
class Level:
    """One level: ``number`` 1.. (the highest is full strength); ``elo`` its rating on ``scale``;
    ``depth`` plies searched counting its own move (None: as deep as the time allows); ``movetime``
    seconds at most per move (None: the clock decides); ``nodes`` per search at most; ``margin`` and
    ``noise`` the mistakes' size in centipawns (0: it plays its best move); ``tables`` whether it plays
    the tables' moves; ``measured`` whether ``elo`` was measured (else an estimate), then ``elo_low`` ..
    ``elo_high`` its 95 % interval and ``games`` the games it rests on; ``weights`` the evaluation's
    weights it plays with (None: its player's, by default :data:`~.evaluation.DEFAULT_WEIGHTS`)."""

    number: int
    elo: int
    depth: Optional[int]
    movetime: Optional[float]
    nodes: Optional[int]
    margin: int
    noise: int
    tables: bool
    measured: bool = False
    elo_low: Optional[int] = None
    elo_high: Optional[int] = None
    games: int = 0
    scale: str = SCALE
    weights: Optional[Weights] = None

    @property
    def label(self) -> str:
        """``level 3 (about 1550, CCRL Blitz scale)``, or ``(about 1550, estimated)`` when not measured."""
        return f"level {self.number} (about {self.elo}, {self.scale + ' scale' if self.measured else 'estimated'})"

    def limits(self, given=None):
        """The search's :class:`~Util.whole_game.search.Limits`: ``given`` (the clock's) bounded by this
        level's depth, nodes and move time."""
        from .search import Limits

        given = given or Limits()
        movetime = given.movetime
        if self.movetime is not None:
            movetime = self.movetime if movetime is None else min(movetime, self.movetime)
        depth = given.depth if self.depth is None else min(given.depth or self.depth, self.depth)
        nodes = given.nodes if self.nodes is None else min(given.nodes or self.nodes, self.nodes)
        if movetime is None and depth is None and nodes is None and given.wtime is None and given.btime is None:
            from .player import DEFAULT_MOVETIME

            movetime = DEFAULT_MOVETIME
        return Limits(depth=depth, nodes=nodes, movetime=movetime, wtime=given.wtime, btime=given.btime,
                      winc=given.winc, binc=given.binc, movestogo=given.movestogo)


#: The levels, weakest first; ``LEVELS[n - 1]`` is level n.  Each rating is on the CCRL Blitz scale, measured
#: by fastchess at 10 s + 0.1 s (40 games a level against a Stockfish rung, the full engine's gauntlet for the
#: top): ``python -m Util.whole_game_lab.calibration report``; docs/levels.md has the matches.  Levels 1 to 7
#: were measured with the hand-set weights and keep them until they are measured again.
LEVELS = (
    Level(1, 1672, depth=2, movetime=0.5, nodes=2_000, margin=150, noise=100, tables=False,
          measured=True, elo_low=1492, elo_high=1851, games=40, weights=HAND_SET_WEIGHTS),
    Level(2, 1769, depth=2, movetime=0.5, nodes=5_000, margin=110, noise=70, tables=False,
          measured=True, elo_low=1614, elo_high=1923, games=40, weights=HAND_SET_WEIGHTS),
    Level(3, 2001, depth=3, movetime=0.5, nodes=10_000, margin=100, noise=60, tables=False,
          measured=True, elo_low=1870, elo_high=2132, games=40, weights=HAND_SET_WEIGHTS),
    Level(4, 2125, depth=3, movetime=1.0, nodes=20_000, margin=50, noise=30, tables=False,
          measured=True, elo_low=1992, elo_high=2257, games=40, weights=HAND_SET_WEIGHTS),
    Level(5, 2260, depth=4, movetime=1.0, nodes=50_000, margin=30, noise=18, tables=True,
          measured=True, elo_low=2128, elo_high=2392, games=40, weights=HAND_SET_WEIGHTS),
    Level(6, 2448, depth=5, movetime=1.5, nodes=200_000, margin=20, noise=12, tables=True,
          measured=True, elo_low=2316, elo_high=2581, games=40, weights=HAND_SET_WEIGHTS),
    Level(7, 2586, depth=None, movetime=0.1, nodes=None, margin=0, noise=0, tables=True,
          measured=True, elo_low=2459, elo_high=2712, games=40, weights=HAND_SET_WEIGHTS),
    Level(8, 2748, depth=None, movetime=None, nodes=None, margin=0, noise=0, tables=True,
          measured=True, elo_low=2686, elo_high=2809, games=100),
)


def parse_level(value: Union[int, str, None]) -> Level:
    """The :class:`Level` numbered ``value`` (None: full strength).  ValueError naming the range."""
    if value is None:
        return LEVELS[-1]
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"level must be a whole number from 1 to {len(LEVELS)}, not {value!r}") from None
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"level must be from 1 to {len(LEVELS)}, not {number}")
    return LEVELS[number - 1]


def level_for_elo(elo: int) -> Level:
    """The strongest level whose label is at most ``elo`` (the weakest level below its own label): what
    UCI's ``UCI_LimitStrength``/``UCI_Elo`` choose."""
    fitting = [level for level in LEVELS if level.elo <= elo]
    return fitting[-1] if fitting else LEVELS[0]


class LevelPlayer:
    """A :class:`~Util.whole_game.player.Player` playing at a :class:`Level`: same ``get_move`` and
    ``new_game``/``close`` (closing it closes the player).  ``rng``: the mistakes' random source (a seed
    or a :class:`random.Random`) for repeatable games."""

    def __init__(self, player, level: Level, rng: Union[random.Random, int, None] = None) -> None:
        self.player = player
        self.level = level
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    @property
    def searcher(self):
        return self.player.searcher

    def new_game(self) -> None:
        self.player.new_game()

    def close(self) -> None:
        self.player.close()

    def __enter__(self) -> "LevelPlayer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def get_move(self, board: chess.Board, limits=None, *, on_info: Optional[Callable] = None,
                 stop: Optional[threading.Event] = None, use_book: bool = True) -> MoveResult:
        """The level's move in ``board``: the book's while in it, the tables' if the level uses them,
        else the search's (bounded by the level) or, with mistakes, a move chosen as the module says.
        ValueError when the game is over."""
        level = self.level
        bounded = level.limits(limits)
        self.searcher.set_feature("tablebase probes", level.tables)  # the lowest levels search without them too
        self.searcher.lend_weights(level.weights)  # a label holds for the weights it was measured with
        if level.tables and level.margin == 0:
            return self.player.get_move(board, bounded, on_info=on_info, stop=stop, use_book=use_book)
        if use_book and self.player.book is not None and any(board.generate_legal_moves()):
            choice = self.player.book.get_opening_move(board)
            if choice is not None:
                return MoveResult(choice.move, "book", pv=[choice.move], book=choice)
        if level.tables:
            table_move, missing = probe_tablebase_move(board, self.player.tablebase)
            if table_move is not None:
                return self.player.get_move(board, bounded, stop=stop, use_book=False)
            if missing is not None and level.margin > 0:
                result = replace(self.chosen_with_mistakes(board, bounded, stop), note=missing_table_note(missing))
                if on_info is not None:
                    on_info(result)
                return result
        if level.margin == 0:
            return self.player.get_move(board, bounded, on_info=on_info, stop=stop, use_book=False)
        result = self.chosen_with_mistakes(board, bounded, stop)
        if on_info is not None:
            on_info(result)
        return result

    def chosen_with_mistakes(self, board: chess.Board, limits, stop: Optional[threading.Event]) -> MoveResult:
        """Every move scored as deep as the level's depth and its time allow, one of the good ones drawn."""
        from .search import time_budget

        started = time.perf_counter()
        _, hard = time_budget(limits, board.turn, self.searcher.move_overhead)
        halt = threading.Event()
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.005):
                late = hard is not None and time.perf_counter() - started >= hard
                if late or (stop is not None and stop.is_set()):
                    halt.set()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            ranked, _, nodes = rank_root_moves_deepening(board, self.searcher, max((limits.depth or 2) - 1, 1),
                                                         nodes=limits.nodes, stop=halt, seconds=hard)
        finally:
            done.set()
            watcher.join()
        if not ranked:
            # Out of time before one round scored every move: a one-ply search, not a second budget.
            from .search import Limits

            return self.player.get_move(board, Limits(depth=1), use_book=False)
        best = ranked[0].value
        level = self.level
        if best > MATE_VALUE // 2:  # a mate is seen: any mating move, no blunder out of it
            candidates = [r for r in ranked if r.value > MATE_VALUE // 2]
        else:
            candidates = [r for r in ranked if r.value >= best - level.margin]
        chosen = max(candidates, key=lambda r: r.value + self.rng.gauss(0.0, level.noise))
        return MoveResult(chosen.move, "search", chosen.cp, chosen.mate, chosen.depth, chosen.depth,
                          nodes, time.perf_counter() - started, list(chosen.pv))
