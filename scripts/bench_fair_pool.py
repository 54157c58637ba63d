"""Benchmark of the search pool's fairness and its warm start (not a test).

    .venv/bin/python scripts/bench_fair_pool.py [--results S_n_Results] [--search-workers 1] [--loopers 3]
                                                [--loop-ms 2000] [--move-ms 300] [--moves 8] [--per-client N]

First, the warm start: ``python -m Util serve`` is started and, as soon as it listens, one move is asked
(``--move-ms``, out of the book), then three more: the first should take as long as the others.  Then the
fairness: ``--loopers`` requests of one client (the address 127.0.0.2) loop without pause, each a search of
``--loop-ms``, while another client (127.0.0.3) asks ``--moves`` moves of ``--move-ms`` one after another.
Prints the other client's waits (each from its request to its answer) against one search of the looping
client, and the looping client's answers and refusals (429).  ``--per-client N`` runs the server with N
requests of a client in flight (``CHESSAI_SEARCH_PER_CLIENT``): a large N shows the pool without the share.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from Util.server.process import start_server  # noqa: E402

#: A middlegame out of the book: the pool searches it.
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8"


def ask(port: int, movetime: int, source: str) -> tuple:
    """(status, seconds) of one POST /api/move from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    started = time.perf_counter()
    try:
        connection.request("POST", "/api/move", json.dumps({"fen": MIDDLEGAME, "movetime": movetime}),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results")))
    parser.add_argument("--search-workers", type=int, default=1)
    parser.add_argument("--loopers", type=int, default=3, help="requests of the looping client at once")
    parser.add_argument("--loop-ms", type=int, default=2000)
    parser.add_argument("--move-ms", type=int, default=300)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--per-client", type=int, default=None)
    args = parser.parse_args()

    env = {"CHESSAI_SEARCH_WORKERS": str(args.search_workers), "CHESSAI_SEARCH_QUEUE": str(4 * args.loopers)}
    if args.per_client:
        env["CHESSAI_SEARCH_PER_CLIENT"] = str(args.per_client)
    started = time.perf_counter()
    served = start_server(args.results, env=env, start_seconds=600)
    listening = time.perf_counter() - started
    try:
        first = [ask(served.port, args.move_ms, "127.0.0.3")[1] for _ in range(4)]
        stop = threading.Event()
        statuses = []

        def loop():
            while not stop.is_set():
                statuses.append(ask(served.port, args.loop_ms, "127.0.0.2")[0])
                if statuses[-1] != 200:
                    time.sleep(0.05)

        loopers = [threading.Thread(target=loop) for _ in range(args.loopers)]
        for thread in loopers:
            thread.start()
        while 200 not in statuses and len(statuses) < args.loopers:
            time.sleep(0.05)
        waits = []
        for _ in range(args.moves):
            status, seconds = ask(served.port, args.move_ms, "127.0.0.3")
            waits.append(seconds if status == 200 else float("nan"))
        stop.set()
        for thread in loopers:
            thread.join()
    finally:
        served.stop()

    print(f"search pool of {args.search_workers} process(es), {os.cpu_count()} cores; a client's share: "
          f"{args.per_client or 'the default'} request(s) in flight")
    print(f"  warm start: listening {listening:.1f} s after the start; moves of {args.move_ms} ms then took "
          + ", ".join(f"{s:.2f}" for s in first) + " s (the first, then three more)")
    print(f"  fairness: {args.loopers} requests of one client looping ({args.loop_ms} ms searches: "
          f"{statuses.count(200)} answered, {statuses.count(429)} refused with 429); the other client's "
          f"{args.moves} moves of {args.move_ms} ms took " + ", ".join(f"{w:.2f}" for w in waits)
          + f" s (median {statistics.median(waits):.2f} s, most {max(waits):.2f} s; one looping search and "
          f"its own: {(args.loop_ms + args.move_ms) / 1000:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
