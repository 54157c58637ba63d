"""Progress bars: a live bar in a notebook, text in a terminal, nothing left in a saved notebook.

``tqdm.auto`` draws a widget in a notebook and text in a terminal.  A
notebook executed headless (the series run, the tests) has no one watching
its widgets, and each bar would stay in the saved notebook as dead text such
as ``KvK: S_n: 0 ply [00:00, ? ply/s]``.  In a headless run
(:func:`Util.runtime.headless.is_headless`) bars made here therefore write to the
terminal that started the run.
"""

from __future__ import annotations

import sys

from tqdm import std as _std
from tqdm.auto import tqdm as _auto_tqdm

from .headless import is_headless


def progress_bar(iterable=None, **options):
    """A tqdm bar over ``iterable`` (or updated by hand), with tqdm's ``options``.

    In a kernel started by :func:`Util.notebook.series.execute_notebook` the bar is
    plain text on the original standard error (the runner's terminal), at most
    one line every 10 seconds; everywhere else it is ``tqdm.auto``'s.
    """
    if is_headless():
        options.setdefault("file", sys.__stderr__)
        options.setdefault("mininterval", 10.0)
        return _std.tqdm(iterable, **options)
    return _auto_tqdm(iterable, **options)
