"""Games between two engines from the shared openings, with real clocks, through python-chess's
:mod:`chess.engine`: how ``python -m Util match`` plays an xboard engine (fastchess, :mod:`.fastchess`,
plays every match of UCI engines), and how the tests play short games.

::

    python -m Util match phalanx --games 20 --tc 10+0.1

The rules are those of :class:`~.match_rules.MatchRules`.  xboard's ``level`` command carries the time
control to an xboard engine, the increment in whole seconds by the protocol (python-chess sends ``level 0
0:10 0.1``; an engine that reads a whole number sees no increment), and ``time``/``otim`` its clock in
centiseconds before each move; the clocks themselves are kept here, each move's increment credited.

Each opening (a FEN of ``--openings``, by default the shared
``openings_chessathome.fen``, taken in order from ``--start``) is played twice,
the colours swapped, one game at a time.  Clocks are real: each side's thinking
time, measured here around the engine's answer, is taken from its clock and
the increment added after the move; a side whose clock runs out by more than
the time margin loses (a draw if the other side has no mating material).  Games
end by the rules only: checkmate, stalemate, insufficient material, threefold
repetition and the fifty-move rule (claimed at once), or an illegal move or a
crash (a loss; ``Termination`` says "illegal move" or "abandoned", fastchess's
words, the reason in the game's comment).  The
result is printed from the first engine's side (+W =D -L, score, Elo with its
95 % interval, LOS) and every game is written to the PGN file as it ends.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

import chess
import chess.engine
import chess.pgn

from .elo import MatchResult, match_result
from .match_rules import ABANDONED, ILLEGAL_MOVE, TIME_FORFEIT, MatchReport, MatchRules, count_games, game_outcomes
from .opponents import EngineSpec, open_engine

__all__ = ["TimeControl", "default_openings_file", "shared_suites", "play_game", "play_match",
           "play_with_python_chess", "read_openings"]

SUITES_ENV = "SUITES_PATH"


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds for the game plus ``increment`` seconds a move (``10+0.1``)."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """``"10+0.1"``, ``"60"``: ValueError saying the form otherwise."""
        base, _, increment = text.partition("+")
        try:
            control = cls(float(base), float(increment or 0))
        except ValueError:
            raise ValueError(f"time control '{text}': write BASE+INCREMENT in seconds, e.g. 10+0.1") from None
        if control.base <= 0 or control.increment < 0:
            raise ValueError(f"time control '{text}': the base must be positive, the increment not negative")
        return control

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


def shared_suites() -> Path:
    """The shared suites' folder: ``$SUITES_PATH``, else the first ``shared/suites`` beside the repository or
    above it (a worktree sits a level deeper than the main repository)."""
    import os

    if os.environ.get(SUITES_ENV):
        return Path(os.environ[SUITES_ENV])
    for parent in Path(__file__).resolve().parents[2:5]:
        if (parent / "shared" / "suites").is_dir():
            return parent / "shared" / "suites"
    return Path(__file__).resolve().parents[3] / "shared" / "suites"


def default_openings_file() -> Path:
    """The shared openings: ``openings_chessathome.fen`` of :func:`shared_suites`."""
    return shared_suites() / "openings_chessathome.fen"


def read_openings(path: Path, start: int = 0, count: Optional[int] = None) -> List[str]:
    """FENs of the file (one a line; blank lines and ``#`` comments skipped), from the ``start``-th on.
    FileNotFoundError saying where the shared file is; ValueError naming a line that is not a FEN."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no such openings file; give one with --openings FILE (one FEN a line) "
                                f"or set {SUITES_ENV} to the folder of the shared suites")
    fens = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            chess.Board(line)
        except ValueError as error:
            raise ValueError(f"{path} line {number}: not a FEN ({error})") from None
        fens.append(line)
    chosen = fens[start:] if count is None else fens[start:start + count]
    if not chosen:
        raise ValueError(f"{path}: no opening from number {start} on ({len(fens)} in the file)")
    return chosen


def _game_over(board: chess.Board) -> Optional[Tuple[str, str]]:
    """(result, termination) if the rules end the game here (draws claimed at once)."""
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return None
    return outcome.result(), outcome.termination.name.lower().replace("_", " ")


def play_game(engines: dict, names: dict, fen: str, control: TimeControl, round_name: str = "1",
              game_key: object = None, max_plies: Optional[int] = None, time_margin: float = 0.0) -> chess.pgn.Game:
    """One game from ``fen``: ``engines[colour]`` (started :class:`chess.engine.SimpleEngine`) plays
    ``colour`` on a real clock of ``control``; a clock may run ``time_margin`` seconds below zero before
    its side loses.  The PGN game, with ``Result`` and ``Termination`` set.  ``max_plies`` (for tests)
    stops it unfinished (``*``) after that many moves."""
    board = chess.Board(fen)
    game = chess.pgn.Game()
    game.setup(board)
    game.headers.update(Event="chessAI match", Site="this machine", Round=round_name,
                        Date=datetime.date.today().strftime("%Y.%m.%d"), White=names[chess.WHITE],
                        Black=names[chess.BLACK], TimeControl=f"{control.base:g}+{control.increment:g}")
    node = game
    for engine in {id(e): e for e in engines.values()}.values():
        engine.ping()  # an engine still loading (or opening its book and tables) does so before its clock starts
    clocks = {chess.WHITE: control.base, chess.BLACK: control.base}
    result = termination = None
    while result is None:
        over = _game_over(board)
        if over:
            result, termination = over
            break
        if max_plies is not None and len(board.move_stack) >= max_plies:
            result, termination = "*", "unterminated"
            break
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=control.increment, black_inc=control.increment)
        start = time.perf_counter()
        try:
            played = engines[side].play(board, limit, game=game_key)
            move = played.move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            result, termination = ("0-1" if side == chess.WHITE else "1-0"), ABANDONED
            game.comment = f"{names[side]} failed: {error}"
            break
        clocks[side] -= time.perf_counter() - start
        if clocks[side] < -time_margin:
            if board.has_insufficient_material(not side):
                result = "1/2-1/2"
            else:
                result = "0-1" if side == chess.WHITE else "1-0"
            termination = TIME_FORFEIT
            break
        if move is None or move not in board.legal_moves:
            result, termination = ("0-1" if side == chess.WHITE else "1-0"), ILLEGAL_MOVE
            game.comment = f"{names[side]} played the illegal move {move}"
            break
        clocks[side] += control.increment
        node = node.add_variation(move, comment=f"[%clk {_clock(clocks[side])}]")
        board.push(move)
    game.headers["Result"] = result
    game.headers["Termination"] = termination
    return game


def _clock(seconds: float) -> str:
    seconds = max(0.0, seconds)
    return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{seconds % 60:06.3f}"


def play_match(first: EngineSpec, second: EngineSpec, openings: Iterable[str], control: TimeControl,
               pgn_path: Optional[Path] = None, progress: bool = True,
               move_overhead_ms: Optional[int] = None, time_margin_ms: int = 0) -> MatchResult:
    """Each opening twice, colours swapped, ``first`` against ``second``; the result from ``first``'s side.
    Games are appended to ``pgn_path`` as they end.  The engines are started once and told of each new
    game; ``move_overhead_ms`` is given to each that has a move overhead option; a clock may run
    ``time_margin_ms`` below zero before its side loses."""
    from tqdm.auto import tqdm

    openings = list(openings)
    counts = {"win": 0, "draw": 0, "loss": 0}
    engines = [open_engine(first, move_overhead_ms)]
    try:
        engines.append(open_engine(second, move_overhead_ms))
        bar = tqdm(total=2 * len(openings), desc=f"{first.name} vs {second.name}", unit="game", disable=not progress)
        for number, fen in enumerate(openings):
            for swap in (False, True):
                white, black = (1, 0) if swap else (0, 1)
                specs = (first, second)
                game = play_game({chess.WHITE: engines[white], chess.BLACK: engines[black]},
                                 {chess.WHITE: specs[white].name, chess.BLACK: specs[black].name}, fen, control,
                                 round_name=f"{number + 1}.{2 if swap else 1}", game_key=(number, swap),
                                 time_margin=time_margin_ms / 1000)
                result = game.headers["Result"]
                first_white = not swap
                if result == "1/2-1/2":
                    counts["draw"] += 1
                elif (result == "1-0") == first_white:
                    counts["win"] += 1
                else:
                    counts["loss"] += 1
                if pgn_path is not None:
                    pgn_path.parent.mkdir(parents=True, exist_ok=True)
                    with open(pgn_path, "a", encoding="utf-8") as out:
                        print(game, file=out, end="\n\n")
                bar.set_postfix_str(f"+{counts['win']} ={counts['draw']} -{counts['loss']}")
                bar.update()
                if game.headers["Termination"] not in ("checkmate", "stalemate", "insufficient material",
                                                       "threefold repetition", "fifty moves",
                                                       "fivefold repetition", "seventyfive moves"):
                    bar.write(f"game {game.headers['Round']} ({game.headers['White']} - {game.headers['Black']}): "
                              f"{result} by {game.headers['Termination']}")
        bar.close()
    finally:
        for engine in engines:
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                engine.close()
    return match_result(counts["win"], counts["draw"], counts["loss"])


def play_with_python_chess(first: EngineSpec, second: EngineSpec, rules: MatchRules, command: List[str],
                           progress: bool = True) -> MatchReport:
    """The match of :func:`play_match` under ``rules`` (checked first: ValueError or FileNotFoundError
    saying what is wrong), one game at a time, as its report (``command``: the one that asked for it).
    For a match with an xboard engine."""
    rules.check()
    control = TimeControl.parse(rules.tc)
    openings = read_openings(rules.openings, rules.start, rules.games // 2)
    before = count_games(rules.pgn)
    result = play_match(first, second, openings, control, rules.pgn, progress=progress,
                        move_overhead_ms=rules.move_overhead_ms, time_margin_ms=rules.time_margin_ms)
    xboard = [spec.name for spec in (first, second) if spec.protocol == "xboard"]
    note = (f"{', '.join(xboard)} (xboard) told the time control by 'level', whose increment the protocol gives "
            f"in whole seconds; the clocks here credit {control.increment:g} s a move") if xboard else ""
    return MatchReport(first.name, second.name, rules, result, [note] if note else [],
                       game_outcomes(rules.pgn, skip=before), command, f"python-chess {chess.__version__}")
