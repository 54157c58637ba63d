"""Work spread over all cores: processes with a progress bar, or threads for numpy work.

:func:`map_chunks` forks one process per core.  Workers are forked, so they share the parent's tables without copying or
pickling them; each worker opens its own tablebase prober (a C prober's
open files must not be shared between processes).  Where ``fork`` is not
available (Windows), or with one core, the work runs in this process.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence


#: State a worker reads: set by :func:`map_chunks` before the fork.
WORKER_STATE: dict = {}


def core_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _initialise(setup: Optional[Callable[[], None]], teardown: Optional[Callable[[], None]] = None) -> None:
    if setup is not None:
        setup()
    if teardown is not None:  # run as the worker ends (multiprocessing's finalizers with a priority run then)
        multiprocessing.util.Finalize(None, teardown, exitpriority=10)


def map_chunks(function: Callable[[Any], Any], chunks: Sequence[Any], *, state: dict,
               setup: Optional[Callable[[], None]] = None, teardown: Optional[Callable[[], None]] = None,
               workers: Optional[int] = None, sizes: Optional[Iterable[int]] = None, desc: str = "",
               unit: str = " boards", progress: bool = True) -> List[Any]:
    """``[function(chunk) for chunk in chunks]``, in order, on ``workers`` processes (default: all cores).

    ``state`` is put into :data:`WORKER_STATE` for the workers; ``setup``
    runs once in each worker (and here, when running in this process);
    ``teardown`` runs in each worker as it ends (here, the caller cleans up).
    ``sizes`` (items per chunk) drive the progress bar.  When all is done the
    workers end on their own and are waited for, so that what they started
    (an engine each) is stopped and waited for too, and its processor time
    counts as this process's children's (``/usr/bin/time`` sees it).
    """
    from .progress import progress_bar  # tqdm's import is a quarter second that reading a table need not pay

    sizes = list(sizes) if sizes is not None else [1] * len(chunks)
    workers = min(workers or core_count(), max(1, len(chunks)))
    WORKER_STATE.clear()
    WORKER_STATE.update(state)
    bar = progress_bar(total=sum(sizes), desc=desc, unit=unit, disable=not progress, leave=False)
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            _initialise(setup)
            return list(_tracked(map(function, chunks), sizes, bar))
        context = multiprocessing.get_context("fork")
        pool = context.Pool(workers, initializer=_initialise, initargs=(setup, teardown))
        try:
            results = list(_tracked(pool.imap(function, chunks), sizes, bar))
            pool.close()
            pool.join()
            return results
        finally:
            pool.terminate()  # after an error: at once (after join: nothing left to stop)
    finally:
        bar.close()


def _tracked(results: Iterator[Any], sizes: List[int], bar) -> Iterator[Any]:
    for result, size in zip(results, sizes):
        bar.update(size)
        yield result


class Threads:
    """Runs independent pieces of numpy work on ``count`` threads; results in order.

    Threads suffice where the work is numpy's: it releases the interpreter
    lock inside its loops, and threads share the arrays without copying.
    """

    def __init__(self, count: Optional[int] = None):
        self.count = max(1, count or core_count())
        self._pool = ThreadPoolExecutor(self.count, thread_name_prefix="numpy-work") if self.count > 1 else None

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> List[Any]:
        items = list(items)
        if self._pool is None or len(items) < 2:
            return [function(item) for item in items]
        return list(self._pool.map(function, items))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def __enter__(self) -> "Threads":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
