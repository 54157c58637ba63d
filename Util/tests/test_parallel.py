"""map_chunks: results in order, and each worker's teardown runs as the worker ends, so that what a worker
started (an engine) is stopped and waited for, and its processor time is counted as ours (/usr/bin/time)."""

from __future__ import annotations

import os
import subprocess
import sys

from Util.runtime.parallel import WORKER_STATE, map_chunks

#: An engine's stand-in: spends this many processor seconds, then waits for its input to close.
BUSY_SECONDS = 0.3
_BUSY = ("import sys, time\nstart = time.process_time()\nwhile time.process_time() - start < %s: pass\n"
         "sys.stdin.read()" % BUSY_SECONDS)


def _square(x: int) -> int:
    return x * x


def _start_engine() -> None:
    WORKER_STATE["engine"] = subprocess.Popen([sys.executable, "-c", _BUSY], stdin=subprocess.PIPE)


def _stop_engine() -> None:
    engine = WORKER_STATE.pop("engine")
    engine.stdin.close()
    engine.wait()


def test_results_come_in_order_and_each_workers_engine_is_stopped_and_counted():
    before = os.times()
    results = map_chunks(_square, list(range(20)), state={}, setup=_start_engine, teardown=_stop_engine,
                         workers=2, progress=False)
    after = os.times()
    assert results == [x * x for x in range(20)]
    # both engines ended inside their workers, which ended and were waited for: their time is our children's
    children = after.children_user + after.children_system - before.children_user - before.children_system
    assert children >= 2 * BUSY_SECONDS
