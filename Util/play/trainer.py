"""What every move of a position leads to: hints, verdicts on a person's moves, mutual zugzwangs.

The tables know, for every position, who mates and in how many plies.  So
for every legal move they know its outcome for the side that plays it:

* :func:`move_outcomes`: each legal move with its outcome (win, draw or
  loss for the mover) and distance in plies, best first, as
  syzygy-tables.info lists them: the fastest win, then draws, then the
  longest defence;
* :func:`judge_move` / :func:`verdict`: what one move did compared with the
  best one: a best move, an inaccuracy (the same result, mate further away
  or sooner) or a mistake (a worse result), with the outcome before and
  after it in a player's words (:func:`outcome_words`: "White mates in 7 (14
  plies)"), each counted from its own position;
* :func:`distances` / :func:`start_refusal` / :func:`random_start`: which
  distances a table holds for a side to move, why a random start of a kind
  cannot be drawn, and a random start of the kind asked for;
* :func:`hardest_best_move`: the AI's move on either side (a best move, and
  among those the one that leaves the opponent the hardest task), used by
  the notebook game and the server;
* :func:`mutual_zugzwangs`: how many boards of a table are mutual
  zugzwangs, where the side to move does worse than if the other side were
  to move (KPvKP's key positions).

A move's distance (:class:`MoveOutcome`) counts from the position before the
move: "win: mates in 4 (7 plies)" means the mover mates 7 plies from now with
this move and best play afterwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Optional

import chess
import numpy as np

from ..table.values import UNKNOWN
from ..probing.block_table import BlockTable
from ..table.dtm_table import DtmTable
from ..sequence import SnSequence

#: Outcomes for the side that moves.
WIN, DRAW, LOSS = 1, 0, -1
_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True)
class MoveOutcome:
    """One legal move and where it leads, for the side that plays it."""

    move: chess.Move
    san: str
    result: int  # WIN, DRAW or LOSS for the mover
    plies: Optional[int]  # mate (win) or being mated (loss) in this many plies, counted before the move; None: draw

    @property
    def rank(self) -> tuple:
        """Sort key, best first: fast wins, then draws, then slow losses."""
        if self.result == WIN:
            return (0, self.plies)
        if self.result == DRAW:
            return (1, 0)
        return (2, -self.plies)

    def describe(self) -> str:
        """``"win: mates in 4 (7 plies)"``, ``"draw"`` or ``"loss: mated in 6 (12 plies)"`` (a mover's
        move counts as half a move: 7 plies are 4 moves)."""
        if self.result == DRAW:
            return "draw"
        count = moves_and_plies(self.plies)
        return f"win: mates in {count}" if self.result == WIN else f"loss: mated in {count}"


def moves_and_plies(plies: int) -> str:
    """``"29 (57 plies)"``: a distance in moves of the mating side (plies / 2, rounded up) and in plies."""
    return f"{math.ceil(plies / 2)} ({plies} {'ply' if plies == 1 else 'plies'})"


def outcome_words(turn: chess.Color, dtm: int, wdl: int) -> str:
    """A position's outcome as a player says it: ``"White mates in 29 (57 plies)"``, ``"Draw"``, ``"White
    has won: checkmate"``.  ``turn``: the side to move; ``dtm``: plies to mate (its sign is ignored);
    ``wdl``: 1 the side to move wins, 0 draw, -1 it loses."""
    if wdl == 0:
        return "Draw"
    plies = abs(dtm)
    if plies == 0:
        return f"{'White' if turn == chess.BLACK else 'Black'} has won: checkmate"
    winner = turn if wdl > 0 else not turn
    return f"{'White' if winner == chess.WHITE else 'Black'} mates in {moves_and_plies(plies)}"


def position_words(board: chess.Board, sequence: SnSequence) -> str:
    """:func:`outcome_words` of ``board`` by the table: ``"White mates in 7 (14 plies)"`` or ``"Draw"``."""
    result, plies = position_outcome(board, sequence)
    return outcome_words(board.turn, plies or 0, result)


def position_outcome(board: chess.Board, sequence: SnSequence) -> tuple:
    """``(result, plies)`` of the position for the side to move (plies None for a draw); a side already
    checkmated has lost in 0 plies."""
    value = sequence.value(board)
    if value < 0:
        return DRAW, None
    return (WIN if value % 2 == 1 else LOSS), value


def move_outcomes(board: chess.Board, sequence: SnSequence) -> List[MoveOutcome]:
    """Every legal move of ``board`` with its outcome for the side to move, best first (ties in
    python-chess's move order).  Captures and promotions are looked up in their tables through
    ``sequence``'s store."""
    outcomes = []
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        try:
            if board.is_checkmate():
                result, plies = WIN, 1
            else:
                child_result, child_plies = position_outcome(board, sequence)
                result = -child_result
                plies = None if child_plies is None else child_plies + 1
        finally:
            board.pop()
        outcomes.append(MoveOutcome(move, san, result, plies))
    return sorted(outcomes, key=lambda o: o.rank)


def verdict(board: chess.Board, move: chess.Move, sequence: SnSequence) -> str:
    """What ``move`` (legal in ``board``) did, in a sentence (see :func:`judge_move`)."""
    return judge_move(board, move, sequence).sentence


#: The kinds of a person's move (:attr:`Judgement.kind`): a best move; one that keeps the result but
#: only delays mate (or hastens being mated); one that worsens the result (win -> draw or loss,
#: draw -> loss).
BEST, SLOWER, WORSE = "best", "slower", "result"
#: A move that keeps the result but gives away this many plies or more (mate delayed, or hastened for the
#: defender) is a "mistake", one that gives away fewer an "inaccuracy"; a worse result is a "blunder".
#: Ten plies are five moves of the mating side: a slip of a move or two is an inaccuracy, hanging a piece
#: (KQvKR's rook left en prise hastens mate by tens of plies) a mistake.
MISTAKE_PLIES = 10
#: The grades of a move (:attr:`Judgement.grade`), from best to worst.
GRADES = ("best", "inaccuracy", "mistake", "blunder")
#: The colour each grade is shown in (green, orange, deep orange, red), always with its words beside it.
GRADE_COLOURS = {"best": "#1a7f37", "inaccuracy": "#c76a00", "mistake": "#d84315", "blunder": "#c62828"}
#: The mark a move list puts after a move of that grade, as chess annotators (and lichess) do.
GRADE_MARKS = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True)
class Judgement:
    """What one move did: its ``kind`` (:data:`BEST`, :data:`SLOWER` or :data:`WORSE`), a ``label`` in
    words (``"best move"``, ``"inaccuracy: only delays mate, by 2 plies"``, ``"mistake: hastens mate, by 40
    plies"``, ``"blunder: turns the win into a draw"``; :data:`MISTAKE_PLIES` draws the line),
    the position's outcome ``before`` the move and ``after`` it (each counted from its own position, as
    the status line counts), and the whole ``sentence``."""

    san: str
    kind: str
    label: str
    before: str
    after: str
    best_san: str
    best_after: str

    @property
    def best(self) -> bool:
        return self.kind == BEST

    @property
    def colour(self) -> str:
        return GRADE_COLOURS[self.grade]

    @property
    def grade(self) -> str:
        """``"best"``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` (the label's first word)."""
        return "best" if self.kind == BEST else self.label.split(":")[0]

    @property
    def sentence(self) -> str:
        """``"Kd7 — best move. Before it: White mates in 7 (14 plies); after it: White mates in 7 (13
        plies)."``; a worse move also names the best one and where it leads."""
        text = f"{self.san} — {self.label}. Before it: {_mid(self.before)}; after it: {_mid(self.after)}"
        if self.kind != BEST:
            text += f"; after {self.best_san} (best): {_mid(self.best_after)}"
        return text + "."


def _mid(words: str) -> str:
    """:func:`outcome_words` inside a sentence: ``"draw"`` for its ``"Draw"``."""
    return "draw" if words == "Draw" else words


def _after_words(mover: chess.Color, outcome: MoveOutcome) -> str:
    """The outcome of the position after ``outcome``'s move, counted from there (one ply fewer)."""
    plies = None if outcome.plies is None else outcome.plies - 1
    return outcome_words(not mover, plies or 0, -outcome.result)


def judge_move(board: chess.Board, move: chess.Move, sequence: Optional[SnSequence],
               outcomes: Optional[List[MoveOutcome]] = None) -> Judgement:
    """How ``move`` (legal in ``board``) compares with the best move (``outcomes``: :func:`move_outcomes`
    of ``board``, if already known; then ``sequence`` may be None)."""
    outcomes = outcomes or move_outcomes(board, sequence)
    best = outcomes[0]
    played = next(o for o in outcomes if o.move == move)
    mover = board.turn
    if played.rank == best.rank:
        kind, label = BEST, "best move"
    elif played.result < best.result:
        kind = WORSE
        if played.result == LOSS:
            label = f"blunder: turns the {_WORDS[best.result]} into a loss"
        else:
            label = "blunder: turns the win into a draw"
    else:
        kind, lost = SLOWER, abs(played.plies - best.plies)
        lost_text = f"{lost} {'ply' if lost == 1 else 'plies'}"
        grade = "mistake" if lost >= MISTAKE_PLIES else "inaccuracy"
        label = (f"{grade}: only delays mate, by {lost_text}" if played.result == WIN
                 else f"{grade}: hastens mate, by {lost_text}")
    before = outcome_words(mover, best.plies or 0, best.result)
    return Judgement(played.san, kind, label, before, _after_words(mover, played), best.san,
                     _after_words(mover, best))


def hardest_best_move(board: chess.Board, sequence: SnSequence) -> MoveOutcome:
    """The AI's choice on either side: a best move (the fastest mate, else a draw, else the longest
    defence) and among those the one that leaves the opponent the fewest replies keeping its own best
    result: the hardest task.  Ties go to python-chess's first move.

    In a draw the fight goes on as long as the opponent can still go wrong: first come moves that
    let no drawing reply leave the AI without mating material (no offered trade into a dead draw),
    then moves that repeat no earlier position of the game, then the fewest drawing replies."""
    outcomes = move_outcomes(board, sequence)
    best = [o for o in outcomes if o.rank == outcomes[0].rank]
    if len(best) == 1:
        return best[0]
    mover = board.turn

    def difficulty(outcome: MoveOutcome) -> tuple:
        board.push(outcome.move)
        try:
            replies = move_outcomes(board, sequence)
            good = [r for r in replies if r.rank == replies[0].rank]
            if outcome.result != DRAW:
                return (len(good),)
            return (any(_leaves_no_mating_material(board, r.move, mover) for r in good),
                    board.is_repetition(2), len(good))
        finally:
            board.pop()

    return min(best, key=difficulty)


def _leaves_no_mating_material(board: chess.Board, move: chess.Move, side: chess.Color) -> bool:
    board.push(move)
    try:
        return board.has_insufficient_material(side)
    finally:
        board.pop()


def _result_for_white(dtm: np.ndarray, white_to_move: bool) -> np.ndarray:
    """+1 where White wins, -1 where it loses, 0 for a draw (or no legal position), from one DTM array."""
    value = dtm.astype(np.int16)
    mover_wins = np.where(value == UNKNOWN, 0, np.where(value % 2 == 1, 1, -1))
    return mover_wins if white_to_move else -mover_wins


def _zugzwang_entries(table: DtmTable, chunk: int = 1 << 22):
    """Per chunk of the index: the entries whose placement is a mutual zugzwang (both sides to move legal,
    White to move worse for White than Black to move)."""
    from ..rules.legality import legality

    layout, letters = table.layout, table.material.letters
    for start in range(0, table.dtm_white.size, chunk):
        white = _result_for_white(table.dtm_white[start : start + chunk], True)
        black = _result_for_white(table.dtm_black[start : start + chunk], False)
        index = start + np.flatnonzero(white < black)
        if index.size:
            white_ok, black_ok = legality(letters, layout.decode(index))[:2]
            yield index[white_ok & black_ok]


def mutual_zugzwangs(table: DtmTable) -> int:
    """How many boards of ``table`` are mutual zugzwangs: White to move does worse for White than Black
    to move (a draw instead of a win, a loss instead of a draw or win), so whoever is to move would
    rather pass.  Both sides to move must be legal positions; counted in boards, as ``stats`` counts."""
    from ..calculation.boards import board_weights

    return sum(int(board_weights(table.layout, index).sum()) for index in _zugzwang_entries(table))


def mutual_zugzwang_positions(table: DtmTable) -> int:
    """How many stored positions of ``table`` are mutual zugzwangs: one per symmetry class (the white king
    on its canonical squares), where :func:`mutual_zugzwangs` counts every board, mirror images too."""
    return sum(int(index.size) for index in _zugzwang_entries(table))


def opposition_in_front_of_pawn(board: chess.Board) -> bool:
    """Whether ``board`` has White's king directly in front of a white pawn and Black's king two squares
    further up the same file (the kings in opposition in front of the pawn).  False without a white pawn."""
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    if white_king is None or black_king is None or chess.square_rank(white_king) > 5:
        return False
    return (black_king == white_king + 16
            and any(white_king == pawn + 8 for pawn in board.pieces(chess.PAWN, chess.WHITE)))


def mutual_zugzwang_examples(table: DtmTable, limit: int = 5) -> List[chess.Board]:
    """Up to ``limit`` mutual zugzwangs of ``table`` (White to move), in index order."""
    from ..board.integer import to_board
    from ..board.integer import encode_integers

    found: List[chess.Board] = []
    for index in _zugzwang_entries(table):
        squares = table.layout.decode(index[: limit - len(found)])
        for board_int in encode_integers(squares, True).tolist():
            found.append(to_board(board_int, table.material.piece_list))
        if len(found) >= limit:
            break
    return found


def is_mutual_zugzwang(board: chess.Board, sequence: SnSequence) -> bool:
    """Whether ``board``'s placement is a mutual zugzwang (see :func:`mutual_zugzwangs`): both sides to
    move legal, and White to move worse for White than Black to move."""
    other = board.copy(stack=False)
    other.turn = not board.turn
    other.ep_square = None
    if not (board.is_valid() and other.is_valid()):
        return False
    white, black = (board, other) if board.turn == chess.WHITE else (other, board)
    white_result = position_outcome(white, sequence)[0]
    black_result_for_white = -position_outcome(black, sequence)[0]
    return white_result < black_result_for_white


def move_comment(board: chess.Board, move: chess.Move, sequence: SnSequence,
                 outcomes: Optional[List[MoveOutcome]] = None) -> str:
    """A PGN comment for ``move`` (legal in ``board``): the outcome of the position after it, in the page's
    words (:func:`outcome_words`: ``"White mates in 12 (23 plies)"``, ``"Draw"``, ``"White has won:
    checkmate"``), and ``"; left the best line (Qb7 was better)"`` where a better move was there (a worse
    result, or the same one further from the best distance).  ``outcomes``: :func:`move_outcomes` of
    ``board``, if already known."""
    outcomes = outcomes or move_outcomes(board, sequence)
    played = next(o for o in outcomes if o.move == move)
    text = _after_words(board.turn, played)
    best = outcomes[0]
    if played.rank != best.rank:
        text += f"; left the best line ({best.san} was better)"
    return text


def random_start(sequence: SnSequence, *, white_to_move: bool = True, outcome: str = "win", min_plies: int = 1,
                 max_plies: Optional[int] = None, seed: Optional[int] = None,
                 draw_tries: int = 20_000) -> chess.Board:
    """A random position of ``sequence``'s table to practise from: the side to move (``white_to_move``)
    gets ``outcome`` (``"win"``, ``"draw"`` or ``"loss"``) with best play, for a win or loss in
    ``min_plies`` to ``max_plies`` plies.  Each S_n in the range is as likely as its size, and within it
    every board (from a table read whole) or every stored position, which stands for its mirror images
    too (from a file read block by block), equally likely; a draw is looked for among ``draw_tries``
    random placements (each a probe).  ValueError says when the table has no such position."""
    from ..board.integer import encode_integers, to_board

    rng = np.random.default_rng(seed)
    if outcome not in ("win", "draw", "loss"):
        raise ValueError(f"outcome is {outcome!r}; use 'win', 'draw' or 'loss'")
    side = "White" if white_to_move else "Black"
    if outcome == "draw":
        return _random_draw(sequence, white_to_move, rng, draw_tries)
    # the sets that hold them: a win for the side to move has odd n, a loss even n (n = 0 is mated already)
    mover_wins = outcome == "win"
    winner = chess.WHITE if (white_to_move == mover_wins) else chess.BLACK
    sets = sequence.for_winner(winner)
    high = max_plies if max_plies is not None else 10 ** 6
    counts = {n: c for n, c in sets.board_counts.items()
              if n % 2 == (1 if mover_wins else 0) and max(min_plies, 1) <= n <= high and c}
    if not counts:
        raise ValueError(f"{sequence.material}: no position where {side} to move {'mates' if mover_wins else 'is mated'} "
                         f"in {min_plies} to {max_plies or 'any number of'} plies")
    ns = sorted(counts)
    n = int(rng.choice(ns, p=np.array([counts[k] for k in ns], dtype=float) / sum(counts.values())))
    if isinstance(sequence.table, BlockTable):  # a random stored position, block by block: no side in memory
        squares = sequence.table.layout.decode(np.array([_random_entry(sequence.table, white_to_move, n, rng)]))
        return to_board(int(encode_integers(squares, white_to_move)[0]), sequence.piece_list)
    boards = np.fromiter(iter(sets[n]), dtype=np.int64)
    return to_board(int(rng.choice(boards)), sequence.piece_list)


def _random_entry(table: BlockTable, white_to_move: bool, n: int, rng) -> int:
    """The index of a random stored entry holding ``n``, found by decoding blocks in random order (without
    the cache) until one holds it: each block is decoded at most once, so a rare n costs one pass."""
    file = table.file
    side = 0 if white_to_move else 1
    for number in rng.permutation(file.blocks).tolist():
        found = np.flatnonzero(np.frombuffer(file.block(side, number), dtype=np.uint8) == n)
        if found.size:
            return number * file.block_entries + int(rng.choice(found))
    raise ValueError(f"{table.material}: no stored position holds n = {n}; the file's counts disagree with it")


def _random_draw(sequence: SnSequence, white_to_move: bool, rng, tries: int = 20_000) -> chess.Board:
    letters = sequence.material.letters
    for _ in range(tries):
        board = chess.Board(None)
        for square, letter in zip(rng.choice(64, size=len(letters), replace=False), letters):
            board.set_piece_at(int(square), chess.Piece.from_symbol(letter))
        board.turn = white_to_move
        if board.is_valid() and not board.is_game_over() and sequence.value(board) < 0:
            return board
    raise ValueError(f"{sequence.material}: found no drawn position with {'White' if white_to_move else 'Black'} "
                     f"to move in {tries} random tries")


def distances(sequence: SnSequence, white_to_move: bool) -> dict:
    """Which distances ``sequence``'s table holds with White (``white_to_move``) or Black to move:
    ``{"win": {plies: boards}, "loss": {plies: boards}}`` (win: the side to move mates in that many plies;
    loss: it is mated in that many, checkmated positions left out), from the table's counts, in
    increasing plies."""
    side = chess.WHITE if white_to_move else chess.BLACK
    mover, other = sequence.counts_by_winner[side], sequence.counts_by_winner[not side]
    return {"win": {n: c for n, c in sorted(mover.items()) if n % 2 == 1 and c},
            "loss": {n: c for n, c in sorted(other.items()) if n % 2 == 0 and n > 0 and c}}


def has_draws(sequence: SnSequence, white_to_move: bool, tries: int = 2_000) -> bool:
    """Whether a drawn position with that side to move was found among ``tries`` random placements (a
    fixed seed: the same answer each time).  True is certain; False means none was met."""
    try:
        _random_draw(sequence, white_to_move, np.random.default_rng(0), tries)
        return True
    except ValueError:
        return False


def _runs(values: List[int], step: int) -> List[str]:
    """Sorted ``values`` as runs in steps of ``step``: ``[1, 3, 5, 9]``, step 2 -> ``["1–5", "9"]``."""
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + step:
            j += 1
        parts.append(f"{values[i]}–{values[j]}" if j > i else f"{values[i]}")
        i = j + 1
    return parts


def plies_ranges(plies: List[int]) -> str:
    """``[1, 3, 5, 9]`` -> ``"1–5, 9"``: distances of one kind go in steps of two plies."""
    return ", ".join(_runs(plies, 2))


def moves_ranges(plies: List[int]) -> str:
    """``[2, 14, 16, 18]`` -> ``"1 or 7–9 moves"``: the distances in moves of the mating side (plies / 2,
    rounded up), gaps and all."""
    moves = sorted({math.ceil(p / 2) for p in plies})
    parts = _runs(moves, 1)
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    return f"{text} move{'' if moves == [1] else 's'}"


def distances_text(sequence: SnSequence, white_to_move: bool, draws: Optional[bool] = None) -> str:
    """What a random start of the table can give, as a player says it: ``"KQvK, White to move: White mates
    in 1–10 moves (1–19 plies); draws exist; Black never mates"``.  ``draws``: :func:`has_draws`, if known."""
    found = distances(sequence, white_to_move)
    mover, other = ("White", "Black") if white_to_move else ("Black", "White")
    parts = []
    for winner, plies in ((mover, list(found["win"])), (other, list(found["loss"]))):
        if plies:
            moves = moves_ranges(plies)
            parts.append(f"{winner} mates in {moves} ({plies_ranges(plies)} {'ply' if plies == [1] else 'plies'})")
    draws = has_draws(sequence, white_to_move) if draws is None else draws
    parts.append("draws exist" if draws else "no draw found")
    parts += [f"{winner} never mates" for winner, key in ((mover, "win"), (other, "loss")) if not found[key]]
    return f"{sequence.material}, {mover} to move: " + "; ".join(parts)


def start_refusal(sequence: SnSequence, white_to_move: bool, outcome: str, min_plies: int,
                  draws: Optional[bool] = None) -> Optional[str]:
    """Why :func:`random_start` can give no position for these choices, in one sentence with the distances
    that exist (``"No win for White to move in at least 400 plies: KQvK has them in 1–19 plies."``); None
    if it can.  ``outcome`` is for the side to move; ``min_plies`` is the chooser's "in at least (plies)"."""
    if outcome not in ("win", "draw", "loss"):
        return f"outcome is {outcome!r}; choose win, draw or loss"
    if min_plies < 0:
        return f"'in at least (plies)' is {min_plies}: give 0 or more."
    mover = "White" if white_to_move else "Black"
    if outcome == "draw":
        draws = has_draws(sequence, white_to_move) if draws is None else draws
        return None if draws else f"No drawn position found in {sequence.material} with {mover} to move: choose win or loss."
    plies = list(distances(sequence, white_to_move)[outcome])
    if not plies:
        return f"{mover} to move never gets a {outcome} in {sequence.material}: choose another outcome or side to move."
    if plies[-1] < max(min_plies, 1):
        return (f"No {outcome} for {mover} to move in at least {min_plies} plies: {sequence.material} has them in "
                f"{plies_ranges(plies)} plies.")
    return None
