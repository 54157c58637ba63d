"""Every table a task of a Dask cluster: ``python -m Util calculate --all --cluster N`` (or ``--scheduler``).

The tables form a graph: each needs the tables its captures and promotions
lead into (:meth:`Util.board.material.Material.dependencies`), so
:func:`table_graph` gives each table's task the tasks of those tables, and
Dask's distributed scheduler runs a task once the ones it needs are done, on
whichever worker is free.  Every worker reads and writes one folder that all
of them share (a local folder for a ``LocalCluster``; NFS or the like for
workers on several machines, started with ``dask worker tcp://HOST:8786``).

A task computes its table into that folder (sub-tables read from their
files there) unless the file is already finished, and returns the file's
SHA-256.  A file is written under a temporary name and renamed, so a worker
that dies leaves no half file behind; the scheduler then gives its task to
another worker, which computes the table again (from the dead worker's
checkpoint where one was saved).  The engine gives the same bytes for any
number of threads, so the files are byte-identical to those of
``calculate --all`` on one machine.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..board.material import Material

__all__ = ["TableTask", "table_graph", "compute_task", "calculate_on_cluster", "file_sha256"]


@dataclass(frozen=True)
class TableTask:
    """One table of the graph and the tables it needs (both canonical)."""

    material: Material
    needs: Tuple[Material, ...]


def table_graph(materials: Sequence[Material]) -> List[TableTask]:
    """The tasks of ``materials`` (a calculation order: each after the tables it needs), each with the
    tables of the list it needs; a needed table missing from the list is an error."""
    listed = set(materials)
    tasks = []
    for material in materials:
        needs = tuple(m for m in material.dependencies() if m.piece_count >= 3)
        missing = [str(m) for m in needs if m not in listed]
        if missing:
            raise ValueError(f"{material} needs {', '.join(missing)}, which the list does not hold")
        tasks.append(TableTask(material, needs))
    return tasks


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 22), b""):
            digest.update(chunk)
    return digest.hexdigest()


def compute_task(name: str, results: str, threads: int, checkpoint_seconds: float, *needed: str) -> str:
    """A worker's task: compute table ``name`` into the folder ``results`` unless its file is finished there;
    the file's SHA-256.  ``needed``: the results of the tasks of the tables it needs (so that Dask runs it
    after them; their files are read from the folder).  Each start is noted in ``results/cluster.log``."""
    from .batch import table_file_ok
    from .store import TableStore, calculate_table

    material, folder = Material.parse(name), Path(results)
    path = folder / f"{material.name}.chessAI"
    with open(folder / "cluster.log", "a") as log:
        log.write(f"{time.time():.3f} start {material} pid {os.getpid()}\n")
    if not table_file_ok(material, folder):
        store = TableStore(folder, progress=False, threads=threads)
        calculate_table(material, results_dir=folder, progress=False, checkpoint_seconds=checkpoint_seconds,
                        store=store)
    return file_sha256(path)


def calculate_on_cluster(materials: Sequence[Material], results: Path, *, workers: int = 2,
                         scheduler: Optional[str] = None, threads_per_table: int = 1,
                         checkpoint_seconds: float = 10.0, on_done: Optional[Callable[[Material, str], None]] = None,
                         client=None) -> Dict[Material, str]:
    """Compute ``materials`` (with the tables they need first, in the list) into ``results`` on a Dask cluster:
    the scheduler at ``scheduler`` (``tcp://HOST:8786``), ``client`` (a connected dask.distributed Client), or a
    LocalCluster of ``workers`` processes of one thread each.  Each table's engine runs ``threads_per_table``
    threads.  Returns each table's SHA-256; ``on_done(material, sha256)`` as each finishes."""
    from dask.distributed import Client, LocalCluster, as_completed

    results = Path(results).resolve()
    results.mkdir(parents=True, exist_ok=True)
    tasks = table_graph(list(materials))
    cluster = None
    if client is None:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
    try:
        futures = {}
        for task in tasks:
            futures[task.material] = client.submit(
                compute_task, task.material.name, str(results), threads_per_table, checkpoint_seconds,
                *[futures[m] for m in task.needs], key=f"table-{task.material.name}", pure=False)
        found: Dict[Material, str] = {}
        by_future = {future.key: material for material, future in futures.items()}
        for future in as_completed(list(futures.values())):
            material = by_future[future.key]
            found[material] = future.result()
            if on_done:
                on_done(material, found[material])
        return found
    finally:
        if cluster is not None:
            client.close()
            cluster.close()


def run_cluster_command(materials: Sequence[Material], results: Path, workers: int, scheduler: Optional[str],
                        threads_per_table: int, checkpoint_seconds: float) -> int:
    """``calculate --cluster N`` / ``--scheduler``: the graph on the cluster, one line per table as it finishes."""
    started = time.perf_counter()

    def done(material: Material, sha256: str) -> None:
        print(f"{material}: written to {Path(results) / (material.name + '.chessAI')} "
              f"({time.perf_counter() - started:.1f} s, sha256 {sha256[:16]})", flush=True)

    try:
        calculate_on_cluster(materials, results, workers=workers, scheduler=scheduler,
                             threads_per_table=threads_per_table, checkpoint_seconds=checkpoint_seconds, on_done=done)
    except OSError as error:
        print(f"calculate: the cluster could not be reached or started ({error}); check --scheduler, or run "
              f"without it", file=sys.stderr)
        return 1
    print(f"all {len(materials)} tables in {time.perf_counter() - started:.1f} s", flush=True)
    return 0
