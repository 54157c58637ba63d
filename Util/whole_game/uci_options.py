"""The engine's UCI options: what ``uci`` lists, and ``setoption`` read and checked.

=================  ======  ========================================================================
option             type    meaning
=================  ======  ========================================================================
Hash               spin    the transposition table, MB
Threads            spin    the search's threads (above 1: Lazy SMP sharing the hash, :mod:`.threads`)
Clear Hash         button  empties the transposition table (and the move-ordering history)
Ponder             check   the GUI may send ``go ponder`` (the engine ponders whenever asked)
MultiPV            spin    lines shown; above 1 every root move is scored (:mod:`.multipv`)
OwnBook            check   play the opening book's moves
BookFile           string  a Polyglot book (empty: Debian's gnuchess-book, if installed)
TablebasePath      string  a folder of our ``.chessAI`` tables (empty: the default results folder)
TablebaseMemory    spin    MB of those tables probed inside the search (0: at the root only)
SyzygyPath         string  folders of Syzygy tables, separated by ``:`` (empty: none), probed at the root
Move Overhead      spin    ms kept back from the clock for each move's way to the GUI (:mod:`.timeman`)
UCI_ShowWDL        check   ``info`` lines carry ``wdl W D L`` per mille (:mod:`.wdl`)
UCI_Chess960       check   positions and moves of Chess960 (castling as the king taking its rook)
UCI_LimitStrength  check   play at the level of ``UCI_Elo`` (:mod:`.levels`)
UCI_Elo            spin    the level's label
WeightsFile        string  the evaluation's weights as JSON (empty: the default weights)
Debug Log File     string  a file every line in and out is added to, with milliseconds (Stockfish's)
=================  ======  ========================================================================

Names are matched without regard to case, numbers are clamped to their range, and a value that is not
one (``value lots`` for a spin) is refused with a message, the option unchanged.  Options are never
renamed: GUIs and scripts keep them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .endgame import DEFAULT_SEARCH_TABLES_MB
from .levels import LEVELS

__all__ = ["DEFAULT_OPTIONS", "ELO_RANGE", "OPTIONS", "UciOption", "option_lines", "parse_setoption"]

#: UCI_Elo's range: the labels of the weakest and the strongest level (Util.whole_game.levels.LEVELS).
ELO_RANGE = (LEVELS[0].elo, LEVELS[-1].elo)
#: The most lines ``MultiPV`` shows (more legal moves than this are never on a board).
MAX_MULTIPV = 256
#: The most threads a search may have (more threads than the machine has cores only share its cores).
MAX_THREADS = 8


@dataclass(frozen=True)
class UciOption:
    """One option: its name, UCI type (``spin``, ``check``, ``string``, ``button``), default and, for a
    spin, its range."""
    name: str
    type: str
    default: object = None
    low: int = 0
    high: int = 0

    def line(self, shown_default: Optional[str] = None) -> str:
        """The ``option name ...`` line (``shown_default``: a string option's default as the GUI shows it)."""
        text = f"option name {self.name} type {self.type}"
        if self.type == "spin":
            return f"{text} default {self.default} min {self.low} max {self.high}"
        if self.type == "check":
            return f"{text} default {'true' if self.default else 'false'}"
        if self.type == "string":
            return f"{text} default {shown_default or self.default or '<empty>'}"
        return text


OPTIONS: Tuple[UciOption, ...] = (
    UciOption("Hash", "spin", 64, 1, 4096),
    UciOption("Threads", "spin", 1, 1, MAX_THREADS),
    UciOption("Clear Hash", "button"),
    UciOption("Ponder", "check", False),
    UciOption("MultiPV", "spin", 1, 1, MAX_MULTIPV),
    UciOption("OwnBook", "check", True),
    UciOption("BookFile", "string", ""),
    UciOption("TablebasePath", "string", ""),
    UciOption("TablebaseMemory", "spin", DEFAULT_SEARCH_TABLES_MB, 0, 4096),
    UciOption("SyzygyPath", "string", ""),
    UciOption("Move Overhead", "spin", 30, 0, 5000),
    UciOption("UCI_ShowWDL", "check", False),
    UciOption("UCI_Chess960", "check", False),
    UciOption("UCI_LimitStrength", "check", False),
    UciOption("UCI_Elo", "spin", ELO_RANGE[1], ELO_RANGE[0], ELO_RANGE[1]),
    UciOption("WeightsFile", "string", ""),
    UciOption("Debug Log File", "string", ""),
)
BY_NAME: Dict[str, UciOption] = {option.name.lower(): option for option in OPTIONS}
#: Every option's default value (a button's None), by name.
DEFAULT_OPTIONS: Dict[str, object] = {option.name: option.default for option in OPTIONS}


def option_lines(book, tables) -> List[str]:
    """The ``option`` lines of the answer to ``uci``, showing the default book and tables folder."""
    shown = {"BookFile": str(book) if book else None, "TablebasePath": str(tables) if tables else None}
    return [option.line(shown.get(option.name)) for option in OPTIONS]


def parse_setoption(options: Dict[str, object], words: List[str]) -> Tuple[str, object]:
    """``(name, value)`` of ``setoption name NAME [value VALUE]`` for one of ``options`` (names matched
    without regard to case; numbers clamped to the option's range; a ``WeightsFile`` read to check it; a
    button's value None).  ValueError saying what is wrong."""
    text = " ".join(words)
    if not text.startswith("name "):
        raise ValueError("setoption needs: setoption name NAME [value VALUE]")
    name, _, value = text[5:].partition(" value ")
    known = {key.lower(): key for key in options}
    if name.strip().lower() not in known:
        raise ValueError(f"unknown option '{name.strip()}'; the options are {', '.join(options)}")
    name, value = known[name.strip().lower()], value.strip()
    option = BY_NAME.get(name.lower(), UciOption(name, "string"))
    if option.type == "button":
        return name, None
    if option.type == "check":
        if value.lower() not in ("true", "false"):
            raise ValueError(f"option {name} takes true or false, not '{value}'")
        return name, value.lower() == "true"
    if option.type == "spin":
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"option {name} takes a whole number, not '{value}'") from None
        return name, min(max(number, option.low), option.high)
    value = "" if value in ("", "<empty>") else value
    if name == "WeightsFile" and value:
        from .evaluation import read_weights

        try:
            read_weights(value)  # a file that is not weights is refused now, not at the next go
        except (OSError, ValueError) as error:
            raise ValueError(f"{error}; WeightsFile unchanged") from None
    return name, value
