"""``POST /api/move`` and ``GET /api/cloud-eval`` on a real server process: answers as documented, 400s with
their reasons (strict JSON, null moves, impossible positions in words), 413 for a body over the limit
without the server's memory growing, CORS once on every answer and preflights naming each route's methods,
429 for a client with its share in flight and 503 when the search pool is full, a looping client that
cannot delay another's move by more than one search, a client that goes away freeing its search process,
and the tablebase endpoints answering while a search runs."""

import http.client
import json
import re
import select
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import chess
import pytest

from Util.tests.served import REPO, get_json, running_server

START_AFTER_E4 = {"fen": "startpos", "moves": ["e2e4"]}
#: Out of the book: the search answers.
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8"
KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"


def request(base: str, method: str, path: str, body=None, source: str = "127.0.0.1", timeout: float = 60,
            headers: dict = None):
    """(status, JSON answer or None, headers as http.client's message) of ``method base+path`` with ``body``
    (a dict, or bytes as they are), sent from the loopback address ``source`` (another address is
    another client to the server)."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout, source_address=(source, 0))
    data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
    try:
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None, response.msg
    finally:
        connection.close()


def post(base: str, body, timeout: float = 60, source: str = "127.0.0.1"):
    """(status, JSON answer, headers) of ``POST base/api/move`` with ``body`` (a dict, or bytes as they are)."""
    status, answer, headers = request(base, "POST", "/api/move", body, source, timeout)
    return status, answer, {k.lower(): v for k, v in headers.items()}


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
    # JSON as RFC 8259 has it: no NaN or infinities, no number beyond a double, no deep nesting
    (b'{"movetime": NaN}', "NaN is not a number JSON allows"),
    (b'{"movetime": Infinity}', "Infinity is not a number JSON allows"),
    (b'{"wtime": -Infinity}', "-Infinity is not a number JSON allows"),
    (b'{"movetime": 1e400}', "the number 1e400 is beyond the range of a double"),
    (b'{"level": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
    (b"[" * 5000 + b"]" * 5000, "nests arrays and objects 5000 levels deep"),
    (b'{"moves": ' + b"[" * 3000 + b"]" * 3000 + b"}", "3001 levels deep"),
    # moves: a list of UCI moves (or one string of them), no null move
    ({"fen": "startpos", "moves": {}}, "moves must be a list of UCI moves"),
    ({"fen": "startpos", "moves": False}, "moves must be a list of UCI moves"),
    ({"fen": "startpos", "moves": 0}, "moves must be a list of UCI moves"),
    ({"fen": "startpos", "moves": ["e2e4", 7]}, "moves must be a list of UCI moves"),
    ({"fen": "startpos", "moves": ["e2e4", "0000"]}, "moves[1] '0000' is a null move (passing the turn)"),
    # an impossible position, said in /standard's words (python-chess's status flags in words)
    ({"fen": "4k3/8/5N2/8/B7/8/8/K3R3 b - - 0 1"}, "is not a legal position: the king is in check from more than "
                                                   "two pieces"),
    ({"fen": "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"}, "is not a legal position: the side that is not to move is in check"),
])
def test_bad_bodies_are_refused_with_a_reason(server, body, said):
    status, answer, headers = post(server, body)
    assert status == 400 and said in answer["error"], answer
    assert "Status" not in answer["error"] and "<" not in answer["error"]  # words, not Python's repr
    assert headers["access-control-allow-origin"] == "*"


def test_cors_once_on_every_answer_and_preflights_name_each_routes_methods(server):
    """Chromium refuses an answer with two Access-Control-Allow-Origin values: each answer has one, errors
    too; a preflight lists what its route accepts, and a 405 names it."""
    for method, path, body in [("POST", "/api/move", START_AFTER_E4), ("POST", "/api/move", b"{"),
                               ("GET", f"/api/cloud-eval?fen={urllib.parse.quote(KQKR)}", None),
                               ("GET", "/api/cloud-eval", None), ("GET", "/api/levels", None),
                               ("GET", f"/standard?fen={urllib.parse.quote(KQKR)}", None), ("PUT", "/api/move", b"{}"),
                               ("GET", "/api/move", None), ("DELETE", "/standard", None), ("GET", "/nowhere", None)]:
        status, _, headers = request(server, method, path, body)
        assert headers.get_all("access-control-allow-origin") == ["*"], (method, path, status)
    status, _, headers = request(server, "OPTIONS", "/api/move", headers={
        "Origin": "https://example.org", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert status == 204 and headers.get_all("access-control-allow-origin") == ["*"]
    assert headers["access-control-allow-methods"] == "POST, OPTIONS" and headers["allow"] == "POST, OPTIONS"
    assert headers["access-control-allow-headers"] == "content-type"
    status, _, headers = request(server, "OPTIONS", "/standard", headers={"Access-Control-Request-Method": "GET"})
    assert status == 204 and headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS"
    status, answer, headers = request(server, "PUT", "/api/move", b"{}")
    assert status == 405 and headers["allow"] == "POST, OPTIONS"
    assert answer["error"].startswith("PUT is not allowed on /api/move: use POST with a JSON body"), answer
    status, answer, headers = request(server, "GET", "/api/move")
    assert status == 405 and answer["error"].startswith("GET is not allowed on /api/move: use POST"), answer
    status, answer, headers = request(server, "POST", "/standard", b"")
    assert status == 405 and answer["error"].startswith("POST is not allowed on /standard: use GET"), answer
    assert headers["allow"] == "GET, HEAD, OPTIONS"


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


def test_a_client_with_its_share_in_flight_gets_429_and_a_full_pool_503(tiny_pool):
    answers = []

    def search():
        answers.append(post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2500}))

    first = threading.Thread(target=search)
    first.start()
    time.sleep(0.5)
    started = time.perf_counter()
    status, answer, headers = post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2500})  # the same client again
    assert status == 429 and time.perf_counter() - started < 1.0, answer
    assert int(headers["retry-after"]) >= 1 and "in flight already" in answer["error"]
    status, answer, headers = post(tiny_pool, {"fen": MIDDLEGAME, "movetime": 2500}, source="127.0.0.2")
    assert status == 503 and int(headers["retry-after"]) >= 1 and "try again" in answer["error"], answer  # no queue
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


def _resident_mb(pid: int) -> float:
    """The process's resident memory now, MB (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def _send_big_body(base: str, size: int, chunked: bool) -> bytes:
    """POSTs ``size`` bytes of a body to /api/move (with Content-Length, or in chunks without one), a MB at a
    time for as long as the server takes them and has not answered; the server's answer as far as it came
    (its status line first)."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=60) as raw:
        head = b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        raw.sendall(head + (b"Transfer-Encoding: chunked\r\n\r\n" if chunked else b"Content-Length: %d\r\n\r\n" % size))
        block = b"[" * (1 << 20)
        sent, answer = 0, b""
        while sent < size:
            readable, _, _ = select.select([raw], [], [], 0)
            if readable:  # the server has answered (before the body's end): no more of it is sent
                break
            try:
                raw.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(block)
        try:
            while b"\r\n\r\n" not in answer:
                piece = raw.recv(65536)
                if not piece:
                    break
                answer += piece
        except ConnectionResetError:
            pass
        return answer


def test_a_256_mb_body_is_refused_without_the_server_growing(served_tables, tmp_path):
    """The body limit holds while the body is read: 256 MB announced, or sent in chunks without a length,
    get 413 and the server's memory stays where it was (it once read the whole body: 55 MB -> 308 MB)."""
    from Util.server.process import served_process

    with open(tmp_path / "server.log", "w") as log, served_process(served_tables, ("--workers", "1"), log=log,
                                                                   env={"CHESSAI_SEARCH_WORKERS": "1"}) as served:
        assert post(served.base, START_AFTER_E4)[0] == 200
        before = _resident_mb(served.process.pid)
        for chunked in (False, True):
            answer = _send_big_body(served.base, 256 << 20, chunked)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            grown = _resident_mb(served.process.pid) - before
            print(f"\n256 MB body ({'chunked' if chunked else 'Content-Length'}): 413; the server {before:.0f} MB "
                  f"before, {before + grown:.0f} MB after")
            assert grown < 32, f"the server grew by {grown:.0f} MB reading a 256 MB body (chunked: {chunked})"
        status, answer, _ = post(served.base, b"{" + b" " * 20_000 + b"}")
        assert status == 413 and "at most 16384 are read" in answer["error"]
        assert post(served.base, START_AFTER_E4)[0] == 200  # and it goes on serving
    assert "Traceback" not in (tmp_path / "server.log").read_text()


#: How long the looping client's searches and the other client's take (ms).
LOOP_MS, OTHER_MS = 2000, 300


def test_a_looping_client_delays_another_by_one_search_at_most(server):
    """One client (127.0.0.2) keeps three requests going at once, each a 2-second search, for as long as the
    test lasts; another client (127.0.0.1) asks for a 0.3-second move five times.  With one search
    process, each of its moves waits at most for the looping client's search under way: it never queues
    behind that client's other requests, which get 429 (the client's share is one in flight), and the
    process goes to the clients in turn."""
    stop = threading.Event()
    statuses = []

    def loop():
        while not stop.is_set():
            status, _, _ = post(server, {"fen": MIDDLEGAME, "movetime": LOOP_MS}, source="127.0.0.2")
            statuses.append(status)
            if status != 200:
                time.sleep(0.05)

    loopers = [threading.Thread(target=loop) for _ in range(3)]
    for thread in loopers:
        thread.start()
    try:
        while 200 not in statuses and statuses.count(429) < 3:
            time.sleep(0.1)  # the loop has begun: its search runs, its others are refused
        waits = []
        for _ in range(5):
            started = time.perf_counter()
            status, answer, _ = post(server, {"fen": MIDDLEGAME, "movetime": OTHER_MS})
            waits.append(time.perf_counter() - started)
            assert status == 200, answer
    finally:
        stop.set()
        for thread in loopers:
            thread.join()
    print(f"\nthe other client's moves took {', '.join(f'{w:.2f}' for w in waits)} s; the looping client got "
          f"{statuses.count(200)} answers and {statuses.count(429)} 429s")
    assert 429 in statuses
    # one search of the looping client under way, then its own: never three of the looping client's
    assert max(waits) < (LOOP_MS + OTHER_MS) / 1000 + 1.5, waits
