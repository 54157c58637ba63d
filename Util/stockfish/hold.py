"""Can Stockfish hold a drawn position?  The AI presses, Stockfish defends.

Chapter 5's games start from won positions: they ask whether Stockfish
finds the mate.  A defender's question is the other one: from a position
that is a draw with best play, does Stockfish keep the draw against an
opponent who never gives anything away?

* **Hold game**: Stockfish plays one side (by default Black, the side a
  table names second, as in KRvKB), the AI the other.  While the position is
  drawn the AI plays a drawing move that leaves Stockfish the fewest
  drawing replies (:func:`Util.play.verdicts.hardest_best_move`, the trainer's
  choice); once Stockfish has played a losing move, the same choice is the
  fastest mate.
* The start positions are drawn at random from the table's draws with
  Stockfish to move, among those in which **at least one** of its moves
  loses (where every move draws there is nothing to hold) and **none** of
  its moves ends the game at once (:func:`moves_that_end_the_game`): a start
  where Stockfish can take a hanging rook, leaving too little material to
  mate, is a game of one ply that teaches nothing.

After each of Stockfish's moves the table says whether the position is
still a draw, so a game tells the ply at which Stockfish let the draw slip,
not only how it ended.  A slipped game is played on to its end (the AI's
mate), beyond the ply cap if need be.  A game counts as lost only when
Stockfish is mated on the board: the tables count no fifty-move rule, and a
losing move made late may be saved by it (the report says how often).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import chess

from ..sequence import SnSequence
from .compare import ComparedGame, close_engine_of_this_process, comparison_game_end, open_engine_in_worker
from .oracle import EngineFailure, EngineSettings, GuardedStockfish, find_stockfish
from ..play.outcomes import LOSS
from ..play.verdicts import hardest_best_move, move_outcomes
from ..play.random_starts import random_start

#: Plies a slipped game may run beyond the cap to reach the AI's mate (longer than any five-piece mate).
MATE_ALLOWANCE = 600


@dataclass
class HoldResult:
    """One hold game from a drawn start position."""

    fen: str
    stockfish_colour: chess.Color
    game: Optional[ComparedGame] = None
    slipped_at: Optional[int] = None  # ply (1 = the first move) after which Stockfish's side was lost; None: held
    chances: int = 0  # Stockfish's moves made in a drawn position where some move would have lost
    failure: str = ""  # engine crash or hang: not counted

    @property
    def lost_on_board(self) -> bool:
        """The game ended with Stockfish's side checkmated."""
        return self.game is not None and self.game.mated and self.game.plies % 2 == 0  # Stockfish moved first

    @property
    def held(self) -> bool:
        """Stockfish did not lose the game on the board (it may still have played a move that loses by
        the table, if the fifty-move rule ended the game first: the tables know no such rule)."""
        return not self.failure and not self.lost_on_board


def hold_game(board: chess.Board, sequence: SnSequence, engine: GuardedStockfish,
              stockfish_colour: chess.Color = chess.BLACK, ply_cap: int = 300) -> HoldResult:
    """Stockfish (``stockfish_colour``) against the AI from the drawn position ``board``, Stockfish to move.

    ValueError if ``board`` is not a draw by the table or it is not Stockfish's move.
    """
    if board.turn != stockfish_colour:
        raise ValueError(f"{board.fen()}: Stockfish plays {_name(stockfish_colour)}, "
                         f"but it is {_name(board.turn)}'s move")
    if sequence.value(board) >= 0:
        raise ValueError(f"{board.fen()} is not a draw in {sequence.material}: nothing to hold")
    board = board.copy(stack=False)
    result = HoldResult(board.fen(), stockfish_colour, ComparedGame(board.fen()))
    game = result.game
    try:
        while not (end := comparison_game_end(board, ply_cap if result.slipped_at is None else ply_cap + MATE_ALLOWANCE,
                                     game.plies)):
            if board.turn == stockfish_colour:
                move = engine.best_move(board)
                if result.slipped_at is None:
                    _score_defence(board, move, sequence, result)
            else:
                move = hardest_best_move(board, sequence).move
            board.push(move)
            game.moves.append(move.uci())
        game.end = end
    except EngineFailure as failure:
        result.failure = str(failure)
    return result


def _score_defence(board: chess.Board, move: chess.Move, sequence: SnSequence, result: HoldResult) -> None:
    """Count a chance to go wrong, and the slip if ``move`` was a losing one."""
    outcomes = {o.move: o.result for o in move_outcomes(board, sequence)}
    if LOSS in outcomes.values():
        result.chances += 1
    if outcomes[move] == LOSS:
        result.slipped_at = result.game.plies + 1


def moves_that_end_the_game(board: chess.Board) -> List[chess.Move]:
    """The legal moves after which the game is over by the rules (:func:`Util.play.outcomes.game_end`):
    a capture that leaves too little material to mate, a mate, a stalemate; [] when play goes on
    whatever the side to move does."""
    from ..play.outcomes import game_end

    ending = []
    for move in board.legal_moves:
        board.push(move)
        try:
            if game_end(board):
                ending.append(move)
        finally:
            board.pop()
    return ending


def is_a_start_to_hold(board: chess.Board, sequence: SnSequence) -> bool:
    """A start worth playing: the side to move has a move that loses by the table (a trap to avoid)
    and no move that ends the game at once (:func:`moves_that_end_the_game`)."""
    return (any(o.result == LOSS for o in move_outcomes(board, sequence))
            and not moves_that_end_the_game(board))


def drawn_positions_with_a_trap(sequence: SnSequence, count: int, stockfish_colour: chess.Color = chess.BLACK,
                                seed: int = 0, tries: int = 200) -> List[str]:
    """``count`` different FENs, drawn at random: a draw with ``stockfish_colour`` to move, at least one
    losing move and no move that ends the game at once (:func:`is_a_start_to_hold`).  ValueError if
    ``tries`` draws per position find none (a table with no such draw)."""
    fens: List[str] = []
    attempt = 0
    while len(fens) < count:
        for _ in range(tries):
            attempt += 1
            board = random_start(sequence, white_to_move=stockfish_colour == chess.WHITE, outcome="draw",
                                 seed=seed * 1_000_003 + attempt)
            if board.fen() not in fens and is_a_start_to_hold(board, sequence):
                fens.append(board.fen())
                break
        else:
            raise ValueError(f"{sequence.material}: no draw with {_name(stockfish_colour)} to move, "
                             f"a losing move and none that ends the game at once in {tries} random draws")
    return fens


@dataclass
class HoldReport:
    """Hold games from many drawn positions."""

    material: str
    settings: EngineSettings
    stockfish_colour: chess.Color
    ply_cap: int
    results: List[HoldResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def played(self) -> List[HoldResult]:
        return [r for r in self.results if not r.failure]

    @property
    def lost(self) -> List[HoldResult]:
        """Games Stockfish lost on the board."""
        return [r for r in self.played if r.lost_on_board]

    @property
    def saved_by_fifty_moves(self) -> List[HoldResult]:
        """Games in which Stockfish played a move that loses by the table, but the fifty-move rule (or the
        ply cap) ended the game before the mate."""
        return [r for r in self.played if r.slipped_at is not None and not r.lost_on_board]

    def endings(self) -> Dict[str, List[int]]:
        """How the played games ended (:func:`Util.play.outcomes.game_end`'s words, or the ply cap), most frequent
        first: the plies of each game that ended so."""
        ends: Dict[str, List[int]] = {}
        for r in self.played:
            ends.setdefault(r.game.end, []).append(r.game.plies)
        return dict(sorted(ends.items(), key=lambda item: (-len(item[1]), item[0])))

    def repeating_moves(self) -> Tuple[int, int]:
        """``(the AI's, Stockfish's)`` moves, over the played games, after which the position on the board
        had stood there before in the game (same pieces, side to move, castling and en passant rights)."""
        counts = {True: 0, False: 0}
        for r in self.played:
            board = chess.Board(r.fen)
            for uci in r.game.moves:
                stockfish_moved = board.turn == r.stockfish_colour
                board.push_uci(uci)
                if board.is_repetition(2):
                    counts[stockfish_moved] += 1
        return counts[False], counts[True]

    def text(self) -> str:
        played, lost, saved = self.played, self.lost, self.saved_by_fifty_moves
        side = _name(self.stockfish_colour)
        chances = sum(r.chances for r in played)
        share = 100.0 * len(lost) / len(played) if played else float("nan")
        lines = [
            f"hold_draws ({self.material}): Stockfish ({self.settings.describe()} a move) defends drawn positions "
            f"as {side} against the AI, {len(played)} positions, each with at least one losing move at the start "
            f"and none that ends the game at once",
            f"Stockfish held the draw: {len(played) - len(lost)} of {len(played)}",
            f"Stockfish lost a drawn position: {len(lost)} ({share:.2f} %)"
            + (f", after a losing move at {losing_moves(lost)}" if lost else ""),
            f"  its moves in drawn positions where a move would have lost: {chances}; "
            f"losing moves among them: {len(lost) + len(saved)}",
        ]
        if saved:
            lines.append(f"  {len(saved)} losing move(s) ({losing_moves(saved)}) came so "
                         f"late that the fifty-move rule drew the game first: the tables count no such rule, "
                         f"Stockfish does")
        endings = "; ".join(f"{end} {len(plies)} ({_after_plies(plies)})"
                            for end, plies in self.endings().items())
        lines.append(f"how the games ended: {endings or 'no game played'}")
        ai_repeats, stockfish_repeats = self.repeating_moves()
        lines.append(f"moves that brought back an earlier position of the game: the AI's {ai_repeats}, "
                     f"Stockfish's {stockfish_repeats}")
        lines += [f"not played (engine failure): {len(self.results) - len(played)}",
                  f"{self.seconds:.1f} s"]
        return "\n".join(lines)

    def write(self, folder: os.PathLike = "Tests", stem: Optional[str] = None) -> Path:
        """Write the summary (``.txt``) and one line per game (``.csv``); returns the .txt path."""
        import csv

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        stem = stem or f"hold_draws_{self.material}_{time.strftime('%Y-%m-%d_%H-%M-%S')}"
        (folder / f"{stem}.txt").write_text(self.text() + "\n", encoding="utf-8")
        with open(folder / f"{stem}.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["fen", "stockfish_plays", "held", "slipped_at_ply", "chances", "plies", "end",
                             "failure", "moves"])
            for r in self.results:
                game = r.game
                writer.writerow([r.fen, chess.COLOR_NAMES[r.stockfish_colour], r.held, r.slipped_at or "",
                                 r.chances, game.plies if game else "", game.end if game else "", r.failure,
                                 " ".join(game.moves) if game else ""])
        return folder / f"{stem}.txt"


def _hold_chunk(fens: List[str]) -> List[HoldResult]:
    from ..runtime.parallel import WORKER_STATE

    engine, sequence = WORKER_STATE["engine"], WORKER_STATE["sequence"]
    return [hold_game(chess.Board(fen), sequence, engine, WORKER_STATE["colour"], WORKER_STATE["ply_cap"])
            for fen in fens]


def hold_positions(fens: Iterable[str], sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
                   stockfish_colour: chess.Color = chess.BLACK, ply_cap: int = 300, workers: Optional[int] = None,
                   path: Optional[os.PathLike] = None, progress: bool = True) -> HoldReport:
    """A hold game from each drawn position (``stockfish_colour`` to move), one engine per worker."""
    from ..runtime.parallel import core_count, map_chunks

    path = find_stockfish(path)
    fens = list(fens)
    chunks = [fens[i : i + 2] for i in range(0, len(fens), 2)]
    workers = min(workers or core_count(), max(1, len(chunks)))
    report = HoldReport(sequence.material.name, settings, stockfish_colour, ply_cap)
    state = {"settings": settings, "path": path, "sequence": sequence, "ply_cap": ply_cap,
             "colour": stockfish_colour}
    start = time.perf_counter()
    try:
        for results in map_chunks(_hold_chunk, chunks, state=state, setup=open_engine_in_worker,
                                  teardown=close_engine_of_this_process, workers=workers,
                                  sizes=[len(c) for c in chunks], desc="hold_draws", unit=" positions",
                                  progress=progress):
            report.results += results
    finally:
        close_engine_of_this_process()
    report.seconds = time.perf_counter() - start
    return report


def hold_draws(count: int, sequence: SnSequence, settings: EngineSettings = EngineSettings(), *,
               stockfish_colour: chess.Color = chess.BLACK, seed: int = 0, **options) -> HoldReport:
    """``count`` random drawn positions with a trap (:func:`drawn_positions_with_a_trap`), each played
    out by :func:`hold_game`."""
    fens = drawn_positions_with_a_trap(sequence, count, stockfish_colour, seed)
    return hold_positions(fens, sequence, settings, stockfish_colour=stockfish_colour, **options)


def hold_sentence(report: HoldReport) -> str:
    """The report's finding in one sentence, for the chapter's conclusions."""
    played, lost = report.played, report.lost
    if not played:
        return f"No drawn {report.material} positions were played."
    side = _name(report.stockfish_colour)
    chances = sum(r.chances for r in played)
    saved = report.saved_by_fifty_moves
    slips = len(lost) + len(saved)
    return (f"Defending {len(played)} drawn {report.material} positions as {side} against the AI, Stockfish "
            f"({report.settings.describe()}) held {len(played) - len(lost)} and lost {len(lost)} "
            f"({100.0 * len(lost) / len(played):.2f} %); it made {chances} moves in positions where a move "
            f"would have lost, and {slips} of them {'was' if slips == 1 else 'were'} losing"
            + (f": {losing_moves(lost)}, lost on the board" if lost else "")
            + (f"{';' if lost else ':'} {losing_moves(saved)}, saved on the board by the fifty-move rule, which the "
               f"tables do not know" if saved else "") + ".")


def losing_moves(results: List[HoldResult]) -> str:
    """Each game's losing move by its ply and in SAN with its move number: ``ply 7 (4...Kd5), ply 12 (7. Rb3)``."""
    return ", ".join(f"ply {r.slipped_at} ({_numbered_san(r.fen, r.game.moves, r.slipped_at)})" for r in results)


def _numbered_san(fen: str, moves: List[str], ply: int) -> str:
    """The ``ply``-th move of a game from ``fen`` (1 = the first) in SAN, numbered as in a score sheet."""
    board = chess.Board(fen)
    for uci in moves[: ply - 1]:
        board.push_uci(uci)
    number = f"{board.fullmove_number}." + ("" if board.turn == chess.WHITE else "..")
    return f"{number}{'' if board.turn == chess.BLACK else ' '}{board.san(chess.Move.from_uci(moves[ply - 1]))}"


def _after_plies(plies: List[int]) -> str:
    """``after 3, 5, 7 plies`` for up to four games, ``after 100 plies each`` when all are as long, else
    ``after 12-140 plies`` (the shortest and the longest)."""
    plies = sorted(plies)
    if len(plies) > 1 and plies[0] == plies[-1]:
        return f"after {plies[0]} plies each"
    return f"after {', '.join(map(str, plies)) if len(plies) <= 4 else f'{plies[0]}-{plies[-1]}'} plies"


def _name(colour: chess.Color) -> str:
    return "White" if colour == chess.WHITE else "Black"
