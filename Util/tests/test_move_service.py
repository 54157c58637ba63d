"""``POST /api/move`` and ``GET /api/cloud-eval`` on a real server process: answers as documented, 400s with
their reasons, 503 when the search pool is full, a client that goes away freeing its search process, and
the tablebase endpoints answering while a search runs."""

import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import chess
import pytest

from Util.tests.served import REPO, get_json, running_server

START_AFTER_E4 = {"fen": "startpos", "moves": ["e2e4"]}
#: Out of the book: the search answers.
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8"
KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"


def post(base: str, body, timeout: float = 60):
    """(status, JSON answer, headers) of ``POST base/api/move`` with ``body`` (a dict, or bytes as they are)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/move", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


@pytest.fixture(scope="module")
def server(served_tables, tmp_path_factory):
    log = tmp_path_factory.mktemp("move_service") / "server.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CHESSAI_SEARCH_WORKERS", "1")
        env.setenv("CHESSAI_SEARCH_QUEUE", "4")
        with running_server(served_tables, log) as base:
            yield base


@pytest.fixture(scope="module")
def tiny_pool(served_tables, tmp_path_factory):
    """A server whose pool has one process and no queue: a second search at once is refused."""
    log = tmp_path_factory.mktemp("move_service_tiny") / "server.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CHESSAI_SEARCH_WORKERS", "1")
        env.setenv("CHESSAI_SEARCH_QUEUE", "0")
        env.setenv("CHESSAI_SEARCH_CAP", "6")
        with running_server(served_tables, log) as base:
            assert post(base, {"fen": MIDDLEGAME, "movetime": 50})[0] == 200  # the process is warm
            yield base


def check_line(fen: str, moves) -> chess.Board:
    """The line is legal from ``fen`` (python-chess says so); the board after it."""
    board = chess.Board(fen)
    for move in moves:
        assert chess.Move.from_uci(move) in board.legal_moves, (fen, moves)
        board.push_uci(move)
    return board


def test_a_searched_move_as_documented(server):
    status, answer, headers = post(server, {"fen": MIDDLEGAME, "movetime": 300})
    assert status == 200 and headers.get("access-control-allow-origin") == "*"
    assert set(answer) >= {"uci", "san", "score", "depth", "pv", "nodes", "source"}
    board = chess.Board(MIDDLEGAME)
    assert answer["source"] == "search" and answer["san"] == board.san(chess.Move.from_uci(answer["uci"]))
    assert answer["pv"][0] == answer["uci"] and check_line(MIDDLEGAME, answer["pv"])
    assert answer["depth"] >= 4 and answer["nodes"] > 1000
    assert set(answer["score"]) == {"cp"} and abs(answer["score"]["cp"]) < 300


def test_book_and_tablebase_moves_say_so(server):
    status, answer, _ = post(server, START_AFTER_E4)
    assert status == 200 and answer["source"] == "book" and answer["score"] is None
    assert chess.Move.from_uci(answer["uci"]) in check_line(chess.STARTING_FEN, ["e2e4"]).legal_moves
    status, answer, _ = post(server, {"fen": KQKR})
    assert status == 200 and answer["source"] == "tablebase" and answer["score"]["mate"] > 0
    # the move keeps the win as fast as the table's /standard says it can be kept
    _, standard = get_json(server, "/standard", fen=KQKR)
    best = standard["moves"][0]["dtm"]
    played = next(m for m in standard["moves"] if m["uci"] == answer["uci"])
    assert played["dtm"] == best and answer["score"]["mate"] == (standard["dtm"] + 1) // 2


@pytest.mark.parametrize("body, said", [
    (b"{fen", "not JSON"),
    (b"[1, 2]", "JSON object"),
    ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"}, "not a FEN"),
    ({"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "moves": ["a1a2", "h1h3"]}, "moves[1] 'h1h3' is not a legal move"),
    ({"fen": "startpos", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}, "the game is over (checkmate"),
    ({"fen": "startpos", "level": 0}, "level must be from 1 to 8, not 0"),
    ({"fen": "startpos", "level": 2.5}, "level must be a whole number from 1 to 8"),
    ({"fen": "startpos", "movetime": -5}, "movetime must be from 1 to"),
    ({"fen": "startpos", "wtime": "soon"}, "wtime must be a number from 0 to 86400000"),
    ({"fen": "startpos", "winc": 10 ** 9}, "winc must be from 0 to 600000"),
    ({"fen": "startpos", "colour": "white"}, "unknown field colour"),
])
def test_bad_bodies_are_refused_with_a_reason(server, body, said):
    status, answer, _ = post(server, body)
    assert status == 400 and said in answer["error"], answer


def test_cloud_eval_in_lichess_shape(server):
    status, answer = get_json(server, "/api/cloud-eval", fen=MIDDLEGAME, multiPv="3")
    assert status == 200 and answer["fen"] == MIDDLEGAME
    assert isinstance(answer["knodes"], int) and answer["depth"] >= 2 and len(answer["pvs"]) == 3
    firsts = [pv["moves"].split()[0] for pv in answer["pvs"]]
    assert len(set(firsts)) == 3
    for pv in answer["pvs"]:
        check_line(MIDDLEGAME, pv["moves"].split())
        assert set(pv) in ({"moves", "cp"}, {"moves", "mate"})
    scores = [pv["cp"] for pv in answer["pvs"]]
    assert scores == sorted(scores, reverse=True)  # White to move: best for White first
    assert get_json(server, "/api/cloud-eval", fen=MIDDLEGAME, multiPv="9")[0] == 400
    assert get_json(server, "/api/cloud-eval")[0] == 400


def test_cloud_eval_of_a_table_position_is_exact(server):
    status, answer = get_json(server, "/api/cloud-eval", fen=KQKR.replace(" w ", " b "), multiPv="2")
    _, standard = get_json(server, "/standard", fen=KQKR.replace(" w ", " b "))
    assert status == 200 and answer["pvs"][0]["moves"] == standard["moves"][0]["uci"]
    assert answer["pvs"][0]["mate"] > 0  # White (not to move) mates: positive, from White's side


def test_the_pool_full_is_503_with_retry_after(tiny_pool):
    answers = []

    def search():
        answers.append(post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2500}))

    first = threading.Thread(target=search)
    first.start()
    time.sleep(0.5)
    started = time.perf_counter()
    status, answer, headers = post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2500})
    assert status == 503 and time.perf_counter() - started < 1.0, answer
    assert int(headers["retry-after"]) >= 1 and "try again" in answer["error"]
    first.join()
    assert answers[0][0] == 200


def test_a_client_gone_frees_its_search(tiny_pool):
    host, port = urllib.parse.urlparse(tiny_pool).netloc.split(":")
    body = json.dumps({"fen": MIDDLEGAME, "movetime": 5000}).encode()
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        time.sleep(0.7)  # the search has begun
    started = time.perf_counter()
    status = None
    while time.perf_counter() - started < 2.0:  # the stopped search frees the process within milliseconds
        status, answer, _ = post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 100})
        if status == 200:
            break
        time.sleep(0.05)
    assert status == 200, "the search of a client that went away still held the only process"


def test_tables_answer_while_searching(tiny_pool):
    thread = threading.Thread(target=post, args=(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2000}))
    thread.start()
    time.sleep(0.3)
    times = []
    for _ in range(10):
        started = time.perf_counter()
        assert get_json(tiny_pool, "/standard", fen=KQKR)[0] == 200
        times.append(time.perf_counter() - started)
    thread.join()
    assert sorted(times)[5] < 0.5, times  # the median: the event loop is not held by the search


def _documented_examples():
    """``(method, path, body, status, answer)`` of every curl example of docs/server.md's move service."""
    text = (REPO / "docs" / "server.md").read_text()
    found = []
    for command, shown in re.findall(r"```sh\n(curl .*?)\n```\n```json\n(.*?)\n```", text, flags=re.S):
        url = re.search(r"'?(http://localhost:8000\S+?)'?(\s|$)", command).group(1)
        body = re.search(r"-d '(.*)'", command)
        expected = json.loads(shown)
        found.append(("POST" if body else "GET", url.replace("http://localhost:8000", ""),
                      body.group(1) if body else None, expected.pop("_status", 200), expected))
    return found


def test_the_documented_examples_answer_as_shown(server):
    """Each curl example of docs/server.md is sent; the answer has the fields shown, the same kinds of
    values, and exactly the values that do not depend on the search (source, level, errors, fen)."""
    examples = _documented_examples()
    assert len(examples) >= 5
    for method, path, body, status, shown in examples:
        if method == "POST":
            got_status, answer, _ = post(server, body.encode())
        else:
            route, _, query = path.partition("?")
            got_status, answer = get_json(server, route, **dict(urllib.parse.parse_qsl(query)))
        assert got_status == status, (path, body, answer)
        assert set(answer) == set(shown), (path, body, answer)
        for key, value in shown.items():
            if key in ("source", "level", "error", "fen"):
                assert answer[key] == value, (path, body, key, answer[key])
            elif key == "pvs":
                assert len(answer[key]) == len(value) and all(set(a) == set(v) for a, v in zip(answer[key], value))
            else:
                assert type(answer[key]) is type(value), (path, body, key, answer[key])
