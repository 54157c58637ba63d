"""Benchmark of the move service (not a test): does ``/standard`` stay fast while the engine thinks?

    .venv/bin/python scripts/bench_move_service.py [--results S_n_Results] [--search-workers 2]
                                                   [--searches 2] [--movetime 200] [--clients 4] [--seconds 20]

Starts ``python -m Util serve`` on a free loopback port with a search pool of ``--search-workers``
processes, warms it, then measures twice for ``--seconds`` each: ``--clients`` clients asking
``GET /standard`` for random positions of the folder's tables (as scripts/bench_server.py does), first
alone, then while ``--searches`` clients each ask ``POST /api/move`` (out of the book, ``--movetime`` ms a
move) one after another, each from a loopback address of its own (127.0.0.10, .11, ...: the pool gives each
address one search at a time).  Prints ``/standard``'s p50/p99 in both runs, the moves per second the pool
answered, and the 503s (a full queue) and 429s seen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import chess

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from Util.server.process import start_server  # noqa: E402

from bench_server import client, random_positions  # noqa: E402

#: How many positions out of the book the searches take (from the shared openings).
SEARCH_POSITIONS = 16


def positions_out_of_book(count: int):
    """The first ``count`` positions of the shared openings that the default book has no move for (else
    the book would answer at once and the pool would not search)."""
    from Util.whole_game_lab.match import default_openings_file, read_openings
    from Util.whole_game.opening_book import import_opening_book

    with import_opening_book() as book:
        fens = [fen for fen in read_openings(default_openings_file(), 0, 400)
                if book.get_opening_move(chess.Board(fen)) is None]
    return fens[:count]


async def searcher(port: int, fens, movetime: int, deadline: float, done: list, refused: list, rng: random.Random,
                   address: str = "127.0.0.1"):
    """POST /api/move again and again on one connection from ``address`` until ``deadline``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        while time.perf_counter() < deadline:
            body = json.dumps({"fen": rng.choice(fens), "movetime": movetime}).encode()
            writer.write(b"POST /api/move HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            status = int(head.split(b" ", 2)[1])
            (done if status == 200 else refused).append(time.perf_counter())
            if status in (429, 503):
                await asyncio.sleep(0.05)
    finally:
        writer.close()


def percentiles(latencies):
    latencies = sorted(latencies)
    at = lambda q: 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    return at(0.5), at(0.99), len(latencies)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results")))
    parser.add_argument("--search-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--searches", type=int, default=None, help="clients searching at once (default: the workers)")
    parser.add_argument("--movetime", type=int, default=200, help="ms per searched move")
    parser.add_argument("--clients", type=int, default=4, help="clients on /standard")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    searches = args.searches or args.search_workers

    fens, materials = random_positions(args.results, 2000)
    searched = positions_out_of_book(SEARCH_POSITIONS)
    served = start_server(args.results, env={"CHESSAI_SEARCH_WORKERS": str(args.search_workers)})
    port = served.port
    try:

        async def warm():
            done, refused = [], []
            deadline = time.perf_counter() + 0.1
            await asyncio.gather(*(searcher(port, searched, 50, deadline, done, refused, random.Random(i), f"127.0.0.{10 + i}")
                                   for i in range(args.search_workers)))

        asyncio.run(warm())

        def measure(with_searches: int):
            latencies, errors, done, refused = [], [], [], []

            async def run():
                deadline = time.perf_counter() + args.seconds
                tasks = [client(port, fens, deadline, latencies, errors, random.Random(i)) for i in range(args.clients)]
                tasks += [searcher(port, searched, args.movetime, deadline, done, refused, random.Random(100 + i),
                                   f"127.0.0.{10 + i}") for i in range(with_searches)]
                await asyncio.gather(*tasks)

            started = time.perf_counter()
            asyncio.run(run())
            return latencies, errors, done, refused, time.perf_counter() - started

        alone = measure(0)
        loaded = measure(searches)
    finally:
        served.stop()

    names = ", ".join(str(m) for m in materials)
    print(f"/standard on random positions of {names}: {args.clients} clients, {args.seconds:g} s each run; search "
          f"pool of {args.search_workers} process(es), {os.cpu_count()} cores")
    for label, (latencies, errors, done, refused, elapsed) in (("alone", alone), (f"with {searches} searching", loaded)):
        p50, p99, count = percentiles(latencies)
        line = f"  {label:<16} /standard p50 {p50:.1f} ms  p99 {p99:.1f} ms  ({count} requests, {len(errors)} errors)"
        if done or refused:
            line += f"; moves {len(done)} in {elapsed:.1f} s = {len(done) / elapsed:.2f} moves/s at {args.movetime} ms, " \
                    f"503s and 429s {len(refused)}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
