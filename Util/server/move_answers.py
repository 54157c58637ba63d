"""What ``POST /api/move`` and ``GET /api/cloud-eval`` read and answer, without the server around them.

:func:`parse_move_request` checks a request's JSON (every error a :class:`BadMove` saying what was wrong);
:func:`answer_move` and :func:`answer_cloud_eval` run in a search process (:mod:`Util.server.search_pool`) with
a player of :mod:`Util.whole_game.player` and give the JSON answer.  Times in the JSON are milliseconds,
as UCI's and lichess's are; scores in ``/api/move`` are from the side to move (as UCI gives them), in
``/api/cloud-eval`` from White's side (as lichess's cloud evaluation gives them).
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import chess

__all__ = ["BadMove", "CLOUD_EVAL_SECONDS", "MAX_MULTIPV", "MoveRequest", "answer_cloud_eval", "answer_move",
           "board_of", "parse_cloud_eval", "parse_move_request", "strict_json"]

#: Milliseconds a clock may hold, and an increment (a day; ten minutes).
MAX_CLOCK_MS, MAX_INCREMENT_MS = 86_400_000, 600_000
#: Lines ``/api/cloud-eval`` gives at most (lichess's own limit is 5) and the seconds it thinks.
MAX_MULTIPV = 5
CLOUD_EVAL_SECONDS = 1.0
#: The longest body read, in bytes (a game of 300 moves needs under 2,500); reading stops beyond it.
MAX_BODY_BYTES = 16_384
#: How deep a body may nest arrays and objects (a move request nests two: the object and its list).
MAX_JSON_DEPTH = 4
#: Digits a JSON number may have (every field's range needs fewer than ten).
MAX_NUMBER_DIGITS = 24
FIELDS = ("fen", "moves", "level", "movetime", "wtime", "btime", "winc", "binc")


class BadMove(ValueError):
    """A request that cannot be answered as it stands (the server says 400 with this message)."""


@dataclass(frozen=True)
class MoveRequest:
    """A checked ``/api/move`` body: the start ``fen``, the UCI ``moves`` played from it, the ``level``
    (None: full strength) and the times in milliseconds (None where not given)."""

    fen: str
    moves: List[str] = field(default_factory=list)
    level: Optional[int] = None
    times: Dict[str, float] = field(default_factory=dict)


def _plain(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"


def _number(body: dict, name: str, low: float, high: float, whole: bool = False) -> Optional[float]:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (whole and value != int(value)):
        kind = "a whole number" if whole else "a number"
        raise BadMove(f"{name} must be {kind} from {_plain(low)} to {_plain(high)}, not {json.dumps(value)}")
    if not low <= value <= high:
        raise BadMove(f"{name} must be from {_plain(low)} to {_plain(high)}, not {_plain(value)}")
    return int(value) if whole else float(value)


def board_of(fen: Optional[str], moves: List[str] = ()) -> chess.Board:
    """The board of ``fen`` (None or "startpos": the start) after ``moves`` (UCI); BadMove naming a FEN that
    is not one or not legal (in the words of ``/standard``: why no game reaches it), or the first move that
    is not legal (a null move ``0000`` included: chess has no passing), and the position it was tried in."""
    from ..play.words import illegal_reasons

    if fen is None or fen == "startpos":
        board = chess.Board()
    else:
        if not isinstance(fen, str):
            raise BadMove(f"fen must be a FEN string, not {json.dumps(fen)[:60]}")
        try:
            board = chess.Board(fen.replace("_", " ").strip())
        except ValueError as error:
            raise BadMove(f"not a FEN '{fen[:100]}' ({error}); e.g. "
                          f"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            raise BadMove(f"FEN '{fen}' is not a legal position: {illegal_reasons(status)}; no game can reach it")
    for number, text in enumerate(moves):
        try:
            move = board.parse_uci(text)
        except ValueError:
            move = None
        if move is None or not move:  # python-chess reads 0000 as the null move, which passes the turn
            said = ("is a null move (passing the turn), which chess has not" if move is not None
                    else "is not a legal move")
            raise BadMove(f"moves[{number}] '{text[:20]}' {said} (UCI, e.g. e2e4) in {board.fen()}")
        board.push(move)
    return board


def _over(board: chess.Board) -> None:
    outcome = board.outcome()
    if outcome is not None:
        said = outcome.termination.name.lower().replace("_", " ")
        raise BadMove(f"the game is over ({said}, {outcome.result()}) in {board.fen()}: there is no move to make")


def _nesting(raw: bytes) -> int:
    """How deep ``raw`` nests arrays and objects (brackets inside strings left out); one pass, so that no
    text makes it slow."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # a backslash: the next byte is escaped
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _no_constant(name: str):
    raise BadMove(f"{name} is not a number JSON allows (RFC 8259 has no NaN or infinity): give a finite number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadMove(f"the number {text[:40]} is beyond the range of a double (about 1.8e308): give a number in "
                      "the field's range")
    return value


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise BadMove(f"a number of {digits} digits: at most {MAX_NUMBER_DIGITS} are read (every field's range "
                      "needs fewer than ten)")
    return int(text)


def strict_json(raw: bytes, example: str = '{"fen": "startpos", "moves": ["e2e4"], "level": 3}'):
    """The JSON value of ``raw`` as RFC 8259 has it: BadMove for a body over :data:`MAX_BODY_BYTES`, bytes that
    are no UTF-8, text that is no JSON, ``NaN``/``Infinity`` (Python's json reads them), a number beyond a
    double or of more than :data:`MAX_NUMBER_DIGITS` digits, or arrays and objects nested deeper than
    :data:`MAX_JSON_DEPTH`.  ``example``: a good body, for the messages."""
    if len(raw) > MAX_BODY_BYTES:
        raise BadMove(f"the body is more than {MAX_BODY_BYTES} bytes long; at most {MAX_BODY_BYTES} are read")
    depth = _nesting(raw)
    if depth > MAX_JSON_DEPTH:
        raise BadMove(f"the body nests arrays and objects {depth} levels deep; at most {MAX_JSON_DEPTH} are read "
                      f"(send e.g. {example})")
    try:
        return json.loads(raw.decode("utf-8") or "null", parse_constant=_no_constant, parse_float=_finite_float,
                          parse_int=_bounded_int)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadMove(f"the body is not JSON ({error}); send e.g. {example}") from None


def _moves_of(body: dict) -> List[str]:
    moves = body.get("moves")
    if moves is None:
        return []
    if isinstance(moves, str):
        return moves.split()
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadMove('moves must be a list of UCI moves (or one string of them, space-separated), e.g. '
                      f'["e2e4", "e7e5"], not {json.dumps(moves)[:60]}')
    return moves


def parse_move_request(raw: bytes, max_movetime_ms: float) -> MoveRequest:
    """The :class:`MoveRequest` of a POST body; BadMove for a body :func:`strict_json` refuses, one that is not
    an object, a field that is unknown or out of range (named, with its range), ``moves`` that are not a
    list of strings, a bad FEN, an illegal or null move, or a game that is over."""
    body = strict_json(raw)
    if not isinstance(body, dict):
        raise BadMove('the body must be a JSON object, e.g. {"fen": "startpos", "moves": ["e2e4"]}')
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise BadMove(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(u[:20] for u in unknown[:5])}; "
                      f"the fields are {', '.join(FIELDS)}")
    moves = _moves_of(body)
    from ..whole_game.levels import LEVELS

    level = _number(body, "level", 1, len(LEVELS), whole=True)
    times = {"movetime": _number(body, "movetime", 1, max_movetime_ms)}
    for name in ("wtime", "btime"):
        times[name] = _number(body, name, 0, MAX_CLOCK_MS)
    for name in ("winc", "binc"):
        times[name] = _number(body, name, 0, MAX_INCREMENT_MS)
    board = board_of(body.get("fen"), moves)
    _over(board)
    return MoveRequest(body.get("fen") or "startpos", list(moves), level,
                       {k: v for k, v in times.items() if v is not None})


def parse_cloud_eval(fen: Optional[str], multipv: Optional[str], movetime: Optional[str] = None) -> tuple:
    """(fen, multiPv, seconds) of ``/api/cloud-eval``'s query: ``movetime`` in ms (1 to
    :data:`CLOUD_EVAL_SECONDS` in ms; default that); BadMove saying what is wrong."""
    if not fen:
        raise BadMove("fen is missing: /api/cloud-eval?fen=FEN&multiPv=N")
    lines = _query_number(multipv, "multiPv", 1, MAX_MULTIPV, 1)
    longest = round(1000 * CLOUD_EVAL_SECONDS)
    milliseconds = _query_number(movetime, "movetime", 1, longest, longest)
    board = board_of(fen)
    _over(board)
    return board.fen(), lines, milliseconds / 1000


def _query_number(text: Optional[str], name: str, low: int, high: int, default: int) -> int:
    if text in (None, ""):
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise BadMove(f"{name} must be a whole number from {low} to {high}, not '{text[:20]}'")
    if not low <= int(text) <= high:
        raise BadMove(f"{name} must be from {low} to {high}, not {int(text)}")
    return int(text)


def _limits(request: MoveRequest, cap_seconds: float):
    from ..whole_game.search import Limits

    given = {k: v / 1000 for k, v in request.times.items()}
    clocked = "wtime" in given or "btime" in given
    if "movetime" in given:
        movetime = min(given["movetime"], cap_seconds)
    else:  # a clock decides within the cap; with neither, the player's usual second
        from ..whole_game.player import DEFAULT_MOVETIME

        movetime = cap_seconds if clocked else min(DEFAULT_MOVETIME, cap_seconds)
    return Limits(movetime=movetime, wtime=given.get("wtime"), btime=given.get("btime"), winc=given.get("winc"),
                  binc=given.get("binc"))


def _score(cp: Optional[int], mate: Optional[int]) -> Optional[dict]:
    if mate is not None:
        return {"mate": mate}
    return None if cp is None else {"cp": cp}


def answer_move(player, request: MoveRequest, cap_seconds: float, stop: Optional[threading.Event] = None,
                levels_rng=None) -> dict:
    """The JSON answer of ``/api/move``: the move of ``player`` (a Player) at the request's level, within its
    clock and ``cap_seconds``.  ``score`` is None for a book move."""
    from ..whole_game.levels import LevelPlayer, parse_level

    board = board_of(request.fen, request.moves)
    level = parse_level(request.level)
    limits = _limits(request, cap_seconds)
    if level.movetime is None or level.movetime > cap_seconds:
        level = type(level)(**{**level.__dict__, "movetime": cap_seconds})
    mover = LevelPlayer(player, level, rng=levels_rng)
    result = mover.get_move(board, limits, stop=stop)
    return {"uci": result.move.uci(), "san": board.san(result.move), "score": _score(result.score_cp, result.score_mate),
            "depth": result.depth, "pv": [m.uci() for m in result.pv], "nodes": result.nodes,
            "source": result.source, "level": level.number, "time": round(1000 * result.time)}


def _white(cp: Optional[int], mate: Optional[int], turn: chess.Color) -> dict:
    sign = 1 if turn == chess.WHITE else -1
    return {"mate": sign * mate} if mate is not None else {"cp": sign * (cp or 0)}


def _table_lines(player, board: chess.Board, lines: int) -> Optional[List[dict]]:
    """Every move's exact value from the tables, best first (None when no table holds the position)."""
    from ..tablebase import MissingTableError, PositionError
    from ..whole_game.endgame import in_table_range, mate_in_moves

    if player.tablebase is None or not in_table_range(board):
        return None
    try:
        probes = player.tablebase.probe_moves(board)
    except (MissingTableError, PositionError):
        return None
    found = []
    for probe in probes[:lines]:
        if probe.checkmate:
            dtm = 1
        elif probe.wdl < 0:
            dtm = -probe.dtm + 1
        elif probe.wdl == 0:
            dtm = 0
        else:
            dtm = -(probe.dtm + 1)
        mate = mate_in_moves(dtm) if dtm else None
        found.append({"moves": probe.move.uci(), **_white(0, mate, board.turn)})
    return found


def answer_cloud_eval(player, fen: str, lines: int, seconds: float = CLOUD_EVAL_SECONDS,
                      stop: Optional[threading.Event] = None) -> dict:
    """lichess's cloud-evaluation shape for ``fen``: ``{fen, knodes, depth, pvs: [{moves, cp|mate}]}``, cp
    from White's side.  One line: the search's.  Several: every root move searched after it
    (:func:`~Util.whole_game.root_moves.rank_root_moves_deepening`) a ply deeper each round while ``seconds`` last,
    the last complete round's best ``lines``.  At five pieces or fewer, the tables' exact values."""
    from ..whole_game.root_moves import rank_root_moves, rank_root_moves_deepening
    from ..whole_game.search import Limits

    board = board_of(fen)
    exact = _table_lines(player, board, lines)
    if exact is not None:
        return {"fen": board.fen(), "knodes": 0, "depth": 0, "pvs": exact, "source": "tablebase"}
    if lines == 1:
        result = player.get_move(board, Limits(movetime=seconds), stop=stop, use_book=False)
        pv = {"moves": " ".join(m.uci() for m in result.pv), **_white(result.score_cp, result.score_mate, board.turn)}
        return {"fen": board.fen(), "knodes": result.nodes // 1000, "depth": result.depth, "pvs": [pv],
                "source": "search"}
    halt = threading.Event()
    timer = threading.Timer(seconds, halt.set)
    timer.start()
    if stop is not None:
        watcher = threading.Thread(target=lambda: (stop.wait(seconds), halt.set()), daemon=True)
        watcher.start()
    try:
        best, searched, nodes = rank_root_moves_deepening(board, player.searcher, 59, stop=halt, seconds=seconds)
    finally:
        timer.cancel()
    if not best:  # not even one round within the time: the first round, unbounded in time
        best, searched = rank_root_moves(board, player.searcher, 1), 1
    depth = searched + 1
    pvs = [{"moves": " ".join(m.uci() for m in r.pv), **_white(r.cp, r.mate, board.turn)} for r in best[:lines]]
    return {"fen": board.fen(), "knodes": nodes // 1000, "depth": depth, "pvs": pvs, "source": "search"}
