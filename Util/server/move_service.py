"""The server's move service (seed 004's POST): ``POST /api/move`` and ``GET /api/cloud-eval``.

Both run their search in :mod:`Util.server.search_pool`'s processes, never in the event loop, so the tablebase
endpoints keep answering meanwhile.  Answers are JSON (the server's gate adds ``Access-Control-Allow-Origin:
*`` to each, once: other pages and programs may call them); a bad request is 400 with ``{"error": ...}``, a
body over :data:`~Util.server.move_answers.MAX_BODY_BYTES` 413 (refused as soon as its length is known or its
bytes pass the limit, never read whole), a client with its share of searches in flight 429 and a full
queue 503, both with ``Retry-After``.  docs/server.md has the fields and examples.

``GET /api/levels`` lists the engine's levels (:data:`Util.whole_game.levels.LEVELS`) for the page's
level chooser.

The server registers them with :func:`move_routes` and starts the pool when it starts (:meth:`MoveService.warm`):
its processes load and warm the engine's compiled kernels before the server takes requests, so that the
first move is as quick as the next.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import List, Optional

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import move_answers
from .search_pool import ClientBusy, PoolBusy, SearchFailed, SearchPool, pool_settings

__all__ = ["MOVE_METHODS", "MoveService", "move_routes"]

#: What ``/api/move`` accepts (the gate's preflight and 405 name them).
MOVE_METHODS = ("POST", "OPTIONS")
#: A refused body's answer closes the connection: the bytes still coming are not read.
CLOSE = {"Connection": "close"}


def _json(body: dict, status: int = 200, headers: Optional[dict] = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)


async def _disconnect(request: Request) -> None:
    """Returns when the client has gone away (the request's body has been read before)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def client_of(request: Request) -> str:
    """Whose share a request counts against: its address (a proxy in front makes every client one)."""
    return request.client.host if request.client else ""


async def bounded_body(request: Request, limit: int = move_answers.MAX_BODY_BYTES) -> bytes:
    """The request's body, read while it stays within ``limit`` bytes: BadMove (with ``too_large`` set) as
    soon as its ``Content-Length`` or the bytes read pass it, so that no body costs more memory than that."""
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or int(length) > limit):
        raise _too_large(f"the body is {length[:20]} bytes long; at most {limit} are read")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _too_large(f"the body is more than {limit} bytes long; at most {limit} are read")
    return bytes(body)


def _too_large(message: str) -> move_answers.BadMove:
    error = move_answers.BadMove(message)
    error.too_large = True
    return error


class MoveService:
    """The endpoints over one :class:`SearchPool`."""

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

    async def warm(self) -> None:
        """Starts the pool and waits until its processes are warm, having loaded here what reading a request
        needs (the server's start-up runs this before it listens)."""
        loop = asyncio.get_running_loop()
        self.pool  # the property starts the processes: they warm while this process loads the levels
        await loop.run_in_executor(None, levels_answer)
        await loop.run_in_executor(None, self.pool.wait_ready)

    def close(self) -> None:
        if self.started is not None:
            self.started.close()
            self.started = None

    async def searched(self, request: Request, kind: str, arguments: tuple) -> Response:
        try:
            answer = await self.pool.run(kind, arguments, lambda: _disconnect(request), client_of(request))
        except (ClientBusy, PoolBusy) as busy:
            return _json({"error": str(busy)}, 429 if isinstance(busy, ClientBusy) else 503,
                         {"Retry-After": str(busy.retry_after)})
        except SearchFailed as failed:
            return _json({"error": f"{failed}; try again"}, 503, {"Retry-After": "1"})
        except ValueError as error:
            return _json({"error": str(error)}, 400)
        if answer is None:  # nobody is listening any more
            return Response(status_code=499)
        return _json(answer)

    async def move(self, request: Request) -> Response:
        try:
            raw = await bounded_body(request)
            parsed = move_answers.parse_move_request(raw, 1000 * self.settings.cap)
        except move_answers.BadMove as error:
            if getattr(error, "too_large", False):
                return _json({"error": str(error)}, 413, CLOSE)
            return _json({"error": str(error)}, 400)
        except ClientDisconnect:
            return Response(status_code=499)
        return await self.searched(request, "move", (parsed, self.settings.cap))

    async def levels(self, request: Request) -> Response:
        return JSONResponse(levels_answer())

    async def cloud_eval(self, request: Request) -> Response:
        q = request.query_params
        try:
            fen, lines, seconds = move_answers.parse_cloud_eval(q.get("fen"), q.get("multiPv"), q.get("movetime"))
        except move_answers.BadMove as error:
            return _json({"error": str(error)}, 400)
        return await self.searched(request, "eval", (fen, lines, min(seconds, self.settings.cap)))


def levels_answer() -> dict:
    """``GET /api/levels``: each level's ``number``, ``elo`` (an estimate unless ``measured``) with its 95 %
    interval ``elo_low`` .. ``elo_high`` (null when not measured), the rating list whose ``scale`` it is on
    and the ``games`` it rests on, ``label`` (docs/levels.md's words), ``depth`` in plies (None: as the
    time allows), ``movetime`` in seconds at most (None: the clock decides) and whether it plays the
    ``tables``' moves."""
    import dataclasses

    from ..whole_game.levels import LEVELS

    answers = []
    for level in LEVELS:
        fields = {f.name: getattr(level, f.name) for f in dataclasses.fields(level)
                  if f.name not in ("nodes", "margin", "noise", "weights")}
        answers.append({**fields, "label": level.label})
    return {"levels": answers}


def move_routes(service: MoveService) -> List[Route]:
    """The routes of ``/api/move``, ``/api/cloud-eval`` and ``/api/levels`` over ``service``."""
    return [Route("/api/move", service.move, methods=list(MOVE_METHODS)),
            Route("/api/cloud-eval", service.cloud_eval), Route("/api/levels", service.levels)]
