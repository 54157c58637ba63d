"""Command line: ``python -m Util calculate | probe | stats | bench | verify | notebooks``.

This is a public interface that scripts call: keep the output formats.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

import chess

from .board_int import BoardIntError

EPILOG = "Tables are written to S_n_Results/ by default (CHESSAI_RESULTS overrides)."


def _cmd_calculate(args) -> int:
    from .calculation import calculate_table

    path, table, counts = calculate_table(args.material, args.out, progress=not args.quiet,
                                          checkpoint_seconds=args.checkpoint_seconds, fresh=args.fresh)
    if table.max_n < 0:  # KNvK and the like: no S_n at all
        print(f"{table.material}: 0 boards in any S_n (White cannot force mate), written to {path}")
    else:
        print(f"{table.material}: {sum(counts.values())} boards in S_0..S_{table.max_n}, written to {path}")
    return 0


def _fens(args) -> List[str]:
    if args.fen:
        return args.fen
    return [line.strip() for line in sys.stdin if line.strip()]


def _cmd_probe(args) -> int:
    from .sequence import load_s_n_sequence

    sequence = load_s_n_sequence(args.file)
    status = 0
    for number, fen in enumerate(_fens(args), 1):
        try:
            board = chess.Board(fen)
        except ValueError as error:
            print(f"probe: FEN {number} {fen!r} is not valid FEN ({error}); skipped", file=sys.stderr)
            status = 1
            continue
        try:
            from .material import material_of_board

            material = material_of_board(board)
        except ValueError as error:
            print(f"probe: FEN {number} {fen!r}: {error}; skipped", file=sys.stderr)
            status = 1
            continue
        if material != sequence.material:
            print(f"probe: FEN {number} {fen!r} is {material}, but {args.file} holds {sequence.material}; skipped",
                  file=sys.stderr)
            status = 1
            continue
        n = sequence.find_board(board)
        print(n if n >= 0 else "-", flush=True)
    return status


def _cmd_stats(args) -> int:
    from .sequence import load_s_n_sequence

    sequence = load_s_n_sequence(args.file)
    for n, count in sorted(sequence.board_counts.items()):
        print(f"{n} {count}")
    print(f"total {sum(sequence.board_counts.values())}")
    return 0


def _cmd_bench(args) -> int:
    from .bench import DEFAULT_MATERIALS, run_bench

    run_bench(args.material or DEFAULT_MATERIALS)
    return 0


def _cmd_verify(args) -> int:
    from .bench import DEFAULT_MATERIALS
    from .calculation import TableStore
    from .gaviota_native import GaviotaUnavailable, NativeGaviota
    from .validation import exhaustive_against_gaviota, reference_folder

    try:
        gaviota = NativeGaviota(args.gaviota or reference_folder("gaviota"))
    except GaviotaUnavailable as error:
        print(f"verify: {error}", file=sys.stderr)
        return 2
    store = TableStore(args.results, progress=not args.quiet)
    failures = 0
    total = 0
    for material in args.material or DEFAULT_MATERIALS:
        result = exhaustive_against_gaviota(store.get(material), gaviota)
        print(result.line(), flush=True)
        for fen, ours, theirs in result.mismatches[:5]:
            print(f"    {fen}: ours {ours}, gaviota {theirs}")
        failures += len(result.mismatches)
        total += result.checked
    print(f"verify: {total} positions checked against Gaviota, {failures} mismatches")
    return 1 if failures else 0


def _cmd_notebooks(args) -> int:
    from .series import EXECUTED_DIR, NotebookCellError, parse_parameter, run_series, series_notebooks

    notebooks = series_notebooks()
    if args.only:
        notebooks = [p for p in notebooks if any(p.name.startswith(prefix) for prefix in args.only)]
    if not notebooks:
        print("notebooks: no notebook matches", file=sys.stderr)
        return 2
    parameters = dict(parse_parameter(text) for text in args.parameter)
    try:
        run_series(notebooks, parameters, args.output_dir or EXECUTED_DIR)
    except NotebookCellError as error:
        print(f"notebooks: {error}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m Util", description="Chess endgame S_n tables by retrograde analysis.",
                                     epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("calculate", help="compute every S_n of a material and write its .chessAI file",
                       description="Compute every S_n of MATERIAL (e.g. KBNvK) and write S_n_Results/MATERIAL.chessAI. "
                                   "An interrupted run resumes from MATERIAL.chessAI.partial when started again.")
    p.add_argument("material", help="material such as KQvK, KBNvK, KRRPvK (white king + 1-3 of QRBNP vs lone king)")
    p.add_argument("--out", type=Path, help="output file (default S_n_Results/MATERIAL.chessAI)")
    p.add_argument("--fresh", action="store_true", help="ignore a checkpoint of an interrupted run")
    p.add_argument("--checkpoint-seconds", type=float, default=10.0, help="save progress this often (default 10; at least 20 times as long as one save takes, so saving costs about 5 %% of the run at most)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_cmd_calculate)

    p = sub.add_parser("probe", help="print n for each FEN (or - if the position is in no S_n)",
                       description="Print one line per FEN: n, the S_n that holds the position, or '-' if it is in "
                                   "none (draw or illegal). FENs come from the arguments or, if none, from standard "
                                   "input, one per line. A FEN that is malformed or of other material gets a message "
                                   "on standard error and no output line; the exit status is then 1.")
    p.add_argument("file", help=".chessAI file, or a material name looked up in S_n_Results/")
    p.add_argument("fen", nargs="*", help="positions in FEN")
    p.set_defaults(run=_cmd_probe)

    p = sub.add_parser("stats", help="print 'n count' for each S_n, then the total",
                       description="Print one line 'n count' per non-empty S_n (count = distinct boards), "
                                   "then 'total COUNT'.")
    p.add_argument("file", help=".chessAI file, or a material name looked up in S_n_Results/")
    p.set_defaults(run=_cmd_stats)

    p = sub.add_parser("bench", help="time, peak memory and file size of computing tables",
                       description="Compute each table from scratch in a fresh process and print one row: material, "
                                   "seconds, peak MB, positions (boards in any S_n), largest n, file size in KB. "
                                   "The tables it leads into (captures, promotions) are computed first, untimed, and "
                                   "loaded from files. Without MATERIAL: every 3- and 4-piece table.")
    p.add_argument("material", nargs="*")
    p.set_defaults(run=_cmd_bench)

    p = sub.add_parser("verify", help="check every position of tables against Gaviota DTM",
                       description="Compare every legal position (up to symmetry, both sides to move) of each table "
                                   "with Gaviota's depth to mate, through Debian's libgaviotatb. Without MATERIAL: "
                                   "every 3- and 4-piece table. Exit status 1 on any mismatch.")
    p.add_argument("material", nargs="*")
    p.add_argument("--gaviota", type=Path, help="folder of *.gtb.cp4 files (default $GAVIOTA_PATH or "
                                                "../shared/tablebases/gaviota)")
    p.add_argument("--results", type=Path, help="folder of .chessAI files to check (missing ones are computed)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=_cmd_verify)

    p = sub.add_parser("notebooks", help="run the notebook series headless, in order",
                       description="Execute the numbered notebooks (01_... to 06_...) top to bottom, in order, from the "
                                   "repository root. Executed copies go to Tests/executed/. A failing cell stops the "
                                   "run with a message naming the notebook and the cell (exit status 1).")
    p.add_argument("-p", "--parameter", action="append", default=[], metavar="NAME=VALUE",
                   help="override a setting of the notebooks' parameters cells, e.g. -p \"TABLES=['KQvK']\" "
                        "(given to every notebook that declares NAME)")
    p.add_argument("--only", nargs="*", metavar="PREFIX", help="run only notebooks whose names start so, e.g. 02")
    p.add_argument("--output-dir", type=Path, help="where executed copies go (default Tests/executed)")
    p.set_defaults(run=_cmd_notebooks)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (FileNotFoundError, ValueError, BoardIntError) as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 2
