"""The page's Play mode as a person uses it: ``python -m Util serve`` as a process of its own, the page in
Debian's Chromium through Playwright.  A whole game at 1280x800 and on a 390x844 phone with the panel,
clocks and buttons on screen; take-back, keyboard moves, premoves, resign with its confirmation, abort,
rematch; a reload while the AI thinks keeps the time it used; a second tab is told the game is open
elsewhere; a game from an edited middlegame with castling rights; the computer analysis of a finished game
(graph, grades as lichess computes them, [%eval] in the PGN); the tablebase taking over; a busy or silent
server; /api/move called from a page of another origin.  Moves are chosen with python-chess from the
game in the page's URL, and every board shown is compared with python-chess's.

Every wait is for a condition, with a timeout from what is waited for (a page, an AI reply bounded by the
server's cap, an analysis bounded by its positions), so that the tests pass on a loaded machine."""

from __future__ import annotations

import http.server
import io
import json
import math
import random
import re
import threading
import urllib.parse
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import pytest

from Util.tests.browser import new_page, opened_page, require_page_parts, shared_chromium
from Util.tests.served import get_json, running_server

#: A browser, a server and its search process: not in the quick loop (pytest -m "not slow").
pytestmark = [pytest.mark.slow, pytest.mark.browser]
#: A page's own work (a click shown, a request to the tables answered), loaded machine included.
TIMEOUT = 30_000
#: The AI's reply: a level-1 search (half a second at most) within the server's cap of 10 s, on a loaded
#: machine, plus the page's one retry after a busy answer.
AI_REPLY = 60_000
KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"
START = chess.STARTING_FEN
#: The person's moves before resigning a game that has not ended by itself.
MOVES_BEFORE_RESIGNING = 6
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


@pytest.fixture(scope="module", autouse=True)
def one_chromium():
    """One Chromium for the module's pages, each page in a context of its own (browser.shared_chromium)."""
    require_page_parts()
    with shared_chromium():
        yield


@pytest.fixture(scope="module")
def server(tmp_path_factory, served_tables):
    require_page_parts()
    log = tmp_path_factory.mktemp("play_page") / "server.log"
    with running_server(served_tables, log) as base:
        yield base
    assert "Traceback" not in log.read_text()


def _params(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def _game(page) -> chess.Board:
    """The game of the page's URL, replayed by python-chess (an illegal move fails here)."""
    params = _params(page)
    board = chess.Board(params["fen"])
    for uci in filter(None, params.get("moves", "").split(",")):
        board.push_uci(uci)
    return board


def _click(page, square: chess.Square) -> None:
    box = page.locator("#board cg-board").bounding_box()
    file, rank = chess.square_file(square), chess.square_rank(square)
    if "orientation-black" in (page.locator("#board").get_attribute("class") or ""):
        file, rank = 7 - file, 7 - rank
    size = box["width"] / 8
    page.mouse.click(box["x"] + (file + 0.5) * size, box["y"] + (7 - rank + 0.5) * size)


def _pieces(page) -> dict:
    found = page.evaluate("""() => [...document.querySelectorAll('#board cg-board piece')]
        .filter(p => p.cgKey && !p.classList.contains('ghost') && !p.classList.contains('fading'))
        .map(p => [p.cgKey, p.className])""")
    letters = {"king": "k", "queen": "q", "rook": "r", "bishop": "b", "knight": "n", "pawn": "p"}
    board = {}
    for square, classes in found:
        role = next(letters[c] for c in classes.split() if c in letters)
        board[square] = role.upper() if "white" in classes.split() else role
    return board


def _board_of(board: chess.Board) -> dict:
    return {chess.square_name(s): p.symbol() for s, p in board.piece_map().items()}


def _choose(board: chess.Board, rng: random.Random) -> chess.Move:
    """A simple policy: a mate in one, else the most valuable capture, else any move (seeded)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for move in moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move
    captures = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if captures:
        return max(captures, key=lambda m: VALUE[board.piece_at(m.to_square).piece_type])
    return rng.choice(moves)


def _your_turn(page, side: str = "w", timeout: int = AI_REPLY) -> None:
    """Waits until the board takes the person's move (or the game has ended)."""
    page.wait_for_function(f"""() => document.querySelector('#board').dataset.movable === '{side}'
        || !document.querySelector('#play-after').hidden""", timeout=timeout)


def _moves_listed(page) -> int:
    return page.locator("#play-moves button").count()


def _listed(page, count: int, timeout: int = AI_REPLY, exact: bool = False) -> None:
    """Waits until the move list has ``count`` moves (at least, unless ``exact``)."""
    compare = "===" if exact else ">="
    page.wait_for_function(f"() => document.querySelectorAll('#play-moves button').length {compare} {count}",
                           timeout=timeout)


def _play_by_clicks(page, move: chess.Move) -> None:
    _click(page, move.from_square)
    _click(page, move.to_square)
    if move.promotion:
        page.locator("#promotion").get_by_role("button", name=chess.piece_name(move.promotion).title()).click()


def _start(page, level: str = "1", clock: str = "3+2", side: str = "w") -> None:
    page.get_by_role("tab", name="Play").click()
    page.locator("#play-level option[value='8']").wait_for(state="attached", timeout=TIMEOUT)
    page.select_option("#play-level", level)
    page.select_option("#play-clock", clock)
    page.locator(f"input[name=play-side][value={side}]").check()
    page.get_by_role("button", name="Start the game").click()


def _inside(page, selectors, width: int, height: int) -> None:
    """Each element is wholly inside the viewport (no scrolling needed to see or press it)."""
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)


def _download_pgn(page):
    with page.expect_download() as download:
        page.get_by_role("button", name="Download PGN").click()
    text = Path(download.value.path()).read_text()
    return text, chess.pgn.read_game(io.StringIO(text))


def _seconds(text: str) -> float:
    """A clock as the page shows it (3:05, 0:09.4, 1:02:03) in seconds."""
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def _check_material(page, board: chess.Board) -> None:
    """Each clock shows the material its side is up, as lichess counts it (python-chess's pieces)."""
    balance = sum(VALUE[p.piece_type] * (1 if p.color == chess.WHITE else -1) for p in board.piece_map().values())
    for side, clock in ((chess.WHITE, "#clock-bottom"), (chess.BLACK, "#clock-top")):
        shown = page.locator(f"{clock} .material").inner_text()
        up = balance if side == chess.WHITE else -balance
        assert shown.endswith(f"+{up}") if up > 0 else "+" not in shown, (board.fen(), clock, shown)


def _play_link(fen: str, moves: list, clocks: str = "", clock: str = "1+0", side: str = "w", **more) -> str:
    params = {"fen": fen, "moves": ",".join(moves), "mode": "play", "side": side, "level": "1", "clock": clock, **more}
    if clocks:
        params["clocks"] = clocks
    return "/?" + urllib.parse.urlencode(params)


GAME_PANEL = ("#board cg-board", "#clock-top", "#clock-bottom", "#play-moves", "#play-takeback", "#play-offer", "#status")


def test_a_whole_game_at_1280x800_on_screen_with_take_back_keyboard_resign_and_rematch(server):
    rng = random.Random(2026)
    with opened_page(f"{server}/", 1280, 800) as page:
        page.locator("header").get_by_role("link", name="Play", exact=True).click()  # as a newcomer finds it
        page.get_by_text("Choose your side, the level and the clock").wait_for(timeout=TIMEOUT)
        page.locator("#play-level option[value='8']").wait_for(state="attached", timeout=TIMEOUT)  # the server's levels
        labels = page.locator("#play-level option").all_inner_texts()
        _, levels = get_json(server, "/api/levels")
        assert labels == [level["label"][0].upper() + level["label"][1:] for level in levels["levels"]]  # the server's words
        _start(page, "1", "1+0")
        started = page.evaluate("() => performance.now()")
        assert _params(page)["mode"] == "play" and _params(page)["clock"] == "1+0" and _params(page)["level"] == "1"
        _your_turn(page)
        _inside(page, (*GAME_PANEL, "#play-abort", "#play-type"), 1280, 800)  # the game above the fold
        assert page.locator("#play-setup").is_hidden()  # the panel replaces the setup
        # no clock runs before the game's first move: a second passes, the first move still has the full minute
        assert page.locator(".clock.running").count() == 0 and page.locator("#clock-bottom .time").inner_text() == "1:00"
        page.wait_for_function(f"() => performance.now() > {started} + 1000", timeout=TIMEOUT)
        page.locator("#play-type").fill("e4")  # a move typed
        page.locator("#play-type").press("Enter")
        _listed(page, 1, TIMEOUT)
        _listed(page, 2)  # the AI's reply (its clock ran meanwhile)
        page.locator("#clock-bottom.running").wait_for(timeout=TIMEOUT)  # and the person's clock runs now
        _your_turn(page)
        _inside(page, (*GAME_PANEL, "#play-resign"), 1280, 800)  # resign replaces abort once both sides moved
        took_back = False
        yours = 1
        while yours < MOVES_BEFORE_RESIGNING:
            _your_turn(page)
            board = _game(page)
            if page.locator("#play-after").is_visible():
                break
            assert _pieces(page) == _board_of(board)  # the page shows python-chess's position
            before = len(board.move_stack)
            _play_by_clicks(page, _choose(board, rng))
            yours += 1
            _listed(page, before + 1, TIMEOUT)
            if yours == 3 and not took_back:
                _your_turn(page)
                if page.locator("#play-after").is_visible():
                    break
                assert _moves_listed(page) == before + 2  # your move and the AI's reply
                page.get_by_role("button", name="Take back").click()
                _listed(page, before, TIMEOUT, exact=True)
                message = page.locator("#play-message")
                message.get_by_text("Taken back: your move again.").wait_for(timeout=TIMEOUT)
                assert len(_game(page).move_stack) == before and _pieces(page) == _board_of(_game(page))
                _play_by_clicks(page, _choose(_game(page), rng))
                _listed(page, before + 1, TIMEOUT)
                page.wait_for_function("() => document.querySelector('#play-message').textContent === ''",
                                       timeout=TIMEOUT)  # the message gives way to the next move
                took_back = True
        assert took_back
        if not page.locator("#play-after").is_visible():
            _your_turn(page)
            page.set_viewport_size({"width": 1366, "height": 768})  # the other common laptop screen
            _inside(page, (*GAME_PANEL, "#play-resign", "#play-type"), 1366, 768)
            _check_material(page, _game(page))
            page.get_by_role("button", name="Resign").click()
            confirm = page.locator("#play-confirm")
            confirm.get_by_text("Resign this game?").wait_for(timeout=TIMEOUT)
            confirm.get_by_role("button", name="Cancel").click()  # not yet: the game goes on
            assert confirm.is_hidden() and page.locator("#play-after").is_hidden()
            page.get_by_role("button", name="Resign").click()
            page.get_by_role("button", name="Yes, resign").click()
        status = page.locator("#status")
        status.get_by_text(re.compile(r"^(You won|You lost|Draw)")).wait_for(timeout=TIMEOUT)
        said = status.inner_text()
        _inside(page, ("#play-rematch", "#play-new", "#play-analyse", "#clock-top", "#clock-bottom"), 1280, 800)

        linked = _params(page)["moves"].split(",")
        text, game = _download_pgn(page)
        assert not game.errors, game.errors
        assert [m.uci() for m in game.mainline_moves()] == linked  # the PGN holds the game of the link
        expected = {"You won": "1-0", "You lost": "0-1"}.get(said.split(":")[0].split(" on ")[0], "1/2-1/2")
        assert game.headers["Result"] == expected and text.rstrip().endswith(f"{{{said}}} {expected}")  # how it ended
        assert game.headers["White"] == "You" and game.headers["Black"] == f"AI {levels['levels'][0]['label']}"
        assert game.headers["TimeControl"] == "60+0" and game.headers["Event"] == "Game against the AI"
        clocks = [node.clock() for node in game.mainline()]
        assert clocks[0] == 60 and all(c is not None and 0 <= c <= 60 for c in clocks), clocks  # no time before move 1

        page.get_by_role("button", name="Rematch").click()  # colours swapped: the AI opens as White
        page.wait_for_function("() => new URLSearchParams(location.search).get('side') === 'b'", timeout=TIMEOUT)
        assert "orientation-black" in page.locator("#board").get_attribute("class")
        _listed(page, 1)
        _your_turn(page, "b")
        assert _params(page)["level"] == "1" and _params(page)["clock"] == "1+0"
        assert page.locator("#clock-bottom .name").inner_text() == "You (Black)"


def test_on_a_phone_the_game_fits_and_a_reload_resumes_it(server):
    moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
    link = _play_link(START, moves, "1795,1790,1780,1770", clock="3+2")
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    with opened_page(server + link, 390, 844) as page:
        page.get_by_text("Your move (White).").wait_for(timeout=TIMEOUT)
        assert _moves_listed(page) == 4 and _pieces(page) == _board_of(board)
        assert page.locator("#clock-top .time").inner_text() == "2:57"  # Black's 177.0 s, not running
        shown = page.locator("#clock-bottom .time").inner_text()
        assert re.fullmatch(r"2:5[5-8]", shown), shown  # White's 178.0 s, running since the page opened
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
        _inside(page, (*GAME_PANEL, "#play-resign"), 390, 844)
        board_box = page.locator("#board cg-board").bounding_box()
        assert abs(board_box["x"] - (390 - board_box["x"] - board_box["width"])) <= 2  # the board in the middle
        top, bottom = page.locator("#clock-top").bounding_box(), page.locator("#clock-bottom").bounding_box()
        assert top["y"] + top["height"] <= board_box["y"] + 8 and bottom["y"] >= board_box["y"] + board_box["height"] - 8

        _play_by_clicks(page, chess.Move.from_uci("f1c4"))
        _listed(page, 6)
        _your_turn(page)
        played = _game(page)
        page.reload()
        page.get_by_text("Your move (White).").wait_for(timeout=TIMEOUT)
        assert _moves_listed(page) == 6 and _pieces(page) == _board_of(played) and _game(page) == played

        page.get_by_role("button", name="Resign").click()
        page.get_by_role("button", name="Yes, resign").click()
        page.locator("#status").get_by_text("You lost: you resigned").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "resign"
        page.reload()
        page.locator("#status").get_by_text("You lost: you resigned").wait_for(timeout=TIMEOUT)
        assert page.locator("#play-rematch").is_visible() and page.locator("#play-resign").is_hidden()


def test_a_reload_while_the_ai_thinks_keeps_the_time_it_used_and_a_second_tab_only_shows_the_game(server):
    with new_page(1280, 800) as page:
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.route("**/api/move", lambda route: None)  # the AI thinks for as long as the test likes
        page.goto(server + _play_link(START, ["e2e4", "e7e5"], "1800,1800", clock="3+0"), timeout=TIMEOUT)
        _your_turn(page)
        _play_by_clicks(page, chess.Move.from_uci("g1f3"))
        page.locator("#clock-top.running").wait_for(timeout=TIMEOUT)
        page.wait_for_function("() => document.querySelector('#clock-top .time').textContent !== '3:00'",
                               timeout=TIMEOUT)  # the AI's clock has run a second
        before = _seconds(page.locator("#clock-top .time").inner_text())
        mine = page.locator("#clock-bottom .time").inner_text()
        page.reload()
        page.locator("#clock-top.running").wait_for(timeout=TIMEOUT)
        after = _seconds(page.locator("#clock-top .time").inner_text())
        assert after <= before, (before, after)  # the time the AI used is not given back (it was: 2:57 -> 3:05)
        assert page.locator("#clock-bottom .time").inner_text() == mine and _moves_listed(page) == 3

        # the same game in a second tab of the same browser: told it is open elsewhere, it makes no move
        second = page.context.new_page()
        second.route("**/api/move", lambda route: None)
        second.goto(page.url, timeout=TIMEOUT)
        second.locator("#play-confirm").get_by_text("This game is open in another tab.").wait_for(timeout=TIMEOUT)
        assert second.locator("#status").inner_text().startswith("This game is open in another tab")
        assert second.locator("#board").get_attribute("data-movable") == ""
        # taken over there, the first tab is told so
        second.get_by_role("button", name="Play it here").click()
        page.locator("#play-confirm").get_by_text("This game is open in another tab.").wait_for(timeout=TIMEOUT)
        second.unroute("**/api/move")
        second.reload()  # its held request was never answered: a new page asks again
        _listed(second, 4)
        _your_turn(second)
        assert len(_game(second).move_stack) == 4
        second.close()
        assert not errors, errors


def test_abort_before_both_sides_moved_and_links_without_clocks_or_fen(server):
    with opened_page(f"{server}/?mode=play&setup=1", 1280, 800) as page:
        _start(page, "1", "3+2", side="b")  # the AI opens
        _listed(page, 1)
        _your_turn(page, "b")
        assert page.locator("#play-resign").is_hidden()
        page.get_by_role("button", name="Abort").click()
        page.locator("#status").get_by_text("Game aborted: no result").wait_for(timeout=TIMEOUT)
        _, game = _download_pgn(page)
        assert game.headers["Result"] == "*" and game.headers["Termination"] == "abandoned"
        # a link with a clock and moves but no clocks=: full time on both clocks, not a flag at once
        page.goto(server + "/?" + urllib.parse.urlencode({"mode": "play", "side": "w", "level": "1", "clock": "5+3",
                                                          "moves": "e2e4,e7e5"}), timeout=TIMEOUT)
        page.get_by_text("Your move (White).").wait_for(timeout=TIMEOUT)
        assert _params(page)["fen"] == START  # no fen=: the start position, not the trainer's
        assert page.locator("#clock-top .time").inner_text() == "5:00"
        assert _seconds(page.locator("#clock-bottom .time").inner_text()) > 290


def test_a_game_from_an_edited_middlegame_with_castling_rights(server):
    fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8"
    with opened_page(f"{server}/?fen={urllib.parse.quote(KQKR)}", 1280, 800) as page:
        page.get_by_role("tab", name="Edit board").click()
        page.locator("#edit-fen").fill(fen)
        page.locator("#edit-fen").dispatch_event("change")
        for right in "KQkq":
            assert page.locator(f"input[name=edit-castling][value={right}]").is_checked()
        assert page.locator("#edit-fen").input_value() == fen.replace(" 4 8", " 0 1")
        page.get_by_role("button", name="Analyse this position").click()  # 32 pieces and castling: no table
        page.locator("#status.error").get_by_text("The tablebase holds positions of five pieces or fewer").wait_for(
            timeout=TIMEOUT)
        page.get_by_role("button", name="Play from this position").click()
        page.get_by_role("button", name="Start the game").wait_for(timeout=TIMEOUT)
        assert page.locator("input[name=play-from][value=board]").is_checked()
        page.locator("input[name=play-side][value=w]").check()
        page.get_by_role("button", name="Start the game").click()
        _your_turn(page)
        page.locator("#play-type").fill("O-O")
        page.locator("#play-type").press("Enter")
        _listed(page, 2)
        _your_turn(page)
        board = _game(page)
        assert board.move_stack[0] == chess.Move.from_uci("e1g1") and board.board_fen().endswith("R4RK1")
        assert chess.Board(_params(page)["fen"]).castling_xfen() == "KQkq" and _pieces(page) == _board_of(board)
        # another position to play while this game goes on: the setup offers the game back and asks first
        page.get_by_role("tab", name="Edit board").click()
        page.get_by_role("button", name="Start position").click()
        page.get_by_role("button", name="Play from this position").click()
        page.locator("#play-resume-text").get_by_text("is not over (2 moves)").wait_for(timeout=TIMEOUT)
        page.get_by_role("button", name="Start the game").click()
        page.locator("#ask").get_by_text("Resign it and start a new one?").wait_for(timeout=TIMEOUT)
        page.locator("#ask").get_by_role("button", name="Cancel").click()
        page.get_by_role("button", name="Back to your game").click()
        _your_turn(page)
        assert _game(page) == board and page.locator("#play-resign").is_visible()  # the game as it was
        # an impossible position is explained in the server's words
        page.get_by_role("tab", name="Edit board").click()
        page.locator("#edit-fen").fill("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1")
        page.locator("#edit-fen").dispatch_event("change")
        page.get_by_role("button", name="Play from this position").click()
        page.locator("#status.error").get_by_text("the side that is not to move is in check").wait_for(timeout=TIMEOUT)


SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
WIN_MULTIPLIER = -0.00368208  # lila's modules/tree/src/main/WinPercent.scala


def _lichess_grade(before, after, white_moved: bool):
    """lila's Advice (modules/tree/src/main/Advice.scala) from python-chess's PovScores (White's view)."""
    def chances(cp):
        return max(-1.0, min(1.0, 2 / (1 + math.exp(WIN_MULTIPLIER * cp)) - 1))

    sign = 1 if white_moved else -1
    was, now = before.white(), after.white()
    if not was.is_mate() and not now.is_mate():
        loss = sign * (chances(was.score()) - chances(now.score()))
        return next((g for t, g in ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")) if loss >= t), None)
    was_mate, now_mate = (sign * m if m is not None else None for m in (was.mate(), now.mate()))
    if was_mate is None and now_mate is not None and now_mate < 0:
        cp = sign * was.score()
        return "inaccuracy" if cp < -999 else "mistake" if cp < -700 else "blunder"
    if was_mate is not None and was_mate > 0 and (now_mate is None or now_mate < 0):
        cp = sign * now.score() if now_mate is None else 0
        return "inaccuracy" if cp > 999 else "mistake" if cp > 700 else "blunder"
    return None


def test_the_analysis_of_a_finished_game_grades_as_lichess_with_a_graph_and_evals_in_the_pgn(server):
    with opened_page(server + _play_link(START, SCHOLARS_MATE, clock="none"), 1280, 800) as page:
        page.locator("#status").get_by_text("You won: checkmate").wait_for(timeout=TIMEOUT)
        page.locator("#play-evalbar").check()
        page.get_by_role("button", name="Computer analysis").click()
        positions = len(SCHOLARS_MATE)  # the last one is mate: not searched
        page.locator("#play-analysis").get_by_text("Computer analysis —").wait_for(timeout=AI_REPLY + positions * 10_000)
        assert page.locator("#play-graph svg").is_visible()
        grades = page.evaluate("() => [...document.querySelectorAll('#play-moves button')].map(b => b.dataset.grade || '')")
        assert grades[5] == "blunder"  # 3... Nf6?? lets Qxf7 mate
        assert "1 blunder" in page.locator("#play-analysis").inner_text()
        # the graph jumps to a move; the bar shows White winning after the blunder; the best move is drawn
        page.locator("#play-graph .dot.blunder").click()
        page.wait_for_function("() => document.querySelector('#play-moves button.current')?.textContent === 'Nf6'",
                               timeout=TIMEOUT)
        assert float(page.locator("#eval-bar").get_attribute("aria-valuenow")) > 90
        comment = page.locator("#play-comment").inner_text()  # lichess's words for the move shown
        assert comment.startswith("3… Nf6?? (") and "Checkmate is now unavoidable." in comment, comment
        assert page.locator("#board svg.cg-shapes line").count() >= 1  # the best move's arrow
        _inside(page, ("#play-graph", "#play-analysis", "#play-rematch"), 1280, 800)
        text, game = _download_pgn(page)
    assert not game.errors and "[%eval " in text
    nodes = list(game.mainline())
    assert [n.move.uci() for n in nodes] == SCHOLARS_MATE and game.headers["Result"] == "1-0"
    evals = [None] + [n.eval() for n in nodes]  # after each move (the start's is not in a PGN)
    assert all(e is not None for e in evals[1:-1]) and evals[-1] is None  # every position but the mate
    nags = {chess.pgn.NAG_DUBIOUS_MOVE: "inaccuracy", chess.pgn.NAG_MISTAKE: "mistake", chess.pgn.NAG_BLUNDER: "blunder"}
    for i, node in enumerate(nodes[1:-1], start=1):  # each move between two evaluations, graded by lila's rules
        graded = next((nags[n] for n in node.nags if n in nags), None)
        assert graded == _lichess_grade(evals[i], evals[i + 1], i % 2 == 0), (i, node.move, evals[i], evals[i + 1])
    assert "Checkmate is now unavoidable" in nodes[5].comment and nodes[5].nags == {chess.pgn.NAG_BLUNDER}


def test_the_tablebase_takes_over_with_practices_words_and_verdicts(server):
    _, position = get_json(server, "/api/position", fen=KQKR)
    best = position["moves"][0]
    link = "/?" + urllib.parse.urlencode({"fen": KQKR, "mode": "play", "side": "w", "level": "5", "clock": "none"})
    with opened_page(server + "/?mode=play&setup=1") as page:
        page.evaluate("() => localStorage.setItem('chessai.play.sound', 'on')")  # as the Sound box keeps it
        page.goto(server + link)
        # each note a sound plays is an oscillator of the Web Audio API: counted from here on
        page.evaluate("""() => { window.notes = 0; const made = AudioContext.prototype.createOscillator;
            AudioContext.prototype.createOscillator = function () { window.notes++; return made.call(this); }; }""")
        line = page.locator("#play-tablebase")
        expected = "tablebase: " + re.sub(r"^White to move\. ", "", position["status"])
        line.get_by_text(expected).wait_for(timeout=TIMEOUT)
        assert re.fullmatch(r"tablebase: White mates in \d+ \(\d+ plies\)", expected)
        _your_turn(page)
        _play_by_clicks(page, chess.Move.from_uci(best["uci"]))
        _, verdict = get_json(server, "/api/verdict", fen=KQKR, move=best["uci"])
        page.locator("#play-verdict").get_by_text(f"Your move: {verdict['verdict']}").wait_for(timeout=TIMEOUT)
        assert page.locator("#play-sound").is_checked() and page.evaluate("() => window.notes") >= 1  # a move's knock
        engine = page.locator("#play-engine")
        engine.get_by_text(re.compile(r"^The AI played \S+ — tablebase, depth \d+, White mates in \d+\.$")).wait_for(
            timeout=AI_REPLY)
        _your_turn(page)
        board = _game(page)
        assert len(board.move_stack) == 2
        _, after = get_json(server, "/api/position", fen=board.fen())
        line.get_by_text("tablebase: " + re.sub(r"^White to move\. ", "", after["status"])).wait_for(timeout=TIMEOUT)
        _, reply = get_json(server, "/api/verdict", fen=best["fen"], move=board.move_stack[1].uci())
        assert reply["best"]  # the AI defends as the table says
        page.get_by_role("button", name="Resign").click()
        page.get_by_role("button", name="Yes, resign").click()
        # after the game each move a table judges carries its grade
        page.wait_for_function("() => [...document.querySelectorAll('#play-moves button')].every(b => b.dataset.grade)",
                               timeout=TIMEOUT)
        assert page.locator("#play-moves button").first.get_attribute("data-grade") == verdict["grade"] == "best"


def test_a_busy_or_silent_server_never_freezes_the_page_and_a_premove_waits_for_the_reply(server):
    link = "/?" + urllib.parse.urlencode({"fen": START, "mode": "play", "side": "b", "level": "1", "clock": "none"})
    with opened_page(f"{server}/?mode=play&setup=1") as page:
        busy = {"count": 0}

        def once_busy(route):
            if busy["count"] == 0:
                busy["count"] += 1
                route.fulfill(status=429, headers={"Retry-After": "1", "Content-Type": "application/json"},
                              body=json.dumps({"error": "you have 1 search in flight already"}))
            else:
                route.continue_()

        page.route("**/api/move", once_busy)
        page.goto(server + link)
        page.locator("#play-engine").get_by_text("asking again in 1 s").wait_for(timeout=TIMEOUT)
        _your_turn(page, "b")  # the second request went through
        assert busy["count"] == 1 and _moves_listed(page) == 1
        page.unroute("**/api/move")

        page.route("**/api/move", lambda route: route.abort())
        _play_by_clicks(page, _choose(_game(page), random.Random(1)))
        page.locator("#status.error").get_by_text("The AI's move did not come").wait_for(timeout=TIMEOUT)
        retry = page.get_by_role("button", name="Ask for the reply again")
        assert retry.is_visible() and _moves_listed(page) == 2
        page.unroute("**/api/move")

        held = []
        page.route("**/api/move", lambda route: held.append(route))  # the AI's reply waits for the premove
        retry.click()
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('is thinking')",
                               timeout=TIMEOUT)
        board = _game(page)  # White (the AI) to move: a pawn move of Black's set now is a premove
        pawn = next(m for m in map(chess.Move.from_uci, ("h7h6", "a7a6", "g7g6", "b7b6"))
                    if board.piece_at(m.from_square) == chess.Piece(chess.PAWN, chess.BLACK)
                    and board.piece_at(m.to_square) is None)
        _play_by_clicks(page, pawn)
        assert _moves_listed(page) == 2
        page.wait_for_function("() => document.querySelector('#board').dataset.movable === ''", timeout=TIMEOUT)
        for route in held:
            route.continue_()
        page.unroute("**/api/move")
        _listed(page, 3)  # the AI's reply
        if pawn in _game(page).legal_moves:  # still legal after it (a check may forbid it): played at once
            _listed(page, 4, TIMEOUT)
            assert _game(page).move_stack[3] == pawn
        _your_turn(page, "b")
        assert _pieces(page) == _board_of(_game(page)) and retry.is_hidden()


def test_a_flag_fall_loses_unless_the_other_side_cannot_mate_and_a_repetition_is_claimed(server):
    # White (the person) has half a second left: the flag falls on the page's clock
    with opened_page(server + _play_link(START, ["e2e4", "e7e5"], "5,600")) as page:
        page.locator("#status").get_by_text("You lost on time").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "time-w" and page.locator("#clock-bottom .time").inner_text() == "0:00.0"
        _, game = _download_pgn(page)
        assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "time forfeit"
        # the same, but Black has a bare king (python-chess agrees it cannot mate): a draw
        queens = "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"
        assert not chess.Board(queens).has_insufficient_material(chess.WHITE)
        assert chess.Board(queens).has_insufficient_material(chess.BLACK)
        page.goto(server + _play_link(queens, ["e1e2", "e8d8"], "5,600"))
        page.locator("#status").get_by_text("Draw: you ran out of time, but Black cannot mate").wait_for(timeout=TIMEOUT)
        page.reload()  # the same words after a reload
        page.locator("#status").get_by_text("Draw: you ran out of time, but Black cannot mate").wait_for(timeout=TIMEOUT)
        # knights out and back twice: the start position a third time, White (the person) to move
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
        board = chess.Board()
        for uci in shuffle:
            board.push_uci(uci)
        assert board.can_claim_threefold_repetition()
        page.goto(server + _play_link(START, shuffle, clock="none"))
        claim = page.get_by_role("button", name="Claim a draw (repetition)")
        claim.wait_for(timeout=TIMEOUT)
        claim.click()
        page.locator("#status").get_by_text("Draw by repetition").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "repetition"


class _Elsewhere(http.server.BaseHTTPRequestHandler):
    """Another site: one page, served from 127.0.0.2 (another origin than the server's 127.0.0.1)."""

    def do_GET(self):
        body = b"<!doctype html><title>elsewhere</title><p>another site"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_page_of_another_origin_calls_the_move_service(server):
    """/api/move from a page of another site: the browser's preflight and the answer's one CORS header let
    the page read the move (Chromium refused the two headers the answer had), and its errors too."""
    other = http.server.ThreadingHTTPServer(("127.0.0.2", 0), _Elsewhere)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with opened_page(f"http://127.0.0.2:{other.server_address[1]}/") as page:
            call = """async ([base, body]) => {
                const response = await fetch(base + '/api/move', {method: 'POST',
                    headers: {'Content-Type': 'application/json'}, body});
                return {status: response.status, body: await response.json()};
            }"""
            answer = page.evaluate(call, [server, json.dumps({"fen": "startpos", "moves": ["e2e4"], "level": 1})])
            assert answer["status"] == 200 and chess.Move.from_uci(answer["body"]["uci"]) in _after(["e2e4"]).legal_moves
            refused = page.evaluate(call, [server, '{"movetime": NaN}'])
            assert refused["status"] == 400 and "NaN" in refused["body"]["error"]  # errors are readable too
    finally:
        other.shutdown()
        other.server_close()


def _after(moves) -> chess.Board:
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    return board
