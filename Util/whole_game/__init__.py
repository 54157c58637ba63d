"""The whole-game chess engine: rules at speed (bitboards compiled with numba), position keys equal to
Polyglot's, and an iterative-deepening alpha-beta search over a tapered, weighted evaluation.

``kernels/`` holds the compiled loops (they never import the Python that drives them); the modules here
turn python-chess boards into the kernels' arrays and back (:mod:`.position`), count moves
(:mod:`.perft`), hold the evaluation's weights (:mod:`.evaluation`) and drive the search (:mod:`.search`).
"""
