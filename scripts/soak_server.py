"""Soak benchmark of the tablebase server (not a test): N clients mixing every endpoint for a long time.

    .venv/bin/python scripts/soak_server.py [--results S_n_Results] [--clients 32] [--seconds 600]
                                            [--cache-mb 64]

Starts ``python -m Util serve`` on a free loopback port; N clients, each on a keep-alive connection, ask one
request after another until the time is up, each drawn from the whole API: ``/standard``,
``/standard/mainline``, ``/api/position``, ``/api/verdict`` (a random legal move), ``/api/reply``,
``/api/zugzwang``, ``/api/random``, ``/api/distances``, ``/api/materials``, the page and its bundle, a
CORS preflight, and bad requests (each must get its 4xx).  Prints every minute and at the end: requests
per second, p50/p99/max latency, errors (a 5xx, a status other than the one expected, a broken
connection) and the server's resident memory at the start (after a few seconds of one client) and at the
end, with its peak.  The memory must stay under the block cache (``--cache-mb``) plus 200 MB; the exit
status is 1 on any error or if it does not.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
import urllib.parse
from collections import Counter
from pathlib import Path

import chess

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from Util.server.process import start_server  # noqa: E402

from bench_server import memory_mb, random_positions  # noqa: E402

#: Bad requests and the status each must get.
BAD = [
    ("GET", "/api/verdict?fen=8/8/8/3k4/8/2r5/8/KQ6_w_-_-_0_1&move=0000", 400),
    ("GET", "/standard?fen=4k3/8/5N2/8/B7/8/8/K3R3_b_-_-_0_1", 400),
    ("GET", "/api/random?material=KQvKR&min=1000000000", 400),
    ("GET", "/standard?fen=garbage", 400),
    ("POST", "/standard", 405),
    ("GET", "/nowhere", 404),
    ("GET", "/standard?fen=" + "8" * 1100, 414),
]


def draw_request(rng: random.Random, fens, materials) -> tuple:
    """(label, method, target, expected statuses) of one request of the mix."""
    fen = rng.choice(fens)
    q = urllib.parse.quote(fen)
    kind = rng.choices(["standard", "mainline", "position", "verdict", "reply", "zugzwang", "random", "distances",
                        "materials", "page", "options", "bad"],
                       weights=[20, 4, 15, 15, 8, 6, 6, 4, 3, 3, 3, 8])[0]
    if kind == "standard":
        return kind, "GET", f"/standard?fen={q}", {200}
    if kind == "mainline":
        return kind, "GET", f"/standard/mainline?fen={q}", {200}
    if kind == "position":
        return kind, "GET", f"/api/position?fen={q}&you={rng.choice('wb')}", {200}
    if kind == "verdict":
        move = rng.choice(list(chess.Board(fen).legal_moves))
        return kind, "GET", f"/api/verdict?fen={q}&move={move.uci()}", {200}
    if kind == "reply":
        return kind, "GET", f"/api/reply?fen={q}", {200}
    if kind == "zugzwang":
        return kind, "GET", f"/api/zugzwang?fen={q}", {200}
    material = rng.choice(materials)
    side = rng.choice("wb")
    if kind == "random":  # a kind of start the table may not hold is a 400 that says so
        outcome = rng.choice(["win", "win", "loss", "draw"])
        return kind, "GET", f"/api/random?material={material}&side={side}&outcome={outcome}", {200, 400}
    if kind == "distances":
        return kind, "GET", f"/api/distances?material={material}&side={side}", {200}
    if kind == "materials":
        return kind, "GET", "/api/materials", {200}
    if kind == "page":
        return kind, "GET", rng.choice(["/", "/static/main.js", "/static/main.css"]), {200}
    if kind == "options":
        return kind, "OPTIONS", "/standard", {204}
    method, target, status = rng.choice(BAD)
    return kind, method, target, {status}


async def client(port, fens, materials, deadline, latencies, errors, kinds, rng, slowest):
    reader = writer = None
    while time.perf_counter() < deadline:
        kind, method, target, expected = draw_request(rng, fens, materials)
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            started = time.perf_counter()
            writer.write(f"{method} {target} HTTP/1.1\r\nHost: soak\r\nOrigin: https://example.org\r\n"
                         f"Content-Length: 0\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            kinds[kind] += 1
            slowest.append((latencies[-1], f"{method} {target[:100]}"))
            if len(slowest) > 50:
                slowest.sort(reverse=True)
                del slowest[5:]
            if status not in expected:
                errors.append(f"HTTP {status} for {method} {target[:120]}")
            if b"connection: close" in head.lower():
                writer.close()
                reader = writer = None
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            errors.append(f"{type(error).__name__}: {error} ({method} {target[:80]})")
            if writer is not None:
                writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


def percentile(sorted_values, q: float) -> float:
    return 1000 * sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] if sorted_values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results")))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--positions", type=int, default=5000, help="random positions to ask about")
    parser.add_argument("--cache-mb", type=int, default=64, help="the server's block cache (default 64)")
    args = parser.parse_args()

    fens, usable = random_positions(args.results, args.positions)
    materials = [str(m) for m in usable]
    served = start_server(args.results, ("--cache-mb", str(args.cache_mb)))
    server, port = served.process, served.port
    try:
        latencies, errors, kinds, slowest = [], [], Counter(), []

        async def run(seconds: float, clients: int, seed: int):
            deadline = time.perf_counter() + seconds
            rngs = [random.Random(seed * 1000 + i) for i in range(clients)]
            await asyncio.gather(*(client(port, fens, materials, deadline, latencies, errors, kinds, rng, slowest)
                                   for rng in rngs))

        asyncio.run(run(3, 1, 0))  # one client a few seconds: each kind of request once at least
        start_rss, _ = memory_mb(server.pid)
        latencies.clear()
        print(f"soak: {args.clients} clients for {args.seconds:.0f} s on {', '.join(materials)}; block cache "
              f"{args.cache_mb} MB; server resident at the start {start_rss:.0f} MB", flush=True)
        started = time.perf_counter()
        minute = 0
        while time.perf_counter() - started < args.seconds - 0.5:
            span = min(60.0, args.seconds - (time.perf_counter() - started))
            before, round_started = len(latencies), time.perf_counter()
            asyncio.run(run(span, args.clients, minute + 1))  # a round ends when its last request is answered
            minute += 1
            rss, peak = memory_mb(server.pid)
            rate = (len(latencies) - before) / (time.perf_counter() - round_started)
            print(f"  {time.perf_counter() - started:5.0f} s: {rate:.0f} requests/s, "
                  f"errors so far {len(errors)}, resident {rss:.0f} MB (peak {peak:.0f} MB)", flush=True)
        elapsed = time.perf_counter() - started
        end_rss, peak = memory_mb(server.pid)
    finally:
        served.stop()

    latencies.sort()
    print(f"requests {len(latencies)}  per second {len(latencies) / elapsed:.0f}  p50 {percentile(latencies, 0.5):.1f} ms  "
          f"p99 {percentile(latencies, 0.99):.1f} ms  max {percentile(latencies, 1.0):.1f} ms  errors {len(errors)}")
    print("mix: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))
    print(f"server memory: resident {start_rss:.0f} MB at the start, {end_rss:.0f} MB at the end, peak {peak:.0f} MB "
          f"(limit: block cache {args.cache_mb} MB + 200 MB = {args.cache_mb + 200} MB)")
    for seconds, request in sorted(slowest, reverse=True)[:3]:
        print(f"  slowest: {seconds:.1f} s {request}")
    for error in errors[:10]:
        print("  error:", error)
    over = max(end_rss, peak) > args.cache_mb + 200
    return 1 if errors or over else 0


if __name__ == "__main__":
    sys.exit(main())
