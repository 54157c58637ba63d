"""Matches played by fastchess, the match runner of Stockfish's and OpenBench's testing, as engine authors
measure: ``python -m Util match`` builds its command line, runs it and reports.

::

    python -m Util match stockfish:2000 --games 100 --tc 10+0.1
    python -m Util match glaurung --games 40 --sprt 0 10

The rules (:class:`~.match_rules.MatchRules`, each printed with the result): colour-swapped pairs from the
shared openings read as EPD in file order (``-openings ... order=sequential -repeat``), at most one game
per core (``-concurrency``), the same ``Move Overhead`` for every engine that has one (whatever its
spelling: Ethereal's ``MoveOverhead``; at most 100 ms), the engines' books and learning off, one
thread, no pondering (:func:`~.opponents.match_options`), fastchess's time margin stated (``-each
timemargin=N``; fastchess's own default, 0 ms, lets no move overrun its clock), the PGN kept
(``-pgnout``), an SPRT by fastchess's ``-sprt`` (alpha = beta = 0.05).  Each engine is started once
before fastchess starts it, to read its options and to let ours compile its kernels (fastchess waits
only seconds for an engine to get ready).

fastchess speaks UCI only; a match with an xboard engine (Phalanx, Fairy-Max) is played by
:mod:`.match` through python-chess's XBoard driver under the same rules.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import chess.engine

from ..folders import REPO_ROOT
from .elo import MatchResult, match_result
from .match_rules import SPRT_ALPHA, SPRT_BETA, MatchReport, MatchRules, count_games, game_outcomes
from .opponents import EngineSpec, match_options, open_engine

__all__ = ["BUILT_FASTCHESS", "FASTCHESS_ENV", "FastchessResult", "fastchess_command", "fastchess_version",
           "find_fastchess", "parse_fastchess_output", "play_with_fastchess", "prepared_options", "pv_mismatches",
           "run_fastchess"]

#: The variable naming a fastchess program to use instead of the one setup builds.
FASTCHESS_ENV = "FASTCHESS"
#: Where ``scripts/setup.sh`` builds fastchess (a folder git ignores).
BUILT_FASTCHESS = REPO_ROOT / ".tools" / "fastchess" / "fastchess"


def find_fastchess() -> Path:
    """The fastchess program: ``$FASTCHESS``, else the one ``scripts/setup.sh`` built, else one on the
    PATH.  FileNotFoundError saying how to get it."""
    if os.environ.get(FASTCHESS_ENV):
        given = Path(os.environ[FASTCHESS_ENV])
        if not (given.is_file() and os.access(given, os.X_OK)):
            raise FileNotFoundError(f"${FASTCHESS_ENV} names {given}, which is not an executable program")
        return given
    if BUILT_FASTCHESS.is_file():
        return BUILT_FASTCHESS
    found = shutil.which("fastchess")
    if found:
        return Path(found)
    raise FileNotFoundError(
        "fastchess is not built: put fastchess-74deac23.tar.gz in ../shared/tools/ (or build fastchess from "
        "https://github.com/Disservin/fastchess: make -j2) and run bash scripts/setup.sh, which builds it "
        f"into {BUILT_FASTCHESS.parent}; or set {FASTCHESS_ENV} to a fastchess program")


def fastchess_version(program: Path) -> str:
    """What ``fastchess -version`` prints (e.g. ``fastchess alpha 1.8.2-alpha 20260729-74deac23``)."""
    done = subprocess.run([str(program), "-version"], capture_output=True, text=True, timeout=30)
    return (done.stdout.strip() or done.stderr.strip()).splitlines()[0] if (done.stdout or done.stderr) else "?"


def _uci_value(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _engine_arguments(spec: EngineSpec, options: Dict[str, object]) -> List[str]:
    program, *arguments = spec.command
    words = ["-engine", f"cmd={program}", f"name={spec.name}"]
    if spec.directory:
        words.append(f"dir={spec.directory}")
    if arguments:
        words.append(f"args={shlex.join(arguments)}")
    return words + [f"option.{name}={_uci_value(value)}" for name, value in options.items()]


def fastchess_command(program: Path, engines: Iterable[Tuple[EngineSpec, Dict[str, object]]],
                      rules: MatchRules) -> List[str]:
    """fastchess's command line for a match of ``engines`` (each with the options it is given)."""
    command = [str(program)]
    for spec, options in engines:
        command += _engine_arguments(spec, options)
    command += ["-each", "proto=uci", f"tc={rules.tc}", f"timemargin={rules.time_margin_ms}",
                "-openings", f"file={rules.openings}", "format=epd", "order=sequential", f"start={rules.start + 1}",
                "-rounds", str(rules.games // 2), "-repeat", "-concurrency", str(rules.concurrency),
                "-pgnout", f"file={rules.pgn}", "-recover",
                # fastchess's state, to resume an interrupted match: beside the PGN, not in the current folder
                "-config", f"outname={rules.pgn.with_suffix('.fastchess.json')}"]
    if rules.sprt is not None:
        command += ["-sprt", f"elo0={rules.sprt[0]:g}", f"elo1={rules.sprt[1]:g}", f"alpha={SPRT_ALPHA}",
                    f"beta={SPRT_BETA}", f"model={rules.sprt_model}"]
    return command


@dataclass(frozen=True)
class FastchessResult:
    """The last report fastchess printed: games won, lost, drawn by the first engine, its Elo and 95 %
    margin (pentanomial, as fastchess computes them), that line and, for an SPRT, the LLR line."""

    wins: int
    losses: int
    draws: int
    elo: Optional[float]
    elo_margin: Optional[float]
    elo_line: str
    sprt_line: str = ""

    @property
    def match(self) -> MatchResult:
        """The same counts through :mod:`.elo` (trinomial, the interval of the mean score)."""
        return match_result(self.wins, self.draws, self.losses)


def parse_fastchess_output(text: str) -> Optional[FastchessResult]:
    """The last result report in fastchess's output, or None if it printed none (no game finished)."""
    games = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", text)
    if not games:
        return None
    elos = re.findall(r"^(Elo: (\S+) \+/- (\S+).*)$", text, re.MULTILINE)
    sprt = re.findall(r"^(LLR: .*)$", text, re.MULTILINE)
    _, wins, losses, draws = (int(n) for n in games[-1])
    elo = margin = None
    line = ""
    if elos:
        line = elos[-1][0]
        try:
            elo, margin = float(elos[-1][1]), float(elos[-1][2].rstrip(","))
        except ValueError:  # "inf" / "nan" at a score of 0 or 1
            elo = margin = None
    return FastchessResult(wins, losses, draws, elo, margin, line, sprt[-1] if sprt else "")


#: The lines after a warning of fastchess that repeat the engine's last info line, position and moves.
WARNING_DETAILS = ("Info;", "Position;", "Moves;")
PV_MISMATCH = re.compile(r"^Warning; Bestmove does not match beginning of last PV - move \S+ from (.*)$")


def run_fastchess(command: List[str], echo: Optional[Callable[[str], None]] = print) -> Tuple[int, str]:
    """Runs fastchess, each line of its output handed to ``echo`` as it comes (None: kept quiet), but for
    the details under its warnings (the engine's last info line, the position, the moves: they are in
    the whole output); (exit status, its whole output)."""
    lines = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1) as run:
        for line in run.stdout:
            lines.append(line)
            if echo is not None and not line.startswith(WARNING_DETAILS):
                echo(line.rstrip("\n"))
        status = run.wait()
    return status, "".join(lines)


def pv_mismatches(output: str) -> Dict[str, int]:
    """Moves whose ``bestmove`` was not the first move of the engine's last ``info ... pv``, by engine
    (fastchess warns of each: an engine should play the line it reported)."""
    counts: Dict[str, int] = {}
    for line in output.splitlines():
        found = PV_MISMATCH.match(line)
        if found:
            counts[found.group(1)] = counts.get(found.group(1), 0) + 1
    return counts


def prepared_options(spec: EngineSpec, move_overhead_ms: int) -> Dict[str, object]:
    """Starts the engine once, before fastchess does, to read its options (what its answer to ``uci``
    lists) and to let it get ready (ours compiles its kernels on its first start after a change, longer
    than fastchess waits); the options :func:`~.opponents.match_options` chooses for it."""
    engine = open_engine(spec)
    try:
        return match_options(spec, engine.options, move_overhead_ms)
    finally:
        try:
            engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            engine.close()


def play_with_fastchess(first: EngineSpec, second: EngineSpec, rules: MatchRules,
                        echo: Optional[Callable[[str], None]] = print) -> MatchReport:
    """Plays the match of two UCI engines by fastchess under ``rules`` (checked first: ValueError or
    FileNotFoundError saying what is wrong); fastchess's output goes to ``echo`` line by line.
    RuntimeError with fastchess's last lines when it fails before a game ends."""
    rules.check()
    program = find_fastchess()
    if first.name == second.name:  # fastchess tells the engines apart by name
        second = EngineSpec(f"{second.name} (2)", second.protocol, second.command, second.options, second.directory)
    engines = [(spec, prepared_options(spec, rules.move_overhead_ms)) for spec in (first, second)]
    command = fastchess_command(program, engines, rules)
    rules.pgn.parent.mkdir(parents=True, exist_ok=True)
    before = count_games(rules.pgn)
    status, output = run_fastchess(command, echo)
    found = parse_fastchess_output(output)
    if found is None and status != 0:
        last = "\n".join(output.strip().splitlines()[-15:])
        raise RuntimeError(f"fastchess stopped (exit status {status}) before a game ended:\n{last}")
    runner_lines = []
    if found is not None:
        runner_lines.append(f"fastchess (pentanomial, 95 %): {found.elo_line}")
        if found.sprt_line:
            runner_lines.append(f"SPRT ({rules.sprt_model}): {found.sprt_line}")
    mismatches = pv_mismatches(output)
    runner_lines.append("bestmove not the first move of the last pv: " + ", ".join(
        f"{name} {mismatches.get(name, 0)}" for name in (first.name, second.name)))
    return MatchReport(first.name, second.name, rules, None if found is None else found.match, runner_lines,
                       game_outcomes(rules.pgn, skip=before), command, fastchess_version(program))
