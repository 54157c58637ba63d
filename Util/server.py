"""The tablebase server: ``python -m Util serve``.  A Starlette application on uvicorn.

It keeps no state per person (a practice game lives in the page and its URL), so ``--workers N``
processes, or several machines sharing the read-only table files, serve more people.  Every answer is
JSON; bad input gets 400 with ``{"error": "..."}`` saying what was wrong, a table not computed 404 with
the command that computes it.  The page at ``/`` and its bundle (``web/``, built by
``scripts/setup.sh``) are served from here too: nothing comes from elsewhere.

Endpoints (docs/server.md has examples):

* ``GET /standard?fen=`` and ``GET /standard/mainline?fen=``: lichess's tablebase API;
* ``GET /api/position?fen=``: ``/standard`` plus the FEN after each move, a status line in words and
  whether the position is a mutual zugzwang;
* ``GET /api/verdict?fen=&move=``: the verdict on a move; ``GET /api/reply?fen=``: the server's move;
* ``GET /api/random?material=&outcome=&side=&min=&max=&seed=``, ``GET /api/distances?material=&side=``:
  random starts and which distances exist; ``GET /api/zugzwang?fen=``; ``GET /api/materials``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import chess
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import server_answers as answers
from .material import MaterialError
from .folders import RESULTS_DIR
from .tablebase import MissingTableError, PositionError, open_tablebase

#: Where the page's HTML is (committed) and where setup puts its bundle (not committed).
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
BUNDLE_DIR = WEB_DIR / "dist"
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
        return JSONResponse(answers.position(tablebase, fen_of(request)))

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
            answers.parse_side(q.get("side", "w")), answers.parse_int(q.get("min"), "min", 1),
            answers.parse_int(q.get("max"), "max", None), answers.parse_int(q.get("seed"), "seed", None)))

    def distances(request: Request):
        q = request.query_params
        return JSONResponse(answers.distances(tablebase, answers.parse_material(q.get("material")),
                                              answers.parse_side(q.get("side", "w"))))

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
        Route("/api/verdict", verdict),
        Route("/api/reply", reply),
        Route("/api/zugzwang", zugzwang),
        Route("/api/random", random),
        Route("/api/distances", distances),
        Route("/api/materials", materials),
        Mount("/static", StaticFiles(directory=BUNDLE_DIR, check_dir=False), name="static"),
    ]
    # -- the move service (Util/move_service.py): POST /api/move, GET /api/cloud-eval ----------------------
    from .move_service import move_routes

    routes[1:1] = move_routes(folder)
    # -- end of the move service -------------------------------------------------------------------------
    handlers = {
        answers.BadRequest: _bad_request, PositionError: _bad_request, MaterialError: _bad_request,
        MissingTableError: _missing_table, HTTPException: _http_error, Exception: _internal_error,
    }
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.tablebase = tablebase
    return LimitQuery(app)


async def _bad_request(request: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=400)


async def _missing_table(request: Request, error: MissingTableError) -> JSONResponse:
    command = error.command
    return JSONResponse({"error": f"the table {error.material} is not computed: run `{command}`",
                         "command": command}, status_code=404)


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    message = "no such page: see docs/server.md for the endpoints" if error.status_code == 404 else error.detail
    return JSONResponse({"error": message}, status_code=error.status_code)


async def _internal_error(request: Request, error: Exception) -> JSONResponse:
    # a fault of ours, not of the request: said briefly, without a traceback
    return JSONResponse({"error": f"internal error ({type(error).__name__}); please report the URL"}, status_code=500)


class LimitQuery:
    """Refuses an over-long query string with 400 before anything parses it."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
            response = JSONResponse({"error": f"the query is {len(scope['query_string'])} bytes long; at most "
                                              f"{MAX_QUERY_BYTES} are read (a FEN needs under 100)"}, status_code=400)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def serve(host: str = "127.0.0.1", port: int = 8000, results: os.PathLike = RESULTS_DIR, workers: int = 1,
          cache_mb: int = CACHE_MB) -> None:
    """Run the server until interrupted (Ctrl-C)."""
    import uvicorn

    folder = Path(results).resolve()
    os.environ[RESULTS_ENV], os.environ[CACHE_ENV] = str(folder), str(cache_mb)
    with open_tablebase(folder) as tablebase:
        count = len(tablebase.materials())
    print(f"serving {count} tables from {folder} on http://{host}:{port}/ ({workers} worker"
          f"{'s' if workers != 1 else ''}, block cache {cache_mb} MB each); Ctrl-C stops", flush=True)
    uvicorn.run("Util.server:create_app", factory=True, host=host, port=port, workers=workers,
                access_log=False, log_level="warning", timeout_keep_alive=30)
