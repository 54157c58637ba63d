"""Command line: ``python -m Util calculate | probe | stats | bench | verify | convert | notebooks | serve``, and the
whole game's ``uci | play | match`` (Util/whole_game_lab/commands.py).

This is a public interface that scripts call: keep the output formats.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional

import chess

from .board.integer import BoardIntError
from .board.material import Material
from .whole_game_lab.commands import add_game_commands
from .whole_game_lab.game_bench import add_bench_options

EPILOG = ("Tables are read from and written to S_n_Results/ by default; --results DIR (or the variable "
          "CHESSAI_RESULTS) names another folder.")


def _cmd_calculate(args) -> int:
    from .calculation import batch
    from .calculation.store import calculation_order

    if args.all:
        materials = calculation_order(max_pieces=args.max_pieces)
    elif len(args.material) == 1 and args.out:  # one file: its sub-tables read from the folder, or computed in memory
        materials = [Material.parse(args.material[0]).canonical]
    elif args.material:
        materials = calculation_order(args.material)
    else:
        print("calculate: name at least one material, or --all", file=sys.stderr)
        return 2
    if args.out and len(materials) > 1:
        print("calculate: --out names one file, but this computes several tables; leave it out", file=sys.stderr)
        return 2
    named = set(materials) if args.all else {Material.parse(m).canonical for m in args.material}
    if args.cluster or args.scheduler:  # every table a task of a Dask cluster (Util/calculation/cluster.py)
        from .calculation.cluster import run_cluster_command
        from .folders import RESULTS_DIR

        if args.out:
            print("calculate: --out names one file; a cluster writes every table into --results DIR", file=sys.stderr)
            return 2
        return run_cluster_command(materials, args.results or RESULTS_DIR, args.cluster or 0, args.scheduler,
                                   args.threads_per_table, args.checkpoint_seconds)
    if args.compact and (args.all or any(m.has_pawns for m in named)):
        print("calculate: --compact computes the pawnless tables named (their sub-tables as usual); name them, "
              "without --all", file=sys.stderr)
        return 2
    options = batch.CalculateOptions(args.out, args.results, not args.quiet, args.checkpoint_seconds,
                                     compact=args.compact)
    return batch.calculate_tables(materials, named, single=len(args.material) == 1 and not args.all,
                                  fresh=args.fresh, options=options,
                                  apart_from_pieces=APART_FROM_PIECES or batch.APART_FROM_PIECES)


#: None: ``calculate`` computes tables of ``Util.calculation.batch.APART_FROM_PIECES`` pieces (which says
#: why) each in a process of its own when it computes several; a number here (a test's) replaces it.
APART_FROM_PIECES: Optional[int] = None


def add_results_option(parser: argparse.ArgumentParser, help: str) -> None:
    """The one ``--results DIR`` of every command that reads or writes tables (default: S_n_Results, or the
    folder the variable CHESSAI_RESULTS names)."""
    parser.add_argument("--results", type=Path, default=None, metavar="DIR",
                        help=help + " (default S_n_Results/, or $CHESSAI_RESULTS)")


def table_file(name: str, results: Optional[Path]) -> Path:
    """The file a command's FILE argument names: a path as given; with ``--results DIR``, a bare material
    name (either colour order, no ``.chessAI``) is looked up in DIR.  Without ``--results`` the name is left to
    :func:`~Util.sequence.load_s_n_sequence`, which looks it up in S_n_Results/.

    Raises FileNotFoundError, saying how to compute it, when DIR has no such table."""
    from .board.material import MaterialError

    path = Path(name)
    if results is None or path.exists() or path.suffix == ".chessAI" or len(path.parts) > 1:
        return path
    if not results.is_dir():
        raise FileNotFoundError(f"--results {results} is not a folder; give the folder of computed tables")
    try:
        material = Material.parse(name).canonical
    except MaterialError:
        raise FileNotFoundError(f"{name}: no such file, and not a material such as KQvK to look up in "
                                f"{results}") from None
    found = results / f"{material.name}.chessAI"
    if not found.exists():
        raise FileNotFoundError(f"{found}: no such file; compute it with: python -m Util calculate {material} "
                                f"--results {results}")
    return found


def _fens(args) -> List[str]:
    if args.fen:
        return args.fen
    return [line.strip() for line in sys.stdin if line.strip()]


def _probe_answer(sequence, fen: str, dtm: bool) -> str:
    """The answer line for one FEN; a FEN that cannot be answered raises ValueError with the reason."""
    from .board.material import material_of_board

    if len(fen.split()) < 2:
        raise ValueError("no side to move: add ' w' or ' b' after the board")
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ValueError(f"not valid FEN ({error})") from None
    material = material_of_board(board)
    if material.canonical != sequence.material:
        raise ValueError(f"is {material}, but the table holds {sequence.material}")
    if dtm:
        value = sequence.dtm(board)
        return f"{value:+d}" if value else "0"
    n = sequence.find_board(board)
    return str(n) if n >= 0 else "-"


def _cmd_probe(args) -> int:
    from .sequence import load_s_n_sequence

    if args.file is None:
        print("probe: name a table: a .chessAI file or a material such as KQvK (FENs are optional; without "
              "them they are read from standard input, one per line)", file=sys.stderr)
        return 2
    sequence = load_s_n_sequence(table_file(args.file, args.results))
    status = 0
    for number, fen in enumerate(_fens(args), 1):
        try:
            answer = _probe_answer(sequence, fen, args.dtm)
        except ValueError as error:
            print(f"probe: FEN {number} {fen!r}: {error}", file=sys.stderr)
            answer, status = "error", 1
        print(f"{fen}\t{answer}" if args.echo_fen else answer, flush=True)
    return status


def _cmd_stats(args) -> int:
    from .sequence import load_s_n_sequence

    sequence = load_s_n_sequence(table_file(args.file, args.results))
    counts = sequence.counts_by_winner
    for n, count in sorted(counts[chess.WHITE].items()):
        print(f"{n} {count}")
    if not sequence.material.lone_black_king:
        for n, count in sorted(counts[chess.BLACK].items()):
            print(f"black {n} {count}")
    print(f"total {sum(counts[chess.WHITE].values()) + sum(counts[chess.BLACK].values())}")
    if args.zugzwangs:
        from .play.zugzwang import mutual_zugzwangs

        print(f"mutual_zugzwangs {mutual_zugzwangs(sequence.table)}")
    if args.plot:
        from .notebook.plots import EITHER_MATES, WHITE_MATES, plot_s_n_sizes

        name = sequence.material.name
        panels = {f"{name}, White mates": counts[chess.WHITE]}
        if counts[chess.BLACK]:
            panels[f"{name}, Black mates"] = counts[chess.BLACK]
        try:
            plot_s_n_sizes(panels, EITHER_MATES if len(panels) > 1 else WHITE_MATES).savefig(args.plot, dpi=100)
        except (OSError, ValueError) as error:
            print(f"stats: cannot write the figure to {args.plot}: {error}; give a writable .png, .svg or .pdf path",
                  file=sys.stderr)
            return 2
        print(f"figure {args.plot}")
    return 0


def _cmd_convert(args) -> int:
    from .files.chessai import FORMAT_VERSION, ChessAIFileError, convert_file

    folder = Path(args.results) if args.results else None
    paths = []
    for name in args.file:
        path = Path(name)
        if not path.exists() and path.suffix != ".chessAI":
            path = (folder or _results_dir()) / f"{Material.parse(name).canonical.name}.chessAI"
        paths.append(path)
    if not args.file:
        folder = folder or _results_dir()
        paths = sorted(folder.glob("*.chessAI"))
        if not paths:
            print(f"convert: no .chessAI files in {folder}", file=sys.stderr)
            return 2
    status = 0
    for path in paths:
        if not path.exists():
            print(f"convert: {path}: no such file", file=sys.stderr)
            status = 1
            continue
        try:
            before, after, converted = convert_file(path)
        except (ChessAIFileError, FileNotFoundError) as error:
            print(f"convert: {error}", file=sys.stderr)
            status = 1
            continue
        if converted:
            print(f"{path}: format 1-3 -> {FORMAT_VERSION}, {before:,} -> {after:,} bytes", flush=True)
        else:
            print(f"{path}: already format {FORMAT_VERSION}, left as it is", flush=True)
    return status


def _results_dir() -> Path:
    from .folders import RESULTS_DIR

    return RESULTS_DIR


def _cmd_bench(args) -> int:
    from .bench.calculation import DEFAULT_MATERIALS, FIVE_PIECE_MATERIALS, run_bench

    if args.results is not None and not args.results.is_dir():
        print(f"bench: --results {args.results} is not a folder; give the folder of computed tables "
              f"(python -m Util calculate --all --max-pieces 5 fills S_n_Results)", file=sys.stderr)
        return 2
    if args.engine:
        from .whole_game.bench import BENCH_DEPTH, run_bench

        run_bench(args.depth or BENCH_DEPTH)
        return 0
    if args.perft or args.search:
        from .whole_game_lab.game_bench import run_game_bench
        return run_game_bench(args)
    if args.probe:
        from .bench.probe import run_probe_bench
        from .validation.references import reference_folder

        run_probe_bench(args.results or _results_dir(), args.count, args.gaviota or reference_folder("gaviota"))
        return 0
    if args.six:
        from .bench.calculation import SIX_HEADER, six_bench_row

        if args.results is None or not args.material:
            print("bench: --six computes the six-piece tables named, their sub-tables read from --results DIR "
                  "(python -m Util calculate KRRvKN KNNvKR --results DIR fills it for KRRvKNN)", file=sys.stderr)
            return 2
        print(SIX_HEADER, flush=True)
        for material in args.material:
            print(six_bench_row(material, args.results), flush=True)
        return 0
    run_bench(args.material + (FIVE_PIECE_MATERIALS if args.five else []) or DEFAULT_MATERIALS, args.results)
    return 0


def _cmd_verify(args) -> int:
    from .bench.calculation import DEFAULT_MATERIALS
    from .validation.verify import one_ply_materials, verify_retrograde, verify_tables

    if args.longest_line:
        from .stockfish.longest_line import play_longest

        return play_longest(args.material, args.results, args.think_ms)
    if args.retrograde or args.exhaustive:
        if not args.material:
            print("verify: --retrograde checks the compact tables named (six pieces), e.g. verify KRRvKNN --retrograde",
                  file=sys.stderr)
            return 2
        return verify_retrograde(args.material, args.results, None if args.exhaustive else args.sample)

    default = one_ply_materials() if args.one_ply else DEFAULT_MATERIALS
    return verify_tables(args.material or default, args.results, args.gaviota, args.one_ply, progress=not args.quiet)


def _cmd_notebooks(args) -> int:
    from .notebook.series import EXECUTED_DIR, NotebookCellError, parse_parameter, run_series, series_notebooks

    notebooks = series_notebooks()
    if args.only:
        notebooks = [p for p in notebooks if any(p.name.startswith(prefix) for prefix in args.only)]
    if not notebooks:
        print("notebooks: no notebook matches", file=sys.stderr)
        return 2
    parameters = dict(parse_parameter(text) for text in args.parameter)
    if args.results is not None:  # the notebooks that read or write tables declare RESULTS_DIR
        parameters["RESULTS_DIR"] = str(args.results.resolve())
    try:
        run_series(notebooks, parameters, args.output_dir or EXECUTED_DIR)
    except NotebookCellError as error:
        print(f"notebooks: {error}", file=sys.stderr)
        return 1
    return 0


def _cmd_serve(args) -> int:
    from .server.app import RESULTS_DIR, serve

    results = args.results or RESULTS_DIR
    if not Path(results).is_dir():
        print(f"serve: no folder {results}: compute tables first, e.g. python -m Util calculate KQvK "
              f"(or name a folder of .chessAI files with --results)", file=sys.stderr)
        return 2
    if args.workers < 1 or args.cache_mb < 1 or args.max_connections < 1 or (args.search_workers or 1) < 1:
        print("serve: --workers, --cache-mb, --max-connections and --search-workers must be 1 or more",
              file=sys.stderr)
        return 2
    if args.search_workers:
        os.environ["CHESSAI_SEARCH_WORKERS"] = str(args.search_workers)  # read by search_pool in each process
    serve(args.host, args.port, results, args.workers, args.cache_mb, args.max_connections)
    return 0


class IntermixedParser(argparse.ArgumentParser):
    """A command's parser that takes its options anywhere among its positional arguments, as users expect
    (``probe KQvKR --results DIR FEN``: argparse alone stops at the option and calls the FEN unrecognized)."""

    reading = False

    def parse_known_args(self, args=None, namespace=None):
        if self.reading:  # parse_known_intermixed_args calls this method itself, twice
            return super().parse_known_args(args, namespace)
        self.reading = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self.reading = False


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m Util", description="Chess endgame S_n tables by retrograde analysis.",
                                     epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=IntermixedParser)

    p = sub.add_parser("calculate", help="compute every S_n of materials and write their .chessAI files",
                       description="Compute every S_n of each MATERIAL (e.g. KBNvK, KQvKR) and write "
                                   "S_n_Results/MATERIAL.chessAI, computing and writing first the tables it needs "
                                   "(captures, promotions) that are not there yet, so that probing and the server "
                                   "find every position the game can reach. A material named with the colours the other "
                                   "way round (KRvKQ) is the same table (KQvKR). An interrupted run resumes from "
                                   "MATERIAL.chessAI.partial when started again.")
    p.add_argument("material", nargs="*", help="materials such as KQvK, KBNvK, KQvKR, KRPvKR, KRNvKNN (each side a king "
                                               "and up to four pieces from QRBNP in all; six pieces without pawns)")
    p.add_argument("--all", action="store_true", help="every material up to --max-pieces pieces")
    p.add_argument("--max-pieces", type=int, default=4, choices=(3, 4, 5, 6),
                   help="with --all: largest number of pieces, kings included (default 4; 6: the pawnless "
                        "six-piece tables too, in the compact index: about 270 CPU-hours, see docs/cluster.md)")
    p.add_argument("--out", type=Path, help="output file of a single table (default DIR/MATERIAL.chessAI of --results); "
                                              "its missing sub-tables are then computed in memory, not written")
    add_results_option(p, "folder the tables are written to, and their sub-tables read from")
    p.add_argument("--fresh", action="store_true", help="ignore a checkpoint of an interrupted run")
    p.add_argument("--checkpoint-seconds", type=float, default=10.0, help="save progress this often (default 10; and only after work at least 40 times as long as one save, so saving costs at most 2.5 %% of the run; 0 = after every ply, however long that takes)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--cluster", type=int, metavar="N", default=None,
                   help="compute every table as a task of a Dask LocalCluster of N worker processes on this machine, "
                        "each table after the tables it needs (docs/cluster.md)")
    p.add_argument("--scheduler", metavar="tcp://HOST:8786", default=None,
                   help="compute every table as a task of the Dask scheduler at this address, on workers started "
                        "with 'dask worker tcp://HOST:8786' that share the --results folder (docs/cluster.md)")
    p.add_argument("--compact", action="store_true",
                   help="compute the pawnless tables named in the compact index of six pieces and write format 5 "
                        "(a table of six pieces always is; this is for comparing the engines on smaller ones)")
    p.add_argument("--threads-per-table", type=int, default=1, metavar="T",
                   help="with --cluster or --scheduler: threads each table's calculation runs (default 1: one "
                        "table per core)")
    p.set_defaults(run=_cmd_calculate)

    p = sub.add_parser("probe", help="print n for each FEN (or - if the position is in no S_n)",
                       description="Print one line per FEN: n, the S_n that holds the position, or '-' if it is in "
                                   "none (draw or illegal). FENs come from the arguments or, if none, from standard "
                                   "input, one per line. A FEN that is malformed, lacks the side to move or is of "
                                   "other material gets the line 'error' (so answers line up with questions) and the "
                                   "reason on standard error; the exit status is then 1.")
    p.add_argument("file", nargs="?", help=".chessAI file, or a material name looked up in --results DIR")
    p.add_argument("fen", nargs="*", help="positions in FEN")
    p.add_argument("--dtm", action="store_true",
                   help="print the signed depth to mate as python-chess's chess.gaviota probe_dtm does: +n when the "
                        "side to move mates in n plies, -n when it is mated in n, 0 for a draw or a checkmate")
    p.add_argument("--fen", dest="echo_fen", action="store_true",
                   help="print each FEN, a tab, then its answer")
    add_results_option(p, "folder in which a material named as FILE is looked up")
    p.set_defaults(run=_cmd_probe)

    p = sub.add_parser("stats", help="print 'n count' for each S_n, then the total",
                       description="Print one line 'n count' per non-empty S_n in which White mates "
                                   "(count = distinct boards); where Black has pieces, then one line 'black n count' "
                                   "per S_n in which Black mates; then 'total COUNT'; with --zugzwangs, then "
                                   "'mutual_zugzwangs COUNT'.")
    p.add_argument("file", help=".chessAI file, or a material name looked up in --results DIR")
    add_results_option(p, "folder in which a material named as FILE is looked up")
    p.add_argument("--zugzwangs", action="store_true",
                   help="also count the mutual zugzwangs: boards where White to move does worse for White than "
                        "Black to move (both legal), so whoever is to move would rather pass")
    p.add_argument("--plot", metavar="FILE",
                   help="also draw |S_n| against n (log scale; a panel for each side that mates) into FILE, a .png, "
                        ".svg or .pdf")
    p.set_defaults(run=_cmd_stats)

    p = sub.add_parser("convert", help="rewrite .chessAI files of older formats as random-access files (format 4)",
                       description="Rewrites each .chessAI file of format 1-3 (one deflate stream, read whole) as "
                                   "format 4 (blocks that a probe reads one at a time), in place and atomically; "
                                   "the table inside is unchanged.  Without FILE: every file in the folder.")
    p.add_argument("file", nargs="*", help=".chessAI files, or material names looked up in --results")
    add_results_option(p, "folder in which a material named as FILE is looked up; without FILE, every file in it")
    p.set_defaults(run=_cmd_convert)

    p = sub.add_parser("bench", help="time, peak memory and file size of computing tables",
                       description="Compute each table from scratch in a fresh process and print one row: material, "
                                   "seconds, peak MB, positions (boards in any S_n), largest n, file size in KB. "
                                   "The tables it leads into (captures, promotions) are computed first, untimed, and "
                                   "loaded from files. Without MATERIAL: all 35 tables with 3 and 4 pieces.")
    p.add_argument("material", nargs="*")
    p.add_argument("--five", action="store_true",
                   help="also the heaviest five-piece tables with pieces on both sides: "
                        "KBNvKN KRPvKR KQPvKQ KPPvKP (best with --results)")
    p.add_argument("--six", action="store_true",
                   help="the six-piece tables named (e.g. KRRvKNN), each in a fresh process, their five-piece "
                        "sub-tables read from --results DIR: seconds, peak memory, entries a second")
    p.add_argument("--results", type=Path, default=None, metavar="DIR",
                   help="read the sub-tables from this folder of computed tables (e.g. S_n_Results) instead of "
                        "computing them first (only read); only the measured table is computed, in a temporary "
                        "folder (default: every sub-table computed there too)")
    p.add_argument("--probe", action="store_true",
                   help="instead: what probing costs, for the tables in --results (default S_n_Results): "
                        "a probe from the command line, warm and cold probes in one process, beside "
                        "python-chess's Gaviota prober, a trainer game's start")
    p.add_argument("--count", type=int, default=2000, help="with --probe: random positions probed (default 2000)")
    p.add_argument("--gaviota", type=Path, help="with --probe: folder of Gaviota's *.gtb.cp4 files (default "
                                                "$GAVIOTA_PATH or ../shared/tablebases/gaviota)")
    add_bench_options(p)
    p.set_defaults(run=_cmd_bench)

    p = sub.add_parser("verify", help="check every position of tables against Gaviota DTM",
                       description="Compare every legal position (up to symmetry, both sides to move) of each table "
                                   "with Gaviota's depth to mate, through Debian's libgaviotatb. Without MATERIAL: "
                                   "all 35 tables with 3 and 4 pieces. Exit status 1 on any mismatch.")
    p.add_argument("material", nargs="*")
    p.add_argument("--gaviota", type=Path, help="folder of *.gtb.cp4 files (default: for each table the first "
                                                "of ./gaviota, $GAVIOTA_PATH or ../shared/tablebases/gaviota "
                                                "that holds its file)")
    add_results_option(p, "folder of .chessAI files to check (missing ones are computed in memory)")
    p.add_argument("--one-ply", type=int, metavar="N", help="instead of Gaviota (for tables it does not have, such "
                   "as the five-piece ones): up to N stored positions of every n and side to move, draws included, "
                   "checked one ply deep with python-chess's moves (the value follows from the children's); without "
                   "MATERIAL: the 75 five-piece tables with pieces on both sides")
    p.add_argument("--retrograde", action="store_true",
                   help="for the tables named in the compact index (six pieces, format 5): the retrograde check, every "
                        "value the best over its moves one ply forward (through the five-piece tables), compiled, on "
                        "--sample random positions of each side to move")
    p.add_argument("--sample", type=int, default=1_000_000, metavar="N",
                   help="with --retrograde: positions of each side to move (default a million)")
    p.add_argument("--exhaustive", action="store_true", help="the retrograde check of every position (slow: about "
                                                              "the work of the table's plies)")
    p.add_argument("--longest-line", action="store_true",
                   help="for the compact tables named: play out the longest mate, the table mating and Debian's "
                        "Stockfish choosing each defence among the table's longest; it must end in mate after "
                        "exactly n plies")
    p.add_argument("--think-ms", type=int, default=50, help="with --longest-line: Stockfish's time a move (ms)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=_cmd_verify)

    p = sub.add_parser("notebooks", help="run the notebook series headless, in order",
                       description="Execute the numbered notebooks (01_... to 07_...) top to bottom, in order, from the "
                                   "repository root. Executed copies go to Tests/executed/. A failing cell stops the "
                                   "run with a message naming the notebook and the cell (exit status 1).")
    p.add_argument("-p", "--parameter", action="append", default=[], metavar="NAME=VALUE",
                   help="override a setting of the notebooks' parameters cells, e.g. -p \"TABLES=['KQvK']\" "
                        "(given to every notebook that declares NAME)")
    p.add_argument("--only", nargs="*", metavar="PREFIX", help="run only notebooks whose names start so, e.g. 02")
    p.add_argument("--output-dir", type=Path, help="where executed copies go (default Tests/executed)")
    add_results_option(p, "folder the notebooks read and write tables in (their RESULTS_DIR)")
    p.set_defaults(run=_cmd_notebooks)

    p = sub.add_parser("serve", help="serve the tables over HTTP: lichess's tablebase API and the trainer page",
                       description="Serve the tables of --results over HTTP until Ctrl-C: lichess's tablebase API "
                                   "(GET /standard?fen=..., /standard/mainline?fen=...), the trainer's endpoints "
                                   "under /api/ and the trainer page at /. docs/server.md has the endpoints with "
                                   "examples. The page's JavaScript is built by bash scripts/setup.sh.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only; "
                                                       "0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_results_option(p, "folder of .chessAI tables to serve")
    p.add_argument("--workers", type=int, default=1,
                   help="server processes sharing the port (default 1); the server keeps no state per person")
    p.add_argument("--cache-mb", type=int, default=64,  # server.CACHE_MB: not imported, to keep starlette out
                   help="each process's cache of decoded table blocks, in MB (default 64)")
    p.add_argument("--max-connections", type=int, default=500,  # server.MAX_CONNECTIONS
                   help="open connections each process takes (default 500); one more is answered 503 and closed")
    p.add_argument("--search-workers", type=int, default=None,
                   help="processes searching for /api/move and /api/cloud-eval (default: one per core)")
    p.set_defaults(run=_cmd_serve)
    add_game_commands(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (FileNotFoundError, ValueError, BoardIntError) as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (`stats KRvK | head`): not an error of ours; say nothing more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
