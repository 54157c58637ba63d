"""Random positions for the tests: legal boards of a material, and boards just after a double step."""

import random

import chess

from Util.board.material import Material


def random_boards(material: str, count: int, seed: int):
    rng, letters, boards = random.Random(seed), Material.parse(material).letters, []
    while len(boards) < count:
        board = chess.Board(None)
        for square, letter in zip(rng.sample(range(64), len(letters)), letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            boards.append(board)
    return boards


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
