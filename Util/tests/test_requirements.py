"""requirements.txt names the same pinned packages as pyproject.toml (the design card lists the one,
pip and setuptools read the other): a pin changed in one file and not in the other fails here."""

from __future__ import annotations

import re
import tomllib

from Util.folders import REPO_ROOT


def _pins(lines):
    """``{name: version}`` of ``name==version`` lines; names compared as pip compares them."""
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line!r}"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_requirements_txt_equals_pyproject():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    expected = _pins(project["dependencies"] + project["optional-dependencies"]["test"])
    listed = _pins((REPO_ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines())
    assert listed == expected


def test_requirements_txt_names_the_design_cards_packages():
    listed = _pins((REPO_ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines())
    assert {"chess", "ipywidgets", "stockfish", "numpy", "jupyter-client"} <= set(listed)
