"""Running the notebook series headless, top to bottom, in order.

Each notebook keeps its settings in one code cell tagged ``parameters``.
A run may override them: a cell with the new values is inserted right after
the tagged one (the convention papermill uses), so the notebook reads the
same way either way.  Executed copies are written to ``Tests/executed/``,
each widget there reduced to its static copy so that the page reads without a kernel
(``jupyter nbconvert --to html``, GitHub); the committed notebooks stay free of output.
"""

from __future__ import annotations

import ast
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from ..folders import REPO_ROOT
from ..runtime.headless import HEADLESS

EXECUTED_DIR = Path("Tests") / "executed"


class NotebookCellError(RuntimeError):
    """A cell of a notebook failed; the message names the notebook, the cell and the error."""


def series_notebooks(root: Path = REPO_ROOT) -> List[Path]:
    """The numbered notebooks ``01_...ipynb`` to ``07_...ipynb`` that exist, in order."""
    return sorted(p for p in root.glob("0[1-7]_*.ipynb"))


def parse_parameter(text: str):
    """``NAME=VALUE`` with VALUE a Python literal (``['KQvK']``, ``3``) or else a plain string."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise ValueError(f"parameter {text!r} must look like NAME=VALUE, e.g. TABLES=['KQvK']")
    try:
        return name.strip(), ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name.strip(), value


def inject_parameters(notebook, parameters: Dict[str, object]) -> None:
    """Insert a cell setting ``parameters`` after the cell tagged ``parameters``."""
    if not parameters:
        return
    index = next((i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", [])), None)
    if index is None:
        raise ValueError("the notebook has no cell tagged 'parameters' to override")
    source = "# Parameters of this run (inserted by the series runner)\n" + "\n".join(
        f"{name} = {value!r}" for name, value in parameters.items()
    )
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["injected-parameters"]
    notebook.cells.insert(index + 1, cell)


def execute_notebook(path: Path, parameters: Optional[Dict[str, object]] = None, output: Optional[Path] = None,
                     cwd: Path = REPO_ROOT, timeout: int = 1200, env: Optional[Dict[str, str]] = None):
    """Execute one notebook; returns the executed notebook (also written to ``output``).  ``env``: variables
    set for the kernel on top of ours (e.g. ``CHESSAI_RESULTS`` for a notebook whose tables folder is the
    package's default, which it has no parameter for)."""
    notebook = nbformat.read(path, as_version=4)
    inject_parameters(notebook, parameters or {})
    # The kernel talks to us over local sockets: over TCP, ipykernel warns about unencrypted traffic.
    with tempfile.TemporaryDirectory(prefix="nb-") as sockets:
        kernel = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(sockets, "kernel"))
        # Nobody watches a headless run (Util.runtime.headless): progress goes to our terminal, and the
        # kernel must not copy what it writes there into the notebook (capture_fd_output).
        client = NotebookClient(notebook, km=kernel, timeout=timeout, resources={"metadata": {"path": str(cwd)}},
                                extra_arguments=["--IPKernelApp.capture_fd_output=False"])
        try:
            client.execute(env={**os.environ, **(env or {}), HEADLESS: "1"})
        except CellExecutionError as error:
            _raise_cell_error(path, notebook, output, error)
        finally:
            if kernel.has_kernel:  # a kernel manager we made is ours to stop
                kernel.shutdown_kernel(now=True)
    if output:
        _write(notebook, output)
    return notebook


def _raise_cell_error(path: Path, notebook, output: Optional[Path], error: CellExecutionError):
    failed = _failed_cell(notebook)
    if output:
        _write(notebook, output)
    where = f"cell {failed[0]} ({failed[1]!r})" if failed else "a cell"
    detail = f"\n(full traceback in {output})" if output else ""
    raise NotebookCellError(f"{path.name}, {where} failed:\n{_short(error)}{detail}") from None


def run_series(notebooks: Iterable[Path], parameters: Dict[str, object], output_dir: Path,
               cwd: Path = REPO_ROOT) -> List[Path]:
    """Execute each notebook in order with the parameters it declares; stops at the first failure.  At the
    end, each notebook's time and the series' total (:func:`cost_table`)."""
    written, costs = [], []
    for path in notebooks:
        declared = declared_parameters(path)
        mine = {k: v for k, v in parameters.items() if k in declared}
        start, cpu = time.perf_counter(), children_cpu_seconds()
        print(f"running {path.name} {mine or ''}", flush=True)
        output = output_dir / path.name
        execute_notebook(path, mine, output, cwd=cwd)
        costs.append((path.name, time.perf_counter() - start, children_cpu_seconds() - cpu))
        print(f"  done in {costs[-1][1]:.1f} s -> {output}", flush=True)
        written.append(output)
    print(cost_table(costs), flush=True)
    return written


def children_cpu_seconds() -> float:
    """Processor seconds (user + system) of this process's children that have ended and been waited for: a
    notebook's kernel, once it is shut down, with the processes it waited for (workers, engines)."""
    times = os.times()
    return times.children_user + times.children_system


def cost_table(costs: List[Tuple[str, float, float]]) -> str:
    """Each notebook's seconds (wall clock) and processor seconds, and the series' total, as lines."""
    width = max([len(name) for name, _, _ in costs] + [10])
    lines = [f"{'notebook':{width}}  {'seconds':>8}  {'CPU-seconds':>11}"]
    lines += [f"{name:{width}}  {wall:8.1f}  {cpu:11.1f}" for name, wall, cpu in costs]
    lines.append(f"{'the series':{width}}  {sum(c[1] for c in costs):8.1f}  {sum(c[2] for c in costs):11.1f}")
    return "\n".join(lines)


def declared_parameters(path: Path) -> List[str]:
    """Names assigned in the notebook's ``parameters`` cell."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if "parameters" in cell.metadata.get("tags", []):
            tree = ast.parse(cell.source)
            return [t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)]
    return []


def _failed_cell(notebook):
    for number, cell in enumerate(notebook.cells, 1):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                first = next((line for line in cell.source.splitlines() if line.strip()), "")
                return number, first[:60]
    return None


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _short(error: CellExecutionError) -> str:
    """The last line of the traceback (the error and its message), without terminal colours."""
    lines = [line for line in _ANSI.sub("", str(error)).splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"


#: The mime type of a widget's live view: a page without a kernel (``jupyter nbconvert --to html``, GitHub)
#: prefers it to the static copy beside it and then shows nothing.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def readable_without_kernel(notebook):
    """A copy of an executed notebook in which every widget output keeps only its static copy (``text/html``,
    ``text/plain``, see :mod:`Util.notebook.copies`): its live view cannot run without a kernel anyway, and a
    static page would otherwise show it, blank, instead of the copy."""
    copy = nbformat.from_dict(notebook)
    for cell in copy.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data and "text/html" in data:
                del data[WIDGET_VIEW]
    copy.metadata.pop("widgets", None)
    return copy


def _write(notebook, output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(readable_without_kernel(notebook), output)
