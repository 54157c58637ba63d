"""Random positions for the tests: legal boards of a material, and boards just after a double step."""

import random

import chess

from Util.board.random_boards import random_legal_boards


def random_boards(material: str, count: int, seed: int):
    """``count`` legal boards of ``material``, either side to move, from the seed (the one generator's)."""
    return random_legal_boards(material, count, random.Random(seed))


def en_passant_boards(count: int, seed: int):
    """Positions just after a double step, with a legal en passant capture (either colour)."""
    rng, boards = random.Random(seed), []
    while len(boards) < count:
        file, beside = rng.randrange(8), rng.choice((-1, 1))
        if not 0 <= file + beside < 8:
            continue
        white_pushed = rng.random() < 0.5
        rank, behind = (3, -8) if white_pushed else (4, 8)
        board = chess.Board(None)
        pushed = chess.square(file, rank)
        board.set_piece_at(pushed, chess.Piece(chess.PAWN, white_pushed))
        board.set_piece_at(chess.square(file + beside, rank), chess.Piece(chess.PAWN, not white_pushed))
        board.turn = not white_pushed
        board.ep_square = pushed + behind
        free = [s for s in range(64) if board.piece_at(s) is None and s not in (pushed + behind, pushed + 2 * behind)]
        for square, color in zip(rng.sample(free, 2), (chess.WHITE, chess.BLACK)):
            board.set_piece_at(square, chess.Piece(chess.KING, color))
        if board.is_valid() and board.has_legal_en_passant():
            boards.append(board)
    return boards
