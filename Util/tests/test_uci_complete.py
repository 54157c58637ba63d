"""The UCI a GUI, fastchess and lichess-bot expect, spoken to ``./chessai`` (the executable a GUI is given)
over a pipe and through python-chess's chess.engine: fastchess's compliance check, an ``info`` line with a
score before every ``bestmove`` however short the time, MultiPV, ponder/ponderhit, Clear Hash, UCI_ShowWDL,
UCI_Chess960, SyzygyPath and bench.  Waits are for lines, never for fixed times."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import List

import chess
import chess.engine
import pytest

from Util.whole_game_lab.fastchess import find_fastchess
from Util.validation.references import reference_folder

ROOT = Path(__file__).resolve().parents[2]
CHESSAI = ROOT / "chessai"
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


class Engine:
    """``./chessai`` as a subprocess started from another folder: ``send`` a line, ``until`` a line that
    starts so (the lines up to it returned), with a generous limit for a loaded machine."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen([str(CHESSAI)], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: "queue.Queue[str]" = queue.Queue()
        self.changed = set()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.process.stdin.write(line + "\n")
            if line.startswith("setoption name "):
                self.changed.add(line[len("setoption name "):].partition(" value ")[0])
        self.process.stdin.flush()

    def until(self, prefix: str, seconds: float = 120.0) -> List[str]:
        seen, deadline = [], time.monotonic() + seconds
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"the engine ended before '{prefix}': {seen}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def ready(self) -> None:
        self.send("isready")
        self.until("readyok", 300)

    def close(self) -> None:
        if self.process.poll() is None:
            self.send("quit")
            self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """One engine for the module's conversations (each test's options are set back after it)."""
    folder = tmp_path_factory.mktemp("engine")
    engine = Engine(folder)
    engine.send("uci")
    engine.until("uciok", 60)
    engine.send("setoption name OwnBook value false", f"setoption name TablebasePath value {folder}")
    engine.ready()
    engine.base = {"OwnBook": "false", "TablebasePath": str(folder)}
    yield engine
    engine.close()


@pytest.fixture
def engine(started):
    started.changed = set()
    yield started
    from Util.whole_game.uci_options import BY_NAME

    for name in started.changed - {"Clear Hash"}:
        option = BY_NAME[name.lower()]
        default = started.base.get(name, option.default)
        value = ("true" if default else "false") if option.type == "check" else (default if default != "" else "<empty>")
        started.send(f"setoption name {name} value {value}")
    started.send("stop", "ucinewgame")
    started.ready()


def field(line: str, name: str, count: int = 1) -> List[str]:
    words = line.split()
    return words[words.index(name) + 1:words.index(name) + 1 + count]


def test_fastchess_compliance_of_the_executable(tmp_path):
    """fastchess's own UCI check (40 steps: ids, positions, an info line with a score after go wtime 100
    and the like), run on ./chessai from another folder."""
    try:
        program = find_fastchess()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    done = subprocess.run([str(program), "--compliance", str(CHESSAI)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and "Engine passed all compliance checks." in done.stdout, done.stdout + done.stderr


def test_an_info_line_with_a_score_comes_before_every_bestmove_even_at_100_ms(engine):
    for position, go in ((f"fen {MIDDLEGAME}", "go wtime 100"), ("startpos moves e2e4", "go btime 100"),
                         (f"fen {KIWIPETE}", "go wtime 100 winc 100 btime 100 binc 100"), ("startpos", "go nodes 1")):
        engine.send(f"position {position}", go)
        lines = engine.until("bestmove")
        infos = [line for line in lines if line.startswith("info") and " score " in line]
        assert infos, lines
        last = infos[-1].split()
        for word in ("depth", "seldepth", "score", "nodes", "nps", "time", "pv"):
            assert word in last, (word, infos[-1])
        assert last[last.index("pv") + 1] == lines[-1].split()[1]  # the line reported is the move played


def test_the_book_move_is_scored_too(tmp_path):
    started = Engine(tmp_path)
    try:
        started.send("uci", "position startpos", "go wtime 100 btime 100")
        lines = started.until("bestmove")
        assert any(line.startswith("info string book move") for line in lines), lines
        scored = [line for line in lines if line.startswith("info depth")][-1]
        assert " score cp " in scored and field(scored, "pv")[0] == lines[-1].split()[1]
    finally:
        started.close()


def test_multipv_shows_several_lines_best_first():
    with chess.engine.SimpleEngine.popen_uci([str(CHESSAI)]) as chessai:
        chessai.configure({"OwnBook": False})
        board = chess.Board(MIDDLEGAME)
        infos = chessai.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    moves = [info["pv"][0] for info in infos]
    assert len(set(moves)) == 3 and all(move in board.legal_moves for move in moves)
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_ponder_searches_on_the_opponents_time_and_ponderhit_goes_on(engine):
    """``go ponder`` searches without answering; ``ponderhit`` gives the same search the clock (its depths go
    on from where they were), and bestmove follows."""
    engine.send("position startpos moves e2e4 e7e5 g1f3", "go ponder wtime 60000 btime 60000 winc 0 binc 0")
    pondered = engine.until("info depth 5")
    assert not any(line.startswith("bestmove") for line in pondered)
    engine.send("ponderhit")
    lines = engine.until("bestmove")
    depths = [int(field(line, "depth")[0]) for line in lines if line.startswith("info depth")]
    assert depths and depths[0] >= 5 and depths == sorted(depths)  # not started again from depth 1
    board = chess.Board()
    for move in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(move)
    answer = lines[-1].split()
    assert chess.Move.from_uci(answer[1]) in board.legal_moves
    if len(answer) == 4:  # bestmove MOVE ponder REPLY: the reply is legal after the move
        board.push_uci(answer[1])
        assert answer[2] == "ponder" and chess.Move.from_uci(answer[3]) in board.legal_moves


def test_stop_ends_pondering_with_a_move(engine):
    engine.send("position startpos moves d2d4", "go ponder wtime 60000 btime 60000")
    engine.until("info depth 3")
    engine.send("stop")
    board = chess.Board()
    board.push_uci("d2d4")
    assert chess.Move.from_uci(engine.until("bestmove")[-1].split()[1]) in board.legal_moves


def test_clear_hash_makes_the_next_search_as_from_an_empty_table(engine):
    def nodes() -> int:
        engine.send(f"position fen {MIDDLEGAME}", "go depth 7")
        return int(field([line for line in engine.until("bestmove") if line.startswith("info depth 7")][-1],
                         "nodes")[0])

    fresh = nodes()
    assert nodes() < fresh  # the table remembers the first search
    engine.send("setoption name Clear Hash")
    assert nodes() == fresh


def test_show_wdl_gives_per_mille_chances(engine):
    engine.send("setoption name UCI_ShowWDL value true", f"position fen {MIDDLEGAME}", "go depth 4")
    infos = [line for line in engine.until("bestmove") if line.startswith("info depth")]
    for line in infos:
        wins, draws, losses = map(int, field(line, "wdl", 3))
        assert wins + draws + losses == 1000 and min(wins, draws, losses) >= 0
    # White is a bishop down: the engine sees it, and the chances say so
    assert int(field(infos[-1], "cp")[0]) < -150 and int(field(infos[-1], "wdl", 3)[2]) > 900


def test_chess960_positions_moves_and_perft(engine):
    """Shredder-FEN and X-FEN, castling as the king taking its rook, perft equal to python-chess's."""
    shredder = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    engine.send("setoption name UCI_Chess960 value true", f"position fen {shredder}", "go perft 2")
    lines = engine.until("Nodes searched")
    board = chess.Board(shredder, chess960=True)
    expected = {}
    for move in list(board.legal_moves):
        board.push(move)
        expected[board.peek().uci()] = board.legal_moves.count()
        board.pop()
    assert {"e1b1", "e1g1"} <= set(expected)  # both castlings, written as the king taking its rook
    assert dict(line.split(": ") for line in lines[:-2]) == {move: str(n) for move, n in expected.items()}
    engine.send(f"position fen {shredder} moves e1g1 e8b8", "d")
    for move in ("e1g1", "e8b8"):
        board.push_uci(move)
    assert engine.until("Fen:")[-1] == f"Fen: {board.fen()}"
    assert board.fen().startswith("2kr2r1/") and board.fen().split()[0].endswith("/1R3RK1")
    xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"  # X-FEN: the outer rooks
    engine.send(f"position fen {xfen}", "go depth 3")
    move = chess.Move.from_uci(engine.until("bestmove")[-1].split()[1])
    assert move in chess.Board(xfen, chess960=True).legal_moves


def test_syzygy_tables_answer_at_the_root_and_keep_the_win(engine, syzygy):
    folder = reference_folder("syzygy")
    fen = "8/8/4k3/8/8/8/8/R3K3 w - - 0 1"
    engine.send(f"setoption name SyzygyPath value {folder}", "setoption name UCI_ShowWDL value true", "isready")
    lines = engine.until("readyok")
    assert not any("Syzygy" in line for line in lines), lines  # opened without complaint
    engine.send(f"position fen {fen}", "go wtime 10000 btime 10000")
    lines = engine.until("bestmove")
    assert any(line.startswith("info string Syzygy move") for line in lines), lines
    board = chess.Board(fen)
    board.push_uci(lines[-1].split()[1])
    assert syzygy.probe_wdl(board) == -2 and abs(syzygy.probe_dtz(board)) < abs(syzygy.probe_dtz(chess.Board(fen)))
    scored = [line for line in lines if line.startswith("info depth")][-1]
    assert int(field(scored, "cp")[0]) > 19000 and field(scored, "wdl", 3) == ["1000", "0", "0"]


def test_a_folder_without_syzygy_tables_is_refused_with_the_reason(engine, tmp_path):
    engine.send(f"setoption name SyzygyPath value {tmp_path}", "isready")
    lines = engine.until("readyok")
    assert any("holds no Syzygy table" in line for line in lines), lines


def test_bench_counts_the_same_nodes_every_run(tmp_path):
    """``./chessai bench 3`` from the command line counts the nodes that run_bench counts in this process."""
    from Util.whole_game.bench import run_bench

    done = subprocess.run([str(CHESSAI), "bench", "3"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("Position ") for line in lines) == 16
    assert any(line.startswith("Nodes/second") for line in lines)
    counted = int(next(line for line in lines if line.startswith("Nodes searched")).split(":")[1])
    assert counted == run_bench(3, say=None).nodes == run_bench(3, say=None).nodes > 0


def test_the_executable_says_what_is_missing_without_an_environment(tmp_path):
    """A copy of ./chessai in a folder without .venv answers with an info string saying to run the setup."""
    copy = tmp_path / "chessai"
    copy.write_text(CHESSAI.read_text())
    copy.chmod(0o755)
    done = subprocess.run([str(copy)], input="uci\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "run: bash" in done.stdout and "setup.sh" in done.stdout


def test_a_game_with_pondering_through_python_chess(caplog):
    """python-chess ponders after each move and sends ``ponderhit`` when the expected reply comes (or
    ``stop`` and a new search when another does), the next ``go`` right after ``bestmove``."""
    caplog.set_level("DEBUG", logger="chess.engine")
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci([str(CHESSAI)]) as chessai:
        chessai.configure({"OwnBook": False})
        for number in range(5):
            played = chessai.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1,
                                                            black_inc=0.1), ponder=True)
            assert played.move in board.legal_moves
            board.push(played.move)
            expected = played.ponder if played.ponder in board.legal_moves else None
            board.push(expected if expected and number % 2 == 0 else next(iter(board.legal_moves)))
    sent = [record.getMessage() for record in caplog.records]
    assert sum(message.endswith("<< ponderhit") for message in sent) >= 2
    assert not any("already searching" in message for message in sent)


def test_debug_log_file_and_positions_that_grow_move_by_move(engine, tmp_path):
    log = tmp_path / "uci.log"
    engine.send(f"setoption name Debug Log File value {log}", "position startpos moves e2e4",
                "position startpos moves e2e4 e7e5 g1f3", "d")
    board = chess.Board()
    for move in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(move)
    assert engine.until("Fen:")[-1] == f"Fen: {board.fen()}"  # the two moves more played on the last position
    engine.send("position startpos moves d2d4 d7d5", "d")  # another game: set up afresh
    assert engine.until("Fen:")[-1] == "Fen: rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2"
    engine.send("position startpos moves d2d4 d7d5 e2e4 e7e4", "d")  # illegal: kept up to the move before
    assert engine.until("Fen:")[-1] == "Fen: rnbqkbnr/ppp1pppp/8/3p4/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"
    engine.send("setoption name Debug Log File value <empty>", "isready")
    engine.until("readyok")
    logged = log.read_text().splitlines()
    assert any(line.split()[1:] == ["<<", "position", "startpos", "moves", "e2e4"] for line in logged)
    assert any(line.split()[1] == ">>" and line.split()[2] == "Fen:" for line in logged)
    assert all(float(line.split()[0]) >= 0 for line in logged)
