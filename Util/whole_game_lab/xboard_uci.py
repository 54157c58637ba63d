"""An XBoard engine seen as a UCI engine, so that fastchess (which speaks UCI only) can play it.

::

    python -m Util.whole_game_lab.xboard_uci /usr/games/phalanx -b- -l-

The command after the module's name starts the XBoard engine (here Phalanx with its book and its
learning off); this program answers UCI on stdin and stdout and drives the engine through
python-chess's XBoard driver (:class:`chess.engine.SimpleEngine`).  ``position`` is remembered, and
``go wtime btime winc binc [movestogo]`` becomes one ``play`` with those clocks: python-chess sends
XBoard's ``level`` once a game (its increment as given, in seconds; an engine that reads it as a whole
number, as XBoard's protocol describes it, plans without the 0.1 s of 10+0.1 but still receives it on its
clock) and ``time``/``otim`` before every move, so the engine always knows both clocks.  ``go movetime``,
``depth`` and ``nodes`` map to XBoard's ``st``, ``sd`` and ``nps``.  The engine's thinking output, when
it posts any, becomes one ``info`` line before ``bestmove``.  ``ucinewgame`` starts a new game on the
engine; ``stop`` is answered by the move the engine plays (XBoard engines are not interrupted here).
"""

from __future__ import annotations

import logging
import sys
from typing import Dict, List, Optional, TextIO

import chess
import chess.engine

__all__ = ["XBoardAsUci", "main"]


class XBoardAsUci:
    """The UCI side of one XBoard engine started by ``command``; ``write`` receives each output line."""

    def __init__(self, command: List[str], write) -> None:
        self.command = command
        self.write = write
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.board = chess.Board()
        self.game = 0

    def open(self) -> chess.engine.SimpleEngine:
        if self.engine is None:
            self.engine = chess.engine.SimpleEngine.popen_xboard(self.command)
        return self.engine

    def handle(self, line: str) -> bool:
        """Answers one UCI line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "uci":
            name = self.open().id.get("name", self.command[0])
            self.write(f"id name {name}")
            self.write("id author (an XBoard engine driven by python-chess)")
            self.write("uciok")
        elif command == "isready":
            self.open()
            self.write("readyok")
        elif command == "ucinewgame":
            self.game += 1
        elif command == "position":
            self.board = position(rest)
        elif command == "go":
            self.go(go_numbers(rest))
        elif command == "quit":
            return False
        return True

    def go(self, numbers: Dict[str, int]) -> None:
        limit = chess.engine.Limit(
            white_clock=_seconds(numbers.get("wtime")), black_clock=_seconds(numbers.get("btime")),
            white_inc=_seconds(numbers.get("winc")), black_inc=_seconds(numbers.get("binc")),
            remaining_moves=numbers.get("movestogo"), time=_seconds(numbers.get("movetime")),
            depth=numbers.get("depth"), nodes=numbers.get("nodes"),
            clock_id=(self.game, numbers.get("winc"), numbers.get("binc")))
        result = self.open().play(self.board, limit, game=self.game, info=chess.engine.INFO_ALL)
        self.write(info_line(result.info))
        self.write(f"bestmove {result.move.uci() if result.move else '0000'}")


def position(words: List[str]) -> chess.Board:
    """The board of UCI's ``position startpos|fen FEN [moves ...]`` (ValueError if it is not one)."""
    moves_at = words.index("moves") if "moves" in words else len(words)
    board = chess.Board() if words[:1] == ["startpos"] else chess.Board(" ".join(words[1:moves_at]))
    for move in words[moves_at + 1:]:
        board.push_uci(move)
    return board


def go_numbers(words: List[str]) -> Dict[str, int]:
    """``go``'s named numbers (milliseconds for times)."""
    return {key: int(value) for key, value in zip(words, words[1:]) if value.lstrip("-").isdigit()}


def _seconds(milliseconds: Optional[int]) -> Optional[float]:
    return None if milliseconds is None else max(milliseconds, 0) / 1000


def info_line(info: Dict) -> str:
    """A UCI ``info`` line of python-chess's info from an XBoard post (what the engine said)."""
    parts = ["info", "depth", str(info.get("depth", 1))]
    score = info.get("score")
    if score is not None:
        pov = score.relative
        parts += ["score", f"mate {pov.mate()}" if pov.is_mate() else f"cp {pov.score()}"]
    if "nodes" in info:
        parts += ["nodes", str(info["nodes"])]
    if "time" in info:
        parts += ["time", str(int(info["time"] * 1000))]
    if info.get("pv"):
        parts += ["pv"] + [move.uci() for move in info["pv"]]
    return " ".join(parts)


def main(argv: Optional[List[str]] = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m Util.whole_game_lab.xboard_uci XBOARD-ENGINE [ARGS...]", file=sys.stderr)
        return 2

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    logging.getLogger("chess.engine").setLevel(logging.ERROR)  # an engine's chatter is not an error
    adapter = XBoardAsUci(argv, write)
    try:
        for line in stdin:
            if not adapter.handle(line):
                break
    finally:
        if adapter.engine is not None:
            adapter.engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
