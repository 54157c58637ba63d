"""Opening an engine for a match or a suite (Util/whole_game_lab/opponents.py): an engine slow to get ready,
as ours is on its first start after the code changed (its kernels compile), is waited for, not given up
on after python-chess's usual 10 s."""

from __future__ import annotations

import sys
import time

import pytest

from Util.whole_game_lab.opponents import EngineSpec, open_engine

#: A real UCI process that answers ``uci`` at once and its first ``isready`` only after DELAY seconds (as
#: ours does while its kernels compile), the next ones at once.
SLOW_ENGINE = """
import sys, time
delay = DELAY
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name slow starter"); print("uciok", flush=True)
    elif word == "isready":
        time.sleep(delay); delay = 0; print("readyok", flush=True)
    elif word == "quit":
        break
"""


def slow_engine(delay: float) -> EngineSpec:
    return EngineSpec("slow starter", "uci", [sys.executable, "-c", SLOW_ENGINE.replace("DELAY", str(delay))])


@pytest.mark.slow
def test_an_engine_slower_than_ten_seconds_to_get_ready_is_waited_for():
    start = time.monotonic()
    engine = open_engine(slow_engine(11))
    try:
        assert time.monotonic() - start >= 11
        engine.ping()  # answers again: the usual timeout is back and the engine is usable
    finally:
        engine.quit()


def test_an_engine_that_never_gets_ready_is_stopped_with_the_reason():
    spec = slow_engine(30)
    start = time.monotonic()
    with pytest.raises(TimeoutError, match="slow starter did not answer isready within 1 s.*precompile"):
        open_engine(spec, ready_timeout=1)
    assert time.monotonic() - start < 10
