"""The opening book: a Polyglot ``.bin`` file read with python-chess, a move drawn by the book's weights.

::

    from Util.whole_game.opening_book import import_opening_book

    with import_opening_book() as book:          # Debian's gnuchess-book, or $CHESSAI_BOOK
        choice = book.get_opening_move(board)    # a BookMove, or None out of book
        choice.move, choice.weight, choice.share

As in the seed notebook, a move is drawn at random with the probability its
weight gives among the book's moves for the position (``weighted_choice``),
so that the same opponent meets different openings; a seeded
:class:`random.Random` makes the draws repeatable.  The book and our
transposition table share one key: Polyglot's Zobrist hash, which python-chess
computes (``chess.polyglot.zobrist_hash``).

Where the default book lives: the variable ``CHESSAI_BOOK`` names a file; else
the first of :data:`DEFAULT_BOOK_PATHS` that exists (Debian's ``gnuchess-book``
puts its public-domain book in ``/usr/share/games/gnuchess/book.bin``).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Union

import chess
import chess.polyglot

__all__ = ["BookMove", "DEFAULT_BOOK_PATHS", "OpeningBook", "find_default_book", "get_opening_move",
           "import_opening_book"]

#: Where a book is looked for when none is named, first found first used.
DEFAULT_BOOK_PATHS = (
    Path("/usr/share/games/gnuchess/book.bin"),   # Debian's gnuchess-book (scripts/setup.sh installs it)
    Path("/usr/share/gnuchess/book.bin"),
    Path("/usr/local/share/games/gnuchess/book.bin"),
)


@dataclass(frozen=True)
class BookMove:
    """A move the book gives: ``weight`` its weight in the book, ``total_weight`` that of all the position's
    moves (so ``share`` is the chance it had of being drawn), ``alternatives`` how many moves the book has."""

    move: chess.Move
    weight: int
    total_weight: int
    alternatives: int

    @property
    def share(self) -> float:
        return self.weight / self.total_weight if self.total_weight else 0.0


def find_default_book() -> Optional[Path]:
    """The book used when none is named: the file ``$CHESSAI_BOOK`` names, else the first of
    :data:`DEFAULT_BOOK_PATHS` that exists; None if there is none (the engine then plays without a book)."""
    named = os.environ.get("CHESSAI_BOOK")
    if named:
        return Path(named)
    return next((path for path in DEFAULT_BOOK_PATHS if path.is_file()), None)


class OpeningBook:
    """A Polyglot book opened for reading (memory-mapped; cheap to keep open).  ``rng``: the source of the
    weighted draws, a :class:`random.Random` or a seed (default: an unseeded one).  Thread-safe for
    reading as long as the ``rng`` is not shared with other threads."""

    def __init__(self, path: Union[str, os.PathLike], *, rng: Union[random.Random, int, None] = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"{self.path}: no such opening book; name a Polyglot .bin file, or install "
                                    f"Debian's gnuchess-book (apt-get install gnuchess-book)")
        try:
            self.reader = chess.polyglot.open_reader(self.path)
        except (OSError, ValueError) as error:
            raise ValueError(f"{self.path}: not a Polyglot book ({error})") from None
        if len(self.reader) == 0:
            self.reader.close()
            raise ValueError(f"{self.path}: not a Polyglot book (no entries; a book is a multiple of 16 bytes)")
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def entries(self, board: chess.Board) -> List[chess.polyglot.Entry]:
        """The book's legal moves for ``board`` with weight 1 or more, as stored (heaviest first)."""
        return sorted(self.reader.find_all(board), key=lambda entry: -entry.weight)

    def get_opening_move(self, board: chess.Board) -> Optional[BookMove]:
        """A move drawn from the book's moves for ``board`` with the chance its weight gives; None out of
        book (no entry, or none of weight 1 or more)."""
        entries = self.entries(board)
        total = sum(entry.weight for entry in entries)
        if not entries or total <= 0:
            return None
        draw = self.rng.randrange(total)
        for entry in entries:
            draw -= entry.weight
            if draw < 0:
                return BookMove(entry.move, entry.weight, total, len(entries))
        raise AssertionError("unreachable: the draw is below the total weight")

    def close(self) -> None:
        self.reader.close()

    def __enter__(self) -> "OpeningBook":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"OpeningBook({str(self.path)!r}, {len(self.reader)} entries)"


def import_opening_book(book_location: Union[str, os.PathLike, None] = None, *,
                        rng: Union[random.Random, int, None] = None) -> OpeningBook:
    """Open the book at ``book_location`` (default: :func:`find_default_book`).  FileNotFoundError, saying how
    to get one, when there is no such file or no default book; ValueError when the file is not a book."""
    path = book_location if book_location is not None else find_default_book()
    if path is None:
        raise FileNotFoundError("no opening book found: install Debian's gnuchess-book (apt-get install "
                                "gnuchess-book), or name a Polyglot .bin file (CHESSAI_BOOK, BookFile, --book)")
    return OpeningBook(path, rng=rng)


def get_opening_move(board: chess.Board, opening_book: Optional[OpeningBook]) -> Optional[chess.Move]:
    """The seed's ``get_opening_move``: a weighted draw from ``opening_book`` for ``board``, or None when
    there is no book or the position is not in it."""
    if opening_book is None:
        return None
    choice = opening_book.get_opening_move(board)
    return choice.move if choice else None
