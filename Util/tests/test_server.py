"""The tablebase server as its clients meet it: ``python -m Util serve`` runs as a process of its own on
a loopback port over tables computed for the test; its answers are compared with Gaviota's DTM through
python-chess (en passant included), and every kind of bad input gets its 400."""

from __future__ import annotations

import json
import random
import re
import socket
import urllib.parse

import chess
import pytest

from Util.board.random_boards import random_legal_board
from Util.tests.served import REPO, get_json, running_server

SAMPLES = 40


@pytest.fixture(scope="module")
def server(tmp_path_factory, served_tables):
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server(served_tables, log) as base:
        yield base
    text = log.read_text()
    assert "Traceback" not in text, text


def _random_board(rng: random.Random, material: str, turn: chess.Color) -> chess.Board:
    """A random legal position of ``material`` (e.g. ``"KQvKR"``) with ``turn`` to move."""
    return random_legal_board(material, rng, turn=turn)


def _en_passant_board(rng: random.Random) -> chess.Board:
    """A KPvKP position right after a pawn's double step that the other pawn can take en passant."""
    while True:
        file = rng.randrange(8)
        side = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
        white_moved = rng.random() < 0.5
        board = chess.Board(None)
        if white_moved:  # White's pawn went from the 2nd to the 4th rank; Black's stands beside it
            board.set_piece_at(chess.square(file, 3), chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(chess.square(side, 3), chess.Piece(chess.PAWN, chess.BLACK))
            board.turn, board.ep_square = chess.BLACK, chess.square(file, 2)
        else:
            board.set_piece_at(chess.square(file, 4), chess.Piece(chess.PAWN, chess.BLACK))
            board.set_piece_at(chess.square(side, 4), chess.Piece(chess.PAWN, chess.WHITE))
            board.turn, board.ep_square = chess.WHITE, chess.square(file, 5)
        free = [s for s in range(64) if board.piece_at(s) is None and s != board.ep_square
                and s not in (chess.square(file, 1), chess.square(file, 6))]
        white_king, black_king = rng.sample(free, 2)
        board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))
        if board.is_valid() and board.has_legal_en_passant():
            return board


def _sample_boards():
    rng = random.Random(34)
    boards = [_random_board(rng, pieces, rng.choice(chess.COLORS))
              for pieces in ("KQvKR", "KRvKQ", "KPvKP", "KQvK", "KPvK") for _ in range(SAMPLES // 5)]
    return boards + [_en_passant_board(rng) for _ in range(SAMPLES // 2)]


def _category(dtm: int, board: chess.Board) -> str:
    if dtm > 0:
        return "win"
    return "loss" if dtm < 0 or board.is_checkmate() else "draw"


def test_standard_equals_gaviota_dtm_for_the_position_and_every_move(server, python_gaviota):
    """lichess's /standard: the position's dtm and category, and each move's (of the position after it,
    from the side then to move), equal Gaviota's DTM, en passant captures included; moves best first."""
    en_passant_moves = 0
    for board in _sample_boards():
        status, answer = get_json(server, "/standard", fen=board.fen())
        assert status == 200, (board.fen(), answer)
        expected = python_gaviota.probe_dtm(board)
        assert answer["dtm"] == expected, board.fen()
        assert answer["category"] == _category(expected, board), board.fen()
        assert answer["dtz"] is None and answer["precise_dtz"] is None
        assert {m["uci"] for m in answer["moves"]} == {m.uci() for m in board.legal_moves}
        ranks = []
        for entry in answer["moves"]:
            move = chess.Move.from_uci(entry["uci"])
            assert entry["san"] == board.san(move)
            assert entry["zeroing"] == board.is_zeroing(move)
            assert entry["conversion"] == (board.is_capture(move) or move.promotion is not None)
            en_passant_moves += board.is_en_passant(move)
            board.push(move)
            child = python_gaviota.get_dtm(board)
            if child is None:  # two bare kings: Gaviota has no table, the game is a draw
                assert chess.popcount(board.occupied) == 2
                child = 0
            assert entry["dtm"] == child, (board.fen(), entry)
            assert entry["category"] == _category(child, board)
            assert entry["checkmate"] == board.is_checkmate() and entry["stalemate"] == board.is_stalemate()
            assert entry["insufficient_material"] == board.is_insufficient_material()
            board.pop()
            # the mover's view: a fast win first, then draws, then the longest defence
            if child < 0 or entry["checkmate"]:
                ranks.append((0, -child))
            else:
                ranks.append((1, 0) if child == 0 else (2, -child))
        assert ranks == sorted(ranks), board.fen()
    assert en_passant_moves >= SAMPLES // 2


def test_mainline_mates_in_exactly_dtm_plies(server, python_gaviota):
    rng = random.Random(7)
    for pieces in ("KQvKR", "KPvKP", "KPvK"):
        for _ in range(3):
            board = _random_board(rng, pieces, chess.WHITE)
            status, answer = get_json(server, "/standard/mainline", fen=board.fen())
            assert status == 200, answer
            dtm = python_gaviota.probe_dtm(board)
            line = answer["mainline"]
            assert len(line) == abs(dtm), (board.fen(), dtm, len(line))
            for step in line:
                board.push_uci(step["uci"])
                assert step["dtm"] == python_gaviota.probe_dtm(board)
            if dtm:
                assert board.is_checkmate()
                assert answer["winner"] == ("b" if board.turn == chess.WHITE else "w")
            else:
                assert answer["winner"] is None


KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"


def test_verdict_names_a_slower_move_and_a_blunder(server, python_gaviota):
    board = chess.Board(KQKR)
    mover_plies = {}
    for move in board.legal_moves:
        board.push(move)
        child = python_gaviota.probe_dtm(board)
        board.pop()
        mover_plies[move] = -child + 1 if child < 0 else None  # a win for White in this many plies
    best = min(p for p in mover_plies.values() if p)
    slower = next(m for m, p in mover_plies.items() if p and p > best)
    blunder = next(m for m, p in mover_plies.items() if p is None)

    status, answer = get_json(server, "/api/verdict", fen=KQKR, move=slower.uci())
    assert status == 200 and answer["mistake"] == "slower" and not answer["best"]
    lost = mover_plies[slower] - best
    grade = "mistake" if lost >= 10 else "inaccuracy"  # trainer.MISTAKE_PLIES draws the line
    assert f"{grade}: only delays mate, by {lost} plies" in answer["verdict"] and answer["grade"] == grade
    assert answer["plies"] == mover_plies[slower]
    board.push(blunder)
    becomes = "draw" if python_gaviota.probe_dtm(board) == 0 else "loss"  # after it, Black to move wins or not
    board.pop()
    status, answer = get_json(server, "/api/verdict", fen=KQKR, move=board.san(blunder))  # SAN works too
    assert status == 200 and answer["mistake"] == "result"
    assert f"blunder: turns the win into a {becomes}" in answer["verdict"] and answer["grade"] == "blunder"
    best_move = next(m for m, p in mover_plies.items() if p == best)
    status, answer = get_json(server, "/api/verdict", fen=KQKR, move=best_move.uci())
    assert answer["best"] and answer["mistake"] is None
    after = chess.Board(KQKR)
    after.push(best_move)
    assert answer["fen"] == after.fen()


def test_reply_keeps_the_best_result(server, python_gaviota):
    rng = random.Random(11)
    for pieces in ("KQvKR", "KPvKP"):
        board = _random_board(rng, pieces, chess.BLACK)
        if board.is_game_over():
            continue
        status, answer = get_json(server, "/api/reply", fen=board.fen())
        assert status == 200, answer
        before = python_gaviota.probe_dtm(board)
        board.push_uci(answer["uci"])
        after = python_gaviota.probe_dtm(board)
        # a best move: the position's dtm is the move's, one ply on
        assert before == (-after + 1 if after < 0 else -after - 1 if after > 0 else 0) or board.is_checkmate()


def test_random_positions_have_the_outcome_and_distance_asked_for(server, python_gaviota):
    for material, side, outcome, low, high in [("KQvKR", "w", "win", 20, 40), ("KQvKR", "b", "loss", 10, 20),
                                               ("KRvKQ", "w", "loss", 30, 40), ("KPvKP", "b", "win", 1, 9),
                                               ("KQvKR", "b", "draw", 1, None)]:
        for seed in (1, 2):
            params = dict(material=material, side=side, outcome=outcome, min=low, seed=seed)
            if high:
                params["max"] = high
            status, answer = get_json(server, "/api/random", **params)
            assert status == 200, answer
            board = chess.Board(answer["fen"])
            assert board.turn == (side == "w") and answer["material"] == material
            assert f"K{material.split('v')[0][1:]}" == "K" + "".join(
                sorted((p.symbol() for p in board.piece_map().values() if p.color and p.symbol() != "K"),
                       key="QRBNP".index))
            dtm = python_gaviota.probe_dtm(board)
            if outcome == "draw":
                assert dtm == 0
            else:
                assert (dtm > 0) == (outcome == "win") and low <= abs(dtm) <= high, (answer, dtm)


def test_distances_list_exactly_those_that_exist(server, python_gaviota):
    status, answer = get_json(server, "/api/distances", material="KQvKR", side="w")
    assert status == 200
    wins = [d["plies"] for d in answer["win"]]
    assert wins == sorted(wins) and all(n % 2 == 1 for n in wins)
    longest = wins[-1]
    status, far = get_json(server, "/api/random", material="KQvKR", side="w", outcome="win", min=longest, seed=3)
    assert python_gaviota.probe_dtm(chess.Board(far["fen"])) == longest
    status, none = get_json(server, "/api/random", material="KQvKR", side="w", outcome="win", min=longest + 1)
    assert status == 400 and "no position" in none["error"]


def test_mutual_zugzwang_agrees_with_gaviota(server, python_gaviota, served_tables):
    from Util.sequence import load_s_n_sequence
    from Util.play.zugzwang import mutual_zugzwang_examples

    def for_white(board: chess.Board) -> int:
        wdl = python_gaviota.probe_wdl(board)
        return wdl if board.turn == chess.WHITE else -wdl

    table = load_s_n_sequence(served_tables / "KPvKP.chessAI").table
    candidates = mutual_zugzwang_examples(table, limit=3)
    rng = random.Random(5)
    candidates += [_random_board(rng, "KPvKP", chess.WHITE) for _ in range(10)]
    found = 0
    for board in candidates:
        other = board.copy()
        other.turn = chess.BLACK
        truth = other.is_valid() and for_white(board) < for_white(other)
        status, answer = get_json(server, "/api/zugzwang", fen=board.fen())
        assert status == 200 and answer["mutual_zugzwang"] == truth, board.fen()
        found += truth
    assert found >= 3


def test_position_for_the_page_says_it_in_words(server):
    status, answer = get_json(server, "/api/position", fen=KQKR)
    assert status == 200
    assert re.fullmatch(r"White to move\. White mates in (\d+) \((\d+) plies\)", answer["status"])
    moves, plies = map(int, re.findall(r"\d+", answer["status"]))
    assert plies == answer["dtm"] and moves == (plies + 1) // 2
    for entry in answer["moves"]:
        board = chess.Board(KQKR)
        board.push_uci(entry["uci"])
        assert entry["fen"] == board.fen()


BAD_QUERIES = [
    ("/standard", {}, "no position"),
    ("/standard", {"fen": "8/8/8/8/8/8/8/K6k"}, "no side to move"),
    ("/standard", {"fen": "8/8/8/9/8/8/8/K6k w - - 0 1"}, "not a valid FEN"),
    ("/standard", {"fen": "hello world"}, "not a valid FEN"),
    ("/standard", {"fen": "8/8/8/8/8/8/8/KQ5k x - - 0 1"}, "not a valid FEN"),
    ("/standard", {"fen": "not_a_fen"}, "not a valid FEN"),
    ("/standard", {"fen": "8/8/8/8/8/8/8/KQ6 w - - 0 1"}, "Black has no king"),
    ("/standard", {"fen": "k7/1Q6/8/8/8/8/8/K7 w - - 0 1"}, "the side that is not to move is in check"),
    ("/standard", {"fen": "P6k/8/8/8/8/8/8/K7 w - - 0 1"}, "pawn stands on the first or last rank"),
    ("/standard", {"fen": "8/8/8/8/8/8/8/KQRBNNk1 w - - 0 1"}, "7 pieces"),
    ("/standard", {"fen": "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}, "castling"),
    ("/standard", {"fen": "8/8/8/3k4/8/2r5/8/KQ6 w - e3 0 1"}, "en passant square is impossible"),
    ("/standard", {"fen": "8" * 200 + " w - - 0 1"}, "characters long"),
    ("/standard/mainline", {"fen": "8/8/8/8/8/8/8/KQRBNNk1 w - - 0 1"}, "7 pieces"),
    ("/api/position", {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"}, "32 pieces"),
    ("/api/verdict", {"fen": KQKR, "move": "e2e4"}, "is no legal move"),
    ("/api/verdict", {"fen": KQKR}, "give the move"),
    ("/api/reply", {"fen": "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"}, "the game is over"),
    ("/api/random", {"material": "KQvKZ"}, "material"),
    ("/api/random", {"material": "KQvKR", "outcome": "maybe"}, "outcome"),
    ("/api/random", {"material": "KQvKR", "side": "red"}, "side"),
    ("/api/random", {"material": "KQvKR", "min": "ten"}, "whole number"),
    ("/api/distances", {}, "give the material"),
    # null moves, which python-chess reads as passing, and a move in a mated position
    *[("/api/verdict", {"fen": KQKR, "move": null}, f"move={null!r} is a null move") for null in ("0000", "--", "Z0", "@@@@")],
    ("/api/verdict", {"fen": "6Qk/5K2/8/8/8/8/8/8 b - - 0 1", "move": "0000"}, "legal moves: none (the game is over)"),
    ("/api/verdict", {"fen": "6Qk/5K2/8/8/8/8/8/8 b - - 0 1", "move": "Kh7"}, "legal moves: none (the game is over)"),
    # positions no game reaches (python-chess's status()), refused before any table is looked up: KRBNvK is not
    # computed here, and this answer is no 404
    ("/standard", {"fen": "4k3/8/5N2/8/B7/8/8/K3R3 b - - 0 1"}, "in check from more than two pieces"),
    ("/api/position", {"fen": "6Q1/K7/4k3/8/6R1/8/B7/8 b - - 0 1"}, "check cannot arise from a move"),
    # numbers: the parameter and its range named
    ("/api/random", {"material": "KQvKR", "min": "1000000000"}, "min=1000000000 is out of range: give a whole number from 0 to 1000 plies"),
    ("/api/random", {"material": "KQvKR", "seed": "-1"}, "seed=-1 is out of range: give a whole number from 0 to"),
    ("/api/random", {"material": "KQvKR", "max": "0"}, "max=0 is out of range: give a whole number from 1 to 1000"),
    ("/api/random", {"material": "KQvKR", "min": "30", "max": "20"}, "min=30 is more than max=20"),
    ("/api/random", {"material": "KQvKR", "min": "²"}, "min='²' is not a whole number"),
    ("/api/random", {"material": "KvK", "outcome": "win"}, "two bare kings always draw"),
]


@pytest.mark.parametrize("path,params,reason", BAD_QUERIES, ids=[f"{p}:{r}" for p, _, r in BAD_QUERIES])
def test_bad_input_gets_400_with_the_reason(server, path, params, reason):
    status, answer = get_json(server, path, **params)
    assert status == 400, answer
    assert set(answer) == {"error"} and reason in answer["error"], answer


def test_big_seeds_and_bare_kings_draw_give_positions(server):
    status, answer = get_json(server, "/api/random", material="KQvKR", seed="4294967296")
    assert status == 200 and chess.Board(answer["fen"]).is_valid()
    assert get_json(server, "/api/random", material="KQvKR", seed="4294967296")[1] == answer  # the seed decides
    status, answer = get_json(server, "/api/random", material="KvK", outcome="draw", side="b", seed="7")
    board = chess.Board(answer["fen"])
    assert status == 200 and board.is_valid() and board.turn == chess.BLACK and len(board.piece_map()) == 2


def test_errors_have_their_status_and_the_api_is_open_to_other_sites(server):
    import http.client

    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def ask(method, target, headers=None):
        connection.request(method, target, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    status, headers, body = ask("GET", "/standard?fen=" + "x" * 2000)
    assert status == 414 and "bytes long" in json.loads(body)["error"]
    status, headers, body = ask("GET", f"/standard?fen={urllib.parse.quote(KQKR)}", {"Origin": "https://example.org"})
    assert status == 200 and headers["access-control-allow-origin"] == "*"  # as lichess's API sends it
    status, headers, body = ask("OPTIONS", "/standard", {"Origin": "https://example.org",
                                                         "Access-Control-Request-Method": "GET",
                                                         "Access-Control-Request-Headers": "x-requested-with"})
    assert status == 204 and headers["access-control-allow-origin"] == "*" and body == b""
    assert "GET" in headers["access-control-allow-methods"]
    assert headers["access-control-allow-headers"] == "x-requested-with"
    for method, target in (("POST", "/standard"), ("DELETE", "/api/position"), ("PUT", "/static/main.js")):
        status, headers, body = ask(method, target)
        assert status == 405 and f"{method} is not allowed" in json.loads(body)["error"], (method, target)
    status, headers, body = ask("GET", "/nowhere")
    assert status == 404 and "no such page: /nowhere" in json.loads(body)["error"]
    status, headers, body = ask("GET", "/")  # the page is not for other sites: unchanged
    assert status == 200 and "access-control-allow-origin" not in headers and b"<!doctype html>" in body
    connection.close()
    with socket.create_connection((host, int(port)), timeout=30) as raw:  # a request line no URL may hold
        raw.sendall("GET /standard?fen=² HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400") and b'{"error": "Invalid HTTP request received.' in answer


def test_a_missing_table_gets_404_with_the_command(server, served_tables):
    status, answer = get_json(server, "/standard", fen="8/8/8/3k4/8/8/8/KBB1N3 w - - 0 1")
    assert status == 404
    # the command computes it into the server's folder (here not the default one)
    assert answer["command"] == f"python -m Util calculate KBBNvK --results {served_tables}"
    assert answer["command"] in answer["error"]
    status, answer = get_json(server, "/api/random", material="KRRvK")
    assert status == 404 and answer["command"] == f"python -m Util calculate KRRvK --results {served_tables}"


def test_a_huge_query_and_a_dropped_client_harm_no_one(server):
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as raw:  # a 1 MB query line
        raw.sendall(b"GET /standard?fen=" + b"8" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        raw.shutdown(socket.SHUT_WR)
        head = raw.recv(64)
    assert head.startswith(b"HTTP/1.1 4"), head  # refused (uvicorn's limit on a request line), not served
    with socket.create_connection((host, int(port)), timeout=30) as raw:  # gone before the answer
        raw.sendall(b"GET /standard/mainline?fen=8/8/8/3k4/8/2r5/8/KQ6_w_-_-_0_1 HTTP/1.1\r\nHost: x\r\n\r\n")
    status, answer = get_json(server, "/standard", fen=KQKR)
    assert status == 200 and answer["category"] == "win"


def test_connections_that_stop_mid_request_are_closed_and_their_number_is_bounded(tmp_path, served_tables):
    """Real sockets that open and send nothing, or part of a request, are closed by the server after
    ``REQUEST_SECONDS`` while others are served; beyond ``--max-connections`` a connection gets 503 in JSON."""
    import time

    from Util.server.app import REQUEST_SECONDS

    with running_server(served_tables, tmp_path / "server.log", options=("--max-connections", "11")) as base:
        host, port = urllib.parse.urlsplit(base).netloc.split(":")
        started = time.monotonic()
        stalled = [socket.create_connection((host, int(port)), timeout=REQUEST_SECONDS + 10) for _ in range(10)]
        for raw in stalled[:5]:  # part of a request line, part of the headers
            raw.sendall(b"GET /standard?fen=8/8/8/3k4/8/2r5/8/KQ6_w_-_-_0_1 HTTP/1.1\r\nHost: x\r\nAcc")
        time.sleep(0.5)
        assert get_json(base, "/standard", fen=KQKR)[0] == 200  # served meanwhile (11 connections of 11)
        with socket.create_connection((host, int(port)), timeout=30) as twelfth, \
                socket.create_connection((host, int(port)), timeout=30) as thirteenth:
            time.sleep(0.3)
            thirteenth.sendall(b"GET /api/materials HTTP/1.1\r\nHost: x\r\n\r\n")
            head, _, body = thirteenth.recv(4096).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503") and b"retry-after: 1" in head, head
        assert "as many connections open as it takes (11)" in json.loads(body)["error"]
        closed_after = []
        for raw in stalled:
            assert raw.recv(4096) == b""  # closed by the server, with nothing sent
            closed_after.append(time.monotonic() - started)
            raw.close()
        print(f"stalled connections closed after {min(closed_after):.1f}-{max(closed_after):.1f} s")
        assert REQUEST_SECONDS - 0.5 <= min(closed_after) and max(closed_after) <= REQUEST_SECONDS + 3, closed_after
        assert get_json(base, "/standard", fen=KQKR)[0] == 200
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def _documented_examples():
    text = (REPO / "docs" / "server.md").read_text()
    return re.findall(r"^GET (\S+)\n```json\n(.*?)\n```", text, flags=re.M | re.S)


def test_every_example_of_the_documentation_answers_as_shown(server):
    """docs/server.md shows requests and (the start of) their answers; each is asked here and the answer
    compared field by field with what the document shows."""
    import json

    examples = _documented_examples()
    assert len(examples) >= 6
    for url, shown in examples:
        path, _, query = url.partition("?")
        status, answer = get_json(server, path, **dict(urllib.parse.parse_qsl(query)))
        expected = json.loads(shown)
        assert status == expected.pop("_status", 200), (url, answer)
        for key, value in expected.items():
            if key in ("moves", "mainline"):  # the first entries shown (among equally good moves, any order)
                assert all(entry in answer[key] for entry in value), (url, key)
                assert [e["dtm"] for e in answer[key][: len(value)]] == [e["dtm"] for e in value], (url, key)
            elif key in ("error", "command"):  # the server here computes into a folder of the test's
                assert re.sub(r" --results [^\s`]+", "", answer[key]) == value, (url, key, answer[key])
            else:
                assert answer[key] == value, (url, key, answer[key])


def test_checkmate_stalemate_and_bare_kings_as_lichess_gives_them(server):
    status, mated = get_json(server, "/standard", fen="k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
    assert status == 200 and mated["checkmate"] and mated["moves"] == []
    assert mated["category"] == "loss" and mated["dtm"] == 0  # the side to move has lost
    assert get_json(server, "/standard/mainline", fen="k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")[1] == \
        {"dtz": None, "precise_dtz": None, "mainline": [], "winner": "w"}
    status, stalemate = get_json(server, "/standard", fen="k7/8/1QK5/8/8/8/8/8 b - - 0 1")
    assert stalemate["stalemate"] and stalemate["category"] == "draw" and stalemate["dtm"] == 0
    status, kings = get_json(server, "/standard", fen="8/8/8/3k4/8/8/8/K7 w - - 0 1")
    assert status == 200 and kings["insufficient_material"] and kings["category"] == "draw"
    assert all(m["category"] == "draw" and m["insufficient_material"] for m in kings["moves"])


@pytest.mark.slow  # a second server, of two processes
def test_two_worker_processes_answer_as_one(server, tmp_path, served_tables):
    """``--workers 2``: uvicorn's processes share the port; the server keeps no state, so each answers
    every request as the single process does."""
    fens = [KQKR, "8/8/8/8/3Pp3/8/8/K6k b - d3 0 1", "4k3/8/8/8/8/8/8/4K1Q1 w - - 0 1"]
    with running_server(served_tables, tmp_path / "workers.log", workers=2) as two:
        for fen in fens * 4:
            assert get_json(two, "/standard", fen=fen) == get_json(server, "/standard", fen=fen)
    assert "Traceback" not in (tmp_path / "workers.log").read_text()


def _expected_words(board: chess.Board, entry: dict) -> str:
    """The page's words for a /standard move, from python-chess's judgement of the position after it (mate,
    stalemate, bare material) and the move's DTM: it is the opponent's, so the move's own distance is one
    ply more, in moves rounded up."""
    after = board.copy()
    after.push_uci(entry["uci"])
    if after.is_checkmate():
        return "Win · checkmate"
    if after.is_stalemate():
        return "Draw · stalemate"
    if after.is_insufficient_material():
        return "Draw · no mating material"
    if entry["category"] == "draw":
        return "Draw"
    plies = abs(entry["dtm"]) + 1
    distance = f"{(plies + 1) // 2} ({plies} plies)"
    return f"Win · mates in {distance}" if entry["category"] == "loss" else f"Loss · mated in {distance}"


def test_the_server_says_moves_and_distances_in_the_pages_words(server):
    """Each /standard move's ``words``, which the page shows as they come, say what python-chess finds after
    the move (mate, stalemate, bare kings) and the distance its DTM gives; /api/distances's ``text`` is
    ``distances_line`` of its lists.  Wins, losses, draws, checkmates, stalemates and bare kings all occur."""
    from Util.play.words import distances_line

    fens = [b.fen() for b in _sample_boards()[:SAMPLES // 2]]
    fens += ["k7/8/8/1K6/8/8/8/2Q5 w - - 0 1",  # Qc7 stalemates
             "8/8/8/3k4/8/8/8/K7 w - - 0 1",  # bare kings: every move a draw without mating material
             "k7/2K5/8/8/8/8/8/1Q6 w - - 0 1"]  # Qb7 and Qb8 mate
    moves = []
    for fen in fens:
        status, answer = get_json(server, "/standard", fen=fen)
        assert status == 200, (fen, answer)
        board = chess.Board(fen)
        for entry in answer["moves"]:
            assert entry["words"] == _expected_words(board, entry), (fen, entry)
        moves += answer["moves"]
    distances = []
    for material, side in (("KQvKR", "w"), ("KQvKR", "b"), ("KRvKQ", "w"), ("KPvKP", "b"), ("KQvK", "b")):
        status, answer = get_json(server, "/api/distances", material=material, side=side)
        assert status == 200, answer
        assert answer["text"] == distances_line(material, chess.WHITE if side == "w" else chess.BLACK,
                                                [d["plies"] for d in answer["win"]],
                                                [d["plies"] for d in answer["loss"]])
        distances.append(answer)
    page_moves, page_distances = [m["words"] for m in moves], [d["text"] for d in distances]
    kinds = {words.split(" · ")[-1].split(" ")[0] for words in page_moves}
    assert {"mates", "mated", "checkmate", "stalemate", "Draw"} <= kinds, kinds
    assert any("never" in text for text in page_distances)


def test_legal_takes_any_position_a_game_reaches_and_says_why_another_is_not(server):
    """/api/legal against python-chess: positions of random games (castling rights, en passant, any number
    of pieces) are taken with python-chess's FEN and move count; each of them made impossible (a king
    removed, a pawn on the last rank, the side not to move in check) is refused with /standard's words."""
    from Util.play.words import illegal_reasons

    rng = random.Random(51)
    seen = 0
    for _ in range(6):
        board = chess.Board()
        for _ in range(rng.randrange(1, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.3:
                status, answer = get_json(server, "/api/legal", fen=board.fen(en_passant="fen"))
                assert status == 200, answer
                assert answer["fen"] == board.fen() and answer["legal_moves"] == board.legal_moves.count()
                assert answer["castling"] == (board.castling_xfen() or "-") and answer["check"] == board.is_check()
                assert answer["tables"] == (chess.popcount(board.occupied) <= 5 and not board.castling_rights)
                seen += 1
        broken = board.copy()
        broken.remove_piece_at(broken.king(chess.BLACK))
        broken.set_piece_at(rng.choice([s for s in chess.SquareSet(chess.BB_RANK_8) if not broken.piece_at(s)]),
                            chess.Piece(chess.PAWN, chess.WHITE))
        status, answer = get_json(server, "/api/legal", fen=broken.fen())
        reasons = illegal_reasons(chess.Board(broken.fen()).status())
        assert status == 400 and answer["error"] == f"not a legal position: {reasons}; no game can reach it", answer
    assert seen >= 6
