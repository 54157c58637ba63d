"""Load benchmark of the tablebase server (not a test): N concurrent clients on loopback for a bounded time.

    .venv/bin/python scripts/bench_server.py [--results S_n_Results] [--clients 32] [--seconds 30]
                                             [--workers 1] [--cache-mb 64]

Starts ``python -m Util serve`` on a free loopback port, then N clients, each on a keep-alive connection,
ask ``GET /standard?fen=...`` for random legal positions (of the five-piece tables in the folder whose
captures' tables are there too, else four-piece ones) one after another until the time is up.  Prints
requests per second, p50/p99/max latency, errors (any answer but 200, or a broken connection) and the
server's memory (resident now and at its peak, all its processes).  The server's block cache is
``--cache-mb``: its memory should stay under that plus 200 MB however long it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

import chess

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from Util.server.process import start_server  # noqa: E402

from Util.board.random_boards import random_legal_board  # noqa: E402
from Util.tablebase import MissingTableError, open_tablebase  # noqa: E402


def random_positions(results: Path, count: int, seed: int = 1):
    """``count`` random legal positions (not over) of the largest tables in ``results`` whose every move
    can be answered (the tables captures lead into are there too); and the materials they are of."""
    rng = random.Random(seed)
    with open_tablebase(results) as tablebase:
        materials = tablebase.materials()
        for pieces in (5, 4, 3):
            usable = []
            for material in (m for m in materials if m.piece_count == pieces):
                board = _random_board(rng, material)
                try:
                    tablebase.probe_moves(board)
                    usable.append(material)
                except MissingTableError:
                    continue
            if usable:
                break
        else:
            raise SystemExit(f"no table in {results} to ask about: compute some (python -m Util calculate KQvKR)")
        fens = []
        while len(fens) < count:
            board = _random_board(rng, rng.choice(usable))
            fens.append(board.fen())
    return fens, usable


def _random_board(rng: random.Random, material) -> chess.Board:
    return random_legal_board(material, rng, playable=True)


async def client(port: int, fens, deadline: float, latencies: list, errors: list, rng: random.Random):
    reader = writer = None
    while time.perf_counter() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            fen = rng.choice(fens)
            request = f"GET /standard?fen={urllib.parse.quote(fen)} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if status != 200:
                errors.append(f"HTTP {status} for {fen}")
        except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration) as error:
            errors.append(f"{type(error).__name__}: {error}")
            if writer is not None:
                writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


def memory_mb(pid: int):
    """(resident now, peak resident) in MB of ``pid`` and its children (uvicorn's workers)."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    now = peak = 0
    for p in pids:
        try:
            fields = dict(line.split(":", 1) for line in Path(f"/proc/{p}/status").read_text().splitlines() if ":" in line)
            fields = {k.strip(): v for k, v in fields.items()}
        except FileNotFoundError:
            continue
        if "VmRSS" not in fields:  # a process that has ended (a zombie) holds no memory
            continue
        now += int(fields["VmRSS"].split()[0]) / 1024
        peak += int(fields["VmHWM"].split()[0]) / 1024
    return now, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results")))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--positions", type=int, default=5000, help="random positions to ask about")
    parser.add_argument("--cache-mb", type=int, default=64, help="the server's block cache (default 64)")
    args = parser.parse_args()

    fens, materials = random_positions(args.results, args.positions)
    served = start_server(args.results, ("--workers", str(args.workers), "--cache-mb", str(args.cache_mb)))
    server, port = served.process, served.port
    try:
        time.sleep(0.5 * args.workers)  # every worker up
        latencies, errors = [], []

        async def run():
            deadline = time.perf_counter() + args.seconds
            rngs = [random.Random(i) for i in range(args.clients)]
            await asyncio.gather(*(client(port, fens, deadline, latencies, errors, rng) for rng in rngs))

        started = time.perf_counter()
        asyncio.run(run())
        elapsed = time.perf_counter() - started
        rss, peak = memory_mb(server.pid)
    finally:
        served.stop()

    latencies.sort()
    ms = lambda q: 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    names = ", ".join(str(m) for m in materials)
    print(f"GET /standard, random positions of {names}; {args.clients} clients, {args.workers} worker(s), "
          f"{elapsed:.1f} s, block cache {args.cache_mb} MB")
    print(f"requests {len(latencies)}  per second {len(latencies) / elapsed:.0f}  p50 {ms(0.50):.1f} ms  "
          f"p99 {ms(0.99):.1f} ms  max {1000 * latencies[-1] if latencies else float('nan'):.1f} ms  "
          f"mean {1000 * statistics.fmean(latencies) if latencies else float('nan'):.1f} ms  errors {len(errors)}")
    print(f"server memory: resident {rss:.0f} MB at the end, peak {peak:.0f} MB")
    for error in errors[:5]:
        print("  error:", error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
