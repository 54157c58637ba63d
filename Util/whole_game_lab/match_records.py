"""The recorded strength measurements: ``docs/matches/<slug>.json``, each with its games' PGN beside it.

::

    from Util.whole_game_lab.match_records import read_match_records

    for record in read_match_records():          # docs/matches/*.json, oldest first
        record.opponent, record.tc, record.score_line(), record.interval_text()
        record.overheads()                        # {"ours": "100 ms", "opponent": "100 ms"}
        record.endings()                          # Counter({"checkmate": 31, "threefold repetition": 9, ...})

A record is what a match run with fastchess wrote down (keys ``date``, ``commit``, ``fastchess``,
``command``, ``tc``, ``openings``, ``engines`` with ``ours`` and ``opponent`` each ``name``, ``version``,
``options``, then ``games``, ``wins``, ``draws``, ``losses`` from our side, ``time_losses`` of each side,
``elo``, ``elo_low``, ``elo_high``, ``load`` and, for a level's calibration, ``level``).  How each game
ended is read from the PGN: the rules' ending (python-chess replays the moves) for a game fastchess ended
normally, else its ``Termination`` (time forfeit, adjudication, illegal move, abandoned).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import chess
import chess.pgn

from ..folders import REPO_ROOT

__all__ = ["MATCHES_DIR", "MatchRecord", "SETTLES_NOTHING_BELOW", "game_ending", "interval_text", "read_match_records"]

#: Where the measurements are kept.
MATCHES_DIR = REPO_ROOT / "docs" / "matches"
#: Fewer games than this settle nothing: 20 games give an interval of about ±150 Elo, two of ±1000 or none.
SETTLES_NOTHING_BELOW = 20
REQUIRED = ("date", "tc", "engines", "games", "wins", "draws", "losses")


def _signed(elo: float) -> str:
    return f"{round(elo) + 0:+d}"  # + 0: never "-0"


def interval_text(elo: Optional[float], low: Optional[float], high: Optional[float], games: int) -> str:
    """``+120 (95 %: +40 .. +210)``, the Elo difference and its 95 % interval; where one of them is not finite
    (a score of 0 or 100 %, or too few games for the interval to have ends) a sentence that says so instead of
    an infinite number, and below :data:`SETTLES_NOTHING_BELOW` games that so few settle nothing."""
    few = f"{games} game{'s' if games != 1 else ''} settle{'s' if games == 1 else ''} nothing"
    if elo is None or not math.isfinite(elo):
        return f"no finite estimate (a score of {'100' if elo and elo > 0 else '0'} %); {few}"
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return f"{_signed(elo)}, with a 95 % interval that has no end; {few}"
    text = f"{_signed(elo)} (95 %: {_signed(low)} .. {_signed(high)})"
    return text + (f"; {few}" if games < SETTLES_NOTHING_BELOW else "")


def _number(value: Any) -> Optional[float]:
    """A JSON number, or None for null or a text such as "inf" (JSON has no infinity)."""
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class MatchRecord:
    """One recorded match (see the module's docstring); ``data`` the JSON as written, ``path`` its file."""

    path: Path
    data: Dict[str, Any] = field(repr=False)

    @property
    def opponent(self) -> str:
        engine = self.data["engines"].get("opponent", {})
        return " ".join(str(part) for part in (engine.get("name", "?"), engine.get("version", "")) if part)

    @property
    def tc(self) -> str:
        return str(self.data["tc"])

    @property
    def games(self) -> int:
        return int(self.data["games"])

    def score_line(self) -> str:
        """``+W =D -L`` from our side."""
        return f"+{self.data['wins']} ={self.data['draws']} −{self.data['losses']}"

    def interval_text(self) -> str:
        return interval_text(_number(self.data.get("elo")), _number(self.data.get("elo_low")),
                             _number(self.data.get("elo_high")), self.games)

    def overheads(self) -> Dict[str, str]:
        """Each side's move overhead as recorded in its options (``Move Overhead``, any spelling), or
        "not recorded"."""
        found = {}
        for side in ("ours", "opponent"):
            options = self.data["engines"].get(side, {}).get("options", {}) or {}
            value = next((v for k, v in options.items() if k.replace(" ", "").lower() == "moveoverhead"), None)
            found[side] = f"{value} ms" if value is not None else "not recorded"
        return found

    def time_losses(self) -> Dict[str, int]:
        losses = self.data.get("time_losses") or {}
        return {side: int(losses.get(side, 0)) for side in ("ours", "opponent")}

    @property
    def pgn_path(self) -> Path:
        return self.path.with_suffix(".pgn")

    def endings(self) -> Counter:
        """How the games of the PGN beside the record ended (an empty Counter without a PGN)."""
        endings: Counter = Counter()
        if not self.pgn_path.is_file():
            return endings
        with open(self.pgn_path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                endings[game_ending(game)] += 1
        return endings


def game_ending(game: chess.pgn.Game) -> str:
    """How ``game`` ended: the rules' reason (checkmate, stalemate, repetition, fifty moves, insufficient
    material) when its ``Termination`` is "normal" or missing, else the ``Termination`` itself."""
    termination = game.headers.get("Termination", "normal").lower()
    if termination not in ("normal", ""):
        return termination
    outcome = game.end().board().outcome(claim_draw=True)
    if outcome is None:
        return "unfinished" if game.headers.get("Result", "*") == "*" else "agreed or adjudicated"
    return outcome.termination.name.lower().replace("_", " ")


def read_match_records(folder: Union[str, Path] = MATCHES_DIR) -> List[MatchRecord]:
    """Every ``*.json`` record of ``folder``, oldest first (by its ``date``); none if the folder does not
    exist.  ValueError naming the file for a record without one of the keys every record has."""
    folder = Path(folder)
    records = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        data = json.loads(path.read_text(encoding="utf-8"))
        missing = [key for key in REQUIRED if key not in data]
        if missing:
            raise ValueError(f"{path}: not a match record, it lacks {', '.join(missing)}")
        records.append(MatchRecord(path, data))
    return sorted(records, key=lambda record: (str(record.data["date"]), record.path.name))
