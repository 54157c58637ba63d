"""The engine with its loops not compiled: the same code run as plain Python, to time the compiled loops apart.

The engine (:mod:`Util.retrograde`) brings two of the thesis's speed-ups at once: an integer index per board
(positions in numpy arrays instead of ``chess.Board`` objects) and inner loops compiled by numba.  numba
has a switch that runs every compiled function as the Python it was written in, ``NUMBA_DISABLE_JIT=1``;
with it the engine computes the same sets by the same steps, only without compilation.  So its time on a
task, beside the compiled engine's time on the same task, is what the compilation alone gains, and beside
the backward step's time with symmetry (:mod:`Util.bench.step_timing`) what the integer index gains.

The switch is read when numba is first imported, so the interpreted run happens in a process of its own
(:func:`interpreted_engine_seconds`), started from this repository with ``python -m Util.bench.interpreted``.
That process also reports how many new stored positions each ply found, so that the caller can check
that it did the same work as the compiled engine (:func:`new_per_ply`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..board.material import Material

#: The folder that holds the ``Util`` package: the child process imports this copy of it.
_ROOT = Path(__file__).resolve().parents[2]


class _PlyLimit(Exception):
    """Raised from the engine's ``on_ply`` to stop it once the task's last ply is done."""


def new_per_ply(material: Material, max_n: Optional[int], subtables: Dict) -> Tuple[float, List[int]]:
    """One engine run on S_0 .. S_max_n of ``material`` (every S_n when None), one thread: its time in
    seconds and the number of new stored positions each ply found, ``[S_0's, S_1's, ...]``.  The engine
    is compiled or not as numba was set up in this process."""
    from ..retrograde import compute_table

    found: List[int] = []

    def record(n: int, new: int) -> None:
        found.append(int(new))
        if max_n is not None and n >= max_n:
            raise _PlyLimit

    start = time.perf_counter()
    try:
        compute_table(material, dict(subtables), on_ply=record, threads=1)
    except _PlyLimit:
        pass
    return time.perf_counter() - start, found


def interpreted_engine_seconds(material: Material, max_n: Optional[int], results_dir: os.PathLike,
                               repeats: int = 3, timeout_s: float = 1800.0) -> Tuple[float, List[float], List[int]]:
    """The engine's time for S_0 .. S_max_n of ``material`` with numba switched off, in a fresh process:
    ``(median seconds, every run's seconds, new stored positions per ply)``.  The tables its captures and
    promotions lead into are read from ``results_dir`` (computed there first if missing; not timed).

    RuntimeError with the child's last lines of error output if it fails or takes over ``timeout_s``.
    """
    import statistics

    command = [sys.executable, "-m", "Util.bench.interpreted", material.name, "all" if max_n is None else str(max_n),
               str(repeats), str(results_dir)]
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1",
                   "PYTHONPATH": os.pathsep.join([str(_ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    try:
        child = subprocess.run(command, cwd=_ROOT, env=environment, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as late:
        raise RuntimeError(f"the interpreted engine took over {timeout_s:.0f} s on {material} "
                           f"S_0 .. S_{max_n}: give a smaller max_n") from late
    if child.returncode != 0:
        raise RuntimeError(f"the interpreted engine failed (exit status {child.returncode}):\n"
                           + "\n".join(child.stderr.strip().splitlines()[-5:]))
    answer = json.loads(child.stdout.strip().splitlines()[-1])
    return statistics.median(answer["seconds"]), answer["seconds"], answer["new_per_ply"]


def _trailing_zeros(word) -> int:
    """The index of the lowest set bit of a non-zero word: numba's intrinsic has no Python version."""
    word = int(word)
    return (word & -word).bit_length() - 1


def _main(arguments: List[str]) -> None:
    """``python -m Util.bench.interpreted MATERIAL MAX_N|all REPEATS RESULTS_DIR`` with NUMBA_DISABLE_JIT=1:
    one line of JSON, ``{"seconds": [...], "new_per_ply": [...]}``."""
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        raise SystemExit("set NUMBA_DISABLE_JIT=1: this times the engine with numba switched off")
    name, max_n, repeats, results_dir = arguments
    from ..retrograde_kernels import sorting

    sorting.trailing_zeros = _trailing_zeros  # the one intrinsic the engine calls that plain Python lacks
    from ..calculation.store import TableStore

    material = Material.parse(name)
    subtables = TableStore(results_dir, progress=False).subtables_of(material)
    new_per_ply(material, 0, subtables)  # untimed: the engine's modules imported, its first pass run once
    runs = [new_per_ply(material, None if max_n == "all" else int(max_n), subtables) for _ in range(int(repeats))]
    print(json.dumps({"seconds": [seconds for seconds, _ in runs], "new_per_ply": runs[-1][1]}))


if __name__ == "__main__":
    _main(sys.argv[1:])
