"""Chess endgame AI by retrograde analysis: the machinery behind the notebooks.

The S_n sets of the thesis "Entwicklung einer KI für das Schach-Endspiel":
S_0 holds the positions where Black is checkmated; odd n, White to move
and mating in n plies; even n, Black to move and mated in n plies whatever
it does.  n is exact depth to mate, as in Gaviota.  With pieces on both
sides either side may mate: odd n, the side to move mates; even n, it is
mated (``sequence.black[n]`` are the sets in which Black mates).

Typical use::

    from Util import calculate, load_s_n_sequence, find_next_move
    calculate("KBNvK")                       # writes S_n_Results/KBNvK.chessAI
    s_n_sequence = load_s_n_sequence("KBNvK")
    n = s_n_sequence.find_board(board)       # -1 if White cannot force mate
    n, move = find_next_move(board, n, s_n_sequence)
"""

# Names are imported on first use (PEP 562), so that ``python -m Util probe`` and the
# server start without the engine's compiled kernels, which only a calculation needs.
_MODULE_OF = {
    'BoardIntError': 'board.integer',
    'to_board': 'board.integer',
    'to_integer': 'board.integer',
    'RESULTS_DIR': 'folders',
    'TableStore': 'calculation.store',
    'calculate': 'calculation.store',
    'resume_from_file': 'calculation.store',
    'run_from_start': 'calculation.store',
    'FORMAT_VERSION': 'files.chessai',
    'ChessAIFileError': 'files.chessai',
    'load_table': 'files.chessai',
    'save_table': 'files.chessai',
    'Material': 'board.material',
    'MaterialError': 'board.material',
    'UNKNOWN': 'table.values',
    'DtmTable': 'table.dtm_table',
    'compute_table': 'retrograde',
    'SnSequence': 'sequence',
    'SnSet': 'sequence',
    'find_next_move': 'sequence',
    'find_situation_in_sequence': 'sequence',
    'load_s_n_sequence': 'sequence',
    'SWAPS': 'board.symmetry',
    'Swap_Type': 'board.symmetry',
    'mirror': 'board.symmetry',
}

__all__ = list(_MODULE_OF)


def __getattr__(name: str):
    if name in _MODULE_OF:
        from importlib import import_module

        value = getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
