"""A clone holds only itself: no tracked file is a symbolic link that leads outside the repository.

A link to an absolute path of the machine that made it dangles elsewhere, and on a machine that has that
path, a command run in the clone (``npm ci`` in ``web/``, say) would write into another checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from Util.folders import REPO_ROOT


def _tracked_links():
    """``(path, target)`` of every tracked symbolic link (git mode 120000), read from git's index."""
    listing = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    links = []
    for entry in listing.decode("utf-8", "surrogateescape").split("\0"):
        if entry.startswith("120000 "):
            path = entry.split("\t", 1)[1]
            links.append((path, os.readlink(REPO_ROOT / path) if (REPO_ROOT / path).is_symlink() else None))
    return links


@pytest.mark.skipif(shutil.which("git") is None or not (REPO_ROOT / ".git").exists(),
                    reason="not a git checkout (no git or no .git folder): nothing is tracked to check")
def test_no_tracked_link_leads_outside_the_repository():
    outside = []
    for path, target in _tracked_links():
        if target is None:
            outside.append(f"{path} (tracked as a link, missing in the work tree)")
            continue
        resolved = os.path.normpath(os.path.join(REPO_ROOT, os.path.dirname(path), target))
        if os.path.isabs(target) or os.path.commonpath([resolved, str(REPO_ROOT)]) != str(REPO_ROOT):
            outside.append(f"{path} -> {target}")
    assert outside == [], ("tracked links leading outside the clone (git rm --cached them and add the path to "
                           ".gitignore): " + ", ".join(outside))


def test_gitignore_ignores_node_modules_as_folder_or_link():
    """``web/node_modules/`` (trailing slash) ignores only a folder; a link of that name must be ignored too."""
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", "web/node_modules"], cwd=REPO_ROOT)
    assert ignored.returncode == 0
