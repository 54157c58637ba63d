"""``python -m Util uci`` spoken to as a GUI would, over a pipe, and a game through python-chess's
chess.engine against Stockfish on a real clock."""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from Util.whole_game_lab.match import TimeControl, play_game

ROOT = Path(__file__).resolve().parents[2]
ENGINE = [sys.executable, "-m", "Util", "uci"]
STOCKFISH = shutil.which("stockfish", path="/usr/games:/usr/bin")


class Pipe:
    """The engine as a subprocess: ``send`` a line, ``until`` a line that starts so (lines before it
    returned too), with a time limit."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str, seconds: float = 60.0) -> list:
        seen, deadline = [], time.monotonic() + seconds
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"the engine ended before '{prefix}': {seen}, stderr "
                                     f"{self.process.stderr.read()}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self) -> None:
        if self.process.poll() is None:
            self.send("quit")
            self.process.wait(timeout=30)


@pytest.fixture
def pipe():
    engine = Pipe()
    yield engine
    engine.close()


def python_chess_divide(board: chess.Board, depth: int) -> dict:
    """Leaves below each root move by python-chess's own move generation."""
    def count(depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += count(depth - 1)
            board.pop()
        return total

    divided = {}
    for move in list(board.legal_moves):
        board.push(move)
        divided[move.uci()] = count(depth - 1)
        board.pop()
    return divided


def test_a_full_conversation(pipe):
    lines = pipe.until("uciok", 10) if pipe.send("uci") is None else None
    assert lines[0].startswith("id name")
    for option in ("Hash", "OwnBook", "BookFile", "TablebasePath", "Move Overhead", "UCI_LimitStrength", "UCI_Elo"):
        assert any(line.startswith(f"option name {option} type") for line in lines), option
    pipe.send("isready")
    pipe.until("readyok", 60)
    pipe.send("ucinewgame")
    pipe.send("setoption name OwnBook value false")
    pipe.send("position startpos moves e2e4")
    pipe.send("go depth 3")
    lines = pipe.until("bestmove", 120)
    board = chess.Board()
    board.push_san("e4")
    assert chess.Move.from_uci(lines[-1].split()[1]) in board.legal_moves
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(" score " in line and " nodes " in line and " pv " in line for line in infos)

    pipe.send("position startpos")
    pipe.send("go perft 3")
    lines = pipe.until("Nodes searched", 120)
    assert lines[-1] == "Nodes searched: 8902"
    counted = dict(line.split(": ") for line in lines[:-2])
    expected = python_chess_divide(chess.Board(), 3)
    assert {move: int(n) for move, n in counted.items()} == expected
    assert lines[-2] == ""


def test_uci_elo_plays_the_weakest_level_within_its_depth(pipe):
    """UCI_LimitStrength with UCI_Elo at the lowest label plays level 1 (depth 2), however deep go asks;
    its range is the levels' labels."""
    from Util.whole_game.levels import LEVELS

    lines = pipe.until("uciok", 10) if pipe.send("uci") is None else None
    assert f"option name UCI_Elo type spin default {LEVELS[-1].elo} min {LEVELS[0].elo} max {LEVELS[-1].elo}" in lines
    for option in ("OwnBook value false", "UCI_LimitStrength value true", f"UCI_Elo value {LEVELS[0].elo}"):
        pipe.send(f"setoption name {option}")
    pipe.send("isready")
    pipe.until("readyok", 60)
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    pipe.send(f"position fen {fen}")
    pipe.send("go depth 8")
    lines = pipe.until("bestmove", 60)
    assert chess.Move.from_uci(lines[-1].split()[1]) in chess.Board(fen).legal_moves
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert depths and max(depths) <= LEVELS[0].depth


def test_perft_after_moves_and_from_a_fen(pipe):
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"  # Kiwipete
    pipe.send(f"position fen {fen} moves e1g1 h3g2")
    pipe.send("go perft 2")
    lines = pipe.until("Nodes searched", 120)
    board = chess.Board(fen)
    board.push_uci("e1g1")
    board.push_uci("h3g2")
    expected = python_chess_divide(board, 2)
    assert {move: int(n) for move, n in (line.split(": ") for line in lines[:-2])} == expected
    assert lines[-1] == f"Nodes searched: {sum(expected.values())}"


def test_bad_input_is_answered_and_forgotten(pipe):
    for line in ("hello", "position startpos moves e2e4 e7e4", "position fen not/a/fen w", "go depth x",
                 "setoption name Nonsense value 1", "setoption name Hash value lots", "position"):
        pipe.send(line)
        assert pipe.until("info string", 10)[-1].startswith("info string")
    pipe.send("isready")
    pipe.until("readyok", 60)
    pipe.send("d")
    lines = pipe.until("Fen:", 10)
    assert lines[-1] == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"  # kept up to e7e4


def test_an_impossible_position_is_said_in_words(pipe):
    pipe.send("position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1")  # Black, not to move, in check
    said = pipe.until("info string", 10)[-1]
    assert "is not a legal position: the side that is not to move is in check" in said and "Status" not in said


def test_stop_ends_an_infinite_search(pipe):
    pipe.send("setoption name OwnBook value false")
    pipe.send("position startpos")
    pipe.send("go infinite")
    time.sleep(1.0)
    pipe.send("isready")
    pipe.until("readyok", 10)  # answered while searching
    pipe.send("stop")
    move = pipe.until("bestmove", 10)[-1].split()[1]
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


def test_a_finished_game_has_no_move(pipe):
    pipe.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")  # fool's mate
    pipe.send("go movetime 100")
    assert pipe.until("bestmove", 30)[-1] == "bestmove (none)"


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish not installed (apt-get install stockfish)")
def test_a_short_game_against_stockfish_on_a_real_clock():
    """30 plies at 6+0.1 from the start (our book on), Stockfish at UCI_Elo 1350: every move of ours is
    legal (python-chess checks) and our clock never runs out."""
    control = TimeControl(6.0, 0.1)
    with chess.engine.SimpleEngine.popen_uci(ENGINE, cwd=ROOT) as ours, \
            chess.engine.SimpleEngine.popen_uci(STOCKFISH) as fish:
        # Stockfish keeps back what a shared machine's wall time adds to its moves, at most what a match gives
        fish.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350, "Threads": 1, "Move Overhead": 100})
        game = play_game({chess.WHITE: ours, chess.BLACK: fish}, {chess.WHITE: "ours", chess.BLACK: "Stockfish"},
                         chess.STARTING_FEN, control, max_plies=30)
    termination = game.headers["Termination"]
    ours_lost = game.headers["Result"] == "0-1"
    assert not (ours_lost and termination == "time forfeit") and termination not in ("illegal move", "abandoned"), \
        (termination, game.comment)
    clocks = [node.clock() for node in game.mainline() if node.turn() == chess.BLACK]  # after each move of ours
    assert min(clocks) > 0.5, clocks
    moves = list(game.mainline_moves())
    assert len(moves) >= 10 or game.headers["Result"] == "1-0"


def test_two_threads_answer_on_a_clock_and_stop_together(pipe):
    """``setoption name Threads value 2``: listed as a spin from 1, a one-second clock answered with info
    lines and a legal move, ``go infinite`` ended by ``stop`` with a legal move, and the engine answering
    (``isready``) after each; ``Threads 0`` is clamped to 1, not refused."""
    lines = pipe.until("uciok", 10) if pipe.send("uci") is None else None
    assert "option name Threads type spin default 1 min 1 max 8" in lines
    pipe.send("setoption name OwnBook value false")
    pipe.send("setoption name Threads value 2")
    pipe.send("isready")
    pipe.until("readyok", 120)
    board = chess.Board()
    board.push_san("e4")
    pipe.send("position startpos moves e2e4")
    pipe.send("go wtime 1000 btime 1000")
    lines = pipe.until("bestmove", 120)
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(" score " in line and " nodes " in line and " pv " in line for line in infos)
    move = lines[-1].split()[1]
    assert chess.Move.from_uci(move) in board.legal_moves
    assert infos[-1].split()[infos[-1].split().index("pv") + 1] == move
    pipe.send("go infinite")
    pipe.until("info depth 4", 60)
    pipe.send("stop")
    assert chess.Move.from_uci(pipe.until("bestmove", 30)[-1].split()[1]) in board.legal_moves
    pipe.send("isready")
    pipe.until("readyok", 30)
    pipe.send("setoption name Threads value 0")
    pipe.send("go depth 3")
    assert chess.Move.from_uci(pipe.until("bestmove", 60)[-1].split()[1]) in board.legal_moves
