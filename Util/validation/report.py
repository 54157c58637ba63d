"""The report of a table's validation: one text file per table in ``Tests/``."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import List

__all__ = ["write_report"]


def write_report(material: str, lines: List[str], folder: os.PathLike = "Tests") -> Path:
    """Write the validation results of one table to ``<folder>/validation_<material>.txt``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"validation_{material}.txt"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    path.write_text(f"Validation of {material} ({stamp})\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path
