"""The engines a match or a suite can run, by a short name or a command.

``ours`` (this engine, ``python -m Util uci``; ``ours:weights=FILE`` evaluates
with the weights of a JSON file, as ``python -m Util.whole_game_lab.tuning --out
FILE`` writes them; ``ours:TablebaseMemory=0`` or any of its UCI options as
``NAME=VALUE``, several separated by commas), ``sunfish`` (PyPI's sunfish,
its UCI entry point), ``stockfish`` or ``stockfish:ELO`` (Debian's Stockfish,
one thread, ``UCI_LimitStrength`` at ``UCI_Elo`` ELO), the Debian engines
``phalanx``, ``glaurung``, ``toga2``, ``ethereal``, ``fairymax`` (``apt-get
install`` the package the message names; ``gnuchess`` speaks UCI), or any
command as ``uci:CMD ARGS`` or ``xboard:CMD ARGS``.  Every engine gets one
thread, no pondering and its own book and learning off (:func:`match_options`:
the options are found by name in its answer to ``uci``; Phalanx by its
command-line switches ``-b- -l-``): the games' openings come from the match.
"""

from __future__ import annotations

import shlex
import subprocess
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
import re
from typing import Dict, List, Mapping, Optional

import chess.engine

from ..folders import REPO_ROOT

__all__ = ["EngineSpec", "engine_spec", "match_options", "open_engine"]

#: Debian's engines: short name -> (package, protocol, program names to look for, arguments, options).
#: Phalanx's switches: ``-b-`` no opening book, ``-l-`` no learning.
DEBIAN_ENGINES = {
    "phalanx": ("phalanx", "xboard", ["phalanx"], ["-b-", "-l-"], {}),
    "glaurung": ("glaurung", "uci", ["glaurung"], [], {"Threads": 1, "OwnBook": False}),
    "toga2": ("toga2", "uci", ["toga2", "fruit"], [], {"OwnBook": False}),
    "ethereal": ("ethereal-chess", "uci", ["ethereal-chess", "ethereal", "Ethereal"], [], {"Threads": 1}),
    "gnuchess": ("gnuchess", "uci", ["gnuchess"], ["--uci"], {"OwnBook": False}),
    "fairymax": ("fairymax", "xboard", ["fairymax"], [], {}),
}
#: Words of option names that switch an engine's own opening book or learning on (check options).
BOOK_AND_LEARNING = ("book", "learn")
STOCKFISH = "/usr/games/stockfish"
#: Seconds an engine may take to answer ``isready`` once started (python-chess waits 10 s for any
#: answer): ours compiles its kernels on its first start after the code changed, which takes minutes
#: (``bash scripts/setup.sh`` compiles them ahead).
READY_TIMEOUT = 900.0


@dataclass(frozen=True)
class EngineSpec:
    """How to start an engine: its name in the PGN, the protocol ("uci" or "xboard"), the command, the
    options set once it has started, and the folder it runs in (None: the current one)."""

    name: str
    protocol: str
    command: List[str]
    options: Dict[str, object] = field(default_factory=dict)
    directory: Optional[str] = None


def _program(names: List[str]) -> str:
    for name in names:
        found = shutil.which(name) or shutil.which(name, path="/usr/games:/usr/local/games")
        if found:
            return found
    return ""


def engine_spec(text: str, *, own_book: bool = False) -> EngineSpec:
    """The :class:`EngineSpec` a name or ``uci:``/``xboard:`` command gives (see the module's docstring).
    ``own_book``: whether *our* engine uses its book.  FileNotFoundError, saying what to install, when the
    program is missing; ValueError for a name that is none of these."""
    name, _, argument = text.partition(":")
    lowered = name.lower()
    if lowered in ("ours", "chessai", "self"):
        return _ours(text, argument, own_book)
    if lowered == "sunfish":
        try:
            import sunfish  # noqa: F401  (only to say so if it is missing)
        except ImportError:
            raise FileNotFoundError("sunfish is not installed: .venv/bin/pip install --no-deps sunfish==2026.1 (--no-deps: its metadata pins an older python-chess than ours, and sunfish itself needs none)") from None
        return EngineSpec("sunfish", "uci", [sys.executable, "-m", "sunfish"])
    if lowered == "stockfish":
        program = _program(["stockfish"]) or (STOCKFISH if Path(STOCKFISH).exists() else "")
        if not program:
            raise FileNotFoundError("stockfish is not installed: apt-get install stockfish")
        options: Dict[str, object] = {"Threads": 1, "Hash": 16}
        label = "Stockfish"
        if argument:
            options.update(UCI_LimitStrength=True, UCI_Elo=int(argument))
            label = f"Stockfish (UCI_Elo {int(argument)})"
        return EngineSpec(label, "uci", [program], options)
    if lowered in DEBIAN_ENGINES:
        package, protocol, names, arguments, options = DEBIAN_ENGINES[lowered]
        program = _program(names)
        if not program:
            raise FileNotFoundError(f"{lowered} is not installed: apt-get install {package}")
        return EngineSpec(lowered.capitalize(), protocol, [program, *arguments], dict(options))
    if lowered in ("uci", "xboard") and argument:
        command = shlex.split(argument)
        return EngineSpec(Path(command[0]).name, lowered, command)
    raise ValueError(f"engine '{text}': give ours[:OPTION=VALUE,...], sunfish, stockfish[:ELO], {', '.join(DEBIAN_ENGINES)}, "
                     f"or a command as uci:COMMAND or xboard:COMMAND")


def _ours(text: str, argument: str, own_book: bool) -> EngineSpec:
    """Our engine, with the UCI options ``argument`` sets as ``NAME=VALUE`` pairs separated by commas
    (``ours:TablebaseMemory=0``; ``weights=FILE`` is short for ``WeightsFile=FILE``, a JSON file of weights
    checked here, so that a match does not start with an engine that would refuse it).  The PGN names the
    engine with what was set."""
    from ..whole_game.uci import DEFAULT_OPTIONS

    command = [sys.executable, "-m", "Util", "uci"]
    options: Dict[str, object] = {"OwnBook": own_book}
    known = {name.lower(): name for name in DEFAULT_OPTIONS}
    known["weights"] = "WeightsFile"
    labels = []
    for pair in filter(None, (part.strip() for part in argument.split(","))):
        key, _, value = pair.partition("=")
        name = known.get(key.strip().lower())
        if name is None or not value.strip():
            raise ValueError(f"engine '{text}': our engine takes ours, ours:weights=FILE (a JSON file of weights) "
                             f"or ours:OPTION=VALUE,... with the options {', '.join(DEFAULT_OPTIONS)}")
        value = value.strip()
        if name == "WeightsFile":
            from ..whole_game.evaluation import read_weights

            path = Path(value).expanduser().resolve()
            read_weights(path)  # FileNotFoundError / ValueError naming the file
            value, label = str(path), path.stem
        else:
            label = f"{name} {value}"
        options[name] = value
        labels.append(label)
    name = f"chessAI ({', '.join(labels)})" if labels else "chessAI"
    return EngineSpec(name, "uci", command, options, directory=str(REPO_ROOT))


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def match_options(spec: EngineSpec, available: Mapping[str, chess.engine.Option],
                  move_overhead_ms: Optional[int] = None) -> Dict[str, object]:
    """The UCI options a match sets for the engine of ``spec`` whose options are ``available`` (as its
    answer to ``uci`` lists them): its book and learning off (every check option whose name says so), one
    thread, no pondering, ``move_overhead_ms`` as its move overhead (whatever the option's spelling:
    Stockfish's ``Move Overhead``, Ethereal's ``MoveOverhead``), then the options ``spec`` names (so a book
    our engine was asked to use stays on).  Only options the engine has are set."""
    chosen: Dict[str, object] = {}
    for name, option in available.items():
        normal = _normal(name)
        if option.type == "check" and any(word in normal for word in BOOK_AND_LEARNING):
            chosen[name] = False
        elif normal in ("threads", "numberofthreads") and option.type == "spin":
            chosen[name] = 1
        elif normal == "ponder" and option.type == "check":
            chosen[name] = False
        elif normal == "moveoverhead" and option.type == "spin" and move_overhead_ms is not None:
            chosen[name] = move_overhead_ms
    by_normal = {_normal(name): name for name in available}
    for name, value in spec.options.items():
        if _normal(name) in by_normal:
            chosen[by_normal[_normal(name)]] = value
    return chosen


def open_engine(spec: EngineSpec, move_overhead_ms: Optional[int] = None,
                ready_timeout: float = READY_TIMEOUT) -> chess.engine.SimpleEngine:
    """Start the engine and set the options :func:`match_options` chooses among those it has (one thread,
    its book and learning off, ``spec``'s own); ``move_overhead_ms`` sets its move overhead where it has
    one (the time a move spends in pipes and in the match's own process, which the clock charges to it).
    Returns once the engine has answered ``isready``, waiting up to ``ready_timeout`` seconds; TimeoutError
    saying so (the engine stopped) if it has not."""
    opener = chess.engine.SimpleEngine.popen_uci if spec.protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    try:  # their warnings on stderr would break the progress bar
        engine = opener(spec.command, stderr=subprocess.DEVNULL, cwd=spec.directory)
    except chess.engine.EngineError as error:  # e.g. an xboard engine without the setboard feature
        raise ValueError(f"{spec.name} ({' '.join(spec.command)}) cannot be driven by python-chess: {error}") from None
    # python-chess sets the options it manages itself (Ponder, MultiPV, UCI_Chess960) with each search
    options = {key: value for key, value in match_options(spec, engine.options, move_overhead_ms).items()
               if not engine.options[key].is_managed()}
    if options:
        engine.configure(options)
    wait_until_ready(engine, spec.name, ready_timeout)
    return engine


def wait_until_ready(engine: chess.engine.SimpleEngine, name: str, seconds: float) -> None:
    """Send ``isready`` and wait up to ``seconds`` for ``readyok`` (its start-up done before a clock runs);
    TimeoutError naming the engine, which is stopped, if it does not come."""
    usual, engine.timeout = engine.timeout, seconds
    try:
        engine.ping()
    except TimeoutError:
        engine.close()
        raise TimeoutError(f"{name} did not answer isready within {seconds:g} s; if it is ours, its kernels "
                           f"may still have been compiling: run python -m Util.whole_game.precompile "
                           f"(setup does) and try again") from None
    finally:
        engine.timeout = usual
