"""Where the project keeps its files: the repository's own folders, and the default folders of data
(each command and notebook can be given others).

This is the one module that finds the repository from its own place on disk: the modules that need a
folder of the repository import it from here, so that moving a module never changes what it finds.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PACKAGE_DIR", "REPO_ROOT", "WEB_DIR", "WEB_BUNDLE_DIR", "WEB_SOURCE_DIR", "RESULTS_DIR"]

#: The package ``Util/``.
PACKAGE_DIR = Path(__file__).resolve().parent
#: The repository's root: the notebooks, ``web/``, ``scripts/`` and the default data folders.
REPO_ROOT = PACKAGE_DIR.parent
#: The trainer page and the board widget's JavaScript (``web/``).
WEB_DIR = REPO_ROOT / "web"
#: What ``scripts/setup.sh`` bundles from ``web/src`` (the page's ``main.js``, the widget's ``widget.js``).
WEB_BUNDLE_DIR = WEB_DIR / "dist"
#: The JavaScript sources of the bundle.
WEB_SOURCE_DIR = WEB_DIR / "src"

#: The tables (``.chessAI`` files); the variable CHESSAI_RESULTS names another folder.
RESULTS_DIR = Path(os.environ.get("CHESSAI_RESULTS", "S_n_Results"))
