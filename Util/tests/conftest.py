"""Shared fixtures: tables computed once per test session, and the reference tablebases."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from Util.calculation.store import TableStore
from Util.validation.gaviota_native import GaviotaUnavailable, NativeGaviota
from Util.sequence import SnSequence
from Util.validation.references import open_syzygy, reference_folder


@pytest.fixture(scope="session")
def store(tmp_path_factory) -> TableStore:
    """Computes tables in memory on first use (an empty results folder, so nothing stale is loaded)."""
    return TableStore(tmp_path_factory.mktemp("results"), progress=False)


@pytest.fixture(scope="session")
def table_folder(store, tmp_path_factory):
    """``write(material)``: the folder of table files (format 4) into which the material's table and those
    it leads into have been written from the store; ``write.folder`` is that folder."""
    from Util.files.chessai import save_table
    from Util.calculation.boards import board_counts_by_winner
    from Util.board.material import Material

    folder = tmp_path_factory.mktemp("table_files")

    def write(material) -> Path:
        material = Material.parse(material) if isinstance(material, str) else material
        material = material.canonical
        path = folder / f"{material.name}.chessAI"
        if not path.exists() and (material.white or material.black):
            for child in material.dependencies():
                write(child)
            table = store.get(material)
            white, black = board_counts_by_winner(table)
            save_table(table, path, white, None if material.lone_black_king else black)
        return folder

    write.folder = folder
    return write


@pytest.fixture(scope="session")
def linked_tables(table_folder, tmp_path_factory):
    """``link(*materials)``: a new folder holding exactly these tables and those they lead into, hard links to
    ``table_folder``'s files.  A notebook or server given it loads the session's tables instead of computing
    its own, and what it may write there stays out of the other tests' folders."""
    from Util.calculation.store import calculation_order

    def link(*materials: str) -> Path:
        folder = tmp_path_factory.mktemp("tables")
        for material in calculation_order(materials):
            name = f"{material.canonical.name}.chessAI"
            os.link(table_folder(material) / name, folder / name)
        return folder

    return link


@pytest.fixture(scope="session")
def served_tables(linked_tables) -> Path:
    """A folder holding exactly the tables the server's tests serve (``served.MATERIALS`` and those they lead
    into), linked from ``table_folder``'s files: no table is computed twice in a session."""
    from Util.tests.served import MATERIALS

    return linked_tables(*MATERIALS)


@pytest.fixture(scope="session")
def tablebase(table_folder):
    """A Tablebase over ``table_folder``'s folder (fill it with ``table_folder(material)`` first)."""
    from Util.tablebase import Tablebase

    with Tablebase(table_folder.folder) as opened:
        yield opened


@pytest.fixture(scope="session")
def sequence_of(table_folder, tablebase):
    """The SnSequence of a material read through the Tablebase from its file (format 4): every check made
    through it goes through the block files and the stored index."""
    cache = {}

    def get(material: str) -> SnSequence:
        if material not in cache:
            table_folder(material)
            cache[material] = SnSequence.from_store(tablebase, material)
        return cache[material]

    return get


@pytest.fixture(scope="session")
def gaviota() -> NativeGaviota:
    folder = reference_folder("gaviota")
    try:
        return NativeGaviota(folder)
    except GaviotaUnavailable as error:
        pytest.skip(f"Gaviota reference unavailable: {error} (set GAVIOTA_PATH to a folder of *.gtb.cp4 files)")


@pytest.fixture(scope="session")
def syzygy():
    folder = reference_folder("syzygy")
    if not any(folder.glob("*.rtbw")):
        pytest.skip(f"Syzygy reference unavailable: no *.rtbw files in {folder} (set SYZYGY_PATH)")
    tablebase = open_syzygy(folder)
    yield tablebase
    tablebase.close()


@pytest.fixture(scope="session")
def python_gaviota():
    """python-chess's own Gaviota prober (it resolves en passant itself), over the reference folder."""
    import chess.gaviota

    folder = reference_folder("gaviota")
    if not (folder / "kqkr.gtb.cp4").exists():
        pytest.skip(f"Gaviota reference unavailable: no 4-piece tables in {folder} (set GAVIOTA_PATH)")
    tablebase = chess.gaviota.open_tablebase(str(folder))
    yield tablebase
    tablebase.close()
