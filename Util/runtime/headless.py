"""Whether anyone watches this kernel: a headless run (the series runner, the tests) says so.

:func:`Util.notebook.series.execute_notebook` sets :data:`HEADLESS` in the
environment of the kernels it starts.  Nobody sees live widgets there, and
what they would have shown must survive in the saved notebook, so
progress bars write to the runner's terminal (:mod:`Util.runtime.progress`) and the
play and replay widgets add a static picture of themselves
(:mod:`Util.notebook.play_widget`).
"""

from __future__ import annotations

import os

#: Environment variable: set (to anything but ``""``) in kernels of a headless run.
HEADLESS = "CHESSAI_HEADLESS"


def is_headless() -> bool:
    """True in a kernel started by the series runner, where nobody watches widgets or bars."""
    return bool(os.environ.get(HEADLESS))
