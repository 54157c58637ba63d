"""One start position's games told in words: what notebook 05 prints for its example.

:func:`Util.stockfish.compare.compare_fen_stockfish` plays three games from one position (the AI game,
the Stockfish game, Stockfish against the table's best defence); :func:`describe_position` says what
each one shows: its length in plies against the promised n, how it ended, its moves, the thesis's
verdict, and whether a short game was short because Black left the best defence.
"""

from __future__ import annotations

from typing import List

import chess

from .compare import ComparedGame, PositionResult

__all__ = ["describe_position", "final_board"]


def final_board(game: ComparedGame) -> chess.Board:
    """The position on the board after the game's last move."""
    board = chess.Board(game.start_fen)
    for uci in game.moves:
        board.push_uci(uci)
    return board


def describe_position(result: PositionResult) -> List[str]:
    """The lines that tell ``result``'s three games: n and the promise, each game (plies, end, moves in
    SAN), the verdict, how each mated game's length stands to n, and the game against the best defence.
    ValueError if a game was not played (an engine failure: ``result.failure`` says why)."""
    games = (("AI game", result.ai), ("Stockfish game", result.stockfish), ("vs best defence", result.stockfish_best))
    if result.failure or any(game is None for _, game in games):
        raise ValueError(f"{result.fen}: the games were not all played ({result.failure or 'not started'})")
    n = result.n
    lines = [f"n = {n}: the AI promises mate within {n} plies"]
    lines += [f"{name:15} {game.plies:3} plies, {game.end}: {game.san()}" for name, game in games]
    lines.append(f"verdict: {result.verdict}")
    for name, game in games[:2]:
        if game.mated:
            relation = "fewer than" if game.plies < n else "exactly" if game.plies == n else "more than"
            lines.append(f"  {name}: {game.plies} plies, {relation} n = {n}"
                         + (": Black left the best defence in it" if game.plies < n else ""))
    best = result.stockfish_best
    lines.append(f"  against the best defence Stockfish needed {best.plies} plies ({best.end}); n = {n}")
    return lines
