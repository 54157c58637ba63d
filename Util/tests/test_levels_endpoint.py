"""``GET /api/levels`` on a real server process: the page's level chooser gets every level of
:data:`Util.whole_game.levels.LEVELS` with docs/levels.md's labels."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from Util.tests.served import REPO, get_json, running_server
from Util.whole_game.levels import LEVELS


def test_levels_are_listed_with_their_labels(served_tables, tmp_path):
    with running_server(served_tables, tmp_path / "server.log") as base:
        status, answer = get_json(base, "/api/levels")
        with urllib.request.urlopen(f"{base}/api/levels", timeout=60) as response:
            cors = response.headers.get_all("Access-Control-Allow-Origin")
    assert status == 200 and cors == ["*"]  # open to other sites' pages, once
    levels = answer["levels"]
    assert [level["number"] for level in levels] == list(range(1, len(LEVELS) + 1)) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [level["label"] for level in levels] == [level.label for level in LEVELS]
    assert levels[0]["label"] == f"level 1 (about {LEVELS[0].elo}, {LEVELS[0].scale} scale)"
    assert all(level["measured"] and level["elo_low"] <= level["elo"] <= level["elo_high"] for level in levels)
    # the table of docs/levels.md names the same Elo for each level
    settings = (REPO / "docs" / "levels.md").read_text().split("## What is tested")[0]  # the first table
    documented = dict(re.findall(r"^\| (\d) \| (\d+) \|", settings, re.M))
    assert {int(n): int(elo) for n, elo in documented.items()} == {level["number"]: level["elo"] for level in levels}
    assert [level["tables"] for level in levels] == [False] * 4 + [True] * 4
    assert "Traceback" not in Path(tmp_path / "server.log").read_text()
