"""The whole-game commands of ``python -m Util``: ``uci``, ``play`` and ``match`` (their parsers and runs).

:mod:`Util.cli` hands its sub-parsers to :func:`add_game_commands`; nothing
heavy is imported until a command runs, so ``python -m Util --help`` and the
table commands start as fast as before.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

__all__ = ["add_game_commands"]


def _cmd_uci(args) -> int:
    from ..whole_game.uci import run_uci

    return run_uci(results=args.results, book=args.book, command=args.command)


def _cmd_play(args) -> int:
    import chess

    from ..whole_game.console import play_console
    from ..whole_game.player import DEFAULT, Player

    if args.time <= 0:
        print("play: --time must be a positive number of seconds", file=sys.stderr)
        return 2
    player = Player(book=None if args.no_book else (args.book or DEFAULT), tablebase=args.results or DEFAULT,
                    on_error=print)
    return play_console(chess.BLACK if args.black else chess.WHITE, args.time, player)


def _cmd_match(args) -> int:
    from .opponents import engine_spec

    try:
        first = engine_spec(args.first, own_book=args.book)
    except (ValueError, FileNotFoundError) as error:
        print(f"match: {error}", file=sys.stderr)
        return 2
    if args.suite:
        from .suites import budget_limit, budget_text, run_suite

        try:
            limit = budget_limit(args.time, args.nodes)
        except ValueError as error:
            print(f"match: {error} (--time takes seconds a position, --nodes a number of nodes)", file=sys.stderr)
            return 2
        result = run_suite(first, args.suite, limit.time, progress=not args.quiet, verbose=args.verbose,
                           nodes=limit.nodes)
        print(f"{args.suite.name}: {first.name} {result.line(budget_text(limit))}")
        if result.failed:
            print("not solved: " + " ".join(result.failed))
        return 0
    from .match import default_openings_file, play_with_python_chess
    from .match_rules import MatchRules

    try:
        second = engine_spec(args.opponent, own_book=args.book)
        stamp = datetime.datetime.now().strftime("%Y%m%d_%H%M%S")
        pgn = (args.pgn or Path("Tests") / f"match_{stamp}_{_slug(first.name)}_vs_{_slug(second.name)}.pgn").resolve()
        rules = MatchRules(args.tc, args.games, args.openings or default_openings_file(), pgn, args.start,
                           args.concurrency, args.move_overhead, args.time_margin,
                           tuple(args.sprt) if args.sprt else None, args.sprt_model)
        rules.check()
        if "xboard" in (first.protocol, second.protocol):
            if args.concurrency != 1 or args.sprt:
                raise ValueError("a match with an xboard engine is played one game at a time by python-chess, "
                                 "without --sprt: leave out --concurrency and --sprt")
            report = play_with_python_chess(first, second, rules, ["python", "-m", "Util", *sys.argv[1:]],
                                            progress=not args.quiet)
        else:
            from .fastchess import play_with_fastchess

            report = play_with_fastchess(first, second, rules, echo=None if args.quiet else print)
    except (ValueError, FileNotFoundError, RuntimeError, TimeoutError) as error:
        print(f"match: {error}", file=sys.stderr)
        return 2
    print("\n".join(report.lines()))
    return 0


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name).strip("_").lower()


def add_game_commands(sub) -> None:
    """Add ``uci``, ``play`` and ``match`` to the sub-parsers ``sub`` of ``python -m Util``."""
    p = sub.add_parser("uci", help="run the whole-game engine as a UCI engine (for GUIs, lichess-bot, chess.engine)",
                       description="Speak the Universal Chess Interface on standard input and output (./chessai "
                                   "does the same from any folder): the opening book, our endgame tables at five "
                                   "pieces or fewer, Syzygy tables at seven or fewer (SyzygyPath), the search "
                                   "otherwise. Options: Hash, Clear Hash, Ponder, MultiPV, OwnBook, BookFile, "
                                   "TablebasePath, TablebaseMemory, SyzygyPath, Move Overhead, UCI_ShowWDL, "
                                   "UCI_Chess960, UCI_LimitStrength, UCI_Elo, WeightsFile; 'go perft N' counts moves "
                                   "as Stockfish's does, 'bench' searches fixed positions to a fixed depth. Words "
                                   "after uci are one command run before quitting: python -m Util uci bench.")
    p.add_argument("--results", type=Path, default=None, metavar="DIR",
                   help="folder of .chessAI tables (the TablebasePath option's default; else S_n_Results/, or "
                        "$CHESSAI_RESULTS)")
    p.add_argument("--book", type=Path, default=None, metavar="FILE",
                   help="Polyglot opening book (the BookFile option's default; else Debian's gnuchess-book)")
    p.add_argument("command", nargs="*", help="one UCI command to run, then quit (e.g. bench, or bench 10)")
    p.set_defaults(run=_cmd_uci)

    p = sub.add_parser("play", help="play a game against the AI in the console",
                       description="The seed notebook's console game: the board is printed, the legal moves listed, "
                                   "you type a move (SAN such as Nf3, or UCI such as g1f3) and the AI answers.")
    p.add_argument("--black", action="store_true", help="play Black (the AI opens)")
    p.add_argument("--time", type=float, default=3.0, metavar="S", help="the AI's seconds a move (default 3)")
    p.add_argument("--book", type=Path, default=None, metavar="FILE", help="Polyglot opening book (default: "
                                                                           "Debian's gnuchess-book if installed)")
    p.add_argument("--no-book", action="store_true", help="no opening book: the AI searches from the first move")
    p.add_argument("--results", type=Path, default=None, metavar="DIR",
                   help="folder of .chessAI endgame tables (default S_n_Results/, or $CHESSAI_RESULTS)")
    p.set_defaults(run=_cmd_play)

    p = sub.add_parser("match", help="play a match between engines (by fastchess), or run a test suite",
                       description="Play --games games between --first (default: this engine) and OPPONENT by "
                                   "fastchess (built by scripts/setup.sh), each opening of --openings played twice "
                                   "with the colours swapped, --concurrency games at once (default 1), every "
                                   "engine's Move Overhead the same and at most 100 ms, its book and learning off; "
                                   "print +W =D -L, Elo with its 95 % interval, the games lost on time apart, the "
                                   "command, commit and date, and keep the games as PGN. An xboard engine plays "
                                   "through python-chess under the same rules. Engines: ours (ours:OPTION=VALUE,... "
                                   "sets its UCI options, ours:weights=FILE its evaluation weights), sunfish, "
                                   "stockfish[:ELO], phalanx, glaurung, toga2, ethereal, gnuchess, fairymax, "
                                   "uci:COMMAND, xboard:COMMAND. With --suite: the positions of an EPD file at "
                                   "--time seconds (or --nodes nodes) each instead.")
    p.add_argument("opponent", nargs="?", default="sunfish", help="the second engine (default sunfish)")
    p.add_argument("--first", default="ours", metavar="ENGINE", help="the first engine (default ours)")
    p.add_argument("--games", type=int, default=20, help="games, an even number (default 20)")
    p.add_argument("--tc", default="10+0.1", metavar="BASE+INC", help="seconds a game + seconds a move "
                                                                      "(default 10+0.1)")
    p.add_argument("--openings", type=Path, default=None, metavar="FILE",
                   help="one FEN or EPD a line (default ../shared/suites/openings_chessathome.fen, or $SUITES_PATH)")
    p.add_argument("--start", type=int, default=0, metavar="N", help="first opening of the file (from 0)")
    p.add_argument("--pgn", type=Path, default=None, metavar="FILE",
                   help="where the games go (appended; default Tests/match_DATE_FIRST_vs_SECOND.pgn)")
    p.add_argument("--move-overhead", type=int, default=50, metavar="MS",
                   help="the Move Overhead of every engine that has one (default 50 ms, at most 100: the time a move "
                        "spends in pipes, which the clock charges to the engine)")
    p.add_argument("--time-margin", type=int, default=0, metavar="MS",
                   help="milliseconds a move may overrun its clock before it loses on time (fastchess's timemargin; "
                        "default 0)")
    p.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="games played at once (default 1; at most one a core)")
    p.add_argument("--sprt", type=float, nargs=2, default=None, metavar=("ELO0", "ELO1"),
                   help="a sequential probability ratio test of H0: Elo = ELO0 against H1: Elo = ELO1 "
                        "(alpha = beta = 0.05), --games the most games; stops when it decides")
    p.add_argument("--sprt-model", choices=("normalized", "logistic"), default="normalized",
                   help="the Elo of the --sprt bounds: normalized (nElo, as fishtest; default) or logistic")
    p.add_argument("--book", action="store_true", help="our engine uses its opening book (default: off, the "
                                                       "openings come from the file)")
    p.add_argument("--suite", type=Path, default=None, metavar="FILE",
                   help="instead of a match: run --first on this EPD suite (bm/am) or mateN.fen file")
    p.add_argument("--time", type=float, default=1.0, metavar="S", help="with --suite: seconds a position (default 1)")
    p.add_argument("--nodes", type=int, default=None, metavar="N",
                   help="with --suite: N nodes a position instead of --time (the same result on a busy machine)")
    p.add_argument("--verbose", action="store_true", help="with --suite: one line per position")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_cmd_match)

