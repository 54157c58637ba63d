"""The server's move service (seed 004's POST): ``POST /api/move`` and ``GET /api/cloud-eval``.

Both run their search in :mod:`Util.server.search_pool`'s processes, never in the event loop, so the tablebase
endpoints keep answering meanwhile.  Answers are JSON with ``Access-Control-Allow-Origin: *`` (other
pages and programs may call them); a bad request is 400 with ``{"error": ...}``, a full queue 503 with
``Retry-After``.  docs/server.md has the fields and examples.

``GET /api/levels`` lists the engine's levels (:data:`Util.whole_game.levels.LEVELS`) for the page's
level chooser, and starts the pool in the background (a person who looks at the levels is about to play).

The server registers them with :func:`move_routes`.  The pool starts with the first request to any of the
three (a server that only serves tables starts no search process); its processes load and warm the
engine's compiled kernels before they take work, so that an answer asked at once waits for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import move_answers
from .search_pool import PoolBusy, SearchFailed, SearchPool, pool_settings

__all__ = ["CORS", "move_routes"]

CORS = {"Access-Control-Allow-Origin": "*"}
PREFLIGHT = {**CORS, "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
             "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "86400"}


def _json(body: dict, status: int = 200, headers: Optional[dict] = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={**CORS, **(headers or {})})


async def _disconnect(request: Request) -> None:
    """Returns when the client has gone away (the request's body has been read before)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


class MoveService:
    """The two endpoints over one :class:`SearchPool`."""

    def __init__(self, results: Optional[Path], workers: Optional[int] = None, queue: Optional[int] = None,
                 cap: Optional[float] = None) -> None:
        self.settings = pool_settings(workers, queue, cap)
        self.results = str(results) if results else None
        self.started: Optional[SearchPool] = None

    @property
    def pool(self) -> SearchPool:
        if self.started is None:
            self.started = SearchPool(self.settings, self.results)
        return self.started

    async def searched(self, request: Request, kind: str, arguments: tuple) -> Response:
        try:
            answer = await self.pool.run(kind, arguments, lambda: _disconnect(request))
        except PoolBusy as busy:
            return _json({"error": str(busy)}, 503, {"Retry-After": str(busy.retry_after)})
        except SearchFailed as failed:
            return _json({"error": f"{failed}; try again"}, 503, {"Retry-After": "1"})
        except ValueError as error:
            return _json({"error": str(error)}, 400)
        if answer is None:  # nobody is listening any more
            return Response(status_code=499)
        return _json(answer)

    async def move(self, request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=PREFLIGHT)
        if request.method != "POST":
            return _json({"error": 'POST a JSON body to /api/move, e.g. {"fen": "startpos", "level": 3}'}, 405,
                         {"Allow": "POST, OPTIONS"})
        try:
            parsed = move_answers.parse_move_request(await request.body(), 1000 * self.settings.cap)
        except move_answers.BadMove as error:
            return _json({"error": str(error)}, 400)
        return await self.searched(request, "move", (parsed, self.settings.cap))

    async def levels(self, request: Request) -> Response:
        # The page asks for the levels when a person opens its Play tab: the pool starts now, its processes
        # loading the engine while the person chooses, so that the first move is not charged for it.
        # (The server's gate adds the CORS header to every API answer.)
        self.pool  # the property starts it
        return JSONResponse(levels_answer())

    async def cloud_eval(self, request: Request) -> Response:
        q = request.query_params
        try:
            fen, lines = move_answers.parse_cloud_eval(q.get("fen"), q.get("multiPv"))
        except move_answers.BadMove as error:
            return _json({"error": str(error)}, 400)
        seconds = min(move_answers.CLOUD_EVAL_SECONDS, self.settings.cap)
        return await self.searched(request, "eval", (fen, lines, seconds))


def levels_answer() -> dict:
    """``GET /api/levels``: each level's ``number``, ``elo`` (an estimate unless ``measured``), ``label``
    (docs/levels.md's words), ``depth`` in plies (None: as the time allows), ``movetime`` in seconds at
    most (None: the clock decides) and whether it plays the ``tables``' moves."""
    from ..whole_game.levels import LEVELS

    return {"levels": [{"number": level.number, "elo": level.elo, "label": level.label, "measured": level.measured,
                        "depth": level.depth, "movetime": level.movetime, "tables": level.tables}
                       for level in LEVELS]}




def move_routes(results: Optional[Path] = None) -> List[Route]:
    """The routes of ``/api/move``, ``/api/cloud-eval`` and ``/api/levels``, the first two's pool started over the tables in
    ``results`` (the settings from the environment: :func:`Util.server.search_pool.pool_settings`)."""
    service = MoveService(results)
    return [Route("/api/move", service.move, methods=["POST", "OPTIONS", "GET"]),
            Route("/api/cloud-eval", service.cloud_eval), Route("/api/levels", service.levels)]

