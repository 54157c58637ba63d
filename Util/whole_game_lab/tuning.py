"""Texel's method for the evaluation's weights: quiet positions labelled with an expected score, and the
weights that make ``sigmoid(K * evaluation)`` fit those labels best (least mean squared error)::

    python -m Util.whole_game_lab.tuning [--positions 6000] [--depth 8] [--pgn GAMES.pgn ...]
                                     [--labels stockfish|results|all] [--params factors|values|all]
                                     [--cache Tests/tuning_positions.tsv] [--out tuned.json]

**Labelled positions.**  Each of the shared openings (``openings_chessathome.fen`` of ``$SUITES_PATH``)
is played forward by Stockfish at a tiny node budget, a move drawn at random among its three best that
are within :data:`SANE_CP` of the best, so that the positions differ from game to game but stay
plausible.  Every few plies a position is kept when it is quiet (not in check, and this engine's
quiescence search scores it as its static evaluation: no capture changes it) and labelled with
Stockfish's score at ``--depth`` for the side to move, as the expected score
``1 / (1 + 10 ** (-cp / 400))``; positions Stockfish sees a mate in are left out (no evaluation reaches
them).  With ``--pgn``, positions of those games are labelled with the game's result instead (1, 0.5, 0
for the side to move).  The labelled set is cached (``--cache``, appended as it grows; ``Tests/`` is
not in git) so that a refit is instant; ``--positions`` more are labelled only when the cache has fewer.

**The fit.**  First the scale ``K`` that fits the labels best with the default weights, then, with ``K``
kept, Texel's coordinate descent over ``--params``: each parameter in turn is moved one step up, else one
step down, while the loss falls; when a whole pass changes nothing the steps are halved, down to the
smallest step (0.01 for a factor, 1 centipawn for a value).  All positions are evaluated in one compiled
call per trial.  The positions are split by opening (a whole line to one side) into a training set and a
held-out test set (``--test-share``); the losses before and after on both are printed, the weights that
changed, and the weights are written as JSON (``--out``), which ``python -m Util match
ours:weights=FILE`` and the UCI option ``WeightsFile`` load.

Needs Debian's ``stockfish`` to label (not for a refit from the cache).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import chess
import chess.engine
import chess.pgn
import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..whole_game.evaluation import DEFAULT_WEIGHTS, Weights, parameters, weights_to_json
from ..whole_game.kernels.evaluation import PARAMS_SIZE
from ..whole_game.kernels.evaluation import evaluate as evaluate_kernel
from ..whole_game.kernels.position import SIDE
from ..whole_game.kernels.search import INFINITE, quiesce
from ..whole_game.kernels.work import FEATURE_NAMES, FEATURES, PARAMS, work_size
from ..whole_game.position import tables, to_arrays

__all__ = ["FACTOR_NAMES", "Labelled", "PositionSet", "expected_score", "fit", "fit_k", "label_openings",
           "label_pgn", "loss", "read_cache", "tunable_names", "with_value"]

DEFAULT_CACHE = Path("Tests") / "tuning_positions.tsv"
#: A sampled move is at most this many centipawns worse than Stockfish's best at the tiny budget.
SANE_CP = 60
SAMPLE_NODES = 300
#: Plies played from each opening, and every how many plies (at random, in this range) a position is kept.
LINE_PLIES, KEEP_EVERY = 60, (4, 9)
FACTOR_NAMES = ("material", "attacked_pieces", "positions_own", "positions_opponent", "king_safety_own",
                "king_safety_opponent", "mobility", "pawn_structure")
#: The bitboards (pieces, men by colour, all) and the side to move: all the static evaluation reads.
BB_USED, ST_USED = 16, 8


def expected_score(cp) -> np.ndarray:
    """The expected score (0..1) of an advantage of ``cp`` centipawns: 1 / (1 + 10^(-cp/400))."""
    return 1.0 / (1.0 + np.power(10.0, -np.asarray(cp, np.float64) / 400.0))


@dataclass(frozen=True)
class Labelled:
    """A position (FEN), its expected score for the side to move (0..1), the line it comes from (the
    train/test split keeps a line together) and how it was labelled (``sf d8 cp 35``, ``result 1-0``)."""
    fen: str
    label: float
    group: str
    source: str


# -- quiet positions ------------------------------------------------------------------------------------
class QuietCheck:
    """Whether a position is quiet for this engine: not in check, and its quiescence search (default
    weights) returns its static evaluation."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.work = np.zeros(work_size(PARAMS_SIZE), np.int64)
        self.work[PARAMS:] = parameters(weights)
        self.work[FEATURES:FEATURES + len(FEATURE_NAMES)] = 1

    def __call__(self, board: chess.Board) -> bool:
        if board.is_check() or board.is_game_over(claim_draw=False):
            return False
        a = to_arrays(board, history=False)
        static = evaluate_kernel(a.bb, a.st, tables(), self.work, PARAMS)
        return quiesce(a.bb, a.st, tables(), self.work, -INFINITE, INFINITE, 0) == static


# -- labelling --------------------------------------------------------------------------------------------
def open_stockfish() -> chess.engine.SimpleEngine:
    """Debian's Stockfish, one thread (FileNotFoundError saying what to install when it is missing)."""
    from .opponents import engine_spec, open_engine

    return open_engine(engine_spec("stockfish"))


def sane_move(engine: chess.engine.SimpleEngine, board: chess.Board, rng: random.Random) -> chess.Move:
    """One of Stockfish's three best moves at :data:`SAMPLE_NODES` nodes, at random among those within
    :data:`SANE_CP` of the best."""
    infos = engine.analyse(board, chess.engine.Limit(nodes=SAMPLE_NODES), multipv=3, game=board)
    scored = [(info["score"].relative.score(mate_score=100_000), info["pv"][0]) for info in infos if info.get("pv")]
    best = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score >= best - SANE_CP])


def stockfish_label(engine: chess.engine.SimpleEngine, board: chess.Board, depth: int) -> Optional[Tuple[float, str]]:
    """(expected score for the side to move, source) of Stockfish at ``depth``; None when it sees a mate."""
    score = engine.analyse(board, chess.engine.Limit(depth=depth))["score"].relative
    if score.is_mate():
        return None
    return float(expected_score(score.score())), f"sf d{depth} cp {score.score()}"


def label_line(engine, fen: str, number: int, depth: int, quiet: QuietCheck,
               line_plies: int = LINE_PLIES, keep_every: Tuple[int, int] = KEEP_EVERY) -> Iterator[Labelled]:
    """The labelled quiet positions of one line played from opening ``fen`` (number ``number``, which also
    seeds the line's random choices, so that a line is the same each time): ``line_plies`` plies, a
    position kept every ``keep_every`` plies (a range drawn from)."""
    rng = random.Random(number)
    board = chess.Board(fen)
    keep_at = rng.randint(0, keep_every[1])
    for ply in range(line_plies):
        if board.is_game_over(claim_draw=True):
            return
        if ply >= keep_at and quiet(board):
            labelled = stockfish_label(engine, board, depth)
            if labelled is not None:
                yield Labelled(board.fen(), labelled[0], f"opening {number}", labelled[1])
            keep_at = ply + rng.randint(*keep_every)
        board.push(sane_move(engine, board, rng))


def label_openings(openings: Sequence[str], count: int, depth: int, first: int = 0,
                   engine: Optional[chess.engine.SimpleEngine] = None, line_plies: int = LINE_PLIES,
                   keep_every: Tuple[int, int] = KEEP_EVERY) -> Iterator[Labelled]:
    """``count`` labelled positions from the lines numbered ``first`` on: line n is played from opening
    ``n % len(openings)`` with the random choices of seed n, so that the openings are played again (other
    lines) once each has been played."""
    own = engine is None
    engine = engine or open_stockfish()
    quiet = QuietCheck()
    made = 0
    try:
        with tqdm(total=count, desc="labelling", unit="position") as bar:
            for number in itertools.count(first):
                for labelled in label_line(engine, openings[number % len(openings)], number, depth, quiet,
                                           line_plies, keep_every):
                    yield labelled
                    made += 1
                    bar.update()
                    if made >= count:
                        return
    finally:
        if own:
            engine.quit()


RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def label_pgn(paths: Iterable[Path], every: int = 6, skip: int = 8) -> Iterator[Labelled]:
    """Quiet positions of the games in ``paths`` (every ``every`` plies after the first ``skip``) labelled
    with the game's result for the side to move; games without a result (``*``) are left out."""
    quiet = QuietCheck()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            number = 0
            while (game := chess.pgn.read_game(handle)) is not None:
                number += 1
                result = game.headers.get("Result", "*")
                if result not in RESULTS:
                    continue
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    if ply >= skip and (ply - skip) % every == 0 and quiet(board):
                        white = RESULTS[result]
                        yield Labelled(board.fen(), white if board.turn == chess.WHITE else 1.0 - white,
                                       f"{Path(path).name} game {number}", f"result {result}")
                    board.push(move)


# -- the cache --------------------------------------------------------------------------------------------
FIELDS = ("fen", "label", "group", "source")


def read_cache(path: Path) -> List[Labelled]:
    """The labelled positions in the TSV file ``path`` (none if it does not exist)."""
    if not path.exists():
        return []
    with open(path, newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        if rows.fieldnames != list(FIELDS):
            raise ValueError(f"{path}: not a tuning cache (its columns are {rows.fieldnames}, not {list(FIELDS)}); "
                             f"delete it or give another --cache")
        return [Labelled(row["fen"], float(row["label"]), row["group"], row["source"]) for row in rows]


def append_cache(path: Path, labelled: Iterable[Labelled]) -> int:
    """Appends ``labelled`` to the cache as each comes (an interrupted run keeps what it labelled)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists()
    count = 0
    with open(path, "a", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        if new:
            writer.writerow(FIELDS)
        for item in labelled:
            writer.writerow((item.fen, f"{item.label:.6f}", item.group, item.source))
            handle.flush()
            count += 1
    return count


# -- the evaluation of many positions -----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def evaluate_many(bbs, sts, tables_, params, out):
    """``out[i]``: the static evaluation of position i (rows of ``bbs``/``sts``, the first
    :data:`BB_USED` bitboards and :data:`ST_USED` state entries of its arrays)."""
    for i in range(bbs.shape[0]):
        out[i] = evaluate_kernel(bbs[i], sts[i], tables_, params, 0)


class PositionSet:
    """Labelled positions as the arrays the batch evaluation takes, with their labels and groups."""

    def __init__(self, labelled: Sequence[Labelled]) -> None:
        self.labelled = list(labelled)
        n = len(self.labelled)
        self.bbs = np.zeros((n, BB_USED), np.uint64)
        self.sts = np.zeros((n, ST_USED), np.int64)
        for i, item in enumerate(self.labelled):
            a = to_arrays(chess.Board(item.fen), history=False)
            self.bbs[i], self.sts[i] = a.bb[:BB_USED], a.st[:ST_USED]
        self.labels = np.array([item.label for item in self.labelled], np.float64)
        self._out = np.zeros(n, np.int64)

    def __len__(self) -> int:
        return len(self.labelled)

    def subset(self, indices: np.ndarray) -> "PositionSet":
        part = PositionSet.__new__(PositionSet)
        part.labelled = [self.labelled[i] for i in indices]
        part.bbs, part.sts, part.labels = self.bbs[indices], self.sts[indices], self.labels[indices]
        part._out = np.zeros(len(indices), np.int64)
        return part

    def evaluations(self, weights: Weights) -> np.ndarray:
        """The static evaluation (centipawns, side to move) of every position with ``weights``."""
        evaluate_many(self.bbs, self.sts, tables(), parameters(weights), self._out)
        return self._out.copy()

    def split(self, test_share: float, seed: int = 0) -> Tuple["PositionSet", "PositionSet"]:
        """(train, test): whole groups (lines, games) drawn at random to the test set, ``test_share`` of them."""
        groups = sorted({item.group for item in self.labelled})
        random.Random(seed).shuffle(groups)
        test_groups = set(groups[:round(test_share * len(groups))])
        is_test = np.array([item.group in test_groups for item in self.labelled])
        return self.subset(np.flatnonzero(~is_test)), self.subset(np.flatnonzero(is_test))


def loss(evaluations: np.ndarray, labels: np.ndarray, k: float) -> float:
    """Texel's loss: the mean squared difference between ``expected_score(k * evaluations)`` and the labels."""
    return float(np.mean((expected_score(k * evaluations) - labels) ** 2))


def fit_k(evaluations: np.ndarray, labels: np.ndarray, low: float = 0.05, high: float = 5.0) -> float:
    """The ``k`` of least :func:`loss` (a golden-section search in [low, high]; the loss is unimodal in k)."""
    ratio = (5 ** 0.5 - 1) / 2
    a, b = low, high
    while b - a > 1e-4:
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if loss(evaluations, labels, c) < loss(evaluations, labels, d):
            b = d
        else:
            a = c
    return (a + b) / 2


# -- the parameters --------------------------------------------------------------------------------------------
VALUE_FIELDS = ("piece_values", "mobility_per_square", "king_attack", "shelter_pawn", "doubled", "isolated",
                "passed", "bishop_pair", "hanging", "pawn_threat", "tempo", "rook_open_file", "rook_half_open_file",
                "outpost", "passed_enemy_king", "passed_own_king")
# values the kernel never uses (the king's material, a pawn's mobility, passed pawns on the first and last rank)
UNUSED = re.compile(r"piece_values\[5\]|mobility_per_square\[[05]\]|king_attack\[[05]\]|hanging\[5\]"
                    r"|passed(_enemy_king|_own_king)?\[[07]\]")


def _paths(value, prefix: str) -> Iterator[str]:
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _paths(item, f"{prefix}[{i}]")
    else:
        yield prefix


def tunable_names(kind: str = "factors") -> List[str]:
    """The parameters a fit moves: ``factors`` (the eight named factors), ``values`` (every base value the
    kernel uses but the piece-square tables, e.g. ``piece_values[1][0]``, the knight's middlegame
    value), or ``all``.  ValueError otherwise."""
    if kind not in ("factors", "values", "all"):
        raise ValueError(f"params '{kind}': give factors, values or all")
    names = list(FACTOR_NAMES) if kind in ("factors", "all") else []
    if kind in ("values", "all"):
        for name in VALUE_FIELDS:
            names += [path for path in _paths(getattr(DEFAULT_WEIGHTS, name), name) if not UNUSED.match(path)]
    return names


def _split_name(name: str) -> Tuple[str, List[int]]:
    field_name, *indices = re.split(r"[\[\]]+", name.rstrip("]"))
    return field_name, [int(i) for i in indices]


def value_of(weights: Weights, name: str):
    """The parameter ``name`` (as :func:`tunable_names` gives it) of ``weights``."""
    field_name, indices = _split_name(name)
    value = getattr(weights, field_name)
    for i in indices:
        value = value[i]
    return value


def _set(value, indices: List[int], new):
    if not indices:
        return new
    items = list(value)
    items[indices[0]] = _set(items[indices[0]], indices[1:], new)
    return tuple(items)


def with_value(weights: Weights, name: str, new) -> Weights:
    """``weights`` with the parameter ``name`` set to ``new`` (a factor rounded to the percent the kernel
    takes, a base value to whole centipawns)."""
    field_name, indices = _split_name(name)
    new = round(new, 2) if field_name in FACTOR_NAMES else int(round(new))
    return replace(weights, **{field_name: _set(getattr(weights, field_name), indices, new)})


def fit(positions: PositionSet, k: float, start: Weights = DEFAULT_WEIGHTS, names: Sequence[str] = FACTOR_NAMES,
        factor_steps: Sequence[float] = (0.16, 0.08, 0.04, 0.02, 0.01), value_steps: Sequence[int] = (8, 4, 2, 1),
        max_passes: int = 30, progress: bool = True) -> Tuple[Weights, float]:
    """Texel's coordinate descent from ``start`` over ``names`` with ``k`` kept: (the weights, their loss).
    Factors stay at 0 or above.  ``max_passes`` bounds the passes at each step size."""
    weights = start
    best = loss(positions.evaluations(weights), positions.labels, k)
    levels = max(len(factor_steps), len(value_steps))
    bar = tqdm(total=levels, desc="fitting", unit="step size", disable=not progress)
    for level in range(levels):
        for _ in range(max_passes):
            improved = False
            for name in names:
                is_factor = name in FACTOR_NAMES
                steps = factor_steps if is_factor else value_steps
                step = steps[min(level, len(steps) - 1)]
                for direction in (1, -1):
                    new = value_of(weights, name) + direction * step
                    if is_factor and new < 0:
                        continue
                    trial = with_value(weights, name, new)
                    trial_loss = loss(positions.evaluations(trial), positions.labels, k)
                    if trial_loss < best:
                        weights, best, improved = trial, trial_loss, True
                        break
            if not improved:
                break
        bar.update()
        bar.set_postfix(loss=f"{best:.6f}")
    bar.close()
    return weights, best


# -- the command ------------------------------------------------------------------------------------------------
def changes(before: Weights, after: Weights, names: Sequence[str]) -> List[str]:
    """``name: old -> new`` for each parameter that differs."""
    return [f"{name}: {value_of(before, name)} -> {value_of(after, name)}" for name in names
            if value_of(before, name) != value_of(after, name)]


def gather(args) -> List[Labelled]:
    """The cache, labelled further (Stockfish, PGN games) until it holds what ``args`` asks for."""
    from .match import default_openings_file, read_openings

    cached = read_cache(args.cache)
    by_stockfish = [item for item in cached if item.source.startswith("sf")]
    missing = args.positions - len(by_stockfish)
    if missing > 0 and args.labels in ("stockfish", "all"):
        openings = read_openings(args.openings or default_openings_file())
        done = [int(item.group.split()[-1]) for item in by_stockfish if item.group.startswith("opening ")]
        first = max(done) + 1 if done else 0
        print(f"labelling {missing} positions with Stockfish at depth {args.depth} from opening {first} on")
        append_cache(args.cache, label_openings(openings, missing, args.depth, first, line_plies=args.line_plies,
                                                keep_every=args.every))
    if args.pgn:
        seen = {item.group.split(" game ")[0] for item in cached if item.source.startswith("result")}
        new = [path for path in args.pgn if path.name not in seen]
        if new:
            print(f"labelling the games of {', '.join(map(str, new))} with their results")
            append_cache(args.cache, tqdm(label_pgn(new), desc="games", unit="position"))
    every = read_cache(args.cache)
    wanted = {"stockfish": ("sf",), "results": ("result",), "all": ("sf", "result")}[args.labels]
    return [item for item in every if item.source.startswith(wanted)]


def _plies_range(text: str) -> Tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': give LOW-HIGH plies, e.g. 3-5") from None
    if not 1 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"'{text}': need 1 <= LOW <= HIGH")
    return bounds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=6000, help="positions labelled by Stockfish (default 6000)")
    parser.add_argument("--depth", type=int, default=8, help="Stockfish's depth for a label (default 8)")
    parser.add_argument("--line-plies", type=int, default=LINE_PLIES,
                        help=f"plies played on from each opening (default {LINE_PLIES})")
    parser.add_argument("--every", type=_plies_range, default=KEEP_EVERY,
                        help=f"a position kept every LOW-HIGH plies of a line (default {KEEP_EVERY[0]}-{KEEP_EVERY[1]})")
    parser.add_argument("--openings", type=Path, help="a FEN file of openings (default: the shared openings)")
    parser.add_argument("--pgn", type=Path, nargs="*", default=[], help="games whose results label positions")
    parser.add_argument("--labels", choices=("stockfish", "results", "all"), default="stockfish",
                        help="which labels the fit uses (default stockfish)")
    parser.add_argument("--params", choices=("factors", "values", "all"), default="factors",
                        help="what the fit moves: the eight factors (default), the base values (not the "
                             "piece-square tables), or both")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"the labelled set (default {DEFAULT_CACHE})")
    parser.add_argument("--test-share", type=float, default=0.2, help="share of the lines held out (default 0.2)")
    parser.add_argument("--out", type=Path, help="write the fitted weights here as JSON")
    args = parser.parse_args(argv)
    if not 0 < args.test_share < 1:
        parser.error("--test-share must lie between 0 and 1")
    for path in args.pgn:
        if not path.is_file():
            parser.error(f"--pgn {path}: no such file")
    try:
        labelled = gather(args)
    except (FileNotFoundError, ValueError) as error:  # no Stockfish, no openings, a cache of another kind
        parser.exit(2, f"tuning: {error}\n")
    if len(labelled) < 10:
        parser.error(f"only {len(labelled)} labelled positions with --labels {args.labels}; label more (--positions, --pgn)")
    train, test = PositionSet(labelled).split(args.test_share)
    k = fit_k(train.evaluations(DEFAULT_WEIGHTS), train.labels)
    names = tunable_names(args.params)
    before = (loss(train.evaluations(DEFAULT_WEIGHTS), train.labels, k),
              loss(test.evaluations(DEFAULT_WEIGHTS), test.labels, k))
    print(f"{len(train)} training and {len(test)} held-out positions; K = {k:.4f} (default weights)")
    weights, _ = fit(train, k, DEFAULT_WEIGHTS, names)
    after = (loss(train.evaluations(weights), train.labels, k), loss(test.evaluations(weights), test.labels, k))
    print(f"loss (mean squared error of the expected score), default -> fitted:")
    print(f"  training  {before[0]:.6f} -> {after[0]:.6f}")
    print(f"  held out  {before[1]:.6f} -> {after[1]:.6f}")
    print("changed: " + ("; ".join(changes(DEFAULT_WEIGHTS, weights, names)) or "nothing"))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(weights_to_json(weights) + "\n")
        print(f"weights written to {args.out}")


if __name__ == "__main__":
    main()
