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

    return run_uci(results=args.results, book=args.book)


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

    first = engine_spec(args.first, own_book=args.book)
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
    from .match import TimeControl, default_openings_file, play_match, read_openings

    second = engine_spec(args.opponent, own_book=args.book)
    control = TimeControl.parse(args.tc)
    if args.games < 2 or args.games % 2:
        print("match: --games must be an even number, 2 or more (each opening is played with both colours)",
              file=sys.stderr)
        return 2
    openings = read_openings(args.openings or default_openings_file(), args.start, args.games // 2)
    if len(openings) < args.games // 2:
        print(f"match: only {len(openings)} openings from number {args.start} on; playing {2 * len(openings)} games",
              file=sys.stderr)
    stamp = datetime.datetime.now().strftime("%Y%m%d_%H%M%S")
    pgn = args.pgn or Path("Tests") / f"match_{stamp}_{_slug(first.name)}_vs_{_slug(second.name)}.pgn"
    result = play_match(first, second, openings, control, pgn, progress=not args.quiet,
                        move_overhead_ms=args.move_overhead)
    print(f"{first.name} vs {second.name} at {control}, {result.games} games: {result.line()}")
    print(f"games saved to {pgn}")
    return 0


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name).strip("_").lower()


def add_game_commands(sub) -> None:
    """Add ``uci``, ``play`` and ``match`` to the sub-parsers ``sub`` of ``python -m Util``."""
    p = sub.add_parser("uci", help="run the whole-game engine as a UCI engine (for GUIs, lichess-bot, chess.engine)",
                       description="Speak the Universal Chess Interface on standard input and output: the opening "
                                   "book, our endgame tables at five pieces or fewer, the search otherwise. Options: "
                                   "Hash, OwnBook, BookFile, TablebasePath, Move Overhead; 'go perft N' counts moves "
                                   "as Stockfish's does.")
    p.add_argument("--results", type=Path, default=None, metavar="DIR",
                   help="folder of .chessAI tables (the TablebasePath option's default; else S_n_Results/, or "
                        "$CHESSAI_RESULTS)")
    p.add_argument("--book", type=Path, default=None, metavar="FILE",
                   help="Polyglot opening book (the BookFile option's default; else Debian's gnuchess-book)")
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

    p = sub.add_parser("match", help="play a match between engines, or run a test suite",
                       description="Play --games games between --first (default: this engine) and OPPONENT, each "
                                   "opening of --openings played twice with the colours swapped, on real clocks "
                                   "(--tc), one game at a time; print +W =D -L, score, Elo with its 95 % interval "
                                   "and LOS, and save the games as PGN. Engines: ours (ours:OPTION=VALUE,... sets its UCI "
                                   "options, ours:weights=FILE its evaluation weights), sunfish, stockfish[:ELO], "
                                   "phalanx, glaurung, toga2, ethereal, fairymax, uci:COMMAND, xboard:COMMAND. "
                                   "With --suite: the positions of an EPD file at --time seconds (or --nodes nodes) each "
                                   "instead.")
    p.add_argument("opponent", nargs="?", default="sunfish", help="the second engine (default sunfish)")
    p.add_argument("--first", default="ours", metavar="ENGINE", help="the first engine (default ours)")
    p.add_argument("--games", type=int, default=20, help="games, an even number (default 20)")
    p.add_argument("--tc", default="10+0.1", metavar="BASE+INC", help="seconds a game + seconds a move "
                                                                      "(default 10+0.1)")
    p.add_argument("--openings", type=Path, default=None, metavar="FILE",
                   help="one FEN a line (default ../shared/suites/openings_chessathome.fen, or $SUITES_PATH)")
    p.add_argument("--start", type=int, default=0, metavar="N", help="first opening of the file (from 0)")
    p.add_argument("--pgn", type=Path, default=None, metavar="FILE",
                   help="where the games go (appended; default Tests/match_DATE_FIRST_vs_SECOND.pgn)")
    p.add_argument("--move-overhead", type=int, default=100, metavar="MS",
                   help="the Move Overhead option of every engine that has one (default 100 ms: the time a move "
                        "spends in pipes and in this process, which the clock charges to the engine)")
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

