"""The real tablebase server for the tests: ``python -m Util serve`` started as a process of its own on a free
loopback port, on the folder of the ``served_tables`` fixture (conftest.py): the tables of :data:`MATERIALS`
and every table they lead into, from the session's tables."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator, Tuple

REPO = Path(__file__).resolve().parents[2]
#: What the server's tests probe: queen and rook against a rook (captures into KQvK, KRvK), and two pawns
#: (en passant, promotions into KQvKP and the like).
MATERIALS = ("KQvKR", "KPvKP")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(results: Path, log_path: Path, workers: int = 1, options: Tuple[str, ...] = ()) -> Iterator[str]:
    """``python -m Util serve`` on ``results`` until the block ends; yields its base URL."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "Util", "serve", "--port", str(port), "--results", str(results),
             "--workers", str(workers), *options], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server stopped at start:\n{log_path.read_text()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the server did not listen within 60 s:\n{log_path.read_text()}")
                    time.sleep(0.2)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=20)


def get_json(base: str, path: str, **params) -> Tuple[int, dict]:
    """(status, JSON body) of ``GET base+path?params``; a body that is not JSON fails the test's call."""
    url = f"{base}{path}?{urllib.parse.urlencode(params)}" if params else f"{base}{path}"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
