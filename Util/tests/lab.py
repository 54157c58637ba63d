"""JupyterLab for the tests, as the README opens the series: ``.venv/bin/jupyter lab`` started as a real process
on a free loopback port with a token, its configuration and runtime files kept in a folder of the test's, and
its contents API and page configuration read over HTTP."""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from Util.server.process import free_port
from Util.tests.parts import missing_part
from Util.tests.served import REPO

#: The command the README gives: ``jupyter`` beside this Python (``.venv/bin/jupyter``).
JUPYTER = Path(sys.executable).parent / "jupyter"
#: The front-end extensions the series needs in JupyterLab: ipywidgets' (progress bars, the play box) and
#: anywidget's (the chessground board).
WIDGET_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "anywidget")


@dataclass
class Lab:
    """A running JupyterLab: its base URL and token, and where its output goes."""

    base: str
    token: str
    log: Path

    def url(self, path: str) -> str:
        """``path`` on the server, with the token."""
        return f"{self.base}{path}{'&' if '?' in path else '?'}token={self.token}"

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url(path), timeout=60) as response:
            return response.read()

    def contents(self, path: str = "") -> dict:
        """The contents API's answer for a folder (``""``: the root)."""
        return json.loads(self.get(f"/api/contents/{path}"))

    def page_config(self) -> dict:
        """The configuration JupyterLab's page is served with (``jupyter-config-data``): which front-end
        extensions it loads, among others."""
        page = self.get("/lab").decode()
        found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
        assert found, "JupyterLab's page has no jupyter-config-data"
        return json.loads(html.unescape(found.group(1)))


@contextlib.contextmanager
def running_lab(root: Path, home: Path, env: Optional[dict] = None, start_seconds: float = 120.0,
                expose_app: bool = False) -> Iterator[Lab]:
    """``jupyter lab`` on ``root`` until the block ends, answering once its status API does (or the test
    fails, with its output, if it stops or has not answered after ``start_seconds``).  Its settings,
    workspaces and runtime files go to ``home``; ``env``: variables added for it and its kernels;
    ``expose_app``: the page keeps the application in ``window.jupyterapp`` (for driving it in a test)."""
    if not JUPYTER.exists():
        missing_part(f"no {JUPYTER}: JupyterLab is not installed (bash scripts/setup.sh installs the pins)")
    home.mkdir(parents=True, exist_ok=True)
    token, port = secrets.token_hex(16), free_port()
    own = {name: str(home / name.lower()) for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR",
                                                        "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR")}
    log = home / "lab.log"
    # readonly: its extension manager asks PyPI for nothing
    command = [str(JUPYTER), "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--LabApp.extension_manager=readonly"]
    if os.geteuid() == 0:  # a container's root: JupyterLab refuses to run as root unless told
        command.append("--allow-root")
    if expose_app:
        command.append("--LabApp.expose_app_in_browser=True")
    with open(log, "w") as output:
        process = subprocess.Popen(command, cwd=root, env={**os.environ, **own, **(env or {})},
                                   stdout=output, stderr=subprocess.STDOUT)
    lab = Lab(f"http://127.0.0.1:{port}", token, log)
    try:
        deadline = time.monotonic() + start_seconds
        while True:
            assert process.poll() is None, f"jupyter lab stopped at start:\n{log.read_text(errors='replace')}"
            try:
                json.loads(lab.get("/api/status"))
                break
            except (OSError, urllib.error.URLError, ValueError):
                assert time.monotonic() < deadline, \
                    f"jupyter lab did not answer within {start_seconds:.0f} s:\n{log.read_text(errors='replace')}"
                time.sleep(0.2)
        yield lab
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def copy_with_parameters(notebook: Path, folder: Path, parameters: dict) -> Path:
    """A copy of ``notebook`` in ``folder`` with ``parameters`` set after its parameters cell, as the series
    runner sets them."""
    import nbformat

    from Util.notebook.series import inject_parameters

    copy = nbformat.read(notebook, as_version=4)
    inject_parameters(copy, parameters)
    path = folder / notebook.name
    nbformat.write(copy, path)
    return path


__all__ = ["JUPYTER", "WIDGET_EXTENSIONS", "Lab", "REPO", "copy_with_parameters", "running_lab"]
