"""The notebook series: committed clean, runs headless, and produces what it claims."""

import re
from pathlib import Path

import nbformat
import pytest

from Util.files.chessai import load_table
from Util.calculation.boards import board_counts
from Util.notebook.series import WIDGET_VIEW, NotebookCellError, execute_notebook, run_series, series_notebooks
from Util.tests.parts import missing_part

REPO = Path(__file__).resolve().parents[2]


def outputs(notebook, kind=None):
    for cell in notebook.cells:
        for out in cell.get("outputs", []):
            if kind is None or out.get("output_type") == kind:
                yield out


def stdout(notebook) -> str:
    return "".join(o["text"] for o in outputs(notebook, "stream") if o["name"] == "stdout")


_PROGRESS_TEXT = re.compile(r"\d+/\d+ \[\d\d:\d\d|\[\d\d:\d\d, |\?(it| ply| boards| positions)/s")


def assert_no_progress_text(notebook) -> None:
    """A headless run leaves no progress bar in the saved notebook, neither as text nor as a widget."""
    for out in outputs(notebook):
        text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
        assert not _PROGRESS_TEXT.search(text), f"dead progress text in a saved output: {text[:80]!r}"


def assert_html_shows_every_widget_copy(executed, written: Path) -> None:
    """``jupyter nbconvert --to html`` of the written copy shows each widget's static copy (none is blank)."""
    from nbconvert import HTMLExporter

    widgets = sum(WIDGET_VIEW in o.get("data", {}) for o in outputs(executed))
    page, _ = HTMLExporter().from_filename(str(written))
    assert widgets and page.count('<div class="chessai-static-copy">') == widgets, (written.name, widgets)


def test_progress_text_is_recognised():
    dead = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
        "display_data", data={"text/plain": "KvK: S_n: 0 ply [00:00, ? ply/s]"})])])
    with pytest.raises(AssertionError):
        assert_no_progress_text(dead)


def test_series_is_in_order_and_committed_without_outputs():
    names = [p.name for p in series_notebooks(REPO)]
    assert names[:2] == ["01_chess_introduction.ipynb", "02_calculation.ipynb"]
    for path in series_notebooks(REPO):
        notebook = nbformat.read(path, as_version=4)
        code = [c for c in notebook.cells if c.cell_type == "code"]
        assert all(not c.outputs and c.execution_count is None for c in code), f"{path.name} has outputs"
        tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, f"{path.name} needs exactly one cell tagged 'parameters'"


def test_01_glossary_has_chapter_7s_words_and_no_chapter_speaks_of_the_seed():
    """The words chapter 7 uses are defined in chapter 1's glossary (UCI as the engine protocol, not only a
    way of writing moves), and no notebook says "the seed" for the documents the project grew from."""
    notebook = nbformat.read(REPO / "01_chess_introduction.ipynb", as_version=4)
    glossary = next(c.source for c in notebook.cells if c.source.startswith("## Glossary"))
    for word in ("UCI", "centipawn", "opening book", "Polyglot", "Zobrist key", "transposition table", "minimax",
                 "negamax", "alpha-beta", "iterative deepening", "quiescence search", "Elo", "time control"):
        assert f"**{word}**" in glossary, word
    assert "protocol" in glossary.split("**UCI**")[1].split("\n* ")[0]
    for path in series_notebooks(REPO):
        text = "".join(c.source for c in nbformat.read(path, as_version=4).cells).lower()
        assert "the seed" not in text and "seed notebook" not in text, path.name


@pytest.fixture(scope="module")
def notebook_01(tmp_path_factory):
    return execute_notebook(REPO / "01_chess_introduction.ipynb", {"BOARD_SIZE": 150},
                            tmp_path_factory.mktemp("nb") / "01.ipynb")


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_01_shows_boards_and_the_right_facts(notebook_01):
    pictures = "".join(str(o.get("data", {}).get("image/svg+xml", "")) + o.get("data", {}).get("text/html", "")
                       for o in outputs(notebook_01))
    assert pictures.count("<svg") >= 12
    assert 'width="150"' in pictures  # the parameter reached the pictures
    text = stdout(notebook_01)
    assert "checkmate  is_check=True  is_checkmate=True  is_stalemate=False legal moves=0" in text
    assert "stalemate  is_check=False is_checkmate=False is_stalemate=True  legal moves=0" in text
    assert "b7's moves in UCI, one per promotion piece: ['b7b8q', 'b7b8r', 'b7b8b', 'b7b8n']" in text
    assert "Black pawn on f4 goes to ['f3']" in text and "kings on h1 and e8 in all three: True" in text
    assert "the rook on d4 reaches 9 squares, the bishop 13 and the queen 27" in text
    assert "after it, checkmate: True" in text


@pytest.fixture(scope="module")
def notebook_02(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    notebook = execute_notebook(REPO / "02_calculation.ipynb",
                                {"TABLES": ["KQvK", "KPvK"], "RESULTS_DIR": str(results), "BOARD_SIZE": 120,
                                 "BACKWARD_MAX_N": 6, "LADDER_MAX_N": 2, "LADDER_REPEATS": 1},
                                results / "02.ipynb")
    return notebook, results


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_02_writes_tables_that_match_the_package(notebook_02, store):
    notebook, results = notebook_02
    for name in ("KQvK", "KPvK", "KBNvK"):
        table, counts = load_table(results / f"{name}.chessAI")
        assert counts == board_counts(store.get(name)), name
    # each table it computed, written once for the chapters after it: its examples' too, and what they lead into
    for name in ("KQRvK", "KQvKR", "KPvKP", "KQvKP", "KRvKB"):
        assert (results / f"{name}.chessAI").exists(), name
    assert not (results / "resume_demo").exists(), "the resume demonstration must clean up after itself"


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_02_checks_what_it_teaches(notebook_02):
    notebook, _ = notebook_02
    assert_no_progress_text(notebook)
    text = stdout(notebook)
    # the backward step in plain Python, set for set against the engine, and its un-moves into check
    assert re.search(r"every S_n from S_0 to S_6 equals the engine's, set for set: True", text)
    assert "predecessors: 8 boards, Black to move; in check in 3 of them: ['c5', 'c6', 'c7']" in text
    assert re.search(r"S_2 of KQvK: [\d,]+ boards; in this one Black has \d+ legal moves; check_black_determinism: True",
                     text) and re.search(r"candidate \S+ b - - 0 1: check_black_determinism: False", text)
    assert "KPvK: boards in S_0 .. S_5: [0, " in text  # no checkmate: KPvK's sets begin with un-promotions
    assert re.search(r"un-promotion: \S+ w - - 0 1 is in KPvK's S_1; \S+=Q# leads into KQvK's S_0", text)
    assert re.search(r"Kxb4\s+leads to KRvK, n = 19", text) and "so this position is in S_20" in text
    assert "the AI plays c8=R" in text
    assert "resumed file identical to the uninterrupted one: True" in text
    interrupted = re.search(r"killed; the checkpoint holds the plies up to n = (\d+)\n"
                            r"KBNvK: resuming after ply (\d+) from .*\nresumed after ply (\d+)", text)
    assert interrupted and int(interrupted.group(1)) >= 20 and interrupted.group(1) == interrupted.group(2) \
        == interrupted.group(3)  # the resume line is ordinary output, not error text
    assert not any(o["name"] == "stderr" for o in outputs(notebook, "stream"))
    # speed: each row of the ladder is the same task, the ratios are those of the printed times
    ladder = next(o["data"]["text/html"] for o in outputs(notebook) if "times faster" in o.get("data", {}).get("text/html", ""))
    times = [float(t) for t in re.findall(r'<td style="text-align:right">(\d+\.\d+)</td>', ladder)]
    ratios = [float(r.replace(",", "")) for r in re.findall(r"about ([\d.,]+)", ladder)]
    assert "KQvK, S_0 .. S_2" in ladder and len(times) == 4 and len(ratios) == 3
    assert all(abs(r / (slow / fast) - 1) < 0.35 for r, slow, fast in zip(ratios, times, times[1:]))
    assert re.search(r"board_int = \d+ = 0b[01]{25} \(25 bits", text)  # KBNvK, leading zeros kept
    assert "| in the triangle: ['original']" in text  # of the eight images, the one stored
    pictures = "".join(o.get("data", {}).get("text/html", "") for o in outputs(notebook))
    assert "candidate" in text and re.search(r"K\w+: in S_\d+, a slower mate|: in no S_n, a draw", pictures)
    refinements = next(o["data"]["text/html"] for o in outputs(notebook) if "processor seconds" in o.get("data", {}).get("text/html", ""))
    assert refinements.count("<tr>") == 4 and "never forwards" in refinements
    # pieces on both sides: Black's longest defence in KQvKR, a mate by Black, a draw only en passant saves
    assert re.search(r"n = 70: 70 plies of best play, ending in checkmate: True", text)
    assert re.search(r"Black to move mates in \d+ \(\d+ plies\): 1\.\.\.\w*x", text)
    assert re.search(r"without en passant: -\d+ .*\n  with en passant:    0 \(a draw\)", text)


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_02_draws_the_sizes_and_tabulates_results(notebook_02):
    notebook, _ = notebook_02
    assert any("image/png" in o.get("data", {}) for o in outputs(notebook))
    last_table = [o["data"]["text/html"] for o in outputs(notebook) if "text/html" in o.get("data", {})][-1]
    assert "<td style=\"text-align:right\">KQvK</td>" in last_table and ">20<" in last_table
    assert "KPvK" in last_table and ">56<" in last_table


def test_a_failing_cell_is_named(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("X = 1", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("assert X == 2, 'X must be 2'"),
    ])
    path = tmp_path / "03_broken.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(NotebookCellError) as failure:
        execute_notebook(path, cwd=tmp_path)
    message = str(failure.value)
    assert message.startswith("03_broken.ipynb, cell 2 (\"assert X == 2")
    assert message.endswith("AssertionError: X must be 2") and "\x1b" not in message
    execute_notebook(path, {"X": 2}, cwd=tmp_path)  # the injected parameter fixes it


def test_the_series_run_ends_with_each_notebooks_time_and_the_total(tmp_path, capsys):
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("N = 10", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("sum(i * i for i in range(N))"),
    ])
    nbformat.write(notebook, tmp_path / "01_sums.ipynb")
    run_series(series_notebooks(tmp_path), {"N": 3_000_000}, tmp_path / "executed", cwd=tmp_path)
    printed = capsys.readouterr().out
    row = re.search(r"^01_sums\.ipynb +([\d.]+) +([\d.]+)$", printed, re.M)
    total = re.search(r"^the series +([\d.]+) +([\d.]+)$", printed, re.M)
    assert row and total and row.groups() == total.groups(), printed
    assert float(row.group(2)) > 0.1  # the kernel's processor time, the sum included, is counted once it ends


@pytest.mark.slow  # starts JupyterLab
@pytest.mark.notebook
def test_jupyterlab_opens_on_the_series_with_the_widgets_front_ends(tmp_path):
    """The README's one command, ``.venv/bin/jupyter lab`` in the repository: the server answers on loopback,
    lists the seven notebooks of the series, and serves its page with the front ends of the widgets."""
    from Util.tests.lab import WIDGET_EXTENSIONS, running_lab

    with running_lab(REPO, tmp_path / "home") as lab:
        listed = [entry["name"] for entry in lab.contents()["content"] if entry["type"] == "notebook"]
        extensions = {extension["name"] for extension in lab.page_config()["federated_extensions"]}
    series = [path.name for path in series_notebooks(REPO)]
    assert len(series) == 7 and sorted(name for name in listed if name[:2] in {"01", "02", "03", "04", "05", "06", "07"}) \
        == series, listed
    assert set(WIDGET_EXTENSIONS) <= extensions, extensions


#: Every table notebook 06 opens with the parameters of its tests: FILE and TABLES, MORE_TABLES (KPvK, KQvKR),
#: KBBvK (Syzygy's rounded DTZ), KRvK (the thesis's example).
NOTEBOOK_06_TABLES = ("KQvK", "KRvK", "KPvK", "KQvKR", "KBBvK")


@pytest.fixture(scope="module")
def notebook_06(tmp_path_factory, linked_tables):
    """Notebook 06 on the session's tables (it checks them; computing them is notebook 02's and the store's
    tests' part)."""
    folder = tmp_path_factory.mktemp("nb06")
    # Gaviota and the matching rate on every board (the default run samples them), the move checks on 400
    # stored positions per S_n
    parameters = {"FILE": "KQvK", "RESULTS_DIR": str(linked_tables(*NOTEBOOK_06_TABLES)),
                  "REPORT_DIR": str(folder / "Tests"), "GAVIOTA_SAMPLE": None, "MATCH_SAMPLE": None,
                  "SAMPLE": 400, "TABLES": ["KQvK", "KRvK"], "BOARD_SIZE": 120, "ONE_PLY_SAMPLE": 20,
                  "DRAW_SAMPLE": 2000}
    return execute_notebook(REPO / "06_validate_sequences.ipynb", parameters, folder / "06.ipynb"), folder


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_06_runs_every_check_and_reports(notebook_06, gaviota, syzygy):
    notebook, folder = notebook_06
    assert_no_progress_text(notebook)
    text = stdout(notebook)
    assert "n = 18" in text and "find_move_count of the example: 18" in text
    assert re.search(r"every_move_of_sequence_in_lower KQvK: [\d,]+ stored positions in 21 S_n, 0 wrong", text)
    assert re.search(r"check_boards_in_correct_sequence KQvK: [\d,]+ stored positions in 21 S_n, 0 wrong", text)
    assert "KQvK vs gaviota: 345,404 boards in 21 S_n, 0 disagree" in text
    assert "KPvK: matching rate 100.0000 % (222,564 of 222,564" in text
    assert re.search(r"KQvK vs syzygy: [\d,]+ boards in 21 S_n, 0 disagree", text)
    kbbvk = re.search(r"KBBvK: \|DTZ\| - n over (\d+) sampled boards with n >= 1 -> -1: (\d+)", text)
    assert kbbvk and int(kbbvk.group(2)) > 0.8 * int(kbbvk.group(1)), "Syzygy's rounded DTZ in KBBvK is n - 1"
    assert "KBBvK: the thesis's test fails on every sampled board from S_2 on (S_38 is the last)" in text  # its words
    # the +1s were checkmates: counted apart, with python-chess's DTZ of -1, and shown on an example
    dtz = re.search(r"KQvK: \|DTZ\| - n over \d+ sampled boards with n >= 1 -> ([^;]*); DTZ of the \d+ sampled "
                    r"checkmates \(n = 0\) -> -1: \d+\n", text)
    assert dtz and "+1" not in dtz.group(1)
    assert "8/8/8/8/8/R7/8/k1K5 b - - 0 1: checkmate True, n = 0, python-chess's DTZ -1" in text
    report = (folder / "Tests" / "validation_KQvK.txt").read_text()
    assert report.count("0 wrong") == 2 and "0 disagree" in report and "100.0000 %" in report
    assert (folder / "Tests" / "validation_KQvK.png").stat().st_size > 10_000
    assert "matching rate" in (folder / "Tests" / "validation_KRvK.txt").read_text()
    assert (folder / "Tests" / "validation_KRvK.png").stat().st_size > 5_000
    # a pawn table and KQvKR get the move checks and Syzygy too, with a DTZ-1 board of each
    assert re.search(r"every_move_of_sequence_in_lower KPvK: [\d,]+ stored positions in 57 S_n, 0 wrong", text)
    assert re.search(r"check_boards_in_correct_sequence KPvK: [\d,]+ stored positions in 57 S_n, 0 wrong", text)
    assert re.search(r"one_ply_check KQvKR: [\d,]+ stored positions .*, 0 wrong", text)
    for name in ("KPvK", "KQvKR", "KQvKR \\(Black mates\\)"):
        assert re.search(name + r" vs syzygy: [\d,]+ boards in \d+ S_n, 0 disagree", text), name
    assert re.search(r"KPvK: \S+ w - - 0 1  n = \d+, Syzygy's DTZ = 1: the best move \S+ is a pawn move", text)
    assert re.search(r"KQvKR: \S+ w - - 0 1  n = \d+, Syzygy's DTZ = 1: the best move \S+x\S+ is a capture", text)
    closing = re.search(r"(\d+) checks on (\d+) tables; boards that disagree: 0", text)
    assert closing and int(closing.group(2)) == 5  # KQvK, KRvK, KBBvK, KPvK, KQvKR
    # everything agrees: one line says so, and one figure shows the boards checked per n, 0 disagreeing
    assert "Validation of KQvK: every check agrees with the table on every board it looked at, in every S_n" in text
    assert "Gaviota DTM = n (every board): KQvK, KRvK" in text and "matching rate (every legal board): KQvK" in text
    assert sum("image/png" in o.get("data", {}) for o in outputs(notebook)) == 1
    # one byte changed in a copy of the table: every change is caught by some check, the real table by none
    assert "the same board in the real table, S_12: found wrong by 0 of 4 checks" in text
    changed = next(o["data"]["text/html"] for o in outputs(notebook)
                   if "one byte changed" in o.get("data", {}).get("text/html", ""))
    assert "S_12 → 255 (draw)" in changed and changed.count(">caught<") >= 3
    # the draws of our tables against Syzygy, on random legal boards
    for name in ("KQvK", "KBBvK", "KPvK", "KQvKR"):
        drawn = re.search(name + r" vs syzygy, draws: ([\d,]+) of 2,000 random legal boards are draws in our table, "
                                 r"0 of them not a draw for Syzygy", text)
        assert drawn and int(drawn.group(1).replace(",", "")) > 0, name


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_06_names_missing_reference_tables_instead_of_failing(tmp_path, linked_tables):
    empty = tmp_path / "empty"
    empty.mkdir()
    # MORE_TABLES empty: a table of it meets a missing reference through the same lookup as FILE, and its move
    # checks (the costly part) are the other test's
    parameters = {"FILE": "KQvK", "RESULTS_DIR": str(linked_tables("KQvK", "KRvK", "KBBvK")),
                  "REPORT_DIR": str(tmp_path / "Tests"), "SAMPLE": 20, "TABLES": ["KQvK"],
                  "GAVIOTA_FOLDERS": [str(empty)], "SYZYGY_FOLDERS": [str(empty)], "MORE_TABLES": []}
    notebook = execute_notebook(REPO / "06_validate_sequences.ipynb", parameters, tmp_path / "06.ipynb")
    text = stdout(notebook)
    assert f"Skipped: no gaviota table kqk.gtb.cp4 for KQvK in {empty}" in text
    assert f"Skipped: no syzygy table KQvK.rtbw for KQvK in {empty}" in text
    assert "0 wrong" in text  # the checks that need no reference still ran


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
@pytest.mark.stockfish
def test_05_plays_the_four_scenarios_and_writes_reports(tmp_path):
    from Util.stockfish.oracle import StockfishMissing, find_stockfish

    try:
        find_stockfish()
    except StockfishMissing as missing:
        missing_part(f"Stockfish unavailable: {missing}")
    parameters = {"FILE": "KQvK", "RESULTS_DIR": str(tmp_path / "results"), "REPORT_DIR": str(tmp_path / "Tests"),
                  "DEPTH": 8, "RANDOM_BOARDS": 6, "SEQUENCE_INDEX": 9, "SEQUENCE_SAMPLE": 4, "ALL_SAMPLE": 1,
                  "EXAMPLE_FEN": "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "BOARD_SIZE": 120, "HOLD_POSITIONS": 2}
    notebook = execute_notebook(REPO / "05_stockfish_compare.ipynb", parameters, tmp_path / "05.ipynb")
    assert_no_progress_text(notebook)
    text = stdout(notebook)
    assert re.search(r"Stockfish [\d.]+ at /", text)
    assert re.search(r"AI game\s+\d+ plies, checkmate", text)
    for scenario, positions in (("random_boards", 6), ("S_9", 4), ("all_S_n", 20)):
        assert f"{scenario} (KQvK): {positions} positions" in text
        reports = list((tmp_path / "Tests").glob(f"{scenario}_KQvK_*.txt"))
        assert len(reports) == 1 and "depth 8 per move" in reports[0].read_text()
        assert reports[0].with_suffix(".csv").exists()
    assert text.count("AI promise (mate within n plies) broken: 0") == 3 and "PROMISE BROKEN" not in text
    assert text.count("against the table's best defence (the same defence for both attackers)") == 3
    # the conclusions are computed: the failure count printed is the reports' own
    shares = re.findall(r"Stockfish failed to mate(?: against it)?: ([\d.]+) %", text)
    assert len(shares) == 6
    assert "* The AI kept its promise in" in text and "* Stockfish failed to mate in " in text
    never_failed = all(float(share) == 0 for share in shares)
    assert ("a move it always found the mate in the end" in text) == never_failed
    assert sum("image/png" in o.get("data", {}) for o in outputs(notebook)) == 3
    # drawn KRvKB positions: the report and the conclusion say the same
    held = re.search(r"Stockfish held the draw: (\d) of 2", text)
    assert held and len(list((tmp_path / "Tests").glob("hold_draws_KRvKB_*.csv"))) == 1
    assert f"Stockfish (depth 8) held {held.group(1)} and lost {2 - int(held.group(1))} (" in text


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_05_without_stockfish_says_how_to_install(tmp_path):
    parameters = {"FILE": "KQvK", "RESULTS_DIR": str(tmp_path / "results"), "REPORT_DIR": str(tmp_path / "Tests"),
                  "STOCKFISH_PATH": str(tmp_path / "no-stockfish")}
    notebook = execute_notebook(REPO / "05_stockfish_compare.ipynb", parameters, tmp_path / "05.ipynb")
    text = stdout(notebook)
    assert "The Stockfish sections are skipped: the path given" in text and "apt-get install stockfish" in text
    assert not (tmp_path / "Tests").exists()


#: The tables notebook 03 opens besides the game's own (its chapter on mutual zugzwangs). The runs of it from
#: a FEN and from a random start find them among the session's tables; the first run (notebooks_03_04) is
#: given KQvK alone, as a reader who has computed nothing else, and its kernel computes KPvK.
NOTEBOOK_03_TABLES = ("KQvK", "KPvK")


@pytest.fixture(scope="module")
def notebooks_03_04(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nb0304")
    games = folder / "games"
    common = {"RESULTS_DIR": str(folder / "results"), "BOARD_SIZE": 160}
    from Util.calculation.store import calculate

    calculate("KQvK", results_dir=folder / "results", progress=False)
    played = execute_notebook(REPO / "03_play_against_ai.ipynb", {**common, "GAMES_DIR": str(games)},
                              folder / "03.ipynb")
    replayed = execute_notebook(REPO / "04_play_from_history.ipynb",
                                {"GAMES_DIR": str(games), "DELAY": 0.01, "BOARD_SIZE": 160, **common},
                                folder / "04.ipynb")
    return played, replayed, games


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_03_sets_up_plays_a_demonstration_and_writes_history(notebooks_03_04):
    played, _, games = notebooks_03_04
    text = stdout(played)
    assert ("KQvK, White to move: White mates in 8 (15 plies); S_15: the AI mates in 15 plies (8 moves of White) "
            "against the best defence, sooner if the defence errs") in text
    assert "SetupError: 'i9' in WHITE_POSITIONS[queen] is not a square" in text
    assert "SetupError: the kings touch (e1 and e2)" in text
    assert "announced: mate in 15 plies; played: 15 plies" in text and "8. Qh8#" in text
    assert re.search(r"verdict on K\w+: K\w+ — best move", text)
    assert re.search(r"verdict on K\w+: K\w+ — (inaccuracy|mistake)", text)  # a worse move's verdict shown too
    assert re.search(r"KPvK: [\d,]+ mutual zugzwangs", text) and "KQvK: 0 mutual zugzwangs" in text
    widgets = [o for o in outputs(played) if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) == 3  # the game for a person, the chooser of a random game, and the demonstration
    # a game file appears with the person's first move: the page's own game wrote nothing, the
    # demonstration wrote its own folder
    assert not list(games.glob("Move-History_*"))
    demo = games / "demonstration"
    assert len(list(demo.glob("Move-History_*.txt"))) == 1 and len(list(demo.glob("Move-History_*.pgn"))) == 1
    # each widget leaves a static copy of itself: the final board of the demonstration, mate announced
    copies = [o["data"]["text/html"] for o in outputs(played) if "chessai-static-copy" in o.get("data", {}).get("text/html", "")]
    assert len(copies) == 3 and "<svg" in copies[0] and "<svg" in copies[2] and "Checkmate: White wins." in copies[2]
    assert "Random game chooser: tables KQvK" in copies[1] and "White mates in 1–10 moves (1–19 plies)" in copies[1]
    # each copy sits in the widget's own output, with a text/plain a reader understands (no widget repr)
    plain = ["".join(o["data"]["text/plain"]) for o in outputs(played)
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert all("Box(" not in p and "object at 0x" not in p for p in plain), plain
    # the person plays Black: Black's side at the bottom (the king of e7 in the second row from the foot, rank 7)
    assert "Black (Player) to move. White mates in 7 (14 plies)." in plain[0] and \
        plain[0].splitlines()[6] == "7 . . . k . . . ."
    # the game is the chapter's first output: no set-up board or status stands above it
    first = next(c for c in played.cells if c.cell_type == "code" and c.get("outputs"))
    assert "application/vnd.jupyter.widget-view+json" in first.outputs[0]["data"]
    headings = [c.source for c in played.cells if c.cell_type == "markdown" and c.source.startswith("## ")]
    before_game = played.cells[:played.cells.index(first)]
    assert not any(c.cell_type == "markdown" and c.source.startswith("## ") for c in before_game), headings
    assert_no_progress_text(played)


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_04_replays_the_newest_game(notebooks_03_04):
    played, replayed, games = notebooks_03_04
    text = stdout(replayed)
    assert "15 plies from 8/4k3/Q7/8/8/8/8/4K3 w - - 0 1" in text and "Finished!" in text
    assert re.search(r"HistoryError: .*\.broken_example\.txt, line 2: e7e6 is not legal", text)
    assert "1. a6g6 e7f8" in text
    assert re.search(r"-> \d{4}-\d\d-\d\d \d\d:\d\d · KQvK · 15 plies · 1-0 checkmate · demonstration", text)
    copies = [o["data"]["text/html"] for o in outputs(replayed) if "chessai-static-copy" in o.get("data", {}).get("text/html", "")]
    assert len(copies) == 2 and "<svg" in copies[0] and "ply 3 of 15" in copies[0]
    assert "The game at a glance (plies 0, 2, 4, 6, 9, 11, 13, 15):" in copies[0]  # a strip of boards for static readers
    assert "(White mates in 6 (12 plies))" in copies[0]  # the PGN's comment after the third move, the page's words
    # a game with one slower move, replayed from its PGN, stopped at the move its comment marks
    marked = re.search(r"the PGN marks ply (\d+), (\S+): (.*left the best line \((\S+) was better\))", text)
    assert marked and f"ply {marked.group(1)} of " in copies[1] and marked.group(3) in copies[1]
    assert ".pgn" in copies[1] or "(PGN)" in copies[1]
    for executed, name in ((played, "03.ipynb"), (replayed, "04.ipynb")):
        assert_html_shows_every_widget_copy(executed, games.parent / name)
    svgs = [o for o in outputs(replayed) if "image/svg+xml" in o.get("data", {})]
    assert svgs and "lastmove" in svgs[-1]["data"]["image/svg+xml"]  # start_replay ended on the last move


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_03_plays_white_from_a_fen_of_a_both_sided_table(tmp_path, linked_tables):
    fen = "8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1"
    results = linked_tables("KQvKR", *NOTEBOOK_03_TABLES)
    parameters = {"RESULTS_DIR": str(results), "GAMES_DIR": str(tmp_path / "games"), "BOARD_SIZE": 120,
                  "PLAY_AS": "white", "START_FEN": fen}
    played = execute_notebook(REPO / "03_play_against_ai.ipynb", parameters, tmp_path / "03.ipynb")
    text = stdout(played)
    announced = re.search(r"announced: mate in (\d+) plies; played: (\d+) plies", text)
    assert announced and announced.group(1) == announced.group(2)
    assert "KQvKR, White to move" in text
    assert not list((tmp_path / "games").glob("Move-History_*"))  # the person's game: no move, no file


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_03_draws_a_random_start_of_a_chosen_outcome(tmp_path, linked_tables):
    results = linked_tables("KRvK", *NOTEBOOK_03_TABLES)
    parameters = {"RESULTS_DIR": str(results), "GAMES_DIR": str(tmp_path / "games"), "BOARD_SIZE": 120,
                  "PLAY_AS": "white", "RANDOM_START": {"material": "KRvK", "white_to_move": True, "outcome": "win",
                                                       "min_plies": 25, "seed": 1}}
    text = stdout(execute_notebook(REPO / "03_play_against_ai.ipynb", parameters, tmp_path / "03.ipynb"))
    announced = re.search(r"announced: mate in (\d+) plies; played: (\d+) plies", text)
    assert announced and int(announced.group(1)) >= 25 and announced.group(1) == announced.group(2)
    assert re.search(r"KRvK, White to move: White mates in \d+ \(\d+ plies\); S_(\d+)", text)


def html_tables(notebook, heading: str) -> list:
    """The rows (lists of cell texts) of the first HTML table whose header row contains ``heading``."""
    import html as html_module

    for out in outputs(notebook):
        page = out.get("data", {}).get("text/html", "")
        if f"<th>{html_module.escape(heading)}</th>" in page:  # html_table escapes its header
            rows = re.findall(r"<tr>(.*?)</tr>", page)[1:]
            return [[html_module.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)] for row in rows]
    raise AssertionError(f"no table with the column {heading!r}")


def nodes_visited(board, depth: int) -> int:
    """The positions a full-width minimax to ``depth`` visits (the root included; a finished game is a leaf),
    counted with python-chess's move generator."""
    if depth == 0 or board.is_game_over():
        return 1
    total = 1
    for move in board.legal_moves:
        board.push(move)
        total += nodes_visited(board, depth - 1)
        board.pop()
    return total


#: Notebook 07's short run: its default game and checks, smaller pictures, a fifth of a second a move in your game.
NOTEBOOK_07_QUICK = {"MOVETIME": 0.2, "BOARD_SIZE": 160}


@pytest.fixture(scope="module")
def notebook_07(tmp_path_factory, linked_tables):
    """Notebook 07 run headless; its tables folder starts with KRvK alone, as for a reader who has run little
    else, so the notebook computes the table of its game's ending itself."""
    folder = tmp_path_factory.mktemp("nb07")
    tables = linked_tables("KRvK")
    executed = execute_notebook(REPO / "07_play_whole_game.ipynb", {**NOTEBOOK_07_QUICK, "RESULTS_DIR": str(tables)},
                                folder / "07.ipynb")
    return executed, folder / "07.ipynb"


def cell_outputs(notebook, start: str) -> list:
    """The outputs of the code cell whose source begins with ``start``."""
    cells = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith(start)]
    assert len(cells) == 1, start
    return cells[0].outputs


def cell_stdout(notebook, start: str) -> str:
    return "".join(o["text"] for o in cell_outputs(notebook, start) if o.get("name") == "stdout")


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_07_book_moves_are_in_the_polyglot_book(notebook_07):
    import chess
    import chess.polyglot

    from Util.whole_game.opening_book import find_default_book

    notebook, _ = notebook_07
    assert_no_progress_text(notebook)
    path = find_default_book()
    if path is None:
        missing_part("no Polyglot book (apt-get install gnuchess-book, or set CHESSAI_BOOK)")
    start = chess.Board()
    with chess.polyglot.open_reader(path) as reader:
        weights = {start.san(e.move): e.weight for e in reader.find_all(start)}
        rows = html_tables(notebook, "share of the weight")
        assert {row[0]: int(row[1]) for row in rows} == weights  # every book move, with python-chess's weight
        assert sum(int(row[3]) for row in rows) == 1000
        heaviest = max(rows, key=lambda row: int(row[1]))
        assert int(heaviest[3]) == max(int(row[3]) for row in rows)  # drawn most often
        line = re.search(r"(\d+) book plies: (.*)\n", stdout(notebook))
        assert line and int(line.group(1)) == len(line.group(2).split()) > 0
        board = chess.Board()
        for san in line.group(2).split():
            move = board.parse_san(san)
            assert move in {e.move for e in reader.find_all(board)}, (san, board.fen())
            board.push(move)
    keys = re.findall(r"key ([0-9a-f]{16})", stdout(notebook))
    one = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        one.push_san(san)
    assert keys == [f"{chess.polyglot.zobrist_hash(one):016x}"] * 2  # a transposition, one key


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_07_draws_the_tree_and_its_alpha_beta_equals_minimax(notebook_07):
    """The tree figure is drawn; on the tree and on chess boards alpha-beta finds minimax's value (and move)
    with fewer nodes; the plain minimax visits every position to its depth (counted here with python-chess),
    and the two-rook position's move really mates in two."""
    import chess

    notebook, _ = notebook_07
    assert any("image/png" in o.get("data", {}) for o in cell_outputs(notebook, "def value_of(path)"))
    text = stdout(notebook)
    assert "minimax value of the root: 6" in text
    assert "negamax value of the root: 6 | the same as minimax: True" in text
    assert "alpha-beta value of the root: 6 (minimax: 6); leaves looked at: 7 of 12" in text
    rows = html_tables(notebook, "minimax, depth 3")
    assert [row[0] for row in rows] == ["mate in two, two rooks", "a knight fork", "the middlegame of section 3"]
    fens = {"mate in two, two rooks": "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", "a knight fork": "r3k3/8/8/3N4/8/8/5P2/4K3 w - - 0 1"}
    cell = re.compile(r"(\S+) \((mates|[+-]\d+)\), ([\d,]+) nodes")
    for name, minimax, alphabeta, ordered in rows:
        (m_move, m_value, m_nodes), (a_move, a_value, a_nodes), (_, o_value, o_nodes) = (
            cell.fullmatch(c).groups() for c in (minimax, alphabeta, ordered))
        assert (a_move, a_value) == (m_move, m_value) and o_value == m_value, name
        nodes = [int(n.replace(",", "")) for n in (m_nodes, a_nodes, o_nodes)]
        assert nodes[0] > nodes[1] >= nodes[2], name
        if name in fens:
            assert nodes[0] == nodes_visited(chess.Board(fens[name]), 3), name
    def mates(board, move) -> bool:
        board.push(move)
        try:
            return board.is_checkmate()
        finally:
            board.pop()

    board = chess.Board(fens["mate in two, two rooks"])
    board.push_san(rows[0][1].split()[0])
    for reply in list(board.legal_moves):  # every defence is mated at once
        board.push(reply)
        assert any(mates(board, move) for move in list(board.legal_moves)), reply
        board.pop()
    assert "alpha-beta plays minimax's move with minimax's value in every position: True" in text


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_07_measures_the_engine_and_each_technique(notebook_07):
    import chess

    from Util.whole_game.kernels.work import FEATURE_NAMES

    notebook, _ = notebook_07
    engine = html_tables(notebook, "nodes (all depths so far)")
    depths = [int(row[0]) for row in engine]
    nodes = [int(row[1].replace(",", "")) for row in engine]
    assert depths == list(range(1, 10)) and nodes == sorted(nodes)
    position = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8")  # EVAL_FEN
    for row in engine:  # each depth's best line is legal from the position ("8. O-O dxc4 ...")
        line = chess.Board(position.fen())
        for san in (token for token in row[4].split() if not token.endswith(".")):
            line.push_san(san)
    features = html_tables(notebook, "nodes to depth 8")
    all_on = int(re.search(r"all techniques on: ([\d,]+) nodes", stdout(notebook)).group(1).replace(",", ""))
    assert len(features) == len(FEATURE_NAMES)  # every switch but the table probes, and aspiration windows
    for name, without, ratio in features:
        assert abs(int(without.replace(",", "")) / all_on - float(ratio)) < 0.01, name
    ratios = {name: float(ratio) for name, _, ratio in features}
    assert ratios["principal variation search"] > 1 and ratios["move ordering (captures)"] > 1
    budget = html_tables(notebook, "White's clock + increment")
    assert len(budget) == 4
    for _, soft, hard in budget:
        assert int(soft.split()[0].replace(",", "")) <= int(hard.split()[0].replace(",", ""))
    timed = [int(d) for d in re.findall(r"depth (\d+): \S+ at", stdout(notebook))]
    # one depth after the other (a better move found by a depth cut short by the clock is reported again
    # under the last finished depth)
    assert timed == sorted(timed) and sorted(set(timed)) == list(range(1, max(timed) + 1))


@pytest.mark.slow  # runs a notebook and a game against Stockfish
@pytest.mark.notebook
@pytest.mark.stockfish
def test_07_game_reaches_the_computed_table_and_ends_as_it_says(notebook_07, python_gaviota):
    """The annotated game: our book moves are the book's, the ending's table was computed by the notebook
    before the game, and from where the table took over (its depth to mate checked with Gaviota) every
    move of ours keeps the fastest mate, which comes as the table says."""
    import chess
    import chess.polyglot

    from Util.whole_game.opening_book import find_default_book

    notebook, _ = notebook_07
    if "no game: stockfish is not installed" in stdout(notebook):
        missing_part("stockfish is not installed (apt-get install stockfish)")
    parameters = next(c.source for c in notebook.cells if "parameters" in c.metadata.get("tags", []))
    ending = re.search(r'^GAME_ENDING = "(\w+)"', parameters, re.M).group(1)  # the table the game must reach
    assert re.search(rf"{ending}: computed in [\d.]+ s", stdout(notebook))
    text = cell_stdout(notebook, "if game is not None:\n    print(game.move_text())")
    moves = text.splitlines()[0]
    board, labels = chess.Board(), []
    for token in re.findall(r"\{[^}]*\}|\S+", moves):
        if token.startswith("{"):
            labels.append((board.ply() - 1, token[1:-1]))  # the label of the move just played
        elif not token[0].isdigit():
            board.push_san(token)
    assert board.is_checkmate() and board.turn == chess.BLACK  # White, ours, mated
    ours = {ply: label for ply, label in labels}
    assert len(ours) == (board.ply() + 1) // 2  # every move of ours is labelled
    kinds = [label.split(":")[0].split(",")[0] for _, label in labels]
    first_table = kinds.index("table")
    assert kinds[0] == "book" and "search" in kinds and set(kinds[first_table:]) == {"table"}
    replay = chess.Board()
    with chess.polyglot.open_reader(find_default_book()) as reader:
        for move in board.move_stack:
            if replay.ply() in ours and ours[replay.ply()].startswith("book"):
                weight = int(re.search(r"weight (\d+)", ours[replay.ply()]).group(1))
                assert weight in {e.weight for e in reader.find_all(replay) if e.move == move}
            replay.push(move)
    said = re.search(rf"ply (\d+): {ending}, .* says: White mates in (\d+) \((\d+) plies\)", stdout(notebook))
    assert said, stdout(notebook)
    ply, dtm = int(said.group(1)), int(said.group(3))
    start = chess.Board()
    for move in board.move_stack[:ply - 1]:
        start.push(move)
    assert python_gaviota.probe_dtm(start) == dtm and labels[first_table][0] == ply - 1
    given_away = 0
    for move in board.move_stack[ply - 1:]:
        before = python_gaviota.probe_dtm(start)
        start.push(move)
        after = 0 if start.is_checkmate() else python_gaviota.probe_dtm(start)
        if start.turn == chess.BLACK:  # our move: the fastest mate kept
            assert start.is_checkmate() or after == -(before - 1)
        else:
            given_away += (-before - 1) - after
    assert len(board.move_stack) - (ply - 1) == dtm - given_away
    assert f"gave away {given_away} plies; the game ended by checkmate, 1-0: as the table says: True" in stdout(notebook)


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_07_shows_no_strength_figure_without_its_basis(notebook_07):
    notebook, _ = notebook_07
    from Util.whole_game_lab.match_records import read_match_records

    everything = re.sub(r"<svg.*?</svg>", "", "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/html", "")) + str(o.get("data", {}).get("text/plain", ""))
        for o in outputs(notebook)), flags=re.S)
    sources = "".join(c.source for c in notebook.cells)
    assert not re.search(r"[+−-]\s?inf\b|\binf\b|infinity", everything), "an infinite Elo is shown"
    assert not re.search(r"about \d+ Elo", everything + sources), "a level's Elo without its basis"
    for withdrawn in ("2850", "300 ms"):  # the old label of level 8, the old overhead
        assert withdrawn not in everything and withdrawn not in sources, withdrawn
    assert "a match settles it" not in sources.lower()
    levels = html_tables(notebook, "plays the tables")
    for row in levels:
        assert row[-1] == "no fair measurement recorded yet" or re.search(r"\(\d+\.\.\d+, 95 %\), \d+ games", row[-1]), row
    if not read_match_records():
        assert "No fair measurement is recorded yet" in stdout(notebook)
    else:
        for row in html_tables(notebook, "move overhead ours / theirs"):
            _, _, tc, games, score, elo, overhead, flags = row[:8]
            assert tc and int(games) > 0 and re.fullmatch(r"\+\d+ =\d+ −\d+", score)
            assert "95 %" in elo or "settle nothing" in elo
            assert "ms" in overhead and re.fullmatch(r"\d+ / \d+", flags)


@pytest.mark.slow  # runs a notebook
@pytest.mark.notebook
def test_07_game_widget_leaves_a_readable_copy(notebook_07):
    import chess

    notebook, written = notebook_07
    copies = [o["data"] for o in outputs(notebook) if WIDGET_VIEW in o.get("data", {})]
    assert len(copies) == 1 and "chessai-static-copy" in copies[0]["text/html"] and "<svg" in copies[0]["text/html"]
    moves = re.search(r"1\. .*", copies[0]["text/plain"])
    assert moves, copies[0]["text/plain"]
    board = chess.Board()
    for token in moves.group(0).split():
        if not token.endswith("."):
            board.push_san(token)  # the copy's move list is a legal game
    typed = ["e4", "Nf3", "Bc4", "d3"]  # the parameters cell's TYPED_MOVES, White's moves of the game
    replay, white = chess.Board(), []
    for move in board.move_stack:
        if replay.turn == chess.WHITE:
            white.append(replay.san(move))
        replay.push(move)
    assert white and white == typed[:len(white)], white
    assert len(board.move_stack) == 2 * len(white)  # the AI answered each
    assert_html_shows_every_widget_copy(notebook, written)


@pytest.mark.slow  # runs a notebook and the server
@pytest.mark.notebook
def test_07_the_server_answers_over_http(notebook_07):
    import json

    import chess

    notebook, _ = notebook_07
    answers = [json.loads(line.split("-> ", 1)[1]) for line in
               cell_stdout(notebook, "import json").splitlines() if line.strip().startswith("-> ")]
    assert [a["source"] for a in answers] == ["book", "search"]
    opened = chess.Board()
    opened.push_uci("e2e4")
    assert chess.Move.from_uci(answers[0]["uci"]) in opened.legal_moves
    middlegame = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8")
    assert chess.Move.from_uci(answers[1]["uci"]) in middlegame.legal_moves and answers[1]["depth"] >= 1
