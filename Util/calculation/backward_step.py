"""The thesis's backward step in plain Python: S_0, S_1, ... found by un-making moves on python-chess boards.

This is the algorithm of the thesis's chapter 3 ("Rückwärts neue Situationen bestimmen"), small enough
to read in one sitting, for materials with a lone black king (KQvK, KRvK, KPvK, ...):

* ``checkmates``: S_0, every placement of the pieces with Black to move and checkmated;
* ``predecessors``: the boards one move before a board, found by un-making a move of the side that has
  just moved.  As in the thesis (its section 3.6) the un-moves are generated as *pseudo-legal* moves:
  a king that stepped out of check is found by a backward step into that check, which a legal move
  generator would never offer.  Pawns are stepped back by hand (one square, or two onto their starting
  rank), and a piece on the last rank may be un-promoted to the pawn it was;
* ``previous_states``: S_(n+1) from S_n.  A White board needs one move into S_n; a Black board is kept
  only if ``check_black_determinism`` finds that *every* Black move leads into some earlier set.

No un-captures: with a lone black king, a capture by White is impossible and a capture by Black leaves
two bare kings, a draw, so no board of any S_n is reached by a capture.

It is slow on purpose (one python-chess board at a time, no symmetry, nothing compiled): the engine
(``Util.retrograde``) computes the same sets on integer indices, folded by symmetry, with compiled loops,
and ``Util/tests/test_backward_step.py`` checks that the two agree set for set on KQvK and KPvK.

Units: a *board* is one position (pieces and side to move).  The sets hold each board as a
``position_key``; ``key_to_integer`` turns one into the engine's board integer (:mod:`Util.board.integer`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import chess

from ..board.material import Material

#: A board as a hashable value: side to move, White's squares and the squares of each kind of piece.
Key = Tuple[bool, int, int, int, int, int, int, int]

#: The piece types in the order of ``position_key``'s bitboards.
KEY_PIECE_TYPES = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)

#: Un-promotion: a piece on the last rank (of White) that may have been a pawn a move before.
PROMOTED_TYPES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def _identity(bitboard: int) -> int:
    return bitboard


#: The eight symmetries of the board as maps of bitboards: the thesis's Swap_Type and the identity.
SYMMETRIES = (_identity, chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal,
              lambda bb: chess.flip_vertical(chess.flip_horizontal(bb)),  # rotation by 180 degrees
              lambda bb: chess.flip_vertical(chess.flip_diagonal(bb)),  # rotations by 90 degrees, both ways
              lambda bb: chess.flip_horizontal(chess.flip_diagonal(bb)))
#: With pawns only the mirror between the a- and h-files keeps every move a move.
PAWN_SYMMETRIES = (_identity, chess.flip_horizontal)


def position_key(board: chess.Board) -> Key:
    """The board as a set element: what the thesis's ``(board.turn, str(board))`` says, quicker to build."""
    return (board.turn, board.occupied_co[chess.WHITE], board.kings, board.queens, board.rooks, board.bishops,
            board.knights, board.pawns)


def key_to_board(key: Key) -> chess.Board:
    """The python-chess board of a ``position_key`` (no castling rights, no en passant square)."""
    turn, white, *bitboards = key
    board = chess.Board(None)
    for piece_type, squares in zip(KEY_PIECE_TYPES, bitboards):
        for square in chess.scan_forward(squares):
            board.set_piece_at(square, chess.Piece(piece_type, bool(white & chess.BB_SQUARES[square])))
    board.turn = turn
    return board


def key_to_integer(key: Key, piece_list: Sequence[chess.Piece]) -> int:
    """The engine's board integer of a ``position_key`` (:func:`Util.board.integer.to_integer` without a board):
    6 bits per piece in ``piece_list`` order, identical pieces in ascending square order, then the side to move."""
    turn, white, *bitboards = key
    by_type = dict(zip(KEY_PIECE_TYPES, bitboards))
    taken: Dict[chess.Piece, int] = {}
    value = 0
    for piece in piece_list:
        own = white if piece.color == chess.WHITE else ~white
        squares = list(chess.scan_forward(by_type[piece.piece_type] & own))
        value = (value << 6) | squares[taken.get(piece, 0)]
        taken[piece] = taken.get(piece, 0) + 1
    return (value << 1) | int(turn)


def images(key: Key, symmetries: Sequence = SYMMETRIES) -> Set[Key]:
    """The board of ``key`` and its mirror images (the thesis's ``mirror`` for every Swap_Type), as keys."""
    turn, *bitboards = key
    return {(turn, *[symmetry(bb) if bb else 0 for bb in bitboards]) for symmetry in symmetries}


def symmetries_of(material: Material, fold: bool) -> Sequence:
    """The symmetries the backward step may fold: none unless ``fold``, one mirror with pawns, eight without."""
    if not fold:
        return (_identity,)
    return PAWN_SYMMETRIES if material.has_pawns else SYMMETRIES


def integer_to_key(board_int: int, piece_list: Sequence[chess.Piece]) -> Key:
    """The ``position_key`` of an engine's board integer (the inverse of :func:`key_to_integer`)."""
    by_type = dict.fromkeys(KEY_PIECE_TYPES, 0)
    white, rest = 0, board_int >> 1
    for piece in reversed(piece_list):
        square = chess.BB_SQUARES[rest & 63]
        rest >>= 6
        by_type[piece.piece_type] |= square
        white |= square if piece.color == chess.WHITE else 0
    return (bool(board_int & 1), white, *by_type.values())


def legal_position(board: chess.Board) -> bool:
    """The thesis's ``is_valid``: a king each, kings apart, no pawn on rank 1 or 8, the side *not* to move not in check."""
    return board.is_valid()


def legal_after_un_move(board: chess.Board) -> bool:
    """``legal_position`` for a board made by an un-move, where only the check can be wrong: the side not to
    move is not in check (which also keeps the kings apart).  Pawns are never stepped back onto rank 1."""
    return not board.is_attacked_by(board.turn, board.king(not board.turn))


def checkmates(material: Material, fold: bool = False) -> Set[Key]:
    """S_0: every placement of ``material``'s pieces, Black to move, that python-chess calls checkmate.

    The pieces go on in ``piece_list`` order (kings first, so that touching kings are skipped at once);
    a board with the same pieces on the same squares is found once however its identical pieces were placed.
    ``fold``: place the white king only where the engine keeps it (a1-d1-d4; with pawns files a-d) and add
    the mirror images of every checkmate found, as the thesis does.
    """
    symmetries = symmetries_of(material, fold)
    king_squares = [s for s in chess.SQUARES if not fold or (chess.square_file(s) < 4 and (
        material.has_pawns or chess.square_rank(s) <= chess.square_file(s)))]
    pieces = material.piece_list
    board = chess.Board(None)
    board.turn = chess.BLACK
    found: Set[Key] = set()

    def place(i: int) -> None:
        if i == len(pieces):
            if board.is_check() and board.is_checkmate() and legal_position(board):
                found.update(images(position_key(board), symmetries))
            return
        for square in chess.SQUARES:
            if board.piece_type_at(square) is not None:
                continue
            if pieces[i].piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            if i == 0 and square not in king_squares:
                continue
            if i == 1 and chess.square_distance(square, board.king(chess.WHITE)) <= 1:
                continue  # the kings would touch
            board.set_piece_at(square, pieces[i])
            place(i + 1)
            board.remove_piece_at(square)

    place(0)
    return found


def _moved(board: chess.Board, piece: chess.Piece, from_square: int, to_square: int, turn: chess.Color
           ) -> Optional[chess.Board]:
    """A copy of ``board`` with ``piece`` taken from ``from_square`` to ``to_square`` and ``turn`` to move;
    None if that board breaks the rules."""
    before = board.copy(stack=False)
    before.remove_piece_at(from_square)
    before.set_piece_at(to_square, piece)
    before.turn = turn
    return before if legal_after_un_move(before) else None


def predecessors(board: chess.Board) -> Iterator[chess.Board]:
    """The boards with the same pieces from which one move of the side that just moved leads to ``board``.

    Pieces step back along the moves they could make from where they stand (pseudo-legal moves, captures
    left out: the square a piece came from was empty).  A White pawn steps back one square, or two onto
    rank 2 when both squares are empty; it never stands on rank 1.  Un-captures are not made (see the
    module's docstring); un-promotions lead into another material: :func:`un_promotions`.
    """
    mover = not board.turn
    backwards = board.copy(stack=False)
    backwards.turn = mover  # generate the mover's moves from where its pieces stand now
    for move in backwards.pseudo_legal_moves:
        piece = backwards.piece_at(move.from_square)
        if piece is None or piece.piece_type == chess.PAWN or backwards.is_capture(move):
            continue
        before = _moved(board, piece, move.from_square, move.to_square, mover)
        if before is not None:
            yield before
    step = -8 if mover == chess.WHITE else 8
    start_rank = 1 if mover == chess.WHITE else 6
    for square in board.pieces(chess.PAWN, mover):
        one = square + step
        if not 0 <= one < 64 or board.piece_type_at(one) is not None:
            continue
        if chess.square_rank(one) not in (0, 7):
            before = _moved(board, chess.Piece(chess.PAWN, mover), square, one, mover)
            if before is not None:
                yield before
        two = one + step
        if chess.square_rank(two) == start_rank and board.piece_type_at(two) is None:
            before = _moved(board, chess.Piece(chess.PAWN, mover), square, two, mover)
            if before is not None:
                yield before


def un_promotions(board: chess.Board) -> Iterator[chess.Board]:
    """Boards one White move before ``board`` (Black to move) in which a White pawn promoted, without capturing,
    to a piece now on rank 8: the boards of the material with a pawn in its place, on rank 7."""
    if board.turn != chess.BLACK:
        return
    for piece_type in PROMOTED_TYPES:
        for square in board.pieces(piece_type, chess.WHITE) & chess.BB_RANK_8:
            below = square - 8
            if board.piece_type_at(below) is None:
                before = board.copy(stack=False)
                before.remove_piece_at(square)
                before.set_piece_at(below, chess.Piece(chess.PAWN, chess.WHITE))
                before.turn = chess.WHITE
                if legal_after_un_move(before):
                    yield before


def check_black_determinism(board: chess.Board, decided: Set[Key]) -> bool:
    """Black's "every move" condition (the thesis's ``check_black_determinism``): every legal move of Black
    leads to a board already in some S_m.  A capture leaves two bare kings, in no S_m, so it fails."""
    for move in board.legal_moves:
        board.push(move)
        inside = position_key(board) in decided
        board.pop()
        if not inside:
            return False
    return True


def previous_states(s_n: Iterable[Key], n: int, decided: Set[Key], promoted_s_n: Iterable[Key] = (),
                    symmetries: Sequence = (_identity,)) -> Tuple[Set[Key], List[Key]]:
    """S_(n+1) from S_n: the boards in no earlier set that one move leads into S_n, and, if Black is to move
    in them (n odd), from which *every* Black move leads into an earlier set.

    ``s_n``: the boards of S_n to un-make moves from (with ``symmetries``, one board of each set of mirror
    images: the thesis's ``uniques``); ``decided``: every board of S_0 .. S_n; ``promoted_s_n``: the boards of
    S_n of the tables a promotion leads into (their un-promotions are White's boards of S_(n+1)).
    Returns S_(n+1) with every mirror image, and one board of each set of images (the next step's ``s_n``).
    """
    new: Set[Key] = set()
    uniques: List[Key] = []
    rejected: Set[Key] = set()
    un_made = [before for key in s_n for before in predecessors(key_to_board(key))]
    if n % 2 == 0:
        un_made += [before for key in promoted_s_n for before in un_promotions(key_to_board(key))]
    for before in un_made:
        candidate = position_key(before)
        if candidate in decided or candidate in new or candidate in rejected:
            continue
        if n % 2 == 1 and not check_black_determinism(before, decided):
            rejected |= images(candidate, symmetries)  # Black escapes from the mirror images too
            continue
        new |= images(candidate, symmetries)
        uniques.append(candidate)
    return new, uniques


@dataclass
class BackwardSolution:
    """The S_n of one material as found by the backward step: ``sets[n]`` holds S_n's boards as keys."""

    material: Material
    sets: List[Set[Key]]
    seconds: float
    sizes: Dict[int, int] = field(default_factory=dict)

    def board_integers(self, n: int) -> Set[int]:
        """S_n as the engine's board integers, for comparing set for set with ``SnSequence[n]``."""
        return {key_to_integer(key, self.material.piece_list) for key in self.sets[n]}


def solve(material: Material, promoted: Optional[Dict[Material, BackwardSolution]] = None,
          max_n: Optional[int] = None, fold: bool = True) -> BackwardSolution:
    """Every S_n of a material with a lone black king, by the backward step, up to ``max_n`` if given.

    ``fold``: un-make moves from one board of each set of mirror images only and add the images of each
    board found (the thesis's ``uniques``); the sets are the same either way, ``fold=False`` only slower.

    ``promoted``: the solutions of the tables a promotion leads into (KPvK needs KQvK, KRvK, KBvK and KNvK);
    a table a promotion leads into that is missing raises ValueError.  The loop ends when a step finds
    nothing new and no table a promotion leads into has a larger S_n to feed in.
    """
    if not material.lone_black_king:
        raise ValueError(f"{material}: the backward step here is for a lone black king (KQvK, KPvK, ...)")
    promoted = promoted or {}
    feeders = [material.promoted(letter) for letter in "QRBN"] if "P" in material.white else []
    missing = [child.name for child in feeders if child not in promoted]
    if missing:
        raise ValueError(f"{material}: solve the tables a promotion leads into first ({', '.join(missing)})")
    symmetries = symmetries_of(material, fold)
    start = time.perf_counter()
    sets = [checkmates(material, fold)]
    decided = set(sets[0])
    uniques = list(sets[0]) if not fold else list({min(images(key, symmetries)) for key in sets[0]})
    longest_feeder = max((len(promoted[child].sets) for child in feeders), default=0)
    while max_n is None or len(sets) <= max_n:
        n = len(sets) - 1
        fed = [key for child in feeders if n < len(promoted[child].sets) for key in promoted[child].sets[n]]
        s_next, uniques = previous_states(uniques, n, decided, fed, symmetries)
        if not s_next and n + 1 >= longest_feeder:
            break
        sets.append(s_next)
        decided |= s_next
    return BackwardSolution(material, sets, time.perf_counter() - start, {n: len(s) for n, s in enumerate(sets)})
