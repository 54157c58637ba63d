"""The whole-game engine's compiled kernels (numba): attack tables, positions, moves, keys, evaluation,
search and perft.  They import nothing of the package above them."""
