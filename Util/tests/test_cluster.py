"""Every table a task of a Dask cluster: the graph's order against python-chess's captures and promotions, the
LocalCluster's files byte-identical to the plain run's, and a worker killed mid-table has its table computed again."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import threading
import time

import chess
import pytest

from Util.board.material import Material, material_of_board
from Util.board.random_boards import random_legal_board
from Util.calculation.cluster import calculate_on_cluster, table_graph
from Util.calculation.store import all_materials, calculate_table, calculation_order

SMALL = ["KQvKR", "KRvKN", "KPvK"]


def _reached_by_python_chess(material: Material, boards: int = 60) -> set:
    """The materials (canonical) that python-chess's legal captures and promotions lead to from random boards."""
    rng, found = random.Random(5), set()
    for _ in range(boards):
        for turn in (chess.WHITE, chess.BLACK):
            board = random_legal_board(material, rng, turn=turn)
            for move in board.legal_moves:
                if board.is_capture(move) or move.promotion:
                    board.push(move)
                    child = material_of_board(board).canonical
                    if child.white or child.black:
                        found.add(child)
                    board.pop()
    return found


def test_the_graph_orders_every_table_after_the_tables_it_needs():
    """The 35 tables of three and four pieces: each task comes after the tasks it needs, and what it needs holds
    every table python-chess's captures and promotions reach from its positions (and no other material)."""
    order = calculation_order(max_pieces=4)
    tasks = table_graph(order)
    assert [t.material for t in tasks] == order and len(order) == 35
    place = {t.material: k for k, t in enumerate(tasks)}
    for task in tasks:
        assert all(place[need] < place[task.material] for need in task.needs), task
        reached = _reached_by_python_chess(task.material)
        assert reached <= set(task.needs), (task.material, reached - set(task.needs))
        assert set(task.needs) <= set(task.material.dependencies())
    assert {m for t in tasks for m in t.needs} <= set(all_materials(4))


def test_a_table_the_list_lacks_is_named():
    with pytest.raises(ValueError, match="KQvKR needs KQvK"):
        table_graph([Material.parse("KRvK"), Material.parse("KQvKR")])


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The tables of SMALL and those they need, computed one after another in this process."""
    folder = tmp_path_factory.mktemp("plain")
    for material in calculation_order(SMALL):
        calculate_table(material, results_dir=folder, progress=False)
    return folder


def test_a_local_cluster_writes_the_same_files(plain, tmp_path):
    """A LocalCluster of two worker processes computes the graph into one folder: byte-identical files."""
    found = calculate_on_cluster(calculation_order(SMALL), tmp_path, workers=2)
    for material in calculation_order(SMALL):
        name = f"{material.name}.chessAI"
        assert found[material] == _sha(plain / name) == _sha(tmp_path / name), material


@pytest.mark.slow
def test_a_worker_killed_mid_table_has_its_table_computed_again(plain, tmp_path):
    """KQvKR's worker is killed (SIGKILL) while it computes the table (its checkpoint, saved after every ply, is
    there): the scheduler gives the task to a worker again, and the file is the plain run's."""
    from dask.distributed import Client, LocalCluster

    materials = calculation_order(["KQvKR"])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        partial = tmp_path / "KQvKR.chessAI.partial"
        killed = []

        def kill_when_mid_table() -> None:
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline and not (tmp_path / "KQvKR.chessAI").exists():
                if partial.exists():
                    for address, keys in client.processing().items():
                        if "table-KQvKR" in keys:
                            pid = client.run(os.getpid, workers=[address])[address]
                            os.kill(pid, signal.SIGKILL)
                            killed.append(pid)
                            return
                time.sleep(0.005)

        watcher = threading.Thread(target=kill_when_mid_table)
        watcher.start()
        found = calculate_on_cluster(materials, tmp_path, client=client, checkpoint_seconds=0)
        watcher.join()
    assert killed, "the worker was not caught mid-table"
    starts = [line for line in (tmp_path / "cluster.log").read_text().splitlines() if "start KQvKR" in line]
    assert len(starts) >= 2 and f"pid {killed[0]}" in starts[0]
    assert found[Material.parse("KQvKR")] == _sha(plain / "KQvKR.chessAI") == _sha(tmp_path / "KQvKR.chessAI")
