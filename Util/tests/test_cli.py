"""The command line as scripts use it: real subprocesses, real files."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from Util.files.chessai import ChessAIFileError, load_checkpoint
from Util.board.material import Material
from Util.validation.references import gaviota_n

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args, stdin=None, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "Util", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=600)


@pytest.fixture(scope="module")
def kqk(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    result = run_cli("calculate", "KQvK", "--quiet", cwd=folder)
    assert result.returncode == 0, result.stderr
    path = folder / "S_n_Results" / "KQvK.chessAI"
    assert path.exists() and str(path.relative_to(folder)) in result.stdout
    return path


def test_stats_prints_n_count_lines_then_total(kqk, sequence_of):
    result = run_cli("stats", str(kqk))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    expected = sequence_of("KQvK").board_counts
    assert lines[:-1] == [f"{n} {count}" for n, count in sorted(expected.items())]
    assert lines[-1] == f"total {sum(expected.values())}"
    with_zugzwangs = run_cli("stats", str(kqk), "--zugzwangs").stdout.splitlines()
    assert with_zugzwangs[:-1] == lines and with_zugzwangs[-1] == "mutual_zugzwangs 0"  # KQvK: moving never hurts


def test_stats_draws_the_sizes_of_the_s_n_and_says_when_it_cannot(kqk, tmp_path):
    """``stats --plot FILE`` prints the same lines and writes the figure; a folder that is not there is refused
    with exit code 2 and a message naming the path, after the numbers were printed."""
    figure = tmp_path / "kqk.png"
    drawn = run_cli("stats", str(kqk), "--plot", str(figure))
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.splitlines()[:-1] == run_cli("stats", str(kqk)).stdout.splitlines()
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and figure.stat().st_size > 5000
    nowhere = tmp_path / "missing" / "kqk.png"
    refused = run_cli("stats", str(kqk), "--plot", str(nowhere))
    assert refused.returncode == 2 and str(nowhere) in refused.stderr and "total " in refused.stdout


def test_probe_answers_arguments_and_standard_input(kqk, sequence_of, gaviota):
    fens = ["8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", "8/8/8/8/8/8/1k6/KQ6 b - - 0 1"]
    by_args = run_cli("probe", str(kqk), *fens)
    by_stdin = run_cli("probe", str(kqk), stdin="\n".join(fens) + "\n")
    assert by_args.returncode == by_stdin.returncode == 0
    assert by_args.stdout == by_stdin.stdout
    answers = by_args.stdout.split()
    assert answers[1] == "0" and answers[2] == "-"
    assert int(answers[0]) == gaviota_n(gaviota, chess.Board(fens[0]))


def test_probe_answers_every_line_so_answers_line_up_with_questions(kqk):
    fens = ["8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "not a fen", "8/8/8/8/3k4/8/8/KR6 w - - 0 1",
            "8/8/8/8/8/2k5/8/KQ6", "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"]
    result = run_cli("probe", str(kqk), stdin="\n".join(fens) + "\n")
    assert result.returncode == 1
    answers = result.stdout.splitlines()
    assert len(answers) == len(fens)
    assert answers[1] == answers[2] == answers[3] == "error" and answers[4] == "0" and answers[0].isdigit()
    assert "FEN 2 'not a fen': not valid FEN" in result.stderr
    assert "FEN 3" in result.stderr and "KRvK" in result.stderr
    assert "FEN 4" in result.stderr and "no side to move" in result.stderr  # not silently taken as White to move


def test_probe_fen_option_prints_each_fen_before_its_answer(kqk):
    fens = ["8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"]
    plain = run_cli("probe", str(kqk), *fens).stdout.splitlines()
    echoed = run_cli("probe", "--fen", str(kqk), *fens).stdout.splitlines()
    assert echoed == [f"{fen}\t{answer}" for fen, answer in zip(fens, plain)]


def test_options_go_anywhere_among_the_fens(kqk, python_gaviota):
    """``probe KQvK --results DIR FEN --dtm FEN``: options between and after the positional arguments, as
    users write them (argparse alone calls the FENs after an option unrecognized)."""
    fens = ["8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"]
    result = run_cli("probe", "KQvK", "--results", str(kqk.parent), fens[0], "--dtm", fens[1])
    assert result.returncode == 0, result.stderr
    expected = [python_gaviota.probe_dtm(chess.Board(fen)) for fen in fens]
    assert [int(line) for line in result.stdout.split()] == expected and expected[0] > 0

def test_probe_without_a_table_says_that_fens_are_optional():
    result = run_cli("probe")
    assert result.returncode == 2 and "FENs are optional" in result.stderr and "Traceback" not in result.stderr


def test_calculate_says_so_when_white_cannot_force_mate(tmp_path):
    result = run_cli("calculate", "KNvK", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("KNvK: 0 boards in any S_n (White cannot force mate), written to")


def test_bad_material_and_missing_file_give_clear_messages(tmp_path):
    result = run_cli("calculate", "KQQQQvK", cwd=tmp_path)
    assert result.returncode == 2 and "at most 3 identical" in result.stderr and "S_n" not in result.stderr
    result = run_cli("calculate", "KRPvKRP", cwd=tmp_path)
    assert result.returncode == 2 and "without pawns" in result.stderr
    assert not any(tmp_path.rglob("*.chessAI"))  # refused before any sub-table was computed
    result = run_cli("stats", str(tmp_path / "nothing.chessAI"))
    assert result.returncode == 2 and "no such file" in result.stderr and "Traceback" not in result.stderr
    result = run_cli("stats", str(tmp_path / "KRvK.chessAI"))
    assert "compute it with: python -m Util calculate KRvK" in result.stderr


@pytest.mark.parametrize("command", ["calculate", "probe", "stats", "bench", "verify", "notebooks"])
def test_every_command_documents_itself(command):
    result = run_cli(command, "--help")
    assert result.returncode == 0 and "usage: python -m Util " + command in result.stdout


@pytest.mark.slow  # whole calculations in fresh processes
def test_serve_caches_by_default_what_the_server_module_says():
    """``serve --cache-mb``'s default is written out in cli.py (importing the server would load starlette
    for every command): it must stay the server's own default."""
    from Util import cli
    from Util.server import app as server

    assert cli.build_parser().parse_args(["serve"]).cache_mb == server.CACHE_MB


def test_bench_prints_one_row_per_table():
    result = run_cli("bench", "KQvK", "KRvK")
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert header.split()[:2] == ["material", "seconds"]
    assert [row.split()[0] for row in rows] == ["KQvK", "KRvK"]
    assert all(float(row.split()[1]) > 0 and int(row.split()[4]) in (20, 32) for row in rows)


@pytest.mark.slow  # whole calculations in fresh processes
def test_bench_reads_sub_tables_from_a_results_folder_and_leaves_it_as_it_was(tmp_path):
    results = tmp_path / "S_n_Results"
    assert run_cli("calculate", "KQvK", "KRvK", "--quiet", cwd=tmp_path).returncode == 0
    before = {p.name: p.stat().st_mtime_ns for p in results.iterdir()}
    result = run_cli("bench", "--results", str(results), "KRvKQ")  # either colour order names the table
    assert result.returncode == 0, result.stderr
    row = result.stdout.splitlines()[1].split()
    assert row[0] == "KQvKR" and float(row[1]) > 0 and int(row[4]) > 0
    assert {p.name: p.stat().st_mtime_ns for p in results.iterdir()} == before  # only read

    missing = run_cli("bench", "--results", str(tmp_path / "nowhere"), "KQvKR")
    assert missing.returncode == 2 and "is not a folder" in missing.stderr and missing.stdout == ""


@pytest.mark.slow  # whole calculations in fresh processes
def test_killed_calculation_resumes_to_an_identical_file(tmp_path):
    uninterrupted = tmp_path / "a" / "KBNvK.chessAI"
    assert run_cli("calculate", "KBNvK", "--out", str(uninterrupted), "--quiet").returncode == 0

    target = tmp_path / "b" / "KBNvK.chessAI"
    partial = target.with_name(target.name + ".partial")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    worker = subprocess.Popen([sys.executable, "-m", "Util", "calculate", "KBNvK", "--out", str(target), "--quiet",
                               "--checkpoint-seconds", "0"], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    n_done = -1
    while n_done < 40 and time.monotonic() < deadline and worker.poll() is None:
        time.sleep(0.05)
        if partial.exists():
            try:
                n_done = load_checkpoint(partial, Material.parse("KBNvK"))[0]
            except (ChessAIFileError, FileNotFoundError):
                pass  # replaced while we read it
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert worker.returncode == -signal.SIGKILL, "the calculation finished before it could be killed"
    assert partial.exists() and not target.exists() and n_done >= 40

    resumed = run_cli("calculate", "KBNvK", "--out", str(target), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming after ply" in resumed.stderr
    assert target.read_bytes() == uninterrupted.read_bytes()
    assert not partial.exists()


@pytest.fixture(scope="module")
def kqkr_folder(tmp_path_factory):
    """``calculate`` with two names, one of them colour-swapped: KQvKR and its sub-tables, in order."""
    folder = tmp_path_factory.mktemp("both")
    result = run_cli("calculate", "KRvKQ", "KQvK", "--quiet", cwd=folder)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["KQvK", "KRvK", "KQvKR"]
    assert "in White's S_n" in lines[-1] and "in Black's" in lines[-1]
    again = run_cli("calculate", "KQvKR", "KRvK", "--quiet", cwd=folder)
    assert again.stdout.splitlines() == ["KQvK: already computed", "KRvK: already computed",
                                         "KQvKR: already computed"]
    return folder


def test_verify_finds_each_gaviota_file_where_the_readme_says_and_names_a_missing_one(tmp_path):
    """``verify`` looks for each table's Gaviota file in ./gaviota first (where setup links Debian's 3-piece
    tables), then in GAVIOTA_PATH; a file in neither is named, with where to get it, and nothing is checked."""
    if not (REPO / "gaviota" / "kqk.gtb.cp4").exists():
        pytest.skip("./gaviota has no kqk.gtb.cp4: run bash scripts/setup.sh (it links Debian's gaviotatb tables)")
    empty = tmp_path / "no_tables_here"
    empty.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO), GAVIOTA_PATH=str(empty))

    def verify(*materials):
        return subprocess.run([sys.executable, "-m", "Util", "verify", *materials, "--results", str(tmp_path),
                               "--quiet"], capture_output=True, text=True, env=env, timeout=600)
    found = verify("KQvK")
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[-1].endswith("positions checked against Gaviota, 0 mismatches")
    missing = verify("KQvK", "KQvKR")
    assert missing.returncode == 2 and missing.stdout == "" and "Traceback" not in missing.stderr
    assert "no gaviota table kqkr.gtb.cp4 for KQvKR" in missing.stderr and "put it into ./gaviota" in missing.stderr


def test_a_table_named_alone_is_written_with_the_tables_it_leads_into(tmp_path):
    """``calculate KBvKN`` alone: the tables its captures lead into are written too, so that a probe of a
    capture finds them (the server never computes), and naming it again computes it again."""
    from Util.tablebase import Tablebase

    result = run_cli("calculate", "KNvKB", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["KBvK", "KNvK", "KBvKN"]
    folder = tmp_path / "S_n_Results"
    assert sorted(p.name for p in folder.iterdir()) == ["KBvK.chessAI", "KBvKN.chessAI", "KNvK.chessAI"]
    board = chess.Board("8/8/8/3k4/8/2n5/1B6/K7 w - - 0 1")  # Bxc3 leads into KBvK
    moves = {probe.move.uci(): probe for probe in Tablebase(folder).probe_moves(board)}
    assert "b2c3" in moves and len(moves) == board.legal_moves.count()
    again = run_cli("calculate", "KBvKN", "--quiet", cwd=tmp_path).stdout.splitlines()
    assert again[:2] == ["KBvK: already computed", "KNvK: already computed"] and "written to" in again[2]


@pytest.mark.slow  # computes tables in processes of their own
def test_calculate_computes_again_a_table_whose_file_was_cut_short(kqkr_folder, tmp_path):
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(kqkr_folder, folder)
    cut = folder / "S_n_Results" / "KRvK.chessAI"
    whole = cut.read_bytes()
    cut.write_bytes(whole[: len(whole) // 2])
    result = run_cli("calculate", "KQvKR", "KRvK", "--quiet", cwd=folder)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "KQvK: already computed" and lines[2] == "KQvKR: already computed"
    assert lines[1].startswith("KRvK: ") and "written to" in lines[1]
    assert cut.read_bytes() == whole


def test_probe_dtm_prints_gaviotas_signed_depth_for_either_colour_order(kqkr_folder, python_gaviota):
    import random

    rng, fens = random.Random(3), []
    while len(fens) < 60:
        letters = rng.choice(["KkQr", "KkRq"])  # KQvKR and KRvKQ boards: one table serves both
        board = chess.Board(None)
        for square, letter in zip(rng.sample(range(64), 4), letters):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            fens.append(board.fen())
    result = run_cli("probe", "--dtm", "KRvKQ", *fens, cwd=kqkr_folder)
    assert result.returncode == 0, result.stderr
    expected = [python_gaviota.probe_dtm(chess.Board(fen)) for fen in fens]
    assert [int(line) for line in result.stdout.split()] == expected
    assert any(v > 0 for v in expected) and any(v < 0 for v in expected)


def test_stats_of_a_both_sided_table_lists_both_winners(kqkr_folder, sequence_of):
    result = run_cli("stats", "KQvKR", cwd=kqkr_folder)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    sequence = sequence_of("KQvKR")
    white = {int(n): int(c) for n, c in (line.split() for line in lines if line[0].isdigit())}
    black = {int(n): int(c) for _, n, c in (line.split() for line in lines if line.startswith("black "))}
    assert white == sequence.board_counts and black == sequence.black.board_counts
    assert lines[-1] == f"total {sum(white.values()) + sum(black.values())}"


@pytest.mark.slow  # computes tables in processes of their own
def test_calculate_lets_go_of_each_table_before_the_next_one_starts(tmp_path, monkeypatch):
    """With several tables (``--all``), one table's arrays are freed before the next one is computed:
    a 5-piece pawn table's gigabyte must not stay through the next table's peak."""
    import gc
    import weakref

    from Util import cli
    from Util.calculation import store as calculation

    monkeypatch.chdir(tmp_path)
    computed = calculation.calculate_table
    earlier, alive_at_start = [], []

    def recording(material, *args, **kwargs):
        gc.collect()
        alive_at_start.append([ref() is not None for ref in earlier])
        result = computed(material, *args, **kwargs)
        earlier.append(weakref.ref(result[1]))
        return result

    monkeypatch.setattr(calculation, "calculate_table", recording)
    assert cli.main(["calculate", "KQvK", "KRvK", "KRvKQ", "--quiet"]) == 0
    assert len(alive_at_start) == 3 and alive_at_start[0] == []
    assert not any(any(alive) for alive in alive_at_start), alive_at_start


@pytest.mark.slow  # computes tables in processes of their own
def test_calculate_computes_large_tables_of_a_list_each_in_a_fresh_process(tmp_path, monkeypatch, capsys):
    """With several tables, each of APART_FROM_PIECES pieces (five; four here, to stay small) is computed in
    a process of its own, which gives its memory back when it ends; its summary line and its file are
    those of a calculation in this process."""
    from Util import cli
    from Util.calculation import store as calculation

    monkeypatch.setattr(cli, "APART_FROM_PIECES", 4)
    monkeypatch.chdir(tmp_path)
    here = []
    computed = calculation.calculate_table
    monkeypatch.setattr(calculation, "calculate_table",
                        lambda material, *a, **k: here.append(str(material)) or computed(material, *a, **k))
    assert cli.main(["calculate", "KQvK", "KRvK", "KRvKQ", "--quiet"]) == 0
    assert here == ["KQvK", "KRvK"]  # KQvKR, four pieces, was computed elsewhere
    apart = capsys.readouterr().out.splitlines()[-1]

    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "S_n_Results").mkdir()
    for name in ("KQvK", "KRvK"):
        os.link(tmp_path / "S_n_Results" / f"{name}.chessAI", alone / "S_n_Results" / f"{name}.chessAI")
    monkeypatch.chdir(alone)
    assert cli.main(["calculate", "KQvKR", "--quiet"]) == 0  # one table: in this process
    assert here[-1] == "KQvKR"
    assert capsys.readouterr().out.splitlines()[-1] == apart
    assert ((tmp_path / "S_n_Results" / "KQvKR.chessAI").read_bytes()
            == (alone / "S_n_Results" / "KQvKR.chessAI").read_bytes())



@pytest.mark.slow  # computes tables in processes of their own, one of them killed
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="finds the table's process through /proc (Linux)")
def test_calculate_says_what_to_do_when_a_table_process_is_killed(tmp_path):
    """The process computing one table of a list is killed (as the kernel's out-of-memory killer would):
    the command stops with exit status 1 and says how to go on, instead of a traceback."""
    script = ("import sys; from Util import cli; cli.APART_FROM_PIECES = 4; "
              "sys.exit(cli.main(['calculate', 'KQvK', 'KRvK', 'KRvKQ', '--quiet']))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline, killed = time.monotonic() + 120, False
    while not killed and time.monotonic() < deadline and parent.poll() is None:
        for child in Path("/proc").glob("[0-9]*"):
            try:
                status, command = (child / "status").read_text(), (child / "cmdline").read_bytes()
            except OSError:
                continue
            if f"\nPPid:\t{parent.pid}\n" in status and b"spawn_main" in command and b"resource_tracker" not in command:
                os.kill(int(child.name), signal.SIGKILL)
                killed = True
        time.sleep(0.01)
    out, err = parent.communicate(timeout=120)
    assert killed, "no process was started for KQvKR"
    assert parent.returncode == 1, (out, err)
    assert "the process computing KQvKR ended abruptly" in err and "run the same command again" in err
    assert "Traceback" not in err
    assert not (tmp_path / "S_n_Results" / "KQvKR.chessAI").exists()


def test_every_table_command_takes_the_same_results_folder(tmp_path, monkeypatch, sequence_of, gaviota):
    """``--results DIR``: calculate writes there (and finds there what is done), probe and stats read there."""
    monkeypatch.delenv("CHESSAI_RESULTS", raising=False)
    tables, elsewhere = tmp_path / "tables", tmp_path / "cwd"
    elsewhere.mkdir()
    result = run_cli("calculate", "--all", "--max-pieces", "3", "--results", str(tables), "--quiet", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tables.iterdir()) == [f"{m}.chessAI" for m in
                                                        ("KBvK", "KNvK", "KPvK", "KQvK", "KRvK")]
    assert str(tables / "KQvK.chessAI") in result.stdout and not (elsewhere / "S_n_Results").exists()

    both = run_cli("calculate", "KRvKQ", "KQvK", "--results", str(tables), "--quiet", cwd=elsewhere)
    assert both.returncode == 0, both.stderr
    lines = both.stdout.splitlines()
    assert lines[:2] == ["KQvK: already computed", "KRvK: already computed"]
    assert lines[2].startswith("KQvKR:") and lines[2].endswith(str(tables / "KQvKR.chessAI"))

    stats = run_cli("stats", "--results", str(tables), "KQvK", cwd=elsewhere)
    assert stats.returncode == 0, stats.stderr
    expected = sequence_of("KQvK").board_counts
    assert stats.stdout.splitlines() == [f"{n} {c}" for n, c in sorted(expected.items())] + [
        f"total {sum(expected.values())}"]
    fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
    probe = run_cli("probe", "--results", str(tables), "KvKQ", fen, cwd=elsewhere)  # either colour order
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == [str(gaviota_n(gaviota, chess.Board(fen)))]

    missing = run_cli("stats", "--results", str(tables), "KBBvK", cwd=elsewhere)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "python -m Util calculate KBBvK --results" in missing.stderr


@pytest.mark.slow  # four processes for the older options; --results is in the quick loop
def test_out_and_the_chessai_results_variable_still_name_where_a_table_goes(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSAI_RESULTS", str(tmp_path / "by_variable"))
    result = run_cli("calculate", "KRvK", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "by_variable" / "KRvK.chessAI").exists()
    assert run_cli("stats", "KRvK", cwd=tmp_path).stdout == run_cli(
        "stats", "--results", str(tmp_path / "by_variable"), "KRvK").stdout
    out = tmp_path / "one" / "rook.chessAI"
    result = run_cli("calculate", "KRvK", "--out", str(out), "--results", str(tmp_path / "unused"), "--quiet",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == (tmp_path / "by_variable" / "KRvK.chessAI").read_bytes()
    assert not (tmp_path / "unused" / "KRvK.chessAI").exists()
