"""The rules a published match is played under, and what its report says besides the score.

Every match of ``python -m Util match`` (by fastchess for UCI engines, :mod:`.fastchess`; by python-chess
for an xboard engine, :mod:`.match`) follows :class:`MatchRules`: colour-swapped pairs from the shared
openings in file order, at most one game per core, the same ``Move Overhead`` of at most
:data:`MAX_MOVE_OVERHEAD_MS` for every engine that has one, the time margin stated, books and learning
off, the PGN kept.  :class:`MatchReport` prints the result with the games lost on time, by an illegal
move or by a crash counted apart (read from the PGN's ``Termination`` tags), the command, commit, date
and load.
"""

from __future__ import annotations

import datetime
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import chess.pgn

from ..folders import REPO_ROOT
from .elo import MatchResult

__all__ = ["MAX_MOVE_OVERHEAD_MS", "SPRT_ALPHA", "SPRT_BETA", "MatchReport", "MatchRules", "Outcomes",
           "count_games", "game_outcomes", "provenance"]

#: The most ``Move Overhead`` a match gives an engine, in milliseconds.
MAX_MOVE_OVERHEAD_MS = 100
#: The two SPRT error rates (false positive, false negative), as fishtest and OpenBench use them.
SPRT_ALPHA = SPRT_BETA = 0.05
#: The PGN ``Termination`` tags (fastchess's words) of games not ended by the rules on the board.
TIME_FORFEIT, ILLEGAL_MOVE, ABANDONED = "time forfeit", "illegal move", "abandoned"


@dataclass(frozen=True)
class MatchRules:
    """What a match is played under: the time control (``"10+0.1"``: seconds + seconds a move), the
    games (an even number), the openings (an EPD or FEN file, one position a line, from the ``start``-th,
    0-based), the PGN file, games at once, ``Move Overhead`` and the time margin (milliseconds), and an
    SPRT's Elo bounds and model, if any."""

    tc: str
    games: int
    openings: Path
    pgn: Path
    start: int = 0
    concurrency: int = 1
    move_overhead_ms: int = 50
    time_margin_ms: int = 0
    sprt: Optional[Tuple[float, float]] = None
    sprt_model: str = "normalized"

    def check(self) -> None:
        """ValueError (FileNotFoundError for the openings) saying what is wrong and what to give instead."""
        if not re.fullmatch(r"\d+(\.\d+)?(\+\d+(\.\d+)?)?", self.tc) or float(self.tc.split("+")[0]) <= 0:
            raise ValueError(f"--tc {self.tc}: write BASE+INCREMENT in seconds, e.g. 10+0.1 (the base above 0)")
        if self.games < 2 or self.games % 2:
            raise ValueError(f"--games {self.games}: give an even number, 2 or more (each opening is played "
                             f"with both colours)")
        cores = os.cpu_count() or 1
        if not 1 <= self.concurrency <= cores:
            raise ValueError(f"--concurrency {self.concurrency}: give 1 to {cores} (this machine has {cores} "
                             f"cores; more than one game a core measures the machine, not the engines)")
        if not 0 <= self.move_overhead_ms <= MAX_MOVE_OVERHEAD_MS:
            raise ValueError(f"--move-overhead {self.move_overhead_ms}: give 0 to {MAX_MOVE_OVERHEAD_MS} ms; an "
                             f"engine that subtracts its overhead for every move still to play (Stockfish does) "
                             f"is starved by more")
        if self.time_margin_ms < 0:
            raise ValueError(f"--time-margin {self.time_margin_ms}: give 0 or more milliseconds")
        if self.sprt is not None and not self.sprt[0] < self.sprt[1]:
            raise ValueError(f"--sprt {self.sprt[0]:g} {self.sprt[1]:g}: ELO0 must be below ELO1 (e.g. --sprt 0 10)")
        if self.sprt_model not in ("normalized", "logistic"):
            raise ValueError(f"--sprt-model {self.sprt_model}: give normalized or logistic")
        if not self.openings.is_file():
            raise FileNotFoundError(f"{self.openings}: no such openings file; give one with --openings FILE (one "
                                    f"FEN or EPD a line) or set SUITES_PATH to the folder of the shared suites")

    def describe(self) -> str:
        """The rules in one line, as the report prints them."""
        sprt = ""
        if self.sprt is not None:
            sprt = (f"; SPRT elo0 {self.sprt[0]:g} elo1 {self.sprt[1]:g}, alpha {SPRT_ALPHA} beta {SPRT_BETA}, "
                    f"{self.sprt_model} Elo")
        return (f"{self.tc}, colour-swapped pairs from {self.openings.name} (from number {self.start}, in order), "
                f"{self.concurrency} game(s) at once, Move Overhead {self.move_overhead_ms} ms for every engine "
                f"that has one, time margin {self.time_margin_ms} ms, books and learning off, one thread{sprt}")


@dataclass
class Outcomes:
    """Games of a PGN file not ended by the rules on the board, by the engine that lost them: on time,
    by an illegal move, by a crash or a stall (``abandoned``)."""

    games: int = 0
    time_forfeits: Dict[str, int] = field(default_factory=dict)
    illegal_moves: Dict[str, int] = field(default_factory=dict)
    abandoned: Dict[str, int] = field(default_factory=dict)

    def line(self, names: Iterable[str]) -> str:
        """``flag falls (games lost on time): A 0, B 1; illegal moves: none; crashes or stalls: none``."""
        names = list(names)

        def part(label: str, counts: Dict[str, int], always: bool) -> str:
            if not counts and not always:
                return f"{label}: none"
            return f"{label}: " + ", ".join(f"{name} {counts.get(name, 0)}" for name in names)

        return "; ".join((part("flag falls (games lost on time)", self.time_forfeits, True),
                          part("illegal moves", self.illegal_moves, False),
                          part("crashes or stalls", self.abandoned, False)))


def game_outcomes(pgn: Path, skip: int = 0) -> Outcomes:
    """The :class:`Outcomes` of the games of ``pgn`` after the first ``skip`` (those written before a
    match began, when it appends to a file)."""
    found = Outcomes()
    if not Path(pgn).is_file():
        return found
    kinds = {TIME_FORFEIT: found.time_forfeits, ILLEGAL_MOVE: found.illegal_moves, ABANDONED: found.abandoned}
    with open(pgn, encoding="utf-8", errors="replace") as games:
        number = 0
        while (headers := chess.pgn.read_headers(games)) is not None:
            number += 1
            if number <= skip:
                continue
            found.games += 1
            counts = kinds.get(headers.get("Termination", "").lower())
            result = headers.get("Result", "*")
            if counts is not None and result in ("1-0", "0-1"):
                loser = headers.get("Black" if result == "1-0" else "White", "?")
                counts[loser] = counts.get(loser, 0) + 1
    return found


def count_games(pgn: Path) -> int:
    """Games already in ``pgn`` (0 if there is no such file)."""
    return game_outcomes(pgn).games


def provenance() -> str:
    """``commit 1a2b3c4 (with uncommitted changes), 2026-11-27 23:50, load average 1.02 0.98 0.75``."""
    def git(*words: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(REPO_ROOT), *words], capture_output=True, text=True,
                                  timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"commit {commit}{dirty}, {datetime.datetime.now():%Y-%m-%d %H:%M}, load average {load}"


@dataclass(frozen=True)
class MatchReport:
    """What a match left: the result from the first engine's side (None if no game finished), the
    runner's own result lines (fastchess's Elo, an SPRT's LLR), the games not ended on the board, the
    command and the runner's version."""

    first: str
    second: str
    rules: MatchRules
    result: Optional[MatchResult]
    runner_lines: List[str]
    outcomes: Outcomes
    command: List[str]
    runner: str

    def lines(self) -> List[str]:
        """The report for people: result, Elo, what ended games apart from the board, rules, provenance."""
        out = [f"{self.first} vs {self.second}: {self.rules.describe()}"]
        if self.result is None:
            out.append("no game finished")
        else:
            out.append(f"{self.result.games} games: {self.result.line()}")
        out += self.runner_lines
        out.append(self.outcomes.line([self.first, self.second]))
        out.append(f"games saved to {self.rules.pgn}")
        out.append(f"command: {shlex.join(self.command)}")
        out.append(f"{provenance()}; {self.runner}")
        return out
