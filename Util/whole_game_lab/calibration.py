"""The engine's strength on the CCRL Blitz scale, and its levels' on the same scale, measured by fastchess.

::

    flock /tmp/chessai-measure.lock python -m Util.whole_game_lab.calibration gauntlet phalanx --games 100
    flock /tmp/chessai-measure.lock python -m Util.whole_game_lab.calibration level 3 --games 40
    python -m Util.whole_game_lab.calibration report      # the tables of docs/engine.md and docs/levels.md
    python -m Util.whole_game_lab.calibration uci 3       # level 3 as a UCI engine (any GUI, fastchess)

``gauntlet OPPONENT`` plays the full engine against one opponent of :data:`OPPONENTS`; ``level N`` plays
level N against Stockfish 15.1 limited to a ``UCI_Elo`` rung near it (``--rung``, default
:data:`LEVEL_RUNGS`).  One match a run, so that other measurements can take turns with it.  Every match
is played by fastchess at 10 s + 0.1 s from the shared openings (``openings_chessathome.fen``, in order),
each opening twice with the colours swapped, at most one game a core (``--concurrency``), every engine with one thread, its book
and learning off and its ``Move Overhead`` at most 100 ms, a time margin of :data:`TIME_MARGIN_MS`; its
games go to ``docs/matches/<slug>.pgn`` and its record to ``docs/matches/<slug>.json`` (the keys of
``docs/matches/README.md``).

``report`` fits the ratings from those records (:mod:`.rating`): the full engine's by maximum likelihood
over its games against the engines with a published CCRL Blitz rating (:data:`OPPONENTS`' ``rating``), and
Stockfish's ``UCI_Elo`` rungs placed on the same scale by the full engine's own games against a rung:
Stockfish calibrates ``UCI_Elo`` at 60 s + 0.6 s against CCRL 40/4 (the Blitz list), and at 10 s + 0.1 s a
rung plays at its number plus an offset that those games measure.  A level's rating is then its rung's
number, plus the offset, plus the level's own result; its 95 % interval adds the variances of both.
Rerun the matches and ``report`` when the engine changes; ``Util/whole_game/levels.py``'s labels come
from the report.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import chess.pgn

from .. import folders
from ..whole_game.levels import LEVELS
from .elo import match_result
from .match import default_openings_file
from .match_rules import ABANDONED, ILLEGAL_MOVE, TIME_FORFEIT
from .rating import Pairing, fit_rating

__all__ = ["LEVEL_RUNGS", "OPPONENTS", "Opponent", "find_fastchess", "level_engine", "ours_engine", "play",
           "run_level_uci"]

TIME_CONTROL = "10+0.1"
#: Milliseconds a move may overrun its clock before fastchess calls it lost on time (its default is 0).
TIME_MARGIN_MS = 50
#: Our engine's Move Overhead in the matches (milliseconds): at most 100, as for every engine.
MOVE_OVERHEAD_MS = 30
#: Stockfish's Move Overhead unless a match says otherwise (milliseconds): its own default.
STOCKFISH_OVERHEAD_MS = 10
#: The most Move Overhead any engine of a match gets (milliseconds): Stockfish keeps it back for every move
#: it still expects to play, so more starves it at 10+0.1.
MAX_OVERHEAD_MS = 100
HASH_MB = 64
MATCHES_DIR = folders.REPO_ROOT / "docs" / "matches"
SCALE = "CCRL Blitz"
#: The list the anchors' ratings come from.
ANCHOR_LIST = ("CCRL Blitz (CCRL 40/2, formerly 40/4), single-CPU list at computerchess.org.uk/ccrl/404, "
               "as it stood on 11 November 2025")


@dataclass(frozen=True)
class Opponent:
    """An engine of the gauntlet: its fastchess ``-engine`` options (after ``name=``), its version, and its
    published rating on :data:`SCALE` (None: played for the record, not an anchor) with the source."""

    name: str
    version: str
    fastchess: Tuple[str, ...]
    rating: Optional[float] = None
    source: str = ""
    options: Dict[str, object] = field(default_factory=dict)


def _python_engine(*args: str) -> Tuple[str, ...]:
    return (f"cmd={sys.executable}", f"args={' '.join(args)}", f"dir={folders.REPO_ROOT}")


def _uci_options(options: Dict[str, object]) -> Tuple[str, ...]:
    return tuple(f"option.{key}={str(value).lower() if isinstance(value, bool) else value}"
                 for key, value in options.items())


def stockfish(elo: int, overhead_ms: int = STOCKFISH_OVERHEAD_MS) -> Opponent:
    """Debian's Stockfish 15.1 limited to ``UCI_Elo`` ``elo``, rated at that number (its authors' calibration),
    with ``overhead_ms`` as its ``Move Overhead``."""
    options = {"Threads": 1, "Hash": HASH_MB, "UCI_LimitStrength": True, "UCI_Elo": elo,
               "Move Overhead": overhead_ms}
    return Opponent(f"stockfish-{elo}", "Stockfish 15.1", ("cmd=/usr/games/stockfish",) + _uci_options(options),
                    elo, "Stockfish's UCI_Elo, calibrated by its authors at 60+0.6 against CCRL 40/4", options)


def _opponents() -> Dict[str, Opponent]:
    glaurung = {"Threads": 1, "Hash": HASH_MB, "OwnBook": False, "Ponder": False}
    toga = {"Number of Threads": 1, "Hash": HASH_MB, "OwnBook": False, "Ponder": False}
    gnuchess = {"Hash": HASH_MB, "OwnBook": False, "Ponder": False}
    phalanx_args = ("-m", "Util.whole_game_lab.xboard_uci", "/usr/games/phalanx", "-b-", "-l-", f"-t{HASH_MB * 1024}")
    found = {
        "phalanx": Opponent("phalanx", "Phalanx XXV", _python_engine(*phalanx_args), 2644, ANCHOR_LIST,
                            {"book": "off (-b-)", "learning": "off (-l-)", "hash": f"{HASH_MB} MB (-t)",
                             "protocol": "XBoard, through python-chess (Util.whole_game_lab.xboard_uci)",
                             "increment": "XBoard's level passes it in whole seconds: Phalanx plans with 0, "
                                          "its clock still gains 0.1 s a move"}),
        "glaurung": Opponent("glaurung", "Glaurung 2.2", ("cmd=/usr/games/glaurung",) + _uci_options(glaurung),
                             options=glaurung),
        "toga2": Opponent("toga2", "Toga II 3.0", ("cmd=/usr/games/toga2",) + _uci_options(toga), options=toga),
        "gnuchess": Opponent("gnuchess", "GNU Chess 6.2.7", ("cmd=/usr/games/gnuchess", "args=-u")
                             + _uci_options(gnuchess), options=gnuchess),
    }
    for elo in (1350, 1500, 1700, 1900, 2000, 2100, 2300, 2500, 2700):
        found[f"stockfish-{elo}"] = stockfish(elo)
    return found


OPPONENTS = _opponents()
#: The Stockfish rung each level plays by default (near its strength, so that the result says most; 1350
#: is the lowest ``UCI_Elo`` Stockfish 15.1 accepts).
LEVEL_RUNGS = {1: 1350, 2: 1350, 3: 1350, 4: 1500, 5: 1600, 6: 1700, 7: 1900}


def ours_engine(options: Optional[Dict[str, object]] = None) -> Tuple[str, ...]:
    """Our full engine as fastchess's ``-engine`` options: ``python -m Util uci`` in the repository."""
    wanted = {"OwnBook": False, "Hash": HASH_MB, "Move Overhead": MOVE_OVERHEAD_MS, **(options or {})}
    return _python_engine("-m", "Util", "uci") + _uci_options(wanted)


def level_engine(number: int) -> Tuple[str, ...]:
    """Level ``number`` as fastchess's ``-engine`` options (this module's ``uci`` command)."""
    wanted = {"OwnBook": False, "Hash": HASH_MB, "Move Overhead": MOVE_OVERHEAD_MS}
    return _python_engine("-m", "Util.whole_game_lab.calibration", "uci", str(number)) + _uci_options(wanted)


def find_fastchess() -> str:
    """The fastchess program: ``$FASTCHESS``, else on the PATH, else built by setup under ``.tools/``.
    FileNotFoundError saying how to get it."""
    candidates = [os.environ.get("FASTCHESS", ""), shutil.which("fastchess") or ""]
    candidates += [str(p) for p in sorted(folders.REPO_ROOT.glob(".tools/fastchess*/fastchess"))]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("fastchess not found: build it (bash scripts/setup.sh builds it from ../shared/tools, or "
                            "tar xzf fastchess-*.tar.gz && make -C fastchess-* -j2) and set FASTCHESS=/path/to/fastchess")


# -- one match ------------------------------------------------------------------------------------------------
def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=folders.REPO_ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def commit() -> str:
    """The repository's commit, ``+dirty`` when the engine's files differ from it."""
    head = _git("rev-parse", "--short=10", "HEAD") or "unknown"
    dirty = _git("status", "--porcelain", "--", "Util")
    return head + ("+dirty" if dirty else "")


class LoadWatch:
    """The 1-minute load average at the start, the end and its highest in between (sampled every 30 s)."""

    def __init__(self) -> None:
        self.first = os.getloadavg()[0]
        self.highest = self.first
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(30):
            self.highest = max(self.highest, os.getloadavg()[0])

    def stop(self) -> str:
        self._done.set()
        last = os.getloadavg()[0]
        self.highest = max(self.highest, last)
        return f"1-minute load average {self.first:.1f} at the start, {last:.1f} at the end, at most {self.highest:.1f}"


#: fastchess's ``Termination`` of a game lost by a side's program, not on the board, and the record's key.
LOST_APART = {TIME_FORFEIT: "time", ABANDONED: "crash", ILLEGAL_MOVE: "illegal"}


def count_games(pgn: Path, ours: str) -> Dict[str, int]:
    """Wins, draws, losses of the engine named ``ours`` in the PGN file, and by each side (``_ours``,
    ``_opponent``) the games it lost on time (``time``, fastchess's ``Termination "time forfeit"``), by
    crashing or stalling (``crash``, "abandoned": fastchess says "White disconnects") and by an illegal move
    (``illegal``); ``abandoned_wins``, ``abandoned_draws``, ``abandoned_losses``: our result in the games a
    side abandoned, so that a score without them can be given."""
    counts = {"wins": 0, "draws": 0, "losses": 0}
    counts.update({f"{kind}_{side}": 0 for kind in LOST_APART.values() for side in ("ours", "opponent")})
    counts.update({"abandoned_wins": 0, "abandoned_draws": 0, "abandoned_losses": 0})
    with open(pgn, encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            result = game.headers.get("Result", "*")
            if result == "*":
                continue
            white = game.headers.get("White") == ours
            won = result == ("1-0" if white else "0-1")
            lost = result == ("0-1" if white else "1-0")
            outcome = "wins" if won else "losses" if lost else "draws"
            counts[outcome] += 1
            kind = LOST_APART.get(game.headers.get("Termination", ""))
            if kind:
                counts[f"{kind}_{'ours' if lost else 'opponent'}"] += 1
            if kind == "crash":
                counts[f"abandoned_{outcome}"] += 1
    return counts


def lost_apart(record: Dict[str, object]) -> Dict[str, Dict[str, int]]:
    """The games of a match record each side lost on time, by a crash or stall, by an illegal move:
    ``{"time": {"ours": 0, "opponent": 6}, "crash": ..., "illegal": ...}``, recounted from the PGN beside the
    record when the record is older than its ``crashes`` field (``abandoned``: our result in the crashed games)."""
    if "crashes" in record:
        return {"time": record["time_losses"], "crash": record["crashes"], "illegal": record["illegal_moves"],
                "abandoned": record.get("abandoned", {})}
    counts = count_games(MATCHES_DIR / f"{record['slug']}.pgn", record["engines"]["ours"]["name"])
    return _apart(counts)


def _apart(counts: Dict[str, int]) -> Dict[str, Dict[str, int]]:
    found = {kind: {side: counts[f"{kind}_{side}"] for side in ("ours", "opponent")} for kind in LOST_APART.values()}
    found["abandoned"] = {key: counts[f"abandoned_{key}"] for key in ("wins", "draws", "losses")}
    return found


def play(slug: str, ours: Tuple[str, ...], ours_name: str, opponent: Opponent, games: int, start: int = 1,
         extra: Optional[Dict[str, object]] = None, concurrency: int = 1) -> Dict[str, object]:
    """Plays one fastchess match (``games`` games, colours swapped, from opening ``start`` on, ``concurrency``
    games at a time: at most one a core) and writes ``docs/matches/<slug>.pgn`` and ``.json``; returns the
    record.  ValueError for a concurrency above the cores."""
    if not 1 <= concurrency <= (os.cpu_count() or 1):
        raise ValueError(f"concurrency {concurrency}: at most one game a core ({os.cpu_count()} here), at least 1")
    program = find_fastchess()
    openings = default_openings_file()
    MATCHES_DIR.mkdir(parents=True, exist_ok=True)
    pgn, record_path = MATCHES_DIR / f"{slug}.pgn", MATCHES_DIR / f"{slug}.json"
    if pgn.exists():
        raise FileExistsError(f"{pgn} exists: move it away or choose another --slug")
    command = [program, "-engine", f"name={ours_name}", *ours, "-engine", f"name={opponent.name}",
               *opponent.fastchess, "-each", f"tc={TIME_CONTROL}", f"timemargin={TIME_MARGIN_MS}",
               "-openings", f"file={openings}", "format=epd", "order=sequential", f"start={start}",
               "-rounds", str(games // 2), "-repeat", "-concurrency", str(concurrency), "-recover",
               "-pgnout", f"file={pgn}", "timeleft=true", "nodes=true", "seldepth=true"]
    build = engine_bench()
    started = datetime.datetime.now(datetime.timezone.utc)
    load = LoadWatch()
    logs = folders.REPO_ROOT / "Tests"
    logs.mkdir(exist_ok=True)
    with open(logs / f"{slug}.log", "w") as log, tempfile.TemporaryDirectory() as scratch:
        # fastchess leaves its state (config.json) where it runs: not in docs/
        subprocess.run(command, cwd=scratch, stdout=log, stderr=subprocess.STDOUT, check=False)
    load_text = load.stop()
    counts = count_games(pgn, ours_name)
    apart = _apart(counts)
    result = match_result(counts["wins"], counts["draws"], counts["losses"])
    version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()
    record = {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"), "commit": commit(), "bench": build,
        "fastchess": f"{version} (source 74deac23)" if version else "fastchess",
        "command": " ".join(_quoted(part) for part in command).replace(str(folders.REPO_ROOT), "."),
        "tc": TIME_CONTROL, "time_margin_ms": TIME_MARGIN_MS,
        "openings": f"{openings.name}, openings {start} to {start + games // 2 - 1}, each played twice, colours swapped",
        "engines": {"ours": {"name": ours_name, "version": commit(), "options": _options(ours)},
                    "opponent": {"name": opponent.name, "version": opponent.version,
                                 "options": {**opponent.options, **_options(opponent.fastchess)},
                                 "rating": opponent.rating, "rating_source": opponent.source}},
        "games": result.games, "wins": result.wins, "draws": result.draws, "losses": result.losses,
        "time_losses": apart["time"],
        "crashes": apart["crash"], "illegal_moves": apart["illegal"], "abandoned": apart["abandoned"],
        "elo": _finite(result.elo), "elo_low": _finite(result.elo_low), "elo_high": _finite(result.elo_high),
        "concurrency": concurrency, "load": load_text, **(extra or {}),
    }
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    return record


def engine_bench() -> int:
    """The engine's ``bench`` node count: what names its build (as OpenBench names one), since the count
    changes exactly when the search or the evaluation does."""
    from ..whole_game.bench import BENCH_DEPTH, run_bench

    return run_bench(BENCH_DEPTH, say=None).nodes


def _quoted(part: str) -> str:
    return f'"{part}"' if " " in part else part


def _options(engine: Tuple[str, ...]) -> Dict[str, str]:
    return {part[len("option."):].split("=", 1)[0]: part.split("=", 1)[1] for part in engine if part.startswith("option.")}


def _finite(value: float) -> Optional[float]:
    return round(value, 1) + 0.0 if math.isfinite(value) else None  # + 0.0: never -0.0


# -- the report ---------------------------------------------------------------------------------------------------
def records() -> List[Dict[str, object]]:
    """The match records of ``docs/matches``, each with its file name (without ``.json``) as ``slug``."""
    return [{**json.loads(path.read_text()), "slug": path.stem} for path in sorted(MATCHES_DIR.glob("*.json"))]


def _pairing(record) -> Pairing:
    opponent = record["engines"]["opponent"]
    return Pairing(opponent["version"] + (f" (UCI_Elo {opponent['options'].get('UCI_Elo')})"
                                          if "UCI_Elo" in opponent["options"] else ""),
                   opponent["rating"] or 0, record["wins"], record["draws"], record["losses"])


def report() -> str:
    """The gauntlet table with the full engine's fitted rating, the rungs' offset and the levels' table."""
    from .rating import table

    every = records()
    full = [r for r in every if "level" not in r]
    is_rung = lambda r: r["engines"]["opponent"]["name"].startswith("stockfish")  # noqa: E731
    newest = max(full, key=lambda r: r.get("date", ""), default={}).get("bench")
    anchored = [_pairing(r) for r in full if r["engines"]["opponent"]["rating"] and not is_rung(r)
                and r.get("bench") == newest]
    if not anchored:
        return "no gauntlet match of the newest build against an anchor in docs/matches yet"
    fit = fit_rating(anchored)
    lines = [f"The full engine (the newest build, bench {newest or '?'}) against the anchors ({SCALE}, {ANCHOR_LIST}):",
             table(fit), ""]
    lines += ["| opponent | build (bench) | games | result (ours) | Elo (95 %) | lost on time (ours/theirs) | "
              "crashes or stalls (ours/theirs) |", "|---|---|---|---|---|---|---|"]
    crashed = []
    for r in sorted(full, key=lambda r: (r.get("bench") != newest, r.get("date", ""))):
        opponent = r["engines"]["opponent"]
        apart = lost_apart(r)
        overhead = opponent["options"].get("Move Overhead")
        named = opponent["name"] + (f", Move Overhead {overhead} ms" if overhead is not None else "")
        lines.append(f"| {opponent['version']} ({named}) | {r.get('bench', '?')} | {r['games']} | +{r['wins']} ={r['draws']} "
                     f"-{r['losses']} | {r['elo']} ({r['elo_low']}..{r['elo_high']}) | "
                     f"{apart['time']['ours']}/{apart['time']['opponent']} | "
                     f"{apart['crash']['ours']}/{apart['crash']['opponent']} |")
        if apart["crash"]["ours"] or apart["crash"]["opponent"]:
            gone = apart["abandoned"]
            rest = match_result(r["wins"] - gone["wins"], r["draws"] - gone["draws"], r["losses"] - gone["losses"])
            count = sum(gone.values())
            crashed.append(f"Against {opponent['version']} without the {count} game{'s' * (count != 1)} a program "
                           f"abandoned (our result in them +{gone['wins']} ={gone['draws']} -{gone['losses']}): "
                           f"+{rest.wins} ={rest.draws} -{rest.losses}, Elo {_finite(rest.elo)} "
                           f"({_finite(rest.elo_low)}..{_finite(rest.elo_high)}).")
    lines += [""] + crashed if crashed else []
    levels = sorted((r for r in every if "level" in r), key=lambda r: r["level"])
    # the rungs are placed on the scale by the build the levels were measured with (each build's anchored
    # rating less its rating were the rungs at their numbers)
    bridge = levels[0].get("bench") if levels else newest
    rungs = [_pairing(r) for r in full if is_rung(r) and r.get("bench") == bridge]
    bridged = [_pairing(r) for r in full if r["engines"]["opponent"]["rating"] and not is_rung(r)
               and r.get("bench") == bridge]
    if not rungs or not bridged:
        return "\n".join(lines)
    bridge_fit, rung_fit = fit_rating(bridged), fit_rating(rungs)  # rung_fit: were the rungs at their numbers
    offset = bridge_fit.rating - rung_fit.rating
    spread = math.hypot((bridge_fit.high - bridge_fit.low) / 2, (rung_fit.high - rung_fit.low) / 2)
    lines += ["", f"Stockfish's rungs at {TIME_CONTROL} on this scale: their UCI_Elo {offset:+.0f} "
                  f"(95 %: ±{spread:.0f}), from {sum(p.games for p in rungs)} games of the build with bench "
                  f"{bridge} against them and {sum(p.games for p in bridged)} against the anchors"]
    if levels:
        lines += ["", "| level | rung | games | result | rating (95 %) |", "|---|---|---|---|---|"]
    for r in levels:
        rung = r["engines"]["opponent"]["rating"]
        centre, low, high = level_rating(r, offset, spread)
        lines.append(f"| {r['level']} | {rung} | {r['games']} | +{r['wins']} ={r['draws']} -{r['losses']} | "
                     f"{centre:.0f} ({low:.0f}..{high:.0f}) |")
    lines.append(f"| {len(LEVELS)} (full strength) | | {fit.games} | | {fit.rating:.0f} ({fit.low:.0f}..{fit.high:.0f}) |")
    return "\n".join(lines)


def level_rating(record, offset: float, spread: float) -> Tuple[float, float, float]:
    """(rating, low, high) of a level's match record, its rung placed at its number plus ``offset``
    (± ``spread`` at 95 %): the 95 % half-widths of the match and of the offset add as variances."""
    pairing = _pairing(record)
    fitted = fit_rating([Pairing(pairing.name, pairing.rating + offset, pairing.wins, pairing.draws, pairing.losses)])
    half_low, half_high = fitted.rating - fitted.low, fitted.high - fitted.rating
    return (fitted.rating, fitted.rating - math.hypot(half_low, spread), fitted.rating + math.hypot(half_high, spread))


# -- a level as a UCI engine ----------------------------------------------------------------------------------------
def run_level_uci(number: int) -> int:
    """Level ``number`` as a UCI engine on stdin/stdout until ``quit``."""
    from ..whole_game.player import Player
    from ..whole_game.uci import UciEngine

    level = LEVELS[number - 1]
    from ..whole_game.levels import LevelPlayer

    def make_player(**options):
        return LevelPlayer(Player(**options), level)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    engine = UciEngine(write, player_factory=make_player)
    for line in sys.stdin:
        if not engine.handle(line):
            break
    else:
        engine.cmd_quit([])
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m Util.whole_game_lab.calibration", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gauntlet", help="the full engine against one opponent")
    g.add_argument("opponent", choices=sorted(OPPONENTS))
    lv = sub.add_parser("level", help="one level against a Stockfish rung")
    lv.add_argument("number", type=int, choices=range(1, len(LEVELS)))
    lv.add_argument("--rung", type=int, help="Stockfish's UCI_Elo (default: the level's of LEVEL_RUNGS)")
    for p, default in ((g, 100), (lv, 40)):
        p.add_argument("--their-overhead", type=int, metavar="MS",
                       help=f"Stockfish's Move Overhead in milliseconds, 0 to {MAX_OVERHEAD_MS} "
                            f"(default {STOCKFISH_OVERHEAD_MS}; only for Stockfish, the one opponent that has it)")
        p.add_argument("--games", type=int, default=default, help=f"an even number (default {default})")
        p.add_argument("--start", type=int, default=1, help="the first opening (default 1)")
        p.add_argument("--slug", help="the records' file name (default: from what is played and today's date)")
        p.add_argument("--concurrency", type=int, default=1,
                       help=f"games at a time, at most one a core ({os.cpu_count()} here; default 1)")
    sub.add_parser("report", help="the tables of the records in docs/matches")
    u = sub.add_parser("uci", help="a level as a UCI engine")
    u.add_argument("number", type=int, nargs="?", default=len(LEVELS))
    args = parser.parse_args(argv)
    if args.command == "uci":
        return run_level_uci(args.number)
    if args.command == "report":
        print(report())
        return 0
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number, 2 or more (each opening is played with both colours)")
    overhead = args.their_overhead
    if overhead is not None and not 0 <= overhead <= MAX_OVERHEAD_MS:
        parser.error(f"--their-overhead {overhead}: give 0 to {MAX_OVERHEAD_MS} ms (more starves Stockfish)")
    if overhead is not None and args.command == "gauntlet" and not args.opponent.startswith("stockfish"):
        parser.error(f"--their-overhead: {args.opponent} has no Move Overhead option; only Stockfish takes it")
    overhead = STOCKFISH_OVERHEAD_MS if overhead is None else overhead
    today = datetime.date.today().isoformat()
    try:
        if args.command == "gauntlet":
            opponent = OPPONENTS[args.opponent]
            if opponent.name.startswith("stockfish"):
                opponent = stockfish(int(opponent.options["UCI_Elo"]), overhead)
            record = play(args.slug or f"{today}-chessai-vs-{opponent.name}", ours_engine(), "chessAI", opponent,
                          args.games, args.start, concurrency=args.concurrency)
        else:
            rung = args.rung or LEVEL_RUNGS[args.number]
            opponent = stockfish(rung, overhead)
            record = play(args.slug or f"{today}-level{args.number}-vs-{opponent.name}", level_engine(args.number),
                          f"chessAI-level-{args.number}", opponent, args.games, args.start, {"level": args.number},
                          concurrency=args.concurrency)
    except (FileNotFoundError, FileExistsError, ValueError) as error:
        parser.exit(2, f"calibration: {error}\n")
    print(f"{record['engines']['ours']['name']} vs {record['engines']['opponent']['version']}: +{record['wins']} "
          f"={record['draws']} -{record['losses']}, Elo {record['elo']} ({record['elo_low']}..{record['elo_high']}), "
          f"time losses {record['time_losses']}; {record['load']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
