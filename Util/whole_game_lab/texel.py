"""Texel's tuning of every linear weight of the evaluation at once, by gradient descent, on many positions
labelled by Stockfish's static evaluation::

    python -m Util.whole_game_lab.texel label GAMES.pgn ... --cache Tests/texel_positions.tsv
    python -m Util.whole_game_lab.texel lines --first 0 --count 4000 --cache Tests/texel_positions.tsv
    python -m Util.whole_game_lab.texel fit --cache Tests/texel_positions.tsv --keep-tables --out tuned.json

**Labels.**  ``lines`` has Stockfish play lines on from the shared openings (its moves drawn among its
best at a tiny budget, as :mod:`.tuning` does, seeded by the line's number) and keeps a quiet position
every other ply; ``label`` reads games (a match's PGN files) and keeps every quiet position (not in check, and
this engine's quiescence search returns its static evaluation: no capture changes it) from the
:data:`SKIP` th ply on, once each, and asks Debian's Stockfish 15.1 for its static evaluation of it (the
``eval`` command's "Final evaluation", NNUE and classical blended, in pawns from White's side); the label
is that score for the side to move as an expected score, ``1 / (1 + 10 ** (-cp / 400))``.  A static
evaluation costs Stockfish well under a millisecond, so a hundred thousand positions take minutes: the
fit learns to play Stockfish's evaluation back with this engine's terms.  The labels are kept in a
cache (TSV, as :mod:`.tuning`'s) so that a refit needs no Stockfish.

**The fit.**  With the factors at 1.0, the evaluation is linear in every base value but the king-attack
weights (their pressure is squared): a value moved by 24 centipawns moves the evaluation by a whole
number of centipawns (the phase blends in 24ths and the factors are percent), so each position's
coefficients are found exactly by evaluating it once per weight moved (:func:`coefficients`, kept
sparse).  Then the loss of :mod:`.tuning`, the mean squared error of ``expected_score(K * evaluation)``
against the labels (``K`` fitted to the starting weights first), is minimised over all those weights by
Adam (:func:`descend`); the weights are rounded to whole centipawns and written as JSON for
``WeightsFile`` / ``ours:weights=FILE``.  Lines of play (one game each) go whole to the training set or
the held-out fifth; both losses are printed.  ``--keep-tables`` leaves the piece-square tables (736 of the
799 weights) as they are: fitted on tens of thousands of positions from about two thousand lines, they
learn the training lines rather than chess, and the held-out loss shows it.
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import chess
import chess.pgn
import numpy as np
from numba import njit

from ..whole_game.evaluation import DEFAULT_WEIGHTS, Weights, parameters, weights_from_parameters, weights_to_json
from ..whole_game.evaluation import HAND_SET_WEIGHTS, read_weights
from ..whole_game.kernels import evaluation as k
from ..whole_game.kernels.evaluation import evaluate as evaluate_kernel
from ..whole_game.position import tables
from .match import default_openings_file, read_openings
from .tuning import (Labelled, PositionSet, QuietCheck, append_cache, expected_score, fit_k, loss, open_stockfish,
                     read_cache, sane_move)

__all__ = ["SKIP", "coefficients", "descend", "label_games", "label_lines", "stockfish_static", "tunable_indices"]

#: Plies of a game left out at its start (the opening file's and the first moves after it).
SKIP = 8
#: A weight is moved by this much to read its coefficient: 24ths of the phase times percent factors
#: make every change a whole number of centipawns.
PROBE = 24


def tunable_indices(tables: bool = True) -> np.ndarray:
    """The parameter array's indices the fit moves: every value the kernel uses linearly (not the factors,
    not the king-attack weights, not entries that are never read; not the piece-square tables unless
    ``tables``)."""
    unused = {k.VALUE_MG + 5, k.VALUE_EG + 5, k.MOBILITY_MG, k.MOBILITY_MG + 5, k.MOBILITY_EG, k.MOBILITY_EG + 5,
              k.HANGING + 5}
    # no passed pawn stands on the first or last rank
    for by_rank in (k.PASSED_MG, k.PASSED_EG, k.PASSED_ENEMY_KING, k.PASSED_OWN_KING):
        unused |= {by_rank, by_rank + 7}
    unused |= set(range(k.KING_ATTACK, k.KING_ATTACK + 6)) | set(range(k.FACTORS, k.FACTORS + 8))
    # pawns never stand on the first or last rank
    for phase in (k.PST_MG, k.PST_EG):
        unused |= {phase + square for square in list(range(8)) + list(range(56, 64))}
        if not tables:
            unused |= set(range(phase, phase + 384))
    return np.array([i for i in range(k.PARAMS_SIZE) if i not in unused], np.int64)


@njit(cache=True)
def _coefficients(bbs, sts, tables_, params, tunable, indptr, indices, data, base):
    work = params.copy()
    at = 0
    for n in range(bbs.shape[0]):
        here = evaluate_kernel(bbs[n], sts[n], tables_, work, 0)
        base[n] = here
        for j in range(len(tunable)):
            i = tunable[j]
            work[i] += PROBE
            moved = evaluate_kernel(bbs[n], sts[n], tables_, work, 0)
            work[i] -= PROBE
            if moved != here:
                if at < len(indices):
                    indices[at] = j
                    data[at] = (moved - here) / PROBE
                at += 1
        indptr[n + 1] = at
    return at


def coefficients(positions: PositionSet, weights: Weights, tunable: np.ndarray):
    """(base evaluations, indptr, indices, data): the evaluation of each position with ``weights`` and, in
    compressed rows, how much it moves per centipawn of each tunable weight (column j: ``tunable[j]``)."""
    n = len(positions)
    params = parameters(weights)
    capacity = 64 * n
    while True:
        indptr = np.zeros(n + 1, np.int64)
        indices = np.zeros(capacity, np.int32)
        data = np.zeros(capacity, np.float32)
        base = np.zeros(n, np.float64)
        used = _coefficients(positions.bbs, positions.sts, tables(), params, tunable, indptr, indices, data, base)
        if used <= capacity:
            return base, indptr, indices[:used], data[:used]
        capacity = used


@njit(cache=True)
def _products(indptr, indices, data, vector, out):
    for n in range(len(indptr) - 1):
        total = 0.0
        for at in range(indptr[n], indptr[n + 1]):
            total += data[at] * vector[indices[at]]
        out[n] = total


@njit(cache=True)
def _gradient(indptr, indices, data, weights_, out):
    out[:] = 0.0
    for n in range(len(indptr) - 1):
        w = weights_[n]
        for at in range(indptr[n], indptr[n + 1]):
            out[indices[at]] += data[at] * w


def descend(base, rows, labels, k_scale: float, columns: int, epochs: int = 400, rate: float = 1.0,
            progress: bool = True) -> np.ndarray:
    """The change of each tunable weight (centipawns) that minimises the Texel loss of ``base + rows @
    change`` against ``labels``: Adam, full batch, ``epochs`` steps of at most about ``rate``."""
    indptr, indices, data = rows
    change = np.zeros(columns)
    m, v = np.zeros(columns), np.zeros(columns)
    evaluation = np.zeros(len(base))
    gradient = np.zeros(columns)
    scale = k_scale * np.log(10) / 400
    for step in range(1, epochs + 1):
        _products(indptr, indices, data, change, evaluation)
        predicted = expected_score(k_scale * (base + evaluation))
        per_position = 2 * (predicted - labels) * predicted * (1 - predicted) * scale / len(base)
        _gradient(indptr, indices, data, per_position, gradient)
        m = 0.9 * m + 0.1 * gradient
        v = 0.999 * v + 0.001 * gradient ** 2
        change -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-12)
        if progress and (step % 50 == 0 or step == epochs):
            print(f"  step {step}: loss {float(np.mean((predicted - labels) ** 2)):.6f}", flush=True)
    return change


# -- labels ----------------------------------------------------------------------------------------------
class StockfishStatic:
    """Debian's Stockfish answering ``eval`` (its static evaluation) for one position at a time."""

    def __init__(self, program: str = "/usr/games/stockfish") -> None:
        self.process = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def __call__(self, board: chess.Board) -> float:
        """Centipawns for the side to move."""
        self.process.stdin.write(f"position fen {board.fen()}\neval\n")
        for line in self.process.stdout:
            if line.startswith("Final evaluation"):
                pawns = float(line.split()[2])
                return 100 * pawns if board.turn == chess.WHITE else -100 * pawns

    def close(self) -> None:
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait()


def stockfish_static(boards: Iterable[chess.Board]) -> Iterator[float]:
    sf = StockfishStatic()
    try:
        for board in boards:
            yield sf(board)
    finally:
        sf.close()


def open_text(path: Path):
    """A text file for reading, unpacked on the way when its name ends in ``.gz`` (a PGN kept packed)."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def label_games(paths: Sequence[Path], seen: set) -> Iterator[Labelled]:
    """Every quiet position of the games in ``paths`` from ply :data:`SKIP` on, not in ``seen`` (FENs
    without the move counters; each new one is added), labelled by Stockfish's static evaluation."""
    quiet = QuietCheck()
    sf = StockfishStatic()
    try:
        for path in paths:
            with open_text(path) as handle:
                number = 0
                while (game := chess.pgn.read_game(handle)) is not None:
                    number += 1
                    board = game.board()
                    for ply, move in enumerate(game.mainline_moves()):
                        key = " ".join(board.fen().split()[:4])
                        if ply >= SKIP and key not in seen and quiet(board):
                            seen.add(key)
                            cp = sf(board)
                            yield Labelled(board.fen(), float(expected_score(cp)), f"{path.name} game {number}",
                                           f"sf static cp {cp:.0f}")
                        board.push(move)
    finally:
        sf.close()


def label_lines(openings: Sequence[str], first: int, count: int, plies: int = 100, every: int = 2,
                seen: Optional[set] = None) -> Iterator[Labelled]:
    """Quiet positions of lines ``first .. first + count - 1`` played on from the openings by Stockfish
    (line n from opening ``n % len(openings)``, moves drawn as :func:`.tuning.sane_move` draws them, seeded
    by n), one every ``every`` plies, labelled by Stockfish's static evaluation; FENs in ``seen`` are
    skipped (and each new one added)."""
    seen = set() if seen is None else seen
    quiet = QuietCheck()
    player = open_stockfish()
    sf = StockfishStatic()
    try:
        for number in range(first, first + count):
            rng = random.Random(number)
            board = chess.Board(openings[number % len(openings)])
            for ply in range(plies):
                if board.is_game_over(claim_draw=True):
                    break
                key = " ".join(board.fen().split()[:4])
                if ply % every == 0 and key not in seen and quiet(board):
                    seen.add(key)
                    cp = sf(board)
                    yield Labelled(board.fen(), float(expected_score(cp)), f"line {number}", f"sf static cp {cp:.0f}")
                board.push(sane_move(player, board, rng))
    finally:
        sf.close()
        player.quit()


# -- the command ------------------------------------------------------------------------------------------
def fit(labelled: List[Labelled], start: Weights, epochs: int, rate: float, test_share: float = 0.2,
        tables: bool = True) -> Weights:
    """``start`` moved by :func:`descend` to fit the training four fifths of ``labelled`` (the piece-square
    tables too if ``tables``); prints the training and held-out losses before and after."""
    positions = PositionSet(labelled)
    train, test = positions.split(test_share)
    k_scale = fit_k(train.evaluations(start), train.labels)
    tunable = tunable_indices(tables)
    print(f"{len(train)} training and {len(test)} held-out positions; K = {k_scale:.4f}; "
          f"{len(tunable)} weights", flush=True)
    base, *rows = coefficients(train, start, tunable)
    change = descend(base, tuple(rows), train.labels, k_scale, len(tunable), epochs, rate)
    params = parameters(start)
    params[tunable] += np.round(change).astype(np.int64)
    fitted = weights_from_parameters(params)
    for name, part in (("training", train), ("held out", test)):
        print(f"  {name}: loss {loss(part.evaluations(start), part.labels, k_scale):.6f} -> "
              f"{loss(part.evaluations(fitted), part.labels, k_scale):.6f}")
    return fitted


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    label = commands.add_parser("label", help="label the quiet positions of games by Stockfish's static evaluation")
    label.add_argument("pgn", type=Path, nargs="+")
    label.add_argument("--cache", type=Path, required=True)
    lines = commands.add_parser("lines", help="label positions of lines Stockfish plays on from the openings")
    lines.add_argument("--first", type=int, default=0, help="the first line (default 0)")
    lines.add_argument("--count", type=int, default=1000, help="how many lines (default 1000)")
    lines.add_argument("--cache", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit every linear weight to the labelled positions")
    fitting.add_argument("--cache", type=Path, required=True)
    fitting.add_argument("--start", help="weights to start from: a JSON file, or hand-set for the values set by hand "
                                         "before the fit (default: the engine's own)")
    fitting.add_argument("--epochs", type=int, default=400)
    fitting.add_argument("--rate", type=float, default=1.0, help="Adam's step, centipawns (default 1)")
    fitting.add_argument("--keep-tables", action="store_true",
                         help="leave the piece-square tables as they are (they overfit: see the module's text)")
    fitting.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "label":
        seen = {" ".join(item.fen.split()[:4]) for item in read_cache(args.cache)}
        count = append_cache(args.cache, label_games(args.pgn, seen))
        print(f"{count} positions labelled; {len(seen)} in {args.cache}")
        return
    if args.command == "lines":
        seen = {" ".join(item.fen.split()[:4]) for item in read_cache(args.cache)}
        openings = read_openings(default_openings_file())
        count = append_cache(args.cache, label_lines(openings, args.first, args.count, seen=seen))
        print(f"{count} positions labelled; {len(seen)} in {args.cache}")
        return
    labelled = [item for item in read_cache(args.cache) if item.source.startswith("sf static")]
    if len(labelled) < 100:
        parser.error(f"{args.cache}: {len(labelled)} positions labelled by the static evaluation; label more")
    start = (DEFAULT_WEIGHTS if not args.start else HAND_SET_WEIGHTS if args.start == "hand-set"
             else read_weights(args.start))
    weights = fit(labelled, start, args.epochs, args.rate, tables=not args.keep_tables)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(weights_to_json(weights) + "\n")
    print(f"weights written to {args.out}")


if __name__ == "__main__":
    main()
