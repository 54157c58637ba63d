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

from .board_int import BoardIntError, to_board, to_integer
from .calculation import RESULTS_DIR, TableStore, calculate, resume_from_file, run_from_start
from .chessai_file import FORMAT_VERSION, ChessAIFileError, load_table, save_table
from .material import Material, MaterialError
from .retrograde import UNKNOWN, DtmTable, compute_table
from .sequence import SnSequence, SnSet, find_next_move, find_situation_in_sequence, load_s_n_sequence
from .symmetry import SWAPS, Swap_Type, mirror

__all__ = [
    "BoardIntError", "to_board", "to_integer",
    "RESULTS_DIR", "TableStore", "calculate", "resume_from_file", "run_from_start",
    "FORMAT_VERSION", "ChessAIFileError", "load_table", "save_table",
    "Material", "MaterialError",
    "UNKNOWN", "DtmTable", "compute_table",
    "SnSequence", "SnSet", "find_next_move", "find_situation_in_sequence", "load_s_n_sequence",
    "SWAPS", "Swap_Type", "mirror",
]
