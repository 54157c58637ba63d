"""Searches for the server, outside its event loop: a fixed set of worker processes, a fair queue, a cap.

The server's event loop must keep answering ``/standard`` in milliseconds while somebody's move is being
thought about for seconds, and a compiled search holds a core.  So each search runs in one of ``workers``
processes (one per core by default), started with the server; each loads the engine's compiled kernels and
runs a small search before the server takes requests (:meth:`SearchPool.wait_ready`), so that the first
move is as quick as the next.  A request waits for a free process in a queue of at most ``queue``
places; beyond that it is refused at once (:class:`PoolBusy`, the server's 503 with ``Retry-After``)
instead of waiting without end.  No client takes more than its share: a client (an address) has at most
``per_client`` requests in flight (one more is :class:`ClientBusy`, the server's 429), and a free process
goes to the clients in turn, so that one that loops delays another's request by one search at most.
Every search has a hard cap (``cap`` seconds); a process that has not answered ``GRACE`` seconds after it
is stopped is killed and started afresh.  A client that goes away sets its search's stop flag (a
:class:`multiprocessing.Event` the worker's search polls) and the process is free within milliseconds.

Settings come from the arguments or the environment (so that ``serve``'s workers, started by name, read
them): ``CHESSAI_SEARCH_WORKERS``, ``CHESSAI_SEARCH_QUEUE``, ``CHESSAI_SEARCH_CAP`` (seconds),
``CHESSAI_SEARCH_PER_CLIENT``.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Awaitable, Callable, Deque, Dict, List, Optional

__all__ = ["ClientBusy", "GRACE", "PoolBusy", "PoolSettings", "SearchPool", "SearchFailed", "pool_settings",
           "worker_main"]

WORKERS_ENV, QUEUE_ENV, CAP_ENV = "CHESSAI_SEARCH_WORKERS", "CHESSAI_SEARCH_QUEUE", "CHESSAI_SEARCH_CAP"
PER_CLIENT_ENV = "CHESSAI_SEARCH_PER_CLIENT"
#: Default hard cap of one search, seconds; and how long a stopped search may take to give its answer.
CAP, GRACE = 10.0, 3.0
#: Requests of one client in flight (searching or waiting) by default: a person's page asks one at a time.
PER_CLIENT = 1
#: How long a worker may take to load its kernels before its first answer (minutes if they are compiled).
START_TIMEOUT = 600.0


class PoolBusy(Exception):
    """Every process is searching and the queue is full: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"every search process is busy and the queue is full; try again in {retry_after} s")
        self.retry_after = retry_after


class ClientBusy(Exception):
    """The client has its share of requests in flight already: try again when one is answered."""

    def __init__(self, share: int, retry_after: int) -> None:
        super().__init__(f"you have {share} search{'es' if share > 1 else ''} in flight already, your share of "
                         f"the server: wait for {'one' if share > 1 else 'it'} to be answered, or try again in "
                         f"{retry_after} s")
        self.retry_after = retry_after


class SearchFailed(Exception):
    """A search process did not answer in time (it was started afresh) or failed."""


class PoolSettings:
    """``workers`` processes, ``queue`` requests waiting at most, ``cap`` seconds per search, ``per_client``
    requests of one client in flight at most."""

    def __init__(self, workers: int, queue: int, cap: float, per_client: int = PER_CLIENT) -> None:
        if workers < 1 or queue < 0 or cap <= 0 or per_client < 1:
            raise ValueError(f"search pool: workers must be 1 or more ({workers}), queue 0 or more ({queue}), "
                             f"cap positive ({cap}), per client 1 or more ({per_client})")
        self.workers, self.queue, self.cap, self.per_client = workers, queue, cap, per_client


def pool_settings(workers: Optional[int] = None, queue: Optional[int] = None,
                  cap: Optional[float] = None, per_client: Optional[int] = None) -> PoolSettings:
    """The settings given, else the environment's, else one process per core, a queue of twice that,
    :data:`CAP` seconds, :data:`PER_CLIENT` request of a client in flight."""
    workers = workers or int(os.environ.get(WORKERS_ENV) or os.cpu_count() or 1)
    if queue is None:
        queue = int(os.environ[QUEUE_ENV]) if os.environ.get(QUEUE_ENV) else 2 * workers
    cap = cap or float(os.environ.get(CAP_ENV) or CAP)
    per_client = per_client or int(os.environ.get(PER_CLIENT_ENV) or PER_CLIENT)
    return PoolSettings(workers, queue, cap, per_client)


#: What a search process answers before it takes work: a book move, a weak level's and full strength's
#: searches in a middlegame (fen, moves, level, times), and an evaluation of two lines; each search this long.
WARM_FEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8"
WARM_REQUESTS = (("startpos", ["e2e4"], 3, {}), (WARM_FEN, [], 2, {"movetime": 30}),
                 (WARM_FEN, [], None, {"movetime": 30}))
WARM_SECONDS = 0.05


def worker_main(connection, stop, results: Optional[str], hash_mb: int) -> None:
    """A search process: opens a player (default book, the server's tables), warms the kernels, then answers
    each ``(kind, arguments)`` it receives with ``("ok", answer)``, ``("bad", message)`` for a request
    that cannot be answered, or ``("error", message)``; ends when the server's end of the pipe closes."""
    import chess

    from . import move_answers
    from ..whole_game.player import DEFAULT, Player
    from ..whole_game.search import Limits

    player = Player(book=DEFAULT, tablebase=results or None, hash_mb=hash_mb, on_error=lambda message: None)
    player.searcher.search(chess.Board(), Limits(depth=4))
    for request in WARM_REQUESTS:  # every path a request takes, once, so that none is first for a person
        move_answers.answer_move(player, move_answers.MoveRequest(*request), WARM_SECONDS)
    move_answers.answer_cloud_eval(player, WARM_FEN, 2, WARM_SECONDS)
    player.new_game()
    connection.send(("ready", None))
    while True:
        try:
            kind, arguments = connection.recv()
        except (EOFError, OSError):
            return
        try:
            if kind == "move":
                answer = move_answers.answer_move(player, *arguments, stop=stop)
            else:
                answer = move_answers.answer_cloud_eval(player, *arguments, stop=stop)
            connection.send(("ok", answer))
        except ValueError as error:
            connection.send(("bad", str(error)))
        except Exception as error:  # a fault of ours: said to the server, the process goes on
            connection.send(("error", f"{type(error).__name__}: {error}"))


class Worker:
    """One search process, the server's end of its pipe and its stop flag."""

    def __init__(self, context, results: Optional[str], hash_mb: int) -> None:
        self.context, self.results, self.hash_mb = context, results, hash_mb
        self.ready = False
        self.start()

    def start(self) -> None:
        self.connection, child = self.context.Pipe()
        self.stop = self.context.Event()
        self.process = self.context.Process(target=worker_main, args=(child, self.stop, self.results, self.hash_mb),
                                            daemon=True, name="chessAI search")
        self.process.start()
        child.close()
        self.ready = False

    def restart(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.connection.close()
        self.start()

    def wait_ready(self, timeout: float) -> bool:
        """Waits up to ``timeout`` seconds for the process's "ready" (before any request is sent to it)."""
        if not self.ready and self.connection.poll(timeout):
            kind, _ = self.connection.recv()
            self.ready = kind == "ready"
        return self.ready

    def answer(self, timeout: float) -> tuple:
        """The next answer (after the start's "ready"), or ("timeout", None): runs in a thread."""
        while True:
            wait = timeout if self.ready else START_TIMEOUT
            if not self.connection.poll(wait):
                return "timeout", None
            kind, payload = self.connection.recv()
            if kind != "ready":
                return kind, payload
            self.ready = True


class SearchPool:
    """The processes and the queue in front of them, used from the server's event loop.

    Fair between clients: each ``client`` (the server passes the caller's address) has at most
    ``settings.per_client`` requests in flight, searching or waiting (one more is :class:`ClientBusy`), and
    a free process goes to the request that has waited longest.  So a client that loops can hold at most
    its own requests' places: another client's request waits for at most one search per client ahead of
    it (with one process), and for none while a process is free."""

    def __init__(self, settings: PoolSettings, results: Optional[str] = None, hash_mb: int = 32) -> None:
        self.settings = settings
        context = multiprocessing.get_context("spawn")  # a fork of a server with threads is not safe
        self.workers: List[Worker] = [Worker(context, results, hash_mb) for _ in range(settings.workers)]
        self.idle: List[Worker] = list(self.workers)
        self.waiting: Dict[str, Deque[asyncio.Future]] = {}  # by client, in the order of their turns
        self.queued = 0
        self.in_flight: Dict[str, int] = {}
        self.threads = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="search-pool")

    @property
    def busy(self) -> int:
        return len(self.workers) - len(self.idle)

    def wait_ready(self, timeout: float = START_TIMEOUT) -> bool:
        """Blocks until every process has loaded and warmed the engine (or ``timeout`` seconds have passed):
        whether they all have.  Runs before the server takes requests, so that the first move is as
        quick as the next."""
        deadline = time.monotonic() + timeout
        return all(worker.wait_ready(max(0.0, deadline - time.monotonic())) for worker in self.workers)

    def admit(self, client: str) -> None:
        """Counts a request of ``client``; ClientBusy if it has its share in flight already."""
        if self.in_flight.get(client, 0) >= self.settings.per_client:
            raise ClientBusy(self.settings.per_client, 1)  # its search ends within the cap; a page asks again
        self.in_flight[client] = self.in_flight.get(client, 0) + 1

    def leave(self, client: str) -> None:
        """A request of ``client`` is answered (or its client went away)."""
        left = self.in_flight.get(client, 0) - 1
        if left > 0:
            self.in_flight[client] = left
        else:
            self.in_flight.pop(client, None)

    async def acquire(self, client: str = "") -> Worker:
        """A free process for ``client``: at once if one is idle and nobody waits, else in the client's turn
        (PoolBusy if :attr:`PoolSettings.queue` requests wait already)."""
        if self.idle and not self.queued:
            return self.idle.pop()
        if self.queued >= self.settings.queue:
            raise PoolBusy(max(1, round(self.settings.cap / 4)))
        future = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(client, collections.deque()).append(future)
        self.queued += 1
        try:
            return await future
        except asyncio.CancelledError:
            line = self.waiting.get(client)
            if line is not None and future in line:
                line.remove(future)
                self.queued -= 1
                if not line:
                    del self.waiting[client]
            elif future.done() and not future.cancelled():
                self.release(future.result())
            raise

    def release(self, worker: Worker) -> None:
        """``worker`` is free: it goes to the first request of the client whose turn it is (that client then
        goes to the back of the round), else back to the idle ones."""
        while self.waiting:
            client = next(iter(self.waiting))
            line = self.waiting.pop(client)
            future = line.popleft()
            self.queued -= 1
            if line:
                self.waiting[client] = line
            if not future.done():
                future.set_result(worker)
                return
        self.idle.append(worker)

    async def run(self, kind: str, arguments: tuple, disconnected: Optional[Callable[[], Awaitable]] = None,
                  client: str = "") -> object:
        """The worker's answer to ``(kind, arguments)`` for ``client``.  ClientBusy when the client has its
        share in flight; PoolBusy when no place is free; ValueError for a request the worker found bad;
        SearchFailed when the worker failed or had to be restarted; None if ``disconnected()`` finished first
        (the search is stopped and its answer dropped)."""
        self.admit(client)
        try:
            return await self._run(kind, arguments, disconnected, client)
        finally:
            self.leave(client)

    async def _run(self, kind: str, arguments: tuple, disconnected: Optional[Callable[[], Awaitable]],
                   client: str) -> object:
        worker = await self.acquire(client)
        loop = asyncio.get_running_loop()
        try:
            worker.stop.clear()
            worker.connection.send((kind, arguments))
        except (OSError, ValueError):
            worker.restart()
            self.release(worker)
            raise SearchFailed("the search process had ended; it was started again") from None
        answer = loop.run_in_executor(self.threads, worker.answer, self.settings.cap + GRACE)
        answer.add_done_callback(lambda done: self.finish(worker, done))
        watcher = asyncio.ensure_future(disconnected()) if disconnected is not None else None
        try:
            waited = {asyncio.shield(answer)} | ({watcher} if watcher else set())
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            worker.stop.set()
            raise
        finally:
            if watcher is not None and not watcher.done():
                watcher.cancel()
        if not answer.done():
            worker.stop.set()  # the client went away: the worker stops and frees itself
            return None
        kind, payload = answer.result()
        if kind == "ok":
            return payload
        if kind == "bad":
            raise ValueError(payload)
        if kind == "timeout":
            raise SearchFailed(f"the search did not answer within {self.settings.cap + GRACE:g} s; its process "
                               f"was started again")
        raise SearchFailed(payload)

    def finish(self, worker: Worker, done) -> None:
        """Runs when the worker's answer (or its silence) is known: a silent worker is killed and started
        again; then the worker takes the next request in the queue."""
        if done.cancelled() or done.exception() is not None or done.result()[0] == "timeout":
            worker.restart()
        self.release(worker)

    def close(self) -> None:
        for worker in self.workers:
            worker.process.kill()
            worker.connection.close()
        self.threads.shutdown(wait=False)
