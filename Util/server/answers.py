"""What the tablebase server answers, as JSON-ready dicts, apart from any web framework.

The lichess-shaped answers (:func:`standard`, :func:`mainline`) follow lichess's tablebase API: a
position's ``category`` and ``dtm`` are for the side to move; each move's values are those of the
position after it, from the side then to move, so a winning move shows ``"category": "loss"``.  ``dtm``
is in signed plies as ``chess.gaviota`` gives it (+n: the side to move mates in n plies, -n: it is
mated in n, 0: a draw or already mated).  We have no DTZ: ``dtz`` and ``precise_dtz`` are null.

Bad input raises :class:`BadRequest` (the server's 400) with a sentence saying what was wrong and what
to do; a table not computed raises the tablebase's ``MissingTableError`` (the server's 404).
"""

from __future__ import annotations

import re
from typing import List, Optional

import chess

from ..board.material import Material, MaterialError, material_of_board
from ..board.random_boards import random_legal_board
from ..sequence import SnSequence
from ..tablebase import MAX_BOARD_PIECES
from ..play.outcomes import DRAW, LOSS, WIN
from ..play.verdicts import MoveOutcome, hardest_best_move, judge_move, move_comment
from ..play.random_starts import distances as table_distances, random_start
from ..play.zugzwang import is_mutual_zugzwang
from ..play.words import distances_line, ending_words, illegal_reasons, page_move_words, status_line

#: Longest FEN accepted: a legal six-piece FEN is under 60 characters.
MAX_FEN_LENGTH = 100
#: Longest mainline followed, in plies (the longest five-piece mate is far shorter).
MAX_MAINLINE = 1000
#: The range of ``min`` and ``max`` of a random start, in plies (the longest five-piece mate is far shorter).
MAX_PLIES = 1000
#: Random placements tried for a drawn start before saying there is none: each is a probe, so a table
#: with no draws for that side (KQRvK, White to move) costs one request this many probes (2,000: about a
#: second alone; 20,000 held a worker for 9-14 s alone and up to 92 s under the soak's load).
DRAW_TRIES = 2_000
#: The range of a random start's ``seed``: numpy's generator takes any whole number; 64 bits are plenty.
MAX_SEED = 2 ** 64 - 1
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,30}")
EXAMPLE_FEN = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"
_CATEGORY = {1: "win", 0: "draw", -1: "loss"}


class BadRequest(ValueError):
    """Input the server cannot answer; the message says what was wrong and what to do (HTTP 400)."""


def _fen_fields(text: Optional[str], example: str, longest: str) -> str:
    """A query's FEN with spaces for underscores; BadRequest if it is missing, over-long or has no side
    to move."""
    if text is None or not text.strip():
        raise BadRequest(f"no position: give one as ?fen=..., e.g. ?fen={example.replace(' ', '_')}")
    if len(text) > MAX_FEN_LENGTH:
        raise BadRequest(f"the FEN is {len(text)} characters long; {longest} needs fewer than {MAX_FEN_LENGTH}")
    text = text.strip().replace("_", " ")
    if len(text.split()) < 2:
        raise BadRequest(f"no side to move in {text!r}: add ' w' or ' b' after the board")
    return text


def _board(text: str) -> chess.Board:
    try:
        return chess.Board(text)
    except ValueError as error:
        raise BadRequest(f"not a valid FEN: {error}") from None


def _legal(board: chess.Board) -> chess.Board:
    status = board.status()
    if status != chess.STATUS_VALID:
        raise BadRequest(f"not a legal position: {illegal_reasons(status)}; no game can reach it")
    return board


def parse_fen(text: Optional[str]) -> chess.Board:
    """The board of a FEN as a query gives it (underscores may stand for spaces, as in lichess's links).

    Raises :class:`BadRequest` for a missing, over-long or malformed FEN, a position that is not legal or
    cannot arise in a game (python-chess's ``status()``: the side not to move in check, a check no move
    can give, a pawn on the back rank, an impossible en passant square), more than six pieces, or castling
    rights (the tables hold positions without them).  All of it before any table is looked up."""
    text = _fen_fields(text, EXAMPLE_FEN, "a FEN of up to six pieces")
    board = _board(text)  # a FEN that is not one is said so first, whatever its third field holds
    if board.castling_rights:
        raise BadRequest(f"castling rights {board.castling_xfen()!r}: the tables hold positions without castling; "
                         "write '-'")
    pieces = chess.popcount(board.occupied)
    if pieces > MAX_BOARD_PIECES:
        raise BadRequest(f"{pieces} pieces on the board: the tables hold positions of at most six pieces "
                         "(kings included)")
    return _legal(board)


def parse_any_fen(text: Optional[str]) -> chess.Board:
    """The board of any position a game can reach (any number of pieces, castling rights, en passant), as
    :func:`parse_fen` reads a query's FEN; :class:`BadRequest` saying why no game reaches it otherwise."""
    return _legal(_board(_fen_fields(text, chess.STARTING_FEN, "a FEN")))


def any_position(board: chess.Board) -> dict:
    """``GET /api/legal``: a legal position as python-chess writes it (``fen``: en passant only where a
    capture is possible), ``turn``, ``pieces`` (kings included), ``castling`` (``"KQkq"`` or ``"-"``), ``check``,
    ``legal_moves`` (how many), ``ending`` (:func:`ending`: how a game there is over, or null) and ``tables``:
    whether the tables could hold it (six pieces or fewer, no castling rights; ``/standard`` says whether
    its table is computed)."""
    castling = board.castling_xfen()
    return {"fen": board.fen(), "turn": "w" if board.turn == chess.WHITE else "b",
            "pieces": chess.popcount(board.occupied), "castling": castling, "check": board.is_check(),
            "legal_moves": board.legal_moves.count(), "ending": ending(board, None),
            "tables": chess.popcount(board.occupied) <= MAX_BOARD_PIECES and castling == "-"}


def parse_move(board: chess.Board, text: Optional[str]) -> chess.Move:
    """A legal move of ``board`` given in UCI (``e7e8q``) or SAN (``Qb7``); :class:`BadRequest` otherwise."""
    if not text or len(text) > 10:
        raise BadRequest("give the move as ?move=..., in UCI (e.g. a1b1) or SAN (e.g. Qb1)")
    legal = " ".join(board.san(m) for m in board.legal_moves) or "none (the game is over)"
    move = None
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        pass
    if move is None or move not in board.legal_moves:
        try:
            move = board.parse_san(text)
        except ValueError:
            raise BadRequest(f"move={text!r} is no legal move in this position; legal moves: {legal}") from None
    if not move:  # python-chess reads 0000, --, Z0 and @@@@ as the null move: passing, which chess has not
        raise BadRequest(f"move={text!r} is a null move (passing the turn), which is no legal move; legal moves: "
                         f"{legal}")
    return move


def parse_material(text: Optional[str]) -> Material:
    """A material such as ``KQvKR`` (either colour order); :class:`BadRequest` otherwise."""
    if not text or len(text) > 20:
        raise BadRequest("give the material as ?material=..., e.g. KQvKR")
    try:
        return Material.parse(text)
    except MaterialError as error:
        raise BadRequest(f"material={text!r}: {error}") from None


def parse_side(text: Optional[str], name: str = "side") -> chess.Color:
    """``w``/``white`` or ``b``/``black`` as a colour; anything else is a :class:`BadRequest`."""
    if text in ("w", "white"):
        return chess.WHITE
    if text in ("b", "black"):
        return chess.BLACK
    raise BadRequest(f"{name}={text[:20]!r}: use w or b")


def parse_int(text: Optional[str], name: str, default: Optional[int], low: int, high: int,
              unit: str = "") -> Optional[int]:
    """The query parameter ``name`` as a whole number (ASCII digits, a sign allowed) in ``low``..``high``,
    ``default`` where it is absent or empty; anything else is a :class:`BadRequest` naming the parameter
    and the range (``unit``, e.g. ``"plies"``, said after it)."""
    if text is None or text == "":
        return default
    wanted = f"give a whole number from {low} to {high}{' ' + unit if unit else ''}"
    if not _WHOLE_NUMBER.fullmatch(text):
        raise BadRequest(f"{name}={text[:40]!r} is not a whole number: {wanted}")
    value = int(text)
    if not low <= value <= high:
        raise BadRequest(f"{name}={value} is out of range: {wanted}")
    return value


# ---- lichess's answers -------------------------------------------------------------------------------------

def standard(tablebase, board: chess.Board) -> dict:
    """lichess's ``/standard`` answer for ``board``, each move with one field of ours beside lichess's:
    ``words``, the move for the side that plays it as the trainer page shows it
    (:func:`~Util.play.words.page_move_words`: ``"Win · mates in 3 (5 plies)"``)."""
    probes = tablebase.probe_moves(board)
    dtm = tablebase.probe_dtm(board)
    answer = _position_fields(board, dtm, wdl_of(board, dtm))
    answer["moves"] = [
        {"uci": p.move.uci(), "san": p.san, "zeroing": p.zeroing, "conversion": p.conversion,
         "category": _CATEGORY[p.wdl], "dtz": None, "precise_dtz": None, "dtm": p.dtm,
         "checkmate": p.checkmate, "stalemate": p.stalemate, "insufficient_material": p.insufficient_material,
         "words": page_move_words(_CATEGORY[p.wdl], p.dtm, p.checkmate, p.stalemate, p.insufficient_material)}
        for p in probes]
    return answer


def wdl_of(board: chess.Board, dtm: int) -> int:
    """1 win, 0 draw, -1 loss for the side to move, from its ``dtm`` (without probing again): a side
    checkmated has lost, as ``chess.gaviota.probe_wdl`` says."""
    if board.is_checkmate():
        return -1
    return (dtm > 0) - (dtm < 0)


def _position_fields(board: chess.Board, dtm: int, wdl: int) -> dict:
    return {"category": _CATEGORY[wdl], "dtz": None, "precise_dtz": None, "dtm": dtm,
            "checkmate": board.is_checkmate(), "stalemate": board.is_stalemate(),
            "insufficient_material": board.is_insufficient_material()}


def mainline(tablebase, board: chess.Board) -> dict:
    """lichess's ``/standard/mainline`` answer: the line to mate with best play on both sides (the mating
    side takes a fastest mate, the other a longest defence); empty for a draw.  ``winner`` is ``"w"``,
    ``"b"`` or null."""
    dtm = tablebase.probe_dtm(board)
    wdl = wdl_of(board, dtm)
    winner = None if wdl == 0 else ("w" if (board.turn == chess.WHITE) == (wdl > 0) else "b")
    line, board = [], board.copy(stack=False)
    while dtm != 0 and not board.is_game_over() and len(line) < MAX_MAINLINE:
        best = tablebase.probe_moves(board)[0]
        line.append({"uci": best.move.uci(), "san": best.san, "dtz": None, "precise_dtz": None, "dtm": best.dtm})
        board.push(best.move)
        dtm = best.dtm
    return {"dtz": None, "precise_dtz": None, "mainline": line, "winner": winner}


# ---- our own answers for the trainer -----------------------------------------------------------------------

def ending(board: chess.Board, you: Optional[chess.Color]) -> Optional[dict]:
    """How the game ended in ``board``, said to the person playing ``you`` (``"You won: checkmate"``,
    ``"Draw: stalemate"``) with the PGN ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``) and ``kind`` for
    that person (``win``, ``draw``, ``loss``); None while the game goes on.  Without ``you``, the winner
    is named."""
    text = ending_words(board, you)
    if text is None:
        return None
    if not board.is_checkmate():
        return {"text": text, "kind": "draw", "result": "1/2-1/2"}
    winner = not board.turn
    kind = "win" if you is None or you == winner else "loss"
    return {"text": text, "kind": kind, "result": "1-0" if winner == chess.WHITE else "0-1"}


def position(tablebase, board: chess.Board, you: Optional[chess.Color] = None) -> dict:
    """``/standard``'s answer plus what the page shows: the FEN, a status line in words, each move's FEN
    after it, whether the position is a mutual zugzwang, and ``ending`` (:func:`ending`, to the person
    playing ``you``)."""
    answer = standard(tablebase, board)
    answer["fen"] = board.fen()
    answer["check"] = board.is_check()
    answer["ending"] = ending(board, you)
    answer["status"] = status_line(board, answer["dtm"], {"win": 1, "draw": 0, "loss": -1}[answer["category"]])
    for entry in answer["moves"]:
        board.push_uci(entry["uci"])
        entry["fen"] = board.fen()
        board.pop()
    answer["mutual_zugzwang"] = zugzwang(tablebase, board)
    return answer


def _outcomes(probes) -> List[MoveOutcome]:
    """The tablebase's move probes as the trainer's outcomes for the mover (distances before the move)."""
    outcomes = []
    for p in probes:
        result = {1: LOSS, 0: DRAW, -1: WIN}[p.wdl]
        plies = None if result == DRAW else (1 if p.checkmate else abs(p.dtm) + 1)
        outcomes.append(MoveOutcome(p.move, p.san, result, plies))
    return outcomes


def verdict(tablebase, board: chess.Board, move: chess.Move) -> dict:
    """The verdict on ``move`` (legal in ``board``): whether it was a best move, a sentence naming a better
    one where there was one, the PGN comment with the distance after it, and the FEN after it."""
    outcomes = _outcomes(tablebase.probe_moves(board))
    judgement = judge_move(board, move, None, outcomes)
    played = next(o for o in outcomes if o.move == move)
    after = board.copy(stack=False)
    after.push(move)
    comment = move_comment(board, move, None, outcomes)
    return {"uci": move.uci(), "san": played.san, "best": judgement.best,
            "mistake": None if judgement.best else judgement.kind, "grade": judgement.grade,
            "result": {WIN: "win", DRAW: "draw", LOSS: "loss"}[played.result], "plies": played.plies,
            "verdict": judgement.sentence, "comment": comment if judgement.best else f"{judgement.label}. {comment}",
            "fen": after.fen()}


def reply(tablebase, board: chess.Board) -> dict:
    """The server's move in ``board`` (a best move that leaves the opponent the hardest task, see
    ``Util.play.verdicts.hardest_best_move``) with its verdict; BadRequest if the game is over."""
    if board.is_game_over():
        raise BadRequest("the game is over in this position: there is no move to reply")
    if chess.popcount(board.occupied) == 2:  # bare kings: no table, every move draws
        return verdict(tablebase, board, next(iter(board.legal_moves)))
    move = hardest_best_move(board, SnSequence.from_store(tablebase, material_of_board(board))).move
    return verdict(tablebase, board, move)


def zugzwang(tablebase, board: chess.Board) -> bool:
    """Whether the position is a mutual zugzwang (``Util.play.zugzwang.is_mutual_zugzwang``): White to move does
    worse for White than Black to move, both positions legal.  Two bare kings are none."""
    if chess.popcount(board.occupied) == 2:
        return False
    return is_mutual_zugzwang(board, SnSequence.from_store(tablebase, material_of_board(board)))


def distances(tablebase, material: Material, side: chess.Color) -> dict:
    """Which distances exist in ``material``'s table with ``side`` to move: ``win`` and ``loss`` are the
    sorted plies (win: the side to move mates in n; loss: it is mated in n), with how many boards each, and
    ``text``, the same as the page says it (:func:`~Util.play.words.distances_line`)."""
    swap = not material.is_canonical
    sequence = SnSequence.from_store(tablebase, material.canonical)
    found = table_distances(sequence, (side == chess.WHITE) != swap)
    win, loss = found["win"], found["loss"]
    return {"material": str(material), "side": "w" if side == chess.WHITE else "b",
            "win": [{"plies": n, "boards": c} for n, c in win.items()],
            "loss": [{"plies": n, "boards": c} for n, c in loss.items()],
            "text": distances_line(str(material), side, list(win), list(loss))}


def random_position(tablebase, material: Material, outcome: str, side: chess.Color, min_plies: int,
                    max_plies: Optional[int], seed: Optional[int]) -> dict:
    """A random position of ``material`` with ``side`` to move and ``outcome`` (win/draw/loss for it) in
    ``min_plies``..``max_plies`` plies (``Util.play.random_starts.random_start``); BadRequest when the table has none."""
    if outcome not in ("win", "draw", "loss"):
        raise BadRequest(f"outcome={outcome[:20]!r}: use win, draw or loss")
    if material.piece_count > MAX_BOARD_PIECES:
        raise BadRequest(f"material={material}: the tables hold at most six pieces")
    if max_plies is not None and max_plies < min_plies:
        raise BadRequest(f"min={min_plies} is more than max={max_plies}: give min <= max (plies)")
    if material.piece_count == 2:  # bare kings: no table, every placement a draw
        if outcome != "draw":
            raise BadRequest(f"material=KvK: two bare kings always draw; there is no {outcome}: ask for "
                             "outcome=draw, or another material")
        return {"fen": _bare_kings(side, seed).fen(), "material": str(material)}
    swap = not material.is_canonical
    sequence = SnSequence.from_store(tablebase, material.canonical)
    white_to_move = (side == chess.WHITE) != swap
    try:
        board = random_start(sequence, white_to_move=white_to_move, outcome=outcome, min_plies=min_plies,
                             max_plies=max_plies, seed=seed, draw_tries=DRAW_TRIES)
    except ValueError as error:
        raise BadRequest(str(error)) from None
    if swap:
        board = board.mirror()
    return {"fen": board.fen(), "material": str(material)}


def _bare_kings(side: chess.Color, seed: Optional[int]) -> chess.Board:
    """A random legal placement of the two kings with ``side`` to move (each placement equally likely)."""
    import numpy as np

    return random_legal_board("KvK", np.random.default_rng(seed), turn=side)
