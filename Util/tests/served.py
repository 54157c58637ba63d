"""The real tablebase server for the tests: ``python -m Util serve`` started as a process of its own on a free
loopback port, on the folder of the ``served_tables`` fixture (conftest.py): the tables of :data:`MATERIALS`
and every table they lead into, from the session's tables."""

from __future__ import annotations

import contextlib
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator, Tuple

from Util.server.process import served_process

REPO = Path(__file__).resolve().parents[2]
#: What the server's tests probe: queen and rook against a rook (captures into KQvK, KRvK), and two pawns
#: (en passant, promotions into KQvKP and the like).
MATERIALS = ("KQvKR", "KPvKP")


@contextlib.contextmanager
def running_server(results: Path, log_path: Path, workers: int = 1, options: Tuple[str, ...] = ()) -> Iterator[str]:
    """``python -m Util serve`` on ``results`` until the block ends, its output in ``log_path``; yields its
    base URL.  Its search pool has one process unless $CHESSAI_SEARCH_WORKERS says otherwise (each
    process warms the engine before the server listens: one is what a test's few searches need)."""
    env = {} if os.environ.get("CHESSAI_SEARCH_WORKERS") else {"CHESSAI_SEARCH_WORKERS": "1"}
    with open(log_path, "w") as log, served_process(results, ("--workers", str(workers), *options), env=env,
                                                    log=log) as served:
        yield served.base


def get_json(base: str, path: str, **params) -> Tuple[int, dict]:
    """(status, JSON body) of ``GET base+path?params``; a body that is not JSON fails the test's call."""
    url = f"{base}{path}?{urllib.parse.urlencode(params)}" if params else f"{base}{path}"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
