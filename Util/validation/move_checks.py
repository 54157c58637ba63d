"""Checking S_n by playing the moves with python-chess (thesis chapter 7).

The engine never uses python-chess's move generator; these checks do, so
they test the tables independently of the code that made them:

* :func:`every_move_of_sequence_in_lower`: Black to move in S_n (n > 0):
  every legal move leads into some S_m with m < n; in S_0 Black is
  checkmated.  White to move in S_n: some legal move leads into a lower S_m.
* :func:`find_move_count` / :func:`check_boards_in_correct_sequence`: the
  longest forced line from a board is exactly n plies: White moves into a
  lower S_m and takes the quickest mate, Black plays any legal move and
  takes the slowest.  The thesis explored this game tree anew for every
  board; here every position's answer is remembered (a memo), so each
  position is expanded once and whole tables can be checked.

The first check is cheap and local; the second plays every line out to
mate.  Neither trusts the n the table gives a child, except to decide
which White moves go "lower".

Which boards are checked: by default one board per symmetry class (the
white king in the a1-d1-d4 triangle, or on files a-d with pawns; these
are the positions the table stores).  ``every_board=True`` checks every
board of S_n, mirror images included.  A capture or a promotion leads into
another material's table, taken from the sequence's store.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

import chess
import numpy as np

from ..board.integer import board_squares, encode_integers, integer_squares
from ..calculation.boards import boards_in_s_n
from ..board.material import Material, material_of_board
from ..table.dtm_table import DtmTable
from ..table.values import UNKNOWN
from ..sequence import SnSequence
from ..board.symmetry import TRANSFORMS

_PIECES = {c: chess.Piece.from_symbol(c) for c in "KkQRBNP"}
#: Memo marks: not yet known, and "Black can avoid mate" (a draw, a repetition or a position in no S_n).
NOT_DONE, ESCAPES = np.uint16(65535), np.uint16(65534)


@dataclass
class CheckResult:
    """Outcome of one check over the boards of one S_n."""

    check: str
    material: str
    n: int
    checked: int = 0
    offenders: List[Tuple[str, str]] = field(default_factory=list)  # (fen, what is wrong)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.offenders

    def line(self) -> str:
        verdict = "ok" if self.ok else f"{len(self.offenders)} WRONG, first: {self.offenders[0][1]} ({self.offenders[0][0]})"
        return f"{self.check} {self.material} S_{self.n}: {self.checked} boards checked, {verdict}"


# ---- which boards ----------------------------------------------------------------------------

def boards_to_check(sequence: SnSequence, n: int, every_board: bool = False,
                    sample: Optional[int] = None, seed: int = 0) -> np.ndarray:
    """Board integers of S_n to check: one per symmetry class (default) or every board.

    ``sample``: at most this many, drawn with ``seed`` (all if None).
    """
    table = sequence.table
    white_wins = sequence.winner == chess.WHITE
    if every_board:
        boards = boards_in_s_n(table, n, white_wins)
    else:
        boards = _representatives(table, n, white_wins)
    if sample is not None and sample < boards.size:
        rng = np.random.default_rng(seed)
        boards = np.sort(rng.choice(boards, size=sample, replace=False))
    return boards


def _representatives(table: DtmTable, n: int, white_wins: bool = True) -> np.ndarray:
    """The stored positions of S_n (in which White mates, or Black) as board integers (identical pieces
    once, in square order)."""
    white_to_move = (n % 2 == 1) == white_wins
    array = table.dtm_white if white_to_move else table.dtm_black
    index = np.flatnonzero(array == n)
    squares = table.layout.decode(index)
    keep = np.ones(index.shape, dtype=bool)
    for group in table.layout.identical_groups:
        for a, b in zip(group, group[1:]):
            keep &= squares[a] < squares[b]
    return encode_integers([s[keep] for s in squares], white_to_move)


# ---- successors ----------------------------------------------------------------------------

@dataclass
class _Successors:
    """The legal moves of one board and where each leads (children in python-chess's move order)."""

    moves: List[chess.Move]
    values: List[int]  # n of each child, -1 where it is in no S_n
    keys: List[Tuple[Material, bool, int]]  # (material, white to move, table index); index -1 if no table
    squares: List[List[int]]  # each child's squares in its PIECE_LIST order
    in_check: bool


class _Tables:
    """The sequence's own table and, through its store, those of captured and promoted material.

    Looks up single positions in plain Python: for one position at a time
    that is ten times faster than numpy's per-call overhead.
    """

    def __init__(self, sequence: SnSequence):
        self.sequence = sequence
        self.by_material: Dict[Material, Optional[DtmTable]] = {}
        self._index_data: Dict[Material, tuple] = {}
        self._add(sequence.material, sequence.table)

    def _add(self, material: Material, table: Optional[DtmTable]) -> None:
        self.by_material[material] = table
        if table is not None:
            layout = table.layout
            self._index_data[material] = (
                layout.fold.tolist(), TRANSFORMS.tolist(), layout.slot_of_square.tolist(),
                [int(x) for x in layout.strides], table.dtm_white, table.dtm_black,
            )

    def get(self, material: Material) -> Optional[DtmTable]:
        if material not in self.by_material:
            self._add(material, self.sequence.store.table(material) if material.white else None)
        return self.by_material[material]

    def look_up(self, material: Material, squares: List[int], white_to_move: bool) -> Tuple[int, int]:
        """(table index, n or -1) of one position; index -1 where the material has no table (a draw)."""
        if self.get(material) is None:
            return -1, -1
        fold, transforms, slot_of_square, strides, dtm_white, dtm_black = self._index_data[material]
        row = transforms[fold[squares[0]]]
        index = slot_of_square[row[squares[0]]] * strides[0]
        for square, stride in zip(squares[1:], strides[1:]):
            index += row[square] * stride
        value = int((dtm_white if white_to_move else dtm_black)[index])
        return index, (-1 if value == UNKNOWN else value)


def _board_of(material: Material, squares: List[int], white_to_move: bool) -> chess.Board:
    board = chess.Board(None)
    board.set_piece_map({sq: _PIECES[c] for sq, c in zip(squares, "Kk" + material.white)})
    board.turn = white_to_move
    return board


def successors(tables: _Tables, board: chess.Board, material: Optional[Material] = None,
               squares: Optional[List[int]] = None) -> _Successors:
    """Every legal move of ``board`` (python-chess) and the S_m its child lies in.

    ``material`` and ``squares`` (PIECE_LIST order) may be passed when known.
    A quiet move changes one square of the list; a capture or a promotion
    changes the material, so that child is read off the board instead.
    """
    if material is None:
        material = material_of_board(board)
        squares = board_squares(board, material.piece_list)
    where = {square: i for i, square in enumerate(squares)}
    child_white = not board.turn
    moves = list(board.legal_moves)
    values, keys, children = [], [], []
    for move in moves:
        if move.promotion or board.piece_at(move.to_square) is not None:
            board.push(move)
            child_material = material_of_board(board)
            child = board_squares(board, child_material.piece_list) if child_material.white else []
            board.pop()
        else:
            child_material, child = material, list(squares)
            child[where[move.from_square]] = move.to_square
        index, value = tables.look_up(child_material, child, child_white)
        values.append(value)
        keys.append((child_material, child_white, index))
        children.append(child)
    return _Successors(moves, values, keys, children, board.is_check())


# ---- check 1: every move leads lower -------------------------------------------------------

def _lower_verdict(n: int, white_to_move: bool, succ: _Successors, board: chess.Board) -> Optional[str]:
    """What is wrong with a board of S_n by the first check, or None."""
    if not succ.moves:
        if n == 0 and succ.in_check and not white_to_move:
            return None
        return "stalemate, but in S_%d" % n if not succ.in_check else f"checkmate, but in S_{n}"
    if n == 0:
        return "in S_0, but not checkmate"
    lower = [0 <= v < n for v in succ.values]
    if white_to_move:
        return None if any(lower) else f"White has no move into a lower S_m (best: {_best(succ.values)})"
    for move, value, ok in zip(succ.moves, succ.values, lower):
        if not ok:
            where = "no S_n" if value < 0 else f"S_{value}"
            return f"Black's {board.san(move)} leads into {where}, not below S_{n}"
    return None


def _best(values: List[int]) -> str:
    won = [v for v in values if v >= 0]
    return f"S_{min(won)}" if won else "no S_n"


def every_move_of_sequence_in_lower(sequence: SnSequence, n: int, boards: Optional[Iterable[int]] = None,
                                    progress=None) -> CheckResult:
    """The thesis's first check on the boards of S_n (all stored positions unless ``boards`` is given)."""
    tables = _Tables(sequence)
    result = CheckResult("every_move_of_sequence_in_lower", sequence.material.name, n)
    start = time.perf_counter()
    boards = boards_to_check(sequence, n) if boards is None else boards
    for board_int in boards:
        squares = integer_squares(int(board_int), sequence.material.piece_count)
        board = _board_of(sequence.material, squares, bool(board_int & 1))
        succ = successors(tables, board, sequence.material, squares)
        problem = _lower_verdict(n, board.turn == chess.WHITE, succ, board)
        result.checked += 1
        if problem:
            result.offenders.append((board.fen(), problem))
        if progress is not None:
            progress.update(1)
    result.seconds = time.perf_counter() - start
    return result


# ---- check 2: the longest line is exactly n ------------------------------------------------

class MoveCountMemo:
    """Longest forced line (plies) per position, for every table the lines pass through."""

    def __init__(self, sequence: SnSequence):
        self.tables = _Tables(sequence)
        self._arrays: Dict[Tuple[Material, bool], np.ndarray] = {}

    def array(self, material: Material, white_to_move: bool) -> np.ndarray:
        key = (material, white_to_move)
        if key not in self._arrays:
            table = self.tables.get(material)
            self._arrays[key] = np.full(table.layout.size, NOT_DONE, dtype=np.uint16)
        return self._arrays[key]

    def get(self, key: Tuple[Material, bool, int]) -> int:
        material, white_to_move, index = key
        return int(self.array(material, white_to_move)[index])

    def set(self, key: Tuple[Material, bool, int], value: int) -> None:
        material, white_to_move, index = key
        self.array(material, white_to_move)[index] = value


def _line_children(n: int, white_to_move: bool, succ: _Successors) -> Optional[List[int]]:
    """The children a forced line may go to; None if Black can avoid mate at once (or White has nowhere to go)."""
    if white_to_move:
        chosen = [i for i, v in enumerate(succ.values) if 0 <= v < n]
        return chosen or None  # no move into a lower S_m: White cannot keep its promise
    if not succ.moves:
        return [] if succ.in_check else None  # mate ends the line; stalemate is a draw
    if any(v < 0 for v in succ.values):
        return None  # a move into no S_n (a draw)
    return list(range(len(succ.moves)))


def find_move_count(board: chess.Board, sequence: SnSequence, memo: Optional[MoveCountMemo] = None) -> Optional[int]:
    """The longest forced line from ``board`` in plies: White moves into a lower S_m, choosing the
    quickest mate; Black plays any legal move, choosing the slowest.

    Only the S_m a White move leads to comes from the table (which moves
    White may consider); the length itself is found by playing the lines
    out to mate.  Returns None where Black can avoid mate (a stalemate, a
    move into no S_n, or a repetition).  ``memo`` keeps every position's
    answer; pass the same one to check many boards quickly.
    """
    memo = memo or MoveCountMemo(sequence)
    material = material_of_board(board)
    if memo.tables.get(material) is None:
        return None
    squares = board_squares(board, material.piece_list)
    index, _ = memo.tables.look_up(material, squares, board.turn == chess.WHITE)
    value = _solve(memo, (material, board.turn == chess.WHITE, index), board.copy(stack=False), squares)
    return None if value == ESCAPES else value


def _solve(memo: MoveCountMemo, root, root_board: chess.Board, root_squares: List[int]) -> int:
    """Depth-first minimax without recursion (lines can be long), memoising every position.

    A line that returns to a position still being solved is a repetition:
    White does not choose it, and Black escapes by it.  On a correct table
    this never happens (every move of a line lowers n); on a corrupted one
    it is one more way the check fails.
    """
    in_progress = set()
    stack = [(root, root_board, root_squares, None, None)]
    while stack:
        key, board, squares, succ, chosen = stack.pop()
        if memo.get(key) != NOT_DONE:
            continue
        white_to_move = key[1]
        if succ is None:
            n = _table_value(memo, key)
            succ = successors(memo.tables, board, key[0], squares)
            chosen = _line_children(n, white_to_move, succ) if n >= 0 else None
            if chosen is None:
                memo.set(key, ESCAPES)
                continue
        pending = [i for i in chosen if memo.get(succ.keys[i]) == NOT_DONE]
        looping = {i for i in pending if succ.keys[i] in in_progress}
        if looping and not white_to_move:
            memo.set(key, ESCAPES)
            in_progress.discard(key)
            continue
        chosen = [i for i in chosen if i not in looping]
        pending = [i for i in pending if i not in looping]
        if pending:
            in_progress.add(key)
            stack.append((key, board, squares, succ, chosen))
            for i in pending:
                child = board.copy(stack=False)
                child.push(succ.moves[i])
                stack.append((succ.keys[i], child, succ.squares[i], None, None))
            continue
        in_progress.discard(key)
        values = [memo.get(succ.keys[i]) for i in chosen]
        if white_to_move:
            finite = [v for v in values if v != ESCAPES]
            memo.set(key, 1 + min(finite) if finite else ESCAPES)
        else:
            memo.set(key, ESCAPES if ESCAPES in values else 1 + max(values, default=-1))
    return memo.get(root)


def _table_value(memo: MoveCountMemo, key) -> int:
    material, white_to_move, index = key
    table = memo.tables.get(material)
    value = int((table.dtm_white if white_to_move else table.dtm_black)[index])
    return -1 if value == UNKNOWN else value


def check_boards_in_correct_sequence(sequence: SnSequence, n: int, boards: Optional[Iterable[int]] = None,
                                     memo: Optional[MoveCountMemo] = None, progress=None) -> CheckResult:
    """The thesis's second check: for every board of S_n, :func:`find_move_count` is exactly n.

    Checking S_0, S_1, ... in order with one ``memo`` expands each position once.
    """
    memo = memo or MoveCountMemo(sequence)
    result = CheckResult("check_boards_in_correct_sequence", sequence.material.name, n)
    start = time.perf_counter()
    boards = boards_to_check(sequence, n) if boards is None else boards
    for board_int in boards:
        board = _board_of(sequence.material, integer_squares(int(board_int), sequence.material.piece_count),
                          bool(board_int & 1))
        count = find_move_count(board, sequence, memo)
        result.checked += 1
        if count != n:
            told = "Black can avoid mate" if count is None else f"the longest line has {count} plies"
            result.offenders.append((board.fen(), f"in S_{n}, but {told}"))
        if progress is not None:
            progress.update(1)
    result.seconds = time.perf_counter() - start
    return result


def check_every_s_n(check, sequence: SnSequence, *, every_board: bool = False, sample: Optional[int] = None,
                    seed: int = 0, progress: bool = True, up_to: Optional[int] = None) -> List[CheckResult]:
    """Run ``check`` (one of the two above) on S_0, S_1, ... in order, with one progress bar.

    ``sample``: at most this many boards per S_n.  ``up_to``: the last n
    checked (default: every S_n).  The move-count check shares one memo
    over all n, so each position is expanded once.
    """
    from ..runtime.progress import progress_bar

    count = len(sequence) if up_to is None else min(len(sequence), up_to + 1)
    boards = [boards_to_check(sequence, n, every_board, sample, seed + n) for n in range(count)]
    extra = {"memo": MoveCountMemo(sequence)} if check is check_boards_in_correct_sequence else {}
    bar = progress_bar(total=sum(b.size for b in boards), desc=f"{sequence.material} {check.__name__}",
               unit=" boards", disable=not progress, leave=False)
    try:
        return [check(sequence, n, boards[n], progress=bar, **extra) for n in range(count)]
    finally:
        bar.close()


def per_n(results: List[CheckResult]) -> Tuple[Dict[int, int], Dict[int, int]]:
    """``({n: boards checked}, {n: boards that passed})`` of a list of results, for plotting."""
    checked = {r.n: r.checked for r in results if r.checked}
    passed = {r.n: r.checked - len(r.offenders) for r in results if r.checked}
    return checked, passed


def totals(results: List[CheckResult]) -> Tuple[int, int]:
    """``(boards checked, boards found wrong)`` over a list of results."""
    return sum(r.checked for r in results), sum(len(r.offenders) for r in results)


def summary_line(results: List[CheckResult]) -> str:
    """One line for a check over all S_n: stored positions checked (one per set of mirror images), S_n,
    wrong ones, seconds, and positions per second to two significant figures (the machine's noise is larger)."""
    if not results:
        return "no S_n to check"
    checked = sum(r.checked for r in results)
    wrong = [r for r in results if not r.ok]
    seconds = sum(r.seconds for r in results)
    rate = checked / seconds if seconds else float("nan")
    first = f"; first: S_{wrong[0].n} {wrong[0].offenders[0][1]} ({wrong[0].offenders[0][0]})" if wrong else ""
    count = sum(len(r.offenders) for r in results)
    return (f"{results[0].check} {results[0].material}: {checked:,} stored positions in {len(results)} S_n, "
            f"{count:,} wrong; {seconds:.1f} s, about {float(f'{rate:.2g}'):,.0f} positions/s{first}")


def moves_and_their_s_m(sequence: SnSequence, board: chess.Board) -> List[Tuple[str, str]]:
    """Each legal move of ``board`` (SAN) and the S_m it leads into ("-" for none), for showing one board."""
    succ = successors(_Tables(sequence), board)
    return [(board.san(move), f"S_{value}" if value >= 0 else "-") for move, value in zip(succ.moves, succ.values)]
