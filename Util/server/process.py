"""The server as a process of its own: ``python -m Util serve`` on a free loopback port, started and
stopped in one place for the tests, the load benchmarks and the soak.

::

    with served_process(Path("S_n_Results"), options=("--cache-mb", "64")) as served:
        urllib.request.urlopen(served.base + "/standard?fen=...")
        served.process.pid          # for its memory

A server that stops during start-up, or does not listen within ``start_seconds``, raises RuntimeError
with what it printed (when its output goes to a ``log`` file).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, Optional, Sequence, TextIO

from ..folders import REPO_ROOT

__all__ = ["ServedProcess", "free_port", "served_process", "start_server"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ServedProcess:
    """A running server: its ``base`` URL (``http://127.0.0.1:PORT``), ``port`` and ``process``."""

    base: str
    port: int
    process: subprocess.Popen

    def stop(self) -> None:
        """Ends the server (SIGTERM, then waits for it)."""
        self.process.terminate()
        self.process.wait(timeout=30)


def start_server(results: Path, options: Sequence[str] = (), env: Optional[Dict[str, str]] = None,
                 log: Optional[TextIO] = None, start_seconds: float = 60.0) -> ServedProcess:
    """``python -m Util serve --results results *options`` on a free port, returned once it listens.
    ``env``: variables added to this process's; ``log``: where its output goes (default: this process's)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "Util", "serve", "--port", str(port), "--results", str(results), *options],
        cwd=REPO_ROOT, env=dict(os.environ, PYTHONPATH=str(REPO_ROOT), **(env or {})),
        stdout=log, stderr=subprocess.STDOUT if log else None)
    deadline = time.monotonic() + start_seconds
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start:\n{_printed(log)}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return ServedProcess(f"http://127.0.0.1:{port}", port, process)
        except OSError:
            if time.monotonic() > deadline:
                process.terminate()
                raise RuntimeError(f"the server did not listen within {start_seconds:.0f} s:\n{_printed(log)}")
            time.sleep(0.1)


@contextlib.contextmanager
def served_process(results: Path, options: Sequence[str] = (), env: Optional[Dict[str, str]] = None,
                   log: Optional[TextIO] = None) -> Iterator[ServedProcess]:
    """:func:`start_server` for the length of a ``with`` block."""
    served = start_server(results, options, env, log)
    try:
        yield served
    finally:
        served.stop()


def _printed(log: Optional[TextIO]) -> str:
    if log is None or not getattr(log, "name", None):
        return "(its output went to the terminal)"
    log.flush()
    return Path(log.name).read_text(errors="replace")
