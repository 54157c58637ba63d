"""The tablebase server under every request a program or a person may send: Hypothesis generates and
mutates requests (good FENs made bad a character at a time, moves of every spelling, null moves, numbers
far out of range, odd methods, paths and headers, bytes that are no UTF-8; for the move service JSON
bodies with NaN, infinities, numbers beyond a double, nesting thousands deep, ``moves`` that are no list,
null moves, impossible positions and bodies over the limit) and sends them to the real ``python -m Util
serve`` on a loopback port over one keep-alive connection.  Any 5xx, any error whose body is not JSON with
an ``error`` sentence, an API answer without exactly one ``Access-Control-Allow-Origin``, or a traceback in
the server's log fails the test."""

from __future__ import annotations

import collections
import http.client
import json
import os
import random
import time
import urllib.parse

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="the test extra's hypothesis is not installed")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from Util.tests.served import running_server  # noqa: E402

#: In the default run, not in the quick loop (pytest -m "not slow").
pytestmark = pytest.mark.slow
#: Requests per generated example (the one Hypothesis generates and quick random mutations of it: Hypothesis
#: takes long to draw a request this rich, the server little to answer it).
BATCH = 16
#: Requests per run: 2,000 by default (125 generated examples, each mutated 15 times, enough to reach every
#: endpoint and every kind of bad value many times over); ``CHESSAI_FUZZ_REQUESTS=10000 pytest -q
#: Util/tests/test_server_fuzz.py`` runs the long form before a release or after a change to the server.
REQUESTS = int(os.environ.get("CHESSAI_FUZZ_REQUESTS", "2000"))
EXAMPLES = max(1, -(-REQUESTS // BATCH))

GOOD_FENS = [
    "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1",  # KQvKR, White mates
    "8/8/8/3k4/8/2r5/8/KQ6 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K1Q1 w - - 0 1",  # KQvK
    "8/8/8/8/3Pp3/8/8/K6k b - d3 0 1",  # en passant
    "8/4P3/8/8/8/2k5/4p3/K7 w - - 0 1",  # promotions on both sides
    "6Qk/5K2/8/8/8/8/8/8 b - - 0 1",  # checkmated
    "k7/8/1QK5/8/8/8/8/8 b - - 0 1",  # stalemate
    "8/8/8/3k4/8/8/8/K7 w - - 0 1",  # bare kings
    "8/8/8/3k4/8/8/8/KBB1N3 w - - 0 1",  # a table not computed: 404
    "4k3/8/5N2/8/B7/8/8/K3R3 b - - 0 1",  # a triple check: no game reaches it
    "8/8/8/8/8/8/8/KQRBN2k w - - 0 1",  # six pieces
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PP1Q1PPP/R3K2R w KQkq - 4 8",  # a middlegame, castling rights
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant in a whole game
]
NAMES = ["fen", "move", "material", "side", "outcome", "min", "max", "seed", "multiPv", "movetime"]
PATHS = ["/standard", "/standard/mainline", "/api/position", "/api/verdict", "/api/reply", "/api/zugzwang",
         "/api/random", "/api/distances", "/api/materials", "/", "/static/main.js", "/static/main.css",
         "/static/../index.html", "/static/", "/nowhere", "/api/", "/standard/", "/api/verdict/x",
         "/api/move", "/api/move", "/api/cloud-eval", "/api/levels", "/api/legal"]
METHODS = ["GET", "GET", "GET", "GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]
FEN_LETTERS = "KQRBNPkqrbnp12345678/ wb-_0123456789acdefgh"


@st.composite
def mutated_fen(draw) -> str:
    """A good FEN with up to three characters deleted, replaced or inserted, or a field changed."""
    text = draw(st.sampled_from(GOOD_FENS))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "replace", "insert"]))
        letter = draw(st.sampled_from(FEN_LETTERS))
        if kind == "delete":
            text = text[:at] + text[at + 1:]
        elif kind == "replace":
            text = text[:at] + letter + text[at + 1:]
        else:
            text = text[:at] + letter + text[at:]
    if draw(st.booleans()):
        text = text.replace(" ", "_")
    return text


MOVES = st.one_of(
    st.sampled_from(["0000", "--", "Z0", "@@@@", "Qb7", "b1b7", "Kb2", "a1a2", "e7e8q", "e7e8k", "e2e1n", "O-O",
                     "exd3", "e4d3", "Qxc3", "Qh7#", "a1a1", "h9h9", "", " ", "e7e8Q", "P@e4"]),
    st.from_regex(r"[a-h][1-8][a-h][1-8][qrbnk]?", fullmatch=True),
    st.text(max_size=12),
)
NUMBERS = st.one_of(
    st.integers(-10, 1100).map(str),
    st.integers(-(2 ** 70), 2 ** 70).map(str),
    st.sampled_from(["0", "-0", "+5", "1e3", "0x10", "١٢", "²", "1.5", " 7", "NaN", "", "9" * 40]),
)
VALUES = {
    "fen": st.one_of(st.sampled_from(GOOD_FENS), mutated_fen(), st.text(max_size=120)),
    "move": MOVES,
    "material": st.one_of(st.sampled_from(["KQvKR", "KRvKQ", "KPvKP", "KQvK", "KvK", "KvKQ", "KBBNvK", "KQRBNvK",
                                           "KQvKZ", "kqvkr", "KQ", "v", ""]), st.text(max_size=25)),
    "side": st.one_of(st.sampled_from(["w", "b", "white", "black", "W", "", "red"]), st.text(max_size=5)),
    "outcome": st.one_of(st.sampled_from(["win", "draw", "loss", "WIN", "", "maybe"]), st.text(max_size=8)),
    "min": NUMBERS, "max": NUMBERS, "seed": NUMBERS, "multiPv": NUMBERS,
    "movetime": st.one_of(st.integers(1, 40).map(str), NUMBERS),
}

#: Numbers as a JSON body may spell them, and as it may not (NaN, infinities, beyond a double, 40 digits).
JSON_NUMBERS = st.one_of(
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e308", "9" * 40, "0", "-0", "1.5", "2",
                     "8", "9", "1e3", "-5", "true", "null", '"3"', "[]", "{}"]),
    st.integers(-10 ** 7, 10 ** 9).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
MOVE_FIELDS = ["fen", "moves", "level", "movetime", "wtime", "btime", "winc", "binc"]


@st.composite
def move_body(draw) -> bytes:
    """A body for POST /api/move: mostly a JSON object of its fields with good and bad values (a search it
    asks for is short: the fuzzed server's cap is :data:`SEARCH_CAP`), else bytes, deep nesting, or more
    than the 16 KB the server reads."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.binary(max_size=200))
    if kind == 1:  # nested far deeper than a move request's two levels
        depth = draw(st.integers(3, 6000))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('{"moves": [', "]}")]))
        return (opener * depth + "1" + closer * depth).encode()
    if kind == 2:  # over the limit
        return b'{"fen": "startpos", "movetime": 5, "pad": "' + b"x" * draw(st.integers(16_400, 40_000)) + b'"}'
    if kind in (3, 4, 5):  # a good request (its mutations in the batch, mostly not)
        fen = draw(st.sampled_from(["startpos"] + GOOD_FENS))
        moves = ["e2e4"] if fen == "startpos" and draw(st.booleans()) else []
        return json.dumps({"fen": fen, "moves": moves, "level": draw(st.integers(1, 8)),
                           "movetime": draw(st.integers(1, 40))}).encode()
    fields = draw(st.lists(st.sampled_from(MOVE_FIELDS + ["colour", ""]), max_size=6, unique=True))
    parts = []
    for name in fields:
        if name == "fen":
            value = json.dumps(draw(st.one_of(st.just("startpos"), VALUES["fen"])))
        elif name == "moves":
            value = draw(st.one_of(
                st.lists(MOVES, max_size=4).map(json.dumps),
                st.sampled_from(['["e2e4", "e7e5"]', '["0000"]', '["e2e4", "0000"]', '"e2e4 e7e5"', "{}", "false",
                                 "0", "null", '[["e2e4"]]', '[7]']),
            ))
        elif name == "movetime":
            value = draw(st.one_of(st.integers(1, 40).map(str), JSON_NUMBERS))
        else:
            value = draw(JSON_NUMBERS)
        parts.append(f'"{name}": {value}')
    if "movetime" not in fields and draw(st.integers(0, 3)):
        parts.append('"movetime": 5')  # most searches short: the server's answers, not its searching, are fuzzed
    return ("{" + ", ".join(parts) + "}").encode()


@st.composite
def request(draw) -> tuple:
    """(method, path with query, headers, body)."""
    if draw(st.integers(0, 7)):  # mostly the endpoints, sometimes any path
        path = draw(st.sampled_from(PATHS))
    else:
        path = "/" + draw(st.text(min_size=1, max_size=30))
    path = urllib.parse.quote(path, safe="/.")
    names = draw(st.lists(st.one_of(st.sampled_from(NAMES), st.text(max_size=6)), max_size=6))
    pairs = [(name, draw(VALUES.get(name, st.text(max_size=20)))) for name in names]
    if draw(st.integers(0, 9)) == 0:  # a query as raw bytes, percent-escaped or not (bad escapes, no UTF-8)
        raw = draw(st.binary(max_size=60))
        query = "".join(chr(b) if 0x21 <= b < 0x7f and chr(b) != "#" else f"%{b:02X}" for b in raw)
    elif draw(st.integers(0, 40)) == 0:  # over the limit of a query
        query = "fen=" + "8" * draw(st.integers(1000, 3000))
    else:
        query = urllib.parse.urlencode(pairs)
    method = draw(st.sampled_from(METHODS))
    headers = {}
    if path == "/api/move":
        query = ""
    if draw(st.booleans()):
        headers["Origin"] = draw(st.sampled_from(["https://example.org", "null", "http://localhost:3000"]))
    if method == "OPTIONS" and draw(st.booleans()):
        headers["Access-Control-Request-Method"] = "GET"
        headers["Access-Control-Request-Headers"] = draw(st.sampled_from(["content-type", "x-a, x-b", ""]))
    if draw(st.integers(0, 3)) == 0:  # a quarter: the move service's POST, its bodies mutated in the batch
        path = "/api/move"
        method = draw(st.sampled_from(["POST", "POST", "POST", "POST", "POST", "OPTIONS", "GET", "PUT"]))
        headers["Content-Type"] = "application/json"
        if method == "OPTIONS":
            headers["Access-Control-Request-Method"] = "POST"
        body = draw(move_body()) if method in ("POST", "PUT") else None
    else:
        body = draw(st.binary(max_size=200)) if method in ("POST", "PUT", "PATCH") else None
    return method, f"{path}?{query}" if query else path, headers, body


#: What a mutation puts into a query: FEN and move letters, the query's own syntax, escapes of bytes that are
#: no UTF-8 or no printable ASCII, and digits.
MUTATION_PIECES = list("KQRBNPkqrbnp12345678/_-wb0aeh+=&%;#?") + ["%00", "%FF", "%C3%A9", "%E2%80%A6", "%20", "%2B",
                                                                 "%26", "%3D", "%%", "%G1", "99999999999"]


def mutated(rng: random.Random, method: str, target: str) -> tuple:
    """(method, target) with one to three quick random edits: a character of the target replaced, deleted or
    inserted, a parameter dropped or doubled, another endpoint or method."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        at = rng.randrange(1, len(target) + 1)
        if kind == 0:
            target = target[:at] + rng.choice(MUTATION_PIECES) + target[at + 1:]
        elif kind == 1 and len(target) > 1:
            target = target[:at] + target[at + 1:]
        elif kind == 2:
            target = target[:at] + rng.choice(MUTATION_PIECES) + target[at:]
        elif kind == 3:
            path, _, query = target.partition("?")
            pairs = query.split("&")
            if rng.random() < 0.5 and len(pairs) > 1:
                pairs.pop(rng.randrange(len(pairs)))
            else:
                pairs.append(rng.choice(pairs))
            target = f"{path}?{'&'.join(pairs)}"
        elif kind == 4:
            target = rng.choice(PATHS) + "?" + target.partition("?")[2]
        else:
            method = rng.choice(METHODS)
    return method, target if target.startswith("/") else "/" + target


#: What a mutation puts into a JSON body: its syntax, the numbers it has no room for, null moves, nesting.
BODY_PIECES = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"9" * 30, b"[", b"]", b"{", b"}", b'"', b",", b":",
               b'"0000"', b"null", b"true", b"-", b".", b"e", b"\\", b"\xff", b"[" * 50, b'"moves": {}', b'"level": 0']


def mutated_body(rng: random.Random, body: bytes) -> bytes:
    """``body`` with one to three quick random edits: a JSON piece inserted or put in place of a byte, or
    a byte deleted."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(body) + 1)
        kind = rng.randrange(3)
        if kind == 0:
            body = body[:at] + rng.choice(BODY_PIECES) + body[at:]
        elif kind == 1:
            body = body[:at] + rng.choice(BODY_PIECES) + body[at + 1:]
        else:
            body = body[:at] + body[at + 1:]
    return body


class Client:
    """One keep-alive connection to the server (opened again if the server closes it), counting requests."""

    def __init__(self, base: str):
        self.host, port = urllib.parse.urlsplit(base).netloc.split(":")
        self.port, self.count, self.connection = int(port), 0, None
        self.seen = collections.Counter()  # (endpoint, status) of each answer

    def send(self, method: str, target: str, headers: dict, body) -> tuple:
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.connection.request(method, target, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                self.count += 1
                endpoint = urllib.parse.urlsplit(target).path if target.startswith("/api/") else "other"
                self.seen[(endpoint, response.status)] += 1
                if response.getheader("connection", "").lower() == "close":
                    self.close()
                headers = dict((k.lower(), v) for k, v in response.getheaders())
                headers["cors-count"] = len(response.msg.get_all("access-control-allow-origin") or [])
                return response.status, headers, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt:
                    raise

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


#: Seconds any search may take on the fuzzed server (CHESSAI_SEARCH_CAP): its move service is fuzzed for
#: its answers, and a valid request's search should not hold the run.
SEARCH_CAP = "0.05"


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory, served_tables):
    log = tmp_path_factory.mktemp("fuzz") / "server.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CHESSAI_SEARCH_CAP", SEARCH_CAP)
        env.setenv("CHESSAI_SEARCH_WORKERS", "1")
        with running_server(served_tables, log) as base:
            client = Client(base)
            yield client
            client.close()
    text = log.read_text()
    assert "Traceback" not in text and "Exception" not in text, text[-5000:]


def test_no_request_gets_a_server_error_or_an_error_without_its_reason(fuzzed_server):
    started = time.monotonic()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(request(), st.integers(0, 2 ** 32))
    def check(generated, seed):
        method, target, headers, body = generated
        rng = random.Random(seed)
        if method == "POST" and target.startswith("/api/move"):
            batch = [generated] + [(method, target, headers, mutated_body(rng, body)) for _ in range(BATCH - 1)]
        else:
            batch = [generated] + [(*mutated(rng, method, target), headers, body) for _ in range(BATCH - 1)]
        for method, target, headers, body in batch:
            status, answer_headers, data = fuzzed_server.send(method, target, headers, body)
            assert status < 500, (method, target, status, data[:300])
            path = urllib.parse.unquote(target.split("#")[0].split("?")[0])  # as the server reads it
            api = not (path == "/" or path.startswith("/static/"))
            if 300 <= status < 400:  # Starlette's redirect of /standard/ to /standard
                assert answer_headers.get("location"), (method, target, status)
                continue
            if api and method != "HEAD" and status != 204:
                answer = json.loads(data)  # every answer of the API is JSON, errors too
                if status >= 400:
                    assert isinstance(answer.get("error"), str) and len(answer["error"]) > 10, (target, answer)
            if api:  # open to other sites' pages, as lichess's API is: the header once (Chromium refuses two)
                assert answer_headers.get("access-control-allow-origin") == "*", (method, target, status)
                assert answer_headers["cors-count"] == 1, (method, target, status)
            elif status >= 400 and method != "HEAD":
                assert "error" in json.loads(data), (method, target, status, data[:300])

    check()
    seconds = time.monotonic() - started
    print(f"\n{fuzzed_server.count} requests in {seconds:.1f} s ({fuzzed_server.count / seconds:.0f}/s), "
          "none a server error")
    service = sorted((key, n) for key, n in fuzzed_server.seen.items()
                     if key[0] in ("/api/move", "/api/cloud-eval", "/api/legal"))
    print("the move service and /api/legal:", ", ".join(f"{path} {status}: {n}" for (path, status), n in service))
    assert fuzzed_server.count >= BATCH * EXAMPLES
