"""The tablebase server: ``python -m Util serve``.  A Starlette application on uvicorn.

It keeps no state per person (a practice game lives in the page and its URL), so ``--workers N``
processes, or several machines sharing the read-only table files, serve more people.  Every answer is
JSON; bad input gets 400 (or 404, 405, 413, 414) with ``{"error": "..."}`` naming the parameter and what
was wrong, never 500; a table not computed 404 with the command that computes it.  The API is open to
other sites' pages (``Access-Control-Allow-Origin: *`` once on every answer, ``OPTIONS`` answered with the
methods of the route asked about, :class:`ApiGate`); a connection must deliver its request within
:data:`REQUEST_SECONDS` and a process takes at most ``--max-connections``
(:class:`BoundedHttpToolsProtocol`).  The page at ``/`` and its bundle (``web/``, built by
``scripts/setup.sh``) are served from here too: nothing comes from elsewhere.

Endpoints (docs/server.md has examples):

* ``GET /standard?fen=`` and ``GET /standard/mainline?fen=``: lichess's tablebase API;
* ``GET /api/position?fen=``: ``/standard`` plus the FEN after each move, a status line in words and
  whether the position is a mutual zugzwang;
* ``GET /api/legal?fen=``: any legal position (any number of pieces, castling rights, en passant) checked,
  or why no game reaches it;
* ``GET /api/verdict?fen=&move=``: the verdict on a move; ``GET /api/reply?fen=``: the server's move;
* ``GET /api/random?material=&outcome=&side=&min=&max=&seed=``, ``GET /api/distances?material=&side=``:
  random starts and which distances exist; ``GET /api/zugzwang?fen=``; ``GET /api/materials``.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Optional

import chess
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Match, Mount, Route
from starlette.staticfiles import StaticFiles
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from . import answers
from .move_answers import MAX_BODY_BYTES
from ..board.material import MaterialError
from ..folders import RESULTS_DIR, WEB_BUNDLE_DIR, WEB_DIR
from ..tablebase import MissingTableError, PositionError, open_tablebase

#: Where the page's HTML is (committed) and where setup puts its bundle (not committed).
BUNDLE_DIR = WEB_BUNDLE_DIR
#: A longer query string is refused before it is parsed (a FEN and a move need far fewer bytes).
MAX_QUERY_BYTES = 1024
#: The folder a worker process reads its tables from (uvicorn's workers import the app by name).
RESULTS_ENV = "CHESSAI_SERVER_RESULTS"
#: The block cache of each server process (``--cache-mb``), passed to workers as $CHESSAI_SERVER_CACHE_MB.
CACHE_MB = 64
CACHE_ENV = "CHESSAI_SERVER_CACHE_MB"


def create_app(results: Optional[os.PathLike] = None, cache_mb: Optional[int] = None) -> Starlette:
    """The application over the tables in ``results`` (default: $CHESSAI_SERVER_RESULTS, else
    $CHESSAI_RESULTS or S_n_Results) with a block cache of ``cache_mb`` MB (default: $CHESSAI_SERVER_CACHE_MB,
    else 64)."""
    folder = Path(results or os.environ.get(RESULTS_ENV) or RESULTS_DIR)
    cache_mb = cache_mb or int(os.environ.get(CACHE_ENV) or CACHE_MB)
    tablebase = open_tablebase(folder, cache_bytes=cache_mb << 20)

    def fen_of(request: Request) -> chess.Board:
        return answers.parse_fen(request.query_params.get("fen"))

    def standard(request: Request):
        return JSONResponse(answers.standard(tablebase, fen_of(request)))

    def mainline(request: Request):
        return JSONResponse(answers.mainline(tablebase, fen_of(request)))

    def position(request: Request):
        you = request.query_params.get("you")
        board = fen_of(request)
        return JSONResponse(answers.position(tablebase, board, None if you is None else answers.parse_side(you, "you")))

    def verdict(request: Request):
        board = fen_of(request)
        move = answers.parse_move(board, request.query_params.get("move"))
        return JSONResponse(answers.verdict(tablebase, board, move))

    def reply(request: Request):
        return JSONResponse(answers.reply(tablebase, fen_of(request)))

    def zugzwang(request: Request):
        board = fen_of(request)
        return JSONResponse({"fen": board.fen(), "mutual_zugzwang": answers.zugzwang(tablebase, board)})

    def random(request: Request):
        q = request.query_params
        return JSONResponse(answers.random_position(
            tablebase, answers.parse_material(q.get("material")), q.get("outcome", "win"),
            answers.parse_side(q.get("side", "w")),
            answers.parse_int(q.get("min"), "min", 1, 0, answers.MAX_PLIES, "plies"),
            answers.parse_int(q.get("max"), "max", None, 1, answers.MAX_PLIES, "plies"),
            answers.parse_int(q.get("seed"), "seed", None, 0, answers.MAX_SEED)))

    def distances(request: Request):
        q = request.query_params
        return JSONResponse(answers.distances(tablebase, answers.parse_material(q.get("material")),
                                              answers.parse_side(q.get("side", "w"))))

    def legal(request: Request):
        return JSONResponse(answers.any_position(answers.parse_any_fen(request.query_params.get("fen"))))

    def materials(request: Request):
        return JSONResponse({"materials": [str(m) for m in tablebase.materials()]})

    def page(request: Request):
        if not (BUNDLE_DIR / "main.js").exists():
            return HTMLResponse("<!doctype html><title>Endgame trainer</title><p>The board's JavaScript is not "
                                "built yet: run <code>bash scripts/setup.sh</code> (it needs nodejs and npm), "
                                "then reload this page.</p>", status_code=503)
        return FileResponse(WEB_DIR / "index.html", media_type="text/html")

    routes = [
        Route("/", page),
        Route("/standard", standard),
        Route("/standard/mainline", mainline),
        Route("/api/position", position),
        Route("/api/legal", legal),
        Route("/api/verdict", verdict),
        Route("/api/reply", reply),
        Route("/api/zugzwang", zugzwang),
        Route("/api/random", random),
        Route("/api/distances", distances),
        Route("/api/materials", materials),
        Mount("/static", StaticFiles(directory=BUNDLE_DIR, check_dir=False), name="static"),
    ]
    from .move_service import MoveService, move_routes

    service = MoveService(folder)
    routes[1:1] = move_routes(service)
    handlers = {
        answers.BadRequest: _bad_request, PositionError: _bad_request, MaterialError: _bad_request,
        MissingTableError: _missing_table, HTTPException: _http_error, Exception: _internal_error,
    }

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await service.warm()  # the search processes warm before the first request: its move is as quick
        try:
            yield
        finally:
            service.close()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.tablebase = tablebase
    return ApiGate(app)


async def _bad_request(request: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=400)


async def _missing_table(request: Request, error: MissingTableError) -> JSONResponse:
    command = error.command
    return JSONResponse({"error": f"the table {error.material} is not computed: run `{command}`",
                         "command": command}, status_code=404)


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    headers = error.headers
    if error.status_code == 404:
        message = f"no such page: {request.url.path[:100]}; see docs/server.md for the endpoints"
    elif error.status_code == 405:
        allowed = allowed_methods(request.app.routes, request.url.path) or ("GET", "HEAD", "OPTIONS")
        headers = {**{k: v for k, v in (headers or {}).items() if k.lower() != "allow"}, "allow": ", ".join(allowed)}
        message = (f"{request.method[:20]} is not allowed on {request.url.path[:100]}: use "
                   f"{' or '.join(m for m in allowed if m not in ('HEAD', 'OPTIONS'))}"
                   f"{METHOD_HINTS.get(request.url.path, '')}")
    else:
        message = error.detail
    return JSONResponse({"error": message}, status_code=error.status_code, headers=headers)


#: What a 405 adds for a route whose method is easily mistaken.
METHOD_HINTS = {"/api/move": ' with a JSON body, e.g. {"fen": "startpos", "moves": ["e2e4"], "level": 3}'}
#: The order methods are named in (``Allow`` and the preflight's ``Access-Control-Allow-Methods``).
METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(routes, path: str) -> tuple:
    """The methods the route of ``path`` accepts, OPTIONS (answered by the gate) among them; () for a path
    no route has."""
    for route in routes:
        if isinstance(route, Route) and route.path_regex.match(path):
            methods = set(route.methods or ("GET", "HEAD")) | {"OPTIONS"}
            return tuple(m for m in METHOD_ORDER if m in methods) + tuple(sorted(methods - set(METHOD_ORDER)))
    return ()


async def _internal_error(request: Request, error: Exception) -> JSONResponse:
    # a fault of ours, not of the request: said briefly, without a traceback
    return JSONResponse({"error": f"internal error ({type(error).__name__}); please report the URL"}, status_code=500)


class ApiGate:
    """What every request meets before the application: a query longer than :data:`MAX_QUERY_BYTES` is
    refused with 414 and a body announced longer than :data:`MAX_BODY_BYTES` with 413 before anything
    reads them; the API (everything but the page and its bundle) is open to pages of other sites as
    lichess's is: ``Access-Control-Allow-Origin: *`` once on every answer, and ``OPTIONS``, a browser's
    preflight, answered 204 with the methods of the route asked about (404 for a path no route has); a
    method other than GET/HEAD on the bundle gets 405 in JSON, as everywhere else."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        api = not (path == "/" or path.startswith("/static/"))
        query = scope.get("query_string", b"")
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if len(query) > MAX_QUERY_BYTES:
            response = JSONResponse({"error": f"the query is {len(query)} bytes long; at most {MAX_QUERY_BYTES} are "
                                              "read (a FEN needs under 100)"}, status_code=414, headers=CORS_HEADERS)
        elif not length.isdigit() or int(length) > MAX_BODY_BYTES:
            response = JSONResponse({"error": f"the body is {length[:20].decode('latin-1')} bytes long; at most "
                                              f"{MAX_BODY_BYTES} are read"}, status_code=413,
                                    headers={**CORS_HEADERS, "connection": "close"})
        elif api and method == "OPTIONS":
            allowed = allowed_methods(self.app.routes, path)
            if not allowed:
                response = JSONResponse({"error": f"no such page: {path[:100]}; see docs/server.md for the "
                                                  "endpoints"}, status_code=404, headers=CORS_HEADERS)
            else:
                asked = dict(scope["headers"]).get(b"access-control-request-headers", b"").decode("latin-1")
                methods = ", ".join(allowed)
                response = Response(status_code=204, headers={
                    **CORS_HEADERS, "access-control-allow-methods": methods, "allow": methods,
                    "access-control-max-age": PREFLIGHT_SECONDS, "access-control-allow-headers": asked[:200] or "*"})
        elif not api and path != "/" and method not in ("GET", "HEAD"):
            response = JSONResponse({"error": f"{method} is not allowed on {path[:100]}: use GET"}, status_code=405,
                                    headers={"allow": "GET, HEAD"})
        else:
            await self.app(scope, receive, _with_cors(send) if api else send)
            return
        await response(scope, receive, send)


#: The API answers any site's page, as lichess's does (the page itself needs none of it).
CORS_HEADERS = {"access-control-allow-origin": "*"}
#: How long a browser may keep a preflight's answer (a day).
PREFLIGHT_SECONDS = "86400"


def _with_cors(send):
    async def send_with_cors(message):
        if message["type"] == "http.response.start":
            headers = message.get("headers", [])
            if not any(name.lower() == b"access-control-allow-origin" for name, _ in headers):
                message["headers"] = [*headers, (b"access-control-allow-origin", b"*")]
        await send(message)
    return send_with_cors


#: Seconds a connection has to deliver a whole request, from when it opens or starts a request: one that
#: stops part-way (or never sends anything) is closed then.  uvicorn has no such limit of its own (its
#: ``timeout_keep_alive`` runs only between requests, and the first byte of a request stops it).
REQUEST_SECONDS = 5
#: Seconds an idle keep-alive connection is kept between requests (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE_SECONDS = 30
#: Open connections per server process (``--max-connections``); one more is answered 503 and closed.
MAX_CONNECTIONS = 500
MAX_CONNECTIONS_ENV = "CHESSAI_SERVER_MAX_CONNECTIONS"


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """Closes a connection that has not delivered a whole request within :data:`REQUEST_SECONDS` of
    opening or of its request's first byte; answers a connection beyond the process's limit
    (:data:`MAX_CONNECTIONS`, or $CHESSAI_SERVER_MAX_CONNECTIONS) with 503 in JSON and closes it."""

    request_deadline = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        limit = int(os.environ.get(MAX_CONNECTIONS_ENV) or MAX_CONNECTIONS)
        if len(self.connections) > limit:
            body = (b'{"error": "the server has as many connections open as it takes (%d): '
                    b'try again in a moment"}' % limit)
            transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                            b"retry-after: 1\r\naccess-control-allow-origin: *\r\nconnection: close\r\n"
                            b"content-length: %d\r\n\r\n%s" % (len(body), body))
            transport.close()
            return
        self._arm_deadline()

    def send_400_response(self, msg: str) -> None:
        """A request that is not HTTP (a bad request line, bytes no URL may hold): JSON like every error."""
        body = json.dumps({"error": f"{msg} The request line or a header is not valid HTTP/1.1 (a URL must be "
                                   "percent-encoded ASCII)."}).encode()
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                             b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.request_deadline is None:  # the first bytes of a request: it has REQUEST_SECONDS to finish
            self._arm_deadline()
        super().data_received(data)

    def on_message_complete(self) -> None:
        self._disarm_deadline()
        super().on_message_complete()

    def connection_lost(self, exc) -> None:
        self._disarm_deadline()
        super().connection_lost(exc)

    def _arm_deadline(self) -> None:
        self.request_deadline = self.loop.call_later(REQUEST_SECONDS, self._deadline_passed)

    def _disarm_deadline(self) -> None:
        if self.request_deadline is not None:
            self.request_deadline.cancel()
            self.request_deadline = None

    def _deadline_passed(self) -> None:
        self.request_deadline = None
        if self.cycle is not None and not self.cycle.response_complete and not self.cycle.more_body:
            return  # a whole request is being answered: not the client's delay
        if not self.transport.is_closing():
            self.transport.close()


def serve(host: str = "127.0.0.1", port: int = 8000, results: os.PathLike = RESULTS_DIR, workers: int = 1,
          cache_mb: int = CACHE_MB, max_connections: int = MAX_CONNECTIONS) -> None:
    """Run the server until interrupted (Ctrl-C)."""
    import uvicorn

    folder = Path(results).resolve()
    os.environ[RESULTS_ENV], os.environ[CACHE_ENV] = str(folder), str(cache_mb)
    os.environ[MAX_CONNECTIONS_ENV] = str(max_connections)
    with open_tablebase(folder) as tablebase:
        count = len(tablebase.materials())
    print(f"serving {count} tables from {folder} on http://{host}:{port}/ ({workers} worker"
          f"{'s' if workers != 1 else ''}, block cache {cache_mb} MB each); Ctrl-C stops", flush=True)
    uvicorn.run("Util.server.app:create_app", factory=True, host=host, port=port, workers=workers,
                access_log=False, log_level="warning", timeout_keep_alive=KEEP_ALIVE_SECONDS,
                http=BoundedHttpToolsProtocol)
