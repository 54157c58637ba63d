"""Benchmark of the move service (not a test): does ``/standard`` stay fast while the engine thinks?

    .venv/bin/python scripts/bench_move_service.py [--results S_n_Results] [--search-workers 2]
                                                   [--searches 2] [--movetime 200] [--clients 4] [--seconds 20]

Starts ``python -m Util serve`` on a free loopback port with a search pool of ``--search-workers``
processes, warms it, then measures twice for ``--seconds`` each: ``--clients`` clients asking
``GET /standard`` for random positions of the folder's tables (as scripts/bench_server.py does), first
alone, then while ``--searches`` clients each ask ``POST /api/move`` (out of the book, ``--movetime`` ms a
move) one after another.  Prints ``/standard``'s p50/p99 in both runs, the moves per second the pool
answered, and the 503s (a full queue) seen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_server import client, random_positions  # noqa: E402

#: Positions out of the book for the searches (after a few moves of common openings).
SEARCH_FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8",
    "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 b kq - 1 7",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R b KQ - 3 6",
    "r2qkb1r/pp1n1ppp/2p1pn2/3p1b2/2PP4/1QN1PN2/PP3PPP/R1B1KB1R w KQkq - 2 7",
]


async def searcher(port: int, movetime: int, deadline: float, done: list, refused: list, rng: random.Random):
    """POST /api/move again and again on one connection until ``deadline``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < deadline:
            body = json.dumps({"fen": rng.choice(SEARCH_FENS), "movetime": movetime}).encode()
            writer.write(b"POST /api/move HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            status = int(head.split(b" ", 2)[1])
            (done if status == 200 else refused).append(time.perf_counter())
            if status == 503:
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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO), CHESSAI_SEARCH_WORKERS=str(args.search_workers))
    server = subprocess.Popen([sys.executable, "-m", "Util", "serve", "--port", str(port), "--results",
                               str(args.results)], cwd=REPO, env=env)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

        async def warm():
            done, refused = [], []
            deadline = time.perf_counter() + 0.1
            await asyncio.gather(*(searcher(port, 50, deadline, done, refused, random.Random(i))
                                   for i in range(args.search_workers)))

        asyncio.run(warm())

        def measure(with_searches: int):
            latencies, errors, done, refused = [], [], [], []

            async def run():
                deadline = time.perf_counter() + args.seconds
                tasks = [client(port, fens, deadline, latencies, errors, random.Random(i)) for i in range(args.clients)]
                tasks += [searcher(port, args.movetime, deadline, done, refused, random.Random(100 + i))
                          for i in range(with_searches)]
                await asyncio.gather(*tasks)

            started = time.perf_counter()
            asyncio.run(run())
            return latencies, errors, done, refused, time.perf_counter() - started

        alone = measure(0)
        loaded = measure(searches)
    finally:
        server.terminate()
        server.wait(timeout=30)

    names = ", ".join(str(m) for m in materials)
    print(f"/standard on random positions of {names}: {args.clients} clients, {args.seconds:g} s each run; search "
          f"pool of {args.search_workers} process(es), {os.cpu_count()} cores")
    for label, (latencies, errors, done, refused, elapsed) in (("alone", alone), (f"with {searches} searching", loaded)):
        p50, p99, count = percentiles(latencies)
        line = f"  {label:<16} /standard p50 {p50:.1f} ms  p99 {p99:.1f} ms  ({count} requests, {len(errors)} errors)"
        if done or refused:
            line += f"; moves {len(done)} in {elapsed:.1f} s = {len(done) / elapsed:.2f} moves/s at {args.movetime} ms, " \
                    f"503s {len(refused)}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
