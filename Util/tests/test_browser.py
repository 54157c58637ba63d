"""Notebook 03 in a real browser: Voilà serves it on localhost, Debian's Chromium (through Playwright)
types a move into the input box and presses Enter, as a person does."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from Util.calculation import calculate
from Util.series import inject_parameters
from Util.tests.conftest import missing_part

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
#: A browser, a notebook server and a kernel per test: not in the quick loop (pytest -m "not slow").
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _served(tmp_path: Path, material: str, parameters: dict):
    """Notebook 03 with ``parameters``, served by Voilà on a free port; yields (url, games folder, log)."""
    for module in ("playwright.sync_api", "voila"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            missing_part(f"the Python package {module.split('.')[0]} is not installed")
    if not Path(CHROMIUM).exists():
        missing_part(f"no Chromium at {CHROMIUM} (or set CHROMIUM_PATH)")
    results, games = tmp_path / "results", tmp_path / "games"
    calculate(material, results_dir=results, progress=False)
    notebook = nbformat.read(REPO / "03_play_against_ai.ipynb", as_version=4)
    inject_parameters(notebook, {"RESULTS_DIR": str(results), "GAMES_DIR": str(games), "BOARD_SIZE": 240,
                                 **parameters})
    path = tmp_path / "03_play_against_ai.ipynb"
    nbformat.write(notebook, path)
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    log = open(tmp_path / "voila.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(path), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--show_tracebacks=True"], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/", games, tmp_path / "voila.log"
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


@pytest.fixture()
def served_notebook(tmp_path):
    with _served(tmp_path, "KQvK", {}) as served:
        yield served


@contextlib.contextmanager
def _browser_page(url: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.goto(url, timeout=120_000)
            page.locator("input[placeholder^='your move, e.g. ']").first.wait_for(timeout=120_000)
            yield page
        finally:
            browser.close()


def test_a_move_typed_in_the_browser_gets_the_ais_reply(served_notebook):
    url, games, log = served_notebook
    with _browser_page(url) as page:
        box = page.locator(".widget-text input").first  # the game's box (its placeholder follows the game)
        status = page.get_by_text(re.compile(r"^Black \(Player\) to move\. S_14")).first
        status.wait_for(timeout=30_000)
        page.get_by_text(re.compile(r"the game is saved to .* from your first move on")).first.wait_for(timeout=30_000)
        assert not list(games.glob("Move-History_*"))  # the page loaded, nobody moved: no file yet
        # in front of a person the demonstration does not play itself, and the game comes before the prose
        page.get_by_text("The demonstration game plays only in a headless run").first.wait_for(timeout=30_000)
        assert not (games / "demonstration").exists()
        order = page.evaluate("""() => {
            const box = document.querySelector('.widget-text input');
            const heading = [...document.querySelectorAll('h2')].find(h => h.textContent.includes("The AI's move"));
            return box && heading ? box.compareDocumentPosition(heading) : 0; }""")
        assert order & 4, "the game's input box must come before the explanations"  # 4: heading follows

        box.fill("Kd7")
        box.press("Enter")
        page.get_by_text(re.compile(r"You played Kd7 \(e7d7\)\. The AI played")).first.wait_for(timeout=30_000)
        files_line = page.get_by_text("history:").first
        files_line.wait_for(timeout=30_000)
        history = Path(re.search(r"history: (\S.*?\.txt)", files_line.inner_text()).group(1))

        lines = history.read_text().splitlines()
        assert lines[1] == "1. a6g6 e7d7" and re.fullmatch(r"2\. [a-h][1-8][a-h][1-8]", lines[2]), lines
        reply = lines[2].split()[1]
        # the board widget may arrive a moment after the message: wait for it, then judge what it shows
        deadline, marked = time.monotonic() + 30, set()
        while time.monotonic() < deadline and marked != {reply[:2], reply[2:]}:
            board_svg = page.locator(".widget-html svg").first.inner_html()  # the game's board, not the demo's
            marked = set(re.findall(r'class="square (?:light|dark) lastmove ([a-h][1-8])"', board_svg))
            page.wait_for_timeout(200)
        assert marked == {reply[:2], reply[2:]}, (marked, reply)  # the reply is on the board

        box.fill("Ke9")
        box.press("Enter")
        complaint = page.get_by_text(re.compile(r"'Ke9' is no move")).first
        complaint.wait_for(timeout=30_000)
        assert history.read_text().splitlines() == lines  # a bad entry changes nothing
        assert box.input_value() == "Ke9"  # and stays in the box to be corrected
        box.fill("")
        box.press("Enter")  # Enter in the empty box clears the message
        complaint.wait_for(state="detached", timeout=30_000)
    assert "Traceback" not in log.read_text()


KQKR_START = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"


def test_practising_kqvkr_as_white_hint_verdict_take_back_and_bad_input(tmp_path):
    """The trainer as a person meets it: KQvKR as White from a FEN. The hint lists every move, best
    first; a move that keeps the win but is slower gets its verdict naming the better move; taking it
    back restores the start, in the page and in the history file; a bad entry changes nothing."""
    import chess

    from Util.calculation import TableStore
    from Util.sequence import SnSequence
    from Util.trainer import WIN, move_outcomes, verdict

    with _served(tmp_path, "KQvKR", {"PLAY_AS": "white", "START_FEN": KQKR_START}) as (url, games, log):
        sequence = SnSequence.from_store(TableStore(tmp_path / "results", progress=False), "KQvKR")
        board = chess.Board(KQKR_START)
        outcomes = move_outcomes(board, sequence)
        slower = next(o for o in outcomes if o.result == WIN and o.plies > outcomes[0].plies)
        with _browser_page(url) as page:
            box = page.locator(".widget-text input").first
            page.get_by_text(re.compile(r"^White \(Player\) to move: mates in \d+ plies")).first.wait_for(timeout=30_000)

            page.get_by_role("button", name="Hint").first.click()
            hints = page.locator("table.chessai-hints").first
            hints.wait_for(timeout=30_000)
            rows = hints.locator("tr").all_inner_texts()[1:]
            assert len(rows) == len(outcomes) == board.legal_moves.count()
            assert [r.split("\t")[0] for r in rows] == [o.san for o in outcomes]
            assert rows[0].split("\t")[1] == outcomes[0].describe()  # e.g. "win, mate in 23 plies"

            box.fill(slower.san)
            box.press("Enter")
            expected = verdict(board, slower.move, sequence)
            assert f"kept the win but is {slower.plies - outcomes[0].plies} plies slower than {outcomes[0].san}" \
                in expected
            page.get_by_text(f"Your move: {expected}").first.wait_for(timeout=30_000)
            files_line = page.get_by_text("history:").first
            files_line.wait_for(timeout=30_000)
            history = Path(re.search(r"history: (\S.*?\.txt)", files_line.inner_text()).group(1))
            played = history.read_text().splitlines()
            assert re.fullmatch(rf"1\. {slower.move.uci()} [a-h][1-8][a-h][1-8]", played[1]), played

            page.get_by_role("button", name="Take back").first.click()
            page.get_by_text(re.compile(rf"Taken back: {slower.move.uci()} [a-h][1-8][a-h][1-8]\. Your move again")
                             ).first.wait_for(timeout=30_000)
            after = history.read_text().splitlines()
            assert after == played[:1]  # the header only: the game is back at its start
            # the verdict goes with the move (in a message of its own, which may come a moment after the
            # one above: wait for it, failing after 30 s if it stays)
            page.get_by_text("Your move: ").first.wait_for(state="detached", timeout=30_000)
            pgn = history.with_suffix(".pgn").read_text()
            assert "1." not in pgn.split("\n\n", 1)[1]  # no moves left in the PGN's movetext

            box.fill("Qz9")
            box.press("Enter")
            page.get_by_text(re.compile(r"'Qz9' is no move")).first.wait_for(timeout=30_000)
            assert history.read_text().splitlines() == after  # a bad entry changes nothing
            assert box.input_value() == "Qz9"
    assert "Traceback" not in log.read_text()
