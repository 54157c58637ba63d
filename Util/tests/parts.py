"""Programs and packages the tests need from outside Python's standard library: how a missing one is reported."""

from __future__ import annotations

from pathlib import Path

import pytest


def missing_part(what: str) -> None:
    """A program the setup installs is missing: a failure on Debian (where ``bash scripts/setup.sh``
    installs it, so a skip would hide a broken setup), a skip with the reason elsewhere."""
    message = f"{what} (bash scripts/setup.sh installs it on Debian)"
    if Path("/etc/debian_version").exists():
        pytest.fail(message)
    pytest.skip(message)
