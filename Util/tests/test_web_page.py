"""The trainer page as a person uses it: ``python -m Util serve`` as a process of its own, the page in
Debian's Chromium through Playwright.  Moves are made by dragging pieces with the mouse and by clicking
the table; what the page shows is compared with what the API answers (itself compared with Gaviota in
test_server.py)."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import chess
import pytest

from Util.tests.browser import opened_page, require_page_parts, shared_chromium
from Util.tests.served import get_json, running_server

#: A browser and a server per module: not in the quick loop (pytest -m "not slow").
pytestmark = [pytest.mark.slow, pytest.mark.browser]
KQKR = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"
TIMEOUT = 30_000


@pytest.fixture(scope="module", autouse=True)
def one_chromium():
    """One Chromium for the module's pages, each page in a context of its own (browser.shared_chromium)."""
    require_page_parts()
    with shared_chromium():
        yield


@pytest.fixture(scope="module")
def server(tmp_path_factory, served_tables):
    require_page_parts()
    log = tmp_path_factory.mktemp("page") / "server.log"
    with running_server(served_tables, log) as base:
        yield base
    assert "Traceback" not in log.read_text()


def _page(url: str, width: int = 1200, height: int = 900):
    return opened_page(url, width, height)


def _square_point(page, square: str):
    """The centre of ``square`` on the board as it is shown (either orientation)."""
    box = page.locator("#board cg-board").bounding_box()
    file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
    white_below = "orientation-black" not in (page.locator("#board").get_attribute("class") or "")
    if not white_below:
        file, rank = 7 - file, 7 - rank
    size = box["width"] / 8
    return box["x"] + (file + 0.5) * size, box["y"] + (7 - rank + 0.5) * size


def _drag(page, start, end):
    """Press the mouse at ``start`` (a square, or an (x, y) point), move it to square ``end``, release; once
    the page has shown its position and the board takes a move (the board's ``data-movable`` names who may
    move: a drag before that, while the page still asks the server, would be lost)."""
    page.wait_for_function("() => document.querySelector('#board').dataset.movable", timeout=TIMEOUT)
    x, y = _square_point(page, start) if isinstance(start, str) else start
    page.mouse.move(x, y)
    page.mouse.down()
    to_x, to_y = _square_point(page, end)
    page.mouse.move((x + to_x) / 2, (y + to_y) / 2, steps=4)
    page.mouse.move(to_x, to_y, steps=4)
    page.mouse.up()
    # chessground draws the drop on the next animation frames
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _pieces(page) -> dict:
    """What the board shows: square -> piece letter (chessground keeps each piece's square on it)."""
    found = page.evaluate("""() => [...document.querySelectorAll('cg-board piece')]
        .filter(p => p.cgKey && !p.classList.contains('ghost') && !p.classList.contains('fading'))
        .map(p => [p.cgKey, p.className])""")
    letters = {"king": "k", "queen": "q", "rook": "r", "bishop": "b", "knight": "n", "pawn": "p"}
    board = {}
    for square, classes in found:
        role = next(letters[c] for c in classes.split() if c in letters)
        board[square] = role.upper() if "white" in classes.split() else role
    return board


def _board_of(fen: str) -> dict:
    return {chess.square_name(s): p.symbol() for s, p in chess.Board(fen).piece_map().items()}


def _url_params(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def test_analyse_click_in_the_table_and_drag_a_piece(server):
    status, answer = get_json(server, "/api/position", fen=KQKR)
    with _page(f"{server}/?fen={urllib.parse.quote(KQKR)}") as page:
        page.get_by_text(answer["status"]).wait_for(timeout=TIMEOUT)  # "White to move. White mates in 33 (65 plies)"
        assert re.fullmatch(r"White to move\. White mates in \d+ \(\d+ plies\)", answer["status"])
        assert _pieces(page) == _board_of(KQKR)
        rows = page.locator("#moves tbody tr")
        assert rows.count() == len(answer["moves"]) == chess.Board(KQKR).legal_moves.count()
        assert rows.first.locator("td").first.inner_text() == answer["moves"][0]["san"]
        classes = [rows.nth(i).get_attribute("class") for i in range(rows.count())]
        expected = [{"loss": "win", "draw": "draw", "win": "loss"}[m["category"]] for m in answer["moves"]]
        assert classes == expected and "win" in classes and "loss" in classes  # coloured, best first

        losing = next(m for m in answer["moves"] if m["category"] == "win")  # a move that gives the win away
        page.locator(f"#moves tr[data-uci='{losing['uci']}']").click()
        page.locator("#movelist button", has_text=losing["san"]).wait_for(timeout=TIMEOUT)
        _, after = get_json(server, "/api/position", fen=losing["fen"])
        page.get_by_text(after["status"]).wait_for(timeout=TIMEOUT)
        assert after["status"].startswith("Black to move. Black mates in")
        assert _url_params(page)["moves"] == losing["uci"]

        # Black's best reply, dragged with the mouse
        best = after["moves"][0]
        _drag(page, best["uci"][:2], best["uci"][2:4])
        page.locator("#movelist button", has_text=best["san"]).wait_for(timeout=TIMEOUT)
        page.wait_for_function("() => document.querySelectorAll('#movelist button').length === 2", timeout=TIMEOUT)
        assert _pieces(page) == _board_of(best["fen"])
        assert _url_params(page)["moves"] == f"{losing['uci']},{best['uci']}"

        # back through the move list: the first move's position again
        page.locator("#movelist button").first.click()
        page.get_by_text(after["status"]).wait_for(timeout=TIMEOUT)
        assert _pieces(page) == _board_of(losing["fen"])

        # a link shows the same board
        link = page.url
    with _page(link) as page:
        page.get_by_text(after["status"]).wait_for(timeout=TIMEOUT)
        assert page.locator("#movelist button").count() == 2
        assert _pieces(page) == _board_of(losing["fen"])


def test_practice_verdict_reply_hint_take_back_and_pgn(server, tmp_path):
    _, answer = get_json(server, "/api/position", fen=KQKR)
    best_dtm = answer["moves"][0]["dtm"]
    slower = next(m for m in answer["moves"] if m["category"] == "loss" and m["dtm"] < best_dtm)
    with _page(f"{server}/?fen={urllib.parse.quote(KQKR)}") as page:
        page.get_by_text(answer["status"]).wait_for(timeout=TIMEOUT)
        page.get_by_role("tab", name="Practice").click()
        assert page.locator("#moves").is_hidden()  # no answers before a hint is asked for
        page.get_by_label("White").first.check()
        page.get_by_role("button", name="Start from this position").click()
        page.get_by_text("You play White.").wait_for(timeout=TIMEOUT)
        page.locator("#board[data-movable=w]").wait_for(timeout=TIMEOUT)  # the game's position shown, White to move

        _drag(page, slower["uci"][:2], slower["uci"][2:4])
        _, verdict = get_json(server, "/api/verdict", fen=KQKR, move=slower["uci"])
        box = page.locator("#verdict")
        box.get_by_text(f"Your move: {verdict['verdict']}").wait_for(timeout=TIMEOUT)
        assert "inaccuracy: only delays mate, by 2 plies" in verdict["verdict"]
        assert "mistake-slower" in box.get_attribute("class")
        page.wait_for_function("() => document.querySelectorAll('#movelist button').length === 2", timeout=TIMEOUT)
        reply_uci = _url_params(page)["moves"].split(",")[1]
        _, reply = get_json(server, "/api/verdict", fen=slower["fen"], move=reply_uci)
        assert reply["best"], reply  # the server's reply keeps its best result
        box.get_by_text(f"Reply: {reply['san']}.").wait_for(timeout=TIMEOUT)
        assert "mistake-slower" in page.locator("#movelist button").first.get_attribute("class")
        assert _pieces(page) == _board_of(reply["fen"])

        page.get_by_role("button", name="Hint").click()
        _, now = get_json(server, "/api/position", fen=reply["fen"])
        page.locator("#moves tbody tr").first.wait_for(timeout=TIMEOUT)
        assert page.locator("#moves tbody tr").count() == len(now["moves"])

        with page.expect_download() as download:
            page.get_by_role("button", name="Download PGN").click()
        pgn = Path(download.value.path()).read_text()
        assert f'[FEN "{KQKR}"]' in pgn and f"1. {slower['san']} {{{verdict['comment']}}} {reply['san']} {{" in pgn
        import chess.pgn
        import io
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert [m.uci() for m in game.mainline_moves()] == [slower["uci"], reply_uci]

        page.get_by_role("button", name="Take back").click()
        box.get_by_text("Taken back to the start: your move again.").wait_for(timeout=TIMEOUT)
        page.wait_for_function("() => document.querySelectorAll('#movelist button').length === 0", timeout=TIMEOUT)
        page.get_by_text(answer["status"]).wait_for(timeout=TIMEOUT)
        assert _pieces(page) == _board_of(KQKR)
        assert "moves" not in _url_params(page)

        # the best move now: its verdict says so, in the colour of a good move
        best = answer["moves"][0]
        _drag(page, best["uci"][:2], best["uci"][2:4])
        box.get_by_text(re.compile(r"Your move: .* — best move")).wait_for(timeout=TIMEOUT)
        assert "best" in box.get_attribute("class").split()


def test_board_editor_sets_up_a_position_with_the_mouse(server):
    with _page(f"{server}/?fen={urllib.parse.quote(KQKR)}") as page:
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        page.get_by_role("tab", name="Edit board").click()
        fen_field = page.locator("#edit-fen")
        assert fen_field.input_value() == KQKR
        page.get_by_role("button", name="Clear board").click()
        assert fen_field.input_value() == "8/8/8/8/8/8/8/8 w - - 0 1"
        assert _pieces(page) == {}

        # an empty board is no position: the page says why and stays in the editor
        page.get_by_role("button", name="Analyse this position").click()
        page.locator("#status.error").get_by_text("not a legal position").wait_for(timeout=TIMEOUT)

        for piece, square in (("white king", "a1"), ("white rook", "b1"), ("black king", "d5"), ("black queen", "h8")):
            spare = page.locator(f"#spare-top piece[data-piece='{piece}'], #spare-bottom piece[data-piece='{piece}']")
            box = spare.bounding_box()
            _drag(page, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), square)
        assert _pieces(page) == {"a1": "K", "b1": "R", "d5": "k", "h8": "q"}
        _drag(page, "h8", "e7")  # pieces on the board move freely
        assert fen_field.input_value() == "8/4q3/8/3k4/8/8/8/KR6 w - - 0 1"

        page.get_by_role("button", name="Swap colours").click()
        assert fen_field.input_value() == "8/4Q3/8/3K4/8/8/8/kr6 w - - 0 1"
        page.get_by_role("button", name="Swap colours").click()
        page.locator("#panel-edit").get_by_label("Black", exact=True).check()
        fen = "8/4q3/8/3k4/8/8/8/KR6 b - - 0 1"
        assert fen_field.input_value() == fen

        page.get_by_role("button", name="Analyse this position").click()
        _, answer = get_json(server, "/api/position", fen=fen)
        page.get_by_text(answer["status"]).wait_for(timeout=TIMEOUT)
        assert answer["status"].startswith("Black to move.")
        assert _url_params(page)["fen"] == fen
        assert page.locator("#moves tbody tr").count() == len(answer["moves"])

        page.get_by_role("button", name="Flip board").click()
        assert _pieces(page) == _board_of(fen)  # the same position, seen from Black's side
        box = page.locator("#board cg-board").bounding_box()
        rect = page.evaluate("""() => { const p = [...document.querySelectorAll('cg-board piece')]
            .find(e => e.cgKey === 'a1'); const r = p.getBoundingClientRect(); return [r.x, r.y]; }""")
        # White's king on a1 is now in the top right-hand corner
        assert rect[0] > box["x"] + box["width"] * 0.8 and rect[1] < box["y"] + box["height"] * 0.2, (rect, box)


def test_random_start_by_material_result_and_distance(server):
    with _page(f"{server}/") as page:
        page.get_by_role("tab", name="Random start").click()
        page.locator("#random-material option[value='KQvKR']").wait_for(state="attached", timeout=TIMEOUT)
        page.select_option("#random-material", "KQvKR")
        page.select_option("#random-side", "b")
        page.locator("#random-distances").get_by_text("with Black to move").wait_for(timeout=TIMEOUT)
        _, distances = get_json(server, "/api/distances", material="KQvKR", side="b")
        assert str(distances["loss"][-1]["plies"]) in page.locator("#random-distances").inner_text()
        page.select_option("#random-outcome", "loss")
        page.fill("#random-min", "10")
        page.fill("#random-max", "20")
        page.get_by_role("button", name="New position").click()
        page.wait_for_function("() => new URLSearchParams(location.search).get('mode') === 'practice'", timeout=TIMEOUT)
        fen = _url_params(page)["fen"]
        _, answer = get_json(server, "/standard", fen=fen)
        assert chess.Board(fen).turn == chess.BLACK and -20 <= answer["dtm"] <= -10
        page.get_by_text(re.compile(r"^Black to move\. White mates in \d+ \(\d+ plies\)")).wait_for(timeout=TIMEOUT)
        assert _url_params(page)["side"] == "b"  # practising the defence, as Black


def test_the_page_fits_a_phone(server):
    with _page(f"{server}/?fen={urllib.parse.quote(KQKR)}", width=390) as page:
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width  # nothing sticks out sideways
        board = page.locator("#board cg-board").bounding_box()
        assert board["width"] >= 300 and board["x"] >= 0 and board["x"] + board["width"] <= 390
        square = board["width"] / 8
        # each file letter in its own column at the foot, each rank number in its row (White at the bottom)
        for label, kind, left, top in (("a", "files", 0, 7), ("h", "files", 7, 7), ("8", "ranks", 7, 0),
                                       ("1", "ranks", 7, 7)):
            box = page.locator(f"#board coords.{kind} coord").filter(has_text=re.compile(f"^{label}$")).evaluate(
                """c => { const range = document.createRange(); range.selectNodeContents(c);
                         const r = range.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; }""")
            x0, y0 = board["x"] + left * square, board["y"] + top * square
            assert x0 <= box["x"] and box["x"] + box["w"] <= x0 + square, (label, box, board)
            assert y0 <= box["y"] and box["y"] + box["h"] <= y0 + square, (label, box, board)
        for name in ("Analyse", "Practice", "Random start", "Edit board"):
            tab = page.get_by_role("tab", name=name).bounding_box()
            assert tab["x"] >= 0 and tab["x"] + tab["width"] <= 390, name


MATE_IN_ONE = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1"  # Qh8#


def _moves_listed(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#movelist button').length === {count}", timeout=TIMEOUT)


def _link(fen: str, **params) -> str:
    return "/?" + urllib.parse.urlencode({"fen": fen, **params})


def _best(server, fen: str) -> dict:
    return get_json(server, "/api/position", fen=fen)[1]["moves"][0]


def _download_pgn(page):
    import chess.pgn
    import io

    with page.expect_download() as download:
        page.get_by_role("button", name="Download PGN").click()
    text = Path(download.value.path()).read_text()
    return text, chess.pgn.read_game(io.StringIO(text))


def test_practice_as_black_from_white_to_move_never_freezes(server):
    """A link to practise Black where White is to move: the server moves first, the side chooser says
    Black; a take-back before any move of one's own takes nothing; after one, the server is not left
    waiting (whoever is to move after a take-back, the right side moves)."""
    with _page(server + _link(KQKR, mode="practice", side="b")) as page:
        _moves_listed(page, 1)  # the server's first move, without anyone pressing anything
        assert page.locator("input[name=practice-side][value=b]").is_checked()
        assert _url_params(page)["side"] == "b"
        page.get_by_text(re.compile(r"^Black to move\. White mates in")).wait_for(timeout=TIMEOUT)
        first = _url_params(page)["moves"]
        page.get_by_role("button", name="Take back").click()
        page.locator("#verdict").get_by_text("Nothing to take back: you have not moved yet.").wait_for(timeout=TIMEOUT)
        _moves_listed(page, 1)
        fen = get_json(server, "/api/verdict", fen=KQKR, move=first)[1]["fen"]
        best = _best(server, fen)
        _drag(page, best["uci"][:2], best["uci"][2:4])
        _moves_listed(page, 3)  # Black's move and White's reply
        page.get_by_role("button", name="Take back").click()
        page.locator("#verdict").get_by_text("Taken back: your move again.").wait_for(timeout=TIMEOUT)
        _moves_listed(page, 1)
        assert _url_params(page)["moves"] == first and _pieces(page) == _board_of(fen)
        # the same from the page: analyse, then practise Black, then start
        page.goto(server + _link(KQKR))
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        page.get_by_role("tab", name="Practice").click()
        page.locator("#panel-practice").get_by_label("Black").check()
        page.get_by_role("button", name="Start from this position").click()
        _moves_listed(page, 1)
        page.get_by_text(re.compile(r"^Black to move\.")).wait_for(timeout=TIMEOUT)


def test_take_back_while_viewing_an_earlier_move_asks_and_the_pgn_holds_the_whole_game(server):
    with _page(server + _link(KQKR, mode="practice", side="w")) as page:
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        fen = KQKR
        for count in (2, 4):
            best = _best(server, fen)
            _drag(page, best["uci"][:2], best["uci"][2:4])
            _moves_listed(page, count)
            fen = get_json(server, "/api/verdict", fen=best["fen"], move=_url_params(page)["moves"].split(",")[-1])[1]["fen"]
        moves = _url_params(page)["moves"].split(",")
        page.locator("#movelist button").first.click()  # viewing White's first move
        page.wait_for_function("() => new URLSearchParams(location.search).get('ply') === '1'", timeout=TIMEOUT)

        text, game = _download_pgn(page)  # the whole game, not the moves up to the one viewed
        assert [m.uci() for m in game.mainline_moves()] == moves and game.headers["Result"] == "*"
        assert all(node.comment for node in game.mainline())  # each move's verdict and distance

        page.get_by_role("button", name="Take back").click()
        ask = page.locator("#ask")
        ask.get_by_text("The 3 later moves would be deleted.").wait_for(timeout=TIMEOUT)
        ask.get_by_role("button", name="Cancel").click()
        assert ask.is_hidden() and _url_params(page)["moves"].split(",") == moves  # nothing lost
        page.get_by_role("button", name="Take back").click()
        ask.get_by_role("button", name="Take back to here").click()
        # viewing the position after White's move: back to before it, White (the person) to move
        _moves_listed(page, 0)
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        assert _pieces(page) == _board_of(KQKR)


def test_the_end_of_a_game_speaks_to_the_person_with_a_new_game_and_the_result_in_the_pgn(server):
    with _page(server + _link(MATE_IN_ONE, mode="practice", side="w")) as page:
        page.get_by_text("White to move. White mates in 1").wait_for(timeout=TIMEOUT)
        _drag(page, "h2", "h8")
        status = page.locator("#status")
        status.get_by_text("You won: checkmate").wait_for(timeout=TIMEOUT)
        assert "win" in status.get_attribute("class").split()  # the winner's green, not the loser's red
        text, game = _download_pgn(page)
        assert game.headers["Result"] == "1-0" and text.rstrip().endswith("1-0")
        assert "best move" not in text and "White has won: checkmate" in game.next().comment
        page.get_by_role("button", name="New game").click()
        _moves_listed(page, 0)
        page.get_by_text("White to move. White mates in 1").wait_for(timeout=TIMEOUT)
        assert page.locator("#new-game").is_hidden()
        page.goto(server + _link(MATE_IN_ONE, mode="practice", side="b"))  # the server mates the person
        status = page.locator("#status")
        status.get_by_text("You lost: checkmate").wait_for(timeout=TIMEOUT)
        assert "loss" in status.get_attribute("class").split()
        assert page.locator("#new-game").is_visible()


def test_errors_stay_until_the_next_action_and_a_broken_link_shows_an_empty_board(server):
    with _page(server + "/?fen=garbage") as page:
        page.locator("#status.error").get_by_text("no side to move in 'garbage'").wait_for(timeout=TIMEOUT)
        assert _pieces(page) == {}  # no stray pieces read out of the garbage
        page.goto(server + _link(KQKR, moves="b1b7,zzzz"))  # one browser for the three links
        error = page.locator("#status.error").get_by_text("The link's move zzzz could not be played")
        error.wait_for(timeout=TIMEOUT)
        page.wait_for_timeout(1500)
        assert error.is_visible()  # not overwritten by the status line
        _moves_listed(page, 1)
        page.goto(server + _link(KQKR))  # the server gone: the move snaps back with the reason
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        page.route("**/api/verdict**", lambda route: route.abort())
        _drag(page, "b1", "b7")
        error = page.locator("#status.error").get_by_text("The server does not answer")
        error.wait_for(timeout=TIMEOUT)
        page.wait_for_timeout(1500)
        assert error.is_visible() and _pieces(page) == _board_of(KQKR)
        page.unroute("**/api/verdict**")
        _drag(page, "b1", "b7")  # the next action: the error gives way
        _moves_listed(page, 1)
        page.get_by_text(re.compile(r"^Black to move\.")).wait_for(timeout=TIMEOUT)


def test_the_promotion_chooser_lies_over_the_board_and_can_be_cancelled(server):
    fen = "8/4P3/8/8/8/2k5/8/K7 w - - 0 1"
    with _page(server + _link(fen)) as page:
        page.get_by_text("White to move.").wait_for(timeout=TIMEOUT)
        _drag(page, "e7", "e8")
        chooser = page.locator("#promotion")
        chooser.wait_for(timeout=TIMEOUT)
        board, box = page.locator("#board cg-board").bounding_box(), chooser.bounding_box()
        assert box["x"] >= board["x"] - 1 and box["y"] >= board["y"] - 1
        assert box["x"] + box["width"] <= board["x"] + board["width"] + 1
        assert box["y"] + box["height"] <= board["y"] + board["height"] + 1
        assert _pieces(page) == _board_of(fen)  # the pawn waits on e7 meanwhile
        chooser.get_by_role("button", name="Cancel").click()
        assert chooser.is_hidden() and _pieces(page) == _board_of(fen)
        assert page.locator("#movelist button").count() == 0
        _drag(page, "e7", "e8")
        chooser.get_by_role("button", name="Knight").click()
        page.locator("#movelist button", has_text="e8=N").wait_for(timeout=TIMEOUT)


def test_on_a_phone_the_verdict_and_the_buttons_are_on_screen_after_a_move(server):
    with _page(server + _link(KQKR, mode="practice", side="w"), width=390, height=844) as page:
        page.get_by_text("White to move. White mates in").wait_for(timeout=TIMEOUT)
        best = _best(server, KQKR)
        _drag(page, best["uci"][:2], best["uci"][2:4])
        page.locator("#verdict").get_by_text("Reply:").wait_for(timeout=TIMEOUT)
        assert page.evaluate("() => window.scrollY") == 0
        for selector in ("#verdict", "#hint", "#takeback", "#status"):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
