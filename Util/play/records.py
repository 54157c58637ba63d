"""Game records (thesis chapter 5): the history files a game writes as it goes, and reading them back.

* :class:`GameHistory` writes the game as it goes: the thesis's
  ``Move-History_<date time>.txt`` (first line the start FEN, then
  ``N. <white uci> <black uci>`` per full move) and a PGN beside it.  Both
  are rewritten atomically after every move, so a crash loses nothing; a
  game the person never moved in leaves no file.
* :func:`read_history` reads either kind back for replaying,
  :func:`history_files` and :func:`describe_game` list the games to choose
  from; :func:`set_board` and :func:`get_moves_from_file` are the thesis's.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import re
import tempfile
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

import chess
import chess.pgn

from .outcomes import game_end
from .words import plies_text, termination_message
from ..board.material import MaterialError, material_of_board

__all__ = ["AI_NAME", "PLAYER_NAME", "DEMONSTRATION_FOLDER", "DEMONSTRATION_PLAYER", "PlainMessage", "HistoryError",
           "history_text", "pgn_text", "GameHistory", "read_history", "set_board",
           "get_moves_from_file", "history_files", "describe_game", "replay_positions"]

AI_NAME = "Endgame AI (S_n tables)"
PLAYER_NAME = "Player"
#: The scripted demonstration games (the series run, the tests) go to this sub-folder of the games folder,
#: so a person's own games are not mixed with them.
DEMONSTRATION_FOLDER = "demonstration"
DEMONSTRATION_PLAYER = "Demonstration (best defence)"


class PlainMessage:
    """In a notebook, show only the message (it says what to change), not a traceback."""

    def _render_traceback_(self):
        return [f"{type(self).__name__}: {self}"]


class HistoryError(PlainMessage, ValueError):
    """A history file (``.txt`` or ``.pgn``) that cannot be read; the message names the file and the line."""


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, with the permissions a plain ``open`` gives
    (mkstemp's own are 0600: private, which a game record is not)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def history_text(board: chess.Board) -> str:
    """The thesis's history format: the start FEN, then ``N. <white uci> <black uci>`` per full move.

    A game that starts with Black to move has ``...`` in place of White's first move.
    """
    start = board.root()
    replay = start.copy(stack=False)
    rows: List[List[str]] = []
    row: Optional[List[str]] = None
    for move in board.move_stack:
        if replay.turn == chess.WHITE:
            row = [f"{replay.fullmove_number}.", move.uci()]
            rows.append(row)
        else:
            if row is None:  # the game started with Black to move
                row = [f"{replay.fullmove_number}.", "..."]
                rows.append(row)
            row.append(move.uci())
            row = None
        replay.push(move)
    return "\n".join([start.fen()] + [" ".join(r) for r in rows]) + "\n"


def pgn_text(board: chess.Board, white: str = AI_NAME, black: str = PLAYER_NAME,
             date: Optional[_dt.datetime] = None, comments: Optional[List[str]] = None) -> str:
    """The game as PGN, with date, players, result and the start FEN; ``comments[k]`` (if given) after
    the k-th move, such as ``{White mates in 12 (23 plies)}``."""
    game = chess.pgn.Game.from_board(board)
    for node, comment in zip(game.mainline(), comments or []):
        node.comment = comment
    date = date or _dt.datetime.now()
    game.headers["Event"] = "Endgame against the AI"
    game.headers["Site"] = "Jupyter notebook 03_play_against_ai"
    game.headers["Date"] = date.strftime("%Y.%m.%d")
    game.headers["Time"] = date.strftime("%H:%M:%S")
    game.headers["White"], game.headers["Black"] = white, black
    game.headers["Result"] = board.result(claim_draw=True) if termination_message(board) else "*"
    return str(game) + "\n"


class GameHistory:
    """The history files of one game, rewritten after every move.

    No file exists until the first :meth:`record`: ``path`` and ``pgn_path``
    are None until then, so a game nobody moved in leaves nothing behind.
    """

    def __init__(self, start: chess.Board, games_dir: os.PathLike, player: str = PLAYER_NAME,
                 person: chess.Color = chess.BLACK):
        self.started = _dt.datetime.now()
        self.player = player
        self.person = person
        self.folder = Path(games_dir)
        self.path: Optional[Path] = None
        self.pgn_path: Optional[Path] = None

    @property
    def written(self) -> bool:
        """Whether the game has files (since its first recorded move)."""
        return self.path is not None

    def record(self, board: chess.Board, comments: Optional[List[str]] = None) -> None:
        """Write the game as it stands (the first call creates the two files); ``comments`` go into the
        PGN after the moves."""
        if self.path is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            stem = f"Move-History_{self.started:%Y-%m-%d %H_%M_%S}"
            path, k = self.folder / f"{stem}.txt", 1
            while path.exists() or path.with_suffix(".pgn").exists():  # two games in one second
                k += 1
                path = self.folder / f"{stem} ({k}).txt"
            self.path, self.pgn_path = path, path.with_suffix(".pgn")
        _atomic_write(self.path, history_text(board))
        white, black = (AI_NAME, self.player) if self.person == chess.BLACK else (self.player, AI_NAME)
        _atomic_write(self.pgn_path, pgn_text(board, white, black, self.started, comments))


def read_history(file_name: os.PathLike) -> Tuple[chess.Board, List[chess.Move]]:
    """The start position and the moves of a history file (thesis ``.txt`` or ``.pgn``).

    HistoryError names the file, the line and what is wrong.
    """
    path = Path(file_name)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise HistoryError(f"{path}: cannot be read ({error.strerror or error})") from None
    if path.suffix.lower() == ".pgn":
        return _read_pgn(path, text)
    return _read_txt(path, text)


def _read_txt(path: Path, text: str) -> Tuple[chess.Board, List[chess.Move]]:
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise HistoryError(f"{path}, line 1: empty; the first line must be the start position as FEN")
    try:
        board = chess.Board(lines[0].strip())
    except ValueError as error:
        raise HistoryError(f"{path}, line 1: not a FEN ({error})") from None
    start = board.copy()
    moves: List[chess.Move] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) < 2 or not re.fullmatch(r"\d+\.", parts[0]) or len(parts) > 3:
            raise HistoryError(f"{path}, line {number}: '{line}' is not 'N. <white move> <black move>'")
        if int(parts[0][:-1]) != board.fullmove_number:
            raise HistoryError(f"{path}, line {number}: move number {parts[0]} where {board.fullmove_number}. "
                               "was expected")
        for k, uci in enumerate(parts[1:]):
            if uci == "..." and k == 0 and board.turn == chess.BLACK and not moves:
                continue
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                raise HistoryError(f"{path}, line {number}: '{uci}' is not a move in UCI (like e7e6)") from None
            if move not in board.legal_moves:
                raise HistoryError(f"{path}, line {number}: {uci} is not legal in {board.fen()}")
            board.push(move)
            moves.append(move)
    return start, moves


def _read_pgn(path: Path, text: str) -> Tuple[chess.Board, List[chess.Move]]:
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise HistoryError(f"{path}: no game in this PGN file")
    if game.errors:
        raise HistoryError(f"{path}: {game.errors[0]}")
    return game.board(), list(game.mainline_moves())


def set_board(file_name: os.PathLike) -> chess.Board:
    """The thesis's ``set_board``: the start position of a history file."""
    return read_history(file_name)[0]


def get_moves_from_file(file_name: os.PathLike) -> List[chess.Move]:
    """The thesis's ``get_moves_from_file``: the moves of a history file, in order."""
    return read_history(file_name)[1]


def history_files(games_dir: os.PathLike = "Played_Games") -> List[Path]:
    """One file per game (the history ``.txt``, or the ``.pgn`` where there is no ``.txt``): the
    person's games in ``games_dir`` newest first, then the demonstration games (its sub-folder
    :data:`DEMONSTRATION_FOLDER`) newest first."""
    return _games_in(Path(games_dir)) + _games_in(Path(games_dir) / DEMONSTRATION_FOLDER)


def _games_in(folder: Path) -> List[Path]:
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir()
             if p.is_file() and p.suffix.lower() in (".txt", ".pgn") and not p.name.startswith(".")]
    stems = {p.with_suffix("") for p in files}
    games = [stem.with_suffix(".txt") if stem.with_suffix(".txt").exists() else stem.with_suffix(".pgn")
             for stem in stems]
    return sorted(games, key=lambda p: p.stat().st_mtime, reverse=True)


def describe_game(path: os.PathLike) -> str:
    """One line for choosing a game: when it was last played, its material, length and result.

    For example ``2026-11-23 18:40 · KQvK · 15 plies · 1-0 checkmate``; a
    demonstration game says so, and a file that cannot be read says that.
    """
    path = Path(path)
    when = _dt.datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    mark = " · demonstration" if path.parent.name == DEMONSTRATION_FOLDER else ""
    try:
        start, moves = read_history(path)
    except HistoryError:
        return f"{when} · {path.name} · cannot be read{mark}"
    try:
        material = material_of_board(start).name
    except MaterialError:
        material = "?"
    board = start.copy(stack=False)
    for move in moves:
        board.push(move)
    end = game_end(board)
    result = f"{board.result(claim_draw=True)} {end}" if end else "unfinished"
    return f"{when} · {material} · {plies_text(len(moves))} · {result}{mark}"


def replay_positions(start: chess.Board, moves: Iterable[chess.Move]) -> List[chess.Board]:
    """The position after each move (item 0: the start), for stepping through a game."""
    board = start.copy(stack=False)
    positions = [board.copy()]
    for move in moves:
        board.push(move)
        positions.append(board.copy())
    return positions


def marked_plies(pgn_path: os.PathLike, mark: str = "left the best line") -> List[Tuple[int, str, str]]:
    """``(ply, SAN, comment)`` of each move of a PGN game whose comment holds ``mark`` (the words a game of
    notebook 03 writes after a move that was not best)."""
    with open(pgn_path, encoding="utf-8") as handle:
        nodes = list(chess.pgn.read_game(handle).mainline())
    return [(ply, node.san(), node.comment) for ply, node in enumerate(nodes, 1) if mark in node.comment]
