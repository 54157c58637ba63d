"""Random starts to practise from, and which distances a table offers for them.

* :func:`random_start`: a random position of a table with the outcome and distance asked for, each S_n
  as likely as its size;
* :func:`distances` / :func:`distances_text` / :func:`has_draws`: which distances a table holds for a side
  to move, and whether it has draws;
* :func:`start_refusal`: why a random start of a kind cannot be drawn, in a sentence.
"""

from __future__ import annotations

from typing import Optional

import chess
import numpy as np

from ..board.random_boards import random_legal_board
from ..probing.block_table import BlockTable
from ..sequence import SnSequence
from .words import distances_sentence, plies_ranges

__all__ = ["random_start", "distances", "distances_text", "has_draws", "start_refusal"]


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
        found = np.flatnonzero(np.frombuffer(file.block(side, number), dtype=file.dtype) == n)
        if found.size:
            return number * file.block_entries + int(rng.choice(found))
    raise ValueError(f"{table.material}: no stored position holds n = {n}; the file's counts disagree with it")


def _random_draw(sequence: SnSequence, white_to_move: bool, rng, tries: int = 20_000) -> chess.Board:
    """A drawn position with that side to move, among ``tries`` random legal boards not over yet (each a
    probe); ValueError if none of them is a draw."""
    turn = chess.WHITE if white_to_move else chess.BLACK
    for _ in range(tries):
        board = random_legal_board(sequence.material, rng, turn=turn, playable=True)
        if sequence.value(board) < 0:
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


def distances_text(sequence: SnSequence, white_to_move: bool, draws: Optional[bool] = None) -> str:
    """What a random start of the table can give, as a player says it
    (:func:`~Util.play.words.distances_sentence`: ``"KQvK, White to move: White mates in 1–10 moves (1–19
    plies); draws exist; Black never mates"``).  ``draws``: :func:`has_draws`, if known."""
    draws = has_draws(sequence, white_to_move) if draws is None else draws
    return distances_sentence(str(sequence.material), white_to_move, distances(sequence, white_to_move), draws)


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
