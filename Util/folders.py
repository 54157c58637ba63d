"""Where the project keeps its files by default (each command and notebook can be given others)."""

from __future__ import annotations

import os
from pathlib import Path

#: The tables (``.chessAI`` files); the variable CHESSAI_RESULTS names another folder.
RESULTS_DIR = Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results"))
