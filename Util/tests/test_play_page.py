"""The page's Play mode as a person uses it: ``python -m Util serve`` as a process of its own, the page in
Debian's Chromium through Playwright. A whole game at level 1 on a short clock by mouse clicks, with a
take-back; the result line against the downloaded PGN (read by python-chess); the phone's layout; a link
that resumes the game; the tablebase taking over; a busy or silent server. Moves are chosen with
python-chess from the game in the page's URL, and every board shown is compared with python-chess's."""

from __future__ import annotations

import io
import json
import random
import re
import urllib.parse
import urllib.request
from pathlib import Path

import chess
import chess.pgn
import pytest

from Util.tests.browser import opened_page, require_page_parts, shared_chromium
from Util.tests.served import get_json, running_server
from Util.whole_game.levels import LEVELS

#: A browser, a server and its search process: not in the quick loop (pytest -m "not slow").
pytestmark = [pytest.mark.slow, pytest.mark.browser]
TIMEOUT = 30_000
KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"
#: The person's moves before resigning a game that has not ended by itself.
MOVES_BEFORE_RESIGNING = 10
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
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CHESSAI_SEARCH_WORKERS", "1")
        with running_server(served_tables, log) as base:
            # the search process compiles its kernels on the first request: not on the game's clock
            request = urllib.request.Request(f"{base}/api/move", data=json.dumps({"fen": "startpos", "moves": ["a2a3"],
                                             "level": 1}).encode(), method="POST")
            with urllib.request.urlopen(request, timeout=600) as response:
                assert response.status == 200
            yield base
    assert "Traceback" not in log.read_text()


def _page(url: str, width: int = 1280, height: int = 900):
    return opened_page(url, width, height)


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


def _wait_for_your_turn(page, timeout: int = TIMEOUT) -> None:
    page.wait_for_function("""() => { const s = document.querySelector('#status').textContent;
        return s.startsWith('Your move') || /^(You won|You lost|Draw)/.test(s); }""", timeout=timeout)


def _play_by_clicks(page, move: chess.Move) -> None:
    _click(page, move.from_square)
    _click(page, move.to_square)
    if move.promotion:
        page.locator("#promotion").get_by_role("button", name=chess.piece_name(move.promotion).title()).click()


def _moves_listed(page) -> int:
    return page.locator("#movelist button").count()


def _record_status_lines(page) -> None:
    """Every text the status line and the engine's line show, kept in window.seen."""
    page.evaluate("""() => { window.seen = [];
        for (const id of ['#status', '#play-engine']) new MutationObserver(() => window.seen.push(
            document.querySelector(id).textContent)).observe(document.querySelector(id), {childList: true, subtree: true,
            characterData: true}); }""")


def _start(page, level: str, clock: str, side: str = "w") -> None:
    page.get_by_role("tab", name="Play").click()
    page.locator("#play-level option[value='8']").wait_for(state="attached", timeout=TIMEOUT)
    page.select_option("#play-level", level)
    page.select_option("#play-clock", clock)
    page.locator(f"input[name=play-side][value={side}]").check()
    page.get_by_role("button", name="Start the game").click()


RESULT_OF = {("You won", "w"): "1-0", ("You won", "b"): "0-1", ("You lost", "w"): "0-1", ("You lost", "b"): "1-0"}


def test_a_whole_game_by_clicks_with_a_take_back_and_its_pgn(server):
    rng = random.Random(2026)
    with _page(f"{server}/") as page:
        page.locator("header").get_by_role("link", name="Play", exact=True).click()  # as a newcomer finds it
        page.get_by_text("Choose your side, the level and the clock").wait_for(timeout=TIMEOUT)
        labels = page.locator("#play-level option").all_inner_texts()
        _, levels = get_json(server, "/api/levels")
        assert labels == [level["label"].replace("level", "Level", 1) for level in levels["levels"]]
        assert labels[0] == f"Level 1 (about {LEVELS[0].elo} Elo)"
        _record_status_lines(page)
        _start(page, "1", "1+0")
        assert _params(page)["mode"] == "play" and _params(page)["clock"] == "1+0" and _params(page)["level"] == "1"
        assert page.locator("#clock-bottom .time").inner_text() in ("1:00", "0:59")
        took_back = False
        yours = 0
        while yours < MOVES_BEFORE_RESIGNING:
            _wait_for_your_turn(page)
            board = _game(page)
            if board.is_game_over(claim_draw=False) or page.locator("#play-new").is_visible():
                break
            assert _pieces(page) == _board_of(board)  # the page shows python-chess's position
            before = len(board.move_stack)
            move = _choose(board, rng)
            _play_by_clicks(page, move)
            yours += 1
            page.wait_for_function(f"() => document.querySelectorAll('#movelist button').length > {before}",
                                   timeout=TIMEOUT)
            if yours == 3 and not took_back:
                _wait_for_your_turn(page)
                if page.locator("#play-new").is_visible():
                    break
                listed = _moves_listed(page)
                assert listed == before + 2  # your move and the AI's reply
                page.get_by_role("button", name="Take back").click()
                page.wait_for_function(f"() => document.querySelectorAll('#movelist button').length === {before}",
                                       timeout=TIMEOUT)
                page.locator("#play-verdict").get_by_text("Taken back: your move again.").wait_for(timeout=TIMEOUT)
                assert len(_game(page).move_stack) == before and _pieces(page) == _board_of(_game(page))
                took_back = True
        assert took_back
        if not page.locator("#play-new").is_visible():
            page.get_by_role("button", name="Resign").click()
        status = page.locator("#status")
        status.get_by_text(re.compile(r"^(You won|You lost|Draw)")).wait_for(timeout=TIMEOUT)
        said = status.inner_text()
        assert page.locator("#play-new").is_visible()
        seen = page.evaluate("() => window.seen")
        assert any("is thinking" in text for text in seen), seen  # the AI showed it was thinking
        replies = [t for t in seen if t.startswith("The AI played")]
        assert replies and all(re.fullmatch(r"The AI played \S+ — (opening book|search, depth \d+, (evaluation [+−]\d+\.\d\d "
                                                r"\(White's view\)|(White|Black) mates in \d+))\.", t) for t in replies), replies

        linked = _params(page)["moves"].split(",")
        with page.expect_download() as download:
            page.get_by_role("button", name="Download PGN").click()
        text = Path(download.value.path()).read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors, game.errors
    board = game.board()
    moves = list(game.mainline_moves())
    for move in moves:
        assert move in board.legal_moves
        board.push(move)
    assert [m.uci() for m in moves] == linked  # the PGN holds the game of the link
    assert len(moves) >= 2 * 3  # the game went on after the take-back
    expected = "1/2-1/2" if said.startswith("Draw") else RESULT_OF[(said.split(":")[0].split(" on ")[0], "w")]
    assert game.headers["Result"] == expected and text.rstrip().endswith(f"{{{said}}} {expected}")  # how it ended
    if said == "You lost: you resigned":
        assert not board.is_game_over()
    assert game.headers["White"] == "You" and game.headers["Black"] == f"AI level 1 (about {LEVELS[0].elo} Elo)"
    assert game.headers["TimeControl"] == "60+0" and game.headers["Event"] == "Game against the AI"
    clocks = [node.clock() for node in game.mainline()]
    assert all(c is not None and 0 <= c <= 60 for c in clocks), clocks  # [%clk h:mm:ss] on every move


def test_on_a_phone_the_board_clocks_and_resign_fit_and_a_reload_resumes_the_game(server):
    moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
    link = "/?" + urllib.parse.urlencode({"fen": chess.STARTING_FEN, "moves": ",".join(moves), "mode": "play", "side": "w",
                                          "level": "1", "clock": "3+2", "clocks": "1795,1790,1780,1770"})
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    with _page(server + link, width=390, height=844) as page:
        page.get_by_text("Your move (White).").wait_for(timeout=TIMEOUT)
        assert _moves_listed(page) == 4 and _pieces(page) == _board_of(board)
        assert page.locator("#clock-top .time").inner_text() == "2:57"  # Black's 177.0 s, not running
        shown = page.locator("#clock-bottom .time").inner_text()
        assert re.fullmatch(r"2:5[5-8]", shown), shown  # White's 178.0 s, running since the page opened
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
        for selector in ("#board cg-board", "#clock-top", "#clock-bottom", "#play-resign", "#play-takeback", "#status"):
            box = page.locator(selector).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)

        _play_by_clicks(page, chess.Move.from_uci("f1c4"))
        page.wait_for_function("() => document.querySelectorAll('#movelist button').length === 6", timeout=TIMEOUT)
        _wait_for_your_turn(page)
        url = page.url
        played = _game(page)
        page.reload()
        page.get_by_text("Your move (White).").wait_for(timeout=TIMEOUT)
        assert page.url.split("&clocks=")[0] == url.split("&clocks=")[0]
        assert _moves_listed(page) == 6 and _pieces(page) == _board_of(played)

        page.get_by_role("button", name="Resign").click()
        page.locator("#status").get_by_text("You lost: you resigned").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "resign"
        page.reload()
        page.locator("#status").get_by_text("You lost: you resigned").wait_for(timeout=TIMEOUT)
        assert page.locator("#play-new").is_visible() and page.locator("#play-resign").is_disabled()


def test_the_tablebase_takes_over_with_practices_words_and_verdicts(server):
    _, position = get_json(server, "/api/position", fen=KQKR)
    best = position["moves"][0]
    link = "/?" + urllib.parse.urlencode({"fen": KQKR, "mode": "play", "side": "w", "level": "5", "clock": "none"})
    with _page(server + link) as page:
        line = page.locator("#play-tablebase")
        expected = "tablebase: " + re.sub(r"^White to move\. ", "", position["status"])
        line.get_by_text(expected).wait_for(timeout=TIMEOUT)
        assert re.fullmatch(r"tablebase: White mates in \d+ \(\d+ plies\)", expected)
        _play_by_clicks(page, chess.Move.from_uci(best["uci"]))
        _, verdict = get_json(server, "/api/verdict", fen=KQKR, move=best["uci"])
        page.locator("#play-verdict").get_by_text(f"Your move: {verdict['verdict']}").wait_for(timeout=TIMEOUT)
        engine = page.locator("#play-engine")
        engine.get_by_text(re.compile(r"^The AI played \S+ — tablebase, depth \d+, White mates in \d+\.$")).wait_for(timeout=TIMEOUT)
        _wait_for_your_turn(page)
        board = _game(page)
        assert len(board.move_stack) == 2
        _, after = get_json(server, "/api/position", fen=board.fen())
        line.get_by_text("tablebase: " + re.sub(r"^White to move\. ", "", after["status"])).wait_for(timeout=TIMEOUT)
        _, reply = get_json(server, "/api/verdict", fen=best["fen"], move=board.move_stack[1].uci())
        assert reply["best"]  # the AI defends as the table says
        page.get_by_role("button", name="Resign").click()
        # after the game each move a table judges is marked with its grade
        page.wait_for_function("() => [...document.querySelectorAll('#movelist button')].every(b => b.dataset.grade)",
                               timeout=TIMEOUT)
        assert page.locator("#movelist button").first.get_attribute("data-grade") == verdict["grade"] == "best"


def test_a_busy_or_silent_server_never_freezes_the_page(server):
    link = "/?" + urllib.parse.urlencode({"fen": chess.STARTING_FEN, "mode": "play", "side": "b", "level": "1",
                                          "clock": "none"})
    with _page(f"{server}/?mode=play&setup=1") as page:
        busy = {"count": 0}

        def once_busy(route):
            if busy["count"] == 0:
                busy["count"] += 1
                route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                              body=json.dumps({"error": "every search process is busy"}))
            else:
                route.continue_()

        page.route("**/api/move", once_busy)
        page.goto(server + link)
        page.locator("#play-engine").get_by_text("asking again in 1 s").wait_for(timeout=TIMEOUT)
        _wait_for_your_turn(page)  # the second request went through
        assert busy["count"] == 1 and _moves_listed(page) == 1
        page.unroute("**/api/move")

        page.route("**/api/move", lambda route: route.abort())
        move = _choose(_game(page), random.Random(1))
        _play_by_clicks(page, move)
        page.locator("#status.error").get_by_text("The AI's move did not come").wait_for(timeout=TIMEOUT)
        retry = page.get_by_role("button", name="Ask for the reply again")
        assert retry.is_visible() and _moves_listed(page) == 2
        page.unroute("**/api/move")
        retry.click()
        page.wait_for_function("() => document.querySelectorAll('#movelist button').length === 3", timeout=TIMEOUT)
        _wait_for_your_turn(page)
        assert retry.is_hidden() and _pieces(page) == _board_of(_game(page))


def _play_link(fen: str, moves: list, clocks: str = "", clock: str = "1+0", side: str = "w") -> str:
    params = {"fen": fen, "moves": ",".join(moves), "mode": "play", "side": side, "level": "1", "clock": clock}
    if clocks:
        params["clocks"] = clocks
    return "/?" + urllib.parse.urlencode(params)


def test_a_flag_fall_loses_unless_the_other_side_cannot_mate_and_a_repetition_is_claimed(server):
    # White (the person) has half a second left: the flag falls on the page's clock
    with _page(server + _play_link(chess.STARTING_FEN, ["e2e4", "e7e5"], "5,600")) as page:
        page.locator("#status").get_by_text("You lost on time").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "time-w" and page.locator("#clock-bottom .time").inner_text() == "0:00.0"
        with page.expect_download() as download:
            page.get_by_role("button", name="Download PGN").click()
        game = chess.pgn.read_game(io.StringIO(Path(download.value.path()).read_text()))
        assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "time forfeit"
        # the same, but Black has a bare king (python-chess agrees it cannot mate): a draw
        queens = "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"
        assert not chess.Board(queens).has_insufficient_material(chess.WHITE)
        assert chess.Board(queens).has_insufficient_material(chess.BLACK)
        page.goto(server + _play_link(queens, ["e1e2", "e8d8"], "5,600"))
        page.locator("#status").get_by_text("Draw: You ran out of time, but Black cannot mate").wait_for(timeout=TIMEOUT)
        # knights out and back twice: the start position a third time, White (the person) to move
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
        board = chess.Board()
        for uci in shuffle:
            board.push_uci(uci)
        assert board.can_claim_threefold_repetition()
        page.goto(server + _play_link(chess.STARTING_FEN, shuffle, clock="none"))
        claim = page.get_by_role("button", name="Claim a draw (repetition)")
        claim.wait_for(timeout=TIMEOUT)
        claim.click()
        page.locator("#status").get_by_text("Draw by repetition").wait_for(timeout=TIMEOUT)
        assert _params(page)["end"] == "repetition"
