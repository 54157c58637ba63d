"""Start positions for an endgame match: from the games of PGN files, the first position of each game with
at most ``--pieces`` men (kings included) and a material balance of at most ``--balance`` pawns (pawn 1,
knight and bishop 3, rook 5, queen 9), one FEN a line, each position once.

Such positions are where the tables inside the search can matter (two captures from a table of our
results folder); a match from them (``python -m Util match --openings FILE``) tells whether they help.

    python scripts/endgame_starts.py GAMES.pgn [MORE.pgn ...] --pieces 6 --out endgames.fen
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterable, Iterator, Optional

import chess
import chess.pgn

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def balance(board: chess.Board) -> int:
    """White's material minus Black's, in pawns."""
    return sum(VALUES[p.piece_type] * (1 if p.color else -1) for p in board.piece_map().values())


def first_endgame(game: chess.pgn.Game, pieces: int, most_balance: int) -> Optional[str]:
    """The FEN of the first position of ``game`` with at most ``pieces`` men, if its balance is within
    ``most_balance`` pawns, it is not over and nobody can castle; else None."""
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
        if chess.popcount(board.occupied) <= pieces:
            if abs(balance(board)) <= most_balance and not board.is_game_over() and not board.castling_rights:
                return board.fen()
            return None
    return None


def endgame_starts(paths: Iterable[Path], pieces: int, most_balance: int) -> Iterator[str]:
    """Each game's first endgame position (see :func:`first_endgame`), each once, in the files' order."""
    seen = set()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                fen = first_endgame(game, pieces, most_balance)
                if fen is not None and fen.rsplit(" ", 2)[0] not in seen:
                    seen.add(fen.rsplit(" ", 2)[0])
                    yield fen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", type=Path, help="PGN files of games")
    parser.add_argument("--pieces", type=int, default=6, help="men on the board, kings included (default 6)")
    parser.add_argument("--balance", type=int, default=3, help="the most material ahead, in pawns (default 3)")
    parser.add_argument("--out", type=Path, help="the FEN file to write (default: standard output)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.pgn if not p.is_file()]
    if missing:
        parser.error(f"no such PGN file: {', '.join(missing)}")
    fens = list(endgame_starts(args.pgn, args.pieces, args.balance))
    text = "".join(f"{fen}\n" for fen in fens)
    if args.out:
        args.out.write_text(text)
        print(f"{len(fens)} positions written to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
