"""The compact engine of six-piece tables, checked on small tables: its index against python-chess's boards, its
tables against Gaviota and the five-piece engine, its file (format 5) as probes read it, its memory layout (the
long mates listed apart from the bytes, seeds instead of exit bytes), its checkpoints, its retrograde check."""

from __future__ import annotations

import hashlib
import json
import random

import chess
import numpy as np
import pytest

from Util.board.material import Material
from Util.board.random_boards import random_legal_board
from Util.calculation.compact_store import load_state
from Util.calculation.store import TableStore, calculate_table
from Util.retrograde.compact import CompactPolicy, CompactState, compute_compact_table
from Util.table.compact_index import CompactLayout, compact_index
from Util.table.compact_table import WIDE_UNKNOWN
from Util.tablebase import Tablebase
from Util.validation.compact_check import load_compact_table, retrograde_check

SMALL = ("KQvKR", "KBBvK", "KRvKN")


def _squares(board: chess.Board, material: Material):
    """The board's squares in the material's PIECE_LIST order (identical pieces in ascending order)."""
    found, seen = [], {}
    for letter in material.letters:
        squares = sorted(board.pieces(chess.PIECE_SYMBOLS.index(letter.lower()), letter.isupper()))
        found.append(squares[seen.get(letter, 0)])
        seen[letter] = seen.get(letter, 0) + 1
    return found


#: The board's eight symmetries, as python-chess's transforms of bitboards.
SYMMETRIES = [lambda b: b, chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal,
              lambda b: chess.flip_vertical(chess.flip_horizontal(b)), lambda b: chess.flip_vertical(chess.flip_diagonal(b)),
              lambda b: chess.flip_horizontal(chess.flip_diagonal(b))]


@pytest.mark.parametrize("name", ["KRNvKNN", "KRRvKNN", "KBBNvK"])
def test_every_symmetric_board_has_one_entry(name):
    """python-chess's eight symmetries of a board (mirrors, flips, rotations) and the identical pieces in any
    order give one entry, within the table's size, and the entry decodes to one of those boards."""
    material, rng = Material.parse(name), random.Random(7)
    layout = CompactLayout(material)
    for _ in range(300):
        board = random_legal_board(material, rng)
        index = compact_index(material, _squares(board, material))
        assert 0 <= index < layout.size
        assert {compact_index(material, _squares(board.transform(t), material)) for t in SYMMETRIES} == {index}
        decoded = [int(s[0]) for s in layout.decode(np.array([index]))]
        assert compact_index(material, decoded) == index
        assert decoded in [_squares(board.transform(t), material) for t in SYMMETRIES]


def test_the_index_is_a_quarter_of_the_other_scheme_for_krnvknn():
    """KRNvKNN: 462 king pairs * 64 * 64 * 2,016 pairs of knights = 3.81 G entries a side, against 10 * 64**5."""
    layout = CompactLayout(Material.parse("KRNvKNN"))
    assert layout.radices == (462, 64, 64, 2016)
    assert layout.size == 3_814_981_632 and layout.size * 2.8 < 10 * 64 ** 5


@pytest.mark.parametrize("name", SMALL)
def test_equal_to_the_five_piece_engine(name, store):
    """Every position of the compact table has the value of the other engine's table (which test_against_references
    checks against Gaviota), both sides to move."""
    material = Material.parse(name)
    old = store.get(material)
    table = compute_compact_table(material, {m: store.get(m) for m in material.dependencies()}, threads=2)
    layout = CompactLayout(material)
    index = np.arange(layout.size)
    squares = layout.decode(index)
    entry = np.ones(index.size, bool)
    for i in range(len(squares)):
        for j in range(i + 1, len(squares)):
            entry &= squares[i] != squares[j]
    entry &= layout.encode_canonical(squares) == index  # the other entries hold no position
    positions = old.layout.encode_canonical([s[entry] for s in squares])
    for side, values in enumerate((old.dtm_white, old.dtm_black)):
        ours = table.values(side, 0, layout.size)[entry].astype(np.int64)
        theirs = values[positions].astype(np.int64)
        ours[ours == WIDE_UNKNOWN], theirs[theirs == 255] = -1, -1
        assert np.array_equal(ours, theirs), f"{name}: {np.count_nonzero(ours != theirs)} values differ"
        assert (table.values(side, 0, layout.size)[~entry] == WIDE_UNKNOWN).all()


@pytest.fixture(scope="module")
def compact_folder(table_folder, tmp_path_factory):
    """A folder with KQvKR in format 5 (computed compact) and the tables it leads into."""
    folder = tmp_path_factory.mktemp("compact")
    for child in ("KQvK", "KRvK"):
        (folder / f"{child}.chessAI").write_bytes((table_folder(child) / f"{child}.chessAI").read_bytes())
    calculate_table("KQvKR", results_dir=folder, progress=False, compact=True, checkpoint_seconds=-1)
    return folder


def test_format_5_probes_equal_gaviota(compact_folder, python_gaviota):
    """Random KQvKR positions probed in the format-5 file give Gaviota's depth to mate."""
    rng = random.Random(11)
    with Tablebase(compact_folder) as tablebase:
        assert tablebase.table("KQvKR").compact
        for _ in range(1500):
            board = random_legal_board(Material.parse("KQvKR"), rng)
            assert tablebase.probe_dtm(board) == python_gaviota.probe_dtm(board), board.fen()


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_long_mates_listed_apart_and_the_scan_give_the_same_file(compact_folder, tmp_path):
    """The memory layout: n from the tail on listed beside the bytes (a tail of 20 on KQvKR, whose mates reach 70),
    every ply's new positions found again in the array (a list limit of 1,000), one thread: the same file."""
    material = Material.parse("KQvKR")
    store = TableStore(compact_folder, progress=False)
    table = compute_compact_table(material, store.subtables_of(material), threads=1,
                                  policy=CompactPolicy(tail=20, list_limit=1000, span=1 << 16, batch=1 << 10))
    assert table.tail == 20 and max(table.tails[0]) == 69 and (table.bytes_[0] < 255).any()
    assert all(np.all(table.bytes_[side][list(table.tails[side][69])] == 21) for side in (0,) if 69 in table.tails[side])
    from Util.calculation.boards import compact_board_counts_by_winner
    from Util.files.chessai import save_compact_table

    save_compact_table(table, tmp_path / "KQvKR.chessAI", *compact_board_counts_by_winner(table))
    assert _sha(tmp_path / "KQvKR.chessAI") == _sha(compact_folder / "KQvKR.chessAI")


def test_a_resumed_calculation_writes_the_same_file(compact_folder, tmp_path):
    """Stopped after ply 30 (its state saved as calculate saves it), resumed from that state: the same file."""
    material = Material.parse("KQvKR")
    store = TableStore(compact_folder, progress=False)

    class Stop(Exception):
        pass

    def stop_after_30(state: CompactState) -> None:
        if state.n_done == 30:
            from Util.calculation.compact_store import save_state

            save_state(tmp_path / "KQvKR.chessAI.partial", material, state)
            raise Stop

    with pytest.raises(Stop):
        compute_compact_table(material, store.subtables_of(material), checkpoint=stop_after_30)
    state = load_state(tmp_path / "KQvKR.chessAI.partial", material)
    assert state.n_done == 30
    for name in ("KQvK", "KRvK"):
        (tmp_path / f"{name}.chessAI").write_bytes((compact_folder / f"{name}.chessAI").read_bytes())
    calculate_table("KQvKR", results_dir=tmp_path, progress=False, compact=True, checkpoint_seconds=-1)
    assert not (tmp_path / "KQvKR.chessAI.partial").exists()
    assert _sha(tmp_path / "KQvKR.chessAI") == _sha(compact_folder / "KQvKR.chessAI")


def test_the_retrograde_check_passes_and_finds_a_changed_value(compact_folder):
    store = TableStore(compact_folder, progress=False)
    table = load_compact_table(compact_folder / "KQvKR.chessAI")
    assert retrograde_check(table, store, sample=50_000).failures == 0
    values = table.bytes_[0]
    changed = int(np.flatnonzero(values == 15)[0])
    values[changed] = 17
    result = retrograde_check(table, store, sample=None)
    assert result.failures >= 1 and (changed, 0, 17, 15) in result.examples


def test_the_command_line_computes_checks_and_probes_a_compact_table(compact_folder, tmp_path, python_gaviota):
    """``calculate --compact`` writes format 5 (its sub-tables as usual), ``verify --retrograde`` passes it,
    ``probe --dtm`` answers Gaviota's value, ``verify --longest-line`` is refused a table that is no file."""
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "Util", *args], capture_output=True, text=True, timeout=1800)

    done = run("calculate", "KQvKR", "--compact", "--results", str(tmp_path), "--quiet")
    assert done.returncode == 0, done.stderr
    assert _sha(tmp_path / "KQvKR.chessAI") == _sha(compact_folder / "KQvKR.chessAI")
    checked = run("verify", "KQvKR", "--retrograde", "--sample", "20000", "--results", str(tmp_path))
    assert checked.returncode == 0 and "40,000 positions checked" in checked.stdout and " 0 failures" in checked.stdout
    fen = "8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1"
    probed = run("probe", "--dtm", "KQvKR", fen, "--results", str(tmp_path))
    assert probed.stdout.split() == [f"{python_gaviota.probe_dtm(chess.Board(fen)):+d}"]
    refused = run("calculate", "KRPvKR", "--compact", "--results", str(tmp_path))
    assert refused.returncode == 2 and "pawnless" in refused.stderr


@pytest.mark.slow
def test_the_server_answers_from_a_compact_table(compact_folder, tmp_path, python_gaviota):
    """``/standard`` on a folder whose KQvKR is in format 5 answers each move's dtm as Gaviota, and a board of
    six pieces is asked of its table (missing here: the answer says which), not refused for its count."""
    from Util.tests.served import get_json, running_server

    fen = "8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1"
    with running_server(compact_folder, tmp_path / "server.log") as base:
        status, answer = get_json(base, "/standard", fen=fen)
        assert status == 200 and answer["dtm"] == python_gaviota.probe_dtm(chess.Board(fen))
        for move in answer["moves"]:
            board = chess.Board(fen)
            board.push_uci(move["uci"])
            if not board.is_game_over():
                assert move["dtm"] == python_gaviota.probe_dtm(board), move
        status, answer = get_json(base, "/standard", fen="8/8/8/3k4/2n5/8/1r6/KQN5 w - - 0 1")
        assert "at most five" not in json.dumps(answer) and "at most six" not in json.dumps(answer)


def test_the_longest_line_is_played_past_the_75_move_rule(compact_folder):
    """``verify --longest-line`` plays a table's mate to the end however long it runs without a capture (depth to
    mate knows no 75-move rule; KRNvKNN's 523 plies run 150 and more without one): from a position whose
    halfmove clock already stands at 149, the table mates in exactly its n plies against Stockfish."""
    from Util.stockfish.longest_line import play_longest_line
    from Util.stockfish.oracle import find_stockfish
    from Util.tablebase import Tablebase

    try:
        find_stockfish()
    except Exception as missing:  # noqa: BLE001 - the reason is printed with the skip
        pytest.skip(f"Debian's stockfish is needed: {missing}")
    fen = "8/8/8/3k4/8/8/8/KR6 w - - 149 100"  # no capture on the way to mate
    with Tablebase(compact_folder) as tablebase:
        n = abs(tablebase.probe_dtm(chess.Board(fen)))
        played = play_longest_line(tablebase, fen, think_ms=5)
    assert n > 2 and played.mate and played.plies == n, played.line()
