"""Notebook 03 in a real browser: Voilà serves it on localhost, Debian's Chromium (through Playwright)
types a move into the input box and presses Enter, or drags a piece on the board with the mouse, as a
person does."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from Util.server.process import free_port
from Util.notebook.series import inject_parameters
from Util.tests.browser import CHROMIUM, new_page, shared_chromium
from Util.tests.parts import missing_part

REPO = Path(__file__).resolve().parents[2]
#: A browser page, a notebook kernel and a notebook server per test or per module: not in the quick loop
#: (pytest -m "not slow").
pytestmark = [pytest.mark.slow, pytest.mark.browser]
#: The tables notebook 03 opens besides the game's own (its chapter on mutual zugzwangs): served from the
#: session's files, so that no page's kernel computes them (computing a missing table is notebook 03's
#: headless test's part, test_notebooks.py).
ZUGZWANG_TABLES = ("KQvK", "KPvK")


@contextlib.contextmanager
def _served(folder: Path, results: Path, parameters: dict):
    """Notebook 03 with ``parameters`` over the tables in ``results``, served by Voilà on a free port from
    ``folder``; yields (url, games folder, log).  Each page opened on it runs the notebook in a kernel of
    its own, so each gets a new game."""
    for module in ("playwright.sync_api", "voila"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            missing_part(f"the Python package {module.split('.')[0]} is not installed")
    if not Path(CHROMIUM).exists():
        missing_part(f"no Chromium at {CHROMIUM} (or set CHROMIUM_PATH)")
    games = folder / "games"
    notebook = nbformat.read(REPO / "03_play_against_ai.ipynb", as_version=4)
    inject_parameters(notebook, {"RESULTS_DIR": str(results), "GAMES_DIR": str(games), "BOARD_SIZE": 240,
                                 **parameters})
    path = folder / "03_play_against_ai.ipynb"
    nbformat.write(notebook, path)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    log = open(folder / "voila.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(path), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--show_tracebacks=True"], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/", games, folder / "voila.log"
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


@pytest.fixture(scope="module", autouse=True)
def one_chromium():
    """One Chromium for the module's pages, each page in a context of its own (browser.shared_chromium)."""
    if importlib.util.find_spec("playwright") is None:
        missing_part("the Python package playwright is not installed")
    if not Path(CHROMIUM).exists():
        missing_part(f"no Chromium at {CHROMIUM} (or set CHROMIUM_PATH)")
    with shared_chromium():
        yield


@pytest.fixture(scope="module")
def kqvk_results(linked_tables) -> Path:
    """The session's KQvK table and those it leads into (computed once, checked against Gaviota elsewhere)."""
    return linked_tables("KQvK", *ZUGZWANG_TABLES)


@pytest.fixture(scope="module")
def served_notebook(tmp_path_factory, kqvk_results):
    """One Voilà server of notebook 03 on KQvK with its default game for the module's three tests of that
    game: each test's page gets a kernel and a game of its own, and finds that game's files by the path
    the page names."""
    with _served(tmp_path_factory.mktemp("voila_kqvk"), kqvk_results, {}) as served:
        yield served


@contextlib.contextmanager
def _browser_page(url: str):
    """A page of 1280 x 720 CSS pixels (in the module's Chromium) on ``url``, once the game's box is there."""
    with new_page(1280, 720) as page:
        page.goto(url, timeout=120_000)
        page.locator("input[placeholder^='your move, e.g. ']").first.wait_for(timeout=120_000)
        yield page


def _board_state(page) -> dict:
    """What the game's chessground board shows: its orientation, the squares marked as the last move, and
    the pieces by square ({"d7": "black king", ...})."""
    return page.evaluate("""() => {
        const wrap = document.querySelector('.chessai-board');
        if (!wrap) return null;
        // chessground hides a square it no longer needs rather than removing it
        const lastMove = [...wrap.querySelectorAll('square.last-move')].filter(s => s.style.display !== 'none')
            .map(s => s.cgKey).sort();
        const pieces = {};
        for (const p of wrap.querySelectorAll('piece')) {
            if (p.cgKey && !p.classList.contains('ghost')) pieces[p.cgKey] = p.className.replace(/ ?(anim|fading|dragging)/g, '');
        }
        return { orientation: wrap.classList.contains('orientation-black') ? 'black' : 'white', lastMove, pieces };
    }""")


def _square_centre(page, square: str, orientation: str) -> tuple:
    """Where ``square`` is on the page (x, y in CSS pixels)."""
    box = page.locator(".chessai-board cg-board").first.bounding_box()
    file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
    column, row = (file, 7 - rank) if orientation == "white" else (7 - file, rank)
    return box["x"] + (column + 0.5) * box["width"] / 8, box["y"] + (row + 0.5) * box["height"] / 8


def _drag(page, source: str, target: str, orientation: str) -> None:
    """Drag the piece on ``source`` to ``target`` with the mouse, in steps as a hand does."""
    page.mouse.move(*_square_centre(page, source, orientation))
    page.mouse.down()
    page.mouse.move(*_square_centre(page, target, orientation), steps=8)
    page.mouse.up()


def _assert_coordinates_on_their_squares(page, orientation: str) -> None:
    """Each file letter inside its file's column at the foot of the board, each rank number inside its
    rank's row, none cut off, and big enough to read."""
    board = page.locator(".chessai-board cg-board").first.bounding_box()
    square = board["width"] / 8
    for label, kind in (("a", "files"), ("h", "files"), ("1", "ranks"), ("8", "ranks")):
        coord = page.locator(f".chessai-board coords.{kind} coord").filter(has_text=re.compile(f"^{label}$")).first
        box = coord.evaluate("""c => { const range = document.createRange(); range.selectNodeContents(c);
                                        const r = range.getBoundingClientRect();
                                        return { x: r.x, y: r.y, width: r.width, height: r.height }; }""")
        assert box["width"] > 0 and box["height"] >= 9, (label, box)  # the text itself, not its flex cell
        if kind == "files":
            column = "abcdefgh".index(label) if orientation == "white" else 7 - "abcdefgh".index(label)
            left, top = board["x"] + column * square, board["y"] + 7 * square
        else:
            row = 8 - int(label) if orientation == "white" else int(label) - 1
            left, top = board["x"] + 7 * square, board["y"] + row * square  # in the right-hand column
        assert left <= box["x"] and box["x"] + box["width"] <= left + square, (label, box, board)
        assert top <= box["y"] and box["y"] + box["height"] <= top + square, (label, box, board)
    size = page.locator(".chessai-board coords.files coord").first.evaluate("c => parseFloat(getComputedStyle(c).fontSize)")
    assert size >= 11, size


def _wait_for_board(page, condition, timeout_s: float = 30) -> dict:
    """The board's state once ``condition(state)`` holds; fails with the last state after ``timeout_s``."""
    deadline, state = time.monotonic() + timeout_s, None
    while time.monotonic() < deadline:
        state = _board_state(page)
        if state and condition(state):
            return state
        page.wait_for_timeout(200)
    raise AssertionError(f"the board never showed what was expected; it shows {state}")


def test_a_move_typed_in_the_browser_gets_the_ais_reply(served_notebook):
    url, games, log = served_notebook
    earlier = set(games.glob("**/Move-History_*"))  # the other tests' games on this server
    with _browser_page(url) as page:
        box = page.locator(".widget-text input").first  # the game's box (its placeholder follows the game)
        status = page.get_by_text(re.compile(r"^Black \(Player\) to move\. White mates in 7 \(14 plies\)\.")).first
        status.wait_for(timeout=30_000)
        page.get_by_text(re.compile(r"the game is saved to .* from your first move on")).first.wait_for(timeout=30_000)
        assert set(games.glob("**/Move-History_*")) == earlier  # the page loaded, nobody moved: no file yet
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
        page.get_by_text(re.compile(r"You played Kd7\. The AI played")).first.wait_for(timeout=30_000)
        files_line = page.get_by_text("history:").first
        files_line.wait_for(timeout=30_000)
        history = Path(re.search(r"history: (\S.*?\.txt)", files_line.inner_text()).group(1))

        lines = history.read_text().splitlines()
        assert lines[1] == "1. a6g6 e7d7" and re.fullmatch(r"2\. [a-h][1-8][a-h][1-8]", lines[2]), lines
        reply = lines[2].split()[1]
        # the board may change a moment after the message: wait for the reply on it
        _wait_for_board(page, lambda state: state["lastMove"] == sorted([reply[:2], reply[2:]]))

        box.fill("Ke9")
        box.press("Enter")
        complaint = page.get_by_text(re.compile(r"'Ke9' is no move")).first
        complaint.wait_for(timeout=30_000)
        assert history.read_text().splitlines() == lines  # a bad entry changes nothing
        assert box.input_value() == "Ke9"  # and stays in the box to be corrected
        box.fill("")
        box.press("Enter")  # Enter in the empty box says what to type, in place of the complaint
        complaint.wait_for(state="detached", timeout=30_000)
        page.get_by_text(re.compile(r"^Type a move in SAN \(K\w+\) or UCI \([a-h][1-8][a-h][1-8]\), or drag a piece "
                                    r"on the board")).first.wait_for(timeout=30_000)
    assert "Traceback" not in log.read_text()


KQKR_START = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"


def test_practising_kqvkr_as_white_hint_verdict_take_back_and_bad_input(tmp_path, linked_tables):
    """The trainer as a person meets it: KQvKR as White from a FEN. The hint lists every move, best
    first, coloured by its result; a click on the row of a move that keeps the win but is slower plays it,
    and its verdict names the better move; taking it back restores the start, in the page and in the
    history file; a bad entry changes nothing."""
    import chess

    from Util.calculation.store import TableStore
    from Util.sequence import SnSequence
    from Util.play.outcomes import WIN
    from Util.play.verdicts import move_outcomes, verdict

    results = linked_tables("KQvKR", *ZUGZWANG_TABLES)
    with _served(tmp_path, results, {"PLAY_AS": "white", "START_FEN": KQKR_START}) as (url, games, log):
        sequence = SnSequence.from_store(TableStore(results, progress=False), "KQvKR")
        board = chess.Board(KQKR_START)
        outcomes = move_outcomes(board, sequence)
        slower = next(o for o in outcomes if o.result == WIN and o.plies > outcomes[0].plies)
        with _browser_page(url) as page:
            box = page.locator(".widget-text input").first
            page.get_by_text(re.compile(r"^White \(Player\) to move\. White mates in \d+ \(\d+ plies\)\.")
                             ).first.wait_for(timeout=30_000)

            page.get_by_role("button", name="Hint").first.click()
            hints = page.locator("table.chessai-hints").first
            hints.wait_for(timeout=30_000)
            rows = hints.locator("tr").all_inner_texts()[1:]
            assert len(rows) == len(outcomes) == board.legal_moves.count()
            assert [r.split("\t")[0] for r in rows] == [o.san for o in outcomes]
            assert rows[0].split("\t")[1] == outcomes[0].describe()  # e.g. "win: mates in 12 (23 plies)"

            assert hints.locator("tr").first.evaluate("row => row.className") == ""  # the heading
            assert hints.locator("tr[data-uci]").evaluate_all("rows => rows.map(r => r.className)") == \
                [{1: "win", 0: "draw", -1: "loss"}[o.result] for o in outcomes]  # each row in its result's colour
            assert hints.locator("tr.win").first.evaluate("row => getComputedStyle(row).backgroundColor") != \
                hints.locator("tr.loss").first.evaluate("row => getComputedStyle(row).backgroundColor")

            hints.locator(f"tr[data-uci='{slower.move.uci()}']").click()  # a click on its row plays the move
            expected = verdict(board, slower.move, sequence)
            assert f"inaccuracy: only delays mate, by {slower.plies - outcomes[0].plies} plies" in expected
            assert f"after {outcomes[0].san} (best): White mates in" in expected
            page.get_by_text(f"Your move: {expected}").first.wait_for(timeout=30_000)
            files_line = page.get_by_text("history:").first
            files_line.wait_for(timeout=30_000)
            history = Path(re.search(r"history: (\S.*?\.txt)", files_line.inner_text()).group(1))
            played = history.read_text().splitlines()
            assert re.fullmatch(rf"1\. {slower.move.uci()} [a-h][1-8][a-h][1-8]", played[1]), played

            page.get_by_role("button", name="Take back").first.click()
            page.get_by_text(re.compile(rf"Took back 1\. {re.escape(slower.san)} and \S+\. Your move again")
                             ).first.wait_for(timeout=30_000)
            after = history.read_text().splitlines()
            assert after == played[:1]  # the header only: the game is back at its start
            # the verdict goes with the move (in a message of its own, which may come a moment after the
            # one above: wait for it, failing after 30 s if it stays)
            page.get_by_text("Your move: ").first.wait_for(state="detached", timeout=30_000)
            pgn = history.with_suffix(".pgn").read_text()
            assert "1." not in pgn.split("\n\n", 1)[1]  # no moves left in the PGN's movetext

            box.click()
            box.fill("Qz9")
            box.press("Enter")
            page.get_by_text(re.compile(r"'Qz9' is no move")).first.wait_for(timeout=30_000)
            assert history.read_text().splitlines() == after  # a bad entry changes nothing
            assert box.input_value() == "Qz9"
    assert "Traceback" not in log.read_text()


def test_a_piece_dragged_on_the_board_gets_the_verdict_and_the_ais_reply_on_the_board(served_notebook, kqvk_results):
    """Chapter 4's board as a person uses it: the mouse drags the black king from e7 to d7; the verdict,
    the AI's reply (on the board: its squares marked, its piece moved) and the history file follow, as
    for a typed move; the board then takes no move of the AI's pieces."""
    import chess

    from Util.calculation.store import TableStore
    from Util.play.records import read_history
    from Util.sequence import SnSequence
    from Util.play.verdicts import verdict

    url, games, log = served_notebook
    sequence = SnSequence.from_store(TableStore(kqvk_results, progress=False), "KQvK")
    with _browser_page(url) as page:
        page.get_by_text(re.compile(r"^Black \(Player\) to move\. White mates in 7")).first.wait_for(timeout=30_000)
        before = _wait_for_board(page, lambda state: state["pieces"].get("e7") == "black king")
        assert before["lastMove"] == ["a6", "g6"]  # the AI's first move, as the history will say
        assert before["orientation"] == "black"  # the person's side at the bottom
        _assert_coordinates_on_their_squares(page, "black")
        page.locator(".chessai-board cg-board").first.scroll_into_view_if_needed()

        # a complaint, then the king dropped where it cannot go (the board puts it back): the drop's
        # reason replaces the complaint
        box = page.locator(".widget-text input").first
        box.fill("hello")
        box.press("Enter")
        complaint = page.get_by_text(re.compile(r"'hello' is no move: write UCI like e7f8")).first
        complaint.wait_for(timeout=30_000)
        _drag(page, "e7", "e5", before["orientation"])
        page.get_by_text(re.compile(r"^e7e5 is not legal here\. Legal moves: Kf8")).first.wait_for(timeout=30_000)
        assert complaint.count() == 0
        assert _board_state(page)["pieces"].get("e7") == "black king"

        _drag(page, "e7", "d7", before["orientation"])

        page.get_by_text(re.compile(r"You played Kd7\. The AI played")).first.wait_for(timeout=30_000)
        files_line = page.get_by_text("history:").first
        files_line.wait_for(timeout=30_000)
        history = Path(re.search(r"history: (\S.*?\.txt)", files_line.inner_text()).group(1))
        start, moves = read_history(history)
        assert [m.uci() for m in moves[:2]] == ["a6g6", "e7d7"] and len(moves) == 3, moves
        board = start.copy()
        board.push(moves[0])
        expected = verdict(board, moves[1], sequence)
        page.get_by_text(f"Your move: {expected}").first.wait_for(timeout=30_000)

        reply = moves[2]
        board.push(moves[1])
        mover = board.piece_at(reply.from_square)
        shown = _wait_for_board(page, lambda state: state["lastMove"] == sorted(
            [chess.square_name(reply.from_square), chess.square_name(reply.to_square)]))
        assert shown["pieces"].get(chess.square_name(reply.to_square)) == \
            f"white {chess.piece_name(mover.piece_type)}", shown
        assert chess.square_name(reply.from_square) not in shown["pieces"]
        assert shown["pieces"].get("d7") == "black king"

        # the white queen is the AI's, not the person's: dragging it moves nothing
        board.push(reply)
        queen = chess.square_name(next(iter(board.pieces(chess.QUEEN, chess.WHITE))))
        empty = next(chess.square_name(s) for s in chess.SQUARES if board.piece_at(s) is None)
        _drag(page, queen, empty, shown["orientation"])
        page.wait_for_timeout(1000)
        assert _board_state(page)["pieces"] == shown["pieces"]
        assert len(read_history(history)[1]) == 3
    assert "Traceback" not in log.read_text()


def _top(page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["y"]


def test_the_page_opens_on_the_game_and_another_game_replaces_it(served_notebook, kqvk_results, tmp_path):
    """The first thing on the page is the game (board, status, buttons, chooser) within the first screen,
    above the chapter's prose; the chooser says which distances the table holds, refuses one it does not
    hold with them, and its game replaces the first: one board, no status of the old game left."""
    from Util.calculation.store import TableStore
    from Util.sequence import SnSequence
    from Util.play.random_starts import distances, distances_text

    url, games, log = served_notebook
    sequence = SnSequence.from_store(TableStore(kqvk_results, progress=False), "KQvK")
    with _browser_page(url) as page:
        page.set_viewport_size({"width": 1280, "height": 720})
        page.get_by_text(re.compile(r"^Black \(Player\) to move\. White mates in 7")).first.wait_for(timeout=30_000)
        _wait_for_board(page, lambda state: state["pieces"].get("e7") == "black king")
        page.evaluate("() => window.scrollTo(0, 0)")
        board = page.locator(".chessai-board").first.bounding_box()
        first_heading = _top(page, "h2")  # "Your game": the prose
        chooser = page.get_by_role("button", name="Random game").first.bounding_box()
        assert board["y"] + board["height"] <= 720, board  # the whole board on the first screen
        assert board["y"] < first_heading and chooser["y"] < first_heading, (board, chooser, first_heading)
        assert page.locator("h2").first.inner_text() == "Your game"

        ranges = page.get_by_text(re.compile(r"^KQvK, White to move: White mates in ")).first
        assert ranges.inner_text() == distances_text(sequence, True)
        page.locator(".widget-toggle-buttons").nth(1).get_by_role("button", name="black").click()  # to move
        page.get_by_text(distances_text(sequence, False)).first.wait_for(timeout=30_000)
        page.locator(".widget-toggle-buttons").nth(1).get_by_role("button", name="white").click()
        page.locator(".widget-toggle-buttons").nth(0).get_by_role("button", name="white").click()  # I play
        plies = page.locator(".widget-text input[type=number]").first
        plies.fill("400")
        plies.press("Enter")
        page.get_by_role("button", name="Random game").first.click()
        high = max(distances(sequence, True)["win"])
        page.get_by_text(f"No win for White to move in at least 400 plies: KQvK has them in 1–{high} plies."
                         ).first.wait_for(timeout=30_000)
        assert plies.input_value() == "400"  # refused, not clamped

        plies.fill("15")
        plies.press("Enter")
        page.get_by_role("button", name="Random game").first.click()
        page.get_by_text(re.compile(r"^Started KQvK, White to move: White mates in")).first.wait_for(timeout=30_000)
        page.get_by_text(re.compile(r"^White \(Player\) to move\. White mates in \d+ \(\d+ plies\)")
                         ).first.wait_for(timeout=30_000)
        _wait_for_board(page, lambda state: state["lastMove"] == [])  # a new game: no move yet
        assert page.locator(".chessai-board").count() == 1  # the new game in place of the old one
        assert page.get_by_text(re.compile(r"^Black \(Player\) to move")).count() == 0
        assert page.get_by_text("The AI played Qg6").count() == 0
        assert abs(page.locator(".chessai-board").first.bounding_box()["y"] - board["y"]) < 1  # still first
        _wait_for_board(page, lambda state: state["orientation"] == "white")  # the person plays White now
        _assert_coordinates_on_their_squares(page, "white")
        status = page.get_by_text(re.compile(r"^White \(Player\) to move\.")).first
        assert status.bounding_box()["x"] > board["x"] + board["width"]  # wide: the column beside the board
        page.screenshot(path=str(tmp_path / "second_game.png"))

        # a phone-sized window: the column goes below the board, every button on the screen, the status
        # line readable (not one word a line), nothing to scroll sideways for
        page.set_viewport_size({"width": 420, "height": 800})
        page.wait_for_timeout(500)
        board = page.locator(".chessai-board").first.bounding_box()
        line = status.bounding_box()
        assert line["y"] >= board["y"] + board["height"] and line["width"] >= 250, (line, board)
        for name in ("Execute Move", "Hint", "Take back", "New game", "Flip board", "Random game"):
            button = page.get_by_role("button", name=name).first.bounding_box()
            assert button["x"] >= 0 and button["x"] + button["width"] <= 420, (name, button)
        page.screenshot(path=str(tmp_path / "narrow.png"), full_page=True)
    assert "Traceback" not in log.read_text()


KPK_PROMOTION = "8/P7/8/8/8/4k3/8/4K3 w - - 0 1"


def test_a_pawn_dragged_to_the_last_rank_becomes_the_piece_picked(tmp_path, linked_tables):
    """Under-promotion by mouse: the pawn dragged from a7 to a8 asks which piece it becomes; the knight
    picked is played (a8=N, a draw: called a mistake, in red), and the board shows the knight."""
    parameters = {"PLAY_AS": "white", "START_FEN": KPK_PROMOTION}
    with _served(tmp_path, linked_tables("KPvK", *ZUGZWANG_TABLES), parameters) as (url, games, log):
        with _browser_page(url) as page:
            page.get_by_text(re.compile(r"^White \(Player\) to move\. White mates in")).first.wait_for(timeout=30_000)
            before = _wait_for_board(page, lambda state: state["pieces"].get("a7") == "white pawn")
            page.locator(".chessai-board cg-board").first.scroll_into_view_if_needed()
            _drag(page, "a7", "a8", before["orientation"])
            picker = page.locator(".chessai-promotion").first
            picker.wait_for(state="visible", timeout=30_000)
            assert picker.get_by_role("button").all_inner_texts() == ["Queen", "Rook", "Bishop", "Knight", "Cancel"]
            picker.get_by_role("button", name="Knight").click()
            page.get_by_text(re.compile(r"^You played a8=N\.")).first.wait_for(timeout=30_000)
            verdict = page.locator(".chessai-verdict").first
            verdict.wait_for(timeout=30_000)
            assert verdict.inner_text().startswith("Your move: a8=N — blunder: turns the win into a draw")
            assert verdict.evaluate("v => getComputedStyle(v).color") == "rgb(198, 40, 40)"  # red
            shown = _wait_for_board(page, lambda state: state["pieces"].get("a8") == "white knight")
            assert "a7" not in shown["pieces"]
            summary = page.locator(".chessai-summary li").first
            summary.wait_for(timeout=30_000)
            assert summary.inner_text() == "1. a8=N?? blunder: turns the win into a draw"
            moves = page.locator(".chessai-movelist").first.inner_text()
            assert moves.startswith("Moves: 1. a8=N??")
            page.screenshot(path=str(tmp_path / "promotion.png"))
    assert "Traceback" not in log.read_text()


def test_notebook_03_in_jupyterlab_draws_the_board_with_its_position(tmp_path, kqvk_results):
    """The README's front end: JupyterLab opens notebook 03 and runs it, and the board widget (anywidget,
    chessground) draws the game's position beside the game's box (ipywidgets): each piece drawn on its
    square, the coordinates on theirs.  JupyterLab lays a cell out only once it is in view, so the board is
    scrolled there, as a reader scrolls to it."""
    from Util.tests.lab import copy_with_parameters, running_lab

    root = tmp_path / "root"
    root.mkdir()
    copy_with_parameters(REPO / "03_play_against_ai.ipynb", root,
                         {"RESULTS_DIR": str(kqvk_results), "GAMES_DIR": str(root / "games"), "BOARD_SIZE": 240})
    expected = {"e1": "white king", "g6": "white queen", "e7": "black king"}  # after the AI's first move, Qg6
    with running_lab(root, tmp_path / "home", env={"PYTHONPATH": str(REPO)}, expose_app=True) as lab, \
            new_page(1280, 1000) as page:
        page.goto(lab.url("/lab/tree/03_play_against_ai.ipynb"), timeout=120_000)
        page.wait_for_function("""() => { const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const session = panel && panel.sessionContext && panel.sessionContext.session;
            return !!(session && session.kernel); }""", timeout=180_000)
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        board = page.locator(".jp-OutputArea .chessai-board").first
        board.wait_for(state="attached", timeout=180_000)
        board.scroll_into_view_if_needed()
        state = _wait_for_board(page, lambda s: s["pieces"] == expected, timeout_s=60)
        assert state["orientation"] == "black" and state["lastMove"] == ["a6", "g6"]
        page.wait_for_function("""() => [...document.querySelector('.jp-OutputArea .chessai-board')
            .querySelectorAll('cg-board piece')].every(p => p.getBoundingClientRect().width > 0)""", timeout=60_000)
        for square, piece in expected.items():
            x, y = _square_centre(page, square, "black")
            drawn = page.locator(f".chessai-board cg-board piece.{piece.replace(' ', '.')}").first.bounding_box()
            assert drawn["x"] < x < drawn["x"] + drawn["width"] and drawn["y"] < y < drawn["y"] + drawn["height"], \
                (square, piece, drawn)
        _assert_coordinates_on_their_squares(page, "black")
        page.get_by_text(re.compile(r"^Black \(Player\) to move\. White mates in 7")).first.wait_for(timeout=30_000)
        page.screenshot(path=str(tmp_path / "jupyterlab_03.png"))
